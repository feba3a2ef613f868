"""Batch validation: deckcli checking a folder of decklists against a parse-only peer.

Generates decklists from the real card database, then times side by side in one run:

* `deckcli validate DIR --output json` (parse, resolve every card, check every rule), and
* the `mtg-parser` package parsing the same files in one Python process (parse only: no
  database, no checks), the baseline a player would otherwise reach for.

A third command, the floor, only reads the files and counts their lines (see FLOOR). Another,
NO_CLI, is the same check through deckcli's library with no command line (see NO_CLI): what
the command line's start-up (click) costs of the `--jobs 1` run. A fourth
checks the same decks against an event file (a ban, a limited card, a list of legal sets: what
a tournament's CI runs), reported as its ratio to the plain check. Beside
the --jobs speed-up it prints the machine's own ceiling: the speed-up of a pure-Python loop in
2 processes over 1 (on a shared VM that is well under 2).

Goals (issues "Tournament CI", "Performance, round two"): deckcli `--jobs 1` / mtg-parser
<= 0.5 on 5,000 decks, and the default (`--jobs auto`) / mtg-parser <= 0.4; `--jobs 2` at least
1.6x faster than `--jobs 1` on 20,000 decks; peak memory under 150 MiB. Where valgrind is
installed, the `--jobs 1` ratio is also counted in instructions on the first 500 decks (one
run each, deterministic: the wall-clock ratio moves with what else the machine runs).

    python benchmarks/batch.py [--decks 5000] [--jobs-decks 20000] [--runs 3]

Needs `pip install mtg-parser` for the peer (the script says so when it is missing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

from _common import compare, deckcli_cmd, instructions, ms, run_once, timed_env

PEER = r"""
import sys, os
from mtg_parser import parse_deck
n = 0
for root, _dirs, files in os.walk(sys.argv[1]):
    for name in sorted(files):
        with open(os.path.join(root, name), encoding="utf-8") as fh:
            n += len(list(parse_deck(fh.read()) or ()))
print(n)
"""

# A reference, not a peer: the least any Python tool does with these files in one process
# (start Python, walk the folder, read each file, split it into lines, count each distinct line
# in a dict). No parsing, no database, no checks. Its ratio to mtg-parser says how far down a
# single-process Python validator could go on this machine.
FLOOR = r"""
import sys, os
seen = {}
n = 0
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for name in sorted(files):
        with open(os.path.join(root, name), "rb") as fh:
            for line in fh.read().decode("utf-8").split("\n"):
                line = line.strip()
                if line:
                    seen[line] = seen.get(line, 0) + 1
                    n += 1
print(n)
"""


# Not a peer either: `validate DIR --output json --jobs 1` done by deckcli's own library calls
# (the ones the command makes) in a script that never imports click, started as deckcli's
# console script is (the collector off while modules load, no teardown at exit). Its output
# is the command's, byte for byte (checked each run). Its ratio is what a validate that parsed
# its options without click, a second command-line parser, would give.
NO_CLI = r"""
import gc, os, sys
gc.disable()
from deckcli.batch import run_validation
from deckcli.cards import open_index
from deckcli.validate import Options, collect_paths
gc.freeze()
gc.enable()
legal = run_validation(collect_paths([sys.argv[1]]), open_index(), Options(), output="json",
                       jobs=1)
assert "click" not in sys.modules
sys.stdout.flush()
os._exit(0 if legal else 1)
"""


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallel_ceiling(workers: int = 2, tasks: int = 16, size: int = 2_000_000) -> float:
    """How much faster `workers` processes run a pure-Python loop than one process, here:
    the most any --jobs can gain on this machine (no I/O, no results to send back)."""
    import time
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    for _ in range(tasks):
        _spin(size)
    one = time.perf_counter() - start
    with ProcessPoolExecutor(workers) as pool:
        start = time.perf_counter()
        list(pool.map(_spin, [size] * tasks))
        many = time.perf_counter() - start
    return one / many


def _index():
    """The card index the benchmark's own generators and per-deck timing use (the installed
    deckcli, else this checkout's), opened once."""
    global _INDEX
    if _INDEX is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from deckcli.cards import open_index

        _INDEX = open_index()
    return _INDEX


_INDEX = None


def per_deck(folder: Path, passes: int = 3) -> tuple[float, float]:
    """Microseconds a deck in this process, start-up left out: (deckcli, mtg-parser).

    deckcli: validate_path and the JSON text of its report; mtg-parser: reading the file and
    parsing it. One pass first (each tool's memos and compiled patterns), then the best of
    ``passes``. This is where the two spend their time per deck, by the clock: instruction
    counts do not compare them, since mtg-parser's work is mostly the regex engine's C loops.
    """
    import time

    from mtg_parser import parse_deck

    index = _index()
    from deckcli.reporters.json import JsonReporter
    from deckcli.validate import Options, collect_paths, validate_path

    options = Options()
    paths = collect_paths([str(folder)])

    def ours():
        for path in paths:
            JsonReporter.render(validate_path(path, index, options))

    def peer():
        for path in paths:
            with open(path, encoding="utf-8") as fh:
                list(parse_deck(fh.read()) or ())

    best = {}
    for name, run in (("deckcli", ours), ("mtg-parser", peer)):
        run()
        times = []
        for _ in range(passes):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        best[name] = min(times) * 1e6 / len(paths)
    return best["deckcli"], best["mtg-parser"]


def _stdout(cmd: list[str], env: dict) -> bytes:
    """What ``cmd`` prints (not timed)."""
    import subprocess

    return subprocess.run(cmd, capture_output=True, env=timed_env(env)).stdout


def generate(folder: Path, count: int, seed: int = 7) -> None:
    """Decklists of 60 cards in the text format, some naming printings, a few illegal."""
    index = _index()
    rng = random.Random(seed)
    cards = [c for c in index.all_cards("animal-battle")]
    names = {}
    for c in cards:
        names.setdefault(c.name, []).append(c)
    unique = [c for c in cards if len(names[c.name]) == 1]
    printings = {c.id: index.printings_of(c.id) for c in unique}
    for i in range(count):
        lines = ["game: animal-battle", "format: championship", f"name: Generated {i}", ""]
        picks = rng.sample(unique, 15)
        for c in picks:
            n = 4 if rng.random() > 0.02 else 5  # about one deck in four has a 5-copy error
            if rng.random() < 0.4:
                p = rng.choice(printings[c.id])
                lines.append(f"{n} {c.name} ({p.set_code}) {p.number}")
            else:
                lines.append(f"{n} {c.name}")
        sub = folder / f"d{i // 1000:02d}"
        sub.mkdir(exist_ok=True)
        (sub / f"deck{i:05d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_event(path: Path) -> None:
    """A tournament's event file for the generated decks: one card banned, one limited to 2,
    every set of the game legal (so the set check runs on every line, and most decks pass
    it, as at a real event), championship format."""
    index = _index()
    cards = index.all_cards("animal-battle")
    sets = sorted({p.set_code for c in cards for p in index.printings_of(c.id)})
    path.write_text("name: Bench Open\ngame: animal-battle\nformat: championship\n"
                    f'banned: ["{cards[0].ref}"]\nlimited: {{"{cards[1].ref}": 2}}\n'
                    f"sets: [{', '.join(sets)}]\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=5000)
    ap.add_argument("--jobs-decks", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    try:
        import mtg_parser  # noqa: F401
        have_peer = True
    except ImportError:
        have_peer = False
        print("note: mtg-parser is not installed (pip install mtg-parser); peer skipped")
    cmd = deckcli_cmd()
    results = {}
    with tempfile.TemporaryDirectory(prefix="deckcli-batch-") as tmp:
        tmp = Path(tmp)
        env = {"DECKCLI_CACHE_DIR": str(tmp / "cache")}
        os.environ.update(env)
        small = tmp / "small"
        small.mkdir()
        generate(small, args.decks)
        run_once([*cmd, "db", "build"], env)
        write_event(tmp / "event.yaml")
        cmds = {"deckcli": [*cmd, "validate", str(small), "--output", "json", "--jobs", "1"],
                "default": [*cmd, "validate", str(small), "--output", "json"],
                "event": [*cmd, "validate", str(small), "--output", "json", "--jobs", "1",
                          "--event", str(tmp / "event.yaml")]}
        cmds["floor"] = [sys.executable, "-c", FLOOR, str(small)]
        cmds["no-cli"] = [sys.executable, "-c", NO_CLI, str(small)]
        same = (_stdout(cmds["no-cli"], env) == _stdout(cmds["deckcli"], env))
        if have_peer:
            cmds["mtg-parser"] = [sys.executable, "-c", PEER, str(small)]
        res = compare(cmds, runs=args.runs, env=env, warmup=1)
        print(f"{args.decks:,} decks: deckcli validate --output json --jobs 1: median "
              f"{ms(res['deckcli']['median'])}, peak {res['deckcli']['rss_kib'] / 1024:.0f} MiB")
        print(f"{args.decks:,} decks: deckcli validate --output json (default, --jobs auto): "
              f"median {ms(res['default']['median'])}")
        event = res["event"]["median"] / res["deckcli"]["median"]
        results["event_ratio"] = round(event, 3)
        print(f"{args.decks:,} decks against an event file (ban, limit, legal sets): median "
              f"{ms(res['event']['median'])}, ratio to the plain check {event:.2f} (reported)")
        if have_peer:
            ratio = res["deckcli"]["median"] / res["mtg-parser"]["median"]
            results["ratio"] = round(ratio, 3)
            print(f"{args.decks:,} decks: mtg-parser parse only: median "
                  f"{ms(res['mtg-parser']['median'])}")
            print(f"ratio deckcli --jobs 1 / mtg-parser: {ratio:.2f} "
                  f"(goal <= 0.5: {'met' if ratio <= 0.5 else 'NOT met'})")
            default = res["default"]["median"] / res["mtg-parser"]["median"]
            results["default_ratio"] = round(default, 3)
            print(f"ratio deckcli default (auto) / mtg-parser: {default:.2f} "
                  f"(goal <= 0.4: {'met' if default <= 0.4 else 'NOT met'})")
            sample = tmp / "sample"
            sample.mkdir()
            for i, deck in enumerate(sorted(small.rglob("*.txt"))[:500]):
                (sample / f"deck{i:03d}.txt").write_bytes(deck.read_bytes())
            ours = instructions([*cmd, "validate", str(sample), "--output", "json",
                                 "--jobs", "1"], env)
            theirs = instructions([sys.executable, "-c", PEER, str(sample)], env)
            if ours and theirs:
                results["instr_ratio"] = round(ours / theirs, 3)
                print(f"500 decks in instructions: deckcli --jobs 1 {ours:,}, mtg-parser "
                      f"{theirs:,}, ratio {ours / theirs:.2f}")
            ours, theirs = per_deck(small)
            results["per_deck_ratio"] = round(ours / theirs, 3)
            print(f"per deck in one process, start-up left out: deckcli {ours:.0f} us, "
                  f"mtg-parser {theirs:.0f} us, ratio {ours / theirs:.2f} (reported)")
            no_cli = res["no-cli"]["median"] / res["mtg-parser"]["median"]
            results["no_cli_ratio"] = round(no_cli, 3)
            print(f"{args.decks:,} decks: the same check without the command line (no click; "
                  f"the same output: {'yes' if same else 'NO'}): median "
                  f"{ms(res['no-cli']['median'])}, ratio to mtg-parser {no_cli:.2f} (reported)")
            floor = res["floor"]["median"] / res["mtg-parser"]["median"]
            results["floor_ratio"] = round(floor, 3)
            print(f"{args.decks:,} decks: floor (read + split + count lines, no parsing): median "
                  f"{ms(res['floor']['median'])}, ratio floor / mtg-parser: {floor:.2f}")

        big = tmp / "big"
        big.mkdir()
        generate(big, args.jobs_decks, seed=11)
        jobs = compare({"jobs1": [*cmd, "validate", str(big), "--output", "json", "--jobs", "1"],
                        "jobs2": [*cmd, "validate", str(big), "--output", "json", "--jobs", "2"]},
                       runs=args.runs, env=env, warmup=0)
    speedup = jobs["jobs1"]["median"] / jobs["jobs2"]["median"]
    ceiling = parallel_ceiling()
    peak = max(jobs["jobs1"]["rss_kib"], jobs["jobs2"]["rss_kib"]) / 1024
    print(f"{args.jobs_decks:,} decks: --jobs 1 {ms(jobs['jobs1']['median'])}, "
          f"--jobs 2 {ms(jobs['jobs2']['median'])}")
    print(f"speed-up --jobs 2 over --jobs 1: {speedup:.2f}x "
          f"(goal >= 1.6: {'met' if speedup >= 1.6 else 'NOT met'}; this machine has "
          f"{os.cpu_count()} CPUs)")
    print(f"the machine's own ceiling: a pure-Python loop runs {ceiling:.2f}x faster in 2 "
          "processes than in 1")
    print(f"peak memory (main process): {peak:.0f} MiB "
          f"(goal < 150 MiB: {'met' if peak < 150 else 'NOT met'})")
    results.update(speedup=round(speedup, 2), ceiling=round(ceiling, 2), peak_mib=round(peak, 1))
    print("RESULT " + json.dumps(results))


if __name__ == "__main__":
    main()
