"""The event report of a large event: peak memory and time of ``deckcli report``.

Generates an event of N players (``batch.generate``'s decklists, 60 cards each, a few
illegal; every deck on the roster), then runs ``deckcli report EVENT -o FILE.html`` in a fresh
process and reads its peak resident memory (``wait4``'s ``ru_maxrss``) and wall time, with
the size of the page it wrote. ``--compare PYTHON`` runs the same with another interpreter
(another checkout's virtualenv) on the same event, alternating, for a before/after figure.

Goal (issue 38, 13): the report's memory is bounded by what the page holds, not by every
deck read whole at once: at 20,000 players it peaked at 477 MB.

    python benchmarks/report_memory.py [--players 20000] [--runs 1] [--compare OTHER/python]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from _common import run_once
from batch import generate


def write_event(folder: Path, players: int) -> Path:
    decks = folder / "decks"
    decks.mkdir()
    generate(decks, players)
    lines = ["name: Bench Open", "game: animal-battle", "format: championship", "players:"]
    lines += [f"  p{i:05d}: decks/d{i // 1000:02d}/deck{i:05d}.txt" for i in range(players)]
    event = folder / "event.yaml"
    event.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return event


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--compare", metavar="PYTHON", default=None,
                    help="another interpreter with deckcli installed: its report beside this one")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        event = write_event(folder, args.players)
        pythons = {"this": sys.executable}
        if args.compare:
            pythons["other"] = args.compare
        seen: dict[str, list[tuple[float, int]]] = {k: [] for k in pythons}
        size = {}
        for _ in range(args.runs):
            for name, python in pythons.items():
                out = folder / f"{name}.html"
                seconds, code, rss = run_once([python, "-m", "deckcli", "report", str(event),
                                               "-o", str(out)])
                if code != 0:
                    sys.exit(f"{name}: deckcli report exited {code}")
                seen[name].append((seconds, rss))
                size[name] = out.stat().st_size
        for name, runs in seen.items():
            seconds = min(s for s, _ in runs)
            rss = max(r for _, r in runs)
            print(f"{name}: {args.players:,} players: peak RSS {rss / 1024:,.0f} MiB, "
                  f"{seconds:.1f} s, page {size[name] / 2**20:,.1f} MiB")
        rss = max(r for _, r in seen["this"])
        print(f"RESULT report_peak_rss_mib={rss / 1024:.0f} players={args.players}")


if __name__ == "__main__":
    main()
