"""The index of the bundled card database, shipped inside the package.

Compiling ``card_db/`` takes most of a second (pydantic, ruamel.yaml), and a tournament's CI
runner starts with an empty cache every time. So the package carries that index ready-made
(``bundled.sqlite`` beside this module, stamped as every index file is: see
:mod:`deckcli.cards.cache`). The first run on a machine copies it into the cache, with this
machine's keys, instead of compiling: only when the index would cover the bundled database
alone, when its stamp checks, and when the sources still hash to what it was built from (so
an edited ``card_db/`` is compiled as before, never shadowed). A read-only cache keeps the
copy in memory.

After editing ``card_db/``, refresh it from a source checkout with::

    python -m deckcli.cards.bundled

A test fails while it is out of date.
"""

from __future__ import annotations

import marshal
import os

from deckcli.cards.build import build_index
from deckcli.cards.cache import (
    CHECKED_SUFFIX,
    builtin_db_dir,
    content_key,
    dirs_key,
    open_image,
    read_image,
    save,
    source_files,
)
from deckcli.cards.index import CardIndex

BUNDLED_INDEX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundled.sqlite")


def _shipped(files: list[str]):
    """(connection, meta) of the shipped index if it is whole (its stamp checks) and was built
    from exactly these sources by a compatible build, else None."""
    found = read_image(BUNDLED_INDEX)
    opened = open_image(found[0]) if found is not None else None
    if opened is None:  # missing or damaged: compile instead
        return None
    conn, meta = opened
    if (meta.get("marshal", "").isdigit() and int(meta["marshal"]) <= marshal.version
            and meta.get("content_key") == content_key([builtin_db_dir()], files)):
        return conn, meta
    conn.close()
    return None


def usable(files: list[str]) -> bool:
    """Whether the shipped index is whole and was built from exactly these sources."""
    found = _shipped(files)
    if found is not None:
        found[0].close()
    return found is not None


def from_bundled(dirs: list[str], files: list[str], path: str, stat_key: str
                 ) -> CardIndex | None:
    """The shipped index with this machine's keys, copied to ``path`` (where the cache
    cannot be written: kept in memory), or None to compile instead."""
    if dirs != [builtin_db_dir()]:
        return None
    found = _shipped(files)
    if found is None:
        return None
    conn = found[0]
    conn.executemany("UPDATE meta SET value=? WHERE key=?",
                     [(stat_key, "stat_key"), (dirs_key(dirs), "dirs")])
    conn.commit()
    return CardIndex(conn, dirs, save(path, conn))


def write_bundled() -> str:
    """Compile the bundled database into BUNDLED_INDEX (from a source checkout)."""
    dirs = [builtin_db_dir()]
    files = source_files(dirs)
    if os.path.exists(BUNDLED_INDEX):
        os.unlink(BUNDLED_INDEX)
    index = build_index(dirs, files, None, stat_key="", reuse=False)  # in memory, from the YAML
    # no trace of this machine (nor of the code that built it: a copy is never patched)
    index.conn.execute("UPDATE meta SET value='' WHERE key IN ('dirs', 'code')")
    index.conn.commit()
    if save(BUNDLED_INDEX, index.conn) is None:
        raise SystemExit(f"could not write {BUNDLED_INDEX}")
    index.conn.close()
    try:  # the note a cache keeps beside its index files: the shipped copy is read whole
        os.unlink(BUNDLED_INDEX + CHECKED_SUFFIX)
    except OSError:
        pass
    os.chmod(BUNDLED_INDEX, 0o644)
    return BUNDLED_INDEX


if __name__ == "__main__":
    print(f"wrote {write_bundled()}")
