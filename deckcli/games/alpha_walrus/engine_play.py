"""Play Phase actions of a game log (split from :mod:`.engine`): play, summon, equip,
place-gear, discard-draw and activate. Each function takes the :class:`~.engine.Match` and
the action.

A summon and an armor placement can be answered with a Goamph (AW-10.1, AW-10.2): a log
records it as ``cancelled_by`` on the entry; in a game being played, every opponent holding a
card that cancels it is asked in turn (:mod:`.decisions`), and the summon or placement happens
once all have passed. What card text asks on the way (Grizzly Bear summons alone, Elephant
Seal never makes room, a summoned creature's triggers) is :mod:`.effects`'s.
"""

from __future__ import annotations

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus import decisions as dec
from deckcli.games.alpha_walrus import effects
from deckcli.games.alpha_walrus.state import PHASES, Creature, draws_for_level
from deckcli.games.interface import Illegal


# -- played cards ------------------------------------------------------------------------------
def needs_target(card) -> bool:
    return any(e.get("effect") in ("protect_from_battle", "give_card", "count_gear")
               or e.get("who") in ("target", "you_and_target") for e in card.effects)


def play(game, player: str, action: dict) -> None:
    st = game.state
    card = game.card(action)
    if card.kind == "battle":
        raise Illegal("AW-4.9", f"{card.ref} is a battle card: it is played inside a "
                                "battle (battle_cards on the battle action)")
    if card.effect("cancel"):
        raise Illegal("AW-10.3", f"{card.ref} cancels an action: record it as cancelled_by "
                                 "on the action it cancels")
    if effects.entries(card, "attacked_for_hand"):
        raise Illegal("AW-11.1", f"{card.ref} is played only when an opponent attacks you for "
                                 "a card in your hand, before creatures are matched")
    if card.kind in ("creature", "equipment", "gear", "alpha-walrus"):
        raise Illegal("AW-3.3", f"{card.ref} is {card.a_kind}: use summon, equip or "
                                "place-gear")
    extra = [e for e in card.effect("extra_draw") if e.get("phase") == "draw"]
    t = game.gate(player, ("draw",) if extra else ("play", "battle", "recover"),
                  "AW-10.5" if extra else "AW-3.1")
    idx = game.from_hand(player, card, "AW-3.3")
    draws = [e for _n, e in effects.entries(card, "played") if e["effect"] == "draw"]
    if draws and t.discard_drew:
        raise Illegal("AW-2.2", f"{card.ref} draws cards and {player} already discarded "
                                "to draw this turn; the two cannot be combined")
    target = action.get("target")
    if needs_target(card):
        if target is None or str(target) not in st.live() or str(target) == player:
            raise Illegal("AW-4.1", f"{card.ref} names an opponent still in the game "
                                    "(target)")
        target = str(target)
    effects.take(game, player, idx)
    st.to_discard(card, game.events)
    game.event(f"{player} plays {card.ref}")
    game.cite("AW-3.3")
    for e in extra:
        st.draw(player, int(e.get("value", 1)), game.house, game.out.gaps, game.events)
        t.lucky_flipper = True
        game.cite("AW-10.5")
    if draws:
        game.cite("AW-2.2")
    effects.fire(game, "played", card, player, {"target": target})
    if not card.effects:
        game.out.remarks.append(f"{card.ref}: its text has no effect data, so the "
                                 "referee does not apply it")


# -- summons --------------------------------------------------------------------------------------
def summon_problem(game, player: str, card, room: int | None) -> str | None:
    """Why ``card`` cannot be summoned to ``player``'s field now (``room``: the position of
    the creature discarded to make room, or None): a rule or a card's restriction; None when
    it can. Phase and hand are the caller's."""
    st = game.state
    t = st.turn
    if card.kind != "creature":
        return f"{card.ref} is {card.a_kind}, not a creature"
    if t is not None and t.player == player:
        if t.alone:
            return "a creature that summons alone was summoned this turn (its text, AW-11.3)"
        if card.effect("summon_alone") and t.summoned:
            return (f"{card.ref} cannot be summoned in the same turn as another creature "
                    f"({t.summoned} summoned this turn; its text, AW-11.3)")
    p = st.players[player]
    if room is not None:
        if len(p.field) < p.field_limit():
            return (f"{player} has {len(p.field)} of {p.field_limit()} creatures: there is "
                    "room, so nothing is discarded to make it")
        if p.field[room].card.effect("cannot_make_room"):
            return (f"{p.field[room].card.ref} cannot be discarded to make room (its text, "
                    "AW-11.3)")
        if len(p.field) - 1 >= p.field_limit(without=room):
            return (f"{player} would still have {len(p.field) - 1} creatures, the limit "
                    f"without it being {p.field_limit(without=room)}")
        return None
    if len(p.field) >= p.field_limit():
        return (f"{player} already has {len(p.field)} creatures on the field, the limit is "
                f"{p.field_limit()}: discard one to make room (AW-7.2)")
    return None


def _summon_rule(problem: str) -> str:
    if "its text" in problem:
        return "AW-11.3"
    if "room" in problem and "there is room" in problem:
        return "AW-7.2"
    if "limit" in problem:
        return "AW-7.1"
    return "AW-3.3"


def summon(game, player: str, action: dict) -> None:
    card = game.card(action)
    game.field_gate(player)
    game.from_hand(player, card, "AW-3.3")
    if card.kind == "alpha-walrus":
        raise Illegal("AW-8.1", "the Alpha Walrus is summoned only by sacrificing the four "
                                "gear pieces (summon-alpha)")
    room = action.get("discard")
    ri = game.field_pos(player, room, "AW-7.2") if room is not None else None
    problem = summon_problem(game, player, card, ri)
    if problem is not None:
        raise Illegal(_summon_rule(problem), problem)
    if action.get("cancelled_by") is not None:
        game.goamph(action["cancelled_by"], "summon", "AW-10.1")
        _cancelled(game, player, card)
        return
    uid = game.state.players[player].field[ri].uid if ri is not None else None
    answer_window(game, player, "summon", {"card": card.ref, "room": uid,
                                           "level": card.level}, card)


def _cancelled(game, player: str, card) -> None:
    st = game.state
    effects.discard_card(game, effects.take(game, player, st.players[player].holds(card)),
                         player, "hand", "cancelled")
    game.event(f"{card.ref} is discarded instead of placed")


def holders(game, player: str, target: str) -> list[str]:
    """The players other than ``player`` (in seat order after them) who hold a card that
    cancels ``target`` (AW-10.3)."""
    st = game.state
    out = []
    for p in effects.seats_from(st, player)[1:]:
        if any(target in e.get("targets", ()) for c in st.players[p].hand
               for e in c.effect("cancel")):
            out.append(p)
    return out


def answer_window(game, player: str, target: str, data: dict, card, asked=()) -> None:
    """Ask the next player holding a Goamph for ``target`` whether to play it; when none is
    left, the action happens (:data:`HAPPEN`)."""
    left = [p for p in holders(game, player, target) if p not in asked]
    if not left:
        HAPPEN[target](game, player, data)
        return
    what = f"{target} of {card.ref}" if card is not None else target
    dec.ask(game, left[0], "goamph", ["cancel"], may_pass=True, card=card,
            data={"target": target, "player": player, "action": data,
                  "asked": [*asked, left[0]]},
            prompt=f"whether to cancel {player}'s {what} with a Goamph")


def _goamph_answer(game, decision, option) -> None:
    data = decision["data"]
    target, player, action = data["target"], data["player"], data["action"]
    card = game.cards.find(decision["card"]) if decision["card"] else None
    if option == dec.PASS:
        answer_window(game, player, target, action, card, data["asked"])
        return
    rule = {"summon": "AW-10.1", "armor": "AW-10.2", "battle": "AW-10.4"}[target]
    game.goamph(decision["player"], target, rule)
    if target in CANCELLED:
        CANCELLED[target](game)
    else:
        _cancelled(game, player, card)


def _summon_happens(game, player: str, data: dict) -> None:
    put_on_field(game, player, game.cards.find(data["card"]), data["room"])


def put_on_field(game, player: str, card, room_uid: int | None, by: str | None = None) -> None:
    """The summon goes ahead: the creature discarded to make room first (its text may act on
    the way: a queued task), then ``card`` on the field and its summon triggers."""
    st = game.state
    if room_uid is not None:
        effects.queue_discard(game, player, room_uid, "room", front=True)
        game.cite("AW-7.2", "AW-6.1")
    st.queue.insert(1 if room_uid is not None else 0,
                    {"item": "place", "owner": player, "card": card, "by": by})


def _place_task(game, item: dict) -> None:
    st = game.state
    player, card = item["owner"], item["card"]
    p = st.players[player]
    idx = p.holds(card)
    if idx is None or len(p.field) >= p.field_limit():  # gone, or no room any more
        game.event(f"{card.ref} cannot be summoned any more")
        return
    effects.take(game, player, idx)
    creature = Creature(card, uid=st.uid())
    p.field.append(creature)
    t = st.turn
    if t is not None and t.player == player:
        t.summoned += 1
        t.alone = t.alone or bool(card.effect("summon_alone"))
    how = f" ({item['by']})" if item.get("by") else ""
    game.event(f"{player} summons {card.ref}{how}")
    game.cite("AW-3.3", "AW-7.1")
    effects.fire(game, "summoned", card, player, {"uid": creature.uid})
    if card.text and not card.effects:  # a user's card whose text has no data (DB-2.5)
        game.out.remarks.append(f"{card.ref}: its text has no effect data, so the referee "
                                "does not apply it")


# -- equipment ------------------------------------------------------------------------------------
def equip_problem(creature, card) -> str | None:
    if card.kind != "equipment":
        return f"{card.ref} is {card.a_kind}, not equipment"
    if card.armor:
        limit = creature.armor_limit(card)
        if creature.armor + 1 > limit:
            return (f"{creature.card.ref} already wears {creature.armor} armor pieces; the "
                    f"limit is {limit}")
    return None


def equip(game, player: str, action: dict) -> None:
    st = game.state
    card = game.card(action)
    game.field_gate(player)
    game.from_hand(player, card, "AW-6.1")
    if card.kind != "equipment":
        raise Illegal("AW-6.1" if card.kind != "gear" else "AW-8.1",
                      f"{card.ref} is {card.a_kind}, not equipment"
                      + (" (gear goes on the field with place-gear)" if card.kind == "gear"
                         else ""))
    if action.get("to") is None:
        raise DeckcliError(f"step {game.step}: equip needs 'to' (a creature)")
    ci = game.field_pos(player, action["to"], "AW-6.1")
    creature = st.players[player].field[ci]
    if action.get("cancelled_by") is not None:
        if not card.armor:
            raise Illegal("AW-10.2", f"{card.ref} is not armor: Goamph cancels an armor "
                                     "placement, not other equipment")
        game.goamph(action["cancelled_by"], "armor", "AW-10.2")
        _cancelled(game, player, card)
        return
    problem = equip_problem(creature, card)
    if problem is not None:
        raise Illegal("AW-6.2", problem)
    attach(game, player, card, ci)


def attach(game, player: str, card, ci: int, by: str | None = None) -> None:
    """Attach ``card`` from ``player``'s hand to their creature at ``ci``: an armor piece
    can be answered with a Goamph first (AW-10.2)."""
    uid = game.state.players[player].field[ci].uid
    data = {"card": card.ref, "uid": uid, "by": by}
    if card.armor:
        answer_window(game, player, "armor", data, card)
    else:
        _attach_happens(game, player, data)


def _attach_happens(game, player: str, data: dict) -> None:
    st = game.state
    card = game.cards.find(data["card"])
    found = st.creature(player, data["uid"])
    idx = st.players[player].holds(card)
    if found is None or idx is None:
        return
    creature = found[1]
    effects.take(game, player, idx)
    creature.equipment.append(card)
    how = f" ({data['by']})" if data.get("by") else ""
    game.event(f"{player} attaches {card.ref} to {creature.card.ref}{how}")
    game.cite("AW-3.3", "AW-6.1", "AW-6.2")


HAPPEN = {"summon": _summon_happens, "armor": _attach_happens}


# -- gear ---------------------------------------------------------------------------------------
def place_gear(game, player: str, action: dict) -> None:
    card = game.card(action)
    game.field_gate(player)
    idx = game.from_hand(player, card, "AW-8.1")
    if card.kind != "gear":
        raise Illegal("AW-8.1", f"{card.ref} is not an Alpha Walrus gear piece")
    if action.get("cancelled_by") is not None:
        raise Illegal("AW-10.3", "Goamph cancels a summon, an armor placement or a battle; "
                                 "not laying down gear")
    p = game.state.players[player]
    p.gear.append(effects.take(game, player, idx))
    game.event(f"{player} lays {card.ref} on the field ({len(p.gear)} of 4)")
    game.cite("AW-3.3", "AW-8.1")


# -- discard to draw ------------------------------------------------------------------------------
def discard_draw(game, player: str, action: dict) -> None:
    st = game.state
    card = game.card(action)
    t = game.gate(player, PHASES)
    idx = game.from_hand(player, card, "AW-2.1")
    if t.discard_drew:
        raise Illegal("AW-2.1", f"{player} already discarded to draw this turn (once per "
                                "turn)")
    if t.draw_ability:
        raise Illegal("AW-2.2", f"{player} already used {t.draw_ability} this turn, "
                                "another draw ability; discarding to draw cannot be combined")
    if t.triggered_draw:  # a creature's text drew for this player this turn (AW-G.29)
        mode = game.house.value("triggered_draw")
        if mode == "combined" and game.house.settled("triggered_draw"):
            raise Illegal("AW-G.29", f"a creature's text drew for {player} this turn; under "
                                     "triggered_draw=combined discarding to draw cannot follow")
        game.gap(game.house.record("triggered_draw", f"{player} discards to draw after a "
                                   "creature's text drew this turn", "the discard is allowed"
                                   if mode == "not-combined" else "no card is drawn"))
        if mode == "combined":
            return
    if card.is_creature:
        n, rule = draws_for_level(card.level or 0)
    else:
        if game.house.value("discard_non_creature") == "forbidden":
            raise Illegal("AW-G.11", f"{card.ref} is not a creature; the house rule "
                                     "forbids discarding it to draw")
        n, rule = 1, "AW-G.11"
        game.gap(game.house.record("discard_non_creature", f"{player} discards "
                                   f"{card.ref} ({card.kind}) to draw", "draws 1 card"))
    game.event(f"{player} discards {card.ref} to draw {n}")
    effects.discard_from_hand(game, player, idx, "draw")
    if card.kind == "gear":
        game.cite("AW-5.3")
    st.draw(player, n, game.house, game.out.gaps, game.events)
    t.discard_drew = True
    game.cite("AW-2.1", rule)
    if t.lucky_flipper:
        game.cite("AW-10.5")
        game.event("Lucky Flipper earlier this turn does not count as combined draw")


# -- abilities ------------------------------------------------------------------------------------
def activate(game, player: str, action: dict) -> None:
    """``{player, do: activate, card: CREATURE}``: use a creature's ability (``when:
    activated``), once a turn where its text says so, in its owner's turn."""
    st = game.state
    t = game.turn_of(player)
    ci = game.field_pos(player, action.get("card"), "AW-11.1")
    if any((e.get("if") or {}).get("phase") == "play"
           for _n, e in effects.entries(st.players[player].field[ci].card, "activated")):
        t = game.gate(player, ("play",))  # its text names the Play Phase: the turn moves to it
    creature = st.players[player].field[ci]
    card = creature.card
    found = effects.entries(card, "activated")
    if not found:
        raise Illegal("AW-11.1", f"{card.ref} has no ability to use")
    for _n, e in found:
        if e.get("limit") == "once_per_turn" and creature.uid in t.used:
            raise Illegal("AW-11.1", f"{card.ref}'s ability is used once a turn, and {player} "
                                     "used it this turn")
        if not effects.holds(game, card, player, e, {"uid": creature.uid}):
            raise Illegal("AW-11.1", f"{card.ref}'s ability is used only in its owner's Play "
                                     "Phase")
        if "phase" not in (e.get("if") or {}) and t.phase != "play":
            mode = game.house.value("ability_phase")
            if mode == "play-phase" and game.house.settled("ability_phase"):
                raise Illegal("AW-G.27", f"{card.ref}'s ability: under ability_phase="
                                         "play-phase it is used in the Play Phase only")
            game.gap(game.house.record("ability_phase", f"{player} uses {card.ref}'s ability "
                                       f"in the {t.phase.title()} Phase",
                                       "allowed in any phase of its owner's turn"
                                       if mode == "own-turn" else "Play Phase only"))
    t.used.append(creature.uid)
    game.event(f"{player} uses {card.ref}'s ability")
    effects.fire(game, "activated", card, player, {"uid": creature.uid})


#: action -> what happens when a Goamph cancels it, for the actions another module owns (a
#: battle: engine_battle registers it)
CANCELLED: dict = {}

dec.RESUME["goamph"] = _goamph_answer
effects.TASKS["place"] = _place_task
effects.HOOKS.update(summon_problem=summon_problem, put_on_field=put_on_field,
                     equip_problem=equip_problem, attach=attach)
