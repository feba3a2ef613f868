"""Every animal-battle card does what its text says (AB-6.4, AB-6.5): one table row per
printing of every bundled card with text, promotional printings included (a position in, the
card played and the choices its text leaves, the position and the ruling out), each row failing
if the card's effect were not applied; what an effect shows a player (AB-G.10) is in that
player's view alone and survives a determinization; the effects' data is checked by
``db check`` (DB-2.4, DB-2.5)."""

from __future__ import annotations

import random
import re

import pytest
from conftest import named_cards, run

from deckcli.games.animal_battle.engine import Match
from deckcli.games.animal_battle.play import ENGINE
from deckcli.games.animal_battle.view import sample
from deckcli.games.base import CardInfo

ANIMALS = ["Orca", "Walrus", "Sea Otter", "Narwhal", "Vaquita", "Cheetah", "Blue Whale",
           "Greenland Shark"]
IDS: dict[str, int] = {}
BOOK: dict[int, CardInfo] = {}


@pytest.fixture(scope="module", autouse=True)
def _cards(index):
    named_cards(index, ANIMALS, IDS, BOOK)
    for card in index.all_cards("animal-battle"):
        if card.kind == "action":
            IDS[card.name], BOOK[card.id] = card.id, CardInfo.of(card)
            for p in index.printings_of(card.id):
                IDS[f"{p.set_code} {p.number}"] = card.id


def names(ids) -> list[str]:
    return [BOOK[c].name for c in ids]


def position(layout: dict, house: dict | None = None) -> Match:
    """A two-player game in turn play: p1 is active, p2 defends. Decks are listed top first."""
    lay = dict(layout)
    kw = {"phase": lay.pop("phase", "establish"), "turn": lay.pop("turn", 2)}
    if "challenger" in lay:
        kw["challenger"] = IDS[lay.pop("challenger")]
    if "defender" in lay:
        kw["defenders"] = {"p2": IDS[lay.pop("defender")]}
    lay.setdefault("decks", {"p1": ["Cheetah"] * 3, "p2": ["Cheetah"] * 3})
    for key in ("hands", "pools", "decks"):
        if key in lay:
            kw[key] = {p: [IDS[n] for n in cards] for p, cards in lay.pop(key).items()}
    assert not lay, lay
    house = {"next_stat_chooser": "challenger", "decline_promote": "attack_ends",  # AB-G.4
             **(house or {})}  # and AB-G.3, for the chain
    return Match.position(BOOK, house_rules=house, **kw)


def act(g: Match, action):
    player, verb, *rest = action
    arg = rest[0] if rest else None
    stat = rest[1] if len(rest) > 1 else None
    if verb == "stat":
        arg, stat = None, arg
    elif isinstance(arg, str):
        arg = IDS[arg]
    return g.act(player, verb, arg, stat)


def hand(g, pid="p1"):
    return names(g.s.players[pid].hand)


def pool(g, pid="p1"):
    return names(g.s.players[pid].pool)


def deck(g, pid="p1"):  # top first
    return names(g.s.players[pid].deck[::-1])


DUEL = {"challenger": "Orca", "defender": "Walrus", "pools": {"p2": ["Sea Otter"]}}
FIVE = ["Walrus", "Sea Otter", "Narwhal", "Vaquita", "Cheetah"]

# (printing, row id, layout, actions before, the play: (player, stat), what follows it, expected,
#  check of the game after). The card is in the player's hand (added to the layout's). expected:
#  "ok" (every action legal, the ruling naming the card) or the rule of the play's violation.
ROWS = [
    ("ABS 90", "Strategic Retreat: end the turn without attacking", DUEL, [], ("p1", None),
     [("p1", "end_turn")], "ok",
     lambda g: g.s.active == "p2" and g.s.used == [] and g.s.defenders["p2"] == IDS["Walrus"]),
    ("ABS 91", "Second Wind: a used statistic once more",
     DUEL, [("p1", "stat", "weight"), ("p2", "promote", "Sea Otter")], ("p1", "weight"),
     [("p1", "stat", "weight")], "ok", lambda g: g.s.used == ["weight", "weight"]),
    ("PRM P201", "Second Wind (promotional): a used statistic once more",
     DUEL, [("p1", "stat", "weight"), ("p2", "promote", "Sea Otter")], ("p1", "weight"),
     [("p1", "stat", "weight")], "ok", lambda g: g.s.used == ["weight", "weight"]),
    ("ABS 92", "Field Guide: draw two in the Pool phase",
     {"phase": "pool", "decks": {"p1": ["Narwhal", "Vaquita", "Cheetah"]}}, [], ("p1", None),
     [], "ok", lambda g: hand(g) == ["Narwhal", "Vaquita"] and deck(g) == ["Cheetah"]),
    ("ABS 92", "Field Guide: only in the Pool phase",
     {**DUEL, "decks": {"p1": ["Narwhal", "Vaquita"]}}, [], ("p1", None), [], "AB-6.4",
     lambda g: hand(g) == ["Field Guide"] and deck(g) == ["Narwhal", "Vaquita"]),
    ("ABS 93", "Tidal Migration: the Animal named goes back to the hand",
     {"phase": "pool", "pools": {"p1": ["Narwhal", "Vaquita"]}}, [], ("p1", None),
     [("p1", "choose", "Vaquita")], "ok",
     lambda g: pool(g) == ["Narwhal"] and hand(g) == ["Vaquita"] and g.s.pending is None),
    ("ABS 93", "Tidal Migration: needs an Animal in the Pool", {"phase": "pool"}, [],
     ("p1", None), [], "AB-6.4", lambda g: hand(g) == ["Tidal Migration"]),
    ("DWV 90", "Herd Instinct: draw one when played",
     {"phase": "pool", "decks": {"p1": ["Narwhal", "Vaquita"]}}, [], ("p1", None), [], "ok",
     lambda g: hand(g) == ["Narwhal"] and names(g.s.players["p1"].discard) == ["Herd Instinct"]),
    ("PRM P200", "Herd Instinct (promotional): draw one when played",
     {**DUEL, "decks": {"p1": ["Vaquita", "Narwhal"]}}, [], ("p1", None), [], "ok",
     lambda g: hand(g) == ["Vaquita"] and deck(g) == ["Narwhal"]),
    ("DWV 90", "Herd Instinct: during its player's own turn (AB-6.5)",
     {"phase": "pool", "decks": {"p2": ["Narwhal"]}}, [], ("p2", None), [], "AB-6.5",
     lambda g: hand(g, "p2") == ["Herd Instinct"] and deck(g, "p2") == ["Narwhal"]),
    ("DWV 91", "Emergency Reinforcement: a replacement from the hand",
     {**DUEL, "pools": {}, "hands": {"p2": ["Narwhal"]}}, [("p1", "stat", "weight")],
     ("p2", None), [("p2", "promote", "Narwhal")], "ok",
     lambda g: g.s.defenders["p2"] == IDS["Narwhal"] and hand(g, "p2") == []),
    ("DWV 92", "Foraging Run: two cards in this draw phase",
     {"phase": "draw", "decks": {"p1": ["Narwhal", "Vaquita", "Cheetah"]}}, [], ("p1", None),
     [("p1", "draw")], "ok", lambda g: hand(g) == ["Narwhal", "Vaquita"]),
    ("DWV 93", "Scout Ahead: the opponent's Pool shown to the player",
     {"challenger": "Orca", "pools": {"p1": ["Cheetah"], "p2": ["Narwhal", "Vaquita"]}}, [],
     ("p1", None), [], "ok",
     lambda g: set(ENGINE.view(g, "p1").pools["p2"]) == {IDS["Narwhal"], IDS["Vaquita"]}
     and ENGINE.view(g, "p2").pools["p1"] == ()),
    ("DWV 93", "Scout Ahead: only before the Defender is chosen",
     {**DUEL, "pools": {"p2": ["Narwhal"]}}, [], ("p1", None), [], "AB-6.4",
     lambda g: hand(g) == ["Scout Ahead"] and ENGINE.view(g, "p1").pools["p2"] == ()),
    ("RFS 90", "Tag Team: swap the Challenger for a Pool Animal",
     {**DUEL, "pools": {"p1": ["Narwhal"], "p2": ["Sea Otter"]}}, [], ("p1", None),
     [("p1", "challenge", "Narwhal")], "ok",
     lambda g: g.s.challenger == IDS["Narwhal"] and pool(g) == ["Orca"]),
    ("RFS 91", "Expanded Habitat: a Pool of six",
     {"phase": "pool", "pools": {"p1": FIVE}, "hands": {"p1": ["Orca"]}}, [], ("p1", None),
     [("p1", "place", "Orca")], "ok", lambda g: pool(g) == [*FIVE, "Orca"]),
    ("RFS 92", "Rainy Season: each player draws one, in the draw phase",
     {"phase": "draw", "decks": {"p1": ["Narwhal", "Vaquita"], "p2": ["Orca", "Walrus"]}}, [],
     ("p1", None), [], "ok",
     lambda g: hand(g) == ["Narwhal"] and hand(g, "p2") == ["Orca"] and g.s.phase == "draw"),
    ("RFS 92", "Rainy Season: only in the draw phase",
     {"phase": "pool", "decks": {"p1": ["Narwhal"], "p2": ["Orca"]}}, [], ("p1", None), [],
     "AB-6.4", lambda g: hand(g) == ["Rainy Season"] and hand(g, "p2") == []),
    ("RFS 93", "Canopy Lookout: the top three back in the order chosen",
     {"phase": "pool", "decks": {"p1": ["Narwhal", "Vaquita", "Cheetah", "Orca"]}}, [],
     ("p1", None), [("p1", "choose", "Cheetah"), ("p1", "choose", "Narwhal")], "ok",
     lambda g: deck(g) == ["Cheetah", "Narwhal", "Vaquita", "Orca"] and g.s.pending is None
     and names(ENGINE.view(g, "p1").top) == ["Cheetah", "Narwhal", "Vaquita"]
     and ENGINE.view(g, "p2").top == ()),
]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}: {r[1]}" for r in ROWS])
def test_card_text_table(row):
    printing, _name, layout, before, (player, stat), after, expected, check = row
    card = IDS[printing]
    lay = {**layout, "hands": {**layout.get("hands", {})}}
    lay["hands"][player] = [BOOK[card].name, *lay["hands"].get(player, [])]
    g = position(lay)
    for step in before:
        out = act(g, step)
        assert out.ok and out.stop is None, (step, out.to_json())
    out = g.act(player, "play", card, stat)
    if expected == "ok":
        assert out.ok and out.stop is None and not out.remarks, out.to_json()
        assert BOOK[card].ref in " ".join(out.notes), out.notes  # the ruling names the card
        assert {"AB-6.4", "AB-6.5"} & set(out.rules), out.rules
        for step in after:
            more = act(g, step)
            assert more.ok and more.stop is None, (step, more.to_json())
    else:
        assert [v.rule for v in out.violations] == [expected], out.to_json()
    assert check(g), g.summary()


def test_every_printing_of_every_card_with_text_has_a_row(index):
    """A card (or a printing of it) added with text and no row here fails: every text is
    tried, and a bundled card whose text no effect data applies fails too (DB-2.5)."""
    from deckcli.sim.run import unapplied

    covered = {r[0] for r in ROWS}
    wanted = {f"{p.set_code} {p.number}" for card in index.all_cards("animal-battle")
              if (card.data or {}).get("text") for p in index.printings_of(card.id)}
    assert wanted and wanted == covered, (sorted(wanted - covered), sorted(covered - wanted))
    cards = [CardInfo.of(c) for c in index.all_cards("animal-battle")]
    assert [c.ref for c in cards if unapplied(c)] == []


def test_a_choice_a_card_leaves_comes_before_any_other_action():
    g = position({"phase": "pool", "hands": {"p1": ["Canopy Lookout", "Narwhal"]},
                  "decks": {"p1": ["Orca", "Vaquita", "Cheetah"]}})
    assert act(g, ("p1", "play", "Canopy Lookout")).ok
    out = act(g, ("p1", "place", "Narwhal"))
    assert [v.rule for v in out.violations] == ["AB-6.5"], out.to_json()
    assert ENGINE.legal_actions(g) == [("p1", "choose", c, None)
                                       for c in sorted(IDS[n] for n in ("Orca", "Vaquita",
                                                                         "Cheetah"))]
    out = act(g, ("p1", "choose", "Walrus"))  # not one of the three looked at
    assert [v.rule for v in out.violations] == ["AB-6.4"], out.to_json()
    assert act(g, ("p2", "choose", "Orca")).violations[0].rule == "AB-6.5"  # not p2's choice


def test_pools_are_hidden_by_default_and_open_by_house_rule():
    """AB-G.10: a Pool's size is open, its Animals only to their player (hidden, the
    provisional reading), or to everybody (open)."""
    layout = {"phase": "pool", "pools": {"p1": ["Orca", "Cheetah"], "p2": ["Narwhal"]}}
    hidden = ENGINE.view(position(layout), "p1")
    assert hidden.pools == {"p1": (IDS["Orca"], IDS["Cheetah"]), "p2": ()}
    assert hidden.pool_sizes == {"p1": 2, "p2": 1} and IDS["Narwhal"] in hidden.unseen["p2"]
    opened = ENGINE.view(position(layout, {"pool_visibility": "open"}), "p1")
    assert opened.pools["p2"] == (IDS["Narwhal"],) and IDS["Narwhal"] not in opened.unseen["p2"]


def test_scout_ahead_meets_the_pool_visibility_gap_and_the_referee_goes_on():
    layout = {"challenger": "Orca", "hands": {"p1": ["Scout Ahead"]},
              "pools": {"p2": ["Narwhal"]}}
    out = act(position(layout), ("p1", "play", "Scout Ahead"))
    assert out.ok and out.stop is None and [g.rule for g in out.gaps] == ["AB-G.10"]
    assert "provisional reading hidden" in out.gaps[0].ruling
    out = act(position(layout, {"pool_visibility": "open"}), ("p1", "play", "Scout Ahead"))
    assert out.ok and "nothing new is shown" in " ".join(out.notes), out.notes


def test_what_scout_ahead_showed_stays_known_until_an_animal_leaves_the_pool_unseen():
    g = position({"challenger": "Orca", "hands": {"p1": ["Scout Ahead"]},
                  "pools": {"p2": ["Narwhal", "Vaquita"]}})
    assert act(g, ("p1", "play", "Scout Ahead")).ok
    assert act(g, ("p2", "defend", "Narwhal")).ok  # in the open: Vaquita is still known
    assert ENGINE.view(g, "p1").pools["p2"] == (IDS["Vaquita"],)
    g.s.active, g.s.phase = "p2", "pool"
    g.s.players["p2"].hand.append(IDS["Tidal Migration"])
    assert act(g, ("p2", "play", "Tidal Migration")).ok
    assert act(g, ("p2", "choose", "Vaquita")).ok  # back to the hand, unseen by p1
    view = ENGINE.view(g, "p1")
    assert view.pools["p2"] == () and view.pool_sizes["p2"] == 0


@pytest.mark.parametrize("seed", range(5))
def test_a_determinization_keeps_what_the_viewer_knows(seed):
    """sample(view) deals what the viewer cannot see anew, and keeps what card effects showed
    it: the top of its deck in the order it put it back, the Animals of a Pool it was shown;
    the Animals of a Pool it was not shown are dealt from its unseen Animals."""
    g = position({"challenger": "Orca", "phase": "pool",
                  "hands": {"p1": ["Canopy Lookout", "Scout Ahead"], "p2": ["Cheetah", "Orca"]},
                  "pools": {"p2": ["Narwhal", "Vaquita"]},
                  "decks": {"p1": ["Walrus", "Sea Otter", "Blue Whale", "Cheetah", "Narwhal"],
                            "p2": ["Greenland Shark", "Walrus", "Sea Otter"]}})
    for step in [("p1", "play", "Canopy Lookout"), ("p1", "choose", "Blue Whale"),
                 ("p1", "choose", "Walrus")]:
        assert act(g, step).ok, step
    view = ENGINE.view(g, "p1")
    rng = random.Random(seed)
    for _ in range(20):
        made = sample(view, rng)
        mine, theirs = made.s.players["p1"], made.s.players["p2"]
        assert names(mine.deck[::-1][:3]) == ["Blue Whale", "Walrus", "Sea Otter"]
        assert sorted(mine.deck) == sorted(g.s.players["p1"].deck)
        assert len(theirs.pool) == 2 and all(BOOK[c].animal for c in theirs.pool)
        assert ENGINE.view(made, "p1").public() == view.public()
    assert act(g, ("p1", "play", "Scout Ahead")).ok
    view = ENGINE.view(g, "p1")
    for _ in range(20):
        made = sample(view, rng)
        assert sorted(made.s.players["p2"].pool) == sorted(IDS[n] for n in ("Narwhal",
                                                                            "Vaquita"))
        assert ENGINE.view(made, "p1").public() == view.public()


def test_a_drawn_card_leaves_the_top_the_player_saw():
    g = position({"phase": "pool", "hands": {"p1": ["Canopy Lookout", "Field Guide"]},
                  "decks": {"p1": ["Narwhal", "Vaquita", "Cheetah", "Orca"]}})
    for step in [("p1", "play", "Canopy Lookout"), ("p1", "choose", "Cheetah"),
                 ("p1", "choose", "Vaquita"), ("p1", "play", "Field Guide")]:
        assert act(g, step).ok, step
    assert hand(g) == ["Cheetah", "Vaquita"]
    assert names(ENGINE.view(g, "p1").top) == ["Narwhal"]  # the third card it saw


# -- db check: the effects' words (DB-2.4) and text nothing applies (DB-2.5) ---------------------
def write_set(folder, cards: str):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "USR.yaml").write_text(
        "game: animal-battle\nset: {code: USR, name: Own Cards, released: 2026-01-01}\n"
        "cards:\n" + cards, encoding="utf-8")


TRICK = '  - {{number: "{n}", name: Trick {n}, kind: action, text: "Do it.", ' \
        'refers_to: [AB-4.1], effects: [{e}]}}\n'
EFFECT_PROBLEMS = [
    ("{effect: teleport, when: play}", "db-unknown-effect", "effect 'teleport' is not one"),
    ("{effect: draw, when: play, value: 2, colour: red}", "db-schema", "does not take colour"),
    ("{effect: draw, when: play, value: 0}", "db-schema", "a number of cards from 1 to 60"),
    ("{effect: draw, value: 1}", "db-schema", "when: play"),
    ("{effect: draw, when: dusk, value: 1}", "db-unknown-trigger", "not a trigger"),
    ("{effect: draw, when: play, value: 1, if: {phase: lunch}}", "db-schema", "phase 'lunch'"),
    ("{effect: draw, when: play, value: 1, if: {weather: rain}}", "db-unknown-condition",
     "condition 'weather'"),
    ("{effect: draw, when: play, value: 1, limit: once_per_turn}", "db-schema",
     "limit is not a word of animal-battle effects"),
    ("{effect: draw, when: play, value: 1, who: everyone}", "db-schema", "who 'everyone'"),
    ("{effect: reveal_pool, when: play, value: 2}", "db-schema", "takes no value"),
    ("{effect: return_to_hand, when: play, from: deck}", "db-schema", "from: pool"),
    ("{effect: look_at_deck, when: play, value: 3, reorder: maybe}", "db-schema",
     "reorder is true or false"),
]


def test_db_check_finds_each_effect_problem_on_its_card_line(tmp_path):
    """DB-2.4: every word of an effect is one the animal-battle interpreter applies."""
    db = tmp_path / "db"
    write_set(db, "".join(TRICK.format(n=i + 1, e=e) for i, (e, _c, _m)
                          in enumerate(EFFECT_PROBLEMS)))
    r = run("db", "check", "--db", db, "-O", "json")
    assert r.code == 1, r
    problems = r.json()["problems"]
    for i, (_effect, code, message) in enumerate(EFFECT_PROBLEMS):
        mine = [p for p in problems if p["line"] == 4 + i]
        assert any(p["code"] == code and p["rule"] == "DB-2.4" and message in p["message"]
                   for p in mine), (i, mine)


def test_text_with_no_effect_data_is_a_warning_in_a_set_of_ones_own(tmp_path):
    """DB-2.5: a card with text that neither effects nor overrides apply is said (a warning
    for a user's set); a text marked as a reminder of the rule it restates is not."""
    db = tmp_path / "db"
    write_set(db, '  - {number: "1", name: Odd Trick, kind: action, text: "Swap two Pools.", '
                  'refers_to: [AB-4.2]}\n'
                  '  - {number: "2", name: Old Trick, kind: action, text: "Draw in the draw '
                  'phase.", refers_to: [AB-4.1], effects: [{effect: reminder, rule: AB-4.1}]}\n')
    r = run("db", "check", "--db", db, "-O", "json")
    found = [(p["line"], p["code"], p["severity"], p["rule"]) for p in r.json()["problems"]]
    assert found == [(4, "db-text-not-applied", "warning", "DB-2.5")], r


def test_simulate_names_a_card_whose_text_it_does_not_apply(tmp_path):
    db = tmp_path / "db"
    write_set(db, '  - {number: "1", name: Odd Trick, kind: action, text: "Swap two Pools.", '
                  'refers_to: [AB-4.2]}\n')
    deck = tmp_path / "deck.txt"
    deck.write_text("8 Orca\n8 Walrus\n4 Odd Trick\n", encoding="utf-8")
    r = run("--db", db, "simulate", deck, deck, "--games", "2", "--seed", "1")
    assert r.code == 0, r
    assert ("the text of Odd Trick (USR) 1 is not applied in these games: it has no effect "
            "data") in r.err and "DB-2.5" in r.err, r
    deck.write_text("8 Orca\n8 Walrus\n4 Canopy Lookout\n4 Scout Ahead\n", encoding="utf-8")
    r = run("simulate", deck, deck, "--games", "2", "--seed", "1")
    assert r.code == 0 and "DB-2.5" not in r.err, r  # every bundled card's text applies


def test_cards_show_gives_the_effect_data():
    r = run("cards", "show", "Canopy Lookout", "-O", "json")
    assert r.json()["effects"] == [{"effect": "look_at_deck", "when": "play", "value": 3,
                                    "reorder": True}], r
    r = run("cards", "show", "Field Guide")
    assert "  effect: draw (when: play, value: 2, if: {phase: pool})" in r.out.splitlines(), r


# -- simulated games full of action cards ----------------------------------------------------------
ACTIONS_DECK = ("4 Orca\n4 Walrus\n4 Narwhal\n4 Vaquita\n4 Blue Whale\n4 Greenland Shark\n"
                "4 Herd Instinct\n4 Field Guide\n4 Tidal Migration\n4 Scout Ahead\n"
                "4 Rainy Season\n4 Canopy Lookout\n4 Foraging Run\n4 Second Wind\n"
                "4 Strategic Retreat\n")
OTHER_DECK = ("4 Cheetah\n4 Sea Otter\n4 Orca\n4 Walrus\n4 Vaquita\n4 Herd Instinct\n"
              "4 Canopy Lookout\n4 Scout Ahead\n4 Tidal Migration\n4 Tag Team\n"
              "4 Expanded Habitat\n4 Emergency Reinforcement\n4 Rainy Season\n4 Field Guide\n")


@pytest.fixture(scope="module")
def effect_decks(index, tmp_path_factory):
    from deckcli.sim.run import load_deck

    folder = tmp_path_factory.mktemp("decks")
    out = []
    for name, text in (("actions.txt", ACTIONS_DECK), ("other.txt", OTHER_DECK)):
        (folder / name).write_text(text, encoding="utf-8")
        out.append(load_deck(str(folder / name), index, "animal-battle"))
    return out


POLICIES = [("random", "random"), ("greedy", "random"), ("random", "greedy"),
            ("greedy", "greedy"), ("expert", "greedy"), ("random", "expert"),
            ("expert", "expert")]


@pytest.mark.parametrize("policies", POLICIES, ids="-v-".join)
def test_games_full_of_action_cards_replay_clean_and_every_card_choice_is_legal(
        effect_decks, policies):
    """Simulated games whose decks are mostly action cards: every log replays clean, with the
    winner the simulation recorded, and every card played and every choice a card's text
    left is one the referee's 'legal' lists at that point (Engine.tried)."""
    from conftest import check_log
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from deckcli.sim.play import Spec, play

    a, b = effect_decks
    played = []

    @settings(max_examples=4, deadline=None, derandomize=True)
    @given(seed=st.integers(0, 2**32))
    def games(seed):
        spec = Spec("animal-battle", seed, {"a": a.cards, "b": b.cards}, ["p1", "p2"],
                    {"p1": "a", "p2": "b"}, dict(zip(("p1", "p2"), policies)), {}, 200,
                    save=True)
        for n in range(4):
            record = play(spec, n)
            log = record["log"]
            check = check_log(log, f"game-{n}.yaml")
            assert check["violations"] == [] and check["stopped"] is None, check["violations"]
            assert check["replayed"] == check["actions"] == record["actions"]
            assert {"p1": "a", "p2": "b"}.get(check["final"]["winner"]) == record["winner"]
            played.extend(_card_steps_are_listed_by_legal(log))

    games()
    assert {"play", "choose"} <= set(played), played  # every policy plays cards


def _card_steps_are_listed_by_legal(log) -> list[str]:
    from conftest import start_game

    from deckcli.cards import open_index

    match = start_game(log)
    _m, steps, _setup = ENGINE.read_log(log, None, {}, open_index())
    verbs = []
    for step in steps:
        if step.verb in ("play", "choose"):
            assert step.action in {a for a, _out in ENGINE.tried(match)}, step
            verbs.append(step.verb)
        assert ENGINE.apply(match, step.action).ok, step
    return verbs


EVERY_ACTION_DECK = ("4 Orca\n4 Walrus\n4 Narwhal\n4 Vaquita\n4 Blue Whale\n4 Cheetah\n"
                     "2 Strategic Retreat\n2 Second Wind\n2 Field Guide\n2 Tidal Migration\n"
                     "2 Herd Instinct\n2 Emergency Reinforcement\n2 Foraging Run\n2 Scout Ahead\n"
                     "2 Tag Team\n2 Expanded Habitat\n2 Rainy Season\n2 Canopy Lookout\n")


def test_greedy_plays_every_action_card_of_the_game(index, tmp_path):
    """A deck holding every animal-battle action card, played greedy against greedy: the saved
    games show each one played (greedy, the fixed baseline, plays a card when it gains)."""
    actions = {c.name for c in index.all_cards("animal-battle")
               if (c.data or {}).get("kind") == "action"}
    deck = tmp_path / "every-action.txt"
    deck.write_text(EVERY_ACTION_DECK, encoding="utf-8")
    in_deck = set(re.findall(r"^\d+ (.+)$", EVERY_ACTION_DECK, re.M))
    assert actions and actions <= in_deck, actions - in_deck  # a new action card joins it
    saved = tmp_path / "saved"
    r = run("simulate", deck, deck, "--policy", "greedy", "--games", "20", "--seed", "1",
            "--jobs", "1", "--save-games", saved)
    assert r.code == 0, r
    logs = " ".join(p.read_text(encoding="utf-8") for p in saved.glob("*.yaml"))
    played = {name for name in actions if re.search(rf"\bp\d play {name} \(", logs)}
    assert played == actions, sorted(actions - played)
