"""One package per game: its rules reference, its deck checks and its referee.

Game packages are imported only when a command needs them, so a deck check for one game never
pays for the other.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from deckcli.errors import UsageError

#: game id -> package. animal-battle is the default (CONTRACT.md).
GAMES = {
    "animal-battle": "deckcli.games.animal_battle",
    "alpha-walrus": "deckcli.games.alpha_walrus",
}
DEFAULT_GAME = "animal-battle"


def game_module(game: str) -> ModuleType:
    module = _LOADED.get(game)
    if module is None:
        try:
            module = _LOADED[game] = importlib.import_module(GAMES[game])
        except KeyError:
            raise UsageError(f"unknown game {game!r}; known games: {', '.join(GAMES)}") from None
    return module


_LOADED: dict[str, ModuleType] = {}  # import_module costs microseconds a call, twice a deck


def deck_rules(game: str) -> ModuleType:
    """The game's deck checks: its ``deck_checks`` module, with ``check_deck(rdeck, ctx)`` and
    ``report_extra(rdeck, ctx, problems)`` (facts for the report)."""
    module = _LOADED.get(game + ":deck_checks")
    if module is None:
        module = _LOADED[game + ":deck_checks"] = importlib.import_module(
            game_module(game).__name__ + ".deck_checks")
    return module


#: Each game's card kinds, in the order fmt writes them, with the plural a section header
#: uses. The game packages read their KIND_PLURALS from here, so a text decklist can be
#: read without importing either game.
KIND_PLURALS = {
    "animal-battle": {"animal": "Animals", "action": "Actions"},
    "alpha-walrus": {"creature": "Creatures", "alpha-walrus": "Alpha Walrus", "gear": "Gear",
                     "diplomacy": "Diplomacy", "equipment": "Equipment",
                     "battle": "Battle Cards", "action": "Actions"},
}


def section_kinds(game: str) -> dict[str, str]:
    """One game's section-header words (folded plural, as ``Section.key``) -> card kind."""
    found = _SECTION_KINDS.get(game)
    if found is None:
        found = _SECTION_KINDS[game] = {p.casefold(): k for k, p in KIND_PLURALS[game].items()}
    return found


_SECTION_KINDS: dict[str, dict[str, str]] = {}


def kind_plurals() -> dict[str, tuple[str, str]]:
    """Every section-header word (folded plural) -> (game, kind), across games."""
    out: dict[str, tuple[str, str]] = {}
    for game, plurals in KIND_PLURALS.items():
        for kind, plural in plurals.items():
            out.setdefault(plural.casefold(), (game, kind))
    return out
