"""Battles (AW-4.x, AW-10.4, AW-10.6 to AW-10.9), step by step: declared, answered, matched,
fought, and what follows.

A battle is fought in stages (``State.battle``, plain data), each moved on by :func:`advance`
(``Match.settle`` calls it until the battle is over or a player owes a decision):

1. **declared** (``attack`` or ``battle``): the opponent and the stake (AW-4.1, AW-4.2);
   every other player holding a Goamph may cancel it (AW-10.4);
2. **answers**: the defender's cards that act on a declared battle (Snowy Owl looks at the
   attacker's hand) and, for a hand stake, White Flag (the battle ends);
3. **match**: the defender matches a creature against each attacking creature in turn, or
   leaves it unmatched (AW-4.3; Musk Ox may face two, AW-G.26);
4. **cards**: each side plays battle cards (AW-4.9), one side then the other (AW-G.28);
5. **fight**: the fights are resolved (:func:`.battle.resolve_battle`); a player with Sea
   Otter may roll one of their dice again;
6. **after**: text that acts on the creature it beat (Snow Leopard), Second Wind's save, the
   losers discarded with their equipment (AW-4.6; Arctic Hare, Greenland Shark and Bowhead
   Whale go elsewhere), then what winning and losing trigger, and the stake (AW-4.2).

Two log forms reach it. ``{do: battle, target, stake, match, battle_cards, rolls, take,
cancelled_by}`` records a whole battle in one entry (what the defender and both sides chose
is read from the entry; what it leaves out was not chosen). ``{do: attack, target, stake}``
declares one, and every choice after it is a decision of its own (``choose``/``pass``), as a
game being played makes them.
"""

from __future__ import annotations

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus import decisions as dec
from deckcli.games.alpha_walrus import effects, engine_play
from deckcli.games.alpha_walrus import knowledge as kn
from deckcli.games.alpha_walrus.battle import Dice, Fighter, pairs_twice, public, resolve_battle
from deckcli.games.alpha_walrus.engine_showdown import eliminate, list_of
from deckcli.games.interface import Illegal


# -- declaring -------------------------------------------------------------------------------------
def battle(game, player: str, action: dict) -> None:
    """The whole battle recorded in one entry."""
    declare(game, player, action, script=True)


def attack(game, player: str, action: dict) -> None:
    """A battle declared; the rest comes as decisions."""
    for key in ("match", "battle_cards", "rolls", "take", "cancelled_by"):
        if key in action:
            raise DeckcliError(f"step {game.step}: 'attack' declares a battle; '{key}' "
                               "belongs to a whole battle's entry (do: battle)")
    declare(game, player, action, script=False)


def declare(game, player: str, action: dict, *, script: bool) -> None:
    st, house = game.state, game.house
    t = game.gate(player, ("battle",))
    game.cite("AW-3.4")
    if st.round <= 2:
        raise Illegal("AW-1.6", f"round {st.round}: there are no battles in the first 2 rounds")
    game.cite("AW-1.6")
    target = action.get("target")
    target = None if target is None else str(target)
    if target is None or target == player or target not in st.live():
        raise Illegal("AW-4.1", f"a battle names one opponent still in the game (target), not "
                                f"{target!r}")
    stake = action.get("stake")
    if stake not in ("gear", "hand"):
        raise Illegal("AW-4.2", f"the attacker declares the stake before the battle: gear or "
                                f"hand, not {stake!r}")
    if t.battles >= 1:
        if house.value("battles_per_turn") == "1" and house.settled("battles_per_turn"):
            raise Illegal("AW-G.10", f"{player} already battled this turn")
        game.gap(house.record("battles_per_turn", f"{player} declares battle number "
                              f"{t.battles + 1} this turn", "the battle is allowed"))
    barred = barred_by(st, player, target)
    if barred is not None:
        raise Illegal("AW-4.1", barred)
    att_p, def_p = st.players[player], st.players[target]
    if not att_p.field:
        raise Illegal("AW-4.4", "the attacker has no creature on the field, so there is "
                                "nothing to battle with")
    if "creatures" in action:
        named = sorted({game.field_pos(player, r, "AW-4.4") for r in list_of(action, "creatures")})
        if named != list(range(len(att_p.field))):
            raise Illegal("AW-4.4", f"{player} battles with all {len(att_p.field)} of their "
                                    f"creatures, not {len(named)}")
    game.cite("AW-4.1", "AW-4.2", "AW-4.4")
    source = _stake_source(game, target, stake)
    st.battle = {"attacker": player, "target": target, "stake": stake, "source": source,
                 "stage": "answers", "script": dict(action) if script else None,
                 "att": [c.uid for c in att_p.field], "dfd": [c.uid for c in def_p.field],
                 "matches": [], "next": 0, "cards": [], "swaps": [], "saves": [],
                 "sides": [], "rolls": list(list_of(action, "rolls")) if script else [],
                 "rerolled": [], "result": None}
    game.event(f"{player} declares a battle against {target} for "
               f"{'an Alpha Walrus gear piece' if stake == 'gear' else 'a card from hand'}")
    if script:
        if action.get("cancelled_by") is not None:
            game.goamph(action["cancelled_by"], "battle", "AW-10.4")
            cancelled(game)
        return
    if engine_play.holders(game, player, "battle"):
        st.battle["stage"] = "goamph"
        engine_play.answer_window(game, player, "battle", {}, None)


def barred_by(st, player: str, target: str) -> str | None:
    """Why a card played earlier bars ``player`` from attacking ``target`` this round, if it
    does (Peace Treaty and its kin, AW-4.1)."""
    for p in st.protections:
        if "attacker" not in p:  # a log's older form: protected, against, round
            if p.get("protected") == target and p.get("against") == player and \
                    p.get("round") == st.round:
                return (f"{target} is protected from {player}'s attacks in round {st.round} "
                        f"({p['card']})")
            continue
        if p["attacker"] == player and p["defender"] == target and \
                p["from"] <= st.round <= p["to"]:
            return (f"{player} cannot attack {target} in round {st.round} ({p['card']}, "
                    "AW-11.1)")
    return None


def _battle_happens(game, player: str, data: dict) -> None:
    """No Goamph answered the declaration: the battle goes on."""
    if game.state.battle is not None:
        game.state.battle["stage"] = "answers"


def cancelled(game) -> None:
    """A Goamph cancelled the battle (AW-10.4): no creature fights, no stake changes hands;
    it counts as the turn's battle."""
    st = game.state
    st.battle = None
    st.turn.battles += 1
    game.event("the battle is cancelled: no creature fights and no stake changes hands")


def _stake_source(game, target: str, stake: str) -> str:
    st, house = game.state, game.house
    d = st.players[target]
    if stake == "hand":
        if not d.hand:
            raise Illegal("AW-4.2", f"{target} holds no card to battle for")
        return "hand"
    if d.gear:
        return "field"
    if any(c.kind == "gear" for c in d.hand):
        mode = house.value("gear_stake")
        game.gap(house.record("gear_stake", f"{target}'s gear is only in hand",
                              "a piece in hand can be won" if mode == "field-or-hand"
                              else "only gear on the field can be won: nothing to take"))
        return "hand" if mode == "field-or-hand" else "none"
    raise Illegal("AW-4.2", f"{target} has no Alpha Walrus gear to battle for")


# -- the stages ------------------------------------------------------------------------------------
def advance(game) -> None:
    """Move the battle on by one stage (or ask the decision it waits for)."""
    b = game.state.battle
    STAGES[b["stage"]](game, b)


def _fighters(st, owner: str, uids: list[int]) -> list:
    return [st.creature(owner, u) for u in uids]


def _answers(game, b) -> None:
    st = game.state
    b["stage"] = "white_flag"
    target = b["target"]
    effects.fire_many(game, "battle_declared", [
        (c.card, target, {"attacker": b["attacker"], "uid": c.uid})
        for c in st.players[target].field])


def _white_flag(game, b) -> None:
    st = game.state
    b["stage"] = "match"
    target = b["target"]
    if b["stake"] != "hand":
        return
    flags = sorted({c.ref for c in st.players[target].hand
                    if effects.entries(c, "attacked_for_hand")})
    if not flags:
        return
    if b["script"] is not None:
        if b["script"].get("white_flag"):
            _surrender(game, b, flags[0])
        return
    dec.ask(game, target, "white_flag", flags, may_pass=True, card=game.cards.find(flags[0]),
            prompt=f"whether to end {b['attacker']}'s battle with a card from hand (White "
                   "Flag)")


def _white_flag_answer(game, decision, option) -> None:
    if option != dec.PASS:
        _surrender(game, game.state.battle, option)


def _surrender(game, b, ref: str) -> None:
    """The defender's card ends the battle: the attacker takes a random card of the
    defender's hand; no creature is discarded."""
    st = game.state
    target, attacker = b["target"], b["attacker"]
    card = effects.take(game, target, st.players[target].holds(game.cards.find(ref)))
    st.to_discard(card, game.events)
    hand = st.players[target].hand
    got = None
    if hand:
        got = effects.take(game, target, st.rng.randrange(len(hand)))
        st.players[attacker].hand.append(got)
        kn.see_card(st, target, attacker, got)
    effects.say(game, f"{target} plays {ref}: {attacker} takes "
               f"{'a random card' if got else 'nothing'} from {target}'s hand and the battle "
               "ends; no creature is discarded [AW-11.1]")
    game.cite("AW-11.1")
    st.battle = None
    st.turn.battles += 1


def _match(game, b) -> None:
    st = game.state
    att = _fighters(st, b["attacker"], b["att"])
    dfd = _fighters(st, b["target"], b["dfd"])
    if b["script"] is not None:
        b["matches"] = _scripted_matches(game, b)
        b["stage"] = "cards"
        return
    if b["next"] >= len(att) or not dfd:
        b["stage"] = "cards"
        return
    used: dict[int, int] = {}
    for _i, j in b["matches"]:
        used[j] = used.get(j, 0) + 1
    options: list[int | str] = [j + 1 for j, (_p, c) in enumerate(dfd)
               if used.get(j, 0) < (2 if c.card.effect("pair_twice") else 1)]
    options.append("none")
    a = att[b["next"]][1]
    dec.ask(game, b["target"], "match", options, may_pass=False, default="none", card=a.card,
            prompt=f"the creature {b['target']} matches against {a.card.ref} (a field "
                   "position, or none)")


def _match_answer(game, decision, option) -> None:
    b = game.state.battle
    if option != "none":
        b["matches"].append([b["next"], int(option) - 1])
    b["next"] += 1


def _scripted_matches(game, b) -> list:
    st = game.state
    player, target = b["attacker"], b["target"]
    match = b["script"].get("match") or {}
    if not isinstance(match, dict):
        raise DeckcliError("'match' maps attacking creatures to defending ones")
    dfd = st.players[target].field
    pairs: list = []
    ta: set[int] = set()
    td: set[int] = set()
    for a_ref, d_ref in match.items():
        i = game.field_pos(player, a_ref, "AW-4.3", ta)
        try:
            j = game.field_pos(target, d_ref, "AW-4.3", td)
        except Illegal:  # named again: a creature whose text faces two attackers
            j = game.field_pos(target, d_ref, "AW-4.3")
            if not dfd[j].card.effect("pair_twice"):
                raise
        ta.add(i)
        td.add(j)
        pairs.append([i, j])
    if pairs:
        game.cite("AW-4.3")
    return pairs


def _cards(game, b) -> None:
    """The battle-card windows: each side plays its battle cards, one side after the other
    (AW-G.28). A whole battle's entry lists them all."""
    st = game.state
    if b["script"] is not None:
        _scripted_cards(game, b)
        b["stage"] = "fight"
        return
    if not b["sides"]:
        mode = game.house.value("battle_card_order")
        sides = [b["attacker"], b["target"]]
        if mode == "defender-first":
            sides.reverse()
        holders = [s for s in sides if any(c.kind == "battle" for c in st.players[s].hand)]
        if len(holders) == 2:
            game.gap(game.house.record("battle_card_order", "both sides hold battle cards",
                                       f"{sides[0]} plays theirs first, then {sides[1]}"))
        b["sides"] = holders or ["-"]
    while b["sides"] and b["sides"][0] != "-":
        side = b["sides"][0]
        options = _card_options(game, b, side)
        if options:
            dec.ask(game, side, "battle_card", options, may_pass=True,
                    prompt=f"a battle card {side} plays, or pass")
            return
        b["sides"].pop(0)
    b["stage"] = "fight"


def _card_options(game, b, side: str) -> list[dict]:
    st = game.state
    mine = b["att"] if side == b["attacker"] else b["dfd"]
    present = [k for k, u in enumerate(mine) if st.creature(side, u) is not None]
    out = []
    for ref in sorted({c.ref for c in st.players[side].hand if c.kind == "battle"}):
        card = game.cards.find(ref)
        if card.effect("level_bonus"):
            out += [{"card": ref, "on": k + 1} for k in present]
        elif card.effect("swap_opponents"):
            out += [{"card": ref, "swap": [x + 1, y + 1]} for i, x in enumerate(present)
                    for y in present[i + 1:] if _swap_fits(game, b, side, x, y)]
        else:
            out.append({"card": ref})
    return out


def _battle_card_answer(game, decision, option) -> None:
    st = game.state
    b = st.battle
    side = decision["player"]
    if option == dec.PASS:
        b["sides"].pop(0)
        if not b["sides"]:
            b["sides"] = ["-"]
        return
    card = game.cards.find(option["card"])
    effects.take(game, side, st.players[side].holds(card))
    _played(game, b, side, card, option)


def _played(game, b, side: str, card, option: dict) -> None:
    """A battle card is played in the battle: where its text acts (a creature of the side,
    two whose opponents swap, or the side's losers)."""
    if "on" in option:
        b["cards"].append([side, card, int(option["on"]) - 1])
        game.event(f"{side} plays {card.ref} on their creature {option['on']}")
    elif "swap" in option:
        x, y = (int(v) - 1 for v in option["swap"])
        if not _swap_fits(game, b, side, x, y):
            raise Illegal("AW-4.3", f"{card.ref}: after swapping the opponents of {side}'s "
                          f"creatures {x + 1} and {y + 1} one of them would face more attackers "
                          "than a defending creature may")
        b["swaps"].append([side, x, y])
        b["cards"].append([side, card, None])
        effects.say(game, f"{side} plays {card.ref}: their creatures {x + 1} and {y + 1} swap "
                   "opponents [AW-11.1]")
    else:
        b["cards"].append([side, card, None])
        if card.effect("save_loser"):
            b["saves"].append(side)
        game.event(f"{side} plays {card.ref}")
    game.cite("AW-4.9")


def _scripted_cards(game, b) -> None:
    st = game.state
    sides = {b["attacker"]: b["att"], b["target"]: b["dfd"]}
    taken: dict[str, list[int]] = {}
    played = []
    for entry in list_of(b["script"], "battle_cards"):
        if not isinstance(entry, dict):
            raise DeckcliError("each battle_cards entry is {player, card, on}")
        owner = str(entry.get("player", b["attacker"]))
        if owner not in sides:
            raise Illegal("AW-4.9", f"{owner} is not in this battle and cannot play a battle "
                                    "card in it")
        card = game.cards.find(entry.get("card"))
        if card.kind != "battle":
            raise Illegal("AW-4.9", f"{card.ref} is not a battle card")
        hand = st.players[owner].hand
        idx = next((i for i, c in enumerate(hand)
                    if c.id == card.id and i not in taken.setdefault(owner, [])), None)
        if idx is None:
            raise Illegal("AW-4.9", f"{owner} does not hold {card.ref}")
        taken[owner].append(idx)
        option: dict = {"card": card.ref}
        if card.effect("swap_opponents"):
            swap = entry.get("swap") or []
            if len(swap) != 2:
                raise Illegal("AW-4.9", f"{card.ref} names two of {owner}'s creatures (swap)")
            option["swap"] = [game.field_pos(owner, s, "AW-4.9") + 1 for s in swap]
        elif card.effect("level_bonus"):
            on = entry.get("on")
            option["on"] = 1 if on is None else game.field_pos(owner, on, "AW-4.9") + 1
        elif entry.get("on") is not None:  # Second Wind: the creature it saves, if it loses
            option["save"] = game.field_pos(owner, entry["on"], "AW-4.9") + 1
        played.append((owner, card, option))
    for owner, idxs in taken.items():
        for i in sorted(idxs, reverse=True):
            effects.take(game, owner, i)
    for owner, card, option in played:
        _played(game, b, owner, card, option)
        if "save" in option:
            b.setdefault("save_on", {})[owner] = option["save"] - 1


def _fight(game, b) -> None:
    """Resolve every fight (AW-4.5 to AW-4.10, AW-10.6 to AW-10.9)."""
    st = game.state
    player, target = b["attacker"], b["target"]
    att_c = [c for _p, c in _fighters(st, player, b["att"])]
    dfd_c = [c for _p, c in _fighters(st, target, b["dfd"])]
    on: dict[tuple, list] = {}
    for side, card, k in b["cards"]:
        if k is not None:
            on.setdefault((side, k), []).append(card)
    att = [Fighter("attacker", i + 1, c.card, list(c.equipment), on.get((player, i), []))
           for i, c in enumerate(att_c)]
    dfd = [Fighter("defender", j + 1, c.card, list(c.equipment), on.get((target, j), []))
           for j, c in enumerate(dfd_c)]
    pairs = _pairs(b)  # Ice Slide: two of a side's creatures swap opponents
    dice = Dice(b["rolls"], rng=st.rng)
    result = resolve_battle(att, dfd, pairs, dice, game.house, defender_field=len(dfd))
    if result["violations"]:
        v = result["violations"][0]
        raise Illegal(v["rule"], v["message"])
    b["result"] = result
    b["rolls"] = [d["value"] for d in dice.used]
    b["who_rolled"] = [d["who"] for d in dice.used]
    b["stage"] = "reroll"
    b["cards_of"] = {c.uid: c.card for c in [*att_c, *dfd_c]}


def _pairs(b, more=()) -> list[tuple[int, int]]:
    """The battle's match-ups after the Ice Slides played so far (and ``more``)."""
    pairs = [tuple(m) for m in b["matches"]]
    for side, x, y in [*b["swaps"], *more]:
        pairs = [(_swap(i, x, y), j) if side == b["attacker"] else (i, _swap(j, x, y))
                 for i, j in pairs]
    return pairs


def _swap_fits(game, b, side: str, x: int, y: int) -> bool:
    """Whether swapping the opponents of ``side``'s creatures x and y leaves a matching the
    rules allow: a defending creature faces one attacker, two if its text says so (Musk Ox,
    AW-4.3). Only the defender's side can break it (an attacker is matched once either way)."""
    if side == b["attacker"]:
        return True
    dfd = _fighters(game.state, b["target"], b["dfd"])
    faced: dict[int, int] = {}
    for _i, j in _pairs(b, [(side, x, y)]):
        faced[j] = faced.get(j, 0) + 1
    return all(n <= (2 if dfd[j][1].card.effect("pair_twice") else 1)
               for j, n in faced.items() if j < len(dfd))


def _swap(k: int, x: int, y: int) -> int:
    return y if k == x else x if k == y else k


def _reroll(game, b) -> None:
    """Sea Otter: a player whose text rerolls may roll one of their dice again, once a
    battle (its text; AW-11.1); the fights are then resolved again with that die."""
    st = game.state
    b["stage"] = "report"
    if b["script"] is not None or not b["rolls"]:
        return
    for side, role in ((b["attacker"], "attacker"), (b["target"], "defender")):
        if side in b["rerolled"]:
            continue
        otters = [c for c in st.players[side].field
                  if any(e["effect"] == "reroll" for _n, e in effects.entries(c.card,
                                                                                "dice_rolled"))]
        mine = [k for k, who in enumerate(b["who_rolled"]) if who.startswith(role)]
        if otters and mine:
            b["stage"] = "reroll"
            dec.ask(game, side, "reroll", [k + 1 for k in mine], may_pass=True,
                    card=otters[0].card, data={"role": role},
                    prompt=f"whether to roll one of {side}'s dice again (die number)")
            b["rerolled"].append(side)
            return


def _reroll_answer(game, decision, option) -> None:
    st = game.state
    b = st.battle
    if option == dec.PASS:
        return
    k = int(option) - 1
    old = b["rolls"][k]
    b["rolls"][k] = st.rng.randint(1, 6)
    effects.say(game, f"{decision['player']} rolls die {k + 1} again ({decision['card']}): {old} "
               f"becomes {b['rolls'][k]} [AW-11.1]")
    b["rolls"] = b["rolls"][:k + 1]  # the dice after it are rolled anew as the fights need
    b["stage"] = "fight"
    _fight(game, b)
    b["stage"] = "reroll"


def _report(game, b) -> None:
    """What the fights gave, as the ruling says it and as the step's facts."""
    result = b["result"]
    for g in result["gaps"]:
        game.gap(g)
    game.cite(*result["rules"], *(s["rule"] for s in result["steps"]))
    game.out.facts["rolls"] = [{"who": w, "value": v} for w, v in zip(b["who_rolled"],
                                                                       b["rolls"])]
    game.out.facts["battle"] = {"winner": result["winner"], "rule": result["rule"],
                                "fights": public(result["fights"]),
                                "unmatched": result["unmatched"],
                                "discarded": result["discarded"], "steps": result["steps"]}
    for step in result["steps"]:
        game.event(f"{step['text']} [{step['rule']}]")
    for f in result["fights"]:
        if f["kind"] == "mini-showdown":
            rolls = ", then ".join("/".join(map(str, r["attacker"])) + " v "
                                   + "/".join(map(str, r["defender"])) for r in f["rolls"])
            how = f"mini showdown, dice {rolls}"
        else:
            how = f"levels {f['levels']['attacker']} v {f['levels']['defender']}"
        game.event(f"{f['attacker']} v {f['defender']}: {how}: the {f['winner']} wins "
                   f"[{f['rule']}]")
    for label in result["unmatched"]:
        game.event(f"{label} is unmatched [AW-4.7]")
    winner = result["winner"]
    game.event(f"the {winner} ({b['attacker'] if winner == 'attacker' else b['target']}) wins "
               f"the battle [{result['rule']}]")
    b["stage"] = "after"


def _after(game, b) -> None:
    """Texts that act on the creature their creature beat (before it goes), Second Wind's
    save, the losers (AW-4.6), then what winning and losing trigger, then the stake."""
    st = game.state
    player, target = b["attacker"], b["target"]
    result = b["result"]
    for _side, card, _k in b["cards"]:  # battle cards are spent (AW-4.9)
        st.to_discard(card, game.events)
    b["cards"] = []
    outcomes = []  # (winner side, winner uid, loser side, loser uid, winner role)
    for f in result["fights"]:
        for i in f["_a"]:
            a = (player, b["att"][i])
            d = (target, b["dfd"][f["_d"]])
            if f["winner"] == "attacker":
                outcomes.append((a, d, "attacker"))
            else:
                outcomes.append((d, a, "defender"))
    b["outcomes"] = [[w[0], w[1], lo[0], lo[1], role] for w, lo, role in outcomes]
    before = []
    for w_side, w_uid, l_side, l_uid, role in b["outcomes"]:
        found = st.creature(w_side, w_uid)
        beaten = st.creature(l_side, l_uid)
        if found is None or beaten is None:
            continue
        for n, e in effects.entries(found[1].card, "wins_fight"):
            if e.get("from") == "beaten" and effects.holds(
                    game, found[1].card, w_side, e, _ctx(b, w_side, w_uid, l_side, l_uid,
                                                        role, beaten[1].card)):
                before.append({"item": "effect", "card": found[1].card, "n": n,
                               "owner": w_side, "ctx": _ctx(b, w_side, w_uid, l_side, l_uid,
                                                            role, beaten[1].card)})
    st.queue[:0] = before
    b["stage"] = "saves"


def _ctx(b, w_side, w_uid, l_side, l_uid, role, beaten_card) -> dict:
    return {"attacker": b["attacker"], "target": b["target"], "winner": w_side,
            "loser": l_side, "uid": w_uid, "beater_uid": w_uid, "beaten_uid": l_uid,
            "as": role, "beaten_traits": list(beaten_card.traits)}


def _saves(game, b) -> None:
    """Second Wind: a side that played one picks which of its losing creatures returns to
    its hand (its equipment is still discarded)."""
    st = game.state
    b["stage"] = "losses"
    for side in dict.fromkeys(b["saves"]):
        losers = [uid for _ws, _wu, ls, uid, _r in b["outcomes"] if ls == side
                  and st.creature(side, uid) is not None]
        if not losers:
            continue
        scripted = b.get("save_on", {}).get(side)
        if b["script"] is not None:
            uid = next((u for u in losers if st.creature(side, u)[0] == scripted),
                       losers[0] if scripted is None else None)
            if uid is not None:
                _save(game, side, uid)
            continue
        options = sorted(st.creature(side, u)[0] + 1 for u in dict.fromkeys(losers))
        b["stage"] = "saves"
        b["saves"] = [s for s in b["saves"] if s != side]
        dec.ask(game, side, "second_wind", options, default=options[0],
                prompt=f"which of {side}'s losing creatures returns to the hand (a field "
                       "position)")
        return


def _save(game, side: str, uid: int) -> None:
    st = game.state
    idx, creature = st.creature(side, uid)
    effects.to_hand(game, side, idx, with_equipment=False)
    st.battle["saved"] = [*st.battle.get("saved", []), uid]
    effects.say(game, f"{creature.card.ref} returns to {side}'s hand instead of being discarded; "
               "its equipment is discarded (Second Wind) [AW-11.1]")
    game.cite("AW-11.5")


def _second_wind_answer(game, decision, option) -> None:
    st = game.state
    side = decision["player"]
    creature = st.players[side].field[int(option) - 1]
    _save(game, side, creature.uid)


def _losses(game, b) -> None:
    """The losers go (AW-4.6), each through its text (a queued task); then what winning and
    losing trigger, in the fights' order (AW-G.24 among players)."""
    st = game.state
    seen = set()
    for _ws, _wu, l_side, l_uid, _role in b["outcomes"]:
        if (l_side, l_uid) in seen or st.creature(l_side, l_uid) is None:
            continue
        seen.add((l_side, l_uid))
        game.event(f"{st.creature(l_side, l_uid)[1].card.ref} loses and is discarded")
        st.queue.append({"item": "lose", "owner": l_side, "uid": l_uid,
                         "ctx": {"attacker": b["attacker"], "target": b["target"]}})
    triggered = []
    for w_side, w_uid, l_side, l_uid, role in b["outcomes"]:
        w_card = _card_of(game, b, w_side, w_uid)
        l_card = _card_of(game, b, l_side, l_uid)
        ctx = _ctx(b, w_side, w_uid, l_side, l_uid, role, l_card)
        triggered.append((_only(w_card, "wins_fight"), w_side, ctx))
        l_ctx = {**ctx, "uid": l_uid}
        triggered.append((_only(l_card, "loses_fight"), l_side, l_ctx))
    b["triggered"] = [[c, s, x] for c, s, x in triggered if c is not None]
    b["stage"] = "triggers"


def _card_of(game, b, side: str, uid: int):
    """The card of a creature of the battle, on the field or gone since (kept by label)."""
    found = game.state.creature(side, uid)
    if found is not None:
        return found[1].card
    return b["cards_of"].get(uid)


def _only(card, when: str):
    if card is None:
        return None
    keep = [n for n, e in effects.entries(card, when)
            if e.get("instead") is None and e.get("from") != "beaten"]
    return card if keep else None


def _triggers(game, b) -> None:
    def later(e) -> bool:  # acted on already: in the place of a discard, or before it
        return e.get("from") != "beaten"

    wins = [(c, s, x) for c, s, x in b["triggered"] if x.get("winner") == s]
    losses = [(c, s, x) for c, s, x in b["triggered"]
              if x.get("loser") == s and x.get("winner") != s]
    if wins or losses:  # AW-G.25: its fight, or its fight and its side's battle
        house = game.house
        mode = house.value("creature_battle")
        won = b["result"]["winner"]  # ctx "as" is the role of the fight's winner
        split = [x for _c, _s, x in wins + losses if x["as"] != won]
        if split:
            game.gap(house.record("creature_battle", "a creature's text acts on winning or "
                                  "losing a battle, and its fight went the other way from the "
                                  "battle", "its own fight counts" if mode == "fight" else
                                  "its side's battle counts too"))
            if mode == "battle":
                wins = [t for t in wins if t[2]["as"] == won]
                losses = [t for t in losses if t[2]["as"] == won]
    effects.fire_many(game, "wins_fight", wins, only=later)
    effects.fire_many(game, "loses_fight", losses, only=later)
    b["stage"] = "stake"


def _stake(game, b) -> None:
    st = game.state
    b["stage"] = "done"
    player, target = b["attacker"], b["target"]
    result = b["result"]
    if result["winner"] != "attacker":
        return
    d = st.players[target]
    if d.field:
        game.cite("AW-4.8")
        game.event(f"{target} keeps {len(d.field)} creature(s): the attacker need not "
                   "destroy them all to win (AW-4.8)")
    source = b["source"]
    if source == "none" or target not in st.live():
        return
    if b["stake"] == "gear":
        pool = d.gear if source == "field" else d.hand
        pieces = sorted({c.ref for c in pool if c.kind == "gear"})
        if not pieces:
            return
        take = (b["script"] or {}).get("take")
        if take is not None:
            want = game.cards.find(take)
            if want.ref not in pieces:
                raise Illegal("AW-4.2", f"{target} has no {want.ref} to give up")
            _won(game, b, want.ref)
        elif len(pieces) == 1 or b["script"] is not None:
            _won(game, b, pieces[0])
        else:
            b["stage"] = "stake-wait"
            dec.ask(game, player, "stake", pieces, default=pieces[0],
                    prompt=f"the gear piece {player} wins from {target}")
        return
    if not d.hand:
        return
    mode = game.house.value("hand_stake_pick")
    take = (b["script"] or {}).get("take")
    if take is not None:
        want = game.cards.find(take)
        if d.holds(want) is None:
            raise Illegal("AW-4.2", f"{target} does not hold {want.ref}")
        how = f"{want.ref}, as the log records"
        ref = want.ref
    elif mode == "random":
        ref = d.hand[st.rng.randrange(len(d.hand))].ref
        how = f"{ref}, drawn at random from the seeded generator"
    elif b["script"] is not None:
        raise Illegal("AW-G.17", f"the {mode} picks the card: the log names it (take)")
    else:  # the attacker picks blind (a position in the hand) or the defender picks
        picker = player if mode == "attacker" else target
        options = list(range(1, len(d.hand) + 1)) if mode == "attacker" else \
            sorted({c.ref for c in d.hand})
        game.gap(game.house.record("hand_stake_pick", f"{player} wins a card from {target}'s "
                                   "hand", f"{picker} picks it"))
        b["stage"] = "stake-wait"
        dec.ask(game, picker, "stake", options, default=options[0],
                prompt=f"the card {player} wins from {target}'s hand")
        return
    game.gap(game.house.record("hand_stake_pick", f"{player} wins a card from {target}'s hand",
                               f"took {how}"))
    _won(game, b, ref)


def _stake_answer(game, decision, option) -> None:
    st = game.state
    b = st.battle
    d = st.players[b["target"]]
    if b["stake"] == "hand" and isinstance(option, int):
        option = d.hand[int(option) - 1].ref
    _won(game, b, option)
    b["stage"] = "done"


def _won(game, b, ref: str) -> None:
    st = game.state
    player, target = b["attacker"], b["target"]
    d = st.players[target]
    if b["stake"] == "gear" and b["source"] == "field":
        i = next(k for k, c in enumerate(d.gear) if c.ref == ref)
        won = d.gear.pop(i)
    else:
        won = effects.take(game, target, next(k for k, c in enumerate(d.hand) if c.ref == ref))
    st.players[player].hand.append(won)
    kn.see_card(st, target, player, won)
    game.event(f"{player} wins {won.ref} from {target}")
    game.cite("AW-4.2")


def _stake_wait(game, b) -> None:
    b["stage"] = "done"


def _done(game, b) -> None:
    st = game.state
    st.battle = None
    result = b["result"]
    st.turn.battles += 1
    if any(g.key == "destroy_all_four" for g in result["gaps"]) and \
            game.house.value("destroy_all_four") == "eliminates" and \
            b["target"] in st.live():
        eliminate(game, b["target"])


def _goamph_wait(game, b) -> None:
    """The declaration waits for the Goamph answers (engine_play's window)."""


STAGES = {"goamph": _goamph_wait, "answers": _answers, "white_flag": _white_flag,
          "match": _match, "cards": _cards, "fight": _fight, "reroll": _reroll,
          "report": _report, "after": _after, "saves": _saves, "losses": _losses,
          "triggers": _triggers, "stake": _stake, "stake-wait": _stake_wait, "done": _done}

dec.RESUME.update({"white_flag": _white_flag_answer, "match": _match_answer,
                   "battle_card": _battle_card_answer, "reroll": _reroll_answer,
                   "second_wind": _second_wind_answer, "stake": _stake_answer})

engine_play.HAPPEN["battle"] = _battle_happens
engine_play.CANCELLED["battle"] = cancelled
__all__ = ["advance", "attack", "battle", "cancelled", "pairs_twice"]
