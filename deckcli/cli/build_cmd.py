"""``deckcli build`` and ``deckcli suggest``: the strongest legal deck from a player's binder.

The options are gathered into a :class:`~deckcli.build.request.BuildRequest` for
:func:`deckcli.build.run.build` (or ``suggest``), which does the rest; this module writes
what the run tells on stderr and prints its result."""

from __future__ import annotations

import sys

import click

from deckcli.build.request import BuildRequest
from deckcli.cli import EXIT_OK, EXIT_PROBLEMS
from deckcli.cli.common import (
    FILE,
    FORMATS,
    GAMES,
    PATH,
    STDOUT,
    Number,
    db_option,
    echo_json,
    echo_status,
    excluded,
    fresh_seed,
    house_rule_option,
    output_file_option,
    output_option,
    pick_game,
    play_options,
)
from deckcli.cli.common import (
    db_dirs as db_folders,
)
from deckcli.cli.listener import Stderr
from deckcli.games.base import MAX_PLAYERS

#: alpha-walrus: the table a shared deck is built or suggested for
_players = click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
                        help="alpha-walrus: the table the shared deck is for (default 2).")


def _common(f):
    f = db_option(f)
    f = output_option()(f)
    f = click.option("--game", type=click.Choice(GAMES), default=None,
                     help="Which game's rules apply (default: the collection's, else "
                          "animal-battle).")(f)
    f = play_options(f)
    f = click.option("--policy", default=None,
                     help="How both sides play the judging games: random, greedy, expert, "
                          "search[:N] (default: expert, the strongest heuristic).")(f)
    f = click.option("--measure", type=click.IntRange(2, 100_000), default=None,
                     help="Fresh games against each opponent for the numbers reported "
                          "(default: 200; alpha-walrus 100).")(f)
    f = click.option("--budget", type=Number(0, None, min_open=True), default=None,
                     metavar="SECONDS", help="Stop the search after this long (the result then "
                                             "depends on the machine's speed).")(f)
    f = click.option("--seed", type=int, default=None,
                     help="Seed: the same seed builds the same deck (default: random, shown).")(f)
    f = click.option("--games", type=click.IntRange(20, 10_000_000), default=None,
                     help="Games the search may play in all (default: 3000; alpha-walrus, "
                          "whose games are long, 400).")(f)
    f = house_rule_option()(f)
    f = click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
                     help="The event's bans, legal sets, limits and house rules apply.")(f)
    f = click.option("--against", "against", multiple=True, metavar="DECK|DIR", type=PATH,
                     help="A deck (or folder) to be judged against (repeatable; default: the "
                          "gauntlet).")(f)
    return click.option("--collection", required=True, metavar="FILE", type=FILE,
                        help="The cards owned: a decklist whose counts are the copies.")(f)


def _request(ctx, o: dict, **more) -> BuildRequest:
    """The options, as the library's request (the configuration's card folders and
    ``exclude`` included)."""
    return BuildRequest(
        collection=o["collection"], seed=fresh_seed(o["seed"]), players=o["players"],
        policy=o["policy"], games=o["games"], measure=o["measure"], budget=o["budget"],
        house_rules=tuple(o["house_rules"]), event_path=o["event_path"],
        against=tuple(o["against"]), game=pick_game(ctx, o["game"]), max_turns=o["max_turns"],
        jobs=o["jobs"], scheduler=o["scheduler"], db_dirs=tuple(db_folders(ctx, o["db_dirs"])),
        exclude=excluded(), **more)


def _library(ctx, call, request: BuildRequest, command: str):
    """Run the library's ``call``; inputs that do not fit together are said as click's own
    usage errors, with where --help is."""
    from deckcli.errors import ArgumentsError

    try:
        return call(request, Stderr(command))
    except ArgumentsError as exc:
        raise click.UsageError(exc.message, ctx) from None


@click.command()
@click.option("--format", "format", type=click.Choice(FORMATS), default=None,
              help="The format the deck must be legal in (default: the event's, else casual).")
@_players
@output_file_option(metavar="OUT", formats=("text", "json"), dash=True,
                    help="Write the deck here, as fmt writes it (a text decklist; YAML or "
                         "JSON for OUT.yaml or OUT.json) instead of printing it; '-': the deck "
                         "alone on stdout, the report on stderr (as without -o when stdout is "
                         "a pipe or a file).")
@click.option("--sensitivity", is_flag=True,
              help="Also measure the built deck under each other value of every gap met in "
                   "more than a tenth of its fresh games, and say how its numbers move.")
@click.option("--diverse", type=click.IntRange(1, 10), default=None, metavar="K",
              help="Build K decks that play differently: the best deck the search kept of "
                   "each style (for animal-battle: how many action cards, the statistic the "
                   "Animals lean on); the first is the deck written, the report lists all K.")
@_common
@click.pass_context
def build(ctx, **o):
    """Build the strongest legal deck the collection can make, judged by simulated games.

    On a terminal it prints its report and the deck; into a pipe or a file ('> deck.txt')
    the deck alone goes to stdout and the report to stderr (--output json: the JSON on
    stdout, always). Exit 0 when a deck was built, 1 when the collection cannot make a
    legal deck for the format (the message says what is missing), 2 when an input cannot be
    read.

    \b
    Example: deckcli build --collection examples/collections/binder.txt --games 100 \\
        --measure 20 --seed 3
    """
    from deckcli.build.run import build as run

    if o["out"] == STDOUT and o["output"] == "json":
        raise click.UsageError("-o - puts the deck on stdout, where --output json puts the "
                               "report (which lists the cards): give one of them")
    to_file = o["out"] not in (None, STDOUT)
    request = _request(ctx, o, format=o["format"], sensitivity=o["sensitivity"],
                       diverse=o["diverse"], out=o["out"] if to_file else None)
    built = _library(ctx, run, request, "build")
    if built.missing:
        echo_status(f"deckcli: {built.missing}")
        return EXIT_PROBLEMS
    # the deck alone on stdout, as a file would hold it: with -o -, and without -o when
    # stdout is a pipe or a file ('build ... > deck.txt'); a terminal gets the report with it
    alone = o["out"] == STDOUT or (o["out"] is None and o["output"] != "json"
                                   and not _terminal(sys.stdout))
    if alone:
        click.echo(built.deck, nl=False)
    if o["output"] == "json":
        echo_json(built.report)
    else:  # with the deck alone on stdout, the report goes where status goes
        click.echo(built.text(with_deck=not (o["out"] or alone)), err=alone)
    return EXIT_OK


def _terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed, or no file at all
        return False


@click.command()
@click.argument("deck", type=FILE)
@_players
@_common
@click.pass_context
def suggest(ctx, deck, **o):
    """The few single-card swaps from the collection that improve DECK most, each with its
    simulated gain and 95% interval; a swap the intervals cannot tell from no change is not
    presented as an improvement.

    \b
    Example: deckcli suggest examples/good/casual-savanna.yaml \\
        --collection examples/collections/binder.txt --games 100 --measure 20 --seed 1
    """
    from deckcli.build.run import suggest as run

    found = _library(ctx, run, _request(ctx, o, deck=deck), "suggest")
    if o["output"] == "json":
        echo_json(found.report)
    else:
        click.echo(found.text())
    return EXIT_OK
