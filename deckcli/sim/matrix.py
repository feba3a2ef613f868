"""A matchup matrix (every pairing of several decks) as text, CSV and an HTML heatmap.

Cell (row, column) is the row deck's win rate against the column deck over their decided games,
with its 95% interval for seat-swapped pairs; (column, row) is one minus it, exactly, from the
same games.
"""

from __future__ import annotations

import os

from deckcli.sim.report import RESTS_ON, gap_order, pct, players, wrap


def _names(result: dict) -> list[str]:
    return [os.path.basename(d["path"] or "-") for d in result["decks"]]


def _rows(result: dict):
    """(deck, opponent, games, wins, losses, undecided, rate, low, high), both directions."""
    names = _names(result)
    for p in result["pairings"]:
        i, j, r, wr = p["a"], p["b"], p["results"], p["win_rate"]
        lo, hi = wr["ci95"]
        yield (names[i], names[j], p["games"], r["a"], r["b"], r["undecided"], wr["a"], lo, hi)
        back = None if wr["a"] is None else round(1 - wr["a"], 4)
        yield (names[j], names[i], p["games"], r["b"], r["a"], r["undecided"], back,
               round(1 - hi, 4), round(1 - lo, 4))


def to_csv(result: dict) -> str:
    """One row per deck and opponent (both directions), spreadsheet-safe."""
    from deckcli.decks.csvdeck import csv_text

    head = ("deck", "opponent", "games", "wins", "losses", "undecided", "win_rate",
            "ci95_low", "ci95_high")
    return csv_text([head, *(tuple("" if v is None else v for v in row)
                             for row in _rows(result))])


def _played(result: dict) -> str:
    """The games a pairing played: ``--games``, or fewer where ``--until-ci`` stopped it."""
    counts = sorted({p["games"] for p in result["pairings"]}) or [result["games"]]
    return f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"


def render(result: dict) -> str:
    """The matrix as text: each deck named whole once, at the head of its row with its number,
    and the columns headed by those numbers (a column per name would run past the width of a
    terminal, and cut short, two names could read alike)."""
    names = _names(result)
    labels = [f"#{i + 1}  {name}" for i, name in enumerate(names)]
    width = max(len(label) for label in labels)
    cell = 7  # '100.0%' and the column's number
    lines = [f"{result['game']}: {len(names)} decks, every pairing {_played(result)} games in "
             f"seat-swapped pairs, seed {result['seed']}; row's win rate against column",
             " " * width + "".join(f"#{j + 1}".rjust(cell + 2) for j in range(len(names)))]
    for i, label in enumerate(labels):
        cells = []
        for j in range(len(names)):
            v = result["matrix"][i][j]
            cells.append(("-" if i == j else pct(v)).rjust(cell + 2))
        lines.append(label.ljust(width) + "".join(cells))
    lines.append("95% intervals: --output json, --csv FILE or --html FILE")
    lines += players(result)
    lines += _resting(result)
    return "\n".join(lines)


def _resting(result: dict) -> list[str]:
    """The gaps met in more than a tenth of a pairing's games: the house rule that settled
    each, in how many pairings and at most what share of a pairing's games, and the
    ``--house-rule`` values that would check it (see deckcli.sim.report.resting)."""
    found: dict[str, list] = {}  # rule -> (its ruling, the shares of the pairings)
    for p in result["pairings"]:
        for rule, g in p.get("gap_rulings", {}).items():
            if p["games"] and g["games"] > RESTS_ON * p["games"]:
                found.setdefault(rule, [g, []])[1].append(g["games"] / p["games"])
    out = []
    for rule in sorted(found, key=gap_order):
        g, shares = found[rule]
        out += wrap(f"{rule} {g['house_rule']}={g['value']} ({g['source']}): in "
                    f"{len(shares)} of {len(result['pairings'])} pairings, up to "
                    f"{pct(max(shares))} of a pairing's games", "    ", first="  ")
        if g["other_values"]:
            out += wrap("to check: " + ", ".join(f"--house-rule {g['house_rule']}={v}"
                                                 for v in g["other_values"]), "    ")
    if out:
        out.insert(0, "results that may rest on a house rule (a gap met in more than a tenth "
                      "of a pairing's games):")
    return out



def to_html(result: dict) -> str:
    """A heatmap: one coloured cell per pairing, the rate and its interval written in it."""
    from deckcli.sheets.html import esc, page

    names = _names(result)
    head = "".join(f'<th scope="col">{esc(n)}</th>' for n in names)
    body = []
    for i, name in enumerate(names):
        cells = [f'<th scope="row">{esc(name)}</th>']
        for j in range(len(names)):
            v, ci = result["matrix"][i][j], result["ci95"][i][j]
            if i == j:
                cells.append('<td class="self">&ndash;</td>')
            elif v is None:
                cells.append('<td class="none">no decided game</td>')
            else:
                cells.append(f'<td style="background:{_colour(v)}" data-rate="{v}">'
                             f'<b>{pct(v)}</b><br><span>{pct(ci[0])}&ndash;{pct(ci[1])}'
                             '</span></td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    rules = ", ".join(f"{h['key']}={h['value']} ({h['source']})" for h in result["house_rules"])
    html = (f"<main><h1>Matchups: {esc(result['game'])}</h1>"
            f"<p class=\"muted\">Each cell: the row deck's win rate against the column deck "
            f"over their decided games, with its 95% interval (each seat-swapped pair a unit); "
            f"{_played(result)} games a pairing in seat-swapped pairs, seed {result['seed']}, "
            f"policies "
            f"{esc(result['policies']['a'])} v {esc(result['policies']['b'])}. House rules: "
            f"{esc(rules or 'none')}.</p>"
            f'<table class="matrix"><thead><tr><th></th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></main>")
    css = (".matrix td, .matrix th { border: 1px solid #c5cbd3; padding: 6px 10px; "
           "text-align: center; } .matrix th { white-space: nowrap; } "
           ".matrix td span { font-size: 8pt; color: #2b3340; } "
           "td.self { background: #eef0f3; } td.none { color: #5b6472; } "
           "main { background: #fff; padding: 16px; }")
    return page(f"Matchups: {result['game']}", html, css)


def _colour(rate: float) -> str:
    """Red (losing) through white (even) to green (winning)."""
    t = max(0.0, min(1.0, rate))
    if t < 0.5:
        k = t / 0.5
        r, g, b = 230, int(120 + 135 * k), int(120 + 135 * k)
    else:
        k = (t - 0.5) / 0.5
        r, g, b = int(255 - 125 * k), int(255 - 45 * k), int(255 - 125 * k)
    return f"#{r:02x}{g:02x}{b:02x}"


def write(result: dict, csv_path: str | None, html_path: str | None, wrote) -> None:
    """Write the matrix as CSV at ``csv_path`` and as HTML at ``html_path`` (each if given,
    atomically), calling ``wrote(path)`` after each."""
    from deckcli.files.write import atomic_write

    for path, make in ((csv_path, to_csv), (html_path, to_html)):
        if path:
            atomic_write(path, make(result).encode("utf-8"))
            wrote(path)
