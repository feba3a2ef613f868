"""Writing files safely.

Every file deckcli writes (``fmt``, ``add``, ``remove``, ``new``, ``convert -o``, ``sheet -o``,
``report -o``, ``validate --output-file``, ``export -o``, ``build -o``, ``simulate``'s
``--csv``, ``--html`` and ``--save-games``) goes through :func:`replacing` (or
:func:`atomic_write`, the same for bytes in hand), which:

* checks the target first (:func:`check_target` asks the same before a long run): a
  directory, a FIFO, a device or a socket is refused, never replaced (a report written "to"
  ``/dev/null`` or a FIFO would otherwise take its place); a symlink is written through only
  when it points inside its own folder; an existing file with no write permission
  (``chmod a-w``) is not replaced, as an in-place editor would not;
* holds the target's lock (:mod:`deckcli.files.lock`) while it writes, and a read-modify-write
  (``fmt``, ``add``, ``remove``) holds it from the read on, through :func:`editing`;
* writes a temporary file ``.NAME.deckcli.XXXXXXXX.tmp`` in the same folder, fsyncs it, gives
  it the old file's mode (and owner, where allowed), and renames it over the target in one
  ``os.replace``, then fsyncs the folder;
* on any failure (a full disk, a read-only folder or mount) removes the temporary file and
  raises :class:`WriteError` (exit 2) naming the path: the old file is as it was, and a new
  one is not created at all, so a failed report never leaves a 0-byte or partial file;
* removes the temporary files that killed writes (``kill -9``, a power cut) left in the folder:
  a temporary file whose target's lock nobody holds belongs to a writer that is gone. Only
  files named as deckcli names them (``.deckcli`` after the target's name) are touched.

What is written is checked before (a rewrite of a deck, :mod:`deckcli.rewrite`); this module
knows files, not decks.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from contextlib import ExitStack, contextmanager

from deckcli.errors import DeckcliError
from deckcli.files.lock import MARK, LockError, is_held, locked, stem


class WriteError(DeckcliError):
    """A file could not be written (exit 2); the original is left as it was."""


def _resolve(path: str) -> str:
    """The file to replace: the path itself, or where a symlink inside its folder points."""
    if not os.path.islink(path):
        return path
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    real = os.path.realpath(path)
    try:
        inside = os.path.commonpath([folder, real]) == folder
    except ValueError:  # different drives
        inside = False
    if not inside:
        raise WriteError(f"is a symlink to {real}, outside its folder; not writing through "
                         "it", path=path)
    return real


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _existing(target: str, path: str) -> os.stat_result | None:
    """The target's stat, None if it does not exist; WriteError if it may not be replaced."""
    if not path:  # '-o ""': no file is named (and an empty name would read as the folder)
        raise WriteError("the file to write is named by an empty path; name a file")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a symlink loop, a name too long, a folder that cannot be searched
        raise WriteError(f"cannot write it: {exc.strerror or exc}", path=path) from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        via = f" (through the symlink to {target})" if target != path else ""
        what = "a file" if kind == "a directory" else "a regular file"
        raise WriteError(f"is {kind}{via}, not {what}; not replacing it", path=path)
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise WriteError(f"is read-only (mode {stat.S_IMODE(st.st_mode):04o}); not replacing "
                         "it (make it writable first, e.g. chmod u+w)", path=path)
    return st


def check_target(path: str | os.PathLike) -> None:
    """WriteError (exit 2) now if ``path`` is a target :func:`replacing` would refuse (a
    directory, a FIFO, a device, a socket, a symlink out of its folder, a read-only file) or
    could not write (its folder missing or not writable): a command that works a long time
    before it writes (a build, a simulation) or reads the target first (``convert -o``) asks
    before it starts. Nothing is created."""
    path = os.fspath(path)
    target = _resolve(path)
    folder = os.path.dirname(os.path.abspath(target))
    if _existing(target, path) is None and not os.path.isdir(folder):
        raise WriteError("could not write: its folder does not exist; nothing written",
                         path=path)
    denied = _unwritable(folder)
    if denied is not None:  # the write would fail so, after all the work
        raise WriteError(_failed(denied, path), path=path)


def _unwritable(folder: str) -> OSError | None:
    """Why ``folder`` cannot be written (no permission, a read-only mount), as the write there
    would fail; None if it can. A write needs it for its temporary file and the rename."""
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    try:
        mount_read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        mount_read_only = False
    code = errno.EROFS if mount_read_only else errno.EACCES
    return OSError(code, os.strerror(code))


def check_not_input(path: str | os.PathLike, inputs, what: str = "a file") -> None:
    """WriteError (exit 2) now if ``path`` is one of ``inputs`` (:func:`is_one_of`), the files
    a command reads (decks, an event file): a report or an export written there would replace
    what it reports on (``validate -o``, ``export -o``). Nothing is written."""
    if is_one_of(path, inputs):
        raise WriteError(f"is {what} this command reads; not replacing it (write the "
                         "output to another file)", path=os.fspath(path))


def is_one_of(path: str | os.PathLike, inputs) -> bool:
    """Whether ``path`` exists and is the same file, by any name, as one of ``inputs``
    (``-``, None and paths that are not there are no file)."""
    try:
        st = os.stat(path)
    except OSError:  # not there yet (or not reachable): it is no input either
        return False
    for given in inputs:
        if given is None or given == "-":
            continue
        try:
            other = os.stat(given)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def writable_folder(path: str | os.PathLike) -> str:
    """The folder ``path`` to write files into (``simulate --save-games``), made if it does not
    exist; WriteError (exit 2) if something else is there or it cannot be made."""
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteError(f"cannot write into it: {exc.strerror or exc}", path=path) from None
    if st is not None and not stat.S_ISDIR(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "a regular file")
        raise WriteError(f"is {kind}, not a folder; not writing into it", path=path)
    if st is None:
        try:
            os.makedirs(path)
        except OSError as exc:
            raise WriteError(_failed(exc, path), path=path) from None
    elif (denied := _unwritable(path)) is not None:
        raise WriteError(f"cannot write into it: {denied.strerror}; nothing written", path=path)
    return path


@contextmanager
def _lock(target: str, path: str):
    with ExitStack() as stack:
        try:
            stack.enter_context(locked(target, path))
        except OSError as exc:  # the lock file cannot be made: nor can the temporary file
            raise WriteError(_failed(exc, path), path=path) from None
        _sweep(target)
        yield


def _failed(exc: OSError, path: str) -> str:
    if isinstance(exc, FileNotFoundError):
        reason = "its folder does not exist"
    elif isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
        reason = f"{exc.strerror} (its folder cannot be written)"
    else:
        reason = exc.strerror or str(exc)
    kept = "the file is unchanged" if os.path.lexists(path) else "nothing written"
    return f"could not write: {reason}; {kept}"


@contextmanager
def editing(path: str | os.PathLike):
    """Hold ``path``'s lock from the read of a read-modify-write to its write (``fmt``,
    ``add``, ``remove``): a target that may not be replaced is refused before any work, and
    another deckcli editing the same file waits (or, after the bound, is refused)."""
    path = os.fspath(path)
    if not os.path.lexists(path):  # nothing to edit: the read says so
        yield
        return
    target = _resolve(path)
    with _lock(target, path):
        _existing(target, path)
        yield


class _Out:
    """The temporary file as the caller writes it: a failed write is a :class:`WriteError`."""

    def __init__(self, fh, path: str):
        self.fh, self.path = fh, path

    def write(self, data) -> None:
        try:
            self.fh.write(data)
        except OSError as exc:
            raise WriteError(_failed(exc, self.path), path=self.path) from None

    def flush(self) -> None:
        try:
            self.fh.flush()
        except OSError as exc:
            raise WriteError(_failed(exc, self.path), path=self.path) from None


@contextmanager
def replacing(path: str | os.PathLike, *, overwrite: bool = True, text: bool = False):
    """Write ``path`` all or nothing: the block writes to the yielded file (bytes, or UTF-8
    text with ``text=True``), and when it ends without an exception the file replaces
    ``path`` (with ``overwrite=False``: becomes ``path``, which must not exist).

    Raises :class:`WriteError` when the target may not be replaced (see the module's
    docstring), already exists (``overwrite=False``), or a write fails; then ``path`` is left
    as it was. An exception from the block itself also leaves it so, and goes on up."""
    import tempfile

    path = os.fspath(path)
    target = _resolve(path)
    with _lock(target, path):
        if not overwrite and os.path.lexists(path):
            raise WriteError("already exists; not overwriting it", path=path)
        st = _existing(target, path)
        folder = os.path.dirname(os.path.abspath(target))
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{stem(os.path.basename(target))}{MARK}.",
                                       suffix=".tmp", dir=folder)
            _take_mode(fd, st)
            with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="") \
                    if text else os.fdopen(fd, "wb") as fh:
                yield _Out(fh, path)
                fh.flush()
                os.fsync(fh.fileno())
            if overwrite:
                os.replace(tmp, target)
            else:
                os.link(tmp, target)  # fails if the file appeared meanwhile: never clobber it
                os.unlink(tmp)
            tmp = None
            _sync_folder(folder)
        except FileExistsError:
            raise WriteError("already exists; not overwriting it", path=path) from None
        except OSError as exc:
            raise WriteError(_failed(exc, path), path=path) from None
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


def atomic_write(path: str | os.PathLike, data: bytes, *, overwrite: bool = True) -> None:
    """Replace (or, with ``overwrite=False``, create) ``path`` with ``data``, all or nothing
    (:func:`replacing`)."""
    with replacing(path, overwrite=overwrite) as fh:
        fh.write(data)


def _take_mode(fd: int, st: os.stat_result | None) -> None:
    """The old file's permission bits (a new file: 0666 less the umask) and, where this user
    may set them, its owner and group (root rewriting someone's deck leaves it theirs)."""
    if st is None:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        return
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except OSError:
            pass  # not ours to give away: the file becomes this user's, as with any editor
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _sync_folder(folder: str) -> None:
    """Make the rename durable where the platform allows it (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- what killed writes leave behind ------------------------------------------------------------
#: ``.NAME.deckcli.XXXXXXXX.tmp`` (the temporary file of a write of NAME, XXXXXXXX as
#: ``tempfile.mkstemp`` makes it) and ``.NAME.deckcli.lock``: names no user file carries.
_LEFT = re.compile(r"\.(.+)" + re.escape(MARK) + r"\.(?:[a-z0-9_]{8}\.tmp|lock)\Z",
                   re.DOTALL)
_swept: set[str] = set()  # folders swept by this process (a fmt of a folder writes many files)


def _sweep(target: str) -> None:
    """Remove temporary files that writes killed part-way left in ``target``'s folder.

    Called holding ``target``'s lock, so its own temporary files are stale; another file's are
    stale when its lock can be taken at once (held, it is being written now, and is left
    alone). Only what a deckcli write leaves is touched: files named with :data:`MARK`
    (``.NAME.deckcli.lock``, ``.NAME.deckcli.XXXXXXXX.tmp``), so a user's ``.notes.lock`` or
    ``.deck.txt.backup01.tmp`` is never looked at; and a killed write leaves its lock file,
    always empty, beside its temporary files, so a group without an empty lock file is not a
    killed write's and stays. Each folder is looked at once per process."""
    folder, own = os.path.split(os.path.abspath(target))
    own = stem(own)
    if folder in _swept:
        return
    _swept.add(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    left: dict[str, list[str]] = {}
    for name in names:
        found = _LEFT.match(name)
        if found:
            left.setdefault(found.group(1), []).append(name)
    for other, files in sorted(left.items()):
        temps = [n for n in files if n.endswith(".tmp")]
        if other == own or is_held(os.path.join(folder, other)):
            _remove(folder, temps)
            continue
        if not _empty_file(os.path.join(folder, f".{other}{MARK}.lock")):
            continue  # not a deckcli write's: its lock file is always there and empty
        try:
            with locked(os.path.join(folder, other), wait=0):
                _remove(folder, temps)  # and leaving the lock deletes a stale lock file
        except (LockError, OSError):
            pass  # being written now, or not ours to touch


def _empty_file(path: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size == 0


def _remove(folder: str, names: list[str]) -> None:
    for name in names:
        full = os.path.join(folder, name)
        try:
            if stat.S_ISREG(os.lstat(full).st_mode):
                os.unlink(full)
        except OSError:
            pass
