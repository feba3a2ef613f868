"""Where animal-battle's players stood on the last ladder measured (docs/simulate.md,
"Ladder"): Bradley-Terry ratings against ``greedy`` with their bootstrap 95% intervals, from
``python benchmarks/ladder.py --jobs 2 --games 20 --search 16 --seed 1`` (1,080 games on the
three example decks, mirrors and mismatched pairs, default house rules). Reports name a
policy's standing from it; run the ladder again and update both when a player changes."""

LADDER = {
    "measured": "benchmarks/ladder.py --games 20 --search 16 --seed 1, example decks",
    "anchor": "greedy",
    "players": {
        "search:16": {"rating": 164, "ci95": [138, 189]},
        "expert": {"rating": 152, "ci95": [125, 178]},
        "greedy": {"rating": 0, "ci95": [0, 0]},
        "random": {"rating": -846, "ci95": [-942, -741]},
    },
}
