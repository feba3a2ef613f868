"""Simulation: `deckcli simulate --policy greedy --jobs 1` against a bare playout of the same
games, expert's games a second against greedy's, and one `search` decision.

The bare playout (:func:`playout`) plays the games `deckcli simulate DECK DECK --seed 1
--policy greedy` plays, through the game interface alone: the same engine (deal, legal actions,
``apply``), the same policy objects (``deckcli.sim.policies.make``) with the same generators,
the same deals (``deckcli.sim.play.deal``), and nothing else: no outcome read, no gap, no
record, no report, no process start. Each run checks that it does: every game's winner against
``deckcli.sim.play.play`` (the command's own game) on the first games, and the wins of each
deck and the recorded actions against the command's report. What `simulate` costs beyond the
playout is what it does around the games.

Printed, in one run, alternating: microseconds per recorded action of each and their ratio
(goal <= 3); `simulate --policy expert --jobs 1` games a second against greedy's (goal >= 1/3);
one `search` decision's mean CPU time at the default budget (``search`` with no number: the
iterations and playout depth of :mod:`deckcli.sim.search`, playouts by the game's ``ROLLOUT``
policy) on positions of greedy's games (goal <= 50 ms: one core's time, which the load of
other processes does not stretch as it does wall time); where the engine's time goes (apply,
the legal actions, greedy's choice and the loop); and `--jobs 2` against `--jobs 1` on a
larger run (goal >= 1.6).

:func:`bare_game` and :class:`Tables` are a second, independent animal-battle player (plain
lists, greedy's choices written out by hand, no action card played): not timed here,
``tests/test_ab_bare_playout.py`` holds the engine to it on decks of Animals.

    python benchmarks/simulate.py [--games 1000] [--runs 3] [--decisions 30]
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
MAX_TURNS = 200  # simulate's default --max-turns


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


def spec(policy: str):
    """The run `simulate DECK DECK --seed 1 --policy POLICY` plays, as the command makes it
    (read before anything is timed)."""
    sys.path.insert(0, str(REPO))
    from deckcli.cards import open_index
    from deckcli.sim.play import Spec
    from deckcli.sim.run import load_deck as load

    cards = load(str(DECK), open_index(), None).cards
    return Spec("animal-battle", SEED, {"a": cards, "b": cards}, ["p1", "p2"],
                {"p1": "a", "p2": "b"}, {"p1": policy, "p2": policy}, {}, MAX_TURNS)


def playout(run, games: int) -> tuple[float, int, list]:
    """(seconds, recorded actions, each game's winning deck or None) of games 0..games-1 of
    ``run`` played bare: the engine and the policies through the game interface, nothing
    more (see the module's docstring)."""
    from deckcli.games import get
    from deckcli.sim.play import deal
    from deckcli.sim.policies import make

    game = get(run.game)
    engine = game.engine()
    house = game.house_rules(run.house, simulate=True)
    policies = {seat: make(game, name) for seat, name in run.policies.items()}
    new_game, quiet, view, is_over = engine.new_game, engine.quiet, engine.view, engine.is_over
    choices, apply, turns, winner = engine.choices, engine.apply, engine.turns, engine.winner
    seats, labels = run.seats, run.labels
    won, actions = [], 0
    start = time.perf_counter()
    for n in range(games):
        seed, first, decks = deal(run, n)
        state = new_game(decks, seats=seats, seed=seed, house_rules=house, first=first)
        quiet(state)
        players = {seat: (policies[seat], random.Random(f"deckcli-simulate:{run.seed}:{n}:{seat}"),
                          view(state, seat)) for seat in seats}
        while not is_over(state) and turns(state) <= MAX_TURNS:
            mover, legal = choices(state)
            if len(legal) == 1 or mover is None:
                action = legal[0]
            else:
                policy, rng, seen = players[mover]
                action = policy.choose(engine, seen, legal, rng)
            apply(state, action)
            actions += 1
        won.append(labels.get(winner(state)) if is_over(state) else None)
    return time.perf_counter() - start, actions, won


def search_decision(decisions: int) -> tuple[float, float, int]:
    """(mean seconds, mean CPU seconds of this process, iterations) of one ``search`` decision
    at the default budget, on ``decisions`` positions met in greedy's games (every seventh
    decision with more than one choice), each searched from its player's view."""
    from deckcli.games import get
    from deckcli.sim.play import deal
    from deckcli.sim.policies import make

    run = spec("greedy")
    game = get(run.game)
    engine = game.engine()
    house = game.house_rules(run.house, simulate=True)
    greedy, search = make(game, "greedy"), make(game, "search")
    positions, n = [], 0
    while len(positions) < decisions:
        seed, first, decks = deal(run, n)
        state = engine.new_game(decks, seats=run.seats, seed=seed, house_rules=house,
                                first=first)
        engine.quiet(state)
        rng, k = random.Random(n), 0
        while not engine.is_over(state) and len(positions) < decisions:
            mover, legal = engine.choices(state)
            if len(legal) == 1 or mover is None:
                action = legal[0]
            else:
                k += 1
                if k % 7 == 0:
                    positions.append((engine.clone(state), mover, legal))
                action = greedy.choose(engine, engine.view(state, mover), legal, rng)
            engine.apply(state, action)
        n += 1
    start, cpu = time.perf_counter(), time.process_time()
    for i, (state, mover, legal) in enumerate(positions):
        search.choose(engine, engine.view(state, mover), legal, random.Random(i))
    return ((time.perf_counter() - start) / len(positions),
            (time.process_time() - cpu) / len(positions), search.iterations)


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


def simulate(games: int, jobs: int, policy: str = "greedy") -> tuple[float, dict]:
    """(seconds, the report) of `deckcli simulate DECK DECK --seed 1` in a fresh process."""
    cmd = [*deckcli_cmd(), "simulate", str(DECK), str(DECK), "--games", str(games), "--seed",
           str(SEED), "--policy", policy, "--jobs", str(jobs), "-O", "json"]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games a run, of each policy")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=30,
                    help="search decisions timed (default 30)")
    ap.add_argument("--parallel-games", type=int, default=4000)
    ap.add_argument("--check", type=int, default=200,
                    help="games whose winner is compared with deckcli's own game")
    args = ap.parse_args()
    run = spec("greedy")
    check = min(args.check, args.games)
    from deckcli.sim.play import play

    expected = [r["winner"] for r in (play(run, n) for n in range(check))]  # not timed
    per_bare, per_sim, bare_rates, rates, expert_rates = [], [], [], [], []
    same = True
    for _ in range(args.runs):  # alternating, so the machine's drift falls on all of them
        t, n, won = playout(run, args.games)
        per_bare.append(t / n * 1e6)
        bare_rates.append(args.games / t)
        tally = {"a": won.count("a"), "b": won.count("b"), "undecided": won.count(None)}
        t, report = simulate(args.games, 1)
        same = (same and won[:check] == expected and report["actions"] == n
                and report["results"] == tally)
        per_sim.append(t / report["actions"] * 1e6)
        rates.append(args.games / t)
        t, _report = simulate(args.games, 1, "expert")
        expert_rates.append(args.games / t)
    b, s = statistics.median(per_bare), statistics.median(per_sim)
    greedy_rate, expert_rate = statistics.median(rates), statistics.median(expert_rates)
    print(f"the same games: {'yes' if same else 'NO'} (the winner of each of the first {check} "
          f"games as deckcli plays it; the wins of each deck and the {n:,} recorded actions in "
          f"{args.games:,} games as the command reports them)")
    print(f"bare playout (greedy): {b:.2f} us per recorded action, "
          f"{statistics.median(bare_rates):.0f} games a second (median of {args.runs})")
    print(f"deckcli simulate --policy greedy --jobs 1: {s:.2f} us per recorded action, "
          f"{greedy_rate:.0f} games a second")
    print(f"simulate / bare: {s / b:.2f} (goal <= 3: {'met' if s / b <= 3 else 'NOT met'})")
    ratio = expert_rate / greedy_rate
    print(f"deckcli simulate --policy expert --jobs 1: {expert_rate:.1f} games a second, "
          f"{ratio:.2f} of greedy's (goal >= 1/3: {'met' if ratio >= 1 / 3 else 'NOT met'})")
    mean, cpu, iterations = search_decision(args.decisions)
    print(f"a search decision ({iterations} iterations, the default), the mean of "
          f"{args.decisions}: {cpu * 1e3:.1f} ms of CPU time ({mean * 1e3:.1f} ms wall), "
          f"{mean * 1e6 / b:,.0f} bare playout actions (goal <= 50 ms on one core: "
          f"{'met' if cpu <= 0.05 else 'NOT met'})")
    parts = split(min(args.games, 300))
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
                                  "games_per_s": round(greedy_rate),
                                  "bare_games_per_s": round(statistics.median(bare_rates)),
                                  "expert_games_per_s": round(expert_rate, 1),
                                  "expert_over_greedy": round(ratio, 3),
                                  "search_ms": round(cpu * 1e3, 1),
                                  "search_wall_ms": round(mean * 1e3, 1),
                                  "jobs2_speedup": round(one / two, 2)}))


if __name__ == "__main__":
    main()
