"""``deckcli referee battle`` and ``referee attack``: animal-battle rulings (click only).

The rulings themselves live in :mod:`deckcli.games.animal_battle.referee`; ``check`` and
``legal`` are generic and live in :mod:`deckcli.cli.referee_cmd`.
"""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import echo_json, open_index, ruling_options
from deckcli.games.animal_battle import GAME


@click.command("battle")
@click.argument("challenger", shell_complete=complete.card("animal-battle"))
@click.argument("defender", shell_complete=complete.card("animal-battle"))
@click.option("--stat", required=True, metavar="STAT",
              help="weight, speed, lifespan, population or length (never max_depth).")
@ruling_options()
@click.pass_context
def battle_cmd(ctx, challenger, defender, stat, house_rules, event_path, output, game, db_dirs):
    """Rule on one comparison: CHALLENGER against DEFENDER on one statistic.

    Cards are given as a name, 'Name (SET) NUM' or 'SET NUM'. A tie is a gap (AB-G.1): the
    winner then comes only from a house rule (stat_tie=challenger|defender|replay).

    \b
    Example: deckcli referee battle Walrus Orca --stat weight
    """
    from deckcli.games.animal_battle import referee
    from deckcli.games.gamelog import house_rules_from

    referee.battle_stat(stat)  # an unknown statistic fails before any card look-up
    rules = GAME.house_rules(house_rules_from(house_rules, event_path))
    index = open_index(ctx, db_dirs)
    result = referee.battle(referee.card_ref(index, challenger),
                            referee.card_ref(index, defender), stat, rules)
    if output == "json":
        echo_json(result)
    else:
        click.echo(referee.render_battle(result))
    return EXIT_OK


@click.command("attack")
@click.option("--challenger", required=True, metavar="CARD", help="The attacking Challenger.",
              shell_complete=complete.card("animal-battle"))
@click.option("--defender", required=True, metavar="CARD", help="The active Defender.",
              shell_complete=complete.card("animal-battle"))
@click.option("--pool", "pool", multiple=True, metavar="CARD",
              shell_complete=complete.card("animal-battle"),
              help="An Animal in the defending player's Pool, promoted in the order given "
                   "(repeatable; at most five, AB-4.2, or as many as a card's text allows, "
                   "AB-6.4).")
@click.option("--stats", required=True, metavar="STAT,STAT,...",
              help="The statistics named, in order, e.g. speed,weight.")
@ruling_options()
@click.pass_context
def attack_cmd(ctx, challenger, defender, pool, stats, house_rules, event_path, output, game,
               db_dirs):
    """Resolve a whole attack sequence step by step, with the rule for each step.

    Exit 1 when a step is illegal (a statistic named twice, AB-5.5).

    \b
    Example: deckcli referee attack --challenger Walrus --defender Orca --pool Narwhal \\
        --stats weight,speed
    """
    from deckcli.games.animal_battle import referee
    from deckcli.games.gamelog import house_rules_from

    names = [s for s in (x.strip() for x in stats.split(",")) if s]
    for s in names:
        referee.battle_stat(s)
    rules = GAME.house_rules(house_rules_from(house_rules, event_path))
    index = open_index(ctx, db_dirs)
    referee.check_pool(index, len(pool))  # AB-4.2, or the largest Pool card text allows
    result = referee.attack(referee.card_ref(index, challenger), referee.card_ref(index, defender),
                            [referee.card_ref(index, p) for p in pool], names, rules)
    if output == "json":
        echo_json(result)
    else:
        click.echo(referee.render_attack(result))
    return EXIT_PROBLEMS if result["violations"] else EXIT_OK


COMMANDS = {"battle": battle_cmd, "attack": attack_cmd}
