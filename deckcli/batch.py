"""Run validation over many decks, optionally in parallel, streaming reports to a reporter.

Output with ``--jobs N`` is identical to ``--jobs 1``: results are reported in input order.
"""

from __future__ import annotations

import sys

from deckcli.validate import DeckReport, Options, validate_path


def run_validation(paths: list[str], index, options: Options, *, output: str = "text",
                   output_file: str | None = None, jobs: int = 1, roster=None,
                   event=None) -> bool:
    """Validate every path (and roster entry); return True when every deck is legal."""
    from deckcli.reporters import get_reporter

    stream = open(output_file, "w", encoding="utf-8") if output_file else sys.stdout
    summary_reporter = None
    try:
        reporter = get_reporter(output)(stream)
        if output_file and output != "text":
            summary_reporter = get_reporter("text")(sys.stdout)
        all_legal = True
        render = reporter.render if jobs != 1 else None  # made in the workers (--jobs)
        for report, rendered in _reports(paths, index, options, jobs, roster, event, render):
            reporter.add(report, rendered)
            if summary_reporter is not None:
                summary_reporter.add(report)
            all_legal &= report.legal
        reporter.close()
        if summary_reporter is not None:
            summary_reporter.close()
    finally:
        if output_file:
            stream.close()
    return all_legal


def _reports(paths, index, options, jobs, roster, event, render=None):
    """(report, rendered text or None) for each deck, in order."""
    if roster is not None:
        for report in event.roster_reports(index, options):
            yield report, None
    if jobs == 1 or len(paths) < 2:
        for path in paths:
            yield validate_path(path, index, options), None
        return
    from deckcli.parallel import parallel_reports

    yield from parallel_reports(paths, index, options, jobs, render)


__all__ = ["DeckReport", "run_validation"]
