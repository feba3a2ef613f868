"""Run every benchmark and print one table: figure, goal, measured, met?

    python benchmarks/run_all.py [--quick]

Each script prints a `RESULT {json}` line; this script collects them: cold_start, batch,
jobs_auto, card_db_scale, referee_log, simulate, build and editor. Figures named "instructions" are
counted by valgrind's callgrind (deterministic); the others are wall-clock ratios to a peer
timed alternately in the same run. `--quick` uses smaller sizes (for a smoke run; the goals are
stated for the full sizes).
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def result(script: str, *args: str) -> dict:
    proc = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True,
                          text=True)
    sys.stderr.write(proc.stdout)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        return {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    return {}


#: a goal as the table states it, "<= 0.5", ">= 1.6", "< 60", and the test it stands for
COMPARE = {"<=": operator.le, ">=": operator.ge, "<": operator.lt}


def met(goal: str, value) -> str:
    """'yes' or 'NO' for a stated goal, '-' for a figure only reported, 'n/a' without one."""
    if value is None:
        return "n/a"
    op, _, bound = goal.partition(" ")
    if op not in COMPARE:
        return "-"
    return "yes" if COMPARE[op](value, float(bound)) else "NO"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    q = args.quick
    load_before = os.getloadavg()
    rows = []

    def row(name, goal, value):
        rows.append((name, goal, value))

    cold = result("cold_start.py", "--runs", "10" if q else "30")
    for name in ("validate", "--help", "--version"):
        row(f"cold {name} / yamllint", "<= 0.85", cold.get(f"{name} / yamllint"))
        row(f"cold {name} / import click", "<= 1.2", cold.get(f"{name} / import click"))
    row("cold validate / yamllint, instructions", "<= 0.85",
        cold.get("validate / yamllint, instructions"))
    row("cold validate / import click, instructions", "<= 1.2",
        cold.get("validate / import click, instructions"))
    row("cold --help / import click, instructions", "<= 1.2",
        cold.get("--help / import click, instructions"))
    row("cold validate, empty cache / import click", "(reported)",
        cold.get("first run / import click"))
    row("cold validate --event / import click", "(reported)",
        cold.get("validate --event / import click"))
    batch = result("batch.py", *(["--decks", "500", "--jobs-decks", "2000", "--runs", "1"]
                                 if q else []))
    row("batch 5,000 decks, --jobs 1 / mtg-parser", "<= 0.5", batch.get("ratio"))
    row("batch 500 decks, --jobs 1 / mtg-parser, instructions", "(reported)",
        batch.get("instr_ratio"))
    row("batch 5,000 decks, default (auto) / mtg-parser", "<= 0.4", batch.get("default_ratio"))
    row("batch with an event file / without", "(reported)", batch.get("event_ratio"))
    row("batch --jobs 1 without the command line (no click) / mtg-parser", "(reported)",
        batch.get("no_cli_ratio"))
    row("batch floor (read + split lines) / mtg-parser", "(reported)",
        batch.get("floor_ratio"))
    row("batch per deck, one process / mtg-parser", "(reported)", batch.get("per_deck_ratio"))
    row("batch --jobs 2 speed-up, 20,000 decks", ">= 1.6", batch.get("speedup"))
    row("pure-Python loop, 2 processes / 1 (ceiling)", "(reported)", batch.get("ceiling"))
    row("batch peak memory (MiB)", "< 150", batch.get("peak_mib"))
    jobs = result("jobs_auto.py", *(["--sizes", "500,4000", "--runs", "2"] if q else []))
    row("--jobs auto below its size / --jobs 1 (worst)", "<= 1.05",
        jobs.get("auto_small_ratio"))
    row("--jobs auto above its size / --jobs 0 (worst)", "<= 1.05",
        jobs.get("auto_large_ratio"))
    row("smallest folder where --jobs 0 beat --jobs 1 (decks)", "(reported)",
        jobs.get("crossover"))
    scale = result("card_db_scale.py", *(["--printings", "10000", "--runs", "5"] if q else []))
    row("100k printings / bundled db", "<= 1.1", scale.get("ratio"))
    row("validate peak memory, 100k db (MiB)", "< 60", scale.get("peak_mib"))
    row("index build, 100k printings, every file parsed (s)", "(reported)",
        scale.get("build_s"))
    row("one changed file of 100k rebuilt / full build", "<= 0.1",
        scale.get("one_file_ratio"))
    row("every file linked again from kept files (no last index) / full build", "(reported)",
        scale.get("linked_ratio"))
    ref = result("referee_log.py", *(["--actions", "2000", "--runs", "3"] if q else []))
    row("referee check, 10,000-action log (s)", "< 1", ref.get("check_s"))
    row("referee check / parse only", "(reported)", ref.get("ratio_to_parse"))
    sim = result("simulate.py", *(["--games", "200", "--runs", "1", "--decisions", "10",
                                   "--parallel-games", "1000"] if q else []))
    row("simulate --policy greedy --jobs 1 per action / bare playout", "<= 3", sim.get("ratio"))
    row("simulate expert games a second / greedy's", ">= 0.333", sim.get("expert_over_greedy"))
    row("a search decision at the default budget, CPU (ms)", "<= 50", sim.get("search_ms"))
    row("simulate --jobs 2 speed-up, 4,000 games", ">= 1.6", sim.get("jobs2_speedup"))
    row("simulate greedy games a second, --jobs 1", "(reported)", sim.get("games_per_s"))
    row("simulate expert games a second, --jobs 1", "(reported)", sim.get("expert_games_per_s"))
    build = result("build.py", *(["--games", "300", "--measure", "100"] if q else []))
    row("build: share of time playing games (%)", ">= 80", build.get("playing_pct"))
    row("build --games 2000 (s)", "(reported)", build.get("seconds"))
    defaults = result("build.py", "--defaults",
                      *(["--formats", "casual"] if q else []))  # --quick: casual only
    for fmt, goal in (("casual", "<= 15"), ("championship", "<= 30")):
        row(f"build --format {fmt} with defaults, --jobs auto (s)", goal,
            defaults.get(fmt, {}).get("seconds"))
        row("the same / simulate --policy expert of as many games", "(reported)",
            defaults.get(fmt, {}).get("ratio"))
    edit = result("editor.py", *(["--runs", "3", "--printings", "10000"] if q else []))
    row("deckcli edit, start to the first frame (s)", "<= 1", edit.get("first_frame_s"))
    row("deckcli edit first frame / a one-widget Textual app", "(reported)",
        edit.get("first_frame_over_textual"))
    row("edit: keystroke to results, 100k printings, name query (ms)", "<= 50",
        edit.get("keystroke_name_wall_ms"))
    row("the same, CPU time (ms)", "(reported)", edit.get("keystroke_name_cpu_ms"))
    row("edit: keystroke to results, 100k printings, speed> query (ms)", "<= 50",
        edit.get("keystroke_statistic_wall_ms"))
    row("the same, CPU time (ms)", "(reported)", edit.get("keystroke_statistic_cpu_ms"))
    load_after = os.getloadavg()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, {platform.system()} {platform.release()}; load "
          f"average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    width = max(len(r[0]) for r in rows)
    print(f"| {'figure':<{width}} | goal | measured | met? |")
    print(f"|{'-' * (width + 2)}|------|----------|------|")
    for name, goal, value in rows:
        shown = "n/a" if value is None else f"{value:g}"
        print(f"| {name:<{width}} | {goal} | {shown} | {met(goal, value)} |")


if __name__ == "__main__":
    main()
