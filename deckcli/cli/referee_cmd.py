"""``deckcli referee ...``: rulings for one game at a time.

``check GAMELOG`` and ``legal GAMELOG`` read the game from the log itself. The other
subcommands belong to one game: animal-battle's live in :mod:`deckcli.cli.referee_ab`,
alpha-walrus's in :mod:`deckcli.cli.referee_aw`. Which game applies: ``--game`` given to
``deckcli``, to ``referee`` or to the subcommand, else animal-battle.
"""

from __future__ import annotations

import importlib

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS
from deckcli.cli.common import (
    GAMES,
    db_option,
    echo_json,
    event_rules_option,
    house_rule_option,
    open_index,
    output_option,
)

_MODULES = {"animal-battle": "deckcli.cli.referee_ab", "alpha-walrus": "deckcli.cli.referee_aw"}


def _game_in(args: list[str]) -> str | None:
    for i, a in enumerate(args):
        if a == "--game" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--game="):
            return a.partition("=")[2]
    return None


class RefereeGroup(click.Group):
    """The referee's subcommands: the shared ones, and those of the game that applies.

    ``referee --help`` lists every game's subcommands, and ``--help`` on another game's
    subcommand shows its help; running one under the other game is a usage error that names
    the game to add (:meth:`resolve_command`)."""

    def resolve_command(self, ctx, args):
        rest = args[1:] if args else []
        ctx.meta["referee_game"] = _game_in(rest)
        if args and args[0] not in self.commands and not _asks_help(rest):
            name, game = args[0], self._game(ctx)
            owner = self._owner(name, game)
            if owner not in (None, game):
                raise click.UsageError(f"'referee {name}' is an {owner} ruling; "
                                       f"add --game {owner}", ctx)
        return super().resolve_command(ctx, args)

    def _owner(self, name: str, game: str) -> str | None:
        """The game whose subcommand ``name`` is: the applying game's if it has one."""
        for each in (game, *(g for g in _MODULES if g != game)):
            if name in self._game_commands(each):
                return each
        return None

    def _game(self, ctx) -> str:
        return (ctx.meta.get("referee_game") or ctx.params.get("game")
                or (ctx.find_root().obj or {}).get("game") or "animal-battle")

    def _game_commands(self, game: str) -> dict:
        try:
            module = importlib.import_module(_MODULES[game])
        except (KeyError, ModuleNotFoundError):
            return {}
        return module.COMMANDS

    def list_commands(self, ctx):
        names = set(self.commands)
        for game in _MODULES:
            names |= set(self._game_commands(game))
        return sorted(names)

    def get_command(self, ctx, name):
        """The subcommand ``name``: the applying game's where both games have one, else
        whichever game's has it (listed in help; :meth:`resolve_command` refuses to run it
        under the other game)."""
        if name in self.commands:
            return self.commands[name]
        owner = self._owner(name, self._game(ctx))
        return self._game_commands(owner)[name] if owner is not None else None


def _asks_help(args: list[str]) -> bool:
    """Whether a subcommand's arguments ask for its help (shown under either game)."""
    return any(a in ("--help", "-h") for a in args)


@click.group(cls=RefereeGroup)
@click.option("--game", type=click.Choice(GAMES), default=None, help="Which game's referee.")
@click.pass_context
def referee(ctx, game):
    """Rule on battles, attacks and recorded games, citing the rule for every step.

    Where the rules leave a situation open the ruling says so ("gap": true) and applies a
    house ruling only when one is given (--house-rule KEY=VALUE or --event FILE).

    \b
    The game: --game (here, on the subcommand or on deckcli), else animal-battle.
      check, legal       either game (a log names its game)
      battle             either game, by that game's rules
      attack             animal-battle only
      discard, showdown  alpha-walrus only
    """


def _check_or_legal(ctx, gamelog, output, house_rules, event_path, mode, db_dirs=(),
                    game_flag=None):
    from importlib import import_module

    from deckcli.errors import DeckcliError, UsageError
    from deckcli.games import game_module
    from deckcli.games.gamelog import house_rules_from, load_log
    from deckcli.yamlio import line_of

    log = load_log(gamelog)
    wanted = (game_flag or ctx.parent.params.get("game")
              or (ctx.find_root().obj or {}).get("game"))
    game = log.get("game") or wanted or "animal-battle"
    if not isinstance(game, str) or game not in GAMES:
        raise DeckcliError(f"'game' must be one of {', '.join(GAMES)}, not {game!r}",
                           path=gamelog, line=line_of(log, "game"))
    if wanted and wanted != game:  # a log is replayed by its own game's rules only
        raise DeckcliError(f"the log is an {game} game, but --game says {wanted}",
                           path=gamelog, line=line_of(log, "game"))
    rules = house_rules_from(house_rules, event_path)
    module = game_module(game)
    try:  # checked here: a wrong key given on the command line is not the log's fault
        import_module(module.__name__ + ".gaps").check_house_rules(rules)
    except UsageError as exc:
        raise UsageError(f"{exc.message} (given with --house-rule or --event)") from None
    ref = import_module(module.__name__ + ".referee")
    index = open_index(ctx, db_dirs)
    if mode == "check":
        result = ref.check_log(log, gamelog, rules, index=index)
        if output == "json":
            echo_json(result)
        else:
            click.echo(ref.render_check(result))
        return EXIT_PROBLEMS if result["violations"] else EXIT_OK
    result = ref.legal_actions(log, gamelog, rules, index=index)
    if output == "json":
        echo_json(result)
    else:
        click.echo(ref.render_legal(result))
    return EXIT_OK


_house_rule = house_rule_option()
_event = event_rules_option


_log_game = click.option("--game", type=click.Choice(GAMES), default=None,
                         help="The log's game, for a log that names none (one that names "
                              "another is an error).")


@referee.command("check")
@click.argument("gamelog")
@output_option()
@_house_rule
@_event
@db_option
@_log_game
@click.pass_context
def check(ctx, gamelog, output, house_rules, event_path, db_dirs, game):
    """Replay a recorded game log; report every illegal action (exit 1 if any)."""
    return _check_or_legal(ctx, gamelog, output, house_rules, event_path, "check", db_dirs,
                           game)


@referee.command("legal")
@click.argument("gamelog")
@output_option()
@_house_rule
@_event
@db_option
@_log_game
@click.pass_context
def legal(ctx, gamelog, output, house_rules, event_path, db_dirs, game):
    """List the legal actions at the end of a recorded game log."""
    return _check_or_legal(ctx, gamelog, output, house_rules, event_path, "legal", db_dirs,
                           game)
