"""The organiser's event report (``deckcli report``): one self-contained HTML page.

Sections: the event's settings; a summary of verdicts; every deck with its verdict, fingerprint
and problems (each rule id links to the rule's text in the appendix at the end of the page);
the most played cards; the share of decks that play each card; each battle statistic's profile
(every deck's median, best and worst Animal against the database's median); the cited rules.
Charts are inline SVG from :mod:`deckcli.sheets.svg`; the page needs no script and no network.
Card tallies cover every deck that could be read, legal or not; a listed player without a deck
appears in the deck table only.
"""

from __future__ import annotations

import os
from collections import defaultdict

from deckcli.games import DEFAULT_GAME, GAMES
from deckcli.sheets import DeckSheet
from deckcli.sheets.html import anchor, esc, num, page, pct, problem_items
from deckcli.sheets.svg import PALETTE, hbars, meter, range_plot

TOP_CARDS = 15

REPORT_CSS = """
body { background: #fff; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 28px 48px; }
header.top { border-bottom: 3px solid #14181f; padding-bottom: 10px; margin-bottom: 18px; }
.kicker { text-transform: uppercase; letter-spacing: .12em; font-size: 8pt; color: #5b6472;
          font-weight: 700; }
h1 { font-size: 22pt; }
h2 { font-size: 14pt; margin: 26px 0 8px; padding-bottom: 3px; border-bottom: 1px solid #d5dae1; }
h3 { font-size: 11pt; margin: 16px 0 4px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0 0; }
dl.meta dt { color: #5b6472; font-weight: 600; } dl.meta dd { margin: 0; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 6px 0 12px; }
.card { border: 1px solid #d5dae1; border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.card b { display: block; font-size: 18pt; }
table.grid { width: 100%; font-size: 9.5pt; margin: 4px 0 8px; }
table.grid th { text-align: left; background: #eef1f5; border-bottom: 2px solid #14181f;
                padding: 4px 6px; white-space: nowrap; }
table.grid td { border-bottom: 1px solid #e3e7ec; padding: 4px 6px; vertical-align: top; }
table.grid td.r, table.grid th.r { text-align: right; }
table.grid ul { margin: 0; padding-left: 16px; }
.fp { font-family: "DejaVu Sans Mono", "Liberation Mono", Consolas, monospace;
      white-space: nowrap; }
.pill { display: inline-block; padding: 0 7px; border-radius: 9px; font-weight: 700;
        font-size: 8.5pt; white-space: nowrap; }
.pill.ok { background: #e7f4ec; } .pill.bad { background: #fdecea; }
.chart { display: block; max-width: 100%; height: auto; margin: 4px 0 10px; }
.meter { vertical-align: middle; margin-right: 6px; }
.rule { border-left: 3px solid #1f4e99; padding: 2px 10px; margin: 8px 0; }
.rule:target { background: #fff6d6; }
.keep { break-inside: avoid; }
.note { font-size: 9pt; color: #5b6472; }
@media print { main { max-width: none; padding: 0; } h2 { break-after: avoid; }
               .rule, tr, svg { break-inside: avoid; } }
"""


def _label(sheet: DeckSheet) -> str:
    r = sheet.report
    if r.player:
        return r.player + (f" \u2013 {r.name}" if r.name else "")
    return r.name or (os.path.basename(r.path) if r.path else "deck")


def verdict_pill(sheet: DeckSheet) -> str:
    if sheet.deck is None:
        return '<span class="pill bad">no deck</span>'
    return ('<span class="pill ok">legal</span>' if sheet.report.legal
            else '<span class="pill bad">illegal</span>')


def _meta(event, sheets) -> str:
    rows = [("Date", event.date.isoformat() if event.date else None),
            ("Game", event.game or DEFAULT_GAME), ("Format", event.format),
            ("Legal sets", ", ".join(event.sets) if event.sets is not None else "any"),
            ("Banned", ", ".join(
                (b.card_ref or b.ref) + (f" (from {b.effective.isoformat()})" if b.effective
                                         else "") for b in event.bans) or "none"),
            ("Limited", ", ".join(f"{ref}: {n}" for ref, n, _ in event.limited) or None),
            ("House rules", ", ".join(f"{k}: {v}" for k, v in event.house_rules.items()) or None),
            ("Roster", f"{len(event.players):,} player(s), {len(sheets):,} deck(s) in this report"),
            ("Event file", event.path)]
    return '<dl class="meta">' + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows if v) + "</dl>"


def _summary(sheets) -> str:
    legal = sum(1 for s in sheets if s.legal)
    missing = sum(1 for s in sheets if s.deck is None)
    illegal = len(sheets) - legal - missing
    cards = "".join(f'<div class="card"><span class="muted">{esc(k)}</span><b class="{c}">{v}</b>'
                    "</div>" for k, v, c in [("Decks", len(sheets), ""), ("Legal", legal, "ok"),
                                             ("Illegal", illegal, "bad"),
                                             ("No deck", missing, "bad")])
    chart = hbars([("legal", legal, str(legal)), ("illegal", illegal, str(illegal)),
                   ("no deck submitted", missing, str(missing))], label="Verdicts",
                  colors=(PALETTE[1], PALETTE[4], "#7a1b12"), width=560, label_width=150,
                  text_width=60)
    return (f'<section><h2 id="summary">Summary</h2><div class="cards">{cards}</div>{chart}'
            "</section>")


def _decks(sheets) -> str:
    rows = []
    for i, s in enumerate(sheets, 1):
        r = s.report
        problems = problem_items(r.problems, link_rules=True)
        rows.append(
            f"<tr><td class=\"r\">{i}</td><td><b>{esc(r.player or '(not on the roster)')}</b><br>"
            f"{esc(r.name or '')}</td><td class=\"fp\">{esc(r.path or '-')}</td>"
            f"<td class=\"r\">{r.card_count if s.deck is not None else '-'}</td>"
            f"<td>{verdict_pill(s)}</td><td class=\"fp\">{esc(r.fingerprint or '-')}</td>"
            f"<td>{'<ul>' + problems + '</ul>' if problems else '<span class=muted>none</span>'}"
            "</td></tr>")
    return ('<section><h2 id="decks">Decks</h2><table class="grid"><thead><tr>'
            '<th class="r">#</th><th>Player / deck</th><th>File</th><th class="r">Cards</th>'
            "<th>Verdict</th><th>Fingerprint</th><th>Problems (rule ids link to the rules "
            "below)</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></section>")


def card_usage(sheets) -> list[dict]:
    """Every card played in a readable deck: copies, decks playing it, share of decks."""
    decks = [s for s in sheets if s.rdeck is not None]
    copies: dict[int, int] = defaultdict(int)
    playing: dict[int, set[int]] = defaultdict(set)
    cards = {}
    for i, s in enumerate(decks):
        for x in s.rdeck.entries:
            copies[x.card.id] += x.entry.count
            playing[x.card.id].add(i)
            cards[x.card.id] = x.card
    out = [{"card": cards[cid].ref, "name": cards[cid].name, "kind": cards[cid].kind,
            "copies": n, "decks": len(playing[cid]),
            "share": len(playing[cid]) / len(decks) if decks else 0.0}
           for cid, n in copies.items()]
    out.sort(key=lambda u: (-u["copies"], -u["decks"], u["card"]))
    return out


def _cards(sheets) -> str:
    usage = card_usage(sheets)
    n = sum(1 for s in sheets if s.rdeck is not None)
    if not usage:
        return ('<section><h2 id="cards">Most played cards</h2><p class="muted">No deck could be '
                "read.</p></section>")
    top = usage[:TOP_CARDS]
    chart = hbars([(u["card"], u["copies"], f"{u['copies']} copies in {u['decks']} deck(s)")
                   for u in top], label=f"The {len(top)} most played cards, by copies")
    rows = "".join(
        f"<tr><td>{esc(u['card'])}</td><td>{esc(u['kind'])}</td>"
        f"<td class=\"r\">{u['decks']} / {n}</td><td>{meter(u['share'])}{pct(u['share'], 0)}</td>"
        f"<td class=\"r\">{u['copies']}</td><td class=\"r\">{num(u['copies'] / u['decks'])}</td>"
        "</tr>" for u in sorted(usage, key=lambda u: (-u["share"], -u["copies"], u["card"])))
    return (f'<section><div class="keep"><h2 id="cards">Most played cards</h2>'
            f'<p class="note">Across the {n} deck(s) that could be read, legal or not.</p>{chart}'
            "</div>"
            '<h2 id="share">Share of each card across decks</h2><table class="grid"><thead><tr>'
            '<th>Card</th><th>Kind</th><th class="r">Decks</th><th>Share of decks</th>'
            '<th class="r">Copies</th><th class="r">Copies per deck playing it</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></section>")


def _profiles(sheets, index, game: str) -> str:
    from deckcli.sheets.stats import UNITS, battle_stats, deck_stats

    docs = [(s, deck_stats(s, index)) for s in sheets if s.rdeck is not None]
    if "level" in GAMES[game].key_stats:
        return _levels(docs)
    if not docs:
        return ""
    intro = ('<section><h2 id="profiles">Statistic profiles</h2><p class="note">Each deck\'s '
             "Animals on each battle statistic: the dot is the deck's median (every copy "
             "counted), the line runs from its worst to its best Animal; the dashed line is the "
             "median of every Animal in the database and the shaded band its middle half "
             "(first to third quartile). Population is won by the lower value.</p>")
    parts = [intro]
    head = "".join(f'<th class="r">{esc(s)}</th>' for s in battle_stats())
    table = []
    for stat, (sense, rule) in battle_stats().items():
        rows, db = [], None
        for s, d in docs:
            p = d["stats"][stat]
            db = p["database"] or db
            deck = p["deck"]
            rows.append((_label(s), deck and deck["worst"], deck and deck["median"],
                         deck and deck["best"]))
        band = (db["q1"], db["q3"]) if db else None
        parts.append(f'<div class="keep"><h3>{esc(stat.title())} <span class="muted">('
                     f"{esc(sense)} wins, rule {esc(rule)}, {esc(UNITS.get(stat, ''))})</span>"
                     "</h3>")
        parts.append(range_plot(rows, label=f"{stat}: deck medians against the database",
                                reference=db and db["median"], sense=sense,
                                unit=UNITS.get(stat), band=band) + "</div>")

    def median_of(part) -> str:
        return num(part["median"]) if part else "-"

    for s, d in docs:
        cells = "".join(f'<td class="r">{median_of(d["stats"][st]["deck"])}</td>'
                        for st in battle_stats())
        table.append(f"<tr><td>{esc(_label(s))}</td>{cells}</tr>")
    first = docs[0][1]["stats"]
    cells = "".join(f'<td class="r">{median_of(first[st]["database"])}</td>'
                    for st in battle_stats())
    table.append(f"<tr><td><b>database median</b></td>{cells}</tr>")
    parts.append('<h3>Medians</h3><table class="grid"><thead><tr><th>Deck</th>' + head
                 + "</tr></thead><tbody>" + "".join(table) + "</tbody></table></section>")
    return "".join(parts)


def _levels(docs) -> str:
    levels = sorted({int(k) for _, d in docs for k in d.get("levels", {})})
    if not levels:
        return ""
    head = "".join(f'<th class="r">level {lv}</th>' for lv in levels)
    rows = "".join(
        f"<tr><td>{esc(_label(s))}</td>" + "".join(
            f'<td class="r">{d.get("levels", {}).get(str(lv), 0)}</td>' for lv in levels)
        + "</tr>" for s, d in docs)
    return ('<section><h2 id="profiles">Creature levels</h2><table class="grid"><thead><tr>'
            f"<th>Deck</th>{head}</tr></thead><tbody>{rows}</tbody></table></section>")


def _appendix(sheets) -> str:
    from deckcli.rulebook import find_rule

    ids = sorted({p.rule for s in sheets for p in s.report.problems if p.rule})
    if not ids:
        return ""
    items = []
    for rule_id in ids:
        rule = find_rule(rule_id)
        if rule is None:
            items.append(f'<div class="rule" id="{anchor(rule_id)}"><b>{esc(rule_id)}</b> '
                         '<span class="muted">(not in the rules reference)</span></div>')
            continue
        scope = rule.game or "decklists and events"
        see = ", ".join(f'<a href="#{anchor(r)}">{esc(r)}</a>' if r in ids else esc(r)
                        for r in rule.refs)  # as 'deckcli rules ID' ends: its related rules
        items.append(f'<div class="rule" id="{anchor(rule.id)}"><b>{esc(rule.id)}</b> '
                     f"{esc(rule.title)} <span class=\"muted\">({esc(scope)})</span>"
                     f"<br>{esc(rule.text)}"
                     + (f'<br><span class="muted">see also: {see}</span>' if see else "")
                     + "</div>")
    return ('<section><h2 id="rules">Cited rules</h2><p class="note">The rules the problems '
            "above apply, as <code>deckcli rules ID</code> shows them.</p>" + "".join(items)
            + "</section>")


def render_report(event, sheets: list[DeckSheet], index, *, paper: str = "auto") -> str:
    """The report page for an event and its decks (from :func:`deckcli.sheets.load_event_decks`)."""
    from deckcli import __version__

    title = event.name or os.path.basename(event.path)
    game = event.game or DEFAULT_GAME
    body = [
        ('<main><header class="top"><div class="kicker">Event report</div>'
         f"<h1>{esc(title)}</h1>{_meta(event, sheets)}</header>"),
        _summary(sheets), _decks(sheets), _cards(sheets), _profiles(sheets, index, game),
        _appendix(sheets),
        f'<p class="note">Written by deckcli {esc(__version__)}.</p></main>']
    return page(f"Event report: {title}", "\n".join(body), REPORT_CSS, paper=paper)
