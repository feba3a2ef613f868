"""alpha-walrus setup checks through the CLI: `deckcli validate --game alpha-walrus --players N`."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run

GEAR = ["Alpha Walrus Tusks (AWC) 42", "Alpha Walrus Crown (AWC) 43",
        "Alpha Walrus Cloak (AWC) 44", "Alpha Walrus Horn (AWC) 45"]


def deck_text(*, alpha=1, gear=tuple(GEAR), gear_copies=1, diplomacy=2, creatures=10, others=2):
    """A shared deck: by default the smallest one for 2 players that draws through both
    opening rounds (19 cards; with fewer left to draw it is legal but warned, AW-3.2).

    Dealt: 2 diplomacy + 2 x (3 creatures + 3 non-creatures) = 14; left to draw: 4 = 2 x 2.
    """
    lines = ["game: alpha-walrus", ""]
    if alpha:
        lines.append(f"{alpha} Alpha Walrus (AWC) 41")
    lines += [f"{gear_copies} {g}" for g in gear]
    if diplomacy:
        lines.append(f"{diplomacy} Peace Treaty (AWC) 46")
    if creatures:
        lines.append(f"{creatures} Krill (AWC) 1")
    if others:
        lines.append(f"{others} Blubber Vest (AWC) 55")
    return "\n".join(lines) + "\n"


def validate(path, *extra):
    res = run("validate", "--game", "alpha-walrus", *extra, path, "--output", "json")
    assert res.code in (0, 1), res
    return res, res.json()["decks"][0]


# rule, what, deck arguments, players, expected code (None: legal), message fragment
ROWS = [
    ("AW-1.1", "no Alpha Walrus", dict(alpha=0), 2, "no-alpha-walrus", "no Alpha Walrus"),
    ("AW-1.1", "two Alpha Walrus cards", dict(alpha=2), 2, "alpha-walrus-count",
     "2 Alpha Walrus cards, exactly 1"),
    ("AW-8.1", "a gear piece missing", dict(gear=tuple(GEAR[:3]), others=3), 2,
     "gear-missing", "3 of the 4"),
    ("AW-8.1", "a gear piece twice", dict(gear_copies=2), 2, "gear-copies", "2 copies"),
    ("AW-1.2", "fewer diplomacy cards than players", dict(diplomacy=1), 2, "diplomacy-count",
     "1 diplomacy card(s) for 2 players"),
    ("AW-1.2", "four players need four diplomacy cards", dict(diplomacy=3, creatures=40,
                                                              others=20), 4,
     "diplomacy-count", "at least 4"),
    ("AW-1.3", "fewer than 3N creatures", dict(creatures=5), 2, "creature-count",
     "5 creature(s) for 2 players"),
    ("AW-1.3", "fewer than 3N non-creatures (gear counts)", dict(others=1), 2,
     "non-creature-count", "5 non-creature card(s)"),
]

# the seed sets no minimum draw pile: too few cards to draw through the opening rounds is a
# warning that names the gap (AW-G.6), and the deck stays legal
DRAW_PILE_ROWS = [
    ("too few cards left for two rounds of draws", dict(creatures=9), 2,
     "3 card(s) are left to draw"),
    ("four players need 8 cards left", dict(diplomacy=4, creatures=12, others=10), 4,
     "need 8, so the deck runs out before the first battle"),
]


@pytest.mark.parametrize("what,kw,players,fragment", DRAW_PILE_ROWS,
                         ids=[r[0] for r in DRAW_PILE_ROWS])
def test_a_short_draw_pile_is_a_warning_naming_the_gap(deck_file, what, kw, players, fragment):
    path = deck_file(deck_text(**kw))
    res, deck = validate(path, "--players", str(players))
    assert res.code == 0 and deck["legal"], res
    [hit] = [p for p in deck["problems"] if p["code"] == "draw-pile"]
    assert hit["severity"] == "warning" and hit["rule"] == "AW-3.2"
    assert fragment in hit["message"] and "gap AW-G.6" in hit["message"]
    r = run("setup", path, "--players", str(players), "--seed", "1")
    assert r.code == 0, r  # the seed's setup can be carried out: it is dealt


@pytest.mark.parametrize("rule,what,kw,players,code,fragment", ROWS,
                         ids=[f"{r[0]}:{r[1]}" for r in ROWS])
def test_setup_check_rows(deck_file, rule, what, kw, players, code, fragment):
    path = deck_file(deck_text(**kw))
    res, deck = validate(path, "--players", str(players))
    assert res.code == 1, res
    hits = [p for p in deck["problems"] if p["code"] == code]
    assert hits, res
    assert hits[0]["rule"] == rule and fragment in hits[0]["message"], hits
    assert hits[0]["severity"] == "error"


def test_smallest_legal_deck_and_its_boundaries(deck_file):
    res, deck = validate(deck_file(deck_text()))
    assert res.code == 0 and deck["legal"], res
    assert deck["setup"]["draw_pile"] == 4 and deck["setup"]["non_creatures"] == 6


def test_lines_and_cards_name_the_culprits(deck_file):
    res, deck = validate(deck_file(deck_text(alpha=2, gear_copies=2)))
    by_code = {p["code"]: p for p in deck["problems"]}
    assert by_code["alpha-walrus-count"]["line"] == 3
    assert by_code["alpha-walrus-count"]["card"] == "Alpha Walrus (AWC) 41"
    assert by_code["gear-copies"]["card"] in GEAR and by_code["gear-copies"]["line"]


def test_animal_battle_rules_do_not_apply(deck_file):
    """19 cards (under animal-battle's 20) and 10 copies of Krill (over its 4): still legal."""
    res, deck = validate(deck_file(deck_text()))
    assert res.code == 0, res
    assert not any(p["rule"].startswith("AB-") for p in deck["problems"])
    assert deck["card_count"] == 19


def test_json_report_format_null_and_players():
    path = EXAMPLES / "good" / "alpha-walrus-4p.txt"
    res, deck = validate(path, "--players", "4")
    assert res.code == 0, res
    assert deck["format"] is None and deck["game"] == "alpha-walrus"
    assert deck["players"] == 4 and deck["players_default"] is False
    res, deck = validate(EXAMPLES / "good" / "alpha-walrus-2p.yaml")  # it says no table size
    assert deck["players"] == 2 and deck["players_default"] is True


def test_text_report_says_the_default():
    res = run("validate", "--game", "alpha-walrus", EXAMPLES / "good" / "alpha-walrus-2p.yaml")
    assert res.code == 0, res
    assert "2 players (default)" in res.out
    res = run("validate", "--game", "alpha-walrus", "--players", "3",
              EXAMPLES / "good" / "alpha-walrus-2p.yaml")
    assert "3 players" in res.out and "(default)" not in res.out


@pytest.mark.parametrize("name", ["alpha-walrus-2p.yaml", "alpha-walrus-4p.txt"])
def test_good_examples_are_legal(name):
    res = run("validate", EXAMPLES / "good" / name, "--output", "json")
    assert res.code == 0, res
    assert res.json()["decks"][0]["game"] == "alpha-walrus"


def test_four_player_example_is_legal_for_four_and_two_player_one_is_not():
    res, _ = validate(EXAMPLES / "good" / "alpha-walrus-4p.txt", "--players", "4")
    assert res.code == 0, res
    res, deck = validate(EXAMPLES / "good" / "alpha-walrus-2p.yaml", "--players", "4")
    assert res.code == 1 and [p["code"] for p in deck["problems"]] == ["diplomacy-count"], res


@pytest.mark.parametrize("name,codes", [
    ("alpha-walrus-two-alphas.txt", {"alpha-walrus-count", "gear-copies"}),
    ("alpha-walrus-missing-gear.txt", {"gear-missing"}),
])
def test_bad_examples_are_illegal(name, codes):
    res = run("validate", EXAMPLES / "bad" / name, "--output", "json")
    assert res.code == 1, res
    assert codes <= {p["code"] for p in res.json()["decks"][0]["problems"]}


def test_missing_gear_example_for_four_players_also_lacks_diplomacy():
    res, deck = validate(EXAMPLES / "bad" / "alpha-walrus-missing-gear.txt", "--players", "4")
    assert {"gear-missing", "diplomacy-count"} <= {p["code"] for p in deck["problems"]}


@pytest.mark.parametrize("where,said,line", [
    ("header", "'format: championship' is ignored", 1),
    ("flag", "--format championship is ignored", None),
    ("event", "the event's 'format: championship' is ignored", None),
])
def test_a_format_for_alpha_walrus_is_a_warning_and_ignored(deck_file, tmp_path, where, said,
                                                            line):
    """alpha-walrus has no formats (docs/commands.md): a format asked for anywhere is ignored, the
    report's format stays null, and the warning says where it came from."""
    text = deck_text()
    args = ["--game", "alpha-walrus"]
    if where == "header":
        text = "format: championship\n" + text
    elif where == "flag":
        args += ["--format", "championship"]
    else:
        event = tmp_path / "ev.yaml"
        event.write_text("name: E\nformat: championship\n", encoding="utf-8")
        args += ["--event", str(event)]
    res, deck = validate(deck_file(text), *args)
    assert res.code == 0 and deck["format"] is None, res
    [hit] = [p for p in deck["problems"] if p["code"] == "no-formats"]
    assert hit["severity"] == "warning" and hit["rule"] == "DL-5.3" and hit["line"] == line
    assert hit["message"] == f"alpha-walrus has no formats; {said}"


# -- the table size in the deck's header (players:) --------------------------------------------
def _with_players(text: str, value: str, fmt: str) -> str:
    """The deck of deck_text() with a players header, as a text, YAML or JSON decklist."""
    lines = [line for line in text.splitlines() if line and not line.startswith("game:")]
    if fmt == "text":
        return f"game: alpha-walrus\nplayers: {value}\n\n" + "\n".join(lines) + "\n"
    import json
    import re

    items = [dict(zip(("count", "name", "set", "number"), m.groups()))
             for m in (re.fullmatch(r"(\d+) (.+) \((\w+)\) (\w+)", line) for line in lines)]
    for item in items:
        item["count"] = int(item["count"])
    if fmt == "yaml":
        return (f"game: alpha-walrus\nplayers: {value}\ncards:\n"
                + "".join(f"  - {json.dumps(item)}\n" for item in items))
    return json.dumps({"game": "alpha-walrus", "players": json.loads(value), "cards": items})


@pytest.mark.parametrize("fmt", ["text", "yaml", "json"])
def test_a_players_header_sets_the_table_when_players_is_not_given(deck_file, fmt):
    """An alpha-walrus deck could not say its table size: 'players: 3' was an error (text) or
    an unknown key (YAML, JSON), and the deck was checked for 2 players. The header applies
    when --players is not given; --players wins."""
    suffix = {"text": "txt"}.get(fmt, fmt)
    path = deck_file(_with_players(deck_text(), "3", fmt), f"shared.{suffix}")
    res = run("validate", path, "--output", "json")
    assert res.code == 1, res
    deck = res.json()["decks"][0]
    assert deck["players"] == 3 and deck["players_default"] is False, deck
    errors = [p for p in deck["problems"] if p["severity"] == "error"]
    assert "diplomacy-count" in [p["code"] for p in errors], deck  # 2 diplomacy for 3 players
    assert all("for 3 players" in p["message"] for p in errors), deck
    res, deck = validate(path, "--players", "2")
    assert res.code == 0 and deck["players"] == 2, res


def test_the_four_player_example_says_its_table():
    res = run("validate", EXAMPLES / "good" / "alpha-walrus-4p.txt", "--output", "json")
    assert res.code == 0, res
    deck = res.json()["decks"][0]
    assert deck["players"] == 4 and deck["players_default"] is False, deck
    res = run("validate", EXAMPLES / "good" / "alpha-walrus-4p.txt")
    assert "4 players" in res.out and "(default)" not in res.out, res


@pytest.mark.parametrize("value", ["four", "1", "13", "2.5", "-3"])
def test_a_players_header_that_is_no_table_size_is_an_error_on_its_line(deck_file, value):
    path = deck_file(_with_players(deck_text(), value, "text"))
    res, deck = validate(path)
    assert res.code == 1, res
    assert [(p["code"], p["rule"], p["line"]) for p in deck["problems"]] == [
        ("bad-players", "DL-5.2", 2)], deck
    assert f"'players: {value}'" in deck["problems"][0]["message"], deck


def test_a_players_header_on_an_animal_battle_deck_is_ignored_with_a_warning(deck_file):
    path = deck_file("players: 4\n4 Walrus\n4 Orca\n4 Beluga\n4 Narwhal\n4 Vaquita\n")
    res = run("validate", path, "--output", "json")
    assert res.code == 0, res
    [p] = res.json()["decks"][0]["problems"]
    assert (p["code"], p["rule"], p["severity"], p["line"]) == (
        "no-players", "DL-5.3", "warning", 1), p
    assert "'players: 4' is ignored" in p["message"], p


@pytest.mark.parametrize("fmt", ["text", "yaml", "json"])
def test_fmt_and_convert_keep_the_players_header(deck_file, fmt):
    suffix = {"text": "txt"}.get(fmt, fmt)
    path = deck_file(_with_players(deck_text(), "3", fmt), f"shared.{suffix}")
    assert run("fmt", path).code == 0
    from deckcli.decks.reader import read_deck

    assert read_deck(str(path)).header.get("players") == "3"
    assert run("fmt", "--check", path).code == 0
    assert "\nplayers: 3\n" in run("convert", path, "--to", "yaml").out
    assert '"players": 3,' in run("convert", path, "--to", "json").out
    assert "\nplayers: 3\n" in run("convert", path, "--to", "text").out


def test_setup_and_simulate_take_the_table_from_the_header(deck_file):
    path = deck_file(_with_players(deck_text(creatures=14, others=5, diplomacy=3), "3",
                                   "text"))
    r = run("setup", path, "--seed", "1", "--output", "json")
    assert r.code == 0, r
    assert r.json()["players"] == 3 and r.json()["players_default"] is False, r
    assert len(r.json()["hands"]) == 3
    r = run("setup", path, "--seed", "1", "--players", "2", "--output", "json")
    assert r.code == 0 and r.json()["players"] == 2, r
    r = run("simulate", path, "--games", "2", "--seed", "1", "--max-turns", "20", "-O", "json")
    assert r.code == 0, r
    assert sorted(r.json()["policies"]) == ["p1", "p2", "p3"], r
    assert r.json().get("players_default") is not True, r
