"""What a file or an option supplies reaches no output raw (issue 38, 4).

An event file, a game log and a command line come from strangers (a pull request, a log passed
around, a script's variables). A value of theirs holding a line break, a terminal escape or a
bidi override, printed as it stands, starts a line of the attacker's choosing in a CI log
(``::error file=ok.txt,line=1::...`` is a GitHub annotation), retitles or recolours a terminal,
or runs text right to left. Every such value goes through the one escaping function of names
(:func:`deckcli.diagnostics.visible_name`) wherever it reaches output: stdout and stderr, every
format. Each case below puts the same value in one field and runs every command that reads it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, run

#: a line break that starts a forged GitHub annotation, an OSC title, a C1 CSI, a bidi override
PAYLOAD = "x\n::error file=ok.txt,line=1::INJECTED\x1b]0;T\x07\x9b31m\u202e"
#: C0 controls (but tab and LF), DEL, C1 controls, bidi controls, lone surrogates
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                 "\ud800-\udfff]")
FORGED = re.compile(r"(?m)^::error file=ok\.txt")


def clean(r, data: bool = False) -> None:
    """No raw control character, no line the payload starts, no traceback: the payload, if
    shown, is shown escaped. ``data``: stdout is the deck itself in another form (``convert``),
    whose characters are its own; it still starts no line the deck's values do not."""
    shown = r.err if data else r.out + r.err
    assert not RAW.search(shown), (RAW.search(shown), r)
    shown = r.out + r.err
    assert not FORGED.search(shown), r
    assert "Traceback" not in shown and "internal error" not in shown, r


GOOD = EXAMPLES / "good" / "casual-risky.txt"
OTHER = EXAMPLES / "good" / "casual-savanna.yaml"


# -- event files ---------------------------------------------------------------------------------
def _event(folder: Path, **fields) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(GOOD, folder / "alice.txt")
    doc = {"name": "E", "game": "animal-battle", "format": "casual",
           "players": {"alice": "alice.txt"}, **fields}
    path = folder / "event.yaml"
    path.write_text(json.dumps(doc), encoding="utf-8")  # JSON is YAML: "\n", "\u001b" escapes
    return path


EVENT_FIELDS = {
    "house_rules key": {"house_rules": {f"stat_tie{PAYLOAD}": "defender"}},
    "house_rules value": {"house_rules": {"stat_tie": f"defender{PAYLOAD}"}},
    "unknown key": {f"bogus{PAYLOAD}": 1},
    "name": {"name": f"Spring{PAYLOAD}", "banned": ["Walrus"]},
    "banned": {"banned": [f"Walrus{PAYLOAD}"]},
    "limited": {"limited": {f"Orca{PAYLOAD}": 2}},
    "sets": {"sets": ["ABS", f"XYZ{PAYLOAD}"]},
    "date": {"date": f"2026-01-01{PAYLOAD}"},
    "format": {"format": f"casual{PAYLOAD}"},
    "game": {"game": f"animal-battle{PAYLOAD}"},
    "player": {"players": {f"al{PAYLOAD}": "alice.txt"}},
    "deck path": {"players": {"alice": f"alice.txt{PAYLOAD}"}},
}


def _event_commands(event: Path, tmp: Path) -> dict:
    played = tmp / "played"
    played.mkdir(exist_ok=True)
    shutil.copy(GOOD, played / "alice.txt")
    log = EXAMPLES / "games" / "ab-gap-tie.yaml"
    return {
        **{f"validate -O {o}": ("validate", "--event", event, "-O", o)
           for o in ("text", "json", "github", "junit", "sarif")},
        "validate DECK": ("validate", "--event", event, GOOD),
        "report": ("report", event, "-o", "-"),
        "sheet": ("sheet", "--event", event, "-o", "-"),
        **{f"export {to}": ("export", "--event", event, "--to", to)
           for to in ("json", "csv", "html")},
        "diff": ("diff", "--event", event, "--played", played),
        "diff json": ("diff", "--event", event, "--played", played, "-O", "json"),
        "simulate": ("simulate", GOOD, OTHER, "--event", event, "--games", "2", "--jobs", "1"),
        "simulate json": ("simulate", GOOD, OTHER, "--event", event, "--games", "2", "--jobs",
                          "1", "-O", "json"),
        "referee battle": ("referee", "battle", "Orca", "Fin Whale", "--stat", "lifespan",
                           "--event", event),
        "referee check": ("referee", "check", log, "--event", event),
        "fmt --check": ("fmt", "--check", "--event", event, GOOD),
        "build": ("build", "--collection", GOOD, "--event", event, "--games", "4",
                  "--measure", "2", "--jobs", "1", "--seed", "1"),
    }


@pytest.mark.parametrize("field", EVENT_FIELDS)
def test_an_event_files_fields_reach_no_output_raw(field, tmp_path):
    """Issue 38, 4: an event's house_rules keys and values and an unknown top-level key were
    printed raw in the error that stops the command; every other field is checked alike, in
    every command that reads an event file."""
    event = _event(tmp_path / "event", **EVENT_FIELDS[field])
    for what, args in _event_commands(event, tmp_path).items():
        r = run(*args)
        assert r.code in (0, 1, 2), (what, r)
        clean(r)


# -- game logs -----------------------------------------------------------------------------------
AB_LOG = (EXAMPLES / "games" / "ab-gap-tie.yaml").read_text(encoding="utf-8")
AW_LOG = (EXAMPLES / "games" / "aw-opening.yaml").read_text(encoding="utf-8")
AB_STAT = "  - p1 stat lifespan                # 90 against 90: gap AB-G.1\n"
AW_SUMMON = "- {player: alice, do: summon, card: Krill}"


def _ab(action) -> str:
    return AB_LOG.replace(AB_STAT, f"  - {json.dumps(action)}\n")


def _aw(action) -> str:
    return AW_LOG.replace(AW_SUMMON, f"- {json.dumps(action)}", 1)


LOGS = {
    "ab house_rules value": AB_LOG.replace(
        "name: A tie", f"house_rules: {{stat_tie: {json.dumps('challenger' + PAYLOAD)}}}\n"
                       "name: A tie"),
    "ab house_rules key": AB_LOG.replace(
        "name: A tie", f"house_rules: {{{json.dumps('stat_tie' + PAYLOAD)}: replay}}\n"
                       "name: A tie"),
    "ab string verb": _ab(f"p1 st{PAYLOAD}at lifespan"),
    "ab string action ends in it": _ab(f"p1 stat lifespan{PAYLOAD}"),
    "ab string player": _ab(f"p1{PAYLOAD} stat lifespan"),
    "ab mapping action": _ab({"player": "p1", "action": f"stat{PAYLOAD}", "stat": "lifespan"}),
    "ab mapping player": _ab({"player": f"p1{PAYLOAD}", "action": "stat", "stat": "lifespan"}),
    "ab mapping stat": _ab({"player": "p1", "action": "stat", "stat": f"lifespan{PAYLOAD}"}),
    "ab mapping card": _ab({"player": "p1", "action": "place", "card": f"Vaquita{PAYLOAD}"}),
    "ab mapping target": _ab({"player": "p1", "action": "target", "target": f"p2{PAYLOAD}"}),
    "ab illegal action text": _ab({"player": "p2", "action": "stat", "stat": f"weight{PAYLOAD}"}),
    "ab name": AB_LOG.replace("name: A tie on lifespan", f"name: {json.dumps(PAYLOAD)}"),
    "ab first": AB_LOG.replace("first: p1", f"first: {json.dumps(PAYLOAD)}"),
    "ab deck card": AB_LOG.replace("Orca, Walrus,", f"{json.dumps('Orca' + PAYLOAD)}, Walrus,"),
    "aw house_rules value": AW_LOG.replace(
        "seed: 11", f"seed: 11\nhouse_rules: {{battle_level: {json.dumps('x' + PAYLOAD)}}}"),
    "aw house_rules key": AW_LOG.replace(
        "seed: 11", f"seed: 11\nhouse_rules: {{{json.dumps('k' + PAYLOAD)}: x}}"),
    "aw player": _aw({"player": f"alice{PAYLOAD}", "do": "summon", "card": "Krill"}),
    "aw do": _aw({"player": "alice", "do": f"summon{PAYLOAD}", "card": "Krill"}),
    "aw card": _aw({"player": "alice", "do": "summon", "card": f"Krill{PAYLOAD}"}),
    "aw target": _aw({"player": "alice", "do": "summon", "card": "Krill",
                      "target": f"bob{PAYLOAD}"}),
    "aw illegal card": _aw({"player": "alice", "do": "summon", "card": "Orca",
                            f"note{PAYLOAD}": 1}),
    "aw players": AW_LOG.replace("players: [alice, bob]",
                                 f"players: [alice, {json.dumps('bob' + PAYLOAD)}]"),
}


@pytest.mark.parametrize("case", LOGS)
def test_a_game_logs_fields_reach_no_output_raw(case, tmp_path):
    """Issue 38, 4: a log's house_rules values, a mapping action's ``action:`` and
    ``player:``, a string action's verb and the action text quoted in a violation were printed
    raw; every field of a log is checked alike, by check and legal, in text and JSON."""
    log = tmp_path / "log.yaml"
    log.write_text(LOGS[case], encoding="utf-8")
    for verb in ("check", "legal"):
        for output in ("text", "json"):
            r = run("referee", verb, log, "-O", output, *(["--steps"] if verb == "check" and
                                                           output == "text" else []))
            assert r.code in (0, 1, 2), (verb, output, r)
            clean(r)


# -- decklists ----------------------------------------------------------------------------------
DECK_FIELDS = {
    "name": {"name": PAYLOAD},
    "player": {"player": PAYLOAD},
    "game": {"game": PAYLOAD},
    "format": {"format": PAYLOAD},
    "unknown key": {PAYLOAD: 1},
    "card name": {"cards": [{"count": 4, "name": f"Orca{PAYLOAD}"}]},
    "set": {"cards": [{"count": 4, "name": "Orca", "set": PAYLOAD}]},
    "number": {"cards": [{"count": 4, "name": "Orca", "set": "ABS", "number": PAYLOAD}]},
    "variant": {"cards": [{"count": 4, "name": "Orca", "variants": [PAYLOAD]}]},
}


@pytest.mark.parametrize("field", DECK_FIELDS)
def test_a_decklists_fields_reach_no_output_raw(field, tmp_path):
    """A deck's header and entries, in every command that reads a deck (a YAML deck: its
    strings may hold any character)."""
    from deckcli.decks.reader import read_deck

    good = read_deck(str(GOOD))
    cards = [{"count": e.count, "name": e.name} for e in good.entries]
    doc = {"name": "Deck", "cards": cards, **DECK_FIELDS[field]}
    if "cards" in DECK_FIELDS[field]:
        doc["cards"] = cards + DECK_FIELDS[field]["cards"]
    deck = tmp_path / "deck.yaml"
    deck.write_text(json.dumps(doc), encoding="utf-8")
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nplayers: {alice: deck.yaml}\n", encoding="utf-8")
    commands = {
        **{f"validate -O {o}": ("validate", deck, "-O", o)
           for o in ("text", "json", "github", "junit", "sarif")},
        "validate --event": ("validate", "--event", event),
        "stats": ("stats", deck), "stats json": ("stats", deck, "-O", "json"),
        "sheet": ("sheet", deck, "-o", "-"), "report": ("report", event, "-o", "-"),
        "export csv": ("export", "--event", event, "--to", "csv"),
        "export json": ("export", "--event", event, "--to", "json"),
        "fmt --check": ("fmt", "--check", deck), "fmt --diff": ("fmt", "--diff", deck),
        "convert": ("convert", deck, "--to", "text"),
        "convert arena": ("convert", deck, "--to", "arena"),
        "diff": ("diff", deck, GOOD), "diff json": ("diff", deck, GOOD, "-O", "json"),
        "simulate": ("simulate", deck, GOOD, "--games", "2", "--jobs", "1"),
        "simulate json": ("simulate", deck, GOOD, "--games", "2", "--jobs", "1", "-O", "json"),
        "setup": ("setup", deck, "--seed", "1"), "setup json": ("setup", deck, "-O", "json"),
        "build": ("build", "--collection", deck, "--against", GOOD, "--games", "4",
                  "--measure", "2", "--jobs", "1", "--seed", "1"),
        "suggest": ("suggest", deck, "--collection", GOOD, "--against", GOOD, "--games", "4",
                    "--measure", "2", "--jobs", "1", "--seed", "1"),
    }
    for what, args in commands.items():
        r = run(*args)
        assert r.code in (0, 1, 2), (what, r)
        clean(r, data=what.startswith("convert"))


# -- a card database of the user's own --------------------------------------------------------
def test_a_card_databases_text_reaches_no_output_raw(tmp_path):
    """A set file a user adds with --db: a card's text and its set's name (its names are refused
    by db check) are shown escaped by cards show, list and search, in text and JSON."""
    db = tmp_path / "db"
    db.mkdir()
    (db / "TST.yaml").write_text(
        f"game: animal-battle\nset: {{code: TST, name: {json.dumps('Test' + PAYLOAD)}}}\n"
        f"cards:\n  - {{number: '1', name: Zorilla, kind: action, refers_to: [AB-1.5], "
        f"text: {json.dumps('Draw' + PAYLOAD)}}}\n", encoding="utf-8")
    assert run("db", "check", "--db", db).code == 0
    for args in (("cards", "show", "Zorilla"), ("cards", "show", "Zorilla", "-O", "json"),
                 ("cards", "list", "--set", "TST"), ("cards", "list", "--set", "TST", "-O", "json"),
                 ("cards", "search", "Zorilla"), ("cards", "search", "Zorilla", "-O", "json"),
                 ("rules", "AB-1.5")):
        r = run("--db", db, *args)
        assert r.code == 0, (args, r)
        clean(r)


# -- options -------------------------------------------------------------------------------------
AB_GAP = EXAMPLES / "games" / "ab-gap-tie.yaml"
AW_GAME = EXAMPLES / "games" / "aw-opening.yaml"
OPTIONS = {
    "house-rule value": ("referee", "battle", "Orca", "Fin Whale", "--stat", "lifespan",
                         "--house-rule", f"stat_tie=defender{PAYLOAD}"),
    "house-rule key": ("referee", "battle", "Orca", "Fin Whale", "--stat", "lifespan",
                       "--house-rule", f"stat_tie{PAYLOAD}=defender"),
    "house-rule without =": ("referee", "battle", "Orca", "Fin Whale", "--stat", "lifespan",
                             "--house-rule", f"stat_tie{PAYLOAD}"),
    "house-rule attack": ("referee", "attack", "--challenger", "Orca", "--defender",
                          "Fin Whale", "--stats", "lifespan", "--house-rule",
                          f"stat_tie={PAYLOAD}"),
    "house-rule check": ("referee", "check", AB_GAP, "--house-rule", f"stat_tie={PAYLOAD}"),
    "house-rule legal": ("referee", "legal", AB_GAP, "--house-rule", f"stat_tie={PAYLOAD}"),
    "house-rule aw": ("referee", "check", AW_GAME, "--house-rule", f"battle_level={PAYLOAD}"),
    "house-rule simulate": ("simulate", GOOD, OTHER, "--games", "2", "--jobs", "1",
                            "--house-rule", f"stat_tie={PAYLOAD}"),
    "house-rule simulate json": ("simulate", GOOD, OTHER, "--games", "2", "--jobs", "1",
                                 "-O", "json", "--house-rule", f"stat_tie={PAYLOAD}"),
    "stat": ("referee", "battle", "Orca", "Fin Whale", "--stat", PAYLOAD),
    "stats": ("referee", "attack", "--challenger", "Orca", "--defender", "Fin Whale",
              "--stats", f"weight,{PAYLOAD}"),
    "card": ("referee", "battle", f"Orca{PAYLOAD}", "Fin Whale", "--stat", "weight"),
    "cards show": ("cards", "show", PAYLOAD),
    "cards search": ("cards", "search", f"name:{PAYLOAD}"),
    "rules": ("rules", PAYLOAD),
    "policy": ("simulate", GOOD, OTHER, "--games", "2", "--policy", PAYLOAD),
    "scheduler": ("simulate", GOOD, OTHER, "--games", "2", "--scheduler", PAYLOAD),
    "as-of": ("validate", "--event", EXAMPLES / "event" / "event.yaml", "--as-of", PAYLOAD),
    "game": ("validate", GOOD, "--game", PAYLOAD),
    "format": ("validate", GOOD, "--format", PAYLOAD),
    "jobs": ("validate", GOOD, "--jobs", PAYLOAD),
    "players": ("validate", GOOD, "--players", PAYLOAD),
    "path": ("validate", f"{GOOD}{PAYLOAD}"),
    "event path": ("validate", "--event", f"e{PAYLOAD}.yaml"),
    "db": ("--db", f"db{PAYLOAD}", "validate", GOOD),
    "add": ("add", GOOD, f"Orca{PAYLOAD}"),
    "convert to": ("convert", GOOD, "--to", PAYLOAD),
    "setup seed": ("setup", GOOD, "--seed", PAYLOAD),
    "suggest": ("suggest", GOOD, "--collection", GOOD, "--games", f"4{PAYLOAD}"),
    "no such option": ("validate", f"--{PAYLOAD}"),
    "extra argument": ("cards", "show", "Orca", PAYLOAD),
    "gamelog path": ("referee", "check", PAYLOAD),
}


@pytest.mark.parametrize("case", OPTIONS)
def test_an_options_value_reaches_no_output_raw(case):
    """Issue 38, 4: ``--house-rule`` values were printed raw in the error refusing them; every
    option's value that a message quotes is escaped alike."""
    r = run(*OPTIONS[case])
    assert r.code in (0, 1, 2), r  # 'rules WORDS' matching nothing says so and exits 0
    clean(r)
