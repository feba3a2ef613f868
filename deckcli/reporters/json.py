"""``--output json``: the CONTRACT.md shape, streamed one deck at a time."""

from __future__ import annotations

import json
from json.encoder import JSONEncoder, c_make_encoder, encode_basestring

from deckcli.reporters import Reporter


def _one_deck_encoder():
    """``obj -> JSON text`` as ``json.dumps(obj, ensure_ascii=False)`` writes it.

    ``json.dumps`` builds a new encoder, and the C encoder inside it, on every call: a third
    of the time of writing one deck in a batch. This one is built once. It uses the C encoder
    behind ``json.dumps`` where the interpreter has it, without the circular-reference check
    (a report is a tree); tests/test_events_and_reports.py checks it writes what
    ``json.dumps`` does.
    """
    if c_make_encoder is None:  # an interpreter without the C accelerator
        return JSONEncoder(ensure_ascii=False).encode
    default = JSONEncoder().default  # raises TypeError for what JSON cannot hold
    encode = c_make_encoder(None, default, encode_basestring, None, ": ", ", ", False, False,
                            True)
    return lambda obj: "".join(encode(obj, 0))


to_json_text = _one_deck_encoder()


class JsonReporter(Reporter):
    def __init__(self, stream, **options):
        super().__init__(stream, **options)
        self.stream.write('{"version": 1,\n "decks": [')

    @staticmethod
    def render(report) -> str:
        return "\n  " + to_json_text(report.to_json())

    def add(self, report, rendered: str | None = None) -> None:
        text = rendered if rendered is not None else self.render(report)
        self.stream.write("," + text if self.decks else text)
        super().add(report)

    def close(self) -> None:
        self.stream.write("],\n \"summary\": " + json.dumps(self.summary()) + "}\n")
