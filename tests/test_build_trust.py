"""A builder a player can trust: an objective a saturated matchup cannot make, steps taken only
when a paired interval shows them better."""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES

BINDER = EXAMPLES / "collections" / "binder.txt"


@pytest.mark.parametrize("rates, expected", [
    ([0.005, 0.98, 1.0], (0.005 + 0.98) / 2),  # three matchups: the worst two
    ([0.3, 0.5, 0.99, 1.0], 0.4),  # four: the worst two; the two won outright do not count
    ([0.3, 0.5, 0.9, 1.0], 0.4),  # ... so moving a saturated one changes nothing
    ([0.7], 0.7),
    ([0.2, 0.2, 0.9], 0.2),
])
def test_the_objective_is_the_mean_of_the_worst_half_of_the_matchups(rates, expected):
    from deckcli.build.search import objective

    assert objective(rates) == pytest.approx(expected)


def _planted(index, tmp_path, weak: int = 3):
    """The example binder, its strongest deck (the opponent, written to a file), and that deck
    with its ``weak`` strongest cards' copies swapped for the binder's weakest Animals (where
    a search has something real to find)."""
    from deckcli.build.collection import read_binder
    from deckcli.build.search import Candidate, strongest, worth_of

    b = read_binder(str(BINDER), index, "animal-battle", "casual")
    best = strongest(b)
    worth = worth_of(b)
    opponent = tmp_path / "strongest.txt"
    opponent.write_text("game: animal-battle\nformat: casual\n" + "\n".join(best.lines(b)) +
                        "\n", encoding="utf-8")
    out = sorted(best.counts, key=lambda i: (-worth[i], i))[:weak]
    low = sorted((i for i in range(len(b.stock)) if i not in best.counts and
                  b.stock[i].info.kind == "animal"), key=lambda i: (worth[i], i))[:weak]
    counts = {i: n for i, n in best.counts.items() if i not in out}
    for i in low:
        counts[i] = b.stock[i].owned
    cand = Candidate(counts)
    assert cand.size() == 20
    return b, opponent, cand, low


def test_every_step_the_search_takes_is_shown_better_by_its_paired_interval(index, tmp_path):
    """From a deck with three weak cards planted, against the binder's strongest deck: the
    search takes steps, and for each the 95% paired interval of the new deck's win rate less
    the old one's, on the search's own games (the same deals, a seat-swapped pair the unit;
    140 games, or 300 for a candidate played on to be shown), lies above zero."""
    from deckcli.build.search import CONFIRM, LEVELS, Judge, search, worst_half
    from deckcli.games import get
    from deckcli.sim.run import house_rules, load_deck
    from deckcli.sim.stats import paired_difference
    from deckcli.sim.where import Local

    b, opponent, start, _ = _planted(index, tmp_path)
    game = get("animal-battle")
    judge = Judge(game, b, [load_deck(str(opponent), index, game.id)], policy="greedy",
                  house=house_rules(game, {}, {}), seed=5, max_turns=200, where=Local())
    best, stats = search(judge, b, random.Random(5), games=3000, budget=None, start=start)
    path = stats["path"]
    assert path[0].key == start.key and path[-1].key == best.key
    assert len(path) == stats["improved"] + 1 and stats["improved"] >= 1, stats
    score = {"a": 1, "b": 0, None: None}
    for old, new in zip(path, path[1:]):
        # shown at the race's last stage, or played on to CONFIRM games to be shown
        n = CONFIRM if len(judge.results[(new.key, 0)]) >= CONFIRM else LEVELS[-1]
        units = []
        for k in worst_half(judge.rates(old, n)):
            games = [(score[x["winner"]], score[y["winner"]]) for x, y in
                     zip(judge.results[(new.key, k)][:n], judge.results[(old.key, k)][:n])]
            units += [games[i:i + 2] for i in range(0, n, 2)]
        change, (lo, hi) = paired_difference(units)
        assert lo > 0, (change, lo, hi)
    assert stats["ahead"] >= stats["improved"]
