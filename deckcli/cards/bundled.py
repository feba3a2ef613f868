"""The index of the bundled card database, shipped inside the package.

Compiling ``card_db/`` takes most of a second (pydantic, ruamel.yaml), and a tournament's CI
runner starts with an empty cache every time. So the package carries that index ready-made
(``bundled.sqlite`` beside this module). The first run on a machine copies it into the cache,
with this machine's keys, instead of compiling: only when the index would cover the bundled
database alone, and only when the sources still hash to what it was built from (so an edited
``card_db/`` is compiled as before, never shadowed). A read-only cache reads it in place.

After editing ``card_db/``, refresh it from a source checkout with::

    python -m deckcli.cards.bundled

A test fails while it is out of date.
"""

from __future__ import annotations

import marshal
import os
import sqlite3

from deckcli.cards import cache as _cache
from deckcli.cards.cache import (
    _content_key,
    _dirs_key,
    _source_files,
    build_index,
    write_atomically,
)
from deckcli.cards.index import SCHEMA_VERSION, CardIndex

BUNDLED_INDEX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundled.sqlite")


def usable(files: list[str]) -> bool:
    """Whether the shipped index was built from exactly these sources, by a compatible build."""
    try:
        conn = sqlite3.connect(f"file:{BUNDLED_INDEX}?mode=ro&immutable=1", uri=True)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta"))
        finally:
            conn.close()
    except sqlite3.Error:  # missing or damaged: compile instead
        return False
    return (meta.get("schema") == SCHEMA_VERSION
            and meta.get("marshal", "").isdigit() and int(meta["marshal"]) <= marshal.version
            and meta.get("content_key") == _content_key(files))


def from_bundled(dirs: list[str], files: list[str], path: str, stat_key: str
                 ) -> CardIndex | None:
    """The shipped index, copied to ``path`` (or read in place), or None to compile instead."""
    if dirs != [_cache.builtin_db_dir()] or not os.path.exists(BUNDLED_INDEX) \
            or not usable(files):
        return None

    def fill(conn: sqlite3.Connection) -> None:
        shipped = sqlite3.connect(f"file:{BUNDLED_INDEX}?mode=ro&immutable=1", uri=True)
        try:
            shipped.backup(conn)
        finally:
            shipped.close()
        conn.executemany("UPDATE meta SET value=? WHERE key=?",
                         [(stat_key, "stat_key"), (_dirs_key(dirs), "dirs")])
        conn.commit()

    try:
        write_atomically(path, fill)
        return CardIndex(sqlite3.connect(f"file:{path}?mode=ro", uri=True), dirs, path)
    except (OSError, sqlite3.Error):  # a read-only cache: use the shipped file where it is
        conn = sqlite3.connect(f"file:{BUNDLED_INDEX}?mode=ro&immutable=1", uri=True)
        return CardIndex(conn, dirs, None)


def write_bundled() -> str:
    """Compile the bundled database into BUNDLED_INDEX (from a source checkout)."""
    dirs = [_cache.builtin_db_dir()]
    files = _source_files(dirs)
    if os.path.exists(BUNDLED_INDEX):
        os.unlink(BUNDLED_INDEX)
    index = build_index(dirs, files, BUNDLED_INDEX, stat_key="")
    index.conn.close()
    if index.path != BUNDLED_INDEX:
        raise SystemExit(f"could not write {BUNDLED_INDEX}")
    with sqlite3.connect(BUNDLED_INDEX) as conn:  # no trace of this machine in the package
        conn.execute("UPDATE meta SET value='' WHERE key='dirs'")
    conn.close()
    os.chmod(BUNDLED_INDEX, 0o644)
    return BUNDLED_INDEX


if __name__ == "__main__":
    print(f"wrote {write_bundled()}")
