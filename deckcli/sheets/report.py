"""The organiser's event report (``deckcli report``): one self-contained HTML page.

Sections: the event's settings; a summary of verdicts; every deck with its verdict, fingerprint
and problems (each rule id links to the rule's text in the appendix at the end of the page);
the most played cards; the share of decks that play each card; each battle statistic's profile
(every deck's median, best and worst Animal against the database's median); the cited rules.
Charts are inline SVG from :mod:`deckcli.sheets.svg`; the page needs no script and no network.
Card tallies cover every deck that could be read, legal or not; a listed player without a deck
appears in the deck table only.

The decks are read one at a time into a :class:`Tally`, which keeps of each what the page shows
(its report, its figures) and never the deck itself, and the page is written in parts as they
are made (:func:`report_parts`): an event of 20,000 players peaked at 508 MiB when every deck
was held at once and the page built whole (``benchmarks/report_memory.py``).
"""

from __future__ import annotations

import os
from collections import defaultdict

from deckcli.games import DEFAULT_GAME, GAMES
from deckcli.sheets import DeckSheet
from deckcli.sheets.html import anchor, esc, num, page_ends, pct, problem_items
from deckcli.sheets.svg import PALETTE, hbars, meter, range_plot_parts

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


def _label(report) -> str:
    if report.player:
        return report.player + (f" \u2013 {report.name}" if report.name else "")
    return report.name or (os.path.basename(report.path) if report.path else "deck")


def _pill(read: bool, legal: bool) -> str:
    if not read:
        return '<span class="pill bad">no deck</span>'
    return ('<span class="pill ok">legal</span>' if legal
            else '<span class="pill bad">illegal</span>')


def verdict_pill(sheet: DeckSheet) -> str:
    return _pill(sheet.deck is not None, sheet.report.legal)


class Row:
    """What the page shows of one deck: its report, whether a deck was read, and its figures:
    for each battle statistic (worst, median, best) or None, or its creature levels."""

    __slots__ = ("report", "read", "stats", "levels")

    def __init__(self, report, read: bool, stats=None, levels=None):
        self.report, self.read, self.stats, self.levels = report, read, stats, levels

    @property
    def legal(self) -> bool:
        return self.read and self.report.legal


class Tally:
    """The decks of a report, read one at a time (:meth:`add`): a :class:`Row` each, each
    card's copies and the decks that play it, the database's figures and the rules cited.
    It keeps no deck: what a deck holds beyond these is dropped once it is counted."""

    def __init__(self, index):
        self.index = index  # None: cards are counted, no figures are worked out
        self.rows: list[Row] = []
        self.copies: dict[int, int] = defaultdict(int)
        self.playing: dict[int, int] = defaultdict(int)  # card id -> decks that play it
        self.cards: dict = {}
        self.readable = 0
        self.database: dict | None = None  # stat -> the database's figures (the same each deck)
        self.rules: set[str] = set()

    @classmethod
    def of(cls, decks, index) -> Tally:
        """A tally of ``decks``: (report, deck, resolved deck) each, as
        :func:`deckcli.roster.roster_decks` gives them, or :class:`DeckSheet`\\ s."""
        tally = cls(index)
        for item in decks:
            if isinstance(item, DeckSheet):
                item = (item.report, item.deck, item.rdeck)
            tally.add(*item)
        return tally

    def add(self, report, deck, rdeck) -> None:
        self.rules.update(p.rule for p in report.problems if p.rule)
        if report.path is None:  # a listed player without a deck
            deck = None
        row = Row(report, deck is not None)
        self.rows.append(row)
        if rdeck is None:
            return
        self.readable += 1
        played = set()
        for x in rdeck.entries:
            self.copies[x.card.id] += x.entry.count
            played.add(x.card.id)
            self.cards[x.card.id] = x.card
        for cid in played:
            self.playing[cid] += 1
        if self.index is None:
            return
        from deckcli.sheets.stats import deck_stats

        doc = deck_stats(DeckSheet(report, deck, rdeck), self.index)
        if "levels" in doc:
            row.levels = doc["levels"]
        if "stats" in doc:
            row.stats = {stat: (p["deck"] and (p["deck"]["worst"], p["deck"]["median"],
                                               p["deck"]["best"]))
                         for stat, p in doc["stats"].items()}
            if self.database is None:
                self.database = {stat: p["database"] for stat, p in doc["stats"].items()}

    def usage(self) -> list[dict]:
        """Every card played in a readable deck: copies, decks playing it, share of decks."""
        n = self.readable
        out = [{"card": card.ref, "name": card.name, "kind": card.kind,
                "copies": self.copies[cid], "decks": self.playing[cid],
                "share": self.playing[cid] / n if n else 0.0}
               for cid, card in self.cards.items()]
        out.sort(key=lambda u: (-u["copies"], -u["decks"], u["card"]))
        return out


def card_usage(sheets) -> list[dict]:
    """Every card played in a readable deck: copies, decks playing it, share of decks."""
    return Tally.of(sheets, None).usage() if sheets else []


def _meta(event, tally) -> str:
    rows = [("Date", event.date.isoformat() if event.date else None),
            ("Game", event.game or DEFAULT_GAME), ("Format", event.format),
            ("Legal sets", ", ".join(event.sets) if event.sets is not None else "any"),
            ("Banned", ", ".join(
                (b.card_ref or b.ref) + (f" (from {b.effective.isoformat()})" if b.effective
                                         else "") for b in event.bans) or "none"),
            ("Limited", ", ".join(f"{ref}: {n}" for ref, n, _ in event.limited) or None),
            ("House rules", ", ".join(f"{k}: {v}" for k, v in event.house_rules.items()) or None),
            ("Roster", f"{len(event.players):,} player(s), {len(tally.rows):,} deck(s) in "
                       "this report"),
            ("Event file", event.path)]
    return '<dl class="meta">' + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows if v) + "</dl>"


def _summary(tally) -> str:
    legal = sum(1 for r in tally.rows if r.legal)
    missing = sum(1 for r in tally.rows if not r.read)
    illegal = len(tally.rows) - legal - missing
    cards = "".join(f'<div class="card"><span class="muted">{esc(k)}</span><b class="{c}">{v}</b>'
                    "</div>" for k, v, c in [("Decks", len(tally.rows), ""), ("Legal", legal, "ok"),
                                             ("Illegal", illegal, "bad"),
                                             ("No deck", missing, "bad")])
    chart = hbars([("legal", legal, str(legal)), ("illegal", illegal, str(illegal)),
                   ("no deck submitted", missing, str(missing))], label="Verdicts",
                  colors=(PALETTE[1], PALETTE[4], "#7a1b12"), width=560, label_width=150,
                  text_width=60)
    return (f'<section><h2 id="summary">Summary</h2><div class="cards">{cards}</div>{chart}'
            "</section>")


def _decks(tally):
    yield ('<section><h2 id="decks">Decks</h2><table class="grid"><thead><tr>'
           '<th class="r">#</th><th>Player / deck</th><th>File</th><th class="r">Cards</th>'
           "<th>Verdict</th><th>Fingerprint</th><th>Problems (rule ids link to the rules "
           "below)</th></tr></thead><tbody>")
    for i, row in enumerate(tally.rows, 1):
        r = row.report
        problems = problem_items(r.problems, link_rules=True)
        yield (
            f"<tr><td class=\"r\">{i}</td><td><b>{esc(r.player or '(not on the roster)')}</b><br>"
            f"{esc(r.name or '')}</td><td class=\"fp\">{esc(r.path or '-')}</td>"
            f"<td class=\"r\">{r.card_count if row.read else '-'}</td>"
            f"<td>{_pill(row.read, r.legal)}</td><td class=\"fp\">{esc(r.fingerprint or '-')}</td>"
            f"<td>{'<ul>' + problems + '</ul>' if problems else '<span class=muted>none</span>'}"
            "</td></tr>")
    yield "</tbody></table></section>"


def _cards(tally) -> str:
    usage = tally.usage()
    n = tally.readable
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


def _profiles(tally, game: str):
    from deckcli.sheets.stats import UNITS, battle_stats

    read = [row for row in tally.rows if row.stats is not None or row.levels is not None]
    if "level" in GAMES[game].key_stats:
        yield _levels(read)
        return
    read = [row for row in read if row.stats is not None]
    if not read:
        return
    yield ('<section><h2 id="profiles">Statistic profiles</h2><p class="note">Each deck\'s '
           "Animals on each battle statistic: the dot is the deck's median (every copy "
           "counted), the line runs from its worst to its best Animal; the dashed line is the "
           "median of every Animal in the database and the shaded band its middle half "
           "(first to third quartile). Population is won by the lower value.</p>")
    head = "".join(f'<th class="r">{esc(s)}</th>' for s in battle_stats())
    db_all = tally.database or {}
    for stat, (sense, rule) in battle_stats().items():
        rows = []
        for row in read:
            deck = row.stats[stat]
            rows.append((_label(row.report), deck and deck[0], deck and deck[1],
                         deck and deck[2]))
        db = db_all.get(stat)
        band = (db["q1"], db["q3"]) if db else None
        yield (f'<div class="keep"><h3>{esc(stat.title())} <span class="muted">('
               f"{esc(sense)} wins, rule {esc(rule)}, {esc(UNITS.get(stat, ''))})</span>"
               "</h3>")
        yield from range_plot_parts(rows, label=f"{stat}: deck medians against the database",
                                    reference=db and db["median"], sense=sense,
                                    unit=UNITS.get(stat), band=band)
        yield "</div>"

    def median_of(figures) -> str:
        return num(figures[1]) if figures else "-"

    yield '<h3>Medians</h3><table class="grid"><thead><tr><th>Deck</th>' + head + \
        "</tr></thead><tbody>"
    for row in read:
        cells = "".join(f'<td class="r">{median_of(row.stats[st])}</td>'
                        for st in battle_stats())
        yield f"<tr><td>{esc(_label(row.report))}</td>{cells}</tr>"
    cells = "".join(f'<td class="r">{num(db_all[st]["median"]) if db_all.get(st) else "-"}</td>'
                    for st in battle_stats())
    yield f"<tr><td><b>database median</b></td>{cells}</tr>"
    yield "</tbody></table></section>"


def _levels(rows) -> str:
    levels = sorted({int(k) for row in rows for k in (row.levels or {})})
    if not levels:
        return ""
    head = "".join(f'<th class="r">level {lv}</th>' for lv in levels)
    body = "".join(
        f"<tr><td>{esc(_label(row.report))}</td>" + "".join(
            f'<td class="r">{(row.levels or {}).get(str(lv), 0)}</td>' for lv in levels)
        + "</tr>" for row in rows)
    return ('<section><h2 id="profiles">Creature levels</h2><table class="grid"><thead><tr>'
            f"<th>Deck</th>{head}</tr></thead><tbody>{body}</tbody></table></section>")


def _appendix(tally) -> str:
    from deckcli.rulebook import find_rule

    ids = sorted(tally.rules)
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


def report_parts(event, tally: Tally, *, paper: str = "auto"):
    """The report page for an event and its decks (a :class:`Tally`), as the strings it is
    made of, in order: written as they come, the page is never held whole."""
    from deckcli import __version__

    title = event.name or os.path.basename(event.path)
    game = event.game or DEFAULT_GAME
    head, tail = page_ends(f"Event report: {title}", REPORT_CSS, paper=paper)
    yield head
    yield ('<main><header class="top"><div class="kicker">Event report</div>'
           f"<h1>{esc(title)}</h1>{_meta(event, tally)}</header>")
    yield "\n" + _summary(tally) + "\n"
    yield from _decks(tally)
    yield "\n" + _cards(tally) + "\n"
    yield from _profiles(tally, game)
    yield "\n" + _appendix(tally) + "\n"
    yield f'<p class="note">Written by deckcli {esc(__version__)}.</p></main>'
    yield tail


def render_report(event, sheets: list[DeckSheet], index, *, paper: str = "auto") -> str:
    """The report page for an event and its decks (from :func:`deckcli.sheets.load_event_decks`)."""
    return "".join(report_parts(event, Tally.of(sheets, index), paper=paper))
