"""``deckcli simulate``: play many games between decks and say who wins, with what certainty.

The options are gathered into a :class:`~deckcli.sim.request.SimulateRequest` for
:func:`deckcli.sim.run.simulate`, which does the rest; this module writes what the run tells
on stderr and prints its result."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, complete
from deckcli.cli.common import (
    FILE,
    FOLDER,
    GAMES,
    PATH,
    Number,
    db_option,
    echo_json,
    excluded,
    fresh_seed,
    house_rule_option,
    not_stdout,
    output_option,
    pick_game,
    play_options,
)
from deckcli.cli.common import (
    db_dirs as db_folders,
)
from deckcli.cli.listener import Stderr
from deckcli.games.base import MAX_PLAYERS


@click.command()
@click.argument("decks", nargs=-1, required=True, metavar="DECK...", type=PATH,
                shell_complete=complete.path)
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True,
              help="Games to play (for each pairing); with --until-ci, at most this many.")
@click.option("--seed", type=int, default=None,
              help="Seed of the run: the same seed gives the same report (default: random, "
                   "printed in the report).")
@click.option("--policy", default=None,
              help="How every player chooses: random, greedy, expert, or search[:N] "
                   "(default: expert, the strongest heuristic).")
@click.option("--policy-a", default=None, help="Deck A's (or seat p1's) policy.")
@click.option("--policy-b", default=None, help="Deck B's (or seat p2's) policy.")
@house_rule_option()
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="Take house rules, the game and the format from this event file; a "
                   "deck it makes illegal (a ban, a set, the size) is played with a warning.")
@click.option("--sensitivity", is_flag=True,
              help="Also play the same games under each other value of every gap met in more "
                   "than a tenth of them, and say how the result moves.")
@click.option("--until-ci", type=Number(0.0, 1.0, min_open=True), default=None,
              metavar="WIDTH", help="Stop once the 95% interval is at most WIDTH wide "
                                    "(looked at every 100 games; at most --games).")
@click.option("--save-games", "save_dir", default=None, metavar="DIR", type=FOLDER,
              shell_complete=complete.folder, callback=not_stdout("name a folder"),
              help="Write each game as a game log DIR/game-00001.yaml, ... (two decks).")
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
              help="alpha-walrus: seats sharing the deck (default 2).")
@play_options
@click.option("--csv", "csv_path", default=None, metavar="FILE", type=FILE,
              callback=not_stdout("name a file"),
              help="More than two decks: write the matchup matrix as CSV.")
@click.option("--html", "html_path", default=None, metavar="FILE", type=FILE,
              callback=not_stdout("name a file"),
              help="More than two decks: write the matchup matrix as an HTML heatmap.")
@click.option("--game", type=click.Choice(GAMES), default=None, help="Which game's rules apply.")
@output_option()
@db_option
@click.pass_context
def simulate(ctx, decks, games, seed, policy, policy_a, policy_b, house_rules, event_path,
             sensitivity, max_turns, until_ci, save_dir, players, jobs, scheduler, csv_path,
             html_path, game, output, db_dirs):
    """Play games between decks with the referee's own engine and report who wins.

    \b
    Two decks: A against B, in seat-swapped pairs from the same shuffles.
    More decks (or a folder): every pairing, a matchup matrix (--csv, --html).
    alpha-walrus: one shared deck for --players seats, wins by seat.

    \b
    Example: deckcli simulate examples/good/casual-savanna.yaml \\
        examples/good/casual-rainforest.json --games 100 --seed 1
    """
    from deckcli.errors import ArgumentsError
    from deckcli.sim.request import SimulateRequest
    from deckcli.sim.run import simulate as run

    request = SimulateRequest(
        decks=tuple(decks), seed=fresh_seed(seed), games=games, policy=policy,
        policy_a=policy_a, policy_b=policy_b, house_rules=tuple(house_rules),
        event_path=event_path, sensitivity=sensitivity, max_turns=max_turns, until_ci=until_ci,
        save_dir=save_dir, players=players, jobs=jobs, scheduler=scheduler, csv_path=csv_path,
        html_path=html_path, game=pick_game(ctx, game), db_dirs=tuple(db_folders(ctx, db_dirs)),
        exclude=excluded())
    try:
        result = run(request, Stderr("simulate"))
    except ArgumentsError as exc:  # said as click's own usage errors, with where --help is
        raise click.UsageError(exc.message, ctx) from None
    if output == "json":
        echo_json(result.report)
    else:
        click.echo(result.text())
    return EXIT_OK
