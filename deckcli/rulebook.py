"""The rules reference: every game's rules and the project's own reading rules, by stable id.

Each game keeps its rules in ``deckcli/games/<game>/rules.py``; the project's rules for reading
decklists live in ``deckcli/decks/rules.py`` and those for event files in
``deckcli/events/rules.py``. Ids are stable: a report, a test or a judge's note may quote them.
The prefix tells where a rule lives: ``AB-`` animal-battle, ``AW-`` alpha-walrus,
``DL-`` decklists, ``EV-`` event files.
"""

from __future__ import annotations

import re
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


def _project_rules() -> list[Rule]:
    from deckcli.cards.rules import RULES as db_rules
    from deckcli.decks.rules import RULES as deck_rules
    from deckcli.events.rules import RULES as event_rules

    return [*deck_rules, *event_rules, *db_rules]


def game_rules(game: str) -> list[Rule]:
    from deckcli.games import game_module

    return list(game_module(game).RULES)


def all_rules(game: str | None = None) -> list[Rule]:
    """Rules of one game (and the project's rules), or of every game when game is None."""
    from deckcli.games import GAMES

    games = [game] if game else list(GAMES)
    out: list[Rule] = []
    for g in games:
        out.extend(game_rules(g))
    out.extend(_project_rules())
    return out


def find_rule(rule_id: str, game: str | None = None) -> Rule | None:
    key = rule_id.strip().upper()
    for rule in all_rules(None):
        if rule.id.upper() == key:
            return rule
    return None


def referring_to(rule_id: str) -> list[Rule]:
    """Rules whose references name this id."""
    return [r for r in all_rules(None) if rule_id in r.refs]


_WORD = re.compile(r"[\w'-]+")


def search_rules(words: str, game: str | None = None) -> list[Rule]:
    """Rules whose id, title or text hold every word (case-insensitive)."""
    wanted = [w.casefold() for w in _WORD.findall(words)]
    hits = []
    for rule in all_rules(game):
        hay = f"{rule.id} {rule.title} {rule.text}".casefold()
        if wanted and all(w in hay for w in wanted):
            hits.append(rule)
    return hits


def looks_like_rule_id(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]{2}-[\w.]+", text.strip()))
