"""What every subcommand gets from deckcli itself when it is chosen to run (:func:`prepare`):

* deckcli's own options (``--color``, ``--debug``, ``--allow-read``, ``--game``, ``--db``,
  ``--config``, ``--isolated``, ``--version``) on either side of the subcommand's name:
  ``deckcli validate --color never DECK`` is ``deckcli --color never validate DECK``. A
  subcommand that has an option of that name already (``--game``, ``--db``) keeps its own,
  which does the same;
* the configuration file's values (:mod:`deckcli.config`) for the options not given on the
  command line, read when the subcommand runs, from the folder of the paths it was given.
"""

from __future__ import annotations

import click
from click.core import ParameterSource

#: the keys of the root context's ``meta`` this module keeps
CONFIG, FROM_CONFIG, GIVEN = "deckcli.config", "deckcli.from_config", "deckcli.given"
#: parameters whose values are the files a command reads: the configuration is looked for
#: above them
PATH_PARAMS = ("paths", "path", "decks", "deck", "gamelog", "collection")
_ON_COMMAND_LINE = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def prepare(cmd: click.Command, args=()) -> click.Command:
    """``cmd`` with its callback reading the configuration first (once), and deckcli's own
    options that ``args`` (the command line after the command's name) name added to it,
    hidden, where it has no option of that name (the options are made only when named: a
    run that names none, most of them, makes none)."""
    if not getattr(cmd, "_deckcli_prepared", False):
        cmd._deckcli_prepared = True
        if not isinstance(cmd, click.Group) and cmd.callback is not None:
            cmd.callback = _reading_config(cmd.callback)
    named = {a.partition("=")[0] for a in args if isinstance(a, str) and a.startswith("--")}
    named &= _OWN.keys()
    if named:
        taken = {opt for p in cmd.params for opt in (*p.opts, *p.secondary_opts)}
        cmd.params.extend(_own_option(decl) for decl in sorted(named - taken))
    return cmd


class Group(click.Group):
    """A group of subcommands (``cards``, ``db``, ``referee``) that prepares the one run."""

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        return name, prepare(cmd, rest) if cmd is not None else None, rest


# -- deckcli's own options after the subcommand -------------------------------------------

#: deckcli's own options: the name of each one's hidden copy, and how it is made
_OWN = {"--game": "own_game", "--db": "own_db", "--color": "own_colour",
        "--allow-read": "own_allowed", "--debug": "own_debug", "--config": "own_config",
        "--isolated": "own_isolated", "--version": "own_version"}


def _own_option(decl: str) -> click.Option:
    """A hidden copy of deckcli's own option ``decl`` for a subcommand's command line."""
    from deckcli.cli.complete import folder
    from deckcli.cli.types import FILE, FOLDER

    kw: dict = {}
    if decl == "--game":
        from deckcli.games import ids

        kw = {"type": click.Choice(ids())}
    elif decl in ("--db", "--allow-read"):
        kw = {"multiple": True, "metavar": "DIR", "shell_complete": folder, "type": FOLDER}
    elif decl == "--color":
        kw = {"type": click.Choice(["auto", "always", "never"])}
    elif decl == "--config":
        kw = {"metavar": "FILE", "type": FILE}
    else:
        kw = {"is_flag": True, "is_eager": decl == "--version"}
    return click.Option([decl, _OWN[decl]], hidden=True, expose_value=False,
                        callback=_own_value, **kw)


def _own_value(ctx, param, value):
    """What deckcli's own option does when given after the subcommand's name: as before it."""
    if ctx.get_parameter_source(param.name) not in _ON_COMMAND_LINE or ctx.resilient_parsing:
        return
    root = ctx.find_root()
    obj = root.ensure_object(dict)
    name = param.name.removeprefix("own_")
    if name == "version":
        from deckcli import __version__

        click.echo(f"deckcli {__version__}")
        ctx.exit()
    elif name == "colour":
        from deckcli.diagnostics import COLOUR

        COLOUR[0] = value
    elif name == "allowed":
        from deckcli.files.bounds import ALLOWED, allow

        allow([*ALLOWED, *value])
    elif name == "db":
        obj["db"] = [*obj.get("db", []), *value]
        root.meta.setdefault(GIVEN, set()).add("db")
    elif name == "game":
        obj["game"] = value
        root.meta.setdefault(GIVEN, set()).add("game")
    elif name in ("config", "isolated", "debug"):
        obj[name] = value


# -- the configuration file ---------------------------------------------------------------

def _reading_config(callback):
    import functools

    @functools.wraps(callback)
    def run(*args, **params):
        apply(click.get_current_context(), params)
        return callback(*args, **params)
    return run


def config_of(ctx: click.Context, paths=()):
    """The configuration in force for this run (read once, then kept), or None: the file
    ``--config`` names, none with ``--isolated``, else the one found above ``paths``."""
    root = ctx.find_root()
    obj = root.obj or {}
    named, isolated = obj.get("config"), obj.get("isolated")
    if root.meta.get(CONFIG + ".asked") == (named, isolated):  # not since --config or
        return root.meta[CONFIG]  # --isolated came, after the command's name
    from deckcli import config

    if named and isolated:
        raise click.UsageError("--config FILE and --isolated do not go together: --isolated "
                               "reads no configuration file")
    found = None if isolated else config.load(named) if named else config.find(paths)
    root.meta[CONFIG], root.meta[CONFIG + ".asked"] = found, (named, isolated)
    return found


def from_config(ctx: click.Context, name: str) -> bool:
    """Whether the parameter ``name`` of the running command has its value from the
    configuration file (not from the command line)."""
    return name in ctx.find_root().meta.get(FROM_CONFIG, ())


def exclude(ctx: click.Context):
    """The configuration's ``exclude`` (a callable: path -> bool), or None."""
    found = ctx.find_root().meta.get(CONFIG)
    return found.exclude() if found is not None else None


def apply(ctx: click.Context, params: dict) -> None:
    """Fill ``params`` (the running command's) from the configuration, where the command line
    gave no value: ``event``, ``format``, ``players``, ``output``, and ``game`` and ``db`` for
    every command (as deckcli's own --game and --db)."""
    paths = []
    for param in ctx.command.params:
        if param.name in PATH_PARAMS or (param.name == "event_path"
                                         and isinstance(param, click.Argument)):
            value = params.get(param.name)
            paths += [value] if isinstance(value, str) else list(value or ())
    found = config_of(ctx, paths)
    if found is None:
        return
    from deckcli.config import missing

    root = ctx.find_root()
    obj = root.ensure_object(dict)
    used = root.meta.setdefault(FROM_CONFIG, set())
    values = found.values
    if "game" in values and not _given(ctx, "game"):
        obj["game"] = values["game"]
    if "db" in values and not _given(ctx, "db"):
        missing(found, "db")
        obj["db"] = [*obj.get("db", []), *values["db"]]
    for param in ctx.command.params:
        key = _key(param)
        if key not in values or key in ("game", "db") or _given(ctx, key):
            continue
        value = values[key]
        if isinstance(param.type, click.Choice) and value not in param.type.choices:
            continue  # output = "sarif" is validate's; stats keeps its own default
        if key == "event":
            missing(found, key)
        params[param.name] = value
        used.add(param.name)


def _key(param: click.Parameter) -> str | None:
    """The configuration key that gives ``param`` its value, if any."""
    opts = param.opts if isinstance(param, click.Option) else ()
    if param.name == "event_path":
        return "event"
    for key in ("format", "players", "output", "game", "db"):
        if f"--{key}" in opts:
            return key
    return None


def _given(ctx: click.Context, key: str) -> bool:
    """Whether the command line gave the option ``key`` stands for, to this command or to
    deckcli (before the command's name or after it)."""
    if key in ctx.find_root().meta.get(GIVEN, ()):
        return True
    while ctx is not None:
        for param in ctx.command.params:
            if _key(param) == key and ctx.get_parameter_source(param.name) in _ON_COMMAND_LINE:
                return True
        ctx = ctx.parent
    return False
