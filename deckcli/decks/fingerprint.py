"""Deck fingerprint: a short hash of card identities and counts, blind to printing and order.

Two lists that play the same cards (foil or not, promo or not, in any order or split over any
number of lines) share a fingerprint, so an organiser can show the deck played is the deck
registered. Entries that did not resolve count by their folded name.

The hashed text is the game, then a line for each card, sorted by the card's key: its copies
and its key (:func:`line`). A deck that offers its cards' ``(key, line)`` pairs, made once per
distinct decklist line of a batch (``fingerprint_items()``, None when it cannot), is hashed
from those; any other from its ``totals()`` and ``unresolved()`` entries.
"""

from __future__ import annotations

from deckcli.cards.names import fold_name
from deckcli.digest import sha256


def fingerprint(game: str, rdeck) -> str:
    offered = getattr(rdeck, "fingerprint_items", None)
    items = offered() if offered is not None else None
    if items is not None:  # each card's (key, line), made once per distinct decklist line
        lines = dict(items)
        if len(lines) == len(items):  # no two keys alike: the lines of the text below
            return _digest(game, list(map(lines.__getitem__, sorted(lines))))
    totals = rdeck.totals()
    counts = {card.identity: copies for card, copies in totals.values()}
    if len(counts) < len(totals):  # two cards that spell their identity alike: add them up
        counts = {}
        for card, copies in totals.values():
            counts[card.identity] = counts.get(card.identity, 0) + copies
    for entry in rdeck.unresolved():
        key = f"?{fold_name(entry.name)}"
        counts[key] = counts.get(key, 0) + entry.count
    keys = sorted(counts)
    try:
        lines = [_COPIES[counts[key]] + key for key in keys]
    except IndexError:  # a card of 100 copies or more
        lines = [line(key, n) for key, n in zip(keys, map(counts.get, keys))]
    return _digest(game, lines)


def line(key: str, copies: int) -> str:
    """One line of the hashed text: "4 walrus#12", the copies, then the card's key."""
    return (_COPIES[copies] if copies < len(_COPIES) else f"{copies} ") + key


def item(card, copies: int) -> tuple[str, str]:
    """(key, line) of a card's copies in a deck (:meth:`QuickDeck.fingerprint_items
    <deckcli.decks.quick.QuickDeck.fingerprint_items>` offers these, made once per line)."""
    return card.identity, line(card.identity, copies)


def _digest(game: str, lines: list[str]) -> str:
    text = game + "\n" + "\n".join(lines) if lines else game
    digest = sha256(text.encode()).digest()[:6].hex()  # the first 12 hex digits
    return f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}"


#: "0 ", "1 ", ... "99 ": a line of the hashed text starts with the copies (formatting an
#: int is the dearest step of a fingerprint; a batch computes thousands)
_COPIES = [f"{n} " for n in range(100)]
