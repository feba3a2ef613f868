"""alpha-walrus: one shared deck, creature levels, equipment, Alpha Walrus gear, Final Showdown.

Rules reference: :mod:`.rules` (ids ``AW-``). Shared-deck setup checks: :mod:`.deck_checks`.
"""

from deckcli.games import KIND_PLURALS as _ALL

GAME = "alpha-walrus"
FORMATS: tuple[str, ...] = ()  # alpha-walrus has no formats (CONTRACT.md: format is null)
DEFAULT_FORMAT = None
KIND_PLURALS = _ALL[GAME]
KINDS = tuple(KIND_PLURALS)


def check_card_entry(entry, rule_exists):
    """db check: problems with one defining card entry (see :mod:`.cards`)."""
    from deckcli.games.alpha_walrus.cards import check_entry

    return check_entry(entry, rule_exists)


def __getattr__(name):
    # The rules reference is loaded only when asked for (a deck check never needs it).
    if name in ("RULES",):
        from deckcli.games.alpha_walrus import rules

        return getattr(rules, name)
    raise AttributeError(name)
