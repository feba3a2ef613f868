"""The rules reference: every game's rules and the project's own reading rules, by stable id.

Each game keeps its rules in ``deckcli/games/<game>/rules.py``; the project's rules for reading
decklists live in ``deckcli/decks/rules.py`` and those for event files in
``deckcli/events/rules.py``. Ids are stable: a report, a test or a judge's note may quote them.
The prefix tells where a rule lives: ``AB-`` animal-battle, ``AW-`` alpha-walrus,
``DL-`` decklists, ``EV-`` event files.
"""

from __future__ import annotations

import re

from deckcli.rule import Rule

#: the project's own rules tables (each game's is the game's, found through the registry)
PROJECT_TABLES = ("deckcli.decks.rules", "deckcli.events.rules", "deckcli.cards.rules")


def tables() -> list[str]:
    """Every rules table's module: each registered game's (``Game.rules_module``), then the
    project's own."""
    from deckcli.games import GAMES

    return [*(g.rules_module() for g in GAMES.values()), *PROJECT_TABLES]


def prefixes() -> list[str]:
    """The prefix of every rule id (``AB``, ``DL``, ...): each game's, then the project's."""
    from deckcli.games import GAMES

    return [*(g.rule_prefix for g in GAMES.values()), "DL", "EV", "DB"]


def checked_in(rule_id: str) -> tuple[str, ...]:
    """The modules (paths under ``deckcli/``) that check a rule: each rules table says where
    its rules are checked (``CHECKED_IN``), so a rule id leads to its code."""
    import importlib

    for name in tables():
        table = importlib.import_module(name).CHECKED_IN
        if rule_id in table:
            return table[rule_id]
    return ()


def _project_rules() -> list[Rule]:
    from deckcli.cards.rules import RULES as db_rules
    from deckcli.decks.rules import RULES as deck_rules
    from deckcli.events.rules import RULES as event_rules

    return [*deck_rules, *event_rules, *db_rules]


def game_rules(game: str) -> list[Rule]:
    from deckcli.games import get

    return list(get(game).rules())


def all_rules(game: str | None = None) -> list[Rule]:
    """Rules of one game (and the project's rules), or of every game when game is None."""
    from deckcli.games import GAMES

    games = [game] if game else list(GAMES)
    out: list[Rule] = []
    for g in games:
        out.extend(game_rules(g))
    out.extend(_project_rules())
    return out


def find_rule(rule_id: str) -> Rule | None:
    key = rule_id.strip().upper()
    for rule in all_rules(None):
        if rule.id.upper() == key:
            return rule
    return None


def referring_to(rule_id: str) -> list[Rule]:
    """Rules whose references name this id."""
    return [r for r in all_rules(None) if rule_id in r.refs]


_WORD = re.compile(r"[\w'’-]+")
def word_forms(word: str) -> frozenset[str]:
    """The word as written and what it may be an inflection of: 'ties' -> ties, tie; 'tied'
    -> tied, tie; 'using' -> using, use; 'abilities' -> abilities, ability. Two words are the
    same word when their forms meet, so 'tie' finds 'ties' and 'tied' but never 'abilities'.

    Only what English inflection adds is taken off (-s, -es, -ies, -ed, -ing, 's), with the
    base's dropped e or doubled consonant put back; a base under three letters is no form.
    """
    w = word.casefold().replace("’", "'").strip("'-")
    if w.endswith("'s"):
        w = w[:-2]
    forms = {w}
    bases = []
    if w.endswith(("ies", "ied")):
        bases += [w[:-3] + "y", w[:-1]]  # copies -> copy; ties, tied -> tie
    if w.endswith("es"):
        bases.append(w[:-2])  # classes -> class
    if w.endswith("s") and not w.endswith("ss"):
        bases.append(w[:-1])  # games -> game
    for suffix in ("ed", "ing"):
        if w.endswith(suffix):
            base = w[: -len(suffix)]
            bases += [base, base + "e"]  # named -> name; using -> use
            if len(base) > 2 and base[-1] == base[-2]:
                bases.append(base[:-1])  # stopped -> stop
            if suffix == "ing" and base.endswith("y"):
                bases.append(base[:-1] + "ie")  # tying -> tie
    forms.update(b for b in bases if len(b) >= 3)
    return frozenset(forms)


def search_rules(words: str, game: str | None = None) -> list[Rule]:
    """Rules that hold every word of ``words`` (a word, or any inflection of it: 'tie' finds
    'ties' and 'tied', never 'abilities'), best matches first.

    A rule's id counts as a word of it. Matches in the title weigh more than in the text, and
    a word written exactly as asked more than an inflection; equal scores keep the reference's
    order.
    """
    wanted = [w.casefold() for w in _WORD.findall(words)]
    if not wanted:
        return []
    asked = [word_forms(w) for w in wanted]
    scored = []
    for order, rule in enumerate(all_rules(game)):
        title = [w.casefold() for w in _WORD.findall(rule.title)]
        text = [w.casefold() for w in _WORD.findall(rule.text)]
        exact = {rule.id.casefold(), *title, *text}
        title_forms = set().union(*map(word_forms, title))
        text_forms = set().union(*map(word_forms, text))
        score = 0
        for word, forms in zip(wanted, asked):
            in_title, in_text = bool(forms & title_forms), bool(forms & text_forms)
            if word == rule.id.casefold():
                score += 10
            elif not (in_title or in_text):
                break
            score += 3 * in_title + in_text + (word in exact)
        else:
            scored.append((-score, order, rule))
    return [rule for _, _, rule in sorted(scored, key=lambda t: t[:2])]


def looks_like_rule_id(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z]{2}-[\w.]+", text.strip()))


#: a rule id as people type it: 'AB-5.2', 'AB 5.2', 'ab5.2', 'AB-G.3'
_PREFIXED = re.compile(r"([A-Za-z]{2})[ \t]*(-?)[ \t]*((?:[Gg]\.)?\d+(?:\.\d+)*)")
#: a rule's number without its prefix: '5.2', 'G.3' (a number alone, '5', is a word)
_NUMBER = re.compile(r"[Gg]\.\d+|\d+(?:\.\d+)+")


def rules_by_id(text: str, game: str | None = None) -> list[Rule] | None:
    """The rules an id-shaped query names, or None when ``text`` is no id (then it is
    searched as words). 'AB-5.2', 'AB 5.2' and 'ab5.2' name AB-5.2 (without the hyphen, the
    prefix must be one the reference uses); '5.2' and 'G.3' name every rule of that number,
    in each game and deckcli's own, and with ``game`` that game's (else deckcli's own). An
    empty list: an id that names no rule."""
    text = text.strip()
    m = _PREFIXED.fullmatch(text)
    if m and (m.group(2) or m.group(1).upper() in {r.id.partition("-")[0]
                                                    for r in all_rules(None)}):
        rule = find_rule(f"{m.group(1)}-{m.group(3)}")
        return [rule] if rule else []
    if looks_like_rule_id(text):
        rule = find_rule(text)
        return [rule] if rule else []
    if _NUMBER.fullmatch(text):
        number = text.upper()
        found = [r for r in all_rules(game) if r.id.partition("-")[2].upper() == number]
        own = [r for r in found if game and r.game == game]
        return own or found
    return None
