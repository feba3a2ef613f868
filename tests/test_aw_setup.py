"""`deckcli setup` for alpha-walrus: the seed's setup sentences, one row each, from a seed."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import EXAMPLES, run

DECK4 = EXAMPLES / "good" / "alpha-walrus-4p.txt"
DECK2 = EXAMPLES / "good" / "alpha-walrus-2p.yaml"


@pytest.fixture(scope="module")
def kinds(index):
    from deckcli.games.alpha_walrus.cardref import Cards

    cards = Cards(index)
    return lambda ref: cards.find(ref).kind


def deal(path, *args):
    res = run("setup", path, "--output", "json", *args)
    assert res.code == 0, res
    return res.json()


def deck_cards(index, path):
    """Every physical card of a decklist, by reference."""
    from deckcli.decks.reader import read_deck
    from deckcli.decks.resolve import resolve_deck

    rdeck = resolve_deck(index, read_deck(str(path)), "alpha-walrus", None)
    return Counter(ref for r in rdeck.entries for ref in [r.card.ref] * r.entry.count)


def step_rules(result):
    return [s["rule"] for s in result["steps"]]


def _centre(result, kinds, index):
    everywhere = [c for h in result["hands"] for c in h["hand"]] + result["deck"]["order"]
    return (kinds(result["centre"]) == "alpha-walrus"
            and not any(kinds(c) == "alpha-walrus" for c in everywhere))


def _one_diplomacy(result, kinds, index):
    return all(sum(kinds(c) == "diplomacy" for c in h["hand"]) == 1 for h in result["hands"])


def _three_and_three(result, kinds, index):
    return all(sum(kinds(c) == "creature" for c in h["hand"]) == 3
               and sum(kinds(c) in ("gear", "equipment", "battle", "action")
                       for c in h["hand"]) == 3 for h in result["hands"])


def _one_deck(result, kinds, index):
    dealt = Counter(c for h in result["hands"] for c in h["hand"])
    rest = deck_cards(index, DECK4) - dealt - Counter([result["centre"]])
    leftover_diplomacy = sum(n for ref, n in rest.items() if kinds(ref) == "diplomacy")
    return (Counter(result["deck"]["order"]) == rest and result["deck"]["count"] == sum(
        rest.values()) and leftover_diplomacy == 2)


ROWS = [
    ("AW-1.1", "the Alpha Walrus goes to the centre and nowhere else", _centre),
    ("AW-1.2", "each player gets exactly one diplomacy card", _one_diplomacy),
    ("AW-1.3", "each player gets 3 creatures and 3 non-creatures", _three_and_three),
    ("AW-1.4", "everything else, unused diplomacy included, is one deck", _one_deck),
]


@pytest.mark.parametrize("rule,what,check", ROWS, ids=[f"{r[0]}:{r[1]}" for r in ROWS])
def test_setup_rows(rule, what, check, kinds, index):
    result = deal(DECK4, "--seed", "11", "--players", "4")
    assert rule in step_rules(result), result["steps"]
    assert check(result, kinds, index), result


def test_setup_order_follows_the_seed():
    result = deal(DECK2, "--seed", "3")
    assert step_rules(result) == ["AW-1.1", "AW-1.2", "AW-1.3", "AW-1.4"]


def test_same_seed_same_deal_other_seed_other_deal():
    a = deal(DECK4, "--seed", "42", "--players", "4")
    b = deal(DECK4, "--seed", "42", "--players", "4")
    c = deal(DECK4, "--seed", "43", "--players", "4")
    assert a == b
    assert (a["hands"], a["deck"]) != (c["hands"], c["deck"])


def test_deal_matches_a_hand_computed_from_the_seed(index):
    """The documented procedure, redone with random.Random(seed), gives the same deal."""
    import random

    from deckcli.decks.reader import read_deck
    from deckcli.decks.resolve import resolve_deck
    from deckcli.games.alpha_walrus.cardref import Cards

    cards = Cards(index)
    rdeck = resolve_deck(index, read_deck(str(DECK2)), "alpha-walrus", None)
    order = [r.card.ref for r in rdeck.entries for _ in range(r.entry.count)]  # decklist order
    rng = random.Random(9)
    diplomacy = [c for c in order if cards.find(c).kind == "diplomacy"]
    rng.shuffle(diplomacy)  # AW-1.2: the first shuffle; p1 gets the top card, p2 the next
    hands = deal(DECK2, "--seed", "9")["hands"]
    assert [h["hand"][0] for h in hands] == diplomacy[:2]


def test_players_default_is_two_and_reported():
    result = deal(DECK2, "--seed", "1")
    assert result["players"] == 2 and result["players_default"] is True
    assert [h["player"] for h in result["hands"]] == ["p1", "p2"]
    assert all(len(h["hand"]) == 7 for h in result["hands"])
    text = run("setup", DECK2, "--seed", "1")
    assert text.code == 0 and "2 players (default)" in text.out, text


def test_a_deck_that_cannot_be_dealt_exits_1():
    res = run("setup", DECK2, "--seed", "1", "--players", "5", "--output", "json")
    assert res.code == 1, res
    problems = res.json()["problems"]
    assert problems and problems[0]["rule"] == "AW-1.2"
    assert res.json()["hands"] == []


def test_setup_of_an_illegal_deck_exits_1():
    res = run("setup", EXAMPLES / "bad" / "alpha-walrus-two-alphas.txt", "--seed", "1")
    assert res.code == 1, res
    assert "AW-1.1" in res.out


@pytest.mark.parametrize("deck,opponent", [
    (EXAMPLES / "good" / "championship-deep-divers.txt", DECK2),
    (DECK2, EXAMPLES / "good" / "championship-deep-divers.txt")])
def test_decks_of_two_games_are_a_usage_error_naming_both(deck, opponent):
    r = run("setup", deck, "--opponent", opponent, "--seed", "1")
    assert r.code == 2, r
    assert "internal error" not in r.err
    assert f"{deck} is an " in r.err and f"--opponent {opponent} is an " in r.err, r
    assert "animal-battle" in r.err and "alpha-walrus" in r.err, r
