"""Single rulings for ``deckcli --game alpha-walrus referee battle|discard|showdown``.

Plain functions over card names (resolved through the index: ``Name (SET) NUM``, ``SET NUM`` or
an unambiguous name) that return JSON-able dicts; the CLI only parses options and prints.
A ruling with ``violations`` means the asked-for action is illegal (exit 1).
"""

from __future__ import annotations

from deckcli.errors import UsageError
from deckcli.games.alpha_walrus import GAME
from deckcli.games.alpha_walrus.battle import (
    Dice,
    Fighter,
    pairs_twice,
    public,
    resolve_battle,
    showdown,
)
from deckcli.games.alpha_walrus.state import draws_for_level


def _split(text: str, what: str) -> tuple[str, str]:
    left, sep, right = str(text).partition("=")
    if not sep or not left.strip() or not right.strip():
        raise UsageError(f"{what} takes LEFT=RIGHT, not {text!r}")
    return left.strip(), right.strip()


def _pick(cards, fighters: list[Fighter], ref: str, prefix: str, taken: set) -> int:
    """A fighter by 1-based position ('2', 'a2', 'd2') or by card name."""
    raw = ref.lower()
    if raw[:1] == prefix and raw[1:].isdigit():
        raw = raw[1:]
    if raw.isdigit():
        i = int(raw) - 1
        if 0 <= i < len(fighters):
            return i
        raise UsageError(f"there is no creature {ref} (positions 1 to {len(fighters)})")
    card = cards.find(ref)
    for i, f in enumerate(fighters):
        if f.card.id == card.id and i not in taken:
            return i
    raise UsageError(f"{card.ref} is not among the {'attacking' if prefix == 'a' else 'defending'}"
                     " creatures")


def _dice(seed, rolls) -> Dice:
    return Dice(rolls or (), seed=seed)


def readings(result_gaps, house, rerun) -> dict[str, str | None]:
    """What each other value of an unsettled gap would rule (``rerun(house) -> winner``).

    A single ruling never picks an answer a gap leaves open: when the readings disagree the
    winner stays null and these readings are shown, so a judge (or a house rule) decides.
    """
    out: dict[str, str | None] = {}
    for key in sorted({g.key for g in result_gaps if not g.settled}):
        for value in house.gaps[key].values:
            try:
                out[f"{key}={value}"] = rerun(GAME.house_rules({**house.given, key: value}))
            except UsageError:
                out[f"{key}={value}"] = None  # that reading needs dice nobody gave
    return out


def _settle(winner, result_gaps, house, rerun) -> tuple:
    """(winner or None, provisional winner or None, readings)."""
    if winner is None:
        return None, None, {}
    seen = readings(result_gaps, house, rerun)
    if all(w == winner for w in seen.values()):
        return winner, None, seen
    return None, winner, seen


def _side_of(ref: str) -> tuple[str, str]:
    """'a2' / 'd1' / 'attacker' ... -> (side prefix, position text)."""
    raw = ref.strip().lower()
    if raw in ("attacker", "defender"):
        return raw[0], "1"
    if raw[:1] in ("a", "d") and raw[1:].isdigit():
        return raw[0], raw[1:]
    raise UsageError(f"name a creature as a1, a2 ... (attacker) or d1, d2 ... (defender), "
                     f"not {ref!r}")


def battle_ruling(cards, attackers, defenders, *, matches=(), equip=(), battle_cards=(),
                  stake="gear", seed=None, rolls=(), house, round_no=None) -> dict:
    att = [Fighter("attacker", i + 1, cards.find(a)) for i, a in enumerate(attackers)]
    dfd = [Fighter("defender", j + 1, cards.find(d)) for j, d in enumerate(defenders)]
    for f in att + dfd:
        if not f.card.is_creature:
            raise UsageError(f"{f.card.ref} is {f.card.a_kind}, not a creature"
                             + (" (the Alpha Walrus fights only in the Final Showdown: "
                                "referee showdown)" if f.card.kind == "alpha-walrus" else ""))
    sides = {"a": att, "d": dfd}
    for texts, flag, kind, what, attr in (
            (equip, "--equip", "equipment", "equipment", "equipment"),
            (battle_cards, "--battle-card", "battle", "a battle card (AW-4.9)", "battle_cards")):
        for text in texts:  # 'a1=CARD': the card goes on that creature
            who, card_ref = _split(text, flag)
            side, pos = _side_of(who)
            card = cards.find(card_ref)
            if card.kind != kind:
                raise UsageError(f"{card.ref} is {card.a_kind}, not {what}")
            fighter = sides[side][_pick(cards, sides[side], pos, side, set())]
            getattr(fighter, attr).append(card)
    pairs: list = []
    ta: set[int] = set()
    td: set[int] = set()
    for text in matches:
        a_ref, d_ref = _split(text, "--match")
        i = _pick(cards, att, a_ref, "a", ta)
        try:
            j = _pick(cards, dfd, d_ref, "d", td)
        except UsageError:  # named again: a creature whose text faces two attackers
            j = _pick(cards, dfd, d_ref, "d", set())
            if not pairs_twice(dfd[j]):
                raise
        ta.add(i)
        td.add(j)
        pairs.append((i, j))
    violations = _field_limits({"attacker": att, "defender": dfd})
    if round_no is not None and round_no <= 2:
        violations.append({"rule": "AW-1.6", "message": f"round {round_no}: there are no "
                           "battles in the first 2 rounds"})
    if stake not in ("gear", "hand"):
        violations.append({"rule": "AW-4.2", "message": "the stake is gear or hand"})
    dice = _dice(seed, rolls)
    result = resolve_battle(att, dfd, pairs, dice, house)
    violations += result["violations"]
    winner, provisional, seen = _settle(
        result["winner"] if not violations else None, result["gaps"], house,
        lambda h: resolve_battle(att, dfd, pairs, _dice(seed, rolls), h)["winner"])
    stake_text = None
    if winner == "attacker":
        stake_text = ("the attacker wins one Alpha Walrus gear piece of the defender's"
                      if stake == "gear" else "the attacker takes one card from the "
                      "defender's hand") + " (AW-4.2)"
    elif winner == "defender":
        stake_text = f"the defender keeps the {'gear' if stake == 'gear' else 'card'} (AW-4.2)"
    ruling = _battle_text(result, winner or provisional, violations)
    if provisional:
        stake_text = "open until the gap is settled (AW-4.2)"
        ruling = ruling.replace(f"the {provisional} wins the battle",
                                f"no winner: a gap decides (provisionally the {provisional})")
    return {"game": "alpha-walrus", "winner": winner, "provisional_winner": provisional,
            "readings": seen,
            "rule": violations[0]["rule"] if violations else result.get("rule"),
            "rules": result.get("rules", []), "gap": bool(result["gaps"]), "ruling": ruling,
            "attackers": [f.to_json(house.value("battle_level")) for f in att],
            "defenders": [f.to_json(house.value("battle_level")) for f in dfd],
            "fights": public(result["fights"]), "unmatched": result["unmatched"],
            "discarded": result["discarded"], "steps": result["steps"],
            "stake": {"declared": stake, "outcome": stake_text},
            "gaps": [g.to_json() for g in result["gaps"]], "violations": violations,
            "rolls": dice.used, "seed": seed, "house_rules": house.to_json()}


def _field_limits(sides: dict[str, list[Fighter]]) -> list[dict]:
    """AW-7.1 and AW-6.2 for the creatures a battle names: every creature on a side's field
    fights (AW-4.4), so a side may name no more than its field holds, and none may wear more
    armor than allowed. The limits are the game state's own (card effects included)."""
    from deckcli.games.alpha_walrus.state import Creature, Player

    out = []
    for side, fighters in sides.items():
        field = Player(side, field=[Creature(f.card, list(f.equipment)) for f in fighters])
        limit = field.field_limit()
        if len(fighters) > limit:
            out.append({"rule": "AW-7.1", "message": f"the {side} names {len(fighters)} "
                        f"creatures; a field holds at most {limit}"})
        for f, creature in zip(fighters, field.field):
            armor = creature.armor_limit()
            if creature.armor > armor:
                out.append({"rule": "AW-6.2", "message": f"{f.label} wears {creature.armor} "
                            f"armor pieces; the limit is {armor}"})
    return out


def _battle_text(result, winner, violations) -> str:
    if violations:
        return "illegal: " + "; ".join(f"{v['message']} ({v['rule']})" for v in violations)
    parts = []
    for f in result["fights"]:
        if f["kind"] == "mini-showdown":
            shown = ", then ".join("/".join(map(str, r["attacker"])) + " v "
                                   + "/".join(map(str, r["defender"])) for r in f["rolls"])
            parts.append(f"{f['attacker']} v {f['defender']}: mini showdown, rolls {shown}, "
                         f"{f['winner']} wins ({f['rule']})")
        else:
            lv = f["levels"]
            parts.append(f"{f['attacker']} (level {lv['attacker']}) v {f['defender']} (level "
                         f"{lv['defender']}): {f['winner']} wins ({f['rule']})")
    if result["unmatched"]:
        parts.append(f"unmatched: {', '.join(result['unmatched'])} (AW-4.7)")
    parts.append(f"the {winner} wins the battle ({result['rule']})")
    if result["discarded"]:
        parts.append(f"discarded: {', '.join(result['discarded'])} (AW-4.6)")
    return "; ".join(parts)


def discard_ruling(cards, card_ref: str, *, used=(), again: bool = False, house) -> dict:
    card = cards.find(card_ref)
    reasons, gaps, rules = [], [], ["AW-2.1"]
    allowed = True
    if card.kind == "alpha-walrus":
        raise UsageError("the Alpha Walrus is never in a hand (AW-1.1)")
    if again:
        allowed = False
        reasons.append({"rule": "AW-2.1", "message": "a player discards to draw once per turn; "
                        "this turn's discard is used"})
    for ref in used:
        other = cards.find(ref)
        if other.effect("draw"):
            allowed = False
            reasons.append({"rule": "AW-2.2", "message": f"{other.ref} is another card draw "
                            "ability used this turn; they cannot be combined"})
        elif any(e.get("phase") == "draw" for e in other.effect("extra_draw")):
            rules.append("AW-10.5")
            reasons.append({"rule": "AW-10.5", "message": f"{other.ref} changes the Draw Phase "
                            "and does not count as combined draw"})
    if card.is_creature:
        draws, rule = draws_for_level(card.level or 0)
    else:
        mode = house.value("discard_non_creature")
        draws, rule = (1, "AW-G.11") if mode == "draw-1" else (0, "AW-G.11")
        gaps.append(house.record("discard_non_creature", f"{card.ref} is not a creature "
                              f"({card.kind})",
                              "draws 1 card" if mode == "draw-1" else "not allowed"))
        if mode == "forbidden" and house.settled("discard_non_creature"):
            allowed = False
            reasons.append({"rule": "AW-G.11", "message": "the house rule forbids discarding a "
                            "non-creature to draw"})
    rules.append(rule)
    violations = [r for r in reasons if r["rule"] != "AW-10.5"]
    open_gap = allowed and any(not g.settled for g in gaps)
    level = f"level {card.level} " if card.level is not None else ""
    ruling = (f"discard {card.ref} ({level}{card.kind}) to draw {draws} ({rule})" if allowed
              else "not allowed: " + "; ".join(f"{v['message']} ({v['rule']})"
                                               for v in violations))
    if open_gap:
        ruling = (f"open: whether {card.ref} ({card.kind}) may be discarded to draw is gap "
                  f"{rule}; provisional reading: it draws {draws}")
    return {"game": "alpha-walrus", "card": card.ref, "kind": card.kind, "level": card.level,
            "allowed": None if open_gap else allowed,
            "draws": None if open_gap else (draws if allowed else 0),
            "provisional": {"allowed": allowed, "draws": draws} if open_gap else None,
            "readings": {"discard_non_creature=draw-1": 1, "discard_non_creature=forbidden": 0}
            if open_gap else {},
            "rule": violations[0]["rule"] if violations else rule, "rules": rules,
            "gap": bool(gaps), "gaps": [g.to_json() for g in gaps], "reasons": reasons,
            "violations": violations, "ruling": ruling, "house_rules": house.to_json()}


def showdown_ruling(cards, opponents, *, battle_cards=(), equip=(), gear=(), seed=None,
                    rolls=(), house) -> dict:
    order: list[str] = []
    fighters: dict[str, list[Fighter]] = {}
    for text in opponents:
        name, ref = _split(text, "--opponent")
        if name.lower() == "summoner":
            raise UsageError("'summoner' names the Alpha Walrus's side, not an opponent")
        if name not in fighters:
            order.append(name)
            fighters[name] = []
        card = cards.find(ref)
        if not card.is_creature:
            raise UsageError(f"{card.ref} is {card.a_kind}, not a creature")
        fighters[name].append(Fighter("defender", len(fighters[name]) + 1, card))
    if not order:
        raise UsageError("give at least one --opponent NAME=CREATURE")
    alpha = next((c for c in cards.all_of_kind("alpha-walrus")), None)
    if alpha is None:
        raise UsageError("the card database has no Alpha Walrus card")
    alpha_cards: dict[str, list] = {}
    for text in battle_cards:
        who, ref = _split(text, "--battle-card")
        card = cards.find(ref)
        if card.kind != "battle":
            raise UsageError(f"{card.ref} is {card.a_kind}, not a battle card (AW-8.4)")
        if who.lower().startswith("summoner"):
            _, _, opp = who.partition("@")
            for name in ([opp] if opp else order[:1]):
                if name not in fighters:
                    raise UsageError(f"{name!r} is not an opponent in this showdown")
                alpha_cards.setdefault(name, []).append(card)
        elif who in fighters:
            fighters[who][0].battle_cards.append(card)
        else:
            raise UsageError(f"--battle-card names summoner[@OPPONENT] or an opponent, not {who!r}")
    alpha_eq = []
    for text in equip:
        who, ref = _split(text, "--equip")
        card = cards.find(ref)
        if who.lower() == "summoner":
            alpha_eq.append(card)
        elif who in fighters:
            fighters[who][0].equipment.append(card)
        else:
            raise UsageError(f"--equip names summoner or an opponent, not {who!r}")
    violations, eligible = [], None
    if gear:
        pieces = cards.all_of_kind("gear")
        have = {cards.find(g).id for g in gear}
        missing = [p.ref for p in pieces if p.id not in have]
        eligible = not missing
        if missing:
            violations.append({"rule": "AW-8.1", "message": f"{len(pieces) - len(missing)} of "
                               f"{len(pieces)} gear pieces on the field; missing "
                               f"{', '.join(missing)}"})
    if alpha_eq and violations:
        violations.append({"rule": "AW-8.3", "message": "the Alpha Walrus fights with no "
                           f"equipment ({', '.join(e.ref for e in alpha_eq)} given)"})
    dice = _dice(seed, rolls)
    fights_in = [{"opponent": o, "fighters": fighters[o], "alpha_cards": alpha_cards.get(o, [])}
                 for o in order]
    result = showdown(alpha, fights_in, dice, house, alpha_eq) if not violations else \
        {"winner": None, "rule": "AW-8.1", "ruling": "not eligible", "fights": [],
         "violations": [], "gaps": []}
    violations += result["violations"]
    winner, provisional, seen = _settle(
        result["winner"] if not violations else None, result["gaps"], house,
        lambda h: showdown(alpha, fights_in, _dice(seed, rolls), h, alpha_eq)["winner"])
    if provisional:
        result["ruling"] = ("open: a gap decides the Final Showdown, so no winner is given "
                            f"(provisional reading: {result['ruling']})")
    return {"game": "alpha-walrus", "winner": winner, "provisional_winner": provisional,
            "readings": seen,
            "rule": violations[0]["rule"] if violations else result["rule"],
            "gap": bool(result["gaps"]), "ruling": result["ruling"] if not violations else
            "illegal: " + "; ".join(f"{v['message']} ({v['rule']})" for v in violations),
            "eligible": eligible, "opponents": order, "fights": result["fights"],
            "gaps": [g.to_json() for g in result["gaps"]], "violations": violations,
            "rolls": dice.used, "seed": seed, "house_rules": house.to_json()}


def render(result: dict) -> str:
    lines = []
    if "card" in result:  # discard ruling
        lines.append(result["ruling"])
        for r in result["reasons"]:
            lines.append(f"  {r['rule']}: {r['message']}")
    else:
        lines.append(result["ruling"])
        if result.get("stake", {}).get("outcome"):
            lines.append(f"stake: {result['stake']['outcome']}")
        if "opponents" in result:
            for f in result["fights"]:
                rolls = (" rolls " + ", then ".join(f"{r['summoner']} v {r['opponent']}"
                                                    for r in f["rolls"])) if f["rolls"] else ""
                lines.append(f"  v {f['opponent']}: {f['alpha']} (level {f['levels']['summoner']})"
                             f" against {f['creature'] or 'nothing'} (level "
                             f"{f['levels']['opponent']}){rolls}: {f['winner']} wins "
                             f"({f['rule']})")
        if result.get("rolls"):
            lines.append("dice: " + ", ".join(f"{r['who']} {r['value']}" for r in result["rolls"])
                         + (f" (seed {result['seed']})" if result.get("seed") is not None else ""))
    for g in result.get("gaps", ()):
        lines.append(f"gap {g['rule']}: {g['situation']}; {g['ruling']}")
    if result.get("provisional_winner") or (result.get("provisional") and "card" in result):
        lines.append("open: a gap no house rule settles decides this ruling; readings: "
                     + ", ".join(f"{k} -> {v}" for k, v in result.get("readings", {}).items()))
    return "\n".join(lines)
