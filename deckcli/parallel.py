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
    from concurrent.futures import ProcessPoolExecutor

    verdict_only = verdict_only and render is not None
    size = max(1, min(256, len(paths) // (processes * 8)))
    chunks = [paths[i:i + size] for i in range(0, len(paths), size)]
    workers = processes - 1
    ahead = 2 * workers  # chunks queued for the workers: they never wait for this process
    pending: deque = deque()  # per chunk, in order: a worker's Future, or results made here
    extra = [str(d) for d in index.dirs[1:]]
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
