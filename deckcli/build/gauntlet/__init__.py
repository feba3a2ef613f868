"""The decks a build is judged against when ``--against`` names none: a small, fixed field
shipped with deckcli. animal-battle: three casual decks the builder found itself by a
double-oracle loop (each the best response, from a binder like the example's, to the decks
before it; ``benchmarks/gauntlet.py --seed 1`` rebuilds them), so that a build meets matchups
it can still win or lose. alpha-walrus builds are judged by how even the seats are, against no
deck.
"""

from __future__ import annotations

import os

HERE = os.path.dirname(os.path.abspath(__file__))


def decks(game_id: str) -> list[str]:
    folder = os.path.join(HERE, game_id)
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if n.endswith((".txt", ".yaml", ".json")))
