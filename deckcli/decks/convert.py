"""Convert decklists between text, YAML, JSON, CSV, MTG Arena's layout, Cockatrice (.cod) and
MTGO (.dek), and print a registration list.

Conversion keeps the deck as written: the same entries in the same order (count, name, set,
number, variant tags, trailing comment), and the rest wherever the target can carry it
(:mod:`deckcli.decks.carry` says what each format holds; CSV carries cards only:
``count,name,set,number,variants``). Formatting into the canonical form is ``deckcli fmt``'s
job; cards are looked up only for ``arena``, whose lines carry a printing each
(:func:`give_printings`), and for ``registration``. A round trip (text -> yaml -> text, ...) gives
back the same deck.

``registration`` is a printable plain-text list for handing in at an event: a header block
(deck name, player, game, format), then one section per kind with its subtotal, then the total.
It needs the card database, to know each card's kind.
"""

from __future__ import annotations

import io

from deckcli.decks.model import HEADER_KEYS, Deck, Entry, header_items
from deckcli.decks.plan import arrange
from deckcli.decks.shapes import comment_line, dump_json, entry_line, sideboard_lines, tag_order
from deckcli.decks.yamlfmt import set_list_comments, set_start_comments, yaml_io, yaml_item

TARGETS = ("text", "yaml", "json", "csv", "arena", "cod", "dek", "registration")
SUFFIX = {"text": ".txt", "yaml": ".yaml", "json": ".json", "csv": ".csv", "arena": ".txt",
          "cod": ".cod", "dek": ".dek", "registration": ".txt"}


def entry_values(entry: Entry) -> dict:
    """One entry as a YAML/JSON mapping (the docs/decklists.md shape)."""
    item: dict = {"count": entry.count, "name": entry.name}
    if entry.set_code:
        item["set"] = entry.set_code
    if entry.number:
        item["number"] = entry.number
    if entry.variants:
        item["variants"] = tag_order(entry.variants)
    if entry.comment:
        item["comment"] = entry.comment
    return item


def section_starts(deck: Deck) -> dict:
    """id of the first entry under each section header -> that section (a header with no
    entry under it has nowhere to go in a list of entries, and is left out)."""
    return {id(s.entries[0]): s for s in deck.sections if s.entries}


def to_text(deck: Deck) -> str:
    out = [comment_line(c) for c in deck.preamble]
    if out:
        out.append("")
    out.extend(f"{k}: {deck.header[k]}" for k in HEADER_KEYS if k in deck.header)
    if deck.header:
        out.append("")
    starts = section_starts(deck)
    for entry in deck.entries:
        s = starts.get(id(entry))
        if s is not None:
            if out and out[-1] != "":
                out.append("")
            out.append(s.word + (f": {s.count}" if s.count is not None else ""))
        out.extend(comment_line(c) for c in entry.leading)
        out.append(entry_line(entry.count, entry.name, entry.set_code, entry.number,
                              tag_order(entry.variants), entry.comment))
    if deck.sideboard:
        out.extend(["", *sideboard_lines(deck)])
    if deck.trailer:
        out.append("")
        out.extend(comment_line(c) for c in deck.trailer)
    return "\n".join(out) + "\n"


def to_json(deck: Deck) -> str:
    return dump_json({**dict(header_items(deck.header)), "cards": []},
                     [entry_values(e) for e in deck.entries])


def section_comment(section) -> str:
    """How YAML writes a section header: the comment ``-- Animals: 17 --``."""
    return f"-- {section.word}" + (f": {section.count}" if section.count is not None else "") + \
        " --"


def _yaml_can_comment(lines) -> None:
    """Refuse (CannotWrite) a comment line a YAML comment cannot hold: a character YAML does
    not allow anywhere (a form feed, DEL) or one it reads as a line break (U+0085, U+2028,
    U+2029), which would end the comment and leave the rest as YAML. A value holds them."""
    from deckcli.decks.xmldeck import CannotWrite
    from deckcli.yamlio import ODD_BREAKS

    for line in lines:
        for ch in line:
            if ch in ODD_BREAKS or not (
                    ch == "\t" or " " <= ch <= "~" or "\xa0" <= ch <= "\ud7ff"
                    or "\ue000" <= ch <= "\ufffd" or ch >= "\U00010000"):
                raise CannotWrite(f"the comment {line!r} holds a character a YAML comment "
                                  f"cannot carry (U+{ord(ch):04X})")


def to_yaml(deck: Deck) -> str:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    _yaml_can_comment([*deck.preamble, *(x for e in deck.entries for x in e.leading),
                       *deck.trailer])
    data = CommentedMap(header_items(deck.header))
    cards = CommentedSeq(yaml_item(entry_values(e)) for e in deck.entries)
    data["cards"] = cards
    set_start_comments(data, deck.preamble)
    # a section header has no key in YAML: it is written as the comment line above the
    # section's first entry ('# -- Animals: 17 --'), which convert reads back as the header
    starts = section_starts(deck)
    notes = [([section_comment(starts[id(e)]), *e.leading] if id(e) in starts else e.leading,
              None) for e in deck.entries]
    set_list_comments(data, cards, notes, deck.trailer)
    out = io.StringIO()
    yaml_io().dump(data, out)
    return out.getvalue()


def to_csv(deck: Deck) -> str:
    from deckcli.decks.csvdeck import COLUMNS, csv_text

    return csv_text([COLUMNS, *([e.count, e.name, e.set_code or "", e.number or "",
                                 ";".join(tag_order(e.variants))] for e in deck.entries)])


def to_arena(deck: Deck) -> str:
    """MTG Arena's layout: ``About``/``Name`` when the deck has a name, then ``Deck`` and
    ``QTY NAME (SET) NUMBER`` lines, then the ``Sideboard`` if there is one."""
    out = ["About", f"Name {deck.header['name']}", ""] if deck.header.get("name") else []
    for title, entries in (("Deck", deck.entries), ("Sideboard", deck.sideboard)):
        if entries:
            if title == "Sideboard":
                out.append("")
            out.append(title)
            out.extend(entry_line(e.count, e.name, e.set_code, e.number, (), None)
                       for e in entries)
    return "\n".join(out) + "\n"


def give_printings(deck: Deck, index, game: str) -> None:
    """Write into each entry (the sideboard's too) that names no full printing the printing
    it stands for, as ``fmt`` writes it (:func:`~deckcli.decks.plan.written_as`: the card's
    own printing, in the set the entry names, if it names one). For ``--to arena``, whose
    lines are ``QTY NAME (SET) NUMBER`` (docs/decklists.md). An entry that resolves to no one card
    (an unknown or ambiguous name) keeps what it has. Entries are changed in place."""
    from deckcli.decks.plan import written_as

    for entry in (*deck.entries, *deck.sideboard):
        if entry.set_code and entry.number:
            continue  # the printing the line names
        r = written_as(index, game, entry, deck.path)
        if r is not None and r.printing is not None:
            entry.set_code, entry.number = r.printing.set_code, r.printing.number


def to_registration(deck: Deck, index, game: str, fmt: str | None) -> str:
    """A printable registration list: header block, per-kind sections with subtotals, total."""
    loose, groups = arrange(deck, index, game)
    blank = "_" * 24

    def field(label: str, value) -> str:
        return f"{label + ':':<11}{value or blank}"

    out = ["DECK REGISTRATION", "=" * 17, "",
           field("Deck name", deck.header.get("name")),
           field("Player", deck.header.get("player")),
           field("Game", game)]
    if fmt:
        out.append(field("Format", fmt))
    width = max([len(str(x.count)) for g in groups for x in g.lines]
                + [len(str(e.count)) for e in (x.entry for x in loose)] + [1])
    sections = [(g.title, [(x.count, entry_line(x.count, *x.fields(), None).split(" ", 1)[1])
                           for x in g.lines]) for g in groups]
    if loose:
        sections.append(("Unknown cards", [
            (x.count, entry_line(x.count, x.entry.name, x.entry.set_code, x.entry.number,
                                 tag_order(x.entry.variants), None).split(" ", 1)[1])
            for x in loose]))
    for title, rows in sections:
        subtotal = sum(n for n, _ in rows)
        out += ["", f"{title} ({subtotal})", "-" * (len(title) + len(str(subtotal)) + 3)]
        out += [f"  {n:>{width}}  {text}" for n, text in rows]
        out.append(f"  {title} subtotal: {subtotal}")
    total = sum(x.count for g in groups for x in g.lines) + sum(x.count for x in loose)
    out += ["", f"Total: {total:,} card{'s' if total != 1 else ''}", "",
            field("Signature", None), field("Date", None)]
    return "\n".join(out) + "\n"


#: the targets written one value a line: a line break in a value would start a line of its own
LINE_TARGETS = ("text", "arena", "registration")


def _one_line_values(deck: Deck) -> None:
    """Refuse (CannotWrite) a header value or entry field holding a line break (LF, CR or one
    YAML reads as one): a line-based target would write the rest of it as a line of its own,
    another entry or anything at all (a YAML or JSON deck can hold ``"x\\n..."``)."""
    from deckcli.decks.xmldeck import CannotWrite
    from deckcli.diagnostics import visible_name
    from deckcli.yamlio import ODD_BREAKS

    breaks = f"\n\r{ODD_BREAKS}"
    values = [*(v for k, v in deck.header.items() if k in HEADER_KEYS),
              *(x for e in deck.entries
                for x in (e.name, e.set_code, e.number, e.comment, *e.variants))]
    for value in values:
        if isinstance(value, str) and any(ch in breaks for ch in value):
            raise CannotWrite(f"'{visible_name(value)}' holds a line break, which a decklist "
                              "written line by line cannot carry")


def convert(deck: Deck, to: str, *, index=None, game: str | None = None,
            fmt: str | None = None) -> str:
    """The deck in the target format (``registration`` needs ``index``, ``game``)."""
    if to in LINE_TARGETS:
        _one_line_values(deck)
    if to == "text":
        return to_text(deck)
    if to == "yaml":
        return to_yaml(deck)
    if to == "json":
        return to_json(deck)
    if to == "csv":
        return to_csv(deck)
    if to == "arena":
        return to_arena(deck)
    if to in ("cod", "dek"):
        from deckcli.decks import xmldeck

        return xmldeck.to_cod(deck) if to == "cod" else xmldeck.to_dek(deck)
    if to == "registration":
        return to_registration(deck, index, game, fmt)
    raise ValueError(f"unknown target format {to!r}; choose one of {', '.join(TARGETS)}")
