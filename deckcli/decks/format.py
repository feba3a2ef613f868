"""The canonical form of a decklist, as ``deckcli fmt`` writes it (rule DL-2.x; CONTRACT.md).

Text decklists::

    # preamble comments stay at the top
    game: animal-battle                 <- header lines first: game, format, name, player
    format: casual

    Animals: 8                          <- one section per kind, in the game's order, with its total
    # a comment above an entry stays above it
    4 Orca (ABS) 10
    4 Walrus (ABS) 12  # a trailing comment stays on its entry

    Actions: 4
    4 Herd Instinct (DWV) 90

* Entries are grouped by kind (the game's ``KINDS`` order) and sorted by name, then printing
  (set, number), then variant tags. Two lines of the same card, printing and tags are merged
  (their comments kept). Names, set codes and numbers are spelled as in the card database.
* Entries are written one way: ``4 Name (SET) NUM [tag, tag]``. An entry naming only the card
  is written with the card's own printing (:func:`~deckcli.decks.resolve.default_printing`),
  or with ``fmt --event``, a printing from the event's legal sets (:func:`pin_printings`).
* An entry that does not resolve (unknown or ambiguous card, wrong number) keeps its words
  (name, set, number, tags, comment) in the one entry shape,
  in its section if it had one, else before the first section.
* Line endings (LF or CRLF) and a byte-order mark are kept.

YAML decklists keep being YAML (ruamel.yaml round-trip, so comments survive); JSON stays JSON
(2-space indent, one entry per line); CSV stays CSV. A deck with parse errors is never
formatted: :func:`format_deck` raises :class:`CannotFormat` with the problems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from deckcli.cards.names import VARIANTS, fold_name
from deckcli.decks.limits import MAX_COUNT, MAX_LINE_CHARS
from deckcli.decks.model import HEADER_KEYS, Deck, Entry


class CannotFormat(Exception):
    """The deck cannot be formatted safely (parse errors, unknown game); nothing is written."""

    def __init__(self, message: str, problems=()):
        super().__init__(message)
        self.message = message
        self.problems = list(problems)


# -- the plan: which entries go where ------------------------------------------------------------
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
        tags = tuple(sorted(set(self.entry.variants), key=_variant_rank))
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


def _variant_rank(tag: str) -> int:
    return VARIANTS.index(tag) if tag in VARIANTS else len(VARIANTS)


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
            tuple(_variant_rank(t) for t in tags), _number_order(line.resolved.card.number))


def _merge_key(r) -> tuple:
    printing = (r.printing.id if r.printing is not None
                else ("set", r.entry.set_code) if r.entry.set_code else None)
    return (r.card.id, printing, frozenset(r.entry.variants))


def game_for(deck: Deck, game: str | None) -> str:
    from deckcli.validate import Options, pick_game

    chosen, problems = pick_game(deck, Options(game=game))
    problems = [p for p in problems if p.is_error]  # an overridden header is only a warning
    if problems:
        raise CannotFormat(f"{problems[0].message}; pass --game to say which game it is",
                           problems)
    return chosen


def parse_errors(deck: Deck) -> list:
    return [p for p in deck.problems if p.is_error]


def arrange(deck: Deck, index, game: str, extra_leading: dict[int, list[str]] | None = None
            ) -> tuple[list[Line], list[Group]]:
    """Split a deck into loose lines (kept as written, before any section) and kind groups."""
    from deckcli.decks.resolve import (
        Resolved,
        default_printing,
        resolve_entry,
        settle_whole_names,
    )
    from deckcli.games import get, section_kinds

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
        r = resolve_entry(index, game, entry, deck.path)
        if not isinstance(r, Resolved) or r.card.kind not in groups:
            line = Line([entry], None, entry.count, leading, entry.comment)
            kind = kind_of_section.get(entry.section or "")
            if kind in groups:
                unresolved_by_kind.setdefault(kind, []).append(line)
            else:
                loose.append(line)
            continue
        if r.printing is None:  # written as QTY NAME (SET) NUMBER: the card's own printing
            printing = default_printing(index, r.card, entry.variants, entry.set_code)
            if printing is not None:
                r = Resolved(entry, r.card, printing)
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


def pin_printings(deck: Deck, index, game: str, sets) -> None:
    """Give every entry that names only the card a printing from ``sets`` (an event's legal
    sets): the card's own printing when its set is legal, else the first legal one by
    release, in the entry's variant tags. ``fmt`` writes every entry with a printing, and the
    card's own printing may be one the event does not allow, where the entry as written
    allowed any legal one (EV-2.1). Entries are changed in place; one with no fitting
    printing in a legal set is left as it is (the event refuses it either way)."""
    from deckcli.decks.resolve import (
        Resolved,
        default_printing,
        resolve_entry,
        settle_whole_names,
    )

    settle_whole_names(deck, index, game)
    for entry in deck.entries:
        if entry.set_code is not None:
            continue
        r = resolve_entry(index, game, entry, deck.path)
        if not isinstance(r, Resolved) or r.printing is not None:
            continue
        printing = default_printing(index, r.card, entry.variants, None, sets)
        if printing is not None:
            entry.set_code, entry.number = printing.set_code, printing.number


def _join(a: str | None, b: str | None) -> str | None:
    if a and b and a != b:
        return f"{a}; {b}"
    return a or b


# -- entry point ---------------------------------------------------------------------------------
def format_deck(deck: Deck, text: str, index, game: str | None = None) -> str:
    """The canonical text of ``deck`` (parsed from ``text``, BOM already stripped).

    The result keeps the deck's format and line endings; the caller adds the BOM back
    (:func:`encode`). Raises :class:`CannotFormat` when the deck has parse errors.
    """
    errors = parse_errors(deck)
    if errors:
        raise CannotFormat(f"{len(errors)} error(s) in the file; fix them first", errors)
    chosen = game_for(deck, game)
    newline = "\r\n" if "\r\n" in text else "\n"
    if deck.source_format == "text":
        out = _format_text(deck, text, index, chosen)
    elif deck.source_format == "yaml":
        from deckcli.decks.yamlfmt import format_yaml

        out = format_yaml(deck, text.replace("\r\n", "\n"), index, chosen)
    elif deck.source_format == "json":
        out = _format_json(deck, text, index, chosen)
    else:
        out = _format_csv(deck, index, chosen)
    return out.replace("\n", newline) if newline != "\n" else out


def encode(text: str, bom: bool) -> bytes:
    return (("\ufeff" if bom else "") + text).encode("utf-8")


# -- text ----------------------------------------------------------------------------------------
def comment_line(text: str) -> str:
    if not text:
        return "#"
    return "#" + text if text.startswith("#") else "# " + text


def entry_line(count: int, name: str, set_code, number, tags, comment) -> str:
    out = f"{count} {name}"
    if set_code:
        out += f" ({set_code})" + (f" {number}" if number else "")
    if tags:
        out += " [" + ", ".join(tags) + "]"
    if comment:
        out += f"  # {comment}"
    return out


@dataclass
class _TextExtras:
    """What the text parser reads but does not keep: comments around header and section lines."""

    header_comments: dict[str, str] = field(default_factory=dict)
    above_section: dict[int, list[str]] = field(default_factory=dict)
    on_section: dict[int, str] = field(default_factory=dict)


def _text_extras(deck: Deck, lines: list[str]) -> _TextExtras:
    """Walk the lines the way the text parser does, to find comments it drops."""
    extras = _TextExtras()
    from deckcli.decks.text import split_comment

    header_at = {n: k for k, n in deck.header_lines.items()}
    section_at = {s.line for s in deck.sections}
    side_at = _sideboard_headers(deck, lines)
    pending: list[str] = []
    seen_entry = seen_header = False
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            if pending and not seen_entry and not seen_header:
                pending = []  # became preamble
            continue
        if line.startswith("#"):
            pending.append(line[1:].strip())
            continue
        if line.startswith("//") and n not in side_at:
            pending.append(line[2:].strip())
            continue
        comment = split_comment(line)[1] or ""
        if n in header_at:
            seen_header, pending = True, []
            if comment:
                extras.header_comments[header_at[n]] = comment
        elif n in section_at:
            extras.above_section[n] = pending
            if comment:
                extras.on_section[n] = comment
            pending = []
        else:
            seen_entry, pending = True, []
    return extras


def _format_text(deck: Deck, text: str, index, game: str) -> str:
    from deckcli.decks.text import split_lines
    from deckcli.games import section_kinds

    lines = split_lines(text)
    extras = _text_extras(deck, lines)
    kind_of_section = section_kinds(game)
    # comments of input sections: to the output section of the same kind, else to the next entry
    section_notes: dict[str, tuple[list[str], list[str]]] = {}
    orphans: dict[int, list[str]] = {}
    trailer_first: list[str] = []
    kinds_present = _kinds_present(deck, index, game, kind_of_section)
    for s in deck.sections:
        above = extras.above_section.get(s.line, [])
        on = extras.on_section.get(s.line)
        kind = kind_of_section.get(s.key)
        if kind in kinds_present:
            notes = section_notes.setdefault(kind, ([], []))
            notes[0].extend(above)
            if on:
                notes[1].append(on)
            continue
        homeless = above + ([on] if on else [])
        if not homeless:
            continue
        after = next((e for e in deck.entries if e.line and e.line > s.line), None)
        if after is None:
            trailer_first.extend(homeless)
        else:
            orphans.setdefault(id(after), []).extend(homeless)

    loose, groups = arrange(deck, index, game, orphans)
    out: list[str] = [comment_line(c) for c in deck.preamble]
    if out:
        out.append("")
    for key in HEADER_KEYS:
        if key in deck.header:
            note = extras.header_comments.get(key)
            out.append(f"{key}: {deck.header[key]}" + (f"  # {note}" if note else ""))
    if deck.header:
        out.append("")
    blocks: list[list[str]] = []
    if loose:
        blocks.append([x for line in loose for x in _text_line(line)])
    for group in groups:
        above, on = section_notes.get(group.kind, ([], []))
        block = [comment_line(c) for c in above]
        block.append(f"{group.title}: {group.total}" + (f"  # {'; '.join(on)}" if on else ""))
        block.extend(x for line in group.lines for x in _text_line(line))
        blocks.append(block)
    if deck.sideboard:
        blocks.append(sideboard_lines(deck))
    for i, block in enumerate(blocks):
        if i:
            out.append("")
        out.extend(block)
    trailer = trailer_first + deck.trailer
    if trailer:
        out.append("")
        out.extend(comment_line(c) for c in trailer)
    return "\n".join(out) + "\n"


def sideboard_lines(deck: Deck) -> list[str]:
    """A ``Sideboard`` header and the sideboard's entries as written (in the one entry shape):
    not part of the deck, but the file's own, so fmt and convert keep them (rule DL-2.7)."""
    out = ["Sideboard"]
    for e in deck.sideboard:
        out.extend(comment_line(c) for c in e.leading)
        out.append(entry_line(e.count, e.name, e.set_code, e.number, e.variants, e.comment))
    return out


def _sideboard_headers(deck: Deck, lines: list[str]) -> set[int]:
    """The lines of ``// Sideboard`` headers (a ``//`` line that is not a comment)."""
    if not deck.sideboard:
        return set()
    from deckcli.decks.layouts import slashed_side

    return {n for n, raw in enumerate(lines, start=1)
            if raw.strip()[:2] == "//" and slashed_side(raw.strip()[2:])}


def _kinds_present(deck, index, game, kind_of_section) -> set[str]:
    from deckcli.decks.resolve import Resolved, resolve_entry

    kinds = set()
    for entry in deck.entries:
        r = resolve_entry(index, game, entry, deck.path)
        if isinstance(r, Resolved) and r.card.kind in kind_of_section.values():
            kinds.add(r.card.kind)
        elif entry.section in kind_of_section:
            kinds.add(kind_of_section[entry.section])
    return kinds


def _text_line(line: Line) -> list[str]:
    out = [comment_line(c) for c in line.leading]
    if line.resolved is None:  # its own words, in the one entry shape: '4x Wlarus' -> '4 Wlarus'
        e = line.entry
        out.append(entry_line(e.count, e.name, e.set_code, e.number, e.variants, e.comment))
    else:
        out.append(entry_line(line.count, *line.fields(), line.comment))
    return out


# -- structured: YAML, JSON, CSV -----------------------------------------------------------------
def structured_item(line: Line) -> dict:
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


def _ordered_lines(deck, index, game) -> list[Line]:
    loose, groups = arrange(deck, index, game)
    return loose + [line for g in groups for line in g.lines]


def _format_json(deck: Deck, text: str, index, game: str) -> str:
    import json

    data = json.loads(text)
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) != len(deck.entries):
        raise CannotFormat("the cards list does not match the entries read from it")
    raw = {id(e): item for e, item in zip(deck.entries, cards)}
    items = [raw[id(line.entry)] if line.resolved is None else structured_item(line)
             for line in _ordered_lines(deck, index, game)]
    return dump_json(data, items)


def dump_json(data: dict, items: list) -> str:
    """JSON with 2-space indent, header keys first, one card entry per line."""
    import json

    def one(value) -> str:
        return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")

    keys = [k for k in HEADER_KEYS if k in data]
    keys += ["cards"] + [k for k in data if k not in HEADER_KEYS and k != "cards"]
    parts = []
    for key in keys:
        if key == "cards":
            if items:
                body = ",\n".join(
                    "    " + json.dumps(i, ensure_ascii=False, separators=(", ", ": "))
                    for i in items)
                parts.append(f'  "cards": [\n{body}\n  ]')
            else:
                parts.append('  "cards": []')
        else:
            parts.append(f"  {json.dumps(key, ensure_ascii=False)}: {one(data[key])}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _format_csv(deck: Deck, index, game: str) -> str:
    from deckcli.decks.convert import to_csv

    lines = _ordered_lines(deck, index, game)
    entries = []
    for line in lines:
        if line.resolved is None:
            entries.append(line.entry)
        else:
            name, set_code, number, tags = line.fields()
            entries.append(Entry(line.count, name, set_code, number, tags))
    return to_csv(Deck(deck.path, "csv", entries=entries))
