"""``deckcli new DECK``, ``deckcli add DECK CARD... [--count N]``, ``deckcli remove DECK CARD...``.

Edits are written atomically, and only after the edited text was parsed again and found to hold
exactly the old cards plus (or minus) the edited ones. After an edit the deck's size and verdict
are printed in one line; the exit code is 0 whatever the verdict (the edit succeeded).
"""

from __future__ import annotations

import os

import click

from deckcli.cli import EXIT_OK, complete
from deckcli.cli.common import (
    FILE,
    FORMATS,
    db_option,
    echo_status,
    game_option,
    open_index,
    pick_game,
)


def _summary(path: str, deck, index, game) -> str:
    """The edited deck's size and verdict, one status line (its name as reports show it)."""
    from deckcli.diagnostics import visible_name
    from deckcli.validate import Options, validate_deck

    path = visible_name(path)
    report = validate_deck(deck, index, Options(game=game))
    where = report.format or report.game
    cards = f"{report.card_count:,} card{'s' if report.card_count != 1 else ''}"
    if report.legal:
        return f"{path}: {cards}, {where}: legal"
    first = next(p for p in report.problems if p.is_error)
    more = report.errors - 1
    return (f"{path}: {cards}, {where}: ILLEGAL ({first.message}"
            + (f"; {more} more problem{'s' if more != 1 else ''}" if more else "") + ")")


def _load(path: str, index):
    from deckcli.decks.reader import read_source
    from deckcli.errors import UsageError

    deck, text, data = read_source(path, is_set=index.is_any_set_code)
    if text is None and [p.code for p in deck.problems] == ["empty-file"]:
        # an empty file is a deck to fill, as 'new' would have made it (YAML and JSON need
        # their 'cards' list to take an entry)
        from deckcli.decks.edit import new_deck_text
        from deckcli.decks.reader import deck_from_text, detect_format

        kind = detect_format(path, "")
        text = new_deck_text(kind, {}) if kind in ("yaml", "json") else ""
        deck = deck_from_text(text, data, path, kind, is_set=index.is_any_set_code)
    if text is None:  # not text at all (its line, where there is one: the first bad byte)
        first = deck.problems[0]
        raise UsageError(f"cannot edit it: {first.message}", path=path, line=first.line)
    errors = [p for p in deck.problems if p.is_error and p.code != "empty-deck"]
    if errors:
        first = errors[0]
        from deckcli.diagnostics import command_text

        raise UsageError(f"cannot edit it: {first.message} (fix the {len(errors)} error(s) "
                         f"first; {command_text('deckcli', 'validate', path)} lists them)",
                         path=path, line=first.line)
    return deck, text


def _edit(ctx, path, cards, count, game, db_dirs, action):
    from deckcli.diagnostics import visible_name
    from deckcli.files.write import editing

    game = pick_game(ctx, game)
    index = open_index(ctx, db_dirs)
    with editing(path):  # from the read to the write: a concurrent edit waits its turn
        new_deck, messages = _edit_locked(path, cards, count, game, index, action)
    # the edit is the result; what was done and the deck's new verdict are status (stderr)
    for message in messages:
        echo_status(f"{visible_name(path)}: {message}")
    echo_status(_summary(path, new_deck, index, game))
    return EXIT_OK


def _edit_locked(path, cards, count, game, index, action):
    """Every CARD edited in turn, each edit checked; the file is written once, after the
    last, so a card that cannot be edited leaves it as it was."""
    from deckcli.decks import edit
    from deckcli.decks.format import CannotFormat, encode, game_for
    from deckcli.decks.reader import parse_text_of
    from deckcli.errors import UsageError
    from deckcli.files.write import atomic_write

    deck, text = _load(path, index)
    try:
        chosen = game_for(deck, game)
    except CannotFormat as exc:
        raise UsageError(exc.message, path=path) from None
    asked = []
    for card in cards:  # every card is looked up before any is edited
        copies, ref = edit.split_count(index, chosen, card)
        if copies is not None and count is not None:
            raise UsageError(f"{card!r} gives its quantity and --count {count} gives another: "
                             "give one (--count is for the cards written without one)")
        asked.append((edit.choose_card(index, chosen, ref), copies or count or 1))
    newline = "\r\n" if "\r\n" in text else "\n"
    messages = []
    for choice, copies in asked:
        result = getattr(edit, action)(deck, text, index, chosen, choice, copies)
        new_text = result.text.replace("\r\n", "\n").replace("\n", newline)
        new_deck = parse_text_of(new_text, path, deck.source_format, bom=deck.bom,
                                 is_set=index.is_any_set_code)
        problem = edit.check_edit(deck, new_deck, index, chosen, result.delta)
        if problem:
            raise edit.EditError(f"internal error, please report: {problem}; the file is "
                                 "unchanged", path=path)
        deck, text = new_deck, new_text
        messages.append(result.message)
    atomic_write(path, encode(text, deck.bom))
    return deck, messages


@click.command()
@click.argument("deck", type=FILE, shell_complete=complete.path)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="animal-battle format (default casual).")
@game_option
@click.option("--name", default=None, help="The deck's name.")
@click.option("--player", default=None, help="The player's name.")
def new(deck, fmt, game, name, player):
    """Create an empty decklist; its suffix (.txt, .deck, .yaml, .yml, .json) picks the format.

    Never overwrites an existing file (exit 2).

    \b
    Example: deckcli new deck.txt --name 'Deep Divers'
    """
    from deckcli.decks.edit import new_deck_text
    from deckcli.decks.reader import FORMAT_BY_SUFFIX
    from deckcli.diagnostics import visible_name
    from deckcli.errors import UsageError
    from deckcli.files.write import atomic_write
    from deckcli.games import DEFAULT_GAME, get

    ctx = click.get_current_context()
    game = pick_game(ctx, game) or DEFAULT_GAME
    if fmt and not get(game).formats:
        raise UsageError(f"{game} has no formats; leave out --format")
    source = FORMAT_BY_SUFFIX.get(os.path.splitext(deck)[1].lower())
    if source not in ("text", "yaml", "json"):
        raise UsageError("give the deck a .txt, .deck, .yaml, .yml or .json name", path=deck)
    if os.path.lexists(deck):
        raise UsageError("already exists; not overwriting it", path=deck)
    for label, value in (("name", name), ("player", player)):
        if value is not None and (not value.strip() or "#" in value or "\n" in value):
            raise UsageError(f"--{label} must be one line of text without '#'")
    header = {"game": game, "format": fmt or get(game).default_format, "name": name,
              "player": player}
    atomic_write(deck, new_deck_text(source, header).encode("utf-8"), overwrite=False)
    where = header["format"] or game
    click.echo(f"created {visible_name(deck)} ({game}{', ' + where if header['format'] else ''}, "
               "0 cards)", err=True)
    return EXIT_OK


@click.command()
@click.argument("deck", type=FILE, shell_complete=complete.path)
@click.argument("cards", nargs=-1, required=True, type=str, metavar="CARD...",
                shell_complete=complete.card())
@click.option("--count", "-n", type=click.IntRange(1, 999), default=None,
              help="Copies to add of each CARD written without a quantity (default 1).")
@game_option
@db_option
@click.pass_context
def add(ctx, deck, cards, count, game, db_dirs):
    """Add cards to a decklist, each CARD written as on a decklist line: '4 Walrus',
    '4x Walrus (ABS) 12 [foil]', 'Walrus' (one copy) or '2 ABS 12'.

    Prints the deck's new size and verdict; exit 0 whatever the verdict, 2 when a card is
    unknown or ambiguous (nothing is written).

    \b
    Example: deckcli add deck.txt 'Walrus (ABS) 12 [foil]' --count 2
    """
    return _edit(ctx, deck, cards, count, game, db_dirs, "add")


@click.command()
@click.argument("deck", type=FILE, shell_complete=complete.path)
@click.argument("cards", nargs=-1, required=True, type=str, metavar="CARD...",
                shell_complete=complete.card())
@click.option("--count", "-n", type=click.IntRange(1, 999), default=None,
              help="Copies to remove of each CARD written without a quantity (default 1).")
@game_option
@db_option
@click.pass_context
def remove(ctx, deck, cards, count, game, db_dirs):
    """Remove cards from a decklist (an entry goes when none are left), each CARD written as
    on a decklist line: '2 Walrus', 'Walrus (ABS) 12' (one copy).

    A CARD without a printing removes copies of any printing. Exit 2 when a card is not in
    the deck, unknown or ambiguous (nothing is written).

    \b
    Example: deckcli remove deck.txt Walrus --count 1
    """
    return _edit(ctx, deck, cards, count, game, db_dirs, "remove")
