"""CSV cells a spreadsheet would run (issue 24, item 6): every CSV deckcli writes escapes a
cell starting with =, +, -, @, a tab or a carriage return as OWASP recommends (a single quote in
front, the cell quoted), and reading it back gives the same deck."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from conftest import animals_db, run
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcli.decks.csvdeck import FORMULA_STARTS, csv_text, escape_cell, unescape_cell

HOSTILE = Path(__file__).parent / "hostile" / "formula"


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_convert_escapes_formula_cells():
    """Before: '+cmd|' /C calc'!A0' and '=1+1' were written as they are."""
    r = run("convert", HOSTILE / "formula-cells.yaml", "--to", "csv")
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[1] == '4,"\'=1+1",,,'
    assert lines[2] == '4,"\'+cmd|\' /C calc\'!A0",,,'
    assert lines[3] == '4,"\'-2+3",,,'
    assert lines[5] == '4,"\'\'=already quoted",,,'
    for row in cells(r.out)[1:]:
        assert not any(cell.startswith(FORMULA_STARTS) for cell in row), row


def test_a_formula_cell_read_back_is_the_same_deck(tmp_path):
    out = tmp_path / "deck.csv"
    assert run("convert", HOSTILE / "formula-cells.yaml", "--to", "csv", "-o", out).code == 0
    from deckcli.decks.reader import read_deck

    names = [e.name for e in read_deck(str(out)).entries]
    assert names == [e.name for e in read_deck(str(HOSTILE / "formula-cells.yaml")).entries]
    assert names == ["=1+1", "+cmd|' /C calc'!A0", "-2+3", "Tabbed", "'=already quoted"]


def test_fmt_of_a_csv_deck_escapes_its_cells(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("count,name,set,number,variants\n4,Walrus,,,\n", encoding="utf-8")
    path.write_text(csv_text([["count", "name", "set", "number", "variants"],
                              [4, "Walrus", "", "", ""], [2, "=1+1", "", "", ""]]),
                    encoding="utf-8")
    run("fmt", path)
    assert '"\'=1+1"' in path.read_text(encoding="utf-8")


@pytest.fixture
def signed_db(tmp_path):
    """Real cards whose names start with '-' and '+'."""
    return animals_db(tmp_path / "db", ["-1 Seal", "+Plus Walrus", "@Sea Lion", "Orca"])


def test_a_card_named_with_a_leading_minus_or_plus_survives_csv(signed_db, tmp_path):
    src = tmp_path / "deck.txt"
    src.write_text("4 -1 Seal\n4 +Plus Walrus (TST) 2\n4 @Sea Lion\n4 Orca\n", encoding="utf-8")
    out = tmp_path / "deck.csv"
    assert run("--db", signed_db, "convert", src, "--to", "csv", "-o", out).code == 0
    assert "'-1 Seal" in out.read_text(encoding="utf-8")
    want = run("--db", signed_db, "validate", src, "-O", "json").json()["decks"][0]
    got = run("--db", signed_db, "validate", out, "-O", "json").json()["decks"][0]
    assert got["fingerprint"] == want["fingerprint"] and got["card_count"] == 16
    assert [p["code"] for p in got["problems"]] == [p["code"] for p in want["problems"]]


@given(st.text(st.sampled_from(["'", "=", "+", "-", "@", "\t", "\r", "a", ",", '"', "\n", " "]),
               max_size=8))
@settings(max_examples=500, deadline=None)
def test_escaping_reads_back_exactly_and_never_starts_a_formula(value):
    text, _ = escape_cell(value)
    assert not text.startswith(FORMULA_STARTS)
    assert unescape_cell(text) == value
    [[cell]] = cells(csv_text([[value]])) if value != "" else [[""]]
    assert unescape_cell(cell) == value


def test_a_header_naming_a_column_twice_is_an_error_on_line_1(tmp_path):
    """`count,count,name`: which count holds? Neither is guessed (was: the last one, without a
    word): an error on the header line, and no entry read."""
    deck = tmp_path / "twice.csv"
    deck.write_text("count,count,name\n4,2,Walrus\n", encoding="utf-8")
    r = run("validate", deck, "--output", "json")
    assert r.code == 1, r
    [p] = r.json()["decks"][0]["problems"]
    assert (p["code"], p["rule"], p["line"]) == ("bad-structure", "DL-1.2", 1), p
    assert "count more than once" in p["message"]
    # an extra column deckcli does not read may repeat: it changes nothing
    deck.write_text("count,name,note,note\n" + "4,Walrus,a,b\n" * 5, encoding="utf-8")
    r = run("validate", deck, "--output", "json")
    assert r.json()["decks"][0]["card_count"] == 20, r


def test_a_csv_line_past_the_line_limit_is_an_error_on_its_line(tmp_path):
    """DL-1.3 bounds a decklist line at 4,096 characters, a CSV line included (was: read as a
    5,000-letter card name). The lines around it are still read."""
    deck = tmp_path / "long.csv"
    deck.write_text("count,name\n4,Walrus\n4," + "W" * 5000 + "\n4,Orca\n", encoding="utf-8")
    r = run("validate", deck, "--output", "json")
    d = r.json()["decks"][0]
    [p] = [p for p in d["problems"] if p["code"] == "line-too-long"]
    assert (p["rule"], p["line"]) == ("DL-1.3", 3) and "5,002 characters" in p["message"], p
    assert d["card_count"] == 8
