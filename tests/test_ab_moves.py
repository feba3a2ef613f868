"""The simulator's legal actions (worked out from the state, deckcli.games.animal_battle.moves)
are exactly the referee's (every candidate tried on a copy), for the player to move, on every
position of many random games under every house rule; and every position of a live game has
one, the choices a played card's text leaves to its player included. Cards whose text the
referee does not model are left out of both: a judge rules on them."""

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
         "Foraging Run", "Herd Instinct", "Field Guide", "Rainy Season", "Canopy Lookout",
         "Scout Ahead", "Tidal Migration"]


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


def random_table(book, rng, players: int, fewest: int):
    """Decks of random cards (``fewest`` to 30 each) and a random house rule for every gap."""
    ids = sorted(book)
    seats = ("p1", "p2", "p3")[:players]
    decks = {p: [rng.choice(ids) for _ in range(rng.randint(fewest, 30))] for p in seats}
    house = GAME.house_rules({k: rng.choice(list(g.values)) for k, g in GAME.gaps().items()},
                             simulate=True)
    return decks, house


@pytest.mark.parametrize("seed", range(60))
def test_the_simulators_legal_actions_are_the_referees(book, seed):
    rng = random.Random(seed)
    decks, house = random_table(book, rng, 3 if seed % 4 == 3 else 2, 8)
    match = Match(book, decks, seed=seed, house_rules=house)
    for _step in range(300):
        if match.s.winner is not None or match.s.waiting is not None:
            break
        fast = ENGINE.legal_actions(match)
        mover = ENGINE.to_move(match)
        assert set(fast) == trial(match, mover), (mover, match.summary(), match.house.given)
        assert fast, (mover, match.summary(), match.house.given)  # a live game always offers its player an action
        match.act(*rng.choice(fast))


@pytest.mark.parametrize("seed", range(36))
def test_a_card_is_looked_for_in_every_phase_its_timing_can_hold_in(book, seed):
    """The legal actions look for an action card only in the phases its timing can hold in
    (effects.PHASES, gathered by book.Facts). With one kind of action card in the decks, a
    phase missing from that card's entry hides a legal play, and the referee's answer shows
    it."""
    actions = sorted(cid for cid, c in book.items() if c.kind == "action")
    card = actions[seed % len(actions)]
    only = {cid: c for cid, c in book.items() if c.animal or cid == card}
    rng = random.Random(seed)
    decks, house = random_table(only, rng, 2, 8)
    for p in decks:  # the card in every hand, and again in the deck
        decks[p] = [card] * 3 + decks[p] + [card] * 3
    match = Match(only, decks, seed=seed, house_rules=house)
    for _step in range(300):
        if match.s.winner is not None or match.s.waiting is not None:
            break
        mover = ENGINE.to_move(match)
        assert set(ENGINE.legal_actions(match)) == trial(match, mover), match.summary()
        match.act(*rng.choice(ENGINE.legal_actions(match)))


@pytest.mark.parametrize("seed", range(30))
def test_greedy_remembers_only_what_it_would_decide_afresh(book, seed):
    """Greedy keeps its choice for a list of legal actions in a situation (policies._Plan);
    on every position of random games the kept choice is the one worked out afresh, so a
    situation that leaves out something greedy reads fails here."""
    from deckcli.games.animal_battle.policies import Greedy

    rng = random.Random(seed)
    decks, house = random_table(book, rng, 3 if seed % 3 == 2 else 2, 12)
    greedy, fresh = Greedy(), Greedy()
    for game in range(4):  # later games meet the plans earlier ones kept
        match = Match(book, decks, seed=seed * 10 + game, house_rules=house)
        for _step in range(400):
            mover, legal = ENGINE.choices(match)
            if not legal:
                break
            view = ENGINE.view(match, mover) if mover is not None else None
            if view is None or len(legal) == 1:
                action = legal[0]
            else:
                action = greedy.choose(ENGINE, view, legal, None)
                assert action == fresh.decide(view, legal), (legal, view.public())
                # and with other players' choices random, positions greedy would not reach
                action = rng.choice(legal) if rng.random() < 0.3 else action
            out = ENGINE.apply(match, action)
            assert out.ok, (action, out.violations)
            if out.stop is not None or match.s.winner is not None:
                break


@pytest.mark.parametrize("seed", range(10))
def test_a_hushed_game_is_judged_as_a_full_one(book, seed):
    """What a simulation plays with (Match.hush: no ruling text) judges every action as the
    referee does: the same legality, violations, gaps and stops, on the same random actions,
    legal and not."""
    rng = random.Random(seed)
    ids = sorted(book)
    decks = {p: [rng.choice(ids) for _ in range(20)] for p in ("p1", "p2")}
    full = Match(book, decks, seed=seed, house_rules=GAME.house_rules({}, simulate=True))
    quiet = full.clone()
    quiet.hush()
    for _step in range(300):
        legal = ENGINE.legal_actions(full)
        if not legal:
            break
        wrong = (rng.choice(["p1", "p2"]), rng.choice(["draw", "stat", "place", "end_turn"]),
                 rng.choice(ids), "speed")
        for action in (wrong, rng.choice(legal)):
            a, b = full.act(*action), quiet.apply(action)
            assert (a.ok, [v.message for v in a.violations], [g.rule for g in a.gaps],
                    a.stop) == (b.ok, [v.message for v in b.violations],
                                [g.rule for g in b.gaps], b.stop)
            assert not b.notes and (a.notes or not a.ok)  # the full one keeps its rulings
        assert full.summary() == quiet.summary()
        if full.s.winner is not None or full.s.waiting is not None:
            break
