"""Rebuild the animal-battle gauntlet (deckcli/build/gauntlet/animal-battle/) from a seed: a
field of strong, different decks found by the builder itself, by a double-oracle loop.

The field starts as one deck, the example binder's strongest cards (what ``build`` starts from
on examples/collections/binder.txt). Each round draws ``--binders`` pools of cards: binders
drawn at random (from the seed) in the example binder's image, for each of its Animals two
copies of one of about the same worth, and as many action cards: each a binder another player
might own, about as strong as the example's but of other cards. From each, the
builder's own search (deckcli.build.search: the start, the moves, the objective and the
acceptance rule ``build`` uses, expert play) builds against the field so far; the deck that
scores best against the field on fresh games, and is not in the field already, is the round's
best response and joins the field (a round whose decks are all in the field already ends the
loop: the field is closed under the builder's best response). The gauntlet is the last
``--keep`` decks added: strong (each the best of several responses to the decks before it),
different (each from its own binder, none repeats) and at a player's binder's strength, so a
build meets matchups it can still win or lose.

    python benchmarks/gauntlet.py --seed 1            # writes the gauntlet folder
    python benchmarks/gauntlet.py --seed 1 --out DIR  # elsewhere, to compare

The same seed writes the same files (one process; every game's seed comes from the run's).
Not part of the tests: it plays about 16,000 games (3 minutes of CPU; 15 on a loaded machine).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binder", default=str(REPO / "examples" / "collections" / "binder.txt"),
                        help="the collection whose strongest deck starts the field")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", type=int, default=3)
    parser.add_argument("--games", type=int, default=1500, help="search games a climb")
    parser.add_argument("--binders", type=int, default=2, help="binders drawn a round, each "
                        "the pool of one climb (the best on fresh games joins the field)")
    parser.add_argument("--measure", type=int, default=200,
                        help="fresh games against each field deck to choose the best response")
    parser.add_argument("--policy", default="expert")
    parser.add_argument("--out", default=str(REPO / "deckcli" / "build" / "gauntlet" /
                                             "animal-battle"))
    args = parser.parse_args(argv)

    from deckcli.build.collection import read_binder
    from deckcli.build.explain import measure
    from deckcli.build.search import Judge, objective, search, strongest
    from deckcli.cards import open_index
    from deckcli.games import get
    from deckcli.sim.play import game_seed
    from deckcli.sim.run import house_rules, load_deck
    from deckcli.sim.where import Local

    game = get("animal-battle")
    index = open_index()
    first = strongest(read_binder(args.binder, index, game.id, "casual"))
    with tempfile.TemporaryDirectory() as tmp:
        start = read_binder(args.binder, index, game.id, "casual")
        paths = [_write(Path(tmp) / "round-0.txt", start, first, "Round 0", args.seed, 0)]
        seen = {_fingerprint(paths[0])}
        for n in range(1, args.rounds + 1):
            opponents = [load_deck(str(p), index, game.id) for p in paths]
            scored = []
            for b in range(args.binders):  # each binder's best response, on fresh games
                pool = _pool(index, start, random.Random(game_seed(args.seed, f"pool:{n}:{b}")),
                             Path(tmp) / f"pool-{n}-{b}.txt")
                binder = read_binder(str(pool), index, game.id, "casual")
                judge = Judge(game, binder, opponents, policy=args.policy,
                              house=house_rules(game, {}, {}), seed=game_seed(args.seed, n),
                              max_turns=200, where=Local())
                cand, stats = search(judge, binder, random.Random(game_seed(args.seed, n)),
                                     games=args.games, budget=None)
                rates = [m["win_rate"] if m["decided"] else 0.5 for m in
                         measure(judge, cand.cards(binder), args.measure, "fresh")]
                path = _write(Path(tmp) / f"round-{n}-{b}.txt", binder, cand, f"Round {n}",
                              args.seed, n)
                scored.append((objective(rates), rates, path))
                print(f"round {n}, binder {b + 1}: {stats['improved']} steps taken of "
                      f"{stats['steps']}; against the field: " +
                      ", ".join(f"{r:.0%}" for r in rates), flush=True)
            new = [t for t in scored if _fingerprint(t[2]) not in seen]
            if not new:
                print(f"round {n}: every deck found is in the field: it is closed")
                break
            _, rates, path = max(new, key=lambda t: t[0])
            seen.add(_fingerprint(path))
            paths.append(path)
            print(f"round {n}: joins the field: " + ", ".join(f"{r:.0%}" for r in rates),
                  flush=True)
        kept = paths[-args.keep:]
        os.makedirs(args.out, exist_ok=True)
        for old in Path(args.out).iterdir():
            if old.suffix in (".txt", ".yaml", ".json"):
                old.unlink()
        for k, p in enumerate(kept, 1):
            text = p.read_text(encoding="utf-8").replace(
                f"name: Round {p.stem.split('-')[1]}", f"name: Field {k}")
            text = text.replace(f"round {p.stem.split('-')[1]} (", f"round {p.stem.split('-')[1]}, "
                                f"kept as field-{k} (")
            (Path(args.out) / f"field-{k}.txt").write_text(text, encoding="utf-8")
            print(f"wrote {Path(args.out) / f'field-{k}.txt'} (from {p.stem})")
    return 0


def _pool(index, like, rng: random.Random, path: Path, near: int = 6) -> Path:
    """A binder drawn with ``rng`` in the image of ``like``: for each Animal of ``like``, two
    copies of an Animal of about its worth (one of the ``near`` database Animals ranked
    nearest it, by the worth ``build`` starts from), and as many action cards, so a pool is
    as strong as ``like`` but holds other cards."""
    from deckcli.games import get
    from deckcli.games.base import CardInfo

    game = get("animal-battle")
    cards = sorted(index.all_cards(game.id), key=lambda c: c.ref)
    worth = game.card_worth({c.id: CardInfo.of(c) for c in cards})
    animals = sorted((c for c in cards if c.kind == "animal"), key=lambda c: (-worth[c.id], c.ref))
    rank = {c.id: k for k, c in enumerate(animals)}
    taken: set[int] = set()
    lines = []
    mine = sorted({s.identity for s in like.stock if s.info.kind == "animal"},
                  key=lambda i: rank.get(i, len(animals)))
    for ident in mine:
        k = rank.get(ident, len(animals) - 1)
        around = [c for c in animals[max(0, k - near // 2):k + near // 2 + 1]
                  if c.id not in taken]
        pick = rng.choice(around or [c for c in animals if c.id not in taken])
        taken.add(pick.id)
        lines.append(f"2 {pick.ref}")
    actions = [c for c in cards if c.kind != "animal"]
    held = len({s.identity for s in like.stock if s.info.kind != "animal"})
    lines += [f"2 {c.ref}" for c in rng.sample(actions, min(held, len(actions)))]
    path.write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")
    return path


def _fingerprint(path: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(path), "-O", "json"],
                          capture_output=True, text=True)
    import json

    return json.loads(done.stdout)["decks"][0]["fingerprint"]


def _write(path: Path, binder, cand, name: str, seed: int, n: int) -> Path:
    """The deck as a casual decklist, in fmt's form."""
    head = [f"# A gauntlet deck: benchmarks/gauntlet.py --seed {seed}, round {n} (the best "
            "response to the decks before it).", "game: animal-battle", "format: casual",
            f"name: {name}"]
    path.write_text("\n".join([*head, *cand.lines(binder)]) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "deckcli", "fmt", str(path)], check=True,
                   capture_output=True)
    return path


if __name__ == "__main__":
    sys.exit(main())
