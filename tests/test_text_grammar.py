"""The text-decklist line grammar, written as regular expressions, against the hand-written
scanners in deckcli/decks/lines.py (which avoid the cost of compiling these at start-up).

Each scanner must accept exactly the lines its pattern accepts and split them the same way.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from deckcli.decks import lines
from deckcli.decks import text as t

QTY = re.compile(r"^(?:(?P<a>[+-]?\d+)(?:\s*[xX](?=\s))?|(?P<b>[+-]?\d+)[xX]|"
                 r"[xX]\s?(?P<c>[+-]?\d+))(?=\s|$)\s*(?P<rest>.*)$", re.S)
HEADER = re.compile(r"^(?P<key>[A-Za-z]+)\s*:\s*(?P<value>.*)$", re.S)
SECTION = re.compile(r"^(?P<word>[A-Za-z][A-Za-z ]*?)\s*(?::\s*(?P<n>\d+)?|"
                     r"\(\s*(?P<p>\d+)\s*\)|\s+(?P<s>\d+))?$")
PAREN = re.compile(r"^(?P<name>.*?\S)\s*\(\s*(?P<set>[^()\s]+)\s*\)\s*(?P<num>\S+)?$", re.S)
BARE = re.compile(r"^(?P<name>.*?\S)\s+(?P<set>[A-Za-z0-9]{2,6})\s+"
                  r"(?P<num>[A-Za-z]{0,3}\d+[A-Za-z]{0,3})$", re.S)

ALPHABET = st.sampled_from(list("0123456789xX -+:()[],aAbBzZ\t") + ["Walrus", "ABS", "12", "P3",
                                                                     "٤", " x ", "Animals"])
LINES = st.lists(ALPHABET, max_size=12).map("".join).map(str.strip)


@given(LINES)
@example("4 x Walrus")
@example("x 4 Walrus")
@example("4xWalrus")
@example("4 x")
@settings(max_examples=1200, deadline=None)
def test_quantity(line):
    m = QTY.match(line)
    got = lines.scan_quantity(line)
    if m is None:
        assert got is None
    else:
        assert got is not None
        assert (got[0], got[1].strip()) == (m["a"] or m["b"] or m["c"], m["rest"].strip())


@given(LINES)
@settings(max_examples=800, deadline=None)
def test_header(line):
    m = HEADER.match(line)
    got = lines.scan_header(line)
    assert (got is None) == (m is None)
    if m:
        assert got == (m["key"], m["value"].strip())


@given(LINES)
@example("Battle Cards: 3")
@example("Animals (8)")
@example("Animals 8")
@example("Animals:")
@settings(max_examples=1200, deadline=None)
def test_section(line):
    m = SECTION.match(line)
    got = lines.scan_section(line)
    assert (got is None) == (m is None), (line, got, m)
    if m:
        assert got == (m["word"].rstrip(), m["n"] or m["p"] or m["s"])


@given(LINES)
@example("Walrus (ABS) 12")
@example("Lion (Male) (ABS) 3")
@example("Walrus (ABS)")
@example("Walrus ( ABS ) 012")
@settings(max_examples=1200, deadline=None)
def test_printing_in_parens(line):
    m = PAREN.match(line)
    got = lines.scan_printing_in_parens(line)
    assert (got is None) == (m is None), (line, got, m)
    if m:
        assert got == (m["name"], m["set"], m["num"])


@given(LINES)
@example("Walrus ABS 12")
@example("Walrus ABS P3a")
@settings(max_examples=1200, deadline=None)
def test_bare_printing(line):
    m = BARE.match(line)
    got = lines.scan_bare_printing(line)
    assert (got is None) == (m is None), (line, got, m)
    if m:
        assert got == (m["name"], m["set"], m["num"])


AFTER = re.compile(r"^(?P<rest>.*?\S)\s+[xX](?P<n>\d+)"
                   r"(?P<tail>(?:\s*\[[^\[\]]*\]|\s+\*[fF]\*)*)\s*$", re.S)


@given(st.lists(st.sampled_from(list("0123456789xX -+[]*fF") + ["Walrus", "(ABS)", "12", " x4",
                                                                "*F*", "[foil]", "٤"]),
                max_size=12).map("".join).map(str.strip))
@example("Walrus x4")
@example("Walrus (ABS) 12 x4 [foil] *F*")
@example("Walrus x4*F*")
@example("Walrus x1 x2")
@settings(max_examples=1200, deadline=None)
def test_count_after(line):
    m = AFTER.match(line)
    got = lines.scan_count_after(line)
    assert (got is None) == (m is None), (line, got, m)
    if m:
        assert got == (m["n"], m["rest"] + m["tail"]), (line, got)


TAGS = re.compile(r"\s*\[(?P<tags>[^\[\]]*)\]\s*$")


@given(LINES)
@example("Walrus [foil] [1st]")
@example("Walrus [a] b]")
@settings(max_examples=800, deadline=None)
def test_tags(line):
    rest, groups = line, []
    while True:
        m = TAGS.search(rest)
        if not m:
            break
        groups.insert(0, m["tags"])
        rest = rest[: m.start()].rstrip()
    assert lines.scan_tags(line) == (rest, groups)


FOIL = re.compile(r"(?:^|(?<=\s))\*[fF]\*$")
MARKER = re.compile(r"(?:^|(?<=\s))\^[^^]*\^$")  # Archidekt's '^Have,#37d67a^'


@given(st.lists(st.sampled_from(list("[]*fF^ #,x") + ["Walrus", "*F*", "[foil]", "^Have^",
                                                      "^Have,#37d67a^", "[Animals]"]),
                max_size=12).map("".join).map(str.strip))
@example("Walrus (abs) 12 *F* [Animals] ^Have,#37d67a^")
@example("Walrus ^a ^b^")
@example("Walrus^Have^")
@settings(max_examples=1200, deadline=None)
def test_marks(line):
    rest, groups, foil = line, [], False
    while True:
        m = TAGS.search(rest)
        if m:
            groups.insert(0, m["tags"])
            rest = rest[: m.start()].rstrip()
            continue
        m = FOIL.search(rest) or MARKER.search(rest)
        if not m:
            break
        foil = foil or m.group().startswith("*")
        rest = rest[: m.start()].rstrip()
    assert lines.scan_marks(line) == (rest, groups, foil)


DECK_LINES = st.lists(st.sampled_from([
    "game: animal-battle", "Format: championship", "format: casual", "name: Deep Divers",
    "player: Ann", "4 Walrus", "4x Walrus (ABS) 12", "1 Walrus [foil] # shiny", "Animals: 4",
    "Actions", "# a note", "", "four Walrus", "0 Orca", "game: alpha-walrus", "  2 Orca  ",
    "Walrus x4", "Sideboard", "SB: 2 Orca", "Name Orca x2", "Deck", "// a note",
    "1x Orca (abs) 10 [Animals] ^Have,#37d67a^", "2 Orca [Maybeboard]"]),
    max_size=10).map("\n".join)


def _read_back(deck):
    return (deck.header, deck.header_lines, deck.preamble, deck.trailer,
            [(e.count, e.name, e.set_code, e.number, e.variants, e.line, e.section, e.comment,
              e.leading) for e in deck.entries + deck.sideboard], len(deck.sideboard),
            [(p.code, p.rule, p.line, p.message) for p in deck.problems])


@given(DECK_LINES, DECK_LINES)
@settings(max_examples=300, deadline=None)
def test_a_remembered_line_reads_as_a_fresh_one(other, deck):
    # parse_text remembers entry and header lines across decks (a batch repeats them): a deck
    # read with every line remembered must come out exactly as it does from an empty memo
    saved = lines._READ
    try:
        lines._READ = {}
        fresh = _read_back(t.parse_text(deck, "d.txt"))
        lines._READ = {}
        t.parse_text(other, "o.txt")  # the memo now holds the other deck's lines
        remembered = _read_back(t.parse_text(deck, "d.txt"))
    finally:
        lines._READ = saved
    assert remembered == fresh
