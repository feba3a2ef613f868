"""``--output json``: the CONTRACT.md shape, streamed one deck at a time."""

from __future__ import annotations

import json

from deckcli.reporters import Reporter


class JsonReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.stream.write('{"version": 1,\n "decks": [')

    def add(self, report) -> None:
        if self.decks:
            self.stream.write(",")
        super().add(report)
        self.stream.write("\n  " + json.dumps(report.to_json(), ensure_ascii=False))

    def close(self) -> None:
        self.stream.write("],\n \"summary\": " + json.dumps(self.summary()) + "}\n")
