"""Card references typed on the command line or in a game log: ``Walrus``,
``Walrus (ABS) 12``, ``Walrus ABS 12``, ``ABS 12``, optionally with variant tags.

The one place every command that takes a card (``cards show``, both referees, ``add`` and
``remove``, event bans) turns text into a card. A reference is read exactly like a decklist
line (it is parsed as ``1 REF`` and resolved with :func:`deckcli.decks.resolve.resolve_entry`),
so it accepts the same spellings and fails the same way: an unknown card is
:class:`NotFoundError` with "did you mean" suggestions, an ambiguous name a
:class:`UsageError` listing the candidates (exit 2 either way). Suggest, never substitute.
"""

from __future__ import annotations

from deckcli.errors import NotFoundError, UsageError

_NOT_FOUND = ("unknown-card", "unknown-printing", "unknown-set")


def resolve_ref(index, game: str, text: str):
    """The :class:`~deckcli.decks.resolve.Resolved` entry a reference names."""
    from deckcli.decks.lines import is_number_token
    from deckcli.decks.resolve import Resolved, resolve_entry
    from deckcli.decks.text import parse_text

    text = " ".join(str(text).split())
    if not text:
        raise UsageError("an empty card reference")
    parts = text.split(" ")
    if (len(parts) == 2 and index.is_set_code(game, parts[0]) and is_number_token(parts[1])
            and not index.cards_named(game, text)):
        printing = index.printing(game, parts[0], parts[1])
        if printing is None:
            raise NotFoundError(f"there is no card number {parts[1]} in {game} set "
                                f"{parts[0].upper()}")
        from deckcli.decks.model import Entry

        card = index.card(printing.card_id)
        entry = Entry(1, card.name, printing.set_code, printing.number)
        return Resolved(entry, card, printing)
    deck = parse_text("1 " + text, None, is_set=lambda code: index.is_set_code(game, code))
    errors = [p for p in deck.problems if p.is_error]
    if errors or len(deck.entries) != 1:
        raise UsageError(f"{text!r} is not a card reference (a name, 'Name (SET) NUM' or "
                         "'SET NUM')" + (f": {errors[0].message}" if errors else ""))
    result = resolve_entry(index, game, deck.entries[0], None)
    if isinstance(result, Resolved):
        return result
    raise (NotFoundError if result.code in _NOT_FOUND else UsageError)(result.message)


def parse_ref(index, game: str, text: str):
    """(card, printing or None) for a reference."""
    r = resolve_ref(index, game, text)
    return r.card, r.printing
