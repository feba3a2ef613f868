"""Audit of simulate, build and suggest against the interface (docs/commands.md, docs/simulate.md):
each test here failed before the fix it came with."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, run, run_on_cluster

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"


def test_until_ci_on_a_dask_cluster_gives_the_same_report(tmp_path):
    """--until-ci plays batch after batch on the same cluster: each batch's games are sent
    the same game spec, and a later batch must not lose it when the earlier one lets go."""
    args = ["simulate", SAVANNA, SAVANNA, "--games", "400", "--seed", "11", "--until-ci", "0.15",
            "-O", "json"]
    local = run(*args, "--jobs", "1")
    remote = run_on_cluster(tmp_path, *args)
    assert local.code == remote.code == 0, remote
    assert json.loads(local.out)["games"] > 100  # more than one batch was played
    assert remote.out == local.out


def test_save_games_never_writes_through_a_log_name_onto_a_deck_it_plays(tmp_path):
    """DIR/game-00003.yaml a symlink to the deck B played (beside it in DIR): the log would
    replace the deck. Refused before any game, as a deck named like a log is."""
    folder = tmp_path / "games"
    folder.mkdir()
    deck = folder / "deck.yaml"
    deck.write_bytes(SAVANNA.read_bytes())
    (folder / "game-00003.yaml").symlink_to("deck.yaml")
    r = run("simulate", DEEP, deck, "--games", "4", "--seed", "1", "--save-games", folder)
    assert r.code == 2 and "not replacing it" in r.err, r
    assert deck.read_bytes() == SAVANNA.read_bytes()
    assert not (folder / "game-00001.yaml").exists()


@pytest.mark.parametrize("address", ["notanaddress", "http://127.0.0.1:8786"])
def test_a_scheduler_address_that_is_none_is_a_usage_error(address):
    pytest.importorskip("distributed")
    r = run("simulate", DEEP, SAVANNA, "--games", "2", "--scheduler", address)
    assert r.code == 2 and "internal error" not in r.err, r
    assert "--scheduler" in r.err or "Dask scheduler" in r.err, r


@pytest.mark.parametrize("args", [
    ("simulate", DEEP, SAVANNA, "--games", "2", "--until-ci", "nan"),
    ("build", "--collection", EXAMPLES / "collections" / "binder.txt", "--games", "20",
     "--measure", "2", "--budget", "nan"),
])
def test_nan_is_no_width_or_budget(args):
    """nan is in no range: it was taken, and --until-ci nan never stopped, --budget nan
    stopped the search before its first step."""
    r = run(*args)
    assert r.code == 2 and "nan" in r.err, r


ONE_ANIMAL = ("1 Walrus\n4 Canopy Lookout\n4 Emergency Reinforcement\n4 Expanded Habitat\n"
              "4 Field Guide\n4 Foraging Run\n4 Herd Instinct\n")


def _kind(name: str) -> str:
    r = run("cards", "show", name.split(" ", 1)[1], "--output", "json")
    assert r.code == 0, r
    data = r.json()
    return (data[0] if isinstance(data, list) else data)["kind"]


def test_build_never_explains_a_card_by_a_swap_that_leaves_no_animal(deck_file):
    """The deck's one Animal swapped for an action card is a deck no game can start (AB-3.3):
    its 'cost' measures nothing. The swap for the last Animal brings in an Animal, or none."""
    binder = deck_file(ONE_ANIMAL, "binder.txt")
    r = run("build", "--collection", binder, "--games", "20", "--measure", "4", "--seed", "1",
            "-O", "json")
    assert r.code == 0, r
    (row,) = [e for e in r.json()["explain"] if "Walrus" in e["card"]]
    assert row["swap"] is None or _kind(row["swap"]["in"]) == "animal", row



def test_alpha_walrus_build_with_a_format_builds_and_reports_no_format(tmp_path):
    """--format on alpha-walrus warns that it changes nothing (DL-5.3), and so it must: the
    format reached the deck's header ('format: championship') and the build stopped with an
    internal error."""
    out = tmp_path / "shared.txt"
    r = run("build", "--collection", GOOD / "alpha-walrus-2p.yaml", "--game", "alpha-walrus",
            "--format", "championship", "--games", "20", "--measure", "2", "--seed", "1",
            "-o", out, "-O", "json")
    assert r.code == 0 and "internal error" not in r.err, r
    assert r.json()["format"] is None
    assert "format:" not in out.read_text(encoding="utf-8")
    assert run("validate", out, "--game", "alpha-walrus").code == 0


def test_a_matrix_stopped_by_until_ci_says_how_many_games_each_pairing_played(tmp_path):
    """Each pairing stops on its own once its interval is narrow enough: 'every pairing 300
    games' was printed (and written in --html) when every pairing played 100."""
    page = tmp_path / "m.html"
    args = ["simulate", DEEP, SAVANNA, GOOD / "casual-rainforest.json", "--games", "300",
            "--seed", "11", "--until-ci", "0.2"]
    data = run(*args, "-O", "json").json()
    played = sorted({p["games"] for p in data["pairings"]})
    assert played == [100]  # the case this test is about: no pairing played 300
    r = run(*args, "--html", page)
    assert r.code == 0, r
    assert "300 games" not in r.out.splitlines()[0] and "100 games" in r.out.splitlines()[0], r
    html = page.read_text(encoding="utf-8")
    assert "300 games" not in html and "100 games" in html


def test_build_refuses_an_output_in_a_missing_folder_before_the_search(tmp_path, deck_file):
    """-o in a folder that does not exist is refused before any work, as every other bad
    target is: it was found only after the whole search (here: after the binder was judged,
    so the binder's problem, exit 1, was reported instead)."""
    binder = deck_file("4 Walrus\n4 Orca\n", "binder.txt")
    r = run("build", "--collection", binder, "--games", "20", "--measure", "2",
            "-o", tmp_path / "missing" / "deck.txt")
    assert r.code == 2 and "folder does not exist" in r.err, r


def test_simulate_refuses_a_matrix_file_in_a_missing_folder_before_any_game(tmp_path):
    r = run("simulate", DEEP, SAVANNA, EXAMPLES / "bad" / "no-animals.txt", "--games", "2",
            "--csv", tmp_path / "missing" / "m.csv")
    assert r.code == 2 and "folder does not exist" in r.err, r
