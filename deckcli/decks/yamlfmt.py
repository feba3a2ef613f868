"""YAML decklists for fmt, convert and the deck editor: ruamel.yaml round-trip writing.

Comments in a YAML deck survive formatting: they are read back from the source text and
attached to the entries they belong to (:func:`_yaml_comments`), then written with ruamel.yaml's
round-trip dumper.
"""

from __future__ import annotations

from deckcli.decks.model import HEADER_KEYS, Deck
from deckcli.decks.plan import CannotFormat, ordered_lines, structured_item
from deckcli.decks.shapes import comment_line


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


def _yaml_comments(text: str, data, cards
                   ) -> tuple[dict[int, str], dict[int, list[str]], list[str]]:
    """Comments in the cards list, by item: (end-of-line, full lines above, after the last)."""
    from deckcli.decks.text import split_lines
    from deckcli.yamlio import line_of

    src = split_lines(text)
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


def read_comments(deck: Deck, text: str) -> None:
    """Put a YAML deck's comments where a text deck keeps them, for ``convert``: full lines
    before ``cards:`` at the top, lines above an entry on it, the end of an entry's line
    after its ``comment:``, lines after the last entry at the end. A comment line above an
    entry that reads ``-- Animals: 17 --`` (a section header, as convert writes one) is that
    section's header. (``validate`` needs no comments: this reads the file a second time, with
    ruamel.yaml's round-trip loader.)"""
    from deckcli.decks.text import split_lines
    from deckcli.yamlio import line_of

    text = compact_blank_lines(text.replace("\r\n", "\n"))
    data = yaml_io().load(text)
    cards = data.get("cards") if hasattr(data, "get") else None
    if not isinstance(cards, list) or not cards or len(cards) != len(deck.entries):
        return
    eol, above, after = _yaml_comments(text, data, cards)
    first = line_of(data, "cards") or 1
    deck.preamble = [ln.strip()[1:].strip() for ln in split_lines(text)[:first - 1]
                     if ln.strip().startswith("#")]
    from deckcli.decks.text import read_section, section_words

    section = None
    for i, entry in enumerate(deck.entries):
        entry.leading = above.get(i, [])
        first = entry.leading[0] if entry.leading else ""
        found = read_section(first[3:-3], entry.line, section_words()) \
            if first.startswith("-- ") and first.endswith(" --") else None
        if found is not None:  # '# -- Animals: 17 --' above an entry: the section's header
            section = found
            deck.sections.append(section)
            entry.leading = entry.leading[1:]
        if section is not None:
            entry.section = section.key
            section.entries.append(entry)
        if eol.get(i):
            entry.comment = f"{entry.comment}; {eol[i]}" if entry.comment else eol[i]
    deck.trailer = after


def set_list_comments(data, seq, notes: list[tuple[list[str], str | None]],
                      after: list[str]) -> None:
    """Put comments around the items of the ``cards`` list: lines above each item, one at the end
    of its line, and lines after the last item."""
    for i, (_lead, tail) in enumerate(notes):
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


def format_yaml(deck: Deck, text: str, index, game: str) -> str:
    import io

    from ruamel.yaml.comments import CommentedSeq

    y = yaml_io()
    text = compact_blank_lines(text)
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
    for line in ordered_lines(deck, index, game):
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


def compact_blank_lines(text: str) -> str:
    """``text`` without blank lines at its start and with every run of blank lines cut to one,
    except inside a scalar that spans lines (a ``|`` block, a quoted string running over lines:
    there a blank line is part of the value). The round-trip parser fmt writes with costs
    about 13 microseconds a line, so a deck of 900,000 blank lines (under 1 MiB) took 12 s; and
    fmt's canonical form has no blank line first (ruamel.yaml dropped one of them per pass, so
    formatting was not stable). Prettier keeps at most one blank line too."""
    if "\n\n" not in text and not text.startswith(("\n", " ", "\t")):
        return text
    lines = text.split("\n")
    keep = _lines_inside_scalars(text)
    out = []
    blank = True  # at the start: drop blank lines altogether
    for n, line in enumerate(lines):
        if line.strip() or n in keep:
            out.append(line)
            blank = False
        elif not blank:
            out.append(line)
            blank = True
    return "\n".join(out)


def _lines_inside_scalars(text: str) -> set[int]:
    """The lines (0-based) after the first of every scalar that spans lines."""
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    try:
        root = YAML(typ="safe").compose(text)
    except Exception:  # noqa: BLE001 - the deck was read already; keep every line then
        return set(range(text.count("\n") + 1))
    inside: set[int] = set()
    stack = [root] if root is not None else []
    seen = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:  # an alias: the same node again
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            first, last = node.start_mark.line, node.end_mark.line
            if last > first:
                inside.update(range(first + 1, last + 1))
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
    return inside
