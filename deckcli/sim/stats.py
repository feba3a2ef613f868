"""Win rates people can trust: 95% intervals, and when to stop.

* :func:`wilson`: the Wilson score interval of a proportion of independent games (an
  alpha-walrus table, whose games are dealt one by one).
* :func:`paired_rate`: a rate over seat-swapped pairs. A pair's two games share a deal, so
  their results go together (a deal good for A is good for A in both seats), and a run holds
  fewer independent facts than games. The pair is the unit: the interval is Wilson's at the
  *effective* number of games, the games divided by the design effect (the variance of the
  rate between pairs over the variance independent games would give), at least 1, at most 2
  (a pair holds two games), and with Student's t on pairs - 1 degrees of freedom for z, as
  Korn and Graubard (1998) do for a proportion of clustered data.
* :func:`paired_difference`: the difference of two decks' rates on the same deals (a deck and a
  one-card swap of it), from the per-pair differences: the results of the two decks on a deal
  go together closely, so this interval is much narrower than one for independent samples.
  Bonett and Price's adjusted interval for a paired difference (one pseudo-game each way), its
  variance scaled by the design effect of the pairs, t on pairs - 1 degrees of freedom.

A *unit* is one seat-swapped pair of games (an odd last game without its twin is a unit of
its own); units with no decided game count for nothing.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval
#: Student's t 97.5% quantile for 1 to 10 degrees of freedom (beyond, :func:`t95`'s series),
#: solved from the t distribution's closed form for whole degrees (Abramowitz and Stegun 26.7.3-4)
_T95 = (12.7062047361747, 4.30265272974946, 3.18244630528371, 2.77644510519779,
        2.57058183563631, 2.44691185114497, 2.36462425159278, 2.30600413520417,
        2.26215716279820, 2.22813885198627)


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval on ``df`` degrees of freedom (at
    least 1): exact up to 10, then the Cornish-Fisher series in 1/df of Abramowitz and Stegun
    26.7.5 (within 1e-5 at 11, 1e-8 from 19)."""
    df = max(1, df)
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    g = ((z ** 3 + z) / 4, (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
         (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
         (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(gk / df ** (k + 1) for k, gk in enumerate(g))


def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``(0.0, 1.0)`` for n = 0).

    Unlike the textbook ``p +- z*sqrt(p(1-p)/n)`` it stays inside [0, 1] and keeps its coverage
    for small n and for rates near 0 or 1. ``n`` may be an effective number (not whole)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def design_effect(between: float, independent: float) -> float:
    """How many times the variance between pairs (``between``) is the variance independent
    games would give (``independent``), kept within [1, 2]: never below 1, so an interval is
    never narrower than the one for independent games, and at most 2, the most a unit of two
    games can hold (its two games one fact). 1 where nothing varies (all won or all lost)."""
    if independent <= 0:
        return 1.0
    return min(2.0, max(1.0, between / independent))


def paired_rate(units) -> tuple[float, float]:
    """The 95% interval of a rate over seat-swapped pairs; ``units`` holds (wins, decided) of
    each pair. Wilson's interval at the effective number of games (decided games over the
    design effect of the pairs), with t on pairs - 1 degrees of freedom for z. ``(0.0, 1.0)``
    when no game was decided."""
    units = [(w, d) for w, d in units if d > 0]
    wins = sum(w for w, _ in units)
    n = sum(d for _, d in units)
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    k = len(units)
    independent = p * (1 - p) / n
    # the ratio estimator's variance from the pairs (linearised; k/(k-1) for the mean taken)
    between = (k / (k - 1) * sum((w - p * d) ** 2 for w, d in units) / (n * n)
               if k > 1 else 2 * independent)
    effective = n / design_effect(between, independent)
    return wilson(p * effective, effective, t95(k - 1))


def paired_difference(units) -> tuple[float | None, tuple[float, float]]:
    """Rate X less rate Y on the same deals, and its 95% interval; ``units`` holds, for each
    pair, one (X's result, Y's result) a game, a result being 1 (won), 0 (lost) or None
    (undecided). A game counts where both decks' games were decided. ``(None, (-1.0, 1.0))``
    when none was.

    Bonett and Price's adjusted interval for a paired difference (an extra game won by X alone
    and one by Y alone: never a zero width, sane at a difference near -1 or 1), its variance
    multiplied by the design effect of the pairs, and t on pairs - 1 degrees of freedom."""
    diffs = []  # per pair: (sum of X's result less Y's, games)
    only_x = only_y = 0  # games won by X and lost by Y, and the other way round
    for pair in units:
        d = g = 0
        for x, y in pair:
            if x is None or y is None:
                continue
            d += x - y
            g += 1
            only_x += x > y
            only_y += y > x
        if g:
            diffs.append((d, g))
    n = sum(g for _, g in diffs)
    if n == 0:
        return None, (-1.0, 1.0)
    change = sum(d for d, _ in diffs) / n
    k = len(diffs)
    independent = ((only_x + only_y) / n - change * change) / n
    between = (k / (k - 1) * sum((d - change * g) ** 2 for d, g in diffs) / (n * n)
               if k > 1 else 2 * independent)
    # Bonett and Price (2012): one pseudo-game each way among the discordant ones
    px, py = (only_x + 1) / (n + 2), (only_y + 1) / (n + 2)
    centre = px - py
    var = (px + py - centre * centre) / (n + 2) * design_effect(between, independent)
    half = t95(k - 1) * math.sqrt(var)
    return change, (max(-1.0, centre - half), min(1.0, centre + half))


def rate(wins: int, n: int) -> float | None:
    return wins / n if n else None


def narrow_enough(interval: tuple[float, float], decided: int, width: float) -> bool:
    """``--until-ci WIDTH``: ``interval`` is at most ``width`` wide (and some game decided)."""
    lo, hi = interval
    return decided > 0 and hi - lo <= width


def rounded(x: float | None, places: int = 4) -> float | None:
    return None if x is None else round(x, places)


def outward(lo: float, hi: float, places: int = 4) -> list[float]:
    """An interval rounded outward (the low end down, the high end up), so the rounded
    interval still holds the true one."""
    k = 10 ** places
    return [math.floor(lo * k + 1e-9) / k, math.ceil(hi * k - 1e-9) / k]
