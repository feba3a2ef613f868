"""Compiled set files kept by content hash, so a catalogue is rebuilt one changed file at a time.

Parsing the YAML of a set file and checking every entry is nearly all of an index build
(about 89 s for 100,000 printings). What that gives for one file depends on the file's bytes
alone (:func:`deckcli.cards.build.compile_file`), so it is kept here under the SHA-256 of
those bytes; a build parses only the files whose bytes it has not seen, and links every file
(duplicates, versions, identities: the checks across files) each time, so its index is the
one a build from nothing makes.

* Where: ``parts/`` in the cache folder (:func:`deckcli.cards.cache.cache_dir`), one file per
  compiled source, named by the hash of its bytes and of the deckcli code that compiled it
  (:func:`code_key`: another version, or an edited checkout, never reads an older part).
* Whole, or parsed again: a part is :mod:`marshal` data after a CRC-32 of it; a part whose CRC
  or shape is wrong, that is not a regular file, or that cannot be read is ignored and the
  source parsed again (and the part rewritten). Parts are written to a temporary file and
  renamed into place, so two builds at once each leave whole parts.
* Bounded: reading a part keeps its modification time within a day of its last use, and a
  build deletes parts unused for 30 days.
"""

from __future__ import annotations

import marshal
import os

from deckcli.cards.cache import UNUSED_DAYS, cache_dir, prune_folder, read_whole

#: The layout of a part; raise it when :func:`deckcli.cards.build.compile_file` changes shape.
PART_FORMAT = "1"
_DAY = 86400.0
_MAX_PART_BYTES = 1 << 28


def code_key() -> str:
    """What the compiled form of a file depends on besides its bytes: deckcli's version and
    the size and time of each of its modules (an edited checkout compiles afresh)."""
    import deckcli

    root = os.path.dirname(os.path.abspath(deckcli.__file__))
    parts = [PART_FORMAT, deckcli.__version__]
    for top, subdirs, names in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                st = os.stat(os.path.join(top, name))
                parts.append(f"{os.path.relpath(os.path.join(top, name), root)}:{st.st_size}:"
                             f"{st.st_mtime_ns}")
    return "\n".join(parts)


def code_hash() -> str:
    """SHA-256 (hex) of :func:`code_key`: it names parts, and an index records it
    (``meta.code``) so that only an index this code built is patched."""
    from deckcli.digest import sha256

    return sha256(code_key().encode()).hexdigest()


class PartStore:
    """Compiled files by the hash of their bytes, in ``folder`` (default: the cache's).

    ``reused`` and ``compiled`` count what a build took from here and what it had to parse.
    """

    def __init__(self, folder: str | None = None):
        self.folder = folder or os.path.join(cache_dir(), "parts")
        self._code = bytes.fromhex(code_hash())
        self.reused = 0
        self.compiled = 0
        self._written = False

    def _path(self, data: bytes) -> str:
        from deckcli.digest import sha256

        h = sha256(self._code)
        h.update(data)
        return os.path.join(self.folder, f"{h.hexdigest()}.part")

    def get(self, data: bytes):
        """The part compiled from these bytes before, or None."""
        found = _read(self._path(data))
        if found is None:
            self.compiled += 1
        else:
            self.reused += 1
        return found

    def put(self, data: bytes, part) -> None:
        """Keep a part; a cache folder that cannot be written is no error (the next build
        parses the file again)."""
        import tempfile
        from zlib import crc32

        body = marshal.dumps(part)
        try:
            os.makedirs(self.folder, exist_ok=True)
            if not self._written:
                self._written = True
                prune(self.folder)
            fd, tmp = tempfile.mkstemp(prefix=".part-", suffix=".tmp", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(crc32(body).to_bytes(4, "big") + body)
                os.replace(tmp, self._path(data))
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError:
            pass


def _read(path: str):
    """A part whose CRC and shape check, or None (missing, damaged, not a regular file)."""
    import time
    from zlib import crc32

    found = read_whole(path, 5, _MAX_PART_BYTES)
    if found is None:
        return None
    raw, modified, _identity = found
    if int.from_bytes(raw[:4], "big") != crc32(raw[4:]):
        return None
    try:
        part = marshal.loads(raw[4:])
    except (EOFError, ValueError, TypeError):
        return None
    if not _well_formed(part):
        return None
    if time.time() - modified > _DAY:
        try:
            os.utime(path)
        except OSError:
            pass
    return part


def _well_formed(part) -> bool:
    """The shape :func:`deckcli.cards.build.compile_file` returns."""
    if not (isinstance(part, tuple) and len(part) == 3):
        return False
    problems, head, entries = part
    if not isinstance(problems, list) or not isinstance(entries, list):
        return False
    if not all(isinstance(p, tuple) and len(p) == 5 for p in problems):
        return False
    if head is None:
        return not entries
    return (isinstance(head, tuple) and len(head) == 5 and
            all(isinstance(e, tuple) and len(e) == 7 for e in entries))


def prune(folder: str) -> list[str]:
    """Delete parts unused for UNUSED_DAYS and temporary files of builds that died a day or
    more ago; returns the names deleted."""
    def limit(name: str) -> float | None:
        if name.endswith(".part"):
            return UNUSED_DAYS * _DAY
        if name.startswith(".part-") and name.endswith(".tmp"):
            return _DAY
        return None

    return prune_folder(folder, limit)
