"""animal-battle rulings on a position: one battle (``referee battle``) and one attack sequence
(``referee attack``). Recorded games are replayed by :mod:`deckcli.games.replay`.

Every answer names the rule it applies. Where the rules are silent (``AB-G.n``) the answer
says ``gap: true``, applies a declared house ruling, and otherwise says a judge must rule.
The plain functions here return JSON-able dicts; ``render_*`` turn them into text.
"""

from __future__ import annotations

from deckcli.diagnostics import number_text
from deckcli.errors import NotFoundError, UsageError
from deckcli.games.animal_battle import BATTLE_STATS, DEPTH_NAMES, GAME, POOL_SIZE
from deckcli.games.animal_battle.chain import compare, describe
from deckcli.games.base import CardInfo
from deckcli.games.house import HouseRules


def battle_stat(stat: str) -> str:
    """A battle statistic by name; anything else cannot be ruled on (exit 2)."""
    key = str(stat).strip().lower().replace(" ", "_").replace("-", "_")
    if key in BATTLE_STATS:
        return key
    if key in DEPTH_NAMES:
        raise NotFoundError("max_depth is not a battle statistic: Maximum Depth is species "
                            f"information only (AB-2.6); battle statistics: "
                            f"{', '.join(BATTLE_STATS)}")
    raise NotFoundError(f"{stat!r} is not a battle statistic ({', '.join(BATTLE_STATS)}; "
                        "AB-2.1 to AB-2.5)")


def _animal(card, role: str):
    if card.kind != "animal":
        raise UsageError(f"{card.ref} is an {card.kind} card, not an Animal: it cannot be "
                         f"{role}")
    return card


def card_ref(index, text: str):
    """A card from a reference: a name, 'Name (SET) NUM', 'Name SET NUM' or 'SET NUM'.

    Unknown names get "did you mean"; ambiguous names list the candidates; never a guess.
    """
    from deckcli.decks.refs import parse_ref

    return parse_ref(index, GAME.id, text)[0]


def _house(house_rules) -> HouseRules:
    return house_rules if isinstance(house_rules, HouseRules) else GAME.house_rules(house_rules)


def battle(challenger, defender, stat: str, house_rules=None) -> dict:
    """One comparison between two cards on one statistic (``referee battle``)."""
    stat = battle_stat(stat)
    house = _house(house_rules)
    c, d = _animal(challenger, "the Challenger"), _animal(defender, "the Defender")
    vc, vd = c.stats[stat], d.stats[stat]
    winner, rule = compare(stat, vc, vd)
    result = {"winner": winner, "stat": stat, "values": {"challenger": vc, "defender": vd},
              "rule": rule, "gap": False, "ruling": describe(stat, c, vc, d, vd, winner),
              "house_rule": None, "cards": {"challenger": c.ref, "defender": d.ref}}
    if winner is None:
        record = house.record("AB-G.1", f"tie on {stat}: both have {number_text(vc)}")
        result.update(rule="AB-G.1", gap=True, ruling=f"{c.ref} and {d.ref} both have "
                      f"{number_text(vc)} {stat}. {record.ruling}")
        if record.value is not None:
            result["house_rule"] = {record.key: record.value}
            if record.value in ("challenger", "defender"):
                result["winner"] = record.value
    return result


def render_battle(result: dict) -> str:
    winner = result["winner"] or "none"
    flag = " (gap)" if result["gap"] else ""
    return (f"{result['cards']['challenger']} (Challenger) vs {result['cards']['defender']} "
            f"(Defender) on {result['stat']}: {number_text(result['values']['challenger'])} vs "
            f"{number_text(result['values']['defender'])}\nwinner: {winner}  "
            f"rule: {result['rule']}{flag}\n{result['ruling']}")


def pool_bound(index) -> tuple[int, list[str]]:
    """The most Animals a Pool can hold in any game: five (AB-4.2), or more where a card's text
    raises the limit (AB-6.4, effect pool_size): (that number, the cards that raise it so)."""
    most, cards = POOL_SIZE, []
    for card in index.all_cards(GAME.id):
        for o in (card.data or {}).get("overrides", ()):
            if o.get("effect") != "pool_size":
                continue
            value = int(o.get("value") or 0)
            if value > most:
                most, cards = value, [card.ref]
            elif value == most > POOL_SIZE and card.ref not in cards:
                cards.append(card.ref)
    return most, cards


def check_pool(index, count: int) -> None:
    """``referee attack --pool``: a Pool of five at most (AB-4.2), or of as many as a card's
    text allows (AB-6.4): the ruling is on a position, and the cards in force are not given,
    so a Pool some card makes possible is ruled on; a larger one is no position of any game."""
    if count <= POOL_SIZE:
        return
    most, cards = pool_bound(index)
    if count > most:
        raised = f", {most} while {' or '.join(cards)} is in force (AB-6.4)" if cards else ""
        raise UsageError(f"--pool names {count} Animals; a Pool holds at most {POOL_SIZE} "
                         f"(AB-4.2){raised}")


def attack(challenger, defender, pool: list, stats: list[str], house_rules=None) -> dict:
    """A whole attack sequence: the Challenger against the Defender, then each Animal of the
    defending player's Pool promoted in turn, on the statistics in the order given."""
    from deckcli.games.animal_battle.engine import Match

    stats = [battle_stat(s) for s in stats]
    if not stats:
        raise UsageError("--stats needs at least one battle statistic")
    house = _house(house_rules)
    cards = [_animal(challenger, "the Challenger"), _animal(defender, "the Defender"),
             *(_animal(c, "a Pool Animal") for c in pool)]
    book = {c.id: CardInfo.of(c) for c in cards}
    game = Match.position(book, challenger=challenger.id, defenders={"p2": defender.id},
                         pools={"p2": [c.id for c in pool]}, house_rules=house)
    game.horizon = "attack"
    s = game.s
    steps, gaps = [], []

    def record(out, text):
        entry = out.to_json()
        entry.update(step=len(steps) + 1, action=text)
        steps.append(entry)
        gaps.extend(entry["gaps"])
        return out

    named = 0
    for stat in stats:
        if s.phase not in ("establish", "attack") or s.waiting or s.turn > 2:
            break
        out = record(game.act(None, "stat", stat=stat), f"stat {stat}")
        named += 1
        if s.phase == "promote":
            nxt = s.players["p2"].pool[0]
            record(game.act("p2", "promote", nxt), f"promote {book[nxt].ref}")
        if out.violations:
            break
    violations = [v for st in steps for v in st["violations"]]
    reported = {v["message"] for v in violations}
    for repeat in _named_again(stats):  # AB-5.5 whether or not the sequence gets that far
        if repeat["message"] not in reported:
            violations.append(repeat)
    result = {"challenger": challenger.ref, "defender": defender.ref,
              "pool": [c.ref for c in pool], "stats": stats, "steps": steps,
              "gaps": gaps, "gap": bool(gaps), "house_rules": house.to_json(),
              "unused": stats[named:], "violations": violations}
    result["result"] = _attack_result(game, steps)
    return result


def _named_again(stats: list[str]) -> list[dict]:
    """AB-5.5: a statistic named a second time in one attack sequence is illegal, whatever
    happens before the sequence reaches it (a gap that stops it, an attack that ends)."""
    out, seen = [], []
    for stat in stats:
        if stat in seen:
            out.append({"code": "illegal-action", "severity": "error", "rule": "AB-5.5",
                        "message": f"{stat} was already used in this attack sequence (used: "
                                   f"{', '.join(seen)})"})
        seen.append(stat)
    return out


def _attack_result(game, steps) -> dict:
    s = game.s
    if s.waiting:
        return {"ended": False, "by": s.waiting.rule, "summary":
                f"stopped at a gap ({s.waiting.rule}): a judge must rule"}
    if s.turn > 2:
        rule = next((r for st in steps for r in st["rules"] if r in ("AB-5.6", "AB-5.7")),
                    "AB-G.2")
        return {"ended": True, "by": rule, "control": s.active, "summary":
                f"the attack ends: control passes to the defending player ({rule}, AB-6.3)"}
    if s.phase == "end":
        # the gap that ended the attack is the last one met, not an earlier tie (AB-G.1 replay)
        rule = next((g["rule"] for st in reversed(steps) for g in reversed(st["gaps"])),
                    "AB-4.5")
        return {"ended": True, "by": rule, "control": "p1",
                "summary": "the attack ends; the Challenger's player keeps control "
                           f"({rule})"}
    left = [x for x in BATTLE_STATS if x not in s.used]
    return {"ended": False, "by": "AB-5.3", "summary": "the attack goes on: a Defender stands "
            f"and {len(left)} statistic(s) remain ({', '.join(left)})"}


def render_attack(result: dict) -> str:
    lines = [f"{result['challenger']} attacks {result['defender']}"
             + (f" (Pool: {', '.join(result['pool'])})" if result["pool"] else "")]
    for st in result["steps"]:
        lines.append(f"{st['step']:>2}. {st['action']}")
        for v in st["violations"]:
            lines.append(f"    ILLEGAL {v['rule']}: {v['message']}")
        lines.extend("    " + note for note in st["notes"])
        if st["stop"]:
            lines.append(f"    GAP {st['stop']['rule']}: {st['stop']['ruling']}")
    if result["unused"]:
        lines.append(f"not reached: {', '.join(result['unused'])}")
    shown = {v["message"] for st in result["steps"] for v in st["violations"]}
    for v in result["violations"]:
        if v["message"] not in shown:
            lines.append(f"ILLEGAL {v['rule']}: {v['message']}")
    lines.append(result["result"]["summary"])
    return "\n".join(lines)
