"""``--output json``: the CONTRACT.md shape, streamed one deck at a time."""

from __future__ import annotations

import json

from deckcli.reporters import Reporter


class JsonReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.stream.write('{"version": 1,\n "decks": [')

    @staticmethod
    def render(report) -> str:
        return "\n  " + json.dumps(report.to_json(), ensure_ascii=False)

    def add(self, report, rendered: str | None = None) -> None:
        if self.decks:
            self.stream.write(",")
        super().add(report)
        self.stream.write(rendered if rendered is not None else self.render(report))

    def close(self) -> None:
        self.stream.write("],\n \"summary\": " + json.dumps(self.summary()) + "}\n")
