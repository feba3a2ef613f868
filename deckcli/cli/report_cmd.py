"""``deckcli stats``, ``deckcli sheet`` and ``deckcli report``: statistics and HTML pages.

Click only: the data and the pages come from :mod:`deckcli.sheets`.
"""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    FORMATS,
    PATH,
    STDOUT,
    collect_decks,
    db_option,
    echo_json,
    echo_status,
    echo_warning,
    game_option,
    open_index,
    option_warnings,
    output_file_option,
    output_option,
    pick_game,
    resolve_event,
)

PAPER = click.option("--paper", type=click.Choice(["auto", "a4", "letter"]), default="auto",
                     show_default=True,
                     help="Paper size for printing (auto: the printer's; the layout fits both).")
FORMAT = click.option("--format", "fmt", type=click.Choice(FORMATS),
                      default=None, help="animal-battle format (default: event, header, casual).")
OUT = output_file_option(metavar="FILE.html", dash=True,
                         help="Write the page to this file (atomically) instead of stdout.")


def _decks_beside(event, out: str) -> list[str]:
    """The deck files beside the roster's that no player is listed for (read with the roster)
    that ``out`` names and that hold card entries: a deck, never replaced. A file there that
    holds none (an earlier ``export -o lists.json``) is no deck, and is replaced as before."""
    from deckcli.decks.reader import read_deck
    from deckcli.errors import DeckcliError
    from deckcli.files.write import is_one_of
    from deckcli.roster import unlisted_paths
    from deckcli.validate import Unreadable

    found = []
    for path in unlisted_paths(event):
        if type(path) is not Unreadable and is_one_of(out, [path]):  # a link out: not opened
            try:
                if read_deck(path).entries:
                    found.append(path)
            except DeckcliError:
                pass
    return found


def _refuse_inputs(out: str | None, event, event_path: str | None, sheets=(),
                   what: str = "a deck or event file", paths=()) -> None:
    """The page or export never replaces a deck it shows (among ``sheets``, or ``paths``),
    the event file, a roster deck or a deck beside the roster's (exit 2, nothing written)."""
    if out and out != "-":
        from deckcli.files.write import check_not_input

        roster = [*(p for _, p in event.roster_paths()), *_decks_beside(event, out)] \
            if event is not None else []
        check_not_input(out, [event_path, *roster, *(s.report.path for s in sheets), *paths],
                        what)


def _write(out: str, text: str) -> None:
    _write_parts(out, [text])


def _write_parts(out: str, parts) -> None:
    """Write the strings of ``parts`` as they come, to stdout (``-``) or all or nothing to
    ``out`` (the one writer, streamed into its temporary file)."""
    if out == "-":
        for part in parts:
            click.echo(part, nl=False)
        return
    from deckcli.files.write import replacing

    with replacing(out, text=True) as stream:
        for part in parts:
            stream.write(part)


def _load_event(path: str | None, as_of: str | None = None):
    if not path:
        return None
    from deckcli.events.model import load_event

    return load_event(path, as_of=as_of)


@click.command()
@click.argument("decks", nargs=-1, type=PATH, metavar="[DECK|FOLDER]...",
                shell_complete=complete.path)
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="Event file: its name, date and rules; without DECK, its roster.")
@click.option("--player", default=None, metavar="NAME",
              help="The player's name on the sheet; with --event and no DECK, that player only.")
@game_option
@FORMAT
@PAPER
@OUT
@db_option
@click.pass_context
def sheet(ctx, decks, event_path, player, game, fmt, paper, out, db_dirs):
    """Print registration sheets (HTML, one page per deck), or write them to -o FILE.html.

    Each page shows the event, player, game and format, the list grouped by kind with
    subtotals, the deck fingerprint, the verdict and boxes for judges' initials. Print it from
    a browser (A4 or US Letter). Exit 0 when written, illegal decks included (the sheet shows
    the verdict); 2 for a missing deck file or a bad event file.

    \b
    Example: deckcli sheet --event examples/event/event.yaml -o sheets.html
    """
    from deckcli.sheets import load_event_decks
    from deckcli.sheets.sheet import render_sheets
    from deckcli.validate import Options

    out = out or STDOUT
    event = _load_event(event_path)
    if not decks and event is None:
        raise click.UsageError("give at least one deck file, or --event with a roster")
    if player and len(decks) > 1:
        raise click.UsageError("--player names the player of one deck; give one DECK")
    index = open_index(ctx, db_dirs)
    if event is not None:
        resolve_event(event, index)
    options = Options(game=pick_game(ctx, game), format=fmt, event=event)
    if decks:
        paths = collect_decks(decks)  # folders are walked for deck files, as validate does
        if not paths:
            raise click.UsageError("no decklists among the files given")
        if player and len(paths) > 1:
            raise click.UsageError("--player names the player of one deck; give one DECK")
        sheets = [_sheet_of(path, index, options, player) for path in paths]
    else:
        sheets = load_event_decks(event, index, options, player=player)
    _refuse_inputs(out, event, event_path, sheets)
    _write(out, render_sheets(sheets, event, paper=paper))
    if out != "-":
        from deckcli.diagnostics import visible_name

        legal = sum(1 for s in sheets if s.legal)
        click.echo(f"wrote {len(sheets):,} sheet(s) to {visible_name(out)}: {legal:,} legal, "
                   f"{len(sheets) - legal:,} illegal or missing", err=True)
    return EXIT_OK


def _sheet_of(path: str, index, options, player):
    """A deck file's sheet; one found in a folder that cannot be read (a FIFO, a file gone
    since the walk, a link out of the folder) gets a page saying so, with the problem validate
    reports for it (DL-1.4), and the other decks are written."""
    from deckcli.diagnostics import visible_name
    from deckcli.errors import NotFoundError
    from deckcli.sheets import DeckSheet, load_deck
    from deckcli.validate import Unreadable, found_report, unreadable_report

    if type(path) is Unreadable:  # found by the walk and not read: never opened here either
        return DeckSheet(found_report(path, options), note=f"{visible_name(path)}: "
                                                           f"{path.reason}.")
    try:
        return load_deck(path, index, options, player=player)
    except NotFoundError as exc:
        return DeckSheet(unreadable_report(path, exc.message, options),
                         note=f"{visible_name(path)} cannot be read: {exc.message}.")


@click.command()
@click.argument("event_path", metavar="EVENT.yaml", required=False, type=FILE,
               shell_complete=complete.path)
@click.option("--as-of", "as_of", default=None, metavar="DATE",
              help="Date that decides which dated bans apply (default: the event's date).")
@PAPER
@OUT
@db_option
@click.pass_context
def report(ctx, event_path, as_of, paper, out, db_dirs):
    """Print the organiser's report on an event's roster (one HTML page), or write it to -o
    FILE.html.

    Every deck with its verdict, problems (linked to the rules' text) and fingerprint, the
    most played cards, each card's share of decks and each battle statistic's profile, drawn
    as inline SVG. Exit 0 when written; 2 for a bad event file.

    \b
    Example: deckcli report examples/event/event.yaml -o report.html
    """
    from deckcli.roster import roster_decks, unlisted_paths
    from deckcli.sheets.report import Tally, report_parts
    from deckcli.validate import Options

    if not event_path:
        raise click.UsageError("give the event file (EVENT.yaml), or name it as 'event' in a "
                               "configuration file")
    out = out or STDOUT
    event = _load_event(event_path, as_of)
    index = open_index(ctx, db_dirs)
    resolve_event(event, index)
    event.need_roster()
    # the page never replaces what it shows: the event file, a roster deck, a deck beside them
    _refuse_inputs(out, event, event_path, paths=unlisted_paths(event))
    # each deck read, counted and dropped (a deck a time, not the event's 20,000 at once),
    # then the page written as it is made
    tally = Tally.of(roster_decks(event, index, Options(event=event)), index)
    _write_parts(out, report_parts(event, tally, paper=paper))
    if out != "-":
        from deckcli.diagnostics import visible_name

        click.echo(f"wrote the report on {len(tally.rows):,} deck(s) to {visible_name(out)}",
                   err=True)
    return EXIT_OK


@click.command()
@click.argument("deck", metavar="DECK", type=FILE, shell_complete=complete.path)
@game_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="animal-battle format (default: the deck's header, else casual).")
@output_option()
@db_option
@click.pass_context
def stats(ctx, deck, game, fmt, output, db_dirs):
    """Show a deck's statistics against the card database.

    animal-battle: cards by kind; for each battle statistic the deck's median, best and worst
    Animal and the database's median ("best" follows the winning sense: the lowest
    Population); the chance of an Animal in the opening six. alpha-walrus: cards by kind and
    the creature levels. Exit 0; 2 when the file is missing or not a decklist (empty,
    binary), with nothing printed before the error.

    \b
    Example: deckcli stats examples/good/championship-deep-divers.txt
    """
    from deckcli.sheets import load_deck
    from deckcli.sheets.stats import deck_stats
    from deckcli.validate import Options

    index = open_index(ctx, db_dirs)
    sheet_ = load_deck(deck, index, Options(game=pick_game(ctx, game), format=fmt))
    if sheet_.rdeck is None:  # no decklist (empty, binary) or of an unknown game: no figures
        from deckcli.errors import unreadable_deck

        raise unreadable_deck(deck, sheet_.report.problems)
    doc = deck_stats(sheet_, index)
    if output == "json":
        echo_json(doc)
    else:
        click.echo(render_stats(doc))
    def where(p) -> str:
        from deckcli.diagnostics import visible_name

        return f"{visible_name(p.path or deck)}" + (f":{p.line}" if p.line else "")

    from deckcli.diagnostics import command_text

    check = command_text("deckcli", "validate", deck)
    for p in sheet_.deck.problems:  # lines that could not be read: not counted, and said so
        if p.is_error:
            echo_status(f"deckcli: warning: {where(p)}: {p.message} (left out; run {check})")
    for p in option_warnings(sheet_.report.problems):
        echo_warning(p.message, p.path, p.line, p.rule)
    if doc["unresolved"]:
        echo_status(f"deckcli: warning: {doc['unresolved']} card(s) name no known card and "
                    f"are left out (run {check})")
    return EXIT_OK


# -- text output of ``stats`` ----------------------------------------------------------------
BAR = 24


def _bar(share: float | None, width: int = BAR) -> str:
    filled = 0 if share is None else round(max(0.0, min(1.0, share)) * width)
    return "#" * filled + "." * (width - filled)


def _right(rows: list[list], columns) -> list[list]:
    """Right-align the given columns (numbers) by padding to the widest cell."""
    for c in columns:
        width = max((len(str(r[c])) for r in rows), default=0)
        for r in rows:
            r[c] = str(r[c]).rjust(width)
    return rows


def render_stats(doc: dict) -> str:
    from deckcli.diagnostics import visible_name
    from deckcli.games import GAMES
    from deckcli.reporters.text import table
    from deckcli.sheets.html import num, pct

    title = visible_name(doc["name"] or doc["path"] or "deck")  # one line, whatever it holds
    where = f"  ({visible_name(doc['path'])})" if doc["name"] and doc["path"] else ""
    lines = [f"{title}{where}", ", ".join(x for x in (
        doc["game"], doc["format"], f"{doc['cards']:,} cards") if x)]
    if doc["unresolved"]:
        lines.append(f"{doc['unresolved']:,} card(s) name no known card and are left out")
    plurals = GAMES[doc["game"]].kinds if doc["game"] in GAMES else {}
    total = doc["cards"] or 1
    rows = [[plurals.get(k, k), f"{n:,}", _bar(n / total), pct(n / total, 0)]
            for k, n in doc["kinds"].items()]
    if rows:
        lines += ["", table(["kind", "cards", "", "share"], _right(rows, (1, 3)))]
    if "levels" in doc:
        most = max(doc["levels"].values(), default=0) or 1
        rows = [[f"level {lv}", f"{n:,}", _bar(n / most)] for lv, n in doc["levels"].items()]
        lines += ["", "Creature levels (copies):",
                  table(["level", "creatures", ""], _right(rows, (1,))) if rows else "none"]
    if "stats" in doc:
        rows = []
        for stat, p in doc["stats"].items():
            d, db = p["deck"] or {}, p["database"] or {}
            label = stat if stat == "population" else f"{stat} ({p['unit']})"
            rows.append([label, p["wins"], num(d.get("median")),
                         f"{num(d.get('best'))} {_short(d.get('best_card'))}".rstrip(),
                         f"{num(d.get('worst'))} {_short(d.get('worst_card'))}".rstrip(),
                         num(db.get("median")),
                         f"{_bar(p['median_beats'], 16)} {pct(p['median_beats'], 0)}"])
        lines += ["", ("Battle statistics of the deck's Animals (every copy counted) against "
                       "the database's Animals:"),
                  table(["statistic", "wins", "deck median", "deck best", "deck worst",
                         "db median", "median beats (share of db)"],
                        _right(rows, (2, 5)))]
        o = doc["opening_hand"]
        lines += ["", (f"Opening hand ({o['cards']} cards, rule {o['rule']}): "
                       f"{_chance(o['chance_at_least_one'])} chance of at least one Animal; "
                       f"{num(o['expected_animals'])} Animals expected ({o['animals']:,} in "
                       f"{doc['cards']:,} cards).")]
    from deckcli.diagnostics import visible

    return visible("\n".join(lines))  # a deck's name or path may hold control characters


def _chance(p: float) -> str:
    """A probability as a percentage that never rounds a near-certainty up to 100%."""
    if 0.9999 < p < 1:
        return ">99.99%"
    return f"{p * 100:.2f}%"


def _short(ref: str | None) -> str:
    """'Blue Whale (ABS) 1' -> '(Blue Whale)'."""
    return f"({ref.split(' (')[0]})" if ref else ""


@click.command()
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="The event whose roster decks are published (required, here or as "
                   "'event' in a configuration file).")
@click.option("--to", "to", required=True, type=click.Choice(["csv", "json", "html"]),
              help="csv (one row per card), json, or an html page.")
@output_file_option(metavar="OUT", formats=("csv", "json", "html"), picker="--to",
                    help="Write to this file (atomically) instead of stdout.")
@PAPER
@db_option
@click.pass_context
def export(ctx, event_path, to, out, paper, db_dirs):
    """Publish an event's decklists: every roster deck with its player, deck name,
    fingerprint, verdict and cards, as CSV, JSON or one HTML page.

    A listed player without a deck is listed as 'missing'. CSV cells a spreadsheet would run
    as formulas are escaped. Written whatever the verdicts; exit 0 when every deck is legal,
    1 when one is illegal or missing, 2 for a bad event file.

    \b
    Example: deckcli export --event examples/event/event.yaml --to csv  # exit 1
    """
    from deckcli.sheets import load_event_decks
    from deckcli.sheets.export import export as render
    from deckcli.validate import Options

    if not event_path:
        raise click.UsageError("Missing option '--event' (or 'event' in a configuration file).")
    event = _load_event(event_path)
    _refuse_inputs(out, event, event_path, what="the event file or a deck of the event")
    index = open_index(ctx, db_dirs)
    resolve_event(event, index)
    sheets = [s for s in load_event_decks(event, index, Options(event=event))
              if s.report.player in event.players]  # the roster, not unlisted files
    _write(out or "-", render(event, sheets, to, paper=paper))
    if out:
        from deckcli.diagnostics import visible_name

        click.echo(f"wrote {len(sheets):,} deck(s) of {visible_name(event_path)} to "
                   f"{visible_name(out)} ({to})", err=True)
    # written either way; the exit code says whether every deck is legal, as for every command
    return EXIT_OK if all(s.legal for s in sheets) else EXIT_PROBLEMS
