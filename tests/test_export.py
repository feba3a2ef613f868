"""deckcli export --event FILE --to csv|json|html: every roster deck (player, deck name,
fingerprint, verdict, cards) as organisers publish decklists. (The HTML page in a real
browser: tests/test_browser.py.)"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, run

from deckcli.decks.csvdeck import FORMULA_STARTS

GOLDEN = Path(__file__).parent / "golden" / "export"
UPDATE = os.environ.get("DECKCLI_UPDATE_GOLDEN") == "1"
EVENT = EXAMPLES / "event" / "event.yaml"


@pytest.fixture
def here(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    return Path("examples") / "event" / "event.yaml"


@pytest.mark.parametrize("to", ["csv", "json"])
def test_golden(here, to):
    r = run("export", "--event", here, "--to", to)
    assert r.code == 1 and r.err == "", r  # chen's deck is illegal, dana's missing
    expected = GOLDEN / f"event.{to}"
    if UPDATE:
        expected.write_text(r.out, encoding="utf-8")
    assert r.out == expected.read_text(encoding="utf-8")


def test_json_has_every_roster_deck_with_its_verdict_and_cards():
    data = run("export", "--event", EVENT, "--to", "json").json()
    decks = run("validate", "--event", EVENT, "-O", "json").json()["decks"]
    want = {d["player"]: d for d in decks if d["player"]}
    assert [d["player"] for d in data["decks"]] == ["alice", "bruno", "chen", "dana"]
    for deck in data["decks"]:
        assert deck["fingerprint"] == want[deck["player"]]["fingerprint"]
        if deck["verdict"] != "missing":
            assert deck["legal"] == want[deck["player"]]["legal"]
            assert sum(c["count"] for c in deck["cards"]) == deck["card_count"] == \
                want[deck["player"]]["card_count"]
    assert data["decks"][3] == {"player": "dana", "name": None, "path": None,
                                "fingerprint": None, "verdict": "missing", "legal": False,
                                "card_count": None, "cards": []}
    assert data["event"]["name"] == "Spring Championship"


def test_csv_has_a_row_per_card_and_one_for_a_missing_deck():
    rows = list(csv.DictReader(io.StringIO(run("export", "--event", EVENT, "--to", "csv").out)))
    assert list(rows[0]) == ["player", "deck", "fingerprint", "verdict", "count", "name", "set",
                             "number", "variants"]
    assert [r for r in rows if r["player"] == "dana"] == [
        {"player": "dana", "deck": "", "fingerprint": "", "verdict": "missing", "count": "",
         "name": "", "set": "", "number": "", "variants": ""}]
    alice = [r for r in rows if r["player"] == "alice"]
    assert sum(int(r["count"]) for r in alice) == 60


def test_csv_cells_a_spreadsheet_would_run_are_escaped(tmp_path):
    shutil.copy(Path(__file__).parent / "hostile" / "formula" / "formula-cells.yaml",
                tmp_path / "deck.yaml")
    (tmp_path / "event.yaml").write_text("name: E\nplayers: {\"=cmd|' /C calc'!A0\": deck.yaml}\n",
                                         encoding="utf-8")
    r = run("export", "--event", tmp_path / "event.yaml", "--to", "csv")
    assert r.code in (0, 1) and "Traceback" not in r.err, r
    rows = list(csv.reader(io.StringIO(r.out)))[1:]
    assert len(rows) == 5
    for row in rows:
        assert not any(cell.startswith(FORMULA_STARTS) for cell in row), row
    assert rows[0][:2] == ["'=cmd|' /C calc'!A0", "'=HYPERLINK(\"http://deckcli.invalid\",\"click\")"]


def test_html_page_is_written_with_every_deck(tmp_path):
    out = tmp_path / "lists.html"
    r = run("export", "--event", EVENT, "--to", "html", "-o", out)
    assert r.code == 1 and r.out == "", r  # written, with an illegal and a missing deck
    assert f"wrote 4 deck(s) of {EVENT} to {out} (html)" in r.err
    page = out.read_text(encoding="utf-8")
    for deck in run("validate", "--event", EVENT, "-O", "json").json()["decks"]:
        if deck["player"]:
            assert deck["player"] in page and (deck["fingerprint"] or "no deck") in page
    assert "<script" not in page and "http" not in page.split("</head>")[1]


def test_the_exit_code_says_whether_every_deck_is_legal(tmp_path):
    """Written either way; 0 only when every roster deck is legal (the exit codes of every
    command), so a CI step that publishes the lists also fails on an illegal or missing one."""
    shutil.copy(EXAMPLES / "event" / "decks" / "alice.txt", tmp_path / "alice.txt")
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nplayers: {alice: alice.txt}\n", encoding="utf-8")
    out = tmp_path / "lists.json"
    r = run("export", "--event", event, "--to", "json", "-o", out)
    assert r.code == 0 and json.loads(out.read_text(encoding="utf-8"))["decks"][0]["legal"], r
    event.write_text("name: E\nplayers: {alice: alice.txt, bob: bob.txt}\n", encoding="utf-8")
    r = run("export", "--event", event, "--to", "json", "-o", out)
    assert r.code == 1, r
    assert [d["verdict"] for d in json.loads(out.read_text(encoding="utf-8"))["decks"]] == [
        "legal", "missing"]


def test_a_bad_event_file_exits_2(tmp_path):
    bad = tmp_path / "event.yaml"
    bad.write_text("players: [oops\n", encoding="utf-8")
    r = run("export", "--event", bad, "--to", "json")
    assert r.code == 2 and "Traceback" not in r.err, r


@pytest.mark.parametrize("target", ["event.yaml", "alice.txt"])
def test_the_output_file_never_replaces_the_event_or_a_roster_deck(tmp_path, target):
    """-o naming the event file or a roster deck would replace what is being published with
    the publication: refused (exit 2), and both files are left as they were."""
    shutil.copy(EXAMPLES / "event" / "decks" / "alice.txt", tmp_path / "alice.txt")
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nplayers: {alice: alice.txt}\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (event, tmp_path / "alice.txt")}
    r = run("export", "--event", event, "--to", "json", "-o", tmp_path / target)
    assert r.code == 2 and "Traceback" not in r.err, r
    assert "not replacing it" in r.err, r
    assert {p: p.read_bytes() for p in before} == before
