"""alpha-walrus rulings: ``deckcli --game alpha-walrus referee battle|discard|showdown``.

Click only: options are parsed here, the rulings come from
:mod:`deckcli.games.alpha_walrus.rulings`. Cards are named as ``Name (SET) NUM``, ``SET NUM`` or
an unambiguous name; an unknown or ambiguous card exits 2. A ruling exits 0; a ruling that finds
the described action illegal exits 1. Dice come from ``--roll`` values first, then ``--seed``;
without either a seed is picked and printed so the ruling replays.
"""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import echo_json, fresh_seed, open_index, ruling_options
from deckcli.games.alpha_walrus import GAME

_common = ruling_options("battle_level=printed (gaps AW-G.1 to AW-G.23)", hide_game=True)


def _dice_options(f):
    f = click.option("--roll", "rolls", multiple=True, type=click.IntRange(1, 6),
                     help="A D6 result, used before the seed (repeatable; attacker's first).")(f)
    return click.option("--seed", type=int, default=None,
                        help="Seed for dice not given by --roll (default: random, printed).")(f)


def _setup(ctx, house_rules, event_path, extra_dbs):
    from deckcli.games.alpha_walrus.cardref import Cards
    from deckcli.games.gamelog import house_rules_from

    house = GAME.house_rules(house_rules_from(house_rules, event_path))
    return Cards(open_index(ctx, extra_dbs)), house


def _seed(seed, rolls):
    """Dice given on the command line need no seed; otherwise one is chosen if none is given."""
    return seed if rolls else fresh_seed(seed)


def _emit(result: dict, output: str) -> int:
    from deckcli.games.alpha_walrus.rulings import render

    if output == "json":
        echo_json(result)
    else:
        click.echo(render(result))
    return EXIT_PROBLEMS if result.get("violations") else EXIT_OK


@click.command("battle")
@click.argument("attackers", nargs=-1, required=True, metavar="ATTACKER...",
                shell_complete=complete.card("alpha-walrus"))
@click.option("--defender", "defenders", multiple=True, metavar="CARD",
              shell_complete=complete.card("alpha-walrus"),
              help="A defending creature (repeatable, in field order d1, d2, ...).")
@click.option("--match", "matches", multiple=True, metavar="A=X",
              help="The defender's match-up: attacking creature = defending creature, by "
                   "position (1, a1 / 1, d1) or card name (AW-4.3). Repeatable.")
@click.option("--equip", multiple=True, metavar="WHO=CARD",
              help="Equipment a creature wears: a1=Blubber Vest, d2=Glacier Plate.")
@click.option("--battle-card", "battle_cards", multiple=True, metavar="WHO=CARD",
              help="A battle card played on a creature: a1=Tusk Charge (AW-4.9).")
@click.option("--stake", type=click.Choice(["gear", "hand"]), required=True,
              help="What the attacker declared the battle for (AW-4.2).")
@click.option("--round", "round_no", type=click.IntRange(1, None), default=None,
              help="The round the battle is in (rounds 1-2 have no battles, AW-1.6).")
@_dice_options
@_common
@click.pass_context
def battle(ctx, attackers, defenders, matches, equip, battle_cards, stake, round_no, seed, rolls,
           output, db_dirs, house_rules, event_path, game):
    """Rule on one battle: ATTACKER creatures against --defender creatures (AW-4.x).

    \b
    Example: deckcli --game alpha-walrus referee battle "Walrus (AWC) 22" Krill \\
        --defender "Pacific Walrus" --defender Orca --match 2=2 --stake gear --seed 7
    """
    from deckcli.games.alpha_walrus.rulings import battle_ruling

    cards, house = _setup(ctx, house_rules, event_path, db_dirs)
    result = battle_ruling(cards, list(attackers), list(defenders), matches=matches, equip=equip,
                           battle_cards=battle_cards, stake=stake, seed=_seed(seed, rolls),
                           rolls=rolls, house=house, round_no=round_no)
    return _emit(result, output)


@click.command("discard")
@click.argument("card", shell_complete=complete.card("alpha-walrus"))
@click.option("--used", multiple=True, metavar="CARD", shell_complete=complete.card("alpha-walrus"),
              help="Another card with a draw effect already used this turn (repeatable).")
@click.option("--again", is_flag=True, help="This turn's discard-to-draw is already used.")
@_common
@click.pass_context
def discard(ctx, card, used, again, output, db_dirs, house_rules, event_path, game):
    """Rule on discarding CARD to draw (AW-2.1 to AW-2.5, AW-10.5).

    \b
    Example: deckcli --game alpha-walrus referee discard "AWC 30" --used "Lucky Flipper"
    """
    from deckcli.games.alpha_walrus.rulings import discard_ruling

    cards, house = _setup(ctx, house_rules, event_path, db_dirs)
    return _emit(discard_ruling(cards, card, used=used, again=again, house=house), output)


@click.command("showdown")
@click.option("--opponent", "opponents", multiple=True, required=True, metavar="NAME=CREATURE",
              help="An opponent and a creature they send (repeatable; the order is the order "
                   "of the fights).")
@click.option("--battle-card", "battle_cards", multiple=True, metavar="WHO=CARD",
              help="summoner@NAME=CARD (the Summoner, in the fight against NAME) or NAME=CARD.")
@click.option("--equip", multiple=True, metavar="WHO=CARD",
              help="Equipment in play: summoner=CARD (illegal, AW-8.3) or NAME=CARD.")
@click.option("--gear", multiple=True, metavar="CARD", shell_complete=complete.card("alpha-walrus"),
              help="A gear piece on the Summoner's field; give all four to check eligibility.")
@_dice_options
@_common
@click.pass_context
def showdown(ctx, opponents, battle_cards, equip, gear, seed, rolls, output, db_dirs,
             house_rules, event_path, game):
    """Rule on a Final Showdown: the Alpha Walrus against each opponent (AW-8.x, AW-9.x).

    \b
    Example: deckcli --game alpha-walrus referee showdown --opponent bob=Orca \\
        --opponent carol="Polar Bear" --battle-card carol="Deep Dive" --seed 3
    """
    from deckcli.games.alpha_walrus.rulings import showdown_ruling

    cards, house = _setup(ctx, house_rules, event_path, db_dirs)
    result = showdown_ruling(cards, opponents, battle_cards=battle_cards, equip=equip, gear=gear,
                             seed=_seed(seed, rolls), rolls=rolls, house=house)
    return _emit(result, output)


COMMANDS = {"battle": battle, "discard": discard, "showdown": showdown}
