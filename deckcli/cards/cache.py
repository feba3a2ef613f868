"""The card index's files and sources, low-level: where index files live, what an index
records of its sources, and reading and writing an index file. (Deciding whether to use,
copy or compile an index is :func:`deckcli.cards.open_index`'s, above this module.)

* Where: ``$DECKCLI_CACHE_DIR``, else ``$XDG_CACHE_HOME/deckcli``, else ``~/.cache/deckcli``;
  one file per list of source folders (:func:`index_path`).
* Sources: the built-in database, then ``DECKCLI_DB`` folders, then ``--db`` folders
  (:func:`source_dirs`), and every ``*.yaml``/``*.yml`` under them (:func:`source_files`).
* Fresh: the index records a stat key (path, size, times and inode of every source) and a
  content key (SHA-256 of every source, with its place among the folders). A stat change
  makes deckcli hash the sources; only a change of content or place rebuilds.
* Whole, or rebuilt: an index file is an SQLite database image stamped with a CRC-32 of its
  bytes (:func:`write_image`, in the header's ``user_version``). A run that finds the file changed
  since it was last found whole reads the whole file at once, checks the stamp and opens the
  image in memory (:func:`load`), so any damage to it (a zeroed page, random bytes, a dropped
  table, a truncated file or record) is found before a query can give a wrong answer. A file
  that fails the check, is not a regular file (a FIFO is never opened for a blocking read) or
  cannot be read is rebuilt, or, where it cannot be replaced, the run uses an index in memory.
* Checked once: beside a file found whole (or just written) a note keeps its stat (device,
  inode, size, modification and change times, :func:`record_checked`). While the stat is the
  same, runs open the file in place, read-only and ``immutable`` (:func:`_open_checked`): no
  lock, no journal read or rolled back, only the pages a run's look-ups need read. Writing to
  the file moves its change time, replacing it its inode: the next run checks it whole.
* Safe: an index is never changed in place. A build (or a new stat key) writes a new image
  to a temporary file in the cache folder and renames it into place (:func:`write_image`), so
  two processes writing at once each leave a complete index. A read-only or missing cache
  folder falls back to an index in memory, built for this run only.
* Bounded: opening an index keeps its modification time within a day of its last use, and a
  build deletes index files unused for 30 days (and temporary files of builds that died, and
  journals older versions left).

The index itself (its tables and look-ups) is :mod:`deckcli.cards.index`. This module imports
neither pydantic nor ruamel.yaml.
"""

from __future__ import annotations

import os
import sqlite3
import stat

from deckcli.cards.index import SCHEMA_VERSION
from deckcli.cards.sources import UnreadableSource, read_source
from deckcli.errors import CardDatabaseError


def cache_dir() -> str:
    if os.environ.get("DECKCLI_CACHE_DIR"):
        return os.environ["DECKCLI_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "deckcli")


def index_path(dirs: list[str]) -> str:
    """One index file per list of source folders (the list itself is checked on open)."""
    from deckcli.digest import sha256

    joined = "\0".join(os.path.abspath(d) for d in dirs)
    tag = sha256(joined.encode()).hexdigest()[:8]
    return os.path.join(cache_dir(), f"index-{SCHEMA_VERSION}-{tag}-{len(dirs)}.sqlite")


# -- the sources ---------------------------------------------------------------------------------
SOURCE_SUFFIXES = (".yaml", ".yml")


def builtin_db_dir() -> str:
    """The bundled card database: inside the package when installed, else the repo's card_db/."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    inside = os.path.join(here, "card_db")
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(here), "card_db")


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
        if not raw:  # '--db "$DB"' with DB unset: not the current folder
            raise CardDatabaseError("--db '' names no folder (an empty path: is the variable "
                                    "it came from unset?)")
        if not os.path.exists(raw):
            raise CardDatabaseError("this card database folder does not exist", path=raw)
        if not (os.path.isdir(raw) or os.path.isfile(raw)):  # a FIFO, a device, a socket
            raise CardDatabaseError("this card database folder is neither a folder nor a "
                                    "file", path=raw)
        if raw not in dirs:
            dirs.append(raw)
    return dirs


def source_files(dirs: list[str]) -> list[str]:
    """Every source file under the folders (a folder may be one file), in a stable order."""
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


def stat_key(files: list[str]) -> str:
    """Path and stat of every source (device, inode, size, modification and change times):
    cheap to compute and compare. Any change sends the run to :func:`content_key`.

    The size and modification time alone missed two files of one size and time (a tarball's,
    or copied with ``cp -p``) swapped by renames or copied over each other: the inode and the
    change time move then (a program cannot set the change time back).
    Kept as plain text (no hashing) so the common case, nothing changed, imports nothing.
    """
    parts = [SCHEMA_VERSION]
    for f in files:
        try:
            st = os.stat(f)
        except OSError:  # a broken symlink, say: it cannot be read (read_source says why)
            parts.append(f"{f}\0-")
            continue
        parts.append(f"{f}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_dev}\0{st.st_ino}"
                     f"\0{st.st_ctime_ns}")
    return "\n".join(parts)


def unchanged(old_key: str, new_key: str) -> set[str]:
    """The sources whose path and stat two :func:`stat_key` values agree on."""
    old = set(old_key.split("\n")[1:])
    return {line.partition("\0")[0] for line in new_key.split("\n")[1:] if line in old}


def content_key(dirs: list[str], files: list[str],
                digests: dict[str, bytes] | None = None) -> str:
    """SHA-256 over every source's place (:func:`source_place`) and content: an index is
    rebuilt when this changes. ``digests``: the SHA-256 of files a caller read already, by
    path (not read again)."""
    from deckcli.digest import sha256

    h = sha256(SCHEMA_VERSION.encode())
    for f in files:
        digest = digests.get(f) if digests else None
        if digest is None:
            try:
                digest = sha256(read_source(f)).digest()
            except UnreadableSource:  # no index was built with it: the build says why
                digest = b"unreadable"
        h.update(source_place(dirs, f).encode("utf-8", "surrogateescape") + b"\0" + digest)
    return h.hexdigest()


def source_place(dirs: list[str], path: str) -> str:
    """Where a source file is among the folders: the folder's position in ``dirs`` and the
    file's path inside it (``1:promos/spring.yaml``). The same on every machine for the same
    layout (the shipped index's key, :mod:`deckcli.cards.bundled`), and changed by a move to
    another sub-folder or folder, which changes the order of definitions and where each card
    and printing is recorded (a key of file names alone kept the old index)."""
    for i, d in enumerate(dirs):
        if path == d:
            return f"{i}:{os.path.basename(path)}"
        inside = os.path.join(d, "")
        if path.startswith(inside):
            return f"{i}:{path[len(inside):].replace(os.sep, '/')}"
    return path


def dirs_key(dirs: list[str]) -> str:
    """The folders an index was built from, as its ``meta`` records them."""
    return "\n".join(os.path.abspath(d) for d in dirs)


# -- index files: stamped SQLite images ---------------------------------------------------
#: An index file larger than this is not an index deckcli wrote (10,000 cards take ~10 MB).
MAX_INDEX_BYTES = 1 << 30
_STAMP = slice(60, 64)  # the SQLite header's user_version: free for the application's use


def _crc(image) -> int:
    """CRC-32 of an SQLite image with its stamp's four bytes read as zero."""
    from zlib import crc32

    view = memoryview(image)
    return crc32(view[_STAMP.stop:], crc32(b"\0\0\0\0", crc32(view[:_STAMP.start])))


def _write_stamped(fh, image: bytes) -> None:
    """The image with its CRC-32 in the header (see :func:`load`), written without copying
    the image (31 MB at 100,000 printings)."""
    view = memoryview(image)
    fh.write(view[:_STAMP.start])
    fh.write(_crc(view).to_bytes(4, "big"))
    fh.write(view[_STAMP.stop:])


def read_whole(path: str, low: int, high: int) -> tuple[bytes, float, str] | None:
    """(the bytes, modification time, identity for :func:`record_checked`) of a regular file
    of ``low`` to ``high`` bytes, read at once; None when it is missing, not a regular file
    (never opened for a blocking read), of another size, or changed while read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) |
                     getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not low <= st.st_size <= high:
            return None
        data = os.read(fd, st.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return (data, st.st_mtime, _identity(st)) if len(data) == st.st_size else None


def read_image(path: str) -> tuple[bytes, float, str] | None:
    """(a stamped image whose stamp checks, modification time, identity) from ``path``, or
    None when it is missing, damaged or not a regular file (:func:`read_whole`)."""
    found = read_whole(path, 100, MAX_INDEX_BYTES)
    if found is None or int.from_bytes(found[0][_STAMP], "big") != _crc(found[0]):
        return None  # truncated, grown, or any byte changed
    return found


def open_image(image: bytes) -> tuple[sqlite3.Connection, dict] | None:
    """An in-memory connection to a checked image and its ``meta`` table, or None if SQLite
    cannot read it (a file of another schema)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(image)
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    except sqlite3.Error:
        conn.close()
        return None
    if meta.get("schema") != SCHEMA_VERSION:
        conn.close()
        return None
    return conn, meta


def load(path: str) -> tuple[sqlite3.Connection, dict, float] | None:
    """(connection, meta, modification time) of a whole index file, or None (rebuild it).

    A file checked whole since it last changed (:func:`record_checked`) is opened where it
    lies, read-only (:func:`_open_checked`); any other is read whole, its stamp checked, and
    opened in memory (then recorded as checked, for the next run)."""
    opened = _open_checked(path)
    if opened is not None:
        return opened
    found = read_image(path)
    if found is None:
        return None
    opened = open_image(found[0])
    if opened is None:
        return None
    record_checked(path, found[2])
    return (*opened, found[1])


# -- checked once: the stat of the file as it was when its stamp last checked -------------------
#: Beside an index file: the identity and times of the file as they were when its stamp was last
#: checked (or when deckcli wrote it). Writing to a file changes its modification and change
#: times (the change time cannot be set back by a program), replacing it changes its inode: a
#: file whose stat still matches has not been written to since it was found whole.
CHECKED_SUFFIX = ".checked"


def _identity(st) -> str:
    return f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}"


def _regular(path: str):
    """The stat of a regular file at ``path`` (a symbolic link is not followed), or None."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st if stat.S_ISREG(st.st_mode) else None


def record_checked(path: str, identity: str | None = None) -> None:
    """Note beside ``path`` that the file, as it is now (or as ``identity`` says it was when
    read), is whole. Nothing is noted where the cache cannot be written (every run then checks
    the whole file)."""
    import tempfile

    if identity is None:
        st = _regular(path)
        if st is None:
            return
        identity = _identity(st)
    folder = os.path.dirname(path) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(identity + "\n")
            os.replace(tmp, path + CHECKED_SUFFIX)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        pass


def _note(path: str) -> str | None:
    """What the note beside an index file says (see :func:`record_checked`), or None."""
    try:
        with open(path + CHECKED_SUFFIX, encoding="ascii") as fh:
            return fh.read(200).strip()
    except (OSError, UnicodeDecodeError):
        return None


def load_copy(path: str) -> tuple[sqlite3.Connection, dict] | None:
    """A writable copy in memory of a whole index file, and its ``meta``; or None. The file
    is read at once; its stamp is checked unless the note says it was found whole as it is
    (the bytes were read from the file the note describes)."""
    found = read_whole(path, 100, MAX_INDEX_BYTES)
    if found is None:
        return None
    image, _modified, identity = found
    if identity != _note(path) and int.from_bytes(image[_STAMP], "big") != _crc(image):
        return None
    return open_image(image)


def _uri(path: str) -> str:
    """An SQLite URI opening ``path`` read-only as a file nothing changes: no lock is taken
    and no journal beside it is read or rolled back."""
    quoted = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{quoted}?mode=ro&immutable=1"


def _open_checked(path: str) -> tuple[sqlite3.Connection, dict, float] | None:
    """(connection, meta, modification time) of an index file opened in place, read-only,
    when it is a regular file whose stat is the one noted when it was last found whole; None
    otherwise (then it is read and checked whole). Costs a few system calls, whatever the
    size of the index: the pages a run's look-ups need are all it reads."""
    st = _regular(path)
    noted = _note(path)
    if st is None or noted is None or noted != _identity(st):
        return None
    try:
        conn = sqlite3.connect(_uri(path), uri=True)
    except sqlite3.Error:
        return None
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    except sqlite3.Error:
        conn.close()
        return None
    now = _regular(path)  # the file SQLite opened is the one checked, not one put there since
    if now is None or _identity(now) != noted or meta.get("schema") != SCHEMA_VERSION:
        conn.close()
        return None
    return conn, meta, st.st_mtime


def in_memory(conn: sqlite3.Connection) -> sqlite3.Connection:
    """A writable copy in memory of the database ``conn`` holds (an index opened in place is
    read-only)."""
    copy = sqlite3.connect(":memory:")
    conn.backup(copy)  # page by page: one copy of the database, not an image and a copy
    return copy


#: An index file nobody opened for this long is deleted when another index is built (every
#: list of --db folders gets its own file, so a cache would otherwise only grow).
UNUSED_DAYS = 30
_DAY = 86400.0


def mark_used(path: str, modified: float) -> None:
    """Keep an index file's modification time within a day of its last use (for pruning)."""
    import time

    if time.time() - modified > _DAY:
        try:
            os.utime(path)
        except OSError:
            return  # a read-only cache: the file is simply never pruned by this user
        record_checked(path)  # found whole on opening; a new time changes its stat


_JOURNALS = (".sqlite-journal", ".sqlite-wal", ".sqlite-shm")


def prune_cache(folder: str, keep: str) -> list[str]:
    """Delete index files unused for UNUSED_DAYS, temporary files of builds that died a day
    or more ago, and the journals older versions of deckcli left beside an index; ``keep`` is
    never touched. Returns the names deleted."""
    def limit(name: str) -> float | None:
        if name.startswith("index-") and name.endswith(".sqlite"):
            return UNUSED_DAYS * _DAY
        if name.startswith(".index-") and name.endswith(".tmp"):
            return _DAY
        if name.startswith("index-") and name.endswith(_JOURNALS):
            return 0  # an index is never written by SQLite in place: nothing uses these
        if name.startswith("index-") and name.endswith(CHECKED_SUFFIX):
            index = os.path.join(folder, name[:-len(CHECKED_SUFFIX)])
            return None if os.path.lexists(index) else 0  # kept while its index is
        return None  # not ours

    gone = prune_folder(folder, limit, keep)
    for name in [n for n in gone if n.endswith(".sqlite")]:  # their notes go with them
        try:
            os.unlink(os.path.join(folder, name + CHECKED_SUFFIX))
        except OSError:
            pass
    return gone


def prune_folder(folder: str, limit, keep: str | None = None) -> list[str]:
    """Delete the files of ``folder`` older than ``limit(name)`` seconds (None: not ours, kept),
    never ``keep``; the names deleted, sorted. Whatever cannot be deleted is left."""
    import time

    now, gone = time.time(), []
    try:
        names = os.listdir(folder)
    except OSError:
        return gone
    for name in names:
        full = os.path.join(folder, name)
        age = limit(name)
        if full == keep or age is None:
            continue
        try:
            if now - os.stat(full).st_mtime > age:
                os.unlink(full)
                gone.append(name)
        except OSError:
            pass  # gone already, or not ours to delete
    return sorted(gone)


def save(path: str, conn: sqlite3.Connection) -> str | None:
    """Write the database ``conn`` holds to ``path`` as a stamped image (:func:`write_image`);
    the path, or None where the cache cannot be written (the run keeps its index in memory)."""
    conn.commit()  # an image holds committed pages only
    try:
        write_image(path, conn.serialize())
    except OSError:
        return None
    return path


def write_image(path: str, image: bytes) -> None:
    """Put a stamped copy of the SQLite ``image`` at ``path``: written to a temporary file in
    the same folder, which a rename then puts in place (over whatever was there: a damaged
    index, a FIFO), so two processes writing at once each leave a complete file. Not fsynced:
    a file a crash leaves incomplete fails its stamp and is rebuilt. Then the folder is pruned
    (:func:`prune_cache`). Raises OSError (a read-only folder, a full disk, a directory at
    ``path``)."""
    import tempfile

    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_stamped(fh, image)
            written = os.fstat(fh.fileno()).st_ino
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    st = _regular(path)
    if st is not None and st.st_ino == written:  # not another process's file put there since
        record_checked(path, _identity(st))
    prune_cache(folder, keep=path)
