"""Files, below every package that reads or writes them: the safe writer
(:mod:`.write`: atomic, locked, refusing what it must not replace) and its lock
(:mod:`.lock`). It knows files, not decks."""
