"""The rules references are in deckcli's own words: no run of ten words of a seed (the games'
source texts, which are not part of the repository) stands in them.

The repository keeps no seed text, only a fingerprint of every ten-word run of each seed
(tests/golden/seed-runs.txt: a game id, then the first 16 hex digits of the SHA-256 of the run's
words, lowercased, joined by one space). To remake it from the seeds:

    python tests/seed_runs.py animal-battle=SEED_AB.txt alpha-walrus=SEED_AW.txt
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

RUN = 10  # words: shorter runs of the seeds recur in any faithful restatement of a rule
FILE = Path(__file__).resolve().parent / "golden" / "seed-runs.txt"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(text: str) -> set[str]:
    w = words(text)
    return {hashlib.sha256(" ".join(w[i:i + RUN]).encode()).hexdigest()[:16]
            for i in range(len(w) - RUN + 1)}


def recorded() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for line in FILE.read_text(encoding="utf-8").splitlines():
        game, digest = line.split()
        out.setdefault(game, set()).add(digest)
    return out


if __name__ == "__main__":
    lines = []
    for arg in sys.argv[1:]:
        game, path = arg.split("=", 1)
        lines += [f"{game} {d}" for d in sorted(runs(Path(path).read_text(encoding="utf-8")))]
    FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} fingerprints to {FILE}")
