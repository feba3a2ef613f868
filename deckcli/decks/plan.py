"""Which entries go where in a deck's canonical form: the plan ``fmt`` writes from, in every
format, and the order ``convert --to registration`` lists cards in (rule DL-2.x).

* Entries are grouped by kind (the game's ``KINDS`` order) and sorted by name, then printing
  (set, number), then variant tags. Two lines of the same card, printing and tags are merged
  (their comments kept). Names, set codes and numbers are spelled as in the card database.
* An entry naming only the card gets the card's own printing
  (:func:`~deckcli.decks.resolve.default_printing`): :func:`written_as`, for the deck's
  entries and the sideboard's alike (the sideboard keeps its order and is never merged).
* An entry that does not resolve (unknown or ambiguous card, wrong number) is kept as written,
  in its section if it had one, else before the first section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from deckcli.cards.names import fold_name
from deckcli.decks.limits import MAX_COUNT, MAX_LINE_CHARS
from deckcli.decks.model import Deck, Entry
from deckcli.decks.resolve import Resolved, default_printing, resolve_entry, settle_whole_names
from deckcli.decks.shapes import tag_order, variant_rank
from deckcli.games import get, section_kinds


class CannotFormat(Exception):
    """The deck cannot be formatted safely (parse errors, unknown game); nothing is written."""

    def __init__(self, message: str, problems=()):
        super().__init__(message)
        self.message = message
        self.problems = list(problems)


@dataclass
class Line:
    """One output entry: one or more merged input entries of the same card, printing, tags."""

    entries: list[Entry]
    resolved: object | None  # deckcli.decks.resolve.Resolved, or None: kept as written
    count: int
    leading: list[str] = field(default_factory=list)
    comment: str | None = None

    @property
    def entry(self) -> Entry:
        return self.entries[0]

    def fields(self) -> tuple[str, str | None, str | None, tuple[str, ...]]:
        """(name, set, number, tags) as the canonical form spells them."""
        r = self.resolved
        if r is None:
            e = self.entry
            return e.name, e.set_code, e.number, tuple(e.variants)
        tags = tuple(tag_order(self.entry.variants))
        if r.printing is not None:
            return r.card.name, r.printing.set_code, r.printing.number, tags
        return r.card.name, self.entry.set_code, None, tags


@dataclass
class Group:
    kind: str
    title: str  # the kind's plural, as the section header writes it
    lines: list[Line] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(x.count for x in self.lines)


_NUM = re.compile(r"^(\D*)(\d+)(.*)$")


def _number_order(number: str | None) -> tuple:
    if not number:
        return ()
    m = _NUM.match(number)
    if not m:
        return (number.casefold(), -1, "")
    return (m[1].casefold(), int(m[2]), m[3].casefold())


def _sort_key(line: Line) -> tuple:
    name, set_code, number, tags = line.fields()
    return (fold_name(name), set_code or "", _number_order(number),
            tuple(variant_rank(t) for t in tags), _number_order(line.resolved.card.number))


def _merge_key(r) -> tuple:
    printing = (r.printing.id if r.printing is not None
                else ("set", r.entry.set_code) if r.entry.set_code else None)
    return (r.card.id, printing, frozenset(r.entry.variants))


def written_as(index, game: str, entry: Entry, path: str | None) -> Resolved | None:
    """The card and printing an entry is written with in the canonical form: the printing it
    names, else (it names only the card, or only a set) the card's own printing
    (:func:`~deckcli.decks.resolve.default_printing`). None when it stands for no card of the
    game's kinds: then it keeps its own words."""
    r = resolve_entry(index, game, entry, path)
    if not isinstance(r, Resolved) or r.card.kind not in get(game).kinds:
        return None
    if r.printing is None:  # written as QTY NAME (SET) NUMBER: the card's own printing
        printing = default_printing(index, r.card, entry.variants, entry.set_code)
        if printing is not None:
            r = Resolved(entry, r.card, printing)
    return r


def entry_line_of(index, game: str, entry: Entry, path: str | None) -> Line:
    """One entry on its own (not merged with others) as the canonical form writes it."""
    return Line([entry], written_as(index, game, entry, path), entry.count, list(entry.leading),
                entry.comment)


def arrange(deck: Deck, index, game: str, extra_leading: dict[int, list[str]] | None = None
            ) -> tuple[list[Line], list[Group]]:
    """Split a deck into loose lines (kept as written, before any section) and kind groups."""
    settle_whole_names(deck, index, game)
    plurals = get(game).kinds
    kind_of_section = section_kinds(game)
    extra_leading = extra_leading or {}
    groups = {k: Group(k, p) for k, p in plurals.items()}
    loose: list[Line] = []
    merged: dict[tuple, Line] = {}
    unresolved_by_kind: dict[str, list[Line]] = {}
    for entry in deck.entries:
        leading = [*extra_leading.get(id(entry), []), *entry.leading]
        r = written_as(index, game, entry, deck.path)
        if r is None:
            line = Line([entry], None, entry.count, leading, entry.comment)
            kind = kind_of_section.get(entry.section or "")
            if kind in groups:
                unresolved_by_kind.setdefault(kind, []).append(line)
            else:
                loose.append(line)
            continue
        key = _merge_key(r)
        line = merged.get(key)
        if line is not None and line.count + entry.count <= MAX_COUNT and \
                len(_join(line.comment, entry.comment) or "") < MAX_LINE_CHARS // 2:
            line.entries.append(entry)
            line.count += entry.count
            line.leading.extend(leading)
            line.comment = _join(line.comment, entry.comment)
            continue
        line = Line([entry], r, entry.count, leading, entry.comment)
        merged[key] = line
        groups[r.card.kind].lines.append(line)
    out = []
    for kind, group in groups.items():
        group.lines.sort(key=_sort_key)
        group.lines.extend(unresolved_by_kind.get(kind, []))
        if group.lines:
            out.append(group)
    return loose, out


def sections_from_cards(deck: Deck, index, game: str) -> bool:
    """Whether the deck's section headers say only what its cards say, as ``fmt`` writes them:
    each kind's header once, above entries that are all cards of that kind, with their total
    if it gives one. ``fmt`` writes such headers again from the cards, so a format without
    section headers loses nothing by leaving them out (``convert`` does not warn)."""
    kinds = section_kinds(game)
    seen = set()
    for section in deck.sections:
        kind = kinds.get(section.key)
        if kind is None or not section.entries or section.key in seen:
            return False
        seen.add(section.key)
        if section.count is not None and section.count != sum(e.count for e in section.entries):
            return False
        for entry in section.entries:
            r = written_as(index, game, entry, deck.path)
            if r is None or r.card.kind != kind:
                return False
    return True


def ordered_lines(deck: Deck, index, game: str) -> list[Line]:
    """Every output entry in canonical order: the loose ones, then each kind's."""
    loose, groups = arrange(deck, index, game)
    return loose + [line for g in groups for line in g.lines]


def structured_item(line: Line) -> dict:
    """One output entry as a YAML/JSON mapping (the docs/decklists.md shape)."""
    name, set_code, number, tags = line.fields()
    item: dict = {"count": line.count, "name": name}
    if set_code:
        item["set"] = set_code
    if number:
        item["number"] = number
    if tags:
        item["variants"] = list(tags)
    if line.comment:
        item["comment"] = line.comment
    return item


def _join(a: str | None, b: str | None) -> str | None:
    if a and b and a != b:
        return f"{a}; {b}"
    return a or b
