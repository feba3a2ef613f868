"""An option that changes nothing says so (rule DL-5.3), in every command that takes it.

--players for an animal-battle deck check, --format for alpha-walrus, --opponent for
alpha-walrus's one shared deck, --game against a header that names the other game, a kind or
set the game does not have, --game on a rule asked for by its id: each used to pass in
silence, so a user believed it had been applied.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run

AB = EXAMPLES / "good" / "championship-deep-divers.txt"  # header: game: animal-battle
AW = EXAMPLES / "good" / "alpha-walrus-4p.txt"  # header: game: alpha-walrus
AW2 = EXAMPLES / "good" / "alpha-walrus-2p.yaml"


def problems(*args) -> list[dict]:
    r = run("validate", *args, "--output", "json")
    assert r.code in (0, 1), r
    return [p for d in r.json()["decks"] for p in d["problems"]]


def test_players_for_an_animal_battle_deck_check_warns():
    [p] = [p for p in problems(AB, "--players", "5") if p["code"] == "option-ignored"]
    assert p["severity"] == "warning" and p["rule"] == "DL-5.3"
    assert "--players 5 is ignored" in p["message"]


def test_players_for_an_alpha_walrus_deck_check_is_used_and_does_not_warn():
    assert not [p for p in problems(AW, "--players", "4") if p["rule"] == "DL-5.3"]


def test_a_mixed_batch_warns_only_for_the_decks_the_option_does_not_apply_to():
    r = run("validate", AB, AW, "--players", "4", "--output", "json")
    warned = {d["path"] for d in r.json()["decks"] for p in d["problems"]
              if p["code"] == "option-ignored"}
    assert warned == {str(AB)}


@pytest.mark.parametrize("deck,game,header", [(AB, "alpha-walrus", "animal-battle"),
                                               (AW, "animal-battle", "alpha-walrus")])
def test_game_against_the_header_warns_at_the_header_line(deck, game, header):
    found = [p for p in problems(deck, "--game", game) if p["code"] == "game-override"]
    [p] = found
    assert p["rule"] == "DL-5.3" and p["line"] == 3
    assert f"'game: {header}'" in p["message"] and f"--game {game}" in p["message"]


def test_game_that_agrees_with_the_header_does_not_warn():
    assert not [p for p in problems(AB, "--game", "animal-battle") if p["rule"] == "DL-5.3"]


def test_an_events_game_against_the_header_warns(tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text("name: Walrus night\ngame: alpha-walrus\n", encoding="utf-8")
    found = [p for p in problems(AB, "--event", event) if p["code"] == "game-override"]
    assert found and "the event's 'game: alpha-walrus'" in found[0]["message"]


def test_format_for_alpha_walrus_warns_under_dl_5_3():
    [p] = [p for p in problems(AW, "--format", "casual") if p["code"] == "no-formats"]
    assert p["rule"] == "DL-5.3"


def test_setup_warns_on_stderr_for_an_opponent_alpha_walrus_does_not_use():
    r = run("setup", AW2, "--opponent", AW, "--seed", "1")
    assert r.code == 0, r
    assert "--opponent is ignored" in r.err and "--opponent" not in r.out


def test_setup_warns_on_stderr_for_a_game_against_the_header():
    for deck, game in ((AB, "alpha-walrus"), (AW, "animal-battle")):
        r = run("setup", deck, "--game", game, "--seed", "1")
        assert "deckcli: warning:" in r.err and f"--game {game} applies" in r.err, r


def test_stats_warns_for_a_format_alpha_walrus_has_not():
    r = run("stats", AW, "--format", "casual")
    assert r.code == 0, r
    assert "--format casual is ignored" in r.err


def test_stats_help_promises_no_event_default():
    """stats has no --event: its --format default is the header's, then casual."""
    r = run("stats", "--help")
    assert "event" not in r.out.split("--format", 1)[1].split("--", 1)[0]


@pytest.mark.parametrize("option,value,known", [("--kind", "unicorn", "animal"),
                                                 ("--set", "XYZ", "ABS")])
def test_cards_list_refuses_a_kind_or_set_the_game_has_not(option, value, known):
    r = run("cards", "list", option, value)
    assert r.code == 2 and value in r.err and known in r.err, r


def test_cards_list_takes_a_set_code_in_any_case():
    assert run("cards", "list", "--set", "cls").out == run("cards", "list", "--set", "CLS").out


def test_rules_by_id_with_another_game_warns():
    r = run("rules", "AB-1.5", "--game", "alpha-walrus")
    assert r.code == 0 and r.out.startswith("AB-1.5"), r
    assert "AB-1.5 is an animal-battle rule" in r.err
    assert run("rules", "AB-1.5", "--game", "animal-battle").err == ""
