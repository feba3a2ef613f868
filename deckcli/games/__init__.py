"""The games deckcli knows, registered once: one package per game, each declaring ``GAME``.

Everything outside ``deckcli/games/`` asks this registry for a game (:func:`get`) and then the
game object for its formats, kinds, rules, deck checks, setup and engine (the interface in
:mod:`deckcli.games.base`); nothing outside names a game. A game package's ``__init__`` is
small: its heavy parts (rules text, engine) are imported only when a command asks for them.
"""

from __future__ import annotations

import importlib
import os

from deckcli.errors import UsageError
from deckcli.games.base import Game

#: The game packages, the default game first. This is the one list of games.
_PACKAGES = ("deckcli.games.animal_battle", "deckcli.games.alpha_walrus")
#: Game packages of one's own, importable ones, registered after the built-in games:
#: ``DECKCLI_GAMES=mygames.duel,mygames.other`` (a comma-separated list of module names).
PLUGINS_VARIABLE = "DECKCLI_GAMES"

#: game id -> Game, in registration order
GAMES: dict[str, Game] = {}
#: why a package named in DECKCLI_GAMES could not be registered (the command line says so and
#: exits 2 before any command runs)
PLUGIN_ERRORS: list[str] = []


def register(package: str) -> Game:
    """Register the game a package declares (its ``GAME``); a package that cannot be imported
    or declares no game, or a game id already taken, is a usage error."""
    try:
        game = importlib.import_module(package).GAME
    except ImportError as exc:
        raise UsageError(f"{PLUGINS_VARIABLE}: cannot import game package {package!r}: "
                         f"{exc}") from None
    except AttributeError:
        raise UsageError(f"{PLUGINS_VARIABLE}: {package!r} declares no GAME") from None
    if not isinstance(game, Game):
        raise UsageError(f"{PLUGINS_VARIABLE}: {package}.GAME is not a deckcli Game")
    known = GAMES.get(game.id)
    if known is not None and known is not game:
        raise UsageError(f"{PLUGINS_VARIABLE}: {package!r} registers game {game.id!r}, "
                         "which another package already registered")
    GAMES[game.id] = game
    return game


for _name in _PACKAGES:
    register(_name)
for _name in filter(None, (n.strip() for n in os.environ.get(PLUGINS_VARIABLE, "").split(","))):
    try:
        register(_name)
    except UsageError as _exc:
        PLUGIN_ERRORS.append(_exc.message)
del _name

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
