"""Situations the alpha-walrus rules leave open (``AW-G.n``): one table of gaps.

A gap is reported every time it matters, whether or not a house rule settles it. Without a
house rule the referee goes on with the gap's provisional reading (``default``) and says so; a
provisional reading never makes an action illegal (only a declared house rule can). The full
text of each gap is in :mod:`.rules`.
"""

from __future__ import annotations

from deckcli.games.house import Gap


def _gap(rule: str, key: str, question: str, values: dict[str, str]) -> Gap:
    """The first value is the provisional reading."""
    return Gap(rule, key, question, values, next(iter(values)), provisional=True)


GAPS = {g.rule: g for g in (
    _gap("AW-G.1", "battle_level", "whether equipment and battle-card bonuses count toward the "
         "'highest creature'", {"modified": "levels count their bonuses",
                                "printed": "only printed levels count"}),
    _gap("AW-G.2", "battle_winner", "who wins a battle whose fights split", {
        "majority": "the side that won more fights; an even split goes to the defender",
        "all": "the attacker must win every fight",
        "highest": "the side with the single highest creature"}),
    _gap("AW-G.3", "destroy_all_four", "what destroying all four of a defender's creatures "
         "wins", {"not-required": "nothing more: the attacker need not destroy them all",
                  "eliminates": "a defender who loses four creatures in one battle is out"}),
    _gap("AW-G.4", "alpha_opponent", "what an opponent sends against the Alpha Walrus", {
        "one": "one creature of the opponent's choice (the referee takes the strongest listed)",
        "all": "the Alpha Walrus must beat each of the opponent's creatures in turn"}),
    _gap("AW-G.5", "hand_minimum", "what happens to a hand under five at the end of a turn", {
        "floor": "nothing: five is only the floor for Recover discards",
        "refill": "the player draws up to five"}),
    _gap("AW-G.6", "empty_deck", "what a draw from an empty deck does", {
        "skip": "nothing is drawn",
        "reshuffle": "the discard pile is shuffled into a new deck"}),
    _gap("AW-G.7", "turn_order", "who goes first, and in which order turns follow", {
        "listed": "the order of the players as listed, the first listed starts",
        "free": "any order, one turn per player per round"}),
    _gap("AW-G.8", "mini_showdown_tie", "what equal dice in a mini showdown do", {
        "defender": "the defender wins, as in a battle tie (AW-4.10)",
        "reroll": "both roll again"}),
    _gap("AW-G.9", "walrus_pairing", "who pairs with whom when a side has several walruses", {
        "level6-first": "each level 6 Walrus takes the first free opposing walrus, then the "
                        "other walruses pair in the order listed",
        "level6-only": "only the level 6 Walrus is paired automatically"}),
    _gap("AW-G.10", "battles_per_turn", "how many battles a player may fight in one turn", {
        "1": "one battle a turn", "any": "any number of battles"}),
    _gap("AW-G.11", "discard_non_creature", "what discarding a non-creature to draw gives", {
        "draw-1": "it draws one card", "forbidden": "only creatures are discarded to draw"}),
    _gap("AW-G.12", "gear_stake", "whether a gear stake covers gear in the defender's hand", {
        "field": "only gear on the field can be won",
        "field-or-hand": "gear on the field or in the hand can be won"}),
    _gap("AW-G.13", "sacrifice_creatures", "whether a player with no creature may summon the "
         "Alpha Walrus", {"any": "all creatures present are sacrificed, none needed",
                          "at-least-one": "at least one creature must be sacrificed"}),
    _gap("AW-G.14", "showdown_dice_tie", "what equal dice in a Final Showdown tie-break do", {
        "reroll": "both roll again", "defender": "the opponent wins"}),
    _gap("AW-G.15", "showdown_equipment", "whose equipment 'no equipment allowed' bars", {
        "both": "no equipment counts on either side",
        "alpha-only": "only the Alpha Walrus fights without equipment"}),
    _gap("AW-G.16", "goamph_alpha", "whether Goamph can cancel the Alpha Walrus summon", {
        "no": "the summon cannot be cancelled",
        "yes": "the summon is cancelled before anything is sacrificed"}),
    _gap("AW-G.17", "hand_stake_pick", "who picks the card won from a hand", {
        "random": "a random card, from the seeded generator, unless the log names it",
        "attacker": "the attacker picks (the log names the card)",
        "defender": "the defender picks (the log names the card)"}),
    _gap("AW-G.18", "freed_creatures", "whether creatures whose match-up a walrus pairing broke "
         "fight", {"unmatched": "a freed attacker counts as unmatched; a freed defender sits "
                                "the battle out",
                   "rematch": "freed attackers and defenders fight each other"}),
    _gap("AW-G.19", "last_player", "what the one player left when the others are out must do "
         "to win", {"showdown": "win a Final Showdown as the seed says: summon the Alpha "
                                "Walrus, with no opponent left to fight",
                    "wins": "nothing more: the last player left wins at once"}),
    _gap("AW-G.20", "showdown_beaten", "what becomes of the creatures the Alpha Walrus beat "
         "before the Summoner lost", {"stay": "they stay on the field",
                                      "discarded": "they are discarded, as a battle's losers"}),
    _gap("AW-G.21", "early_showdown", "whether the Alpha Walrus may be summoned in the first two "
         "rounds, which have no battles", {
             "allowed": "the summon and its Final Showdown are open in every round",
             "round-3": "as a battle, not before the third round"}),
    _gap("AW-G.22", "recover_discard", "whether a Recover discard may go below seven cards", {
        "to-five": "a hand over seven may be discarded to anything from seven down to five",
        "to-seven": "a hand over seven is discarded down to seven, no further"}),
    _gap("AW-G.23", "removed_hand", "what becomes of the cards in a beaten Summoner's hand", {
        "kept": "they leave the game with their player",
        "discarded": "they go to the discard pile (gear back into the deck)"}),
    _gap("AW-G.24", "trigger_order", "in which order texts of several players act on one event",
         {"active-first": "the turn's player's first, then the others in seat order",
          "seat-order": "in seat order from the first seat"}),
    _gap("AW-G.25", "creature_battle", "what 'a creature wins (loses) a battle' means", {
        "fight": "the creature won (lost) its own fight",
        "battle": "it won (lost) its fight and its side won (lost) the battle"}),
    _gap("AW-G.26", "musk_ox", "how Musk Ox fights two attacking creatures", {
        "each": "two fights, one against each attacker",
        "sum": "one fight against the two attackers' levels added"}),
    _gap("AW-G.27", "ability_phase", "in which phase an ability with no phase is used", {
        "own-turn": "any phase of its owner's turn", "play-phase": "the Play Phase only"}),
    _gap("AW-G.28", "battle_card_order", "which side plays battle cards first", {
        "attacker-first": "the attacker, then the defender",
        "defender-first": "the defender, then the attacker"}),
    _gap("AW-G.29", "triggered_draw", "whether a creature's draw is a card draw ability", {
        "not-combined": "it is not: discarding to draw stays open",
        "combined": "it is: it is not combined with discarding to draw"}),
    _gap("AW-G.30", "repeated_position", "what happens when the table comes back again and "
         "again", {"draw": "the third time at a player's turn, the game ends with no winner",
                   "play-on": "play goes on"}),
)}

#: house-rule key -> gap (the game interface's gap table)
BY_KEY = {g.key: g for g in GAPS.values()}
