"""Deck fingerprint: a short hash of card identities and counts, blind to printing and order.

Two lists that play the same cards (foil or not, promo or not, in any order or split over any
number of lines) share a fingerprint, so an organiser can show the deck played is the deck
registered. Entries that did not resolve count by their folded name.
"""

from __future__ import annotations

from functools import lru_cache

from deckcli.cards.names import fold_name, number_key
from deckcli.digest import sha256


def fingerprint(game: str, rdeck) -> str:
    counts: dict[str, int] = {}
    for r in rdeck.entries:
        key = _card_key(r.card.name, r.card.number)
        counts[key] = counts.get(key, 0) + r.entry.count
    if len(rdeck.entries) != len(rdeck.deck.entries):  # some entries did not resolve
        resolved = {id(r.entry) for r in rdeck.entries}
        for entry in rdeck.deck.entries:
            if id(entry) not in resolved:
                key = f"?{fold_name(entry.name)}"
                counts[key] = counts.get(key, 0) + entry.count
    text = game + "\n" + "\n".join([f"{counts[k]} {k}" for k in sorted(counts)])
    digest = sha256(text.encode()).hexdigest()
    return f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}"


@lru_cache(maxsize=65536)  # a batch meets the same cards over and over
def _card_key(name: str, number: str) -> str:
    """A card identity as the fingerprint spells it: folded common name and collector number."""
    return f"{fold_name(name)}#{number_key(number)}"
