"""Reporters: one module per output format, found by name in :data:`REPORTERS`.

A reporter is constructed with an output stream and receives deck reports one at a time
(``add``), then ``close`` writes whatever has to come last; none keeps more than it must, so a
run over thousands of decks streams.

A reporter whose output for one deck depends on that deck alone has a ``render(report)``
static method giving that text; ``validate --jobs`` runs it in the worker that checked the
deck and hands the text to ``add``, so the main process only writes it.
"""

from __future__ import annotations

import importlib

REPORTERS = {
    "text": "deckcli.reporters.text:TextReporter",
    "json": "deckcli.reporters.json:JsonReporter",
    "github": "deckcli.reporters.github:GithubReporter",
    "junit": "deckcli.reporters.junit:JunitReporter",
    "sarif": "deckcli.reporters.sarif:SarifReporter",
}


def get_reporter(name: str):
    module, _, cls = REPORTERS[name].partition(":")
    return getattr(importlib.import_module(module), cls)


class Reporter:
    #: ``render(report) -> str``: the text ``add`` writes for one deck, or None when a
    #: reporter's output for a deck depends on the others (a table, a document).
    render = None

    def __init__(self, stream, **options):
        self.stream = stream
        self.options = options
        self.decks = self.legal = 0

    def add(self, report, rendered: str | None = None) -> None:
        """Take one deck's report; ``rendered`` is ``render(report)`` when already made."""
        self.decks += 1
        self.legal += report.legal

    def close(self) -> None:
        pass

    @property
    def illegal(self) -> int:
        return self.decks - self.legal

    def summary(self) -> dict:
        return {"decks": self.decks, "legal": self.legal, "illegal": self.illegal}
