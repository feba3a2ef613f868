"""Situations the animal-battle rules leave open (``AB-G.n``): one table of gaps.

Rules as data: each gap names the house-rule key that decides it, the values that key may take
(each with the ruling it stands for) and the value a simulation uses when none is declared.
The referee never picks a value itself: without a declared house ruling a game stops and a
judge must rule (:class:`~deckcli.games.house.JudgeNeeded`); a simulation, which has to go on,
uses ``default`` and says so in its report. A *provisional* gap (AB-G.10) never changes which
actions are legal, only what a player may see: the referee goes on with its default and says so.
"""

from __future__ import annotations

from deckcli.games.house import Gap

GAPS = {g.rule: g for g in (
    Gap("AB-G.1", "stat_tie", "who wins when both Animals have the same value", {
        "challenger": "the Challenger wins the comparison",
        "defender": "the Defender wins the comparison",
        "replay": "the comparison is void; the statistic stays used and another unused "
                  "statistic is chosen for the same two Animals"}, "defender"),
    Gap("AB-G.2", "original_defender_wins", "what happens when the first Defender of the "
        "attack sequence beats the Challenger", {
        "discard_challenger": "the Challenger is discarded and the attack ends; the Defender "
                              "stays; control does not change",
        "as_replacement": "as when a replacement Defender wins (AB-5.6): both are discarded and "
                          "the defending player takes control"}, "discard_challenger"),
    Gap("AB-G.3", "decline_promote", "what happens when the defending player declines to "
        "promote, or has no Animal to promote", {
        "attack_ends": "the attack ends; the Challenger stays; the defending player has no "
                       "active Defender",
        "defender_loses": "the defending player cannot provide a Defender and loses (AB-1.1)"},
        "attack_ends"),
    Gap("AB-G.4", "next_stat_chooser", "who names the statistic for the next link of the "
        "Defense Chain", {
        "challenger": "the player who controls the Challenger names it",
        "defender": "the defending player names it"}, "challenger"),
    Gap("AB-G.5", "defender_player", "which opponent defends when more than two play", {
        "next": "the next player in seat order who is still in the game",
        "attacker_choice": "the attacking player names the opponent (action 'target')"},
        "next"),
    Gap("AB-G.6", "empty_deck_draw", "what happens when a player must draw from an empty deck", {
        "skip": "the draw is skipped (a refill stops when the deck runs out)",
        "lose": "the player loses the game"}, "skip"),
    Gap("AB-G.7", "new_animal_from", "whether a new Challenger or Defender may come straight "
        "from the hand outside setup (the rules name the Pool for promotions only)", {
        "pool": "only from the Pool; a player with no Animal in the Pool cannot provide one",
        "pool_or_hand": "from the Pool or from the hand"}, "pool"),
    Gap("AB-G.8", "replace_defender", "whether the defending player may swap an active "
        "Defender for another Animal before the attack (AB-6.1 fixes only the Challenger)", {
        "allowed": "the active Defender goes back to the Pool and the new one comes from the "
                   "Pool",
        "forbidden": "the active Defender stays"}, "forbidden"),
    Gap("AB-G.9", "last_stat_promote", "whether the defending player may still promote when "
        "their Defender falls on the last unused statistic, and whether that replacement, which "
        "has met no comparison, is the surviving Defender that AB-5.7 makes the next "
        "Challenger", {
        "becomes_challenger": "the defending player may promote; the replacement counts as the "
                              "surviving Defender: the Challenger is discarded and the "
                              "replacement becomes the defending player's Challenger (AB-5.7)",
        "attack_ends": "no promotion, since no statistic is left to compare on: the attack "
                       "ends; the Challenger stays; the defending player has no active "
                       "Defender"}, "becomes_challenger"),
    Gap("AB-G.10", "pool_visibility", "whether the Animals in a Pool are open to every "
        "player or face down (Scout Ahead's text, which has an opponent show them, implies "
        "face down)", {
        "hidden": "a Pool's size is open, its Animals are not: only their player sees them, "
                  "and another player only when a card's effect shows them (Scout Ahead)",
        "open": "every player sees every Pool; a card that shows a Pool shows nothing new"},
        "hidden", provisional=True),
)}

#: house-rule key -> gap (the game interface's gap table)
BY_KEY = {g.key: g for g in GAPS.values()}
