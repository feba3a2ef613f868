"""Tournament CI: event files, rosters, CI output formats (golden files), parallel runs."""

from __future__ import annotations

import json
import math
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO, run
from hypothesis import given, settings
from hypothesis import strategies as st

EVENT = EXAMPLES / "event" / "event.yaml"
GOLDEN = Path(__file__).parent / "golden" / "validate"


def write_event(tmp_path, body: str, name="event.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def problems(result, deck=0):
    return [(p["code"], p["rule"]) for p in result.json()["decks"][deck]["problems"]]


DECK = "4 Walrus\n4 Orca\n4 Vaquita\n4 Narwhal\n4 Coelacanth\n"


def test_roster_event_checks_every_listed_deck(monkeypatch):
    monkeypatch.chdir(REPO)
    r = run("validate", "--event", "examples/event/event.yaml", "-O", "json")
    assert r.code == 1, r
    decks = {d["player"]: d for d in r.json()["decks"]}
    assert decks["alice"]["legal"] and decks["bruno"]["legal"]
    assert sorted(p["code"] for p in decks["chen"]["problems"]) == ["banned", "set-not-legal"]
    dana = decks["dana"]
    assert dana["path"] is None and dana["legal"] is False
    assert [p["rule"] for p in dana["problems"]] == ["EV-3.1"]
    unlisted = [d for d in r.json()["decks"] if d["path"] and d["path"].endswith("erin.txt")]
    assert [p["code"] for p in unlisted[0]["problems"]] == ["unlisted-deck"]
    assert r.json()["summary"] == {"decks": 5, "legal": 3, "illegal": 2}


def test_deck_paths_with_a_roster_event_say_the_roster_is_not_checked(monkeypatch):
    """Named decks are checked against the event's rules (a player checking their own deck
    before handing it in); the roster then is not, and the note says how to check it, so a
    CI step given the deck folder does not pass in silence with a player's deck missing."""
    monkeypatch.chdir(REPO / "examples" / "event")
    r = run("validate", "--event", "event.yaml", "decks/alice.txt", "-O", "json")
    assert r.code == 0 and [d["path"] for d in r.json()["decks"]] == ["decks/alice.txt"], r
    assert r.json()["decks"][0]["player"] == "alice"  # the roster's name for that file
    assert "has a roster of 4 player(s), not checked" in r.err, r
    assert "deckcli validate --event event.yaml" in r.err, r
    r = run("validate", "--event", "event.yaml", "-O", "json")
    assert "not checked" not in r.err and r.code == 1, r


@pytest.mark.parametrize("event,flags,expected", [
    ("name: E\n", [], ("animal-battle", "casual")),
    ("name: E\nformat: championship\n", [], ("animal-battle", "championship")),
    ("name: E\n", ["--format", "championship"], ("animal-battle", "championship")),
    ("name: E\ngame: alpha-walrus\n", [], ("alpha-walrus", None)),
    ("name: E\n", ["--game", "alpha-walrus"], ("alpha-walrus", None)),
])
def test_a_missing_deck_has_the_game_and_format_of_the_event(tmp_path, event, flags, expected):
    """A listed player without a deck is reported as a deck: its format is the one any deck
    gets there (null only for alpha-walrus), not null because the event names none."""
    ev = write_event(tmp_path, event + "players:\n  bob: gone.txt\n")
    r = run("validate", "--event", ev, *flags, "-O", "json")
    assert r.code == 1, r
    [deck] = r.json()["decks"]
    assert (deck["game"], deck["format"]) == expected and deck["path"] is None


@pytest.mark.parametrize("entry", ["bob:", "bob: ~", 'bob: ""', "bob: '  '"])
def test_a_player_listed_with_no_deck_path_is_a_missing_deck(tmp_path, deck_file, entry):
    """A roster entry left blank (a deck not handed in yet) is that player's missing deck:
    one problem on the roster's line, the other players checked; it is not read as a path
    (an empty one would name the event's own folder)."""
    deck_file(DECK, "ann.txt")
    ev = write_event(tmp_path, f"name: E\nplayers:\n  ann: ann.txt\n  {entry}\n")
    r = run("validate", "--event", ev, "-O", "json")
    assert r.code == 1, r
    ann, bob = r.json()["decks"]
    assert ann["player"] == "ann" and ann["legal"] is True
    assert (bob["player"], bob["path"], bob["legal"]) == ("bob", None, False)
    [p] = bob["problems"]
    assert (p["code"], p["rule"], p["line"]) == ("missing-deck", "EV-3.1", 4)
    assert "without a deck file" in p["message"]


def test_event_game_and_format_apply(tmp_path, deck_file):
    ev = write_event(tmp_path, "name: E\nformat: championship\n")
    r = run("validate", "--event", ev, deck_file(DECK), "-O", "json")
    assert r.json()["decks"][0]["format"] == "championship"
    assert problems(r) == [("deck-size", "AB-1.4")]
    # the flag still wins over the event
    r = run("validate", "--event", ev, deck_file(DECK), "--format", "casual", "-O", "json")
    assert r.code == 0, r


def test_a_ban_covers_every_version(tmp_path, deck_file):
    ev = write_event(tmp_path, 'banned: ["Walrus (ABS) 12"]\n')
    deck = deck_file("1 Walrus (PRM) P3 [promotional]\n1 Walrus (CLS) C012\n" + DECK[9:] + "4 Koala\n")
    r = run("validate", "--event", ev, deck, "-O", "json")
    assert r.code == 1
    assert problems(r) == [("banned", "EV-1.1"), ("banned", "EV-1.1")]


@pytest.mark.parametrize("as_of,banned", [(None, False), ("2026-06-01", True), ("2026-05-31", False)])
def test_dated_bans_follow_the_event_date_or_as_of(tmp_path, deck_file, as_of, banned):
    ev = write_event(tmp_path, "date: 2026-05-02\nbanned: [{card: Orca, effective: 2026-06-01}]\n")
    args = ["validate", "--event", ev, deck_file(DECK), "-O", "json"]
    if as_of:
        args += ["--as-of", as_of]
    r = run(*args)
    assert (("banned", "EV-1.2") in problems(r) or ("banned", "EV-1.1") in problems(r)) is banned


def test_limited_cards(tmp_path, deck_file):
    ev = write_event(tmp_path, "limited: {Orca: 2}\n")
    r = run("validate", "--event", ev, deck_file(DECK), "-O", "json")
    assert problems(r) == [("copy-limit", "EV-1.3")]
    assert "limit 2" in r.json()["decks"][0]["problems"][0]["message"]


def test_legal_sets_judge_the_printed_card(tmp_path, deck_file):
    ev = write_event(tmp_path, "sets: [ABS, PRM]\n")
    ok = run("validate", "--event", ev, deck_file("1 Walrus (PRM) P3\n3 Walrus\n" + DECK[9:]), "-O", "json")
    assert ok.code == 0, ok
    # Walrus exists in ABS, but the CLS reprint is what would be played
    bad = run("validate", "--event", ev, deck_file("1 Walrus (CLS) C012\n3 Walrus\n" + DECK[9:]), "-O", "json")
    assert problems(bad) == [("set-not-legal", "EV-2.1")]
    # a card with no printing in any legal set, named without a printing
    bad = run("validate", "--event", ev, deck_file("4 Golden Eagle\n" + DECK), "-O", "json")
    assert problems(bad) == [("set-not-legal", "EV-2.1")]


# Walrus: (ABS) 12 regular/foil/first-edition, (ABS) A12 alternate-art, (PRM) P3 promotional,
# (CLS) C012 regular/foil. With CLS and PRM legal, an entry naming no printing must still fit one.
@pytest.mark.parametrize("line,fault", [
    ("1 Walrus", None),
    ("1 Walrus [foil]", None),  # the CLS reprint exists in foil
    ("1 Walrus [promo]", None),  # PRM P3
    ("1 Walrus (CLS)", None),
    ("1 Walrus (CLS) [foil]", None),
    ("1 Walrus (ABS)", "Walrus (ABS): set ABS is not legal"),  # the set it names
    ("1 Walrus [alternate-art]", "[alternate-art]: no printing in a legal set"),  # only ABS A12
    ("1 Walrus [first-edition]", "[first-edition]: no printing in a legal set"),  # only ABS 12
    ("1 Walrus [first-edition, foil]", "[first-edition, foil]: no printing in a legal set"),
])
def test_an_entry_naming_no_printing_is_narrowed_by_its_set_and_tags(
        tmp_path, deck_file, index, line, fault):
    """EV-2.1: the set an entry names and its variant tags narrow the printings it may stand
    for, on both reading routes (a clean deck takes the quick read; an unknown card on the
    first line sends the other to the full reader)."""
    from deckcli.events.model import load_event
    from deckcli.validate import Options, validate_path

    event = load_event(str(write_event(tmp_path, "sets: [CLS, PRM]\n")))
    event.resolve(index)
    filler = "4 Orca (CLS) C010\n4 Vaquita (CLS) C014\n"
    for first in ("", "4 Walruss\n"):
        path = deck_file(first + line + "\n" + filler, "full.txt" if first else "quick.txt")
        report = validate_path(str(path), index, Options(event=event))
        found = [(p.line, p.message) for p in report.problems if p.code == "set-not-legal"]
        if fault is None:
            assert found == [], (first, found)
        else:
            [(at, message)] = found
            assert at == (2 if first else 1) and fault in message, (first, found)


def test_a_set_code_word_in_a_cards_name_is_not_a_set_to_judge(tmp_path, mark_db):
    """'4 Mark DWV 2' is the card 'Mark DWV 2' when such a card exists: no set is named, so
    the event judges the card's own printings, not DWV's."""
    db = mark_db
    deck = tmp_path / "d.txt"
    deck.write_text("4 Mark DWV 2\n4 Walrus (ABS)\n", encoding="utf-8")
    ev = write_event(tmp_path, "sets: [TST, CLS]\n")
    r = run("--db", db, "validate", "--event", ev, deck, "-O", "json")
    found = [(p["line"], p["message"]) for p in r.json()["decks"][0]["problems"]
             if p["code"] == "set-not-legal"]
    assert [at for at, _ in found] == [2], found  # Mark DWV 2 is in TST, legal
    assert "set ABS is not legal" in found[0][1]


def test_set_verdicts_follow_each_events_own_sets(tmp_path, deck_file, index):
    """One index serves several events in one process (the answers are remembered on it):
    each event's legal sets still decide, in either order, on both reading routes."""
    from deckcli.events.model import load_event
    from deckcli.validate import Options, validate_path

    narrow = load_event(str(write_event(tmp_path, "sets: [ABS, PRM]\n", "narrow.yaml")))
    wide = load_event(str(write_event(tmp_path, "sets: [ABS, PRM, CLS]\n", "wide.yaml")))
    clean = deck_file("1 Walrus (CLS) C012\n3 Walrus\n" + DECK[9:], "clean.txt")
    # an unknown card on line 1: the full reader, whose entries leave that line out
    troubled = deck_file("4 Walruss\n1 Walrus (CLS) C012\n3 Walrus\n" + DECK[9:], "t.txt")

    def set_lines(event, path):
        report = validate_path(str(path), index, Options(event=event))
        return [p.line for p in report.problems if p.code == "set-not-legal"]

    for first, second in ((narrow, wide), (wide, narrow)):
        for event in (first, second):
            want = [1] if event is narrow else []
            assert set_lines(event, clean) == want
            assert set_lines(event, troubled) == [n + 1 for n in want]


def test_unknown_set_code_is_only_a_warning(tmp_path, deck_file):
    ev = write_event(tmp_path, "sets: [ABS, PRM, ZZZ]\n")
    r = run("validate", "--event", ev, deck_file(DECK))
    assert r.code == 0, r
    assert "unknown set code 'ZZZ'" in r.err
    assert f"{ev}:1: " in r.err  # the line of the code


def test_an_unknown_set_code_is_not_listed_among_the_legal_sets(tmp_path, deck_file):
    """It makes nothing legal, so a set-not-legal message lists only the sets a card can be
    printed in."""
    ev = write_event(tmp_path, "sets: [PRM, ZZZ]\n")
    r = run("validate", "--event", ev, deck_file("4 Walrus (ABS) 12\n"), "-O", "json")
    [p] = [p for p in r.json()["decks"][0]["problems"] if p["code"] == "set-not-legal"]
    assert p["message"].endswith("(legal sets: PRM)"), p
    ev = write_event(tmp_path, "sets: [ZZZ]\n")
    r = run("validate", "--event", ev, deck_file("4 Walrus (ABS) 12\n"), "-O", "json")
    [p] = [p for p in r.json()["decks"][0]["problems"] if p["code"] == "set-not-legal"]
    assert p["message"].endswith("(legal sets: none the card database knows)"), p


def test_sets_left_empty_is_no_list_and_an_empty_list_names_no_legal_set(tmp_path, deck_file):
    """docs/ci.md: 'sets:' with nothing after it is as if there were no 'sets' line; 'sets: []'
    is a list of no set, so every printing is from a set the event does not list (EV-2.1)."""
    ev = write_event(tmp_path, "sets:\n")
    r = run("validate", "--event", ev, deck_file(DECK), "-O", "json")
    assert r.code == 0, r
    ev = write_event(tmp_path, "sets: []\n")
    r = run("validate", "--event", ev, deck_file(DECK), "-O", "json")
    assert r.code == 1 and {c for c, _r in problems(r)} == {"set-not-legal"}, r


def test_unknown_set_code_on_its_own_line_names_that_line(tmp_path, deck_file):
    ev = write_event(tmp_path, "name: E\nsets:\n  - ABS\n  - zzz\n")
    r = run("validate", "--event", ev, deck_file(DECK))
    assert r.code == 0, r
    assert f"{ev}:4: " in r.err and "unknown set code 'ZZZ'" in r.err


@pytest.mark.parametrize("body,line,message", [
    ('banned: ["Wolverin"]\n', 1, "did you mean 'Wolverine'"),
    ("name: E\nbanned:\n  - Walrus\n  - Nonesuch Beast\n", 4, "Nonesuch Beast"),
    ("name: E\nformat: huge\n", 2, "format 'huge'"),
    ("name: E\ngame: chess\n", 2, "unknown game"),
    ("name: E\nlimited: {Orca: many}\n", 2, "limited"),
    ("name: E\ncolour: red\n", 2, "colour"),
    ("- just a list\n", 1, "mapping"),
    ("name: [\n", 2, "YAML"),
    # each field's own check names the field (deckcli/events/fields.py)
    ("name: 12\n", 1, "name: should be text, not a number"),
    ("name: E\ndate: 2026-05-02 10:00:00\n", 2, "date: should be a date like 2026-05-02, without"),
    ('date: "May 2nd"\n', 1, "date: should be a date like 2026-05-02, not 'May 2nd'"),
    ('date: "2026-02-30"\n', 1, "date: should be a date like 2026-05-02, not '2026-02-30'"),
    ("banned: Walrus\n", 1, "banned: should be a list, not text"),
    ("banned:\n  - Walrus\n  - [Orca]\n", 3, "banned.1: should be text, not a list"),
    ("banned:\n  - {card: Orca, when: 2026-01-01}\n", 2, "banned.0.when: a ban has only"),
    ("banned:\n  - {effective: 2026-01-01}\n", 2, "banned.0: a ban needs 'card'"),
    ("banned:\n  - {card: Orca, effective: soon}\n", 2, "banned.0.effective: should be a date"),
    ('banned: [" "]\n', 1, "banned.0: names no card"),
    ("limited:\n  Orca: true\n", 2, "limited.Orca: should be a whole number of copies"),
    ("limited:\n  Orca: 1.5\n", 2, "limited.Orca: should be a whole number of copies"),
    ("limited:\n  Orca: 1000\n", 2, "limited.Orca: limit for 'Orca' must be between 0 and 999"),
    ("sets: [ABS, 12]\n", 1, "sets.1: should be text, not a number"),
    ("house_rules:\n  stat_tie: 1.5\n", 2, "house_rules.stat_tie: should be text, not a number"),
    ("house_rules:\n  stat_tie: banana\n", 2,
     "house_rules.stat_tie: house rule stat_tie=banana is not one of challenger, defender"),
    ("name: E\nhouse_rules: {no_such_rule: 1}\n", 2,
     "house_rules.no_such_rule: unknown animal-battle house rule 'no_such_rule'"),
    ("game: alpha-walrus\nhouse_rules: {stat_tie: defender}\n", 2,
     "house_rules.stat_tie: unknown alpha-walrus house rule 'stat_tie'"),
    ("players:\n  ann: a.txt\n  bob: [b.txt]\n", 3, "players.bob: should be text, not a list"),
    ("name: E\n12: x\n", 2, "12: not a field of an event file"),
])
def test_bad_event_files_exit_2_with_file_and_line(tmp_path, deck_file, body, line, message):
    ev = write_event(tmp_path, body)
    r = run("validate", "--event", ev, deck_file(DECK))
    assert r.code == 2, r
    assert f"event.yaml:{line}:" in r.err and message in r.err, r
    assert "Traceback" not in r.err


def test_a_bad_house_rule_in_an_event_is_refused_on_its_line_by_every_command(tmp_path,
                                                                             deck_file):
    ev = write_event(tmp_path, "name: E\nhouse_rules:\n  stat_tie: banana\n")
    deck = deck_file(DECK)
    for args in (["validate", "--event", ev, deck], ["fmt", "--check", "--event", ev, deck],
                 ["simulate", deck, deck, "--games", "2", "--event", ev],
                 ["referee", "battle", "Orca", "Walrus", "--stat", "speed", "--event", ev]):
        r = run(*args)
        assert r.code == 2 and f"{ev}:3: house_rules.stat_tie: " in r.err, r
        assert "Traceback" not in r.err, r


@pytest.mark.parametrize("body", ["name: E\n", "name: E\nplayers:\n", "players: {}\n"])
@pytest.mark.parametrize("command", [["validate"], ["validate", "-O", "json"], ["sheet"]])
def test_an_event_with_no_roster_and_no_decks_exits_2(tmp_path, body, command):
    """Nothing to check is not a pass: a CI step given an event without a roster, and no
    deck files, must not go green."""
    ev = write_event(tmp_path, body)
    r = run(*command, "--event", ev, *(["-o", tmp_path / "s.html"] if command == ["sheet"]
                                       else []))
    assert r.code == 2, r
    assert "lists no players (add a 'players:' roster, or give deck files)" in r.err
    assert r.out == "" and not (tmp_path / "s.html").exists()


def test_event_fields_take_what_organisers_write(tmp_path, deck_file):
    """A list or mapping left empty (``banned:`` with nothing under it yet) is empty; a quoted
    date or count is read as one; a house rule may be a word or a number (read as text, and
    checked against the gaps of a game that has the key)."""
    from deckcli.events.model import load_event

    ev = load_event(str(write_event(tmp_path, (
        'name: E\ndate: "2026-05-02"\nbanned:\nlimited:\n  Orca: "2"\n  Vaquita: 3.0\n'
        "sets:\nplayers:\nhouse_rules: {stat_tie: defender, battles_per_turn: 1}\n"))))
    assert str(ev.date) == "2026-05-02" and ev.bans == [] and ev.players == {}
    assert ev.sets is None  # no list of legal sets: every set is legal
    assert [(ref, n) for ref, n, _line in ev.limited] == [("Orca", 2), ("Vaquita", 3)]
    assert ev.house_rules == {"stat_tie": "defender", "battles_per_turn": "1"}
    deck = DECK.replace("4 Orca", "3 Orca").replace("4 Vaquita", "3 Vaquita") + "2 Koala\n"
    r = run("validate", "--event", ev.path, deck_file(deck), "-O", "json")
    assert problems(r) == [("copy-limit", "EV-1.3")]  # Orca: 3 of 2; Vaquita: 3 of 3


def test_an_event_check_imports_no_pydantic(tmp_path, deck_file):
    """Reading an event file costs no pydantic import (about 0.2 s, benchmarks/cold_start.py)."""
    import subprocess
    import sys

    ev = write_event(tmp_path, 'name: E\nbanned: ["Orca"]\nsets: [ABS, DWV]\n')
    code = ("import sys; from deckcli.cli import run; code = run(['validate', '--event', "
            f"{str(ev)!r}, {str(deck_file(DECK))!r}]); "
            "print(sorted(m for m in ('pydantic', 'tabulate') if m in sys.modules), code)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.splitlines()[-1] == "[] 1", out


def test_missing_event_file_exits_2(tmp_path):
    r = run("validate", "--event", tmp_path / "nope.yaml")
    assert r.code == 2 and "nope.yaml" in r.err


@pytest.mark.parametrize("args,what", [
    (["validate", "examples/good/casual-risky.txt", "--event"], "an event file"),
    (["referee", "check"], "a game log"),
])
def test_a_folder_given_for_a_file_is_named_for_what_was_asked(args, what, tmp_path):
    # an event file given as a folder was "a directory, not a deck file"
    folder = tmp_path / "spring"
    folder.mkdir()
    r = run(*args, folder)
    assert r.code == 2, r
    assert r.err.strip().endswith(f"{folder} is a directory, not {what}"), r


# -- CI output formats --------------------------------------------------------------------------

CASES = {
    "bad": ["examples/bad/too-many-copies.txt", "examples/bad/malformed-lines.txt",
            "examples/good/casual-risky.txt"],
    "event": ["--event", "examples/event/event.yaml"],
}


@pytest.mark.parametrize("output", ["text", "json", "github", "junit", "sarif"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_reports(monkeypatch, case, output):
    monkeypatch.chdir(REPO)
    r = run("validate", *CASES[case], "--output", output)
    assert r.code == 1, r
    golden = GOLDEN / f"{case}.{output}"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(r.out, encoding="utf-8")
    assert r.out == golden.read_text(encoding="utf-8")


def test_sarif_locations_are_uris_and_every_problem_has_one(tmp_path, monkeypatch):
    """SARIF's artifactLocation.uri is a URI reference: a file name's space, '%', '#' and
    non-ASCII letters are percent-encoded (UTF-8); a missing deck's problem points at the
    event file's line, as the text and github reports do."""
    from urllib.parse import unquote

    monkeypatch.chdir(tmp_path)
    (tmp_path / "d 1 %é#.txt").write_text("4 Walrus\n", encoding="utf-8")
    (tmp_path / "ev.yaml").write_text("name: E\nplayers:\n  ann: d 1 %é#.txt\n"
                                      "  bob: gone.txt\n", encoding="utf-8")
    r = run("validate", "--event", "ev.yaml", "-O", "sarif")
    assert r.code == 1, r
    results = json.loads(r.out)["runs"][0]["results"]
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for res in results}
    assert uris == {"d%201%20%25%C3%A9%23.txt", "ev.yaml"}
    assert {unquote(u) for u in uris} == {"d 1 %é#.txt", "ev.yaml"}
    missing = [res for res in results if res["properties"]["code"] == "missing-deck"]
    assert missing[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 4}


def test_github_escaping():
    from deckcli.diagnostics import error
    from deckcli.reporters.github import annotation, escape_data

    # a message is one line whatever it quotes: its CR and LF are shown escaped (issue 38, 4)
    p = error("x", "AB-1.5", "100% sure,\r\nreally: yes", line=3)
    assert annotation(p, "decks/a,b:c.txt") == (
        "::error file=decks/a%2Cb%3Ac.txt,line=3,title=x (AB-1.5)::100%25 sure,\\x0d\\x0areally: "
        "yes")
    assert escape_data("a\r\nb%") == "a%0D%0Ab%25"  # a path's CR (a message has none left)


def test_github_output_is_picked_by_itself_on_actions(monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    r = run("validate", EXAMPLES / "bad" / "casual-19.txt")
    assert r.out.startswith("::error file=")


def test_junit_and_sarif_parse(monkeypatch):
    monkeypatch.chdir(REPO)
    junit = ET.fromstring(run("validate", *CASES["event"], "-O", "junit").out)
    cases = junit.findall(".//testcase")
    assert len(cases) == 5 and len(junit.findall(".//failure")) == 2
    sarif = json.loads(run("validate", *CASES["event"], "-O", "sarif").out)
    assert sarif["version"] == "2.1.0"
    rules = [r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]]
    for result in sarif["runs"][0]["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]


def test_output_file_keeps_the_text_summary_on_stdout(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "report.json"
    r = run("validate", "examples/bad/casual-19.txt", "-O", "json", "--output-file", out)
    assert r.code == 1
    assert "1 deck(s): 0 legal, 1 illegal" in r.out
    assert json.loads(out.read_text())["summary"]["illegal"] == 1


@pytest.mark.parametrize("output", ["json", "github", "text", "junit", "sarif"])
def test_jobs_output_is_identical(monkeypatch, output):
    # json and github render each deck in the worker that checked it (Reporter.render).
    # auto starts processes for these folders' 25 decks once the size it waits for is lowered
    # (the spy says how many processes each run had), on a machine of two CPUs or more
    import deckcli.batch as batch

    monkeypatch.chdir(REPO)
    monkeypatch.setattr(batch, "AUTO_MIN_DECKS", 8)
    monkeypatch.setattr(batch.os, "cpu_count", lambda: 2)
    counts = []
    process_count = batch.process_count

    def spy(jobs, decks):
        counts.append(process_count(jobs, decks))
        return counts[-1]

    monkeypatch.setattr(batch, "process_count", spy)
    decks = ("examples/good", "examples/bad", "examples/event")
    runs = [run("validate", *decks, "-O", output, *jobs)
            for jobs in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "0"], ["--jobs", "auto"],
                         ["-j", "AUTO"], [])]
    assert counts == [1, 2, 2, 2, 2, 2]
    assert {r.code for r in runs} == {1}
    assert runs[0].out  # and every other run printed exactly that
    for r in runs[1:]:
        assert r.out == runs[0].out, r.args


def test_jobs_auto_checks_a_small_run_in_one_process(monkeypatch):
    # a run smaller than AUTO_MIN_DECKS never pays for a pool; 0 and auto on a big one use
    # every CPU; no setting starts more processes than there are decks
    import deckcli.batch as batch

    monkeypatch.setattr(batch.os, "cpu_count", lambda: 4)
    assert batch.AUTO_MIN_DECKS > 1
    assert batch.process_count("auto", 1) == 1
    assert batch.process_count("auto", batch.AUTO_MIN_DECKS - 1) == 1
    assert batch.process_count("auto", batch.AUTO_MIN_DECKS) == 4
    assert batch.process_count(0, 3) == 3
    assert batch.process_count(1, 10_000) == 1
    assert batch.process_count(8, 10_000) == 8


def test_jobs_default_on_one_deck_imports_no_pool():
    # the cold start of one deck: by default no process pool is started, or even imported
    import subprocess
    import sys

    code = ("import sys; from deckcli.cli import run; "
            "code = run(['validate', 'examples/good/championship-deep-divers.txt']); "
            "print(code, 'concurrent.futures' in sys.modules, 'multiprocessing' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert proc.stdout.splitlines()[-1] == "0 False False", proc


@pytest.mark.parametrize("jobs", ["-1", "257", "many", "1.5", ""])
def test_jobs_refuses_what_is_not_auto_or_a_count(jobs):
    r = run("validate", EXAMPLES / "good", "--jobs", jobs)
    assert r.code == 2 and "is not 'auto' or a number from 0 to 256" in r.err, r


def test_jobs_with_an_output_file_keep_the_summary(tmp_path, monkeypatch):
    # the text summary on stdout needs each deck's whole report, not only its verdict
    monkeypatch.chdir(REPO)
    decks = ("examples/good", "examples/bad")
    one = run("validate", *decks, "-O", "json", "--output-file", tmp_path / "one.json")
    two = run("validate", *decks, "-O", "json", "--output-file", tmp_path / "two.json",
              "--jobs", "2")
    assert one.code == two.code == 1 and one.out == two.out and "ILLEGAL" in one.out
    assert (tmp_path / "one.json").read_text() == (tmp_path / "two.json").read_text()


def _many_decks(tmp_path, n=32) -> list[str]:
    """n small decks, legal and not, each with its own name."""
    paths = []
    for i in range(n):
        path = tmp_path / f"deck{i:03}.txt"
        copies = 4 if i % 3 else 5  # every third deck over the copy limit
        path.write_text(f"name: Deck {i}\n{copies} Walrus\n4 Orca\n4 Vaquita\n4 Narwhal\n"
                        "4 Coelacanth\n", encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("forked", [True, False])
def test_jobs_main_process_checks_chunks_too(tmp_path, monkeypatch, index, forked):
    # --jobs 2: one worker process and this one; 32 paths make chunks of 2. Forked (Linux):
    # both take the next chunk number from one pipe. Pooled (elsewhere): the worker is given
    # the first two chunks before this process takes the third for itself.
    import deckcli.parallel as parallel
    from deckcli.reporters.json import JsonReporter
    from deckcli.validate import Options, validate_path

    if forked and not parallel._can_fork():
        pytest.skip("workers are forked only on Linux")
    monkeypatch.setattr(parallel, "_can_fork", lambda: forked)
    paths = _many_decks(tmp_path)
    here: list[list[str]] = []
    check_paths = parallel.check_paths

    def spy(chunk, *args, **kwargs):
        here.append(list(chunk))  # a worker's calls stay in the worker
        return check_paths(chunk, *args, **kwargs)

    monkeypatch.setattr(parallel, "check_paths", spy)
    options = Options()
    got = list(parallel.parallel_reports(paths, index, options, 2, JsonReporter.render, True))
    want = [JsonReporter.render(validate_path(p, index, options)) for p in paths]
    # this process's own reports come unrendered: the reporter renders them as it writes
    texts = [text if text is not None else JsonReporter.render(report) for report, text in got]
    assert texts == want  # every deck once, in order
    assert [v.legal for v, _ in got] == [bool(i % 3) for i in range(32)]
    chunks = [paths[i:i + 2] for i in range(0, 32, 2)]
    assert all(chunk in chunks for chunk in here)  # whole chunks, each checked once here
    assert len({tuple(c) for c in here}) == len(here)
    if not forked:
        assert here[0] == paths[4:6]
        assert paths[0] not in {p for chunk in here for p in chunk}
    assert 0 < len(here) < len(chunks) or forked  # forked: the worker may start late


def test_jobs_a_worker_that_dies_loses_no_deck(tmp_path, monkeypatch, index):
    """A forked worker that dies in the middle of a chunk sends nothing for it; this process
    checks that chunk itself, and the report is whole and in order. The worker dies on the
    first chunk it takes, and this process checks nothing until it has."""
    import os
    import time

    import deckcli.parallel as parallel
    from deckcli.reporters.json import JsonReporter
    from deckcli.validate import Options, validate_path

    if not parallel._can_fork():
        pytest.skip("workers are forked only on Linux")
    paths = _many_decks(tmp_path)
    died = tmp_path / "died"
    check_paths = parallel.check_paths

    def dies(chunk):  # only a worker calls _check_chunk
        died.write_text("worker gone")
        os._exit(9)

    def waits(chunk, *args, **kwargs):  # this process: not before the worker is gone
        deadline = time.monotonic() + 60
        while not died.exists():
            assert time.monotonic() < deadline, "the worker never took a chunk"
            time.sleep(0.005)
        return check_paths(chunk, *args, **kwargs)

    monkeypatch.setattr(parallel, "_check_chunk", dies)
    monkeypatch.setattr(parallel, "check_paths", waits)
    options = Options()
    got = list(parallel.parallel_reports(paths, index, options, 2, JsonReporter.render, True))
    texts = [text if text is not None else JsonReporter.render(report) for report, text in got]
    assert died.exists()
    assert texts == [JsonReporter.render(validate_path(p, index, options)) for p in paths]


def test_jobs_when_no_process_can_be_forked_this_one_checks_every_deck(tmp_path, monkeypatch,
                                                                      index):
    import os

    import deckcli.parallel as parallel
    from deckcli.reporters.json import JsonReporter
    from deckcli.validate import Options, validate_path

    if not parallel._can_fork():
        pytest.skip("workers are forked only on Linux")

    def refused():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    paths = _many_decks(tmp_path)
    options = Options()
    got = list(parallel.parallel_reports(paths, index, options, 3, JsonReporter.render, True))
    assert [JsonReporter.render(r) if t is None else t for r, t in got] == [
        JsonReporter.render(validate_path(p, index, options)) for p in paths]


def test_jobs_0_on_one_cpu_checks_here_in_order(tmp_path, monkeypatch, index):
    import deckcli.batch as batch
    from deckcli.validate import Options

    paths = _many_decks(tmp_path, 5)
    monkeypatch.setattr(batch.os, "cpu_count", lambda: 1)
    processes = batch.process_count(0, len(paths))
    got = list(batch._reports(paths, index, Options(), processes, None, None))
    assert [report.path for report, _ in got] == paths
    assert [report.legal for report, _ in got] == [False, True, True, False, True]


@pytest.mark.parametrize("where", [0, 9, 31])
def test_jobs_read_standard_input_in_this_process(tmp_path, monkeypatch, where):
    # '-' in a chunk a worker would have taken: a worker's standard input is empty, so the
    # chunk is checked here and the deck piped in is the deck reported
    names = [os.path.basename(p) for p in _many_decks(tmp_path)]
    names[where] = "-"
    monkeypatch.chdir(tmp_path)
    piped = (EXAMPLES / "good" / "alpha-walrus-4p.txt").read_text()
    one = run("validate", *names, "-O", "json", input=piped)
    two = run("validate", *names, "-O", "json", "--jobs", "2", input=piped)
    assert one.code == two.code == 1
    assert one.out == two.out
    stdin_deck = two.json()["decks"][where]
    assert stdin_deck["path"] == "<stdin>" and stdin_deck["game"] == "alpha-walrus"
    assert stdin_deck["legal"] and stdin_deck["card_count"] == 80


@pytest.mark.parametrize("where", [0, 4, 31])  # a worker's chunk, this process's, the last
def test_jobs_report_what_cannot_be_read_where_jobs_1_does(tmp_path, monkeypatch, where):
    # a path named that cannot be read (here a FIFO) stops the command before any deck is
    # checked; the same file found by a folder walk is a report of its own at its turn
    # (DL-1.4), the same whichever process met it
    paths = _many_decks(tmp_path)
    os.unlink(paths[where])
    os.mkfifo(paths[where])
    monkeypatch.chdir(tmp_path)
    names = [os.path.basename(p) for p in paths]
    one = run("validate", *names, "-O", "github")
    two = run("validate", *names, "-O", "github", "--jobs", "2")
    assert one.code == two.code == 2
    assert "not a regular file" in two.err and one.err == two.err
    assert one.out == two.out == ""
    one = run("validate", ".", "-O", "github")
    two = run("validate", ".", "-O", "github", "--jobs", "2")
    assert one.code == two.code == 1
    assert one.out == two.out
    fifo = os.path.join(".", names[where])
    assert f"::error file={fifo},title=unreadable (DL-1.4)::cannot be read: not a regular " \
           "file" in two.out, two


class Spy:
    def __init__(self):
        self.writes, self.flushes = [], 0

    def write(self, text):
        self.writes.append(text)

    def flush(self):
        self.flushes += 1


def test_batched_output_gathers_writes_and_loses_nothing(monkeypatch):
    from deckcli import batch

    spy = Spy()
    out = batch.Batched(spy)
    monkeypatch.setattr(batch, "monotonic", lambda: out.last)  # the clock stands still
    for i in range(1000):
        out.write(f"deck {i}\n")
    assert spy.writes == []  # under 64 KiB and no time passed: nothing written yet
    out.flush()
    assert spy.writes == ["".join(f"deck {i}\n" for i in range(1000))]
    out.write("x" * batch.Batched.SIZE)  # a full buffer goes out at once
    assert spy.writes[-1] == "x" * batch.Batched.SIZE
    # and so does anything written more than a fifth of a second later (not exactly 0.2 s
    # later: (t + 0.2) - t is below 0.2 in floating point for some clock values t)
    monkeypatch.setattr(batch, "monotonic", lambda: out.last + 1.5 * batch.Batched.SECONDS)
    out.write("late\n")
    assert spy.writes[-1] == "late\n"


def test_an_unbuffered_stdout_gets_few_writes(monkeypatch):
    # PYTHONUNBUFFERED=1 (CI containers) made every deck's line a system call of its own
    import sys

    from deckcli import batch
    from deckcli.cards import open_index
    from deckcli.validate import Options, collect_paths

    spy = Spy()
    monkeypatch.setattr(sys, "stdout", spy)
    monkeypatch.setattr(batch, "monotonic", lambda: 0.0)  # a run quicker than a flush
    paths = collect_paths([str(EXAMPLES / "good"), str(EXAMPLES / "bad")])
    batch.run_validation(paths, open_index(), Options(), output="json")
    assert len(spy.writes) == 1 and len(paths) > 5
    assert json.loads(spy.writes[0])["summary"]["decks"] == len(paths)


# -- the json reporter's encoder -------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@given(JSON_VALUES)
@settings(max_examples=200, deadline=None)
def test_the_one_deck_encoder_writes_what_json_dumps_writes(value):
    from deckcli.reporters.json import to_json_text

    assert to_json_text(value) == json.dumps(value, ensure_ascii=False)


def test_the_one_deck_encoder_refuses_what_json_cannot_hold():
    from deckcli.reporters.json import to_json_text

    with pytest.raises(TypeError):
        to_json_text({"a": object()})
    assert to_json_text([math.inf]) == "[Infinity]"  # as json.dumps writes it


def _walked_as_before(folder):
    """The folder walk as it was written with os.walk: the reference for collect_paths."""
    from deckcli.decks.kinds import deck_file_name

    found = []
    for root, dirs, files in os.walk(folder, onerror=None, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if deck_file_name(name):
                found.append(os.path.join(root, name))
    return found


def test_the_folder_walk_finds_what_os_walk_finds(tmp_path):
    top = tmp_path / "event"
    for rel in ["b.txt", "a.TXT", "Z.deck", "c.yaml", "d.yml", "e.json", "notes.md", ".hidden.txt",
                "event.yaml", "EVENT.YML", "round 1/x.txt", "round 1/sub/y.txt", "round 2/w.txt",
                ".git/z.txt", "Round 3/v.txt", "empty/readme"]:
        path = top / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("4 Walrus\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.txt").write_text("4 Walrus\n", encoding="utf-8")
    (top / "linked").symlink_to(outside, target_is_directory=True)  # never entered
    (top / "link.txt").symlink_to(top / "b.txt")  # a file link is a file
    (top / "dangling.txt").symlink_to(tmp_path / "nowhere.txt")  # listed, reported when read
    from deckcli.validate import collect_paths

    for as_given in (str(top), str(top) + "/"):
        assert collect_paths([as_given]) == _walked_as_before(as_given)
    assert not any("outside" in p or "/.git/" in p for p in collect_paths([str(top)]))


# -- the json reporter writes a deck's object from its fields -------------------------------------
def _deck_text_cases(index):
    from deckcli.diagnostics import error, warning
    from deckcli.validate import DeckReport, Options, collect_paths, validate_path

    for path in collect_paths([str(EXAMPLES / "good"), str(EXAMPLES / "bad"),
                               str(EXAMPLES / "other-tools")]):
        for options in (Options(), Options(game="alpha-walrus"), Options(players=3)):
            yield validate_path(path, index, options)
    odd = "na\u202eme\tx \udcff\x1b[31m"  # what visible_name escapes, and lone surrogates
    yield DeckReport(odd, "animal-battle", None, 0, [], name=odd, player="Zoë \"Z\" \\")
    yield DeckReport(None, "alpha-walrus", None, 3, [
        error("x", "DL-1.1", "a\nb \"q\" é", line=3, card="Orca (ABS) 1"),
        warning("y", "DL-2.4", "w", line=None)], fingerprint="abcd-ef01-2345",
        extra={"players": 4, "setup": {"a": [1, 2.5, None, True]}})
    yield DeckReport("d.txt", "animal-battle", "casual", True, [], extra={"path": "again"})
    yield DeckReport("d.txt", "animal-battle", "casual", 2**70, [error("z", "R", "m", line=True)],
                     extra={1: "key not a string", "inf": math.inf})


def test_the_json_reporter_writes_each_deck_as_json_dumps_writes_its_object(index):
    from deckcli.reporters.json import JsonReporter

    cases = list(_deck_text_cases(index))
    assert len(cases) > 20
    for report in cases:
        assert JsonReporter.render(report) == "\n  " + json.dumps(report.to_json(),
                                                                  ensure_ascii=False)
