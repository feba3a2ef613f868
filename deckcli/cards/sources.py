"""Reading a card database's source files, which come from strangers as decklists do: a FIFO,
socket or device named like a set file is never opened for a blocking read, a broken symlink
or a file that cannot be opened says what it is, and a file past MAX_SOURCE_BYTES is not read
at all. (Finding the files is :func:`deckcli.cards.build.discover` and
:func:`deckcli.cards.cache.source_files`; this module sits below both.)
"""

from __future__ import annotations

import os
import stat


class UnreadableSource(OSError):
    """A source file that cannot be read: ``message`` says why, ``code`` is the problem's
    (db-unreadable, or db-too-large for a file past MAX_SOURCE_BYTES)."""

    def __init__(self, message: str, code: str = "db-unreadable"):
        super().__init__(message)
        self.message = message
        self.code = code


#: The most a set file may hold: one of 10,000 printings is about 1.3 MB, and past 200,000
#: values (yamlio.MAX_NODES) a YAML file is refused anyway. A larger one is not read at all.
MAX_SOURCE_BYTES = 16 << 20


_NOT_REGULAR = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISDIR, "a folder"))


def read_source(path: str) -> bytes:
    """A source file's bytes. A FIFO, socket or device is never opened for a blocking read
    (it would wait for a writer forever); it, a broken symlink, a file that cannot be opened
    and one larger than MAX_SOURCE_BYTES raise :class:`UnreadableSource` saying what it is."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UnreadableSource(f"cannot read: {_why(path, exc)}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableSource(f"cannot read: {_not_regular(st.st_mode)}")
        if st.st_size > MAX_SOURCE_BYTES:  # found from the size: not a byte of it is read
            raise _too_large(st.st_size)
        data = read_bounded(fd, st.st_size, MAX_SOURCE_BYTES)
        if len(data) > MAX_SOURCE_BYTES:  # it grew while it was read
            raise _too_large(len(data))
        return data
    except UnreadableSource:
        raise
    except OSError as exc:
        raise UnreadableSource(f"cannot read: {_why(path, exc)}") from None
    finally:
        os.close(fd)


def read_bounded(fd: int, size: int, limit: int) -> bytes:
    """The bytes of the regular file open at ``fd`` (``size``: its fstat's), never more than
    ``limit`` + 1: a caller sees from the length that a file is past its limit, though it grew
    since fstat. The one bounded read of a file from strangers: decklists
    (:func:`deckcli.decks.reader.read_bytes`) and card database sources."""
    want = min(size + 1, limit + 1)  # one read gets a file that keeps still
    first = os.read(fd, want)
    if len(first) < want:
        return first  # a short read of a regular file is its end
    chunks, got = [first], len(first)
    while got <= limit:  # the file grew since fstat: read on, up to the limit
        chunk = os.read(fd, limit + 1 - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _too_large(size: int) -> UnreadableSource:
    if size >= MAX_SOURCE_BYTES + (1 << 19):
        shown = f"{size / (1 << 20):,.0f} MiB"
    else:  # in whole MiB it would read as the limit itself: '16 MiB, larger than the 16 MiB'
        shown = f"{size:,} bytes"
    return UnreadableSource(f"file is {shown}, larger than the {MAX_SOURCE_BYTES >> 20} MiB a "
                            "set file may hold", "db-too-large")


def _not_regular(mode: int) -> str:
    kind = next((k for test, k in _NOT_REGULAR if test(mode)), "of another kind")
    return f"it is {kind}, not a regular file"


def _why(path: str, exc: OSError) -> str:
    """Why ``path`` could not be opened, in words."""
    import errno

    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):  # a socket cannot be opened (ENXIO)
        return _not_regular(mode)
    if exc.errno == errno.ENOENT and os.path.islink(path):
        return f"it is a symbolic link to {os.readlink(path)!r}, which does not exist"
    if exc.errno == errno.ELOOP:
        return "it is a symbolic link in a loop"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ENOENT:
        return "it is gone (deleted while it was read)"
    return (exc.strerror or str(exc)).lower()
