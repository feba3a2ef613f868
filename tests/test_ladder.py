"""deckcli.sim.ratings, the Bradley-Terry fit and bootstrap of benchmarks/ladder.py, on results whose
ratings are known from the maths (the ladder itself plays minutes of games: a benchmark, never a
test)."""

from __future__ import annotations

import importlib.util
import math
import random

import pytest
from conftest import REPO

from deckcli.sim import ratings

TRUE = {"a": 0.0, "b": 120.0, "c": 300.0, "d": -200.0}  # Elo ratings, a the anchor


@pytest.fixture(scope="module")
def ladder():
    """benchmarks/ladder.py, for its list of players (it plays no game on import)."""
    spec = importlib.util.spec_from_file_location("bench_ladder", REPO / "benchmarks" / "ladder.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _results(pairs: int, seed: int) -> list[dict]:
    """Every two players of TRUE meet in ``pairs`` pairs of games, each game won as their
    ratings say (P(p wins) = 1 / (1 + 10 ** ((r_q - r_p) / 400)))."""
    rng = random.Random(seed)
    players = list(TRUE)
    out = []
    for i, p in enumerate(players):
        for q in players[i + 1:]:
            chance = ratings.expected(TRUE[p], TRUE[q])
            units = []
            for _ in range(pairs):
                won = sum(rng.random() < chance for _ in range(2))
                units.append((won, 2 - won))
            out.append({"p": p, "q": q, "games": 2 * pairs, "units": units})
    return out


def test_three_to_one_is_400_log10_3_points():
    """With no virtual draw, the fit is the maximum-likelihood one: p won 3 of 4 games against
    q, so s_p / s_q = 3 and r_p - r_q = 400 log10 3 (190.85 points)."""
    got = ratings.fit({("p", "q"): 3, ("q", "p"): 1}, ["p", "q"], anchor="q", prior=0)
    assert got["q"] == 0 and got["p"] == pytest.approx(400 * math.log10(3), abs=1e-6), got


def test_wins_as_strengths_1_2_4_say_give_those_strengths_back():
    """Strengths 1, 2 and 4; every two players won games in the ratio of their strengths
    (a 1 of 3 against b, 1 of 5 against c; b 2 of 6 against c). Those wins meet the
    likelihood equations W_p = sum_q n_pq s_p / (s_p + s_q) exactly, so the fit is b at
    400 log10 2 and c at 400 log10 4 above a."""
    wins = {("a", "b"): 1, ("b", "a"): 2, ("a", "c"): 1, ("c", "a"): 4, ("b", "c"): 2,
            ("c", "b"): 4}
    got = ratings.fit(wins, ["a", "b", "c"], anchor="a", prior=0)
    assert got["b"] == pytest.approx(400 * math.log10(2), abs=1e-6), got
    assert got["c"] == pytest.approx(400 * math.log10(4), abs=1e-6), got
    assert ratings.expected(got["c"], got["a"]) == pytest.approx(0.8), got


def test_the_fit_recovers_known_strengths_from_exact_results():
    """Results exactly as the ratings predict, 100,000 games a pair of players: the fit gives
    the ratings back (the one virtual draw a pair moves them by a hundredth of a point)."""
    wins = {}
    players = list(TRUE)
    for p in players:
        for q in players:
            if p < q:
                chance = ratings.expected(TRUE[p], TRUE[q])
                wins[(p, q)], wins[(q, p)] = 100_000 * chance, 100_000 * (1 - chance)
    got = ratings.fit(wins, players, anchor="a")
    assert all(abs(got[p] - TRUE[p]) < 0.1 for p in players), got


def test_seeded_games_give_ratings_whose_intervals_hold_the_truth():
    results = _results(400, seed=3)
    players = list(TRUE)
    got = ratings.fit(ratings.totals(results), players, anchor="a")
    bounds = ratings.bootstrap(results, players, "a", 200, seed=4)
    for p in players:
        lo, hi = bounds[p]
        assert lo <= TRUE[p] <= hi and lo <= got[p] <= hi, (p, got[p], bounds[p])
        assert abs(got[p] - TRUE[p]) < 60, (p, got[p])
    assert bounds["a"] == (0.0, 0.0)  # the anchor is 0 by definition
    assert sorted(players, key=got.get) == sorted(players, key=TRUE.get)
    assert ratings.bootstrap(results, players, "a", 200, seed=4) == bounds  # seeded


def test_a_player_who_won_every_game_gets_a_finite_rating_above_the_others():
    wins = {("x", "y"): 50, ("y", "x"): 0, ("y", "z"): 30, ("z", "y"): 20}
    got = ratings.fit(wins, ["x", "y", "z"], anchor="y")
    assert got["y"] == 0 and 0 < got["x"] < 2000 and got["z"] < 0, got


@pytest.mark.parametrize("game_id", ["animal-battle", "alpha-walrus"])
def test_every_policy_the_game_names_is_on_the_ladder(ladder, game_id):
    """A new policy joins by being named in the game's policies (``names``), as alpha-walrus's
    expert does; search plays with the ladder's small budget."""
    from deckcli.games import get
    from deckcli.sim.policies import names

    game = get(game_id)
    on = ladder.players_of(game, 3)
    assert on == ["search:3" if n == "search" else n for n in names(game)]
    assert {"random", "greedy", "search:3"} <= set(on)
    if game_id == "alpha-walrus":
        assert "expert" in on
