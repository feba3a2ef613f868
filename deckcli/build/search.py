"""A seeded search over the legal decks a binder can make, judged by simulated games.

A candidate is how many copies of each stock it takes. The search starts from the binder's
strongest Animals (:func:`strongest`) and climbs: each step swaps one to three copies for others
the binder holds (weaker cards out, stronger or untried ones in), plays the new deck against
every opponent with few games, and only a candidate that keeps up gets more (racing: 20, then
60, then 140 games an opponent). Every candidate plays the same games (the same seeds: common
random numbers), so two decks are compared on the same deals, not on luck. The effort is bounded
by ``games`` (games played in all) and ``budget`` (seconds).
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from deckcli.sim.play import Spec, game_seed

if TYPE_CHECKING:
    from deckcli.build.collection import Binder
    from deckcli.games.base import Game

LEVELS = (20, 60, 140)  # games an opponent at each stage of a race (even: whole pairs)


class Candidate:
    __slots__ = ("counts", "_key")

    def __init__(self, counts: dict[int, int]):
        self.counts = {i: n for i, n in counts.items() if n > 0}
        self._key = tuple(sorted(self.counts.items()))

    @property
    def key(self) -> tuple:
        return self._key

    def size(self) -> int:
        return sum(self.counts.values())

    def cards(self, binder) -> list:
        out = []
        for i, n in sorted(self.counts.items()):
            out.extend([binder.stock[i].info] * n)
        return out

    def lines(self, binder) -> list[str]:
        return [binder.stock[i].entry(n) for i, n in sorted(self.counts.items())]


class Judging:
    """What every judge of candidates holds: the game, the binder, how the games are played,
    where, the results kept, and how many games and seconds of play they took."""

    def __init__(self, game: Game, binder: Binder, *, policy: str, house, seed: int,
                 max_turns: int, where, progress=None, phase=None, db_dirs=()):
        self.game, self.binder = game, binder
        self.policy, self.house, self.seed = policy, house, seed
        self.max_turns, self.where, self.progress = max_turns, where, progress
        self.phase = phase  # phase(name, games): the run moves on to its next part
        self.db_dirs = tuple(db_dirs)
        self.results: dict[tuple, list[dict]] = {}
        self.games = 0
        self.playing = 0.0  # seconds spent playing games

    def stage(self, name: str, games: int | None) -> None:
        """Say that the run moves on to ``name``, which plays at most ``games`` games (what a
        progress line shows)."""
        if self.phase is not None:
            self.phase(name, games)

    def run(self, spec: Spec, numbers: list[int]) -> list[dict]:
        """Games ``numbers`` of ``spec``, counted and timed."""
        start = time.perf_counter()
        records = self.where.run(spec, numbers, self.progress)
        self.playing += time.perf_counter() - start
        self.games += len(numbers)
        return records


class Judge(Judging):
    """Plays candidates against the opponents and remembers every result: a candidate's games
    against an opponent are numbers 0, 1, 2, ... of one seed, so adding games extends them."""

    def __init__(self, game: Game, binder, opponents, **how):
        super().__init__(game, binder, **how)
        self.opponents = opponents

    def spec(self, cards, opponent, seed: int) -> Spec:
        return Spec(self.game.id, seed, {"a": cards, "b": opponent.cards}, ["p1", "p2"],
                    {"p1": "a", "p2": "b"}, {"p1": self.policy, "p2": self.policy},
                    dict(self.house.given), self.max_turns, db_dirs=self.db_dirs)

    def play(self, cards, opponent, seed: int, numbers: list[int]) -> list[dict]:
        return self.run(self.spec(cards, opponent, seed), numbers)

    def extend(self, cand: Candidate, n: int) -> None:
        """Play ``cand`` until it has ``n`` games against each opponent."""
        cards = None
        for k, opponent in enumerate(self.opponents):
            have = self.results.setdefault((cand.key, k), [])
            if len(have) < n:
                cards = cards or cand.cards(self.binder)
                have += self.play(cards, opponent, game_seed(self.seed, k),
                                  list(range(len(have), n)))

    def rate(self, cand: Candidate, n: int) -> float:
        """The mean, over the opponents, of the win rate in the first ``n`` games."""
        self.extend(cand, n)
        rates = []
        for k in range(len(self.opponents)):
            got = self.results[(cand.key, k)][:n]
            wins = sum(1 for r in got if r["winner"] == "a")
            decided = sum(1 for r in got if r["winner"] is not None)
            rates.append(wins / decided if decided else 0.5)
        return sum(rates) / len(rates)


def worth_of(binder: Binder) -> dict[int, float]:
    """Each stock's worth for a first deck, as its game rates its figures
    (``Game.card_worth``)."""
    from deckcli.games import get

    book = {s.info.id: s.info for s in binder.stock}
    strength = get(binder.game).card_worth(book)
    return {i: strength.get(s.info.id, 0.5) for i, s in enumerate(binder.stock)}


def strongest(binder: Binder) -> Candidate:
    """The binder's strongest cards up to the format's size (a baseline too)."""
    worth = worth_of(binder)
    order = sorted(range(len(binder.stock)), key=lambda i: (-worth[i], i))
    return _fill(binder, {}, order, binder.size)


def _fill(binder: Binder, counts: dict[int, int], order: list[int], size: int) -> Candidate:
    counts = dict(counts)
    used = used_copies(binder, counts)
    total = sum(counts.values())
    for i in order:
        s = binder.stock[i]
        while total < size and counts.get(i, 0) < s.owned and \
                used.get(s.identity, 0) < binder.limit(s.identity):
            counts[i] = counts.get(i, 0) + 1
            used[s.identity] = used.get(s.identity, 0) + 1
            total += 1
    return Candidate(counts)


def used_copies(binder: Binder, counts) -> dict[int, int]:
    used: dict[int, int] = {}
    for i, n in counts.items():
        ident = binder.stock[i].identity
        used[ident] = used.get(ident, 0) + n
    return used


def random_deck(binder: Binder, rng: random.Random) -> Candidate:
    """A legal deck of owned cards chosen at random (with a card a game can start from, where
    one card is enough): a baseline."""
    order = list(range(len(binder.stock)))
    copies = [i for i in order for _ in range(binder.stock[i].owned)]
    rng.shuffle(copies)
    start = next((i for i in copies if not binder.cannot_start({i: 1})), None)
    return _fill(binder, {start: 1} if start is not None else {}, copies, binder.size)


def mutate(binder: Binder, cand: Candidate, rng: random.Random, worth: dict[int, float]
           ) -> Candidate:
    """Swap one to three copies: weaker cards out, cards the binder still has room for in."""
    k = rng.choice((1, 1, 1, 2, 2, 3))
    counts = dict(cand.counts)
    for _ in range(k):
        held = [i for i, n in counts.items() for _ in range(n)]
        out = min(rng.sample(held, min(3, len(held))), key=lambda i: (worth[i], i))
        counts[out] -= 1
        used = used_copies(binder, counts)
        room = [i for i, s in enumerate(binder.stock)
                if counts.get(i, 0) < s.owned and used.get(s.identity, 0) < binder.limit(
                    s.identity) and i != out]
        if not room:
            counts[out] += 1
            continue
        pick = max(rng.sample(room, min(3, len(room))), key=lambda i: (worth[i], -i))
        counts[pick] = counts.get(pick, 0) + 1
    new = Candidate(counts)
    if binder.cannot_start(new.counts):
        return cand
    return new


def exhausted(stats: dict, seen: set) -> bool:
    """A climb whose mutations keep landing on decks it has seen (50 tries a step taken, on
    top of one for each deck seen) has no new neighbour left: a binder of one deck has none."""
    return stats["steps"] > 50 * (stats["improved"] + 1) + len(seen)


def search(judge: Judge, binder: Binder, rng: random.Random, *, games: int,
           budget: float | None, start: Candidate | None = None) -> tuple[Candidate, dict]:
    """The best deck found from ``start`` (default: the strongest cards), and how the search
    went (steps, candidates raced, games). ``games`` counts every game the judge has played."""
    worth = worth_of(binder)
    best = start or strongest(binder)
    started = time.monotonic()
    judge.stage("searching", max(games, LEVELS[0] * len(judge.opponents)))
    judge.rate(best, LEVELS[0])
    stats = {"steps": 0, "raced": 0, "improved": 0}
    seen = {best.key}
    per_step = LEVELS[0] * len(judge.opponents)
    while judge.games + per_step <= games and (budget is None or
                                               time.monotonic() - started < budget):
        stats["steps"] += 1
        cand = mutate(binder, best, rng, worth)
        if cand.key in seen:
            if exhausted(stats, seen):
                break  # no new neighbour left to try (a binder of one deck has none)
            continue
        seen.add(cand.key)
        won = True
        for level in LEVELS:
            if judge.games + 2 * level * len(judge.opponents) > games and level > LEVELS[0]:
                won = False
                break
            if judge.rate(cand, level) < judge.rate(best, level):
                won = False
                break
            stats["raced"] += level > LEVELS[0]
        if won and judge.rate(cand, LEVELS[-1]) > judge.rate(best, LEVELS[-1]):
            best = cand
            stats["improved"] += 1
    stats["games"] = judge.games
    return best, stats


def apart_from(binder: Binder, earlier: list[Candidate]) -> Candidate:
    """A first deck unlike ``earlier`` ones: the strongest cards, each stock already in one of
    them worth half as much again for each deck it is in, so the climb starts elsewhere."""
    worth = worth_of(binder)
    held = {i: sum(1 for c in earlier if c.counts.get(i)) for i in range(len(binder.stock))}
    order = sorted(range(len(binder.stock)), key=lambda i: (-worth[i] / 2 ** held[i], i))
    return _fill(binder, {}, order, binder.size)


def diverse(judge: Judge, binder: Binder, rng: random.Random, k: int, *, games: int,
            budget: float | None) -> list[tuple[Candidate, dict]]:
    """``k`` decks, each the best a climb found from a first deck unlike the decks before it
    (:func:`apart_from`), the games (and seconds) shared out evenly between the climbs; a
    climb that ends on a deck already found is left out."""
    found: list[tuple[Candidate, dict]] = []
    for _ in range(k):
        share = judge.games + games // k
        start = apart_from(binder, [c for c, _ in found])
        best, stats = search(judge, binder, rng, games=share, start=start,
                             budget=None if budget is None else budget / k)
        if all(best.key != c.key for c, _ in found):
            found.append((best, stats))
    return found
