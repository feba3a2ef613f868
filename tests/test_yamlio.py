"""deckcli.yamlio: the values it builds are ruamel.yaml's own (safe loader), with lines kept.

load_yaml composes nodes and builds the values itself (to keep lines and refuse what is not
allowed); for a string scalar it takes the node's text and other scalars are constructed once
per (tag, text) in a document. These tests hold it to ruamel.yaml's safe loader.
"""

from __future__ import annotations

import datetime
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcli.yamlio import MAX_DEPTH, StructuredInputError, line_of, load_yaml


def safe_load(text: str):
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(text)


SCALARS = [
    "12", "012", "0o12", "0x1F", "1_000", "-7", "+3", "1.5", "1e3", ".inf", "-.Inf", "~", "null",
    "Null", "", "true", "False", "yes", "no", "on", "2026-01-01", "2026-01-01 10:20:30",
    "'12'", '"true"', "!!str 12", "!!int '7'", "!!float 3", "!!bool true", "Walrus", "12a",
    "P78", "'it''s'", '"a\\tb"', "!!null ''",
]


@pytest.mark.parametrize("scalar", SCALARS)
def test_a_scalar_reads_as_ruamel_reads_it(scalar):
    text = f"a: {scalar}\nb:\n- {scalar}\n- {scalar}\n"  # twice: the second is remembered
    assert load_yaml(text) == safe_load(text)
    assert type(load_yaml(text)["a"]) is type(safe_load(text)["a"])


def test_the_same_text_under_other_tags_keeps_its_own_value():
    # values are remembered per (tag, text): 1, '1' and !!str 1 must stay apart
    got = load_yaml("[1, '1', !!str 1, 1.0, !!float 1, 1, true, 'true', !!str true]\n")
    assert got == [1, "1", "1", 1.0, 1.0, 1, True, "true", "true"]
    assert [type(v) for v in got] == [int, str, str, float, float, int, bool, str, str]


def test_nan_reads_as_nan():
    assert math.isnan(load_yaml("a: .nan\n")["a"])


def test_a_bad_value_is_refused_each_time_not_remembered():
    text = "a: !!int x\n"
    for _ in range(2):
        with pytest.raises(StructuredInputError) as info:
            load_yaml(text)
        assert info.value.line == 1


def test_lines_are_kept():
    doc = load_yaml("game: x\ncards:\n  - {name: A, count: 1}\n  - name: B\n    count: 2\n")
    assert line_of(doc, "cards") == 2
    assert line_of(doc["cards"], 1) == 4
    assert line_of(doc["cards"][1], "count") == 5


@pytest.mark.parametrize("make", [
    lambda n: "".join(f"{' ' * i}k{i}:\n" for i in range(n)) + " " * n + "v: 1\n",
    # a sequence under a key at the key's indentation, a mapping in each item: two a step
    lambda n: "a:\n" + "".join(f"{'  ' * i}- b{i}:\n" for i in range((n - 1) // 2))
    + "  " * ((n - 1) // 2) + "- 1\n",
    lambda n: "[" * n + "]" * n + "\n",
    lambda n: "- " * n + "x\n",
])
def test_nesting_is_counted_as_the_composer_nests(make):
    # one level under the limit reads; one over is refused, before the composer recurses
    load_yaml(make(MAX_DEPTH - 2))
    with pytest.raises(StructuredInputError, match="nested deeper"):
        load_yaml(make(MAX_DEPTH + 1))


_PLAIN = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12),
    st.floats(allow_nan=False, width=64), st.dates(),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12),
    st.sampled_from(["12", "012", "yes", "true", "~", "1e3", "2026-01-01", "P78", "-"]),
)
_DOCS = st.recursive(
    _PLAIN,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=5)),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(doc=_DOCS, flow=st.sampled_from([None, True, False]))
def test_documents_read_as_ruamel_reads_them(doc, flow):
    import io

    from ruamel.yaml import YAML

    dumper = YAML(typ="safe")
    dumper.default_flow_style = flow
    out = io.StringIO()
    dumper.dump({"doc": doc}, out)
    text = out.getvalue()
    want = safe_load(text)
    got = load_yaml(text)
    assert got == want
    assert isinstance(got["doc"], (type(None), bool, int, float, str, list, dict,
                                   datetime.date))


def test_every_card_file_reads_as_ruamel_reads_it():
    # the set files go through the C parser with deckcli's resolver (yamlio._c_resolver):
    # the values are the safe loader's own, with ruamel's resolver
    from pathlib import Path

    from deckcli.yamlio import plain

    files = sorted((Path(__file__).parent.parent / "card_db").rglob("*.yaml"))
    assert len(files) >= 5
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert plain(load_yaml(text)) == safe_load(text), path


def test_the_c_parser_gets_the_fast_resolver():
    from ruamel.yaml.main import CParser

    from deckcli.yamlio import _c_resolver, _loader

    if CParser is None:
        pytest.skip("ruamel.yaml.clib is not installed: the pure parser keeps its resolver")
    assert _loader().Resolver is _c_resolver()


@pytest.mark.parametrize("odd", ["\x85", "\u2028", "\u2029"])
def test_lines_are_counted_as_an_editor_counts_them(odd):
    """ruamel.yaml counts NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as line breaks; an
    editor, `grep -n` and the text reader count line feeds (and CR alone). Every line deckcli
    reports is the one an editor shows."""
    doc = load_yaml(f"name: 'a{odd}b'\ncards:\n  - {{name: A, count: 1}}\n  - name: B\n"
                    f"    count: 2 # x{odd}\n  - name: C\n")
    assert line_of(doc, "cards") == 2
    assert [line_of(doc["cards"], i) for i in range(3)] == [3, 4, 6]
    assert line_of(doc["cards"][1], "count") == 5
    with pytest.raises(StructuredInputError) as info:
        load_yaml(f"a: 1 # {odd}\nb: 2\nb: 3\n")
    assert info.value.line == 3 and "first on line 2" in info.value.message
    with pytest.raises(StructuredInputError) as info:
        load_yaml(f"a: 1 # {odd}{odd}\nb: [\n")
    assert info.value.line in (2, 3)  # the unclosed list: ruamel marks its end or the next line


def test_a_lone_carriage_return_is_a_line_end_for_both():
    doc = load_yaml("a: 1\rcards:\r  - {name: A}\r  - {name: B}\r")
    assert [line_of(doc["cards"], i) for i in range(2)] == [3, 4]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab:-[]{}\"'#\n\r\x85\u2028 ", max_size=30))
def test_any_text_gets_a_line_inside_or_just_past_it(text):
    """An error at the end of a text is marked past its last line; the table of lines must
    reach that far for any text, odd line breaks or not."""
    try:
        load_yaml(text)
    except StructuredInputError as exc:
        lines = text.count("\n") + text.count("\r") + 2
        assert exc.line is None or 1 <= exc.line <= lines
