"""``deckcli validate PATH... [--game] [--format] [--players] [--event] [--output] [--jobs]``."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    collect_decks,
    db_option,
    echo_status,
    game_option,
    jobs_option,
    open_index,
    output_file_option,
    pick_game,
    resolve_event,
)
from deckcli.games.base import MAX_PLAYERS

OUTPUTS = ["text", "json", "github", "junit", "sarif"]


@click.command()
@click.argument("paths", nargs=-1, type=str, shell_complete=complete.path)
@game_option
@click.option("--format", "fmt", type=click.Choice(["casual", "championship"]), default=None,
              help="animal-battle format (default: the event's, else the deck's header, else "
                   "casual).")
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
              help="alpha-walrus: players at the table (default 2).")
@click.option("--event", "event_path", type=str, default=None, metavar="EVENT.yaml",
              shell_complete=complete.path,
              help="Event file: game, format, bans, legal sets, roster.")
@click.option("--as-of", "as_of", default=None, metavar="DATE",
              help="Date that decides which dated bans apply (default: the event's date).")
@click.option("--output", "-O", "output", type=click.Choice(OUTPUTS), default=None,
              help="Report format (default text; github when GITHUB_ACTIONS=true).")
@output_file_option(help="Write the report there; a text summary still goes to stdout.",
                    formats=OUTPUTS)
@jobs_option(help="Processes checking decks: auto (one per CPU for a run of many decks, "
                 "else one), 1, or 0 for one per CPU.")
@db_option
@click.pass_context
def validate(ctx, paths, game, fmt, players, event_path, as_of, output, out, jobs, db_dirs):
    """Check decklists (files or folders) against the game's deck rules.

    Exit 0 when every deck is legal, 1 when any deck is illegal or unreadable, 2 when the
    command cannot run (missing path, bad event file or card database).
    """
    import os

    from deckcli.validate import Options

    if output is None:
        output = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    event = None
    roster = None
    if event_path:
        from deckcli.events.model import load_event

        event = load_event(event_path, as_of=as_of)
    elif as_of:
        raise click.UsageError("--as-of needs --event")
    if not paths and event is None:
        raise click.UsageError("give at least one deck file or folder, or --event with a roster")
    if not paths:
        event.need_roster()  # else nothing would be checked, and the run would pass
    options = Options(game=pick_game(ctx, game), format=fmt, players=players, event=event)
    index = open_index(ctx, db_dirs)
    if event is not None:
        resolve_event(event, index)
        if not paths:
            roster = event.roster_paths()
        elif event.players:  # the decks named are checked, not the roster: say so, since a
            # missing player's deck would then go unreported
            from deckcli.diagnostics import command_text, visible_name

            shown = visible_name(event.path)
            run_it = command_text("deckcli", "validate", "--event", shown)
            echo_status(f"deckcli: note: {shown} has a roster of {len(event.players)} "
                        "player(s), not checked when deck paths are given (run "
                        f"{run_it} to check every listed player's deck)")
    targets = collect_decks(paths) if paths else []
    if out:  # the report never replaces a deck it reports on, nor the event file
        from deckcli.decks.writer import check_not_input

        read = [*targets, *(p for _, p in (roster or []))]
        if roster is not None:  # the unlisted decks beside the roster's are checked too
            read += event.unlisted_paths()
        check_not_input(out, [*read, event_path], "a deck or event file")
    if paths and not targets and roster is None:  # every file named is an event file, say
        # (a pre-commit hook hands over every changed YAML file: that is a pass), and the
        # report is still written, with no deck in it, for a script that reads it
        click.echo("deckcli: note: no decklists among the files given; nothing to check",
                   err=True)

    from deckcli.batch import run_validation

    legal = run_validation(targets, index, options, output=output, output_file=out,
                           jobs=jobs, roster=roster, event=event)
    return EXIT_OK if legal else EXIT_PROBLEMS
