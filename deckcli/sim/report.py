"""A run's records made into the report (``simulate --output json`` and its text).

Two decks (animal-battle): wins of A and B and undecided games, A's win rate over the decided
games with its 95% Wilson interval, first-player wins, game lengths, the games that met each
gap. A shared deck (alpha-walrus): the same by seat, and the share of games that reached the
Final Showdown.
"""

from __future__ import annotations

from collections import Counter

from deckcli.sim.stats import outward, rate, rounded, wilson

VERSION = 1
FEW = 20  # fewer decided games than this: a rate says little (the text report says so)


def _common(records: list[dict]) -> dict:
    gaps = Counter(g for r in records for g in r["gaps"])
    turns = [r["turns"] for r in records]
    return {"gaps": {k: gaps[k] for k in sorted(gaps, key=_gap_key)},
            "turns": {"mean": round(sum(turns) / len(turns), 1) if turns else 0.0,
                      "max": max(turns, default=0)},
            "actions": sum(r["actions"] for r in records)}


def _gap_key(rule: str) -> tuple:
    head, _, n = rule.rpartition(".")
    return (head, int(n) if n.isdigit() else 0)


def interval(wins: int, decided: int) -> dict:
    return {"rate": rounded(rate(wins, decided)), "ci95": outward(*wilson(wins, decided))}


def two_decks(head: dict, records: list[dict]) -> dict:
    """The report of A against B. ``head``: game, seed, decks, policies, house_rules."""
    a = sum(1 for r in records if r["winner"] == "a")
    b = sum(1 for r in records if r["winner"] == "b")
    undecided = len(records) - a - b
    first = sum(1 for r in records if r["winner"] is not None and r["winner"] == r["first"])
    share = interval(a, a + b)
    out = {"version": VERSION, "game": head["game"], "seed": head["seed"],
           "games": len(records), "decks": head["decks"], "policies": head["policies"],
           "house_rules": head["house_rules"],
           "results": {"a": a, "b": b, "undecided": undecided},
           "win_rate": {"a": share["rate"], "ci95": share["ci95"]}}
    out.update(_common(records))
    out.update(_facts(records, head.get("facts", {})))
    out["first_player_wins"] = {"games": first, **interval(first, a + b)}
    return out


def shared_deck(head: dict, records: list[dict], seats: list[str]) -> dict:
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
        lines.append(f"{report['game']}: {a} (A, {pol['a']}) v {b} (B, {pol['b']}); {games} "
                     f"games in seat-swapped pairs, seed {report['seed']}")
        decided = r["a"] + r["b"]
        lines.append(f"A won {r['a']}, B won {r['b']}, undecided {r['undecided']}")
        wr = report["win_rate"]
        lines.append(f"A's win rate: {pct(wr['a'])} of {decided} decided games "
                     f"({_ci(wr['ci95'])})")
        fp = report["first_player_wins"]
        lines.append(f"the first player won {fp['games']} of {decided} decided games "
                     f"({pct(fp['rate'])}, {_ci(fp['ci95'])})")
    else:
        seats = [s for s in r if s != "undecided"]
        who = ", ".join(f"{s} {report['policies'][s]}" for s in seats)
        default = "the default number; " if report.get("players_default") else ""
        lines.append(f"{report['game']}: {labels['shared']} shared by {len(seats)} seats "
                     f"({default}{who}); {games} games, seed {report['seed']}")
        decided = games - r["undecided"]
        for s in seats:
            wr = report["win_rate"][s]
            lines.append(f"{s} won {r[s]} ({pct(wr['rate'])} of {decided} decided, "
                         f"{_ci(wr['ci95'])})")
        lines.append("; ".join([f"undecided {r['undecided']}", *(
            f"{words} in {report[key]['games']} games ({pct(report[key]['share'])})"
            for key, words in (facts or {}).values() if key in report)]))
    if decided < FEW:
        lines.append(f"only {decided} decided games: too few for the rate to say much "
                     "(play more with --games)")
    t = report["turns"]
    lines.append(f"game length: {t['mean']} turns on average, {t['max']} at most; "
                 f"{report['actions']:,} actions")
    rules = ", ".join(f"{h['key']}={h['value']} ({h['source']})" for h in report["house_rules"])
    lines.append(f"house rules: {rules or 'none'}")
    if report["gaps"]:
        lines.append("gaps met: " + ", ".join(
            f"{g} in {n} game{'' if n == 1 else 's'} ({pct(n / games)})"
            for g, n in report["gaps"].items()))
    else:
        lines.append("gaps met: none")
    return "\n".join(lines)
