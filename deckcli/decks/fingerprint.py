"""Deck fingerprint: a short hash of card identities and counts, blind to printing and order.

Two lists that play the same cards (foil or not, promo or not, in any order or split over any
number of lines) share a fingerprint, so an organiser can show the deck played is the deck
registered. Entries that did not resolve count by their folded name.
"""

from __future__ import annotations

from deckcli.cards.names import fold_name
from deckcli.digest import sha256


def fingerprint(game: str, rdeck) -> str:
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
    try:  # "4 walrus#12": each line the copies, then the key
        lines = [_COPIES[counts[key]] + key for key in keys]
    except IndexError:  # a card of 100 copies or more
        lines = [(_COPIES[n] if n < len(_COPIES) else f"{n} ") + key
                 for key, n in zip(keys, map(counts.get, keys))]
    text = game + "\n" + "\n".join(lines) if lines else game
    digest = sha256(text.encode()).digest()[:6].hex()  # the first 12 hex digits
    return f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}"


#: "0 ", "1 ", ... "99 ": a line of the hashed text starts with the copies (formatting an
#: int is the dearest step of a fingerprint; a batch computes thousands)
_COPIES = [f"{n} " for n in range(100)]
