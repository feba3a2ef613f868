"""Referee: replaying a recorded 10,000-action animal-battle game log.

Generates one long game by random legal play (seeded; the referee's own `legal` candidates
choose each action), writes it as a YAML log, then times side by side in one run:

* `deckcli referee check LOG` (parse, deal, replay and judge every action), and
* a Python process that only parses the same log with ruamel.yaml (the floor).

Goal (issue "Performance"): under 1 s for 10,000 actions; the ratio to parsing is printed.
It also prints the cost of one ``Engine.apply`` in this process (the generated actions replayed
on a fresh deal, best of 5), the figure the game interface must keep low.

    python benchmarks/referee_log.py [--actions 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from _common import compare, deckcli_cmd, ms

PARSE_ONLY = ("import sys\nfrom ruamel.yaml import YAML\n"
              "YAML(typ='safe').load(open(sys.argv[1], encoding='utf-8'))\n")
HOUSE = {"stat_tie": "defender", "original_defender_wins": "discard_challenger",
         "decline_promote": "attack_ends", "next_stat_chooser": "defender",
         "defender_player": "next", "empty_deck_draw": "lose", "new_animal_from": "pool",
         "replace_defender": "forbidden", "last_stat_promote": "becomes_challenger"}


def generate(path: Path, actions: int, seed: int = 3) -> tuple[int, float]:
    """A legal game of `actions` actions (or until someone wins), as a YAML log; and the
    microseconds one `Engine.apply` takes, replaying those actions on a fresh deal."""
    from deckcli.cards import open_index
    from deckcli.games.animal_battle import logfile
    from deckcli.games.animal_battle.play import ENGINE

    index = open_index()
    rng = random.Random(seed)
    animals = [c.name for c in index.all_cards("animal-battle")
               if c.kind == "animal" and len(index.cards_named("animal-battle", c.name)) == 1]
    size = max(60, actions // 4)
    decks = {p: [rng.choice(animals) for _ in range(size)] for p in ("p1", "p2")}
    log = {"game": "animal-battle",
           "setup": {"first": "p1", "players": {p: {"deck": d} for p, d in decks.items()}},
           "house_rules": HOUSE, "actions": []}
    game, _steps = logfile.read(index, log, str(path), HOUSE)
    lines: list[str] = []
    played = []
    while len(lines) < actions and game.s.winner is None and game.s.waiting is None:
        options = ENGINE.legal_actions(game)
        if not options:
            break
        # play sensibly enough for a long game: keep the Pool full, promote rather than
        # decline, and end the turn only when nothing else is left
        moving = ([o for o in options if o[1] in ("place", "promote")]
                  or [o for o in options if o[1] not in ("end_turn", "decline")] or options)
        action = rng.choice(moving)
        lines.append(ENGINE.action_text(game, action))
        ENGINE.apply(game, action)
        played.append(action)
    why = game.s.winner and f"winner {game.s.winner}" or game.s.waiting and "a gap" or "length"
    print(f"generation stopped at {len(lines):,} actions ({why})")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("game: animal-battle\nsetup:\n  first: p1\n  players:\n")
        for p, d in decks.items():
            fh.write(f"    {p}:\n      deck:\n")
            fh.writelines(f"        - {name}\n" for name in d)
        fh.write("house_rules: " + json.dumps(HOUSE) + "\nactions:\n  - |\n")
        fh.writelines(f"    {line}\n" for line in lines)
    best = float("inf")
    for _ in range(5):
        fresh, _steps = logfile.read(index, log, str(path), HOUSE)
        start = time.perf_counter()
        for action in played:
            ENGINE.apply(fresh, action)
        best = min(best, time.perf_counter() - start)
    return len(lines), best / max(1, len(played)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    with tempfile.TemporaryDirectory(prefix="deckcli-referee-") as tmp:
        log = Path(tmp) / "game.yaml"
        t0 = time.perf_counter()
        n, apply_us = generate(log, args.actions)
        print(f"generated a legal game of {n:,} actions in {time.perf_counter() - t0:.1f} s "
              f"({log.stat().st_size / 1024:.0f} KiB)")
        print(f"one Engine.apply: {apply_us:.2f} us (in process, best of 5 replays)")
        res = compare({"check": [*deckcli_cmd(), "referee", "check", str(log)],
                       "parse": [sys.executable, "-c", PARSE_ONLY, str(log)]},
                      runs=args.runs, warmup=1)
    check, parse = res["check"]["median"], res["parse"]["median"]
    print(f"deckcli referee check: median {ms(check)} (exit {res['check']['exit']})")
    print(f"parse only (ruamel.yaml): median {ms(parse)}")
    print(f"check / parse: {check / parse:.2f}; under 1 s: {'met' if check < 1 else 'NOT met'}")
    print("RESULT " + json.dumps({"actions": n, "check_s": round(check, 3),
                                  "ratio_to_parse": round(check / parse, 2),
                                  "apply_us": round(apply_us, 2)}))


if __name__ == "__main__":
    main()
