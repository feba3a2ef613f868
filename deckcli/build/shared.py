"""``build --game alpha-walrus``: the shared deck, from a collection, whose games are the most
even across seats.

alpha-walrus is played from one deck all players share, so "the strongest deck" means nothing;
what a table wants is a deck that sets up for its N players (AW-1.1 to AW-1.3, AW-8.1, and
enough left to draw through the two opening rounds, AW-1.6 with AW-3.2) and gives no seat an
edge. The objective, documented in docs/simulate.md:

* **spread** = the highest seat's win rate less the lowest seat's, over the decided games
  (0 is a perfectly even table), to be made as small as possible;
* ties go to the deck with fewer undecided games (a deck whose games end).

The search starts from the whole collection (one Alpha Walrus and each gear piece once; every
other owned copy in), then climbs: each step adds, removes or swaps one copy, keeps the setup
numbers, and races the candidate against the best so far on the same games (common random
numbers: game ``n`` of every candidate is dealt from the same seed), 20 games first, more only
when it keeps up. The chosen deck's seat win rates are then measured on fresh seeds, each with
its 95% Wilson interval.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from deckcli.build.search import Candidate, Judging, exhausted
from deckcli.sim.play import Spec, game_seed

if TYPE_CHECKING:
    from deckcli.games.base import Game

LEVELS = (20, 60, 140)  # games a candidate plays at each stage of a race


class SeatJudge(Judging):
    """Plays a shared deck at the table and remembers the games: game ``n`` of a candidate is
    dealt from the run's seed and ``n``, so adding games extends a candidate's record."""

    def __init__(self, game: Game, binder, players: int, **how):
        super().__init__(game, binder, **how)
        self.seats = [f"p{i + 1}" for i in range(players)]

    def play(self, cards, seed: int, numbers: list[int]) -> list[dict]:
        return self.run(Spec(self.game.id, seed, {"shared": cards}, self.seats, {},
                             {s: self.policy for s in self.seats}, dict(self.house.given),
                             self.max_turns, db_dirs=self.db_dirs, pairs=False), numbers)

    def score(self, cand: Candidate, n: int) -> tuple[float, float]:
        """(spread of the seat win rates, share undecided) in the candidate's first ``n``
        games: smaller is better on both, in that order."""
        have = self.results.setdefault(cand.key, [])
        if len(have) < n:
            have += self.play(cand.cards(self.binder), self.seed, list(range(len(have), n)))
        return spread(have[:n], self.seats)


def spread(records: list[dict], seats: list[str]) -> tuple[float, float]:
    decided = [r for r in records if r["winner"] is not None]
    undecided = 1 - len(decided) / len(records) if records else 1.0
    if not decided:
        return 1.0, undecided
    rates = [sum(1 for r in decided if r["winner"] == s) / len(decided) for s in seats]
    return max(rates) - min(rates), undecided


def measured_spread(records: list[dict], seats: list[str]) -> float | None:
    """The spread a report shows: None when no game was decided (no seat rate to spread;
    the search's score counts such a deck as 1.0, the worst)."""
    if not any(r["winner"] is not None for r in records):
        return None
    return round(spread(records, seats)[0], 4)


def search(judge: SeatJudge, table, rng: random.Random, *, games: int,
           budget: float | None) -> tuple[Candidate, dict]:
    """The most even deck found, and how the search went."""
    best = Candidate(table.first_deck())
    start = time.monotonic()
    judge.stage("searching", max(games, LEVELS[0]))
    judge.score(best, LEVELS[0])
    stats = {"steps": 0, "raced": 0, "improved": 0}
    seen = {best.key}
    while judge.games + LEVELS[0] <= games and (budget is None or
                                               time.monotonic() - start < budget):
        stats["steps"] += 1
        cand = Candidate(table.mutate(best.counts, rng))
        if cand.key in seen:
            if exhausted(stats, seen):
                break  # no new neighbour left to try
            continue
        seen.add(cand.key)
        won = True
        for level in LEVELS:
            if level > LEVELS[0] and judge.games + 2 * level > games:
                won = False
                break
            if judge.score(cand, level) > judge.score(best, level):
                won = False
                break
            stats["raced"] += level > LEVELS[0]
        if won and judge.score(cand, LEVELS[-1]) < judge.score(best, LEVELS[-1]):
            best = cand
            stats["improved"] += 1
    stats["games"] = judge.games
    return best, stats


def measure(judge: SeatJudge, cand: Candidate, games: int) -> dict:
    """The seat win rates of ``cand`` on fresh seeds (never the search's), with intervals."""
    from deckcli.sim.report import interval

    records = judge.play(cand.cards(judge.binder), game_seed(judge.seed, "final"),
                         list(range(games)))
    decided = sum(1 for r in records if r["winner"] is not None)
    seats = []
    for s in judge.seats:
        wins = sum(1 for r in records if r["winner"] == s)
        seats.append({"seat": s, "wins": wins, **interval(wins, decided)})
    from deckcli.build.sensitivity import gaps_met

    return {"games": games, "decided": decided, "undecided": games - decided,
            "gaps": dict(gaps_met(records)),
            "showdowns": sum(1 for r in records if r.get("showdown")),
            "seats": [{"seat": s["seat"], "wins": s["wins"], "win_rate": s["rate"],
                       "ci95": s["ci95"]} for s in seats],
            "spread": measured_spread(records, judge.seats)}


# -- suggest: the one-copy changes that make a shared deck's table more even ----------------------
SCREEN = 20  # games to screen a change
KEEP = 4  # changes measured on fresh seeds after the screen
RESAMPLES = 1000


def neighbours(table, cand: Candidate) -> list[tuple[str, Candidate]]:
    """Every deck one copy away (one more or one fewer of a card the collection holds) that
    still sets up for the table, with what the change is."""
    out = []
    for i, s in enumerate(table.binder.stock):
        if table.fixed(s.info.kind):
            continue
        have = cand.counts.get(i, 0)
        for step, label in ((1, "+1"), (-1, "-1")):
            if 0 <= have + step <= s.owned:
                counts = {**cand.counts, i: have + step}
                if table.fits(counts):
                    out.append((f"{label} {s.entry(1)[2:]}", Candidate(counts)))
    return out


def paired_gain(base: list[dict], other: list[dict], seats: list[str], seed: int) -> dict:
    """How much less uneven ``other`` is than ``base`` (spread of base less spread of other) on
    the same games, with a 95% interval from a paired bootstrap of the games (seeded)."""
    from deckcli.sim.stats import outward, rounded

    gain = spread(base, seats)[0] - spread(other, seats)[0]
    rng = random.Random(seed)
    n = len(base)
    draws = []
    for _ in range(RESAMPLES):
        pick = [rng.randrange(n) for _ in range(n)]
        draws.append(spread([base[k] for k in pick], seats)[0] -
                     spread([other[k] for k in pick], seats)[0])
    draws.sort()
    lo, hi = draws[int(0.025 * RESAMPLES)], draws[int(0.975 * RESAMPLES) - 1]
    return {"gain": rounded(gain), "ci95": outward(lo, hi)}


def improvements(judge: SeatJudge, table, cand: Candidate, games: int,
                 budget: int) -> list[dict]:
    """The few one-copy changes that screen best (as many screened as ``budget`` games allow,
    chosen by the seed when not all fit), measured with the deck on fresh seeds; a change whose
    interval holds zero is listed as not shown to help."""
    near = neighbours(table, cand)
    random.Random(game_seed(judge.seed, "screen")).shuffle(near)
    near = near[:max(KEEP, budget // SCREEN)]
    judge.stage("screening changes", len(near) * SCREEN)
    scored = sorted(near, key=lambda nc: (judge.score(nc[1], SCREEN), nc[0]))[:KEEP]
    judge.stage("measuring changes", (1 + len(scored)) * games)
    fresh = game_seed(judge.seed, "final")
    base = judge.play(cand.cards(judge.binder), fresh, list(range(games)))
    out = []
    for k, (label, other) in enumerate(scored):
        records = judge.play(other.cards(judge.binder), fresh, list(range(games)))
        found = paired_gain(base, records, judge.seats, game_seed(judge.seed, f"boot:{k}"))
        out.append({"change": label, "spread": measured_spread(records, judge.seats),
                    **found, "improves": found["ci95"][0] > 0})
    out.sort(key=lambda c: (-c["gain"], c["change"]))
    return out
