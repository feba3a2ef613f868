"""toy-duel's engine: the whole play side of the game interface, in one module.

A state is a :class:`Duel`; an action is ``(player, verb, card id)`` with verb ``lead`` or
``answer``. A log is ``{game, seed, first, decks: {player: [card refs]}, house_rules,
actions: ["p1 lead TOY 5", ...]}``.
"""

from __future__ import annotations

import random

from deckcli.errors import DeckcliError
from deckcli.games.interface import Engine, Illegal, Outcome, Quiet, Step
from toygame import GAME, HAND, TRICKS_TO_WIN


class Duel:
    def __init__(self, book, decks: dict[str, list[int]], seats, first, rng, house):
        self.book, self.house, self.rng = book, house, rng
        self.order = list(seats)
        self.decks = {p: list(decks[p]) for p in seats}
        self.hands: dict[str, list[int]] = {p: [] for p in seats}
        self.tricks = {p: 0 for p in seats}
        self.leader, self.led, self.winner, self.turn = first, None, None, 1
        self.Outcome = Outcome
        self.dealt = None

    def copy(self) -> Duel:
        other = object.__new__(Duel)
        other.__dict__.update(self.__dict__)
        other.decks = {p: list(d) for p, d in self.decks.items()}
        other.hands = {p: list(h) for p, h in self.hands.items()}
        other.tricks = dict(self.tricks)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    def other(self, pid: str) -> str:
        return next(p for p in self.order if p != pid)

    def mover(self) -> str | None:
        if self.winner is not None:
            return None
        return self.leader if self.led is None else self.other(self.leader)

    def draw(self, pid: str) -> None:
        if self.decks[pid]:
            self.hands[pid].append(self.decks[pid].pop())


def deal(book, decks, seats, first, seed, house) -> Duel:
    rng = random.Random(seed)
    shuffled = {}
    for p in seats:
        cards = list(decks[p])
        rng.shuffle(cards)
        shuffled[p] = cards
    duel = Duel(book, shuffled, seats, first or seats[0], rng, house)
    for p in seats:
        for _ in range(HAND):
            duel.draw(p)
    return duel


def act(duel: Duel, action) -> Outcome:
    player, verb, card = action
    out = duel.Outcome(player, verb)
    try:
        if duel.winner is not None:
            raise Illegal("TD-1.1", f"the game is over: {duel.winner} won")
        if player not in duel.hands:
            raise Illegal("TD-2.1", f"{player} is not a player of this game")
        if player != duel.mover():
            rule = "TD-3.1" if duel.led is None else "TD-3.2"
            raise Illegal(rule, f"it is {duel.mover()}'s card to play, not {player}'s")
        want = "lead" if duel.led is None else "answer"
        if verb != want:
            raise Illegal("TD-3.1" if want == "lead" else "TD-3.2", f"{player} must {want}")
        if card not in duel.hands[player]:
            raise Illegal("TD-3.1", f"{player} does not hold that card")
        duel.hands[player].remove(card)
        if verb == "lead":
            duel.led = card
            out.cite("TD-3.1", "{} leads {}", player, duel.book[card].ref)
            _must_answer(duel, out)
            return out
        led_value = duel.book[duel.led].stats["value"]
        value = duel.book[card].stats["value"]
        leader = duel.leader
        if value == led_value:
            how = duel.house.meet("TD-G.1", f"both played {value}", out.gaps)
            taker = leader if how == "leader" else player
        else:
            taker = leader if led_value > value else player
        duel.tricks[taker] += 1
        out.cite("TD-3.3", "{} takes the trick ({} v {})", taker, led_value, value)
        duel.led, duel.leader = None, taker
        duel.turn += 1
        if duel.tricks[taker] >= TRICKS_TO_WIN:
            duel.winner = taker
            out.cite("TD-1.1", "{} has three tricks and wins", taker)
            return out
        for p in duel.order:
            duel.draw(p)
        if not duel.hands[taker]:
            duel.winner = duel.other(taker)
            out.cite("TD-1.1", "{} must lead and holds no card: {} wins", taker, duel.winner)
    except Illegal as exc:
        out.violate(exc.rule, exc.message)
    return out


def _must_answer(duel: Duel, out) -> None:
    answer = duel.other(duel.leader)
    if not duel.hands[answer]:
        duel.winner = duel.leader
        out.cite("TD-1.1", "{} must answer and holds no card: {} wins", answer, duel.leader)


class View:
    """What one player may know: the open table, their hand, the counts, and the cards they
    cannot see (decklists are open) as a sorted multiset."""

    def __init__(self, duel: Duel, player: str):
        self.player, self.book, self._d = player, duel.book, duel

    def public(self) -> dict:
        d = self._d
        return {"player": self.player, "hand": tuple(sorted(d.hands[self.player])),
                "led": d.led, "leader": d.leader, "tricks": dict(d.tricks),
                "hand_sizes": {p: len(h) for p, h in d.hands.items()},
                "deck_sizes": {p: len(k) for p, k in d.decks.items()}, "unseen": self.unseen}

    @property
    def hand(self):
        return tuple(self._d.hands[self.player])

    @property
    def led(self):
        return self._d.led

    @property
    def unseen(self) -> dict:
        d, me = self._d, self.player
        return {p: tuple(sorted(d.decks[p] if p == me else d.hands[p] + d.decks[p]))
                for p in d.order}


class ToyEngine(Engine):
    game = GAME

    def new_game(self, decks, *, seats=None, seed, house_rules, first=None, index=None,
                 record=False):
        seats = list(seats or decks)
        book = {c.id: c for p in seats for c in decks[p]}
        duel = deal(book, {p: [c.id for c in decks[p]] for p in seats}, seats, first, seed,
                    house_rules)
        if record:
            duel.dealt = {"seed": seed, "first": duel.leader,
                          "decks": {p: [c.ref for c in decks[p]] for p in seats}}
        return duel

    def choices(self, state: Duel):
        pid = state.mover()
        if pid is None:
            return None, []
        verb = "lead" if state.led is None else "answer"
        return pid, [(pid, verb, c) for c in sorted(set(state.hands[pid]))]

    def apply(self, state: Duel, action) -> Outcome:
        return act(state, action)

    def quiet(self, state: Duel) -> None:
        state.Outcome = Quiet

    def clone(self, state: Duel) -> Duel:
        return state.copy()

    def is_over(self, state: Duel) -> bool:
        return state.winner is not None

    def winner(self, state: Duel):
        return state.winner

    def stopped(self, state: Duel):
        return None

    def players(self, state: Duel) -> list[str]:
        return list(state.order)

    def view(self, state: Duel, player: str) -> View:
        return View(state, player)

    def sample(self, view: View, rng) -> Duel:
        d = view._d.copy()
        unseen = view.unseen
        for p in d.order:
            hidden = list(unseen[p])
            rng.shuffle(hidden)
            if p == view.player:
                d.decks[p] = hidden
            else:
                size = len(d.hands[p])
                d.hands[p], d.decks[p] = hidden[:size], hidden[size:]
        d.rng = random.Random(rng.getrandbits(64))
        d.Outcome = Quiet
        return d

    def log_entry(self, state: Duel, action) -> str:
        return self.action_text(state, action)

    def action_text(self, state: Duel, action) -> str:
        player, verb, card = action
        return f"{player} {verb} {state.book[card].ref}"

    def game_log(self, state: Duel, entries, *, house_rules, seed) -> dict:
        return {"game": GAME.id, **state.dealt,
                "house_rules": {h["key"]: h["value"] for h in house_rules.used()},
                "actions": list(entries)}

    def turns(self, state: Duel) -> int:
        return state.turn

    def summary(self, state: Duel) -> dict:
        return {"turn": state.turn, "winner": state.winner, "tricks": dict(state.tricks),
                "players": {p: {"hand": len(state.hands[p]), "deck": len(state.decks[p])}
                            for p in state.order}}

    def read_log(self, log, path, house_rules, index):
        from deckcli.decks.refs import parse_ref

        decks = log.get("decks")
        if not isinstance(decks, dict) or len(decks) != 2:
            raise DeckcliError("a toy-duel log names two players' decks", path=path)
        memo: dict[str, object] = {}

        def card(ref):
            if ref not in memo:
                memo[ref] = GAME.play_card(parse_ref(index, GAME.id, str(ref))[0])
            return memo[ref]
        cards = {str(p): [card(r) for r in refs] for p, refs in decks.items()}
        house = GAME.house_rules({**(log.get("house_rules") or {}), **house_rules})
        seats = list(cards)
        duel = self.new_game(cards, seats=seats, seed=int(log.get("seed", 0)),
                             house_rules=house, first=log.get("first"))
        by_ref = {c.ref: c.id for cs in cards.values() for c in cs}
        steps = []
        for i, text in enumerate(log.get("actions") or []):
            player, verb, ref = (str(text).split(" ", 2) + ["", ""])[:3]
            cid = by_ref.get(card(ref).ref) if ref else None
            steps.append(Step(i + 1, None, str(text), player, verb, (player, verb, cid)))
        return duel, steps, None

    def tried(self, state: Duel, player=None):
        found = []
        for pid in state.order:
            for verb in ("lead", "answer"):
                for c in sorted(set(state.hands[pid])):
                    out = act(state.copy(), (pid, verb, c))
                    if out.ok:
                        found.append(((pid, verb, c), out))
        return found

    def describe(self, final: dict) -> str:
        return f"turn {final['turn']}, tricks {final['tricks']}" + (
            f", winner {final['winner']}" if final["winner"] else "")

    def position(self, state: Duel) -> dict:
        return {"turn": state.turn, "active": state.mover()}


ENGINE = ToyEngine()
