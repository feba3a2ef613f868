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


def _yaml_comments(text: str, data, cards, joined: bool = False
                   ) -> tuple[dict[int, str], dict[int, list[str]], list[str]]:
    """Comments in the cards list, by item: (end-of-line, full lines above, after the last)."""
    from deckcli.decks.lines import split_lines
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
        if not src[n - 1].strip().startswith("#"):
            continue
        notes = [c.strip()[1:].strip() for c in comment_lines(src[n - 1], joined)
                 if c.strip().startswith("#")]
        if n > ends[-1]:
            after.extend(notes)
            continue
        i = next(i for i in range(len(starts)) if n <= ends[i])
        above.setdefault(i, []).extend(notes)
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
    from deckcli.decks.lines import split_lines
    from deckcli.yamlio import line_of

    joined = joins(text)
    text = compact(text.replace("\r\n", "\n"))
    data = yaml_io().load(text)
    cards = data.get("cards") if hasattr(data, "get") else None
    if not isinstance(cards, list) or not cards or len(cards) != len(deck.entries):
        return
    eol, above, after = _yaml_comments(text, data, cards, joined)
    first = line_of(data, "cards") or 1
    deck.preamble = [c.strip()[1:].strip() for ln in split_lines(text)[:first - 1]
                     for c in comment_lines(ln, joined) if c.strip().startswith("#")]
    from deckcli.decks.lines import read_section, section_words

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
    joined = joins(text)
    text = compact(text)
    data = y.load(text)
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) != len(deck.entries):
        raise CannotFormat("the cards list does not match the entries read from it")
    if any(ln.strip() == "---" for ln in text.splitlines()[:50]
           if ln.strip() and not ln.strip().startswith("#")):
        y.explicit_start = True
    eol, above, after = _yaml_comments(text, data, cards, joined)
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
    return expand_comments(out.getvalue()) if joined else out.getvalue()


#: Joins the comment lines of a run into one line for the round-trip parser, which reads it as
#: one comment; :func:`expand_comments` splits it again. A character of a private-use plane (a
#: deck that holds it is handed over as it is, runs not joined).
SEP = "\U0010fffd"
JOINED = 4096


def compact(text: str, *, cut_blanks: bool = True) -> str:
    """``text`` as it is handed to the round-trip YAML parser, which costs about 13
    microseconds a line it scans (a deck of 900,000 blank lines, under 1 MiB, took 12 s; of
    500,000 comment lines, 16 s and 310 MB):

    * (for fmt, ``cut_blanks``) no blank line at the start (fmt's canonical form has none;
      ruamel.yaml dropped one per pass, so formatting was not stable) and every run of blank
      lines cut to one, as Prettier keeps at most one;
    * a run of comment lines (and the blank lines between them) joined into lines of about
      :data:`JOINED` characters, its lines separated by :data:`SEP`: the comments are read back
      from it line by line (:func:`comment_lines`) and the written text is split again
      (:func:`expand_comments`), each line as it was written (an edit, without
      ``cut_blanks``, changes no other line).

    Lines inside a scalar that spans lines (a ``|`` block, a quoted string over lines) are
    left as they are: there a blank or ``#`` line is part of the value."""
    if "\n\n" not in text and "#" not in text and not text.startswith(("\n", " ", "\t")):
        return text
    lines = text.split("\n")
    keep = _lines_inside_scalars(text)
    join = joins(text)
    out: list[str] = []
    run: list[str] = []  # comment lines and the blank lines between them, waiting to be joined

    def blank(line: str) -> None:
        if not cut_blanks:
            out.append(line)
        elif out and out[-1].strip():
            out.append("")

    def flush() -> None:
        after = []
        while run and not run[-1].strip():
            after.append(run.pop())
        if run:
            joined, size = [], 0
            for r in run:  # lines of at most about JOINED characters: the parser reads a
                if cut_blanks:  # comment a character at a time, slower as it grows
                    r = r.rstrip()
                if joined and size + len(r) > JOINED:
                    out.append(SEP.join(joined))
                    joined, size = [], 0
                joined.append(r)
                size += len(r) + 1
            out.append(SEP.join(joined))
            run.clear()
        for line in reversed(after):
            blank(line)

    for n, line in enumerate(lines):
        stripped = line.strip()
        if n in keep:
            flush()
            out.append(line)
        elif not stripped:
            if not run:
                blank(line)
            elif not cut_blanks or run[-1].strip():
                run.append(line)
        elif stripped[0] == "#" and join:
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)


def joins(text: str) -> bool:
    """Whether :func:`compact` joins the comment lines of ``text`` (it does unless the text
    holds :data:`SEP` itself)."""
    return SEP not in text


def comment_lines(line: str, joined: bool) -> list[str]:
    """The source lines one line of :func:`compact`'s text stands for (``joined``: what
    :func:`joins` said of the text)."""
    return line.split(SEP) if joined and SEP in line else [line]


def expand_comments(text: str) -> str:
    """The written text with each joined run of comment lines (:func:`compact`) split into its
    lines again, as they were written."""
    return text.replace(SEP, "\n") if SEP in text else text


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
