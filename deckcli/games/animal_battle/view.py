"""What one animal-battle player may know, and a game made up to match it (for a search).

A :class:`View` shows the open table (every Pool, the Challenger, the Defenders, the statistics
used, discard piles, who is to act), the player's own hand, and counts of the hidden cards
(hands, decks). Decklists are open, as tournaments publish them: ``unseen`` gives, for each
player, the cards that player has that the viewer cannot see (the viewer's own deck; another
player's hand and deck), sorted, so their order tells nothing. It shows no other
player's hand and no deck's order: two games that differ only there give equal views
(:meth:`View.public`), and ``tests/test_simulate.py`` holds every policy to that.

:func:`sample` deals a game consistent with a view: the unseen cards shuffled into hands of the
right sizes and decks, from the searcher's own generator.
"""

from __future__ import annotations

from operator import attrgetter


class View:
    """One player's view of a game: read-only properties of the open table and the player's
    own hand. Made at every choice of a simulation, so it copies nothing until asked."""

    __slots__ = ("player", "book", "house", "_s")

    def __init__(self, match, player: str):
        self.player, self.book, self.house = player, match.book, match.house
        self._s = match.s

    @property
    def unseen(self) -> dict[str, tuple]:
        """For each player, the cards the viewer cannot see (the viewer's own deck; another
        player's hand and deck), sorted: what decklists, which are open, tell minus what the
        table shows. A search deals them again (:func:`sample`)."""
        me = self.player
        return {pid: tuple(sorted(p.deck if pid == me else p.hand + p.deck))
                for pid, p in self._s.players.items()}

    # the open table (read straight from the state: a view is asked at every choice)
    turn = property(attrgetter("_s.turn"))
    phase = property(attrgetter("_s.phase"))
    active = property(attrgetter("_s.active"))
    first = property(attrgetter("_s.first"))
    challenger = property(attrgetter("_s.challenger"))
    controller = property(attrgetter("_s.controller"))
    defending = property(attrgetter("_s.defending"))
    target = property(attrgetter("_s.target"))
    original = property(attrgetter("_s.original"))
    drew = property(attrgetter("_s.drew"))
    attacked = property(attrgetter("_s.attacked"))
    used = property(lambda v: tuple(v._s.used))
    ready = property(lambda v: tuple(v._s.ready))
    order = property(lambda v: tuple(v._s.order))
    defenders = property(lambda v: dict(v._s.defenders))
    overrides = property(lambda v: tuple(dict(o) for o in v._s.overrides))
    pools = property(lambda v: {pid: tuple(p.pool) for pid, p in v._s.players.items()})
    discards = property(lambda v: {pid: tuple(p.discard) for pid, p in v._s.players.items()})
    hand_sizes = property(lambda v: {pid: len(p.hand) for pid, p in v._s.players.items()})
    deck_sizes = property(lambda v: {pid: len(p.deck) for pid, p in v._s.players.items()})
    out = property(lambda v: frozenset(pid for pid, p in v._s.players.items() if p.out))
    # the same, as a policy asks it at a choice
    defender = property(lambda v: v._s.defenders.get(v._s.defending))  # the active Defender
    opposing = property(lambda v: tuple(d for p, d in v._s.defenders.items()
                                        if p != v.player and d is not None))
    # the player's own
    hand = property(lambda v: tuple(v._s.players[v.player].hand))

    PUBLIC = ("player", "turn", "phase", "active", "first", "challenger", "controller",
              "defending", "target", "original", "drew", "attacked", "used", "ready", "order",
              "defenders", "overrides", "pools", "discards", "hand_sizes", "deck_sizes", "out",
              "hand", "unseen")

    def public(self) -> dict:
        """Everything a policy may read, as plain values (two views are equal when this is)."""
        return {k: getattr(self, k) for k in self.PUBLIC}


def sample(view: View, rng):
    """A game consistent with ``view``: hidden cards dealt at random from ``rng``."""
    from deckcli.games.animal_battle.book import facts
    from deckcli.games.animal_battle.engine import Match
    from deckcli.games.animal_battle.state import Player, State

    unseen = view.unseen
    players = {}
    for pid in view.order:
        hidden = list(unseen[pid])
        rng.shuffle(hidden)
        if pid == view.player:
            hand, deck = list(view.hand), hidden
        else:
            size = view.hand_sizes[pid]
            hand, deck = hidden[:size], hidden[size:]
        players[pid] = Player(pid, deck, hand, list(view.pools[pid]), list(view.discards[pid]),
                              pid in view.out)
    state = State(players, list(view.order), view.first, view.turn, view.phase, view.active,
                  view.challenger, view.controller, dict(view.defenders), view.defending,
                  view.target, list(view.used), view.original, view.drew, view.attacked,
                  [dict(o) for o in view.overrides], None, None, list(view.ready))
    match = object.__new__(Match)
    match.book, match.house, match.horizon, match.s = view.book, view.house, None, state
    match.facts = facts(view.book)
    match.setup = None
    match.hush()  # a made-up game is played out and scored, its rulings never read
    return match
