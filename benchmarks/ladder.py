"""The ladder: how strong each player (policy) is, measured by games against the others.

animal-battle: every policy `deckcli.sim.policies.names(game)` gives (so a new one joins by
being named there; `search` plays with a small budget, `--search N` iterations a decision)
plays every other on the example decks examples/good/championship-deep-divers.txt,
casual-savanna.yaml and casual-rainforest.json (the build gauntlet until it was rebuilt as a field
of decks at a binder's strength, benchmarks/gauntlet.py: the ladder keeps decks of three styles):
for each pair of players and each ordered pair of decks, mirrors included, one run of
`--games` games in seat-swapped pairs (games 2k and 2k+1 share a deal, the first player swapped),
the first player of the pair taking the first deck. Every pair of players thus plays every deck
against every deck from both sides, and deck strength cancels out.

alpha-walrus (`--game alpha-walrus`): one shared deck (`--deck`, default
examples/good/alpha-walrus-2p.yaml), two seats; p1 takes the first turn in every game, so each
pair of players plays each deal twice, each player in p1 once (the unit of the intervals is
that pair of games).

Each result comes with its 95% interval for pairs (deckcli.sim.stats.paired_rate). Ratings are
Bradley-Terry strengths fitted to every decided game (Hunter's MM algorithm, with one virtual
draw between each two players who met, as BayesElo has, so that a player who won every game
still gets a finite rating), on the Elo scale (400 points: 10 to 1 odds), the anchor player
(`--anchor`, default greedy) at 0; their 95% intervals come from a seeded bootstrap that
resamples each result's pairs of games and fits again.

    python benchmarks/ladder.py                       # minutes: 10 games a run, search:4
    python benchmarks/ladder.py --games 40 --search 8 --jobs 2   # narrower intervals, longer
    python benchmarks/ladder.py --game alpha-walrus --players random,greedy
    python benchmarks/ladder.py --json                # everything as JSON

The fit and the bootstrap are deckcli.sim.ratings (tested in tests/test_ladder.py on results
whose ratings are known); the ladder itself plays minutes of games: a benchmark, never a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LADDER_DECKS = ("championship-deep-divers.txt", "casual-rainforest.json", "casual-savanna.yaml")
sys.path.insert(0, str(REPO))

from deckcli.sim.ratings import bootstrap, fit, totals  # noqa: E402


def share(results: list[dict]) -> dict:
    """p's share of the decided games of ``results`` (all between the same two players), with
    its 95% interval for pairs."""
    from deckcli.sim.stats import outward, paired_rate

    units = [(a, a + b) for res in results for a, b in res["units"]]
    wins, decided = sum(a for a, _ in units), sum(d for _, d in units)
    return {"games": sum(res["games"] for res in results), "decided": decided, "wins": wins,
            "rate": round(wins / decided, 4) if decided else None,
            "ci95": outward(*paired_rate(units))}


# -- playing ---------------------------------------------------------------------------------------
def players_of(game, search: int, wanted: list[str] | None = None) -> list[str]:
    """The players: every policy name the game knows, ``search`` with ``search`` iterations a
    decision; ``wanted``: only these (names as given, ``search:N`` allowed)."""
    from deckcli.sim.policies import make, names

    every = [f"search:{search}" if n == "search" else n for n in names(game)]
    chosen = wanted or every
    for name in chosen:
        make(game, name)  # an unknown name stops here, listing the known ones
    return chosen


def plan(game, players: list[str], decks: list, deck_names: list[str], seed: int) -> list[dict]:
    """One run a pair of players and an ordered pair of decks (animal-battle), or a pair of
    players and each seat order (alpha-walrus, whose games of a deal are numbered alike)."""
    from deckcli.sim.play import Spec, game_seed

    runs = []
    for a, p in enumerate(players):
        for q in players[a + 1:]:
            if game.shared_deck:
                s = game_seed(seed, f"ladder:{p}:{q}")
                for first, second in ((p, q), (q, p)):
                    runs.append({"p": p, "q": q, "deck_p": deck_names[0], "deck_q": deck_names[0],
                                 "p_seat": "p1" if first == p else "p2",
                                 "spec": Spec(game.id, s, {"shared": decks[0]}, ["p1", "p2"], {},
                                              {"p1": first, "p2": second}, {}, 200,
                                              pairs=False)})
                continue
            for i, di in enumerate(decks):
                for j, dj in enumerate(decks):
                    s = game_seed(seed, f"ladder:{p}:{q}:{i}:{j}")
                    runs.append({"p": p, "q": q, "deck_p": deck_names[i],
                                 "deck_q": deck_names[j],
                                 "spec": Spec(game.id, s, {"a": di, "b": dj}, ["p1", "p2"],
                                              {"p1": "a", "p2": "b"}, {"p1": p, "p2": q}, {},
                                              200)})
    return runs


def play(runs: list[dict], games: int, jobs: int, progress=None) -> list[list[dict]]:
    """Every run's records, in game-number order; in ``jobs`` processes (1: this one)."""
    from deckcli.sim.play import play_many

    size = 10  # games a task: whole pairs
    tasks = [(k, list(range(i, min(i + size, games)))) for k in range(len(runs))
             for i in range(0, games, size)]
    out: list[list[dict]] = [[] for _ in runs]
    if jobs <= 1:
        for k, numbers in tasks:
            out[k] += play_many(runs[k]["spec"], numbers)
            if progress:
                progress(len(numbers))
        return out
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [(k, pool.submit(play_many, runs[k]["spec"], numbers)) for k, numbers in tasks]
        for k, future in futures:  # in submission order: game-number order in each run
            got = future.result()
            out[k] += got
            if progress:
                progress(len(got))
    return out


def result(run: dict, records: list[dict]) -> dict:
    """A run's result from p's side: its games, p's and q's wins, and its units (p's wins, q's
    wins) of a seat-swapped pair (animal-battle) or of one game (alpha-walrus: the unit, a deal
    played both ways, is made by :func:`deals`)."""
    if "p_seat" in run:
        mine, theirs = run["p_seat"], "p2" if run["p_seat"] == "p1" else "p1"
        units = [(int(r["winner"] == mine), int(r["winner"] == theirs)) for r in records]
    else:
        units = []
        for k in range(0, len(records), 2):
            pair = records[k:k + 2]
            units.append((sum(r["winner"] == "a" for r in pair),
                          sum(r["winner"] == "b" for r in pair)))
    return {"p": run["p"], "q": run["q"], "deck_p": run["deck_p"], "deck_q": run["deck_q"],
            "games": len(records), "units": units,
            **({"p_seat": run["p_seat"]} if "p_seat" in run else {}),
            "first_seat_wins": sum(r["winner"] == "p1" for r in records)
            if "p_seat" in run else None}


def deals(results: list[dict]) -> list[dict]:
    """alpha-walrus: the two seat orders of a pair of players joined, game n of one with game
    n of the other (the same deal), into one result whose units are those two games; with p's
    share when p sat in p1 (``p_first``) and when q did (``p_second``)."""
    out = []
    for one, two in zip(results[::2], results[1::2]):
        units = [(a1 + a2, b1 + b2) for (a1, b1), (a2, b2) in zip(one["units"], two["units"])]
        out.append({"p": one["p"], "q": one["q"], "deck_p": one["deck_p"],
                    "deck_q": one["deck_q"], "games": one["games"] + two["games"],
                    "units": units, "p_first": share([one]), "p_second": share([two])})
    return out


# -- output ----------------------------------------------------------------------------------------
def pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def interval(ci) -> str:
    return f"{pct(ci[0])} to {pct(ci[1])}"


def table(report: dict) -> str:
    lines = [f"ladder: {report['game']}, {report['games']} games a run, seed {report['seed']}, "
             f"{report['resamples']} bootstrap resamples; ratings on the Elo scale, "
             f"{report['anchor']} = 0", ""]
    lines.append(f"{'player':<12} {'rating':>7}  {'95% interval':>17}  {'score':>6}  games")
    for row in report["ratings"]:
        lo, hi = row["ci95"]
        bounds = "(anchor)" if row["player"] == report["anchor"] else f"{lo:.0f} to {hi:.0f}"
        lines.append(f"{row['player']:<12} {row['rating']:>7.0f}  {bounds:>17}  "
                     f"{pct(row['score']):>6}  {row['games']:,}")
    lines += ["", "head to head (the first player's share of the decided games, 95% interval "
                  "for pairs):"]
    for h in report["head_to_head"]:
        lines.append(f"  {h['p']} v {h['q']}: {pct(h['all']['rate'])} "
                     f"({interval(h['all']['ci95'])}), {h['all']['decided']:,} decided of "
                     f"{h['all']['games']:,}")
        parts = [f"{words} {pct(h[key]['rate'])} ({interval(h[key]['ci95'])})"
                 for key, words in (("mirrors", "mirrors"), ("mismatched", "other decks"),
                                    ("p_first", "first in p1"), ("p_second", "first in p2"))
                 if key in h]
        lines.append("    " + "; ".join(parts))
    if "first_seat" in report:
        f = report["first_seat"]
        lines.append(f"the player in p1 (who moves first) won {f['wins']:,} of {f['decided']:,} "
                     f"decided games ({pct(f['wins'] / f['decided'] if f['decided'] else None)})")
    if report.get("cells"):
        lines += ["", "every run (the first player's share of its decided games):"]
        for c in report["cells"]:
            lines.append(f"  {c['p']} with {c['deck_p']} v {c['q']} with {c['deck_q']}: "
                         f"{pct(c['rate'])} ({interval(c['ci95'])})")
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="animal-battle", choices=["animal-battle", "alpha-walrus"])
    ap.add_argument("--games", type=int, default=None,
                    help="games a run (a pair of players on a pair of decks; default 10, "
                         "alpha-walrus 20; --quick 4)")
    ap.add_argument("--search", type=int, default=None,
                    help="search's iterations a decision (default 4; --quick 2)")
    ap.add_argument("--players", default=None,
                    help="comma-separated policies (default: every one the game knows)")
    ap.add_argument("--deck", default=str(REPO / "examples" / "good" / "alpha-walrus-2p.yaml"),
                    help="alpha-walrus: the shared deck")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes to play in")
    ap.add_argument("--resamples", type=int, default=None,
                    help="bootstrap resamples (default 1000; --quick 200)")
    ap.add_argument("--anchor", default="greedy", help="the player rated 0")
    ap.add_argument("--quick", action="store_true", help="a smoke run: few games, search:2")
    ap.add_argument("--cells", action="store_true", help="print every run's result too")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--save", metavar="FILE", help="also write the JSON report to FILE")
    args = ap.parse_args(argv)
    from deckcli.cards import open_index
    from deckcli.games import get
    from deckcli.sim.run import load_deck

    game = get(args.game)
    games = args.games or (4 if args.quick else 20 if game.shared_deck else 10)
    games += games % 2  # whole pairs
    search = args.search or (2 if args.quick else 4)
    resamples = args.resamples or (200 if args.quick else 1000)
    players = players_of(game, search, args.players.split(",") if args.players else None)
    index = open_index()
    paths = [args.deck] if game.shared_deck else [str(REPO / "examples" / "good" / n) for n in
                                                  LADDER_DECKS]
    decks = [load_deck(p, index, game.id).cards for p in paths]
    names = [Path(p).name for p in paths]
    runs = plan(game, players, decks, names, args.seed)
    total = games * len(runs)
    done = [0]
    start = time.perf_counter()

    def progress(n):
        done[0] += n
        if not args.json and sys.stderr.isatty():  # a log gets no redrawn line
            print(f"\r{done[0]:,}/{total:,} games, {time.perf_counter() - start:.0f} s",
                  end="", file=sys.stderr, flush=True)

    played = play(runs, games, args.jobs, progress)
    print(file=sys.stderr)
    results = [result(run, records) for run, records in zip(runs, played)]
    if game.shared_deck:
        seat = sum(r["first_seat_wins"] for r in results), sum(
            a + b for r in results for a, b in r["units"])
        results = deals(results)
    anchor = args.anchor if args.anchor in players else None
    ratings = fit(totals(results), players, anchor)
    bounds = bootstrap(results, players, anchor, resamples, args.seed)
    won = totals(results)
    rows = []
    for p in sorted(players, key=lambda p: -ratings[p]):
        w = sum(n for (a, _), n in won.items() if a == p)
        n = sum(n for (a, b), n in won.items() if p in (a, b))
        rows.append({"player": p, "rating": round(ratings[p], 1),
                     "ci95": [round(bounds[p][0], 1), round(bounds[p][1], 1)],
                     "score": round(w / n, 4) if n else None, "games": n})
    heads = []
    for a, p in enumerate(players):
        for q in players[a + 1:]:
            mine = [r for r in results if (r["p"], r["q"]) == (p, q)]
            h = {"p": p, "q": q, "all": share(mine)}
            if game.shared_deck:
                h["p_first"], h["p_second"] = mine[0]["p_first"], mine[0]["p_second"]
            else:
                h["mirrors"] = share([r for r in mine if r["deck_p"] == r["deck_q"]])
                h["mismatched"] = share([r for r in mine if r["deck_p"] != r["deck_q"]])
            heads.append(h)
    cells = [{k: r[k] for k in ("p", "q", "deck_p", "deck_q", "games")} | share([r])
             for r in results]
    report = {"game": game.id, "seed": args.seed, "games": games, "search": search,
              "players": players, "decks": names, "anchor": anchor or "the mean",
              "resamples": resamples, "seconds": round(time.perf_counter() - start, 1),
              "ratings": rows, "head_to_head": heads, "cells": cells}
    if game.shared_deck:
        report["first_seat"] = {"wins": seat[0], "decided": seat[1]}
    if args.save:
        Path(args.save).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=1))
        return
    if not args.cells:
        report = {**report, "cells": []}
    print(table(report))
    print(f"\n{total:,} games in {report['seconds']:,} s; decks: {', '.join(names)}")


if __name__ == "__main__":
    main()
