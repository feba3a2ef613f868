"""Battles and the Final Showdown as plain functions: fighters and dice in, a ruling out.

Used by the game-log referee (:mod:`.engine`) and by ``deckcli referee battle|showdown``.
Every decision carries the rule id it applies; gaps come back as records from
:class:`~.gaps.HouseRules`. Dice come from explicit values first, then from a seeded
generator, so every ruling replays. The attacker's (Summoner's) dice are rolled first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from deckcli.errors import UsageError
from deckcli.games.alpha_walrus.cardref import Card
from deckcli.rule import rule_sort_key

MAX_REROLLS = 20


class Dice:
    """D6 rolls: the given values first, then the seeded generator (if any)."""

    def __init__(self, rolls=(), seed=None, rng: random.Random | None = None):
        self.queue = []
        for r in rolls:
            if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 6:
                raise UsageError(f"a D6 shows 1 to 6, not {r!r}")
            self.queue.append(r)
        self.rng = rng if rng is not None else (random.Random(seed) if seed is not None else None)
        self.seed = seed
        self.used: list[dict] = []

    def d6(self, who: str) -> int:
        if self.queue:
            value = self.queue.pop(0)
        elif self.rng is not None:
            value = self.rng.randint(1, 6)
        else:
            raise UsageError("this ruling needs another D6 roll: give --seed N or one more "
                             "--roll value (a log gives 'rolls' on the action or a 'seed')")
        self.used.append({"who": who, "value": value})
        return value


@dataclass
class Fighter:
    side: str  # "attacker" | "defender"
    pos: int  # 1-based position on its side
    card: Card
    equipment: list[Card] = field(default_factory=list)
    battle_cards: list[Card] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.side[0]}{self.pos} {self.card.ref}"

    @property
    def printed(self) -> int:
        return self.card.level or 0

    def level(self, reading: str = "modified", equipment: bool = True) -> int:
        if reading == "printed":
            return self.printed
        bonus = sum(c.level_bonus for c in self.battle_cards)
        if equipment:
            bonus += sum(e.level_bonus for e in self.equipment)
        return self.printed + bonus

    def to_json(self, reading: str = "modified", equipment: bool = True) -> dict:
        return {"side": self.side, "position": self.pos, "card": self.card.ref,
                "printed_level": self.printed, "level": self.level(reading, equipment),
                "equipment": [e.ref for e in self.equipment],
                "battle_cards": [c.ref for c in self.battle_cards]}


def _level6(card: Card) -> bool:
    return card.is_walrus and card.level == 6


def dice_for(card: Card) -> int:
    """AW-10.9: the level 8 Walrus rolls two D6 and keeps the higher; every other walrus one."""
    return 2 if card.is_walrus and card.level == 8 else 1


def walrus_pairs(att: list[Fighter], dfd: list[Fighter], house) -> tuple[list, list]:
    """AW-10.6/10.7 (and AW-G.9): the automatic walrus pairs (0-based indices) and gaps."""
    a_w = [i for i, f in enumerate(att) if f.card.is_walrus]
    d_w = [j for j, f in enumerate(dfd) if f.card.is_walrus]
    l6a = [i for i in a_w if _level6(att[i].card)]
    l6d = [j for j in d_w if _level6(dfd[j].card)]
    if not ((l6a and d_w) or (l6d and a_w)):
        return [], []
    free_a, free_d, pairs = list(a_w), list(d_w), []
    for i in l6a:
        if free_d and i in free_a:
            pairs.append((i, free_d.pop(0)))
            free_a.remove(i)
    for j in l6d:
        if j in free_d and free_a:
            pairs.append((free_a.pop(0), j))
            free_d.remove(j)
    mode = house.value("walrus_pairing")
    if mode == "level6-first":
        while free_a and free_d:
            pairs.append((free_a.pop(0), free_d.pop(0)))
    gaps = []
    if len(a_w) > 1 or len(d_w) > 1:
        shown = "; ".join(f"{att[i].label} with {dfd[j].label}" for i, j in pairs)
        gaps.append(house.record("walrus_pairing",
                              f"{len(a_w)} attacking and {len(d_w)} defending walruses in a "
                              "mini showdown", f"paired {shown}"))
    return pairs, gaps


def _mini_showdown(a: Fighter, d: Fighter, dice: Dice, house) -> dict:
    """AW-10.8/10.9: dice decide a walrus pair; AW-G.8 for equal results."""
    gaps: list[dict] = []
    rolls = []
    for _attempt in range(MAX_REROLLS):
        ra = [dice.d6(f"attacker {a.card.ref}") for _ in range(dice_for(a.card))]
        rd = [dice.d6(f"defender {d.card.ref}") for _ in range(dice_for(d.card))]
        rolls.append({"attacker": ra, "defender": rd})
        if max(ra) != max(rd):
            winner = "attacker" if max(ra) > max(rd) else "defender"
            rule = "AW-10.9" if len(ra) == 2 or len(rd) == 2 else "AW-10.8"
            break
        tie = house.value("mini_showdown_tie")
        gaps.append(house.record("mini_showdown_tie",
                              f"both walruses rolled {max(ra)} ({a.label} v {d.label})",
                              "the defender wins (AW-4.10)" if tie == "defender"
                              else "both roll again"))
        if tie == "defender":
            winner, rule = "defender", "AW-4.10"
            break
    else:
        winner, rule = "defender", "AW-4.10"
    return {"attacker": a.label, "defender": d.label, "kind": "mini-showdown", "rolls": rolls,
            "winner": winner, "rule": rule, "gaps": gaps}


def _level_fight(a: Fighter, d: Fighter, house, i: int | None = None,
                 j: int | None = None) -> dict:
    """AW-4.5, AW-4.10; AW-G.1 when printed and modified levels disagree. ``i``, ``j``: the
    fighters' indices on their sides (kept as ``_a``/``_d`` for the engine)."""
    reading = house.value("battle_level")
    la, ld = a.level(reading), d.level(reading)
    winner = "attacker" if la > ld else "defender"
    gap = _level_gap(house, a.label, a, d.label, d, lambda x, y: x > y,
                     applied=f": the {winner} wins")
    return {"attacker": a.label, "defender": d.label, "kind": "level",
            "levels": {"attacker": la, "defender": ld}, "winner": winner,
            "rule": "AW-4.10" if la == ld else "AW-4.5", "gaps": [gap] if gap else [],
            "_a": [i], "_d": j}


def _sum_fight(attackers: list[Fighter], d: Fighter, house, idx: list[int], j: int) -> dict:
    """AW-G.26 with musk_ox=sum: one fight, the defender against the two attackers' levels
    added; both attackers lose when it wins (AW-4.10 for a tie)."""
    reading = house.value("battle_level")
    la = sum(a.level(reading) for a in attackers)
    ld = d.level(reading)
    winner = "attacker" if la > ld else "defender"
    return {"attacker": " + ".join(a.label for a in attackers), "defender": d.label,
            "kind": "level", "levels": {"attacker": la, "defender": ld}, "winner": winner,
            "rule": "AW-4.10" if la == ld else "AW-4.5", "gaps": [],
            "_a": list(idx), "_d": j, "attackers": [a.label for a in attackers]}


def _level_gap(house, a_name: str, a: Fighter, b_name: str, b: Fighter, decide, *,
               equipment=(True, True), after: str = "", applied: str = "") -> dict | None:
    """AW-G.1: the gap when the other reading of battle_level (printed or modified levels)
    would decide a fight differently, else None. ``decide(level_a, level_b)`` is what the
    fight makes of two levels; ``equipment`` says whose equipment bonuses count at all."""
    reading = house.value("battle_level")
    other = "printed" if reading == "modified" else "modified"
    ea, eb = equipment
    la, lb = a.level(reading, ea), b.level(reading, eb)
    if decide(la, lb) == decide(a.level(other, ea), b.level(other, eb)):
        return None
    return house.record("battle_level",
                     f"{a_name} (printed {a.printed}, with bonuses {a.level('modified', ea)}) v "
                     f"{b_name} (printed {b.printed}, with bonuses {b.level('modified', eb)})"
                     f"{after}", f"compared {reading} levels {la} v {lb}{applied}")


def pairs_twice(fighter: Fighter) -> bool:
    """Whether the creature's text lets it face two attacking creatures (Musk Ox, AW-11.1)."""
    return bool(fighter.card.effect("pair_twice"))


def public(fights: list[dict]) -> list[dict]:
    """The fights as a ruling shows them (the engine's own keys, ``_a``/``_d``, left out)."""
    return [{k: v for k, v in f.items() if not k.startswith("_")} for f in fights]


def _check_matches(att, dfd, matches) -> list[dict]:
    out = []
    seen_a: set = set()
    seen_d: dict = {}
    for i, j in matches:
        if not (0 <= i < len(att)) or not (0 <= j < len(dfd)):
            out.append({"rule": "AW-4.3", "message": f"match-up {i + 1}={j + 1} names a "
                        "creature that is not in the battle"})
            continue
        if i in seen_a:
            out.append({"rule": "AW-4.3", "message": f"{att[i].label} is matched twice; the "
                        "defender matches one creature against one attacker"})
        times = seen_d.get(j, 0)
        if times >= (2 if pairs_twice(dfd[j]) else 1):
            more = " (its text lets it face two, not three)" if times >= 2 else ""
            out.append({"rule": "AW-4.3", "message": f"{dfd[j].label} is matched twice; the "
                        f"defender matches one creature against one attacker{more}"})
        seen_a.add(i)
        seen_d[j] = times + 1
    return out


def resolve_battle(att: list[Fighter], dfd: list[Fighter], matches: list[tuple[int, int]],
                   dice: Dice, house, *, defender_field: int | None = None) -> dict:
    """One battle (AW-4.x, AW-10.6 to AW-10.9). ``matches`` are 0-based (attacker, defender)."""
    steps: list[dict] = []
    violations = _check_matches(att, dfd, matches)
    if not att:
        violations.append({"rule": "AW-4.4", "message": "the attacker has no creature on the "
                           "field, so there is nothing to battle with"})
    if violations:
        return {"winner": None, "fights": [], "unmatched": [], "discarded": [],
                "violations": violations, "gaps": [], "steps": steps, "rules": []}
    gaps: list[dict] = []
    pairs, pair_gaps = walrus_pairs(att, dfd, house)
    gaps += pair_gaps
    fights: list[dict] = []
    paired_a = {i for i, _ in pairs}
    paired_d = {j for _, j in pairs}
    if pairs:
        steps.append({"rule": "AW-10.6", "text": "a level 6 Walrus meets a walrus: mini "
                      "showdown"})
        for i, j in pairs:
            steps.append({"rule": "AW-10.7", "text": f"{att[i].label} paired with "
                          f"{dfd[j].label} automatically"})
    for i, j in matches:
        if i in paired_a or j in paired_d:
            steps.append({"rule": "AW-10.7", "text": f"the defender's match-up {att[i].label} v "
                          f"{dfd[j].label} is set aside for the automatic walrus pairs"})
    for i, j in pairs:
        fights.append({**_mini_showdown(att[i], dfd[j], dice, house), "_a": [i], "_d": j})
    freed = _freed(matches, paired_a, paired_d)
    doubled = {j for j in {j for _i, j in matches}
               if sum(1 for _i, k in matches if k == j) == 2}
    if doubled:  # a creature whose text faces two attackers (AW-G.26)
        mode = house.value("musk_ox")
        for j in sorted(doubled):
            pair = [i for i, k in matches if k == j]
            gaps.append(house.record("musk_ox", f"{dfd[j].label} faces "
                                     f"{att[pair[0]].label} and {att[pair[1]].label}",
                                     "two fights, one against each" if mode == "each" else
                                     "one fight against the two attackers' levels added"))
            steps.append({"rule": "AW-11.1", "text": f"{dfd[j].label} faces two attacking "
                          "creatures (its text)"})
    for i, j in matches:
        if i in paired_a or (j in paired_d and j not in doubled):
            continue
        if j in doubled and house.value("musk_ox") == "sum":
            pair = [k for k, m in matches if m == j]
            if i != pair[0]:
                continue
            fights.append(_sum_fight([att[k] for k in pair], dfd[j], house, pair, j))
            paired_a.update(pair)
            paired_d.add(j)
            continue
        fights.append(_level_fight(att[i], dfd[j], house, i, j))
        paired_a.add(i)
        paired_d.add(j)
    if freed[0] and freed[1]:  # AW-G.18: do the creatures the pairing freed fight?
        rematch = list(zip(*freed))
        shown = ", ".join(att[i].label for i in freed[0])
        gaps.append(house.record("freed_creatures", f"the walrus pairing freed {shown} from the "
                              "defender's match-ups", "they fight: " + "; ".join(
                                  f"{att[i].label} v {dfd[j].label}" for i, j in rematch)
                              if house.value("freed_creatures") == "rematch" else
                              "they stay unmatched (AW-4.7)"))
        if house.value("freed_creatures") == "rematch":
            for i, j in rematch:
                steps.append({"rule": "AW-G.18", "text": f"{att[i].label} and {dfd[j].label}, "
                              "freed by the walrus pairing, fight each other"})
                fights.append(_level_fight(att[i], dfd[j], house, i, j))
                paired_a.add(i)
                paired_d.add(j)
    for f in fights:
        gaps += f.pop("gaps")
    unmatched = [att[i].label for i in range(len(att)) if i not in paired_a]
    winner, rule, win_gaps = _battle_winner(att, dfd, fights, unmatched, house)
    gaps += win_gaps
    discarded = []
    for f in fights:
        if f["winner"] == "attacker":
            discarded.append(f["defender"])
        else:
            discarded.extend(f.get("attackers") or [f["attacker"]])
    discarded = list(dict.fromkeys(discarded))
    rules = sorted({f["rule"] for f in fights} | {rule} | ({"AW-4.6"} if discarded else set()),
                   key=rule_sort_key)
    fielded = defender_field if defender_field is not None else len(dfd)
    lost_d = len({f["_d"] for f in fights if f["winner"] == "attacker"})
    if fielded >= 4 and lost_d >= fielded:
        gaps.append(house.record("destroy_all_four",
                              f"the defender lost all {fielded} of their creatures in one battle",
                              "nothing more happens (AW-4.8)" if house.value("destroy_all_four")
                              == "not-required" else "the defender is out of the game"))
    return {"winner": winner, "rule": rule, "fights": fights, "unmatched": unmatched,
            "discarded": discarded, "violations": [], "gaps": gaps, "steps": steps,
            "rules": rules}


def _freed(matches, paired_a: set, paired_d: set) -> tuple[list[int], list[int]]:
    """(attacking, defending) creatures whose match-up the walrus pairing set aside while they
    themselves were not paired: in the order of the defender's match-ups."""
    free_a, free_d = [], []
    for i, j in matches:
        if i in paired_a and j not in paired_d and j not in free_d:
            free_d.append(j)
        elif j in paired_d and i not in paired_a and i not in free_a:
            free_a.append(i)
    return free_a, free_d


def _battle_winner(att, dfd, fights, unmatched, house) -> tuple[str, str, list]:
    if unmatched:
        return "attacker", "AW-4.7", []
    won = sum(1 for f in fights if f["winner"] == "attacker")
    if won == len(fights):
        return "attacker", "AW-4.5", []
    if won == 0:
        return "defender", "AW-4.5", []
    reading = house.value("battle_level")
    top_a = max(f.level(reading) for f in att)
    top_d = max(f.level(reading) for f in dfd)
    readings = {"majority": "attacker" if won > len(fights) - won else "defender",
                "all": "defender",
                "highest": "attacker" if top_a > top_d else "defender"}
    chosen = house.value("battle_winner")
    winner = readings[chosen]
    gaps: list = []
    if len(set(readings.values())) == 1:
        return winner, ("AW-4.10" if 2 * won == len(fights) else "AW-4.5"), gaps
    if len(set(readings.values())) > 1:
        gaps.append(house.record("battle_winner",
                              f"the attacker won {won} of {len(fights)} fights",
                              f"the {winner} wins the battle (majority: {readings['majority']},"
                              f" all: {readings['all']}, highest: {readings['highest']})"))
    return winner, "AW-G.2", gaps


# --------------------------------------------------------------------------- Final Showdown
def showdown(alpha_card: Card, fights_in: list[dict], dice: Dice, house,
             alpha_equipment: Sequence[Card] = ()) -> dict:
    """``fights_in``: [{"opponent", "fighters": [Fighter], "alpha_cards": [Card]}] in order."""
    violations, gaps, fights = [], [], []
    beaten = []  # (opponent, field position) of each creature the Alpha Walrus beat (AW-G.20)
    if alpha_equipment:
        violations.append({"rule": "AW-8.3", "message": "the Alpha Walrus fights with no "
                           f"equipment ({', '.join(e.ref for e in alpha_equipment)} given)"})
    reading = house.value("battle_level")
    bar_both = house.value("showdown_equipment") == "both"
    outcome = "summoner"
    for entry in fights_in:
        opp, fighters = entry["opponent"], entry["fighters"]
        alpha = Fighter("attacker", 1, alpha_card, [], list(entry.get("alpha_cards", ())))
        if not fighters:
            gaps.append(house.record("alpha_opponent", f"{opp} has no creature to send against "
                                  "the Alpha Walrus", f"{opp} loses the fight"))
            fights.append({"opponent": opp, "alpha": alpha_card.ref, "creature": None,
                           "levels": {"summoner": alpha.level(reading, False), "opponent": None},
                           "rolls": [], "winner": "summoner", "rule": "AW-G.4"})
            continue
        if any(f.equipment and any(e.level_bonus for e in f.equipment) for f in fighters):
            gaps.append(house.record("showdown_equipment",
                                  f"{opp}'s creature wears equipment in the Final Showdown",
                                  "their equipment does not count" if bar_both
                                  else "their equipment counts"))
        use_eq = not bar_both
        order = list(fighters)
        if len(fighters) > 1:
            mode = house.value("alpha_opponent")
            if mode == "one":
                best = max(fighters, key=lambda f: f.level(reading, use_eq))
                order = [best]
            gaps.append(house.record("alpha_opponent",
                                  f"{opp} lists {len(fighters)} creatures for the Final Showdown",
                                  f"{opp} fights with {order[0].card.ref} (the strongest)"
                                  if mode == "one" else "the Alpha Walrus fights each in turn"))
        lost = False
        for f in order:
            result = _showdown_fight(alpha, f, opp, dice, house, reading, use_eq)
            gaps += result.pop("gaps")
            fights.append(result)
            if result["winner"] == "summoner":
                beaten.append((opp, f.pos))
            else:
                lost = True
                break
        if lost:
            outcome = "opponent"
            break
    fought = {f["opponent"] for f in fights}
    missing = [e["opponent"] for e in fights_in if e["opponent"] not in fought]
    if outcome == "summoner" and not violations:
        rule, text = "AW-9.1", "the Summoner defeated every opponent and wins the game"
    elif outcome == "opponent":
        beaten_by = fights[-1]["opponent"]
        rule = "AW-9.2"
        text = (f"the Summoner lost to {beaten_by} and is removed (AW-9.2); their gear is "
                "shuffled back into the deck, their creatures discarded and the Alpha Walrus "
                "returns to the centre (AW-9.3); play continues (AW-9.4)")
    else:
        rule, text = violations[0]["rule"], "the Final Showdown could not be resolved"
    return {"winner": "summoner" if outcome == "summoner" and not violations else
            ("opponent" if outcome == "opponent" else None),
            "rule": rule, "ruling": text, "fights": fights, "not_fought": missing if
            outcome == "opponent" else [], "violations": violations, "gaps": gaps,
            "beaten": beaten}


def _showdown_fight(alpha: Fighter, f: Fighter, opp: str, dice: Dice, house, reading,
                    use_eq) -> dict:
    la, lo = alpha.level(reading, False), f.level(reading, use_eq)
    out: dict[str, Any]
    out = {"opponent": opp, "alpha": alpha.card.ref, "creature": f.card.ref,
           "levels": {"summoner": la, "opponent": lo}, "rolls": [], "gaps": []}
    gap = _level_gap(house, alpha.card.ref, alpha, f.card.ref, f,  # a tie goes to the dice
                     lambda x, y: (x > y) - (x < y), equipment=(False, use_eq),
                     after=f" against {opp}")
    if gap:
        out["gaps"].append(gap)
    if la != lo:
        out["winner"] = "summoner" if la > lo else "opponent"
        out["rule"] = "AW-8.2"
        return out
    out["rule"] = "AW-8.5"
    for _ in range(MAX_REROLLS):
        rs, ro = dice.d6("summoner"), dice.d6(opp)
        out["rolls"].append({"summoner": rs, "opponent": ro})
        if rs != ro:
            out["winner"] = "summoner" if rs > ro else "opponent"
            return out
        tie = house.value("showdown_dice_tie")
        out["gaps"].append(house.record("showdown_dice_tie", f"both rolled {rs} in the tie-break "
                                     f"against {opp}", "both roll again" if tie == "reroll"
                                     else f"{opp} wins"))
        if tie == "defender":
            out["winner"] = "opponent"
            return out
    out["winner"] = "opponent"
    return out
