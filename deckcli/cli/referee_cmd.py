"""``deckcli referee``: single rulings, and recorded game logs checked step by step.

``check GAMELOG`` and ``legal GAMELOG`` read the game from the log itself and replay it with
the one referee driver (:mod:`deckcli.games.replay`). The other subcommands are each game's
single rulings, declared as data by the game (``Game.rulings()``, see
:mod:`deckcli.games.rulings`) and made into click commands here (:func:`ruling_command`). Which
game applies: ``--game`` given to ``deckcli``, to ``referee`` or to the subcommand, else the
configuration's ``game`` (found from the current folder), else the default game.
"""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    GAMES,
    db_option,
    echo_json,
    event_rules_option,
    fresh_seed,
    house_rule_option,
    open_index,
    output_option,
    ruling_options,
)
from deckcli.cli.configured import Group, config_of


def _game_commands() -> dict[str, dict]:
    """game id -> {subcommand name: click command}, from each game's rulings."""
    if not _BY_GAME:
        from deckcli.games import GAMES as games

        for game in games.values():
            _BY_GAME[game.id] = {r.name: ruling_command(game, r) for r in game.rulings()}
    return _BY_GAME


_BY_GAME: dict[str, dict] = {}


def _param(game, p):
    """A ruling's parameter (:class:`deckcli.games.rulings.Param`) as a click decorator."""
    kw: dict = {}
    if p.kind == "card":
        kw["shell_complete"] = complete.card(game.id)
    elif p.kind == "int":
        kw["type"] = click.IntRange(p.low, p.high)
    elif p.kind == "choice":
        kw["type"] = click.Choice(list(p.choices))
    if p.option is None:
        if p.multiple:
            return click.argument(p.name, nargs=-1, required=p.required, metavar=p.metavar,
                                  **kw)
        return click.argument(p.name, metavar=p.metavar, **kw)
    if p.kind == "flag":
        return click.option(p.option, p.name, is_flag=True, help=p.help)
    return click.option(p.option, p.name, multiple=p.multiple, required=p.required,
                        metavar=p.metavar, default=None, help=p.help, **kw)


def _dice_options(f):
    f = click.option("--roll", "rolls", multiple=True, type=click.IntRange(1, 6),
                     help="A D6 result, used before the seed (repeatable; attacker's first).")(f)
    return click.option("--seed", type=int, default=None,
                        help="Seed for dice not given by --roll (default: random, printed).")(f)


def ruling_command(game, ruling) -> click.Command:
    """``deckcli referee NAME`` for one of ``game``'s rulings: its own parameters, the
    options every ruling shares, dice options for a ruling that rolls; the answer printed as
    text or JSON, exit 1 for a ruling that finds the described action illegal."""
    own = [p.name for p in ruling.params]

    def run(ctx, **values):
        from deckcli.gamelog import house_rules_from
        from deckcli.games.rulings import Given

        rolls = tuple(values.pop("rolls", ()) or ())
        seed = values.pop("seed", None)
        if ruling.dice and not rolls:
            seed = fresh_seed(seed)  # printed in the ruling, so it replays
        house = game.house_rules(house_rules_from(values["house_rules"], values["event_path"]))
        given = Given(lambda: open_index(ctx, values["db_dirs"]), house, seed, rolls)
        result = ruling.run(given, **{k: values[k] for k in own})
        if values["output"] == "json":
            echo_json(result)
        else:
            click.echo(ruling.render(result))
        return EXIT_PROBLEMS if ruling.exits_on_violations and result.get("violations") \
            else EXIT_OK

    f = click.pass_context(run)
    f = ruling_options(ruling.house_example or "stat_tie=defender",
                       hide_game=ruling.hide_game)(f)
    if ruling.dice:
        f = _dice_options(f)
    for p in reversed(ruling.params):
        f = _param(game, p)(f)
    import inspect

    return click.command(ruling.name, help=inspect.cleandoc(ruling.help))(f)


def _game_flag(args: list[str], flag: str = "--game") -> str | None:
    """The value of a subcommand's own ``--game`` (or ``flag``: ``--config``): the subcommand
    is chosen by its game before click parses the subcommand's options."""
    for i, a in enumerate(args):
        if a == flag and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(flag + "="):
            return a.partition("=")[2]
    return None


class RefereeGroup(Group):
    """The referee's subcommands: the shared ones, and those of the game that applies.

    ``referee --help`` lists every game's subcommands, and ``--help`` on another game's
    subcommand shows its help; running one under the other game is a usage error that names
    the game to add (:meth:`resolve_command`)."""

    def resolve_command(self, ctx, args):
        rest = args[1:] if args else []
        ctx.meta["referee_game"] = _game_flag(rest)
        obj = ctx.find_root().ensure_object(dict)
        if "--isolated" in rest:  # the configuration's game must not choose the subcommand
            obj["isolated"] = True
        obj["config"] = _game_flag(rest, "--config") or obj.get("config")
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

        found = None
        if not (ctx.meta.get("referee_game") or ctx.params.get("game")
                or (ctx.find_root().obj or {}).get("game")):
            found = config_of(ctx)  # no path to look above: from the current folder
        return (ctx.meta.get("referee_game") or ctx.params.get("game")
                or (ctx.find_root().obj or {}).get("game")
                or (found.values.get("game") if found is not None else None) or DEFAULT_GAME)

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


def _referee_help() -> str:
    """The group's help: what it does, and which game each subcommand belongs to."""
    from deckcli.games import DEFAULT_GAME
    from deckcli.games import GAMES as games

    owners: dict[str, list[str]] = {}
    for game in games.values():
        for r in game.rulings():
            owners.setdefault(r.name, []).append(game.id)
    rows = [("check, legal", "every game (a log names its game)")]
    rows += [(name, ", ".join(ids)) for name, ids in sorted(owners.items())]
    width = max(len(name) for name, _ in rows)
    table = "\n".join(f"  {name:<{width}}  {who}" for name, who in rows)
    return ("Rule on battles, attacks and recorded games, citing the rule for every step.\n\n"
            "Where the rules leave a situation open the ruling says so (\"gap\": true) and "
            "applies a house ruling only when one is given (--house-rule KEY=VALUE or --event "
            "FILE).\n\n\b\nThe game: --game (here, on the subcommand or on deckcli), else the\n"
            f"configuration's game, else {DEFAULT_GAME}.\n{table}\n\n\b\n"
            "Example: deckcli referee check examples/games/aw-opening.yaml")


@click.group(cls=RefereeGroup, help=_referee_help())
@click.option("--game", type=click.Choice(GAMES), default=None, help="Which game's referee.")
@click.pass_context
def referee(ctx, game):
    pass


def _replayed(ctx, gamelog, house_rules, event_path, db_dirs, game_flag):
    """Load the log, pick its game, and replay it."""
    from deckcli.errors import DeckcliError
    from deckcli.gamelog import house_rules_from, load_log
    from deckcli.games import DEFAULT_GAME, get
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
    """Replay a recorded game log; report every illegal action (exit 1 if any).

    \b
    Example: deckcli referee check examples/games/ab-illegal-actions.yaml  # exit 1
    """
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
    """List the legal actions at the end of a recorded game log.

    \b
    Example: deckcli referee legal examples/games/ab-clean-game.yaml
    """
    from deckcli.games.replay import legal as legal_result
    from deckcli.games.replay import render_legal

    game, rep = _replayed(ctx, gamelog, house_rules, event_path, db_dirs, game)
    result = legal_result(rep)
    if output == "json":
        echo_json(result)
    else:
        click.echo(render_legal(result, game.win_rule))
    return EXIT_OK
