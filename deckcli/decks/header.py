"""Which game a deck is checked as (rules DL-5.1 to DL-5.3): what ``validate`` decides from
``--game``, the event and the deck's header, and what ``fmt`` formats it for.
"""

from __future__ import annotations

from deckcli.decks.model import Deck
from deckcli.diagnostics import Diagnostic, error, warning
from deckcli.games import DEFAULT_GAME, GAMES


def header_game(deck: Deck) -> str | None:
    """The game a deck's header names, if it is one deckcli knows (else None)."""
    wanted = deck.header.get("game")
    name = wanted.strip().lower() if isinstance(wanted, str) else None
    return name if name in GAMES else None


def game_of(deck: Deck, game: str | None, event_game: str | None = None
            ) -> tuple[str, list[Diagnostic]]:
    """``game`` (--game), else ``event_game`` (the event's), else the deck header, else
    animal-battle (DL-5.1); with a warning when the header is overridden, an error when it
    names no game deckcli knows."""
    wanted = deck.header.get("game")
    header = header_game(deck)
    if game or event_game:
        chosen = game or event_game
        if header is not None and header != chosen:  # DL-5.3: the deck was written for another
            said = f"--game {chosen}" if game else f"the event's 'game: {chosen}'"
            return chosen, [warning(
                "game-override", "DL-5.3",
                f"the header says 'game: {wanted}', but {said} applies: the deck is checked "
                f"by {chosen}'s rules", path=deck.path, line=deck.header_lines.get("game"))]
        return chosen, []
    if header is not None:
        return header, []
    if wanted:
        return DEFAULT_GAME, [error(
            "unknown-game", "DL-5.2",
            f"unknown game '{wanted}' in the header; known games: {', '.join(GAMES)}",
            path=deck.path, line=deck.header_lines.get("game"))]
    return DEFAULT_GAME, []
