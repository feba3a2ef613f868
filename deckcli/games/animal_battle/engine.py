"""The animal-battle referee engine: a game state and the actions players take on it.

``Game.act(player, action, arg, stat=...)`` checks one action against the rules and, when it is
legal, applies it. The answer (:class:`Outcome`) names every rule it applied; an illegal action
is answered with a violation (rule id and facts) and changes nothing; a situation the rules
leave open either follows a declared house ruling or stops the game until a judge rules
(``Outcome.stop``). Nothing here raises for illegal play.

Actions (the log verbs): setup ``reveal_challenger``, ``reveal_defender``, ``place``, ``target``,
``start``; turn ``draw``, ``place``, ``challenge``, ``target``, ``defend``, ``stat``,
``promote``, ``decline``, ``play``, ``choose`` (what a played card's text leaves to its player,
:mod:`.cardtext`), ``end_turn``. Shuffles use ``random.Random(seed)``.
"""

from __future__ import annotations

import random

from deckcli.games import interface
from deckcli.games.animal_battle import (
    GAME,
    OPENING_HAND,
    POOL_SIZE,
    REFILL_TO,
    cardtext,
    chain,
    effects,
)
from deckcli.games.animal_battle.book import facts
from deckcli.games.animal_battle.state import RANK, Player, State, summary
from deckcli.games.animal_battle.turn import TurnActions
from deckcli.games.base import CardInfo
from deckcli.games.house import HouseRules, JudgeNeeded
from deckcli.games.interface import Illegal, Outcome, Quiet, Stop

ACTIONS = ("reveal_challenger", "reveal_defender", "start", "draw", "place", "ready",
           "challenge", "target", "defend", "stat", "promote", "decline", "play", "choose",
           "end_turn")
_DRAW = RANK["draw"]
#: actions whose argument is a card, a player, a statistic or nothing
CARD_ACTIONS = {"reveal_challenger", "reveal_defender", "place", "challenge", "defend",
                "promote", "play", "choose"}


class Match(TurnActions):
    """One game being played. Setup actions live here; turn actions in :mod:`.turn`."""

    #: what :meth:`act` answers with (:meth:`hush` makes it a :class:`Quiet` one)
    Outcome = Outcome
    #: the decks as dealt from, for a game log (``Engine.new_game(record=True)``)
    dealt: dict | None = None
    #: what the deal did (None for a game made up from a view: :func:`.view.sample`)
    setup: interface.Outcome | None

    def __init__(self, book: dict[int, CardInfo], decks: dict[str, list[int]], *,
                 seed: int | None = None, first: str | None = None,
                 house_rules: HouseRules | dict | None = None, deal: bool = True):
        """Deal a game: shuffle (when seeded), opening hands of six (AB-3.1), first player."""
        self.book = book
        self.facts = facts(book)  # what play asks of the book at every step (:mod:`.book`)
        if not isinstance(house_rules, HouseRules):
            house_rules = GAME.house_rules(house_rules)
        self.house = house_rules
        self.horizon = None  # "attack": stop at the end of the attack (referee attack)
        rng = random.Random(seed) if seed is not None else None
        players = {}
        for pid, cards in decks.items():
            deck = list(cards)
            if rng is not None:
                rng.shuffle(deck)
            players[pid] = Player(pid, deck[::-1])
        order = list(decks)
        if first is None:
            first = rng.choice(order) if rng is not None else order[0]  # AB-3.2
        self.s = State(players, order, first, defenders={p: None for p in order})
        self.setup = Outcome(None, "setup")
        if not deal:
            return
        for p in players.values():
            for _ in range(min(OPENING_HAND, len(p.deck))):
                p.hand.append(p.deck.pop())
        self.setup.cite("AB-3.1", "each player draws an opening hand of six")
        self.setup.cite("AB-3.2", "{} takes the first turn", first)
        if not self._has_animal(first, hand=True):
            self.lose(self.setup, first, f"{first}'s opening hand holds no Animal to reveal as "
                                         "the starting Challenger (AB-3.3, AB-3.6)")

    @classmethod
    def position(cls, book, *, players=("p1", "p2"), active="p1", house_rules=None, **layout):
        """A game already in turn play, for rulings on a position (``referee attack``, tests).

        ``layout`` keys: challenger (card id of the active player's Challenger), defenders
        ({pid: id}), hands/pools/decks ({pid: [ids]}), phase (default "establish"), turn.
        """
        g = cls(book, {p: [] for p in players}, first=active, house_rules=house_rules,
                deal=False)
        s = g.s
        s.phase = layout.get("phase", "establish")
        for p in s.players.values():
            p.hand = list(layout.get("hands", {}).get(p.id, []))
            p.pool = list(layout.get("pools", {}).get(p.id, []))
            p.deck = list(layout.get("decks", {}).get(p.id, []))[::-1]
        s.turn, s.active, s.drew = layout.get("turn", 2), active, s.phase != "draw"
        s.attacked = layout.get("attacked", s.phase == "end")
        s.challenger = layout.get("challenger")
        s.controller = active if s.challenger is not None else None
        s.defenders.update(layout.get("defenders", {}))
        if len(players) == 2:
            s.defending = next(p for p in players if p != active)
        return g

    def hush(self) -> None:
        """From now on keep no ruling text (:class:`~deckcli.games.base.Quiet`)."""
        self.Outcome = Quiet

    # -- the one entry point -------------------------------------------------------------------
    def act(self, player: str | None, action: str, arg=None, stat: str | None = None
            ) -> interface.Outcome:  # (the class attribute Outcome is a class, not a type)
        return self.apply((player, action, arg, stat))

    def apply(self, step: tuple) -> interface.Outcome:
        """:meth:`act` of an action as the simulator holds it, ``(player, verb, arg, stat)``
        (one call a step of every game)."""
        player, action, arg, stat = step
        out = self.Outcome(player, action)
        s = self.s
        try:
            if s.waiting is not None:
                out.stop = s.waiting
                raise Illegal(s.waiting.rule, "the game waits for a judge's ruling: "
                                              + s.waiting.ruling)
            if s.winner is not None:
                raise Illegal("AB-1.1", f"the game is over: {s.winner} won")
            if player is not None:
                who = s.players.get(player)
                if who is None:
                    raise Illegal("AB-1.2", f"{player} is not a player in this game")
                if who.out:
                    raise Illegal("AB-1.1", f"{player} has lost and takes no more actions")
            handler = _HANDLERS.get(action)
            if handler is None:
                raise ValueError(f"unknown action {action!r}")  # the log reader checks verbs
            if s.pending is not None and action != "choose":
                raise Illegal("AB-6.5", f"{s.pending['player']} first makes the choice "
                                        f"{self.ref(s.pending['card'])} leaves to them "
                                        "(choose CARD)")
            handler(self, out, player, arg, stat)
        except Illegal as exc:
            out.violate(exc.rule, exc.message)
        except JudgeNeeded as exc:
            out.stop = s.waiting = Stop.at_gap(exc.record)
        return out

    def clone(self) -> Match:
        other = object.__new__(Match)
        other.book, other.house, other.setup, other.horizon = (self.book, self.house,
                                                               self.setup, self.horizon)
        other.facts, other.Outcome = self.facts, self.Outcome
        other.s = self.s.copy()
        return other

    def summary(self) -> dict:
        return summary(self.s, self.book)

    # -- helpers -----------------------------------------------------------------------------
    def ref(self, cid) -> str:
        return self.book[cid].ref

    def _has_animal(self, pid: str, *, hand=False, pool=False) -> bool:
        p, animals = self.s.players[pid], self.facts.animals
        return (hand and not animals.isdisjoint(p.hand)) or \
            (pool and not animals.isdisjoint(p.pool))

    def _active(self, player: str, rule: str, what: str) -> None:
        if self.s.phase == "setup":
            raise Illegal("AB-3.1", f"setup is not over ({what} belongs to a turn; 'start' ends "
                                    "setup)")
        if player != self.s.active:
            raise Illegal(rule, f"it is {self.s.active}'s turn; {player} cannot {what}")

    def _in_hand(self, pid: str, cid: int, rule: str) -> None:
        if cid not in self.s.players[pid].hand:
            raise Illegal(rule, f"{self.ref(cid)} is not in {pid}'s hand")

    def _forward(self, target: str) -> None:
        """Check the turn may move on to ``target`` (never back; the draw comes first)."""
        s = self.s
        if s.phase == "draw" and RANK[target] > _DRAW:
            raise Illegal("AB-4.1", f"{s.active} must draw before the {target} step")

    def _pool_limit(self, pid: str) -> tuple[int, dict | None]:
        if not self.s.overrides:  # no card text in force: the general rule
            return POOL_SIZE, None
        entry = effects.find(self.s, "pool_size", pid)
        return (int(entry["value"]), entry) if entry else (POOL_SIZE, None)

    def _source(self, out, pid: str, cid: int, role: str) -> str:
        """Where a new Challenger or Defender comes from: the Pool, or the hand (AB-G.7)."""
        p = self.s.players[pid]
        if not self.book[cid].animal:
            raise Illegal("AB-4.3", f"{self.ref(cid)} is not an Animal")
        if cid in p.pool:
            return "pool"
        if cid in p.hand:
            how = self.house.meet("AB-G.7", f"{pid} takes {self.ref(cid)} from the hand as {role}",
                                  out.gaps)
            if how == "pool_or_hand":
                return "hand"
            raise Illegal("AB-G.7", f"house rule new_animal_from=pool: the {role} comes from "
                                    f"{pid}'s Pool, and {self.ref(cid)} is in the hand")
        raise Illegal("AB-4.3", f"{self.ref(cid)} is not in {pid}'s Pool")

    def _take(self, pid: str, cid: int, where: str) -> None:
        p = self.s.players[pid]
        (p.pool if where == "pool" else p.hand).remove(cid)
        if where == "pool":
            cardtext.left_pool(self.s, pid, cid)

    def defending_player(self, out) -> str | None:
        """The opponent who defends against the active player (AB-4.3; AB-G.5 beyond two)."""
        s = self.s
        active, players = s.active, s.players
        others = [p for p in s.order if p != active and not players[p].out]  # in seat order
        if len(others) == 1:
            return others[0]
        how = self.house.meet("AB-G.5", f"{len(others) + 1} players: which opponent of "
                                        f"{s.active} defends", out.gaps)
        if how == "next":  # (in setup, only a named target is asked for before a Challenger)
            assert active is not None
            return s.next_after(active)
        return s.target

    # -- requirements (AB-1.1) ----------------------------------------------------------------
    def lose(self, out, pid: str, why: str) -> None:
        s = self.s
        was_turn = s.active == pid and s.phase not in ("end", "setup")
        s.players[pid].out = True
        out.cite("AB-1.1", "{} loses: {}", pid, why)
        left = s.in_game()
        if len(left) == 1:
            s.winner, s.phase = left[0], "over"
            out.cite("AB-1.1", "{} wins", left[0])
            return
        self._play_on_without(out, pid, was_turn)

    def _play_on_without(self, out, pid: str, was_turn: bool) -> None:
        """More than two players: the others play on (AB-1.1); the table closes the gap."""
        s = self.s
        if s.controller == pid:
            if s.challenger is not None:  # (always: a controller controls a Challenger)
                s.players[pid].discard.append(s.challenger)
            s.challenger = s.controller = None
        defender = s.defenders.get(pid)
        if defender is not None:
            s.players[pid].discard.append(defender)
            s.defenders[pid] = None
        if s.phase == "setup":
            if s.first == pid and s.challenger is None:
                s.first = s.next_after(pid)
                if not self._has_animal(s.first, hand=True):
                    self.lose(out, s.first, "the opening hand holds no Animal to reveal as the "
                                            "starting Challenger (AB-3.3, AB-3.6)")
            elif s.defending == pid:
                s.target = None
                s.defending = self.defending_player(out)
                if s.defending is not None:
                    self._setup_defender_check(out)
            return
        if was_turn:
            chain.end_attack(self, out, f"{pid} is out: the turn ends")
            self.begin_turn(out, s.next_after(pid))
        elif s.defending == pid:
            s.target = None
            if s.used or s.phase == "promote":
                s.defending = None
                chain.end_attack(self, out, f"{pid} is out: the attack ends")
            else:
                s.defending = self.defending_player(out) if s.controller == s.active else None
                self.need_defender(out)

    def need_challenger(self, out) -> None:
        s = self.s
        active = s.active
        assert active is not None  # asked in a turn
        if s.challenger is None and not self._has_animal(active, hand=True, pool=True):
            self.lose(out, active, "a new Challenger is required and there is no Animal in "
                                     "the Pool or the hand (AB-4.3)")

    def need_defender(self, out) -> None:
        s = self.s
        dp = s.defending
        if dp is None or s.defenders[dp] is not None or self._has_animal(dp, pool=True):
            return
        if self._has_animal(dp, hand=True):
            how = self.house.meet("AB-G.7", f"{dp} must select a Defender and has Animals "
                                            "only in the hand", out.gaps)
            if how == "pool_or_hand":
                return
        self.lose(out, dp, "a Defender is required and there is none to select (AB-4.3)")

    def begin_turn(self, out, pid: str) -> None:
        s = self.s
        target = s.target if s.turn == 0 else None  # named at setup (AB-G.5 attacker_choice)
        s.turn += 1
        s.active, s.phase, s.drew, s.attacked = pid, "draw", False, False
        s.used, s.original, s.defending, s.target = [], True, None, target
        if s.overrides:
            effects.expire(s, "turn", "sequence")
        out.note("turn {} begins: {}", s.turn, pid)
        if s.turn == 1:
            s.phase, s.drew = "pool", True
            out.cite("AB-3.6", "{} is the first player: no draw on the first turn, but an attack",
                     pid)
        if s.controller == pid:
            s.defending = self.defending_player(out)
            self.need_defender(out)
        if s.phase == "pool" and s.winner is None:
            self.need_challenger(out)

    def draw_cards(self, out, pid: str, n: int) -> int:
        p = self.s.players[pid]
        got = 0
        for _ in range(n):
            if not p.deck:
                how = self.house.meet("AB-G.6", f"{pid} must draw from an empty deck",
                                      out.gaps)
                if how == "lose":
                    self.lose(out, pid, "drew from an empty deck (house rule "
                                        "empty_deck_draw=lose, AB-G.6)")
                break
            p.hand.append(p.deck.pop())
            got += 1
            seen = self.s.seen_top
            if seen and seen.get(pid):  # the top card they had seen (cardtext: look_at_deck)
                self.s.seen_top = {**seen, pid: seen[pid] - 1}
        return got

    def refill(self, out, pid: str) -> None:
        hand = self.s.players[pid].hand
        if len(hand) >= REFILL_TO:
            out.cite("AB-4.7", "{} holds {} cards: no refill, and no hand limit", pid, len(hand))
            return
        got = self.draw_cards(out, pid, REFILL_TO - len(hand))
        out.cite("AB-4.6", "{}'s turn ends: {} refills with {} card(s) to {}",
                 pid, pid, got, len(hand))

    # -- setup (AB-3.x) ---------------------------------------------------------------------
    def _setup_only(self, what: str, rule: str) -> None:
        if self.s.phase != "setup":
            raise Illegal(rule, f"setup is over; {what} happens only during setup")

    def _reveal_challenger(self, out, p, cid, stat):
        s = self.s
        self._setup_only("revealing the starting Challenger", "AB-3.3")
        if s.challenger is not None:
            raise Illegal("AB-3.3", f"the starting Challenger is already revealed "
                                    f"({self.ref(s.challenger)})")
        if p != s.first:
            raise Illegal("AB-3.6", f"the starting Challenger is the first player's ({s.first}): "
                                    "the first player attacks on the first turn (AB-3.6), with "
                                    "the Challenger revealed at setup (AB-3.3)")
        self._in_hand(p, cid, "AB-3.3")
        if not self.book[cid].animal:
            raise Illegal("AB-3.3", f"{self.ref(cid)} is not an Animal")
        s.players[p].hand.remove(cid)
        s.challenger, s.controller, s.active = cid, p, p
        out.cite("AB-3.3", "{} reveals {} as the starting Challenger", p, self.ref(cid))
        s.defending = self.defending_player(out)
        if s.defending is not None:
            self._setup_defender_check(out)

    def _setup_defender_check(self, out):
        dp = self.s.defending
        assert dp is not None  # asked once the defending player is settled
        if not self._has_animal(dp, hand=True):
            self.lose(out, dp, "the opening hand holds no Animal to reveal as the starting "
                               "Defender (AB-3.4)")

    def _reveal_defender(self, out, p, cid, stat):
        s = self.s
        self._setup_only("revealing the starting Defender", "AB-3.4")
        if s.challenger is None:
            raise Illegal("AB-3.4", "the starting Challenger is revealed first")
        if s.defending is None:
            raise Illegal("AB-G.5", f"{s.first} has not named the defending opponent (target)")
        if any(d is not None for d in s.defenders.values()):
            raise Illegal("AB-3.4", "the starting Defender is already revealed")
        if p != s.defending:
            raise Illegal("AB-4.3", f"{s.defending} reveals the starting Defender, not {p}: "
                                    "the opponent selects the Defender")
        self._in_hand(p, cid, "AB-3.4")
        if not self.book[cid].animal:
            raise Illegal("AB-3.4", f"{self.ref(cid)} is not an Animal")
        s.players[p].hand.remove(cid)
        s.defenders[p] = cid
        out.cite("AB-3.4", "{} reveals {} as the starting Defender", p, self.ref(cid))

    def _fill(self, out, p, cid):
        s = self.s
        if s.challenger is None or not any(d is not None for d in s.defenders.values()):
            raise Illegal("AB-3.5", "Pools are filled after the starting Challenger and "
                                    "Defender are revealed (AB-3.3, AB-3.4)")
        self._in_hand(p, cid, "AB-3.5")
        if not self.book[cid].animal:
            raise Illegal("AB-3.5", f"{self.ref(cid)} is not an Animal; only Animals go into "
                                    "the Pool")
        pool = s.players[p].pool
        if len(pool) >= POOL_SIZE:
            raise Illegal("AB-3.5", f"{p}'s Pool already holds {len(pool)} Animals "
                                    f"(limit {POOL_SIZE})")
        s.players[p].hand.remove(cid)
        pool.append(cid)
        out.cite("AB-3.5", "{} puts {} into the Pool ({})", p, self.ref(cid), len(pool))

    def _start(self, out, p, arg, stat):
        s = self.s
        self._setup_only("'start'", "AB-3.1")
        if s.challenger is None:
            raise Illegal("AB-3.3", "the starting Challenger has not been revealed")
        if not any(d is not None for d in s.defenders.values()):
            raise Illegal("AB-3.4", "the starting Defender has not been revealed")
        out.cite("AB-3.5", "setup is complete")
        self.begin_turn(out, s.first)


#: verb -> the method that judges and applies it (looked up once, not per action)
_HANDLERS = {verb: getattr(Match, "_" + verb) for verb in ACTIONS}
