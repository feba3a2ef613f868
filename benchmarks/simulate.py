"""Simulation: `deckcli simulate --jobs 1` per recorded action against a bare playout.

The bare playout is this script's own animal-battle: plain lists of statistics, the same greedy
choices (strongest Animal, widest-margin statistic, promote a Defender that can win), no rule
checked, no text, no view, one function. It is the floor a simulator is measured against. Both
play the same two decks; each counts the actions a game log would record (draw, place, ready,
challenge, defend, stat, promote, decline, end_turn and the setup's reveals). Printed, in one
run, alternating: microseconds per recorded action of each, their ratio (goal <= 2.5), and the
games per second `deckcli simulate --jobs 1` plays on this machine; and `--jobs 2` against
`--jobs 1` on a larger run (goal >= 1.6).

    python benchmarks/simulate.py [--games 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time

from _common import REPO, deckcli_cmd

DECK = REPO / "examples" / "good" / "championship-deep-divers.txt"
STATS = ("weight", "speed", "lifespan", "population", "length")
LOWER = {"population"}


def load_deck() -> list[tuple]:
    """The deck's Animals as tuples of their five statistics (its other cards as None)."""
    sys.path.insert(0, str(REPO))
    from deckcli.cards import open_index
    from deckcli.sim.run import load_deck as load

    cards = load(str(DECK), open_index(), None).cards
    return [tuple(c.stats[s] for s in STATS) if c.animal else None for c in cards]


def beats(a: tuple, b: tuple, i: int) -> bool:
    return a[i] < b[i] if STATS[i] in LOWER else a[i] > b[i]


def strength(card: tuple, all_animals: list[tuple]) -> int:
    return sum(sum(1 for o in all_animals if beats(card, o, i)) for i in range(5))


def bare_game(deck_a: list, deck_b: list, rng: random.Random, power: dict,
              max_turns: int = 200) -> int:
    """One greedy game, no rules checked; the number of actions a log would record.
    ``power``: each Animal's strength (worked out once for the decks)."""
    decks = [list(deck_a), list(deck_b)]
    for d in decks:
        rng.shuffle(d)
    hands = [[d.pop() for _ in range(6)] for d in decks]
    pools = [[], []]
    actions = 0
    first = 0

    def best(cards):
        return max((c for c in cards if c is not None), key=power.__getitem__, default=None)

    challenger = best(hands[first])
    if challenger is None:
        return 1
    hands[first].remove(challenger)
    defender = best(hands[1 - first])
    if defender is None:
        return 2
    hands[1 - first].remove(defender)
    actions += 3  # reveal, reveal, start
    controller = first
    for p in (0, 1):
        for c in sorted((c for c in hands[p] if c is not None), key=power.__getitem__)[-5:]:
            hands[p].remove(c)
            pools[p].append(c)
            actions += 1
        actions += 1  # ready
    active, turn = first, 1
    while turn <= max_turns:
        if turn > 1 and decks[active]:
            hands[active].append(decks[active].pop())
            actions += 1
        while len(pools[active]) < 5 and any(c is not None for c in hands[active]):
            c = best(hands[active])
            hands[active].remove(c)
            pools[active].append(c)
            actions += 1
        if challenger is None:
            if not pools[active]:
                return actions
            challenger = best(pools[active])
            pools[active].remove(challenger)
            controller = active
            actions += 1
        other = 1 - controller
        if controller == active:
            if defender is None:
                defender = max(pools[other], key=power.__getitem__, default=None)
                if defender is None:
                    return actions
                pools[other].remove(defender)
                actions += 1
            used, original = set(), True
            while True:
                left = [i for i in range(5) if i not in used]
                if not left:
                    challenger, defender = defender, None  # AB-5.7
                    controller = other
                    break
                i = max(left, key=lambda k: (challenger[k] - defender[k]) * (
                    -1 if STATS[k] in LOWER else 1) / max(abs(challenger[k]), 1))
                used.add(i)
                actions += 1
                if beats(challenger, defender, i):
                    defender = None
                    promote = max((c for c in pools[other]), key=lambda c: sum(
                        1 for k in range(5) if k not in used and not beats(challenger, c, k)),
                        default=None)
                    if promote is None:
                        break  # attack ends
                    pools[other].remove(promote)
                    defender, original = promote, False
                    actions += 1
                elif original:
                    challenger = None  # the original Defender wins: the Challenger goes
                    break
                else:
                    challenger, defender = None, None  # a replacement wins: both go
                    controller = other
                    break
        actions += 1  # end_turn
        while len(hands[active]) < 3 and decks[active]:
            hands[active].append(decks[active].pop())
        if challenger is None and not pools[1 - active] and not any(
                c is not None for c in hands[1 - active]):
            return actions
        active, turn = 1 - active, turn + 1
    return actions


def bare(deck: list, games: int) -> tuple[float, int]:
    rng = random.Random(1)
    animals = [c for c in deck if c is not None]
    power = {c: strength(c, animals) for c in set(animals)}
    start = time.perf_counter()
    actions = sum(bare_game(deck, deck, rng, power) for _ in range(games))
    return time.perf_counter() - start, actions


def simulate(games: int, jobs: int) -> tuple[float, int]:
    cmd = [*deckcli_cmd(), "simulate", str(DECK), str(DECK), "--games", str(games), "--seed",
           "1", "--jobs", str(jobs), "-O", "json"]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, json.loads(out)["actions"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--parallel-games", type=int, default=20000)
    args = ap.parse_args()
    deck = load_deck()
    per_bare, per_sim, rates = [], [], []
    for _ in range(args.runs):  # alternating, so the machine's drift falls on both
        t, n = bare(deck, args.games)
        per_bare.append(t / n * 1e6)
        t, n = simulate(args.games, 1)
        per_sim.append(t / n * 1e6)
        rates.append(args.games / t)
    b, s = statistics.median(per_bare), statistics.median(per_sim)
    print(f"bare playout: {b:.2f} us per recorded action (median of {args.runs})")
    print(f"deckcli simulate --jobs 1: {s:.2f} us per recorded action, "
          f"{statistics.median(rates):.0f} games a second")
    print(f"simulate / bare: {s / b:.2f} (goal <= 2.5: {'met' if s / b <= 2.5 else 'NOT met'})")
    one = statistics.median(simulate(args.parallel_games, 1)[0] for _ in range(args.runs))
    two = statistics.median(simulate(args.parallel_games, 2)[0] for _ in range(args.runs))
    print(f"{args.parallel_games:,} games: --jobs 1 {one:.1f} s, --jobs 2 {two:.1f} s, "
          f"speed-up {one / two:.2f} (goal >= 1.6: {'met' if one / two >= 1.6 else 'NOT met'})")
    print("RESULT " + json.dumps({"bare_us": round(b, 2), "simulate_us": round(s, 2),
                                  "ratio": round(s / b, 2),
                                  "games_per_s": round(statistics.median(rates)),
                                  "jobs2_speedup": round(one / two, 2)}))


if __name__ == "__main__":
    main()
