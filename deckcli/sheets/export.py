"""An event's decklists as organisers publish them (``deckcli export``): CSV, JSON or one HTML
page, every roster deck with its player, deck name, fingerprint, verdict and cards.

The decks are read and judged as ``sheet`` and ``report`` read them
(:func:`deckcli.sheets.load_event_decks`); the page is built from the report page's parts
(its styles, verdict pills and card groups), and every CSV goes through the one CSV writer,
which escapes cells a spreadsheet would run (:func:`deckcli.decks.csvdeck.csv_text`).
"""

from __future__ import annotations

import json

from deckcli.games import DEFAULT_GAME
from deckcli.sheets import DeckSheet, card_groups
from deckcli.sheets.html import esc, page

CSV_COLUMNS = ("player", "deck", "fingerprint", "verdict", "count", "name", "set", "number",
               "variants")


def verdict(sheet: DeckSheet) -> str:
    if sheet.deck is None:
        return "missing"
    return "legal" if sheet.report.legal else "illegal"


def cards(sheet: DeckSheet) -> list[dict]:
    """The deck's entries as published: the card's name as the database spells it (as
    written, for an entry that names no card), the printing and tags the entry names; what
    the deck file says escaped as every report shows it
    (:func:`~deckcli.diagnostics.visible_name`)."""
    from deckcli.diagnostics import visible_name as shown

    if sheet.deck is None:
        return []
    by_entry = {id(r.entry): r for r in (sheet.rdeck.entries if sheet.rdeck else [])}
    out = []
    for e in sheet.deck.entries:
        r = by_entry.get(id(e))
        number = r.printing.number if r is not None and r.printing is not None else e.number
        out.append({"count": e.count, "name": shown(r.card.name if r is not None else e.name),
                    "set": shown(e.set_code), "number": shown(number),
                    "variants": sorted(shown(v) for v in e.variants)})
    return out


def deck_json(sheet: DeckSheet) -> dict:
    """One deck for the JSON: names and paths as every report shows them (control and
    invisible characters escaped, :func:`~deckcli.diagnostics.visible_name`)."""
    from deckcli.diagnostics import visible_name as shown

    r = sheet.report
    return {"player": shown(r.player), "name": shown(r.name), "path": shown(r.path),
            "fingerprint": r.fingerprint,
            "verdict": verdict(sheet), "legal": sheet.legal,
            "card_count": r.card_count if sheet.deck is not None else None,
            "cards": cards(sheet)}


def to_json(event, sheets: list[DeckSheet]) -> str:
    from deckcli.diagnostics import visible_name as shown

    data = {"version": 1,
            "event": {"name": shown(event.name),
                      "date": event.date.isoformat() if event.date else None,
                      "game": event.game or DEFAULT_GAME, "format": event.format,
                      "path": shown(event.path)},
            "decks": [deck_json(s) for s in sheets]}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def to_csv(event, sheets: list[DeckSheet]) -> str:
    """One row per entry (a player without a deck: one row with no card)."""
    from deckcli.decks.csvdeck import csv_text
    from deckcli.diagnostics import visible_name as shown

    rows: list[list] = [list(CSV_COLUMNS)]
    for s in sheets:
        r = s.report
        head = [shown(r.player) or "", shown(r.name) or "", r.fingerprint or "", verdict(s)]
        listed = cards(s)
        rows.extend([*head, c["count"], c["name"], c["set"] or "", c["number"] or "",
                     ";".join(c["variants"])] for c in listed)
        if not listed:
            rows.append([*head, "", "", "", "", ""])
    return csv_text(rows)


EXPORT_CSS = """
section.deck { break-inside: avoid; border-top: 1px solid #d5dae1; padding: 10px 0 4px; }
section.deck h2 { border: 0; margin: 0 0 2px; }
.lists { columns: 2 260px; column-gap: 28px; }
.lists h3 { break-after: avoid; }
.lists ul { list-style: none; margin: 0 0 8px; padding: 0; }
.lists li { break-inside: avoid; }
"""


def to_html(event, sheets: list[DeckSheet], *, paper: str = "auto") -> str:
    from deckcli.diagnostics import visible_name as shown
    from deckcli.sheets.report import REPORT_CSS, verdict_pill

    title = f"{event.name or 'Event'}: decklists"
    when = event.date.isoformat() if event.date else ""
    parts = [f'<main><header class="top"><div class="kicker">Decklists</div>'
             f"<h1>{esc(event.name or 'Event')}</h1><div class=\"muted\">{esc(when)} "
             f"{esc(event.game or DEFAULT_GAME)} {esc(event.format or '')} &middot; "
             f"{len(sheets):,} deck(s)</div></header>"]
    for i, s in enumerate(sheets, 1):
        r = s.report
        groups = "".join(
            f"<h3>{esc(g.label)} ({g.total})</h3><ul>" + "".join(
                f"<li>{esc(line.text())}</li>" for line in g.lines) + "</ul>"
            for g in card_groups(s))
        size = f"{r.card_count} cards" if s.deck is not None else "no deck submitted"
        parts.append(
            f'<section class="deck" id="deck-{i}"><h2>{esc(shown(r.player) or "-")}'
            f"{' &ndash; ' + esc(shown(r.name)) if r.name else ''}</h2>"
            f'<div>{verdict_pill(s)} <span class="fp">{esc(r.fingerprint or "-")}</span> '
            f'<span class="muted">{esc(size)}</span></div>'
            f'<div class="lists">{groups}</div></section>')
    parts.append("</main>")
    return page(title, "".join(parts), REPORT_CSS + EXPORT_CSS, paper=paper)


TARGETS = {"csv": to_csv, "json": to_json}


def export(event, sheets: list[DeckSheet], to: str, *, paper: str = "auto") -> str:
    if to == "html":
        return to_html(event, sheets, paper=paper)
    return TARGETS[to](event, sheets)
