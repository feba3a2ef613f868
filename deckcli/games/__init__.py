"""The games deckcli knows, registered once: one package per game, each declaring ``GAME``.

Everything outside ``deckcli/games/`` asks this registry for a game (:func:`get`) and then the
game object for its formats, kinds, rules, deck checks, setup and engine (the interface in
:mod:`deckcli.games.base`); nothing outside names a game. A game package's ``__init__`` is
small: its heavy parts (rules text, engine) are imported only when a command asks for them.
"""

from __future__ import annotations

import importlib

from deckcli.errors import UsageError
from deckcli.games.base import Game

#: The game packages, the default game first. This is the one list of games.
_PACKAGES = ("deckcli.games.animal_battle", "deckcli.games.alpha_walrus")

#: game id -> Game, in registration order
GAMES: dict[str, Game] = {}
for _name in _PACKAGES:
    _game = importlib.import_module(_name).GAME
    GAMES[_game.id] = _game
del _name, _game

DEFAULT_GAME: str = next(iter(GAMES))


def get(game_id: str) -> Game:
    """The game with this id; an unknown id is a usage error naming the known ones."""
    found = GAMES.get(game_id)
    if found is None:
        raise UsageError(f"unknown game {game_id!r}; known games: {', '.join(GAMES)}")
    return found


def ids() -> list[str]:
    return list(GAMES)


def section_kinds(game_id: str) -> dict[str, str]:
    """One game's section-header words (folded plural, as ``Section.key``) -> card kind."""
    return GAMES[game_id].section_kinds()


def kind_plurals() -> dict[str, tuple[str, str]]:
    """Every section-header word (folded plural) -> (game id, kind), across games."""
    out: dict[str, tuple[str, str]] = {}
    for game in GAMES.values():
        for kind, plural in game.kinds.items():
            out.setdefault(plural.casefold(), (game.id, kind))
    return out
