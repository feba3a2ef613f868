"""Run every benchmark and print one table: figure, goal, measured, met?

    python benchmarks/run_all.py [--quick]

Each script prints a `RESULT {json}` line; this script collects them. `--quick` uses smaller
sizes (for a smoke run; the goals are stated for the full sizes).
"""

from __future__ import annotations

import argparse
import json
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    q = args.quick
    rows = []
    cold = result("cold_start.py", "--runs", "10" if q else "30")
    for name in ("validate", "--help", "--version"):
        rows.append((f"cold {name} / yamllint", "<= 0.85", cold.get(f"{name} / yamllint"),
                     lambda v: v <= 0.85))
        rows.append((f"cold {name} / import click", "<= 1.2", cold.get(f"{name} / import click"),
                     lambda v: v <= 1.2))
    rows.append(("cold validate, empty cache / import click", "(reported)",
                 cold.get("first run / import click"), None))
    rows.append(("cold validate --event / import click", "(reported)",
                 cold.get("validate --event / import click"), None))
    batch = result("batch.py", *(["--decks", "500", "--jobs-decks", "2000", "--runs", "1"]
                                 if q else []))
    rows.append(("batch 5,000 decks / mtg-parser", "<= 0.5", batch.get("ratio"),
                 lambda v: v <= 0.5))
    rows.append(("batch with an event file / without", "(reported)",
                 batch.get("event_ratio"), None))
    rows.append(("batch floor (read + split lines) / mtg-parser", "(reported)",
                 batch.get("floor_ratio"), None))
    rows.append(("batch per deck, one process / mtg-parser", "(reported)",
                 batch.get("per_deck_ratio"), None))
    rows.append(("batch --jobs 2 speed-up, 20,000 decks", ">= 1.6", batch.get("speedup"),
                 lambda v: v >= 1.6))
    rows.append(("pure-Python loop, 2 processes / 1 (ceiling)", "(reported)",
                 batch.get("ceiling"), None))
    rows.append(("batch peak memory (MiB)", "< 150", batch.get("peak_mib"), lambda v: v < 150))
    scale = result("card_db_scale.py", *(["--printings", "10000", "--runs", "5"] if q else []))
    rows.append(("100k printings / bundled db", "<= 1.1", scale.get("ratio"), lambda v: v <= 1.1))
    rows.append(("validate peak memory, 100k db (MiB)", "< 60", scale.get("peak_mib"),
                 lambda v: v < 60))
    rows.append(("index build, 100k printings (s)", "(reported)", scale.get("build_s"),
                 None))
    ref = result("referee_log.py", *(["--actions", "2000", "--runs", "3"] if q else []))
    rows.append(("referee check, 10,000-action log (s)", "< 1", ref.get("check_s"),
                 lambda v: v < 1))
    rows.append(("referee check / parse only", "(reported)", ref.get("ratio_to_parse"),
                 None))
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, {platform.system()} {platform.release()}")
    width = max(len(r[0]) for r in rows)
    print(f"| {'figure':<{width}} | goal | measured | met? |")
    print(f"|{'-' * (width + 2)}|------|----------|------|")
    for name, goal, value, ok in rows:
        shown = "n/a" if value is None else f"{value:g}"
        met = "n/a" if value is None else "-" if ok is None else ("yes" if ok(value) else "NO")
        print(f"| {name:<{width}} | {goal} | {shown} | {met} |")


if __name__ == "__main__":
    main()
