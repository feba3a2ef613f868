"""Options and helpers shared by subcommands."""

from __future__ import annotations

import sys

import click

from deckcli.cli import complete
from deckcli.cli.types import ADDRESS, FILE, FOLDER, PATH, Named  # noqa: F401 (the commands' import)
from deckcli.games import GAMES as _GAMES
from deckcli.games import ids as _game_ids

#: the games, for --game choices (from the registry: deckcli.games)
GAMES = _game_ids()
#: every registered game's formats, for ``--format`` (a format another game has is refused
#: by the game that applies)
FORMATS = list(dict.fromkeys(f for g in _GAMES.values() for f in g.formats))


def game_option(f):
    return click.option("--game", type=click.Choice(GAMES), default=None,
                        help="Which game's rules apply.")(f)


def db_option(f):
    return click.option("--db", "db_dirs", multiple=True, metavar="DIR", type=FOLDER,
                        shell_complete=complete.folder,
                        help="Extra card database folder (repeatable).")(f)


def output_option(choices=("text", "json"), default="text"):
    def deco(f):
        return click.option("--output", "-O", "output", type=click.Choice(list(choices)),
                            default=default, show_default=True, help="Output format.")(f)
    return deco


#: what -o/--output-file names for stdout, in every command (``-o ./-`` is a file named '-')
STDOUT = "-"


def output_file_option(*, metavar: str = "FILE", help: str, formats=(),
                       picker: str = "--output", extra_names=(), dash: bool = False):
    """-o/--output-file FILE: the same short option for a file to write in every command.

    ``-o -`` is stdout, in every command, and so is leaving the option out: no command
    requires it. Where writing to stdout is what the command does without the option (a
    report, a conversion) it gets None for ``-o -``, as without it; with ``dash`` it gets
    :data:`STDOUT` to handle (build, whose deck alone then goes there).
    A value that is one of the command's format names (``validate -o json``) is refused with
    a hint, rather than writing a file called 'json': the user meant ``picker``."""
    names = {f.lower() for f in formats}

    def check(ctx, param, value):
        if value == STDOUT:
            return value if dash else None
        if value and value.lower() in names:
            raise click.BadParameter(
                f"{value!r} is a format, not a file: {picker} {value} picks the format, and "
                f"-o/--output-file names the file to write (-o ./{value} for a file of that "
                "name)", ctx=ctx, param=param)
        return value

    return click.option("-o", "--output-file", *extra_names, "out", metavar=metavar, type=FILE,
                        default=None, callback=check, help=help,
                        shell_complete=complete.path)


def not_stdout(what: str):
    """The callback of an option naming a file (or folder) written beside the report that
    goes to stdout (simulate's --csv, --html and --save-games): '-' there would be stdout
    too, so it is a usage error naming the option, never a file named '-' made silently."""
    def check(ctx, param, value):
        if value == STDOUT:
            raise click.BadParameter(
                f"'-' would be stdout, which holds the command's report; {what} (./- for one "
                "named '-')", ctx=ctx, param=param)
        return value
    return check


class Jobs(click.ParamType):
    """``--jobs``: ``auto``, or a number of processes from 0 (one per CPU) to 256."""

    name = "jobs"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or value == "auto":
            return value
        text = str(value).strip().lower()
        if text == "auto":
            return "auto"
        try:
            n = int(text)
        except ValueError:
            n = -1
        if not 0 <= n <= 256:
            self.fail(f"{value!r} is not 'auto' or a number from 0 to 256", param, ctx)
        return n


class Number(click.FloatRange):
    """A FloatRange that is a number: ``nan`` is in no range, but a plain FloatRange takes it
    (no comparison with it is false)."""

    def convert(self, value, param, ctx):
        x = super().convert(value, param, ctx)
        if x != x:
            self.fail(f"{value!r} is not a number", param, ctx)
        return x


def jobs_option(help: str):
    """--jobs/-j N|auto, default auto."""
    return click.option("--jobs", "-j", type=Jobs(), default="auto", show_default=True,
                        metavar="N|auto", help=help)


def house_rule_option(example: str = "stat_tie=defender"):
    """--house-rule KEY=VALUE (repeatable): a ruling for a situation the rules leave open."""
    return click.option("--house-rule", "house_rules", multiple=True, metavar="KEY=VALUE",
                        help=f"A ruling for a situation the rules leave open (repeatable), "
                             f"e.g. {example}.")


#: --event FILE on the referee commands: take house rules from an event file.
event_rules_option = click.option("--event", "event_path", default=None, metavar="EVENT.yaml",
                                  type=FILE, shell_complete=complete.path,
                                  help="Take house rules from this event file.")


def ruling_options(example: str = "stat_tie=defender", hide_game: bool = False):
    """The options every single-ruling command shares: --house-rule, --event, --output,
    --game and --db (parameters house_rules, event_path, output, game, db_dirs)."""
    def deco(f):
        f = db_option(f)
        f = click.option("--game", type=click.Choice(GAMES), default=None, hidden=hide_game,
                         help="Which game's rules apply.")(f)
        f = output_option()(f)
        f = event_rules_option(f)
        return house_rule_option(example)(f)
    return deco


def pick_game(ctx: click.Context, game: str | None) -> str | None:
    return game or (ctx.obj or {}).get("game")


def db_dirs(ctx: click.Context, extra=()) -> list[str]:
    return [*(ctx.obj or {}).get("db", []), *extra]


def fresh_seed(seed: int | None) -> int:
    """``seed``, or a new one from the system's randomness when none was given (every seeded
    command prints the seed it used, so a run can be repeated)."""
    if seed is not None:
        return seed
    import random

    return random.SystemRandom().randrange(1, 1_000_000)


def play_options(f):
    """--max-turns, --jobs and --scheduler: how the games of simulate and build are played."""
    f = click.option("--scheduler", default=None, metavar="ADDRESS", type=ADDRESS,
                     help="Play on this Dask cluster (pip install 'deckcli[cluster]').")(f)
    f = click.option("--jobs", type=Jobs(), default="auto", show_default=True,
                     metavar="N|auto",
                     help="Processes to play in: auto, 1, or 0 for one per CPU.")(f)
    return click.option("--max-turns", type=click.IntRange(1, 100_000), default=200,
                        show_default=True,
                        help="A game still going after this many turns is undecided.")(f)


def open_index(ctx: click.Context, extra=()):
    from deckcli.cards import open_index as _open

    return _open(db_dirs(ctx, extra))


def collect_decks(paths) -> list[str]:
    """The deck files among ``paths`` (folders walked), saying on stderr which files were
    left out because their name or content shows they are something else (an event file, a
    CI workflow), or the configuration's ``exclude`` names them: a decklist repository's
    other files are not decks (deckcli.decks.kinds)."""
    from deckcli.decks.kinds import skipped_note
    from deckcli.validate import collect_paths

    skipped: list = []
    found = collect_paths(list(paths), skipped, excluded())
    for path, kind in skipped:
        echo_status(f"deckcli: note: {skipped_note(path, kind)}")
    return found


def excluded():
    """The running command's ``exclude`` from the configuration file (path -> bool), or
    None."""
    from deckcli.cli.configured import exclude

    ctx = click.get_current_context(silent=True)
    return exclude(ctx) if ctx is not None else None


def resolve_event(event, index) -> None:
    """Look the event's banned and limited cards up (exit 2 for one that does not exist) and
    print its warnings (an unknown code in ``sets``) on stderr. The configuration's
    ``exclude`` applies to the decks beside the roster's too."""
    event.exclude = excluded()
    event.resolve(index)
    for message in event.warnings:
        echo_status(f"deckcli: warning: {message}")


def echo_status(line: str) -> None:
    """A status line on stderr ('deckcli: warning: ...', 'deck.txt: added ...'), its severity
    word or verdict coloured where colour is on (--color, a terminal, NO_COLOR)."""
    from deckcli.diagnostics import colour_on, one_line, paint_status

    on = colour_on(sys.stderr)  # what the line quotes is escaped: one line, no raw escapes
    click.echo(paint_status(one_line(line), on), err=True, color=on)


def echo_warning(message: str, path=None, line=None, rule: str | None = None) -> None:
    """A warning on stderr, where status goes: 'deckcli: warning: deck.txt:3: ... [rule X]'
    (the file's name as every report shows it)."""
    from deckcli.diagnostics import visible_name

    shown = visible_name(str(path)) if path else None
    where = f"{shown}:{line}: " if path and line else f"{shown}: " if path else ""
    cite = f" [rule {rule}]" if rule else ""
    echo_status(f"deckcli: warning: {where}{message}{cite}")


def warn_if_illegal(decks, doing: str) -> None:
    """A warning for each deck to be played that is not legal (its first problems), as
    ``doing`` says what happens anyway ('played against anyway'): an illegal deck is played,
    never silently (build's --against decks; :func:`deckcli.sim.run.illegal_warnings`)."""
    from deckcli.sim.run import illegal_warnings

    for message in illegal_warnings(decks, doing):
        echo_warning(message)


def warn_unapplied(cards) -> None:
    """A warning naming the cards among ``cards`` (play cards) whose rules text no effect
    data applies (a user's own set, DB-2.5): the games played ignore what they say."""
    from deckcli.sim.run import unapplied_warning

    message = unapplied_warning(cards)
    if message:
        echo_warning(message)


def option_warnings(problems) -> list:
    """The problems that say an option changed nothing or overrode a header (DL-5.3): a
    command that prints no deck report (setup, stats) shows these on stderr."""
    return [p for p in problems if p.rule == "DL-5.3" and not p.is_error]


def echo_json(data, indent: int = 2) -> None:
    """A command's JSON on stdout, every string in it as every report shows it
    (:func:`~deckcli.diagnostics.visible_data`)."""
    import json

    from deckcli.diagnostics import visible_data

    click.echo(json.dumps(visible_data(data), indent=indent, ensure_ascii=False))
