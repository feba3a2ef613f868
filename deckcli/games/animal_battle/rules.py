"""The animal-battle rules reference, in deckcli's own words.

Numbered as the seed groups its rules (1 objective and deck, 2 statistics, 3 setup, 4 turn,
5 Defense Chain, 6 reminders). ``AB-G.n`` entries are *gaps*: situations the rules leave open.
The referee reports them as ``gap: true`` and applies a house ruling only when one is declared.
"""

from deckcli.games.animal_battle import GAME
from deckcli.games.animal_battle.gaps import GAPS
from deckcli.rule import Rule, checked_in_table

G = GAME.id


def _r(id, title, text, refs=(), gap=False):
    if gap and GAPS[id].provisional:  # the referee reads it too: it never decides legality
        text += (f" Where none is declared, the referee and a simulation read {GAPS[id].key}="
                 f"{GAPS[id].default} (a provisional reading: it decides what players see, "
                 "never which actions are legal).")
    elif gap:  # the reading a simulation falls back on, as the gap table declares it
        text += (f" Where none is declared, a simulation plays {GAPS[id].key}="
                 f"{GAPS[id].default}.")
    return Rule(id, title, text, G, tuple(refs), gap)


RULES = [
    # 1. Objective and what you need
    _r("AB-1.1", "How the game is won",
       "Whenever the rules call for a new Challenger or Defender, the player concerned must "
       "supply an Animal. The player who still can when every opponent no longer can is the "
       "winner; a player who cannot supply a required Animal loses."),
    _r("AB-1.2", "Number of players", "The game needs at least two players."),
    _r("AB-1.3", "Casual deck size",
       "In casual or open play a deck holds at least 20 cards; there is no upper bound."),
    _r("AB-1.4", "Championship deck size",
       "In championship play a deck holds 60 cards, no more and no fewer."),
    _r("AB-1.5", "Copy limit",
       "A deck may include up to four copies of any one card. A card is identified by its common "
       "name together with its collector number.", refs=("AB-1.6",)),
    _r("AB-1.6", "Versions count as one card",
       "Alternate-art, foil, promotional and First Edition versions of a card are the same card "
       "for the copy limit: their copies are added together.", refs=("AB-1.5",)),
    # 2. Battle statistics
    _r("AB-2.1", "Weight", "Weight is a battle statistic; the heavier Animal wins the comparison."),
    _r("AB-2.2", "Speed", "Speed is a battle statistic; the faster Animal wins the comparison."),
    _r("AB-2.3", "Lifespan",
       "Lifespan is a battle statistic; the Animal with the longer lifespan wins the comparison."),
    _r("AB-2.4", "Population",
       "Population is a battle statistic with the reverse sense: the Animal with the smaller "
       "population wins the comparison, so rarer species are stronger here."),
    _r("AB-2.5", "Length", "Length is a battle statistic; the longer Animal wins the comparison."),
    _r("AB-2.6", "Maximum Depth is not a battle statistic",
       "Maximum Depth appears on the card as information about the species only. It can never "
       "be chosen for a comparison."),
    # 3. Setup
    _r("AB-3.1", "Shuffle and opening hand",
       "Each player shuffles a legal deck and draws an opening hand of six cards."),
    _r("AB-3.2", "First player", "Any fair method decides who takes the first turn."),
    _r("AB-3.3", "Starting Challenger",
       "The starting Challenger is revealed before anything else is revealed. A deck whose "
       "opening hand holds no Animal cannot reveal one.", refs=("AB-1.1",)),
    _r("AB-3.4", "Starting Defender",
       "The starting Defender is revealed after the Challenger.", refs=("AB-3.3",)),
    _r("AB-3.5", "Filling the Pool at setup",
       "Each player then places Animals into their Pool, as many as they like up to five."),
    _r("AB-3.6", "The first player's first turn",
       "The first player does not draw on the first turn but still makes an attack.",
       refs=("AB-4.1", "AB-3.3")),
    # 4. Turn sequence
    _r("AB-4.1", "Draw phase",
       "The active player draws one card, except the first player on the game's first turn.",
       refs=("AB-3.6",)),
    _r("AB-4.2", "Pool phase",
       "The active player may put any Animal cards from hand into their Pool, as long as the "
       "Pool never holds more than five."),
    _r("AB-4.3", "Establishing Challenger and Defender",
       "The Challenger is settled first; only then does the opponent choose the Defender."),
    _r("AB-4.4", "Attack",
       "The attacker names one battle statistic not yet used in this attack sequence, and the "
       "two Animals' official printed values for it are compared.",
       refs=("AB-2.1", "AB-2.2", "AB-2.3", "AB-2.4", "AB-2.5", "AB-5.5")),
    _r("AB-4.5", "Resolve",
       "The outcome of the comparison is applied as the challenge and Defense Chain rules say.",
       refs=("AB-5.1",)),
    _r("AB-4.6", "End phase refill",
       "When a turn ends, the player whose turn it was draws up to three cards if they hold "
       "fewer than three. No other player refills."),
    _r("AB-4.7", "No hand size limit", "A hand may hold any number of cards."),
    # 5. Defense Chain
    _r("AB-5.1", "Defeated Defender",
       "When the Challenger beats the active Defender, that Defender goes to the discard pile."),
    _r("AB-5.2", "Promoting a replacement",
       "After losing a Defender, the defending player may promote another Animal that was "
       "already in their Pool to be the new Defender.", refs=("AB-5.4",)),
    _r("AB-5.3", "A new statistic for each link",
       "Every further comparison in the chain uses a statistic that has not yet been used.",
       refs=("AB-5.5",)),
    _r("AB-5.4", "No cards from hand",
       "A card in hand can never join a Defense Chain that is already under way."),
    _r("AB-5.5", "Each statistic once per attack sequence",
       "Within one attack sequence, each of the five battle statistics can be chosen at most "
       "once."),
    _r("AB-5.6", "A replacement Defender wins",
       "If a promoted replacement Defender wins its comparison, the Challenger and that "
       "Defender are both discarded, and the defending player takes control.",
       refs=("AB-6.3",)),
    _r("AB-5.7", "All five statistics used",
       "If the attack sequence is still going after all five statistics were used, the "
       "Challenger is discarded and the Defender that survived becomes the next Challenger.",
       refs=("AB-6.3",)),
    # 6. Reminders
    _r("AB-6.1", "A Challenger stays",
       "An Animal that has become the Challenger cannot be swapped out by choice."),
    _r("AB-6.2", "A Challenger must attack",
       "A player who has an active Challenger has to attack, unless a card effect explicitly "
       "lets them do otherwise.", refs=("AB-6.4",)),
    _r("AB-6.3", "Change of control",
       "Each time control of the Challenger passes to another player, the current attack is "
       "over and a new turn starts."),
    _r("AB-6.4", "Card text beats general rules",
       "Where a card's own text is more specific than a general rule, the card's text applies."),
    _r("AB-6.5", "When an action card is played (deckcli's reading)",
       "The rules give action cards no step of the turn; deckcli reads them so. A card whose "
       "text names a time is played then (\"Play only in your Pool phase\", \"when your "
       "Defender has just been defeated\"). A card whose text names no time (Herd Instinct, "
       "Canopy Lookout, Tidal Migration, Expanded Habitat), or names a moment of the turn "
       "without saying whose turn (\"before the Defender is chosen\"), is played by its "
       "player during their own turn, at any step of it. A played card goes to its player's "
       "discard pile and its text applies at once, in the order it is printed; a choice the "
       "text leaves to its player (which Animal goes back to the hand, in which order cards "
       "go back on the deck) is that player's next action, before any other.",
       refs=("AB-6.4",)),
    # Gaps: the seed does not decide these situations.
    _r("AB-G.1", "Tie on a statistic (gap)",
       "The rules do not say who wins when both Animals have the same value for the chosen "
       "statistic. deckcli reports a gap; a house ruling (stat_tie: challenger, defender or "
       "replay) decides it.", refs=("AB-4.4",), gap=True),
    _r("AB-G.2", "The original Defender wins (gap)",
       "The rules say what happens when a replacement Defender wins, but not when the first "
       "Defender of the sequence beats the Challenger. deckcli reports a gap; a house ruling "
       "(original_defender_wins: discard_challenger or as_replacement) decides it.",
       refs=("AB-5.6",), gap=True),
    _r("AB-G.3", "The defender does not promote (gap)",
       "The rules make promotion optional but do not say what happens to the attack when the "
       "defending player declines or has nobody to promote. deckcli reports a gap; a house ruling "
       "(decline_promote: attack_ends or defender_loses) decides it.", refs=("AB-5.2", "AB-1.1"),
       gap=True),
    _r("AB-G.4", "Who names the next statistic (gap)",
       "The rules say a different statistic is selected for the next link of the chain but not "
       "by whom. deckcli reports a gap; a house ruling (next_stat_chooser: challenger or "
       "defender) decides it.", refs=("AB-5.3",), gap=True),
    _r("AB-G.5", "Choosing an opponent with more than two players (gap)",
       "The rules do not say which opponent defends when more than two play. deckcli reports a "
       "gap; a house ruling (defender_player: next or attacker_choice) decides it.",
       refs=("AB-1.2", "AB-4.3"), gap=True),
    _r("AB-G.6", "Drawing from an empty deck (gap)",
       "The rules do not say what happens when a player must draw and the deck is empty. "
       "deckcli reports a gap; a house ruling (empty_deck_draw: skip or lose) decides it.",
       refs=("AB-4.1", "AB-4.6"), gap=True),
    _r("AB-G.7", "A new Challenger or Defender from the hand (gap)",
       "Outside setup the rules say where a promoted replacement comes from (the Pool) but not "
       "where a new Challenger or a newly selected Defender comes from. deckcli accepts the "
       "Pool and reports a gap when an Animal would come from the hand, or when a player's "
       "only Animals are in the hand; a house ruling (new_animal_from: pool or pool_or_hand) "
       "decides it.", refs=("AB-4.3", "AB-5.4", "AB-1.1"), gap=True),
    _r("AB-G.8", "Swapping an active Defender (gap)",
       "The rules forbid replacing the Challenger by choice but say nothing about an active "
       "Defender that is still in place when a new attack is established. deckcli reports a "
       "gap when the defending player selects another Defender; a house ruling "
       "(replace_defender: allowed or forbidden) decides it.", refs=("AB-4.3", "AB-6.1"),
       gap=True),
    _r("AB-G.9", "A Defender falls on the last statistic (gap)",
       "A fallen Defender may be replaced from the Pool so that the chain goes on with a fresh "
       "statistic, and once all five are spent the Defender left standing takes over as "
       "Challenger. The rules do not say whether a replacement may still be promoted when the "
       "Defender falls on the last unused statistic, when no comparison is left for it, nor "
       "whether such a replacement, never compared, is the Defender left standing. deckcli "
       "reports a gap; a house ruling (last_stat_promote: becomes_challenger or attack_ends) "
       "decides it.",
       refs=("AB-5.2", "AB-5.3", "AB-5.7", "AB-G.3"), gap=True),
    _r("AB-G.10", "Are the Animals in a Pool face down? (gap)",
       "The rules never say whether the Animals in a Pool are open to every player. Scout "
       "Ahead, whose text has an opponent show a player the Animals in their Pool, implies "
       "they are face down. deckcli reports a gap when a card shows a Pool; a house ruling "
       "(pool_visibility: hidden, where a Pool's size is open and its Animals only to their "
       "player and to a card's effect that shows them, or open, where every player sees every "
       "Pool) decides what each player sees.", refs=("AB-3.5", "AB-4.2", "AB-6.4"), gap=True),
]


#: Where each rule is checked: the rule id, then the modules under deckcli/ that check it
#: (a line that starts with spaces goes on the one above). A test holds it to the code.
CHECKED_IN = checked_in_table("""
AB-1.1  games/animal_battle/engine
AB-1.2  games/animal_battle/engine
AB-1.3  games/animal_battle/__init__
AB-1.4  games/animal_battle/__init__
AB-1.5  games/animal_battle/cards games/animal_battle/deck_checks
AB-1.6  games/animal_battle/deck_checks
AB-2.1  games/animal_battle/__init__
AB-2.2  games/animal_battle/__init__
AB-2.3  games/animal_battle/__init__
AB-2.4  games/animal_battle/__init__
AB-2.5  games/animal_battle/__init__
AB-2.6  games/animal_battle/turn
AB-3.1  games/animal_battle/engine games/animal_battle/setup games/animal_battle/turn
AB-3.2  games/animal_battle/engine games/animal_battle/setup
AB-3.3  games/animal_battle/deck_checks games/animal_battle/engine games/animal_battle/setup
        games/animal_battle/turn sheets/stats
AB-3.4  games/animal_battle/engine games/animal_battle/setup games/animal_battle/turn
AB-3.5  games/animal_battle/engine games/animal_battle/setup games/animal_battle/turn
AB-3.6  games/animal_battle/engine games/animal_battle/setup games/animal_battle/turn
AB-4.1  games/animal_battle/cards games/animal_battle/engine games/animal_battle/turn
AB-4.2  games/animal_battle/cards games/animal_battle/turn
AB-4.3  games/animal_battle/engine games/animal_battle/turn
AB-4.4  games/animal_battle/chain games/animal_battle/turn
AB-4.5  games/animal_battle/referee games/animal_battle/turn
AB-4.6  games/animal_battle/engine games/animal_battle/turn
AB-4.7  games/animal_battle/engine
AB-5.1  games/animal_battle/chain
AB-5.2  games/animal_battle/chain games/animal_battle/turn
AB-5.3  games/animal_battle/chain games/animal_battle/referee
AB-5.4  games/animal_battle/cards games/animal_battle/turn
AB-5.5  games/animal_battle/cards games/animal_battle/referee games/animal_battle/turn
AB-5.6  games/animal_battle/chain games/animal_battle/referee
AB-5.7  games/animal_battle/chain games/animal_battle/referee
AB-6.1  games/animal_battle/cards games/animal_battle/turn
AB-6.2  games/animal_battle/cards games/animal_battle/turn
AB-6.3  games/animal_battle/chain
AB-6.4  games/animal_battle/cardtext games/animal_battle/deck_checks games/animal_battle/turn
AB-6.5  games/animal_battle/cardtext games/animal_battle/engine games/animal_battle/turn
AB-G.1  games/animal_battle/chain games/animal_battle/gaps games/animal_battle/referee
AB-G.2  games/animal_battle/chain games/animal_battle/gaps games/animal_battle/referee
AB-G.3  games/animal_battle/chain games/animal_battle/gaps games/animal_battle/turn
AB-G.4  games/animal_battle/gaps games/animal_battle/turn
AB-G.5  games/animal_battle/engine games/animal_battle/gaps games/animal_battle/turn
AB-G.6  games/animal_battle/engine games/animal_battle/gaps
AB-G.7  games/animal_battle/engine games/animal_battle/gaps
AB-G.8  games/animal_battle/gaps games/animal_battle/turn
AB-G.9  games/animal_battle/chain games/animal_battle/gaps
AB-G.10 games/animal_battle/cardtext games/animal_battle/gaps games/animal_battle/view
""")
