"""Card effects as data: the one language every game's cards write their text in, and its
checks (``deckcli db check``), so a user's own card with an effect works like a bundled one.

A card carries ``effects:``, a list of entries. Each entry names what the text does
(``effect``) and, where the text says so, when (``when``), on what condition (``if``), for
whom (``who``), how long (``duration``), how often (``limit``), whether it replaces what would
otherwise happen (``instead``) and whether its player may decline it (``optional``: "you
may"). An entry without ``when`` is in force while the card is where it acts (equipment worn,
a battle card in its battle). The full list of constructs, with an example each, is
docs/effects.md; each game declares its own words (:class:`Vocabulary`), and its engine is the
one interpreter that applies them.

A text that only restates a rule (a walrus's reminder of the mini showdown) is marked
``{effect: reminder, rule: AW-10.6}``: it changes nothing, and says so. A card with rules text
and no entry at all is one whose text nobody applies: ``db check`` says so (an error for the
bundled cards, a warning for a user's own set), and so do the referee and the simulator when
they meet it.
"""

from __future__ import annotations

#: keys every entry may hold besides ``effect``, and what each must be
COMMON_KEYS = {
    "when": "a trigger of the game (see its vocabulary)",
    "if": "a mapping of conditions of the game",
    "who": "whom the effect acts on",
    "value": "a number",
    "optional": "true or false ('you may')",
    "duration": "how long it lasts",
    "limit": "once_per_turn or once_per_battle",
    "instead": "what it replaces (the event that would otherwise happen)",
    "rule": "a rule id the text displaces or restates",
}
LIMITS = ("once_per_turn", "once_per_battle")


class Vocabulary:
    """One game's words for effects: its triggers, conditions, durations, targets (``who``)
    and effects, each effect with the keys it takes besides the common ones' ``effect`` (a key
    an effect does not take is a problem on its line)."""

    def __init__(self, *, triggers: dict[str, str], effects: dict[str, tuple[set[str], str]],
                 conditions: dict[str, str], durations: dict[str, str] | None = None,
                 who: dict[str, str] | None = None, instead: dict[str, str] | None = None):
        self.triggers, self.effects, self.conditions = triggers, effects, conditions
        self.durations = durations or {}
        self.who = who or {}
        self.instead = instead or {}


def check_effects(entries, vocabulary: Vocabulary, rule_exists, who: str
                  ) -> list[tuple[str, str, str]]:
    """Problems with a card's ``effects`` (``entries``: the card entry's effect models, or
    mappings), as (code, rule id, message); ``who`` names the card in messages."""
    out: list[tuple[str, str, str]] = []
    for n, raw in enumerate(entries, 1):
        entry = _as_dict(raw)
        where = f"{who}: effects entry {n}"
        name = entry.get("effect")
        spec = vocabulary.effects.get(name) if name is not None else None
        if spec is None:
            out.append(("db-unknown-effect", "DB-2.4",
                        f"{where}: effect {name!r} is not one the referee knows "
                        f"({', '.join(sorted(vocabulary.effects))})"))
            continue
        takes, _text = spec
        extra = sorted(set(entry) - {"effect"} - set(COMMON_KEYS) - takes)
        if extra:
            out.append(("db-schema", "DB-2.4", f"{where}: effect {name} does not take "
                        f"{', '.join(extra)}"))
        when = entry.get("when")
        if when is not None and when not in vocabulary.triggers:
            out.append(("db-unknown-trigger", "DB-2.4",
                        f"{where}: when {when!r} is not a trigger of this game "
                        f"({', '.join(sorted(vocabulary.triggers))})"))
        cond = entry.get("if")
        if cond is not None:
            if not isinstance(cond, dict):
                out.append(("db-schema", "DB-2.4", f"{where}: 'if' is a mapping of conditions"))
            else:
                for key in cond:
                    if key not in vocabulary.conditions:
                        out.append(("db-unknown-condition", "DB-2.4",
                                    f"{where}: condition {key!r} is not one of this game's "
                                    f"({', '.join(sorted(vocabulary.conditions))})"))
        for key, table in (("duration", vocabulary.durations), ("who", vocabulary.who),
                           ("instead", vocabulary.instead)):
            value = entry.get(key)
            if value is not None and value not in table:
                out.append(("db-schema", "DB-2.4", f"{where}: {key} {value!r} is not one of "
                            f"{', '.join(sorted(table)) or 'none for this game'}"))
        limit = entry.get("limit")
        if limit is not None and limit not in LIMITS:
            out.append(("db-schema", "DB-2.4", f"{where}: limit {limit!r} is not one of "
                        f"{', '.join(LIMITS)}"))
        if "optional" in entry and not isinstance(entry["optional"], bool):
            out.append(("db-schema", "DB-2.4", f"{where}: optional is true or false"))
        value = entry.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            out.append(("db-schema", "DB-2.4", f"{where}: value is a whole number"))
        rule = entry.get("rule")
        if rule is not None and not rule_exists(str(rule)):
            out.append(("db-unknown-rule", "DB-2.4", f"{where}: rule {rule} does not exist"))
        if name == "reminder" and rule is None:
            out.append(("db-schema", "DB-2.4", f"{where}: a reminder names the rule it "
                        "restates (rule)"))
    return out


#: the problem code of a card whose text no effect data applies: an error for the bundled
#: cards, a warning for a user's own set (deckcli.cards.build decides which)
UNAPPLIED = "db-text-not-applied"


def text_without_effects(text: str | None, entries, overrides=()) -> bool:
    """Whether a card has rules text that no effect data applies (DB-2.5)."""
    return bool(text and text.strip()) and not list(entries) and not list(overrides)


def unapplied_problem(who: str) -> tuple[str, str, str]:
    """The DB-2.5 problem of a card whose text has no effect data."""
    return (UNAPPLIED, "DB-2.5", f"{who}: its rules text carries no effects, so the referee "
            "and the simulator do not apply it (add effects, or mark a text that restates a "
            "rule as {effect: reminder, rule: ID}; docs/effects.md)")


def _as_dict(raw) -> dict:
    if isinstance(raw, dict):
        return dict(raw)
    data = {"effect": raw.effect}
    data.update(raw.model_extra or {})
    return data
