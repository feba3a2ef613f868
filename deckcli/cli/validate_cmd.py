"""``deckcli validate PATH... [--game] [--format] [--players] [--event] [--output] [--jobs]``."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    FORMATS,
    PATH,
    collect_decks,
    db_option,
    echo_status,
    echo_warning,
    game_option,
    jobs_option,
    open_index,
    output_file_option,
    pick_game,
    resolve_event,
)
from deckcli.cli.configured import config_of, from_config
from deckcli.games.base import MAX_PLAYERS
from deckcli.reporters import REPORTERS

OUTPUTS = list(REPORTERS)


@click.command()
@click.argument("paths", nargs=-1, type=PATH, shell_complete=complete.path)
@game_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="animal-battle format (default: the event's, else the deck's header, else "
                   "casual).")
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
              help="alpha-walrus: players at the table (default 2).")
@click.option("--event", "event_path", type=FILE, default=None, metavar="EVENT.yaml",
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
@click.option("--quiet", "-q", is_flag=True,
              help="Text report: the illegal decks and their problems only, then the total.")
@click.option("--statistics", is_flag=True,
              help="After the report, count the problems by rule (on stderr beside a json, "
                   "junit or sarif report on stdout).")
@db_option
@click.pass_context
def validate(ctx, paths, game, fmt, players, event_path, as_of, output, out, jobs, quiet,
             statistics, db_dirs):
    """Check decklists (files or folders) against the game's deck rules.

    Exit 0 when every deck is legal, 1 when any deck is illegal or unreadable, 2 when the
    command cannot run (missing path, bad event file or card database).

    \b
    Example: deckcli validate examples/good examples/bad --quiet --statistics  # exit 1
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
        elif event.players and not from_config(ctx, "event_path"):  # the decks named are
            # checked, not the roster: say so, since a missing player's deck would then go
            # unreported (not for the configuration's event: a hook names decks every time)
            from deckcli.diagnostics import command_text, visible_name

            shown = visible_name(event.path)
            run_it = command_text("deckcli", "validate", "--event", shown)
            echo_status(f"deckcli: note: {shown} has a roster of {len(event.players)} "
                        "player(s), not checked when deck paths are given (run "
                        f"{run_it} to check every listed player's deck)")
    targets = []
    if paths:
        named = _standing_for_decks(ctx, paths, event)
        targets = collect_decks(named)
        if named is not paths:  # a walk and a name may both have found a deck
            targets = _unique(targets)
    if out:  # the report never replaces a deck it reports on, nor the event file
        from deckcli.files.write import check_not_input
        from deckcli.roster import unlisted_paths

        read = [*targets, *(p for _, p in (roster or []))]
        if roster is not None:  # the unlisted decks beside the roster's are checked too
            read += unlisted_paths(event)
        check_not_input(out, [*read, event_path], "a deck or event file")
    if paths and not targets and roster is None:  # every file named is an event file, say
        # (a pre-commit hook hands over every changed YAML file: that is a pass), and the
        # report is still written, with no deck in it, for a script that reads it
        click.echo("deckcli: note: no decklists among the files given; nothing to check",
                   err=True)

    if quiet and output != "text" and not out:  # no text report to make quiet (DL-5.3)
        echo_warning(f"--quiet changes nothing with --output {output} (it leaves out the "
                     "legal decks of a text report)", rule="DL-5.3")
    from deckcli.batch import run_validation

    observers = []
    counts = summary = None
    if statistics:
        from deckcli.reporters.summary import RuleCounts

        counts = RuleCounts()
        observers.append(counts)
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if output == "github" and os.environ.get("GITHUB_ACTIONS") == "true" and summary_path:
        from deckcli.reporters.summary import StepSummary

        summary = StepSummary()
        observers.append(summary)
    legal = run_validation(targets, index, options, output=output, output_file=out,
                           jobs=jobs, roster=roster, event=event, quiet=quiet,
                           observers=observers)
    if counts is not None:  # where the text goes: stdout, unless it holds a json, junit or
        # sarif report
        click.echo(counts.render(), err=output not in ("text", "github") and not out)
    if summary is not None:
        _append_summary(summary_path, summary.render())
    return EXIT_OK if legal else EXIT_PROBLEMS


def _standing_for_decks(ctx, paths, event) -> list[str]:
    """``paths``, where the event file in force or the configuration file among them stands
    for every deck: the configuration file's folder (without one, the event file's) is walked
    in its place. A pre-commit hook passes the files that changed: when the event changes (a
    new ban), every deck is checked again against it."""
    import os

    from deckcli.validate import Whole

    found = config_of(ctx)
    own = [f for f in (event.path if event is not None else None,
                       found.path if found is not None else None) if f]
    stands = [p for p in paths if p != "-" and any(_same_file(p, f) for f in own)]
    if not stands:
        return paths
    folder = found.folder if found is not None else os.path.dirname(event.path) or "."
    return [Whole(folder), *(p for p in paths if p not in stands)]


def _same_file(a: str, b: str) -> bool:
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _unique(paths: list[str]) -> list[str]:
    """Each deck once, where a walk and a name both found it (``./decks/a.txt`` is
    ``decks/a.txt``)."""
    import os

    seen, out = set(), []
    for path in paths:
        key = os.path.normcase(os.path.abspath(path)) if path != "-" else path
        if key not in seen:
            seen.add(key)
            out.append(path)
    return out
def _append_summary(path: str, text: str) -> None:
    """Append the job summary to ``$GITHUB_STEP_SUMMARY``, as GitHub expects (each step adds
    to the file); a file that cannot be written is a warning: the verdicts stand."""
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        from deckcli.diagnostics import visible_name

        echo_status(f"deckcli: warning: could not write the job summary to "
                    f"{visible_name(path)}: {exc.strerror or exc}")
