"""``deckcli build`` and ``deckcli suggest``: the strongest legal deck from a player's binder."""

from __future__ import annotations

import os
import sys

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS
from deckcli.cli.common import (
    FILE,
    FORMATS,
    GAMES,
    PATH,
    STDOUT,
    Number,
    db_option,
    echo_json,
    echo_status,
    echo_warning,
    excluded,
    fresh_seed,
    house_rule_option,
    open_index,
    output_file_option,
    output_option,
    pick_game,
    play_options,
    warn_if_illegal,
)
from deckcli.games.base import MAX_PLAYERS

#: alpha-walrus: the table a shared deck is built or suggested for
_players = click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
                        help="alpha-walrus: the table the shared deck is for (default 2).")


def _common(f):
    f = db_option(f)
    f = output_option()(f)
    f = click.option("--game", type=click.Choice(GAMES), default=None,
                     help="Which game's rules apply (default: the collection's, else "
                          "animal-battle).")(f)
    f = play_options(f)
    f = click.option("--policy", default=None,
                     help="How both sides play the judging games: random, greedy, expert, "
                          "search[:N] (default: expert, the strongest heuristic).")(f)
    f = click.option("--measure", type=click.IntRange(2, 100_000), default=None,
                     help="Fresh games against each opponent for the numbers reported "
                          "(default: 200; alpha-walrus 100).")(f)
    f = click.option("--budget", type=Number(0, None, min_open=True), default=None,
                     metavar="SECONDS", help="Stop the search after this long (the result then "
                                             "depends on the machine's speed).")(f)
    f = click.option("--seed", type=int, default=None,
                     help="Seed: the same seed builds the same deck (default: random, shown).")(f)
    f = click.option("--games", type=click.IntRange(20, 10_000_000), default=None,
                     help="Games the search may play in all (default: 3000; alpha-walrus, "
                          "whose games are long, 400).")(f)
    f = house_rule_option()(f)
    f = click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
                     help="The event's bans, legal sets, limits and house rules apply.")(f)
    f = click.option("--against", "against", multiple=True, metavar="DECK|DIR", type=PATH,
                     help="A deck (or folder) to be judged against (repeatable; default: the "
                          "gauntlet).")(f)
    return click.option("--collection", required=True, metavar="FILE", type=FILE,
                        help="The cards owned: a decklist whose counts are the copies.")(f)


class _Run:
    """What build and suggest share: the index, the event, the binder, the judge."""

    def __init__(self, ctx, o: dict):
        from deckcli.build.collection import read_binder
        from deckcli.build.search import Judge
        from deckcli.cli.common import db_dirs
        from deckcli.decks.reader import read_deck
        from deckcli.gamelog import parse_house_rules
        from deckcli.games import DEFAULT_GAME, get
        from deckcli.sim import run as sim_run
        from deckcli.sim.where import backend

        self.index = index = open_index(ctx, o["db_dirs"])
        self.event = None
        if o["event_path"]:
            from deckcli.cli.common import resolve_event
            from deckcli.events.model import load_event

            self.event = load_event(o["event_path"])
            resolve_event(self.event, index)
        # each file is read once: its header says its game, and it is what the build reads
        self.decks = {path: read_deck(path, is_set=index.is_any_set_code)
                      for path in (o.get("deck"), o["collection"]) if path}
        headers = {path: _header_game(deck) for path, deck in self.decks.items()}
        said = {g for g in headers.values() if g}
        if len(said) > 1:
            raise click.UsageError("the deck and the collection are of two games: " + ", ".join(
                f"{path} is {g}" for path, g in headers.items() if g))
        game_id = pick_game(ctx, o["game"]) or (self.event.game if self.event else None) \
            or next(iter(said), None) or DEFAULT_GAME
        self.game = game = get(game_id)
        fmt = None if game.shared_deck else o.get("format") or (
            self.event.format if self.event else None) or game.default_format  # alpha-walrus: none
        self.binder = read_binder(o["collection"], index, game.id, fmt, self.event,
                                  deck=self.decks[o["collection"]])
        from deckcli.cli.common import warn_unapplied

        warn_unapplied([s.info for s in self.binder.stock])
        self.seed = fresh_seed(o["seed"])
        self.opponents = []
        if not game.shared_deck:  # alpha-walrus: one shared deck, no opponents' decks
            from deckcli.validate import walk_decks

            paths = list(o["against"]) or _gauntlet(game.id)
            mine = excluded() if o["against"] else None  # the gauntlet is deckcli's own
            self.opponents = [sim_run.load_deck(p, index, game.id)
                              for p in walk_decks(paths, exclude=mine)]
            if not o["against"]:  # shown by name: where the package is installed is noise
                for d in self.opponents:
                    d.path = "gauntlet:" + os.path.basename(d.path)
            warn_if_illegal(self.opponents, "played against anyway")
        self.house = sim_run.house_rules(game, parse_house_rules(o["house_rules"]),
                                         self.event.house_rules if self.event else {})
        from deckcli.sim.policies import default, make

        o["policy"] = o["policy"] or default(game)
        make(game, o["policy"])  # an unknown policy: a usage error before any game
        # the effort's defaults are the game's: an alpha-walrus game is many times longer
        o["games"] = o["games"] or game.build_effort[0]
        o["measure"] = o["measure"] or game.build_effort[1]
        self.where = backend(o["jobs"], o["scheduler"], o["games"])
        self.players = o.get("players")
        from deckcli.cli.progress import Progress

        self.progress = Progress(o.get("label", "build"))
        self.finish = self.progress.finish
        how = {"progress": self.progress.advance, "phase": self.progress.phase}
        folders = db_dirs(ctx, o["db_dirs"])
        if game.shared_deck:
            from deckcli.build.shared import SeatJudge

            self.players = self.players or game.default_players
            self.table = game.shared_table(self.binder, self.players, index)
            self.judge = SeatJudge(game, self.binder, self.players, policy=o["policy"],
                                   house=self.house, seed=self.seed,
                                   max_turns=o["max_turns"], where=self.where,
                                   db_dirs=folders, **how)
        else:
            self.judge = Judge(game, self.binder, self.opponents, policy=o["policy"],
                               house=self.house, seed=self.seed, max_turns=o["max_turns"],
                               where=self.where, db_dirs=folders, **how)


def _ignored(r, o) -> None:
    """Options that change nothing for this game warn (DL-5.3) instead of passing silently."""
    ignored = []
    if r.game.shared_deck:
        if o["against"]:
            ignored.append(f"--against ({r.game.id} shares one deck: there is no opponent's "
                           "deck)")
        if o.get("format"):
            ignored.append(f"--format {o['format']} ({r.game.id} has no formats)")
        if o.get("diverse"):
            ignored.append(f"--diverse {o['diverse']} (a shared deck is chosen for the most "
                           "even seats)")
    elif o.get("players") is not None:
        ignored.append(f"--players {o['players']} ({r.game.id} plays one deck a player)")
    for what in ignored:
        echo_warning(f"{what} changes nothing and is ignored", rule="DL-5.3")


def _header_game(deck) -> str | None:
    """The game a deck's header names, if it is one deckcli knows."""
    wanted = deck.header.get("game")
    return wanted.strip().lower() if isinstance(wanted, str) and wanted.strip().lower() in \
        GAMES else None


def _gauntlet(game_id: str) -> list[str]:
    from deckcli.build.gauntlet import decks

    found = decks(game_id)
    if not found:
        raise click.UsageError(f"{game_id} has no gauntlet: give --against DECK")
    return found


def _written_format(out: str) -> str:
    """The decklist format ``-o OUT`` is read back as (its suffix, as every command reads a
    file): ``text`` (``.txt``, ``.deck``, ``.dck``, any other suffix), ``yaml`` or ``json``,
    which build writes as ``fmt`` writes them. A CSV, Cockatrice or MTGO file cannot say which
    game and format the deck is for, so it would not read back as the deck built: UsageError
    (exit 2), naming the convert that makes one from a text decklist."""
    from deckcli.decks.reader import detect_format
    from deckcli.diagnostics import command_text, visible_name
    from deckcli.errors import UsageError

    found = detect_format(out, "")
    if found in ("text", "yaml", "json"):
        return found
    text = visible_name(os.path.splitext(out)[0] + ".txt")
    then = command_text("deckcli", "convert", text, "--to", found, "-o", visible_name(out))
    raise UsageError(f"would be read back as a {found} decklist, which cannot say the deck's "
                     f"game and format: write a .txt, .yaml or .json deck, then {then}; "
                     "nothing built", path=out)


@click.command()
@click.option("--format", "format", type=click.Choice(FORMATS), default=None,
              help="The format the deck must be legal in (default: the event's, else casual).")
@_players
@output_file_option(metavar="OUT", formats=("text", "json"), dash=True,
                    help="Write the deck here, as fmt writes it (a text decklist; YAML or "
                         "JSON for OUT.yaml or OUT.json) instead of printing it; '-': the deck "
                         "alone on stdout, the report on stderr (as without -o when stdout is "
                         "a pipe or a file).")
@click.option("--sensitivity", is_flag=True,
              help="Also measure the built deck under each other value of every gap met in "
                   "more than a tenth of its fresh games, and say how its numbers move.")
@click.option("--diverse", type=click.IntRange(1, 10), default=None, metavar="K",
              help="Build K decks that play differently, each from a first deck unlike the "
                   "ones before, the games shared out between them; the first is the deck "
                   "written, the report lists all K.")
@_common
@click.pass_context
def build(ctx, **o):
    """Build the strongest legal deck the collection can make, judged by simulated games.

    On a terminal it prints its report and the deck; into a pipe or a file ('> deck.txt')
    the deck alone goes to stdout and the report to stderr (--output json: the JSON on
    stdout, always). Exit 0 when a deck was built, 1 when the collection cannot make a
    legal deck for the format (the message says what is missing), 2 when an input cannot be
    read.

    \b
    Example: deckcli build --collection examples/collections/binder.txt --games 100 \\
        --measure 20 --seed 3
    """
    from deckcli.build import report
    from deckcli.build.explain import before_after, explain, measure
    from deckcli.build.search import search

    to_file = o["out"] not in (None, STDOUT)
    if o["out"] == STDOUT and o["output"] == "json":
        raise click.UsageError("-o - puts the deck on stdout, where --output json puts the "
                               "report (which lists the cards): give one of them")
    if to_file:  # refused before the search, not after it
        from deckcli.files.write import check_target

        check_target(o["out"])
        out_format = _written_format(o["out"])
    r = _Run(ctx, o)
    if to_file:  # the deck never replaces the collection, an --against deck or the event
        from deckcli.files.write import check_not_input

        check_not_input(o["out"], [o["collection"], o["event_path"],
                                   *(d.path for d in r.opponents if o["against"])],
                        "the collection, an --against deck or the event file")
    _ignored(r, o)
    why = r.table.missing() if r.game.shared_deck else r.binder.missing()
    if why:
        what = f"{r.players}-player {r.game.id}" if r.game.shared_deck else \
            f"{r.binder.format}"
        from deckcli.diagnostics import visible_name

        echo_status(f"deckcli: {visible_name(o['collection'])}: no legal {what} deck: {why}")
        return EXIT_PROBLEMS
    import random
    import time
    from collections import Counter

    from deckcli.build.sensitivity import sensitivity

    start = time.perf_counter()
    sensitive = None
    try:
        if r.game.shared_deck:
            from deckcli.build import shared

            best, stats = shared.search(r.judge, r.table, random.Random(r.seed),
                                        games=o["games"], budget=o["budget"])
            r.judge.stage("measuring", o["measure"])
            measured = shared.measure(r.judge, best, o["measure"])
            if o["sensitivity"]:
                sensitive = sensitivity(r.judge, Counter(measured["gaps"]), measured["games"],
                                        lambda: shared.measure(r.judge, best, o["measure"]))
        else:
            if o["diverse"]:
                from deckcli.build.search import diverse

                climbs = diverse(r.judge, r.binder, random.Random(r.seed), o["diverse"],
                                 games=o["games"], budget=o["budget"])
                best, stats = climbs[0]
                stats = {k: stats[k] if k in ("start", "path") else climbs[-1][1][k] if k == "games"
                         else sum(c[1][k] for c in climbs) for k in stats}
            else:
                best, stats = search(r.judge, r.binder, random.Random(r.seed),
                                     games=o["games"], budget=o["budget"])
            r.judge.stage("measuring", o["measure"] * len(r.opponents))
            measured = measure(r.judge, best.cards(r.binder), o["measure"], "final")
            if o["diverse"]:
                others = [(c, measure(r.judge, c.cards(r.binder), o["measure"], "final"))
                          for c, _ in climbs[1:]]
            r.judge.stage("before and after", 2 * o["measure"] * len(r.opponents))
            compared = before_after(r.judge, r.binder, stats["start"], best, measured,
                                    o["measure"], "final")
            explained = explain(r.judge, r.binder, best, measured,
                                max(20, o["measure"] // 2), "final")
            if o["sensitivity"]:
                sensitive = sensitivity(
                    r.judge, sum((Counter(m["gaps"]) for m in measured), Counter()),
                    sum(m["games"] for m in measured),
                    lambda: measure(r.judge, best.cards(r.binder), o["measure"], "final"))
    finally:
        r.finish()
        r.where.close()
    stats["seconds"] = time.perf_counter() - start
    stats["playing"] = r.judge.playing
    stats["all_games"] = r.judge.games
    if r.game.shared_deck:
        text, result = report.built_shared(r, best, measured, stats)
        render = report.render_built_shared
    else:
        text, result = report.built(r, best, measured, explained, stats, compared)
        render = report.render_built
    if sensitive is not None:
        result["sensitivity"] = report.sensitivity(sensitive)
    if o["diverse"] and not r.game.shared_deck:
        result["diverse"] = report.diverse(r, [(best, measured), *others])
    if to_file:
        from deckcli.diagnostics import visible_name
        from deckcli.files.write import atomic_write

        content = report.deck_file(r, text, out_format, result["fingerprint"])
        atomic_write(o["out"], content.encode("utf-8"))
        click.echo(f"deckcli: wrote {visible_name(o['out'])}", err=True)
    # the deck alone on stdout, as a file would hold it: with -o -, and without -o when
    # stdout is a pipe or a file ('build ... > deck.txt'); a terminal gets the report with it
    alone = o["out"] == STDOUT or (o["out"] is None and o["output"] != "json"
                                   and not _terminal(sys.stdout))
    if alone:
        click.echo(text, nl=False)
    if o["output"] == "json":
        echo_json(result)
    else:  # with the deck alone on stdout, the report goes where status goes
        click.echo("\n".join([render(result, stats, None if o["out"] or alone else text),
                              *report.sensitivity_lines(result),
                              *report.diverse_lines(result)]), err=alone)
    return EXIT_OK


def _terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed, or no file at all
        return False


@click.command()
@click.argument("deck", type=FILE)
@_players
@_common
@click.pass_context
def suggest(ctx, deck, **o):
    """The few single-card swaps from the collection that improve DECK most, each with its
    simulated gain and 95% interval; a swap the intervals cannot tell from no change is not
    presented as an improvement.

    \b
    Example: deckcli suggest examples/good/casual-savanna.yaml \\
        --collection examples/collections/binder.txt --games 100 --measure 20 --seed 1
    """
    from deckcli.build import report
    from deckcli.build.explain import improvements, measure

    o = {**o, "format": None, "label": "suggest", "deck": deck}
    r = _Run(ctx, o)  # which fills in the game's default --games and --measure in o
    _ignored(r, o)
    try:
        cand, problems = report.as_candidate(r, deck)
        if r.game.shared_deck:  # alpha-walrus: one-copy changes that even out the seats
            from deckcli.build import shared

            r.judge.stage("measuring", o["measure"])
            measured = shared.measure(r.judge, cand, o["measure"])
            found = shared.improvements(r.judge, r.table, cand, o["measure"], o["games"])
            result = report.suggested_shared(r, deck, measured, found)
        else:
            r.judge.stage("measuring", o["measure"] * len(r.opponents))
            measured = measure(r.judge, cand.cards(r.binder), o["measure"], "final")
            found = improvements(r.judge, r.binder, cand, measured, o["measure"], "final")
            result = report.suggested(r, deck, measured, found)
    finally:
        r.finish()
        r.where.close()
    for p in problems:
        echo_status(f"deckcli: warning: {p}")
    if o["output"] == "json":
        echo_json(result)
    else:
        click.echo(report.render_suggested(result))
    return EXIT_OK
