"""CSV decklists: columns ``count,name,set,number,variants`` (docs/decklists.md); cards only.

``variants`` holds tags separated by ``;`` or spaces. The first row is the header, its names
in any case; other tools' CSV exports are read too (rule DL-1.2): ``Quantity`` for ``count``,
``Collector Number`` for ``number``, and a ``Foil`` column whose ``foil``, ``true``, ``yes``
or ``1`` means the foil version (empty, ``false``, ``no``, ``0`` or ``normal``: not foil; any
other value is an error on its line, so the column is never dropped in silence).

Every CSV deckcli writes goes through :func:`csv_text`, which escapes a cell a spreadsheet
would run as a formula the way OWASP recommends ("CSV injection"): a cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return gets a single quote in front and is quoted.
The reader takes off exactly the quote the writer put on (:func:`unescape_cell`), so a card
whose name really starts with ``-`` or ``+`` reads back as itself.
"""

from __future__ import annotations

import csv
import io

from deckcli.decks.limits import MAX_ENTRIES, MAX_LINE_CHARS
from deckcli.decks.lines import shorten
from deckcli.decks.model import EMPTY_DECK, Deck
from deckcli.decks.structured import entry_from
from deckcli.diagnostics import Repeats, error

COLUMNS = ("count", "name", "set", "number", "variants")

#: other tools' names for deckcli's columns (folded), and their Foil column
ALIASES = {"quantity": "count", "collector number": "number", "foil": "foil"}
FOIL_YES = frozenset({"foil", "true", "yes", "1"})
FOIL_NO = frozenset({"", "false", "no", "0", "normal"})

#: A cell starting with one of these is run as a formula by spreadsheets (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _escaped_form(value: str) -> bool:
    """Quotes, then a formula start: the form the writer escapes (one more quote in front)
    and the reader un-escapes (one quote off). A value of that form that already starts with
    a quote gets one more too, so reading back is exact whatever the value."""
    return value.lstrip("'").startswith(FORMULA_STARTS)


def escape_cell(value) -> tuple[str, bool]:
    """(the cell's text, whether it was escaped)."""
    text = str(value)
    if _escaped_form(text):
        return "'" + text, True
    return text, False


def unescape_cell(text: str) -> str:
    """The value :func:`escape_cell` wrote as ``text``."""
    if text.startswith("'") and _escaped_form(text[1:]):
        return text[1:]
    return text


def csv_text(rows) -> str:
    """Rows as CSV text, LF line ends: each cell escaped (:func:`escape_cell`); a cell is
    quoted when it was escaped or holds a comma, a quote or a line end."""
    lines = []
    for row in rows:
        cells = []
        for value in row:
            text, escaped = escape_cell(value)
            if escaped or any(c in text for c in ',"\n\r'):
                text = '"' + text.replace('"', '""') + '"'
            cells.append(text)
        lines.append(",".join(cells))
    return "".join(line + "\n" for line in lines)


def parse_csv(text: str, path: str | None) -> Deck:
    deck = Deck(path, "csv")
    repeats = Repeats(deck.problems, path)  # at most MAX_SAME of a code; then "and N more"

    def bad(code, rule, message, line, severity=error):
        repeats.add(severity, code, rule, message, line)

    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None:
            bad(*EMPTY_DECK, None)
            return deck
        written = [" ".join(h.split()).lower() for h in header]
        columns = [ALIASES.get(h, h) for h in written]
        if "count" not in columns or "name" not in columns:
            bad("bad-structure", "DL-1.2",
                "CSV header must name the columns count (or Quantity) and name, and may name "
                f"set, number (or Collector Number), variants and foil; found "
                f"{','.join(written)}", 1)
            return deck
        twice = sorted({c for c in columns if c in (*COLUMNS, "foil") and columns.count(c) > 1})
        if twice:  # which of the two would count? neither is guessed
            bad("bad-structure", "DL-1.2",
                f"CSV header names the column{'s' if len(twice) > 1 else ''} "
                f"{', '.join(twice)} more than once", 1)
            return deck
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            size = sum(map(len, row)) + len(row) - 1  # the record as written, less its quotes
            if size > MAX_LINE_CHARS:
                bad("line-too-long", "DL-1.3",
                    f"line is {size:,} characters long; the limit is {MAX_LINE_CHARS:,}", line)
                continue
            if len(deck.entries) >= MAX_ENTRIES:
                bad("too-many-entries", "DL-1.3", "too many entries; the rest is not read", line)
                break
            item = {c: unescape_cell(v.strip()) for c, v in zip(columns, row)
                    if c in COLUMNS and v.strip()}
            if "variants" in item:
                item["variants"] = [t for t in item["variants"].replace(";", " ").split() if t]
            foil = next((v.strip() for c, v in zip(columns, row) if c == "foil"), "")
            if foil.lower() in FOIL_YES:
                item["variants"] = [*item.get("variants", ()), "foil"]
            elif foil.lower() not in FOIL_NO:  # the entry counts, as with an unknown tag
                bad("unknown-variant", "DL-4.1",
                    f"Foil '{shorten(foil, 40)}' says neither foil (foil, true, yes, 1) nor "
                    "regular (empty, false, no, 0, normal)", line)
            entry = entry_from(item, line, bad)
            if entry is not None:
                deck.entries.append(entry)
    except csv.Error as exc:
        bad("bad-structure", "DL-1.2", f"not valid CSV: {exc}", reader.line_num)
    repeats.close()
    if not deck.entries and not deck.problems:
        bad(*EMPTY_DECK, None)
    return deck
