"""Card text that displaces a general rule (AB-6.4), applied through one table.

A card declares ``overrides: [{rule, effect, value}]`` in the card database. Playing it puts one
entry per override into ``State.overrides``; every place where the engine checks a general rule
asks :func:`find` whether an entry displaces it, and the ruling then names both the general
rule and the card. This module says, per effect, when the card may be played (its text's timing)
and how long the entry stays in force; it never names a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckcli.games.animal_battle.state import RANK, State


@dataclass(frozen=True)
class Effect:
    when: str  # a key of WHEN
    scope: str  # "turn", "sequence" (the attack sequence) or "game"
    once: bool  # used up by its first use (reuse_statistic: value uses)
    anyone: bool = False  # the entry helps whoever the general rule binds, not only its player


EFFECTS = {
    "skip_attack": Effect("own_turn_with_challenger", "turn", True),  # AB-6.2
    "reuse_statistic": Effect("in_sequence", "sequence", True, anyone=True),  # AB-5.5
    "hand_to_chain": Effect("own_defender_defeated", "sequence", True),  # AB-5.4
    "extra_draw": Effect("before_own_draw", "turn", True),  # AB-4.1
    "replace_challenger": Effect("before_statistic", "turn", True),  # AB-6.1
    "pool_size": Effect("own_turn", "game", False),  # AB-4.2
}

#: when -> (what the card's text says, test on the state for the player who plays it)
WHEN = {
    "own_turn_with_challenger": (
        "during your turn while you have an active Challenger, before attacking",
        lambda s, p: s.active == p and s.controller == p and not s.attacked
        and RANK[s.phase] < RANK["end"]),
    "in_sequence": ("during an attack sequence",
                    lambda s, p: bool(s.used) and s.phase in ("attack", "promote")),
    "own_defender_defeated": ("when your Defender has just been defeated",
                              lambda s, p: s.phase == "promote" and s.defending == p),
    "before_own_draw": ("at the start of your turn, before the draw",
                        lambda s, p: s.active == p and s.phase == "draw"),
    "before_statistic": ("during your turn, before a statistic is chosen",
                         lambda s, p: s.active == p and s.controller == p and not s.attacked
                         and RANK[s.phase] <= RANK["establish"]),
    "own_turn": ("during your turn", lambda s, p: s.active == p and RANK[s.phase] >= 0
                 and s.phase != "over"),
}


#: when -> the phases of a turn in which its test can hold (what the tests above read of
#: ``s.phase``, written out): the legal actions look for playable cards only in these
_TURN = ("draw", "pool", "establish", "attack", "promote", "end")
PHASES = {
    "own_turn_with_challenger": frozenset(p for p in _TURN if RANK[p] < RANK["end"]),
    "in_sequence": frozenset({"attack", "promote"}),
    "own_defender_defeated": frozenset({"promote"}),
    "before_own_draw": frozenset({"draw"}),
    "before_statistic": frozenset(p for p in _TURN if RANK[p] <= RANK["establish"]),
    "own_turn": frozenset(_TURN),
}


def playable(card) -> list[dict]:
    """The overrides of a card that take effect in play (copy_limit acts on decks only)."""
    return [o for o in card.overrides if o.get("effect") in EFFECTS]


def timing_test(override: dict):
    """The test of the card text's timing, ``test(state, player) -> bool`` (see :data:`WHEN`):
    what :func:`timing_problem` asks, for a caller that only needs yes or no."""
    return WHEN[EFFECTS[override["effect"]].when][1]


def timing_phases(override: dict) -> frozenset:
    """The phases in which the card text's timing can hold (:data:`PHASES`)."""
    return PHASES[EFFECTS[override["effect"]].when]


def timing_problem(state: State, player: str, override: dict) -> str | None:
    text, test = WHEN[EFFECTS[override["effect"]].when]
    return None if test(state, player) else f"it can be played only {text}"


def put_in_force(state: State, player: str, card, override: dict, stat: str | None) -> dict:
    effect = EFFECTS[override["effect"]]
    value = override.get("value")
    uses = None
    if effect.once:
        uses = int(value) if override["effect"] == "reuse_statistic" and value else 1
    entry = {"effect": override["effect"], "value": value, "rule": override["rule"],
             "card": card.ref, "player": player, "scope": effect.scope, "uses": uses,
             "stat": stat}
    state.overrides.append(entry)
    return entry


def find(state: State, effect: str, player: str | None = None, stat: str | None = None
         ) -> dict | None:
    """The entry in force that displaces the general rule for this player, if any."""
    if not state.overrides:  # nearly always: asked at many steps, card text is rarely in force
        return None
    anyone = EFFECTS[effect].anyone
    for entry in state.overrides:
        if entry["effect"] != effect:
            continue
        if not anyone and player is not None and entry["player"] != player:
            continue
        if stat is not None and entry["stat"] not in (None, stat):
            continue
        return entry
    return None


def use(state: State, entry: dict) -> None:
    if entry["uses"] is not None:
        entry["uses"] -= 1
        if entry["uses"] <= 0:
            state.overrides.remove(entry)


def expire(state: State, *scopes: str) -> None:
    if state.overrides:
        state.overrides[:] = [o for o in state.overrides if o["scope"] not in scopes]


def cite(entry: dict) -> str:
    return (f"{entry['card']} displaces {entry['rule']} ({entry['effect']}"
            f"{'' if entry['value'] in (None, True) else ' ' + str(entry['value'])}; AB-6.4)")
