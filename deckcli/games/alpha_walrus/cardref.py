"""Cards as the referee sees them, and how a card named on the command line or in a log is found.

A card is named as ``Name (SET) NUM``, ``SET NUM`` or a bare name; a bare name that fits more than
one card (``Walrus`` is level 6 AWC 22 and level 8 AWC 30) is refused with the candidates, an
unknown one with "did you mean" suggestions. Suggest, never substitute.
"""

from __future__ import annotations

from deckcli.errors import UsageError
from deckcli.games.alpha_walrus import GAME
from deckcli.games.base import CardInfo


class Card(CardInfo):
    """A card with the views the alpha-walrus referee reads of its data."""

    __slots__ = ()

    @property
    def level_bonus(self) -> int:
        return sum(int(e.get("value", 0)) for e in self.effect("level_bonus"))

    @property
    def is_creature(self) -> bool:
        return self.kind == "creature"

    @property
    def is_walrus(self) -> bool:
        """A walrus for the mini showdown: the trait, on a creature (never the Alpha Walrus)."""
        return self.kind == "creature" and "walrus" in self.traits

    @property
    def survives_discard(self) -> bool:
        return bool(self.effect("survives_discard"))

    @property
    def a_kind(self) -> str:
        """'a creature card', 'an action card': what the card is, for messages."""
        return f"{'an' if self.kind[:1] in 'aeiou' else 'a'} {self.kind} card"

    def to_json(self) -> dict:
        out = {"card": self.ref, "kind": self.kind}
        if self.level is not None:
            out["level"] = self.level
        return out


def info(card) -> Card:
    return Card.of(card)


class Cards:
    """Card look-ups for one referee run (memoised: logs name the same cards again and again)."""

    def __init__(self, index):
        self.index = index
        self._memo: dict[str, Card] = {}

    def find(self, text) -> Card:
        key = str(text).strip()
        if not key:
            raise UsageError("an empty card name")
        if key not in self._memo:
            self._memo[key] = info(self._lookup(key))
        return self._memo[key]

    def _lookup(self, text: str):
        from deckcli.decks.refs import parse_ref

        return parse_ref(self.index, GAME.id, text)[0]

    def all_of_kind(self, kind: str) -> list[Card]:
        return [info(c) for c in self.index.all_cards(GAME.id) if c.kind == kind]


_DEFAULT: Cards | None = None


def default_cards() -> Cards:
    """Look-ups on the built-in card database (opened once per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        from deckcli.cards import open_index

        _DEFAULT = Cards(open_index())
    return _DEFAULT
