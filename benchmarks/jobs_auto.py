"""Where `validate --jobs auto` should start processes: one process against one per CPU.

Generates folders of 60-card decks (the decks of batch.py) of growing size and times, side by
side in one run, `validate DIR --output json` with `--jobs 1`, `--jobs 0` (one process per CPU)
and the default (`auto`). It prints, per size, the medians, which of 1 and 0 was faster, and
whether `auto` picked processes (deckcli.batch.AUTO_MIN_DECKS is the size it starts them at).

Goal (issue "Performance, round two"): a run too small for processes to pay is never slower
by default than `--jobs 1` (no more than 5%), and a run large enough is not slower than
`--jobs 0` (no more than 5%). On a shared machine the crossover moves with the load: the
pure-Python ceiling printed beside it says how much a second process could give at the time.

    python benchmarks/jobs_auto.py [--sizes 250,500,1000,2000,4000,8000] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from _common import REPO, compare, deckcli_cmd, ms
from batch import generate, parallel_ceiling


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="250,500,1000,2000,4000,8000")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    sys.path.insert(0, str(REPO))
    from deckcli.batch import AUTO_MIN_DECKS

    cmd = deckcli_cmd()
    rows = []
    worst = {"small": 0.0, "large": 0.0}
    with tempfile.TemporaryDirectory(prefix="deckcli-jobs-") as tmp:
        tmp = Path(tmp)
        env = {"DECKCLI_CACHE_DIR": str(tmp / "cache")}
        os.environ.update(env)
        for n in sizes:
            folder = tmp / f"decks{n}"
            folder.mkdir()
            generate(folder, n, seed=n)
            base = [*cmd, "validate", str(folder), "--output", "json"]
            res = compare({"1": [*base, "--jobs", "1"], "0": [*base, "--jobs", "0"],
                           "auto": base}, runs=args.runs, env=env, warmup=1)
            one, every, auto = (res[k]["median"] for k in ("1", "0", "auto"))
            picked = "0" if n >= AUTO_MIN_DECKS else "1"
            best = min(one, every)
            # auto against what it chose to be: one process below the size, one per CPU above
            if picked == "1":
                worst["small"] = max(worst["small"], auto / one)
            else:
                worst["large"] = max(worst["large"], auto / every)
            rows.append({"decks": n, "jobs1_ms": round(one * 1000, 1),
                         "jobs0_ms": round(every * 1000, 1), "auto_ms": round(auto * 1000, 1),
                         "auto_picked": picked, "faster": "0" if every < one else "1"})
            print(f"{n:>6,} decks: --jobs 1 {ms(one)}, --jobs 0 {ms(every)}, auto "
                  f"{ms(auto)} (auto = --jobs {picked}; faster here: --jobs "
                  f"{rows[-1]['faster']}; auto / best {auto / best:.2f})", flush=True)
    ceiling = parallel_ceiling()
    print(f"{os.cpu_count()} CPUs; auto starts processes at {AUTO_MIN_DECKS:,} decks; the "
          f"machine's ceiling now: a pure-Python loop runs {ceiling:.2f}x faster in 2 processes")
    crossover = next((r["decks"] for r in rows if r["faster"] == "0"), None)
    print(f"smallest size measured where one process per CPU was faster: {crossover}")
    print("RESULT " + json.dumps({"rows": rows, "auto_min_decks": AUTO_MIN_DECKS,
                                  "crossover": crossover, "ceiling": round(ceiling, 2),
                                  "auto_small_ratio": round(worst["small"], 3),
                                  "auto_large_ratio": round(worst["large"], 3)}))


if __name__ == "__main__":
    main()
