"""``validate --jobs N``: check decks in worker processes, reporting in input order.

Each worker opens the compiled card index once (it is a read-only SQLite file) and validates
chunks of paths; results come back in the order the paths were given, so the output of
``--jobs 4`` is byte-for-byte that of ``--jobs 1``. When the reporter can render one deck on
its own (``Reporter.render``), the worker renders it too, so the main process, which reads
every result and writes the output, does not become the bottleneck.
"""

from __future__ import annotations

import os

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


def _init(extra_dirs, options, render, verdict_only) -> None:
    global _index, _options, _render, _verdict_only
    from deckcli.cards.index import open_index

    _index = open_index(extra_dirs)
    _options = options
    _render = render
    _verdict_only = verdict_only


def _check(path: str):
    from deckcli.errors import DeckcliError
    from deckcli.validate import validate_path

    try:
        report = validate_path(path, _index, _options)
    except DeckcliError as exc:  # a path that vanished or cannot be read: report, don't die
        return exc
    if _verdict_only:
        return report.legal, _render(report)  # a bool and a str: cheap to send
    return report, (_render(report) if _render is not None else None)


def parallel_reports(paths, index, options, jobs: int, render=None, verdict_only=False):
    """(report, ``render(report)`` or None) for each path, in order, from worker processes.

    ``verdict_only`` (with ``render``): the caller reads only ``report.legal`` besides the
    rendered text, so a :class:`Verdict` stands in for the report.
    """
    from concurrent.futures import ProcessPoolExecutor

    verdict_only = verdict_only and render is not None
    workers = jobs or os.cpu_count() or 1
    workers = max(1, min(workers, len(paths)))
    extra = [str(d) for d in index.dirs[1:]]
    chunk = max(1, min(256, len(paths) // (workers * 8) or 1))
    legal, illegal = Verdict(True), Verdict(False)
    with ProcessPoolExecutor(max_workers=workers, initializer=_init,
                             initargs=(extra, options, render, verdict_only)) as pool:
        for result in pool.map(_check, paths, chunksize=chunk):
            if isinstance(result, Exception):
                raise result
            if verdict_only:
                yield (legal if result[0] else illegal), result[1]
            else:
                yield result
