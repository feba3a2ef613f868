"""animal-battle's single rulings as ``deckcli referee`` subcommands (see
:mod:`deckcli.games.rulings`): ``battle`` (one comparison) and ``attack`` (a whole attack
sequence), both answered by :mod:`.referee`."""

from __future__ import annotations

from deckcli.games.animal_battle import referee
from deckcli.games.rulings import Param, Ruling


def _battle(given, challenger: str, defender: str, stat: str) -> dict:
    referee.battle_stat(stat)  # an unknown statistic fails before any card look-up
    index = given.index
    return referee.battle(referee.card_ref(index, challenger), referee.card_ref(index, defender),
                          stat, given.house)


def _attack(given, challenger: str, defender: str, pool: tuple[str, ...], stats: str) -> dict:
    names = [s for s in (x.strip() for x in stats.split(",")) if s]
    for s in names:
        referee.battle_stat(s)
    index = given.index
    referee.check_pool(index, len(pool))  # AB-4.2, or the largest Pool card text allows
    return referee.attack(referee.card_ref(index, challenger), referee.card_ref(index, defender),
                          [referee.card_ref(index, p) for p in pool], names, given.house)


RULINGS = [
    Ruling("battle", """Rule on one comparison: CHALLENGER against DEFENDER on one statistic.

    Cards are given as a name, 'Name (SET) NUM' or 'SET NUM'. A tie is a gap (AB-G.1): the
    winner then comes only from a house rule (stat_tie=challenger|defender|replay).

    \b
    Example: deckcli referee battle Walrus Orca --stat weight
    """, [Param("challenger", kind="card"), Param("defender", kind="card"),
          Param("stat", "--stat", required=True, metavar="STAT",
                help="weight, speed, lifespan, population or length (never max_depth).")],
           _battle, referee.render_battle, exits_on_violations=False),
    Ruling("attack", """Resolve a whole attack sequence step by step, with the rule for each step.

    Exit 1 when a step is illegal (a statistic named twice, AB-5.5).

    \b
    Example: deckcli referee attack --challenger Walrus --defender Orca --pool Narwhal \\
        --stats weight,speed
    """, [Param("challenger", "--challenger", kind="card", required=True, metavar="CARD",
                help="The attacking Challenger."),
          Param("defender", "--defender", kind="card", required=True, metavar="CARD",
                help="The active Defender."),
          Param("pool", "--pool", kind="card", multiple=True, metavar="CARD",
                help="An Animal in the defending player's Pool, promoted in the order given "
                     "(repeatable; at most five, AB-4.2, or as many as a card's text allows, "
                     "AB-6.4)."),
          Param("stats", "--stats", required=True, metavar="STAT,STAT,...",
                help="The statistics named, in order, e.g. speed,weight.")],
           _attack, referee.render_attack),
]
