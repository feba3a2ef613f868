"""The Final Showdown (AW-8.x, AW-9.x) and what follows a player's removal, as a game log
records them (split from :mod:`.engine_battle`).

A Final Showdown entry (``do: summon-alpha``) gives ``fights``, one per opponent in the order
fought: ``{opponent, creatures: [...], battle_cards: [{player, card}]}``; without ``fights``
every opponent is fought in seat order with all their creatures (AW-G.4 picks which fight).
"""

from __future__ import annotations

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus import effects
from deckcli.games.alpha_walrus.battle import Dice, Fighter, showdown
from deckcli.games.interface import Illegal


def list_of(action, key) -> list:
    value = action.get(key) or []
    if not isinstance(value, list):
        raise DeckcliError(f"'{key}' is a list")
    return value


def _spend(game, used: dict[str, list[int]]) -> None:
    for owner, idxs in used.items():
        for i in sorted(idxs, reverse=True):
            effects.discard_card(game, effects.take(game, owner, i), owner, "hand", "spent")


def eliminate(game, target: str) -> None:
    st = game.state
    p = st.players[target]
    while p.hand:
        effects.discard_card(game, effects.take(game, target, 0), target, "hand", "removed")
    for c in p.gear:
        st.to_discard(c, game.events)
    p.gear.clear()
    while p.field:
        effects.remove_now(game, target, 0, "removed")
    p.hand.clear()
    p.out = True
    game.event(f"{target} is out of the game (house rule destroy_all_four=eliminates)")
    _one_left(game)


def _beaten_creatures(game, beaten: list) -> None:
    """AW-G.20: the creatures the Alpha Walrus beat before the Summoner lost a later fight
    (``beaten``: opponent and field position, from :func:`.battle.showdown`) stay on the field,
    or with ``showdown_beaten=discarded`` are discarded, as a battle's losers are."""
    if not beaten:
        return
    st = game.state
    discard = game.house.value("showdown_beaten") == "discarded"
    names = ", ".join(f"{opp}'s {st.players[opp].field[pos - 1].card.ref}" for opp, pos in beaten)
    game.gap(game.house.record(
        "showdown_beaten", f"the Alpha Walrus beat {names} and then lost",
        "those creatures are discarded" if discard else "those creatures stay on the field"))
    if discard:
        for opp, pos in sorted(beaten, key=lambda b: (st.order.index(b[0]), -b[1])):
            effects.remove_now(game, opp, pos - 1, "showdown")  # the last position first


def _removed_hand(game, player: str) -> None:
    """AW-G.23: the cards a beaten Summoner still holds leave the game with them, or with
    ``removed_hand=discarded`` go to the discard pile (gear back into the deck, AW-5.3)."""
    p = game.state.players[player]
    if not p.hand:
        return
    discard = game.house.value("removed_hand") == "discarded"
    game.gap(game.house.record(
        "removed_hand", f"{player} is removed holding {len(p.hand)} card(s)",
        "they are discarded" if discard else "they leave the game with their player"))
    if discard:
        for card in p.hand:
            game.state.to_discard(card, game.events)
        p.hand.clear()


def _one_left(game) -> None:
    """AW-G.19: a player has gone out and one player is left, with no opponent to beat in the
    Final Showdown that wins the game (AW-9.1); ``last_player=wins`` makes that player the
    winner at once."""
    st = game.state
    live = st.live()
    if len(live) != 1 or st.winner is not None:
        return
    last = live[0]
    wins = game.house.value("last_player") == "wins"
    game.gap(game.house.record(
        "last_player", f"{last} is the only player left",
        f"{last} wins the game" if wins else
        f"{last} plays on: summoning the Alpha Walrus, with no opponent to fight, wins"))
    if wins:
        st.winner = last
        game.cite("AW-9.1")


# --------------------------------------------------------------------------- Final Showdown
def summon_alpha(game, player: str, action: dict) -> None:
    st, house = game.state, game.house
    game.field_gate(player)
    p = st.players[player]
    if st.centre is None or st.centre.kind != "alpha-walrus":
        raise Illegal("AW-8.1", "the Alpha Walrus is not in the centre")
    pieces = game.cards.all_of_kind("gear")
    have = {g.id for g in p.gear}
    missing = [g.ref for g in pieces if g.id not in have]
    if missing:
        raise Illegal("AW-8.1", f"{player} has {len(pieces) - len(missing)} of the "
                                f"{len(pieces)} gear pieces on the field (missing: "
                                f"{', '.join(missing)})")
    if st.round <= 2:  # AW-1.6 names battles; whether the Final Showdown is one is AW-G.21
        if house.value("early_showdown") == "round-3" and house.settled("early_showdown"):
            raise Illegal("AW-G.21", f"round {st.round}: the house rule early_showdown=round-3 "
                                     "keeps the Alpha Walrus from being summoned before round 3, "
                                     "as a battle (AW-1.6)")
        game.gap(house.record("early_showdown", f"{player} summons the Alpha Walrus in round "
                              f"{st.round}, one of the first two rounds, which have no battles "
                              "(AW-1.6)", "the Final Showdown goes ahead"))
    if not p.field:
        if house.value("sacrifice_creatures") == "at-least-one" and \
                house.settled("sacrifice_creatures"):
            raise Illegal("AW-G.13", f"{player} has no creature to sacrifice with the gear")
        game.gap(house.record("sacrifice_creatures", f"{player} summons with no creature on the "
                           "field", "the summon is allowed"))
    if action.get("cancelled_by") is not None:
        mode = house.value("goamph_alpha")
        if mode == "no" and house.settled("goamph_alpha"):
            raise Illegal("AW-G.16", "a Goamph cannot cancel the Alpha Walrus summon")
        game.gap(house.record("goamph_alpha", f"{action['cancelled_by']} answers the Alpha Walrus "
                           "summon with Goamph", "the summon is cancelled" if mode == "yes"
                           else "the Goamph has no effect; the summon goes ahead"))
        if mode == "yes":
            game.goamph(action["cancelled_by"], "summon", "AW-10.1")
            return
    opponents = [o for o in st.live() if o != player]
    if not opponents:  # AW-G.19 under last_player=showdown: nobody is left to fight
        game.gap(house.record("last_player", f"{player} summons the Alpha Walrus with no "
                              "opponent left", f"the Final Showdown has no fight: {player} "
                              "wins"))
    raw = action.get("fights")
    if raw is None:
        i = st.order.index(player)
        ring = st.order[i + 1:] + st.order[:i]
        raw = [{"opponent": o} for o in ring if o in opponents]
    if not isinstance(raw, list):
        raise DeckcliError("'fights' is a list of {opponent, creatures, battle_cards}")
    named = [str(f.get("opponent")) for f in raw if isinstance(f, dict)]
    if len(named) != len(raw) or len(set(named)) != len(named) or set(named) != set(opponents):
        raise Illegal("AW-8.2", f"the Summoner fights every opponent once: "
                                f"{', '.join(opponents)} (the log lists {', '.join(named)})")
    fights_in: list[dict] = []
    spent: dict = {}
    for f, opp in zip(raw, named):
        o = st.players[opp]
        refs = f.get("creatures", [f["creature"]] if "creature" in f else None)
        if refs is not None and not isinstance(refs, list):
            raise DeckcliError("a fight's 'creatures' is a list")
        idxs = (list(range(len(o.field))) if refs is None
                else [game.field_pos(opp, r, "AW-8.2") for r in refs])
        alpha_cards: list = []
        opp_cards: dict = {}
        for entry in list_of(f, "battle_cards"):
            if not isinstance(entry, dict):
                raise DeckcliError("each battle_cards entry is {player, card, on}")
            who = str(entry.get("player", opp))
            card = game.cards.find(entry.get("card"))
            if card.kind != "battle":
                raise Illegal("AW-8.4", f"{card.ref} is not a battle card")
            if who not in (player, opp):
                raise Illegal("AW-8.4", f"{who} is not in the fight against {opp}")
            hand = st.players[who].hand
            taken = spent.setdefault(who, [])
            k = next((n for n, c in enumerate(hand) if c.id == card.id and n not in taken), None)
            if k is None:
                raise Illegal("AW-8.4", f"{who} does not hold {card.ref}")
            taken.append(k)
            if who == player:
                alpha_cards.append(card)
            else:
                on = game.field_pos(opp, entry["on"], "AW-8.4") if entry.get("on") is not None \
                    else (idxs[0] if idxs else None)
                opp_cards.setdefault(on, []).append(card)
        fighters = [Fighter("defender", k + 1, o.field[k].card, list(o.field[k].equipment),
                            opp_cards.get(k, [])) for k in idxs]
        fights_in.append({"opponent": opp, "fighters": fighters, "alpha_cards": alpha_cards})
    alpha = st.centre
    gone = [c.card.ref for c in p.field]
    while p.field:
        effects.remove_now(game, player, 0, "sacrifice")
    st.alpha_gear = list(p.gear)
    p.gear.clear()
    st.centre = None
    game.event(f"{player} sacrifices the 4 gear pieces and {len(gone)} creature(s) and summons "
               f"{alpha.ref}: the Final Showdown begins")
    game.cite("AW-8.1", "AW-8.2", "AW-8.3")
    dice = Dice(list_of(action, "rolls"), rng=st.rng)
    alpha_eq = [game.cards.find(e) for e in list_of(action, "alpha_equipment")]
    result = showdown(alpha, fights_in, dice, house, alpha_eq)
    if result["violations"]:
        v = result["violations"][0]
        raise Illegal(v["rule"], v["message"])
    for g in result["gaps"]:
        game.gap(g)
    game.out.facts["rolls"] = dice.used
    game.out.facts["showdown"] = {k: result[k] for k in ("winner", "rule", "fights", "ruling")}
    if any(f.get("alpha_cards") for f in fights_in) or any(
            fi.battle_cards for f in fights_in for fi in f["fighters"]):
        game.cite("AW-8.4")
    if any(f["rule"] == "AW-8.5" for f in result["fights"]):
        game.cite("AW-8.5")
    _spend(game, spent)
    for f in result["fights"]:
        rolls = "; dice " + ", then ".join(f"{r['summoner']} v {r['opponent']}"
                                           for r in f["rolls"]) if f["rolls"] else ""
        game.event(f"v {f['opponent']}: Alpha Walrus level {f['levels']['summoner']} against "
                   f"{f['creature'] or 'no creature'} level {f['levels']['opponent']}{rolls}: "
                   f"{f['winner']} wins [{f['rule']}]")
    game.event(result["ruling"])
    if result["winner"] == "summoner":
        st.winner = player
        game.cite("AW-9.1")
        return
    p.out = True
    _removed_hand(game, player)
    _beaten_creatures(game, result["beaten"])
    st.shuffle_into_deck(st.alpha_gear)
    st.alpha_gear = []
    st.centre = alpha
    st.turn = None
    game.cite("AW-9.2", "AW-9.3", "AW-9.4")
    _one_left(game)
