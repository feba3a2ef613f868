"""``deckcli simulate``: play many games between decks and say who wins, with what certainty."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, complete
from deckcli.cli.common import (
    FILE,
    FOLDER,
    GAMES,
    PATH,
    Number,
    db_option,
    echo_json,
    echo_status,
    echo_warning,
    fresh_seed,
    house_rule_option,
    not_stdout,
    open_index,
    output_option,
    pick_game,
    play_options,
    resolve_event,
    warn_if_illegal,
)
from deckcli.cli.common import (
    db_dirs as db_folders,
)
from deckcli.games.base import MAX_PLAYERS


def _paths(decks: tuple[str, ...]) -> list[tuple[str, bool]]:
    """The deck files given, each with whether a folder walk found it (True) or it was named
    (False); what a walk finds that is no deck is left out with a note, and a path the walk
    found and could not read (a link out of the folder) stops the command (exit 2)."""
    import os

    from deckcli.cli.common import collect_decks
    from deckcli.validate import refuse_unread, stdin_once

    stdin_once(decks)
    return [(path, arg != "-" and os.path.isdir(arg))
            for arg in decks for path in refuse_unread(collect_decks([arg]))]


def _load(entries, index, wanted, players, event) -> list:
    """The decks to play. Those named as files are played as ``wanted`` (else each as its
    header says: two games among them stop the command); a folder's decks of another game
    than the one played are skipped, each named in a warning. The game played: ``wanted``
    (--game, the event's), else the named decks', else the one game of the folders' decks,
    else animal-battle (whose decks play one another; an alpha-walrus deck is played
    alone)."""
    from deckcli.decks.reader import read_deck
    from deckcli.games import DEFAULT_GAME
    from deckcli.sim import run
    from deckcli.validate import Options, pick_game

    named = {i: run.load_deck(path, index, wanted, players, event)
             for i, (path, walked) in enumerate(entries) if not walked}
    found = {}
    for i, (path, walked) in enumerate(entries):
        if walked:
            deck = read_deck(path, is_set=index.is_any_set_code)
            own, said = pick_game(deck, Options())  # the game its header names
            found[i] = deck, None if any(p.is_error for p in said) else own
    games = {g for _, g in found.values() if g}
    game_id = wanted or next((d.game for d in named.values()), None) or (
        next(iter(games)) if len(games) == 1 else DEFAULT_GAME)
    mixed = sorted({d.game for d in named.values()} - {game_id})
    if mixed:
        raise click.UsageError(f"the decks are of more than one game ({game_id}, "
                               f"{', '.join(mixed)}); give decks of one game")
    loaded = []
    for i, (path, _) in enumerate(entries):
        if i in named:
            loaded.append(named[i])
            continue
        deck, own = found[i]
        if own is not None and own != game_id:
            from deckcli.diagnostics import visible_name

            echo_warning(f"{visible_name(path)} is an {own} deck, and {game_id} is played: "
                         "skipped (--game picks the game)")
            continue
        loaded.append(run.load_deck(path, index, wanted or game_id, players, event, deck))
    return game_id, loaded


@click.command()
@click.argument("decks", nargs=-1, required=True, metavar="DECK...", type=PATH,
                shell_complete=complete.path)
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True,
              help="Games to play (for each pairing); with --until-ci, at most this many.")
@click.option("--seed", type=int, default=None,
              help="Seed of the run: the same seed gives the same report (default: random, "
                   "printed in the report).")
@click.option("--policy", default=None,
              help="How every player chooses: random, greedy, expert, or search[:N] "
                   "(default: expert, the strongest heuristic).")
@click.option("--policy-a", default=None, help="Deck A's (or seat p1's) policy.")
@click.option("--policy-b", default=None, help="Deck B's (or seat p2's) policy.")
@house_rule_option()
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="Take house rules, the game and the format from this event file; a "
                   "deck it makes illegal (a ban, a set, the size) is played with a warning.")
@click.option("--sensitivity", is_flag=True,
              help="Also play the same games under each other value of every gap met in more "
                   "than a tenth of them, and say how the result moves.")
@click.option("--until-ci", type=Number(0.0, 1.0, min_open=True), default=None,
              metavar="WIDTH", help="Stop once the 95% interval is at most WIDTH wide "
                                    "(looked at every 100 games; at most --games).")
@click.option("--save-games", "save_dir", default=None, metavar="DIR", type=FOLDER,
              shell_complete=complete.folder, callback=not_stdout("name a folder"),
              help="Write each game as a game log DIR/game-00001.yaml, ... (two decks).")
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
              help="alpha-walrus: seats sharing the deck (default 2).")
@play_options
@click.option("--csv", "csv_path", default=None, metavar="FILE", type=FILE,
              callback=not_stdout("name a file"),
              help="More than two decks: write the matchup matrix as CSV.")
@click.option("--html", "html_path", default=None, metavar="FILE", type=FILE,
              callback=not_stdout("name a file"),
              help="More than two decks: write the matchup matrix as an HTML heatmap.")
@click.option("--game", type=click.Choice(GAMES), default=None, help="Which game's rules apply.")
@output_option()
@db_option
@click.pass_context
def simulate(ctx, decks, games, seed, policy, policy_a, policy_b, house_rules, event_path,
             sensitivity, max_turns, until_ci, save_dir, players, jobs, scheduler, csv_path,
             html_path, game, output, db_dirs):
    """Play games between decks with the referee's own engine and report who wins.

    \b
    Two decks: A against B, in seat-swapped pairs from the same shuffles.
    More decks (or a folder): every pairing, a matchup matrix (--csv, --html).
    alpha-walrus: one shared deck for --players seats, wins by seat.

    \b
    Example: deckcli simulate examples/good/casual-savanna.yaml \\
        examples/good/casual-rainforest.json --games 100 --seed 1
    """
    from deckcli.diagnostics import visible_name
    from deckcli.files.write import check_target, writable_folder
    from deckcli.gamelog import parse_house_rules
    from deckcli.games import get
    from deckcli.sim import report as reporting
    from deckcli.sim import run
    from deckcli.sim.where import backend

    for target in (csv_path, html_path):  # refused before any game is played
        if target:
            check_target(target)
    if save_dir:
        writable_folder(save_dir)
    index = open_index(ctx, db_dirs)
    event = None
    if event_path:
        from deckcli.events.model import load_event

        event = load_event(event_path)
        resolve_event(event, index)  # its bans and limits, as validate --event reads them
    wanted = pick_game(ctx, game) or (event.game if event else None)
    entries = _paths(decks)
    paths = [path for path, _ in entries]
    for target in (csv_path, html_path):  # the matrix never replaces a deck it plays
        if target:
            from deckcli.files.write import check_not_input

            check_not_input(target, [*paths, event_path], "a deck or event file")
    if save_dir:  # a log never replaces a deck it plays (or the event file), nor what the
        from deckcli.sim.run import check_save_targets  # writer refuses: found before a game

        check_save_targets(save_dir, [*paths, event_path], games)
    game_id, loaded = _load(entries, index, wanted, players, event)
    g = get(game_id)
    ignored = []
    if players is not None and not g.shared_deck:
        ignored.append(f"--players {players} ({g.id} plays one deck a player)")
    if (csv_path or html_path) and (g.shared_deck or len(loaded) == 2):
        ignored.append("--csv/--html (a matchup matrix needs more than two decks)")
    if sensitivity and not g.shared_deck and len(loaded) > 2:
        ignored.append("--sensitivity (it goes with two decks or a shared deck)")
    for what in ignored:  # an option that changes nothing is said (DL-5.3)
        echo_warning(f"{what} changes nothing and is ignored", rule="DL-5.3")
    warn_if_illegal(loaded, "simulated anyway")
    given, event_rules = parse_house_rules(house_rules), event.house_rules if event else {}
    house = run.house_rules(g, given, event_rules)
    seed = fresh_seed(seed)
    from deckcli.sim.policies import default as default_policy
    from deckcli.sim.policies import make

    policy = policy or default_policy(g)
    pa, pb = policy_a or policy, policy_b or policy
    for spec in {pa, pb, policy}:
        make(g, spec)  # an unknown policy is a usage error before any game
    common = {"seed": seed, "house": house, "games": games, "max_turns": max_turns,
              "until_ci": until_ci, "db_dirs": db_folders(ctx, db_dirs)}
    pairings = 1 if (g.shared_deck or len(loaded) == 2) else len(loaded) * (len(loaded) - 1) // 2
    where = backend(jobs, scheduler, games * pairings)
    from deckcli.cli.progress import Progress

    progress = Progress("simulate", None, games * pairings)
    advance, finish = progress.advance, progress.finish
    saver = None
    if save_dir:
        from deckcli.sim.logs import Saver

        saver = Saver(save_dir)
    try:
        if g.shared_deck:
            if len(loaded) != 1:
                raise click.UsageError("alpha-walrus is played with one shared deck: give one "
                                       "DECK and --players N")
            n = loaded[0].players or g.default_players  # --players, else the deck's header
            seats = {f"p{i + 1}": policy for i in range(n)}
            seats["p1"], seats["p2"] = pa, pb
            def play(saver=None, progress=None, **changed):
                return run.shared_deck(g, loaded[0], players=n, policies=seats, where=where,
                                       saver=saver, progress=progress,
                                       players_default=loaded[0].players is None,
                                       **{**common, **changed})
            labels = {"shared": visible_name(loaded[0].path)}
        elif len(loaded) == 2:
            def play(saver=None, progress=None, **changed):
                return run.two_decks(g, loaded[0], loaded[1], policies={"a": pa, "b": pb},
                                     where=where, saver=saver, progress=progress,
                                     **{**common, **changed})
            labels = {k: visible_name(d.path) for k, d in zip("ab", loaded)}
        elif len(loaded) < 2:
            raise click.UsageError("give two decks (A and B), more for a matchup matrix, or "
                                   "a folder of decks")
        else:
            if save_dir:
                raise click.UsageError("--save-games goes with two decks")
            result = run.matrix(g, loaded, policies={"a": pa, "b": pb}, where=where,
                                progress=advance, **common)
            _write_matrix(result, csv_path, html_path)
            labels = None
        if labels is not None:
            result = play(saver=saver, progress=advance)
            if sensitivity:  # the same games, one house rule changed at a time
                result["sensitivity"] = run.sensitivity(result, lambda key, value: play(
                    house=run.house_rules(g, {**given, key: value}, event_rules)))
    except BaseException:  # stopped part-way (a write failed, Ctrl-C): say which logs are
        if saver is not None and saver.written:  # this run's, exactly
            finish()
            echo_status(f"deckcli: note: {saver.stopped()}")
        raise
    finally:
        finish()
        where.close()
    if saver is not None:
        older = saver.left_over(result["games"])
        if older:
            echo_status(f"deckcli: note: {older}")
    if output == "json":
        echo_json(result)
    elif labels is None:
        from deckcli.sim.matrix import render

        click.echo(render(result))
    else:
        click.echo("\n".join([reporting.render(result, labels, g.record_facts),
                              *reporting.sensitivity_lines(result)]))
    return EXIT_OK


def _write_matrix(result: dict, csv_path: str | None, html_path: str | None) -> None:
    from deckcli.diagnostics import visible_name
    from deckcli.files.write import atomic_write
    from deckcli.sim.matrix import to_csv, to_html

    for path, make in ((csv_path, to_csv), (html_path, to_html)):
        if path:
            atomic_write(path, make(result).encode("utf-8"))
            click.echo(f"deckcli: wrote {visible_name(path)}", err=True)
