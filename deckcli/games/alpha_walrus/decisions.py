"""Decisions a player owes the game in the middle of something: the defender's match-ups, a
battle card, a Goamph answer, a choice a card's text offers (AW-3.1, AW-11.2).

A decision is plain data in ``State.pending`` (the first is the one asked now): who decides,
what kind of decision, the options (JSON-able values), whether the player may pass, what
is assumed when a log moves on without an answer, the card whose text asks and a prompt.
It is answered by ``{player, do: choose, option: X}`` (X one of the options) or
``{player, do: pass}``; the one handler of its kind (:data:`RESUME`) carries on from there.

A game log records what happened, so a log that goes on without answering has answered:
an optional choice not taken, no Goamph played, a creature left unmatched (its
``default``). A choice that is not optional and has no such default (a card a player must
discard, of their choice) is not the referee's to make: the referee takes the first option,
says so in a note, and the log should record it.
"""

from __future__ import annotations

PASS = "pass"

#: decision kind -> handler(game, decision, option): what happens once it is answered
#: (``option`` is :data:`PASS` for a pass). The modules that ask register their kinds.
RESUME: dict = {}


def ask(game, player: str, kind: str, options: list, *, prompt: str, card=None,
        may_pass: bool = False, default=PASS, data: dict | None = None,
        front: bool = False) -> None:
    """Queue a decision for ``player``. ``default``: what a log that moves on without an
    answer is taken to have chosen (None: nothing can be assumed, a note says so)."""
    decision = {"kind": kind, "player": player, "options": list(options),
                "may_pass": may_pass, "default": default, "prompt": prompt,
                "card": card.ref if card is not None else None, "data": data or {}}
    if front:
        game.state.pending.insert(0, decision)
    else:
        game.state.pending.append(decision)


def actions(decision: dict) -> list[dict]:
    """The log entries that answer ``decision`` (what ``legal`` lists)."""
    player = decision["player"]
    out = [{"player": player, "do": "choose", "option": o} for o in decision["options"]]
    if decision["may_pass"]:
        out.append({"player": player, "do": "pass"})
    return out


def answers(decision: dict, action: dict) -> bool:
    """Whether ``action`` is an answer to ``decision`` (by its player, choose or pass)."""
    return str(action.get("player")) == decision["player"] and \
        action.get("do") in ("choose", "pass")


def option_of(decision: dict, action: dict):
    """The option ``action`` chooses (:data:`PASS` for a pass), or None when it names none of
    the decision's options. Options are compared as a log writes them: numbers and words,
    lists in order, mappings key by key."""
    if action.get("do") == "pass":
        return PASS if decision["may_pass"] else None
    given = action.get("option")
    for option in decision["options"]:
        if _same(option, given):
            return option
    return None


def _same(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return set(map(str, a)) == set(map(str, b)) and all(
            _same(a[k], b.get(k, b.get(str(k)))) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def resolve(game, decision: dict, option) -> None:
    """Carry on from ``decision`` answered with ``option``."""
    RESUME[decision["kind"]](game, decision, option)


def close_by_default(game, why: str) -> None:
    """Answer every pending decision the way a log that moves on does (see the module's
    docstring), each in turn (an answer may ask another, which is closed too)."""
    st = game.state
    guard = 0
    while st.pending and guard < 1000:
        guard += 1
        decision = st.pending.pop(0)
        option = decision["default"]
        if option is None:  # a choice the referee cannot assume: the first option, noted
            option = decision["options"][0] if decision["options"] else PASS
            game.out.remarks.append(
                f"{decision['player']} did not record {decision['prompt']} before {why}: the "
                f"referee takes {_shown(option)} (record it as {{player: {decision['player']}, "
                "do: choose, option: ...}})")
        elif decision["may_pass"] or option == PASS:
            game.event(f"{decision['player']} passes: {decision['prompt']} (not recorded)")
        resolve(game, decision, option)
        game.settle()


def _shown(option) -> str:
    if isinstance(option, dict):
        return ", ".join(f"{k} {v}" for k, v in option.items())
    return str(option)
