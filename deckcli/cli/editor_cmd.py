"""``deckcli edit DECK``: the interactive deck builder (:mod:`deckcli.editor`), in a terminal.

Only this command imports Textual, when it runs. Its simulations use ``simulate``'s own
defaults (policy, games, turn bound), read from that command's options, so that when those
change the editor follows.
"""

from __future__ import annotations

import os
import sys

import click

from deckcli.cli import EXIT_OK, complete
from deckcli.cli.common import (
    FILE,
    PATH,
    db_option,
    game_option,
    open_index,
    pick_game,
    resolve_event,
)
from deckcli.cli.common import db_dirs as db_folders


def simulate_defaults(game_id: str) -> dict:
    """``deckcli simulate``'s --policy (the game's default), --games and --max-turns
    defaults."""
    from deckcli.cli.simulate_cmd import simulate
    from deckcli.games import get
    from deckcli.sim.policies import default

    found = {p.name: p.default for p in simulate.params}
    return {"policy": found["policy"] or default(get(game_id)), "games": found["games"],
            "max_turns": found["max_turns"]}


@click.command()
@click.argument("deck", type=FILE, shell_complete=complete.path)
@click.option("--collection", metavar="FILE", type=FILE, default=None,
              shell_complete=complete.path,
              help="The cards owned (a decklist of copies): shown beside each card, and "
                   "suggest's swaps from it (g).")
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="Check the deck at this event (format, bans, legal sets, house rules).")
@game_option
@click.option("--format", "fmt", type=click.Choice(["casual", "championship"]), default=None,
              help="animal-battle format (default: the event's, else the deck's header, "
                   "else casual).")
@click.option("--players", type=click.IntRange(2, 12), default=None,
              help="alpha-walrus: the seats sharing the deck (default 2).")
@click.option("--against", multiple=True, metavar="DECK|DIR", type=PATH,
              shell_complete=complete.path,
              help="Decks to simulate against (repeatable; default: the gauntlet build uses).")
@db_option
@click.pass_context
def edit(ctx, deck, collection, event_path, game, fmt, players, against, db_dirs):
    """Build DECK in the terminal: search cards, add and remove them, and see its problems,
    statistics and matchups change as you go. A DECK that does not exist is started as
    'deckcli new' makes one and written at the first save. Press ? in the app for the keys.
    It needs a terminal: run from a script or a pipe, it says so and exits 2.

    Example: deckcli edit deck.txt --collection examples/collections/binder.txt  # exit 2
    """
    from deckcli.editor.session import Session
    from deckcli.errors import UsageError
    from deckcli.validate import collect_paths

    index = open_index(ctx, db_dirs)
    event = None
    if event_path:
        from deckcli.events.model import load_event

        event = load_event(event_path)
        resolve_event(event, index)
    if against:
        collect_paths(list(against))  # a missing deck is said now, not at the first game
    session = Session(deck, index, game=pick_game(ctx, game), fmt=fmt, players=players,
                      event=event, collection=collection)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("deckcli edit is interactive: run it in a terminal (to edit a deck "
                         "from a script, use deckcli add and deckcli remove)")
    from deckcli.diagnostics import COLOUR

    if COLOUR[0] == "never":
        os.environ["NO_COLOR"] = "1"  # Textual reads it as it starts
    from deckcli.editor.app import DeckEditor

    app = DeckEditor(session, against=against, db_dirs=db_folders(ctx, db_dirs),
                     event_path=event_path, players=players,
                     **simulate_defaults(session.game))
    app.run()
    return EXIT_OK
