"""The one interpreter of alpha-walrus card text (AW-11.1 to AW-11.5): effect data on the card
(:mod:`.vocabulary`, docs/effects.md), applied by the engine. Nothing here tests a card's
name: a card acts through its entries, so a user's own card with the same entries acts the
same way.

How text acts:

* **Triggers.** An event (a summon, a fight won or lost, a discard, a battle declared, a
  card played) *fires* the entries of the cards it concerns whose ``when`` is that event and
  whose ``if`` holds; each becomes an item of ``State.queue``, run in order by
  ``Match.settle`` (several at once: AW-G.24). An item that needs a choice asks its player
  (:mod:`.decisions`) and the queue waits for the answer.
* **Replacements.** An entry with ``instead: discard`` acts in the place of a discard (Bowhead
  Whale is shuffled into the deck; Arctic Hare returns to its owner's hand; Greenland Shark's
  owner may discard two cards instead). Card movements that text can change go through
  :func:`discard_card` and the ``discard`` task, never straight to the pile.
* **Static text** (no ``when``) is read where its rule is applied: ``level_bonus`` in a fight,
  ``armor_limit`` (AW-6.2), ``field_limit`` (AW-7.1), ``survives_discard`` (AW-6.1),
  ``cannot_make_room`` (AW-7.2), ``summon_alone`` (AW-3.3), ``cancel`` (AW-10.3).

Every applied entry is a step of the ruling naming its card and AW-11.1.
"""

from __future__ import annotations

from itertools import permutations

from deckcli.games.alpha_walrus import decisions as dec
from deckcli.games.alpha_walrus import knowledge as kn
from deckcli.games.interface import Illegal

#: what the engine's actions own and card text also does (summon a creature, attach
#: equipment): ``summon_problem``, ``put_on_field``, ``equip_problem``, ``attach``, registered
#: by :mod:`.engine_play` (so this module, below it, imports none of the actions)
HOOKS: dict = {}

#: the kinds of card played from hand whose entries without ``when`` act when played
PLAYED_KINDS = ("action", "diplomacy", "battle")
#: entries read where their rule applies, never queued
STATIC = frozenset({"level_bonus", "armor_limit", "field_limit", "survives_discard",
                    "cannot_make_room", "summon_alone", "cancel", "extra_draw", "reminder",
                    "pair_twice", "reroll", "surrender", "swap_opponents", "save_loser"})


def entries(card, when: str) -> list[tuple[int, dict]]:
    """(index, entry) of the card's entries that act on ``when``; a played card's entries
    without ``when`` act when it is played."""
    out = []
    for n, e in enumerate(card.effects):
        w = e.get("when")
        if w is None and when == "played" and card.kind in PLAYED_KINDS and \
                e.get("effect") not in STATIC:
            w = "played"
        if w == when:
            out.append((n, e))
    return out


def has(card, effect: str) -> bool:
    return any(e.get("effect") == effect for e in card.effects)


# -- conditions --------------------------------------------------------------------------------
def holds(game, card, owner: str, entry: dict, ctx: dict) -> bool:
    """Whether the entry's ``if`` holds now (conditions the card's owner and the event
    context decide)."""
    cond = entry.get("if") or {}
    st = game.state
    for key, want in cond.items():
        if key == "hand_below" and not len(st.players[owner].hand) < int(want):
            return False
        if key == "own_field_has" and not any(
                c.card.name == want and c.uid != ctx.get("uid") for c in st.players[owner].field):
            return False
        if key in ("from", "after", "as") and ctx.get(key) != want:
            return False
        if key == "beaten" and want not in ctx.get("beaten_traits", ()):
            return False
        if key == "phase" and not (st.turn is not None and st.turn.player == owner
                                   and st.turn.phase == want):
            return False
    return True


# -- firing and running -------------------------------------------------------------------------
def fire(game, when: str, card, owner: str, ctx: dict | None = None, only=None) -> int:
    """Queue the card's entries that act on ``when`` (their conditions hold now; ``only``:
    a test an entry must pass too); the number queued."""
    ctx = dict(ctx or {})
    n = 0
    for i, e in entries(card, when):
        if e.get("instead") is None and holds(game, card, owner, e, ctx) and \
                (only is None or only(e)):
            game.state.queue.append({"item": "effect", "card": card, "n": i, "owner": owner,
                                     "ctx": ctx})
            n += 1
    return n


def fire_many(game, when: str, triggered: list[tuple], only=None) -> None:
    """An event that triggers several cards at once (``triggered``: (card, owner, ctx)): their
    entries are queued in the order AW-G.24 says, the turn's player first by default."""
    st = game.state
    if len([1 for card, owner, ctx in triggered if entries(card, when)]) > 1 and \
            len({owner for _c, owner, _x in triggered}) > 1:
        mode = game.house.value("trigger_order")
        game.gap(game.house.record("trigger_order", f"{len(triggered)} cards of more than one "
                                   "player act on one event", "the turn's player's first, then "
                                   "in seat order" if mode == "active-first"
                                   else "in seat order"))
        first = st.turn.player if (st.turn is not None and mode == "active-first") else \
            st.order[0]
        i = st.order.index(first)
        seat = {p: k for k, p in enumerate(st.order[i:] + st.order[:i])}
        triggered = sorted(triggered, key=lambda t: seat.get(t[1], 99))
    for card, owner, ctx in triggered:
        fire(game, when, card, owner, ctx, only)


def run(game, item: dict) -> None:
    """Run one queued item: an effect entry, or an engine task (``discard``, ``lose``)."""
    kind = item["item"]
    if kind != "effect":
        TASKS[kind](game, item)
        return
    card, entry = item["card"], item["card"].effects[item["n"]]
    game.cite("AW-11.1")
    handler = DO.get(entry["effect"])
    if handler is None:  # a word of the vocabulary with no handler: said, never skipped
        game.out.remarks.append(f"{card.ref}: effect {entry['effect']} is not applied by the "
                                "referee")
        return
    handler(game, item, entry)


def say(game, text: str) -> None:
    """A step of the ruling that card text made (AW-11.1)."""
    game.event(text)
    game.cite("AW-11.1")


def note(game, card, text: str) -> None:
    say(game, f"{card.ref}: {text} [AW-11.1]")
    game.cite("AW-11.1")


# -- card movements that text can change -------------------------------------------------------
def take(game, owner: str, idx: int):
    """Take the card at ``idx`` from ``owner``'s hand (nobody knows it is there any more)."""
    card = game.state.players[owner].hand.pop(idx)
    kn.left_hand(game.state, owner, card)
    return card


def discard_card(game, card, owner: str, frm: str, reason: str) -> None:
    """``card`` (already taken from where it was) is discarded: to the discard pile, gear
    back into the deck (AW-5.3), unless its own text puts it elsewhere (``instead:
    discard``); then its ``discarded`` entries act."""
    st = game.state
    ctx = {"from": frm, "after": reason}
    for _n, e in entries(card, "discarded"):
        if e.get("instead") == "discard" and holds(game, card, owner, e, ctx):
            game.cite("AW-11.1", "AW-11.5")
            if e["effect"] == "shuffle_into_deck":
                st.shuffle_into_deck([card])
                kn.deck_changed(st)
                note(game, card, "shuffled into the deck instead of being discarded")
                return
    if card.kind == "gear":
        kn.deck_changed(st)
    st.to_discard(card, game.events)
    fire(game, "discarded", card, owner, ctx)


def remove_now(game, owner: str, idx: int, reason: str) -> None:
    """A creature leaves the field for the discard pile at once, as a sacrifice or a removal
    does (AW-8.1, AW-9.3): its equipment with it unless it survives (AW-6.1), each card
    through its own text (:func:`discard_card`); no choice is asked."""
    st = game.state
    creature = st.players[owner].field.pop(idx)
    for eq in creature.equipment:
        if eq.survives_discard and not st.players[owner].out:
            st.players[owner].hand.append(eq)
            kn.see_by_all(st, owner, eq)
            game.event(f"{eq.ref} returns to {owner}'s hand (its survives_discard effect)")
        else:
            discard_card(game, eq, owner, "field", "creature")
    discard_card(game, creature.card, owner, "field", reason)


def discard_from_hand(game, owner: str, idx: int, reason: str = "effect") -> None:
    card = take(game, owner, idx)
    discard_card(game, card, owner, "hand", reason)


def queue_discard(game, owner: str, uid: int, reason: str, front: bool = False,
                  ctx: dict | None = None) -> None:
    """Discard the creature ``uid`` from ``owner``'s field, as a queued task (what its text
    does on the way may ask a choice first)."""
    item = {"item": "discard", "owner": owner, "uid": uid, "reason": reason, "ctx": ctx or {}}
    if front:
        game.state.queue.insert(0, item)
    else:
        game.state.queue.append(item)


def _discard_task(game, item: dict) -> None:
    st = game.state
    owner, uid, reason = item["owner"], item["uid"], item["reason"]
    found = st.creature(owner, uid)
    if found is None:  # gone already (returned to hand by another text)
        return
    idx, creature = found
    if not item.get("asked"):  # texts that act on its equipment before it goes (Arctic Tern)
        for _n, e in entries(creature.card, "discarded"):
            if e["effect"] == "move_equipment" and e.get("from") == "self" and \
                    holds(game, creature.card, owner, e, {"from": "field", "after": reason}):
                options = _moves(st, owner, [(idx, creature)], exclude_to=idx)
                if options:
                    item["asked"] = True
                    st.queue.insert(0, item)  # the discard goes on after the answer
                    dec.ask(game, owner, "move_equipment", options, card=creature.card,
                            may_pass=True, prompt=f"whether to move an equipment card of "
                            f"{creature.card.ref} to another creature first")
                    return
    del st.players[owner].field[idx]
    game.event(f"{creature.card.ref} is discarded from {owner}'s field")
    to_hand = reason == "room" and any(
        e["effect"] == "equipment_to_hand" and holds(game, creature.card, owner, e,
                                                     {"from": "field", "after": reason})
        for _n, e in entries(creature.card, "discarded"))
    for eq in creature.equipment:
        if to_hand:
            st.players[owner].hand.append(eq)
            kn.see_by_all(st, owner, eq)
            note(game, creature.card, f"{eq.ref} returns to {owner}'s hand")
            game.cite("AW-11.1", "AW-6.1")
        elif eq.survives_discard:
            st.players[owner].hand.append(eq)
            kn.see_by_all(st, owner, eq)
            game.event(f"{eq.ref} returns to {owner}'s hand (its survives_discard effect)")
            game.cite("AW-6.1", "AW-11.1")
        else:
            discard_card(game, eq, owner, "field", "creature")
    ctx = {"from": "field", "after": reason, "uid": uid, **item.get("ctx", {})}
    fire_discarded = [(n, e) for n, e in entries(creature.card, "discarded")
                      if e["effect"] not in ("move_equipment", "equipment_to_hand")]
    # the creature card itself: replacements, then its other 'discarded' text
    for _n, e in fire_discarded:
        if e.get("instead") == "discard" and holds(game, creature.card, owner, e, ctx) and \
                e["effect"] == "shuffle_into_deck":
            st.shuffle_into_deck([creature.card])
            kn.deck_changed(st)
            note(game, creature.card, "shuffled into the deck instead of being discarded")
            game.cite("AW-11.5")
            return
    st.to_discard(creature.card, game.events)
    for n, e in fire_discarded:
        if e.get("instead") is None and holds(game, creature.card, owner, e, ctx):
            st.queue.insert(0, {"item": "effect", "card": creature.card, "n": n,
                                "owner": owner, "ctx": ctx})


def _lose_task(game, item: dict) -> None:
    """A creature lost its fight (AW-4.6): its text may put it elsewhere than the discard
    pile (``instead: discard``), else it is discarded with its equipment."""
    st = game.state
    owner, uid = item["owner"], item["uid"]
    found = st.creature(owner, uid)
    if found is None:
        return
    idx, creature = found
    card = creature.card
    for _n, e in entries(card, "loses_fight"):
        if e.get("instead") != "discard" or not holds(game, card, owner, e, item["ctx"]):
            continue
        if e["effect"] == "return_to_hand":
            to_hand(game, owner, idx, with_equipment=False)
            note(game, card, f"returns to {owner}'s hand instead of being discarded; its "
                             "equipment is discarded")
            game.cite("AW-11.5")
            return
        if e["effect"] == "discard_from_hand" and not item.get("declined"):
            n = int(e.get("value", 1))
            hand = st.players[owner].hand
            if len(hand) >= n:
                dec.ask(game, owner, "pay_instead", _subsets(hand, n), card=card,
                        may_pass=True, data={"uid": uid, "ctx": item["ctx"]},
                        prompt=f"whether to discard {n} card(s) from hand instead of "
                               f"{card.ref}")
                return
    queue_discard(game, owner, uid, "loss", front=True, ctx=item["ctx"])


def _subsets(hand: list, n: int) -> list[list[str]]:
    """The distinct choices of ``n`` cards of a hand, as sorted lists of references."""
    from itertools import combinations

    refs = sorted(c.ref for c in hand)
    return [list(c) for c in dict.fromkeys(combinations(refs, n))]


def _pay_instead(game, decision, option) -> None:
    st = game.state
    owner, data = decision["player"], decision["data"]
    if option == dec.PASS:
        queue_discard(game, owner, data["uid"], "loss", front=True, ctx=data["ctx"])
        return
    found = st.creature(owner, data["uid"])
    for ref in option:
        idx = _hand_index(st, owner, ref)
        discard_from_hand(game, owner, idx, "effect")
    if found is not None:
        say(game, f"{owner} discards {', '.join(option)} instead of {found[1].card.ref} "
                  "[AW-11.1]")
        game.cite("AW-11.5")


def _hand_index(st, owner: str, ref: str) -> int:
    for i, c in enumerate(st.players[owner].hand):
        if c.ref == ref:
            return i
    raise Illegal("AW-11.2", f"{owner} does not hold {ref}")


def to_hand(game, owner: str, idx: int, *, with_equipment: bool) -> None:
    """A creature goes from the field back to its owner's hand (everyone sees it): its
    equipment with it, or discarded (AW-6.1) unless it survives."""
    st = game.state
    creature = st.players[owner].field.pop(idx)
    st.players[owner].hand.append(creature.card)
    kn.see_by_all(st, owner, creature.card)
    for eq in creature.equipment:
        if with_equipment or eq.survives_discard:
            st.players[owner].hand.append(eq)
            kn.see_by_all(st, owner, eq)
        else:
            discard_card(game, eq, owner, "field", "creature")


# -- effects --------------------------------------------------------------------------------------
def _who(game, item, entry) -> list[str]:
    """The players an entry acts on (its ``who``), still in the game."""
    st = game.state
    owner, ctx = item["owner"], item["ctx"]
    who = entry.get("who", "you")
    live = st.live()
    if who == "you":
        out = [owner]
    elif who == "each_opponent":
        out = [p for p in seats_from(st, owner) if p != owner]
    elif who == "every_player":
        out = seats_from(st, owner)
    elif who == "you_and_target":
        out = [owner, ctx.get("target")]
    else:  # target, attacker, loser, winner: named by the event
        out = [ctx.get(who)]
    return [p for p in out if p in live]


def seats_from(st, first: str) -> list[str]:
    """The players in seat order from ``first``, still in the game."""
    i = st.order.index(first)
    return [p for p in st.order[i:] + st.order[:i] if not st.players[p].out]


def _draw(game, item, entry) -> None:
    st, card = game.state, item["card"]
    n = int(entry.get("value", 1))
    turn = st.turn
    for player in _who(game, item, entry):
        if turn is not None and turn.player == player and "when" in entry:
            # a creature's triggered draw and discarding to draw (AW-2.2): gap AW-G.29
            if turn.discard_drew:
                mode = game.house.value("triggered_draw")
                game.gap(game.house.record(
                    "triggered_draw", f"{card.ref}'s text draws for {player}, who discarded "
                    "to draw this turn", "the text draws" if mode == "not-combined" else
                    "no card is drawn: discarding to draw is not combined with another draw"))
                if mode == "combined":
                    continue
            turn.triggered_draw = True
        elif turn is not None and turn.player == player and "when" not in entry:
            turn.draw_ability = card.ref  # a played card that draws: AW-2.2
        got = st.draw(player, n, game.house, game.out.gaps, game.events)
        note(game, card, f"{player} draws {len(got)}")


def _discard_from_hand(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    n = int(entry.get("value", 1))
    targets = _who(game, item, entry)
    if (entry.get("if") or {}).get("more_creatures"):
        mine = len(st.players[owner].field)
        targets = [p for p in targets if len(st.players[p].field) > mine]
    for player in targets:
        hand = st.players[player].hand
        if not hand:
            note(game, card, f"{player} has no card to discard")
            continue
        for _ in range(min(n, len(hand))):
            dec.ask(game, player, "discard_own", sorted({c.ref for c in hand}), card=card,
                    default=None, prompt=f"the card {card.ref} makes {player} discard")


def _discard_own(game, decision, option) -> None:
    st, player = game.state, decision["player"]
    idx = _hand_index(st, player, option)
    discard_from_hand(game, player, idx, "effect")
    game.event(f"{player} discards {option} ({decision['card']}) [AW-11.2]")
    game.cite("AW-11.2")


def _look_at_hand(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    who = entry.get("who")
    if who == "chosen_opponent":
        others = [p for p in seats_from(st, owner) if p != owner]
        if len(others) > 1:
            dec.ask(game, owner, "look_at_hand", others, card=card, default=None,
                    prompt=f"whose hand {card.ref} looks at")
            return
        targets = others
    else:
        targets = _who(game, item, entry)
    for target in targets:
        if entry.get("optional"):
            dec.ask(game, owner, "look_at_hand", [target], card=card, may_pass=True,
                    prompt=f"whether to look at {target}'s hand ({card.ref})")
        else:
            _look(game, owner, target, card)


def _look(game, viewer: str, target: str, card) -> None:
    kn.see_hand(game.state, viewer, target)
    note(game, card, f"{viewer} looks at {target}'s hand "
                     f"({len(game.state.players[target].hand)} cards)")
    game.cite("AW-11.4")


def _look_at_hand_answer(game, decision, option) -> None:
    if option != dec.PASS:
        _look(game, decision["player"], option, game.cards.find(decision["card"]))


def _look_at_deck(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    n = int(entry.get("value", 1))
    top = st.deck[:n]
    kn.see_top(st, owner, top)
    note(game, card, f"{owner} looks at the top {len(top)} card(s) of the deck")
    game.cite("AW-11.4")
    if entry.get("reorder") and len(top) > 1:
        orders = [list(p) for p in dict.fromkeys(permutations([c.ref for c in top]))]
        dec.ask(game, owner, "order_top", orders, card=card, default=[c.ref for c in top],
                prompt=f"the order to put the top {len(top)} cards back in ({card.ref})")


def _order_top(game, decision, option) -> None:
    st = game.state
    n = len(option)
    top, rest = st.deck[:n], st.deck[n:]
    ordered = []
    for ref in option:
        i = next(k for k, c in enumerate(top) if c.ref == ref)
        ordered.append(top.pop(i))
    st.deck = ordered + rest
    kn.see_top(st, decision["player"], ordered)
    game.event(f"{decision['player']} puts the top {n} cards back in the order chosen "
               f"({decision['card']}) [AW-11.2]")


def _reveal_gear(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    for player in _who(game, item, entry):
        gear = sorted({c.ref for c in st.players[player].hand if c.kind == "gear"})
        if not gear:
            note(game, card, f"{player} holds no Alpha Walrus gear piece")
        elif len(gear) == 1:
            _show_gear(game, owner, player, gear[0], card)
        else:
            dec.ask(game, player, "show_gear", gear, card=card, default=None,
                    data={"viewer": owner},
                    prompt=f"the gear piece {player} shows {owner} ({card.ref})")


def _show_gear(game, viewer: str, player: str, ref: str, card) -> None:
    st = game.state
    shown = st.players[player].hand[_hand_index(st, player, ref)]
    kn.see_card(st, viewer, player, shown)
    note(game, card, f"{player} shows {viewer} {ref}")
    game.cite("AW-11.4")


def _show_gear_answer(game, decision, option) -> None:
    _show_gear(game, decision["data"]["viewer"], decision["player"], option,
               game.cards.find(decision["card"]))


def _count_gear(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    for target in _who(game, item, entry):
        n = sum(1 for c in st.players[target].hand if c.kind == "gear")
        kn.tell(st, owner, {"player": target, "gear_in_hand": n, "round": st.round})
        note(game, card, f"{target} tells {owner} how many gear pieces they hold")
        game.cite("AW-11.4")


def _summon_from_hand(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    same = [c.ref for c in st.players[owner].hand
            if c.kind == "creature" and (entry.get("name") != "same" or c.name == card.name)]
    options = [ref for ref in dict.fromkeys(same)
               if HOOKS["summon_problem"](game, owner, game.cards.find(ref), None) is None]
    if options:
        dec.ask(game, owner, "summon_from_hand", options, card=card,
                may_pass=bool(entry.get("optional")),
                prompt=f"whether to summon another creature with {card.ref}")


def _summon_from_hand_answer(game, decision, option) -> None:
    if option == dec.PASS:
        return
    owner = decision["player"]
    HOOKS["put_on_field"](game, owner, game.cards.find(option), None,
                             by=decision["card"])


def _return_to_hand(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    if entry.get("what") == "self":
        found = st.creature(owner, item["ctx"].get("uid"))
        if found is not None:
            to_hand(game, owner, found[0], with_equipment=True)
            note(game, card, f"returns to {owner}'s hand with its equipment")
        return
    field = st.players[owner].field
    if field:
        dec.ask(game, owner, "creature_to_hand", list(range(1, len(field) + 1)), card=card,
                default=None, prompt=f"which creature {card.ref} returns to the hand "
                                     "(a field position)")


def _creature_to_hand(game, decision, option) -> None:
    to_hand(game, decision["player"], int(option) - 1, with_equipment=True)
    say(game, f"{decision['player']}'s creature at position {option} returns to the hand "
               f"with its equipment ({decision['card']}) [AW-11.1]")


def _moves(st, owner: str, sources, *, to=None, exclude_to=None, mover=None) -> list[dict]:
    """Every move of one equipment card from a creature of ``sources`` ((position,
    creature) pairs; ``mover``'s field or another's) to one of ``owner``'s creatures (``to``:
    that position only), within the armor limit (AW-6.2), as options
    ``{equipment, from, to}`` (1-based positions)."""
    field = st.players[owner].field
    out = []
    for i, source in sources:
        for eq in dict.fromkeys(source.equipment):
            for j, dest in enumerate(field):
                if (to is not None and j != to) or j == exclude_to or dest is source:
                    continue
                if eq.armor and dest.armor + 1 > dest.armor_limit(eq):
                    continue
                out.append({"equipment": eq.ref, "from": i + 1, "to": j + 1})
    return out


def _move_equipment(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    frm, ctx = entry.get("from"), item["ctx"]
    field = st.players[owner].field
    me = st.creature(owner, ctx["uid"]) if ctx.get("uid") is not None else None
    if frm == "own_creature" and entry.get("to") == "self" and me is not None:
        options = _moves(st, owner, [(i, c) for i, c in enumerate(field) if i != me[0]],
                         to=me[0])
    elif frm == "own_creature":
        options = _moves(st, owner, list(enumerate(field)))
    elif frm == "beaten" and me is not None:
        beaten = st.creature(ctx["loser"], ctx["beaten_uid"])
        if beaten is None:
            return
        options = [{**o, "owner": ctx["loser"]} for o in _moves(st, owner, [beaten], to=me[0])]
    else:
        return
    if options:
        dec.ask(game, owner, "move_equipment", options, card=card,
                may_pass=bool(entry.get("optional")), default=dec.PASS if entry.get(
                    "optional") else None, prompt=f"the equipment card {card.ref} moves")


def _move_equipment_answer(game, decision, option) -> None:
    if option == dec.PASS:
        return
    st = game.state
    owner = decision["player"]
    source_owner = option.get("owner", owner)
    src = st.players[source_owner].field[int(option["from"]) - 1]
    dest = st.players[owner].field[int(option["to"]) - 1]
    eq = next(e for e in src.equipment if e.ref == option["equipment"])
    src.equipment.remove(eq)
    dest.equipment.append(eq)
    say(game, f"{option['equipment']} moves from {src.card.ref} to {dest.card.ref} "
               f"({decision['card']}) [AW-11.1]")
    game.cite("AW-6.1", "AW-6.2")


def _take_from_discard(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    kinds = entry.get("kinds") or []
    armor = entry.get("armor")
    fit = sorted({c.ref for c in st.discard if c.kind in kinds
                  and (armor is None or bool(c.armor) == armor)})
    if not fit:
        note(game, card, "the discard pile holds no card it can take")
        return
    dec.ask(game, owner, "take_from_discard", fit, card=card, default=None,
            prompt=f"the card {card.ref} takes from the discard pile")


def _take_from_discard_answer(game, decision, option) -> None:
    st, owner = game.state, decision["player"]
    i = next(k for k, c in enumerate(st.discard) if c.ref == option)
    got = st.discard.pop(i)
    st.players[owner].hand.append(got)
    kn.see_by_all(st, owner, got)
    say(game, f"{owner} takes {option} from the discard pile ({decision['card']}) "
               "[AW-11.1]")


def discard_to_draw_open(st, player: str) -> bool:
    """Whether ``player`` may still discard to draw this turn (AW-2.1, AW-2.2)."""
    t = st.turn
    return t is not None and t.player == player and not t.discard_drew and not t.draw_ability


def _discard_to_draw(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    hand = st.players[owner].hand
    if not hand or not discard_to_draw_open(st, owner):
        return
    dec.ask(game, owner, "discard_to_draw", sorted({c.ref for c in hand}), card=card,
            may_pass=True, data={"value": int(entry.get("value", 1))},
            prompt=f"whether to discard a card to draw ({card.ref}: this turn's discard)")


def _discard_to_draw_answer(game, decision, option) -> None:
    if option == dec.PASS:
        return
    st, owner = game.state, decision["player"]
    discard_from_hand(game, owner, _hand_index(st, owner, option), "draw")
    st.draw(owner, decision["data"]["value"], game.house, game.out.gaps, game.events)
    st.turn.discard_drew = True
    say(game, f"{owner} discards {option} to draw ({decision['card']}: the turn's discard, "
               "AW-2.1) [AW-11.1]")
    game.cite("AW-2.1")


def _discard_equipment(game, item, entry) -> None:
    st, card, ctx = game.state, item["card"], item["ctx"]
    chooser = ctx.get("winner")
    beater = st.creature(chooser, ctx.get("beater_uid")) if chooser else None
    if beater is None or not beater[1].equipment:
        return
    dec.ask(game, chooser, "discard_equipment", sorted({e.ref for e in beater[1].equipment}),
            card=card, default=None, data={"uid": beater[1].uid},
            prompt=f"the equipment card {card.ref} makes {chooser} discard from "
                   f"{beater[1].card.ref}")


def _discard_equipment_answer(game, decision, option) -> None:
    st, owner = game.state, decision["player"]
    found = st.creature(owner, decision["data"]["uid"])
    if found is None:
        return
    creature = found[1]
    eq = next(e for e in creature.equipment if e.ref == option)
    creature.equipment.remove(eq)
    discard_card(game, eq, owner, "field", "effect")
    say(game, f"{owner} discards {option} from {creature.card.ref} ({decision['card']}) "
               "[AW-11.1]")


def _attach_from_hand(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    found = st.creature(owner, item["ctx"].get("uid"))
    if found is None:
        return
    idx, creature = found
    fit = sorted({c.ref for c in st.players[owner].hand if c.kind == "equipment"
                  and HOOKS["equip_problem"](creature, c) is None})
    if fit:
        dec.ask(game, owner, "attach_from_hand", fit, card=card, may_pass=True,
                data={"uid": creature.uid},
                prompt=f"whether to attach equipment from hand to {card.ref} at once")


def _attach_from_hand_answer(game, decision, option) -> None:
    if option == dec.PASS:
        return
    st, owner = game.state, decision["player"]
    found = st.creature(owner, decision["data"]["uid"])
    if found is not None:
        HOOKS["attach"](game, owner, game.cards.find(option), found[0],
                           by=decision["card"])


def _discard_armor(game, item, entry) -> None:
    st, card, ctx = game.state, item["card"], item["ctx"]
    loser = ctx.get("loser")
    if loser is None or loser not in st.live():
        return
    options = [{"creature": i + 1, "armor": e.ref}
               for i, c in enumerate(st.players[loser].field)
               for e in dict.fromkeys(c.equipment) if e.armor]
    if options:
        dec.ask(game, item["owner"], "discard_armor", options, card=card, may_pass=True,
                data={"loser": loser},
                prompt=f"whether to discard an armor piece of {loser}'s ({card.ref})")


def _discard_armor_answer(game, decision, option) -> None:
    if option == dec.PASS:
        return
    st = game.state
    loser = decision["data"]["loser"]
    creature = st.players[loser].field[int(option["creature"]) - 1]
    eq = next(e for e in creature.equipment if e.ref == option["armor"])
    creature.equipment.remove(eq)
    discard_card(game, eq, loser, "field", "effect")
    say(game, f"{decision['player']} discards {eq.ref} from {loser}'s {creature.card.ref} "
               f"({decision['card']}) [AW-11.1]")


def _protect(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    target = item["ctx"].get("target")
    ahead = int(entry.get("value", 1))
    bars = entry.get("bars", "target")
    if entry.get("duration") == "through_next_round":
        first, last = st.round, st.round + 1
    else:
        first = last = st.round + ahead
    pairs = {"target": [(target, owner)], "you": [(owner, target)],
             "both": [(target, owner), (owner, target)]}[bars]
    for attacker, defender in pairs:
        st.protections.append({"attacker": attacker, "defender": defender, "from": first,
                               "to": last, "card": card.ref})
        when = f"in round {first}" if first == last else f"in rounds {first} to {last}"
        note(game, card, f"{attacker} cannot attack {defender} {when}")


def _give_card(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    target = item["ctx"].get("target")
    hand = st.players[owner].hand
    if not hand or target not in st.live():
        note(game, card, f"{owner} has no card to give")
        return
    for _ in range(min(int(entry.get("value", 1)), len(hand))):
        dec.ask(game, owner, "give_card", sorted({c.ref for c in hand}), card=card,
                default=None, data={"target": target},
                prompt=f"the card {owner} gives {target} ({card.ref})")


def _give_card_answer(game, decision, option) -> None:
    st, owner = game.state, decision["player"]
    target = decision["data"]["target"]
    got = take(game, owner, _hand_index(st, owner, option))
    st.players[target].hand.append(got)
    kn.see_card(st, owner, target, got)
    say(game, f"{owner} gives {target} a card ({decision['card']}) [AW-11.1]")


def _pass_cards(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    players = seats_from(st, owner)
    passing = [p for p in players if any(c.kind != "gear" for c in st.players[p].hand)]
    if not passing:
        note(game, card, "nobody holds a card that may be passed")
        return
    for p in passing:
        dec.ask(game, p, "pass_card", sorted({c.ref for c in st.players[p].hand
                                              if c.kind != "gear"}),
                card=card, default=None, data={"last": p == passing[-1]},
                prompt=f"the card {p} passes to the left ({card.ref}; gear cannot be passed)")
    st.queue.insert(0, {"item": "passes", "card": card, "chosen": {}})


def _pass_card_answer(game, decision, option) -> None:
    for item in game.state.queue:
        if item["item"] == "passes":
            item["chosen"][decision["player"]] = option
            return


def _passes_task(game, item) -> None:
    """Every player's chosen card goes to the player on their left (the next in seat
    order), all at once (Ice Floe Summit)."""
    st = game.state
    moved = []
    for p, ref in item["chosen"].items():
        moved.append((p, take(game, p, _hand_index(st, p, ref))))
    for p, got in moved:
        left = seats_from(st, p)[1] if len(seats_from(st, p)) > 1 else p
        st.players[left].hand.append(got)
        kn.see_card(st, p, left, got)
    if moved:
        say(game, f"{len(moved)} card(s) passed to the left ({item['card'].ref}) [AW-11.1]")


def _discard_creature(game, item, entry) -> None:
    st, card, owner = game.state, item["card"], item["owner"]
    least = int((entry.get("if") or {}).get("creatures_at_least", 1))
    for p in seats_from(st, owner):
        field = st.players[p].field
        if len(field) >= least:
            dec.ask(game, p, "discard_creature", list(range(1, len(field) + 1)), card=card,
                    default=None, prompt=f"the creature {p} discards ({card.ref}; a field "
                                         "position)")


def _discard_creature_answer(game, decision, option) -> None:
    st, p = game.state, decision["player"]
    creature = st.players[p].field[int(option) - 1]
    say(game, f"{p} discards {creature.card.ref} ({decision['card']}) [AW-11.1]")
    queue_discard(game, p, creature.uid, "effect", front=True)


def _not_here(game, item, entry) -> None:
    """Entries read where their rule applies (battles, summons): nothing to queue."""


DO = {
    "draw": _draw, "discard_from_hand": _discard_from_hand, "look_at_hand": _look_at_hand,
    "look_at_deck": _look_at_deck, "reveal_gear": _reveal_gear, "count_gear": _count_gear,
    "summon_from_hand": _summon_from_hand, "return_to_hand": _return_to_hand,
    "move_equipment": _move_equipment, "take_from_discard": _take_from_discard,
    "discard_to_draw": _discard_to_draw, "discard_equipment": _discard_equipment,
    "attach_from_hand": _attach_from_hand, "discard_armor": _discard_armor,
    "protect_from_battle": _protect, "give_card": _give_card, "pass_cards": _pass_cards,
    "discard_creature": _discard_creature,
    **dict.fromkeys(STATIC, _not_here),
    # acted on by the code of their event (a discard, a loss): never queued by themselves
    "equipment_to_hand": _not_here, "shuffle_into_deck": _not_here,
}

TASKS = {"discard": _discard_task, "lose": _lose_task, "passes": _passes_task}

dec.RESUME.update({
    "pay_instead": _pay_instead, "discard_own": _discard_own,
    "look_at_hand": _look_at_hand_answer, "order_top": _order_top,
    "show_gear": _show_gear_answer, "summon_from_hand": _summon_from_hand_answer,
    "creature_to_hand": _creature_to_hand, "move_equipment": _move_equipment_answer,
    "take_from_discard": _take_from_discard_answer,
    "discard_to_draw": _discard_to_draw_answer,
    "discard_equipment": _discard_equipment_answer,
    "attach_from_hand": _attach_from_hand_answer, "discard_armor": _discard_armor_answer,
    "give_card": _give_card_answer, "pass_card": _pass_card_answer,
    "discard_creature": _discard_creature_answer,
})
