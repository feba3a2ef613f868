"""Cold start: one deck check against the tools a CI already runs.

Times, alternating in one run, each as a fresh process:

* `python -c pass` (the interpreter floor) and `python -c "import click"` (the click floor),
* `yamllint` checking a one-line YAML file (a fast Python CI checker),
* `deckcli validate` of one 60-card text deck with the bundled database (index already built),
* `deckcli --help` and `deckcli --version`;
* the same `validate` against an event file (a ban, legal sets), as a tournament's CI runs it
  (reported, no goal);
* after those, the same `validate` with an empty cache each time (the first run on a machine or
  a fresh CI runner), against `import click` timed alternately with it (reported, no goal).

Goals (issue "Performance"): validate / yamllint <= 0.85 and validate / import click <= 1.2;
--help and --version likewise.

    python benchmarks/cold_start.py [--runs 30]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from _common import REPO, compare, deckcli_cmd, instructions, ms, run_once


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    cmd = deckcli_cmd()
    deck = REPO / "examples" / "good" / "championship-deep-divers.txt"
    yamllint = shutil.which("yamllint") or str(Path(sys.executable).with_name("yamllint"))
    with tempfile.TemporaryDirectory(prefix="deckcli-cold-") as tmp:
        one_line = Path(tmp) / "one.yaml"
        one_line.write_text("key: value\n")
        event = Path(tmp) / "event.yaml"
        event.write_text('name: Cold Open\nformat: championship\ndate: 2026-05-02\n'
                         'banned: ["Blue Whale (ABS) 1"]\nsets: [ABS, DWV, RFS, PRM]\n')
        env = {"DECKCLI_CACHE_DIR": str(Path(tmp) / "cache")}
        run_once([*cmd, "db", "build"], env)  # the index is built once, as after any install
        cmds = {
            "python": [sys.executable, "-c", "pass"],
            "import click": [sys.executable, "-c", "import click"],
            "yamllint": [yamllint, str(one_line)],
            "validate": [*cmd, "validate", str(deck)],
            "--help": [*cmd, "--help"],
            "--version": [*cmd, "--version"],
            "validate --event": [*cmd, "validate", str(deck), "--event", str(event)],
        }
        if not Path(yamllint).exists():
            del cmds["yamllint"]
            print("note: yamllint is not installed (pip install yamllint); peer skipped")
        res = compare(cmds, runs=args.runs, env=env, warmup=3)
        first, click_again = [], []
        for i in range(max(5, args.runs // 3)):
            fresh = {"DECKCLI_CACHE_DIR": str(Path(tmp) / f"empty-{i}")}
            first.append(run_once([*cmd, "validate", str(deck)], fresh)[0])
            click_again.append(run_once(cmds["import click"])[0])
    for name, r in res.items():
        print(f"{name:>13}: median {ms(r['median'])}  (min {ms(r['min'])})")
    out = {}
    click = res["import click"]["median"]
    for name in ("validate", "--help", "--version"):
        ratio = res[name]["median"] / click
        out[f"{name} / import click"] = round(ratio, 3)
        met = "met" if ratio <= 1.2 else "NOT met"
        print(f"{name} / import click: {ratio:.2f} (goal <= 1.2: {met})")
        if "yamllint" in res:
            r2 = res[name]["median"] / res["yamllint"]["median"]
            out[f"{name} / yamllint"] = round(r2, 3)
            met = "met" if r2 <= 0.85 else "NOT met"
            print(f"{name} / yamllint: {r2:.2f} (goal <= 0.85: {met})")
    ratio = res["validate --event"]["median"] / click
    out["validate --event / import click"] = round(ratio, 3)
    print(f"validate --event / import click: {ratio:.2f} (reported)")
    import statistics

    ratio = statistics.median(first) / statistics.median(click_again)
    out["first run / import click"] = round(ratio, 3)
    print(f"validate with an empty cache: median {ms(statistics.median(first))}, "
          f"{ratio:.2f} x import click (reported)")
    # the same ratios in instructions (callgrind: one run each, deterministic), with the
    # index built and the bytecode written by the runs above
    with tempfile.TemporaryDirectory(prefix="deckcli-cold-") as tmp:
        env = {"DECKCLI_CACHE_DIR": str(Path(tmp) / "cache")}
        run_once([*cmd, "db", "build"], env)
        one_line = Path(tmp) / "one.yaml"
        one_line.write_text("key: value\n")
        counted = {"import click": instructions([sys.executable, "-c", "import click"], env),
                   "validate": instructions([*cmd, "validate", str(deck)], env),
                   "--help": instructions([*cmd, "--help"], env)}
        if Path(yamllint).exists():
            counted["yamllint"] = instructions([yamllint, str(one_line)], env)
    if all(counted.values()):
        for name in ("validate", "--help"):
            ratio = counted[name] / counted["import click"]
            out[f"{name} / import click, instructions"] = round(ratio, 3)
            print(f"{name} / import click in instructions: {ratio:.2f} ({counted[name]:,} / "
                  f"{counted['import click']:,})")
        if "yamllint" in counted:
            ratio = counted["validate"] / counted["yamllint"]
            out["validate / yamllint, instructions"] = round(ratio, 3)
            print(f"validate / yamllint in instructions: {ratio:.2f} ({counted['validate']:,} "
                  f"/ {counted['yamllint']:,})")
    else:
        print("note: valgrind is not installed; no instruction counts")
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
