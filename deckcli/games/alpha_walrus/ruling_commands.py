"""alpha-walrus's single rulings as ``deckcli referee`` subcommands (see
:mod:`deckcli.games.rulings`): ``battle``, ``discard`` and ``showdown``, answered by
:mod:`.rulings`. Cards are named as ``Name (SET) NUM``, ``SET NUM`` or an unambiguous name; an
unknown or ambiguous card exits 2. Dice come from ``--roll`` values first, then ``--seed``;
without either a seed is picked and reported so the ruling replays."""

from __future__ import annotations

from deckcli.games.alpha_walrus import rulings
from deckcli.games.rulings import Param, Ruling

_HOUSE = "battle_level=printed (gaps AW-G.1 to AW-G.29)"


def _cards(given):
    from deckcli.games.alpha_walrus.cardref import Cards

    return Cards(given.index)


def _battle(given, attackers, defenders, matches, equip, battle_cards, stake, round_no) -> dict:
    return rulings.battle_ruling(_cards(given), list(attackers), list(defenders),
                                 matches=matches, equip=equip, battle_cards=battle_cards,
                                 stake=stake, seed=given.seed, rolls=given.rolls,
                                 house=given.house, round_no=round_no)


def _discard(given, card, used, again) -> dict:
    return rulings.discard_ruling(_cards(given), card, used=used, again=again, house=given.house)


def _showdown(given, opponents, battle_cards, equip, gear) -> dict:
    return rulings.showdown_ruling(_cards(given), opponents, battle_cards=battle_cards,
                                   equip=equip, gear=gear, seed=given.seed, rolls=given.rolls,
                                   house=given.house)


RULINGS = [
    Ruling("battle", """Rule on one battle: ATTACKER creatures against --defender creatures
    (AW-4.x).

    \b
    Example: deckcli --game alpha-walrus referee battle "Walrus (AWC) 22" Krill \\
        --defender "Pacific Walrus" --defender Orca --match 2=2 --stake gear --seed 7
    """, [Param("attackers", kind="card", multiple=True, required=True, metavar="ATTACKER..."),
          Param("defenders", "--defender", kind="card", multiple=True, metavar="CARD",
                help="A defending creature (repeatable, in field order d1, d2, ...)."),
          Param("matches", "--match", multiple=True, metavar="A=X",
                help="The defender's match-up: attacking creature = defending creature, by "
                     "position (1, a1 / 1, d1) or card name (AW-4.3). Repeatable."),
          Param("equip", "--equip", multiple=True, metavar="WHO=CARD",
                help="Equipment a creature wears: a1=Blubber Vest, d2=Glacier Plate."),
          Param("battle_cards", "--battle-card", multiple=True, metavar="WHO=CARD",
                help="A battle card played on a creature: a1=Tusk Charge (AW-4.9)."),
          Param("stake", "--stake", kind="choice", choices=("gear", "hand"), required=True,
                help="What the attacker declared the battle for (AW-4.2)."),
          Param("round_no", "--round", kind="int", low=1,
                help="The round the battle is in (rounds 1-2 have no battles, AW-1.6).")],
           _battle, rulings.render, dice=True, house_example=_HOUSE, hide_game=True),
    Ruling("discard", """Rule on discarding CARD to draw (AW-2.1 to AW-2.5, AW-10.5).

    \b
    Example: deckcli --game alpha-walrus referee discard "AWC 30" --used "Lucky Flipper"
    """, [Param("card", kind="card"),
          Param("used", "--used", kind="card", multiple=True, metavar="CARD",
                help="Another card with a draw effect already used this turn (repeatable)."),
          Param("again", "--again", kind="flag",
                help="This turn's discard-to-draw is already used.")],
           _discard, rulings.render, house_example=_HOUSE, hide_game=True),
    Ruling("showdown", """Rule on a Final Showdown: the Alpha Walrus against each opponent
    (AW-8.x, AW-9.x).

    \b
    Example: deckcli --game alpha-walrus referee showdown --opponent bob=Orca \\
        --opponent carol="Polar Bear" --battle-card carol="Deep Dive" --seed 3
    """, [Param("opponents", "--opponent", multiple=True, required=True,
                metavar="NAME=CREATURE",
                help="An opponent and a creature they send (repeatable; the order is the "
                     "order of the fights)."),
          Param("battle_cards", "--battle-card", multiple=True, metavar="WHO=CARD",
                help="summoner@NAME=CARD (the Summoner, in the fight against NAME) or "
                     "NAME=CARD."),
          Param("equip", "--equip", multiple=True, metavar="WHO=CARD",
                help="Equipment in play: summoner=CARD (illegal, AW-8.3) or NAME=CARD."),
          Param("gear", "--gear", kind="card", multiple=True, metavar="CARD",
                help="A gear piece on the Summoner's field; give all four to check "
                     "eligibility.")],
           _showdown, rulings.render, dice=True, house_example=_HOUSE, hide_game=True),
]
