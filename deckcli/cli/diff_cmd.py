"""``deckcli diff DECK_A DECK_B [--printings]`` and ``deckcli diff --event FILE --played DIR``.

Two decks: exit 0 when they hold the same cards, 1 when they differ, 2 when one cannot be
read. A whole event: every listed player's registered deck against their played deck; exit 0
when every player played their registered deck, 1 when a deck differs or a player's deck is
missing or unreadable on either side, 2 when the event file or DIR cannot be read.
"""

from __future__ import annotations

import click

from deckcli.cli import EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    FOLDER,
    db_option,
    echo_json,
    game_option,
    open_index,
    output_option,
    pick_game,
)
from deckcli.cli.configured import from_config


def _deck_line(side) -> str:
    from deckcli.diagnostics import visible_name

    cards = f"{side.card_count:,} card{'s' if side.card_count != 1 else ''}"
    return f"{visible_name(side.path)}: {cards}, fingerprint {side.fingerprint}"


@click.command()
@click.argument("decks", nargs=-1, type=FILE, metavar="DECK_A DECK_B",
                shell_complete=complete.path)
@click.option("--printings", is_flag=True,
              help="Compare printings and variant tags too (by default a foil or another "
                   "printing of a card is the same card, as in the fingerprint).")
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="Compare every registered deck of this event's roster ...")
@click.option("--played", "played_dir", default=None, metavar="DIR", type=FOLDER,
              shell_complete=complete.folder,
              help="... with the deck of the same player in DIR.")
@output_option()
@game_option
@db_option
@click.pass_context
def diff(ctx, decks, printings, event_path, played_dir, output, game, db_dirs):
    """Compare two decks card for card, or an event's registered decks with the decks played.

    Printings and variant tags are ignored (as the fingerprint ignores them) unless
    --printings. With --event FILE --played DIR, a player's played deck is the file at the
    same path under DIR as their registered deck has beside the event file, else the one deck
    file under DIR named as the registered file or as the player.

    Exit 0 when the decks are the same, 1 when they differ (or, for an event, a player's deck
    is missing or unreadable), 2 when a deck (for an event: the event file or DIR) cannot be
    read.

    \b
    Example: deckcli diff examples/good/championship-deep-divers.txt examples/other-tools/mtgo.dek
    """
    from deckcli.errors import UsageError
    from deckcli.validate import Options, stdin_once

    game = pick_game(ctx, game)
    if event_path and not played_dir and from_config(ctx, "event_path"):
        event_path = None  # the configuration's event is for a comparison with --played
    if event_path or played_dir:
        if not (event_path and played_dir) or decks:
            raise UsageError("--event FILE and --played DIR go together, without DECK_A DECK_B")
        return _event(ctx, event_path, played_dir, printings, output, game, db_dirs)
    if len(decks) != 2:
        raise UsageError(f"diff compares two decks: DECK_A DECK_B (got {len(decks)})")
    from deckcli.diff import Unreadable, compare, read_side

    stdin_once(decks)

    index = open_index(ctx, db_dirs)
    options = Options(game=game)
    try:
        a, b = (read_side(p, index, options, printings) for p in decks)
    except Unreadable as exc:
        from deckcli.diagnostics import visible_name

        click.echo(f"deckcli: error: {visible_name(exc.path)}: {exc.message}", err=True)
        return EXIT_FAILURE
    result = compare(a, b)
    if output == "json":
        result.pop("summary")
        echo_json(result, indent=1)
    else:
        click.echo(_deck_line(a))
        click.echo(_deck_line(b))
        if result["same"]:
            click.echo("same cards")
        else:
            from deckcli.diff import summary_lines

            click.echo("\n".join(summary_lines("different:", result["summary"])))
    return EXIT_OK if result["same"] else EXIT_PROBLEMS


def _event(ctx, event_path, played_dir, printings, output, game, db_dirs):
    import os

    from deckcli.diagnostics import visible_name
    from deckcli.diff import Unreadable, compare, find_played, read_side
    from deckcli.errors import NotFoundError
    from deckcli.events.model import load_event
    from deckcli.validate import Options

    event = load_event(event_path)
    event.need_roster()
    if not os.path.isdir(played_dir):
        raise NotFoundError("not a folder of played decks", path=played_dir)
    index = open_index(ctx, db_dirs)
    options = Options(game=game or event.game)
    found, unmatched = find_played(event, played_dir)
    players = []
    for player, registered in event.roster_paths():
        row = {"player": visible_name(player), "same": False, "a": None, "b": None,
               "changes": [], "problem": None}
        played, why = found[player]
        sides = []
        for which, path in (("registered", registered), ("played", played)):
            if path is None:
                row["problem"] = why
                break
            try:  # a roster's file that is not a decklist is not quoted (EV-3.2)
                sides.append(read_side(path, index, options, printings,
                                       named_in=event.path if which == "registered" else None))
            except Unreadable as exc:
                row["problem"] = f"the {which} deck {path} {exc.message}"
                break
            except NotFoundError as exc:
                row["problem"] = f"the {which} deck {path} cannot be read: {exc.message}"
                break
        if sides:
            row["a"] = sides[0].to_json()
        if len(sides) == 2:
            result = compare(*sides)
            row.update(same=result["same"], b=result["b"], changes=result["changes"],
                       summary=result["summary"])
        if row["problem"]:
            row["problem"] = visible_name(row["problem"])  # it quotes paths
        players.append(row)
    unmatched = [visible_name(p) for p in unmatched]
    same = sum(1 for r in players if r["same"])
    missing = sum(1 for r in players if r["problem"])
    totals = {"players": len(players), "same": same, "different": len(players) - same - missing,
              "missing": missing, "unmatched": len(unmatched)}
    if output == "json":
        for r in players:
            r.pop("summary", None)
        echo_json({"version": 1, "event": visible_name(event_path),
                   "played": visible_name(played_dir), "players": players,
                   "unmatched": unmatched, "summary": totals}, indent=1)
    else:  # one line a player: names and paths with their control characters escaped
        for r in players:
            if r["problem"]:
                click.echo(f"{r['player']}: MISSING: {r['problem']}")
            elif r["same"]:
                click.echo(f"{r['player']}: same cards ({r['a']['fingerprint']})")
            else:
                from deckcli.diff import summary_lines

                click.echo("\n".join(summary_lines(f"{r['player']}: DIFFERENT:",
                                                    r["summary"])))
        for path in unmatched:
            click.echo(f"{path}: no player in the roster matches this played deck")
        click.echo(f"{totals['players']:,} player(s): {same:,} same, {totals['different']:,} "
                   f"different, {missing:,} missing; {len(unmatched):,} played deck(s) unmatched")
    return EXIT_OK if same == len(players) and not unmatched else EXIT_PROBLEMS
