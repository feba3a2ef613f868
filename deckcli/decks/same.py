"""The deck as a multiset of cards: what "the same cards" means when a deck is rewritten.

Two versions of a deck hold the same cards when they hold the same card identities, printings
and variant tags, counted (:func:`deck_cards`); an entry that names only the card stands for the
printing ``fmt`` writes for it. ``fmt``, ``add``, ``remove`` and the deck editor compare a deck
before and after with it (:func:`deckcli.rewrite.same_deck`).
"""

from __future__ import annotations

from collections import Counter


def deck_cards(deck, index, game: str) -> Counter:
    """The deck as a multiset of (card identity, printing, variant tags), counted.

    An entry that does not resolve counts by what it says (folded name, set, number), so two
    versions of a deck with the same unknown line still compare equal.
    """
    out: Counter = Counter()
    for entry in deck.entries:
        out[card_key(index, game, entry, deck.path)] += entry.count
    return out


def card_key(index, game: str, entry, path: str | None) -> tuple:
    """What :func:`deck_cards` counts one entry under: (card identity, printing, variant tags),
    or for an entry that does not resolve what it says."""
    from deckcli.cards.names import fold_name, number_key
    from deckcli.decks.resolve import Resolved, resolve_entry

    r = resolve_entry(index, game, entry, path)
    tags = frozenset(entry.variants)
    if isinstance(r, Resolved):
        printing = (r.printing.id if r.printing is not None
                    else ("set", entry.set_code) if entry.set_code else None)
        return normal_key(index, ("card", r.card.id, printing, tags))
    return ("?", fold_name(entry.name), entry.set_code or "",
            number_key(entry.number) if entry.number else "", tags)


def normal_key(index, key: tuple) -> tuple:
    """A (card, printing, tags) key with "no printing named" read as the card's own printing.

    An entry that names only the card stands for the printing fmt writes for it (see
    :func:`deckcli.decks.resolve.default_printing`), so "4 Walrus" and "4 Walrus (ABS) 12"
    are the same four cards.
    """
    kind, card_id, printing, tags = key
    if kind != "card" or isinstance(printing, int):
        return key
    from deckcli.decks.resolve import default_printing

    set_code = printing[1] if printing else None
    found = default_printing(index, index.card(card_id), tags, set_code)
    return (kind, card_id, found.id, tags) if found is not None else key
