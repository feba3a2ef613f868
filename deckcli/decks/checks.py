"""Deck checks every game shares: the copy-limit breakdown and the opening-hand odds.

Games call these with their own rule ids and limits; nothing here knows a game's numbers.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from math import comb

from deckcli.decks.resolve import Resolved


def breakdown(group: list[Resolved]) -> str:
    """'lines 3, 9: 2 first-edition, 2 foil, 1 promotional' for a copy-limit message."""
    lines = sorted({r.entry.line for r in group if r.entry.line})
    versions: dict[str, int] = defaultdict(int)
    for r in group:
        label = "+".join(r.entry.variants) if r.entry.variants else (
            f"{r.printing.ref}" if r.printing else "regular")
        versions[label] += r.entry.count
    parts = ", ".join(f"{n} {v}" for v, n in sorted(versions.items()))
    shown = ", ".join(map(str, lines[:12]))
    if len(lines) > 12:
        shown += f", … ({len(lines)} lines)"
    where = ("line " if len(lines) == 1 else "lines ") + shown if lines else ""
    return f"{where}: {parts}" if where else parts


@lru_cache(maxsize=4096)  # asked for every deck in a batch, mostly with the same numbers
def chance_at_least_one(deck_size: int, hits: int, draws: int) -> float:
    """Exact hypergeometric chance of at least one hit among ``draws`` cards."""
    if hits <= 0 or deck_size <= 0:
        return 0.0
    draws = min(draws, deck_size)
    return 1.0 - comb(deck_size - hits, draws) / comb(deck_size, draws)


def expected_hits(deck_size: int, hits: int, draws: int) -> float:
    if deck_size <= 0:
        return 0.0
    return min(draws, deck_size) * hits / deck_size
