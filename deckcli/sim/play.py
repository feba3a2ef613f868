"""One simulated game: its number and the run's seed decide everything in it.

:class:`Spec` is what any worker needs to play any game of a run (plain data, pickled to
processes and Dask workers); :func:`play` plays game ``n`` through ``Engine.apply`` and
answers a record (a dict). The game's deal comes from :func:`game_seed` of the run's seed and
the game's seat-swapped pair (one deck a player) or its number (a shared deck), each player's
choices from a generator of its own seeded the same way, so the record never depends on where
or in which order games run.
"""

from __future__ import annotations

import hashlib
import os
import random

#: a game that goes on this long is cut off and undecided, whatever --max-turns says
MAX_ACTIONS = 20_000


def game_seed(seed: int, n: int | str) -> int:
    """A 64-bit seed for item ``n`` (a game's number, or a name such as ``"final"``) of a run
    seeded ``seed``: the same on every machine."""
    digest = hashlib.sha256(f"deckcli-simulate:{seed}:{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Spec:
    """A run's games: the game, the decks, who plays what, the house rules, the bounds."""

    __slots__ = ("game", "seed", "decks", "seats", "labels", "policies", "house", "max_turns",
                 "save", "db_dirs", "pairs", "token")

    def __init__(self, game: str, seed: int, decks: dict, seats: list[str], labels: dict,
                 policies: dict, house: dict, max_turns: int, save: bool = False,
                 db_dirs: tuple = (), pairs: bool = True):
        self.game, self.seed, self.decks, self.seats = game, seed, decks, seats
        self.labels, self.policies, self.house = labels, policies, house
        self.max_turns, self.save, self.db_dirs, self.pairs = max_turns, save, db_dirs, pairs
        #: the same in every copy of this spec (pickled to a worker chunk by chunk), so a
        #: worker knows the run again and keeps what it worked out (see :func:`_worker`)
        self.token = os.urandom(8).hex()

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state):
        for k, v in state.items():
            setattr(self, k, v)


class _Worker:
    """What a process keeps between games of one spec: the engine, policies, house rules."""

    def __init__(self, spec: Spec):
        from deckcli.games import get
        from deckcli.sim.policies import make

        self.game = get(spec.game)
        self.engine = self.game.engine()
        self.house = self.game.house_rules(spec.house, simulate=True)
        self.policies = {seat: make(self.game, name) for seat, name in spec.policies.items()}
        self.index = None
        if self.engine.uses_index:
            from deckcli.cards import open_index

            self.index = open_index(list(spec.db_dirs))


_WORKERS: dict[str, tuple[Spec, _Worker]] = {}


def _worker(spec: Spec) -> tuple[Spec, _Worker]:
    """The run's first copy of ``spec`` this process met, and its worker. A pool sends the
    spec again with every chunk of games; its decks then arrive as new card objects, and the
    books, policies' tables and greedy's kept choices, which are kept by book, would be worked
    out again each chunk. The first copy's cards keep one book a run."""
    found = _WORKERS.get(spec.token)
    if found is None:
        _WORKERS.clear()
        found = _WORKERS[spec.token] = (spec, _Worker(spec))
    return found


def deal(spec: Spec, n: int) -> tuple[int, str, dict]:
    """Game ``n``'s deal: (its seed, the first player, seat -> deck, or the decks as given
    when the spec names no labels: ``{"shared": deck}``).
    With seat-swapped pairs (``spec.pairs``), games 2k and 2k+1 share a deal and swap who
    goes first."""
    decks = ({seat: spec.decks[spec.labels[seat]] for seat in spec.seats} if spec.labels
             else dict(spec.decks))
    if spec.pairs:
        return game_seed(spec.seed, n // 2), spec.seats[n % 2], decks
    return game_seed(spec.seed, n), spec.seats[0], decks


def play(spec: Spec, n: int) -> dict:
    """Play game ``n`` of the run and say how it went."""
    spec, w = _worker(spec)
    engine = w.engine
    deal_seed, first, decks = deal(spec, n)
    state = engine.new_game(decks, seats=list(spec.seats), seed=deal_seed, house_rules=w.house,
                            first=first, index=w.index, record=spec.save)
    engine.quiet(state)  # the record reads no ruling text
    #: seat -> (its policy, its generator, the seat's view made once for the game where the
    #: engine's views follow the game)
    live = engine.live_views
    seats = {seat: (w.policies[seat], random.Random(f"deckcli-simulate:{spec.seed}:{n}:{seat}"),
                    engine.view(state, seat) if live else None)
             for seat in spec.seats}
    gaps: set[str] = {g.rule for g in engine.deal_gaps(state)}
    entries: list = []
    actions = 0
    decided = True
    # the loop runs once an action of every game: the engine's methods are looked up once
    is_over, turns, choices, apply = engine.is_over, engine.turns, engine.choices, engine.apply
    view, save, max_turns = engine.view, spec.save, spec.max_turns
    played = None  # the turns played, when the game is cut off at --max-turns
    while not is_over(state):
        turn = turns(state)
        if turn > max_turns or actions >= MAX_ACTIONS:
            decided = False
            if turn > max_turns:  # turn max_turns + 1 has only begun: not played
                played = max_turns
            break
        mover, legal = choices(state)
        if not legal:
            decided = False  # nothing the rules allow: a position the rules cannot finish
            break
        if len(legal) == 1 or mover is None:
            action = legal[0]
        else:
            policy, rng, seen = seats[mover]
            action = policy.choose(engine, seen or view(state, mover), legal, rng)
        if save:
            entries.append(engine.log_entry(state, action))
        out = apply(state, action)
        if out.violations:  # the engine refused an action it listed as legal: a bug, loudly
            raise RuntimeError(f"game {n}: {engine.action_text(state, action)} was listed as "
                               f"legal and refused: {out.violations[0].message}")
        actions += 1
        if out.gaps:
            gaps.update(g.gap.rule for g in out.gaps)
        if out.stop is not None:
            decided = False
            break
    winner = engine.winner(state) if decided else None
    record = {"n": n, "winner": spec.labels.get(winner, winner), "first": spec.labels.get(
        first, first), "turns": engine.turns(state) if played is None else played,
        "actions": actions, "gaps": sorted(gaps), "undecided": winner is None}
    record.update(engine.facts(state))
    if spec.save:
        record["log"] = engine.game_log(state, entries, house_rules=w.house, seed=deal_seed)
    return record


def play_many(spec: Spec, numbers) -> list[dict]:
    """Games ``numbers`` of the run, in that order (what a worker is sent). A game to save
    comes with its log as the YAML text it is saved as (UTF-8 bytes), written out here, in
    the worker, rather than by the process that writes the files."""
    records = [play(spec, n) for n in numbers]
    if spec.save:
        from deckcli.sim.logs import log_text

        for r in records:
            r["log"] = log_text(r["log"]).encode("utf-8")
    return records
