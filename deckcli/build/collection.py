"""The binder: the cards a player owns, read exactly, and what a deck may take of them.

A collection is a decklist (any format deckcli reads) whose counts are the copies owned. Each
entry is its own *stock*: a printing or variant owned counts only as itself (two foil and two
regular copies of Walrus 12 are two stocks), and a deck may take up to the copies owned of each.
Every version counts toward the card's copy limit, as in a deck (AB-1.5, AB-1.6; a card's own
text, AB-6.4; an event's limit, EV-1.3). With an event, banned cards (EV-1.1) and stock outside
the legal sets (EV-2.1) are left out, as ``validate --event`` would refuse them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckcli.errors import DeckcliError

if TYPE_CHECKING:
    from deckcli.games.base import Game


class Stock:
    """One owned version: the card, the printing the collection names (None: any), the
    variant tags, and how many copies are owned."""

    __slots__ = ("card", "printing", "variants", "owned", "info", "line")

    def __init__(self, card, printing, variants: tuple, owned: int, info, line):
        self.card, self.printing, self.variants = card, printing, variants
        self.owned, self.info, self.line = owned, info, line

    @property
    def identity(self) -> int:
        return self.card.id

    @property
    def key(self) -> tuple:
        """What makes two lines the same stock: the card, the printing named, the tags."""
        return stock_key(self.card, self.printing, self.variants)

    def shown(self, count: int) -> str:
        """``count`` copies of this stock as a person reads them: the card's reference and, if
        the binder names one, the printing and tags."""
        text = f"{count} {self.card.name} "
        text += f"({self.printing.set_code}) {self.printing.number}" if self.printing else \
            self.card.ref[len(self.card.name) + 1:]
        return text + (f" [{', '.join(self.variants)}]" if self.variants else "")

    def entry(self, count: int) -> str:
        """A decklist line for ``count`` copies of this stock, naming what the binder names."""
        text = f"{count} {self.card.name}"
        if self.printing is not None:
            text += f" ({self.printing.set_code}) {self.printing.number}"
        if self.variants:
            text += f" [{', '.join(self.variants)}]"
        return text

    def __repr__(self) -> str:
        return f"Stock({self.entry(self.owned)!r})"


def stock_key(card, printing, variants) -> tuple:
    return card.id, printing.id if printing is not None else None, tuple(sorted(variants))


class Binder:
    """What a deck may be built from: the usable stock, each card's copy limit, the format."""

    __slots__ = ("path", "game", "format", "stock", "limits", "left_out", "size", "max_size")

    def __init__(self, path, game, fmt, stock, limits, left_out, size, max_size):
        self.path, self.game, self.format, self.stock = path, game, fmt, stock
        self.limits, self.left_out, self.size, self.max_size = limits, left_out, size, max_size

    def playable(self) -> int:
        """Copies a deck can hold: owned copies of each card, up to its copy limit."""
        owned: dict[int, int] = {}
        for s in self.stock:
            owned[s.identity] = owned.get(s.identity, 0) + s.owned
        return sum(min(n, self.limit(cid)) for cid, n in owned.items())

    def limit(self, identity: int) -> int:
        found = self.limits.get(identity)
        return 10_000 if found is None else found

    def cannot_start(self, counts: dict[int, int] | None = None) -> str | None:
        """Why no game can start from the deck of ``counts`` (stock index -> copies; every
        copy owned when None), by its game's rule (``Game.cannot_start``)."""
        from deckcli.games import get

        if counts is None:
            counts = {i: s.owned for i, s in enumerate(self.stock)}
        kinds = [self.stock[i].info.kind for i, n in counts.items() for _ in range(n)]
        return get(self.game).cannot_start(kinds, None)

    def missing(self) -> str | None:
        """Why no legal deck can be made, in numbers; None when one can."""
        have = self.playable()
        if have < self.size:
            detail = f" ({len(self.left_out)} owned cards left out: " + "; ".join(
                self.left_out[:3]) + ("; ..." if len(self.left_out) > 3 else "") + ")" \
                if self.left_out else ""
            return (f"the binder holds {have} playable copies; {self.format} needs "
                    f"{self.size}{detail}")
        why = self.cannot_start()
        if why:
            return f"no game can start from the binder's cards: {why}"
        return None


def read_binder(path: str, index, game: str, fmt: str | None, event=None, deck=None) -> Binder:
    """Read a collection for ``game`` and ``fmt`` (``deck``: the file already read). A file
    that cannot be read, or names a card that does not exist, stops the command (exit 2)."""
    from deckcli.decks.reader import read_deck
    from deckcli.decks.resolve import resolve_deck
    from deckcli.games import get

    deck = deck or read_deck(path, is_set=index.is_any_set_code)
    errors = [p for p in deck.problems if p.is_error]
    if errors or not deck.readable:
        first = errors[0] if errors else None
        raise DeckcliError(f"cannot be read as a collection: {first.message if first else ''}",
                           path=path, line=first.line if first else None)
    rdeck = resolve_deck(index, deck, game, fmt)
    bad = [p for p in rdeck.problems if p.is_error]
    if bad:
        raise DeckcliError(f"cannot be read as a collection: {bad[0].message}", path=path,
                           line=bad[0].line)
    refused: dict[int | None, str] = {}  # collection line -> why the event refuses it
    if event is not None:
        from deckcli.events.checks import check_event_rules

        for p in check_event_rules(rdeck, event, index):
            refused.setdefault(p.line, p.message)
    play_card = get(game).play_card
    # a line naming only the card is legal where one of its printings is in a legal set
    # (EV-2.1); the deck names one of those, as fmt --event pins it, not the card's own
    sets = event.legal_sets() if event is not None and event.sets is not None else None
    merged: dict[tuple, Stock] = {}
    left_out: list[str] = []
    for r in rdeck.entries:
        e = r.entry
        if e.line in refused:
            left_out.append(f"line {e.line}: {refused[e.line]}")
            continue
        printing = r.printing
        if printing is None and sets is not None and e.set_code is None:
            from deckcli.decks.resolve import default_printing

            printing = default_printing(index, r.card, e.variants, None, sets)
        key = stock_key(r.card, printing, e.variants)
        if key in merged:
            merged[key].owned += e.count
        else:
            merged[key] = Stock(r.card, printing, tuple(e.variants), e.count,
                                play_card(r.card), e.line)
    stock = sorted(merged.values(), key=lambda s: (s.card.name, s.card.id, s.line or 0))
    limits = _limits(get(game), stock, event)
    size, max_size = _sizes(get(game), fmt)
    return Binder(path, game, fmt, stock, limits, left_out, size, max_size)


def _limits(game: Game, stock, event) -> dict[int, int | None]:
    """Each card's copy limit: the game's (and the card's own text), tightened by an event."""
    limited = event.limited_ids() if event is not None else {}
    return {s.identity: game.copy_limit(s.card, limited.get(s.identity)) for s in stock}


def _sizes(game: Game, fmt) -> tuple[int, int | None]:
    return game.deck_size(fmt)
