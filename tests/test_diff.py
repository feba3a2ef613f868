"""deckcli diff (docs/commands.md): two decks card for card, printings ignored unless
--printings, exit 0 same / 1 different / 2 unreadable; and a whole event's registered decks
against the decks played (--event FILE --played DIR)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, run

GOLDEN = Path(__file__).parent / "golden" / "diff"
UPDATE = os.environ.get("DECKCLI_UPDATE_GOLDEN") == "1"
DEEP = EXAMPLES / "good" / "championship-deep-divers.txt"
OTHER = EXAMPLES / "other-tools"


def golden(name: str, got: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


@pytest.fixture
def swapped(tmp_path):
    """The Deep Divers deck with one Orca swapped for a Narwhal."""
    text = DEEP.read_text(encoding="utf-8").replace("4 Orca (ABS) 10\n", "3 Orca (ABS) 10\n1 Narwhal (ABS) 13\n")
    assert "3 Orca" in text
    path = tmp_path / "played.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["arena.txt", "moxfield.txt", "forge.dck", "cockatrice.cod",
                                  "mtgo.dek"])
def test_the_same_deck_in_another_layout_is_the_same(name):
    r = run("diff", DEEP, OTHER / name)
    assert r.code == 0 and r.out.splitlines()[-1] == "same cards", r


def test_a_swapped_card_reads_at_a_glance(swapped, monkeypatch):
    monkeypatch.chdir(swapped.parent)
    shutil.copy(DEEP, "registered.txt")
    r = run("diff", "registered.txt", "played.txt")
    assert r.code == 1, r
    assert r.out.splitlines()[-1] == "different: -1 Orca (ABS) 10, +1 Narwhal (ABS) 13"
    golden("swapped.text", r.out)
    r = run("diff", "registered.txt", "played.txt", "-O", "json")
    assert r.code == 1, r
    golden("swapped.json", r.out)
    data = r.json()
    assert set(data) == {"version", "same", "a", "b", "changes"}
    assert data["same"] is False and set(data["a"]) == {"path", "fingerprint", "card_count"}
    assert data["changes"] == [{"name": "Narwhal", "number": "13", "a": 4, "b": 5},
                               {"name": "Orca", "number": "10", "a": 4, "b": 3}]


def test_printings_are_ignored_unless_asked_for(deck_file):
    a = deck_file("4 Walrus (ABS) 12\n2 Orca\n", "a.txt")
    b = deck_file("2 Walrus (ABS) 12 [foil]\n1 Walrus (PRM) P3\n1 Walrus\n2 Orca (ABS) 10\n",
                  "b.txt")
    r = run("diff", a, b, "-O", "json")
    assert r.code == 0 and r.json()["same"] is True and r.json()["changes"] == [], r
    r = run("diff", a, b, "--printings", "-O", "json")
    assert r.code == 1, r
    assert r.json()["changes"] == [
        {"name": "Orca", "number": "10", "a": 2, "b": 0, "printing": None},
        {"name": "Orca", "number": "10", "a": 0, "b": 2, "printing": "(ABS) 10"},
        {"name": "Walrus", "number": "12", "a": 0, "b": 1, "printing": None},
        {"name": "Walrus", "number": "12", "a": 4, "b": 0, "printing": "(ABS) 12"},
        {"name": "Walrus", "number": "12", "a": 0, "b": 2, "printing": "(ABS) 12 [foil]"},
        {"name": "Walrus", "number": "12", "a": 0, "b": 1, "printing": "(PRM) P3"}]
    text = run("diff", a, b, "--printings").out.splitlines()[2:]
    assert text == ["different: 6 changes", "  -2 Orca", "  -4 Walrus (ABS) 12",
                    "  +2 Orca (ABS) 10", "  +1 Walrus", "  +2 Walrus (ABS) 12 [foil]",
                    "  +1 Walrus (PRM) P3"]  # one line would be 111 columns


def test_a_card_that_is_not_in_the_database_counts_by_its_name(deck_file):
    r = run("diff", deck_file("4 Wlarus\n", "a.txt"), deck_file("4 Walrus\n", "b.txt"))
    assert r.code == 1 and r.out.splitlines()[-1] == "different: -4 Wlarus, +4 Walrus (ABS) 12"


@pytest.mark.parametrize("text", ["four Walrus\n4 Orca\n", "\x00binary"])
def test_a_deck_that_cannot_be_read_exits_2(deck_file, text):
    bad = deck_file(text, "bad.txt")
    r = run("diff", DEEP, bad)
    assert r.code == 2 and "bad.txt: cannot be read as a deck" in r.err, r
    assert r.out == "" and "Traceback" not in r.err


def test_standard_input_given_twice_is_a_usage_error_as_in_validate():
    # 'diff - -' said the second '-' held no card entries (stdin is read once)
    r = run("diff", "-", "-", input=DEEP.read_text(encoding="utf-8"))
    assert r.code == 2 and "'-' (standard input) is given more than once" in r.err, r
    assert run("diff", "-", DEEP, input=DEEP.read_text(encoding="utf-8")).code == 0


def test_a_missing_file_or_one_deck_exits_2(tmp_path):
    assert run("diff", DEEP, tmp_path / "gone.txt").code == 2
    r = run("diff", DEEP)
    assert r.code == 2 and "two decks" in r.err, r


# -- a whole event ------------------------------------------------------------------------------
@pytest.fixture
def event(tmp_path):
    """An event with four listed players (dana without a registered deck) and a folder of
    played decks: alice's at the same path, bruno's found by its file name, chen's by the
    player's name and changed, erin's matching nobody."""
    shutil.copytree(EXAMPLES / "event", tmp_path / "event")
    played = tmp_path / "played"
    (played / "decks").mkdir(parents=True)
    src = tmp_path / "event" / "decks"
    shutil.copy(src / "alice.txt", played / "decks" / "alice.txt")
    shutil.copy(src / "bruno.yaml", played / "bruno.yaml")
    chen = (src / "chen.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    (played / "Chen.txt").write_text("".join(chen[:-1]), encoding="utf-8")
    shutil.copy(src / "erin.txt", played / "erin.txt")
    return tmp_path


def test_an_event_checks_every_player(event, monkeypatch):
    monkeypatch.chdir(event)
    r = run("diff", "--event", "event/event.yaml", "--played", "played")
    assert r.code == 1, r
    golden("event.text", r.out)
    lines = r.out.splitlines()
    assert lines[0].startswith("alice: same cards (") and lines[1].startswith("bruno: same")
    assert lines[2].startswith("chen: DIFFERENT: -")
    assert lines[3].startswith("dana: MISSING: the registered deck event/decks/dana.txt")
    assert lines[4] == "played/erin.txt: no player in the roster matches this played deck"
    r = run("diff", "--event", "event/event.yaml", "--played", "played", "-O", "json")
    golden("event.json", r.out)
    data = r.json()
    assert data["summary"] == {"players": 4, "same": 2, "different": 1, "missing": 1,
                               "unmatched": 1}
    assert [p["b"]["path"] if p["b"] else None for p in data["players"]] == [
        "played/decks/alice.txt", "played/bruno.yaml", "played/Chen.txt", None]


def test_an_event_whose_decks_were_all_played_exits_0(event):
    (event / "event" / "decks" / "dana.txt").write_text(
        (event / "event" / "decks" / "alice.txt").read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copy(event / "event" / "decks" / "chen.txt", event / "played" / "Chen.txt")
    shutil.copy(event / "event" / "decks" / "dana.txt", event / "played" / "dana.deck")
    (event / "played" / "erin.txt").unlink()
    r = run("diff", "--event", event / "event" / "event.yaml", "--played", event / "played")
    assert r.code == 0, r
    assert r.out.splitlines()[-1] == "4 player(s): 4 same, 0 different, 0 missing; " \
                                     "0 played deck(s) unmatched"


def test_a_player_listed_without_a_deck_is_missing_with_nothing_to_compare(event):
    ev = event / "event" / "event.yaml"
    ev.write_text(ev.read_text(encoding="utf-8").replace("dana: decks/dana.txt", "dana:"),
                  encoding="utf-8")
    r = run("diff", "--event", ev, "--played", event / "played")
    assert r.code == 1, r
    line = next(x for x in r.out.splitlines() if x.startswith("dana:"))
    assert line == "dana: MISSING: no deck file is listed for them in the roster", r


def test_two_played_decks_that_could_be_a_players_are_not_guessed_between(event):
    shutil.copy(event / "played" / "bruno.yaml", event / "played" / "decks" / "bruno.txt")
    r = run("diff", "--event", event / "event" / "event.yaml", "--played", event / "played")
    line = next(x for x in r.out.splitlines() if x.startswith("bruno:"))
    assert "MISSING: 2 played decks could be theirs" in line, r


@pytest.mark.parametrize("args", [["--event", "x.yaml"], ["--played", "."],
                                  ["a.txt", "--event", "x.yaml", "--played", "."]])
def test_event_and_played_go_together(args):
    r = run("diff", *args)
    assert r.code == 2 and "go together" in r.err, r


def test_a_played_folder_that_does_not_exist_exits_2(event):
    r = run("diff", "--event", event / "event" / "event.yaml", "--played", event / "nowhere")
    assert r.code == 2, r


def test_a_long_difference_is_one_change_a_line(deck_file, monkeypatch):
    """Past 100 columns the changes were still one line; now they are one a line, each
    indented under 'different: N changes', and a short difference keeps its one line."""
    a = deck_file("4 Walrus\n4 Orca\n4 Narwhal\n4 Beluga\n4 Coelacanth\n4 Vaquita\n", "a.txt")
    b = deck_file("4 Blue Whale\n4 Sperm Whale\n4 Fin Whale\n4 Whale Shark\n4 Dugong\n"
                  "4 Sea Otter\n", "b.txt")
    monkeypatch.chdir(a.parent)  # the decks' own lines name them as given: short names
    a, b = a.name, b.name
    changes = run("diff", a, b, "-O", "json").json()["changes"]
    r = run("diff", a, b)
    assert r.code == 1, r
    lines = r.out.splitlines()
    at = lines.index(f"different: {len(changes)} changes")
    listed = lines[at + 1:]
    assert len(listed) == len(changes) and all(line.startswith("  -4 ") or
                                                line.startswith("  +4 ") for line in listed)
    assert all(len(line) <= 100 for line in lines), r
