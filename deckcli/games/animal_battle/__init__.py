"""animal-battle: Animal cards with five battle statistics, Challenger, Defender, Defense Chain.

Rules reference: :mod:`.rules` (ids ``AB-``). Deck construction and setup checks:
:mod:`.deck_checks`. Referee: :mod:`.engine` and :mod:`.referee`.
"""

from deckcli.games import KIND_PLURALS as _ALL

GAME = "animal-battle"
FORMATS = ("casual", "championship")
DEFAULT_FORMAT = "casual"
KIND_PLURALS = _ALL[GAME]
KINDS = tuple(KIND_PLURALS)


def check_card_entry(entry, rule_exists):
    """db check: problems with one defining card entry (see :mod:`.cards`)."""
    from deckcli.games.animal_battle.cards import check_entry

    return check_entry(entry, rule_exists)


def __getattr__(name):
    # The rules reference is loaded only when asked for (a deck check never needs it).
    if name in ("RULES", "BATTLE_STATS"):
        from deckcli.games.animal_battle import rules

        return getattr(rules, name)
    raise AttributeError(name)
