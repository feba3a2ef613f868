"""deckcli simulate: games played through the referee's own engine, reports people can trust.

The report's shape is the interface's; the numbers are checked against what the rules and the
seed decide (pairs from the same shuffles, the same report wherever the games run, every saved
game a log the referee replays clean), never against themselves.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest
from conftest import EXAMPLES, run, run_on_cluster

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"
RAINFOREST = GOOD / "casual-rainforest.json"
AW2 = GOOD / "alpha-walrus-2p.yaml"


def sim(*args) -> dict:
    r = run("simulate", *map(str, args), "-O", "json")
    assert r.code == 0, r
    return r.json()


# -- the report ------------------------------------------------------------------------------------
def test_the_json_report_has_the_interfaces_shape():
    data = sim(DEEP, SAVANNA, "--games", "20", "--seed", "7", "--jobs", "1")
    assert {"version", "game", "seed", "games", "decks", "policies", "house_rules", "results",
            "win_rate", "gaps", "turns", "actions"} <= set(data)
    assert data["version"] == 1 and data["game"] == "animal-battle" and data["seed"] == 7
    assert data["games"] == 20 and set(data["decks"]) == {"a", "b"}
    assert data["decks"]["a"]["path"].endswith("championship-deep-divers.txt")
    assert data["decks"]["a"]["fingerprint"] == run("validate", DEEP, "-O", "json").json()[
        "decks"][0]["fingerprint"]
    assert data["policies"] == {"a": "expert", "b": "expert"}  # the default
    r = data["results"]
    assert set(r) == {"a", "b", "undecided"} and r["a"] + r["b"] + r["undecided"] == 20
    assert data["win_rate"]["a"] == round(r["a"] / (r["a"] + r["b"]), 4)
    assert set(data["turns"]) == {"mean", "max"} and data["actions"] > 20
    assert all(h["source"] == "default" for h in data["house_rules"])


@pytest.mark.parametrize("wins,n,interval", [
    (612, 983, [0.5918, 0.6524]),   # the interface's own example
    (0, 10, [0.0, 0.2776]),         # no win is not a rate of exactly 0
    (10, 10, [0.7224, 1.0]),
    (50, 100, [0.4038, 0.5962]),
])
def test_wilson_intervals_rounded_outward(wins, n, interval):
    from deckcli.sim.report import interval as wilson_interval

    assert wilson_interval(wins, n)["ci95"] == interval


def test_the_same_seed_gives_the_same_report_on_one_process_or_many():
    base = ["simulate", DEEP, SAVANNA, "--games", "60", "--seed", "11", "-O", "json"]
    one = run(*base, "--jobs", "1")
    two = run(*base, "--jobs", "2")
    auto = run(*base)
    assert one.code == two.code == auto.code == 0
    assert one.out == two.out == auto.out
    other = run("simulate", DEEP, SAVANNA, "--games", "60", "--seed", "12", "-O", "json")
    assert other.json()["results"] != one.json()["results"] or \
        other.json()["actions"] != one.json()["actions"]


def test_jobs_takes_what_validate_jobs_takes_and_starts_no_more_workers_than_chunks():
    """--jobs is read as validate's (auto in any case, 0 to 256; anything else a usage
    error) and a run starts no more worker processes than it has chunks of games to hand
    out: '--jobs 10000' for 4 games forked 10,000 processes (out of memory, orphans left)."""
    from deckcli.sim.where import CHUNK, Local, Pool, backend

    base = ["simulate", DEEP, SAVANNA, "--games", "4", "--seed", "11", "-O", "json"]
    for bad in ("257", "10000", "-1", "many"):
        r = run(*base, "--jobs", bad)
        assert r.code == 2 and "--jobs" in r.err and not r.out, r
    assert run(*base, "--jobs", "AUTO").out == run(*base, "--jobs", "1").out
    assert isinstance(backend(256, None, 4), Local)
    pool = backend(256, None, 3 * CHUNK)
    try:
        assert isinstance(pool, Pool) and pool.jobs == 3
    finally:
        pool.close()


def test_games_are_seat_swapped_pairs_from_the_same_shuffles(tmp_path):
    sim(DEEP, SAVANNA, "--games", "6", "--seed", "5", "--save-games", tmp_path)
    from ruamel.yaml import YAML

    logs = [YAML(typ="safe").load(tmp_path / f"game-{n:05d}.yaml") for n in range(1, 7)]
    for k in range(3):
        first, second = logs[2 * k], logs[2 * k + 1]
        assert first["setup"]["seed"] == second["setup"]["seed"]
        assert first["setup"]["players"] == second["setup"]["players"]
        assert (first["setup"]["first"], second["setup"]["first"]) == ("p1", "p2")
    assert len({log["setup"]["seed"] for log in logs}) == 3


def test_every_saved_game_replays_clean(tmp_path):
    data = sim(DEEP, RAINFOREST, "--games", "10", "--seed", "3", "--save-games", tmp_path,
               "--policy-b", "random")
    winners = []
    for n in range(1, 11):
        r = run("referee", "check", tmp_path / f"game-{n:05d}.yaml", "-O", "json")
        assert r.code == 0, r
        check = r.json()
        assert check["violations"] == [] and check["stopped"] is None
        assert check["replayed"] == check["actions"]
        winners.append(check["final"]["winner"])
    counted = {"a": winners.count("p1"), "b": winners.count("p2")}
    assert counted == {k: data["results"][k] for k in ("a", "b")}


# -- policies --------------------------------------------------------------------------------------
def test_greedy_beats_random_with_the_same_deck():
    data = sim(DEEP, DEEP, "--games", "100", "--seed", "2", "--policy-a", "greedy",
               "--policy-b", "random")
    assert data["win_rate"]["ci95"][0] > 0.5, data["win_rate"]


def test_search_beats_greedy_with_the_same_deck():
    """Under the default hidden Pools (AB-G.10), whose Animals search's deals must guess: a
    small search, starting from expert's choices and playing expert's playouts, beats greedy
    with the same deck."""
    data = sim(SAVANNA, SAVANNA, "--games", "40", "--seed", "4", "--policy-a", "search:8",
               "--policy-b", "greedy", "--jobs", "2")
    assert data["policies"] == {"a": "search:8", "b": "greedy"}
    assert data["win_rate"]["ci95"][0] > 0.5, data["win_rate"]


def _hidden_twin(match, viewer: str, rng):
    """The same game with what ``viewer`` cannot see rearranged: the other player's hand,
    deck and the Animals of their Pool the viewer was not shown (pool_visibility=hidden, the
    default) dealt again, the viewer's deck reordered below the top it saw."""
    twin = match.clone()
    book = match.book
    seen = (match.s.seen_top or {}).get(viewer, 0)
    for pid, p in twin.s.players.items():
        if pid == viewer:
            below = p.deck[:len(p.deck) - seen]
            rng.shuffle(below)
            p.deck[:len(below)] = below
            continue
        known = list((match.s.known or {}).get(viewer, {}).get(pid, ()))
        pool, unknown = [], []
        for c in p.pool:
            if c in known:
                known.remove(c)
                pool.append(c)
            else:
                unknown.append(c)
        cards = p.hand + p.deck + unknown
        rng.shuffle(cards)
        for c in list(cards):
            if len(pool) == len(p.pool):
                break
            if book[c].animal:
                pool.append(c)
                cards.remove(c)
        p.pool, p.hand, p.deck = pool, cards[:len(p.hand)], cards[len(p.hand):]
    return twin


EFFECTS_DECK = ("4 Orca\n4 Walrus\n4 Narwhal\n4 Vaquita\n4 Blue Whale\n4 Sea Otter\n"
                "4 Herd Instinct\n4 Field Guide\n4 Tidal Migration\n4 Scout Ahead\n"
                "4 Rainy Season\n4 Canopy Lookout\n4 Tag Team\n4 Second Wind\n")


@pytest.mark.parametrize("deck_text", [None, EFFECTS_DECK], ids=["deep-divers", "effects"])
def test_a_policy_sees_only_what_its_player_may_know(index, tmp_path, deck_text):
    """Positions of real games, and twins that differ only in what the mover cannot know:
    the opponent's hand, the order of the decks below what the mover saw of its own, the
    Animals of a hidden Pool it was not shown. Every policy's view is the same, and so is its
    choice."""
    from deckcli.games import get
    from deckcli.sim.policies import make
    from deckcli.sim.run import load_deck

    game = get("animal-battle")
    engine = game.engine()
    path = DEEP
    if deck_text is not None:
        path = tmp_path / "effects.txt"
        path.write_text(deck_text, encoding="utf-8")
    deck = load_deck(str(path), index, None)
    house = game.house_rules({}, simulate=True)
    rng = random.Random(1)
    checked = 0
    for seed in range(4):
        match = engine.new_game({"p1": deck.cards, "p2": deck.cards}, seats=["p1", "p2"],
                                seed=seed, house_rules=house, first="p1")
        for _ in range(400):
            if engine.is_over(match):
                break
            actions = engine.legal_actions(match)
            mover = engine.to_move(match)
            if mover is not None and len(actions) > 1:
                twin = _hidden_twin(match, mover, rng)
                if twin.s.players != match.s.players:
                    for name in ("random", "greedy", "expert", "search:3"):
                        policy = make(game, name)
                        views = [engine.view(m, mover) for m in (match, twin)]
                        assert views[0].public() == views[1].public()
                        picks = [policy.choose(engine, v, actions, random.Random(9))
                                 for v in views]
                        assert picks[0] == picks[1], (name, picks)
                    checked += 1
            engine.apply(match, actions[rng.randrange(len(actions))])
    assert checked > 50


def test_an_unknown_policy_exits_2_naming_the_known_ones():
    r = run("simulate", DEEP, SAVANNA, "--policy", "clever")
    assert r.code == 2 and "unknown policy 'clever'" in r.err and "greedy" in r.err, r
    r = run("simulate", AW2, "--game", "alpha-walrus", "--policy", "clever")
    assert r.code == 2 and "unknown policy 'clever' for alpha-walrus" in r.err, r
    assert "search" in r.err, r  # search is every game's
    r = run("simulate", DEEP, SAVANNA, "--policy", "clever")
    assert "search:N sets its iterations a decision" in r.err, r


# -- gaps and house rules --------------------------------------------------------------------------
def test_house_rules_come_from_the_command_line_then_the_event_then_the_defaults(tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nhouse_rules: {stat_tie: challenger, "
                     "original_defender_wins: as_replacement}\n", encoding="utf-8")
    data = sim(DEEP, SAVANNA, "--games", "10", "--seed", "1", "--event", event,
               "--house-rule", "stat_tie=replay")
    used = {h["key"]: (h["value"], h["source"]) for h in data["house_rules"]}
    assert used["stat_tie"] == ("replay", "house-rule")
    assert used["original_defender_wins"] == ("as_replacement", "event")
    assert used["decline_promote"] == ("attack_ends", "default")
    assert len(used) == 10  # every gap of the game, each with the value the games used


def test_gaps_count_the_games_that_met_them(tmp_path):
    data = sim(DEEP, SAVANNA, "--games", "12", "--seed", "8", "--save-games", tmp_path)
    met = {}
    for n in range(1, 13):
        check = run("referee", "check", tmp_path / f"game-{n:05d}.yaml", "-O", "json").json()
        for rule in {g["rule"] for g in check["gaps"]}:
            met[rule] = met.get(rule, 0) + 1
    assert data["gaps"] == dict(sorted(met.items())) and data["gaps"]


@pytest.mark.parametrize("value", [None, "becomes_challenger", "attack_ends"])
def test_a_defender_falling_on_the_last_statistic_is_counted_and_ruled(tmp_path, deck_file,
                                                                        value):
    """AB-G.9 (a Defender falls on the fifth statistic with an Animal left to promote): whales
    against small Animals, played at random, meet it; the report counts it and lists
    last_stat_promote (the default, or the value given), and every saved game replays clean
    under that value, which is the ruling applied where the gap was met."""
    big = deck_file("4 Blue Whale\n4 Fin Whale\n4 Orca\n4 Sperm Whale\n4 Elephant (DWV) 1\n",
                    "big.txt")
    small = deck_file("4 Sea Otter\n4 Adelie Penguin\n4 Emperor Penguin\n4 Harbor Porpoise\n"
                      "4 Weddell Seal\n", "small.txt")
    args = ["--house-rule", f"last_stat_promote={value}"] if value else []
    saved = tmp_path / "games"
    data = sim(big, small, "--games", "20", "--seed", "25", "--policy", "random", "--jobs", "1",
               "--save-games", saved, *args)
    used = {h["key"]: (h["value"], h["source"]) for h in data["house_rules"]}
    assert used["last_stat_promote"] == (value or "becomes_challenger",
                                         "house-rule" if value else "default")
    met = 0
    for n in range(1, 21):
        r = run("referee", "check", saved / f"game-{n:05d}.yaml", "-O", "json")
        assert r.code == 0 and r.json()["stopped"] is None, r
        rulings = [g["value"] for g in r.json()["gaps"] if g["rule"] == "AB-G.9"]
        assert set(rulings) <= {value or "becomes_challenger"}, rulings
        met += bool(rulings)
    assert met and data["gaps"].get("AB-G.9") == met


def test_a_bad_house_rule_exits_2():
    r = run("simulate", DEEP, SAVANNA, "--house-rule", "stat_tie=coin")
    assert r.code == 2 and "stat_tie=coin" in r.err and "--house-rule" in r.err, r


# -- how long a run is -----------------------------------------------------------------------------
def test_until_ci_stops_when_the_interval_is_narrow_enough():
    data = sim(DEEP, SAVANNA, "--games", "2000", "--seed", "6", "--until-ci", "0.3")
    lo, hi = data["win_rate"]["ci95"]
    assert data["games"] < 2000 and data["games"] % 100 == 0 and hi - lo <= 0.3 + 1e-4
    capped = sim(DEEP, SAVANNA, "--games", "40", "--seed", "6", "--until-ci", "0.01")
    assert capped["games"] == 40


def test_a_game_past_max_turns_is_undecided():
    data = sim(DEEP, DEEP, "--games", "10", "--seed", "1", "--max-turns", "2")
    assert data["results"]["undecided"] == 10 and data["win_rate"]["a"] is None
    assert data["win_rate"]["ci95"] == [0.0, 1.0]
    # the games played their 2 turns; the third had only begun when they were cut off
    assert data["turns"] == {"mean": 2.0, "max": 2}


# -- many decks ------------------------------------------------------------------------------------
def test_more_decks_play_every_pairing_in_a_matrix(tmp_path):
    out_csv, out_html = tmp_path / "m.csv", tmp_path / "m.html"
    r = run("simulate", DEEP, SAVANNA, RAINFOREST, "--games", "20", "--seed", "3", "--csv",
            out_csv, "--html", out_html, "-O", "json")
    assert r.code == 0, r
    data = r.json()
    m = data["matrix"]
    assert len(data["pairings"]) == 3 and [len(row) for row in m] == [3, 3, 3]
    for i in range(3):
        assert m[i][i] is None
        for j in range(3):
            if i != j and m[i][j] is not None:
                assert m[j][i] == round(1 - m[i][j], 4)  # A against B is 1 - B against A
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    assert len(rows) == 6 and {r["deck"] for r in rows} == {
        "championship-deep-divers.txt", "casual-savanna.yaml", "casual-rainforest.json"}
    assert "<table" in out_html.read_text() and "data-rate" in out_html.read_text()


def test_the_matrix_never_replaces_a_deck_it_plays(tmp_path):
    """`--csv`/`--html` naming one of the decks (named or found in the folder) used to replace
    that deck with the matrix, exit 0; it is refused before any game, exit 2, the deck kept."""
    for src in (DEEP, SAVANNA, RAINFOREST):
        (tmp_path / src.name).write_bytes(src.read_bytes())
    deck = tmp_path / DEEP.name
    for option in ("--csv", "--html"):
        for decks in ([tmp_path / p.name for p in (DEEP, SAVANNA, RAINFOREST)], [tmp_path]):
            r = run("simulate", *decks, "--games", "2", "--seed", "3", option, deck)
            assert r.code == 2 and "not replacing it" in r.err and str(deck) in r.err, r
    assert deck.read_bytes() == DEEP.read_bytes()


# -- alpha-walrus ------------------------------------------------------------------------------------
def test_a_shared_alpha_walrus_deck_reports_by_seat(tmp_path):
    data = sim(AW2, "--game", "alpha-walrus", "--games", "4", "--seed", "2", "--max-turns",
               "40", "--save-games", tmp_path)
    assert set(data["decks"]) == {"shared"} and set(data["policies"]) == {"p1", "p2"}
    assert set(data["results"]) == {"p1", "p2", "undecided"}
    assert sum(data["results"].values()) == 4 and "showdowns" in data
    assert (data["players"], data["players_default"]) == (2, True)  # the report says so
    for n in range(1, 5):
        r = run("referee", "check", tmp_path / f"game-{n:05d}.yaml", "-O", "json")
        assert r.code == 0 and r.json()["violations"] == [], r


def test_a_shared_deck_for_more_players_names_the_number_asked_for():
    data = sim(AW2, "--game", "alpha-walrus", "--players", "3", "--games", "3", "--seed", "2",
               "--max-turns", "30")
    assert (data["players"], data["players_default"]) == (3, False)
    assert set(data["policies"]) == {"p1", "p2", "p3"}
    text = run("simulate", AW2, "--game", "alpha-walrus", "--games", "2", "--seed", "2",
               "--max-turns", "30")
    assert "shared by 2 seats (the default number; " in text.out, text


# -- bad input ---------------------------------------------------------------------------------------
def test_an_illegal_deck_is_simulated_with_a_warning():
    r = run("simulate", EXAMPLES / "bad" / "casual-19.txt", SAVANNA, "--games", "4",
            "--seed", "1")
    assert r.code == 0 and "is not a legal deck, simulated anyway" in r.err, r
    assert "AB-1.3" in r.err


def test_a_deck_the_event_makes_illegal_is_simulated_with_a_warning(tmp_path):
    """With --event a deck is judged as validate --event judges it: the event's format, bans
    and legal sets (docs/commands.md: the flag, else the event file, else the deck's header)."""
    event = tmp_path / "event.yaml"
    event.write_text("name: E\nformat: championship\nbanned: [\"Blue Whale (ABS) 1\"]\n",
                     encoding="utf-8")
    r = run("simulate", DEEP, SAVANNA, "--games", "4", "--seed", "1", "--event", event)
    assert r.code == 0, r
    [deep] = [line for line in r.err.splitlines() if DEEP.name in line]
    [savanna] = [line for line in r.err.splitlines() if SAVANNA.name in line]
    assert "is not a legal deck" in deep and "EV-1.1" in deep and "Blue Whale" in deep, r
    assert "AB-1.4" in savanna, r  # 24 cards where the event's format needs 60
    plain = run("simulate", DEEP, SAVANNA, "--games", "4", "--seed", "1")
    assert "is not a legal deck" not in plain.err, plain


def test_a_deck_past_what_a_game_log_holds_is_not_dealt(tmp_path):
    """A casual deck has no upper size, and a file may list 4.8 million cards (999 copies an
    entry). A game is dealt from at most 100,000 cards, the most a game log's deck holds, so
    every saved game checks clean: past that, simulate, setup and build's --against stop at
    once (exit 2, the count said); at exactly 100,000 the deck is played, with its warning."""
    big = tmp_path / "big.txt"
    big.write_text("999 Walrus\n" * 50 + "999 Orca\n" * 50 + "101 Beluga\n", encoding="utf-8")
    for args in (("simulate", big, DEEP, "--games", "2"), ("simulate", DEEP, big, "--games", "2"),
                 ("setup", big), ("build", "--collection", DEEP, "--against", big, "--games",
                                  "20"),
                 ("suggest", big, "--collection", DEEP, "--games", "20")):
        r = run(*args, "--seed", "1")
        assert r.code == 2 and "Traceback" not in r.err, (args, r)
        assert "big.txt" in r.err and "100,001 cards" in r.err and "100,000" in r.err, r
    big.write_text("999 Walrus\n" * 50 + "999 Orca\n" * 50 + "100 Beluga\n", encoding="utf-8")
    # dealing the deck is the subject, not the play: random play (the default is expert)
    r = run("simulate", big, DEEP, "--games", "1", "--seed", "1", "--policy", "random",
            "--output", "json")
    assert r.code == 0 and "not a legal deck" in r.err, r
    assert json.loads(r.out)["games"] == 1


def test_save_games_writes_no_log_that_referee_check_would_refuse(tmp_path):
    """A saved game lists both decks card by card, and a game log holds at most 1 MiB: a log
    past that would not check, so none is written (exit 2, the size said). A deck of
    60,000 cards is played; only its saving is refused."""
    big = tmp_path / "big.txt"
    big.write_text("999 Walrus\n" * 30 + "999 Orca\n" * 30 + "60 Beluga\n", encoding="utf-8")
    saved = tmp_path / "games"
    # the log's size is the subject, not the play: random play (the default is expert)
    r = run("simulate", big, DEEP, "--games", "2", "--seed", "1", "--policy", "random",
            "--save-games", saved)
    assert r.code == 2 and "Traceback" not in r.err, r
    assert "game 1's log would take" in r.err and "1,024 KiB" in r.err, r
    assert not saved.exists() or not list(saved.iterdir())
    r = run("simulate", DEEP, SAVANNA, "--games", "2", "--seed", "1", "--save-games", saved)
    assert r.code == 0 and len(list(saved.iterdir())) == 2, r


def test_save_games_never_replaces_a_deck_it_plays(tmp_path):
    """A deck named like a saved game (DIR/game-00001.yaml) and played from DIR would be
    replaced by game 1's log: refused before any game, exit 2, the deck left as it was."""
    saved = tmp_path / "games"
    saved.mkdir()
    deck = saved / "game-00001.yaml"
    deck.write_bytes(SAVANNA.read_bytes())
    r = run("simulate", deck, DEEP, "--games", "2", "--seed", "1", "--save-games", saved)
    assert r.code == 2 and "not replacing it" in r.err and not r.out, r
    assert deck.read_bytes() == SAVANNA.read_bytes() and list(saved.iterdir()) == [deck]


@pytest.mark.parametrize("kind", ["directory", "read-only", "link-outside"])
def test_save_games_refuses_a_log_it_could_not_replace_before_any_game(tmp_path, kind):
    """A log name in DIR that the writer would refuse (a folder in its place, a read-only
    file, a link out of DIR) is found before any game, exit 2 naming it, and DIR is left as it
    was (was: found after every game was played, when game 1's log had already replaced the
    old one and game 2's could not)."""
    import os

    saved = tmp_path / "games"
    saved.mkdir()
    (saved / "game-00001.yaml").write_text("an earlier run's log\n")
    blocked = saved / "game-00002.yaml"
    if kind == "directory":
        blocked.mkdir()
    elif kind == "read-only":
        blocked.write_text("a log kept\n")
        blocked.chmod(0o444)
    else:
        blocked.symlink_to(os.devnull)
    before = sorted((p.name, p.is_dir(), p.is_symlink()) for p in saved.iterdir())
    r = run("simulate", DEEP, SAVANNA, "--games", "2", "--seed", "1", "--save-games", saved)
    assert r.code == 2 and "game-00002.yaml" in r.err and "not" in r.err and not r.out, r
    assert "Traceback" not in r.err and "internal error" not in r.err, r
    assert (saved / "game-00001.yaml").read_text() == "an earlier run's log\n"
    assert sorted((p.name, p.is_dir(), p.is_symlink()) for p in saved.iterdir()) == before
    # a log name past the games asked for is not one this run writes: no reason to stop
    r = run("simulate", DEEP, SAVANNA, "--games", "1", "--seed", "1", "--save-games", saved)
    assert r.code == 0, r


def test_a_deck_that_cannot_start_a_game_exits_2():
    r = run("simulate", EXAMPLES / "bad" / "no-animals.txt", SAVANNA, "--games", "4")
    assert r.code == 2 and "no Animal" in r.err and "Traceback" not in r.err, r


@pytest.mark.parametrize(("deck", "players", "why"), [
    ("game: alpha-walrus\n3 Krill\n", "2", "no Alpha Walrus"),  # AW-1.1
    (None, "5", "3 diplomacy card(s) for 5 players"),  # AW-1.2: the 2-player deck, 5 seats
])
def test_a_shared_deck_the_deal_cannot_be_made_from_exits_2(tmp_path, deck, players, why):
    """An alpha-walrus deck with no Alpha Walrus, or too few cards to deal to the seats,
    cannot start a game, as an animal-battle deck without an Animal cannot: exit 2 with the
    reason (was: internal error, StopIteration or IndexError from the deal)."""
    path = AW2
    if deck is not None:
        path = tmp_path / "tiny.txt"
        path.write_text(deck, encoding="utf-8")
    r = run("simulate", path, "--game", "alpha-walrus", "--players", players, "--games", "2",
            "--seed", "1")
    assert r.code == 2 and "cannot start a game" in r.err and why in r.err, r
    assert "internal error" not in r.err and not r.out, r
    if players == "2":  # suggest measures for the default table
        r = run("suggest", path, "--collection", GOOD / "alpha-walrus-4p.txt", "--game",
                "alpha-walrus", "--games", "20", "--measure", "4")
        assert r.code == 2 and "cannot start a game" in r.err and why in r.err, r


def test_an_unreachable_scheduler_exits_2():
    r = run("simulate", DEEP, SAVANNA, "--games", "4", "--scheduler", "tcp://127.0.0.1:9")
    assert r.code == 2 and "cannot reach the Dask scheduler" in r.err, r


# -- a cluster ---------------------------------------------------------------------------------------
def test_a_dask_cluster_gives_the_same_report(tmp_path):
    """A real scheduler and two worker processes on 127.0.0.1 (conftest.run_on_cluster)."""
    args = ["simulate", DEEP, SAVANNA, "--games", "60", "--seed", "21", "-O", "json"]
    local = run(*args, "--jobs", "1")
    remote = run_on_cluster(tmp_path, *args)
    assert local.code == remote.code == 0, remote
    assert json.loads(remote.out) == json.loads(local.out) and remote.out == local.out


# -- every simulated game is a legal game ----------------------------------------------------------
def _spec(index, game_id, paths, policies, seed, max_turns=200, players=2):
    from deckcli.games import get
    from deckcli.sim.play import Spec
    from deckcli.sim.run import load_deck

    game = get(game_id)
    decks = [load_deck(str(p), index, game_id) for p in paths]
    if game.shared_deck:
        seats = [f"p{i + 1}" for i in range(players)]
        return Spec(game_id, seed, {"shared": decks[0].cards}, seats, {},
                    dict(zip(seats, policies)), {}, max_turns, save=True, pairs=False)
    return Spec(game_id, seed, {"a": decks[0].cards, "b": decks[1].cards}, ["p1", "p2"],
                {"p1": "a", "p2": "b"}, dict(zip(("p1", "p2"), policies)), {}, max_turns,
                save=True)


@pytest.mark.parametrize("decks,policies", [
    ((DEEP, SAVANNA), ("greedy", "random")),
    ((SAVANNA, RAINFOREST), ("random", "random")),
    ((RAINFOREST, DEEP), ("greedy", "greedy")),
    ((GOOD / "casual-risky.txt", SAVANNA), ("random", "greedy")),
])
def test_hundreds_of_simulated_animal_battle_games_replay_clean(index, decks, policies):
    """Each game's log, replayed by the referee: no violation, no stop, the same winner."""
    from conftest import check_log

    from deckcli.sim.play import play

    spec = _spec(index, "animal-battle", decks, policies, seed=len(policies[0]) * 101)
    for n in range(60):
        record = play(spec, n)
        check = check_log(record["log"], f"game-{n}.yaml")
        assert check["violations"] == [] and check["stopped"] is None, (n, check["violations"])
        assert check["replayed"] == check["actions"] == record["actions"]
        winner = {"p1": "a", "p2": "b"}.get(check["final"]["winner"])
        assert winner == record["winner"], n


@pytest.mark.parametrize("players,policies", [(2, ("greedy", "random")), (3, ("random",) * 3)])
def test_simulated_alpha_walrus_games_replay_clean(index, players, policies):
    from conftest import check_log

    from deckcli.sim.play import play

    deck = GOOD / ("alpha-walrus-2p.yaml" if players == 2 else "alpha-walrus-4p.txt")
    spec = _spec(index, "alpha-walrus", [deck], policies, seed=players, max_turns=24,
                 players=players)
    for n in range(12):
        record = play(spec, n)
        check = check_log(record["log"], f"game-{n}.yaml")
        assert check["violations"] == [], (n, check["violations"])
        assert check["replayed"] == check["actions"] == record["actions"]
        assert check["final"]["winner"] == record["winner"]


def test_a_worker_keeps_one_book_for_the_chunks_of_a_run(index):
    """A pool sends the spec again with every chunk of games (pickled: new card objects each
    time); a worker knows the run again by the spec's token and plays every chunk from the
    first copy, so what is kept a book (greedy's choices among it) is worked out once a run,
    and the records are those of one process."""
    import pickle

    from deckcli.games import get
    from deckcli.sim import play
    from deckcli.sim.run import load_deck

    game = get("animal-battle")
    deck = load_deck(str(DEEP), index, None)
    spec = play.Spec(game.id, 5, {"a": deck.cards, "b": deck.cards}, ["p1", "p2"],
                     {"p1": "a", "p2": "b"}, {"p1": "greedy", "p2": "greedy"}, {}, 200)
    here = play.play_many(spec, range(6))
    first, second = pickle.loads(pickle.dumps(spec)), pickle.loads(pickle.dumps(spec))
    assert first.decks["a"][0] is not second.decks["a"][0]
    sent = play.play_many(first, range(3)) + play.play_many(second, range(3, 6))
    assert sent == here
    kept, worker = play._worker(second)
    assert kept is spec and play._worker(first)[0] is spec  # the first copy met here
    other = play.Spec(game.id, 5, {"a": deck.cards, "b": deck.cards}, ["p1", "p2"],
                      {"p1": "a", "p2": "b"}, {"p1": "greedy", "p2": "greedy"}, {}, 200)
    assert play._worker(other)[1] is not worker  # another run: a worker of its own


# -- house rules in force, the bounds of a run, decks that cannot be played --------------------
def test_a_declared_house_rule_is_the_one_the_games_are_played_and_saved_under(tmp_path):
    """A house rule given is not only listed: every game is played under it, and the saved
    log (which `referee check` replays under the rules it spells out) says so. AB-G.4 is met in
    nearly every game of these decks; its non-default value must be the ruling the referee
    applies when it replays the saved games, and the replay must give the report's winners."""
    data = sim(DEEP, SAVANNA, "--games", "8", "--seed", "3", "--jobs", "1", "--save-games",
               tmp_path, "--house-rule", "next_stat_chooser=defender")
    used = {h["key"]: (h["value"], h["source"]) for h in data["house_rules"]}
    assert used["next_stat_chooser"] == ("defender", "house-rule")
    met, winners = 0, []
    for n in range(1, 9):
        r = run("referee", "check", tmp_path / f"game-{n:05d}.yaml", "-O", "json")
        assert r.code == 0, r
        check = r.json()
        assert check["violations"] == [] and check["stopped"] is None
        rulings = [g["value"] for g in check["gaps"] if g["rule"] == "AB-G.4"]
        assert all(v == "defender" for v in rulings), rulings
        met += bool(rulings)
        winners.append(check["final"]["winner"])
    assert met >= 4 and data["gaps"].get("AB-G.4") == met
    assert {"a": winners.count("p1"), "b": winners.count("p2")} == {
        k: data["results"][k] for k in ("a", "b")}


def _last_turn(check: dict) -> int:
    """The turn in which a replayed game's last action was taken, from the referee's own
    notes ('turn 24 begins: p1'); turn 1 is the first."""
    turn = last = 1
    for step in check["steps"]:
        last = turn
        for note in step["notes"]:
            found = re.match(r"turn (\d+) begins", note)
            if found:
                turn = int(found.group(1))
    return last


def test_max_turns_n_lets_a_game_finish_on_turn_n_and_not_later(tmp_path):
    """A game whose last action the referee replays in turn T finishes within --max-turns T
    and is undecided with --max-turns T - 1, counting the T - 1 turns it played: the bound is
    not off by one either way."""
    sim(DEEP, SAVANNA, "--games", "2", "--seed", "3", "--jobs", "1", "--save-games", tmp_path)
    checks = [run("referee", "check", tmp_path / f"game-{n:05d}.yaml", "-O", "json").json()
              for n in (1, 2)]
    assert all(c["final"]["winner"] for c in checks), checks
    (short, long) = sorted(checks, key=_last_turn)
    t = _last_turn(long)
    assert _last_turn(short) < t - 1
    at = sim(DEEP, SAVANNA, "--games", "2", "--seed", "3", "--max-turns", t)
    assert at["results"]["undecided"] == 0, at
    below = sim(DEEP, SAVANNA, "--games", "2", "--seed", "3", "--max-turns", t - 1)
    assert below["results"]["undecided"] == 1, below
    assert below["turns"]["max"] == t - 1
    assert below["turns"]["mean"] == round((short["final"]["turn"] + t - 1) / 2, 1)


def test_until_ci_stops_at_the_first_hundred_games_narrow_enough():
    """--until-ci WIDTH looks at the interval every 100 games (docs/simulate.md) and stops at
    the first look where the interval the report states (for seat-swapped pairs) is at most
    WIDTH wide: not before, not after. The looks are made here from runs of 100, 200, ...
    games on the same seed (the same games), each report's own ci95."""
    width = 0.1
    looks = []
    for games in range(100, 900, 100):
        data = sim(SAVANNA, RAINFOREST, "--games", games, "--seed", "6")
        lo, hi = data["win_rate"]["ci95"]
        assert abs(hi - lo - width) > 2e-4  # rounding outward cannot decide the look
        looks.append((games, data["results"], hi - lo))
        if looks[-1][2] <= width:
            break
    stop, results, got = looks[-1]
    assert got <= width and len(looks) >= 2, looks  # the interval is not narrow at once
    assert all(w > width for _, _, w in looks[:-1]), looks
    data = sim(SAVANNA, RAINFOREST, "--games", "2000", "--seed", "6", "--until-ci", width)
    assert data["games"] == stop and data["results"] == results, (data["games"], looks)


@pytest.mark.parametrize("text", ["four Walrus\n4 Orca\n", "4 Orca\n999999999999999999999 Walrus\n"])
def test_a_deck_with_reading_errors_is_not_simulated_it_exits_2(deck_file, text):
    """docs/commands.md: a deck that cannot be read exits 2; a deck with reading errors is one
    (docs/commands.md, diff: "a deck with reading errors"; diff, build and suggest refuse it).
    Playing what is left of it would report on a deck its file does not hold."""
    bad = deck_file(text, "bad.txt")
    r = run("simulate", SAVANNA, bad, "--games", "2", "--seed", "1")
    assert r.code == 2 and "bad.txt" in r.err and "cannot be read as a deck" in r.err, r
    assert r.out == "" and "Traceback" not in r.err
    assert run("diff", SAVANNA, bad).code == 2  # the same file, as diff reads it


def test_a_deck_naming_a_card_that_does_not_exist_exits_2():
    """docs/simulate.md: a deck that names a card that does not exist is not played (the
    card's games could not be dealt): exit 2, the card named."""
    r = run("simulate", SAVANNA, EXAMPLES / "bad" / "unknown-card.txt", "--games", "2",
            "--seed", "1")
    assert r.code == 2 and "Wolverin" in r.err and r.out == "", r


def test_alpha_walrus_policy_a_and_b_set_seats_p1_and_p2():
    """--policy-a/--policy-b set one side's policy; for alpha-walrus the sides are seats p1
    and p2 (docs/simulate.md), the other seats keep --policy."""
    data = sim(AW2, "--game", "alpha-walrus", "--players", "3", "--games", "2", "--seed", "2",
               "--max-turns", "20", "--policy", "greedy", "--policy-b", "random")
    assert data["policies"] == {"p1": "greedy", "p2": "random", "p3": "greedy"}
    data = sim(AW2, "--game", "alpha-walrus", "--games", "2", "--seed", "2", "--max-turns",
               "20", "--policy", "random", "--policy-a", "greedy")
    assert data["policies"] == {"p1": "greedy", "p2": "random"}


@pytest.fixture
def both_games(tmp_path):
    """A folder of three animal-battle decks and two alpha-walrus decks (whose names sort
    first)."""
    import shutil

    folder = tmp_path / "decks"
    folder.mkdir()
    for name in ("casual-risky.txt", "casual-savanna.yaml", "casual-rainforest.json",
                 "alpha-walrus-2p.yaml", "alpha-walrus-4p.txt"):
        shutil.copy(EXAMPLES / "good" / name, folder / name)
    return folder


@pytest.mark.parametrize("game", [[], ["--game", "animal-battle"]])
def test_a_folder_of_both_games_plays_the_decks_of_one_and_names_the_others(both_games, game):
    """simulate FOLDER with decks of both games stopped ('the decks are of more than one
    game'), and with --game animal-battle at the first alpha-walrus deck (exit 2): the decks
    of another game are skipped, each named in a warning, and the others played."""
    r = run("simulate", both_games, *game, "--games", "2", "--seed", "1", "-O", "json")
    assert r.code == 0, r
    data = r.json()
    assert data["game"] == "animal-battle", data
    assert sorted(d["path"].rsplit("/", 1)[-1] for d in data["decks"]) == [
        "casual-rainforest.json", "casual-risky.txt", "casual-savanna.yaml"], data
    for name in ("alpha-walrus-2p.yaml", "alpha-walrus-4p.txt"):
        assert f"{both_games / name} is an alpha-walrus deck" in r.err, r
    assert "casual-risky.txt is" not in r.err, r


def test_a_folder_played_as_alpha_walrus_skips_the_animal_battle_decks(both_games):
    (both_games / "alpha-walrus-2p.yaml").unlink()
    r = run("simulate", both_games, "--game", "alpha-walrus", "--games", "2", "--seed", "1",
            "--max-turns", "30", "-O", "json")
    assert r.code == 0, r
    assert r.json()["decks"]["shared"]["path"].endswith("alpha-walrus-4p.txt"), r
    assert r.err.count("is an animal-battle deck") == 3, r


def test_decks_of_two_games_named_as_files_are_still_a_usage_error():
    r = run("simulate", GOOD / "casual-risky.txt", GOOD / "alpha-walrus-4p.txt", "--games", "2")
    assert r.code == 2 and "more than one game" in r.err, r
# -- a result a house rule may decide ---------------------------------------------------------------
NINE = "4 Blue Whale\n4 Sperm Whale\n1 Fin Whale\n"  # runs out of cards: empty_deck_draw decides


def _met_and_won(folder, games: int, rule: str) -> tuple[int, int]:
    """From the saved games, replayed by the referee: (the decided games that met ``rule``,
    those of them deck A won). A is the nine-card deck, whatever its seat."""
    met = won = 0
    for n in range(1, games + 1):
        check = run("referee", "check", folder / f"game-{n:05d}.yaml", "-O", "json").json()
        winner = check["final"]["winner"]
        if winner is None or rule not in {g["rule"] for g in check["gaps"]}:
            continue
        met += 1
        text = (folder / f"game-{n:05d}.yaml").read_text(encoding="utf-8")
        a_seat = "p1" if text.index("Fin Whale") < text.index("    p2:") else "p2"
        won += winner == a_seat
    return met, won


def test_a_result_resting_on_a_default_house_rule_says_so_and_how_to_check(tmp_path,
                                                                            deck_file):
    """A nine-card deck wins every game when a draw from an empty deck is skipped (the
    default) and loses nearly every one when it loses the game: the report counted the gap
    and said nothing more. Now each gap met in more than a tenth of the games is named with
    the house rule that settled it, how far A's win rate could move with those games, and the
    --house-rule values that would check it."""
    nine = deck_file(NINE, "nine.txt")
    saved = tmp_path / "games"
    greedy = ("--policy", "greedy")  # the fixed baseline: it never outlasts the nine cards
    r = run("simulate", nine, SAVANNA, "--games", "40", "--seed", "1", "--save-games", saved,
            *greedy)
    assert r.code == 0, r
    met, won = _met_and_won(saved, 40, "AB-G.6")
    data = sim(nine, SAVANNA, "--games", "40", "--seed", "1", *greedy)
    decided = data["results"]["a"] + data["results"]["b"]
    assert met > decided / 10
    low = (data["results"]["a"] - won) / decided
    high = (data["results"]["a"] - won + met) / decided
    lines = r.out.splitlines()
    at = lines.index("results that may rest on a house rule (a gap met in more than a tenth "
                     "of the games):")
    block = "\n".join(lines[at:])
    assert (f"  AB-G.6 empty_deck_draw=skip (default): met in {data['gaps']['AB-G.6']} of 40 "
            f"games") in block, r
    assert (f"A's win rate, {100 * data['win_rate']['a']:.1f}%, could be {100 * low:.1f}% to "
            f"{100 * high:.1f}% had those {met} decided games gone otherwise") in block, r
    assert "    to check: --house-rule empty_deck_draw=lose\n" in block + "\n", r
    assert all(len(line) <= 100 for line in lines[at:]), r
    # AB-G.2 is met in 4 of the 40 games: a tenth, not more, so it is not named there
    assert data["gaps"]["AB-G.2"] == 4 and "AB-G.2" not in block, r
    # and the check it names does move the result: the nine cards lose under the other value
    other = sim(nine, SAVANNA, "--games", "40", "--seed", "1", "--house-rule",
                "empty_deck_draw=lose", *greedy)
    assert data["results"]["a"] == 40 and other["results"]["a"] < 20


def test_the_json_report_keeps_its_keys_and_adds_each_gaps_ruling_and_results(tmp_path,
                                                                             deck_file):
    nine = deck_file(NINE, "nine.txt")
    saved = tmp_path / "games"
    data = sim(nine, SAVANNA, "--games", "20", "--seed", "1", "--save-games", saved,
               "--house-rule", "stat_tie=replay")
    assert {"version", "game", "seed", "games", "decks", "policies", "house_rules", "results",
            "win_rate", "gaps", "turns", "actions", "first_player_wins"} <= set(data)
    rulings = data["gap_rulings"]
    assert set(rulings) == set(data["gaps"])
    met, won = _met_and_won(saved, 20, "AB-G.6")
    six = rulings["AB-G.6"]
    assert (six["house_rule"], six["value"], six["source"], six["other_values"]) == (
        "empty_deck_draw", "skip", "default", ["lose"])
    assert six["games"] == data["gaps"]["AB-G.6"]
    assert (six["results"]["a"], six["results"]["a"] + six["results"]["b"]) == (won, met)
    if "AB-G.1" in rulings:
        assert rulings["AB-G.1"]["source"] == "house-rule"
        assert rulings["AB-G.1"]["other_values"] == ["challenger", "defender"]


def test_a_matrix_names_the_gaps_its_pairings_may_rest_on(deck_file):
    """Several decks: each gap met in more than a tenth of a pairing's games is named under
    the matrix with how many pairings, and the values that would check it."""
    nine = deck_file(NINE, "nine.txt")
    args = [nine, SAVANNA, RAINFOREST, "--games", "20", "--seed", "3", "--jobs", "1"]
    data = sim(*args)
    text = run("simulate", *args)
    assert text.code == 0, text
    lines = text.out.splitlines()
    at = lines.index("results that may rest on a house rule (a gap met in more than a tenth "
                     "of a pairing's games):")
    often = [p for p in data["pairings"] if p["gaps"].get("AB-G.6", 0) > p["games"] / 10]
    assert often and "gap_rulings" in data["pairings"][0]
    share = max(p["gaps"]["AB-G.6"] / p["games"] for p in often)
    assert (f"  AB-G.6 empty_deck_draw=skip (default): in {len(often)} of 3 pairings, up to "
            f"{100 * share:.1f}% of a pairing's games") in lines[at:], text
    assert "    to check: --house-rule empty_deck_draw=lose" in lines[at:], text


def test_the_text_matrix_names_every_deck_whole_and_lines_its_columns_up():
    """Column heads were the first 10 characters of each name ('casual-sav', 'casual-rai'):
    two decks could not be told apart. Each deck is now named whole once, with a number the
    columns use, and every rate stands under its column's number."""
    args = [DEEP, SAVANNA, RAINFOREST, "--games", "20", "--seed", "3", "--jobs", "1"]
    data = sim(*args)
    r = run("simulate", *args)
    assert r.code == 0, r
    lines = r.out.splitlines()
    head = lines[1]
    names = [p.name for p in (DEEP, SAVANNA, RAINFOREST)]
    for i, name in enumerate(names):
        row = lines[2 + i]
        assert row.startswith(f"#{i + 1}  {name}"), row
        for j in range(3):
            at = head.index(f"#{j + 1}") + len(f"#{j + 1}")  # the column's right edge
            v = data["matrix"][i][j]
            cell = "-" if v is None else f"{100 * v:.1f}%"
            assert row[:at].endswith(cell), (row, j, cell)
    assert all(len(line) <= 100 for line in lines[1:5]), r


def test_house_rules_and_gaps_wrap_within_100_columns_item_by_item():
    """alpha-walrus's 23 house rules were one line of 900 columns: now they wrap at 100
    columns, never inside a rule, and read back as the JSON lists them; so do the gaps met."""
    args = [AW2, "--game", "alpha-walrus", "--games", "6", "--seed", "2", "--max-turns", "40"]
    data = sim(*args)
    r = run("simulate", *args)
    assert r.code == 0, r
    lines = r.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("house rules: "))
    end = next(i for i, line in enumerate(lines) if line.startswith("gaps met: "))
    block = lines[start:end]
    assert len(block) > 1 and all(len(line) <= 100 for line in block), block
    assert all(line.startswith("  ") for line in block[1:]), block
    items = " ".join(line.strip() for line in block)[len("house rules: "):].split(", ")
    assert items == [f"{h['key']}={h['value']} ({h['source']})" for h in data["house_rules"]]
    gaps = [lines[end]]
    for line in lines[end + 1:]:
        if not line.startswith("  "):
            break
        gaps.append(line)
    assert all(len(line) <= 100 for line in gaps), gaps
    met = " ".join(line.strip() for line in gaps)[len("gaps met: "):].split(", ")
    assert [m.split(" in ")[0] for m in met] == list(data["gaps"])


def test_greedy_ends_its_turns_with_caribou_on_the_field():
    """Caribou may go back to the hand once per turn, and a creature summoned again is a new
    one: greedy summoned it and sent it back again and again until the game's action cap
    (about 550 actions a turn). Summoning it undoes nothing greedy wants, so it leaves it."""
    data = sim(AW2, "--game", "alpha-walrus", "--games", "10", "--max-turns", "40",
               "--seed", "1", "--jobs", "1")
    assert data["results"]["undecided"] < 10, data["results"]
    turns = data["turns"]["mean"] * data["games"]
    assert data["actions"] / turns < 20, (data["actions"], turns)


def test_sensitivity_plays_the_same_games_under_each_other_value_of_a_gap_met_often(deck_file):
    """--sensitivity: for every gap met in more than a tenth of the games, each other value of
    its house rule, the same games played again (seed, decks and policies unchanged): the
    result is the one a run with that --house-rule gives, and the text says it."""
    nine = deck_file(NINE, "nine.txt")
    args = (nine, SAVANNA, "--games", "40", "--seed", "1", "--policy", "greedy")
    data = sim(*args, "--sensitivity")
    often = {rule: g for rule, g in data["gap_rulings"].items() if g["games"] > 4}
    assert [(s["gap"], s["value"]) for s in data["sensitivity"]] == [
        (rule, v) for rule, g in often.items() for v in g["other_values"]]
    lose = next(s for s in data["sensitivity"] if s["house_rule"] == "empty_deck_draw")
    alone = sim(*args, "--house-rule", "empty_deck_draw=lose")
    assert (lose["results"], lose["win_rate"]) == (alone["results"], alone["win_rate"])
    assert data["results"]["a"] == 40 and lose["results"]["a"] < 20  # it moves the verdict
    r = run("simulate", *args, "--sensitivity")
    assert r.code == 0 and "sensitivity (the same games" in r.out, r
    assert f"  AB-G.6 empty_deck_draw=lose: A's win rate {100 * lose['win_rate']['a']:.1f}%" \
        in r.out, r
    assert "sensitivity" not in sim(*args)  # only when asked for
