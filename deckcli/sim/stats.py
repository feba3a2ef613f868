"""Win rates people can trust: the 95% Wilson score interval, and when to stop."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``(0.0, 1.0)`` for n = 0).

    Unlike the textbook ``p +- z*sqrt(p(1-p)/n)`` it stays inside [0, 1] and keeps its coverage
    for small n and for rates near 0 or 1."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> float | None:
    return wins / n if n else None


def narrow_enough(wins: int, n: int, width: float) -> bool:
    """``--until-ci WIDTH``: the interval is at most ``width`` wide (and some game decided)."""
    lo, hi = wilson(wins, n)
    return n > 0 and hi - lo <= width


def rounded(x: float | None, places: int = 4) -> float | None:
    return None if x is None else round(x, places)


def outward(lo: float, hi: float, places: int = 4) -> list[float]:
    """An interval rounded outward (the low end down, the high end up), so the rounded
    interval still holds the true one."""
    k = 10 ** places
    return [math.floor(lo * k + 1e-9) / k, math.ceil(hi * k - 1e-9) / k]
