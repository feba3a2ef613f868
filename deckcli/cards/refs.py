"""Card references typed on the command line: ``Walrus``, ``Walrus (ABS) 12``, ``ABS 12``.

One function for every command that takes a card argument (``cards show``, the referees,
``add``/``remove``), so they all accept the same spellings and fail the same way: an unknown card
is :class:`NotFoundError` with "did you mean" suggestions, an ambiguous name a
:class:`UsageError` listing the candidates (exit 2 either way).
"""

from __future__ import annotations

import re

from deckcli.cards.index import Card, CardIndex, Printing
from deckcli.errors import NotFoundError, UsageError

_FULL = re.compile(r"^(?P<name>.*?\S)\s*\(\s*(?P<set>[A-Za-z0-9]+)\s*\)\s*(?P<num>\S+)$")
_SET_NUM = re.compile(r"^(?P<set>[A-Za-z0-9]{2,6})\s+(?P<num>[A-Za-z]{0,3}\d+[A-Za-z]{0,3})$")


def parse_ref(index: CardIndex, game: str, text: str) -> tuple[Card, Printing | None]:
    """The card (and printing, when the reference names one) that ``text`` refers to."""
    text = text.strip()
    if not text:
        raise UsageError("empty card reference")
    if not index.cards_named(game, text):
        m = _FULL.match(text) or _SET_NUM.match(text)
        if m is not None and (m.groupdict().get("name") or index.is_set_code(game, m["set"])):
            printing = index.printing(game, m["set"], m["num"])
            if printing is None:
                raise NotFoundError(f"no {game} printing ({m['set'].upper()}) {m['num']}")
            card = index.card(printing.card_id)
            name = m.groupdict().get("name")
            if name and index.cards_named(game, name) and card not in index.cards_named(game, name):
                raise UsageError(f"({printing.set_code}) {printing.number} is {card.name}, not {name}")
            if name and not index.cards_named(game, name):
                raise NotFoundError(f"({printing.set_code}) {printing.number} is {card.name}, "
                                    f"not {name}")
            return card, printing
    cards = index.cards_named(game, text)
    if not cards:
        suggestions = index.suggest(game, text)
        hint = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        raise NotFoundError(f"no {game} card is named {text!r}{hint}")
    if len(cards) > 1:
        raise UsageError(f"{text!r} names {len(cards)} cards: "
                         f"{', '.join(c.ref for c in cards)}; give the set and number")
    return cards[0], None
