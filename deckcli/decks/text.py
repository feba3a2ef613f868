"""The text decklist reader (docs/decklists.md; rules DL-2.x, DL-4.1).

::

    # comment                         game: animal-battle      Animals: 8
    4 Walrus                          4x Walrus (ABS) 12       1 Walrus (ABS) 012 [foil]
    x4 Walrus    4 x Walrus           4 Walrus ABS 12  (when ABS is a known set code)
    Walrus x4    Walrus (ABS) 12 x4   4 Walrus (ABS) 12 *F*    4 Walrus|ABS    // a comment
    1x Walrus (abs) 12 [Animals] ^Have,#37d67a^    2x Orca (abs) 10 [Maybeboard] (beside the deck)

Every line that is not blank, a comment, a header, a section header or one of the layout
lines of other tools (:mod:`deckcli.decks.layouts`) must start with a quantity, or end with
one (``Walrus x4``); anything else is an error *on that line*, and parsing goes on so every
problem in the file is reported at once. What one line says is read by :mod:`.lines`, which
the quick read (:mod:`.quick`) shares; this module puts the lines together into a deck.
"""

from __future__ import annotations

from deckcli.decks.limits import MAX_ENTRIES, MAX_LINE_CHARS, MEMO_LINES
from deckcli.decks.lines import (
    classify_line,
    line_memo,
    name_line,
    read_section,
    section_words,
    shorten,
    split_comment,
    split_lines,
)
from deckcli.decks.model import EMPTY_DECK, Deck, Entry, Section
from deckcli.diagnostics import Repeats, error, warning


def parse_text(text: str, path: str | None, *, is_set=None) -> Deck:
    """Parse a text decklist. ``is_set(code)`` says whether a bare word is a known set code."""
    deck = Deck(path, "text", newline="\r\n" if "\r\n" in text else "\n")
    problems = deck.problems
    sections = section_words()
    pending: list[str] = []  # comment lines waiting for the entry below them
    # nothing but comments, blank lines and zone lines ('Deck', 'About') so far: a comment
    # line here is the file's own (a title), kept at the top, never given to the first entry
    top = True
    section: Section | None = None
    side = False  # in a sideboard
    metadata = None  # in Forge's [metadata] or [general]: which
    listed = deck.entries  # where the next entry goes: the deck or its sideboard

    repeats = Repeats(problems, path)  # at most MAX_SAME of a code; then "and N more"

    def bad(code: str, rule: str, message: str, lineno: int):
        repeats.add(error, code, rule, message, lineno)

    def set_header(key: str, value: str, lineno: int, said: str) -> None:
        nonlocal pending, top
        top = False
        if deck.entries or deck.sideboard:
            bad("header-after-entries", "DL-2.3",
                f"header line '{said}' must come before the first card entry", lineno)
        elif not value:  # 'game:' alone says nothing: read as if the line were not there
            repeats.add(warning, "empty-header", "DL-2.3",
                        f"header line '{said}' has no value and is ignored (write the value "
                        "after it, or delete the line)", lineno)
            if comment:  # but what its comment says is kept, as a comment line's is
                pending.append(comment)
        elif key in deck.header:
            bad("duplicate-header", "DL-2.3",
                f"'{said}' is given twice (first on line {deck.header_lines[key]})", lineno)
        else:
            deck.header[key] = value
            deck.header_lines[key] = lineno
            if pending:
                deck.preamble.extend(pending)
                pending = []

    seen = line_memo(is_set)  # entry lines already read (in this deck or another)
    junk: set[str] = set()  # lines of this deck that are no entry, header, zone or section

    def not_an_entry(line: str, lineno: int) -> None:
        nonlocal top
        top = False
        repeats.add(error, "no-quantity", "DL-2.5", lambda: (
            f"'{shorten(line)}' is not a card entry: an entry starts with a quantity in digits, "
            "as in '4 Walrus'"), lineno)
    for lineno, raw in enumerate(split_lines(text), start=1):
        if len(raw) > MAX_LINE_CHARS:
            bad("line-too-long", "DL-1.3",
                f"line is {len(raw):,} characters long; the limit is {MAX_LINE_CHARS:,}", lineno)
            continue
        line = raw.strip()
        if not line:
            if pending and not deck.entries and not deck.header:
                deck.preamble.extend(pending)
                pending = []
            continue
        if line[0] == "#":
            (deck.preamble if top else pending).append(line[1:].strip())
            continue
        comment = None
        if line[:2] == "//":
            from deckcli.decks import layouts

            if not layouts.slashed_side(line[2:]):
                (deck.preamble if top else pending).append(line[2:].strip())
                continue
            line = "sideboard"  # '// Sideboard' is the header, not a comment
        elif "#" in line or "/" in line:
            line, comment = split_comment(line)
        if metadata:
            found = layouts.metadata_line(line)
            if found is not None:
                if found[0] == "name":
                    set_header("name", found[1], lineno, "Name=")
                elif found[1]:  # Forge's other facts (Description=, Author=) say nothing of
                    deck.preamble.append(line)  # the cards: a comment at the top, so a
                continue  # rewrite (fmt, convert) keeps them
            if metadata == layouts.GENERAL and layouts.deck_type_line(line):
                deck.preamble.append(line)  # 'Constructed': the deck's type, kept the same way
                continue
        if not deck.entries and not deck.sideboard:
            name = name_line(line)
            if name is not None:  # Arena's 'Name Deep Divers'
                set_header("name", name, lineno, "Name")
                continue
        if line in junk:  # read before, and neither an entry nor a header, zone or section
            not_an_entry(line, lineno)
            continue
        known = seen.get(line)
        if known is None:
            known = classify_line(line, seen, is_set)
        if known is None:  # neither an entry nor a header line
            from deckcli.decks import layouts

            rest = layouts.sb_prefix(line)
            entry = rest and (seen.get(rest) or classify_line(rest, seen, is_set))
            if entry and entry[0] is not None:  # 'SB: 2 Orca': a card of the sideboard
                top = False
                if _add(deck, deck.sideboard, entry, lineno, comment, pending, None, bad) is None:
                    break
                pending = []
                continue
            zone = layouts.zone_line(line)
            if zone == layouts.ABOUT and (deck.entries or deck.sideboard):
                zone = None  # Arena's 'About' comes before the deck, as 'Name' does
            if zone is not None:
                metadata = zone if zone in (layouts.METADATA, layouts.GENERAL) else None
                if zone in (layouts.MAIN, layouts.SIDE):
                    side = zone == layouts.SIDE
                    listed = deck.sideboard if side else deck.entries
                    section = None
                continue
            found = read_section(line, lineno, sections)
            if found is not None:
                top = False
                if not side:  # a kind's heading in a sideboard is only a label there
                    section = found
                    deck.sections.append(section)
                pending = []
                continue
            if len(junk) < MEMO_LINES:
                junk.add(line)
            not_an_entry(line, lineno)
            continue
        if known[0] is None:  # a header line: (None, (key, value))
            key, value = known[1]
            set_header(key, value, lineno, f"{key}:")
            continue
        top = False
        if known[1] is not None and known[1][5]:  # '[Maybeboard]': a card beside the deck
            added = _add(deck, deck.sideboard, known, lineno, comment, pending, None, bad)
        else:
            added = _add(deck, listed, known, lineno, comment, pending, section, bad)
        if added is None:
            break
        if added:
            pending = []
    deck.trailer = pending
    repeats.close()
    if not deck.entries and not problems:
        code, rule, message = EMPTY_DECK
        problems.append(error(code, rule, message + (
            " outside its sideboard" if deck.sideboard else ""), path=path, line=None))
    if deck.sideboard:
        from deckcli.decks.layouts import left_out

        problems.append(left_out(deck.sideboard, path))
    return deck


def _add(deck: Deck, listed: list, known: tuple, lineno: int, comment, pending,
         section: Section | None, bad) -> bool | None:
    """Put an entry line's entry into ``listed`` (the deck or its sideboard), reporting the
    line's problems: True when an entry was added, False when the line makes none, None when
    the entry limit stops the reading."""
    faults, fields = known
    for code, rule, message in faults:
        bad(code, rule, message, lineno)
    if fields is None:
        return False
    if len(deck.entries) + len(deck.sideboard) >= MAX_ENTRIES:
        bad("too-many-entries", "DL-1.3",
            f"more than {MAX_ENTRIES:,} entries; the rest of the file is not read", lineno)
        return None
    count, name, code, number, tags, _, whole = fields
    entry = Entry(count, name, code, number, tags, lineno, whole, comment or None, pending,
                  section.key if section is not None else None)
    if section is not None:
        section.entries.append(entry)
    listed.append(entry)
    return True
