"""Simulation: `deckcli simulate --jobs 1` per recorded action against a bare playout.

The bare playout is this script's own animal-battle, written as one function: plain lists of
card ids, tables of who beats whom worked out once, no rule checked, no list of legal actions,
no view, no text. It plays the very games `deckcli simulate DECK DECK --seed 1` plays: the same
deals (the same seeds, shuffles and first players), greedy's choices on both sides (strongest
Animal, widest-margin statistic, the Defender that holds on the most statistics, decline when
none holds on any), the simulation's default house rules, the action cards left in hand (greedy
plays none). Each run checks that it does: every game's winner, length in recorded actions and
turns against deckcli's engine on the first games, and the total of recorded actions against
the command's own report. Recorded actions are the ones a game log holds (the reveals, start,
draw, place, ready, challenge, defend, stat, promote, decline, end_turn).

Printed, in one run, alternating: microseconds per recorded action of each, their ratio (goal
<= 2.5), the games a second each plays; where the engine's time goes (apply, the legal
actions, greedy's choice and the loop, timed in this process on the same games); and
`--jobs 2` against `--jobs 1` on a larger run (goal >= 1.6).

    python benchmarks/simulate.py [--games 2000] [--runs 3] [--check 200]
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
ALL = (1 << len(STATS)) - 1
POOL, HAND, REFILL = 5, 6, 3
SEED = 1  # simulate --seed 1: the bare playout deals the same games


def load_deck() -> tuple[list[int], dict[int, tuple | None]]:
    """The deck as card ids in decklist order, and each id's five statistics (None: not an
    Animal). Read with deckcli's reader, once, before anything is timed."""
    sys.path.insert(0, str(REPO))
    from deckcli.cards import open_index
    from deckcli.sim.run import load_deck as load

    cards = load(str(DECK), open_index(), None).cards
    stats = {c.id: tuple(c.stats[s] for s in STATS) if c.animal else None for c in cards}
    return [c.id for c in cards], stats


class Tables:
    """What greedy ranks cards by, worked out once for the decks (as the engine's greedy keeps
    its tables once a run): strength, and for each pair of Animals the statistics on which the
    first beats the second, and the order in which the first would name the statistics."""

    def __init__(self, ids: list[int], stats: dict[int, tuple]):
        book = list(dict.fromkeys(ids))
        animals = [c for c in book if stats.get(c) is not None]
        self.animal = {c: stats.get(c) is not None for c in book}
        n = len(animals)
        strength = dict.fromkeys(animals, 0.0)
        for i, name in enumerate(STATS):
            ordered = sorted(animals, key=lambda c: stats[c][i], reverse=name in LOWER)
            for rank, c in enumerate(ordered):
                strength[c] += rank / max(1, n - 1)
        self.strength = strength
        self.rank = {c: (strength[c], -c) for c in animals}  # "strongest"
        beats, order = {}, {}
        for c in animals:
            for d in animals:
                vc, vd = stats[c], stats[d]
                m, margins = 0, []
                for i, name in enumerate(STATS):
                    a, b = vc[i], vd[i]
                    if a != b and (a < b) == (name in LOWER):
                        m |= 1 << i
                    diff = (b - a) if name in LOWER else (a - b)
                    margins.append((diff / max(abs(a), abs(b), 1e-9), name, i))
                beats[c, d] = m
                order[c, d] = [i for _m, _n, i in sorted(margins, reverse=True)]
        self.beats, self.order = beats, order


def bare_game(deck_a: list[int], deck_b: list[int], seed: int, first: int, t: Tables,
              max_turns: int = 200) -> tuple[int | None, int, int]:
    """One game as the engine plays it with greedy on both sides and the simulation's default
    house rules, nothing checked: (winner seat or None, actions recorded, turns)."""
    rng = random.Random(seed)
    decks = []
    for cards in (deck_a, deck_b):
        d = list(cards)
        rng.shuffle(d)
        decks.append(d[::-1])
    animal, rank, beats, order = t.animal, t.rank, t.beats, t.order
    strongest = rank.__getitem__
    hands = [[d.pop() for _ in range(min(HAND, len(d)))] for d in decks]
    pools = [[], []]
    dfd = [None, None]
    a, o = first, 1 - first
    actions = 0

    def best_defender(cands, ch, stats):
        return max(cands, key=lambda d: ((stats & ~beats[ch, d]).bit_count(), rank[d]))

    def fill(hand, pool) -> int:
        """Greedy's Pool phase: the strongest Animals in hand into the Pool, up to five; the
        number placed (each a recorded action)."""
        placed = 0
        while len(pool) < POOL:
            cands = [c for c in hand if animal[c]]
            if not cands:
                break
            c = max(cands, key=strongest)
            hand.remove(c)
            pool.append(c)
            placed += 1
        return placed

    # setup (AB-3.x)
    mine = [c for c in hands[a] if animal[c]]
    if not mine:
        return o, 0, 0
    ch = max(mine, key=strongest)
    hands[a].remove(ch)
    ctl = a
    actions += 1
    theirs = [c for c in hands[o] if animal[c]]
    if not theirs:
        return a, actions, 0
    d = best_defender(theirs, ch, ALL)
    hands[o].remove(d)
    dfd[o] = d
    actions += 1
    for p in (a, o):
        actions += fill(hands[p], pools[p]) + 1  # the places, then ready
    actions += 1  # start
    turn = 0
    active = first
    while True:
        # begin_turn(active)
        turn += 1
        a, o = active, 1 - active
        hand, pool = hands[a], pools[a]
        if ctl == a and dfd[o] is None and not any(animal[c] for c in pools[o]):
            return a, actions, turn  # no Defender to select (AB-4.3)
        if turn > max_turns:
            return None, actions, max_turns  # cut off: this turn has only begun
        if turn > 1:
            actions += 1  # draw
            if decks[a]:
                hand.append(decks[a].pop())
        if ch is None and not any(animal[c] for c in hand) and not any(
                animal[c] for c in pool):
            return o, actions, turn  # no new Challenger (AB-4.3)
        actions += fill(hand, pool)
        ended = False  # the attack changed control: a fresh turn begins without end_turn
        established = ch is None  # establishing a Challenger ends the Pool phase by itself
        if established:
            opposing = dfd[o]
            cands = [c for c in pool if animal[c]]
            if opposing is None:
                ch = max(cands, key=strongest)
            else:
                ch = max(cands, key=lambda c: (beats[c, opposing].bit_count(), rank[c]))
            pool.remove(ch)
            ctl = a
            actions += 1
            if dfd[o] is None and not any(animal[c] for c in pools[o]):
                return a, actions, turn
        if ctl == a:
            if dfd[o] is None:
                if not established:
                    actions += 1  # ready: the Pool phase is over
                dfd[o] = best_defender([c for c in pools[o] if animal[c]], ch, ALL)
                pools[o].remove(dfd[o])
                actions += 1  # defend
            used = 0
            original = True
            while True:
                pick = order[ch, dfd[o]]
                i = next(i for i in pick if not used >> i & 1)
                used |= 1 << i
                actions += 1  # stat
                if beats[ch, dfd[o]] >> i & 1:  # the Challenger wins (a tie: the Defender)
                    dfd[o] = None
                    cands = [c for c in pools[o] if animal[c]]
                    if not cands:
                        break  # no promotion: the attack ends
                    left = ALL & ~used
                    pick = best_defender(cands, ch, left)
                    actions += 1  # promote or decline
                    if (left & ~beats[ch, pick]).bit_count() == 0:
                        break  # declined: the attack ends
                    pools[o].remove(pick)
                    dfd[o], original = pick, False
                    if used == ALL:  # AB-G.9 becomes_challenger: the replacement takes over
                        # (AB-5.7); never reached by greedy, which declines with nothing left
                        ch, ctl, dfd[o] = pick, o, None
                        ended = True
                        break
                elif original:  # the original Defender wins: the Challenger goes
                    ch = ctl = None
                    break
                else:  # a replacement wins: both go, control changes (AB-5.6)
                    ch = ctl = None
                    dfd[o] = None
                    ended = True
                    break
        else:
            actions += 1  # ready: the Pool phase is over (the opponent holds the Challenger)
        if not ended:
            actions += 1  # end_turn
        while len(hand) < REFILL and decks[a]:
            hand.append(decks[a].pop())
        active = o


def bare(ids: list[int], stats: dict, games: int) -> tuple[float, int, list]:
    """(seconds, actions, each game's (winner, actions, turns)) of games 0..games-1 of
    ``simulate DECK DECK --seed 1``: game 2k and 2k+1 share a deal, seat k % 2 moves first."""
    from deckcli.sim.play import game_seed  # the deals of `simulate --seed 1` (not timed)

    tables = Tables(ids + ids, stats)
    seeds = [game_seed(SEED, n // 2) for n in range(games)]
    start = time.perf_counter()
    games_played = [bare_game(ids, ids, seeds[n], n % 2, tables) for n in range(games)]
    elapsed = time.perf_counter() - start
    return elapsed, sum(g[1] for g in games_played), games_played


def engine_games(games: int) -> list:
    """Each game's (winner, actions, turns) as deckcli's engine plays it, in this process (not
    timed): what the bare playout must reproduce."""
    from deckcli.cards import open_index
    from deckcli.sim.play import Spec, play
    from deckcli.sim.run import load_deck as load

    cards = load(str(DECK), open_index(), None).cards
    spec = Spec("animal-battle", SEED, {"a": cards, "b": cards}, ["p1", "p2"],
                {"p1": "a", "p2": "b"}, {"p1": "greedy", "p2": "greedy"}, {}, 200)
    seat = {"a": 0, "b": 1}
    return [(seat.get(r["winner"]), r["actions"], r["turns"])
            for r in (play(spec, n) for n in range(games))]


def split(games: int) -> dict[str, float]:
    """Microseconds per recorded action of each part of a simulated game, in this process:
    the engine's own loop (legal actions, greedy's choice, apply) on the same games, then the
    recorded actions replayed through ``apply`` alone, then replayed with the legal actions
    worked out before each one as well; the deals are timed apart and left out."""
    from deckcli.cards import open_index
    from deckcli.games import get
    from deckcli.sim.play import game_seed
    from deckcli.sim.policies import make
    from deckcli.sim.run import load_deck as load

    cards = load(str(DECK), open_index(), None).cards
    game = get("animal-battle")
    engine, house = game.engine(), game.house_rules({}, simulate=True)
    greedy, rng = make(game, "greedy"), random.Random(0)
    decks = {"p1": cards, "p2": cards}
    deals = [(game_seed(SEED, n // 2), ("p1", "p2")[n % 2]) for n in range(games)]

    def deal(seed, first):
        state = engine.new_game(decks, seed=seed, house_rules=house, first=first)
        engine.quiet(state)
        return state

    choices, apply, view, is_over = engine.choices, engine.apply, engine.view, engine.is_over
    played = []
    start = time.perf_counter()
    for seed, first in deals:
        state, steps = deal(seed, first), []
        views = {p: view(state, p) for p in decks}  # as simulate makes them: once a game
        while not is_over(state):
            mover, legal = choices(state)
            action = legal[0] if len(legal) == 1 or mover is None else greedy.choose(
                engine, views[mover], legal, rng)
            apply(state, action)
            steps.append(action)
        played.append(steps)
    whole = time.perf_counter() - start
    start = time.perf_counter()
    for seed, first in deals:
        deal(seed, first)
    dealing = time.perf_counter() - start
    start = time.perf_counter()
    for (seed, first), steps in zip(deals, played):
        state = deal(seed, first)
        for action in steps:
            apply(state, action)
    applying = time.perf_counter() - start - dealing
    start = time.perf_counter()
    for (seed, first), steps in zip(deals, played):
        state = deal(seed, first)
        for action in steps:
            choices(state)
            apply(state, action)
    listing = time.perf_counter() - start - dealing - applying
    n = sum(map(len, played)) / 1e6
    return {"apply_us": applying / n, "legal_us": listing / n,
            "choose_us": (whole - dealing - applying - listing) / n, "deal_us": dealing / n}


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
    ap.add_argument("--check", type=int, default=200,
                    help="games compared one by one with deckcli's engine (default 200)")
    args = ap.parse_args()
    ids, stats = load_deck()
    check = min(args.check, args.games)
    engine = engine_games(check)
    per_bare, per_sim, rates, bare_rates, same = [], [], [], [], True
    for _ in range(args.runs):  # alternating, so the machine's drift falls on both
        t, n, played = bare(ids, stats, args.games)
        per_bare.append(t / n * 1e6)
        bare_rates.append(args.games / t)
        same = same and played[:check] == engine
        t, sim_n = simulate(args.games, 1)
        same = same and sim_n == n
        per_sim.append(t / sim_n * 1e6)
        rates.append(args.games / t)
    b, s = statistics.median(per_bare), statistics.median(per_sim)
    print(f"the same games: {'yes' if same else 'NO'} (each of the first {check} games alike "
          f"in winner, actions and turns; {n:,} recorded actions in {args.games:,} games "
          f"both)")
    print(f"bare playout: {b:.2f} us per recorded action, "
          f"{statistics.median(bare_rates):.0f} games a second (median of {args.runs})")
    print(f"deckcli simulate --jobs 1: {s:.2f} us per recorded action, "
          f"{statistics.median(rates):.0f} games a second")
    print(f"simulate / bare: {s / b:.2f} (goal <= 2.5: {'met' if s / b <= 2.5 else 'NOT met'})")
    parts = split(min(args.games, 1000))
    print("the engine's loop in this process, per recorded action: "
          f"apply {parts['apply_us']:.2f} us, legal actions {parts['legal_us']:.2f} us, "
          f"greedy's choice and the loop {parts['choose_us']:.2f} us (the deal "
          f"{parts['deal_us']:.2f} us more)")
    one = statistics.median(simulate(args.parallel_games, 1)[0] for _ in range(args.runs))
    two = statistics.median(simulate(args.parallel_games, 2)[0] for _ in range(args.runs))
    print(f"{args.parallel_games:,} games: --jobs 1 {one:.1f} s, --jobs 2 {two:.1f} s, "
          f"speed-up {one / two:.2f} (goal >= 1.6: {'met' if one / two >= 1.6 else 'NOT met'})")
    print("RESULT " + json.dumps({"bare_us": round(b, 2), "simulate_us": round(s, 2),
                                  "ratio": round(s / b, 2), "same_games": same,
                                  **{k: round(v, 2) for k, v in parts.items()},
                                  "games_per_s": round(statistics.median(rates)),
                                  "bare_games_per_s": round(statistics.median(bare_rates)),
                                  "jobs2_speedup": round(one / two, 2)}))


if __name__ == "__main__":
    main()
