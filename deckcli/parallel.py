"""``validate --jobs N``: check decks in N processes, the main one among them, reporting in
input order.

The paths are cut into chunks. N - 1 worker processes take chunks from a process pool; the
main process, which would otherwise only wait for their results, checks a chunk itself
whenever the workers have enough queued, and always a chunk that holds ``-`` (a worker's
standard input is not the command's: multiprocessing gives it an empty one). Results come
back in the order the paths were given, so the output of ``--jobs 4`` is byte-for-byte that
of ``--jobs 1``.

Why the main process works too: on a machine with two cores, ``--jobs 2`` used to run three
processes (two workers and a main process receiving and writing results), and the main
process's share of the CPU came out of the workers'. Now two processes check decks, and the
decks the main process checks are never sent between processes.

Each worker opens the compiled card index once (a read-only SQLite file) and validates chunks
of paths. When the reporter can render one deck on its own (``Reporter.render``), the worker
renders it too, so the main process only writes the text.

On Linux the workers are forked straight from this process (:func:`_forked`): they start with
everything already imported, and no pool is imported (``concurrent.futures`` and
``multiprocessing`` cost more to import than a run of a few thousand decks gains from a second
process). Every process takes the next chunk number from one pipe, so a busy worker takes fewer;
each worker sends its results back over a pipe of its own, read by a thread here. A chunk a
worker took and never answered (the worker was killed) is checked here. Elsewhere a
``ProcessPoolExecutor`` runs the workers (:func:`_pooled`), as the same chunks in the same
order.
"""

from __future__ import annotations

from collections import deque

_index = None
_options = None
_render = None
_verdict_only = False


class Verdict:
    """A deck's report as far as the main process needs it once a worker has rendered it:
    whether the deck is legal. Sending the whole report back costs more than checking it."""

    __slots__ = ("legal",)

    def __init__(self, legal: bool):
        self.legal = legal


_LEGAL, _ILLEGAL = Verdict(True), Verdict(False)


def _init(extra_dirs, options, render, verdict_only) -> None:
    global _index, _options, _render, _verdict_only
    from deckcli.cards import open_index

    _index = open_index(extra_dirs)
    _options = options
    _render = render
    _verdict_only = verdict_only


def _check_chunk(paths: list[str]) -> list:
    """In a worker: :func:`check_paths` with the worker's index and options."""
    return check_paths(paths, _index, _options, _render, _verdict_only)


def check_paths(paths: list[str], index, options, render=None, verdict_only=False) -> list:
    """For each path, (report, ``render(report)`` or None), or with ``verdict_only``
    (whether it is legal, ``render(report)``); the last item may instead be the error that
    stopped the chunk, which the main process raises when that path's turn comes (a path
    that cannot be read is a report of its own: :func:`deckcli.validate.check_found`)."""
    from deckcli.errors import DeckcliError
    from deckcli.validate import check_found

    out: list = []
    for path in paths:
        try:
            report = check_found(path, index, options)
        except DeckcliError as exc:
            out.append(exc)
            break  # the run stops at this path, as it does with --jobs 1
        if verdict_only:
            out.append((report.legal, render(report)))  # a bool and a str: cheap to send
        else:
            out.append((report, render(report) if render is not None else None))
    return out


def parallel_reports(paths, index, options, processes: int, render=None, verdict_only=False):
    """(report, ``render(report)`` or None) for each path, in order, from ``processes``
    processes (2 or more: :func:`deckcli.batch.process_count`), this one included.

    ``verdict_only`` (with ``render``): the caller reads only ``report.legal`` besides the
    rendered text, so a :class:`Verdict` stands in for a report a worker made.
    """
    verdict_only = verdict_only and render is not None
    size = max(1, min(256, len(paths) // (processes * 8)))
    size = max(size, -(-len(paths) // _MOST_CHUNKS))
    chunks = [paths[i:i + size] for i in range(0, len(paths), size)]
    extra = [str(d) for d in index.dirs[1:]]
    run = _forked if _can_fork() else _pooled
    yield from run(chunks, index, options, processes, extra, render, verdict_only)


#: chunk numbers are written to one pipe at once: 4 bytes each, this many fit in one page, the
#: least a pipe holds (PIPE_BUF), so the write never waits for a reader
_MOST_CHUNKS = 1024


def _can_fork() -> bool:
    """Whether workers are forked from this process (Linux), not started by a pool."""
    import os
    import sys

    return hasattr(os, "fork") and sys.platform.startswith("linux")


def _forked(chunks, index, options, processes, extra, render, verdict_only):
    import os
    import threading

    here = {i for i, chunk in enumerate(chunks) if "-" in chunk}  # standard input: this process
    tasks_r, tasks_w = os.pipe()
    done: dict[int, list] = {}  # chunk number -> its results, until emitted
    lock = threading.Condition()
    workers: list[tuple[int, int]] = []  # (pid, the read end of its results pipe)
    try:
        for _ in range(processes - 1):
            results_r, results_w = os.pipe()
            _widen(results_w)
            try:
                pid = os.fork()
            except OSError:  # no more processes to be had: those started (and this one) do it
                os.close(results_r)
                os.close(results_w)
                break
            if pid == 0:  # the worker: never returns
                os.close(results_r)
                os.close(tasks_w)
                _work(tasks_r, results_w, chunks, extra, options, render, verdict_only)
            os.close(results_w)
            workers.append((pid, results_r))
        numbers = b"".join(i.to_bytes(4, "little") for i in range(len(chunks)) if i not in here)
        os.write(tasks_w, numbers)  # fits the pipe (_MOST_CHUNKS): never waits
        os.close(tasks_w)
        tasks_w = -1
        readers = [threading.Thread(target=_receive, args=(fd, done, lock), daemon=True)
                   for _pid, fd in workers]
        for t in readers:
            t.start()
        for i in here:
            done[i] = check_paths(chunks[i], index, options)
        emitted = 0
        while True:  # this process takes chunks too, and writes what is ready in order
            while emitted in done:
                yield from _unpack(done.pop(emitted), verdict_only and emitted not in here)
                emitted += 1
            taken = os.read(tasks_r, 4)
            if len(taken) < 4:
                break
            i = int.from_bytes(taken, "little")
            done[i] = check_paths(chunks[i], index, options)
            here.add(i)
        while emitted < len(chunks):
            with lock:
                while emitted not in done and any(t.is_alive() for t in readers):
                    lock.wait()
                results = done.pop(emitted, None)
            if results is None:  # a worker took it and is gone: check it here
                results = check_paths(chunks[emitted], index, options)
                here.add(emitted)
            yield from _unpack(results, verdict_only and emitted not in here)
            emitted += 1
    finally:
        os.close(tasks_r)
        if tasks_w != -1:
            os.close(tasks_w)
        for pid, fd in workers:
            try:
                os.kill(pid, 15)  # a run cut short: the workers stop (after a full run: gone)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            try:
                os.close(fd)
            except OSError:
                pass


def _widen(fd: int) -> None:
    """Let a results pipe hold a whole chunk's results (1 MiB, Linux's most for anyone), so a
    worker writes them and goes on, instead of waiting, 64 KiB at a time, for the thread here
    that reads them to get its turn at the interpreter."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass  # the default size: slower, the same results


def _work(tasks_r, results_w, chunks, extra, options, render, verdict_only) -> None:
    """A forked worker: take chunk numbers until there are none, send back each chunk's
    results (length, then the pickled (number, results)), and exit without running anything
    of the parent's (no buffers flushed, no exit handlers)."""
    import os
    import pickle
    import signal

    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _init(extra, options, render, verdict_only)  # its own connection to the index
        while True:
            taken = os.read(tasks_r, 4)
            if len(taken) < 4:
                break
            i = int.from_bytes(taken, "little")
            try:
                results = _check_chunk(chunks[i])
            except Exception as exc:  # noqa: BLE001 - a bug: the parent raises it in turn
                results = [_sendable(exc)]
            data = pickle.dumps((i, results), pickle.HIGHEST_PROTOCOL)
            _write_all(results_w, len(data).to_bytes(8, "little") + data)
    except BaseException:  # noqa: BLE001 - the parent checks what this worker did not send
        code = 1
    finally:
        os._exit(code)


def _sendable(exc: Exception) -> Exception:
    import pickle

    try:
        pickle.dumps(exc)
        return exc
    except Exception:  # noqa: BLE001
        return RuntimeError(f"a worker failed: {exc!r}")


def _write_all(fd: int, data: bytes) -> None:
    import os

    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int, done: dict, lock) -> None:
    """In a thread of the main process: one worker's results, into ``done`` as they come."""
    import os
    import pickle

    buffer = bytearray()
    try:
        while True:
            part = os.read(fd, 1 << 20)
            if not part:
                return
            buffer += part
            while len(buffer) >= 8:
                size = int.from_bytes(buffer[:8], "little")
                if len(buffer) < 8 + size:
                    break
                i, results = pickle.loads(bytes(buffer[8:8 + size]))
                del buffer[:8 + size]
                with lock:
                    done[i] = results
                    lock.notify()
    except OSError:
        return
    finally:
        with lock:
            lock.notify()


def _pooled(chunks, index, options, processes, extra, render, verdict_only):
    """The workers from a ``ProcessPoolExecutor`` (where processes are not forked here):
    this process takes a chunk whenever the workers have enough queued."""
    from concurrent.futures import ProcessPoolExecutor

    workers = processes - 1
    ahead = 2 * workers  # chunks queued for the workers: they never wait for this process
    pending: deque = deque()  # per chunk, in order: a worker's Future, or results made here
    with ProcessPoolExecutor(max_workers=workers, initializer=_init,
                             initargs=(extra, options, render, verdict_only)) as pool:
        taken = 0  # chunks handed out so far
        while taken < len(chunks) or pending:
            queued = sum(1 for item in pending if not _ready(item))
            for _ in range(min(ahead - queued, len(chunks) - taken)):
                if "-" in chunks[taken]:
                    break  # standard input is this process's: it checks that chunk itself
                pending.append(pool.submit(_check_chunk, chunks[taken]))
                taken += 1
            while pending and _ready(pending[0]):
                yield from _emit(pending.popleft(), verdict_only)  # ready, in order
            if taken < len(chunks):  # this process checks the next chunk meanwhile
                pending.append(check_paths(chunks[taken], index, options))
                taken += 1
            elif pending:  # all handed out: wait for the next in order
                yield from _emit(pending.popleft(), verdict_only)


def _ready(item) -> bool:
    """Whether a chunk's results are in: this process's (a list) or a worker's (a Future)."""
    return isinstance(item, list) or item.done()


def _emit(item, verdict_only: bool):
    """The results of one chunk, waiting for a worker's if need be."""
    if isinstance(item, list):
        return _unpack(item, False)
    return _unpack(item.result(), verdict_only)


def _unpack(results: list, verdicts: bool):
    for result in results:
        if isinstance(result, Exception):
            raise result
        if verdicts:
            yield (_LEGAL if result[0] else _ILLEGAL), result[1]
        else:
            yield result
