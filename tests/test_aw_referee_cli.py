"""`deckcli --game alpha-walrus referee battle|discard|showdown|check|legal` as shell lines."""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES, one_set_db, run

AW = ("--game", "alpha-walrus", "referee")
GAMES = EXAMPLES / "games"


def ruling(*args, code=0):
    res = run(*AW, *args, "--output", "json")
    assert res.code == code, res
    return res.json()


# ----------------------------------------------------------------------------- battle
def test_battle_highest_level_wins_and_loser_is_discarded():
    r = ruling("battle", "Orca", "--defender", "Polar Bear", "--match", "1=1", "--stake", "gear")
    assert r["winner"] == "attacker" and r["rule"] == "AW-4.5"
    assert r["discarded"] == ["d1 Polar Bear (AWC) 34"]
    assert r["stake"]["outcome"].startswith("the attacker wins one Alpha Walrus gear")


def test_battle_the_defender_keeps_the_stake_when_the_attacker_loses():
    r = ruling("battle", "Krill", "--defender", "Orca", "--match", "1=1", "--stake", "gear")
    assert r["winner"] == "defender"
    assert r["stake"]["outcome"] == "the defender keeps the gear (AW-4.2)"


def test_battle_tie_goes_to_the_defender():
    r = ruling("battle", "Harp Seal", "--defender", "Wolverine", "--match", "a1=d1",
               "--stake", "hand")
    assert r["winner"] == "defender" and r["fights"][0]["rule"] == "AW-4.10"


def test_battle_unmatched_attacker_wins():
    r = ruling("battle", "Krill", "Lemming", "--defender", "Orca", "--match", "Krill=Orca",
               "--stake", "hand")
    assert r["winner"] == "attacker" and r["rule"] == "AW-4.7"
    assert r["unmatched"] == ["a2 Lemming (AWC) 2"]
    assert r["discarded"] == ["a1 Krill (AWC) 1"]


def test_battle_equipment_and_battle_cards_raise_levels_and_report_the_gap():
    r = ruling("battle", "Krill", "--defender", "Arctic Fox", "--match", "1=1",
               "--equip", "a1=Blubber Vest", "--battle-card", "a1=Belly Flop", "--stake", "gear")
    assert r["fights"][0]["levels"] == {"attacker": 3, "defender": 3}
    assert r["winner"] == "defender"
    r = ruling("battle", "Krill", "--defender", "Arctic Fox", "--match", "1=1",
               "--equip", "a1=Glacier Plate", "--stake", "gear")
    # the gap decides: no winner is picked, the readings say what each house rule gives
    assert r["winner"] is None and r["gap"] and r["provisional_winner"] == "attacker"
    assert r["readings"] == {"battle_level=modified": "attacker",
                             "battle_level=printed": "defender"}
    assert [g["rule"] for g in r["gaps"]] == ["AW-G.1"]
    r = ruling("battle", "Krill", "--defender", "Arctic Fox", "--match", "1=1",
               "--equip", "a1=Glacier Plate", "--stake", "gear",
               "--house-rule", "battle_level=printed")
    assert r["winner"] == "defender" and r["provisional_winner"] is None
    assert r["gaps"][0]["settled"]


def test_a_gap_that_does_not_change_the_winner_leaves_it_standing():
    r = ruling("battle", "Krill", "Lemming", "--defender", "Arctic Fox", "--match", "1=1",
               "--equip", "a1=Glacier Plate", "--stake", "gear")
    assert r["gap"] and r["winner"] == "attacker" and r["rule"] == "AW-4.7"
    assert set(r["readings"].values()) == {"attacker"}


def test_battle_in_round_two_is_illegal():
    r = ruling("battle", "Orca", "--defender", "Krill", "--stake", "gear", "--round", "2",
               code=1)
    assert r["winner"] is None and r["violations"][0]["rule"] == "AW-1.6"


def test_battle_with_more_creatures_than_a_field_holds_is_illegal():
    five = ("Krill", "Lemming", "Ermine", "Snow Bunting", "Puffin")
    r = ruling("battle", *five, "--defender", "Orca", "--match", "1=1", "--stake", "gear",
               code=1)
    assert r["winner"] is None and r["rule"] == "AW-7.1"
    assert r["violations"][0]["message"] == \
        "the attacker names 5 creatures; a field holds at most 4"
    r = ruling("battle", "Orca", "--defender", *[x for c in five for x in ("--defender", c)][1:],
               "--match", "1=1", "--stake", "gear", code=1)
    assert r["rule"] == "AW-7.1" and "the defender names 5" in r["violations"][0]["message"]
    assert ruling("battle", *five[:4], "--defender", "Orca", "--match", "1=1",
                  "--stake", "gear")["violations"] == []


def test_battle_with_three_armor_pieces_is_illegal_unless_a_card_allows_it():
    armor = ("--equip", "a1=Glacier Plate", "--equip", "a1=Frost Mail",
             "--equip", "a1=Blubber Vest")
    base = ("battle", "Krill", "--defender", "Lemming", "--match", "1=1", "--stake", "gear",
            "--house-rule", "battle_level=modified")
    r = ruling(*base, *armor, code=1)
    assert r["winner"] is None and r["rule"] == "AW-6.2"
    assert "a1 Krill (AWC) 1 wears 3 armor pieces; the limit is 2" in r["ruling"]
    assert ruling(*base, *armor[:4])["violations"] == []
    r = ruling(*base, *armor, "--equip", "a1=Triple-Strap Harness")  # its text allows 3
    assert r["violations"] == [] and r["winner"] == "attacker"


def test_battle_defender_matched_twice_is_illegal():
    r = ruling("battle", "Orca", "Krill", "--defender", "Puffin", "--match", "1=1",
               "--match", "2=1", "--stake", "gear", code=1)
    assert r["violations"][0]["rule"] == "AW-4.3"


# ----------------------------------------------------------------------- mini showdown dice
def mini_showdown(seed: int, attacker_dice: int, defender_dice: int) -> tuple[list, str]:
    """A mini showdown worked out from the rules and the seed alone: each side rolls its D6s
    from random.Random(seed), attacker first (AW-10.8), a level 8 Walrus two and keeps the
    better (AW-10.9), higher wins, equal dice rolled again (house rule mini_showdown_tie=reroll,
    AW-G.8). Returns every roll and the winner."""
    rng = random.Random(seed)
    rolls = []
    while True:
        a = [rng.randint(1, 6) for _ in range(attacker_dice)]
        d = [rng.randint(1, 6) for _ in range(defender_dice)]
        rolls.append({"attacker": a, "defender": d})
        if max(a) != max(d):
            return rolls, "attacker" if max(a) > max(d) else "defender"


@pytest.mark.parametrize("rolls,winner", [(["5", "2"], "attacker"), (["2", "5"], "defender")])
def test_mini_showdown_higher_die_wins(rolls, winner):
    r = ruling("battle", "Walrus (AWC) 22", "--defender", "Pacific Walrus", "--match", "1=1",
               "--stake", "gear", *[a for v in rolls for a in ("--roll", v)])
    fight = r["fights"][0]
    assert fight["kind"] == "mini-showdown" and fight["rule"] == "AW-10.8"
    assert fight["winner"] == winner


def test_mini_showdown_dice_come_from_the_seed_and_replay():
    args = ("battle", "Walrus (AWC) 22", "--defender", "Pacific Walrus", "--match", "1=1",
            "--stake", "gear", "--seed", "1234", "--house-rule", "mini_showdown_tie=reroll")
    first, again = ruling(*args), ruling(*args)
    assert first == again
    rolls, winner = mini_showdown(1234, 1, 1)
    fight = first["fights"][0]
    assert fight["rolls"] == rolls and fight["winner"] == winner


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_mini_showdown_level8_keeps_the_higher_of_two_dice(seed):
    r = ruling("battle", "AWC 22", "--defender", "AWC 30", "--match", "1=1", "--stake", "gear",
               "--seed", str(seed), "--house-rule", "mini_showdown_tie=reroll")
    rolls, winner = mini_showdown(seed, 1, 2)  # the defender's AWC 30 is the level 8 Walrus
    assert r["fights"][0]["rolls"] == rolls
    assert r["fights"][0]["winner"] == winner


def test_mini_showdown_explicit_rolls_level8_two_dice():
    r = ruling("battle", "AWC 30", "--defender", "AWC 22", "--match", "1=1", "--stake", "hand",
               "--roll", "1", "--roll", "6", "--roll", "5")
    assert r["fights"][0]["rolls"] == [{"attacker": [1, 6], "defender": [5]}]
    assert r["winner"] == "attacker" and r["fights"][0]["rule"] == "AW-10.9"


def test_mini_showdown_equal_dice_is_a_gap():
    r = ruling("battle", "AWC 22", "--defender", "Walrus Calf", "--match", "1=1",
               "--stake", "hand", "--roll", "4", "--roll", "4")
    assert r["winner"] is None and r["provisional_winner"] == "defender"
    assert r["gaps"][0]["rule"] == "AW-G.8"
    assert r["readings"]["mini_showdown_tie=reroll"] is None  # a reroll needs more dice
    r = ruling("battle", "AWC 22", "--defender", "Walrus Calf", "--match", "1=1",
               "--stake", "hand", "--roll", "4", "--roll", "4", "--roll", "6", "--roll", "2",
               "--house-rule", "mini_showdown_tie=reroll")
    assert r["winner"] == "attacker" and len(r["rolls"]) == 4


def test_dice_run_out_without_a_seed_exits_2():
    res = run(*AW, "battle", "AWC 22", "--defender", "Walrus Calf", "--stake", "hand",
              "--roll", "4")
    assert res.code == 2 and "--seed" in res.err, res


# ----------------------------------------------------------------------------- look-ups
def test_bare_walrus_is_ambiguous_exit_2_with_candidates():
    res = run(*AW, "battle", "Walrus", "--defender", "Krill", "--stake", "gear")
    assert res.code == 2, res
    assert "Walrus (AWC) 22" in res.err and "Walrus (AWC) 30" in res.err


def test_unknown_card_exit_2_with_suggestion():
    res = run(*AW, "discard", "Polar Baer")
    assert res.code == 2 and "did you mean 'Polar Bear'" in res.err, res


def test_unknown_house_rule_exit_2():
    res = run(*AW, "discard", "Krill", "--house-rule", "nonsense=1")
    assert res.code == 2 and "unknown alpha-walrus house rule" in res.err, res


def test_promo_printing_resolves_to_its_card():
    r = ruling("discard", "AWP P1")
    assert r["card"] == "Walrus (AWC) 30" and r["draws"] == 2


# ----------------------------------------------------------------------------- discard
@pytest.mark.parametrize("card,draws,rule", [
    ("Krill", 1, "AW-2.3"), ("Arctic Wolf", 1, "AW-2.3"), ("AWC 22", 2, "AW-2.4"),
    ("Walrus (AWC) 30", 2, "AW-2.4"), ("Polar Bear", 3, "AW-2.5"), ("Blue Whale", 3, "AW-2.5"),
])
def test_discard_draw_table(card, draws, rule):
    r = ruling("discard", card)
    assert r["allowed"] and r["draws"] == draws and r["rule"] == rule


def test_discard_combined_with_a_draw_card_is_illegal():
    r = ruling("discard", "Polar Bear", "--used", "Fish Supper", code=1)
    assert not r["allowed"] and r["rule"] == "AW-2.2"


def test_discard_after_lucky_flipper_is_not_combined():
    r = ruling("discard", "Polar Bear", "--used", "Lucky Flipper")
    assert r["allowed"] and r["draws"] == 3 and "AW-10.5" in r["rules"]


def test_discard_twice_in_a_turn_is_illegal():
    r = ruling("discard", "Krill", "--again", code=1)
    assert r["rule"] == "AW-2.1"


def test_a_second_discard_in_a_turn_is_not_allowed_and_draws_nothing():
    r = ruling("discard", "Polar Bear", "--again", code=1)
    assert r["allowed"] is False and r["draws"] == 0
    assert [v["rule"] for v in r["violations"]] == ["AW-2.1"]


def test_discard_non_creature_is_a_gap_until_settled():
    r = ruling("discard", "Blubber Vest")
    assert r["allowed"] is None and r["gap"] and r["rule"] == "AW-G.11"
    assert r["provisional"] == {"allowed": True, "draws": 1}
    r = ruling("discard", "Blubber Vest", "--house-rule", "discard_non_creature=draw-1")
    assert r["allowed"] is True and r["draws"] == 1
    r = ruling("discard", "Blubber Vest", "--house-rule", "discard_non_creature=forbidden",
               code=1)
    assert not r["allowed"]


@pytest.fixture
def aw_db(tmp_path):
    """An extra alpha-walrus card database folder: set TAW, one level 9 creature."""
    return one_set_db(tmp_path / "awdb", "alpha-walrus", "TAW", "Test Walrus Set",
                      "  - {number: '1', name: Ivory Gull Queen, kind: creature, "
                      "stats: {level: 9}, traits: []}\n")


@pytest.mark.parametrize("where", ["subcommand", "deckcli"])
@pytest.mark.parametrize("args,field,value", [
    (["discard", "Ivory Gull Queen"], "draws", 3),
    (["battle", "Ivory Gull Queen", "--defender", "Krill", "--match", "1=1", "--stake", "hand"],
     "winner", "attacker"),
    (["showdown", "--opponent", "bob=Ivory Gull Queen", "--seed", "1"], "winner", "summoner"),
])
def test_every_ruling_reads_extra_card_folders(aw_db, where, args, field, value):
    db = ["--db", str(aw_db)]
    res = (run(*AW, *args, *db, "--output", "json") if where == "subcommand"
           else run(*db, *AW, *args, "--output", "json"))
    assert res.code in (0, 1), res
    assert res.json()[field] == value
    assert run(*AW, *args).code == 2  # without the folder the card is unknown


# ----------------------------------------------------------------------------- showdown
def test_showdown_win_against_every_opponent():
    r = ruling("showdown", "--opponent", "bob=Orca", "--opponent", "carol=Polar Bear",
               "--seed", "1")
    assert r["winner"] == "summoner" and r["rule"] == "AW-9.1"
    assert [f["opponent"] for f in r["fights"]] == ["bob", "carol"]


def test_showdown_with_three_of_the_four_gear_pieces_is_illegal():
    """AW-8.1: one piece short is as ineligible as three short."""
    three = ("Alpha Walrus Horn", "Alpha Walrus Crown", "Alpha Walrus Cloak")
    gear = [a for g in three for a in ("--gear", g)]
    r = ruling("showdown", "--opponent", "bob=Krill", *gear, "--seed", "1", code=1)
    assert r["eligible"] is False and r["winner"] is None and r["fights"] == []
    assert [v["rule"] for v in r["violations"]] == ["AW-8.1"]
    assert "Alpha Walrus Tusks" in r["violations"][0]["message"]


def test_showdown_tie_is_settled_by_seeded_d6():
    """Level 12 against 12: each side rolls a D6 from the seed, Summoner first (AW-8.5), equal
    dice rolled again (AW-G.14, provisionally reroll); the winner is worked out from the seed
    here, and the game's result follows from it (AW-9.1 win, AW-9.2 loss)."""
    for seed in range(1, 9):
        r = ruling("showdown", "--opponent", "bob=Orca", "--battle-card", "bob=Tusk Charge",
                   "--seed", str(seed))
        rng = random.Random(seed)
        rolls = []
        while True:
            roll = {"summoner": rng.randint(1, 6), "opponent": rng.randint(1, 6)}
            rolls.append(roll)
            if roll["summoner"] != roll["opponent"]:
                break
        winner = "summoner" if roll["summoner"] > roll["opponent"] else "opponent"
        fight = r["fights"][0]
        assert fight["levels"] == {"summoner": 12, "opponent": 12}
        assert fight["rolls"] == rolls and fight["winner"] == winner
        assert fight["rule"] == "AW-8.5"
        assert r["rule"] == {"summoner": "AW-9.1", "opponent": "AW-9.2"}[winner]


def test_showdown_battle_cards_count_and_loss_removes_the_summoner():
    r = ruling("showdown", "--opponent", "bob=Orca", "--battle-card", "bob=Deep Dive",
               "--seed", "1", "--house-rule", "battle_level=modified")
    assert r["winner"] == "opponent" and r["rule"] == "AW-9.2"
    assert "AW-9.3" in r["ruling"] and "AW-9.4" in r["ruling"]
    r = ruling("showdown", "--opponent", "bob=Orca", "--battle-card", "bob=Deep Dive",
               "--battle-card", "summoner@bob=Deep Dive", "--seed", "1")
    assert r["fights"][0]["levels"] == {"summoner": 15, "opponent": 13}


def test_a_showdown_fight_that_gap_aw_g1_decides_has_no_winner_until_settled():
    """Orca (level 10) + Deep Dive (+3) against the Alpha Walrus (12): 13 v 12 counting the
    bonus, 10 v 12 on printed levels. The seed does not say which counts (AW-G.1), so no
    winner is given, as in an ordinary battle, until a house rule says."""
    args = ("showdown", "--opponent", "bob=Orca", "--battle-card", "bob=Deep Dive", "--seed", "1")
    r = ruling(*args)
    assert r["winner"] is None and r["provisional_winner"] == "opponent" and r["gap"]
    assert [g["rule"] for g in r["gaps"]] == ["AW-G.1"] and not r["gaps"][0]["settled"]
    assert r["readings"] == {"battle_level=modified": "opponent",
                             "battle_level=printed": "summoner"}
    assert ruling(*args, "--house-rule", "battle_level=printed")["winner"] == "summoner"
    assert ruling(*args, "--house-rule", "battle_level=modified")["winner"] == "opponent"


@pytest.mark.parametrize("opponent,card", [("Orca", "Tusk Charge"), ("Krill", "Deep Dive")])
def test_a_bonus_that_decides_nothing_is_no_gap_in_a_showdown(opponent, card):
    """Krill (1) + 3 loses either way: no AW-G.1. Orca (10) + 2 ties at 12 where printed
    levels would not: the gap is reported, and dice that the Summoner wins agree with both
    readings, so the winner stands."""
    r = ruling("showdown", "--opponent", f"bob={opponent}", "--battle-card", f"bob={card}",
               "--roll", "6", "--roll", "1")
    assert r["winner"] == "summoner"
    assert [g["rule"] for g in r["gaps"]] == ([] if opponent == "Krill" else ["AW-G.1"])


def test_showdown_equipment_on_the_alpha_walrus_is_illegal():
    r = ruling("showdown", "--opponent", "bob=Krill", "--equip", "summoner=Blubber Vest",
               "--seed", "1", code=1)
    assert r["violations"][0]["rule"] == "AW-8.3"


def test_showdown_needs_all_four_gear_pieces():
    r = ruling("showdown", "--opponent", "bob=Krill", "--gear", "Alpha Walrus Tusks",
               "--seed", "1", code=1)
    assert r["eligible"] is False and r["violations"][0]["rule"] == "AW-8.1"
    r = ruling("showdown", "--opponent", "bob=Krill", "--gear", "Alpha Walrus Tusks",
               "--gear", "Alpha Walrus Crown", "--gear", "Alpha Walrus Cloak",
               "--gear", "Alpha Walrus Horn", "--seed", "1")
    assert r["eligible"] is True and r["winner"] == "summoner"


def test_referee_subcommand_needs_the_game():
    res = run("referee", "discard", "Krill")
    assert res.code == 2 and "--game alpha-walrus" in res.err, res


# ----------------------------------------------------------------------------- game logs
GOLDEN = {
    "aw-opening.yaml": (0, []),
    "aw-dealt.yaml": (0, []),
    "aw-showdown.yaml": (0, []),
    "aw-illegal.yaml": (1, ["AW-7.1", "AW-6.2", "AW-2.2", "AW-4.9", "AW-1.6", "AW-5.1",
                            "AW-5.2"]),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_game_logs(name):
    code, rules = GOLDEN[name]
    res = run("referee", "check", GAMES / name)
    assert res.code == code, res
    res = run("referee", "check", GAMES / name, "--output", "json")
    assert res.code == code, res
    data = res.json()
    assert data["game"] == "alpha-walrus" and data["path"].endswith(name)
    assert [v["rule"] for v in data["violations"]] == rules
    assert all({"step", "action", "rule", "message"} <= set(v) for v in data["violations"])
    assert all({"step", "rule", "situation", "ruling"} <= set(g) for g in data["gaps"])
    assert data["final"]["players"]


def test_showdown_log_ends_with_a_winner():
    data = run("referee", "check", GAMES / "aw-showdown.yaml", "--output", "json").json()
    assert data["final"]["winner"] == "alice"


def test_opening_log_gaps_and_house_rule():
    data = run("referee", "check", GAMES / "aw-opening.yaml", "--output", "json").json()
    assert [g["rule"] for g in data["gaps"]] == ["AW-G.18", "AW-G.17"]
    res = run("referee", "check", GAMES / "aw-opening.yaml", "--house-rule",
              "hand_stake_pick=attacker", "--output", "json")
    assert res.code == 0, res
    assert [(g["rule"], g["settled"]) for g in res.json()["gaps"]] == [
        ("AW-G.18", False), ("AW-G.17", True)]


def test_legal_lists_the_next_actions():
    res = run("referee", "legal", GAMES / "aw-dealt.yaml", "--output", "json")
    assert res.code == 0, res
    data = res.json()
    assert data["player"] == "p1" and [(a["entry"], a["rules"]) for a in data["actions"]] == [
        ({"player": "p1", "do": "draw"}, ["AW-3.1", "AW-3.2"])]
    text = run("referee", "legal", GAMES / "aw-dealt.yaml")
    assert "p1 draw" in text.out


@pytest.mark.parametrize("body,fragment", [
    ("game: alpha-walrus\nplayers: [a, b]\nsetup: {hands: {a: [Krill]}, deck: []}\n"
     "actions:\n  - {player: a, do: fly}\n", "unknown action"),
    ("game: alpha-walrus\nplayers: [a, b]\nsetup: {hands: {a: [Krill]}, deck: []}\n"
     "actions:\n  - {player: z, do: draw}\n", "'player' must be one of"),
    ("game: alpha-walrus\nplayers: [a, b]\nsetup: {hands: {a: [Krilll]}, deck: []}\n"
     "actions: []\n", "did you mean"),
    ("game: alpha-walrus\nplayers: [a, b]\nactions: []\n", "'setup'"),
    ("game: alpha-walrus\nplayers: 1\nsetup: {hands: {}, deck: []}\nactions: []\n",
     "2 to 12"),
    ("game: alpha-walrus\nplayers: [a, b]\nsetup: {hands: {a: [Walrus]}, deck: []}\n"
     "actions: []\n", "Walrus (AWC) 22"),
])
def test_unreadable_logs_exit_2(tmp_path, body, fragment):
    path = tmp_path / "log.yaml"
    path.write_text(body, encoding="utf-8")
    res = run("referee", "check", path)
    assert res.code == 2 and fragment in res.err, res
    assert "Traceback" not in res.err


SETUP = "game: alpha-walrus\nplayers: [a, b]\nsetup:\n  hands: {a: [Krill], b: [Puffin]}\n" \
    "  deck: [Lynx]\n  round: 5\n"


@pytest.mark.parametrize("lines,fragment", [
    ("  field:\n    a: [Krill]\n    b: [Goamph]\n",
     "log.yaml:9: setup.field.b: Goamph (AWC) 73 is an action card, not a creature"),
    ("  field:\n    a: [Krill, Blubber Vest]\n",
     "log.yaml:8: setup.field.a: Blubber Vest (AWC) 55 is an equipment card, not a creature"),
    ("  field:\n    a:\n      - {creature: Krill, equipment: [Goamph]}\n",
     "setup.field.a equipment: Goamph (AWC) 73 is an action card, not equipment"),
    ("  gear:\n    a: [Alpha Walrus Horn, Krill]\n",
     "log.yaml:8: setup.gear.a: Krill (AWC) 1 is a creature card, not an Alpha Walrus gear"),
    ("  centre: Orca\n",
     "log.yaml:7: setup.centre: Orca (AWC) 38 is a creature card, not the Alpha Walrus"),
    ("  field:\n    a: [Krull]\n", "log.yaml:8: no alpha-walrus card is named 'Krull'"),
])
def test_a_setup_card_of_the_wrong_kind_exits_2_with_its_line(tmp_path, lines, fragment):
    """A Goamph set on the field used to fight as a creature of level 0."""
    path = tmp_path / "log.yaml"
    path.write_text(SETUP + lines + "actions:\n  - {player: a, do: draw}\n", encoding="utf-8")
    res = run("referee", "check", path)
    assert res.code == 2 and fragment in res.err, res


def test_log_error_names_the_line(tmp_path):
    path = tmp_path / "log.yaml"
    path.write_text("game: alpha-walrus\nplayers: [a, b]\nsetup: {hands: {a: [Krill]}, "
                    "deck: []}\nactions:\n  - {player: a, do: draw}\n  - {player: a, do: fly}\n",
                    encoding="utf-8")
    res = run("referee", "check", path)
    assert res.code == 2 and ":6:" in res.err, res


@pytest.mark.parametrize("where", [["--game", "alpha-walrus", "referee", "check"],
                                   ["referee", "--game", "alpha-walrus", "check"],
                                   ["referee", "check", "--game", "alpha-walrus"]])
def test_a_log_of_the_other_game_than_game_says_exits_2(where):
    """--game used to be ignored for a log: an animal-battle log replayed as animal-battle
    under --game alpha-walrus, and 'referee check --game' was no option at all."""
    res = run(*where, GAMES / "ab-clean-game.yaml")
    assert res.code == 2, res
    assert "ab-clean-game.yaml:4: the log is an animal-battle game, but --game says " \
           "alpha-walrus" in res.err
    assert run(*where, GAMES / "aw-opening.yaml").code == 0


def test_game_names_the_game_of_a_log_that_names_none(tmp_path):
    body = (GAMES / "aw-opening.yaml").read_text(encoding="utf-8")
    assert body.count("game: alpha-walrus\n") == 1
    log = tmp_path / "log.yaml"
    log.write_text(body.replace("game: alpha-walrus\n", ""), encoding="utf-8")
    assert run("referee", "check", "--game", "alpha-walrus", log).code == 0
    assert run("referee", "check", log).code == 2  # read as animal-battle, the default


@pytest.mark.parametrize("log,rule", [("ab-gap-tie.yaml", "battle_level=printed"),
                                      ("aw-opening.yaml", "stat_tie=defender")])
def test_a_wrong_house_rule_from_the_command_line_is_not_blamed_on_the_log(tmp_path, log, rule):
    """It used to be reported at a line of the log (which may have no house_rules at all)."""
    key, value = rule.split("=")
    event = tmp_path / "ev.yaml"
    event.write_text(f"name: E\nhouse_rules: {{{key}: {value}}}\n", encoding="utf-8")
    for extra in (["--house-rule", rule], ["--event", event]):
        res = run("referee", "check", GAMES / log, *extra)
        assert res.code == 2, res
        assert f"house rule '{key}'" in res.err
        assert "(given with --house-rule or --event)" in res.err
        assert f"{log}:" not in res.err


OVER = ("game: alpha-walrus\nplayers: [alice, bob]\nsetup:\n  round: 2\n  hands:\n"
        "    alice: [Krill, Orca, Ermine, Lemming, Puffin, Lynx, Moose]\n"
        "    bob: [Goamph, Moose, Lynx, Beluga, Caribou]\n"
        "  deck: [Narwhal, Moose, Snow Bunting, Arctic Hare, Harp Seal]\nactions:\n"
        "  - {player: alice, do: draw}\n")


def test_an_illegal_end_changes_nothing(tmp_path):
    """'end' with eight cards was reported illegal, yet alice's turn ended."""
    path = tmp_path / "log.yaml"
    path.write_text(OVER + "  - {player: alice, do: end}\n"
                    "  - {player: alice, do: discard, cards: [Puffin]}\n"
                    "  - {player: alice, do: end}\n", encoding="utf-8")
    data = run("referee", "check", path, "--output", "json").json()
    assert [(v["step"], v["rule"], v["player"]) for v in data["violations"]] == [
        (2, "AW-5.2", "alice")]
    assert [s["ok"] for s in data["steps"]] == [True, False, True, True]
    assert data["final"]["players"]["alice"]["hand"] == 7 and data["final"]["turn"] is None


def test_a_breach_noticed_at_the_next_draw_is_the_breakers(tmp_path):
    """Without 'end', bob's draw ends alice's turn: the over-limit hand was reported as an
    illegal draw of bob's."""
    path = tmp_path / "log.yaml"
    path.write_text(OVER + "  - {player: bob, do: draw}\n", encoding="utf-8")
    res = run("referee", "check", path, "--output", "json")
    assert res.code == 1, res
    data = res.json()
    [v] = data["violations"]
    assert (v["step"], v["rule"], v["player"], v["late"]) == (2, "AW-5.2", "alice", True)
    assert data["steps"][1]["ok"] and data["final"]["turn"] == "bob"  # bob's draw stands
    text = run("referee", "check", path).out
    assert "'bob draw' (broken by alice): AW-5.2" in text
    legal = run("referee", "legal", tmp_path / "log.yaml", "--output", "json").json()
    assert legal["player"] == "bob"
