"""CSV decklists: columns ``count,name,set,number,variants`` (CONTRACT.md); cards only.

``variants`` holds tags separated by ``;`` or spaces. The first row is the header.
"""

from __future__ import annotations

import csv
import io

from deckcli.decks.limits import MAX_ENTRIES
from deckcli.decks.model import EMPTY_DECK, Deck
from deckcli.decks.structured import _entry
from deckcli.diagnostics import error

COLUMNS = ("count", "name", "set", "number", "variants")


def parse_csv(text: str, path: str | None) -> Deck:
    deck = Deck(path, "csv")

    def bad(code, rule, message, line, severity=error):
        deck.problems.append(severity(code, rule, message, path=path, line=line))

    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None:
            bad(*EMPTY_DECK, None)
            return deck
        columns = [h.strip().lower() for h in header]
        if "count" not in columns or "name" not in columns:
            bad("bad-structure", "DL-1.2",
                f"CSV header must name the columns {','.join(COLUMNS)}; found {','.join(columns)}",
                1)
            return deck
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(deck.entries) >= MAX_ENTRIES:
                bad("too-many-entries", "DL-1.3", "too many entries; the rest is not read", line)
                break
            item = {c: v.strip() for c, v in zip(columns, row) if c in COLUMNS and v.strip()}
            if "variants" in item:
                item["variants"] = [t for t in item["variants"].replace(";", " ").split() if t]
            entry = _entry(item, line, bad)
            if entry is not None:
                deck.entries.append(entry)
    except csv.Error as exc:
        bad("bad-structure", "DL-1.2", f"not valid CSV: {exc}", reader.line_num)
    if not deck.entries and not deck.problems:
        bad(*EMPTY_DECK, None)
    return deck
