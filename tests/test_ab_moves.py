"""The simulator's legal actions (worked out from the state, deckcli.games.animal_battle.moves)
are exactly the referee's (every candidate tried on a copy), for the player to move, on every
position of many random games under every house rule; and every position of a live game has
one. Cards whose text the referee does not model are left out of both: a judge rules on them."""

from __future__ import annotations

import random

import pytest

from deckcli.games.animal_battle import GAME
from deckcli.games.animal_battle.engine import Match
from deckcli.games.animal_battle.play import ENGINE
from deckcli.games.base import CardInfo

NAMES = ["Orca", "Walrus", "Sea Otter", "Blue Whale", "Vaquita", "Greenland Shark", "Fin Whale",
         "Emperor Penguin", "Narwhal", "Cheetah", "Adelie Penguin", "Strategic Retreat",
         "Second Wind", "Tag Team", "Expanded Habitat", "Emergency Reinforcement",
         "Foraging Run"]


@pytest.fixture(scope="module")
def book(index):
    out = {}
    for name in NAMES:
        (card,) = index.cards_named("animal-battle", name)
        out[card.id] = CardInfo.of(card)
    return out


def trial(match, player):
    """The referee's answer: every candidate of ``player`` (None: the table's 'start') tried
    on a copy."""
    return {a for a, out in ENGINE.tried(match) if a[0] == player
            and not (out.stop is not None and not out.stop.gap)}


@pytest.mark.parametrize("seed", range(60))
def test_the_simulators_legal_actions_are_the_referees(book, seed):
    rng = random.Random(seed)
    ids = sorted(book)
    seats = ("p1", "p2", "p3") if seed % 4 == 3 else ("p1", "p2")
    decks = {p: [rng.choice(ids) for _ in range(rng.randint(8, 30))] for p in seats}
    house = GAME.house_rules({k: rng.choice(list(g.values)) for k, g in GAME.gaps().items()},
                             simulate=True)
    match = Match(book, decks, seed=seed, house_rules=house)
    for _step in range(300):
        if match.s.winner is not None or match.s.waiting is not None:
            break
        fast = ENGINE.legal_actions(match)
        mover = ENGINE.to_move(match)
        assert set(fast) == trial(match, mover), (mover, match.summary(), match.house.given)
        assert fast, (mover, match.summary(), match.house.given)  # a live game always offers its player an action
        match.act(*rng.choice(fast))
