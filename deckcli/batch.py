"""Run validation over many decks, optionally in parallel, streaming reports to a reporter.

Output with ``--jobs N`` (or ``auto``) is identical to ``--jobs 1``: results are reported in input
order.
"""

from __future__ import annotations

import os
import sys
from time import monotonic

from deckcli.validate import DeckReport, Options, check_found


def run_validation(paths: list[str], index, options: Options, *, output: str = "text",
                   output_file: str | None = None, jobs: int | str = "auto", roster=None,
                   event=None, quiet: bool = False, observers=()) -> bool:
    """Validate every path (and roster entry); return True when every deck is legal.

    ``quiet``: a text report (and the text summary beside ``output_file``) shows the illegal
    decks only. ``observers`` are also given every deck's report (``add(report)``): what the
    run adds up at its end (:mod:`deckcli.reporters.summary`)."""
    if output_file:  # written all or nothing (deckcli.files.write), streamed meanwhile
        from deckcli.files.write import replacing

        with replacing(output_file, text=True) as stream:
            return _run(paths, index, options, output, stream, True, jobs, roster, event,
                        quiet, observers)
    return _run(paths, index, options, output, sys.stdout, False, jobs, roster, event, quiet,
                observers)


def _run(paths, index, options, output, stream, to_file, jobs, roster, event, quiet,
         observers) -> bool:
    from deckcli.reporters import get_reporter

    out = Batched(stream)
    out.colour_ok = not to_file  # a report file never gets a terminal's colour codes
    summary_out = None
    summary_reporter = None
    try:
        reporter = get_reporter(output)(out, quiet=quiet)
        if to_file:  # the text summary beside the report file (a text one too: the log
            summary_out = Batched(sys.stdout)  # shows what failed, as the docs promise)
            summary_reporter = get_reporter("text")(summary_out, quiet=quiet)
        all_legal = True
        processes = process_count(jobs, len(paths))
        render = reporter.render if processes > 1 else None  # made in the workers (--jobs)
        # without a text summary or an observer, the reporter needs report.legal only
        verdict_only = summary_reporter is None and not observers
        for report, rendered in _reports(paths, index, options, processes, roster, event,
                                         render, verdict_only):
            reporter.add(report, rendered)
            if summary_reporter is not None:
                summary_reporter.add(report)
            for observer in observers:
                observer.add(report)
            all_legal &= report.legal
        reporter.close()
        if summary_reporter is not None:
            summary_reporter.close()
    finally:
        out.flush()
        if summary_out is not None:
            summary_out.flush()
    return all_legal


class Batched:
    """A stream's writes gathered into one write per 64 KiB or per fifth of a second.

    A batch writes a line or two per deck. Where the output is unbuffered
    (``PYTHONUNBUFFERED=1``, common in CI containers) each of those was a system call of its
    own; gathered, the output still appears while the run goes on.
    """

    SIZE = 1 << 16
    SECONDS = 0.2

    def __init__(self, stream):
        self.stream = stream
        self.parts: list[str] = []
        self.size = 0
        self.last = monotonic()
        self.colour_ok = True  # False: a file, which never gets colour codes

    def isatty(self) -> bool:
        return self.stream.isatty()

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.SIZE or monotonic() - self.last >= self.SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.stream.write("".join(self.parts))
            self.parts, self.size = [], 0
        self.stream.flush()
        self.last = monotonic()


#: ``--jobs auto`` starts processes only for a run of at least this many decks. On Linux a
#: worker is forked from this process (:mod:`deckcli.parallel`): it costs a few milliseconds
#: before it helps, against ~0.05 ms a deck in one process. Measured by benchmarks/jobs_auto.py
#: on two idle CPUs (2026-12-02): two processes were level with one at 500 and 1,000 decks and
#: 17% faster at 2,000; with a process pool (before forking) they paid from 2,000-8,000.
AUTO_MIN_DECKS = 1000


def process_count(jobs: int | str, decks: int) -> int:
    """How many processes check ``decks`` deck files with ``--jobs jobs``: ``auto`` one per CPU
    once there are :data:`AUTO_MIN_DECKS` decks, else one; 0 one per CPU; never more than
    there are decks."""
    if jobs == "auto":
        jobs = 0 if decks >= AUTO_MIN_DECKS else 1
    return max(1, min(jobs or os.cpu_count() or 1, decks))


def _reports(paths, index, options, processes, roster, event, render=None, verdict_only=False):
    """(report, rendered text or None) for each deck, in order, from ``processes`` processes
    (:func:`process_count`)."""
    if roster is not None:
        from deckcli.roster import roster_reports

        for report in roster_reports(event, index, options):
            yield report, None
    if processes == 1:
        for path in paths:
            yield check_found(path, index, options), None
        return
    from deckcli.parallel import parallel_reports

    yield from parallel_reports(paths, index, options, processes, render, verdict_only)


__all__ = ["DeckReport", "run_validation"]
