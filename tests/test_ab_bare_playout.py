"""deckcli's engine against a second, independent player of the same game.

``benchmarks/simulate.py`` holds a bare animal-battle playout: one function, plain lists, no
rule checked, greedy's choices and the simulation's default house rules written out by hand
(the floor a simulation is timed against). Dealt the same games, it must end each one as the
engine does: the same winner, after the same number of recorded actions, on the same turn
(the decks' Animals only: the bare playout plays no action card, greedy does). A
rule the engine got wrong in play (a tie, a promotion, a refill, a draw skipped, who loses when
no Defender is left) changes some game's length or winner and fails this test.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest
from conftest import EXAMPLES, REPO

GOOD = EXAMPLES / "good"
PAIRS = [("championship-deep-divers.txt", "championship-deep-divers.txt"),
         ("championship-deep-divers.txt", "casual-savanna.yaml"),
         ("casual-rainforest.json", "casual-risky.txt")]


@pytest.fixture(scope="module")
def bare():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location("bench_simulate",
                                                      REPO / "benchmarks" / "simulate.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return module


@pytest.mark.parametrize("a, b", PAIRS)
def test_the_bare_playout_ends_every_game_as_the_engine_does(bare, index, a, b):
    from deckcli.sim.play import Spec, game_seed, play
    from deckcli.sim.run import load_deck

    # the Animals of each deck: greedy plays action cards (what their effect data says), the
    # bare playout models none, so the decks are dealt without them
    da, db = ([c for c in load_deck(str(GOOD / name), index, None).cards if c.animal]
              for name in (a, b))
    spec = Spec("animal-battle", 5, {"a": da, "b": db}, ["p1", "p2"], {"p1": "a", "p2": "b"},
                {"p1": "greedy", "p2": "greedy"}, {}, 200)
    stats = {c.id: tuple(c.stats[s] for s in bare.STATS) if c.animal else None
             for c in da + db}
    ia, ib = [c.id for c in da], [c.id for c in db]
    tables = bare.Tables(ia + ib, stats)
    winners, longest = set(), 0
    for n in range(60):
        record = play(spec, n)
        winner, actions, turns = bare.bare_game(ia, ib, game_seed(5, n // 2), n % 2, tables)
        assert (record["winner"], record["actions"], record["turns"]) == (
            {0: "a", 1: "b"}.get(winner), actions, turns), f"game {n}"
        winners.add(record["winner"])
        longest = max(longest, actions)
    assert longest > 100  # whole games, not only ones that end at setup
    assert winners <= {"a", "b"}
