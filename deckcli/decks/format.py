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
* Counts are written one way: ``4 Name (SET) NUM [tag, tag]``. An entry naming only the card
  keeps naming only the card: a printing is never invented.
* An entry that does not resolve (unknown or ambiguous card, wrong number) is kept as written,
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
    if problems:
        raise CannotFormat(f"{problems[0].message}; pass --game to say which game it is",
                           problems)
    return chosen


def parse_errors(deck: Deck) -> list:
    return [p for p in deck.problems if p.is_error]


def arrange(deck: Deck, index, game: str, extra_leading: dict[int, list[str]] | None = None
            ) -> tuple[list[Line], list[Group]]:
    """Split a deck into loose lines (kept as written, before any section) and kind groups."""
    from deckcli.decks.resolve import Resolved, resolve_entry
    from deckcli.games import game_module

    module = game_module(game)
    plurals = module.KIND_PLURALS
    kind_of_section = {p.casefold(): k for k, p in plurals.items()}
    extra_leading = extra_leading or {}
    groups = {k: Group(k, plurals[k]) for k in module.KINDS if k in plurals}
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
        out = _format_yaml(deck, text.replace("\r\n", "\n"), index, chosen)
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
    header_at = {n: k for k, n in deck.header_lines.items()}
    section_at = {s.line for s in deck.sections}
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
        comment = line.partition("#")[2].strip() if "#" in line else ""
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
    from deckcli.games import game_module

    lines = text.splitlines()
    extras = _text_extras(deck, lines)
    plurals = game_module(game).KIND_PLURALS
    kind_of_section = {p.casefold(): k for k, p in plurals.items()}
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
        blocks.append([x for line in loose for x in _text_line(line, lines)])
    for group in groups:
        above, on = section_notes.get(group.kind, ([], []))
        block = [comment_line(c) for c in above]
        block.append(f"{group.title}: {group.total}" + (f"  # {'; '.join(on)}" if on else ""))
        block.extend(x for line in group.lines for x in _text_line(line, lines))
        blocks.append(block)
    for i, block in enumerate(blocks):
        if i:
            out.append("")
        out.extend(block)
    trailer = trailer_first + deck.trailer
    if trailer:
        out.append("")
        out.extend(comment_line(c) for c in trailer)
    return "\n".join(out) + "\n"


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


def _text_line(line: Line, source: list[str]) -> list[str]:
    out = [comment_line(c) for c in line.leading]
    if line.resolved is None:
        e = line.entry
        raw = source[e.line - 1].strip() if e.line and e.line <= len(source) else None
        out.append(raw or entry_line(e.count, e.name, e.set_code, e.number, e.variants, e.comment))
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
                body = ",\n".join("    " + json.dumps(i, ensure_ascii=False, separators=(", ", ": "))
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


def yaml_io():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 1 << 16
    y.preserve_quotes = True
    return y


def yaml_item(values: dict):
    """A flow-style YAML mapping for one card entry; numbers always quoted."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    item = CommentedMap()
    for key, value in values.items():
        if key == "number":
            value = DoubleQuotedScalarString(str(value))
        elif key == "variants":
            value = CommentedSeq(value)
            value.fa.set_flow_style()
        item[key] = value
    item.fa.set_flow_style()
    return item


def _token(value: str, column: int = 0):
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    return CommentToken(value, CommentMark(column), None)


def _flow(obj) -> None:
    """Make a kept-as-written item one line: flow style, its own comments removed."""
    if hasattr(obj, "fa"):
        obj.fa.set_flow_style()
    if hasattr(obj, "ca"):
        obj.ca.items.clear()
        obj.ca.comment = None
    for child in (obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()):
        _flow(child)


def _yaml_comments(text: str, data, cards) -> tuple[dict[int, str], dict[int, list[str]], list[str]]:
    """Comments in the cards list, by item: (end-of-line, full lines above, after the last)."""
    from deckcli.yamlio import line_of

    src = text.splitlines()
    starts = [line_of(cards, i) or 0 for i in range(len(cards))]
    ends = [max([s, *_lines_in(item)]) for s, item in zip(starts, cards)]
    first = line_of(data, "cards") or 1
    later = [line_of(data, k) or 0 for k in data if k != "cards"]
    stop = min([n for n in later if n > ends[-1]] or [len(src) + 1])
    eol: dict[int, list[str]] = {}
    above: dict[int, list[str]] = {}
    after: list[str] = []
    for tok in _tokens(cards, data):
        mark = tok.start_mark
        value = tok.value
        if mark is None or not value.startswith("#"):
            continue
        n = mark.line + 1
        if 0 < n <= len(src) and src[n - 1][: mark.column].strip():
            i = next((i for i in range(len(starts)) if starts[i] <= n <= ends[i]), None)
            if i is not None:
                eol.setdefault(i, []).append(value.split("\n", 1)[0][1:].strip())
    for n in range(first + 1, stop):
        stripped = src[n - 1].strip()
        if not stripped.startswith("#"):
            continue
        note = stripped[1:].strip()
        if n > ends[-1]:
            after.append(note)
            continue
        i = next(i for i in range(len(starts)) if n <= ends[i])
        above.setdefault(i, []).append(note)
    return {i: "; ".join(v) for i, v in eol.items()}, above, after


def _lines_in(obj) -> list[int]:
    from deckcli.yamlio import line_of

    out = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            out.append(line_of(obj, key) or 0)
            out.extend(_lines_in(value))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            out.append(line_of(obj, i) or 0)
            out.extend(_lines_in(value))
    return out


def _tokens(*objs):
    seen = set()
    stack = list(objs)
    while stack:
        obj = stack.pop()
        ca = getattr(obj, "ca", None)
        if ca is not None:
            found = [ca.comment, *ca.items.values()]
            while found:
                x = found.pop()
                if isinstance(x, list):
                    found.extend(x)
                elif x is not None and hasattr(x, "value") and id(x) not in seen:
                    seen.add(id(x))
                    yield x
        if isinstance(obj, dict) and obj is not objs[-1]:
            stack.extend(obj.values())
        elif isinstance(obj, list):
            stack.extend(obj)


def set_list_comments(data, seq, notes: list[tuple[list[str], str | None]],
                      after: list[str]) -> None:
    """Put comments around the items of the ``cards`` list: lines above each item, one at the end
    of its line, and lines after the last item."""
    for i, (lead, tail) in enumerate(notes):
        value = f" # {tail}\n" if tail else "\n"
        following = notes[i + 1][0] if i + 1 < len(notes) else []
        value += "".join(f"  {comment_line(c)}\n" for c in following)
        if i + 1 == len(notes):
            value += "".join(f"{comment_line(c)}\n" for c in after)
        if value != "\n":
            seq.ca.items[i] = [_token(value), None, None, None]
    slot = list(data.ca.items.get("cards") or [None, None, None, None])
    slot += [None] * (4 - len(slot))
    if slot[2] is not None and "\n" in slot[2].value.rstrip("\n"):  # keep only its own line
        slot[2] = _token(slot[2].value.split("\n", 1)[0] + "\n", slot[2].column or 0)
    first = notes[0][0] if notes else []
    slot[3] = [_token(f"{comment_line(c)}\n", 2) for c in first] or None
    data.ca.items["cards"] = slot


def set_start_comments(data, lines: list[str]) -> None:
    if lines:
        data.ca.comment = [None, [_token(f"{comment_line(c)}\n") for c in lines]]


def _format_yaml(deck: Deck, text: str, index, game: str) -> str:
    import io

    from ruamel.yaml.comments import CommentedSeq

    y = yaml_io()
    data = y.load(text)
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) != len(deck.entries):
        raise CannotFormat("the cards list does not match the entries read from it")
    if any(ln.strip() == "---" for ln in text.splitlines()[:50]
           if ln.strip() and not ln.strip().startswith("#")):
        y.explicit_start = True
    eol, above, after = _yaml_comments(text, data, cards)
    position = {id(e): i for i, e in enumerate(deck.entries)}
    raw = {id(e): item for e, item in zip(deck.entries, cards)}
    seq = CommentedSeq()
    notes: list[tuple[list[str], str | None]] = []
    for line in _ordered_lines(deck, index, game):
        spots = [position[id(e)] for e in line.entries]
        if line.resolved is None:
            item = raw[id(line.entry)]
            _flow(item)
        else:
            item = yaml_item(structured_item(line))
        seq.append(item)
        lead = [c for i in spots for c in above.get(i, [])]
        tail = "; ".join(eol[i] for i in spots if eol.get(i)) or None
        notes.append((lead, tail))
    set_list_comments(data, seq, notes, after)
    data["cards"] = seq
    for key in [*(k for k in HEADER_KEYS if k in data), "cards",
                *(k for k in list(data) if k not in HEADER_KEYS and k != "cards")]:
        data.move_to_end(key)
    out = io.StringIO()
    y.dump(data, out)
    return out.getvalue()
