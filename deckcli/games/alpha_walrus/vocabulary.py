"""alpha-walrus's words for card effects (the language of :mod:`deckcli.games.effects`).

What each word does in play is :mod:`.effects` (the one interpreter); docs/effects.md lists
every word with an example. A word here and nowhere in the interpreter would be a card text
the referee cannot apply: ``tests/test_aw_cards.py`` holds the two to each other.
"""

from __future__ import annotations

from deckcli.games.effects import Vocabulary

TRIGGERS = {
    "summoned": "when this creature is summoned",
    "discarded": "when this card is discarded (if: from field|hand, after loss|room)",
    "loses_fight": "when this creature loses its fight in a battle",
    "wins_fight": "when this creature wins its fight in a battle (if: as attacker|defender, "
                  "beaten walrus)",
    "battle_declared": "when an opponent declares a battle against this creature's owner",
    "defending": "when this creature's owner defends in a battle (matching creatures)",
    "dice_rolled": "when D6s are rolled for this creature's owner in a battle",
    "attacked_for_hand": "when an opponent declares a battle for a card in this card's "
                         "holder's hand, before creatures are matched (a reaction from hand)",
    "played": "when the card is played from hand (the default for action, diplomacy and "
              "battle cards)",
    "activated": "when its owner uses it (an ability of a creature on the field)",
}

#: effect -> (the keys it takes besides the common ones, what it does)
EFFECTS: dict[str, tuple[set[str], str]] = {
    # in force while the card is where it acts: worn (equipment), on the field, in a battle
    "level_bonus": (set(), "+value levels to the creature wearing it, or the battle card's"),
    "armor_limit": (set(), "the creature wearing it may wear up to value armor pieces"),
    "field_limit": (set(), "its owner may keep up to value creatures on the field"),
    "survives_discard": (set(), "returns to its owner's hand when its creature is discarded"),
    "cannot_make_room": (set(), "never discarded to make room on its owner's field"),
    "summon_alone": (set(), "not summoned in a turn in which another creature is summoned"),
    "cancel": ({"targets"}, "cancels an action as it happens (Goamph): targets"),
    "extra_draw": ({"phase"}, "played in its player's Draw Phase: draws value more"),
    "reminder": (set(), "restates a rule (rule): nothing more to apply"),
    # what a trigger, a play or an activation does
    "draw": (set(), "who draws value cards (you; you_and_target)"),
    "discard_from_hand": (set(), "who discards value cards of their choice from hand"),
    "look_at_hand": (set(), "you look at who's hand"),
    "look_at_deck": ({"reorder"}, "you look at the top value cards of the deck, and with "
                                  "reorder put them back in the order you choose"),
    "reveal_gear": (set(), "each opponent shows you one Alpha Walrus gear piece from hand"),
    "count_gear": (set(), "the opponent tells how many gear pieces they hold"),
    "summon_from_hand": ({"name"}, "you summon another creature from hand (name: same)"),
    "return_to_hand": ({"what"}, "a creature (what: self or own_creature) goes back to its "
                                 "owner's hand; instead of a discard, its equipment is still "
                                 "discarded, else its equipment goes to the hand too"),
    "equipment_to_hand": (set(), "the creature's equipment goes to its owner's hand"),
    "move_equipment": ({"from", "to"}, "one equipment card moves from a creature to another "
                                       "(armor limits apply)"),
    "take_from_discard": ({"kinds", "armor"}, "you take one card of kinds from the discard "
                                              "pile into your hand"),
    "discard_to_draw": (set(), "you discard a card to draw value cards (your once-per-turn "
                               "discard, AW-2.1)"),
    "discard_equipment": ({"from"}, "who discards one equipment card from the creature "
                                    "(from: beater)"),
    "attach_from_hand": (set(), "you attach one equipment card from your hand to it at once"),
    "discard_armor": (set(), "you discard one armor piece from a creature of who"),
    "pair_twice": (set(), "its owner may match it against two attacking creatures"),
    "shuffle_into_deck": (set(), "the card is shuffled into the deck instead"),
    "protect_from_battle": ({"bars"}, "battles barred for a time (bars: target, you or both; "
                                      "value: rounds ahead; duration)"),
    "give_card": (set(), "you give who value cards of your choice from your hand"),
    "pass_cards": (set(), "every player passes value cards to the player on their left "
                          "(gear stays)"),
    "surrender": (set(), "the battle ends: the attacker takes a random card from your hand"),
    "swap_opponents": (set(), "swap the opponents of two of your creatures in this battle"),
    "save_loser": (set(), "one of your creatures that loses this battle returns to your "
                          "hand; its equipment is still discarded"),
    "discard_creature": (set(), "who discards one of their creatures, of their choice"),
    "reroll": (set(), "you roll one of your D6s again"),
}

CONDITIONS = {
    "hand_below": "its player holds fewer than N cards",
    "own_field_has": "another creature of this name is on its owner's field",
    "from": "the card left the field or the hand",
    "after": "it was discarded after a loss or to make room",
    "as": "its owner attacked or defended",
    "beaten": "the creature it beat has this trait (walrus)",
    "phase": "in its owner's Play Phase",
    "more_creatures": "the opponent has more creatures on the field than you",
    "creatures_at_least": "the player has at least N creatures on the field",
}

WHO = {
    "you": "the card's player", "each_opponent": "every opponent", "every_player": "everyone",
    "chosen_opponent": "one opponent of the player's choice", "target": "the opponent the "
    "card names", "you_and_target": "you and the opponent the card names",
    "attacker": "the attacking player", "loser": "the player whose creature lost",
    "winner": "the player whose creature won",
}

DURATIONS = {"this_battle": "the battle it is played in", "next_round": "the next round",
             "through_next_round": "from now to the end of the next round"}

INSTEAD = {"discard": "the card is not discarded: this happens instead"}

VOCABULARY = Vocabulary(triggers=TRIGGERS, effects=EFFECTS, conditions=CONDITIONS,
                        durations=DURATIONS, who=WHO, instead=INSTEAD)
