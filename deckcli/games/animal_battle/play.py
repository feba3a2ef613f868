"""animal-battle behind the game interface (:class:`deckcli.games.base.Engine`).

A state is a :class:`~.engine.Match`; an action is a tuple ``(player, verb, arg, stat)`` as
``Match.act`` takes it (``arg``: a card id, a player id, a statistic or None). The referee
driver (:mod:`deckcli.games.replay`) and the simulator play through :meth:`apply`.
"""

from __future__ import annotations

from deckcli.games.animal_battle import BATTLE_STATS, GAME, moves
from deckcli.games.animal_battle.engine import Match
from deckcli.games.animal_battle.view import View, sample
from deckcli.games.base import CardInfo
from deckcli.games.house import HouseRules
from deckcli.games.interface import Engine, Stop


class AnimalBattleEngine(Engine):
    game = GAME
    live_views = True  # a View reads the open table from the game as it stands

    def __init__(self):
        #: (player id, cards) of each deck -> (book, card ids a player): see :meth:`new_game`
        self._books: dict[tuple, tuple] = {}

    def new_game(self, decks, *, seats=None, seed: int, house_rules: HouseRules,
                 first: str | None = None, index=None, record: bool = False) -> Match:
        """``decks``: player id -> list of :class:`~deckcli.games.base.CardInfo`, in seat
        order (``seats``, where given, names that order).

        The same decks (the same cards, in the same order) give the same book, one object:
        a simulation deals thousands of games from one pair of decks, and what is worked out
        once a book (the Animals, the cards whose text acts, the policies' strengths and pair
        tables) is then worked out once a run, not once a game."""
        if seats is not None:
            decks = {pid: decks[pid] for pid in seats}
        key = tuple((pid, tuple(cards)) for pid, cards in decks.items())
        found = self._books.get(key)
        if found is None:
            book: dict[int, CardInfo] = {}
            ids: dict[str, list[int]] = {}
            for pid, cards in decks.items():
                for c in cards:
                    book.setdefault(c.id, c)
                ids[pid] = [c.id for c in cards]
            if len(self._books) >= 8:
                self._books.clear()
            found = self._books[key] = (book, ids)
        book, ids = found
        match = Match(book, ids, seed=seed, first=first, house_rules=house_rules)
        if record:  # the decks as given: the log's seed deals them again the same way
            match.dealt = {pid: [c.ref for c in cards] for pid, cards in decks.items()}
        return match

    #: ``apply(state, action)``: :meth:`Match.apply`, called as it is (a step of every game).
    #: mypy checks a staticmethod assigned in a class body against the base class's method
    #: before it resolves the descriptor (python/mypy#5530), so it calls this one and the three
    #: below incompatible; they are only ever called on the engine, as the interface's are.
    apply = staticmethod(Match.apply)  # type: ignore[assignment]  # a staticmethod, see above

    def quiet(self, state: Match) -> None:
        state.hush()

    #: the legal actions of the player to move, from the state (:mod:`.moves`); asked at
    #: every step of a simulation, so the engine hands the functions over as they are
    legal_actions = staticmethod(moves.legal_actions)  # type: ignore[assignment]  # (as apply)
    choices = staticmethod(moves.choices)  # type: ignore[assignment]  # (as apply)
    to_move = staticmethod(moves.to_move)  # type: ignore[assignment]  # (as apply)

    def tried(self, state: Match, player: str | None = None) -> list[tuple]:
        """(action, outcome on a copy) for every legal next action."""
        s, book = state.s, state.book
        found: list[tuple] = []
        for pid in s.in_game() if player is None else [player]:
            p = s.players[pid]
            animals = sorted({c for c in p.hand + p.pool if book[c].animal})
            tries: list[tuple]
            tries = [("draw", None, None), ("decline", None, None), ("end_turn", None, None),
                     ("ready", None, None)]
            tries += [(v, c, None) for v in ("reveal_challenger", "reveal_defender", "place",
                                             "challenge", "defend", "promote")
                      for c in animals]
            tries += [("stat", st, None) for st in BATTLE_STATS]
            if state.names_opponent(pid):  # one player's: each further player costs the same
                tries += [("target", o, None) for o in s.order if o != pid]
            if s.pending is not None:  # whatever the player could name
                tries += [("choose", c, None) for c in sorted(set(p.deck + p.pool))]
            for c in sorted({c for c in p.hand if book[c].kind == "action"}):
                tries.append(("play", c, None))
                if any(o.get("effect") == "reuse_statistic" for o in book[c].overrides):
                    tries += [("play", c, st) for st in dict.fromkeys(s.used)]
            for verb, arg, stat in tries:
                action = (pid, verb, arg, stat)
                out = state.clone().act(*action)
                if out.ok:
                    found.append((action, out))
                    if out.stop is not None and out.stop.gap:
                        out.gaps += _beyond(state, action, out.stop.record, depth=3)
        if s.phase == "setup" and player is None:
            out = state.clone().act(None, "start")
            if out.ok:
                found.append(((None, "start", None, None), out))
        return found

    def clone(self, state: Match) -> Match:
        return state.clone()

    def players(self, state: Match) -> list[str]:
        return list(state.s.order)

    def deal_gaps(self, state: Match) -> list:
        return list(state.setup.gaps) if state.setup is not None else []

    def is_over(self, state: Match) -> bool:
        return state.s.winner is not None

    def winner(self, state: Match) -> str | None:
        return state.s.winner

    def stopped(self, state: Match) -> Stop | None:
        return state.s.waiting

    def view(self, state: Match, player: str) -> View:
        """What ``player`` may know (:class:`.view.View`)."""
        return View(state, player)

    def sample(self, view: View, rng) -> Match:
        """A game consistent with ``view`` (hidden cards dealt from ``rng``)."""
        return sample(view, rng)

    def log_entry(self, state: Match, action) -> str:
        return self.action_text(state, action)

    def action_text(self, state: Match, action) -> str:
        player, verb, arg, stat = action
        shown = state.book[arg].ref if isinstance(arg, int) else arg
        text = " ".join(str(x) for x in (player, verb, shown) if x is not None)
        return text + (f" stat={stat}" if stat else "")

    def game_log(self, state: Match, entries: list, *, house_rules: HouseRules,
                 seed: int) -> dict:
        """A log that deals the same game (dealt with ``record``): each deck as it was given,
        which ``seed`` shuffles as the game did, the first player named, the house rules in
        force spelled out."""
        assert state.dealt is not None, "game_log needs a game dealt with record=True"
        players = {pid: {"deck": list(refs)} for pid, refs in state.dealt.items()}
        return {"game": GAME.id,
                "setup": {"seed": seed, "first": state.s.first, "players": players},
                "house_rules": {h["key"]: h["value"] for h in house_rules.used()},
                "actions": ["\n".join(entries)] if entries else []}

    def turns(self, state: Match) -> int:
        return state.s.turn

    def summary(self, state: Match) -> dict:
        return state.summary()

    # -- what the referee driver asks of a game ----------------------------------------------
    def read_log(self, log: dict, path: str | None, house_rules: dict, index):
        from deckcli.games.animal_battle import logfile

        match, steps = logfile.read(index, log, path, house_rules)
        return match, steps, match.setup

    def describe(self, final: dict) -> str:
        """The last line of ``referee check``: where the game stands."""
        if final["winner"]:
            return f"turn {final['turn']}, winner {final['winner']}"
        if final["phase"] == "setup":
            return f"turn {final['turn']}, in setup"
        return f"turn {final['turn']}, {final['active']} to act, phase {final['phase']}"

    def position(self, state: Match) -> dict:
        s = state.s
        return {"turn": s.turn, "phase": s.phase, "active": s.active}


def _beyond(state: Match, action, record, depth: int) -> list:
    """The gaps an action would meet after the one it stops at: tried once for each value the
    stopping gap may take (``referee legal`` names every gap an action would meet)."""
    if depth == 0:
        return []
    found: dict = {}
    for value in record.gap.values:
        ruled = state.clone()
        ruled.house = state.house.declaring(record.key, value)
        out = ruled.clone().act(*action)
        if not out.ok:
            continue
        found.update((g.rule, g) for g in out.gaps if g.rule != record.rule)
        if out.stop is not None and out.stop.gap:
            found.update((g.rule, g) for g in _beyond(ruled, action, out.stop.record,
                                                        depth - 1))
    return list(found.values())


ENGINE = AnimalBattleEngine()
