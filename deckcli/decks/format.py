"""The canonical form of a decklist, as ``deckcli fmt`` writes it (rule DL-2.x; docs/decklists.md).

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

* Which entries go where (grouped by kind, sorted, merged; an entry naming only the card gets
  its own printing, or with ``fmt --event`` one from the event's legal sets: :func:`pin_printings`;
  an unresolved entry kept as written) is :mod:`deckcli.decks.plan`'s; the one entry shape,
  ``4 Name (SET) NUM [tag, tag]``, is :mod:`deckcli.decks.shapes`'.
* Line endings (LF or CRLF) and a byte-order mark are kept.

YAML decklists keep being YAML (ruamel.yaml round-trip, so comments survive); JSON stays JSON
(2-space indent, one entry per line); CSV stays CSV. A deck with parse errors is never
formatted: :func:`format_deck` raises :class:`CannotFormat` with the problems.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from deckcli.decks.convert import to_csv
from deckcli.decks.lines import split_comment, split_lines
from deckcli.decks.model import HEADER_KEYS, Deck, Entry
from deckcli.decks.plan import (
    CannotFormat,
    Line,
    arrange,
    entry_line_of,
    ordered_lines,
    structured_item,
)
from deckcli.decks.resolve import (
    Resolved,
    default_printing,
    resolve_entry,
    settle_whole_names,
)
from deckcli.decks.shapes import comment_line, dump_json, entry_line, sideboard_lines
from deckcli.decks.yamlfmt import format_yaml
from deckcli.games import section_kinds


def game_for(deck: Deck, game: str | None) -> str:
    from deckcli.decks.header import game_of

    chosen, problems = game_of(deck, game)
    problems = [p for p in problems if p.is_error]  # an overridden header is only a warning
    if problems:
        raise CannotFormat(f"{problems[0].message}; pass --game to say which game it is",
                           problems)
    return chosen


def parse_errors(deck: Deck) -> list:
    return [p for p in deck.problems if p.is_error]


def pin_printings(deck: Deck, index, game: str, sets) -> None:
    """Give every entry that names only the card a printing from ``sets`` (an event's legal
    sets): the card's own printing when its set is legal, else the first legal one by
    release, in the entry's variant tags. ``fmt`` writes every entry with a printing, and the
    card's own printing may be one the event does not allow, where the entry as written
    allowed any legal one (EV-2.1). Entries are changed in place; one with no fitting
    printing in a legal set is left as it is (the event refuses it either way)."""
    settle_whole_names(deck, index, game)
    for entry in (*deck.entries, *deck.sideboard):  # a sideboard is written as the deck is
        if entry.set_code is not None:
            continue
        r = resolve_entry(index, game, entry, deck.path)
        if not isinstance(r, Resolved) or r.printing is not None:
            continue
        printing = default_printing(index, r.card, entry.variants, None, sets)
        if printing is not None:
            entry.set_code, entry.number = printing.set_code, printing.number


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
        out = format_yaml(deck, text.replace("\r\n", "\n"), index, chosen)
    elif deck.source_format == "json":
        out = _format_json(deck, text, index, chosen)
    else:
        out = _format_csv(deck, index, chosen)
    return out.replace("\n", newline) if newline != "\n" else out


def encode(text: str, bom: bool) -> bytes:
    return (("\ufeff" if bom else "") + text).encode("utf-8")


# -- text ----------------------------------------------------------------------------------------
@dataclass
class _TextExtras:
    """What the text parser reads but does not keep: comments around header and section lines."""

    header_comments: dict[str, str] = field(default_factory=dict)
    above_section: dict[int, list[str]] = field(default_factory=dict)
    on_section: dict[int, str] = field(default_factory=dict)


def _text_extras(deck: Deck, lines: list[str]) -> _TextExtras:
    """Walk the lines the way the text parser does, to find comments it drops."""
    extras = _TextExtras()
    header_at = {n: k for k, n in deck.header_lines.items()}
    # a header line with no value reads as its comment alone (decks/text.py)
    empty_at = {p.line for p in deck.problems if p.code == "empty-header"}
    section_at = {s.line for s in deck.sections}
    side_at = _sideboard_headers(deck, lines)
    # the first header, section header or entry: the comment lines above it are the file's
    # top (the parser's preamble), whatever follows them
    first = min((*header_at, *empty_at, *section_at,
                 *(e.line for e in (*deck.entries, *deck.sideboard) if e.line)),
                default=len(lines) + 1)
    pending: list[str] = []
    seen_entry = seen_header = False
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if n < first and (line[:1] == "#" or (line[:2] == "//" and n not in side_at)):
            continue
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
        if n in empty_at:
            if comment:
                pending.append(comment)
        elif n in header_at:
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
    if deck.sideboard:  # its entries written as the deck's are, in their order, uncounted
        blocks.append(sideboard_lines(deck, lambda e: _text_line(
            entry_line_of(index, game, e, deck.path))))
    if not deck.header and blocks and blocks[0][0].startswith("#"):
        # no header above the first block: the comments it starts with (an entry's or a
        # section's, sorted first) are read back as the top of the file, so they are written
        # as the top is (after the top's own), and fmt's output is fmt's fixed point
        lead = next(i for i, line in enumerate(blocks[0]) if not line.startswith("#"))
        out[len(deck.preamble):] = [*blocks[0][:lead], ""]
        blocks[0] = blocks[0][lead:]
    for i, block in enumerate(blocks):
        if i:
            out.append("")
        out.extend(block)
    trailer = trailer_first + deck.trailer
    if trailer:
        out.append("")
        out.extend(comment_line(c) for c in trailer)
    return "\n".join(out) + "\n"


def _sideboard_headers(deck: Deck, lines: list[str]) -> set[int]:
    """The lines of ``// Sideboard`` headers (a ``//`` line that is not a comment)."""
    if not deck.sideboard:
        return set()
    from deckcli.decks.layouts import slashed_side

    return {n for n, raw in enumerate(lines, start=1)
            if raw.strip()[:2] == "//" and slashed_side(raw.strip()[2:])}


def _kinds_present(deck, index, game, kind_of_section) -> set[str]:
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
def _format_json(deck: Deck, text: str, index, game: str) -> str:
    data = json.loads(text)
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) != len(deck.entries):
        raise CannotFormat("the cards list does not match the entries read from it")
    raw = {id(e): item for e, item in zip(deck.entries, cards)}
    items = [raw[id(line.entry)] if line.resolved is None else structured_item(line)
             for line in ordered_lines(deck, index, game)]
    return dump_json(data, items)


def _format_csv(deck: Deck, index, game: str) -> str:
    lines = ordered_lines(deck, index, game)
    entries = []
    for line in lines:
        if line.resolved is None:
            entries.append(line.entry)
        else:
            name, set_code, number, tags = line.fields()
            entries.append(Entry(line.count, name, set_code, number, tags))
    return to_csv(Deck(deck.path, "csv", entries=entries))
