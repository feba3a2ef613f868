"""What one animal-battle player may know, and a game made up to match it (for a search).

A :class:`View` shows the open table (the Challenger, the Defenders, the statistics used,
discard piles, who is to act, every Pool's size), the player's own hand and Pool, counts of the
hidden cards (hands, decks), and what card effects showed the player (:mod:`.cardtext`): the top
of their own deck they looked at, in the order they put it back, and another player's Pool
shown to them. Whether the Animals in other players' Pools are seen is the house rule
``pool_visibility`` (AB-G.10): ``hidden`` (the default) shows only what the player saw, ``open``
every Pool. Decklists are open, as tournaments publish them: ``unseen`` gives, for each player,
the cards that player has that the viewer cannot see (the viewer's own deck below the top they
saw; another player's hand and deck, and the Animals of their Pool the viewer does not know),
sorted, so their order tells nothing. It shows no other player's hand and no deck's order: two
games that differ only there give equal views (:meth:`View.public`), and
``tests/test_simulate.py`` holds every policy to that.

:func:`sample` deals a game consistent with a view: the unseen cards shuffled into the hidden
parts of Pools (Animals only), hands of the right sizes and decks, under the top the viewer
knows, from the searcher's own generator.
"""

from __future__ import annotations

from operator import attrgetter


def _less(cards, known) -> list:
    """``cards`` without one copy of each card of ``known`` (a multiset difference)."""
    if not known:
        return list(cards)
    left = list(cards)
    for c in known:
        if c in left:
            left.remove(c)
    return left


class View:
    """One player's view of a game: read-only properties of the open table and the player's
    own hand. Made at every choice of a simulation, so it copies nothing until asked."""

    __slots__ = ("player", "book", "house", "_s")

    def __init__(self, match, player: str):
        self.player, self.book, self.house = player, match.book, match.house
        self._s = match.s

    @property
    def unseen(self) -> dict[str, tuple]:
        """For each player, the cards the viewer cannot see (the viewer's own deck below the
        top they saw; another player's hand and deck, and under ``pool_visibility=hidden`` the
        Animals of their Pool the viewer does not know), sorted: what decklists, which are
        open, tell minus what the table shows. A search deals them again (:func:`sample`)."""
        return {pid: self.unseen_of(pid) for pid in self._s.players}

    def unseen_of(self, pid: str) -> tuple:
        """``unseen[pid]`` alone (a player asks of one player at a time)."""
        me, s = self.player, self._s
        p = s.players[pid]
        if pid == me:
            return tuple(sorted(p.deck[:len(p.deck) - self._seen()]))
        cards = p.hand + p.deck
        if self.hidden_pools:
            cards += _less(p.pool, (s.known or {}).get(me, {}).get(pid, ()))
        return tuple(sorted(cards))

    @property
    def hidden_pools(self) -> bool:
        """Whether the Animals of other players' Pools are hidden (AB-G.10)."""
        return self.house.value("pool_visibility") != "open"

    def _seen(self) -> int:
        """How many top cards of the viewer's own deck the viewer has seen."""
        seen = self._s.seen_top
        return min(seen.get(self.player, 0), len(self._s.players[self.player].deck)) \
            if seen else 0

    @property
    def pools(self) -> dict[str, tuple]:
        """Each player's Pool as the viewer sees it: their own whole; another's whole under
        ``pool_visibility=open``, else the Animals the viewer knows are there, sorted."""
        return {pid: self.pool_of(pid) for pid in self._s.players}

    def pool_of(self, pid: str) -> tuple:
        """``pools[pid]`` alone."""
        s = self._s
        if pid == self.player or not self.hidden_pools:
            return tuple(s.players[pid].pool)
        return tuple(sorted((s.known or {}).get(self.player, {}).get(pid, ())))

    @property
    def top(self) -> tuple:
        """The top cards of the viewer's own deck they have seen, the top one first."""
        k = self._seen()
        deck = self._s.players[self.player].deck
        return tuple(deck[len(deck) - k:][::-1]) if k else ()

    @property
    def pending(self) -> dict | None:
        """The choice a played card leaves open (AB-6.5): whose, for which card; to its
        player also what they may name and what they named (the rest is theirs alone)."""
        pending = self._s.pending
        if pending is None:
            return None
        out = {"player": pending["player"], "card": pending["card"], "index": pending["index"],
               "n": pending["n"]}
        if pending["player"] == self.player:
            from deckcli.games.animal_battle.cardtext import options

            out.update(named=tuple(pending["named"]), options=tuple(options(self._s)))
        return out

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
    pool_sizes = property(lambda v: {pid: len(p.pool) for pid, p in v._s.players.items()})
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
              "defenders", "overrides", "pools", "pool_sizes", "discards", "hand_sizes",
              "deck_sizes", "out", "hand", "unseen", "top", "pending")

    def public(self) -> dict:
        """Everything a policy may read, as plain values (two views are equal when this is)."""
        return {k: getattr(self, k) for k in self.PUBLIC}


def sample(view: View, rng):
    """A game consistent with ``view``: hidden cards dealt at random from ``rng``."""
    from deckcli.games.animal_battle.book import facts
    from deckcli.games.animal_battle.engine import Match
    from deckcli.games.animal_battle.state import Player, State

    unseen, pools, me, book = view.unseen, view.pools, view.player, view.book
    hidden_pools = view.hidden_pools
    players = {}
    for pid in view.order:
        hidden = list(unseen[pid])
        rng.shuffle(hidden)
        pool = list(pools[pid])
        if pid == me:
            hand, deck = list(view.hand), hidden + list(view.top[::-1])
        else:
            if hidden_pools and len(pool) < view.pool_sizes[pid]:  # Animals the viewer
                need = view.pool_sizes[pid] - len(pool)  # has not seen: from the unseen ones
                for i, c in enumerate(hidden):
                    if book[c].animal:
                        pool.append(c)
                        hidden[i] = None
                        need -= 1
                        if not need:
                            break
                hidden = [c for c in hidden if c is not None]
            size = view.hand_sizes[pid]
            hand, deck = hidden[:size], hidden[size:]
        players[pid] = Player(pid, deck, hand, pool, list(view.discards[pid]), pid in view.out)
    pending = view.pending
    if pending is not None:
        pending = {"player": pending["player"], "card": pending["card"],
                   "index": pending["index"], "n": pending["n"],
                   "named": list(pending.get("named", ()))}
    known = None
    if hidden_pools:
        mine = {pid: list(c) for pid, c in pools.items() if pid != me and c}
        known = {me: mine} if mine else None
    seen = len(view.top)
    state = State(players, list(view.order), view.first, view.turn, view.phase, view.active,
                  view.challenger, view.controller, dict(view.defenders), view.defending,
                  view.target, list(view.used), view.original, view.drew, view.attacked,
                  [dict(o) for o in view.overrides], None, None, list(view.ready), pending,
                  {me: seen} if seen else None, known)
    match = object.__new__(Match)
    match.book, match.house, match.horizon, match.s = view.book, view.house, None, state
    match.facts = facts(view.book)
    match.setup = None
    match.hush()  # a made-up game is played out and scored, its rulings never read
    return match
