"""``deckcli setup DECK [--seed N] [--players N] [--opponent DECK]``: deal a game's setup."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    db_option,
    echo_json,
    echo_warning,
    fresh_seed,
    game_option,
    open_index,
    option_warnings,
    output_option,
    pick_game,
)
from deckcli.games.base import MAX_PLAYERS


@click.command()
@click.argument("deck", type=FILE, shell_complete=complete.path)
@game_option
@click.option("--seed", type=int, default=None,
              help="Seed for the shuffles; the same seed deals the same game (default: random, "
                   "printed so it replays).")
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
              help="Players at the table (default 2).")
@click.option("--opponent", default=None, metavar="DECK", type=FILE,
              shell_complete=complete.path,
              help="animal-battle: the second player's deck (default: a copy of DECK).")
@output_option()
@db_option
@click.pass_context
def setup(ctx, deck, game, seed, players, opponent, output, db_dirs):
    """Perform the game's setup exactly as the rules order it, from a seeded shuffle.

    \b
    Example: deckcli setup examples/good/casual-savanna.yaml --seed 1
    """
    from deckcli.decks.reader import read_deck
    from deckcli.errors import unreadable_deck
    from deckcli.games import GAMES
    from deckcli.games.base import check_playable_size
    from deckcli.validate import Options, pick_players, resolve_for

    index = open_index(ctx, db_dirs)
    seed = fresh_seed(seed)

    def load(path):
        d = read_deck(path, is_set=index.is_any_set_code)
        rd, g, fmt, problems = resolve_for(d, index, Options(game=pick_game(ctx, game)))
        if rd is None:  # not a deck (binary, not UTF-8) or of a game deckcli does not know:
            raise unreadable_deck(path, problems)  # nothing to deal, as simulate says
        check_playable_size(sum(r.entry.count for r in rd.entries), path)
        # the table: --players, else the deck's 'players:' header (alpha-walrus)
        table, said = pick_players(d, g, Options(players=players))
        rd.problems = problems + said  # reading, game/format, resolving, table problems
        return rd, table

    rdeck, table = load(deck)
    other = load(opponent)[0] if opponent else None
    if other is not None and other.game != rdeck.game:
        raise click.UsageError(f"{deck} is an {rdeck.game} deck and --opponent {opponent} is an "
                               f"{other.game} deck: both players need decks of one game")
    module = GAMES[rdeck.game].setup()
    result = module.deal(rdeck, seed=seed, players=table, opponent=other, index=index)
    # warnings go to stderr (the deal is the result); DL-5.3's too, which a deal may not carry
    warned = list(result.get("warnings", ()))
    for d in (rdeck, other):
        for p in option_warnings(d.problems if d is not None else ()):
            if p.to_json() not in warned:
                warned.append({**p.to_json(), "path": p.path})
    if output == "json":
        echo_json(result)
    else:
        click.echo(module.render({**result, "warnings": []}))
    for w in warned:
        echo_warning(w["message"], w.get("path") or (deck if w.get("line") else None),
                     w.get("line"), w.get("rule"))
    return EXIT_PROBLEMS if result.get("problems") else EXIT_OK
