"""The decks a build is judged against when ``--against`` names none: a small, fixed field of
different styles, shipped with deckcli. animal-battle: Deep Divers (a championship list of big
ocean Animals), Savanna Sprint (a fast casual list) and Rainforest (a casual list of small,
rare Animals). alpha-walrus builds are judged by how even the seats are, against no deck.
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
