"""`deckcli referee battle|attack|check|legal` and `deckcli setup` for animal-battle, run like
shell lines; the recorded game logs in examples/games/ab-*.yaml are golden files."""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import EXAMPLES, run

GAMES = EXAMPLES / "games"


# -- referee battle ------------------------------------------------------------------------
def test_battle_walrus_orca_population_lower_wins():
    r = run("referee", "battle", "Walrus", "Orca", "--stat", "population", "--output", "json")
    assert r.code == 0, r
    data = r.json()
    assert {k: data[k] for k in ("winner", "stat", "values", "rule", "gap")} == {
        "winner": "defender", "stat": "population",
        "values": {"challenger": 250000, "defender": 50000}, "rule": "AB-2.4", "gap": False}
    assert "ruling" in data and "Orca" in data["ruling"]


def test_battle_walrus_orca_weight_higher_wins():
    data = run("referee", "battle", "Walrus", "Orca", "--stat", "weight", "-O", "json").json()
    assert (data["winner"], data["rule"], data["values"]) == (
        "defender", "AB-2.1", {"challenger": 1200, "defender": 6000})
    data = run("referee", "battle", "Orca", "Walrus", "--stat", "population", "-O", "json").json()
    assert (data["winner"], data["rule"]) == ("challenger", "AB-2.4")


def test_battle_card_references_by_printing():
    r = run("referee", "battle", "ABS 12", "Orca (ABS) 10", "--stat", "speed", "-O", "json")
    assert r.code == 0, r
    assert r.json()["cards"] == {"challenger": "Walrus (ABS) 12", "defender": "Orca (ABS) 10"}
    assert r.json()["values"] == {"challenger": 35, "defender": 56}


def test_battle_tie_is_a_gap_without_house_rule(index):
    row = index.conn.execute(
        "SELECT a.card_id, b.card_id, a.value FROM stats a JOIN stats b ON a.stat = b.stat AND "
        "a.value = b.value AND a.card_id < b.card_id WHERE a.stat = 'population' LIMIT 1"
    ).fetchone()
    c, d = index.card(row[0]).ref, index.card(row[1]).ref
    r = run("referee", "battle", c, d, "--stat", "population", "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert (data["winner"], data["gap"], data["rule"]) == (None, True, "AB-G.1")
    assert data["values"] == {"challenger": row[2], "defender": row[2]}
    assert "stat_tie" in data["ruling"] and "judge" in data["ruling"]

    r = run("referee", "battle", c, d, "--stat", "population", "--house-rule", "stat_tie=defender",
            "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert (data["winner"], data["gap"], data["rule"]) == ("defender", True, "AB-G.1")
    assert data["house_rule"] == {"stat_tie": "defender"}
    text = run("referee", "battle", c, d, "--stat", "population", "--house-rule",
               "stat_tie=challenger")
    assert text.code == 0 and "winner: challenger" in text.out and "(gap)" in text.out, text


def test_battle_house_rule_from_event_file(tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text("name: Cup\ngame: animal-battle\nhouse_rules: {stat_tie: replay}\n")
    r = run("referee", "battle", "Blue Whale", "Wild Yak", "--stat", "population", "--event",
            event, "-O", "json")
    assert r.code == 0, r
    assert (r.json()["winner"], r.json()["house_rule"]) == (None, {"stat_tie": "replay"})


@pytest.mark.parametrize("stat", ["max_depth", "height", "Max Depth"])
def test_battle_stat_that_is_not_a_battle_statistic_exits_2(stat):
    r = run("referee", "battle", "Walrus", "Orca", "--stat", stat)
    assert r.code == 2, r
    assert "not a battle statistic" in r.err and "Traceback" not in r.err
    if stat == "max_depth":
        assert "AB-2.6" in r.err


def test_battle_unknown_card_exits_2_with_suggestion():
    r = run("referee", "battle", "Walrsu", "Orca", "--stat", "weight")
    assert r.code == 2, r
    assert "did you mean 'Walrus'" in r.err


def test_battle_ambiguous_name_exits_2_listing_candidates():
    r = run("referee", "battle", "Elephant", "Orca", "--stat", "weight")
    assert r.code == 2, r
    assert "Elephant (DWV) 1" in r.err and "Elephant (RFS) 2" in r.err


def test_battle_action_card_or_bad_house_rule_exits_2():
    assert run("referee", "battle", "Second Wind", "Orca", "--stat", "weight").code == 2
    r = run("referee", "battle", "Walrus", "Orca", "--stat", "weight", "--house-rule",
            "stat_tie=coin")
    assert r.code == 2 and "stat_tie" in r.err, r


# -- referee attack ------------------------------------------------------------------------
def test_attack_resolves_each_step_with_its_rule():
    r = run("referee", "attack", "--challenger", "Orca", "--defender", "Walrus", "--pool",
            "Greenland Shark", "--stats", "weight,lifespan", "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert [s["action"] for s in data["steps"]] == [
        "stat weight", "promote Greenland Shark (ABS) 25", "stat lifespan"]
    assert "AB-5.1" in data["steps"][0]["rules"] and "AB-5.2" in data["steps"][1]["rules"]
    assert {"AB-5.6", "AB-6.3"} <= set(data["steps"][2]["rules"])
    assert data["result"]["ended"] and data["result"]["by"] == "AB-5.6"


def test_attack_statistic_twice_is_illegal_and_gap_is_said():
    r = run("referee", "attack", "--challenger", "Orca", "--defender", "Walrus", "--pool",
            "Sea Otter", "--pool", "Vaquita", "--stats", "weight,weight", "-O", "json")
    assert r.code == 1, r
    assert [v["rule"] for v in r.json()["violations"]] == ["AB-5.5"]
    r = run("referee", "attack", "--challenger", "Walrus", "--defender", "Orca", "--stats",
            "weight")
    assert r.code == 0 and "AB-G.2" in r.out and "judge" in r.out, r
    assert run("referee", "attack", "--challenger", "Orca", "--defender", "Walrus", "--stats",
               "weight,max_depth").code == 2


# -- referee check / legal: golden logs --------------------------------------------------------
def test_clean_game_replays_to_a_winner():
    r = run("referee", "check", GAMES / "ab-clean-game.yaml", "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert data["violations"] == [] and data["stopped"] is None
    assert data["replayed"] == data["actions"] == 26
    assert data["final"]["winner"] == "p1"
    assert {g["rule"] for g in data["gaps"]} == {"AB-G.3", "AB-G.4"}
    assert all(g["value"] for g in data["gaps"])  # every gap met is settled by a house rule
    legal = run("referee", "legal", GAMES / "ab-clean-game.yaml")
    assert legal.code == 0 and "p1 won" in legal.out, legal


def test_illegal_actions_are_reported_with_their_rules():
    path = GAMES / "ab-illegal-actions.yaml"
    r = run("referee", "check", path, "-O", "json")
    assert r.code == 1, r
    found = [(v["line"], v["rule"]) for v in r.json()["violations"]]
    marked = [(n, m[1]) for n, text in enumerate(path.read_text().splitlines(), start=1)
              if (m := re.search(r"# ILLEGAL (AB-[\dG]+\.\d+)", text))]
    assert found == marked and len(found) == 9
    text = run("referee", "check", path)
    assert text.code == 1 and "AB-6.2" in text.out and "line 42" in text.out, text


def test_gap_log_stops_and_names_the_house_rule():
    path = GAMES / "ab-gap-tie.yaml"
    r = run("referee", "check", path, "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert data["violations"] == [] and data["stopped"]["rule"] == "AB-G.1"
    assert data["stopped"]["step"] == 7 and data["replayed"] == 7 < data["actions"]
    assert "stat_tie" in data["stopped"]["ruling"]
    r = run("referee", "check", path, "--house-rule", "stat_tie=challenger", "-O", "json")
    assert r.code == 0 and r.json()["stopped"] is None and r.json()["replayed"] == 8, r
    r = run("referee", "check", path, "--house-rule", "stat_tie=defender", "-O", "json")
    assert r.code == 0 and r.json()["stopped"]["rule"] == "AB-G.2", r
    legal = run("referee", "legal", path)
    assert legal.code == 0 and "AB-G.1" in legal.out, legal


def test_legal_lists_the_next_actions():
    path = GAMES / "ab-gap-tie.yaml"
    r = run("referee", "legal", path, "--house-rule", "stat_tie=challenger", "--house-rule",
            "next_stat_chooser=challenger", "-O", "json")
    assert r.code == 0, r
    texts = [a["text"] for a in r.json()["actions"]]
    assert "p1 stat weight" in texts and "p1 stat lifespan" not in texts  # AB-5.5
    assert not any(t.startswith("p2 stat") for t in texts)  # house rule: the challenger names it


def write_log(tmp_path, body: str):
    path = tmp_path / "game.yaml"
    path.write_text(body)
    return path


BASE = """game: animal-battle
setup:
  first: p1
  players:
    p1: {deck: [Orca, Walrus, Narwhal, Vaquita, Polar Bear, Second Wind, Blue Whale]}
    p2: {deck: [Fin Whale, Sea Otter, Adelie Penguin, Arctic Fox, King Penguin, Cheetah, Lion]}
"""


@pytest.mark.parametrize("actions, message", [
    ("  - p1 fly\n", "not an animal-battle action"),
    ("  - p1 place Walrsu\n", "did you mean 'Walrus'"),
    ("  - p9 place Walrus\n", "not a player"),
    ("  - p1 stat\n", "needs a statistic"),
])
def test_unreadable_log_exits_2(tmp_path, actions, message):
    r = run("referee", "check", write_log(tmp_path, BASE + "actions:\n" + actions))
    assert r.code == 2 and message in r.err and "game.yaml:" in r.err, r


def test_log_needs_two_players(tmp_path):
    body = "game: animal-battle\nsetup:\n  players:\n    p1: {deck: [Orca]}\nactions: []\n"
    r = run("referee", "check", write_log(tmp_path, body))
    assert r.code == 2 and "AB-1.2" in r.err, r


def test_mapping_actions_and_deck_files(tmp_path):
    (tmp_path / "p2.txt").write_text("1 Fin Whale\n1 Sea Otter\n5 Cheetah\n")
    body = BASE.replace("{deck: [Fin Whale, Sea Otter, Adelie Penguin, Arctic Fox, King Penguin, "
                        "Cheetah, Lion]}", "{deck: p2.txt}")
    body += ("actions:\n  - {player: p1, action: reveal_challenger, card: Orca}\n"
             "  - {player: p2, do: reveal_defender, card: Fin Whale}\n  - start\n"
             "  - {player: p1, action: stat, stat: speed}\n")
    r = run("referee", "check", write_log(tmp_path, body), "--house-rule",
            "decline_promote=attack_ends", "-O", "json")
    assert r.code == 0 and r.json()["violations"] == [], r
    assert r.json()["final"]["players"]["p2"]["discard"] == 1  # Fin Whale lost on speed


def test_a_deck_file_past_the_logs_deck_bound_is_refused(tmp_path):
    """A log's deck listed in the log holds at most 100,000 cards; a deck *file* (a 100 KB
    file of '999 Orca' lines is 4.8 million cards) had no bound, and the seeded shuffle of
    each replay made `referee check` run for minutes. It is an error on the deck's line."""
    (tmp_path / "p2.txt").write_text("999 Orca\n999 Orca [foil]\n" * 60)
    body = BASE.replace("{deck: [Fin Whale, Sea Otter, Adelie Penguin, Arctic Fox, King Penguin, "
                        "Cheetah, Lion]}", "{deck: p2.txt}")
    body = body.replace("  first: p1\n", "  seed: 1\n  first: p1\n") + "actions: []\n"
    r = run("referee", "check", write_log(tmp_path, body))
    assert r.code == 2, r
    assert "game.yaml:7: p2's deck: 119,880 cards, more than the 100,000" in r.err, r


def generated_log(n_turns: int, tmp_path):
    """A long legal log written by replaying a simple policy through the engine."""
    from deckcli.cards import open_index
    from deckcli.games.animal_battle.engine import Match
    from deckcli.games.animal_battle.play import ENGINE
    from deckcli.games.base import CardInfo

    index = open_index()
    names = ["Orca", "Walrus", "Sea Otter", "Narwhal", "Cheetah", "Blue Whale", "Lion", "Vaquita"]
    cards = [index.cards_named("animal-battle", n)[0] for n in names]
    book = {c.id: CardInfo.of(c) for c in cards}
    decks = {p: [cards[(i * k) % len(cards)].id for i in range(200)]
             for p, k in (("p1", 3), ("p2", 5))}
    house = {"stat_tie": "challenger", "original_defender_wins": "as_replacement",
             "decline_promote": "attack_ends", "next_stat_chooser": "defender",
             "empty_deck_draw": "skip", "new_animal_from": "pool", "replace_defender": "forbidden"}
    game = Match(book, decks, first="p1", house_rules=house)
    lines = []
    rng = random.Random(n_turns)
    while game.s.turn <= n_turns and game.s.winner is None:
        legal = ENGINE.legal_actions(game)
        busy = [a for a in legal if a[1] not in ("end_turn", "decline", "play", "ready")]
        player, verb, arg, stat = rng.choice(busy or legal)
        out = game.act(player, verb, arg, stat)
        assert out.ok and out.stop is None, out.to_json()
        shown = book[arg].ref if isinstance(arg, int) else arg
        lines.append(" ".join(x for x in (player, verb, shown, f"stat={stat}" if stat else None)
                              if x))
    log = {"game": "animal-battle", "house_rules": house,
           "setup": {"first": "p1", "players": {p: {"deck": [book[c].ref for c in d]}
                                                for p, d in decks.items()}},
           "actions": ["\n".join(lines)]}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(log))
    return path, len(lines), game.summary()


def test_generated_long_log_replays_clean(tmp_path):
    path, n, final = generated_log(40, tmp_path)
    r = run("referee", "check", path, "-O", "json")
    assert r.code == 0, r
    assert r.json()["violations"] == [] and r.json()["replayed"] == n > 100
    assert r.json()["final"] == final


# -- setup ---------------------------------------------------------------------------------
DECK = ("4 Orca\n4 Walrus\n4 Sea Otter\n4 Narwhal\n4 Vaquita\n2 Second Wind\n")


def test_setup_is_seeded_and_shows_the_rules(deck_file):
    deck = deck_file(DECK)
    a = run("setup", deck, "--seed", "7", "-O", "json")
    b = run("setup", deck, "--seed", "7", "-O", "json")
    assert a.code == 0 and a.out == b.out, a
    data = a.json()
    assert data["seed"] == 7 and data["problems"] == [] and data["first"] in ("p1", "p2")
    assert all(len(h) == 6 for h in data["hands"].values())  # AB-3.1
    first = data["first"]
    other = "p2" if first == "p1" else "p1"
    assert data["challenger"]["player"] == first and data["challenger"]["rule"] == "AB-3.3"
    assert data["defender"]["player"] == other and data["defender"]["rule"] == "AB-3.4"
    assert data["challenger"]["revealed"] in data["challenger"]["candidates"]
    assert all(len(p) <= 5 for p in data["pools"].values())  # AB-3.5
    seeds = {run("setup", deck, "--seed", s, "-O", "json").json()["hands"]["p1"].__repr__()
             for s in range(1, 6)}
    assert len(seeds) > 1
    text = run("setup", deck, "--seed", "7")
    assert text.code == 0 and "AB-3.6" in text.out and "--seed 7" in text.out, text


def test_setup_with_opponent_and_three_players(deck_file):
    deck = deck_file(DECK)
    other = deck_file("20 Cheetah\n", "b.txt")
    data = run("setup", deck, "--seed", "3", "--opponent", other, "-O", "json").json()
    assert all(c == "Cheetah (DWV) 4" for c in data["hands"]["p2"])
    r = run("setup", deck, "--seed", "3", "--players", "3", "-O", "json")
    assert r.code == 0, r
    assert r.json()["defender"]["player"] is None and "AB-G.5" in r.json()["defender"]["gap"]


def test_setup_pool_holds_five_of_six_animals(deck_file):
    """AB-3.5: with three players only the first reveals an Animal (who defends is AB-G.5), so
    the other two hold six Animals each, and only five of them fill the Pool."""
    deck = deck_file("4 Orca\n4 Walrus\n4 Sea Otter\n4 Narwhal\n4 Vaquita\n")
    r = run("setup", deck, "--seed", "3", "--players", "3", "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert all(len(hand) == 6 for hand in data["hands"].values())  # all Animals (AB-3.1)
    assert {p: len(pool) for p, pool in data["pools"].items()} == {"p1": 5, "p2": 5, "p3": 5}


@pytest.mark.parametrize("text, message", [
    ("game: chess\n4 Walrus\n", "unknown game 'chess' in the header"),
    ("4 Walrus\n\x00\n", "NUL byte"),
])
@pytest.mark.parametrize("as_opponent", [False, True])
def test_setup_of_what_cannot_be_read_as_a_deck_deals_nothing(deck_file, text, message,
                                                              as_opponent):
    # an unknown game's deck was dealt as an animal-battle game of 0 cards
    bad = deck_file(text)
    args = [EXAMPLES / "good" / "casual-risky.txt", "--opponent", bad] if as_opponent else [bad]
    r = run("setup", *args, "--seed", "1")
    assert r.code == 2, r
    assert "cannot be read as a deck" in r.err and message in r.err and str(bad) in r.err, r
    assert "opening hand" not in r.out, r


def test_setup_deck_that_cannot_reveal_an_animal(deck_file):
    deck = deck_file("20 Second Wind\n")
    r = run("setup", deck, "--seed", "1", "-O", "json")
    assert r.code == 1, r
    rules = [p["rule"] for p in r.json()["problems"]]
    assert "AB-3.3" in rules and "AB-1.5" in rules  # 20 copies: limit 4


def test_setup_opponent_that_cannot_reveal_a_defender_cites_ab_3_4(deck_file):
    """The starting Defender's problem named AB-3.3 (the Challenger's rule) in its message."""
    deck, other = deck_file(DECK), deck_file("20 Second Wind\n", "b.txt")
    for seed in range(1, 20):
        data = run("setup", deck, "--opponent", other, "--seed", seed, "-O", "json").json()
        if data["first"] == "p1":
            break
    [problem] = [p for p in data["problems"] if p["code"] == "no-defender"]
    assert problem["rule"] == "AB-3.4" and "(AB-3.4)" in problem["message"], problem
    assert "AB-3.3" not in problem["message"], problem


@pytest.mark.parametrize("text, rule", [
    ("4 Orca\n4 Walrus\n", "AB-1.3"),  # casual: at least 20 (AB-1.3)
    ("format: championship\n" + DECK, "AB-1.4"),  # championship: exactly 60 (AB-1.4)
    (DECK + "3 Walrus (ABS) 12 [foil]\n", "AB-1.5"),  # versions add up (AB-1.6): 7 Walrus
])
def test_setup_reports_deck_rules(deck_file, text, rule):
    r = run("setup", deck_file(text), "--seed", "2", "-O", "json")
    assert r.code == 1, r
    assert rule in [p["rule"] for p in r.json()["problems"]]


def test_large_and_small_statistics_are_written_as_numbers_not_exponents():
    """Population runs to the millions: a ruling wrote '1e+06 vs 1e+07'."""
    cards = run("cards", "list", "--output", "json").json()
    animals = [c for c in cards if c["kind"] == "animal"]
    for stat in ("population", "weight", "length"):
        low = min(animals, key=lambda c: c["stats"][stat])
        high = max(animals, key=lambda c: c["stats"][stat])
        r = run("referee", "battle", f"{high['name']} {high['printings'][0]['set']} "
                f"{high['printings'][0]['number']}", f"{low['name']} "
                f"{low['printings'][0]['set']} {low['printings'][0]['number']}", "--stat", stat)
        assert r.code == 0, r
        assert "e+" not in r.out and "e-" not in r.out, r.out
        assert f"{high['stats'][stat]:,}".removesuffix(".0") in r.out
    r = run("referee", "battle", "Greenland Shark", "Adelie Penguin", "--stat", "population")
    assert "population: 1,000,000 vs 10,000,000" in r.out


def test_promoting_from_the_hand_after_a_defeat_cites_ab_5_4(tmp_path):
    """The Pool was empty, so no promotion was pending: the answer said 'no Defender has just
    been defeated' (false) under AB-5.2; the rule broken is AB-5.4."""
    log = tmp_path / "g.yaml"
    log.write_text(
        "game: animal-battle\nsetup:\n  first: p1\n  players:\n"
        "    p1: {deck: [Blue Whale, Walrus, Narwhal, Vaquita, Polar Bear, Dugong, Orca]}\n"
        "    p2: {deck: [Sea Otter, Adelie Penguin, King Penguin, Gentoo Penguin, Arctic Fox, "
        "Emperor Penguin]}\n"
        "house_rules: {decline_promote: attack_ends}\n"
        "actions:\n  - |\n    p1 reveal_challenger Blue Whale\n    p2 reveal_defender Sea Otter\n"
        "    start\n    p1 stat weight\n    p2 promote Adelie Penguin\n", encoding="utf-8")
    r = run("referee", "check", log, "--output", "json")
    assert r.code == 1, r
    [v] = r.json()["violations"]
    assert v["rule"] == "AB-5.4" and "cards from hand cannot enter" in v["message"]


HEAD_LOG = ("game: animal-battle\nsetup:\n  first: p1\n  players:\n"
            "    p1: {deck: [Blue Whale, Walrus, Narwhal, Vaquita, Polar Bear, Dugong, Orca]}\n"
            "    p2: {deck: [Sea Otter, Adelie Penguin, King Penguin, Gentoo Penguin, Arctic Fox, "
            "Emperor Penguin]}\n")


@pytest.mark.parametrize("name", ["max_depth", "maximum_depth", "max depth", "Max-Depth", "depth"])
def test_every_name_of_maximum_depth_cites_ab_2_6_in_a_log(tmp_path, name):
    """Only 'max_depth' used to get AB-2.6; 'maximum_depth' got 'not a battle statistic' under
    AB-4.4."""
    log = tmp_path / "g.yaml"
    log.write_text(HEAD_LOG + "actions:\n  - p1 reveal_challenger Blue Whale\n"
                   "  - p2 reveal_defender Sea Otter\n  - start\n"
                   f"  - {{player: p1, do: stat, stat: \"{name}\"}}\n", encoding="utf-8")
    r = run("referee", "check", log, "--output", "json")
    assert r.code == 1, r
    assert [v["rule"] for v in r.json()["violations"]] == ["AB-2.6"]
    r = run("referee", "battle", "Walrus", "Orca", "--stat", name)
    assert r.code == 2 and "AB-2.6" in r.err


def test_legal_names_the_player_who_acts_not_only_whose_turn_it_is(tmp_path):
    log = tmp_path / "g.yaml"
    log.write_text(HEAD_LOG + "actions:\n  - p1 reveal_challenger Blue Whale\n"
                   "  - p2 reveal_defender Sea Otter\n  - p2 place Adelie Penguin\n  - start\n"
                   "  - p1 stat weight\n", encoding="utf-8")
    r = run("referee", "legal", log)
    assert r.code == 0, r
    assert r.out.splitlines()[0].endswith("phase promote, p2 to act (on p1's turn):")


@pytest.mark.parametrize("action,message", [
    ("p1 stat weight stat=speed", "names two statistics, weight and stat=speed"),
    ("p1 end_turn stat=speed", "end_turn takes no stat="),
])
def test_a_stat_option_that_contradicts_or_means_nothing_is_unreadable(tmp_path, action, message):
    """'p1 stat weight stat=speed' was ruled on speed without a word."""
    log = tmp_path / "g.yaml"
    log.write_text(HEAD_LOG + "actions:\n  - p1 reveal_challenger Blue Whale\n"
                   f"  - p2 reveal_defender Sea Otter\n  - start\n  - {action}\n",
                   encoding="utf-8")
    r = run("referee", "check", log)
    assert r.code == 2 and f"g.yaml:11: '{action}'" in r.err and message in r.err, r


@pytest.mark.parametrize("house", [[], ["--house-rule", "decline_promote=attack_ends"]])
def test_a_statistic_named_twice_is_illegal_whatever_stops_the_sequence_first(house):
    """Walrus v Orca on weight stops at gap AB-G.2 before the repeat: the repeat was exit 0."""
    for challenger, defender in (("Walrus", "Orca"), ("Orca", "Walrus")):
        r = run("referee", "attack", "--challenger", challenger, "--defender", defender,
                "--stats", "weight,weight", *house, "-O", "json")
        assert r.code == 1, r
        assert [v["rule"] for v in r.json()["violations"]] == ["AB-5.5"]
    r = run("referee", "attack", "--challenger", "Walrus", "--defender", "Orca", "--stats",
            "weight,speed", *house)
    assert r.code == 0 and "AB-5.5" not in r.out, r


def test_legal_names_every_gap_an_action_would_meet(tmp_path):
    """'defend <card in hand>' over a standing Defender meets AB-G.8 and then AB-G.7: legal
    named only AB-G.8, and check with replace_defender=allowed stops at AB-G.7."""
    log = tmp_path / "g.yaml"
    log.write_text(HEAD_LOG + "actions:\n  - p1 reveal_challenger Blue Whale\n"
                   "  - p2 reveal_defender Sea Otter\n  - start\n", encoding="utf-8")
    r = run("referee", "legal", log, "-O", "json")
    assert r.code == 0, r
    defends = [a for a in r.json()["actions"] if a["action"] == "defend"]
    assert defends and all(a["gaps"] == ["AB-G.8", "AB-G.7"] for a in defends), defends
    assert all(a["stop"]["rule"] == "AB-G.8" for a in defends)
    assert "after it, gap AB-G.7" in run("referee", "legal", log).out
    log.write_text(log.read_text() + "  - p2 defend Adelie Penguin\n", encoding="utf-8")
    r = run("referee", "check", log, "--house-rule", "replace_defender=allowed", "-O", "json")
    assert r.code == 0 and r.json()["stopped"]["rule"] == "AB-G.7", r


@pytest.mark.parametrize("args, role", [
    (("battle", "Second Wind", "Walrus", "--stat", "weight"), "the Challenger"),
    (("battle", "Orca", "Second Wind", "--stat", "weight"), "the Defender"),
    (("attack", "--challenger", "Orca", "--defender", "Walrus", "--pool", "Second Wind",
      "--stats", "weight"), "a Pool Animal")])
def test_an_action_card_where_an_animal_stands_is_named_and_exit_2(args, role):
    r = run("referee", *args)
    assert r.code == 2 and "Traceback" not in r.err, r
    assert f"Second Wind (ABS) 91 is an action card, not an Animal: it cannot be {role}" in r.err


def test_an_attack_ended_by_a_later_gap_names_that_gap_not_an_earlier_tie():
    """Addax and Common Warthog tie on weight (100, AB-G.1 replay); Warthog then wins on speed
    and AB-G.2 ends the attack: the result was 'by AB-G.1', the first gap of the sequence."""
    r = run("referee", "attack", "--challenger", "Addax", "--defender", "Common Warthog",
            "--stats", "weight,speed", "--house-rule", "stat_tie=replay",
            "--house-rule", "original_defender_wins=discard_challenger", "-O", "json")
    assert r.code == 0, r
    result = r.json()["result"]
    assert result["ended"] and result["by"] == "AB-G.2", result
    assert result["summary"].endswith("(AB-G.2)"), result


LAST_LINK = ["--challenger", "Blue Whale", "--defender", "Sea Otter", "--pool", "Walrus",
             "--pool", "Emperor Penguin", "--pool", "Weddell Seal", "--pool", "Harbor Porpoise",
             "--pool", "Adelie Penguin", "--stats", "weight,length,lifespan,population,speed"]


@pytest.mark.parametrize("house, by", [
    (None, "AB-G.9"), ("becomes_challenger", "AB-5.7"), ("attack_ends", "AB-G.9")])
def test_a_defender_falling_on_the_last_statistic_is_gap_g9(house, by):
    """AB-5.7 hands the Challenger's role to the Defender that survived all five statistics;
    whether a replacement may still be promoted when the fifth falls (and then counts as that
    survivor) is AB-G.9: the referee stops there unless last_stat_promote is declared."""
    args = ["--house-rule", f"last_stat_promote={house}"] if house else []
    r = run("referee", "attack", *LAST_LINK, *args, "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert data["gap"] and "AB-G.9" in [g["rule"] for g in data["gaps"]], data["gaps"]
    assert data["result"]["by"] == by, data["result"]
    last = data["steps"][-1]
    if house is None:
        assert last["stop"]["rule"] == "AB-G.9" and "last_stat_promote" in last["stop"]["ruling"]
        assert not data["result"]["ended"]
    elif house == "becomes_challenger":
        assert last["action"] == "promote Adelie Penguin (ABS) 34", last
        assert "AB-5.7" in last["rules"] and "AB-G.9" in " ".join(last["notes"])
        assert "Adelie Penguin (ABS) 34 becomes p2's Challenger" in " ".join(last["notes"])
        assert data["result"]["control"] == "p2"
    else:
        assert last["action"] == "stat speed" and last["stop"] is None, last
        assert data["result"]["control"] == "p1" and "AB-5.7" not in last["rules"]
    text = run("referee", "attack", *LAST_LINK, *args)
    assert text.code == 0 and "AB-G.9" in text.out, text


G9_LOG = ("game: animal-battle\nsetup:\n  first: p1\n  players:\n"
          "    p1: {deck: [Blue Whale, Narwhal, Orca, Walrus, Vaquita, Cheetah, Lion, Dugong, "
          "Muskox, Sailfish]}\n"
          "    p2: {deck: [Sea Otter, Walrus, Emperor Penguin, Weddell Seal, Harbor Porpoise, "
          "Adelie Penguin, Arctic Fox, King Penguin]}\n"
          "house_rules: {next_stat_chooser: challenger}\n"
          "actions:\n  - |\n    p1 reveal_challenger Blue Whale\n    p2 reveal_defender Sea Otter\n"
          "    p1 place Narwhal\n    p2 place Walrus\n    p2 place Emperor Penguin\n"
          "    p2 place Weddell Seal\n    p2 place Harbor Porpoise\n    p2 place Adelie Penguin\n"
          "    start\n    p1 stat weight\n    p2 promote Walrus\n    p1 stat length\n"
          "    p2 promote Emperor Penguin\n    p1 stat lifespan\n    p2 promote Weddell Seal\n"
          "    p1 stat population\n    p2 promote Harbor Porpoise\n")


@pytest.mark.parametrize("house, code, stopped, last", [
    (None, 0, "AB-G.9", None),
    ("becomes_challenger", 0, None, "Adelie Penguin (ABS) 34"),
    ("attack_ends", 1, None, "Blue Whale (ABS) 1"),
])
def test_check_and_legal_report_gap_g9(tmp_path, house, code, stopped, last):
    """A log whose fifth statistic fells the Defender while p2's Pool still holds an Animal:
    `legal` names AB-G.9 for that statistic; `check` stops there without last_stat_promote,
    and with it applies the value (attack_ends: no promotion is pending, so promoting is
    illegal, AB-5.2)."""
    log = write_log(tmp_path, G9_LOG)
    legal = run("referee", "legal", log, "-O", "json")
    assert legal.code == 0, legal
    speed = next(a for a in legal.json()["actions"] if a["text"] == "p1 stat speed")
    assert speed["gaps"] == ["AB-G.4", "AB-G.9"] and speed["stop"]["rule"] == "AB-G.9", speed
    log.write_text(G9_LOG + "    p1 stat speed\n    p2 promote Adelie Penguin\n")
    args = ["--house-rule", f"last_stat_promote={house}"] if house else []
    r = run("referee", "check", log, *args, "-O", "json")
    assert r.code == code, r
    data = r.json()
    assert "AB-G.9" in [g["rule"] for g in data["gaps"]]
    assert (data["stopped"] or {}).get("rule") == stopped, data["stopped"]
    if last is not None:
        assert data["final"]["challenger"] == last, data["final"]
    if house == "attack_ends":
        assert [v["rule"] for v in data["violations"]] == ["AB-5.2"]


POOL_OF = ["Walrus", "Narwhal", "Vaquita", "Sea Otter", "Cheetah", "Lion", "Dugong"]


@pytest.mark.parametrize("count, code", [(5, 0), (6, 0), (7, 2)])
def test_attack_pool_holds_five_or_what_card_text_allows(count, code):
    """AB-4.2: a Pool holds five Animals; Expanded Habitat's text (AB-6.4) raises it to six, the
    most any card allows. `referee attack` rules on a position without the cards in force, so
    six are ruled on and seven are a usage error (they were ruled on as if a Pool held them)."""
    pools = [x for name in POOL_OF[:count] for x in ("--pool", name)]
    r = run("referee", "attack", "--challenger", "Orca", "--defender", "Walrus", *pools,
            "--stats", "weight", "-O", "json")
    assert r.code == code, r
    if code == 2:
        assert "Traceback" not in r.err and r.out == "", r
        assert ("--pool names 7 Animals; a Pool holds at most 5 (AB-4.2), 6 while Expanded "
                "Habitat (RFS) 91 is in force (AB-6.4)") in r.err, r
    else:
        assert len(r.json()["pool"]) == count


def test_attack_pool_bound_follows_the_card_database(tmp_path):
    """A card of a --db folder that raises the Pool to eight makes a Pool of seven one some game
    can hold; without any such card the bound is five."""
    from test_card_db import write_set

    db = tmp_path / "db"
    write_set(db, "TST.yaml", """\
        - {number: "1", name: Vast Burrow, kind: action, text: "Your Pool may hold eight.",
           overrides: [{rule: AB-4.2, effect: pool_size, value: 8}]}
        """)
    pools = [x for name in POOL_OF for x in ("--pool", name)]
    args = ["--challenger", "Orca", "--defender", "Walrus", *pools, "--stats", "weight"]
    assert run("--db", db, "referee", "attack", *args).code == 0
    r = run("--db", db, "referee", "attack", *args, "--pool", "Orca", "--pool", "Orca")
    assert r.code == 2 and "at most 5 (AB-4.2), 8 while Vast Burrow (TST) 1" in r.err, r

    from deckcli.games.animal_battle.referee import pool_bound

    class NoCardText:
        def all_cards(self, game):
            return []

    assert pool_bound(NoCardText()) == (5, [])


# -- a log of many players ---------------------------------------------------------------------
def _table_log(path, players: int, actions: str = "  - start\n", house: str = ""):
    """A log of ``players`` players, each dealt one Orca, as the log of issue 38 was."""
    seats = "".join(f'    p{i}: {{deck: ["1 Orca"]}}\n' for i in range(1, players + 1))
    path.write_text(f"game: animal-battle\n{house}setup:\n  first: p1\n  players:\n{seats}"
                    f"actions:\n{actions}", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["check", "legal"])
def test_a_log_of_more_players_than_a_table_holds_exits_2_on_the_players_line(tmp_path, command):
    """A 7 KB log of 250 players made `referee legal` run 15 s (1,000 never finished). A log
    holds 2 to 12 players, as `setup --players` deals: the 13th is an error on the line of
    setup.players, before any deck is read."""
    r = run("referee", command, _table_log(tmp_path / "g.yaml", 13))
    assert r.code == 2 and "g.yaml:4:" in r.err, r
    assert "13 players; a game log holds at most 12" in r.err, r
    assert run("referee", command, _table_log(tmp_path / "g.yaml", 12)).code in (0, 1)


def _trials(tmp_path, monkeypatch, players: int, **log) -> int:
    """How many trial copies of the game `referee legal` makes for a table of ``players``."""
    from deckcli.games.animal_battle.engine import Match

    made = [0]
    real = Match.clone

    def counted(self):
        made[0] += 1
        return real(self)

    monkeypatch.setattr(Match, "clone", counted)
    r = run("referee", "legal", _table_log(tmp_path / f"g{players}.yaml", players, **log))
    monkeypatch.setattr(Match, "clone", real)
    assert r.code == 0, r
    return made[0]


@pytest.mark.parametrize("log", [
    {"actions": "  - start\n"},  # setup: p1 to reveal its Challenger
    {"actions": "  - p1 reveal_challenger Orca\n",  # p1 names the opponent (AB-G.5)
     "house": "house_rules: {defender_player: attacker_choice}\n"}])
def test_legal_tries_each_further_player_at_the_same_cost(tmp_path, monkeypatch, log):
    """`legal` tried every player's `target` of every other player on a copy of the whole
    table: cubic in the players. Each further player now costs the same number of trials
    (linear), and only the player who may name an opponent tries naming each."""
    counts = [_trials(tmp_path, monkeypatch, n, **log) for n in (10, 11, 12)]
    assert counts[2] - counts[1] == counts[1] - counts[0], counts
    assert counts[1] - counts[0] <= 20, counts  # one Orca's tries, and at most one target


def test_a_log_read_from_no_file_finds_its_deck_files_in_the_working_folder(tmp_path,
                                                                           monkeypatch):
    """The game interface reads a log given as data (path None, as the referee's tests and a
    script pass it): a deck named by its file is read from the working folder (was: a crash,
    TypeError from the missing log path)."""
    from deckcli.cards import open_index
    from deckcli.games import get

    deck = "game: animal-battle\n4 Orca\n4 Walrus\n4 Narwhal\n4 Vaquita\n4 Cheetah\n"
    (tmp_path / "a.txt").write_text(deck, encoding="utf-8")
    (tmp_path / "b.txt").write_text(deck, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    log = {"game": "animal-battle",
           "setup": {"first": "p1", "players": {"p1": {"deck": "a.txt"},
                                                "p2": {"deck": "b.txt"}}},
           "actions": []}
    match, steps, _setup = get("animal-battle").engine().read_log(log, None, {}, open_index())
    assert steps == []
    assert [len(p.hand) + len(p.deck) for p in match.s.players.values()] == [20, 20]
