"""One rule of the rules reference: a stable id, a title and the text in the project's words.

A leaf module: every rules table (``deckcli/games/<game>/rules.py``, ``deckcli/decks/rules.py``,
``deckcli/events/rules.py``, ``deckcli/cards/rules.py``) builds its rules from here, and
:mod:`deckcli.rulebook` gathers the tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str
    game: str | None = None  # None: a project rule that applies to every game
    refs: tuple[str, ...] = field(default=())  # ids this rule points at
    gap: bool = False  # True: the seed leaves this situation open; see the text

    def to_json(self) -> dict:
        return {"id": self.id, "title": self.title, "text": self.text, "game": self.game}


def project_rule(id: str, title: str, text: str, refs=()) -> Rule:
    """A deckcli rule (reading files) rather than a game rule: it applies to every game."""
    return Rule(id, title, text, None, tuple(refs))


def rule_sort_key(rule_id: str) -> tuple:
    """Numeric sections first, in number order: 1.2, then 1.10, then 10.1, then the gaps G.n."""
    sec, _, n = rule_id.partition("-")[2].partition(".")
    return (not sec.isdigit(), int(sec) if sec.isdigit() else 0, int(n) if n.isdigit() else 0)


def checked_in_table(text: str) -> dict[str, tuple[str, ...]]:
    """A rules table's CHECKED_IN, written one rule a line: ``AB-5.2  games/x/chain
    games/x/turn`` (modules under deckcli/, without .py); a line that starts with white
    space goes on with the rule above."""
    table: dict[str, tuple[str, ...]] = {}
    last = None
    for line in text.splitlines():
        if not line.strip():
            continue
        words = line.split()
        if line[0].isspace():
            table[last] += tuple(w + ".py" for w in words)
        else:
            last = words[0]
            table[last] = tuple(w + ".py" for w in words[1:])
    return table
