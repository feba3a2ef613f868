"""Resolve decklist entries against the card index (rules DL-3.x, DL-4.2).

Suggest, never substitute: an unknown name gets up to three "did you mean" names; an ambiguous
name gets the list of candidates; neither is replaced by a guess.
"""

from __future__ import annotations

from deckcli.cards.index import Card, CardIndex, Printing
from deckcli.cards.names import fold_name
from deckcli.decks.limits import MEMO_LINES
from deckcli.decks.model import Deck, Entry
from deckcli.diagnostics import Diagnostic, error
from deckcli.records import MutableRecord, Record


class Resolved(Record):
    """An entry and the card (and printing, when the entry names one) it stands for."""

    __slots__ = ("entry", "card", "printing")

    def __init__(self, entry: Entry, card: Card, printing: Printing | None):
        self.entry = entry
        self.card = card
        self.printing = printing  # None: the entry names the card only

    __hash__ = None  # type: ignore[assignment]


class ResolvedDeck(MutableRecord):
    """A deck with every entry that could be resolved, and the problems of those that could not.

    What the deck checks and the fingerprint read of it, which :class:`deckcli.decks.quick.
    QuickDeck` offers too: ``path``, ``game``, ``format``, ``card_count``, ``entries``,
    :meth:`totals`, :meth:`listing` (one card's entries), :meth:`printed` and
    :meth:`unresolved`.
    """

    __slots__ = ("deck", "game", "format", "entries", "problems", "_totals")

    def __init__(self, deck: Deck, game: str, format: str | None,
                 entries: list[Resolved] | None = None, problems: list[Diagnostic] | None = None):
        self.deck = deck
        self.game = game
        self.format = format
        self.entries = [] if entries is None else entries
        self.problems = [] if problems is None else problems
        self._totals = None

    def _values(self) -> tuple:  # equality leaves the cached totals out
        return (self.deck, self.game, self.format, self.entries, self.problems)

    @property
    def path(self) -> str | None:
        return self.deck.path

    @property
    def card_count(self) -> int:
        return self.deck.card_count

    def totals(self) -> dict[int, list]:
        """Card id -> [card, copies]: every printing and variant of a card together (AB-1.6),
        in the order the cards first appear."""
        if self._totals is None:
            self._totals = totals_of((r.card, r.entry.count) for r in self.entries)
        return self._totals

    def listing(self, card_id: int) -> list[Resolved]:
        """The resolved entries of one card, in deck order."""
        return [r for r in self.entries if r.card.id == card_id]

    def printed(self) -> list[tuple]:
        """What each resolved entry says of its printing, in the order of ``entries``: (card,
        printing or None, set code as written or None, variant tags, whole name part or None)
        (an event's set check, EV-2.1, reads it)."""
        return [(r.card, r.printing, r.entry.set_code, r.entry.variants, r.entry.whole)
                for r in self.entries]

    def unresolved(self) -> list[Entry]:
        """The deck's entries that stand for no card (their problems are in ``problems``)."""
        if len(self.entries) == len(self.deck.entries):
            return []
        resolved = {id(r.entry) for r in self.entries}
        return [e for e in self.deck.entries if id(e) not in resolved]


def totals_of(copies) -> dict[int, list]:
    """Card id -> [card, copies] from (card, copies) pairs, in order of first appearance:
    every printing and variant of a card together (AB-1.6)."""
    out: dict[int, list] = {}
    for card, n in copies:
        found = out.get(card.id)
        if found is None:
            out[card.id] = [card, n]
        else:
            found[1] += n
    return out


def resolve_entry(index: CardIndex, game: str, entry: Entry, path: str | None,
                  memo: dict | None = None) -> Resolved | Diagnostic:
    """The card an entry stands for, or the problem with it (at the entry's file and line).

    The answer depends only on what the entry says, so it is remembered on the index for the
    rest of the run (``memo``: that dict, when the caller already holds it): a batch of decks
    repeats the same lines over and over.
    """
    if memo is None:
        memo = index.memo.setdefault("resolve", {})
    key = (game, entry.name, entry.set_code, entry.number, entry.variants, entry.whole)
    found = memo.get(key)
    if found is None:
        if len(memo) > MEMO_LINES:  # a batch of ever-new entries: start again
            memo.clear()
        found = memo[key] = _resolve(index, game, entry)
    if len(found) == 2:
        return Resolved(entry, found[0], found[1])
    code, rule, message, card = found
    return error(code, rule, message, path=path, line=entry.line, card=card)


def _resolve(index: CardIndex, game: str, entry: Entry) -> tuple:
    """(card, printing) or (code, rule, message, card ref) for an entry's text."""

    def bad(code: str, rule: str, message: str, card: str | None = None) -> tuple:
        return (code, rule, message, card)

    name, set_code, number = entry.name, entry.set_code, entry.number
    if whole_is_name(index, game, entry.whole):
        name, set_code, number = entry.whole, None, None  # the "set code" was part of the name
    printing = None
    if set_code and number:
        printing = index.printing(game, set_code, number)
        if printing is None:
            if not index.is_set_code(game, set_code):
                return _unknown_set(index, game, set_code, bad)
            hint = _same_name_printings(index, game, name)
            return bad("unknown-printing", "DL-3.3",
                       f"there is no card number {number} in set {set_code}" + hint)
        card = index.card(printing.card_id)
        if fold_name(card.name) != fold_name(name):
            return bad("name-mismatch", "DL-3.5",
                       f"({printing.set_code}) {printing.number} is {card.name}, not {name}; "
                       "fix the name or the number", card=card.ref)
    else:
        cards = index.cards_named(game, name)
        if set_code:  # "(SET)" without a number: the card's printings in that set
            if not index.is_set_code(game, set_code):
                return _unknown_set(index, game, set_code, bad)
            named = cards
            cards = [c for c in cards
                     if any(p.set_code == set_code for p in index.printings_of(c.id))]
            if named and not cards:  # the card exists, only not in that set
                return bad("unknown-printing", "DL-3.3",
                           f"{named[0].name} has no printing in set {set_code}"
                           + _same_name_printings(index, game, name))
        if not cards:
            return _unknown(index, game, name, bad)
        if len(cards) > 1:
            refs = ", ".join(c.ref for c in cards)
            return bad("ambiguous-card", "DL-3.4",
                       f"'{name}' names {len(cards)} different cards: {refs}; "
                       f"give the set and number, as in '{cards[0].ref}'")
        card = cards[0]
    if entry.variants:
        problem = _check_variants(index, card, printing, entry, set_code)
        if problem:
            return bad("variant-not-printed", "DL-4.2", problem, card=card.ref)
    return (card, printing)


def whole_is_name(index: CardIndex, game: str, whole: str | None) -> bool:
    """Whether an entry's whole name part, set code and number included, is a card's name
    ("a word that looks like a set code but is part of a card's name stays part of the
    name"): then the entry names that card and no set."""
    return bool(whole) and bool(index.cards_named(game, whole))


def settle_whole_names(deck, index: CardIndex, game: str) -> None:
    """Rewrite, in place, every entry whose whole name part is a card's name
    (:func:`whole_is_name`) as that name with no set or number: ``1 Agent RFS 9`` names the
    card 'Agent RFS 9', and a command that writes the entry out (``fmt``, ``convert``) must
    not split it into 'Agent', set RFS, number 9. Sideboard entries too: they are written out
    as well."""
    for entry in (*deck.entries, *deck.sideboard):
        if entry.whole and entry.set_code is not None and whole_is_name(index, game, entry.whole):
            entry.name, entry.set_code, entry.number, entry.whole = entry.whole, None, None, None


def _unknown_set(index: CardIndex, game: str, set_code: str, bad) -> tuple:
    known = ", ".join(s["code"] for s in index.sets(game))
    return bad("unknown-set", "DL-3.3", f"{set_code} is not a set code of {game} (known: {known})")


def _unknown(index: CardIndex, game: str, name: str, bad) -> tuple:
    suggestions = index.suggest(game, name)
    hint = f"; did you mean {_or(suggestions)}?" if suggestions else ""
    other = _other_game(index, game, name)
    if other:
        hint += f" ({name} is an {other} card; is the deck's game wrong?)"
    return bad("unknown-card", "DL-3.3", f"no {game} card is named '{name}'{hint}")


def _other_game(index: CardIndex, game: str, name: str) -> str | None:
    from deckcli.games import GAMES

    for other in GAMES:
        if other != game and index.cards_named(other, name):
            return other
    return None


def _same_name_printings(index, game, name) -> str:
    cards = index.cards_named(game, name)
    if not cards:
        return ""
    refs = [f"({p.set_code}) {p.number}" for c in cards for p in index.printings_of(c.id)][:6]
    return f"; {name} is printed as {', '.join(refs)}"


def _check_variants(index, card, printing, entry, set_code) -> str | None:
    wanted = set(entry.variants)
    tags = ", ".join(entry.variants)
    if printing is not None:
        missing = sorted(wanted - set(printing.variants))
        if missing:
            exists = ", ".join(["regular", *printing.variants])
            return (f"{card.name} {printing.ref} is not printed in {', '.join(missing)} "
                    f"(it exists as: {exists})")
        return None
    if not printings_fitting(index, card, entry.variants, set_code or None):
        return f"{card.ref} has no printing in {tags}"
    return None


def _or(items: list[str]) -> str:
    quoted = [f"'{s}'" for s in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def resolve_deck(index: CardIndex, deck: Deck, game: str, fmt: str | None) -> ResolvedDeck:
    out = ResolvedDeck(deck, game, fmt)
    memo = index.memo.setdefault("resolve", {})
    for entry in deck.entries:
        result = resolve_entry(index, game, entry, deck.path, memo)
        if type(result) is Resolved:
            out.entries.append(result)
        else:
            out.problems.append(result)
    return out


def default_printing(index: CardIndex, card: Card, tags=(), set_code: str | None = None,
                     sets=None) -> Printing | None:
    """The printing an entry that names only the card stands for, as fmt writes it.

    The card's own printing (its base set and collector number) when it exists in the tags
    given (and the set, if one was named), else the first printing, by release, that does;
    None when no printing fits. With ``sets`` (an event's legal sets), only a printing from
    one of those sets fits.
    """
    fits = printings_fitting(index, card, tags, set_code)
    if sets is not None:
        fits = [p for p in fits if p.set_code in sets]
    for p in fits:
        if p.set_code == card.base_set and p.number == card.number:
            return p
    return fits[0] if fits else None


def printings_fitting(index: CardIndex, card: Card, tags=(), set_code: str | None = None
                      ) -> list[Printing]:
    """The printings of a card an entry naming no printing may stand for: those in all its
    variant tags and, when it names a set, in that set; in release order."""
    wanted = set(tags)
    return [p for p in index.printings_of(card.id)
            if wanted <= set(p.variants) and (set_code is None or p.set_code == set_code)]
