"""Files, below every package that reads or writes them: the safe writer (:mod:`.write`:
atomic, locked, refusing what it must not replace) and its lock (:mod:`.lock`), a file's bytes
read as text (:mod:`.text`), and where a folder walk may read (:mod:`.bounds`). It knows files,
not decks."""
