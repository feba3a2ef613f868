"""animal-battle: Animal cards with five battle statistics, Challenger, Defender, Defense Chain.

Rules reference: :mod:`.rules` (ids ``AB-``); gaps and house rules: :mod:`.gaps`. Deck
construction and setup checks: :mod:`.deck_checks`; ``deckcli setup``: :mod:`.setup`. The
referee engine: :mod:`.engine` (setup actions), :mod:`.turn` (turn actions), :mod:`.chain`
(one comparison and the Defense Chain), :mod:`.effects` (card text, AB-6.4); the play side of
the game interface: :mod:`.play`; game logs: :mod:`.logfile`; single rulings: :mod:`.referee`.

The numbers of the rules live here, once each.
"""

from deckcli.games.base import Game

OPENING_HAND = 6  # AB-3.1
POOL_SIZE = 5  # AB-3.5, AB-4.2
REFILL_TO = 3  # AB-4.6
COPY_LIMIT = 4  # AB-1.5
#: format -> (fewest cards, most cards or None, rule)
SIZES = {"casual": (20, None, "AB-1.3"), "championship": (60, 60, "AB-1.4")}
#: The battle statistics and which way they win (AB-2.1 to AB-2.5). Maximum Depth is absent
#: on purpose (AB-2.6).
BATTLE_STATS = {
    "weight": ("higher", "AB-2.1"),
    "speed": ("higher", "AB-2.2"),
    "lifespan": ("higher", "AB-2.3"),
    "population": ("lower", "AB-2.4"),
    "length": ("higher", "AB-2.5"),
}
#: what people call Maximum Depth (lower case, '_' for spaces and hyphens): never a battle
#: statistic (AB-2.6), and named as such wherever a statistic is asked for
DEPTH_NAMES = frozenset({"max_depth", "maximum_depth", "depth", "max_dive_depth"})


class AnimalBattle(Game):
    id = "animal-battle"
    search_example = "walrus, kind:animal speed>50, -set:CLS"
    formats = ("casual", "championship")
    default_format = "casual"
    kinds = {"animal": "Animals", "action": "Actions"}
    key_stats = tuple(BATTLE_STATS)
    battle_stats = BATTLE_STATS
    opening_hand = OPENING_HAND
    win_rule = "AB-1.1"
    rule_prefix = "AB"

    parts = {
        "rules": "deckcli.games.animal_battle.rules:RULES",
        "gaps": "deckcli.games.animal_battle.gaps:BY_KEY",
        "deck_checks": "deckcli.games.animal_battle.deck_checks",
        "card_entry": "deckcli.games.animal_battle.cards:check_entry",
        "setup": "deckcli.games.animal_battle.setup",
        "engine": "deckcli.games.animal_battle.play:ENGINE",
        "rulings": "deckcli.games.animal_battle.ruling_commands:RULINGS",
        "policies": "deckcli.games.animal_battle.policies",
        "worth": "deckcli.games.animal_battle.policies:card_worth",
        "style": "deckcli.games.animal_battle.policies:deck_style",
        "ladder": "deckcli.games.animal_battle.ladder:LADDER",
    }


GAME = AnimalBattle()
