"""Where alpha-walrus's players stood on the last ladder measured (docs/simulate.md,
"Ladder"): Bradley-Terry ratings against ``greedy`` with their bootstrap 95% intervals, from
``python benchmarks/ladder.py --game alpha-walrus --players random,greedy,expert,search:8
--search 8 --games 20 --seed 1`` (240 games on the 2-player example deck, default house
rules). Reports name a policy's standing from it; run the ladder again and update both when a
player changes."""

LADDER = {
    "measured": "benchmarks/ladder.py --game alpha-walrus --games 20 --search 8 --seed 1",
    "anchor": "greedy",
    "players": {
        "expert": {"rating": 271, "ci95": [192, 366]},
        "search:8": {"rating": 265, "ci95": [189, 359]},
        "greedy": {"rating": 0, "ci95": [0, 0]},
        "random": {"rating": -326, "ci95": [-488, -223]},
    },
}
