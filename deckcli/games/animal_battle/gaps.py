"""Situations the animal-battle rules leave open (``AB-G.n``) and the house rulings for them.

Rules as data: each gap names the house-rule key that decides it and the values that key may
take, each with the ruling it stands for. The referee never picks a value itself: without a
declared house ruling it stops and says a judge must rule (:class:`JudgeNeeded`).
"""

from __future__ import annotations

from dataclasses import dataclass

from deckcli.errors import UsageError


@dataclass(frozen=True)
class Gap:
    rule: str
    key: str
    question: str
    options: dict  # value -> what the ruling does


GAPS = {g.rule: g for g in (
    Gap("AB-G.1", "stat_tie", "who wins when both Animals have the same value", {
        "challenger": "the Challenger wins the comparison",
        "defender": "the Defender wins the comparison",
        "replay": "the comparison is void; the statistic stays used and another unused "
                  "statistic is chosen for the same two Animals"}),
    Gap("AB-G.2", "original_defender_wins", "what happens when the first Defender of the "
        "attack sequence beats the Challenger", {
        "discard_challenger": "the Challenger is discarded and the attack ends; the Defender "
                              "stays; control does not change",
        "as_replacement": "as when a replacement Defender wins (AB-5.6): both are discarded and "
                          "the defending player takes control"}),
    Gap("AB-G.3", "decline_promote", "what happens when the defending player declines to "
        "promote, or has no Animal to promote", {
        "attack_ends": "the attack ends; the Challenger stays; the defending player has no "
                       "active Defender",
        "defender_loses": "the defending player cannot provide a Defender and loses (AB-1.1)"}),
    Gap("AB-G.4", "next_stat_chooser", "who names the statistic for the next link of the "
        "Defense Chain", {
        "challenger": "the player who controls the Challenger names it",
        "defender": "the defending player names it"}),
    Gap("AB-G.5", "defender_player", "which opponent defends when more than two play", {
        "next": "the next player in seat order who is still in the game",
        "attacker_choice": "the attacking player names the opponent (action 'target')"}),
    Gap("AB-G.6", "empty_deck_draw", "what happens when a player must draw from an empty deck", {
        "skip": "the draw is skipped (a refill stops when the deck runs out)",
        "lose": "the player loses the game"}),
    Gap("AB-G.7", "new_animal_from", "whether a new Challenger or Defender may come straight "
        "from the hand outside setup (the rules name the Pool for promotions only)", {
        "pool": "only from the Pool; a player with no Animal in the Pool cannot provide one",
        "pool_or_hand": "from the Pool or from the hand"}),
    Gap("AB-G.8", "replace_defender", "whether the defending player may swap an active "
        "Defender for another Animal before the attack (AB-6.1 fixes only the Challenger)", {
        "allowed": "the active Defender goes back to the Pool and the new one comes from the "
                   "Pool",
        "forbidden": "the active Defender stays"}),
)}

#: house-rule key -> gap
BY_KEY = {g.key: g for g in GAPS.values()}


class JudgeNeeded(Exception):
    """The rules are silent here and no house ruling was declared: the replay stops."""

    def __init__(self, record: dict):
        super().__init__(record["ruling"])
        self.record = record


def check_house_rules(house_rules: dict) -> dict[str, str]:
    """Known keys with known values only: a typo must not silently leave a gap open."""
    out = {}
    for key, value in (house_rules or {}).items():
        gap = BY_KEY.get(str(key))
        if gap is None:
            raise UsageError(f"unknown animal-battle house rule {key!r}; known: "
                             f"{', '.join(sorted(BY_KEY))}")
        value = str(value).strip().lower()
        if value not in gap.options:
            raise UsageError(f"house rule {key}={value} is not one of "
                             f"{', '.join(gap.options)} ({gap.rule})")
        out[gap.key] = value
    return out


def rule_on(gap_id: str, situation: str, house_rules: dict) -> dict:
    """The record of a gap met in play: the house ruling applied, or a judge needed."""
    gap = GAPS[gap_id]
    value = house_rules.get(gap.key)
    if value is None:
        choices = "|".join(gap.options)
        ruling = (f"The rules do not say {gap.question} ({gap_id}). A judge must rule, or "
                  f"declare a house rule: {gap.key}={choices}.")
    else:
        ruling = f"House rule {gap.key}={value}: {gap.options[value]} ({gap_id})."
    return {"rule": gap_id, "situation": situation, "house_rule": gap.key, "value": value,
            "ruling": ruling}


def settle(gap_id: str, situation: str, house_rules: dict, log: list) -> str:
    """The house ruling's value for this gap; raises JudgeNeeded when there is none."""
    record = rule_on(gap_id, situation, house_rules)
    log.append(record)
    if record["value"] is None:
        raise JudgeNeeded(record)
    return record["value"]
