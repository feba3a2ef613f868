"""A seeded search over the legal decks a binder can make, judged by simulated games.

A candidate is how many copies of each stock it takes. The search starts from the binder's
strongest Animals (:func:`strongest`) and climbs. Each step is one of three moves
(:func:`mutate`): one to three copies for others the binder holds (weaker cards out, stronger
or untried ones in); every copy of one card for as many of another (a whole-card swap); or a
copy of one kind of card for one of another (an action card in for an Animal, or out). The new
deck plays every opponent with few games, and only a candidate that keeps up gets more (racing:
20, then 60, then 140 games an opponent; one that falls behind its incumbent at a stage is
dropped there). Every candidate plays the same games (the same seeds: common random numbers),
so two decks are compared on the same deals, not on luck, and game by game.

**The objective** (:func:`objective`) is the mean win rate over the worst half of the matchups
(the ceil(K/2) lowest of K), not the mean over all: a matchup the deck already wins 98% of
cannot move, and in a plain mean it only dilutes the ones that can; a matchup it cannot win at
all stays in the worst half and moves nothing either, so what the objective follows is the
matchups still in play.

**A step is taken only when it is shown better** (:meth:`Judge.gain`): at the last stage, the
candidate's objective must be higher, and the 95% paired interval of its win rate less the
incumbent's, over the incumbent's worst-half matchups and the same deals (a seat-swapped pair
of games the unit, :func:`~deckcli.sim.stats.paired_difference`), must lie above zero. A
higher rate on 140 games an opponent with no such test is mostly the winner's curse: re-measured
on fresh seeds, such steps were noise. The effort is bounded by ``games`` (games played in all)
and ``budget`` (seconds).
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
CONFIRM = 300  # games an opponent for a candidate ahead at the last stage but not yet shown better


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
        return self.run_all([(spec, numbers)])[0]

    def run_all(self, tasks: list[tuple[Spec, list[int]]]) -> list[list[dict]]:
        """The games of each task (a spec and its game numbers), played side by side where
        the backend has several processes, counted and timed."""
        if not tasks:
            return []
        start = time.perf_counter()
        records = self.where.run_all(tasks, self.progress)
        self.playing += time.perf_counter() - start
        self.games += sum(len(numbers) for _, numbers in tasks)
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

    def extend(self, cand: Candidate, n: int) -> None:
        """Play ``cand`` until it has ``n`` games against each opponent."""
        self.extend_all([cand], n)

    def extend_all(self, cands: list[Candidate], n: int) -> None:
        """Play each of ``cands`` until it has ``n`` games against each opponent, all the
        games missing handed out at once."""
        missing: list[tuple[list, Spec, list[int]]] = []
        for cand in cands:
            cards = None
            for k, opponent in enumerate(self.opponents):
                have = self.results.setdefault((cand.key, k), [])
                if len(have) < n and not any(h is have for h, _, _ in missing):
                    cards = cards or cand.cards(self.binder)
                    missing.append((have, self.spec(cards, opponent, game_seed(self.seed, k)),
                                    list(range(len(have), n))))
        played = self.run_all([(spec, numbers) for _, spec, numbers in missing])
        for (have, _, _), records in zip(missing, played):
            have += records

    def rates(self, cand: Candidate, n: int) -> list[float]:
        """The win rate against each opponent in the first ``n`` games (0.5 where none was
        decided)."""
        self.extend(cand, n)
        rates = []
        for k in range(len(self.opponents)):
            got = self.results[(cand.key, k)][:n]
            wins = sum(1 for r in got if r["winner"] == "a")
            decided = sum(1 for r in got if r["winner"] is not None)
            rates.append(wins / decided if decided else 0.5)
        return rates

    def rate(self, cand: Candidate, n: int) -> float:
        """The :func:`objective` of the first ``n`` games against each opponent."""
        return objective(self.rates(cand, n))

    def gain(self, cand: Candidate, base: Candidate, n: int) -> tuple[float | None, list]:
        """``cand``'s win rate less ``base``'s on the first ``n`` games against each of
        ``base``'s worst-half opponents (:func:`worst_half`), the same deals on both sides,
        and its 95% paired interval (a seat-swapped pair of games the unit)."""
        from deckcli.sim.stats import paired_difference

        units = []
        for k in worst_half(self.rates(base, n)):
            self.extend(cand, n)
            mine, theirs = self.results[(cand.key, k)][:n], self.results[(base.key, k)][:n]
            games = [(SCORE[x["winner"]], SCORE[y["winner"]]) for x, y in zip(mine, theirs)]
            units += [games[i:i + 2] for i in range(0, len(games), 2)]
        change, (lo, hi) = paired_difference(units)
        return change, [lo, hi]


SCORE = {"a": 1, "b": 0, None: None}  # a game's result for the deck judged (A)


def worst_half(rates: list[float]) -> list[int]:
    """The opponents (their indexes) of the ceil(K/2) lowest of K win rates (ties: the first
    listed)."""
    order = sorted(range(len(rates)), key=lambda k: (rates[k], k))
    return sorted(order[:(len(rates) + 1) // 2])


def objective(rates: list[float]) -> float:
    """What the search makes as large as it can: the mean of the worst half of the win rates
    (the ceil(K/2) lowest of K), so that a matchup already won (or lost) outright, which no
    change moves, cannot make the mean (see the module's docstring)."""
    if not rates:
        return 0.5
    worst = worst_half(rates)
    return sum(rates[k] for k in worst) / len(worst)


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


MOVES = ("copies", "copies", "copies", "card", "card", "kind")  # how often each move is drawn


def mutate(binder, cand: Candidate, rng: random.Random, worth: dict[int, float],
           move: str | None = None) -> Candidate:
    """One step from ``cand`` (``move``: which, else drawn from :data:`MOVES`): ``copies``
    swaps one to three copies, weaker cards out, cards the binder still has room for in;
    ``card`` swaps every copy of one card for as many of another (the rest, if the binder
    holds fewer, from its strongest cards with room); ``kind`` swaps one copy for a card of
    another kind (an action card in for an Animal, or out), or copies when the binder holds one
    kind only. A deck no game can start from is no step: ``cand`` comes back."""
    move = move or rng.choice(MOVES)
    if move == "card":
        new = _whole_card(binder, cand, rng, worth)
    elif move == "kind" and len({s.info.kind for s in binder.stock}) > 1:
        new = _other_kind(binder, cand, rng, worth)
    else:
        new = _copies(binder, cand, rng, worth)
    if new is None or binder.cannot_start(new.counts):
        return cand
    return new


def _room(binder, counts: dict[int, int], but: int) -> list[int]:
    """The stocks (not ``but``) of which the deck of ``counts`` can take one more copy."""
    used = used_copies(binder, counts)
    return [i for i, s in enumerate(binder.stock)
            if counts.get(i, 0) < s.owned and used.get(s.identity, 0) < binder.limit(
                s.identity) and i != but]


def _copies(binder, cand: Candidate, rng: random.Random, worth) -> Candidate:
    k = rng.choice((1, 1, 1, 2, 2, 3))
    counts = dict(cand.counts)
    for _ in range(k):
        held = [i for i, n in counts.items() for _ in range(n)]
        out = min(rng.sample(held, min(3, len(held))), key=lambda i: (worth[i], i))
        counts[out] -= 1
        room = _room(binder, counts, out)
        if not room:
            counts[out] += 1
            continue
        pick = max(rng.sample(room, min(3, len(room))), key=lambda i: (worth[i], -i))
        counts[pick] = counts.get(pick, 0) + 1
    return Candidate(counts)


def _whole_card(binder, cand: Candidate, rng: random.Random, worth) -> Candidate | None:
    """Every copy of one card (over its versions; the weakest of three drawn) out, as many of
    a card not in the deck (the strongest of three drawn) in."""
    cards: dict[int, float] = {}
    for i in cand.counts:
        ident = binder.stock[i].identity
        cards[ident] = max(cards.get(ident, -1e9), worth[i])
    drawn = rng.sample(sorted(cards), min(3, len(cards)))
    ident = min(drawn, key=lambda c: (cards[c], c))
    counts = {i: n for i, n in cand.counts.items() if binder.stock[i].identity != ident}
    gone = cand.size() - sum(counts.values())
    held = {binder.stock[i].identity for i in counts}
    best: dict[int, float] = {}
    for i, s in enumerate(binder.stock):
        if s.identity not in held and s.identity != ident:
            best[s.identity] = max(best.get(s.identity, -1e9), worth[i])
    if not best:
        return None
    drawn = rng.sample(sorted(best), min(3, len(best)))
    new = max(drawn, key=lambda c: (best[c], -c))
    mine = [i for i, s in enumerate(binder.stock) if s.identity == new]
    filled = _fill(binder, counts, mine, sum(counts.values()) + gone)
    order = sorted(range(len(binder.stock)), key=lambda i: (-worth[i], i))
    order = [i for i in order if binder.stock[i].identity != ident]
    return _fill(binder, filled.counts, order, cand.size())


def _other_kind(binder, cand: Candidate, rng: random.Random, worth) -> Candidate | None:
    """One copy out, one copy of a card of another kind in."""
    held = sorted(i for i, n in cand.counts.items() for _ in range(n))
    out = rng.choice(held)
    counts = dict(cand.counts)
    counts[out] -= 1
    kind = binder.stock[out].info.kind
    room = [i for i in _room(binder, counts, out) if binder.stock[i].info.kind != kind]
    if not room:
        return None
    pick = max(rng.sample(room, min(3, len(room))), key=lambda i: (worth[i], -i))
    counts[pick] = counts.get(pick, 0) + 1
    return Candidate(counts)


def exhausted(stats: dict, seen: set) -> bool:
    """A climb whose mutations keep landing on decks it has seen (50 tries a step taken, on
    top of one for each deck seen) has no new neighbour left: a binder of one deck has none."""
    return stats["steps"] > 50 * (stats["improved"] + 1) + len(seen)


#: new candidates a climb tries with no step taken before it restarts (:func:`search`)
STALL = 25
#: moves from the best deck that make a restart's first deck
KICK = 3


def search(judge: Judge, binder: Binder, rng: random.Random, *, games: int,
           budget: float | None, start: Candidate | None = None) -> tuple[Candidate, dict]:
    """The best deck found from ``start`` (default: the strongest cards), and how the search
    went (steps, candidates raced, restarts, games). ``games`` counts every game the judge
    has played.

    A climb that tries :data:`STALL` new candidates without a step restarts from a deck
    :data:`KICK` moves away from the best found (iterated local search): its steps are shown
    better than the climb's own deck, and a deck it reaches becomes the best only when it is
    also shown better than the best (:func:`shown_better`), so the best never gets worse."""
    worth = worth_of(binder)
    best = current = first = start or strongest(binder)
    started = time.monotonic()
    judge.stage("searching", max(games, LEVELS[0] * len(judge.opponents)))
    judge.rate(best, LEVELS[0])
    path = [best]
    stats: dict = {"steps": 0, "raced": 0, "ahead": 0, "improved": 0, "restarts": 0,
                   "path": path}
    seen = {best.key}
    per_step = LEVELS[0] * len(judge.opponents)
    tried = 0  # new candidates since the climb's deck last moved
    while judge.games + per_step <= games and (budget is None or
                                               time.monotonic() - started < budget):
        stats["steps"] += 1
        if tried >= STALL:  # a climb that has stalled starts again near the best
            kick = best
            for _ in range(KICK):
                kick = mutate(binder, kick, rng, worth)
            tried = 0
            if kick.key not in seen:
                seen.add(kick.key)
                current = kick
                stats["restarts"] += 1
                judge.rate(current, LEVELS[0])
            continue
        cand = mutate(binder, current, rng, worth)
        if cand.key in seen:
            if exhausted(stats, seen):
                break  # no new neighbour left to try (a binder of one deck has none)
            continue
        seen.add(cand.key)
        tried += 1
        if challenge(judge, cand, current, games, stats):
            at_best, current, tried = current is best, cand, 0
            if at_best or shown_better(judge, current, best, games):
                best = current
                stats["improved"] += 1
                path.append(best)
    stats["games"] = judge.games
    stats["start"] = first
    return best, stats


def challenge(judge: Judge, cand: Candidate, held: Candidate, games: int, stats: dict) -> bool:
    """Whether ``cand`` takes ``held``'s place: it races it through :data:`LEVELS` (dropped
    at the first stage it is behind, or that the games left cannot pay for), is ahead at the
    last and is :func:`shown_better`. Counts the stages raced past the first (``raced``) and
    the candidates ahead at the last (``ahead``) in ``stats``."""
    for level in LEVELS:
        if judge.games + 2 * level * len(judge.opponents) > games and level > LEVELS[0]:
            return False
        if judge.rate(cand, level) < judge.rate(held, level):
            return False  # behind its incumbent at this stage: dropped (racing)
        stats["raced"] += level > LEVELS[0]
    if judge.rate(cand, LEVELS[-1]) <= judge.rate(held, LEVELS[-1]):
        return False
    stats["ahead"] += 1  # ahead on the search's games: shown better only if ...
    return shown_better(judge, cand, held, games)  # ... the paired interval says so


def shown_better(judge: Judge, cand: Candidate, best: Candidate, games: int) -> bool:
    """Whether ``cand``'s paired interval against ``best`` (:meth:`Judge.gain`) lies above zero
    at the last stage of the race, or, where it holds zero but still reaches above it and the
    games allow, at :data:`CONFIRM` games an opponent (both decks played on to there)."""
    lo, hi = judge.gain(cand, best, LEVELS[-1])[1]
    if lo > 0:
        return True
    more = sum(max(0, CONFIRM - len(judge.results.get((c.key, k), ())))
               for c in (cand, best) for k in range(len(judge.opponents)))
    if hi <= 0 or judge.games + more > games:
        return False
    lo, _ = judge.gain(cand, best, CONFIRM)[1]
    return lo > 0 and judge.rate(cand, CONFIRM) > judge.rate(best, CONFIRM)
