"""The command line: click only. Parse options, call the library, pick a reporter, exit.

Exit codes live here and nowhere else (docs/commands.md): 0 success, 1 problems found, 2 the command
could not do its job. Subcommands are imported only when invoked, so ``deckcli --help`` and a
deck check load nothing they do not use.
"""

from __future__ import annotations

import importlib
import sys

import click

from deckcli import __version__

EXIT_OK, EXIT_PROBLEMS, EXIT_FAILURE = 0, 1, 2

#: called once a subcommand's module is imported (the console script's start-up is over:
#: :func:`deckcli.entry.main` puts :func:`deckcli.entry.loaded` here)
LOADED: list = []


def _games() -> list[str]:
    from deckcli.games import ids

    return ids()

#: name -> (module:attribute, one-line help). The help is here so --help imports no command.
COMMANDS = {
    "validate": ("deckcli.cli.validate_cmd:validate", "Check decklists against the rules."),
    "fmt": ("deckcli.cli.fmt_cmd:fmt", "Rewrite decklists in the canonical form."),
    "convert": ("deckcli.cli.fmt_cmd:convert",
                "Convert a decklist: text, YAML, JSON, CSV, Arena, Cockatrice, MTGO."),
    "diff": ("deckcli.cli.diff_cmd:diff", "Compare two decks card for card (or a whole event)."),
    "new": ("deckcli.cli.edit_cmd:new", "Create an empty decklist."),
    "add": ("deckcli.cli.edit_cmd:add", "Add copies of a card to a decklist."),
    "remove": ("deckcli.cli.edit_cmd:remove", "Remove copies of a card from a decklist."),
    "edit": ("deckcli.cli.editor_cmd:edit", "Build a deck interactively in the terminal."),
    "cards": ("deckcli.cli.cards_cmd:cards", "List, show and search cards."),
    "db": ("deckcli.cli.db_cmd:db", "Build and check the card database."),
    "rules": ("deckcli.cli.rules_cmd:rules", "Show the rules reference."),
    "setup": ("deckcli.cli.setup_cmd:setup", "Deal a game's setup from a deck, with a seed."),
    "referee": ("deckcli.cli.referee_cmd:referee", "Rule on battles, attacks and game logs."),
    "simulate": ("deckcli.cli.simulate_cmd:simulate", "Play games between decks; who wins."),
    "build": ("deckcli.cli.build_cmd:build", "Build the strongest legal deck from a collection."),
    "suggest": ("deckcli.cli.build_cmd:suggest", "Swaps from a collection that improve a deck."),
    "stats": ("deckcli.cli.report_cmd:stats", "Statistics of a deck against the database."),
    "sheet": ("deckcli.cli.report_cmd:sheet", "Printable registration sheets (HTML)."),
    "report": ("deckcli.cli.report_cmd:report", "An event's report page (HTML)."),
    "export": ("deckcli.cli.report_cmd:export",
               "Publish an event's decklists (CSV, JSON or HTML)."),
}


from deckcli.cli.common import FILE, FOLDER  # noqa: E402  (the types of --config, --db...)


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def __init__(self, *args, lazy: dict[str, tuple[str, str]] | None = None, **kw):
        super().__init__(*args, **kw)
        self.lazy = lazy or {}

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self._available()})

    def _available(self):
        import importlib.util

        out = []
        for name, (target, _help) in self.lazy.items():
            module = target.partition(":")[0]
            if importlib.util.find_spec(module) is not None:
                out.append(name)
        return out

    def get_command(self, ctx, name):
        if name in self.commands:
            return self.commands[name]
        if name not in self.lazy:
            return None
        module_name, _, attr = self.lazy[name][0].partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        for hook in LOADED:
            hook()  # the subcommand is imported: start-up is over (see deckcli.entry)
        return getattr(module, attr)

    def resolve_command(self, ctx, args):
        """The subcommand to run, with deckcli's own options after its name and the
        configuration's values (deckcli.cli.configured)."""
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is None:
            return name, cmd, rest
        from deckcli.cli.configured import prepare

        return name, prepare(cmd, rest), rest

    def format_commands(self, ctx, formatter):
        rows = [(name, self.lazy[name][1] if name in self.lazy else
                 self.commands[name].get_short_help_str(60))
                for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, lazy=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="deckcli",
                      message="%(prog)s %(version)s")
@click.option("--game", type=click.Choice(_games()), default=None,
              help="Game for every subcommand (default: from the deck, else animal-battle).")
@click.option("--db", "db_dirs", multiple=True, metavar="DIR", type=FOLDER,
              shell_complete=lambda ctx, param, incomplete: _folder(ctx, param, incomplete),
              help="Extra card database folder (repeatable; also DECKCLI_DB).")
@click.option("--color", "colour", type=click.Choice(["auto", "always", "never"]),
              default="auto", show_default=True,
              help="Colour verdicts, errors and warnings: auto (on a terminal, unless NO_COLOR "
                   "is set), always or never.")
@click.option("--allow-read", "allowed", multiple=True, metavar="DIR", type=FOLDER,
              shell_complete=lambda ctx, param, incomplete: _folder(ctx, param, incomplete),
              help="Deck paths in event files and game logs, and symbolic links a folder walk "
                   "finds, may also lead into DIR (repeatable; by default only inside the "
                   "file's own folder, or the folder walked).")
@click.option("--debug", is_flag=True, help="Show a traceback on internal errors.")
@click.option("--config", "config", default=None, metavar="FILE", type=FILE,
              shell_complete=lambda ctx, param, incomplete: _path(ctx, param, incomplete),
              help="Read this configuration file (a deckcli.toml, or a pyproject.toml's "
                   "[tool.deckcli]) instead of the one found above the paths given.")
@click.option("--isolated", is_flag=True, help="Read no configuration file.")
@click.pass_context
def cli(ctx, game, db_dirs, colour, allowed, debug, config, isolated):
    """deckcli: deck builder, validator and rules referee for animal-battle and alpha-walrus.

    Every option here may also come after the command's name. Options not given are read from
    the nearest deckcli.toml or pyproject.toml [tool.deckcli] above the paths given.

    Exit codes: 0 success, 1 problems found, 2 the command could not do its job.

    \b
    Example: deckcli validate examples/good
    """
    from deckcli.diagnostics import COLOUR
    from deckcli.files.bounds import allow

    COLOUR[0] = colour
    allow(allowed)
    ctx.ensure_object(dict)
    ctx.obj.update(game=game, db=list(db_dirs), debug=debug, config=config, isolated=isolated)


def _folder(ctx, param, incomplete):
    from deckcli.cli.complete import folder

    return folder(ctx, param, incomplete)


def _path(ctx, param, incomplete):
    from deckcli.cli.complete import path

    return path(ctx, param, incomplete)


def run(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code (tests call this in-process). While it runs,
    stderr is a :class:`Messages`: a message that cannot be written (stderr on a full disk
    or device, a closed pipe) is lost, and changes neither what the command does nor its exit
    code."""
    messages = sys.stderr = Messages(sys.stderr)
    try:
        return _run(argv)
    finally:
        if sys.stderr is messages:
            sys.stderr = messages.stream


class Messages:
    """stderr while a command runs: writes and flushes go to ``stream``, and one that fails
    (OSError: ENOSPC behind ``2>/dev/full``, EPIPE, EIO) is dropped with every later one, the
    file descriptor pointed at the null device so that nothing left in the stream's buffer
    fails again at exit. Messages are about the job, not the job: the exit code is the job's
    (``validate nonexist.txt 2>/dev/full`` exits 2, ``fmt messy.txt 2>/dev/full`` rewrites
    the file and exits 0). Everything else is the stream's own (encoding, ``isatty``, ...)."""

    def __init__(self, stream):
        self.stream = stream
        self.lost = False

    def write(self, text):
        if self.lost:
            return len(text)
        try:
            return self.stream.write(text)
        except OSError:
            self._drop()
            return len(text)

    def flush(self) -> None:
        if self.lost:
            return
        try:
            self.stream.flush()
        except OSError:
            self._drop()

    def _drop(self) -> None:
        import os

        self.lost = True
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (tests)
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _run(argv: list[str] | None) -> int:
    from deckcli.errors import DeckcliError, Terminated

    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    if "deckcli.diagnostics" in sys.modules:  # a run before this one (in-process) may have
        sys.modules["deckcli.diagnostics"].COLOUR[0] = "auto"  # set --color: not this one
    for arg in args:
        if isinstance(arg, str) and not arg.isascii() and not _utf8(arg):
            # bytes the locale could not decode (kept by Python as lone surrogates): no card
            # name, rule or option can hold them, and no report can print them
            from deckcli.diagnostics import visible

            click.echo(f"deckcli: error: argument {visible(arg)!s} is not UTF-8 text",
                       err=True)
            return EXIT_FAILURE
    _utf8_streams()
    from deckcli.games import PLUGIN_ERRORS

    if PLUGIN_ERRORS:  # a game package of one's own that cannot be used: say so, do nothing
        click.echo(f"deckcli: error: {PLUGIN_ERRORS[0]}", err=True)
        return EXIT_FAILURE
    try:
        rv = cli.main(args=args, prog_name="deckcli", standalone_mode=False)
        sys.stdout.flush()  # a full disk or device behind stdout is reported here, not at exit
        return rv if isinstance(rv, int) else EXIT_OK
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        from deckcli.diagnostics import one_line

        exc.message = one_line(exc.message)  # it quotes the argument: one line, escaped
        if isinstance(exc, click.NoSuchOption) and exc.option_name == "-o":
            exc.message += (" This command writes no file: it prints to stdout (redirect it: "
                            "> FILE); --output/-O picks the format where there is a choice.")
        _usage_error(exc)
        return EXIT_FAILURE
    except click.exceptions.Abort:
        click.echo("deckcli: aborted", err=True)
        return EXIT_FAILURE
    except Terminated:
        click.echo("deckcli: terminated", err=True)
        return EXIT_FAILURE
    except DeckcliError as exc:
        from deckcli.cli.common import echo_status  # only when there is an error to tell

        echo_status(f"deckcli: error: {exc}")
        return exc.exit_code
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        click.echo("deckcli: interrupted", err=True)
        return 130
    except OSError as exc:
        import errno

        # a full disk or device (ENOSPC, EDQUOT, EFBIG) or an I/O error behind an output
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
            return _internal(exc, debug)
        # stdout is on a full disk or device (stderr never raises: Messages): say so once,
        # and let nothing else try to write there (at exit, Python would flush stdout again)
        drop_stdout()
        where = f" {exc.filename}" if exc.filename else " the output"
        try:
            click.echo(f"deckcli: error: could not write{where}: {exc.strerror}", err=True)
        except OSError:
            pass
        return EXIT_FAILURE
    except Exception as exc:  # an internal error: one line, or the traceback with --debug
        return _internal(exc, debug)


def _usage_error(exc: click.ClickException) -> None:
    """A usage error written as every other error is, ``deckcli: error: ...`` (click's own
    'Error: ...' under a usage block read as a second kind), then where the help is."""
    from deckcli.cli.common import echo_status

    echo_status(f"deckcli: error: {exc.format_message()}")
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        click.echo(f"Try '{ctx.command_path} --help' for help.", err=True)


def _internal(exc: Exception, debug: bool) -> int:
    """An internal error: one line, or the traceback with --debug."""
    if debug:
        raise exc
    click.echo(f"deckcli: internal error: {type(exc).__name__}: {exc} "
               "(please report it; run with --debug for the traceback)", err=True)
    return EXIT_FAILURE


def _utf8_streams() -> None:
    """Write stdout and stderr as UTF-8 whatever the locale says (Python writes a pipe in the
    locale's encoding, cp1252 on a Windows runner): every report is UTF-8, as JSON, SARIF and
    JUnit's ``<?xml encoding="UTF-8"?>`` say, and a name no locale can spell is no crash."""
    import codecs

    err = sys.stderr.stream if isinstance(sys.stderr, Messages) else sys.stderr
    for stream in (sys.stdout, err):
        encoding = getattr(stream, "encoding", None)
        if encoding and hasattr(stream, "reconfigure") and \
                codecs.lookup(encoding).name != "utf-8":
            stream.reconfigure(encoding="utf-8", errors=stream.errors)


def drop_stdout() -> None:
    """Point file descriptor 1 at the null device (Python's advice for a stdout that cannot
    be written: the data still buffered is then flushed there at exit, without an error)."""
    import os

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests): nothing to do
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
