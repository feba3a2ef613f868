"""The animal-battle game state: players, the Challenger, the Defenders, the attack sequence.

Cards are held as card-index ids (ints); :class:`CardInfo` carries what the referee needs of a
card (name, kind, statistics, overrides), resolved once per game. Everything here is plain data
so a state can be copied cheaply (``legal`` tries each candidate action on a copy).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckcli.games.base import CardInfo
from deckcli.games.interface import Stop

__all__ = ["RANK", "CardInfo", "Player", "State", "summary"]

#: The turn's phases in order (AB-4.1 to AB-4.6); "promote" is the Defense Chain waiting for the
#: defending player (AB-5.2) and ranks with the attack.
RANK = {"setup": -1, "draw": 0, "pool": 1, "establish": 2, "attack": 3, "promote": 3, "end": 4,
        "over": 9}


@dataclass(slots=True)
class Player:
    id: str
    deck: list[int]  # the top card is the last one
    hand: list[int] = field(default_factory=list)
    pool: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    out: bool = False  # lost (AB-1.1); with more than two players the others play on

    def copy(self) -> Player:
        return Player(self.id, self.deck[:], self.hand[:], self.pool[:], self.discard[:],
                      self.out)


@dataclass(slots=True)
class State:
    players: dict[str, Player]
    order: list[str]  # seat order; turns go round it (AB-3.2 picks who starts)
    first: str
    turn: int = 0  # 0 during setup
    phase: str = "setup"
    active: str | None = None
    challenger: int | None = None
    controller: str | None = None  # the player who controls the Challenger
    defenders: dict[str, int | None] = field(default_factory=dict)
    defending: str | None = None  # the defending player of this turn's attack
    target: str | None = None  # the opponent named by the attacker (AB-G.5 attacker_choice)
    used: list[str] = field(default_factory=list)  # statistics used in this attack sequence
    original: bool = True  # the active Defender is the first of this attack sequence
    drew: bool = False  # the draw of this turn is done (or skipped by AB-3.6)
    attacked: bool = False  # a statistic was chosen this turn
    overrides: list[dict] = field(default_factory=list)  # card text in force (AB-6.4)
    winner: str | None = None
    waiting: Stop | None = None  # a gap no house rule settles: a judge must rule
    ready: list[str] = field(default_factory=list)  # said 'ready' during setup (AB-3.5)
    # what card text left open or showed (.cardtext). Replaced, never changed in place, so a
    # copy shares them: the choice a played card waits for ({player, card, index, n, named});
    # player -> how many top cards of their own deck they have seen; viewer -> owner -> the
    # Animals of owner's Pool the viewer knows are there (AB-G.10)
    pending: dict | None = None
    seen_top: dict[str, int] | None = None
    known: dict[str, dict[str, list[int]]] | None = None

    def copy(self) -> State:
        return State({k: p.copy() for k, p in self.players.items()}, self.order[:], self.first,
                     self.turn, self.phase, self.active, self.challenger, self.controller,
                     dict(self.defenders), self.defending, self.target, self.used[:],
                     self.original, self.drew, self.attacked, [dict(o) for o in self.overrides],
                     self.winner, self.waiting, self.ready[:], self.pending, self.seen_top,
                     self.known)

    def in_game(self) -> list[str]:
        return [p for p in self.order if not self.players[p].out]

    def next_after(self, pid: str) -> str:
        """The next player in seat order who is still in the game."""
        order, players = self.order, self.players
        n = len(order)
        i = order.index(pid)
        for k in range(1, n + 1):
            other = order[(i + k) % n]
            if not players[other].out:
                return other
        return pid


def summary(state: State, book: dict[int, CardInfo]) -> dict:
    """The state as JSON-able facts (the ``final`` of a checked log)."""

    def ref(cid):
        return book[cid].ref if cid is not None else None

    return {
        "turn": state.turn, "phase": state.phase, "active": state.active,
        "first": state.first, "winner": state.winner,
        "challenger": ref(state.challenger), "controller": state.controller,
        "defending": state.defending,
        "defenders": {p: ref(c) for p, c in state.defenders.items()},
        "used": list(state.used),
        "players": {pid: {"hand": [ref(c) for c in p.hand], "deck": len(p.deck),
                          "pool": [ref(c) for c in p.pool], "discard": len(p.discard),
                          "out": p.out}
                    for pid, p in state.players.items()},
        "overrides": [{"card": o["card"], "effect": o["effect"], "player": o["player"]}
                      for o in state.overrides],
        **({"choosing": {"player": state.pending["player"], "card": ref(state.pending["card"])}}
           if state.pending is not None else {}),
    }
