"""Build: how long `deckcli build` takes, how much of it is playing games, and how good the deck
it builds is against three baselines, each measured on fresh seeds by `deckcli simulate`.

The binder: 40 Animals of the card database (two copies each: the 20 strongest and the 20
weakest by their statistics) and some action cards. The baselines:

* a random legal deck of owned cards (seeded);
* the owned Animals with the highest statistic totals (what a player might pick by eye);
* the strongest deck of the gauntlet (the one the others fare worst against).

Goal (issue "build"): at least 80% of the build's time goes to playing games.

`--defaults` times instead `deckcli build` with its defaults on the example binder, casual and
championship (goals: 15 s and 30 s on two cores), each beside its baseline in the same call:
`deckcli simulate --policy expert` of as many games (the build's own count, read from its
report) between two example decks of the format, with the same `--jobs`. The ratio says how
much more a build game costs than a game of a simulation: what is not playing, and a build's
games meeting a new deck at every step (the expert works each book's tables out again).

    python benchmarks/build.py [--games 2000] [--measure 400]
    python benchmarks/build.py --defaults [--formats casual,championship]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, deckcli_cmd


def binder_text() -> str:
    sys.path.insert(0, str(REPO))
    from deckcli.cards import open_index
    from deckcli.games.animal_battle.policies import strengths
    from deckcli.games.base import CardInfo

    index = open_index()
    cards = [c for c in index.all_cards("animal-battle")
             if c.kind == "animal" and len(index.cards_named("animal-battle", c.name)) == 1]
    strength = strengths({c.id: CardInfo.of(c) for c in cards})
    cards.sort(key=lambda c: (-strength[c.id], c.name))
    chosen = cards[:20] + cards[-20:]
    lines = [f"2 {c.ref}" for c in chosen]
    lines += ["2 Second Wind (ABS) 91", "4 Herd Instinct (DWV) 90", "2 Foraging Run (DWV) 92"]
    return "\n".join(lines) + "\n"


def deckcli(*args: str) -> str:
    return subprocess.run([*deckcli_cmd(), *args], capture_output=True, text=True,
                          check=True).stdout


#: two example decks of each format, played against each other as the baseline's games
PAIRS = {"casual": ("casual-savanna.yaml", "casual-rainforest.json"),
         "championship": ("championship-deep-divers.txt", "championship-deep-divers.txt")}
GOALS = {"casual": 15.0, "championship": 30.0}


def defaults(formats: list[str]) -> None:
    """``build`` with its defaults against ``simulate --policy expert`` of as many games."""
    out: dict = {}
    binder = REPO / "examples" / "collections" / "binder.txt"
    for fmt in formats:
        start = time.perf_counter()
        report = subprocess.run([*deckcli_cmd(), "build", "--collection", str(binder),
                                 "--format", fmt, "--seed", "1"], capture_output=True,
                                text=True, check=True).stderr  # the deck alone on stdout
        seconds = time.perf_counter() - start
        line = next(ln for ln in report.splitlines() if ln.startswith("search:"))
        games = int(line.split(" games with the measuring")[0].rsplit(" ", 1)[1]
                    .replace(",", ""))
        a, b = (str(REPO / "examples" / "good" / name) for name in PAIRS[fmt])
        start = time.perf_counter()
        deckcli("simulate", a, b, "--policy", "expert", "--games", str(games), "--seed", "1",
                "-O", "json")
        baseline = time.perf_counter() - start
        met = "met" if seconds <= GOALS[fmt] else "NOT met"
        print(f"build --format {fmt} with defaults: {seconds:.1f} s for {games:,} games "
              f"(goal <= {GOALS[fmt]:.0f} s: {met}); simulate --policy expert of as many "
              f"games: {baseline:.1f} s; ratio {seconds / baseline:.2f}")
        out[fmt] = {"seconds": round(seconds, 1), "games": games,
                    "simulate_seconds": round(baseline, 1),
                    "ratio": round(seconds / baseline, 2)}
    print("RESULT " + json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--measure", type=int, default=400)
    ap.add_argument("--defaults", action="store_true",
                    help="time build with its defaults against simulate of as many games")
    ap.add_argument("--formats", default="casual,championship")
    args = ap.parse_args()
    if args.defaults:
        defaults(args.formats.split(","))
        return
    sys.path.insert(0, str(REPO))
    from deckcli.build.collection import read_binder
    from deckcli.build.gauntlet import decks
    from deckcli.build.search import random_deck, strongest
    from deckcli.cards import open_index

    with tempfile.TemporaryDirectory(prefix="deckcli-build-") as tmp:
        folder = Path(tmp)
        binder = folder / "binder.txt"
        binder.write_text(binder_text(), encoding="utf-8")
        built = folder / "built.txt"
        start = time.perf_counter()
        text = deckcli("build", "--collection", str(binder), "--games", str(args.games),
                       "--seed", "1", "--jobs", "1", "-o", str(built))
        seconds = time.perf_counter() - start
        share = next(line for line in text.splitlines() if line.startswith("search:"))
        cards = json.loads(deckcli("validate", str(built), "-O", "json"))["decks"][0][
            "card_count"]
        b = read_binder(str(binder), open_index(), "animal-battle", "casual")
        baselines = {"a random owned deck": random_deck(b, random.Random(5)),
                     "the highest statistic totals": strongest(b)}
        files = {}
        for name, cand in baselines.items():
            path = folder / (name.replace(" ", "-") + ".txt")
            path.write_text("\n".join(cand.lines(b)) + "\n", encoding="utf-8")
            files[name] = path
        gauntlet = decks("animal-battle")
        worst = {}
        for g in gauntlet:  # the gauntlet deck the others fare worst against
            rates = [json.loads(deckcli("simulate", o, g, "--games", "200", "--seed", "3",
                                        "-O", "json"))["win_rate"]["a"] or 0 for o in gauntlet
                     if o != g]
            worst[g] = sum(rates) / len(rates)
        files["the strongest gauntlet deck"] = Path(min(worst, key=worst.get))
        print(f"build: {seconds:.1f} s for --games {args.games} ({share})")
        rows = {}
        for name, path in files.items():
            sim = json.loads(deckcli("simulate", str(built), str(path), "--games",
                                     str(args.measure), "--seed", "2026", "-O", "json"))
            wr = sim["win_rate"]
            rows[name] = wr
            print(f"built deck against {name} ({path.name}): {100 * wr['a']:.1f}% "
                  f"(95% CI {100 * wr['ci95'][0]:.1f}% to {100 * wr['ci95'][1]:.1f}%)")
    playing = float(share.rsplit(",", 1)[1].split("%")[0])
    print(f"time playing games: {playing:.0f}% (goal >= 80%: "
          f"{'met' if playing >= 80 else 'NOT met'})")
    print("RESULT " + json.dumps({"seconds": round(seconds, 1), "playing_pct": playing,
                                  "card_count": cards,
                                  **{k: v["a"] for k, v in rows.items()}}))


if __name__ == "__main__":
    main()
