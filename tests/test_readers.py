"""Golden files for every decklist reader: each input under tests/golden/read (and each deck
in examples/other-tools) read as every command reads it, dumped as what the reader kept:
header, entries (with their lines and comments), the sideboard, and the problems.

Set DECKCLI_UPDATE_GOLDEN=1 to rewrite the expected files after a deliberate change (and read
the diff before committing it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcli.decks.reader import read_deck

GOLDEN = Path(__file__).parent / "golden" / "read"
UPDATE = os.environ.get("DECKCLI_UPDATE_GOLDEN") == "1"
INPUTS = sorted([*GOLDEN.glob("*.input.*"), *(EXAMPLES / "other-tools").iterdir()])


def dump(deck) -> str:
    def entry(e):
        out = {"count": e.count, "name": e.name, "set": e.set_code, "number": e.number,
               "variants": list(e.variants), "line": e.line}
        for key, value in (("comment", e.comment), ("leading", e.leading),
                           ("section", e.section)):
            if value:
                out[key] = value
        return out

    data = {"format": deck.source_format, "header": deck.header, "lines": deck.header_lines,
            "preamble": deck.preamble, "entries": [entry(e) for e in deck.entries],
            "sideboard": [entry(e) for e in deck.sideboard],
            "sections": [[s.word, s.count, s.line] for s in deck.sections],
            "trailer": deck.trailer,
            "problems": [{"code": p.code, "severity": p.severity.value, "rule": p.rule,
                          "line": p.line, "message": p.message} for p in deck.problems]}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_golden_read(index, path):
    deck = read_deck(str(path), is_set=index.is_any_set_code)
    expected = GOLDEN / f"{path.name.replace('.input', '')}.expected.json"
    got = dump(deck).replace(str(path), path.name)
    if UPDATE:
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


@given(st.text(alphabet="ab./\\:t x", max_size=12))
@settings(max_examples=500, deadline=None)
def test_a_paths_format_is_read_from_the_suffix_splitext_finds(name):
    # detect_format tells a '.txt' file without splitext when a name stands before the suffix
    import os

    from deckcli.decks.reader import FORMAT_BY_SUFFIX, detect_format

    for path in (name, name + ".txt", name + ".TXT", name + ".yaml"):
        want = FORMAT_BY_SUFFIX.get(os.path.splitext(path)[1].lower()) if path != "-" else None
        assert detect_format(path, "4 Walrus\n", default="none") == (want or "none")
