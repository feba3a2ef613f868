"""alpha-walrus referee, one table row per rule sentence and clarification of the seed.

Each row is a table position (hands, fields, gear, round) plus the actions of a game log; the
verdict of the *last* action is checked: ``ok`` (legal, and the rule is cited), ``illegal``
(the first violation names the rule) or ``gap`` (a gap with that id is reported). An optional
check then looks at the table afterwards, so a row fails when the engine applies a rule wrongly
as well as when it cites the wrong one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from conftest import check_log

W6, W8 = "Walrus (AWC) 22", "Walrus (AWC) 30"
GEAR = ["Alpha Walrus Tusks", "Alpha Walrus Crown", "Alpha Walrus Cloak", "Alpha Walrus Horn"]
HAND = ["Lemming", "Ermine", "Snow Bunting", "Arctic Hare", "Caribou"]
FILLER = ["Puffin", "Krill", "Lynx", "Beluga", "Harp Seal", "Wolverine", "Ringed Seal", "Sea Otter",
          "Musk Ox", "Narwhal"]


def A(do, player="alice", **kw):
    return {"player": player, "do": do, **kw}


DRAW = A("draw")


def game(actions, *, alice=HAND, bob=HAND, carol=None, field=None, gear=None, round=3,
         deck=None, discard=None, house=None, centre="Alpha Walrus", seed=1):
    players = ["alice", "bob"] + (["carol"] if carol is not None else [])
    hands = {"alice": list(alice), "bob": list(bob)}
    if carol is not None:
        hands["carol"] = list(carol)
    setup = {"hands": hands, "deck": list(FILLER if deck is None else deck), "round": round,
             "field": field or {}, "gear": gear or {}, "discard": list(discard or []),
             "centre": centre}
    log = {"game": "alpha-walrus", "seed": seed, "players": players, "setup": setup,
           "actions": actions}
    return check_log(log, None, house or {})


@dataclass
class Row:
    rule: str
    what: str
    actions: list
    verdict: str  # ok | illegal | gap
    table: dict = field(default_factory=dict)
    check: object = None  # callable(result) -> bool

    @property
    def id(self) -> str:
        return f"{self.rule}:{self.what}"


def hand(res, who="alice"):
    return res["final"]["players"][who]["hand_cards"]


def fld(res, who="alice"):
    return [c["card"].split(" (")[0] for c in res["final"]["players"][who]["field"]]


def last(res):
    return res["steps"][-1]


BATTLE = dict(target="bob", stake="hand")
# three players; the Alpha Walrus ties bob's Orca with Tusk Charge, loses the dice and alice is
# removed (AW-9.2) before carol is fought
LOST = A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
    {"player": "bob", "card": "Tusk Charge"}]}, {"opponent": "carol"}], rolls=[1, 6])

ROWS = [
    # ----------------------------------------------------------------- 1. setup, hand, rounds
    Row("AW-5.2", "ending a turn with 8 cards breaks the maximum of 7 (AW-1.5); the turn goes on",
        [DRAW, A("end")], "illegal", dict(alice=HAND + ["Krill", "Puffin"]),
        lambda r: r["final"]["turn"] == "alice"),
    Row("AW-1.5", "ending a turn with 7 cards is within the limit",
        [DRAW, A("end")], "ok", dict(alice=HAND + ["Krill"]),
        lambda r: len(hand(r)) == 7),
    Row("AW-1.6", "no battle in round 2",
        [DRAW, A("battle", **BATTLE)], "illegal",
        dict(round=2, field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-1.6", "a battle in round 3 is allowed",
        [DRAW, A("battle", **BATTLE)], "ok",
        dict(round=3, field={"alice": ["Orca"], "bob": ["Krill"]})),
    # from the first round: a round ends when both players have had a turn (AW-1.6), so
    # alice's second turn is in round 2 and her third in round 3
    Row("AW-1.6", "no battle in the third turn of the game (round 2)",
        [DRAW, A("end"), A("draw", "bob"), A("end", "bob"), DRAW, A("battle", **BATTLE)],
        "illegal", dict(round=1, field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-1.6", "a battle in the fifth turn of the game (round 3) is allowed",
        [DRAW, A("end"), A("draw", "bob"), A("end", "bob"), DRAW, A("end"), A("draw", "bob"),
         A("end", "bob"), DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(round=1, field={"alice": ["Orca"], "bob": ["Krill"]}),
        lambda r: r["final"]["round"] == 3 and fld(r, "bob") == []),
    # ----------------------------------------------------------------- 2. discarding to draw
    Row("AW-2.1", "a second discard-to-draw in one turn",
        [DRAW, A("discard-draw", card="Lemming"), A("discard-draw", card="Ermine")], "illegal"),
    Row("AW-2.1", "one discard-to-draw per turn is allowed",
        [DRAW, A("discard-draw", card="Lemming")], "ok"),
    Row("AW-2.2", "a draw card first, then discard-to-draw",
        [DRAW, A("play", card="Fish Supper"), A("discard-draw", card="Lemming")], "illegal",
        dict(alice=HAND + ["Fish Supper"])),
    Row("AW-2.2", "discard-to-draw first, then a draw card",
        [DRAW, A("discard-draw", card="Lemming"), A("play", card="Fish Supper")], "illegal",
        dict(alice=HAND + ["Fish Supper"])),
    Row("AW-2.3", "a level 1 creature draws 1",
        [DRAW, A("discard-draw", card="Lemming")], "ok", {}, lambda r: len(hand(r)) == 6),
    Row("AW-2.3", "a level 5 creature draws 1",
        [DRAW, A("discard-draw", card="Arctic Wolf")], "ok",
        dict(alice=HAND + ["Arctic Wolf"]), lambda r: len(hand(r)) == 7),
    Row("AW-2.4", "a level 6 creature draws 2",
        [DRAW, A("discard-draw", card=W6)], "ok", dict(alice=HAND + [W6]),
        lambda r: len(hand(r)) == 8),
    Row("AW-2.4", "a level 8 creature draws 2",
        [DRAW, A("discard-draw", card=W8)], "ok", dict(alice=HAND + [W8]),
        lambda r: len(hand(r)) == 8),
    Row("AW-2.5", "a level 9 creature draws 3",
        [DRAW, A("discard-draw", card="Polar Bear")], "ok", dict(alice=HAND + ["Polar Bear"]),
        lambda r: len(hand(r)) == 9),
    Row("AW-2.5", "a level 10 creature draws 3",
        [DRAW, A("discard-draw", card="Orca")], "ok", dict(alice=HAND + ["Orca"]),
        lambda r: len(hand(r)) == 9),
    # ----------------------------------------------------------------- 3. phases
    Row("AW-3.1", "a player acts in another player's turn",
        [DRAW, A("summon", player="bob", card="Lemming")], "illegal"),
    Row("AW-3.1", "an action before the turn's Draw Phase",
        [A("summon", card="Lemming")], "illegal"),
    Row("AW-3.1", "the Battle Phase after the Recover Phase",
        [DRAW, A("recover"), A("battle", **BATTLE)], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    # the Battle Phase is not the Recover Phase: a card put on the field after a battle comes
    # too late for the Play Phase (AW-3.1, AW-3.3), it does not break AW-5.1
    Row("AW-3.1", "summoning after a battle", [DRAW, A("battle", **BATTLE, match={1: 1},
                                                     take="Lemming"),
                                              A("summon", card="Ermine")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}), lambda r: fld(r) == ["Orca"]),
    Row("AW-3.1", "attaching armor after a battle",
        [DRAW, A("battle", **BATTLE, match={1: 1}, take="Lemming"),
         A("equip", card="Blubber Vest", to=1)], "illegal",
        dict(alice=HAND + ["Blubber Vest"], field={"alice": ["Orca"], "bob": ["Krill"]}),
        lambda r: r["final"]["players"]["alice"]["field"][0]["equipment"] == []),
    Row("AW-3.1", "laying down gear after a battle",
        [DRAW, A("battle", **BATTLE, match={1: 1}, take="Lemming"),
         A("place-gear", card="Alpha Walrus Horn")], "illegal",
        dict(alice=HAND + ["Alpha Walrus Horn"], field={"alice": ["Orca"], "bob": ["Krill"]}),
        lambda r: r["final"]["players"]["alice"]["gear"] == []),
    Row("AW-3.1", "summoning the Alpha Walrus after a battle",
        [DRAW, A("battle", **BATTLE, match={1: 1}, take="Lemming"), A("summon-alpha")],
        "illegal", dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"alice": GEAR}),
        lambda r: r["final"]["winner"] is None and fld(r) == ["Orca"]),
    Row("AW-3.2", "the Draw Phase draws one card",
        [DRAW], "ok", {}, lambda r: len(hand(r)) == 6),
    Row("AW-3.2", "a second draw in the same turn",
        [DRAW, DRAW], "illegal"),
    Row("AW-3.3", "summoning from hand in the Play Phase",
        [DRAW, A("summon", card="Lemming")], "ok", {}, lambda r: fld(r) == ["Lemming"]),
    Row("AW-3.3", "summoning a card not in hand",
        [DRAW, A("summon", card="Orca")], "illegal"),
    Row("AW-3.4", "a turn may skip the Battle Phase",
        [DRAW, A("summon", card="Lemming"), A("recover")], "ok",
        dict(field={"bob": ["Krill"]}), lambda r: not r["violations"]),
    Row("AW-3.4", "a battle is optional, not a phase of its own that must happen",
        [DRAW, A("battle", **BATTLE, match={})], "ok",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-3.3", "summoning an equipment card", [DRAW, A("summon", card="Blubber Vest")],
        "illegal", dict(alice=HAND + ["Blubber Vest"]), lambda r: fld(r) == []),
    Row("AW-3.3", "playing a creature card instead of summoning it",
        [DRAW, A("play", card="Lemming")], "illegal", {},
        lambda r: "Lemming (AWC) 2" in hand(r) and r["final"]["discard"] == 0),
    # AW-2.1: discarding to draw belongs to no phase of its own, so it does not end the Play Phase
    Row("AW-3.3", "a summon after discarding to draw in the Play Phase",
        [DRAW, A("summon", card="Lemming"), A("discard-draw", card="Ermine"),
         A("summon", card="Snow Bunting")], "ok", {},
        lambda r: fld(r) == ["Lemming", "Snow Bunting"]),
    # ----------------------------------------------------------------- 4. battle
    Row("AW-4.1", "attacking oneself", [DRAW, A("battle", target="alice", stake="hand")],
        "illegal", dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-4.1", "attacking a player who is not at the table",
        [DRAW, A("battle", target="zed", stake="hand")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-4.1", "attacking an opponent protected by Peace Treaty",
        [DRAW, A("end"), A("draw", "bob"), A("play", "bob", card="Peace Treaty", target="alice"),
         A("end", "bob"), DRAW, A("battle", **BATTLE)], "illegal",
        dict(bob=HAND + ["Peace Treaty"], field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-4.2", "a battle without a declared stake",
        [DRAW, A("battle", target="bob")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-4.2", "a battle without a declared stake, though the defender has gear to win",
        [DRAW, A("battle", target="bob", match={1: 1})], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"bob": ["Alpha Walrus Horn"]}),
        lambda r: fld(r, "bob") == ["Krill"]
        and r["final"]["players"]["bob"]["gear"] == ["Alpha Walrus Horn (AWC) 45"]),
    Row("AW-4.2", "battling for gear the defender does not have",
        [DRAW, A("battle", target="bob", stake="gear")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-4.2", "the winner takes the declared gear",
        [DRAW, A("battle", target="bob", stake="gear", match={1: 1})], "ok",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"bob": ["Alpha Walrus Horn"]}),
        lambda r: "Alpha Walrus Horn (AWC) 45" in hand(r)
        and not r["final"]["players"]["bob"]["gear"]),
    Row("AW-4.2", "the defender keeps the stake when the attacker loses",
        [DRAW, A("battle", target="bob", stake="gear", match={1: 1})], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"bob": ["Alpha Walrus Horn"]}),
        lambda r: r["final"]["players"]["bob"]["gear"] == ["Alpha Walrus Horn (AWC) 45"]),
    Row("AW-4.3", "the defender matches one creature twice",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 1})], "illegal",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Puffin"]})),
    Row("AW-4.3", "the defender's match-ups decide who fights whom",
        [DRAW, A("battle", **BATTLE, match={"Orca": "Puffin", "Krill": "Polar Bear"})], "ok",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Polar Bear", "Puffin"]}),
        lambda r: fld(r) == ["Orca"] and fld(r, "bob") == ["Polar Bear"]),
    Row("AW-4.4", "attacking with only some creatures",
        [DRAW, A("battle", **BATTLE, creatures=["Orca"])], "illegal",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Puffin"]})),
    Row("AW-4.4", "attacking with no creature", [DRAW, A("battle", **BATTLE)], "illegal",
        dict(field={"bob": ["Puffin"]})),
    Row("AW-4.4", "attacking with every creature named",
        [DRAW, A("battle", **BATTLE, creatures=["Orca", "Krill"], match={1: 1})], "ok",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Puffin"]})),
    Row("AW-4.5", "the higher level wins the fight",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(field={"alice": ["Orca"], "bob": ["Polar Bear"]}),
        lambda r: fld(r) == ["Orca"] and fld(r, "bob") == []),
    Row("AW-4.5", "a lower attacker loses the fight",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Puffin"]}),
        lambda r: fld(r) == [] and fld(r, "bob") == ["Puffin"]),
    Row("AW-4.6", "the loser goes to the discard pile with its equipment",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(field={"alice": ["Orca"], "bob": [{"creature": "Krill",
                                                "equipment": ["Blubber Vest"]}]}),
        lambda r: r["final"]["discard"] == 2 and fld(r, "bob") == []),
    Row("AW-4.7", "an attack on a player with no creature: every attacker is unmatched and wins",
        [DRAW, A("battle", target="bob", stake="gear")], "ok",
        dict(field={"alice": ["Krill"]}, gear={"bob": ["Alpha Walrus Horn"]}),
        lambda r: last(r)["battle"]["winner"] == "attacker"
        and "Alpha Walrus Horn (AWC) 45" in hand(r) and fld(r) == ["Krill"]),
    Row("AW-4.7", "an unmatched attacking creature wins the battle",
        [DRAW, A("battle", **BATTLE, match={"Krill": "Orca"}, take="Lemming")], "ok",
        dict(field={"alice": ["Krill", "Lemming"], "bob": ["Orca"]}),
        lambda r: "Lemming (AWC) 2" in hand(r) and fld(r) == ["Lemming"]),
    Row("AW-4.8", "the attacker wins without destroying every defending creature",
        [DRAW, A("battle", **BATTLE, match={})], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Orca", "Moose"]}),
        lambda r: fld(r, "bob") == ["Orca", "Moose"] and len(hand(r)) == 7),
    # AW-G.3 is about all *four* creatures: a defender with three who loses them all is not out
    Row("AW-4.5", "all three of a defender's three creatures destroyed is not AW-G.3",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 2, 3: 3}, take="Lemming")], "ok",
        dict(field={"alice": ["Orca", "Blue Whale", "Polar Bear"],
                    "bob": ["Krill", "Lemming", "Ermine"]},
             house={"destroy_all_four": "eliminates"}),
        lambda r: not r["final"]["players"]["bob"]["out"] and fld(r, "bob") == []
        and "AW-G.3" not in [g["rule"] for g in last(r)["gaps"]]),
    Row("AW-4.9", "a battle card played outside a battle",
        [DRAW, A("play", card="Tusk Charge")], "illegal", dict(alice=HAND + ["Tusk Charge"])),
    Row("AW-4.9", "a battle card in a battle raises its creature's level",
        [DRAW, A("battle", **BATTLE, match={1: 1},
                 battle_cards=[{"player": "alice", "card": "Deep Dive", "on": "Krill"}])], "ok",
        dict(alice=HAND + ["Deep Dive"], field={"alice": ["Krill"], "bob": ["Arctic Fox"]}),
        lambda r: fld(r) == ["Krill"] and fld(r, "bob") == []),
    Row("AW-4.9", "a battle card played in a battle leaves the hand for the discard pile",
        [DRAW, A("battle", **BATTLE, match={1: 1},
                 battle_cards=[{"player": "alice", "card": "Deep Dive", "on": "Krill"}])], "ok",
        dict(alice=HAND + ["Deep Dive"], field={"alice": ["Krill"], "bob": ["Arctic Fox"]}),
        lambda r: "Deep Dive (AWC) 68" not in hand(r) and r["final"]["discard"] == 2),
    Row("AW-4.9", "a battle card from a player who is not in the battle",
        [DRAW, A("battle", **BATTLE, match={1: 1},
                 battle_cards=[{"player": "carol", "card": "Deep Dive"}])], "illegal",
        dict(carol=HAND + ["Deep Dive"],
             field={"alice": ["Krill"], "bob": ["Arctic Fox"], "carol": ["Orca"]}),
        lambda r: "Deep Dive (AWC) 68" in hand(r, "carol") and fld(r, "bob") == ["Arctic Fox"]),
    Row("AW-4.9", "a battle card not in the player's hand",
        [DRAW, A("battle", **BATTLE, match={1: 1},
                 battle_cards=[{"player": "alice", "card": "Deep Dive"}])], "illegal",
        dict(field={"alice": ["Krill"], "bob": ["Arctic Fox"]})),
    Row("AW-4.10", "equal levels: the defender wins",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(field={"alice": ["Harp Seal"], "bob": ["Harp Seal"]}),
        lambda r: fld(r) == [] and fld(r, "bob") == ["Harp Seal"]),
    # alice is beaten in the Final Showdown and removed (AW-9.2): nobody may attack her
    Row("AW-4.1", "attacking a Summoner who was removed from the game",
        [DRAW, LOST, A("draw", "bob"), A("battle", "bob", target="alice", stake="hand")],
        "illegal", dict(carol=HAND, bob=HAND + ["Tusk Charge"], gear={"alice": GEAR},
                        field={"alice": ["Krill"], "bob": ["Orca"], "carol": ["Puffin"]}),
        lambda r: len(hand(r)) == 6 and fld(r, "bob") == ["Orca"]),
    Row("AW-4.3", "two defending creatures of one name are matched by name",
        [DRAW, A("battle", **BATTLE, match={"Orca": "Krill", "Polar Bear": "Krill"},
                 take="Lemming")], "ok",
        dict(field={"alice": ["Orca", "Polar Bear"], "bob": ["Krill", "Krill"]}),
        lambda r: fld(r, "bob") == [] and fld(r) == ["Orca", "Polar Bear"]),
    Row("AW-4.9", "equipment played as a battle card",
        [DRAW, A("battle", **BATTLE, match={1: 1},
                 battle_cards=[{"player": "alice", "card": "Glacier Plate", "on": "Krill"}])],
        "illegal", dict(alice=HAND + ["Glacier Plate"],
                        field={"alice": ["Krill"], "bob": ["Arctic Fox"]}),
        lambda r: "Glacier Plate (AWC) 58" in hand(r) and fld(r, "bob") == ["Arctic Fox"]),
    Row("AW-4.9", "a battle card raises the creature it is played on, not the first one",
        [DRAW, A("battle", **BATTLE, match={"Orca": "Puffin", "Krill": "Arctic Fox"},
                 battle_cards=[{"player": "alice", "card": "Deep Dive", "on": "Krill"}])], "ok",
        dict(alice=HAND + ["Deep Dive"],
             field={"alice": ["Orca", "Krill"], "bob": ["Puffin", "Arctic Fox"]}),
        lambda r: fld(r) == ["Orca", "Krill"] and fld(r, "bob") == []),
    Row("AW-4.10", "a level 6 non-walrus against the level 6 Walrus: equal levels, no dice",
        [DRAW, A("battle", **BATTLE, match={1: 1}, rolls=[6, 1])], "ok",
        dict(field={"alice": ["Narwhal"], "bob": [W6]}),
        lambda r: "AW-10.6" not in last(r)["rules"] and fld(r) == []
        and fld(r, "bob") == ["Walrus"]),
    # ----------------------------------------------------------------- 5. recover
    Row("AW-5.1", "summoning in the Recover Phase", [DRAW, A("recover"),
                                                     A("summon", card="Lemming")], "illegal"),
    Row("AW-5.1", "attaching equipment in the Recover Phase",
        [DRAW, A("recover"), A("equip", card="Blubber Vest", to=1)], "illegal",
        dict(alice=HAND + ["Blubber Vest"], field={"alice": ["Orca"]})),
    Row("AW-5.1", "laying down gear in the Recover Phase",
        [DRAW, A("recover"), A("place-gear", card="Alpha Walrus Horn")], "illegal",
        dict(alice=HAND + ["Alpha Walrus Horn"])),
    Row("AW-5.1", "summoning the Alpha Walrus in the Recover Phase",
        [DRAW, A("recover"), A("summon-alpha")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"alice": GEAR}),
        lambda r: r["final"]["winner"] is None and fld(r) == ["Orca"]
        and len(r["final"]["players"]["alice"]["gear"]) == 4),
    Row("AW-5.1", "playing a card (not to the field) in the Recover Phase",
        [DRAW, A("recover")], "ok", dict(alice=HAND + ["Avalanche"])),
    Row("AW-5.2", "discarding with 7 cards (not over the limit)",
        [DRAW, A("recover"), A("discard", card="Lemming")], "illegal",
        dict(alice=HAND + ["Krill"])),
    Row("AW-5.2", "discarding below 5", [DRAW, A("recover"),
                                         A("discard", cards=["Lemming", "Ermine", "Krill",
                                                             "Puffin", "Orca"])], "illegal",
        dict(alice=HAND + ["Krill", "Puffin", "Orca"])),
    Row("AW-5.2", "discarding from 9 down to 7",
        [DRAW, A("recover"), A("discard", cards=["Lemming", "Ermine"])], "ok",
        dict(alice=HAND + ["Krill", "Puffin", "Orca"]), lambda r: len(hand(r)) == 7),
    Row("AW-5.3", "discarded gear is shuffled back into the deck",
        [DRAW, A("recover"), A("discard", card="Alpha Walrus Horn")], "ok",
        dict(alice=HAND + ["Krill", "Puffin", "Alpha Walrus Horn"]),
        lambda r: r["final"]["deck"] == len(FILLER) and r["final"]["discard"] == 0),
    # AW-5.3 is not only the Recover Phase's: gear discarded to draw goes back into the deck too
    Row("AW-5.3", "gear discarded to draw is shuffled back into the deck",
        [DRAW, A("discard-draw", card="Alpha Walrus Horn")], "ok",
        dict(alice=HAND + ["Alpha Walrus Horn"]),
        lambda r: r["final"]["deck"] == len(FILLER) - 1 and r["final"]["discard"] == 0
        and "Alpha Walrus Horn (AWC) 45" not in hand(r)),
    Row("AW-3.3", "playing a card (not to the field) in the Recover Phase (AW-5.1)",
        [DRAW, A("recover"), A("play", card="Avalanche")], "ok",
        dict(alice=HAND + ["Avalanche"]),
        lambda r: "Avalanche (AWC) 78" not in hand(r) and r["final"]["discard"] == 1),
    Row("AW-5.1", "a Recover discard ends the Play Phase: no summon after it",
        [DRAW, A("discard", cards=["Krill", "Puffin"]), A("summon", card="Lemming")], "illegal",
        dict(alice=HAND + ["Krill", "Puffin", "Orca"]), lambda r: fld(r) == []),
    # ----------------------------------------------------------------- 6. equipment
    Row("AW-6.1", "equipment goes with a creature discarded to make room",
        [DRAW, A("summon", card="Lemming", discard="Orca")], "ok",
        dict(field={"alice": [{"creature": "Orca", "equipment": ["Snow Goggles"]},
                              "Krill", "Puffin", "Ermine"]}),
        lambda r: r["final"]["discard"] == 2),
    Row("AW-6.1", "equipment that survives a discard goes back to hand",
        [DRAW, A("summon", card="Lemming", discard="Orca")], "ok",
        dict(field={"alice": [{"creature": "Orca", "equipment": ["Homing Buoy"]},
                              "Krill", "Puffin", "Ermine"]}),
        lambda r: "Homing Buoy (AWC) 61" in hand(r) and r["final"]["discard"] == 1),
    Row("AW-6.1", "equipment needs a creature of its player's",
        [DRAW, A("equip", card="Blubber Vest", to="Orca")], "illegal",
        dict(alice=HAND + ["Blubber Vest"])),
    Row("AW-6.2", "a third armor piece", [DRAW, A("equip", card="Frost Mail", to=1)],
        "illegal", dict(alice=HAND + ["Frost Mail"],
                        field={"alice": [{"creature": "Orca",
                                          "equipment": ["Blubber Vest", "Glacier Plate"]}]})),
    Row("AW-6.2", "a third armor piece allowed by Triple-Strap Harness",
        [DRAW, A("equip", card="Frost Mail", to=1)], "ok",
        dict(alice=HAND + ["Frost Mail"],
             field={"alice": [{"creature": "Orca", "equipment": [
                 "Blubber Vest", "Glacier Plate", "Triple-Strap Harness"]}]})),
    Row("AW-6.2", "non-armor equipment does not count as armor",
        [DRAW, A("equip", card="Snow Goggles", to=1)], "ok",
        dict(alice=HAND + ["Snow Goggles"],
             field={"alice": [{"creature": "Orca",
                               "equipment": ["Blubber Vest", "Glacier Plate"]}]})),
    Row("AW-6.1", "equipment on an opponent's creature",
        [DRAW, A("equip", card="Blubber Vest", to=1)], "illegal",
        dict(alice=HAND + ["Blubber Vest"], field={"bob": ["Orca"]}),
        lambda r: r["final"]["players"]["bob"]["field"][0]["equipment"] == []),
    # ----------------------------------------------------------------- 7. field
    Row("AW-7.1", "a fifth creature", [DRAW, A("summon", card="Lemming")], "illegal",
        dict(field={"alice": ["Orca", "Krill", "Puffin", "Ermine"]})),
    Row("AW-7.1", "a fifth creature allowed by Herd Bell", [DRAW, A("summon", card="Lemming")],
        "ok", dict(field={"alice": [{"creature": "Orca", "equipment": ["Herd Bell"]},
                                    "Krill", "Puffin", "Ermine"]}),
        lambda r: len(fld(r)) == 5),
    Row("AW-7.2", "discarding a creature to make room",
        [DRAW, A("summon", card="Lemming", discard="Krill")], "ok",
        dict(field={"alice": ["Orca", "Krill", "Puffin", "Ermine"]}),
        lambda r: fld(r) == ["Orca", "Puffin", "Ermine", "Lemming"]),
    Row("AW-7.2", "discarding to make room that is not needed",
        [DRAW, A("summon", card="Lemming", discard="Krill")], "illegal",
        dict(field={"alice": ["Orca", "Krill"]})),
    # ----------------------------------------------------------------- 8. Final Showdown
    Row("AW-8.1", "summoning with three gear pieces", [DRAW, A("summon-alpha")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"alice": GEAR[:3]})),
    Row("AW-8.1", "summoning the Alpha Walrus from hand", [DRAW, A("summon",
                                                                    card="Alpha Walrus")],
        "illegal", dict(alice=HAND + ["Alpha Walrus"], centre=None)),
    Row("AW-8.1", "the Alpha Walrus is not in the centre", [DRAW, A("summon-alpha")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"alice": GEAR}, centre=None)),
    Row("AW-8.1", "all four gear pieces and the creatures are sacrificed",
        [DRAW, A("summon-alpha")], "ok",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Krill"]}, gear={"alice": GEAR}),
        lambda r: fld(r) == [] and r["final"]["players"]["alice"]["gear"] == []
        and r["final"]["centre"] is None),
    Row("AW-8.2", "a Showdown that leaves an opponent out",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob"}])], "illegal",
        dict(carol=HAND, field={"alice": ["Orca"], "bob": ["Krill"], "carol": ["Puffin"]},
             gear={"alice": GEAR})),
    Row("AW-8.2", "the Summoner fights the opponents one by one",
        [DRAW, A("summon-alpha", fights=[{"opponent": "carol"}, {"opponent": "bob"}])], "ok",
        dict(carol=HAND, field={"alice": ["Orca"], "bob": ["Krill"], "carol": ["Puffin"]},
             gear={"alice": GEAR}),
        lambda r: [f["opponent"] for f in last(r)["showdown"]["fights"]] == ["carol", "bob"]),
    Row("AW-8.3", "equipment on the Alpha Walrus",
        [DRAW, A("summon-alpha", alpha_equipment=["Blubber Vest"])], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"alice": GEAR})),
    Row("AW-8.4", "battle cards in the Final Showdown",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Blizzard"}, {"player": "alice", "card": "Deep Dive"}]}])],
        "ok", dict(alice=HAND + ["Deep Dive"], bob=HAND + ["Blizzard"],
                   field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR}),
        lambda r: last(r)["showdown"]["fights"][0]["levels"] == {"summoner": 15,
                                                                  "opponent": 12}),
    Row("AW-8.4", "battle cards played in the Final Showdown leave both hands",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Blizzard"}, {"player": "alice", "card": "Deep Dive"}]}])],
        "ok", dict(alice=HAND + ["Deep Dive"], bob=HAND + ["Blizzard"],
                   field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR}),
        lambda r: "Deep Dive (AWC) 68" not in hand(r) and "Blizzard (AWC) 70" not in hand(r, "bob")
        and r["final"]["discard"] == 3),
    Row("AW-8.5", "a tie goes to the dice",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[2, 5])], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"]),
        lambda r: last(r)["showdown"]["fights"][0]["rolls"] == [{"summoner": 2, "opponent": 5}]
        and last(r)["showdown"]["winner"] == "opponent"),
    Row("AW-8.1", "the fourth gear piece still in hand", [DRAW, A("summon-alpha")], "illegal",
        dict(alice=HAND + [GEAR[3]], field={"alice": ["Orca"], "bob": ["Krill"]},
             gear={"alice": GEAR[:3]}),
        lambda r: r["final"]["centre"] == "Alpha Walrus (AWC) 41" and fld(r) == ["Orca"]),
    Row("AW-8.2", "a Showdown that fights one opponent twice",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob"}, {"opponent": "bob"}])], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, gear={"alice": GEAR})),
    Row("AW-8.2", "without listed fights the Summoner fights every opponent in seat order",
        [DRAW, A("summon-alpha")], "ok",
        dict(carol=HAND, field={"alice": ["Krill"], "bob": ["Krill"], "carol": ["Lemming"]},
             gear={"alice": GEAR}),
        lambda r: [f["opponent"] for f in last(r)["showdown"]["fights"]] == ["bob", "carol"]
        and r["final"]["winner"] == "alice"),
    Row("AW-8.2", "the Showdown ends at the Summoner's first lost fight",
        [DRAW, LOST], "ok",
        dict(carol=HAND, bob=HAND + ["Tusk Charge"], gear={"alice": GEAR},
             field={"alice": ["Krill"], "bob": ["Orca"], "carol": ["Puffin"]}),
        lambda r: [f["opponent"] for f in last(r)["showdown"]["fights"]] == ["bob"]
        and r["final"]["players"]["alice"]["out"]),
    Row("AW-8.4", "a battle card from a player who is not in that fight",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "carol", "card": "Deep Dive"}]}, {"opponent": "carol"}])], "illegal",
        dict(carol=HAND + ["Deep Dive"], gear={"alice": GEAR},
             field={"alice": ["Krill"], "bob": ["Orca"], "carol": ["Puffin"]}),
        lambda r: "Deep Dive (AWC) 68" in hand(r, "carol") and r["final"]["winner"] is None),
    Row("AW-8.4", "equipment played as a battle card in the Final Showdown",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Glacier Plate"}]}])], "illegal",
        dict(bob=HAND + ["Glacier Plate"], field={"alice": ["Krill"], "bob": ["Orca"]},
             gear={"alice": GEAR})),
    # ----------------------------------------------------------------- 9. win / lose
    Row("AW-9.1", "the Summoner who beats every opponent wins",
        [DRAW, A("summon-alpha")], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR}),
        lambda r: r["final"]["winner"] == "alice"),
    Row("AW-9.1", "no action after the game is won",
        [DRAW, A("summon-alpha"), A("draw", "bob")], "illegal",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR})),
    Row("AW-9.2", "a beaten Summoner is removed",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"]),
        lambda r: r["final"]["players"]["alice"]["out"] and r["final"]["winner"] is None),
    Row("AW-9.2", "a removed Summoner takes no more turns",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6]), DRAW], "illegal",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"])),
    Row("AW-9.3", "gear back into the deck and the Alpha Walrus back to the centre",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])], "ok",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"]),
        lambda r: r["final"]["deck"] == len(FILLER) - 1 + 4
        and r["final"]["centre"] == "Alpha Walrus (AWC) 41" and fld(r) == []),
    Row("AW-9.4", "play continues with the remaining players",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6]), A("draw", "bob")],
        "ok", dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
                   bob=HAND + ["Tusk Charge"]),
        lambda r: not r["gaps"] or all(g["house_rule"] != "turn_order" for g in r["gaps"])),
    Row("AW-9.4", "a removed Summoner's turn is over: the next draw judges nothing of theirs",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6]), A("draw", "bob")],
        "ok", dict(alice=HAND[:3], field={"alice": ["Krill"], "bob": ["Orca"]},
                   gear={"alice": GEAR}, bob=HAND + ["Tusk Charge"]),
        lambda r: r["final"]["turn"] == "bob" and last(r)["gaps"] == []
        and last(r)["breaches"] == []),
    Row("AW-9.2", "a removed Summoner cannot answer with Goamph",
        [DRAW, LOST, A("draw", "bob"), A("summon", "bob", card="Lemming", cancelled_by="alice")],
        "illegal", dict(alice=HAND + ["Goamph"], carol=HAND, bob=HAND + ["Tusk Charge"],
                        gear={"alice": GEAR},
                        field={"alice": ["Krill"], "bob": ["Orca"], "carol": ["Puffin"]}),
        lambda r: "Goamph (AWC) 73" in hand(r) and fld(r, "bob") == ["Orca"]),
    Row("AW-9.4", "the removed Summoner's seat is skipped in the turn order",
        [DRAW, LOST, A("draw", "bob"), A("end", "bob"), A("draw", "carol"), A("end", "carol"),
         A("draw", "bob")], "ok",
        dict(carol=HAND, bob=HAND + ["Tusk Charge"], gear={"alice": GEAR},
             field={"alice": ["Krill"], "bob": ["Orca"], "carol": ["Puffin"]},
             house={"turn_order": "listed"}),
        lambda r: r["final"]["turn"] == "bob"),
    # ----------------------------------------------------------------- 10. clarifications
    Row("AW-10.1", "Goamph cancels a creature summon",
        [DRAW, A("summon", card="Orca", cancelled_by="bob")], "ok",
        dict(alice=HAND + ["Orca"], bob=HAND + ["Goamph"]),
        lambda r: fld(r) == [] and "Goamph (AWC) 73" not in hand(r, "bob")
        and r["final"]["discard"] == 2),
    Row("AW-10.2", "Goamph cancels an armor placement",
        [DRAW, A("equip", card="Glacier Plate", to=1, cancelled_by="bob")], "ok",
        dict(alice=HAND + ["Glacier Plate"], bob=HAND + ["Goamph"],
             field={"alice": ["Orca"]}),
        lambda r: r["final"]["players"]["alice"]["field"][0]["equipment"] == []),
    Row("AW-10.3", "a cancelled armor piece goes to the discard pile",
        [DRAW, A("equip", card="Glacier Plate", to=1, cancelled_by="bob")], "ok",
        dict(alice=HAND + ["Glacier Plate"], bob=HAND + ["Goamph"], field={"alice": ["Orca"]}),
        lambda r: "Glacier Plate (AWC) 58" not in hand(r) and r["final"]["discard"] == 2),
    Row("AW-10.2", "Goamph does not cancel non-armor equipment",
        [DRAW, A("equip", card="Snow Goggles", to=1, cancelled_by="bob")], "illegal",
        dict(alice=HAND + ["Snow Goggles"], bob=HAND + ["Goamph"], field={"alice": ["Orca"]})),
    Row("AW-10.3", "Goamph without a Goamph in hand",
        [DRAW, A("summon", card="Orca", cancelled_by="bob")], "illegal",
        dict(alice=HAND + ["Orca"])),
    Row("AW-10.3", "Goamph against laying down gear",
        [DRAW, A("place-gear", card="Alpha Walrus Horn", cancelled_by="bob")], "illegal",
        dict(alice=HAND + ["Alpha Walrus Horn"], bob=HAND + ["Goamph"])),
    Row("AW-10.3", "Goamph played on its own", [DRAW, A("play", card="Goamph")], "illegal",
        dict(alice=HAND + ["Goamph"])),
    Row("AW-10.4", "Goamph cancels a battle",
        [DRAW, A("battle", **BATTLE, match={}, cancelled_by="bob")], "ok",
        dict(bob=HAND + ["Goamph"], field={"alice": ["Orca"], "bob": ["Krill"]}),
        lambda r: fld(r, "bob") == ["Krill"] and len(hand(r, "bob")) == 5),
    Row("AW-10.5", "Lucky Flipper, then discard-to-draw",
        [DRAW, A("play", card="Lucky Flipper"), A("discard-draw", card="Lemming")], "ok",
        dict(alice=HAND + ["Lucky Flipper"]), lambda r: len(hand(r)) == 7),
    Row("AW-10.5", "discard-to-draw, then Lucky Flipper",
        [DRAW, A("discard-draw", card="Lemming"), A("play", card="Lucky Flipper")], "ok",
        dict(alice=HAND + ["Lucky Flipper"]), lambda r: len(hand(r)) == 7),
    Row("AW-10.5", "Lucky Flipper outside the Draw Phase",
        [DRAW, A("summon", card="Lemming"), A("play", card="Lucky Flipper")], "illegal",
        dict(alice=HAND + ["Lucky Flipper"])),
    Row("AW-10.6", "a level 6 Walrus against a walrus: mini showdown",
        [DRAW, A("battle", **BATTLE, match={1: 1}, rolls=[1, 6])], "ok",
        dict(field={"alice": [W6], "bob": ["Walrus Calf"]}),
        lambda r: fld(r) == [] and fld(r, "bob") == ["Walrus Calf"]),
    Row("AW-4.5", "a level 6 Walrus against a non-walrus fights by level (not AW-10.6)",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(field={"alice": [W6], "bob": ["Krill"]}),
        lambda r: "AW-10.6" not in last(r)["rules"] and fld(r, "bob") == []),
    Row("AW-4.5", "walruses without a level 6 Walrus fight by level (not AW-10.6)",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "ok",
        dict(field={"alice": [W8], "bob": ["Pacific Walrus"]}),
        lambda r: "AW-10.6" not in last(r)["rules"] and fld(r, "bob") == []),
    # AW-10.6 leaves the Alpha Walrus out: the level 6 Walrus sent against it fights by level,
    # and the dice given (which would make the opponent win a mini showdown) are not rolled
    Row("AW-8.2", "the level 6 Walrus against the Alpha Walrus: no mini showdown",
        [DRAW, A("summon-alpha", rolls=[1, 6])], "ok",
        dict(field={"alice": ["Krill"], "bob": [W6]}, gear={"alice": GEAR}),
        lambda r: "AW-10.6" not in last(r)["rules"] and last(r)["rolls"] == []
        and r["final"]["winner"] == "alice"),
    Row("AW-10.7", "walruses pair up whatever the defender matched",
        [DRAW, A("battle", **BATTLE, match={W6: "Orca", "Krill": "Pacific Walrus"},
                 rolls=[6, 1], take="Lemming")], "ok",
        dict(field={"alice": [W6, "Krill"], "bob": ["Pacific Walrus", "Orca"]}),
        lambda r: fld(r) == ["Walrus", "Krill"] and fld(r, "bob") == ["Orca"]),
    Row("AW-10.8", "the higher D6 wins the walrus fight",
        [DRAW, A("battle", **BATTLE, match={1: 1}, rolls=[6, 1])], "ok",
        dict(field={"alice": [W6], "bob": ["Bull Walrus"]}),
        lambda r: fld(r) == ["Walrus"] and fld(r, "bob") == []),
    Row("AW-10.9", "the level 8 Walrus keeps the better of two D6",
        [DRAW, A("battle", **BATTLE, match={1: 1}, rolls=[5, 2, 6])], "ok",
        dict(field={"alice": [W6], "bob": [W8]}),
        lambda r: fld(r) == [] and fld(r, "bob") == ["Walrus"]),
    # alice's level 8 Walrus rolls 3 and 6, bob's level 6 Walrus 3: the better die, 6, wins
    Row("AW-10.9", "the level 8 Walrus's better die counts when its first die ties",
        [DRAW, A("battle", **BATTLE, match={1: 1}, rolls=[3, 6, 3], take="Lemming")], "ok",
        dict(field={"alice": [W8], "bob": [W6]}),
        lambda r: fld(r) == ["Walrus"] and fld(r, "bob") == []),
]

GAP_ROWS = [
    Row("AW-G.1", "a bonus changes who is highest",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "gap",
        dict(field={"alice": [{"creature": "Krill", "equipment": ["Glacier Plate"]}],
                    "bob": ["Arctic Fox"]}), lambda r: fld(r, "bob") == []),
    Row("AW-G.1", "house rule battle_level=printed",
        [DRAW, A("battle", **BATTLE, match={1: 1})], "gap",
        dict(field={"alice": [{"creature": "Krill", "equipment": ["Glacier Plate"]}],
                    "bob": ["Arctic Fox"]}, house={"battle_level": "printed"}),
        lambda r: fld(r) == [] and fld(r, "bob") == ["Arctic Fox"]),
    Row("AW-G.2", "a split battle",
        [DRAW, A("battle", **BATTLE, match={"Orca": "Puffin", "Krill": "Polar Bear"})], "gap",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Polar Bear", "Puffin"]}),
        lambda r: last(r)["battle"]["winner"] == "defender"),
    Row("AW-G.2", "house rule battle_winner=highest",
        [DRAW, A("battle", **BATTLE, match={"Orca": "Puffin", "Krill": "Polar Bear"},
                 take="Lemming")], "gap",
        dict(field={"alice": ["Orca", "Krill"], "bob": ["Polar Bear", "Puffin"]},
             house={"battle_winner": "highest"}),
        lambda r: last(r)["battle"]["winner"] == "attacker"),
    Row("AW-G.3", "all four defending creatures destroyed",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 2, 3: 3, 4: 4}, take="Lemming")], "gap",
        dict(field={"alice": ["Orca", "Blue Whale", "Polar Bear", "Moose"],
                    "bob": ["Krill", "Lemming", "Ermine", "Puffin"]}),
        lambda r: not r["final"]["players"]["bob"]["out"]),
    Row("AW-G.3", "house rule destroy_all_four=eliminates",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 2, 3: 3, 4: 4}, take="Lemming")], "gap",
        dict(field={"alice": ["Orca", "Blue Whale", "Polar Bear", "Moose"],
                    "bob": ["Krill", "Lemming", "Ermine", "Puffin"]},
             house={"destroy_all_four": "eliminates"}),
        lambda r: r["final"]["players"]["bob"]["out"]),
    Row("AW-G.4", "an opponent with two creatures in the Final Showdown",
        [DRAW, A("summon-alpha")], "gap",
        dict(field={"alice": ["Krill"], "bob": ["Orca", "Krill"]}, gear={"alice": GEAR}),
        lambda r: len(last(r)["showdown"]["fights"]) == 1),
    # provisional alpha_opponent=one: the strongest listed creature fights (Orca +3, level 13)
    Row("AW-G.4", "of two creatures the strongest fights the Alpha Walrus",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Deep Dive", "on": "Orca"}]}])], "gap",
        dict(bob=HAND + ["Deep Dive"], field={"alice": ["Krill"], "bob": ["Krill", "Orca"]},
             gear={"alice": GEAR}),
        lambda r: [f["creature"] for f in last(r)["showdown"]["fights"]] == ["Orca (AWC) 38"]
        and r["final"]["players"]["alice"]["out"]),
    Row("AW-G.4", "house rule alpha_opponent=all", [DRAW, A("summon-alpha")], "gap",
        dict(field={"alice": ["Krill"], "bob": ["Orca", "Krill"]}, gear={"alice": GEAR},
             house={"alpha_opponent": "all"}),
        lambda r: len(last(r)["showdown"]["fights"]) == 2),
    Row("AW-G.4", "an opponent with no creature", [DRAW, A("summon-alpha")], "gap",
        dict(field={"alice": ["Krill"]}, gear={"alice": GEAR}),
        lambda r: r["final"]["winner"] == "alice"),
    Row("AW-G.5", "a turn ends with 4 cards",
        [DRAW, A("summon", card="Lemming"), A("summon", card="Ermine"), A("end")], "gap",
        dict(alice=HAND[:4]), lambda r: len(hand(r)) == 3),
    Row("AW-G.5", "a turn ends with exactly 4 cards",
        [DRAW, A("summon", card="Lemming"), A("end")], "gap",
        dict(alice=HAND[:4]), lambda r: len(hand(r)) == 4),
    Row("AW-G.5", "house rule hand_minimum=refill",
        [DRAW, A("summon", card="Lemming"), A("summon", card="Ermine"), A("end")], "gap",
        dict(alice=HAND[:4], house={"hand_minimum": "refill"}), lambda r: len(hand(r)) == 5),
    Row("AW-G.6", "drawing from an empty deck", [DRAW], "gap", dict(deck=[]),
        lambda r: len(hand(r)) == 5),
    Row("AW-G.6", "house rule empty_deck=reshuffle", [DRAW], "gap",
        dict(deck=[], discard=["Orca"], house={"empty_deck": "reshuffle"}),
        lambda r: "Orca (AWC) 38" in hand(r)),
    Row("AW-G.7", "bob takes the first turn", [A("draw", "bob")], "gap"),
    Row("AW-G.7", "house rule turn_order=listed", [A("draw", "bob")], "illegal",
        dict(house={"turn_order": "listed"})),
    Row("AW-G.7", "house rule turn_order=free", [A("draw", "bob")], "ok",
        dict(house={"turn_order": "free"})),
    Row("AW-G.8", "equal mini-showdown dice", [DRAW, A("battle", **BATTLE, match={1: 1},
                                                       rolls=[3, 3])], "gap",
        dict(field={"alice": [W6], "bob": ["Walrus Calf"]}),
        lambda r: fld(r) == [] and len(last(r)["rolls"]) == 2),
    Row("AW-G.8", "house rule mini_showdown_tie=reroll",
        [DRAW, A("battle", **BATTLE, match={1: 1}, rolls=[3, 3, 5, 1], take="Lemming")], "gap",
        dict(field={"alice": [W6], "bob": ["Walrus Calf"]},
             house={"mini_showdown_tie": "reroll"}),
        lambda r: fld(r, "bob") == [] and len(last(r)["rolls"]) == 4),
    Row("AW-G.9", "several walruses to pair",
        [DRAW, A("battle", **BATTLE, match={}, rolls=[6, 1, 6, 6, 1], take="Lemming")], "gap",
        dict(field={"alice": [W6, W8], "bob": ["Walrus Calf", "Laptev Walrus"]}),
        lambda r: fld(r, "bob") == []),
    Row("AW-G.10", "a second battle in one turn",
        [DRAW, A("battle", **BATTLE, match={}, take="Lemming"),
         A("battle", **BATTLE, match={}, take="Ermine")], "gap",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]})),
    Row("AW-G.10", "house rule battles_per_turn=1",
        [DRAW, A("battle", **BATTLE, match={}, take="Lemming"),
         A("battle", **BATTLE, match={}, take="Ermine")], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}, house={"battles_per_turn": "1"})),
    Row("AW-G.11", "discarding a non-creature to draw",
        [DRAW, A("discard-draw", card="Blubber Vest")], "gap",
        dict(alice=HAND + ["Blubber Vest"]), lambda r: len(hand(r)) == 7),
    Row("AW-G.11", "house rule discard_non_creature=forbidden",
        [DRAW, A("discard-draw", card="Blubber Vest")], "illegal",
        dict(alice=HAND + ["Blubber Vest"], house={"discard_non_creature": "forbidden"})),
    Row("AW-G.12", "the defender's gear is only in hand",
        [DRAW, A("battle", target="bob", stake="gear", match={})], "gap",
        dict(bob=HAND + ["Alpha Walrus Horn"], field={"alice": ["Orca"], "bob": ["Krill"]}),
        lambda r: "Alpha Walrus Horn (AWC) 45" in hand(r, "bob")),
    Row("AW-G.12", "house rule gear_stake=field-or-hand",
        [DRAW, A("battle", target="bob", stake="gear", match={})], "gap",
        dict(bob=HAND + ["Alpha Walrus Horn"], field={"alice": ["Orca"], "bob": ["Krill"]},
             house={"gear_stake": "field-or-hand"}),
        lambda r: "Alpha Walrus Horn (AWC) 45" in hand(r)),
    Row("AW-G.13", "summoning with no creature", [DRAW, A("summon-alpha")], "gap",
        dict(field={"bob": ["Krill"]}, gear={"alice": GEAR})),
    Row("AW-G.13", "house rule sacrifice_creatures=at-least-one", [DRAW, A("summon-alpha")],
        "illegal", dict(field={"bob": ["Krill"]}, gear={"alice": GEAR},
                        house={"sacrifice_creatures": "at-least-one"})),
    Row("AW-G.14", "equal dice in a Final Showdown tie-break",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[4, 4, 6, 1])], "gap",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"]), lambda r: r["final"]["winner"] == "alice"),
    Row("AW-G.14", "house rule showdown_dice_tie=defender",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[4, 4])], "gap",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"], house={"showdown_dice_tie": "defender"}),
        lambda r: r["final"]["players"]["alice"]["out"]),
    Row("AW-G.15", "an opponent's equipment in the Final Showdown",
        [DRAW, A("summon-alpha")], "gap",
        dict(field={"alice": ["Krill"], "bob": [{"creature": "Orca",
                                                 "equipment": ["Glacier Plate"]}]},
             gear={"alice": GEAR}), lambda r: r["final"]["winner"] == "alice"),
    Row("AW-G.15", "house rule showdown_equipment=alpha-only",
        [DRAW, A("summon-alpha")], "gap",
        dict(field={"alice": ["Krill"], "bob": [{"creature": "Orca",
                                                 "equipment": ["Glacier Plate"]}]},
             gear={"alice": GEAR}, house={"showdown_equipment": "alpha-only"}),
        lambda r: r["final"]["players"]["alice"]["out"]),
    Row("AW-G.16", "Goamph against the Alpha Walrus summon",
        [DRAW, A("summon-alpha", cancelled_by="bob")], "gap",
        dict(bob=HAND + ["Goamph"], field={"alice": ["Krill"], "bob": ["Orca"]},
             gear={"alice": GEAR}), lambda r: r["final"]["winner"] == "alice"),
    Row("AW-G.16", "house rule goamph_alpha=yes",
        [DRAW, A("summon-alpha", cancelled_by="bob")], "gap",
        dict(bob=HAND + ["Goamph"], field={"alice": ["Krill"], "bob": ["Orca"]},
             gear={"alice": GEAR}, house={"goamph_alpha": "yes"}),
        lambda r: r["final"]["winner"] is None and len(r["final"]["players"]["alice"]["gear"])
        == 4),
    Row("AW-G.17", "a card won from the defender's hand",
        [DRAW, A("battle", **BATTLE, match={})], "gap",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]}), lambda r: len(hand(r)) == 7),
    Row("AW-G.17", "house rule hand_stake_pick=defender without the card named",
        [DRAW, A("battle", **BATTLE, match={})], "illegal",
        dict(field={"alice": ["Orca"], "bob": ["Krill"]},
             house={"hand_stake_pick": "defender"})),
    # the defender matched W6 v Orca and Krill v Pacific Walrus; the pairing takes W6 and the
    # Pacific Walrus, freeing Krill (and Orca): unmatched, Krill wins the battle (AW-4.7)
    Row("AW-G.18", "creatures the walrus pairing frees stay unmatched",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 2}, rolls=[6, 1], take="Lemming")], "gap",
        dict(field={"alice": [W6, "Krill"], "bob": ["Orca", "Pacific Walrus"]}),
        lambda r: fld(r, "bob") == ["Orca"] and fld(r) == ["Walrus", "Krill"]),
    Row("AW-G.18", "house rule freed_creatures=rematch: they fight each other",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 2}, rolls=[6, 1])], "gap",
        dict(field={"alice": [W6, "Krill"], "bob": ["Orca", "Pacific Walrus"]},
             house={"freed_creatures": "rematch"}),
        lambda r: fld(r, "bob") == ["Orca"] and fld(r) == ["Walrus"]),
    # two players: the beaten Summoner is out (AW-9.2) and one player is left (AW-9.4)
    Row("AW-G.19", "a beaten Summoner leaves one player, who plays on",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])], "gap",
        dict(alice=HAND[:3], field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"]),
        lambda r: r["final"]["winner"] is None and r["final"]["players"]["alice"]["out"]
        and r["final"]["turn"] is None),
    # three players: the Alpha Walrus beats the creature bob sends, his Lemming (second on his
    # field), then loses
    # to carol's Orca and Tusk Charge on the dice
    Row("AW-G.20", "the creature the Alpha Walrus beat before it lost stays on the field",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "creatures": ["Lemming"]}, {"opponent": "carol",
         "battle_cards": [{"player": "carol", "card": "Tusk Charge"}]}], rolls=[1, 6])], "gap",
        dict(alice=HAND[:3], carol=HAND + ["Tusk Charge"], gear={"alice": GEAR},
             field={"alice": ["Krill"], "bob": ["Krill", "Lemming"], "carol": ["Orca"]}),
        lambda r: [f["winner"] for f in last(r)["showdown"]["fights"]] == ["summoner", "opponent"]
        and fld(r, "bob") == ["Krill", "Lemming"] and r["final"]["discard"] == 2),
    Row("AW-G.20", "house rule showdown_beaten=discarded: it is discarded",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "creatures": ["Lemming"]}, {"opponent": "carol",
         "battle_cards": [{"player": "carol", "card": "Tusk Charge"}]}], rolls=[1, 6])], "gap",
        dict(alice=HAND[:3], carol=HAND + ["Tusk Charge"], gear={"alice": GEAR},
             field={"alice": ["Krill"], "bob": ["Krill", "Lemming"], "carol": ["Orca"]},
             house={"showdown_beaten": "discarded"}),
        lambda r: fld(r, "bob") == ["Krill"] and fld(r, "carol") == ["Orca"]
        and r["final"]["discard"] == 3),
    # the gear the beaten Summoner sacrificed is shuffled into the (empty) deck (AW-9.3): bob
    # draws it in four turns of his own, lays it down and summons the Alpha Walrus, with no
    # one left to fight
    Row("AW-G.19", "the one player left wins by summoning the Alpha Walrus",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])]
        + [A("draw", "bob"), A("end", "bob")] * 3
        + [A("draw", "bob")] + [A("place-gear", "bob", card=g) for g in GEAR]
        + [A("summon-alpha", "bob")], "gap",
        dict(alice=HAND[:3], bob=["Tusk Charge", "Lemming", "Ermine"], deck=[],
             field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR}),
        lambda r: r["final"]["winner"] == "bob" and last(r)["showdown"]["fights"] == []),
    Row("AW-G.19", "house rule last_player=wins: the one player left wins at once",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])], "gap",
        dict(alice=HAND[:3], field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"], house={"last_player": "wins"}),
        lambda r: r["final"]["winner"] == "bob"),
    Row("AW-G.19", "a defender out under destroy_all_four=eliminates leaves the attacker, who "
        "wins under last_player=wins",
        [DRAW, A("battle", **BATTLE, match={1: 1, 2: 2, 3: 3, 4: 4}, take="Lemming")], "gap",
        dict(field={"alice": ["Orca", "Blue Whale", "Polar Bear", "Moose"],
                    "bob": ["Krill", "Lemming", "Ermine", "Puffin"]},
             house={"destroy_all_four": "eliminates", "last_player": "wins"}),
        lambda r: r["final"]["players"]["bob"]["out"] and r["final"]["winner"] == "alice"),
    # alice has all four gear pieces down in round 2, when nobody may battle (AW-1.6)
    Row("AW-G.21", "the Alpha Walrus summoned in round 2", [DRAW, A("summon-alpha")], "gap",
        dict(round=2, field={"alice": ["Krill"], "bob": ["Krill"]}, gear={"alice": GEAR}),
        lambda r: r["final"]["winner"] == "alice"),
    Row("AW-G.21", "house rule early_showdown=round-3: not in round 2",
        [DRAW, A("summon-alpha")], "illegal",
        dict(round=2, field={"alice": ["Krill"], "bob": ["Krill"]}, gear={"alice": GEAR},
             house={"early_showdown": "round-3"}),
        lambda r: r["final"]["winner"] is None and fld(r) == ["Krill"]
        and len(r["final"]["players"]["alice"]["gear"]) == 4),
    Row("AW-8.1", "house rule early_showdown=round-3: the summon is open in round 3",
        [DRAW, A("summon-alpha")], "ok",
        dict(round=3, field={"alice": ["Krill"], "bob": ["Krill"]}, gear={"alice": GEAR},
             house={"early_showdown": "round-3"}),
        lambda r: r["final"]["winner"] == "alice" and not r["gaps"]),
    Row("AW-G.22", "a Recover discard from 9 cards down to 5",
        [DRAW, A("recover"), A("discard", cards=["Lemming", "Ermine", "Krill", "Puffin"])], "gap",
        dict(alice=HAND + ["Krill", "Puffin", "Orca"]), lambda r: len(hand(r)) == 5),
    Row("AW-G.22", "house rule recover_discard=to-seven: no discard below seven",
        [DRAW, A("recover"), A("discard", cards=["Lemming", "Ermine", "Krill"])], "illegal",
        dict(alice=HAND + ["Krill", "Puffin", "Orca"], house={"recover_discard": "to-seven"}),
        lambda r: len(hand(r)) == 9),
    Row("AW-5.2", "house rule recover_discard=to-seven: from 9 down to exactly 7",
        [DRAW, A("recover"), A("discard", cards=["Lemming", "Ermine"])], "ok",
        dict(alice=HAND + ["Krill", "Puffin", "Orca"], house={"recover_discard": "to-seven"}),
        lambda r: len(hand(r)) == 7 and not r["gaps"]),
    # alice is beaten holding six cards; bob's Tusk Charge and alice's sacrificed Krill are the
    # discard pile
    Row("AW-G.23", "a beaten Summoner's hand leaves the game with them",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])], "gap",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"]),
        lambda r: len(hand(r)) == 6 and r["final"]["discard"] == 2),
    Row("AW-G.23", "house rule removed_hand=discarded",
        [DRAW, A("summon-alpha", fights=[{"opponent": "bob", "battle_cards": [
            {"player": "bob", "card": "Tusk Charge"}]}], rolls=[1, 6])], "gap",
        dict(field={"alice": ["Krill"], "bob": ["Orca"]}, gear={"alice": GEAR},
             bob=HAND + ["Tusk Charge"], house={"removed_hand": "discarded"}),
        lambda r: hand(r) == [] and r["final"]["discard"] == 8),
]


def _run(row: Row):
    table = dict(row.table)
    return game(row.actions, **table)


@pytest.mark.parametrize("row", ROWS + GAP_ROWS, ids=lambda r: r.id)
def test_rule_row(row):
    res = _run(row)
    step = last(res)
    if row.verdict == "illegal":
        assert step["violations"], step
        assert step["violations"][0]["rule"] == row.rule, step
    elif row.verdict == "ok":
        assert step["ok"] and not step["violations"], step
        assert row.rule in step["rules"], step
    else:
        assert row.rule in [g["rule"] for g in step["gaps"]], step
        assert not step["violations"], step
    if row.check is not None:
        assert row.check(res), res["final"]


def test_every_seed_section_has_rows():
    from test_aw_cards import GAP_ROWS as CARD_GAPS
    from test_aw_cards import ROWS as CARDS

    from deckcli.games.alpha_walrus.rules import RULES

    covered = {r.rule for r in ROWS + GAP_ROWS + CARDS + CARD_GAPS}
    # setup sentences AW-1.1 to AW-1.4 are dealt, not refereed: tests/test_aw_setup.py
    # card text (AW-11.x and the gaps it opens): tests/test_aw_cards.py
    wanted = {r.id for r in RULES} - {"AW-1.1", "AW-1.2", "AW-1.3", "AW-1.4"}
    assert wanted <= covered, sorted(wanted - covered)


def test_one_player_out_of_three_leaves_no_last_player():
    """AW-G.19 is about the one player left: with three players, one out leaves two to play
    on, and last_player=wins makes nobody the winner."""
    res = game([DRAW, A("battle", **BATTLE, match={1: 1, 2: 2, 3: 3, 4: 4}, take="Lemming")],
               carol=HAND, field={"alice": ["Orca", "Blue Whale", "Polar Bear", "Moose"],
                                  "bob": ["Krill", "Lemming", "Ermine", "Puffin"]},
               house={"destroy_all_four": "eliminates", "last_player": "wins"})
    assert last(res)["ok"], last(res)
    assert res["final"]["players"]["bob"]["out"] and res["final"]["winner"] is None
    assert "AW-G.19" not in [g["rule"] for g in res["gaps"]]


def test_illegal_action_is_not_applied():
    res = game([DRAW, A("summon", card="Lemming")],
               field={"alice": ["Orca", "Krill", "Puffin", "Ermine"]})
    assert last(res)["violations"][0]["rule"] == "AW-7.1"
    assert fld(res) == ["Orca", "Krill", "Puffin", "Ermine"]
    assert "Lemming (AWC) 2" in hand(res)


def test_house_rule_from_the_log_and_from_the_command_line():
    log = {"game": "alpha-walrus", "players": ["alice", "bob"],
           "setup": {"hands": {"alice": HAND, "bob": HAND}, "deck": FILLER},
           "house_rules": {"turn_order": "free"},
           "actions": [A("draw", "bob")]}
    assert not check_log(log, None, {})["violations"]
    assert check_log(log, None, {"turn_order": "listed"})["violations"][0]["rule"] == "AW-G.7"
