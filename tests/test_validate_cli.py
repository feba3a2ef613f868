"""`deckcli validate` from the command line: examples, JSON shape, exit codes."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run

# examples/bad: every deck is illegal, with exactly these problem codes and rules
BAD = {
    "too-many-copies.txt": [("copy-limit", "AB-1.5", 3)],
    "championship-59.txt": [("deck-size", "AB-1.4", None)],
    "casual-19.txt": [("deck-size", "AB-1.3", None)],
    "no-animals.txt": [("no-animal", "AB-3.3", None)],
    "unknown-card.txt": [("unknown-card", "DL-3.3", 2)],
    "ambiguous-name.txt": [("ambiguous-card", "DL-3.4", 2)],
    "malformed-lines.txt": [("bad-count", "DL-2.2", 3), ("bad-count", "DL-2.2", 4),
                            ("no-name", "DL-2.1", 5), ("no-quantity", "DL-2.5", 2)],
    "wrong-variant.yaml": [("variant-not-printed", "DL-4.2", 4)],
    "name-mismatch.json": [("name-mismatch", "DL-3.5", 4)],
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_examples(name):
    r = run("validate", EXAMPLES / "bad" / name, "--output", "json")
    assert r.code == 1, r
    deck = r.json()["decks"][0]
    assert deck["legal"] is False
    errors = sorted((p["code"], p["rule"], p["line"]) for p in deck["problems"]
                    if p["severity"] == "error")
    assert errors == sorted(BAD[name], key=lambda t: (t[0], t[1], t[2] or 0))


def test_every_bad_example_is_in_the_table():
    on_disk = {p.name for p in (EXAMPLES / "bad").iterdir()
               if p.suffix in (".txt", ".yaml", ".json") and not p.name.startswith("alpha-walrus")}
    assert on_disk == set(BAD)


@pytest.mark.parametrize("path", sorted(p.name for p in (EXAMPLES / "good").iterdir()))
def test_good_examples_are_legal(path):
    r = run("validate", EXAMPLES / "good" / path)
    assert r.code == 0, r
    assert "ILLEGAL" not in r.out


def test_json_report_shape():
    r = run("validate", EXAMPLES / "bad" / "too-many-copies.txt",
            EXAMPLES / "good" / "championship-deep-divers.txt", "--output", "json")
    assert r.code == 1, r
    data = r.json()
    assert data["version"] == 1
    assert data["summary"] == {"decks": 2, "legal": 1, "illegal": 1}
    bad, good = data["decks"]
    for deck in data["decks"]:
        assert {"path", "game", "format", "legal", "card_count", "problems"} <= set(deck)
        for p in deck["problems"]:
            assert set(p) == {"code", "severity", "rule", "message", "line", "card"}
    assert bad["path"].endswith("too-many-copies.txt")
    assert (bad["game"], bad["format"], bad["card_count"]) == ("animal-battle", "casual", 21)
    assert bad["problems"][0]["card"] == "Walrus (ABS) 12"
    assert good["legal"] is True and good["format"] == "championship" and good["card_count"] == 60


def test_every_cited_rule_exists():
    from deckcli.rulebook import find_rule

    r = run("validate", EXAMPLES / "bad", "--output", "json")
    rules = {p["rule"] for d in r.json()["decks"] for p in d["problems"]}
    assert rules and all(find_rule(rule) for rule in rules)
    for rule in rules:
        assert run("rules", rule).code == 0


def test_text_output_is_a_table_then_problems():
    r = run("validate", EXAMPLES / "bad" / "casual-19.txt")
    assert r.code == 1
    header = r.out.splitlines()[0].split()
    assert header[:6] == ["deck", "player", "game", "format", "cards", "verdict"]
    assert "casual-19.txt: error: casual decks hold at least 20 cards; this deck has 19 " \
           "[deck-size, rule AB-1.3]" in r.out
    assert r.out.rstrip().endswith("1 deck(s): 0 legal, 1 illegal")


def test_format_flag_overrides_header():
    path = EXAMPLES / "bad" / "championship-59.txt"
    assert run("validate", path).code == 1
    assert run("validate", path, "--format", "casual").code == 0


@pytest.mark.parametrize("args,message", [
    (["validate", "no/such/deck.txt"], "no such file"),
    (["validate"], "give at least one deck"),
    (["validate", "x.txt", "--format", "huge"], "Invalid value"),
    (["validate", "x.txt", "--game", "chess"], "Invalid value"),
])
def test_usage_errors_exit_2(args, message):
    r = run(*args)
    assert r.code == 2, r
    assert message in r.err
    assert "Traceback" not in r.err


def test_directory_without_decks_exits_2(tmp_path):
    (tmp_path / "notes.md").write_text("hello")
    r = run("validate", tmp_path)
    assert r.code == 2, r
    assert "no deck files" in r.err


def test_directory_is_walked_in_sorted_order(tmp_path):
    for name in ("b.txt", "a.yaml", "sub/c.json", "skip.md"):
        p = tmp_path / name
        p.parent.mkdir(exist_ok=True)
        p.write_text('{"cards": [{"count": 20, "name": "Herd Instinct"}]}' if name.endswith(".json")
                     else ("cards:\n  - {count: 4, name: Walrus}\n" if name.endswith(".yaml")
                           else "4 Walrus\n"))
    r = run("validate", tmp_path, "-O", "json")
    paths = [d["path"] for d in r.json()["decks"]]
    assert [p.rsplit("/", 2)[-1] if "sub" not in p else "sub/c.json" for p in paths] == \
        ["a.yaml", "b.txt", "sub/c.json"]


def test_unknown_game_in_header_is_a_deck_problem(deck_file):
    r = run("validate", deck_file("game: chess\n4 Walrus\n"), "-O", "json")
    assert r.code == 1
    [p] = r.json()["decks"][0]["problems"]
    assert (p["code"], p["rule"], p["line"]) == ("unknown-game", "DL-5.2", 1)


@pytest.mark.parametrize("flags,fmt", [([], "casual"), (["--format", "championship"],
                                                       "championship")])
def test_a_deck_naming_an_unknown_game_reports_the_default_games_format(deck_file, flags, fmt):
    """Reported under animal-battle (the default), so with the format that game takes (a
    null format is alpha-walrus's alone)."""
    r = run("validate", deck_file("game: chess\n4 Walrus\n"), *flags, "-O", "json")
    deck = r.json()["decks"][0]
    assert (deck["game"], deck["format"], deck["legal"]) == ("animal-battle", fmt, False)


@pytest.mark.parametrize("command", ["validate", "fmt"])
def test_dash_given_twice_is_a_usage_error(command):
    """Standard input is read once: a second '-' was reported as a second, empty deck."""
    r = run(command, "-", "-", input="4 Walrus\n")
    assert r.code == 2 and "'-' (standard input) is given more than once" in r.err, r


def test_stdin_is_read_with_dash():
    r = run("validate", "-", "-O", "json", input="4 Walrus\n4 Orca\n4 Vaquita\n4 Narwhal\n4 Koala\n")
    assert r.code == 0, r
    assert r.json()["decks"][0]["path"] == "<stdin>"


YAML_DECK = ("# my deck\ngame: animal-battle\nname: Pod\ncards:\n  - {count: 4, name: Walrus}\n"
             "  - {count: 4, name: Orca}\n  - {count: 4, name: Vaquita}\n"
             "  - {count: 4, name: Narwhal}\n  - {count: 4, name: Koala}\n")


@pytest.mark.parametrize("text", [YAML_DECK, YAML_DECK.replace("\n", "\r\n"),
                                  YAML_DECK.replace("game: animal-battle\nname: Pod\n", "")])
def test_a_yaml_deck_piped_in_is_read_as_yaml(text):
    """The contract's own YAML example starts with header keys, as a text deck may: its
    'cards:' key, which no text decklist has, says it is YAML."""
    r = run("validate", "-", "-O", "json", input=text)
    assert r.code == 0, r
    deck = r.json()["decks"][0]
    assert deck["card_count"] == 20 and deck["problems"] == []
    r = run("fmt", "-", input=text)
    assert r.code == 0 and "  - {count: 4, name: Koala, set: DWV" in r.out, r


def test_fingerprint_ignores_printing_and_order(deck_file):
    a = deck_file("4 Walrus\n4 Orca\n4 Vaquita\n4 Narwhal\n4 Koala\n", "a.txt")
    b = deck_file("4 Koala\n2 Walrus (ABS) 12 [foil]\n1 Walrus (PRM) P3\n1 Walrus (CLS) C012\n"
                  "4 Orca\n4 Vaquita\n4 Narwhal\n", "b.txt")
    c = deck_file("4 Walrus\n4 Orca\n4 Vaquita\n4 Narwhal\n3 Koala\n1 Cheetah\n", "c.txt")
    prints = [d["fingerprint"] for d in run("validate", a, b, c, "-O", "json").json()["decks"]]
    assert prints[0] == prints[1] != prints[2]


@pytest.mark.parametrize("output", ["json", "junit", "sarif", "github"])
@pytest.mark.parametrize("how", ["named", "walked", "roster", "unlisted", "event"])
def test_the_report_file_never_replaces_a_deck_or_event_it_reads(tmp_path, output, how):
    """`validate ... -o FILE` where FILE is a deck being checked (named, or found in a folder
    walk, in the event's roster or beside its decks) or the event file: the report would
    replace the deck it reports on. Refused (exit 2), and every file is left as it was."""
    decks = tmp_path / "decks"
    decks.mkdir()
    deck = decks / "alice.txt"
    deck.write_bytes((EXAMPLES / "event" / "decks" / "alice.txt").read_bytes())
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nplayers: {alice: decks/alice.txt}\n", encoding="utf-8")
    unlisted = decks / "erin.txt"  # beside the roster's decks: checked, with a warning
    unlisted.write_bytes(deck.read_bytes())
    args = {"named": [deck], "walked": [decks], "roster": ["--event", event],
            "unlisted": ["--event", event], "event": ["--event", event]}[how]
    target = {"event": event, "unlisted": unlisted}.get(how, deck)
    before = {p: p.read_bytes() for p in (deck, unlisted, event)}
    r = run("validate", *args, "--output", output, "-o", target)
    assert r.code == 2 and "Traceback" not in r.err, r
    assert "not replacing it" in r.err, r
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize("name", ["report.json", "report.txt"])
def test_a_report_redirected_into_the_folder_walked_is_not_read_as_a_deck(tmp_path, name):
    """`validate decks --output json > decks/report.json`: the shell makes the file (empty)
    before deckcli walks the folder. It is the run's own output, skipped with a note, not an
    empty deck that fails the run; the report in it is whole."""
    import json
    import shutil
    import subprocess
    import sys

    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(EXAMPLES / "good" / "championship-deep-divers.txt", decks / "deep.txt")
    report = decks / name
    with open(report, "w") as out:
        proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(decks),
                               "--output", "json"], stdout=out, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"{report} is this command's output" in proc.stderr
    doc = json.loads(report.read_text())
    assert [d["path"] for d in doc["decks"]] == [str(decks / "deep.txt")]
    # the next run, written elsewhere, reads the file again as what it holds
    with open(tmp_path / "elsewhere.json", "w") as out:
        proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(decks)],
                              stdout=out, stderr=subprocess.PIPE, text=True, timeout=60)
    assert "this command's output" not in proc.stderr


def test_a_report_redirected_beside_a_rosters_decks_is_no_unlisted_deck(tmp_path):
    """`validate --event ev.yaml -O json > decks/report.json`: the empty file the shell made
    beside the roster's decks is the run's output, not a deck nobody is listed for."""
    import json
    import shutil
    import subprocess
    import sys

    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(EXAMPLES / "good" / "championship-deep-divers.txt", decks / "alice.txt")
    event = tmp_path / "ev.yaml"
    event.write_text("name: Cup\ngame: animal-battle\nformat: championship\n"
                     "players: {alice: decks/alice.txt}\n", encoding="utf-8")
    report = decks / "report.json"
    with open(report, "w") as out:
        proc = subprocess.run([sys.executable, "-m", "deckcli", "validate", "--event",
                               str(event), "--output", "json"], stdout=out,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 0, (proc.stderr, report.read_text())
    assert [d["path"] for d in json.loads(report.read_text())["decks"]] == [
        str(decks / "alice.txt")]
