"""The alpha-walrus rules reference, in deckcli's own words (ids ``AW-``).

Numbered as the seed groups its rules: 1 setup, 2 discarding to draw, 3 phases, 4 battle,
5 recover, 6 equipment, 7 creatures on the field, 8 the Final Showdown, 9 winning and losing,
10 the seed's clarifications. ``AW-G.n`` entries are *gaps*: situations the seed leaves open.
Each gap names the house-rule key that settles it (:mod:`.gaps`); until one is declared
the referee reports the gap, continues with the reading marked *provisional* and never turns
that reading into a violation.
"""

from deckcli.games.alpha_walrus import GAME
from deckcli.rule import Rule, checked_in_table

G = GAME.id


def _r(id, title, text, refs=(), gap=False):
    return Rule(id, title, text, G, tuple(refs), gap)


RULES = [
    # 1. Setup
    _r("AW-1.1", "The Alpha Walrus starts in the centre",
       "Before anything is dealt, the single Alpha Walrus card is taken out of the shared deck "
       "and laid in the middle of the table. It is never dealt, drawn or held; it enters play "
       "only through the Final Showdown.", refs=("AW-8.1",)),
    _r("AW-1.2", "One diplomacy card for each player",
       "All diplomacy cards are taken out of the deck and every player receives one of them. "
       "(deckcli shuffles that pile with the seed before handing the cards out, so a deal "
       "replays.) The diplomacy cards nobody received go back in with the rest at AW-1.4.",
       refs=("AW-1.4",)),
    _r("AW-1.3", "Three creatures and three non-creatures each",
       "What is left is split into two piles: creatures, and everything that is not a creature "
       "(gear, equipment, battle and action cards; the Alpha Walrus and the diplomacy cards "
       "are already out). Each pile is shuffled on its own, then every player is dealt three "
       "cards from the creature pile and three from the other pile.", refs=("AW-1.1", "AW-1.2")),
    _r("AW-1.4", "One deck again",
       "The undealt diplomacy cards, creatures and non-creatures are shuffled together into a "
       "single face-down deck that every player draws from."),
    _r("AW-1.5", "Hand size",
       "A hand holds at least five and at most seven cards; the limit is enforced in the "
       "Recover Phase (AW-5.2).", refs=("AW-5.2", "AW-G.5")),
    _r("AW-1.6", "Two peaceful rounds",
       "Nobody may battle during the first two rounds of the game. A round ends when every "
       "player still in the game has had a turn.", refs=("AW-4.1", "AW-G.21")),
    # 2. Discarding to draw
    _r("AW-2.1", "Discard to draw, once a turn",
       "A player may, once in each of their turns, put one card from hand on the discard pile "
       "to draw replacement cards.", refs=("AW-2.3", "AW-2.4", "AW-2.5", "AW-G.11")),
    _r("AW-2.2", "No combining with other draw abilities",
       "Discarding to draw cannot be used in the same turn as another ability that draws "
       "cards (for example a card whose effect is 'draw'), in either order. Lucky Flipper is "
       "the exception, see AW-10.5.", refs=("AW-10.5",)),
    _r("AW-2.3", "Small creatures draw one",
       "Discarding a creature of level 1 to 5 draws one card."),
    _r("AW-2.4", "Middle creatures draw two",
       "Discarding a creature of level 6, 7 or 8 draws two cards."),
    _r("AW-2.5", "Big creatures draw three",
       "Discarding a creature of level 9 or higher draws three cards."),
    # 3. Phases
    _r("AW-3.1", "Four phases, in order",
       "Each player's turn runs through the Draw, Play, Battle and Recover Phases in that "
       "order; a phase that has passed does not come back in the same turn. Only the player "
       "whose turn it is acts, apart from answers such as Goamph (AW-10.1) and a defender's "
       "choices in a battle.", refs=("AW-3.2", "AW-3.3", "AW-3.4", "AW-5.1")),
    _r("AW-3.2", "Draw Phase", "The turn starts with drawing one card from the deck.",
       refs=("AW-G.6",)),
    _r("AW-3.3", "Play Phase",
       "The seed names the Play Phase without listing what happens in it. deckcli reads it as "
       "the phase in which cards go from hand to the field (summoning creatures, attaching "
       "equipment, laying down Alpha Walrus gear) and other cards are played, since the "
       "Recover Phase forbids new cards on the field (AW-5.1).", refs=("AW-5.1",)),
    _r("AW-3.4", "Battle Phase is optional",
       "A player may skip the Battle Phase; battling is never required."),
    # 4. Battle
    _r("AW-4.1", "Choose whom to attack",
       "The attacker picks one opponent still in the game to battle.", refs=("AW-G.10",)),
    _r("AW-4.2", "Declare the stake",
       "Before creatures are matched the attacker says what the battle is for: an Alpha "
       "Walrus gear piece of the defender's, or a card from the defender's hand. The stake "
       "goes to the attacker only if the attacker wins the battle.",
       refs=("AW-G.12", "AW-G.17")),
    _r("AW-4.3", "The defender matches creatures",
       "The defender decides which of their creatures faces which attacking creature, one "
       "defender against one attacker.", refs=("AW-10.7",)),
    _r("AW-4.4", "All attacking creatures fight",
       "The attacker brings every creature they have on the field into the battle; with no "
       "creature there is nothing to attack with."),
    _r("AW-4.5", "Highest level wins",
       "There are no draws between two matched creatures: the one with the higher level wins "
       "and the other loses.", refs=("AW-4.10", "AW-G.1", "AW-G.2")),
    _r("AW-4.6", "Losers are discarded",
       "Every creature that loses its fight goes to the discard pile, with its equipment "
       "(AW-6.1).", refs=("AW-6.1",)),
    _r("AW-4.7", "An unmatched attacker wins",
       "If at least one attacking creature was left without an opponent, the attacker wins "
       "the battle.", refs=("AW-G.2",)),
    _r("AW-4.8", "Wiping out the defender is optional",
       "The seed adds that winning by destroying all four creatures is optional. deckcli reads "
       "this as: the attacker does not need to destroy all of the defender's creatures to "
       "win; what else the sentence may mean is gap AW-G.3.", refs=("AW-G.3",)),
    _r("AW-4.9", "Battle cards only in battle",
       "A battle card can be played only while a battle is being fought; at any other time "
       "it does nothing and may not be played."),
    _r("AW-4.10", "Ties favour the defender",
       "When two matched creatures are equal, the defending player's creature wins."),
    # 5. Recover
    _r("AW-5.1", "Recover: nothing new on the field",
       "In the Recover Phase a player may still play cards as needed, but may not put any new "
       "card on the field: no summoning, no equipment, no gear."),
    _r("AW-5.2", "Recover: back to the hand limit",
       "A player who holds more than seven cards in the Recover Phase discards down to seven, "
       "and no discard may leave them with fewer than five; whether one may go on below seven "
       "is gap AW-G.22. Ending the turn with more than seven cards breaks the limit.",
       refs=("AW-1.5", "AW-G.5", "AW-G.22")),
    _r("AW-5.3", "Discarded gear goes back into the deck",
       "An Alpha Walrus gear piece that is discarded is not left on the discard pile: it is "
       "shuffled back into the deck."),
    # 6. Equipment
    _r("AW-6.1", "Equipment stays with its creature",
       "An equipment card stays attached to its creature until that creature dies or is "
       "discarded, and then goes with it to the discard pile, unless a card says otherwise "
       "(card data: effect survives_discard returns it to its owner's hand)."),
    _r("AW-6.2", "Two armor pieces per creature",
       "A creature wears at most two armor pieces unless a card allows more (card data: "
       "effect armor_limit on equipment the creature wears).",
       refs=("AW-10.2",)),
    # 7. Field
    _r("AW-7.1", "Four creatures on the field",
       "A player has at most four creatures on the field at any time. The rule itself names "
       "no exception; a card whose own text raises the limit (Herd Bell; card data: effect "
       "field_limit on equipment worn on that field) overrides it while it is in play.",
       refs=("AW-7.2",)),
    _r("AW-7.2", "Making room",
       "To bring in a creature beyond the limit a player discards one of their creatures "
       "first; its equipment is discarded with it unless a card says otherwise.",
       refs=("AW-6.1",)),
    # 8. Final Showdown
    _r("AW-8.1", "Summoning the Alpha Walrus",
       "A player with all four Alpha Walrus gear pieces on their field may sacrifice the gear "
       "together with their creatures to take the Alpha Walrus from the centre; that player "
       "becomes the Summoner and the Final Showdown begins. The shared deck therefore holds "
       "each of the four gear pieces exactly once.", refs=("AW-G.13", "AW-G.16")),
    _r("AW-8.2", "One opponent at a time",
       "In the Final Showdown the Summoner fights every opponent, one after the other, and "
       "fights only with the Alpha Walrus.", refs=("AW-G.4",)),
    _r("AW-8.3", "No equipment in the Final Showdown",
       "No equipment may be used in the Final Showdown.", refs=("AW-G.15",)),
    _r("AW-8.4", "Battle cards in the Final Showdown",
       "Battle cards may be played in the Final Showdown fights.", refs=("AW-4.9",)),
    _r("AW-8.5", "Showdown ties go to the dice",
       "A Final Showdown fight between equal levels is settled by each side rolling a D6; the "
       "higher roll wins.", refs=("AW-G.14",)),
    # 9. Win / lose
    _r("AW-9.1", "Winning the game",
       "The Summoner who defeats every opponent in the Final Showdown wins the game; there is "
       "no other way to win."),
    _r("AW-9.2", "A beaten Summoner is out",
       "A Summoner who loses a Final Showdown fight is removed from the game."),
    _r("AW-9.3", "After a failed Showdown",
       "The beaten Summoner's Alpha Walrus gear is shuffled back into the deck, their "
       "creatures are discarded and the Alpha Walrus returns to the centre.",
       refs=("AW-G.20", "AW-G.23")),
    _r("AW-9.4", "Play goes on",
       "After a Summoner is removed the remaining players carry on with the game."),
    # 10. Clarifications
    _r("AW-10.1", "Goamph stops a summon",
       "A Goamph card can cancel a creature summon, that is a creature being put on the "
       "field.", refs=("AW-10.3",)),
    _r("AW-10.2", "Goamph stops armor",
       "A Goamph card can also cancel the placement of an armor piece on a creature.",
       refs=("AW-10.3",)),
    _r("AW-10.3", "Goamph cancels actions",
       "Summons and armor placements are actions, and what a Goamph does is prevent an "
       "action: the cancelled action does not happen (the card it tried to place is "
       "discarded, as Goamph's text says). The Goamph card's targets are data on the card "
       "(effect cancel, targets).", refs=("AW-10.4",)),
    _r("AW-10.4", "A battle can be Goamphed",
       "Declaring a battle is an action too, so a Goamph can cancel a battle; then no "
       "creature fights and no stake changes hands."),
    _r("AW-10.5", "Lucky Flipper is not combined draw",
       "Lucky Flipper works on its player's Draw Phase, so using it does not count as "
       "combining draw abilities: the player may still discard to draw in that turn.",
       refs=("AW-2.2",)),
    _r("AW-10.6", "Walrus mini showdown",
       "When the level 6 Walrus meets any walrus in a battle (any creature with the walrus "
       "trait, but never the Alpha Walrus), a mini showdown takes place.",
       refs=("AW-10.7", "AW-10.8", "AW-10.9")),
    _r("AW-10.7", "Walruses pair up by themselves",
       "In a mini showdown the walruses on both sides are matched with each other "
       "automatically; the defender's choice does not decide those pairs.",
       refs=("AW-G.9",)),
    _r("AW-10.8", "Mini showdown dice",
       "Each player in the battle rolls a D6 for their walrus; the higher roll wins that "
       "walrus fight, whatever the levels.", refs=("AW-G.8",)),
    _r("AW-10.9", "The level 8 Walrus rolls twice",
       "In a mini showdown the level 8 Walrus rolls two D6 and uses the better one."),
    # 11. Card text (the seed defers to it: "unless a card states otherwise")
    _r("AW-11.1", "Card text applies",
       "What a card's text says is applied as written, from the effect data beside it (docs/"
       "effects.md): where it says otherwise than a general rule, the card wins, as the seed "
       "says of equipment, armor and the field ('unless a card states otherwise'). Each "
       "effect applied is a step of the ruling that names its card.",
       refs=("AW-6.1", "AW-6.2", "AW-7.1", "AW-11.5")),
    _r("AW-11.2", "Choices a text offers",
       "'You may' is a choice of the card's player, and 'of their choice' one of the player "
       "named; either is an action of that player's (recorded in a game log as choose or "
       "pass), taken when the text acts, before anything else happens."),
    _r("AW-11.3", "Restrictions on a card",
       "A card's text may forbid what the rules allow (Grizzly Bear is not summoned in a turn "
       "in which another creature is; Elephant Seal is never discarded to make room): an "
       "action that breaks it is illegal, as breaking a rule is."),
    _r("AW-11.4", "What a text shows",
       "A card that lets its player look at a hand, the top of the deck or a gear piece shows "
       "it to that player alone; a count told is told to that player alone."),
    _r("AW-11.5", "When text acts",
       "A text that acts 'when' something happens acts just after it, in the order the events "
       "came (several at once: AW-G.24); a text that puts a card somewhere 'instead' of the "
       "discard pile acts in the place of the discard.", refs=("AW-G.24",)),
    # Gaps: situations the seed leaves open. Each names its house-rule key.
    _r("AW-G.1", "Gap: which level is 'highest'",
       "Equipment and battle cards say a creature 'gets +N levels', but the seed's 'highest "
       "creature wins' does not say whether such bonuses count. House rule battle_level: "
       "modified (printed level plus bonuses) or printed. Provisional: modified. Reported only "
       "when the two readings decide a fight differently.", refs=("AW-4.5",), gap=True),
    _r("AW-G.2", "Gap: who wins a split battle",
       "When every attacking creature was matched and each side won some fights, the seed "
       "does not say who wins the battle (and the stake). House rule battle_winner: majority "
       "(more fights won; an even split goes to the defender, AW-4.10), all (the attacker "
       "must win every fight) or highest (the side with the single highest creature). "
       "Provisional: majority.", refs=("AW-4.5", "AW-4.7"), gap=True),
    _r("AW-G.3", "Gap: destroying all four creatures",
       "AW-4.8 calls winning by destroying all four creatures optional without saying what "
       "it wins. House rule destroy_all_four: not-required (only that the attacker need not "
       "do it) or eliminates (a defender who loses four creatures in one battle is out of the "
       "game). Provisional: not-required.", refs=("AW-4.8",), gap=True),
    _r("AW-G.4", "Gap: what the Alpha Walrus fights",
       "The seed does not say what an opponent sends against the Alpha Walrus. House rule "
       "alpha_opponent: one (one creature of the opponent's choice; the referee takes the "
       "strongest listed) or all (the Alpha Walrus must beat each of the opponent's creatures "
       "in turn). Provisional: one. In either reading an opponent with no creature on the "
       "field has nothing to send and loses the fight.", refs=("AW-8.2",), gap=True),
    _r("AW-G.5", "Gap: fewer than five cards",
       "The minimum of five is only stated as a floor for Recover discards; the seed does not "
       "say whether a smaller hand is refilled. House rule hand_minimum: floor (no refill) or "
       "refill (draw up to five when the turn ends). Provisional: floor.",
       refs=("AW-1.5", "AW-5.2"), gap=True),
    _r("AW-G.6", "Gap: the deck runs out",
       "The seed does not say what a draw from an empty deck does. House rule empty_deck: "
       "skip (nothing is drawn) or reshuffle (the discard pile is shuffled into a new deck). "
       "Provisional: skip.", refs=("AW-3.2",), gap=True),
    _r("AW-G.7", "Gap: who goes first, and turn order",
       "The seed says neither who takes the first turn nor in which order turns follow. House "
       "rule turn_order: listed (the order of the log's players, first listed starts) or free "
       "(any order, one turn per player per round). Provisional: listed; out-of-order turns "
       "are violations only when the house rule is declared.", refs=("AW-3.1",), gap=True),
    _r("AW-G.8", "Gap: equal dice in a mini showdown",
       "The seed does not say what equal mini-showdown rolls do. House rule mini_showdown_tie: "
       "defender (the battle tie rule AW-4.10 applies) or reroll. Provisional: defender.",
       refs=("AW-10.8", "AW-4.10"), gap=True),
    _r("AW-G.9", "Gap: pairing several walruses",
       "With more than one walrus on a side the seed does not say who pairs with whom. House "
       "rule walrus_pairing: level6-first (each level 6 Walrus takes the first free opposing "
       "walrus, then the other walruses pair in the order listed) or level6-only (only the "
       "level 6 Walrus is paired automatically; other walruses keep the defender's match-ups). "
       "Provisional: level6-first.", refs=("AW-10.7",), gap=True),
    _r("AW-G.10", "Gap: battles per turn",
       "'Pick an opponent' suggests one battle per Battle Phase but the seed does not say so. "
       "House rule battles_per_turn: 1 or any. Provisional: 1 (a second battle is reported, "
       "not ruled illegal, until the house rule is declared).", refs=("AW-4.1",), gap=True),
    _r("AW-G.11", "Gap: discarding a non-creature to draw",
       "The draw table of AW-2.3 to AW-2.5 only covers creatures, while AW-2.1 speaks of any "
       "card. House rule discard_non_creature: draw-1 (a non-creature draws one card) or "
       "forbidden. Provisional: draw-1.", refs=("AW-2.1",), gap=True),
    _r("AW-G.12", "Gap: which gear can be won",
       "The seed does not say whether a gear stake covers gear in the defender's hand or only "
       "gear on the field, nor where the won piece goes. House rule gear_stake: field or "
       "field-or-hand. Provisional: field; a won piece goes to the attacker's hand.",
       refs=("AW-4.2",), gap=True),
    _r("AW-G.13", "Gap: sacrificing without creatures",
       "'Sacrifice them with your creatures' does not say whether a player with no creature "
       "may summon. House rule sacrifice_creatures: any (all creatures present are "
       "sacrificed, none needed) or at-least-one. Provisional: any.", refs=("AW-8.1",),
       gap=True),
    _r("AW-G.14", "Gap: equal showdown dice",
       "AW-8.5 settles a tie with a D6 but not equal D6 results. House rule "
       "showdown_dice_tie: reroll or defender (the opponent wins). Provisional: reroll.",
       refs=("AW-8.5",), gap=True),
    _r("AW-G.15", "Gap: whose equipment is barred",
       "'No equipment allowed' may bar only the Alpha Walrus or both sides. House rule "
       "showdown_equipment: both or alpha-only (the opponents' equipment still counts). "
       "Provisional: both.", refs=("AW-8.3",), gap=True),
    _r("AW-G.16", "Gap: Goamph against the Alpha Walrus",
       "Whether summoning the Alpha Walrus is a 'creature summon' Goamph can cancel is not "
       "said. House rule goamph_alpha: no or yes (the summon is cancelled before anything is "
       "sacrificed). Provisional: no.", refs=("AW-10.1", "AW-8.1"), gap=True),
    _r("AW-G.17", "Gap: which hand card is won",
       "For a hand stake the seed does not say who picks the card. House rule "
       "hand_stake_pick: random (from the seeded generator unless the log names it), "
       "attacker or defender (the log names the card). Provisional: random.",
       refs=("AW-4.2",), gap=True),
    _r("AW-G.18", "Gap: creatures a walrus pairing frees",
       "When the automatic walrus pairing takes a creature out of one of the defender's "
       "match-ups, its partner in that match-up is left without an opponent, and the seed does "
       "not say whether such freed creatures fight. House rule freed_creatures: unmatched (a "
       "freed attacking creature counts as unmatched, AW-4.7; a freed defender sits the battle "
       "out) or rematch (freed attacking and defending creatures fight each other, in the order "
       "of the defender's match-ups). Provisional: unmatched.", refs=("AW-10.7", "AW-4.7"),
       gap=True),
    _r("AW-G.19", "Gap: one player left",
       "The game goes on with the players still in it (AW-9.4) and is won only by beating "
       "every opponent in the Final Showdown (AW-9.1). When all but one player are out (a "
       "beaten Summoner, or a player out under destroy_all_four=eliminates), the seed does not "
       "say whether the one left has won or must still summon the Alpha Walrus, with no "
       "opponent to fight. House rule last_player: showdown (play on; summoning the Alpha "
       "Walrus wins) or wins (the last player left wins at once). Provisional: showdown.",
       refs=("AW-9.1", "AW-9.4", "AW-G.3"), gap=True),
    _r("AW-G.20", "Gap: creatures the Alpha Walrus beat",
       "The seed's 'creatures discarded' after a lost Showdown is read as the Summoner's "
       "creatures (AW-9.3), which the summon has already sacrificed (AW-8.1). Whether the "
       "opponents' creatures the Alpha Walrus beat before it lost a later fight are discarded "
       "too, as the losers of a battle are, is not said. House rule showdown_beaten: stay or "
       "discarded. Provisional: stay.", refs=("AW-9.3", "AW-8.2", "AW-4.6"), gap=True),
    _r("AW-G.21", "Gap: a Final Showdown in the opening rounds",
       "AW-1.6 keeps the first two rounds free of battles. The seed does not say whether the "
       "fights of the Final Showdown are battles in that sense, so whether a player who has laid "
       "down all four gear pieces by then may already summon the Alpha Walrus is open. House "
       "rule early_showdown: allowed (the summon is open in every round) or round-3 (as a "
       "battle, not before the third round). Provisional: allowed.", refs=("AW-1.6", "AW-8.1"),
       gap=True),
    _r("AW-G.22", "Gap: discarding below seven",
       "A hand over the limit is brought down to seven in the Recover Phase, and the seed also "
       "says at least five cards are kept. It does not say whether that second bound lets a "
       "player throw away more than the limit asks, ending with six or five cards. House rule "
       "recover_discard: to-five (a Recover discard from a hand over seven may keep anything "
       "from seven down to five) or to-seven (it stops at seven). Provisional: to-five.",
       refs=("AW-5.2",), gap=True),
    _r("AW-G.23", "Gap: a beaten Summoner's hand",
       "AW-9.3 says what happens to a beaten Summoner's gear and creatures, but not to the cards "
       "still in their hand when they are removed. House rule removed_hand: kept (the cards "
       "leave the game with their player and are never drawn again) or discarded (they go to "
       "the discard pile, any gear among them back into the deck, AW-5.3). Provisional: kept.",
       refs=("AW-9.2", "AW-9.3"), gap=True),
    _r("AW-G.24", "Gap: several texts at once",
       "When one event makes texts of more than one player act (a battle whose winner and "
       "loser both have text), neither the seed nor the cards say in which order. House rule "
       "trigger_order: active-first (the player whose turn it is first, then the others in "
       "seat order) or seat-order (in seat order from the first seat). Provisional: "
       "active-first.", refs=("AW-11.5",), gap=True),
    _r("AW-G.25", "Gap: a creature that 'wins a battle'",
       "Creatures' texts say 'when X wins (or loses) a battle'; a battle is won by a side, and "
       "fought in fights between two creatures. House rule creature_battle: fight (X won, or "
       "lost, its own fight, whoever won the battle) or battle (X won its fight and its side "
       "won the battle; X lost its fight and its side lost). Provisional: fight.",
       refs=("AW-4.5", "AW-11.1"), gap=True),
    _r("AW-G.26", "Gap: Musk Ox against two attackers",
       "Musk Ox's text lets it face two attacking creatures but does not say how that fight "
       "goes. House rule musk_ox: each (two fights, one against each attacker; Musk Ox is "
       "discarded if it loses either, and each attacker it beats is discarded) or sum (one "
       "fight against the two attackers' levels added; both attackers are discarded if it "
       "wins). Provisional: each.", refs=("AW-4.3", "AW-4.5"), gap=True),
    _r("AW-G.27", "Gap: when an ability is used",
       "Ringed Seal's ability is used 'once per turn' with no phase named (Caribou's names the "
       "Play Phase). House rule ability_phase: own-turn (any phase of its owner's turn) or "
       "play-phase. Provisional: own-turn.", refs=("AW-3.1", "AW-11.1"), gap=True),
    _r("AW-G.28", "Gap: who plays battle cards first",
       "Battle cards only work during a battle, but neither side is said to play theirs "
       "first. House rule battle_card_order: attacker-first (after the match-ups the "
       "attacker plays theirs, then the defender) or defender-first. Provisional: "
       "attacker-first.", refs=("AW-4.9",), gap=True),
    _r("AW-G.29", "Gap: a creature's draw and discarding to draw",
       "Discarding to draw is not combined with another card draw ability (AW-2.2); Fish "
       "Supper and Herring Trade Deal say they are one. A creature's text that draws (Krill, "
       "Puffin, Arctic Wolf, Polar Bear) does not say. House rule triggered_draw: "
       "not-combined (a creature's draw is no card draw ability in that sense) or combined "
       "(a player who discarded to draw this turn draws nothing from it, and one whose "
       "creature drew for them does not discard to draw). Provisional: not-combined.",
       refs=("AW-2.2",), gap=True),
    _r("AW-G.30", "Gap: a game that goes round in circles",
       "The only way to win is the Final Showdown (AW-9.1), and nothing in the seed ends a game "
       "that stops going anywhere: the same table (every hand, field and gear, the deck in "
       "order and the discard pile) coming back at the start of a player's turn again and "
       "again. House rule repeated_position: draw (the third time, the game ends with no "
       "winner) or play-on. Provisional: draw.", refs=("AW-9.1",), gap=True),
]


#: Where each rule is checked: the rule id, then the modules under deckcli/ that check it
#: (a line that starts with spaces goes on the one above). A test holds it to the code.
CHECKED_IN = checked_in_table("""
AW-1.1   games/alpha_walrus/deck_checks games/alpha_walrus/setup
AW-1.2   games/alpha_walrus/building games/alpha_walrus/deck_checks games/alpha_walrus/setup
AW-1.3   games/alpha_walrus/building games/alpha_walrus/deck_checks games/alpha_walrus/setup
AW-1.4   games/alpha_walrus/setup
AW-1.5   games/alpha_walrus/engine
AW-1.6   games/alpha_walrus/engine_battle games/alpha_walrus/rulings
AW-2.1   games/alpha_walrus/effects games/alpha_walrus/engine_play games/alpha_walrus/rulings
AW-2.2   games/alpha_walrus/engine_play games/alpha_walrus/rulings
AW-2.3   games/alpha_walrus/state
AW-2.4   games/alpha_walrus/state
AW-2.5   games/alpha_walrus/state
AW-3.1   games/alpha_walrus/engine games/alpha_walrus/engine_play
AW-3.2   games/alpha_walrus/deck_checks games/alpha_walrus/engine
AW-3.3   games/alpha_walrus/engine_play
AW-3.4   games/alpha_walrus/engine games/alpha_walrus/engine_battle
AW-4.1   games/alpha_walrus/engine_battle games/alpha_walrus/engine_play
AW-4.2   games/alpha_walrus/engine_battle games/alpha_walrus/rulings
AW-4.3   games/alpha_walrus/battle games/alpha_walrus/engine_battle
AW-4.4   games/alpha_walrus/battle games/alpha_walrus/engine_battle
AW-4.5   games/alpha_walrus/battle
AW-4.6   games/alpha_walrus/battle
AW-4.7   games/alpha_walrus/battle
AW-4.8   games/alpha_walrus/engine_battle
AW-4.9   games/alpha_walrus/engine_battle games/alpha_walrus/engine_play
AW-4.10  games/alpha_walrus/battle
AW-5.1   games/alpha_walrus/engine
AW-5.2   games/alpha_walrus/engine
AW-5.3   games/alpha_walrus/engine games/alpha_walrus/engine_play
AW-6.1   games/alpha_walrus/effects games/alpha_walrus/engine_play
AW-6.2   games/alpha_walrus/effects games/alpha_walrus/engine_play games/alpha_walrus/rulings
AW-7.1   games/alpha_walrus/engine_play games/alpha_walrus/rulings
AW-7.2   games/alpha_walrus/engine_play
AW-8.1   games/alpha_walrus/deck_checks games/alpha_walrus/engine_play
         games/alpha_walrus/engine_showdown games/alpha_walrus/rulings
AW-8.2   games/alpha_walrus/engine_showdown
AW-8.3   games/alpha_walrus/battle games/alpha_walrus/engine_showdown games/alpha_walrus/rulings
AW-8.4   games/alpha_walrus/engine_showdown
AW-8.5   games/alpha_walrus/engine_showdown
AW-9.1   games/alpha_walrus/battle games/alpha_walrus/engine games/alpha_walrus/engine_showdown
AW-9.2   games/alpha_walrus/engine games/alpha_walrus/engine_showdown
AW-9.3   games/alpha_walrus/engine_showdown
AW-9.4   games/alpha_walrus/engine games/alpha_walrus/engine_showdown
AW-10.1  games/alpha_walrus/engine_play games/alpha_walrus/engine_showdown
AW-10.2  games/alpha_walrus/engine_play
AW-10.3  games/alpha_walrus/engine games/alpha_walrus/engine_play
AW-10.4  games/alpha_walrus/engine_battle games/alpha_walrus/engine_play
AW-10.5  games/alpha_walrus/engine_play games/alpha_walrus/rulings
AW-10.6  games/alpha_walrus/battle
AW-10.7  games/alpha_walrus/battle
AW-10.8  games/alpha_walrus/battle
AW-10.9  games/alpha_walrus/battle
AW-11.1  games/alpha_walrus/battle games/alpha_walrus/effects games/alpha_walrus/engine_battle
         games/alpha_walrus/engine_play
AW-11.2  games/alpha_walrus/effects games/alpha_walrus/engine
AW-11.3  games/alpha_walrus/engine_play
AW-11.4  games/alpha_walrus/effects
AW-11.5  games/alpha_walrus/effects games/alpha_walrus/engine_battle
AW-G.1   games/alpha_walrus/gaps
AW-G.2   games/alpha_walrus/battle games/alpha_walrus/gaps
AW-G.3   games/alpha_walrus/gaps
AW-G.4   games/alpha_walrus/battle games/alpha_walrus/gaps
AW-G.5   games/alpha_walrus/gaps
AW-G.6   games/alpha_walrus/gaps
AW-G.7   games/alpha_walrus/engine games/alpha_walrus/gaps
AW-G.8   games/alpha_walrus/gaps
AW-G.9   games/alpha_walrus/gaps
AW-G.10  games/alpha_walrus/engine_battle games/alpha_walrus/gaps
AW-G.11  games/alpha_walrus/engine_play games/alpha_walrus/gaps games/alpha_walrus/rulings
AW-G.12  games/alpha_walrus/gaps
AW-G.13  games/alpha_walrus/engine_showdown games/alpha_walrus/gaps
AW-G.14  games/alpha_walrus/gaps
AW-G.15  games/alpha_walrus/gaps
AW-G.16  games/alpha_walrus/engine_showdown games/alpha_walrus/gaps
AW-G.17  games/alpha_walrus/engine_battle games/alpha_walrus/gaps
AW-G.18  games/alpha_walrus/battle games/alpha_walrus/gaps
AW-G.19  games/alpha_walrus/gaps
AW-G.20  games/alpha_walrus/battle games/alpha_walrus/gaps
AW-G.21  games/alpha_walrus/engine_showdown games/alpha_walrus/gaps
AW-G.22  games/alpha_walrus/engine games/alpha_walrus/gaps
AW-G.23  games/alpha_walrus/gaps
AW-G.24  games/alpha_walrus/gaps
AW-G.25  games/alpha_walrus/gaps
AW-G.26  games/alpha_walrus/gaps
AW-G.27  games/alpha_walrus/engine_play games/alpha_walrus/gaps
AW-G.28  games/alpha_walrus/gaps
AW-G.29  games/alpha_walrus/engine_play games/alpha_walrus/gaps
AW-G.30  games/alpha_walrus/engine games/alpha_walrus/gaps
""")
