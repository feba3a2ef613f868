"""The advisory lock a write holds on its target, so that concurrent edits never lose one.

``add``, ``remove`` and ``fmt`` read a deck, change it and write it back. Two of them at once
on one file would each write their own version and one edit would be lost, with both exiting
0. So every write deckcli makes (:mod:`deckcli.files.write`) holds the lock of its target file,
and a read-modify-write holds it from the read to the rename:

* The lock is ``fcntl.flock`` on a lock file beside the target, ``.NAME.deckcli.lock``, as
  SQLite and git-style tools lock with a file beside the data. The ``.deckcli`` in the name
  (:data:`MARK`) is what makes it deckcli's: a user's own ``.NAME.lock`` is never taken or
  deleted. The kernel drops a ``flock`` when its process dies, so a ``kill -9`` never leaves
  a lock behind that someone must delete.
* The holder deletes the lock file before letting go; a process that then gets the lock of the
  deleted file sees that the path no longer names it and tries again, so no lock file is left
  in the deck folder and two processes never both hold the lock of one target.
* The wait is bounded: :data:`WAIT_SECONDS`, polling with a back-off (as SQLite's busy timeout
  and git's lock timeout do). Past it the command stops with exit 2 and writes nothing.
* Re-entrant in one process: a write inside a held read-modify-write lock uses that lock.
* Where the platform or the file system has no ``flock`` (Windows; a network file system
  without a lock service), writes go ahead unlocked, as they did before.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager

from deckcli.errors import DeckcliError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

#: How long a write waits for another deckcli process that holds the same file's lock.
WAIT_SECONDS = 10.0

_held: dict[str, int] = {}  # the lock file of each target this process holds -> its fd


class LockError(DeckcliError):
    """Another process holds the file's lock for longer than :data:`WAIT_SECONDS` (exit 2)."""


#: what names a file beside a target as deckcli's own, after the target's name: its lock
#: ``.NAME.deckcli.lock`` and a write's temporary files ``.NAME.deckcli.XXXXXXXX.tmp``. Only
#: files named so are ever removed (a user's ``.NAME.lock`` or ``.NAME.backup01.tmp`` never).
MARK = ".deckcli"

#: the longest stem a file beside a target may carry: ``.STEM.deckcli.XXXXXXXX.tmp`` must fit
#: in a file name (255 bytes on every common file system)
MAX_STEM_BYTES = 255 - len(".") - len(f"{MARK}.XXXXXXXX.tmp")


def stem(name: str) -> str:
    """What the lock and temporary files of the file ``name`` are named after: the name itself,
    or for a name too long to carry ``.`` and ``.deckcli.XXXXXXXX.tmp`` (a 250-byte deck name
    is allowed; its ``.NAME.deckcli.lock`` is not) its start and a digest of the whole name."""
    raw = os.fsencode(name)
    if len(raw) <= MAX_STEM_BYTES:
        return name
    import hashlib

    digest = hashlib.sha256(raw).hexdigest()[:8]
    return os.fsdecode(raw[:MAX_STEM_BYTES - 9]) + "~" + digest


def lock_path(target: str) -> str:
    folder, name = os.path.split(os.path.abspath(target))
    return os.path.join(folder, f".{stem(name)}{MARK}.lock")


def is_held(target: str) -> bool:
    return lock_path(target) in _held


@contextmanager
def locked(target: str, shown: str | None = None, wait: float | None = None):
    """Hold the lock of ``target`` (a real path, symlinks already resolved) for the block.

    Raises :class:`LockError` when another process holds it longer than ``wait`` seconds
    (default :data:`WAIT_SECONDS`), and OSError when the lock file cannot be made (a folder
    that cannot be written: then neither can the target)."""
    path = lock_path(target)
    if path in _held or fcntl is None:
        yield
        return
    fd = _acquire(path, shown or target, WAIT_SECONDS if wait is None else wait)
    if fd is None:  # no locks on this file system
        yield
        return
    _held[path] = fd
    try:
        yield
    finally:
        del _held[path]
        try:
            os.unlink(path)  # while still holding it: see the module's docstring
        except OSError:
            pass
        os.close(fd)


def _acquire(path: str, shown: str, wait: float) -> int | None:
    from time import monotonic, sleep

    deadline = monotonic() + wait
    delay = 0.001
    flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | \
        getattr(os, "O_CLOEXEC", 0)
    while True:
        fd = os.open(path, flags, 0o666)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise LockError(f"its lock file {path} is not a regular file; not writing",
                                path=shown)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pass
            except OSError as exc:
                if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
                    os.close(fd)
                    return None
                raise
            else:
                try:
                    now = os.lstat(path)
                except FileNotFoundError:
                    now = None
                if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                    return fd
                # the holder we waited for deleted this lock file: take the new one
                os.close(fd)
                continue
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        if monotonic() >= deadline:
            raise LockError(f"another deckcli process is writing this file (waited "
                            f"{wait:g} s); nothing written, try again", path=shown)
        sleep(delay)
        delay = min(delay * 2, 0.05)
