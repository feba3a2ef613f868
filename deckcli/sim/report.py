"""A run's records made into the report (``simulate --output json`` and its text).

Two decks (animal-battle): wins of A and B and undecided games, A's win rate over the decided
games with its 95% interval for seat-swapped pairs (:func:`~deckcli.sim.stats.paired_rate`),
first-player wins, game lengths, the games that met each gap. A shared deck (alpha-walrus): the
same by seat, each with its Wilson interval (its games are independent), and the share of games
that reached the Final Showdown.

Every gap a game meets is settled by a house rule, a declared one or the simulation's default.
``gap_rulings`` gives, for each gap met, the house rule that settled it, its other values and
the results of the games that met it; the text report names each gap met in more than a tenth
of the games (:data:`RESTS_ON`) with how far the result could move with those games, and the
``--house-rule`` values that would check it.
"""

from __future__ import annotations

from collections import Counter

from deckcli.sim.ladder import items as ladder_items
from deckcli.sim.ladder import standings
from deckcli.sim.stats import outward, paired_rate, rate, rounded, wilson

VERSION = 1
FEW = 20  # fewer decided games than this: a rate says little (the text report says so)
RESTS_ON = 0.1  # a gap met in more than this share of the games: the result may rest on it
WIDTH = 100  # the text report's lines fit in this many columns


def _common(records: list[dict]) -> dict:
    gaps = Counter(g for r in records for g in r["gaps"])
    turns = [r["turns"] for r in records]
    return {"gaps": {k: gaps[k] for k in sorted(gaps, key=gap_order)},
            "turns": {"mean": round(sum(turns) / len(turns), 1) if turns else 0.0,
                      "max": max(turns, default=0)},
            "actions": sum(r["actions"] for r in records)}


def _rulings(records: list[dict], head: dict, gaps: dict | None, sides: list[str]) -> dict:
    """Each gap met (by rule id): the house rule that settled it (its key, value and source),
    the key's other values, the games that met it and their results (by ``sides``, with
    ``undecided``). ``gaps``: the game's gap table by rule id."""
    if not gaps:
        return {}
    used = {h["key"]: h for h in head["house_rules"]}
    out = {}
    for rule in sorted({g for r in records for g in r["gaps"]}, key=gap_order):
        gap = gaps[rule]
        house = used.get(gap.key, {"value": gap.default, "source": "default"})
        met = [r for r in records if rule in r["gaps"]]
        results = {s: sum(1 for r in met if r["winner"] == s) for s in sides}
        results["undecided"] = len(met) - sum(results.values())
        out[rule] = {"house_rule": gap.key, "value": house["value"], "source": house["source"],
                     "other_values": [v for v in gap.values if v != house["value"]],
                     "games": len(met), "results": results}
    return out


def gap_order(rule: str) -> tuple:
    head, _, n = rule.rpartition(".")
    return (head, int(n) if n.isdigit() else 0)


def interval(wins: int, decided: int) -> dict:
    """A rate of independent games with its Wilson interval."""
    return {"rate": rounded(rate(wins, decided)), "ci95": outward(*wilson(wins, decided))}


def pair_units(records: list[dict], won) -> list[tuple[int, int]]:
    """(games ``won`` says were won, decided games) of each seat-swapped pair of ``records``
    (games 2k and 2k+1; an odd last game alone)."""
    units: dict[int, list[int]] = {}
    for r in records:
        if r["winner"] is not None:
            unit = units.setdefault(r["n"] // 2, [0, 0])
            unit[0] += bool(won(r))
            unit[1] += 1
    return [(u[0], u[1]) for _, u in sorted(units.items())]


def paired_interval(records: list[dict], won) -> dict:
    """The rate of decided games ``won`` says were won, with its interval for seat-swapped
    pairs (:func:`~deckcli.sim.stats.paired_rate`)."""
    units = pair_units(records, won)
    return {"rate": rounded(rate(sum(w for w, _ in units), sum(d for _, d in units))),
            "ci95": outward(*paired_rate(units))}


def two_decks(head: dict, records: list[dict], gaps: dict | None = None) -> dict:
    """The report of A against B. ``head``: game, seed, decks, policies, house_rules;
    ``gaps``: the game's gap table by rule id (for ``gap_rulings``)."""
    a = sum(1 for r in records if r["winner"] == "a")
    b = sum(1 for r in records if r["winner"] == "b")
    undecided = len(records) - a - b
    first = sum(1 for r in records if r["winner"] is not None and r["winner"] == r["first"])
    share = paired_interval(records, lambda r: r["winner"] == "a")
    out = {"version": VERSION, "game": head["game"], "seed": head["seed"],
           "games": len(records), "decks": head["decks"], "policies": head["policies"],
           "house_rules": head["house_rules"],
           "results": {"a": a, "b": b, "undecided": undecided},
           "win_rate": {"a": share["rate"], "ci95": share["ci95"]}}
    out.update(_common(records))
    out.update(_facts(records, head.get("facts", {})))
    out["first_player_wins"] = {"games": first, **paired_interval(
        records, lambda r: r["winner"] == r["first"])}
    out["gap_rulings"] = _rulings(records, head, gaps, ["a", "b"])
    out["ladder"] = standings(head["game"], head["policies"].values())
    return out


def shared_deck(head: dict, records: list[dict], seats: list[str],
                gaps: dict | None = None) -> dict:
    wins = {s: sum(1 for r in records if r["winner"] == s) for s in seats}
    decided = sum(wins.values())
    out = {"version": VERSION, "game": head["game"], "seed": head["seed"],
           "games": len(records), "players": len(seats),
           "players_default": head.get("players_default", False), "decks": head["decks"],
           "policies": head["policies"], "house_rules": head["house_rules"],
           "results": {**wins, "undecided": len(records) - decided},
           "win_rate": {s: interval(wins[s], decided) for s in seats}}
    out.update(_common(records))
    out.update(_facts(records, head.get("facts", {})))
    out["gap_rulings"] = _rulings(records, head, gaps, seats)
    out["ladder"] = standings(head["game"], head["policies"].values())
    return out


def _facts(records: list[dict], facts: dict[str, tuple[str, str]]) -> dict:
    """The games in which each of the game's facts held (``Game.record_facts``: fact ->
    (its report key, its words)), and their share."""
    out = {}
    for fact, (key, _words) in facts.items():
        n = sum(1 for r in records if r.get(fact))
        out[key] = {"games": n, "share": rounded(rate(n, len(records)))}
    return out


# -- text ------------------------------------------------------------------------------------------
def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"95% CI {pct(ci[0])} to {pct(ci[1])}"


def render(report: dict, labels: dict[str, str], facts: dict | None = None) -> str:
    """The text report; ``labels``: deck key or seat -> how to name it (a file name);
    ``facts``: the game's record facts (``Game.record_facts``)."""
    lines = []
    r = report["results"]
    games = report["games"]
    if "a" in r:
        a, b = labels["a"], labels["b"]
        pol = report["policies"]
        lines.append(f"{report['game']}: {a} (A, {pol['a']}) v {b} (B, {pol['b']}); {games:,} "
                     f"games in seat-swapped pairs, seed {report['seed']}")
        decided = r["a"] + r["b"]
        lines.append(f"A won {r['a']:,}, B won {r['b']:,}, undecided {r['undecided']:,}")
        wr = report["win_rate"]
        lines.append(f"A's win rate: {pct(wr['a'])} of {decided:,} decided games "
                     f"({_ci(wr['ci95'])})")
        fp = report["first_player_wins"]
        lines.append(f"the first player won {fp['games']:,} of {decided:,} decided games "
                     f"({pct(fp['rate'])}, {_ci(fp['ci95'])})")
    else:
        seats = [s for s in r if s != "undecided"]
        who = ", ".join(f"{s} {report['policies'][s]}" for s in seats)
        default = "the default number; " if report.get("players_default") else ""
        lines.append(f"{report['game']}: {labels['shared']} shared by {len(seats)} seats "
                     f"({default}{who}); {games:,} games, seed {report['seed']}")
        decided = games - r["undecided"]
        for s in seats:
            wr = report["win_rate"][s]
            lines.append(f"{s} won {r[s]:,} ({pct(wr['rate'])} of {decided:,} decided, "
                         f"{_ci(wr['ci95'])})")
        lines.append("; ".join([f"undecided {r['undecided']:,}", *(
            f"{words} in {report[key]['games']:,} games ({pct(report[key]['share'])})"
            for key, words in (facts or {}).values() if key in report)]))
    lines += players(report)
    if decided < FEW:
        lines.append(f"only {decided:,} decided games: too few for the rate to say much "
                     "(play more with --games)")
    t = report["turns"]
    lines.append(f"game length: {t['mean']:,} turns on average, {t['max']:,} at most; "
                 f"{report['actions']:,} actions")
    lines += wrap_items("house rules:", [f"{h['key']}={h['value']} ({h['source']})"
                                         for h in report["house_rules"]])
    lines += wrap_items("gaps met:", [f"{g} in {n:,} game{'' if n == 1 else 's'} ({pct(n / games)})"
                                      for g, n in report["gaps"].items()])
    lines += resting(report)
    return "\n".join(lines)


def resting(report: dict) -> list[str]:
    """The lines naming each gap met in more than a tenth of the games: the house rule that
    settled it, how far the result could move with the decided games that met it, and the
    ``--house-rule`` values that would check it. None when no gap was met that often."""
    games = report["games"]
    r = report["results"]
    decided = games - r["undecided"]
    out = []
    for rule, g in report.get("gap_rulings", {}).items():
        if not games or g["games"] <= RESTS_ON * games:
            continue
        out += wrap(f"{rule} {g['house_rule']}={g['value']} ({g['source']}): met in "
                    f"{g['games']:,} of {games:,} games ({pct(g['games'] / games)})", "    ",
                    first="  ")
        moved = g["games"] - g["results"]["undecided"]  # the decided games that met it
        if moved and "a" in r:
            wins = r["a"] - g["results"]["a"]
            out += wrap(f"A's win rate, {pct(r['a'] / decided)}, could be "
                        f"{pct(wins / decided)} to {pct((wins + moved) / decided)} had those "
                        f"{moved:,} decided games gone otherwise", "    ")
        elif moved:
            out += wrap(f"{moved:,} of the {decided:,} decided games met it: each seat's win rate "
                        f"could move by up to {100 * moved / decided:.1f} points with them",
                        "    ")
        if g["other_values"]:
            out += wrap("to check: " + ", ".join(f"--house-rule {g['house_rule']}={v}"
                                                 for v in g["other_values"]), "    ")
    if out:
        out.insert(0, "results that may rest on a house rule (a gap met in more than a tenth "
                      "of the games):")
    return out


def fit(text: str, tail: str, first: str, indent: str, width: int = WIDTH) -> list[str]:
    """``text`` and ``tail`` (an interval: ``(95% CI ...)``) on one line starting with
    ``first`` when it fits in ``width`` columns, else ``tail`` on the next line, after
    ``indent`` (``text`` itself wrapped where it is longer still)."""
    one = f"{first}{text} {tail}"
    if len(one) <= width:
        return [one]
    return [*wrap(text, indent, width, first=first), indent + tail]


def players(report: dict) -> list[str]:
    """The policies behind a report's numbers and where they stand on the game's ladder
    (its ``ladder``), as lines; none for a report without one."""
    return wrap_items("players:", ladder_items(report["ladder"])) if "ladder" in report else []


def wrap_items(head: str, items: list[str], width: int = WIDTH) -> list[str]:
    """``head`` and the items joined by ', ', in lines of at most ``width`` columns (the
    lines after the first indented by two spaces), never breaking inside an item; ``none``
    when there is no item."""
    if not items:
        return [f"{head} none"]
    lines, line = [], head
    for n, item in enumerate(items):
        word = item + ("," if n < len(items) - 1 else "")
        if line.strip() != head and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}"
    lines.append(line)
    return lines


def wrap(text: str, indent: str, width: int = WIDTH, first: str | None = None) -> list[str]:
    """``text`` in lines of at most ``width`` columns, each starting with ``indent`` (the first
    with ``first``, when given); an option and its value (``--house-rule key=value``) stay on
    one line."""
    words = text.replace("--house-rule ", "--house-rule\0").split(" ")
    lines, line = [], indent if first is None else first
    for word in words:
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = line + (" " if line.strip() else "") + word
    lines.append(line)
    return [x.replace("\0", " ") for x in lines]


def sensitivity_lines(report: dict) -> list[str]:
    """``--sensitivity``: the result under each other value of every gap met in more than a
    tenth of the games (or a line saying no gap was met that often)."""
    found = report.get("sensitivity")
    if found is None:
        return []
    if not found:
        return ["sensitivity: no gap was met in more than a tenth of the games"]
    out = ["sensitivity (the same games, seed and policies, one house rule changed):"]
    for s in found:
        r, w = s["results"], s["win_rate"]
        if "a" in r:
            decided = r["a"] + r["b"]
            rate = (f"A's win rate {pct(w['a'])} of {decided:,} decided games (95% CI "
                    f"{pct(w['ci95'][0])} to {pct(w['ci95'][1])})" if decided else
                    "no game decided")
        else:
            rate = ", ".join(f"{seat} {pct(v['rate'])}" if v["rate"] is not None else
                             f"{seat} -" for seat, v in w.items())
        out += wrap(f"{s['gap']} {s['house_rule']}={s['value']}: {rate}; undecided "
                    f"{r['undecided']:,}", "    ", first="  ")
    return out
