"""Deck checks every game shares: the copy-limit breakdown and the opening-hand odds.

Games call these with their own rule ids and limits; nothing here knows a game's numbers.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from deckcli.decks.resolve import Resolved


def breakdown(group: list[Resolved]) -> str:
    """'lines 1, 3, 4: 2 Walrus (ABS) 12 [first-edition], 2 Walrus [foil], 1 Walrus (PRM) P3
    [promotional]' for a copy-limit message.

    Every part is labelled the same way: the copies of one version as a decklist entry names
    it (the card, then the printing or set the lines give, then their tags, as fmt writes
    them), in the order of the lines, so a judge reads which lines add up to the total.
    """
    lines = sorted({r.entry.line for r in group if r.entry.line})
    versions: dict[str, int] = {}
    first: dict[str, int] = {}
    for r in group:
        label = version_label(r)
        versions[label] = versions.get(label, 0) + r.entry.count
        first.setdefault(label, r.entry.line or 0)
    parts = ", ".join(f"{versions[v]:,} {v}" for v in sorted(versions, key=lambda v: (first[v], v)))
    shown = ", ".join(map(str, lines[:12]))
    if len(lines) > 12:
        shown += f", … ({len(lines):,} lines)"
    where = ("line " if len(lines) == 1 else "lines ") + shown if lines else ""
    return f"{where}: {parts}" if where else parts


def version_label(r: Resolved) -> str:
    """The version one entry names, as fmt writes it: 'Walrus (PRM) P3 [promotional]',
    'Walrus (ABS)', 'Walrus [foil]' or just 'Walrus'."""
    label = r.card.name
    if r.printing is not None:
        label += f" {r.printing.ref}"
    elif r.entry.set_code:
        label += f" ({r.entry.set_code.upper()})"
    if r.entry.variants:
        label += f" [{', '.join(r.entry.variants)}]"
    return label


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
