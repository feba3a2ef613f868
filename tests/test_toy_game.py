"""A third game proves the game interface: toy-duel (tests/toygame/), added exactly as
docs/design.md says (a package declaring GAME, registered with DECKCLI_GAMES), runs through every
generic command with no change outside its own package: validate, rules, db check, setup,
simulate with every generic policy (search included), referee check and legal on the logs it
saves, and build. Every algorithm runs on every game."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO, Result

TOY = REPO / "tests" / "toygame"
DB = TOY / "card_db"
HIGH, LOW, SHORT = (TOY / "decks" / f"{n}.txt" for n in ("high", "low", "short"))


def toy(*args) -> Result:
    """``deckcli ARGS`` in a new process with toy-duel registered as docs/design.md says."""
    env = {**os.environ, "DECKCLI_GAMES": "toygame",
           "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}
    args = tuple(str(a) for a in args)
    proc = subprocess.run([sys.executable, "-m", "deckcli", *args], env=env,
                          capture_output=True, text=True, timeout=600)
    return Result(proc.returncode, proc.stdout, proc.stderr, args)


def test_validate_and_the_rules_reference_are_the_games_own():
    r = toy("validate", HIGH, SHORT, "--db", DB, "-O", "json")
    assert r.code == 1, r
    decks = {d["path"].rsplit("/", 1)[-1]: d for d in r.json()["decks"]}
    assert decks["high.txt"]["legal"] and decks["high.txt"]["game"] == "toy-duel", r
    assert [p["rule"] for p in decks["short.txt"]["problems"]] == ["TD-1.2"], r
    r = toy("rules", "--game", "toy-duel", "-O", "json")
    assert r.code == 0 and {x["id"] for x in r.json()} >= {"TD-1.1", "TD-3.3", "TD-G.1"}, r
    r = toy("db", "check", "--db", DB)
    assert r.code == 0, r


def test_setup_deals_from_the_games_own_deal():
    r = toy("setup", HIGH, "--db", DB, "--seed", "3")
    assert r.code == 0 and "toy-duel setup, seed 3" in r.out, r


@pytest.mark.parametrize("policy", ["random", "greedy", "search:8"])
def test_simulate_plays_every_generic_policy_and_every_saved_log_checks_clean(policy, tmp_path):
    r = toy("simulate", HIGH, LOW, "--db", DB, "--games", "6", "--seed", "2", "--policy",
            policy, "--save-games", tmp_path, "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert data["game"] == "toy-duel" and data["policies"]["a"] == policy, data
    assert data["results"]["a"] + data["results"]["b"] == 6, data
    for n in range(1, 7):
        check = toy("referee", "check", tmp_path / f"game-{n:05d}.yaml", "--db", DB, "-O", "json")
        assert check.code == 0 and check.json()["legal"], check
    legal = toy("referee", "legal", tmp_path / "game-00001.yaml", "--db", DB, "-O", "json")
    assert legal.code == 0 and legal.json()["winner"] in ("p1", "p2"), legal


def test_the_stronger_deck_wins_under_every_policy_but_random():
    """A deck of sevens to nines against threes to fives: the higher card takes every trick
    (TD-3.3), so any policy that plays its cards at all wins every game with it."""
    for policy in ("greedy", "search:8"):
        r = toy("simulate", HIGH, LOW, "--db", DB, "--games", "10", "--seed", "5", "--policy",
                policy, "-O", "json")
        assert r.json()["results"]["a"] == 10, r


def test_build_makes_a_legal_deck_from_a_collection(tmp_path):
    out = tmp_path / "built.txt"
    r = toy("build", "--collection", TOY / "binder.txt", "--game", "toy-duel", "--db", DB,
            "--against", LOW, "--games", "40", "--measure", "10", "--seed", "1", "-o", out,
            "-O", "json")
    assert r.code == 0, r
    assert r.json()["game"] == "toy-duel", r
    check = toy("validate", out, "--db", DB, "-O", "json")
    assert check.code == 0 and check.json()["decks"][0]["game"] == "toy-duel", check


def _registered_toy(monkeypatch):
    """toy-duel registered in this process for one test, as DECKCLI_GAMES would register it
    (its card database names it: without it, reading the database is an error, whatever
    index an earlier test left in the cache): the game, its engine, two decks of every card
    twice and the house rules a simulation plays."""
    monkeypatch.syspath_prepend(str(REPO / "tests"))
    import toygame

    from deckcli import games
    from deckcli.cards import open_index

    game = toygame.GAME
    monkeypatch.setitem(games.GAMES, game.id, game)
    index = open_index([str(DB)])
    cards = [game.play_card(c) for c in index.all_cards(game.id)]
    return (game, game.engine(), {"p1": cards * 2, "p2": cards * 2},
            game.house_rules({}, simulate=True))


def test_search_sees_only_what_its_player_may_know(monkeypatch):
    """Positions of real toy-duel games and twins that differ only in what the mover cannot
    see (the other hand, the decks' order): the view is the same, and so is the choice. The
    game is registered in this process for the test alone, as DECKCLI_GAMES would register
    it (its card database names it: without it, reading the database is an error, whatever
    index an earlier test left in the cache)."""
    import random

    from deckcli.sim.policies import make

    game, engine, decks, house = _registered_toy(monkeypatch)
    search = make(game, "search:16")
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        state = engine.new_game(decks, seats=["p1", "p2"], seed=seed, house_rules=house)
        while not engine.is_over(state):
            mover, legal = engine.choices(state)
            if len(legal) > 1:
                twin = engine.clone(state)
                other = twin.other(mover)
                hidden = twin.hands[other] + twin.decks[other]
                rng.shuffle(hidden)
                k = len(twin.hands[other])
                twin.hands[other], twin.decks[other] = hidden[:k], hidden[k:]
                rng.shuffle(twin.decks[mover])
                views = [engine.view(s, mover) for s in (state, twin)]
                assert views[0].public() == views[1].public()
                picks = [search.choose(engine, v, legal, random.Random(9)) for v in views]
                assert picks[0] == picks[1]
                checked += 1
            engine.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 20


def test_the_policy_names_include_the_generic_ones():
    r = toy("simulate", HIGH, LOW, "--db", DB, "--policy", "clever")
    assert r.code == 2 and "random, greedy, search" in r.err, r


def test_an_unimportable_plugin_is_a_usage_error():
    env = {**os.environ, "DECKCLI_GAMES": "no_such_game_package"}
    proc = subprocess.run([sys.executable, "-m", "deckcli", "validate",
                           str(REPO / "examples/good/championship-deep-divers.txt")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "no_such_game_package" in proc.stderr, proc
    assert "Traceback" not in proc.stderr, proc.stderr


def test_search_keeps_its_heuristics_choice_unless_it_finds_better(monkeypatch):
    """The search starts from the game's strongest heuristic (toy-duel's greedy) and plays
    another action only when its iterations score that action clearly higher: with one
    iteration a decision nothing can score higher, so search:1 plays exactly what the
    heuristic plays, from the same generator, at every choice of real games; with more
    iterations it does overrule the heuristic somewhere."""
    import random

    from deckcli.sim.policies import make

    game, engine, decks, house = _registered_toy(monkeypatch)
    heuristic, one, many = make(game, "greedy"), make(game, "search:1"), make(game, "search:200")
    rng = random.Random(4)
    checked = overruled = 0
    for seed in range(8):
        state = engine.new_game(decks, seats=["p1", "p2"], seed=seed, house_rules=house)
        while not engine.is_over(state):
            mover, legal = engine.choices(state)
            if len(legal) > 1:
                view = engine.view(state, mover)
                hint = heuristic.choose(engine, view, legal, random.Random(seed))
                assert one.choose(engine, view, legal, random.Random(seed)) == hint
                overruled += many.choose(engine, view, legal, random.Random(seed)) != hint
                checked += 1
            engine.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 20 and overruled > 0, (checked, overruled)
