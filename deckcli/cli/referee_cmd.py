"""``deckcli referee ...``: rulings for one game at a time.

``check GAMELOG`` and ``legal GAMELOG`` read the game from the log itself and replay it with
the one referee driver (:mod:`deckcli.games.replay`). The other subcommands belong to one game
each; their click commands live in the per-game modules listed in :data:`GAME_COMMANDS`, each
declaring the game it rules for (``GAME``) and its subcommands (``COMMANDS``). Which game
applies: ``--game`` given to ``deckcli``, to ``referee`` or to the subcommand, else the
default game.
"""

from __future__ import annotations

import importlib

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    GAMES,
    db_option,
    echo_json,
    event_rules_option,
    house_rule_option,
    open_index,
    output_option,
)

#: The modules of game-specific referee subcommands (click only).
GAME_COMMANDS = ("deckcli.cli.referee_ab", "deckcli.cli.referee_aw")


def _game_commands() -> dict[str, dict]:
    """game id -> {subcommand name: click command}, from :data:`GAME_COMMANDS`."""
    if not _BY_GAME:
        for name in GAME_COMMANDS:
            module = importlib.import_module(name)
            _BY_GAME[module.GAME.id] = module.COMMANDS
    return _BY_GAME


_BY_GAME: dict[str, dict] = {}


def _game_flag(args: list[str]) -> str | None:
    """The value of a subcommand's own ``--game``: the subcommand is chosen by its game before
    click parses the subcommand's options."""
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
        ctx.meta["referee_game"] = _game_flag(rest)
        # while a shell completes a word (resilient parsing) nothing is refused
        if (args and args[0] not in self.commands and not _asks_help(rest)
                and not ctx.resilient_parsing):
            name, game = args[0], self._game(ctx)
            owner = self._owner(name, game)
            if owner not in (None, game):
                raise click.UsageError(f"'referee {name}' is an {owner} ruling; "
                                       f"add --game {owner}", ctx)
        return super().resolve_command(ctx, args)

    def _owner(self, name: str, game: str) -> str | None:
        """The game whose subcommand ``name`` is: the applying game's if it has one."""
        by_game = _game_commands()
        for each in (game, *(g for g in by_game if g != game)):
            if name in by_game.get(each, {}):
                return each
        return None

    def _game(self, ctx) -> str:
        from deckcli.games import DEFAULT_GAME

        return (ctx.meta.get("referee_game") or ctx.params.get("game")
                or (ctx.find_root().obj or {}).get("game") or DEFAULT_GAME)

    def list_commands(self, ctx):
        names = set(self.commands)
        for commands in _game_commands().values():
            names |= set(commands)
        return sorted(names)

    def get_command(self, ctx, name):
        """The subcommand ``name``: the applying game's where both games have one, else
        whichever game's has it (listed in help; :meth:`resolve_command` refuses to run it
        under the other game)."""
        if name in self.commands:
            return self.commands[name]
        owner = self._owner(name, self._game(ctx))
        return _game_commands()[owner][name] if owner is not None else None


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


def _replayed(ctx, gamelog, house_rules, event_path, db_dirs, game_flag):
    """Load the log, pick its game, and replay it."""
    from deckcli.errors import DeckcliError
    from deckcli.games import DEFAULT_GAME, get
    from deckcli.games.gamelog import house_rules_from, load_log
    from deckcli.games.replay import replay
    from deckcli.yamlio import line_of

    log = load_log(gamelog)
    wanted = (game_flag or ctx.parent.params.get("game")
              or (ctx.find_root().obj or {}).get("game"))
    game_id = log.get("game") or wanted or DEFAULT_GAME
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise DeckcliError(f"'game' must be one of {', '.join(GAMES)}, not {game_id!r}",
                           path=gamelog, line=line_of(log, "game"))
    if wanted and wanted != game_id:  # a log is replayed by its own game's rules only
        raise DeckcliError(f"the log is an {game_id} game, but --game says {wanted}",
                           path=gamelog, line=line_of(log, "game"))
    game = get(game_id)
    rules = house_rules_from(house_rules, event_path)
    return game, replay(game, log, gamelog, rules, open_index(ctx, db_dirs))


_house_rule = house_rule_option()
_event = event_rules_option
_log_game = click.option("--game", type=click.Choice(GAMES), default=None,
                         help="The log's game, for a log that names none (one that names "
                              "another is an error).")


def _log_command(f):
    for deco in (click.pass_context, _log_game, db_option, _event, _house_rule,
                 output_option(),
                 click.argument("gamelog", type=FILE, shell_complete=complete.path)):
        f = deco(f)
    return f


@referee.command("check")
@click.option("--steps", "every_step", is_flag=True,
              help="Show every step with the rules it applied and what happened.")
@_log_command
def check(ctx, gamelog, output, house_rules, event_path, db_dirs, game, every_step):
    """Replay a recorded game log; report every illegal action (exit 1 if any)."""
    from deckcli.games.replay import check as check_result
    from deckcli.games.replay import render_check

    game, rep = _replayed(ctx, gamelog, house_rules, event_path, db_dirs, game)
    result = check_result(rep)
    if output == "json":
        echo_json(result)
    else:
        click.echo(render_check(result, game.engine().describe, every_step=every_step))
    return EXIT_PROBLEMS if result["violations"] else EXIT_OK


@referee.command("legal")
@_log_command
def legal(ctx, gamelog, output, house_rules, event_path, db_dirs, game):
    """List the legal actions at the end of a recorded game log."""
    from deckcli.games.replay import legal as legal_result
    from deckcli.games.replay import render_legal

    game, rep = _replayed(ctx, gamelog, house_rules, event_path, db_dirs, game)
    result = legal_result(rep)
    if output == "json":
        echo_json(result)
    else:
        click.echo(render_legal(result, game.win_rule))
    return EXIT_OK
