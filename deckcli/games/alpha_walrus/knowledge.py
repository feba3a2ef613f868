"""What each player knows of the hidden cards (AW-11.4): what card text showed them (a hand
looked at, the top of the deck, a gear piece shown, a count told) and what they saw move
(a card they gave, a creature returned to its owner's hand).

Kept in ``State.known``: viewer -> ``{"hand:NAME": [cards known in NAME's hand], "deck":
[the deck's top cards, top first], "told": [facts]}``. Knowledge is kept true, never more than
true: a card that leaves a hand leaves every list of it, a draw takes the known top, and a
card put into the deck anywhere but the top (or a shuffle) forgets the deck's order. A
player's view holds their own knowledge, and a search deals unknown cards around what its
player knows (``AlphaWalrusEngine.sample``).
"""

from __future__ import annotations


def _of(st, viewer: str) -> dict:
    return st.known.setdefault(viewer, {})


def see_hand(st, viewer: str, owner: str) -> None:
    """``viewer`` looks at ``owner``'s whole hand."""
    _of(st, viewer)[f"hand:{owner}"] = list(st.players[owner].hand)


def see_card(st, viewer: str, owner: str, card) -> None:
    """``viewer`` knows ``card`` is (now) in ``owner``'s hand."""
    if viewer != owner:
        _of(st, viewer).setdefault(f"hand:{owner}", []).append(card)


def see_by_all(st, owner: str, card) -> None:
    """Everyone saw ``card`` go into ``owner``'s hand (from the field, the discard pile)."""
    for viewer in st.order:
        see_card(st, viewer, owner, card)


def see_top(st, viewer: str, cards: list) -> None:
    """``viewer`` knows the deck's top cards, in order."""
    _of(st, viewer)["deck"] = list(cards)


def tell(st, viewer: str, fact: dict) -> None:
    _of(st, viewer).setdefault("told", []).append(fact)


def left_hand(st, owner: str, card) -> None:
    """``card`` left ``owner``'s hand: nobody knows it is there any more."""
    key = f"hand:{owner}"
    for known in st.known.values():
        cards = known.get(key)
        if cards:
            for i, c in enumerate(cards):
                if c.id == card.id:
                    del cards[i]
                    break


def drew(st, n: int) -> None:
    """``n`` cards were drawn from the top of the deck."""
    for known in st.known.values():
        top = known.get("deck")
        if top:
            del top[:n]


def deck_changed(st) -> None:
    """A card went into the deck below the top, or the deck was shuffled: its order is
    unknown again."""
    for known in st.known.values():
        known.pop("deck", None)


def view(st, viewer: str) -> dict:
    """What ``viewer`` knows, as plain values (card references)."""
    own = st.known.get(viewer, {})
    out = {}
    for key, value in sorted(own.items()):
        if key == "told":
            out[key] = [dict(f) for f in value]
        elif value:
            out[key] = [c.ref for c in value]
    return out
