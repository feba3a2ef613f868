"""animal-battle referee engine: one table row per rule sentence of the seed's sections 2, 4, 5
and 6 (position in, action, verdict and rule id out), the gaps, card overrides, and property
tests on random legal play."""

from __future__ import annotations

import random

import pytest
from conftest import named_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcli.games.animal_battle.engine import Match
from deckcli.games.animal_battle.play import ENGINE
from deckcli.games.base import CardInfo

NAMES = ["Orca", "Walrus", "Sea Otter", "Blue Whale", "Vaquita", "Greenland Shark",
         "Fin Whale", "Emperor Penguin", "Weddell Seal", "Harbor Porpoise", "Adelie Penguin",
         "Cheetah", "Narwhal", "Strategic Retreat", "Second Wind", "Tag Team",
         "Expanded Habitat", "Emergency Reinforcement", "Foraging Run", "Field Guide"]
IDS: dict[str, int] = {}
BOOK: dict[int, CardInfo] = {}


@pytest.fixture(scope="module", autouse=True)
def _cards(index):
    named_cards(index, NAMES, IDS, BOOK)


def ids(names):
    return [IDS[n] for n in names]


def position(layout: dict, house: dict | None = None) -> Match:
    """A two-player game in turn play: p1 is active (and attacks), p2 defends."""
    lay = dict(layout)
    kw = {"phase": lay.pop("phase", "establish"), "turn": lay.pop("turn", 2)}
    if "challenger" in lay:
        kw["challenger"] = IDS[lay.pop("challenger")]
    if "defender" in lay:
        kw["defenders"] = {"p2": IDS[lay.pop("defender")]}
    lay.setdefault("decks", {"p1": ["Cheetah"] * 6, "p2": ["Cheetah"] * 6})  # for refills
    for key in ("hands", "pools", "decks"):
        if key in lay:
            kw[key] = {p: ids(names) for p, names in lay.pop(key).items()}
    assert not lay, lay
    return Match.position(BOOK, house_rules=house, **kw)


def play(game: Match, action) -> object:
    player, verb, *rest = action
    arg = rest[0] if rest else None
    stat = rest[1] if len(rest) > 1 else None
    if verb == "stat":
        arg, stat = None, arg
    elif isinstance(arg, str) and verb != "target":
        arg = IDS[arg]
    return game.act(player, verb, arg, stat)


def discard(g, pid):
    return [BOOK[c].name for c in g.s.players[pid].discard]


DUEL = {"challenger": "Orca", "defender": "Walrus", "pools": {"p2": ["Sea Otter"]}}
CHAIN = DUEL
HOUSE_C = {"next_stat_chooser": "challenger"}
#: Blue Whale beats a new Defender on each statistic: after four links the fifth and last
#: statistic (speed) is still to be named, and Adelie Penguin waits in the Pool (AB-G.9)
LAST_LINK = {"challenger": "Blue Whale", "defender": "Sea Otter",
             "pools": {"p1": ["Narwhal"], "p2": ["Walrus", "Emperor Penguin", "Weddell Seal",
                                                 "Harbor Porpoise", "Adelie Penguin"]}}
LAST_LINK_BEFORE = [("p1", "stat", "weight"), ("p2", "promote", "Walrus"),
                    ("p1", "stat", "length"), ("p2", "promote", "Emperor Penguin"),
                    ("p1", "stat", "lifespan"), ("p2", "promote", "Weddell Seal"),
                    ("p1", "stat", "population"), ("p2", "promote", "Harbor Porpoise")]

# (row id, rule, layout, house rules, actions before, the action, expected, state check)
# expected: "ok" (no violation), a rule id (the violation's rule), or "gap AB-G.n" (stops).
ROWS = [
    # -- 2. The five battle statistics ------------------------------------------------------
    ("2.1 weight: higher wins", "AB-2.1", DUEL, None, [], ("p1", "stat", "weight"), "ok",
     lambda g: discard(g, "p2") == ["Walrus"]),
    ("2.2 speed: higher wins", "AB-2.2", DUEL, None, [], ("p1", "stat", "speed"), "ok",
     lambda g: discard(g, "p2") == ["Walrus"]),
    ("2.3 lifespan: higher wins", "AB-2.3", DUEL, None, [], ("p1", "stat", "lifespan"), "ok",
     lambda g: discard(g, "p2") == ["Walrus"]),
    ("2.4 population: lower wins", "AB-2.4", DUEL, None, [], ("p1", "stat", "population"), "ok",
     lambda g: discard(g, "p2") == ["Walrus"]),
    ("2.4 population: the larger population loses", "AB-2.4",
     {"challenger": "Walrus", "defender": "Vaquita"}, {"original_defender_wins": "as_replacement"},
     [], ("p1", "stat", "population"), "ok", lambda g: discard(g, "p1") == ["Walrus"]),
    ("2.5 length: higher wins", "AB-2.5", DUEL, None, [], ("p1", "stat", "length"), "ok",
     lambda g: discard(g, "p2") == ["Walrus"]),
    ("2.6 Maximum Depth is not a battle statistic", "AB-2.6", DUEL, None, [],
     ("p1", "stat", "max_depth"), "AB-2.6", lambda g: g.s.used == [] and not discard(g, "p2")),
    # -- 4. Turn sequence --------------------------------------------------------------------
    ("4.1 draw one card", "AB-4.1", {"phase": "draw", "decks": {"p1": ["Narwhal", "Vaquita"]}},
     None, [], ("p1", "draw"), "ok",
     lambda g: [BOOK[c].name for c in g.s.players["p1"].hand] == ["Narwhal"]
     and g.s.phase == "pool"),
    ("4.1 one draw only", "AB-4.1", {"phase": "draw", "decks": {"p1": ["Narwhal", "Vaquita"]}},
     None, [("p1", "draw")], ("p1", "draw"), "AB-4.1",
     lambda g: len(g.s.players["p1"].hand) == 1),
    ("4.1 draw before the Pool phase", "AB-4.1",
     {"phase": "draw", "hands": {"p1": ["Narwhal"]}, "decks": {"p1": ["Vaquita"]}}, None, [],
     ("p1", "place", "Narwhal"), "AB-4.1", lambda g: g.s.players["p1"].pool == []),
    ("4.1/3.6 the first player skips the first draw", "AB-3.6",
     {"phase": "pool", "turn": 1, "decks": {"p1": ["Vaquita"]}}, None, [], ("p1", "draw"),
     "AB-3.6", lambda g: g.s.players["p1"].hand == []),
    ("4.2 place an Animal into the Pool", "AB-4.2",
     {"phase": "pool", "hands": {"p1": ["Narwhal"]}}, None, [], ("p1", "place", "Narwhal"), "ok",
     lambda g: g.s.players["p1"].pool == ids(["Narwhal"])),
    ("4.2 up to five", "AB-4.2",
     {"phase": "pool", "hands": {"p1": ["Narwhal"]},
      "pools": {"p1": ["Orca", "Walrus", "Sea Otter", "Vaquita", "Cheetah"]}}, None, [],
     ("p1", "place", "Narwhal"), "AB-4.2", lambda g: len(g.s.players["p1"].pool) == 5),
    ("4.2 the fifth Animal still fits", "AB-4.2",
     {"phase": "pool", "hands": {"p1": ["Narwhal"]},
      "pools": {"p1": ["Orca", "Walrus", "Sea Otter", "Vaquita"]}}, None, [],
     ("p1", "place", "Narwhal"), "ok", lambda g: len(g.s.players["p1"].pool) == 5),
    ("4.2 only the active player places, in their own Pool phase", "AB-4.2",
     {"phase": "pool", "hands": {"p2": ["Narwhal"]}}, None, [], ("p2", "place", "Narwhal"),
     "AB-4.2", lambda g: g.s.players["p2"].pool == [] and g.s.players["p2"].hand == ids(["Narwhal"])),
    ("4.2 only Animal cards", "AB-4.2", {"phase": "pool", "hands": {"p1": ["Second Wind"]}},
     None, [], ("p1", "place", "Second Wind"), "AB-4.2", lambda g: g.s.players["p1"].pool == []),
    ("4.2 only in the Pool phase", "AB-4.2", {**DUEL, "hands": {"p1": ["Narwhal"]}},
     {"decline_promote": "attack_ends"},
     [("p1", "stat", "weight"), ("p2", "decline")], ("p1", "place", "Narwhal"), "AB-4.2", None),
    ("4.3 only the active player establishes the Challenger", "AB-4.3",
     {"pools": {"p1": ["Orca"], "p2": ["Walrus"]}}, None, [], ("p2", "challenge", "Walrus"),
     "AB-4.3", lambda g: g.s.challenger is None and g.s.players["p2"].pool == ids(["Walrus"])),
    ("4.3 the Challenger is known first", "AB-4.3",
     {"pools": {"p1": ["Orca"], "p2": ["Walrus"]}}, None, [], ("p2", "defend", "Walrus"),
     "AB-4.3", lambda g: g.s.defenders["p2"] is None),
    ("4.3 then the opponent selects the Defender", "AB-4.3",
     {"pools": {"p1": ["Orca"], "p2": ["Walrus"]}}, None, [("p1", "challenge", "Orca")],
     ("p2", "defend", "Walrus"), "ok", lambda g: g.s.defenders["p2"] == IDS["Walrus"]),
    ("4.2/4.3 the opponent's Defender does not cut the Pool phase short", "AB-4.2",
     {"challenger": "Orca", "phase": "pool", "hands": {"p1": ["Narwhal"]},
      "pools": {"p2": ["Walrus"]}}, None, [("p2", "defend", "Walrus")],
     ("p1", "place", "Narwhal"), "ok",
     lambda g: g.s.players["p1"].pool == ids(["Narwhal"]) and g.s.defenders["p2"] == IDS["Walrus"]),
    ("4.3 the opponent, not the attacker, selects", "AB-4.3",
     {"challenger": "Orca", "pools": {"p1": ["Narwhal"], "p2": ["Walrus"]}}, None, [],
     ("p1", "defend", "Narwhal"), "AB-4.3", None),
    ("4.4 compare the printed values of a battle statistic", "AB-4.4", DUEL, None, [],
     ("p1", "stat", "height"), "AB-4.4", lambda g: g.s.used == []),
    ("4.4 the attacker names the statistic", "AB-4.4", DUEL, None, [], ("p2", "stat", "weight"),
     "AB-4.4", lambda g: g.s.used == []),
    ("4.4 no statistic once the turn's attack has ended", "AB-4.4", {**DUEL, "phase": "end"},
     None, [], ("p1", "stat", "weight"), "AB-4.4",
     lambda g: g.s.used == [] and not discard(g, "p2") and g.s.defenders["p2"] == IDS["Walrus"]),
    ("4.5 resolve before the turn ends", "AB-4.5", CHAIN, None, [("p1", "stat", "weight")],
     ("p1", "end_turn"), "AB-4.5", lambda g: g.s.phase == "promote"),
    ("4.6 the ending player refills to three", "AB-4.6",
     {**DUEL, "phase": "end", "decks": {"p1": ["Narwhal", "Vaquita", "Cheetah", "Sea Otter"],
                                       "p2": ["Fin Whale"]}}, None, [], ("p1", "end_turn"), "ok",
     lambda g: len(g.s.players["p1"].hand) == 3 and g.s.players["p2"].hand == []),
    ("4.6 a hand below three is refilled up to three", "AB-4.6",
     {**DUEL, "phase": "end", "hands": {"p1": ["Narwhal"]},
      "decks": {"p1": ["Vaquita", "Cheetah", "Sea Otter", "Fin Whale"]}}, None, [],
     ("p1", "end_turn"), "ok",
     lambda g: [BOOK[c].name for c in g.s.players["p1"].hand] == ["Narwhal", "Vaquita", "Cheetah"]
     and len(g.s.players["p1"].deck) == 2),
    ("4.6/6.3 a change of control ends the turn: its player refills, the new one does not",
     "AB-4.6", {**DUEL, "pools": {"p2": ["Greenland Shark"]}}, HOUSE_C,
     [("p1", "stat", "weight"), ("p2", "promote", "Greenland Shark")],
     ("p1", "stat", "lifespan"), "ok",
     lambda g: len(g.s.players["p1"].hand) == 3 and g.s.players["p2"].hand == []
     and g.s.active == "p2" and g.s.phase == "draw"),
    ("4.6 only the player whose turn ends", "AB-4.6", {**DUEL, "phase": "end"}, None, [],
     ("p2", "end_turn"), "AB-4.6", lambda g: g.s.active == "p1"),
    ("4.7 no maximum hand size", "AB-4.7",
     {**DUEL, "phase": "end", "hands": {"p1": ["Narwhal", "Vaquita", "Cheetah", "Sea Otter",
                                                "Fin Whale", "Blue Whale", "Second Wind"]}},
     None, [], ("p1", "end_turn"), "ok", lambda g: len(g.s.players["p1"].hand) == 7),
    # -- 5. Defense Chain --------------------------------------------------------------------
    ("5.1 a defeated Defender is discarded", "AB-5.1", CHAIN, None, [], ("p1", "stat", "weight"),
     "ok", lambda g: discard(g, "p2") == ["Walrus"] and g.s.defenders["p2"] is None),
    ("5.2 promote a replacement already in the Pool", "AB-5.2", CHAIN, None,
     [("p1", "stat", "weight")], ("p2", "promote", "Sea Otter"), "ok",
     lambda g: g.s.defenders["p2"] == IDS["Sea Otter"] and not g.s.original),
    ("5.2 only from the Pool", "AB-5.2", CHAIN, None, [("p1", "stat", "weight")],
     ("p2", "promote", "Blue Whale"), "AB-5.2", lambda g: g.s.phase == "promote"),
    ("5.2 only an Animal is promoted, even from the hand by card text", "AB-5.2",
     {**CHAIN, "hands": {"p2": ["Second Wind", "Emergency Reinforcement"]}}, None,
     [("p1", "stat", "weight"), ("p2", "play", "Emergency Reinforcement")],
     ("p2", "promote", "Second Wind"), "AB-5.2",
     lambda g: g.s.defenders["p2"] is None and g.s.players["p2"].hand == ids(["Second Wind"])),
    ("5.2 the next statistic waits for the promotion", "AB-5.2", CHAIN, None,
     [("p1", "stat", "weight")], ("p1", "stat", "speed"), "AB-5.2",
     lambda g: g.s.used == ["weight"] and g.s.phase == "promote"),
    ("5.3 a different unused statistic next", "AB-5.3", CHAIN, HOUSE_C,
     [("p1", "stat", "weight"), ("p2", "promote", "Sea Otter")], ("p1", "stat", "weight"),
     "AB-5.5", lambda g: g.s.used == ["weight"]),
    ("5.3 ... and the chain goes on", "AB-5.3",
     {**CHAIN, "pools": {"p2": ["Sea Otter", "Vaquita"]}},
     HOUSE_C,
     [("p1", "stat", "weight")], ("p2", "promote", "Sea Otter"), "ok",
     lambda g: g.s.used == ["weight"] and g.s.phase == "attack"
     and play(g.clone(), ("p1", "stat", "speed")).ok),
    ("5.4 no cards from hand", "AB-5.4", {**CHAIN, "hands": {"p2": ["Blue Whale"]}}, None,
     [("p1", "stat", "weight")], ("p2", "promote", "Blue Whale"), "AB-5.4",
     lambda g: g.s.players["p2"].hand == ids(["Blue Whale"])),
    ("5.5 each statistic once per attack sequence", "AB-5.5",
     {"challenger": "Orca", "defender": "Fin Whale"}, {"stat_tie": "replay"},
     [("p1", "stat", "lifespan")], ("p1", "stat", "lifespan"), "AB-5.5",
     lambda g: g.s.used == ["lifespan"]),
    ("5.6 a replacement Defender wins", "AB-5.6",
     {**DUEL, "pools": {"p2": ["Greenland Shark"]}}, HOUSE_C,
     [("p1", "stat", "weight"), ("p2", "promote", "Greenland Shark")],
     ("p1", "stat", "lifespan"), "ok",
     lambda g: discard(g, "p1") == ["Orca"] and discard(g, "p2") == ["Walrus", "Greenland Shark"]
     and g.s.challenger is None and g.s.active == "p2"),
    ("5.7 all five statistics used: the Defender that stood becomes the Challenger", "AB-5.7",
     {"challenger": "Blue Whale", "defender": "Sea Otter",
      "pools": {"p1": ["Narwhal"], "p2": ["Walrus", "Emperor Penguin", "Weddell Seal",
                                          "Fin Whale"]}},
     {**HOUSE_C, "stat_tie": "replay"},
     [("p1", "stat", "weight"), ("p2", "promote", "Walrus"), ("p1", "stat", "length"),
      ("p2", "promote", "Emperor Penguin"), ("p1", "stat", "population"),
      ("p2", "promote", "Weddell Seal"), ("p1", "stat", "speed"),
      ("p2", "promote", "Fin Whale")],
     ("p1", "stat", "lifespan"), "ok",  # 90 ties 90: Fin Whale stands after the fifth
     lambda g: discard(g, "p1") == ["Blue Whale"] and g.s.challenger == IDS["Fin Whale"]
     and g.s.controller == "p2" and g.s.active == "p2" and g.s.defenders["p2"] is None),
    ("5.7/G.9 a replacement promoted after the last statistic becomes the Challenger",
     "AB-G.9", LAST_LINK, {**HOUSE_C, "last_stat_promote": "becomes_challenger"},
     LAST_LINK_BEFORE + [("p1", "stat", "speed")], ("p2", "promote", "Adelie Penguin"), "ok",
     lambda g: discard(g, "p1") == ["Blue Whale"] and g.s.challenger == IDS["Adelie Penguin"]
     and g.s.controller == "p2" and g.s.active == "p2" and g.s.defenders["p2"] is None),
    ("5.7/G.9 no promotion after the last statistic: the attack ends", "AB-G.9", LAST_LINK,
     {**HOUSE_C, "last_stat_promote": "attack_ends"}, LAST_LINK_BEFORE,
     ("p1", "stat", "speed"), "ok",
     lambda g: g.s.challenger == IDS["Blue Whale"] and g.s.controller == "p1"
     and g.s.phase == "end" and g.s.defenders["p2"] is None
     and g.s.players["p2"].pool == ids(["Adelie Penguin"]) and not discard(g, "p1")),
    ("5.2/6.4 a Pool without Animals still waits for a promotion the card in hand allows",
     "AB-5.2", {"challenger": "Orca", "defender": "Walrus",
                "hands": {"p2": ["Blue Whale", "Emergency Reinforcement"]}}, None,
     [("p1", "stat", "weight"), ("p2", "play", "Emergency Reinforcement")],
     ("p2", "promote", "Blue Whale"), "ok", lambda g: g.s.defenders["p2"] == IDS["Blue Whale"]),
    ("5.7/6.4 a statistic freed by card text keeps the chain going after all five", "AB-5.3",
     {**LAST_LINK, "hands": {"p1": ["Second Wind"]}},
     {**HOUSE_C, "last_stat_promote": "becomes_challenger"},
     LAST_LINK_BEFORE + [("p1", "stat", "speed"), ("p1", "play", "Second Wind", "weight")],
     ("p2", "promote", "Adelie Penguin"), "ok",
     lambda g: g.s.challenger == IDS["Blue Whale"] and g.s.controller == "p1"
     and g.s.defenders["p2"] == IDS["Adelie Penguin"] and g.s.phase == "attack"),
    # -- 6. Reminders ------------------------------------------------------------------------
    ("6.1 a Challenger cannot be voluntarily replaced", "AB-6.1",
     {**DUEL, "pools": {"p1": ["Narwhal"]}}, None, [], ("p1", "challenge", "Narwhal"), "AB-6.1",
     lambda g: g.s.challenger == IDS["Orca"]),
    ("6.2 a player with an active Challenger must attack", "AB-6.2", DUEL, None, [],
     ("p1", "end_turn"), "AB-6.2", lambda g: g.s.active == "p1"),
    ("6.2 unless a card effect allows otherwise", "AB-6.2",
     {**DUEL, "hands": {"p1": ["Strategic Retreat"]}}, None,
     [("p1", "play", "Strategic Retreat")], ("p1", "end_turn"), "ok",
     lambda g: g.s.active == "p2" and g.s.challenger == IDS["Orca"]),
    ("6.3 a change of control ends the attack and starts a fresh turn", "AB-6.3",
     {**DUEL, "pools": {"p2": ["Greenland Shark"]}}, HOUSE_C,
     [("p1", "stat", "weight"), ("p2", "promote", "Greenland Shark"), ("p1", "stat", "lifespan")],
     ("p1", "stat", "speed"), "AB-4.3",
     lambda g: g.s.turn == 3 and g.s.used == [] and g.s.phase == "draw"),
    ("6.4 card text beats a general rule (reuse a statistic)", "AB-6.4",
     {"challenger": "Orca", "defender": "Fin Whale", "hands": {"p1": ["Second Wind"]}},
     {"stat_tie": "replay"},
     [("p1", "stat", "lifespan"), ("p1", "play", "Second Wind", "lifespan")],
     ("p1", "stat", "lifespan"), "ok", lambda g: g.s.used == ["lifespan", "lifespan"]),
    ("6.4 the card lets its statistic be chosen once more, not twice", "AB-6.4",
     {"challenger": "Orca", "defender": "Fin Whale", "hands": {"p1": ["Second Wind"]}},
     {"stat_tie": "replay"},
     [("p1", "stat", "lifespan"), ("p1", "play", "Second Wind", "lifespan"),
      ("p1", "stat", "lifespan")], ("p1", "stat", "lifespan"), "AB-5.5",
     lambda g: g.s.used == ["lifespan", "lifespan"]),
    ("6.4 the card frees only the statistic it names", "AB-6.4",
     {"challenger": "Orca", "defender": "Walrus", "pools": {"p2": ["Fin Whale"]},
      "hands": {"p1": ["Second Wind"]}}, {**HOUSE_C, "stat_tie": "replay"},
     [("p1", "stat", "weight"), ("p2", "promote", "Fin Whale"), ("p1", "stat", "lifespan"),
      ("p1", "play", "Second Wind", "lifespan")], ("p1", "stat", "weight"), "AB-5.5",
     lambda g: g.s.used == ["weight", "lifespan"] and g.s.defenders["p2"] == IDS["Fin Whale"]),
    ("6.4 a card that lasts this turn is gone the next", "AB-6.2",
     {**DUEL, "hands": {"p1": ["Strategic Retreat"]}}, {"decline_promote": "attack_ends"},
     [("p1", "play", "Strategic Retreat"), ("p1", "stat", "weight"), ("p2", "decline"),
      ("p1", "end_turn"), ("p2", "draw"), ("p2", "end_turn"), ("p1", "draw")],
     ("p1", "end_turn"), "AB-6.2", lambda g: g.s.active == "p1" and g.s.turn == 4),
    ("6.4 a larger Pool is only its player's", "AB-4.2",
     {"challenger": "Orca", "defender": "Walrus", "phase": "pool",
      "hands": {"p1": ["Expanded Habitat"], "p2": ["Narwhal"]},
      "pools": {"p2": ["Sea Otter", "Vaquita", "Cheetah", "Fin Whale", "Blue Whale"]}},
     {"decline_promote": "attack_ends"},
     [("p1", "play", "Expanded Habitat"), ("p1", "stat", "weight"), ("p2", "decline"),
      ("p1", "end_turn"), ("p2", "draw")], ("p2", "place", "Narwhal"), "AB-4.2",
     lambda g: len(g.s.players["p2"].pool) == 5 and IDS["Narwhal"] in g.s.players["p2"].hand),
    ("6.4 only action cards are played", "AB-6.4", {**DUEL, "hands": {"p1": ["Narwhal"]}}, None,
     [], ("p1", "play", "Narwhal"), "AB-6.4",
     lambda g: g.s.players["p1"].hand == ids(["Narwhal"]) and g.s.waiting is None),
    ("6.4 a larger Pool", "AB-6.4",
     {"phase": "pool", "hands": {"p1": ["Expanded Habitat", "Narwhal"]},
      "pools": {"p1": ["Orca", "Walrus", "Sea Otter", "Vaquita", "Cheetah"]}}, None,
     [("p1", "play", "Expanded Habitat")], ("p1", "place", "Narwhal"), "ok",
     lambda g: len(g.s.players["p1"].pool) == 6),
    ("6.4 a card from hand into the chain", "AB-6.4",
     {**CHAIN, "hands": {"p2": ["Blue Whale", "Emergency Reinforcement"]}}, None,
     [("p1", "stat", "weight"), ("p2", "play", "Emergency Reinforcement")],
     ("p2", "promote", "Blue Whale"), "ok", lambda g: g.s.defenders["p2"] == IDS["Blue Whale"]),
    ("6.4 a swap of Challenger", "AB-6.4",
     {**DUEL, "pools": {"p1": ["Narwhal"]}, "hands": {"p1": ["Tag Team"]}}, None,
     [("p1", "play", "Tag Team")], ("p1", "challenge", "Narwhal"), "ok",
     lambda g: g.s.challenger == IDS["Narwhal"] and g.s.players["p1"].pool == ids(["Orca"])),
    ("6.4 two draws", "AB-6.4",
     {"phase": "draw", "hands": {"p1": ["Foraging Run"]},
      "decks": {"p1": ["Narwhal", "Vaquita", "Cheetah"]}}, None,
     [("p1", "play", "Foraging Run")], ("p1", "draw"), "ok",
     lambda g: len(g.s.players["p1"].hand) == 2 and discard(g, "p1") == ["Foraging Run"]),
    ("6.4 the card's timing is part of its text", "AB-6.4",
     {**DUEL, "hands": {"p1": ["Second Wind"]}}, None, [], ("p1", "play", "Second Wind"),
     "AB-6.4", lambda g: g.s.players["p1"].hand == ids(["Second Wind"])),
    # -- gaps, the other house value ----------------------------------------------------------
    ("G.8 replace_defender=forbidden: the active Defender stays", "AB-G.8",
     {**DUEL, "pools": {"p2": ["Narwhal"]}}, {"replace_defender": "forbidden"}, [],
     ("p2", "defend", "Narwhal"), "AB-G.8",
     lambda g: g.s.defenders["p2"] == IDS["Walrus"] and g.s.players["p2"].pool == ids(["Narwhal"])),
    ("G.8/4.2 a swapped-out Defender cannot go back to a full Pool", "AB-4.2",
     {**DUEL, "pools": {"p2": ["Sea Otter", "Vaquita", "Cheetah", "Fin Whale", "Blue Whale"]},
      "hands": {"p2": ["Narwhal"]}}, {"replace_defender": "allowed", "new_animal_from": "pool_or_hand"},
     [], ("p2", "defend", "Narwhal"), "AB-4.2",
     lambda g: g.s.defenders["p2"] == IDS["Walrus"] and len(g.s.players["p2"].pool) == 5
     and g.s.players["p2"].hand == ids(["Narwhal"])),
    ("G.7/4.3 a Challenger from the hand is still an Animal", "AB-4.3",
     {"hands": {"p1": ["Second Wind"]}, "pools": {"p2": ["Walrus"]}},
     {"new_animal_from": "pool_or_hand"}, [], ("p1", "challenge", "Second Wind"), "AB-4.3",
     lambda g: g.s.challenger is None and g.s.players["p1"].hand == ids(["Second Wind"])),
    # -- 1.1 The loser cannot provide a required Animal ---------------------------------------
    ("1.1 no Defender to provide", "AB-1.1", {"pools": {"p1": ["Orca"]}}, None, [],
     ("p1", "challenge", "Orca"), "ok", lambda g: g.s.winner == "p1"),
    ("1.1 no Challenger to provide", "AB-1.1",
     {"phase": "draw", "decks": {"p1": ["Second Wind"]}, "pools": {"p2": ["Walrus"]}}, None, [],
     ("p1", "draw"), "ok", lambda g: g.s.winner == "p2"),
]


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_rule_table(row):
    _name, rule, layout, house, before, action, expected, check = row
    g = position(layout, house)
    for step in before:
        out = play(g, step)
        assert out.ok and out.stop is None, (step, out.to_json())
    out = play(g, action)
    if expected == "ok":
        assert out.ok and out.stop is None, out.to_json()
        assert rule in out.rules or rule in " ".join(out.notes), out.to_json()
    elif expected.startswith("gap "):
        assert out.ok and out.stop and out.stop.rule == expected[4:], out.to_json()
    else:
        assert [v.rule for v in out.violations] == [expected], out.to_json()
    if check is not None:
        assert check(g), g.summary()


def test_illegal_action_changes_nothing():
    g = position({**DUEL, "pools": {"p1": ["Narwhal"]}})
    before = g.summary()
    for action in [("p1", "stat", "max_depth"), ("p1", "challenge", "Narwhal"),
                   ("p2", "stat", "weight"), ("p1", "promote", "Narwhal")]:
        out = play(g, action)
        assert out.violations and out.violations[0].message
    assert g.summary() == before


# -- gaps: said, never filled ------------------------------------------------------------------
GAP_ROWS = [
    # (gap, layout, before, action, house rule, what the ruling does)
    ("AB-G.1", {"challenger": "Orca", "defender": "Fin Whale", "pools": {"p2": ["Walrus"]}}, [],
     ("p1", "stat", "lifespan"),
     {"stat_tie": "challenger"}, lambda g: discard(g, "p2") == ["Fin Whale"]),
    ("AB-G.2", {"challenger": "Walrus", "defender": "Orca"}, [], ("p1", "stat", "weight"),
     {"original_defender_wins": "discard_challenger"},
     lambda g: discard(g, "p1") == ["Walrus"] and g.s.defenders["p2"] == IDS["Orca"]
     and g.s.phase == "end" and g.s.active == "p1"),
    ("AB-G.3", CHAIN, [("p1", "stat", "weight")], ("p2", "decline"),
     {"decline_promote": "attack_ends"},
     lambda g: g.s.phase == "end" and g.s.challenger == IDS["Orca"]),
    ("AB-G.3", {"challenger": "Orca", "defender": "Walrus"}, [], ("p1", "stat", "weight"),
     {"decline_promote": "defender_loses"},
     lambda g: g.s.winner == "p1"),
    ("AB-G.4", {**CHAIN, "pools": {"p2": ["Sea Otter", "Vaquita"]}},
     [("p1", "stat", "weight"), ("p2", "promote", "Sea Otter")],
     ("p2", "stat", "speed"), {"next_stat_chooser": "defender"},
     lambda g: g.s.used == ["weight", "speed"]),
    ("AB-G.6", {**DUEL, "phase": "end", "decks": {}}, [], ("p1", "end_turn"),
     {"empty_deck_draw": "lose"},
     lambda g: g.s.winner == "p2"),
    ("AB-G.7", {"hands": {"p1": ["Orca"]}, "pools": {"p2": ["Walrus"]}}, [],
     ("p1", "challenge", "Orca"), {"new_animal_from": "pool_or_hand"},
     lambda g: g.s.challenger == IDS["Orca"] and g.s.players["p1"].hand == []),
    ("AB-G.8", {**DUEL, "pools": {"p2": ["Narwhal"]}}, [], ("p2", "defend", "Narwhal"),
     {"replace_defender": "allowed"},
     lambda g: g.s.defenders["p2"] == IDS["Narwhal"] and g.s.players["p2"].pool == ids(["Walrus"])),
    # the statistics named as a position ruling (no player), so AB-G.4 is not met on the way
    ("AB-G.9", LAST_LINK, [(None, *a[1:]) if a[1] == "stat" else a for a in LAST_LINK_BEFORE],
     (None, "stat", "speed"), {"last_stat_promote": "becomes_challenger"},
     lambda g: g.s.phase == "promote" and g.s.challenger == IDS["Blue Whale"]
     and g.s.players["p2"].pool == ids(["Adelie Penguin"])),
    ("AB-G.9", LAST_LINK, [(None, *a[1:]) if a[1] == "stat" else a for a in LAST_LINK_BEFORE],
     (None, "stat", "speed"), {"last_stat_promote": "attack_ends"},
     lambda g: g.s.phase == "end" and g.s.challenger == IDS["Blue Whale"]
     and g.s.defenders["p2"] is None and g.s.players["p2"].pool == ids(["Adelie Penguin"])),
]


@pytest.mark.parametrize("gap, layout, before, action, house, check", GAP_ROWS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(GAP_ROWS)])
def test_gap_stops_without_house_rule_and_follows_one(gap, layout, before, action, house, check):
    g = position(layout)
    for step in before:
        assert play(g, step).ok
    before_state = g.summary()
    out = play(g, action)
    assert out.ok and out.stop is not None and out.stop.rule == gap, out.to_json()
    assert out.stop.record.value is None and "judge" in out.stop.ruling
    (key, value), = house.items()
    assert key in out.stop.ruling  # names the house rule that settles it
    after = play(g, ("p1", "end_turn"))  # the game waits for the judge
    assert after.violations and after.violations[0].rule == gap
    if gap in ("AB-G.7", "AB-G.8"):  # asked before anything changed
        assert g.summary()["players"] == before_state["players"]

    g = position(layout, house)
    for step in before:
        assert play(g, step).ok
    out = play(g, action)
    assert out.ok and out.stop is None, out.to_json()
    assert [x.rule for x in out.gaps] == [gap] and out.gaps[0].value == value
    assert check(g), g.summary()


def test_gap_g7_forbidden_is_a_violation_naming_the_house_rule():
    g = position({"hands": {"p1": ["Orca"]}, "pools": {"p2": ["Walrus"]}},
                 {"new_animal_from": "pool"})
    out = play(g, ("p1", "challenge", "Orca"))
    assert [v.rule for v in out.violations] == ["AB-G.7"]
    assert "new_animal_from=pool" in out.violations[0].message


def test_gap_g5_more_than_two_players():
    decks = {p: ids(["Orca", "Walrus", "Sea Otter", "Narwhal", "Vaquita", "Cheetah"])
             for p in ("p1", "p2", "p3")}
    g = Match(BOOK, decks, first="p1")
    out = g.act("p1", "reveal_challenger", IDS["Orca"])
    assert out.stop and out.stop.rule == "AB-G.5"
    g = Match(BOOK, decks, first="p1", house_rules={"defender_player": "next"})
    assert g.act("p1", "reveal_challenger", IDS["Orca"]).ok
    # the opponent selects the Defender (AB-4.3), here the next in seat order (AB-G.5)
    assert g.act("p3", "reveal_defender", IDS["Walrus"]).violations[0].rule == "AB-4.3"
    assert g.act("p2", "reveal_defender", IDS["Walrus"]).ok
    g = Match(BOOK, decks, first="p1", house_rules={"defender_player": "attacker_choice"})
    assert g.act("p1", "reveal_challenger", IDS["Orca"]).ok
    assert g.act("p1", "target", "p3").ok
    assert g.act("p3", "reveal_defender", IDS["Walrus"]).ok


def test_change_of_control_gives_the_fresh_turn_to_the_new_controller():
    """AB-5.6, AB-6.3: with three players the fresh turn is the defending player's, who now
    controls the Challenger, not the next seat's."""
    decks = {p: ids(["Cheetah"] * 6) for p in ("p1", "p2", "p3")}
    house = {"defender_player": "attacker_choice", "next_stat_chooser": "challenger"}
    g = Match.position(BOOK, players=("p1", "p2", "p3"), house_rules=house,
                       challenger=IDS["Orca"], defenders={"p3": IDS["Walrus"]},
                       pools={"p3": ids(["Greenland Shark"])}, decks=decks)
    for step in [("p1", "target", "p3"), ("p1", "stat", "weight"),
                 ("p3", "promote", "Greenland Shark")]:
        assert play(g, step).ok
    out = play(g, ("p1", "stat", "lifespan"))  # Greenland Shark 400 beats Orca 90
    assert out.ok and "AB-5.6" in out.rules and "AB-6.3" in out.rules, out.to_json()
    assert (g.s.active, g.s.turn, g.s.phase, g.s.used) == ("p3", 3, "draw", [])
    assert discard(g, "p1") == ["Orca"] and discard(g, "p3") == ["Walrus", "Greenland Shark"]


def test_unknown_house_rule_value_is_refused():
    from deckcli.errors import UsageError

    with pytest.raises(UsageError, match="stat_tie"):
        position(DUEL, {"stat_tie": "coin"})
    with pytest.raises(UsageError, match="known"):
        position(DUEL, {"stat_ties": "defender"})


def test_unmodelled_card_text_stops_for_a_judge_and_says_so():
    """A card of one's own whose text carries no effect data (DB-2.5): playing it stops the
    replay for a judge, and the ruling's notes say its text was not applied."""
    mystery = CardInfo(10**9, "Mystery Tide (USR) 1", "Mystery Tide", "action", {},
                       text="Swap two Pools.", refers_to=("AB-4.2",))
    BOOK[mystery.id], IDS[mystery.name] = mystery, mystery.id
    try:
        g = position({"phase": "pool", "hands": {"p1": ["Mystery Tide"]}})
        out = play(g, ("p1", "play", "Mystery Tide"))
    finally:
        del BOOK[mystery.id], IDS[mystery.name]
    assert out.ok and out.stop and out.stop.gap is False and "judge" in out.stop.ruling
    assert out.remarks == ["Mystery Tide (USR) 1: its text has no effect data, so the referee "
                           "does not apply it (DB-2.5)"]


# -- setup (section 3) ---------------------------------------------------------------------
def deal(first="p1", seed=None, p1=None, p2=None):
    base = ["Orca", "Walrus", "Sea Otter", "Narwhal", "Vaquita", "Second Wind", "Cheetah",
            "Fin Whale"]
    return Match(BOOK, {"p1": ids(p1 or base), "p2": ids(p2 or base)}, first=first, seed=seed)


def test_setup_opening_hand_and_order():
    g = deal()
    assert [len(p.hand) for p in g.s.players.values()] == [6, 6]  # AB-3.1
    assert g.act("p2", "reveal_defender", IDS["Walrus"]).violations[0].rule == "AB-3.4"
    # the starting Challenger is the first player's, who attacks on the first turn (AB-3.6)
    assert g.act("p2", "reveal_challenger", IDS["Walrus"]).violations[0].rule == "AB-3.6"
    assert g.act("p1", "place", IDS["Walrus"]).violations[0].rule == "AB-3.5"
    assert g.act("p1", "reveal_challenger", IDS["Orca"]).ok
    assert g.act(None, "start").violations[0].rule == "AB-3.4"
    # the first player's own Animal cannot be the starting Defender (AB-4.3)
    assert g.act("p1", "reveal_defender", IDS["Walrus"]).violations[0].rule == "AB-4.3"
    assert g.act("p2", "reveal_defender", IDS["Walrus"]).ok
    for name in ("Sea Otter", "Narwhal", "Vaquita"):
        assert g.act("p1", "place", IDS[name]).ok
    out = g.act(None, "start")
    assert "AB-3.6" in out.rules and g.s.phase == "pool" and g.s.active == "p1"
    assert g.act("p1", "draw").violations[0].rule == "AB-3.6"
    assert g.act("p1", "stat", None, "speed").ok  # no draw, but an attack (AB-3.6)


def test_setup_pool_holds_up_to_five():
    """AB-3.5: a player who revealed nothing (a third seat) holds six Animals, and only five
    of them go into the Pool at setup."""
    six = ["Orca", "Walrus", "Sea Otter", "Narwhal", "Vaquita", "Cheetah"]
    decks = {p: ids(six) for p in ("p1", "p2", "p3")}
    g = Match(BOOK, decks, first="p1", house_rules={"defender_player": "next"})
    assert g.act("p1", "reveal_challenger", IDS["Orca"]).ok
    assert g.act("p2", "reveal_defender", IDS["Walrus"]).ok
    for name in six[:5]:
        assert g.act("p3", "place", IDS[name]).ok
    out = g.act("p3", "place", IDS["Cheetah"])
    assert [v.rule for v in out.violations] == ["AB-3.5"]
    assert g.s.players["p3"].pool == ids(six[:5]) and g.s.players["p3"].hand == ids(["Cheetah"])


@pytest.mark.parametrize("rule, before, action", [
    ("AB-3.3", [], ("p1", "reveal_challenger", "Second Wind")),
    ("AB-3.4", [("p1", "reveal_challenger", "Orca")], ("p2", "reveal_defender", "Second Wind")),
    ("AB-3.5", [("p1", "reveal_challenger", "Orca"), ("p2", "reveal_defender", "Walrus")],
     ("p1", "place", "Second Wind")),
], ids=["challenger", "defender", "pool"])
def test_setup_reveals_and_pools_only_animals(rule, before, action):
    """AB-3.3 to AB-3.5: the starting Challenger and Defender are Animals, and the Pool is filled
    with Animals; an action card in the opening hand is refused and stays in the hand."""
    g = deal()
    for step in before:
        assert play(g, step).ok
    assert IDS["Second Wind"] in g.s.players[action[0]].hand
    state = g.summary()
    out = play(g, action)
    assert [v.rule for v in out.violations] == [rule], out.to_json()
    assert g.summary() == state


def test_setup_first_player_without_animal_loses():
    g = deal(p1=["Second Wind"] * 8)
    assert g.s.winner == "p2" and "AB-3.3" in " ".join(g.setup.notes)


def test_seeded_deal_is_reproducible_and_shuffles():
    a, b = deal(seed=11, first=None), deal(seed=11, first=None)
    assert a.summary() == b.summary()
    assert "AB-3.2" in a.setup.rules  # the seeded generator is the fair method
    firsts = {deal(seed=s, first=None).s.first for s in range(12)}
    assert firsts == {"p1", "p2"}
    others = {str(deal(seed=s, first=None).summary()["players"]) for s in range(8)}
    assert len(others) > 1


# -- property tests ---------------------------------------------------------------------------
HOUSE_ALL = {"stat_tie": ["challenger", "defender", "replay"],
             "original_defender_wins": ["discard_challenger", "as_replacement"],
             "decline_promote": ["attack_ends", "defender_loses"],
             "next_stat_chooser": ["challenger", "defender"],
             "defender_player": ["next", "attacker_choice"],
             "empty_deck_draw": ["skip", "lose"], "new_animal_from": ["pool", "pool_or_hand"],
             "replace_defender": ["allowed", "forbidden"],
             "last_stat_promote": ["becomes_challenger", "attack_ends"]}
POOL_OF_CARDS = [n for n in NAMES if n != "Field Guide"]


def random_game(seed: int, players: int = 2, max_steps: int = 400):
    rng = random.Random(seed)
    decks = {f"p{i + 1}": [IDS[rng.choice(POOL_OF_CARDS)] for _ in range(rng.randint(8, 24))]
             for i in range(players)}
    house = {k: rng.choice(v) for k, v in HOUSE_ALL.items()}
    return Match(BOOK, decks, seed=seed, house_rules=house), decks, house, rng


def play_out(game, rng, max_steps=400, watch=None):
    actions = []
    while game.s.winner is None and game.s.waiting is None and len(actions) < max_steps:
        legal = ENGINE.legal_actions(game)
        assert legal, game.summary()  # a live game always has a legal action
        action = rng.choice(legal)
        before = list(game.s.used)
        turn = game.s.turn
        out = game.act(*action)
        assert not out.violations, (action, out.violations)
        if watch:
            watch(before, turn, game)
        actions.append(action)
    return actions


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 2, 3]))
def test_random_legal_play_never_violates_and_replays(seed, players):
    game, decks, house, rng = random_game(seed, players)

    def used_only_grows(before, turn, g):
        if g.s.turn == turn:  # the same attack sequence (a new turn starts a new one)
            assert g.s.used[:len(before)] == before  # AB-5.5: the used set only grows

    actions = play_out(game, rng, watch=used_only_grows)
    again = Match(BOOK, decks, seed=seed, house_rules=house)
    for action in actions:
        assert again.act(*action).ok
    assert again.summary() == game.summary()
