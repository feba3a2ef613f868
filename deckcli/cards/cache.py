"""Where compiled card indexes live, when one is rebuilt, and building one.

* Where: ``$DECKCLI_CACHE_DIR``, else ``$XDG_CACHE_HOME/deckcli``, else ``~/.cache/deckcli``;
  one file per list of source folders.
* Fresh: the index records a stat key (path, size, mtime of every source) and a content key
  (SHA-256 of every source). A stat change makes deckcli hash the sources; only a content
  change rebuilds.
* Safe: a build writes a temporary file in the cache folder and renames it into place, so two
  processes building at once each end with a complete index. A read-only or missing cache
  folder falls back to an index in memory, built for this run only.
* Quick the first time: the package ships the index of its own database
  (:mod:`deckcli.cards.bundled`); when no other folder is in use and the sources still match
  it, the first run copies it into the cache instead of compiling the YAML.
* Bounded: opening an index keeps its modification time within a day of its last use, and a
  build deletes index files unused for 30 days (and temporary files of builds that died).

The index itself (its tables and look-ups) is :mod:`deckcli.cards.index`. This module imports
neither pydantic nor ruamel.yaml; building does (lazily).
"""

from __future__ import annotations

import marshal
import os
import sqlite3

from deckcli.cards.index import SCHEMA_VERSION, CardIndex, write_tables
from deckcli.errors import CardDatabaseError


def builtin_db_dir() -> str:
    """The bundled card database: inside the package when installed, else the repo's card_db/."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    inside = os.path.join(here, "card_db")
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(here), "card_db")


def cache_dir() -> str:
    if os.environ.get("DECKCLI_CACHE_DIR"):
        return os.environ["DECKCLI_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "deckcli")


def source_dirs(extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The built-in database, then DECKCLI_DB folders, then --db folders (in that order).

    A package installed without its card data (a copied or vendored folder) stops here with
    exit 2: without it every deck would only get "unknown card" errors."""
    builtin = builtin_db_dir()
    if not os.path.isdir(builtin):
        raise CardDatabaseError("the built-in card database is missing; reinstall deckcli",
                                path=builtin)
    dirs = [builtin]
    env = os.environ.get("DECKCLI_DB", "")
    for raw in [*(p for p in env.split(os.pathsep) if p), *extra]:
        raw = str(raw)
        if not os.path.exists(raw):
            raise CardDatabaseError(f"card database folder {raw} does not exist", path=raw)
        if raw not in dirs:
            dirs.append(raw)
    return dirs


SOURCE_SUFFIXES = (".yaml", ".yml")


def _stat_key(files: list[str]) -> str:
    """Path, size and modification time of every source: cheap to compute and compare.

    Kept as plain text (no hashing) so the common case, nothing changed, imports nothing.
    """
    parts = [SCHEMA_VERSION]
    for f in files:
        st = os.stat(f)
        parts.append(f"{f}\0{st.st_size}\0{st.st_mtime_ns}")
    return "\n".join(parts)


def _content_key(files: list[str]) -> str:
    from deckcli.digest import sha256

    h = sha256(SCHEMA_VERSION.encode())
    for f in files:
        with open(f, "rb") as fh:
            h.update(os.path.basename(f).encode() + b"\0" + sha256(fh.read()).digest())
    return h.hexdigest()


def _source_files(dirs: list[str]) -> list[str]:
    files = []
    for d in dirs:
        if os.path.isfile(d):
            files.append(d)
            continue
        for root, subdirs, names in os.walk(d):
            subdirs.sort()
            files.extend(os.path.join(root, n) for n in sorted(names)
                         if n.endswith(SOURCE_SUFFIXES))
    return files


def index_path(dirs: list[str]) -> str:
    """One index file per list of source folders (the list itself is checked on open)."""
    from deckcli.digest import sha256

    joined = "\0".join(os.path.abspath(d) for d in dirs)
    tag = sha256(joined.encode()).hexdigest()[:8]
    return os.path.join(cache_dir(), f"index-{SCHEMA_VERSION}-{tag}-{len(dirs)}.sqlite")


def open_index(extra_dirs=(), *, rebuild: bool = False) -> CardIndex:
    """The index for the built-in database plus extra folders, rebuilt if any source changed."""
    dirs = source_dirs(list(extra_dirs))
    files = _source_files(dirs)
    path = index_path(dirs)
    stat_key = _stat_key(files)
    try:
        modified = os.stat(path).st_mtime
    except OSError:
        modified = None
    if not rebuild and modified is not None:
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            if meta.get("dirs") == _dirs_key(dirs):
                if meta.get("stat_key") == stat_key:
                    _mark_used(path, modified)
                    return CardIndex(conn, dirs, path)
                if meta.get("content_key") == _content_key(files):
                    conn.close()
                    _touch_stat_key(path, stat_key)
                    return CardIndex(sqlite3.connect(f"file:{path}?mode=ro", uri=True), dirs, path)
            conn.close()
        except sqlite3.Error:
            pass  # a damaged or foreign file: rebuild it
    if not rebuild:
        from deckcli.cards.bundled import from_bundled

        index = from_bundled(dirs, files, path, stat_key)
        if index is not None:
            return index
    return build_index(dirs, files, path, stat_key)


#: An index file nobody opened for this long is deleted when another index is built (every
#: list of --db folders gets its own file, so a cache would otherwise only grow).
UNUSED_DAYS = 30
_DAY = 86400.0


def _mark_used(path: str, modified: float) -> None:
    """Keep an index file's modification time within a day of its last use (for pruning)."""
    import time

    if time.time() - modified > _DAY:
        try:
            os.utime(path)
        except OSError:
            pass  # a read-only cache: the file is simply never pruned by this user


def prune_cache(folder: str, keep: str) -> list[str]:
    """Delete index files unused for UNUSED_DAYS and temporary files of builds that died a
    day or more ago; ``keep`` is never touched. Returns the names deleted."""
    import time

    now, gone = time.time(), []
    try:
        names = os.listdir(folder)
    except OSError:
        return gone
    for name in names:
        full = os.path.join(folder, name)
        if full == keep:
            continue
        if name.startswith("index-") and name.endswith(".sqlite"):
            limit = UNUSED_DAYS * _DAY
        elif name.startswith(".index-") and name.endswith(".tmp"):
            limit = _DAY
        else:
            continue  # not ours
        try:
            if now - os.stat(full).st_mtime > limit:
                os.unlink(full)
                gone.append(name)
        except OSError:
            pass  # gone already, or not ours to delete
    return sorted(gone)


def _dirs_key(dirs: list[str]) -> str:
    return "\n".join(os.path.abspath(d) for d in dirs)


def _touch_stat_key(path: str, stat_key: str) -> None:
    try:
        with sqlite3.connect(path, timeout=0.1) as conn:
            conn.execute("UPDATE meta SET value=? WHERE key='stat_key'", (stat_key,))
    except sqlite3.Error:
        pass  # read-only cache, or a run reading it: the content check runs again next time


def write_atomically(path: str, fill) -> None:
    """Create the SQLite file ``path``: ``fill(conn)`` writes a temporary file in the same
    folder, which a rename then puts in place, so two processes writing at once each leave a
    complete file. Then the folder is pruned (:func:`prune_cache`). Raises OSError or
    sqlite3.Error (a read-only folder, a full disk)."""
    import tempfile

    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        try:
            fill(conn)
        finally:
            conn.close()
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    prune_cache(folder, keep=path)


def build_index(dirs: list[str], files: list[str], path: str, stat_key: str) -> CardIndex:
    """Compile the sources and write the index atomically; in memory if the cache is read-only."""
    from deckcli.cards.build import compile_sources

    compiled = compile_sources(dirs)
    errors = [p for p in compiled.problems if p.is_error]
    if errors:
        from deckcli.diagnostics import command_text

        first = errors[0]
        check = command_text("deckcli", "db", "check", *(a for d in dirs[1:] for a in ("--db", d)))
        raise CardDatabaseError(
            f"the card database has {len(errors)} problem(s); first: {first.path}:{first.line}: "
            f"{first.message} (run {check} for all)", problems=errors)
    content_key = _content_key(files)
    meta = [("schema", SCHEMA_VERSION), ("stat_key", stat_key), ("content_key", content_key),
            ("dirs", _dirs_key(dirs)), ("marshal", str(marshal.version))]
    try:
        write_atomically(path, lambda conn: write_tables(conn, compiled, meta))
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        on_disk: str | None = path
    except (OSError, sqlite3.Error):
        conn = sqlite3.connect(":memory:")
        write_tables(conn, compiled, meta)
        on_disk = None
    index = CardIndex(conn, dirs, on_disk)
    index.built = compiled
    return index
