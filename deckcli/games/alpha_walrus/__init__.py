"""alpha-walrus: one shared deck, creature levels, equipment, Alpha Walrus gear, Final Showdown.

Rules reference: :mod:`.rules` (ids ``AW-``); gaps and house rules: :mod:`.gaps`. Shared-deck
setup checks: :mod:`.deck_checks`; dealing (``deckcli setup``): :mod:`.setup`. The referee
engine: :mod:`.engine` (turns, phases, Recover), :mod:`.engine_play` (Play Phase actions),
:mod:`.engine_battle` (battles and the Final Showdown, resolved in :mod:`.battle`), the table in
:mod:`.state`; the play side of the game interface: :mod:`.play`; single rulings:
:mod:`.rulings`; cards as the referee sees them: :mod:`.cardref`.
"""

from deckcli.games.base import Game


class AlphaWalrus(Game):
    id = "alpha-walrus"
    formats = ()  # no formats: a report's format is null
    default_format = None
    kinds = {"creature": "Creatures", "alpha-walrus": "Alpha Walrus", "gear": "Gear",
             "diplomacy": "Diplomacy", "equipment": "Equipment", "battle": "Battle Cards",
             "action": "Actions"}
    key_stats = ("level",)
    shared_deck = True
    win_rule = "AW-9.1"
    rule_prefix = "AW"
    record_facts = {"showdown": ("showdowns", "the Final Showdown was reached")}
    build_effort = (400, 100)  # a game is many times longer than an animal-battle one
    search_example = "walrus, kind:creature level>=6"

    parts = {
        "rules": "deckcli.games.alpha_walrus.rules:RULES",
        "gaps": "deckcli.games.alpha_walrus.gaps:BY_KEY",
        "deck_checks": "deckcli.games.alpha_walrus.deck_checks",
        "card_entry": "deckcli.games.alpha_walrus.cards:check_entry",
        "setup": "deckcli.games.alpha_walrus.setup",
        "engine": "deckcli.games.alpha_walrus.play:ENGINE",
        "rulings": "deckcli.games.alpha_walrus.ruling_commands:RULINGS",
        "play_card": "deckcli.games.alpha_walrus.cardref:info",
        "table": "deckcli.games.alpha_walrus.building:table",
        "ladder": "deckcli.games.alpha_walrus.ladder:LADDER",
        "policies": "deckcli.games.alpha_walrus.policies",
    }


GAME = AlphaWalrus()
