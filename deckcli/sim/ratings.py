"""Bradley-Terry ratings from games between players, and their 95% intervals (benchmarks/ladder.py
rates the policies with them). Plain functions of results: no game is played here.

The model: P(p beats q) = s_p / (s_p + s_q), a strength s each player; on the Elo scale a
rating r = 400 log10(s), so P(p beats q) = 1 / (1 + 10 ** ((r_q - r_p) / 400)). The fit is
Hunter's (2004) MM algorithm, with ``prior`` virtual wins each way between two players who met
(one virtual draw, as BayesElo has), so that a player who won every game still gets a finite
rating. The intervals come from a seeded bootstrap that draws each result's units (a
seat-swapped pair of games) again with replacement and fits again: the pair is the unit there
too, for the same reason as in :mod:`deckcli.sim.stats`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

ELO = 400 / math.log(10)  # Elo points per unit of log-strength
PRIOR = 0.5  # virtual wins each way between two players who met (one virtual draw)


def fit(wins: Mapping[tuple[str, str], float], players: list[str], anchor: str | None = None,
        prior: float = PRIOR, tol: float = 1e-8, rounds: int = 10_000) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale from ``wins[(p, q)]``, the games p won against q
    (both orders may be given). P(p beats q) = 1 / (1 + 10 ** ((r_q - r_p) / 400)).
    ``prior`` virtual wins each way are added between every two players who met. Ratings are
    relative: ``anchor`` is put at 0 (None: their mean is 0)."""
    w = {(p, q): 0.0 for p in players for q in players if p != q}
    for (p, q), n in wins.items():
        w[(p, q)] += n
    for p in players:
        for q in players:
            if p < q and w[(p, q)] + w[(q, p)] > 0:
                w[(p, q)] += prior
                w[(q, p)] += prior
    games = {(p, q): w[(p, q)] + w[(q, p)] for p, q in w}
    strength = {p: 1.0 for p in players}
    for _ in range(rounds):  # Hunter (2004): pi_p = W_p / sum_q n_pq / (pi_p + pi_q)
        new = {}
        for p in players:
            won = sum(w[(p, q)] for q in players if q != p)
            div = sum(games[(p, q)] / (strength[p] + strength[q]) for q in players if q != p)
            new[p] = won / div if div > 0 else strength[p]
        scale = math.exp(sum(math.log(v) for v in new.values() if v > 0) / len(players))
        new = {p: v / scale for p, v in new.items()}
        moved = max(abs(math.log(new[p] / strength[p])) for p in players if new[p] > 0)
        strength = new
        if moved < tol:
            break
    rating = {p: ELO * math.log(strength[p]) for p in players}
    zero = rating[anchor] if anchor in rating else sum(rating.values()) / len(rating)
    return {p: r - zero for p, r in rating.items()}


def expected(r_p: float, r_q: float) -> float:
    """The share of games a player rated ``r_p`` wins against one rated ``r_q``."""
    return 1 / (1 + 10 ** ((r_q - r_p) / 400))


def totals(results: list[dict]) -> dict[tuple[str, str], int]:
    """Games each player won against each other, over ``results`` (each: ``p``, ``q`` and
    ``units``, one (p's wins, q's wins) a pair of games)."""
    out: dict[tuple[str, str], int] = {}
    for res in results:
        p, q = res["p"], res["q"]
        out[(p, q)] = out.get((p, q), 0) + sum(a for a, _ in res["units"])
        out[(q, p)] = out.get((q, p), 0) + sum(b for _, b in res["units"])
    return out


def bootstrap(results: list[dict], players: list[str], anchor: str | None, resamples: int,
              seed: int) -> dict[str, tuple[float, float]]:
    """The 95% interval of each rating: ``resamples`` times, each result's pairs of games are
    drawn again with replacement (seeded) and the ratings fitted again; the 2.5th and 97.5th
    percentiles."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {p: [] for p in players}
    for _ in range(resamples):
        again = []
        for res in results:
            units = res["units"]
            again.append({**res, "units": [units[rng.randrange(len(units))] for _ in units]}
                         if units else res)
        for p, r in fit(totals(again), players, anchor).items():
            draws[p].append(r)
    out = {}
    for p, values in draws.items():
        values.sort()
        out[p] = (values[int(0.025 * resamples)], values[max(0, math.ceil(0.975 * resamples) - 1)])
    return out
