"""Card effects are data (DB-2.4, DB-2.5): ``db check`` holds a set's effect entries to its
game's words, on their card's line, and says when a card's text has no data to apply it; a
user's own card with an effect is applied as a bundled one is."""

from __future__ import annotations

from conftest import one_set_db, run

HEAD = "  - {number: '1', name: Ice Crab, kind: creature, stats: {level: 3}, "


def test_an_unknown_effect_word_is_an_error_on_its_cards_line(tmp_path):
    db = one_set_db(tmp_path / "db", "alpha-walrus", "USR", "Mine",
                    "  - {number: '0', name: Pebble, kind: creature, stats: {level: 1}}\n"
                    + HEAD + "text: 'Snaps.', effects: [{when: summoned, effect: snap}]}\n")
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    found = [p for p in r.json()["problems"] if p["rule"] == "DB-2.4"]
    assert found and found[0]["line"] == 5 and "snap" in found[0]["message"], r


def test_a_trigger_condition_or_key_the_game_does_not_know_is_an_error(tmp_path):
    db = one_set_db(tmp_path / "db", "alpha-walrus", "USR", "Mine",
                    HEAD + "text: 'Draws.', effects: [{when: sneezes, effect: draw, value: 1}, "
                           "{when: summoned, if: {moon: full}, effect: draw}, "
                           "{when: summoned, effect: draw, colour: blue}]}\n")
    problems = [p for p in run("db", "check", "--db", db, "-O", "json").json()["problems"]
                if p["rule"] == "DB-2.4"]
    said = " ".join(p["message"] for p in problems)
    assert "sneezes" in said and "moon" in said and "colour" in said, problems


def test_a_users_card_whose_text_has_no_data_is_a_warning(tmp_path):
    db = one_set_db(tmp_path / "db", "alpha-walrus", "USR", "Mine",
                    HEAD + "text: 'When summoned, everybody sings.'}\n")
    r = run("db", "check", "--db", db, "-O", "json")
    found = [p for p in r.json()["problems"] if p["rule"] == "DB-2.5"]
    assert r.code == 0 and found and found[0]["severity"] == "warning", r


def test_no_bundled_card_leaves_its_text_unapplied():
    r = run("db", "check", "-O", "json")
    assert r.code == 0, r
    assert not [p for p in r.json()["problems"] if p["rule"] in ("DB-2.4", "DB-2.5")], r


def test_a_users_own_card_with_an_effect_acts_as_a_bundled_one(tmp_path):
    """Ice Crab draws two when summoned, written in the same words as Puffin's draw."""
    db = one_set_db(tmp_path / "db", "alpha-walrus", "USR", "Mine",
                    HEAD + "text: 'When you summon Ice Crab, draw 2 cards.', "
                           "effects: [{when: summoned, effect: draw, value: 2}]}\n")
    from deckcli.cards import open_index
    from deckcli.games import get
    from deckcli.games.replay import check, replay

    log = {"game": "alpha-walrus", "seed": 1, "players": ["alice", "bob"],
           "setup": {"hands": {"alice": ["Ice Crab"], "bob": ["Krill"]},
                     "deck": ["Puffin", "Krill", "Lynx", "Beluga"], "round": 3},
           "actions": [{"player": "alice", "do": "draw"},
                       {"player": "alice", "do": "summon", "card": "Ice Crab"}]}
    res = check(replay(get("alpha-walrus"), log, None, {}, open_index([str(db)])))
    assert res["violations"] == [], res["violations"]
    assert res["final"]["players"]["alice"]["hand"] == 3  # drew 1, then 2 from the text
    assert "AW-11.1" in res["steps"][-1]["rules"]


def test_simulate_names_the_cards_whose_text_it_does_not_apply(tmp_path):
    from conftest import EXAMPLES

    db = one_set_db(tmp_path / "db", "alpha-walrus", "USR", "Mine",
                    HEAD + "text: 'When summoned, everybody sings.'}\n")
    deck = tmp_path / "deck.yaml"
    deck.write_text((EXAMPLES / "good" / "alpha-walrus-2p.yaml").read_text(encoding="utf-8")
                    + '  - {count: 2, name: Ice Crab, set: USR, number: "1"}\n',
                    encoding="utf-8")
    r = run("simulate", deck, "--db", db, "--game", "alpha-walrus", "--games", "2", "--seed",
            "3", "--policy", "random")
    assert r.code == 0, r
    assert "the text of Ice Crab (USR) 1 is not applied in these games" in r.err, r
    r = run("simulate", EXAMPLES / "good" / "alpha-walrus-2p.yaml", "--game", "alpha-walrus",
            "--games", "2", "--seed", "3", "--policy", "random")
    assert "is not applied" not in r.err, r  # every bundled card's text is
