"""Play Phase actions of a game log (split from :mod:`.engine`): play, summon, equip,
place-gear and discard-draw. Each function takes the :class:`~.engine.Game` and the action.
"""

from __future__ import annotations

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus.state import PHASES, Creature, draws_for_level
from deckcli.games.interface import Illegal


def play(game, player: str, action: dict) -> None:
    st = game.state
    card = game.card(action)
    if card.kind == "battle":
        raise Illegal("AW-4.9", f"{card.ref} is a battle card: it is played inside a "
                                "battle (battle_cards on the battle action)")
    if card.effect("cancel"):
        raise Illegal("AW-10.3", f"{card.ref} cancels an action: record it as cancelled_by "
                                 "on the action it cancels")
    if card.kind in ("creature", "equipment", "gear", "alpha-walrus"):
        raise Illegal("AW-3.3", f"{card.ref} is {card.a_kind}: use summon, equip or "
                                "place-gear")
    extra = [e for e in card.effect("extra_draw") if e.get("phase") == "draw"]
    t = game.gate(player, ("draw",) if extra else ("play", "battle", "recover"),
                  "AW-10.5" if extra else "AW-3.1")
    idx = game.from_hand(player, card, "AW-3.3")
    draws = card.effect("draw")
    if draws and t.discard_drew:
        raise Illegal("AW-2.2", f"{card.ref} draws cards and {player} already discarded "
                                "to draw this turn; the two cannot be combined")
    st.players[player].hand.pop(idx)
    st.to_discard(card, game.events)
    game.event(f"{player} plays {card.ref}")
    game.cite("AW-3.3")
    for e in extra:
        st.draw(player, int(e.get("value", 1)), game.house, game.out.gaps,
                game.events)
        t.lucky_flipper = True
        game.cite("AW-10.5")
    for e in draws:
        st.draw(player, int(e.get("value", 1)), game.house, game.out.gaps,
                game.events)
        t.draw_ability = card.ref
        game.cite("AW-2.2")
    for e in card.effect("protect_from_battle"):
        target = action.get("target")
        if target is None or str(target) not in st.live() or str(target) == player:
            raise Illegal("AW-4.1", f"{card.ref} names an opponent still in the game "
                                    "(target)")
        st.protections.append({"protected": player, "against": str(target),
                               "round": st.round + int(e.get("value", 1)),
                               "card": card.ref})
        game.event(f"{target} cannot attack {player} in round "
                   f"{st.round + int(e.get('value', 1))}")
    if not (extra or draws or card.effect("protect_from_battle")):
        game.out.remarks.append(f"{card.ref}: its text has no effect data, so the "
                                 "referee does not apply it")


def summon(game, player: str, action: dict) -> None:
    st = game.state
    card = game.card(action)
    game.field_gate(player)
    idx = game.from_hand(player, card, "AW-3.3")
    if card.kind == "alpha-walrus":
        raise Illegal("AW-8.1", "the Alpha Walrus is summoned only by sacrificing the four "
                                "gear pieces (summon-alpha)")
    if card.kind != "creature":
        raise Illegal("AW-3.3", f"{card.ref} is {card.a_kind}, not a creature")
    p = st.players[player]
    room = action.get("discard")
    ri = game.field_pos(player, room, "AW-7.2") if room is not None else None
    if action.get("cancelled_by") is not None:
        game.goamph(action["cancelled_by"], "summon", "AW-10.1")
        st.to_discard(p.hand.pop(idx), game.events)
        game.event(f"{card.ref} is discarded instead of summoned")
        return
    if ri is not None and len(p.field) < p.field_limit():
        raise Illegal("AW-7.2", f"{player} has {len(p.field)} of {p.field_limit()} "
                                "creatures: there is room, so nothing is discarded to make it")
    if ri is not None:
        gone = st.discard_creature(player, ri, game.events)
        game.event(f"{player} discards {gone.card.ref} to make room")
        game.cite("AW-7.2", "AW-6.1")
    limit = p.field_limit()
    if len(p.field) >= limit:
        raise Illegal("AW-7.1", f"{player} already has {len(p.field)} creatures on the "
                                f"field, the limit is {limit}: discard one to make room "
                                "(AW-7.2)")
    p.field.append(Creature(p.hand.pop(idx)))
    game.event(f"{player} summons {card.ref}")
    game.cite("AW-3.3", "AW-7.1")


def equip(game, player: str, action: dict) -> None:
    st = game.state
    card = game.card(action)
    game.field_gate(player)
    idx = game.from_hand(player, card, "AW-6.1")
    if card.kind != "equipment":
        raise Illegal("AW-6.1" if card.kind != "gear" else "AW-8.1",
                      f"{card.ref} is {card.a_kind}, not equipment"
                      + (" (gear goes on the field with place-gear)" if card.kind == "gear"
                         else ""))
    if action.get("to") is None:
        raise DeckcliError(f"step {game.step}: equip needs 'to' (a creature)")
    ci = game.field_pos(player, action["to"], "AW-6.1")
    p = st.players[player]
    creature = p.field[ci]
    if action.get("cancelled_by") is not None:
        if not card.armor:
            raise Illegal("AW-10.2", f"{card.ref} is not armor: Goamph cancels an armor "
                                     "placement, not other equipment")
        game.goamph(action["cancelled_by"], "armor", "AW-10.2")
        st.to_discard(p.hand.pop(idx), game.events)
        game.event(f"{card.ref} is discarded instead of attached")
        return
    if card.armor:
        limit = creature.armor_limit(card)
        if creature.armor + 1 > limit:
            raise Illegal("AW-6.2", f"{creature.card.ref} already wears {creature.armor} "
                                    f"armor pieces; the limit is {limit}")
    game.cite("AW-6.2")
    creature.equipment.append(p.hand.pop(idx))
    game.event(f"{player} attaches {card.ref} to {creature.card.ref}")
    game.cite("AW-3.3", "AW-6.1")


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
    p.gear.append(p.hand.pop(idx))
    game.event(f"{player} lays {card.ref} on the field ({len(p.gear)} of 4)")
    game.cite("AW-3.3", "AW-8.1")


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
    if card.is_creature:
        n, rule = draws_for_level(card.level or 0)
    else:
        if game.house.value("discard_non_creature") == "forbidden":
            raise Illegal("AW-G.11", f"{card.ref} is not a creature; the house rule "
                                     "forbids discarding it to draw")
        n, rule = 1, "AW-G.11"
        game.gap(game.house.record("discard_non_creature", f"{player} discards "
                                f"{card.ref} ({card.kind}) to draw", "draws 1 card"))
    st.players[player].hand.pop(idx)
    st.to_discard(card, game.events)
    if card.kind == "gear":
        game.cite("AW-5.3")
    game.event(f"{player} discards {card.ref} to draw {n}")
    st.draw(player, n, game.house, game.out.gaps, game.events)
    t.discard_drew = True
    game.cite("AW-2.1", rule)
    if t.lucky_flipper:
        game.cite("AW-10.5")
        game.event("Lucky Flipper earlier this turn does not count as combined draw")
