"""Printable deck registration sheets: one page per deck, self-contained HTML.

Each page carries the event's name and date, the player, game and format, the list grouped by
card kind with a subtotal per kind and the total, the deck fingerprint, the verdict (with the
problems of an illegal deck) and empty boxes for judges' initials. A listed player who sent no
deck gets a page that says so.

Sized for both A4 and US Letter: everything is laid out inside 186x255 mm, the smaller paper's
page (210x279 mm) less 12 mm margins. Long lists switch to a denser layout (smaller type, more
columns) so the longest realistic list, sixty one-ofs, still fits one page; the problem list of
an illegal deck is capped, with a pointer to ``deckcli validate`` for the rest.
"""

from __future__ import annotations

from deckcli.games import GAMES
from deckcli.sheets import UNRESOLVED, DeckSheet, card_groups
from deckcli.sheets.html import MONO, esc, page, problem_items

MAX_PROBLEMS = 6  # problems printed on a sheet; the rest are counted
MAX_PROBLEM_CHARS = 230  # one problem is at most about two printed lines

#: (rows up to, css class): rows are card lines plus two per kind (heading, subtotal).
DENSITY = ((40, "d-normal"), (72, "d-compact"), (123, "d-dense"), (10**9, "d-tiny"))

SHEET_CSS = f"""
.sheet {{ background: #fff; width: 210mm; min-height: 279mm; margin: 8mm auto; padding: 12mm;
         box-shadow: 0 1px 6px rgba(0,0,0,.25); display: flex; flex-direction: column; }}
.sheet:not(:last-child) {{ page-break-after: always; break-after: page; }}
@media print {{
  body {{ background: #fff; }}
  .sheet {{ width: auto; min-height: 0; height: 252mm; margin: 0; padding: 0;
           box-shadow: none; }}
}}
.top {{ display: flex; justify-content: space-between; align-items: flex-start; gap: 6mm;
       border-bottom: 0.6mm solid #14181f; padding-bottom: 2.5mm; }}
.kicker {{ text-transform: uppercase; letter-spacing: .12em; font-size: 7.5pt; color: #5b6472;
          font-weight: 700; }}
.top h1 {{ font-size: 16pt; line-height: 1.2; }}
.top .when {{ font-size: 9pt; color: #3a4350; }}
.badge {{ border: 0.6mm solid currentColor; border-radius: 1.5mm; padding: 1.2mm 3.5mm;
         font-weight: 700; font-size: 13pt; letter-spacing: .06em; white-space: nowrap; }}
.badge.ok {{ background: #e7f4ec; }} .badge.bad {{ background: #fdecea; }}
.fields {{ width: 100%; margin-top: 2.5mm; font-size: 9pt; table-layout: fixed; }}
.fields th {{ text-align: left; font-weight: 600; color: #5b6472; width: 22mm;
             padding: 0.8mm 2mm 0.8mm 0; vertical-align: bottom; font-size: 7.5pt;
             text-transform: uppercase; letter-spacing: .05em; }}
.fields td {{ border-bottom: 0.25mm solid #aab2bd; padding: 0.8mm 2mm 0.6mm 1mm;
             overflow-wrap: anywhere; font-weight: 600; }}
.fields td.blank {{ color: transparent; }}
.fp {{ font-family: {MONO}; font-size: 12pt; letter-spacing: .08em; font-weight: 700; }}
.list {{ margin-top: 3mm; column-gap: 6mm; column-rule: 0.2mm solid #d5dae1; flex: 0 1 auto; }}
.row {{ display: flex; flex-wrap: wrap; column-gap: 1.5mm; break-inside: avoid;
       padding: 0 1mm; border-bottom: 0.15mm solid #e3e7ec; }}
.row .q {{ flex: 0 0 auto; min-width: 5mm; text-align: right; font-weight: 700; }}
.row .n {{ flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }}
.row .p {{ flex: 0 0 auto; margin-left: auto; color: #5b6472; white-space: nowrap; }}
.row .v {{ font-style: italic; }}
.gh {{ display: flex; justify-content: space-between; break-after: avoid; break-inside: avoid;
      margin-top: 1.5mm; padding: 0.6mm 1mm; background: #eef1f5; font-weight: 700;
      text-transform: uppercase; letter-spacing: .05em; border-top: 0.3mm solid #14181f; }}
.gh:first-child {{ margin-top: 0; }}
.gs {{ display: flex; justify-content: space-between; padding: 0.3mm 1mm 0 1mm;
      break-before: avoid; break-inside: avoid; color: #3a4350; font-style: italic; }}
.unres .n {{ color: #b42318; }}
.d-normal .list {{ column-count: 2; font-size: 9.5pt; line-height: 1.42; }}
.d-compact .list {{ column-count: 2; font-size: 8.4pt; line-height: 1.3; }}
.d-dense .list {{ column-count: 3; font-size: 7.2pt; line-height: 1.22; column-gap: 4mm; }}
.d-tiny .list {{ column-count: 4; font-size: 5.6pt; line-height: 1.15; column-gap: 3mm; }}
.totals {{ margin-top: 2.5mm; display: flex; flex-wrap: wrap; gap: 1mm 5mm; font-size: 9pt;
          border-top: 0.6mm solid #14181f; padding-top: 1.5mm; }}
.totals .all {{ margin-left: auto; font-weight: 700; font-size: 10.5pt; }}
.verdict {{ margin-top: 2.5mm; font-size: 8.3pt; line-height: 1.3; }}
.verdict h2 {{ font-size: 9.5pt; display: inline; }}
.verdict ul {{ margin: 0.8mm 0 0 0; padding-left: 4.5mm; }}
.notes {{ flex: 1 1 auto; min-height: 6mm; margin-top: 3mm; border: 0.3mm dashed #aab2bd;
         padding: 0.8mm 1.5mm; font-size: 7pt; text-transform: uppercase; letter-spacing: .05em;
         color: #5b6472; }}
.missing {{ margin: 12mm 0; padding: 8mm; border: 0.5mm dashed #b42318; text-align: center; }}
.missing h2 {{ font-size: 15pt; color: #b42318; }}
.confirm {{ margin-top: 3mm; font-size: 8.5pt; display: flex; gap: 4mm; align-items: flex-end; }}
.confirm .line {{ flex: 1 1 auto; border-bottom: 0.25mm solid #14181f; height: 6mm; }}
.judge {{ margin-top: 3mm; display: grid; grid-template-columns: repeat(4, minmax(0, 1fr));
          gap: 3mm; }}
.judge div {{ border: 0.35mm solid #14181f; height: 15mm; padding: 0.8mm 1.5mm; font-size: 7pt;
             text-transform: uppercase; letter-spacing: .05em; color: #3a4350; }}
.foot {{ margin-top: 2mm; display: flex; justify-content: space-between; font-size: 7pt;
        color: #5b6472; }}
"""


def _density(groups, problems: int) -> str:
    rows = sum(len(g.lines) for g in groups) + 2 * len(groups)
    rows += 2 * max(0, min(problems, MAX_PROBLEMS) - 2)  # problems above two take list room
    return next(cls for limit, cls in DENSITY if rows <= limit)


def _field(label: str, value, *, cls: str = "") -> str:
    if value in (None, ""):
        return f'<th>{esc(label)}</th><td class="blank">&nbsp;</td>'
    return f'<th>{esc(label)}</th><td class="{cls}">{esc(value)}</td>'


def _header(sheet: DeckSheet, event) -> str:
    r = sheet.report
    event_name = getattr(event, "name", None)
    date = getattr(event, "date", None)
    kicker, title = ("Deck registration sheet", event_name) if event_name else (
        "deckcli", "Deck registration sheet")
    when = []
    if date:
        when.append(date.isoformat())
    when.append(r.game)
    if r.format:
        when.append(r.format)
    elif r.extra.get("players"):
        when.append(f"{r.extra['players']} players")
    if sheet.deck is None:
        badge = '<div class="badge bad">NO DECK</div>'
    elif r.legal:
        badge = '<div class="badge ok">LEGAL</div>'
    else:
        badge = '<div class="badge bad">ILLEGAL</div>'
    rows = [
        "<tr>" + _field("Event", event_name) + _field("Date", date and date.isoformat()) + "</tr>",
        "<tr>" + _field("Player", r.player) + _field("Deck name", r.name) + "</tr>",
        "<tr>" + _field("Game", r.game) + _field("Format", r.format or (
            f"none ({r.game})" if r.game in GAMES and not GAMES[r.game].formats else None))
        + "</tr>",
        "<tr>" + _field("Cards", r.card_count if sheet.deck is not None else None)
        + _field("Fingerprint", r.fingerprint, cls="fp") + "</tr>",
    ]
    if r.path:
        rows.append(f'<tr><th>Deck file</th><td colspan="3" class="mono">{esc(r.path)}</td></tr>')
    sep = " \u00b7 "
    return (f'<div class="top"><div><div class="kicker">{esc(kicker)}</div>'
            f'<h1>{esc(title)}</h1><div class="when">{esc(sep.join(when))}</div></div>'
            f"{badge}</div>\n"
            '<table class="fields"><colgroup><col style="width:22mm"><col>'
            '<col style="width:24mm"><col></colgroup>' + "".join(rows) + "</table>")


def _list(groups) -> str:
    out = ['<div class="list">']
    for g in groups:
        cls = " unres" if g.kind == UNRESOLVED else ""
        out.append(f'<div class="gh{cls}"><span>{esc(g.label)}</span><span>{g.total}</span></div>')
        for x in g.lines:
            tags = (f' <span class="v">[{esc(", ".join(x.variants))}]</span>'
                    if x.variants else "")
            printing = f'<span class="p">{esc(x.printing)}{tags}</span>' if (
                x.printing or tags) else ""
            out.append(f'<div class="row{cls}"><span class="q">{x.count}</span>'
                       f'<span class="n">{esc(x.name)}</span>{printing}</div>')
        out.append(f'<div class="gs"><span>{esc(g.label)} subtotal</span>'
                   f"<span>{g.total}</span></div>")
    out.append("</div>")
    return "\n".join(out)


def _totals(groups, total: int) -> str:
    parts = [f"<span>{esc(g.label)}: <b>{g.total}</b></span>" for g in groups]
    parts.append(f'<span class="all">Total: {total:,} cards</span>')
    return '<div class="totals">' + "".join(parts) + "</div>"


def _verdict(sheet: DeckSheet) -> str:
    r = sheet.report
    errors = [p for p in r.problems if p.is_error]
    warnings = [p for p in r.problems if not p.is_error]
    if r.legal:
        head = '<h2 class="ok">Verdict: legal.</h2>'
        if warnings:
            head += f" {len(warnings)} warning(s):"
    else:
        head = (f'<h2 class="bad">Verdict: illegal</h2> ({len(errors)} error(s)'
                + (f", {len(warnings)} warning(s)" if warnings else "") + "):")
    items = problem_items(errors + warnings, limit=MAX_PROBLEMS, max_chars=MAX_PROBLEM_CHARS)
    body = f"<ul>{items}</ul>" if items else ""
    return f'<div class="verdict">{head}{body}</div>'


def _judge() -> str:
    boxes = ["Registration received", "Deck check 1", "Deck check 2", "Round / table"]
    return ('<div class="confirm"><span>The list above is the deck I will play. '
            'Player signature:</span><span class="line"></span></div>'
            '<div class="judge">' + "".join(
                f"<div>{esc(b)}<br>judge initials</div>" if i < 3 else f"<div>{esc(b)}</div>"
                for i, b in enumerate(boxes)) + "</div>")


def render_sheet(sheet: DeckSheet, event, number: int, count: int) -> str:
    """The HTML of one page (a ``<section class="sheet">``)."""
    r = sheet.report
    groups = card_groups(sheet)
    foot = (f'<div class="foot"><span>Sheet {number} of {count}</span>'
            f"<span>deckcli registration sheet</span></div>")
    if sheet.deck is None:
        problems = problem_items(r.problems, limit=MAX_PROBLEMS, max_chars=MAX_PROBLEM_CHARS)
        body = ('<div class="missing"><h2>No deck submitted</h2>'
                f"<p>{esc(sheet.note or 'This player has no readable deck file.')}</p></div>"
                f'<div class="verdict"><h2 class="bad">Verdict: illegal</h2><ul>{problems}'
                "</ul></div>")
        return (f'<section class="sheet d-normal">{_header(sheet, event)}{body}'
                f'<div class="notes">Judge notes</div>{_judge()}{foot}</section>')
    density = _density(groups, len(r.problems))
    return (f'<section class="sheet {density}">{_header(sheet, event)}\n{_list(groups)}\n'
            f"{_totals(groups, r.card_count)}{_verdict(sheet)}"
            f'<div class="notes">Judge notes</div>{_judge()}{foot}</section>')


def render_sheets(sheets: list[DeckSheet], event=None, *, paper: str = "auto") -> str:
    """One HTML document with a printable page per deck."""
    name = getattr(event, "name", None)
    if len(sheets) == 1:
        who = sheets[0].player or sheets[0].title
        title = f"Registration sheet: {who}" + (f" ({name})" if name else "")
    else:
        title = f"Registration sheets: {name or f'{len(sheets):,} decks'}"
    body = "\n".join(render_sheet(s, event, i, len(sheets)) for i, s in enumerate(sheets, 1))
    return page(title, body, SHEET_CSS, paper=paper)

