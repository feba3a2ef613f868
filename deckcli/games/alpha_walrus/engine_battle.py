"""Battle and Final Showdown actions of a game log (split from :mod:`.engine`).

A battle entry::

    - player: alice
      do: battle
      target: bob                 # AW-4.1
      stake: gear                 # or hand (AW-4.2)
      match: {Krill: Orca, 2: 1}  # the defender's match-ups, attacker -> defender (AW-4.3);
                                  # names or 1-based field positions
      battle_cards:               # optional (AW-4.9); 'on' defaults to the owner's first creature
        - {player: bob, card: Tusk Charge, on: Orca}
      rolls: [3, 5]               # optional D6 values (attacker's first); else the log's seed
      take: Alpha Walrus Horn     # optional: the gear piece / hand card won (AW-G.12, AW-G.17)
      cancelled_by: carol         # optional: a Goamph cancels the battle (AW-10.4)

A Final Showdown entry (``do: summon-alpha``) gives ``fights``, one per opponent in the order
fought: ``{opponent, creatures: [...], battle_cards: [{player, card}]}``; without ``fights``
every opponent is fought in seat order with all their creatures (AW-G.4 picks which fight).
"""

from __future__ import annotations

from deckcli.errors import DeckcliError
from deckcli.games.alpha_walrus.battle import Dice, Fighter, resolve_battle, showdown
from deckcli.games.interface import Illegal


def _list(action, key) -> list:
    value = action.get(key) or []
    if not isinstance(value, list):
        raise DeckcliError(f"'{key}' is a list")
    return value


def _battle_cards(game, action, sides: dict[str, str], where: dict) -> dict:
    """Battle cards by (player, field index); each card taken from its player's hand."""
    out: dict[tuple[str, int | None], list] = {}
    used: dict[str, list[int]] = {}
    for entry in _list(action, "battle_cards"):
        if not isinstance(entry, dict):
            raise DeckcliError("each battle_cards entry is {player, card, on}")
        owner = str(entry.get("player", next(iter(sides))))
        if owner not in sides:
            raise Illegal("AW-4.9", f"{owner} is not in this battle and cannot play a battle "
                                    "card in it")
        card = game.cards.find(entry.get("card"))
        if card.kind != "battle":
            raise Illegal("AW-4.9", f"{card.ref} is not a battle card")
        hand = game.state.players[owner].hand
        idx = next((i for i, c in enumerate(hand)
                    if c.id == card.id and i not in used.setdefault(owner, [])), None)
        if idx is None:
            raise Illegal("AW-4.9", f"{owner} does not hold {card.ref}")
        used[owner].append(idx)
        target = where[owner](entry.get("on")) if where.get(owner) else None
        out.setdefault((owner, target), []).append(card)
    return out, used


def _spend(game, used: dict[str, list[int]]) -> None:
    for owner, idxs in used.items():
        hand = game.state.players[owner].hand
        for i in sorted(idxs, reverse=True):
            game.state.to_discard(hand.pop(i), game.events)


def battle(game, player: str, action: dict) -> None:
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
    for prot in st.protections:
        if prot["protected"] == target and prot["against"] == player and \
                prot["round"] == st.round:
            raise Illegal("AW-4.1", f"{target} is protected from {player}'s attacks in round "
                                    f"{st.round} ({prot['card']})")
    att_p, def_p = st.players[player], st.players[target]
    if "creatures" in action:
        named = sorted({game.field_pos(player, r, "AW-4.4") for r in _list(action, "creatures")})
        if named != list(range(len(att_p.field))):
            raise Illegal("AW-4.4", f"{player} battles with all {len(att_p.field)} of their "
                                    f"creatures, not {len(named)}")
    game.cite("AW-4.1", "AW-4.2", "AW-4.4")
    stake_from = _stake_source(game, target, stake)
    if action.get("cancelled_by") is not None:
        game.goamph(action["cancelled_by"], "battle", "AW-10.4")
        t.battles += 1
        return

    def locate(owner):
        return lambda ref: 0 if ref is None else game.field_pos(owner, ref, "AW-4.9")
    cards_on, used = _battle_cards(game, action, {player: "attacker", target: "defender"},
                                   {player: locate(player), target: locate(target)})
    att = [Fighter("attacker", i + 1, c.card, list(c.equipment), cards_on.get((player, i), []))
           for i, c in enumerate(att_p.field)]
    dfd = [Fighter("defender", j + 1, c.card, list(c.equipment), cards_on.get((target, j), []))
           for j, c in enumerate(def_p.field)]
    match = action.get("match") or {}
    if not isinstance(match, dict):
        raise DeckcliError("'match' maps attacking creatures to defending ones")
    pairs, ta, td = [], set(), set()
    for a_ref, d_ref in match.items():
        i = game.field_pos(player, a_ref, "AW-4.3", ta)
        j = game.field_pos(target, d_ref, "AW-4.3", td)
        ta.add(i)
        td.add(j)
        pairs.append((i, j))
    if pairs:
        game.cite("AW-4.3")
    if used:
        game.cite("AW-4.9")
    dice = Dice(_list(action, "rolls"), rng=st.rng)
    result = resolve_battle(att, dfd, pairs, dice, house, defender_field=len(def_p.field))
    if result["violations"]:
        v = result["violations"][0]
        raise Illegal(v["rule"], v["message"])
    for g in result["gaps"]:
        game.gap(g)
    game.cite(*result["rules"], *(s["rule"] for s in result["steps"]))
    game.out.facts["rolls"] = dice.used
    game.out.facts["battle"] = {k: result[k] for k in ("winner", "rule", "fights", "unmatched",
                                                 "discarded", "steps")}
    _spend(game, used)
    for step in result["steps"]:
        game.event(f"{step['text']} [{step['rule']}]")
    for f in result["fights"]:
        if f["kind"] == "mini-showdown":
            dice = ", then ".join("/".join(map(str, r["attacker"])) + " v "
                                  + "/".join(map(str, r["defender"])) for r in f["rolls"])
            how = f"mini showdown, dice {dice}"
        else:
            how = f"levels {f['levels']['attacker']} v {f['levels']['defender']}"
        game.event(f"{f['attacker']} v {f['defender']}: {how}: the {f['winner']} wins "
                   f"[{f['rule']}]")
    for label in result["unmatched"]:
        game.event(f"{label} is unmatched [AW-4.7]")
    lost_a = sorted({int(lbl.split()[0][1:]) - 1 for lbl in result["discarded"]
                     if lbl.startswith("a")}, reverse=True)
    lost_d = sorted({int(lbl.split()[0][1:]) - 1 for lbl in result["discarded"]
                     if lbl.startswith("d")}, reverse=True)
    for i in lost_a:
        game.event(f"{att_p.field[i].card.ref} loses and is discarded")
        st.discard_creature(player, i, game.events)
    for j in lost_d:
        game.event(f"{def_p.field[j].card.ref} loses and is discarded")
        st.discard_creature(target, j, game.events)
    game.event(f"the {result['winner']} ({player if result['winner'] == 'attacker' else target})"
               f" wins the battle [{result['rule']}]")
    if result["winner"] == "attacker":
        if def_p.field:
            game.cite("AW-4.8")
            game.event(f"{target} keeps {len(def_p.field)} creature(s): the attacker need not "
                       "destroy them all to win (AW-4.8)")
        _pay_stake(game, player, target, stake, stake_from, action)
    if any(g.key == "destroy_all_four" for g in result["gaps"]) and \
            house.value("destroy_all_four") == "eliminates":
        _eliminate(game, target)
    t.battles += 1


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


def _pay_stake(game, player, target, stake, source, action) -> None:
    st, house = game.state, game.house
    d, a = st.players[target], st.players[player]
    if source == "none":
        return
    if stake == "gear":
        pool = d.gear if source == "field" else d.hand
        gear = [i for i, c in enumerate(pool) if c.kind == "gear"]
        i = gear[0]
        if action.get("take") is not None:
            want = game.cards.find(action["take"])
            i = next((k for k in gear if pool[k].id == want.id), None)
            if i is None:
                raise Illegal("AW-4.2", f"{target} has no {want.ref} to give up")
        won = pool.pop(i)
    else:
        mode = house.value("hand_stake_pick")
        if action.get("take") is not None:
            want = game.cards.find(action["take"])
            i = d.holds(want)
            if i is None:
                raise Illegal("AW-4.2", f"{target} does not hold {want.ref}")
            how = f"{want.ref}, as the log records"
        elif mode == "random":
            i = st.rng.randrange(len(d.hand))
            how = f"{d.hand[i].ref}, drawn at random from the seeded generator"
        else:
            raise Illegal("AW-G.17", f"the {mode} picks the card: the log names it (take)")
        game.gap(house.record("hand_stake_pick", f"{player} wins a card from {target}'s hand",
                           f"took {how}"))
        won = d.hand.pop(i)
    a.hand.append(won)
    game.event(f"{player} wins {won.ref} from {target}")
    game.cite("AW-4.2")


def _eliminate(game, target: str) -> None:
    st = game.state
    p = st.players[target]
    for c in list(p.hand) + list(p.gear):
        st.to_discard(c, game.events)
    p.hand.clear()
    p.gear.clear()
    while p.field:
        st.discard_creature(target, 0, game.events)
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
            st.discard_creature(opp, pos - 1, game.events)  # the last position first


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
    fights_in, spent = [], {}
    for f, opp in zip(raw, named):
        o = st.players[opp]
        refs = f.get("creatures", [f["creature"]] if "creature" in f else None)
        if refs is not None and not isinstance(refs, list):
            raise DeckcliError("a fight's 'creatures' is a list")
        idxs = (list(range(len(o.field))) if refs is None
                else [game.field_pos(opp, r, "AW-8.2") for r in refs])
        alpha_cards, opp_cards = [], {}
        for entry in _list(f, "battle_cards"):
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
        st.discard_creature(player, 0, game.events)
    st.alpha_gear = list(p.gear)
    p.gear.clear()
    st.centre = None
    game.event(f"{player} sacrifices the 4 gear pieces and {len(gone)} creature(s) and summons "
               f"{alpha.ref}: the Final Showdown begins")
    game.cite("AW-8.1", "AW-8.2", "AW-8.3")
    dice = Dice(_list(action, "rolls"), rng=st.rng)
    alpha_eq = [game.cards.find(e) for e in _list(action, "alpha_equipment")]
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
