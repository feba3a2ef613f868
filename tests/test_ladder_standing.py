"""Every report names the players behind its numbers and where they stand on the game's
ladder (the ratings of the last measured ladder, which docs/simulate.md's table shows)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, run

GOOD = EXAMPLES / "good"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "simulate.md"


def _table(game: str = "animal-battle") -> dict[str, int]:
    """docs/simulate.md's ladder table of ``game`` (the one after 'Where the policies stand
    (GAME' names it): player -> rating."""
    text = DOCS.read_text(encoding="utf-8")
    start = next(m.end() for m in re.finditer(r"^Where the policies stand \(([a-z-]+)",
                                                 text, flags=re.M) if m.group(1) == game)
    table = re.search(r"(?:^\|.*\n)+", text[start:], flags=re.M)
    assert table is not None
    rows = re.findall(r"^\| `([a-z:0-9]+)` \| ([+-]?\d+) \|", table.group(0), flags=re.M)
    return {name: int(rating) for name, rating in rows}


@pytest.mark.parametrize("game", ["animal-battle", "alpha-walrus"])
def test_the_ladder_reports_read_is_the_one_the_docs_show(game):
    from deckcli.games import get

    players = get(game).ladder()["players"]
    assert {p: v["rating"] for p, v in players.items()} == _table(game)
    for v in players.values():
        assert v["ci95"][0] <= v["rating"] <= v["ci95"][1]


def test_a_standing_is_the_rank_by_rating_and_a_search_budget_is_read_from_the_one_rated():
    from deckcli.games import get
    from deckcli.sim.ladder import standing, words

    game = get("animal-battle")
    ratings = _table()
    order = sorted(ratings, key=lambda p: -ratings[p])
    for p in ratings:
        found = standing(game, p)
        assert found is not None and found["rank"] == order.index(p) + 1
        assert found["of"] == len(ratings) and found["rating"] == ratings[p]
    rated = next(p for p in ratings if p.startswith("search"))
    found = standing(game, "search:64")
    assert found is not None and found["rated"] == rated
    assert f"rated as {rated}" in words("search:64", found)
    assert standing(game, "cautious") is None
    assert words("cautious", None) == "cautious: not on a measured ladder"


def test_simulate_build_and_suggest_name_each_policy_and_its_standing():
    ratings = _table()
    order = sorted(ratings, key=lambda p: -ratings[p])
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    a, b = GOOD / "casual-savanna.yaml", GOOD / "casual-rainforest.json"
    r = run("simulate", a, b, "--games", "4", "--seed", "1", "--policy-a", "greedy",
            "--policy-b", "expert", "--jobs", "1")
    assert r.code == 0, r
    text = " ".join(r.out.split())
    for p in ("greedy", "expert"):
        assert f"{p}: {ordinal[order.index(p) + 1]} of {len(order)} on the ladder" in text, r
    j = run("simulate", a, b, "--games", "4", "--seed", "1", "--policy-a", "greedy",
            "--policy-b", "expert", "--jobs", "1", "-O", "json").json()
    assert {p: j["ladder"][p]["rank"] for p in ("greedy", "expert")} == {
        p: order.index(p) + 1 for p in ("greedy", "expert")}
    s = run("suggest", a, "--collection", EXAMPLES / "collections" / "binder.txt", "--games",
            "20", "--measure", "2", "--seed", "1", "--jobs", "1", "--policy", "random")
    assert s.code == 0, s
    assert f"players: random: {ordinal[order.index('random') + 1]} of {len(order)}" in s.out, s
    aw = _table("alpha-walrus")
    order = sorted(aw, key=lambda p: -aw[p])
    w = run("simulate", GOOD / "alpha-walrus-2p.yaml", "--games", "2", "--seed", "1",
            "--policy", "random", "--jobs", "1")
    assert w.code == 0, w
    assert f"players: random: {ordinal[order.index('random') + 1]} of {len(order)}" in w.out, w
