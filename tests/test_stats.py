"""``deckcli stats``: numbers checked by hand on small decks, the JSON shape, exit codes."""

from __future__ import annotations

from math import comb
from statistics import median

import pytest
from conftest import EXAMPLES, run

# The database's figures for the cards below (asserted in test_figures_used_by_these_tests):
#   Walrus     weight 1200   speed 35  lifespan 40  population 250000  length 3.2
#   Orca       weight 6000   speed 56  lifespan 90  population 50000   length 8.0
#   Vaquita    weight 55     speed 20  lifespan 21  population 10      length 1.5
#   Blue Whale weight 150000 speed 50  lifespan 90  population 15000   length 30.0
FIGURES = {
    "Walrus": {"weight": 1200, "speed": 35, "lifespan": 40, "population": 250000, "length": 3.2},
    "Orca": {"weight": 6000, "speed": 56, "lifespan": 90, "population": 50000, "length": 8.0},
    "Vaquita": {"weight": 55, "speed": 20, "lifespan": 21, "population": 10, "length": 1.5},
    "Blue Whale": {"weight": 150000, "speed": 50, "lifespan": 90, "population": 15000,
                   "length": 30.0},
}

# 7 Animals (3 Walrus, 1 Orca, 2 Vaquita, 1 Blue Whale) and 13 Actions: 20 cards.
SEVEN = """name: Hand Built
3 Walrus
1 Orca
2 Vaquita
1 Blue Whale
4 Herd Instinct
4 Foraging Run
4 Scout Ahead
1 Tag Team
"""


def test_figures_used_by_these_tests(index):
    for name, figures in FIGURES.items():
        (card,) = index.cards_named("animal-battle", name)
        for stat, value in figures.items():
            assert card.stats[stat] == value, (name, stat)


@pytest.fixture
def seven(deck_file):
    r = run("stats", deck_file(SEVEN), "--output", "json")
    assert r.code == 0, r
    return r.json()


def test_counts_by_kind(seven):
    assert seven["kinds"] == {"animal": 7, "action": 13}
    assert seven["cards"] == 20 and seven["unresolved"] == 0


def test_medians_by_hand(seven):
    # copies sorted; the median of seven values is the fourth
    # weight:     55 55 1200 [1200] 1200 6000 150000
    # speed:      20 20 35 [35] 35 50 56
    # lifespan:   21 21 40 [40] 40 90 90
    # population: 10 10 15000 [50000] 250000 250000 250000
    # length:     1.5 1.5 3.2 [3.2] 3.2 8 30
    expected = {"weight": 1200, "speed": 35, "lifespan": 40, "population": 50000, "length": 3.2}
    for stat, value in expected.items():
        assert seven["stats"][stat]["deck"]["median"] == value, stat
        assert seven["stats"][stat]["animals"] == 7


def test_best_and_worst_follow_the_winning_sense(seven):
    s = seven["stats"]
    assert (s["weight"]["deck"]["best"], s["weight"]["deck"]["best_card"]) == (
        150000, "Blue Whale (ABS) 1")
    assert (s["weight"]["deck"]["worst"], s["weight"]["deck"]["worst_card"]) == (
        55, "Vaquita (ABS) 18")
    assert s["speed"]["deck"]["best"] == 56 and s["speed"]["deck"]["worst"] == 20
    # Population: lower wins (AB-2.4), so the best is the minimum
    assert s["population"]["wins"] == "lower" and s["population"]["rule"] == "AB-2.4"
    assert s["population"]["deck"]["best"] == 10
    assert s["population"]["deck"]["best_card"] == "Vaquita (ABS) 18"
    assert s["population"]["deck"]["worst"] == 250000
    assert s["population"]["deck"]["worst_card"] == "Walrus (ABS) 12"


def test_population_best_is_the_minimum_over_the_database(seven, index):
    values = [c.stats["population"] for c in index.all_cards("animal-battle")
              if c.kind == "animal"]
    db = seven["stats"]["population"]["database"]
    assert db["best"] == min(values) and db["worst"] == max(values)
    assert db["median"] == median(values) and db["animals"] == len(values)
    weights = [c.stats["weight"] for c in index.all_cards("animal-battle") if c.kind == "animal"]
    assert seven["stats"]["weight"]["database"]["best"] == max(weights)


def test_median_beats_counts_database_animals_beaten(seven, index):
    pops = [c.stats["population"] for c in index.all_cards("animal-battle")
            if c.kind == "animal"]
    beaten = sum(1 for v in pops if v > 50000)  # lower wins: a larger population is beaten
    assert seven["stats"]["population"]["median_beats"] == pytest.approx(beaten / len(pops))


def test_max_depth_is_not_a_battle_statistic(seven):
    assert list(seven["stats"]) == ["weight", "speed", "lifespan", "population", "length"]


def test_opening_hand_by_hand(seven):
    o = seven["opening_hand"]
    # 7 Animals in 20 cards, six drawn: 1 - C(13,6)/C(20,6) = 1 - 1716/38760
    assert comb(13, 6) == 1716 and comb(20, 6) == 38760
    assert o["chance_at_least_one"] == pytest.approx(1 - 1716 / 38760)
    assert o["expected_animals"] == pytest.approx(6 * 7 / 20)
    assert (o["cards"], o["animals"]) == (6, 7)


def test_even_count_median_is_the_mean_of_the_middle_two(deck_file):
    r = run("stats", deck_file("2 Walrus\n2 Vaquita\n"), "-O", "json")
    assert r.code == 0, r
    s = r.json()["stats"]
    assert s["weight"]["deck"]["median"] == (55 + 1200) / 2
    assert s["population"]["deck"]["median"] == (10 + 250000) / 2
    assert s["population"]["deck"]["best"] == 10


def test_json_shape(seven):
    assert set(seven) == {"version", "path", "game", "format", "name", "cards", "unresolved",
                          "kinds", "opening_hand", "stats"}
    assert seven["version"] == 1 and seven["game"] == "animal-battle"
    assert seven["format"] == "casual" and seven["name"] == "Hand Built"
    for p in seven["stats"].values():
        assert set(p) == {"wins", "rule", "unit", "animals", "deck", "database", "median_beats"}
        assert set(p["deck"]) == {"median", "best", "best_card", "worst", "worst_card"}
        assert set(p["database"]) == {"median", "best", "worst", "q1", "q3", "animals"}
        assert p["database"]["q1"] <= p["database"]["median"] <= p["database"]["q3"]
    assert set(seven["opening_hand"]) == {"cards", "animals", "rule", "chance_at_least_one",
                                          "expected_animals"}


def test_text_output_is_a_table_with_bars(deck_file):
    r = run("stats", deck_file(SEVEN))
    assert r.code == 0, r
    lines = r.out.splitlines()
    row = next(x for x in lines if x.startswith("population"))
    assert "lower" in row and "10 (Vaquita)" in row and "250,000 (Walrus)" in row
    assert any(x.startswith("Animals") and "#" in x for x in lines)
    assert "95.57% chance of at least one Animal" in r.out
    assert "2.1 Animals expected" in r.out


def test_championship_example_counts():
    r = run("stats", EXAMPLES / "good" / "championship-deep-divers.txt", "-O", "json")
    assert r.code == 0, r
    doc = r.json()
    assert doc["kinds"] == {"animal": 52, "action": 8} and doc["cards"] == 60
    assert doc["opening_hand"]["expected_animals"] == pytest.approx(6 * 52 / 60)


def test_alpha_walrus_counts_and_levels(index):
    path = EXAMPLES / "good" / "alpha-walrus-4p.txt"
    r = run("stats", path, "-O", "json")
    assert r.code == 0, r
    doc = r.json()
    assert doc["game"] == "alpha-walrus" and doc["format"] is None
    assert "stats" not in doc and "opening_hand" not in doc
    assert sum(doc["kinds"].values()) == doc["cards"]
    assert sum(doc["levels"].values()) == doc["kinds"]["creature"]
    # by hand from the list: 2 Krill (level 1) among the creatures
    (krill,) = index.cards_named("alpha-walrus", "Krill")
    assert doc["levels"][str(krill.stats["level"])] >= 2
    text = run("stats", path)
    assert text.code == 0 and "Creature levels" in text.out and "level 1" in text.out


def test_unknown_card_is_left_out_with_a_warning(deck_file):
    r = run("stats", deck_file("4 Walrus\n2 Wallrus\n"), "-O", "json")
    assert r.code == 0, r
    assert r.json()["unresolved"] == 2 and r.json()["kinds"]["animal"] == 4
    assert "left out" in r.err


def test_missing_deck_exits_2(tmp_path):
    r = run("stats", tmp_path / "nope.txt")
    assert r.code == 2, r
    assert "no such file" in r.err and "Traceback" not in r.err


def test_unreadable_deck_exits_2(deck_file):
    """stats needs a deck to show its figures: a file that is no decklist stops it (exit 2),
    as setup and simulate stop (it printed a table of zeros, then the error, exit 1)."""
    r = run("stats", deck_file(b"4 Walrus\n\x00 garbage\n", "bin.txt"))
    assert r.code == 2 and r.out == "", r
    assert "bin.txt:2: cannot be read as a deck: file holds a NUL byte" in r.err, r


def test_an_unreadable_deck_prints_no_json(deck_file):
    """Not even a document of zeros (its 'kinds' each at 0, 'cards' 0): a script reading it
    would take it for an empty deck."""
    r = run("stats", deck_file(b"caf\xe9 4 Walrus\n", "l1.txt"), "--output", "json")
    assert r.code == 2 and r.out == "", r
    assert "not UTF-8" in r.err, r


def test_help_mentions_population():
    r = run("stats", "--help")
    assert r.code == 0 and "Population" in r.out


def test_lines_that_cannot_be_read_are_left_out_with_a_warning(deck_file):
    """They used to vanish without a word: '4 cards', exit 0."""
    r = run("stats", deck_file("four Orca\n999999999999999999999 Walrus\n4 Orca\n"))
    assert r.code == 0, r
    assert "4 cards" in r.out
    warned = [ln for ln in r.err.splitlines() if "(left out; run 'deckcli validate " in ln]
    assert len(warned) == 2 and ":1: 'four Orca' is not a card entry" in warned[0]
    assert ":2: count 9999" in warned[1]


def test_a_tie_for_best_or_worst_names_the_same_card_whatever_the_lines_order(deck_file):
    """Orca and Great White Shark both run 56 km/h: of equal values the figures name the first
    card by name, so fmt (which sorts the lines) or any reordering of a deck changes nothing in
    its statistics."""
    lines = ["4 Orca", "4 Great White Shark", "4 Walrus", "4 Coelacanth"]
    docs = []
    for order in (lines, lines[::-1]):
        r = run("stats", deck_file("\n".join(order) + "\n"), "--output", "json")
        assert r.code == 0, r
        docs.append(r.json()["stats"])
    assert docs[0] == docs[1]
    assert docs[0]["speed"]["deck"]["best"] == 56
    assert docs[0]["speed"]["deck"]["best_card"] == "Great White Shark (ABS) 23"
