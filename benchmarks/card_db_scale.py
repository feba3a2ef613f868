"""Card database at scale: is catalogue size nearly free for a deck check?

Generates a synthetic database of 100,000 printings in the real schema (20 set files of 5,000),
builds the index once from nothing (every file parsed: the full build, reported), then changes
one statistic of one card in one file and builds again (`db build`: only that file is parsed,
and its rows are replaced in the last index). For comparison it then builds once more with no
last index (every file linked again, the unchanged ones from the compiled files kept by content
hash: what a change that reaches into other files costs). Then it times a cold
`deckcli validate` of one 60-card deck against the 100k database and against the bundled one,
alternating, in one run.

Goals: validate 100k / bundled <= 1.1, peak memory of validate < 60 MiB (issue "Card database
at scale"); one changed file rebuilt / the full build <= 0.1 (issue "Performance, round two").

    python benchmarks/card_db_scale.py [--printings 100000] [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from _common import REPO, compare, deckcli_cmd, ms, run_once

STAT_LINE = ("{{weight: {w}, speed: {s}, lifespan: {l}, population: {p}, length: {n}, "
             "max_depth: {d}}}")


def generate(folder: Path, printings: int, per_file: int = 5000) -> None:
    """One identity per 3 printings: a base card, an alternate-art and a promo version."""
    n_files = (printings + per_file - 1) // per_file
    made = 0
    for f in range(n_files):
        code = f"S{f:03d}"
        lines = [f"# synthetic set {f}", "game: animal-battle",
                 f"set: {{code: {code}, name: Synthetic {f}, released: 2026-01-01}}", "cards:"]
        i = 0
        while i < per_file and made < printings:
            k = f * per_file + i
            name = f"Synthetic Beast {k:06d}"
            stats = STAT_LINE.format(w=10 + k % 5000, s=1 + k % 300, l=1 + k % 150,
                                     p=100 + k * 7 % 10**7, n=0.1 + k % 200 / 10, d=k % 3000)
            lines.append(f'  - {{number: "{i + 1}", name: {name}, kind: animal, '
                         f"stats: {stats}, variants: [foil]}}")
            made += 1
            i += 1
            if made < printings and i < per_file:
                lines.append(f'  - {{number: "A{i}", name: {name}, version_of: "{i}", '
                             "variants: [alternate-art]}")
                made += 1
                i += 1
            if made < printings and i < per_file:
                lines.append(f'  - {{number: "P{i - 1}", name: {name}, version_of: "{i - 1}", '
                             "variants: [promotional]}")
                made += 1
                i += 1
        (folder / f"{code}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--printings", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    cmd = deckcli_cmd()
    deck = REPO / "examples" / "good" / "championship-deep-divers.txt"
    with tempfile.TemporaryDirectory(prefix="deckcli-scale-") as tmp:
        tmp = Path(tmp)
        db = tmp / "db"
        db.mkdir()
        t0 = time.perf_counter()
        generate(db, args.printings)
        gen = time.perf_counter() - t0
        env = {"DECKCLI_CACHE_DIR": str(tmp / "cache")}
        build_s, code, build_rss = run_once([*cmd, "--db", str(db), "db", "build"], env)
        assert code == 0, "db build failed"
        edited = db / "S001.yaml"  # one statistic of the file's first card
        text = edited.read_text(encoding="utf-8")
        edited.write_text(text.replace("weight: ", "weight: 1", 1), encoding="utf-8")
        one_s, code, _rss = run_once([*cmd, "--db", str(db), "db", "build"], env)
        assert code == 0, "db build after one change failed"
        for index in (tmp / "cache").glob("index-*"):  # no last index to patch
            index.unlink()
        linked_s, code, _rss = run_once([*cmd, "--db", str(db), "db", "build"], env)
        assert code == 0, "db build from the kept files failed"
        # warm the bundled index too, then measure both side by side
        run_once([*cmd, "validate", str(deck)], env)
        res = compare({"bundled": [*cmd, "validate", str(deck)],
                       "100k": [*cmd, "--db", str(db), "validate", str(deck)]},
                      runs=args.runs, env=env)
    ratio = res["100k"]["median"] / res["bundled"]["median"]
    peak_mib = res["100k"]["rss_kib"] / 1024
    files = len(range(0, args.printings, 5000))
    print(f"synthetic database: {args.printings:,} printings in {files} files "
          f"(generated in {gen:.1f} s)")
    print(f"index build (deckcli db build): {build_s:.1f} s, peak {build_rss / 1024:.0f} MiB")
    one = one_s / build_s
    print(f"one changed file rebuilt (deckcli db build): {one_s:.2f} s, {one:.3f} of the full "
          f"build (goal <= 0.1: {'met' if one <= 0.1 else 'NOT met'})")
    print(f"every file linked again, none parsed (no last index): {linked_s:.2f} s, "
          f"{linked_s / build_s:.3f} of the full build")
    print(f"validate 60-card deck, bundled db : median {ms(res['bundled']['median'])}")
    print(f"validate 60-card deck, 100k db    : median {ms(res['100k']['median'])}, "
          f"peak {peak_mib:.1f} MiB")
    met = "met" if ratio <= 1.1 else "NOT met"
    print(f"ratio 100k / bundled: {ratio:.2f} (goal <= 1.1: {met})")
    met = "met" if peak_mib < 60 else "NOT met"
    print(f"peak memory: {peak_mib:.1f} MiB (goal < 60 MiB: {met})")
    print("RESULT " + json.dumps({"ratio": round(ratio, 3), "peak_mib": round(peak_mib, 1),
                                  "build_s": round(build_s, 1),
                                  "one_file_s": round(one_s, 2),
                                  "one_file_ratio": round(one, 3),
                                  "linked_s": round(linked_s, 2),
                                  "linked_ratio": round(linked_s / build_s, 3)}))


if __name__ == "__main__":
    main()
