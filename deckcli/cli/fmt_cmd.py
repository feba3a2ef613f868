"""``deckcli fmt PATH... [--check] [--diff]`` and ``deckcli convert PATH --to FORMAT [-o OUT]``.

fmt is as careful as black: before anything is written, the new text is parsed again and must
hold the same cards (card, printing, variant tags, counts) with the same validate verdict (at
the event, with ``--event``), and formatting it again must change nothing. If either check
fails nothing is written and the command exits 2 ("internal error, please report"). Writes are
atomic.
"""

from __future__ import annotations

import sys

import click

from deckcli.cli import EXIT_FAILURE, EXIT_OK, EXIT_PROBLEMS, complete
from deckcli.cli.common import (
    FILE,
    PATH,
    collect_decks,
    db_option,
    echo_status,
    game_option,
    open_index,
    output_file_option,
    pick_game,
    resolve_event,
)
from deckcli.decks.convert import TARGETS as CONVERT_TARGETS

#: What ``convert --to`` writes (and so what ``-o`` must not be mistaken for).
TARGETS = list(CONVERT_TARGETS)


class _Unsafe(Exception):
    """fmt's own safety check failed: a bug in deckcli, not in the deck."""


def _say(message: str) -> None:
    from deckcli.diagnostics import one_line

    echo_status(one_line(message))  # a file name's escapes and line breaks shown escaped


def _stdout_bytes(data: bytes) -> None:
    out = sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream (tests): write the same characters
        out.write(data.decode("utf-8"))


def _read(path: str, index, stdin_name: str | None = None):
    """(deck, text, bytes) for a path or '-' (stdin); text is None when it could not be decoded."""
    from deckcli.decks.reader import read_source

    return read_source(path, is_set=index.is_any_set_code, stdin_name=stdin_name)


def _safe_format(deck, text: str, index, game, event=None) -> bytes:
    """The formatted bytes, after the equivalence and stability checks.

    With an event that lists legal sets, an entry naming only the card is written with a
    printing from those sets (:func:`~deckcli.decks.format.pin_printings`), and the deck
    must get the same verdict at the event before and after."""
    from deckcli.decks.format import encode, format_deck, game_for, pin_printings
    from deckcli.decks.reader import parse_text_of
    from deckcli.rewrite import same_deck, verdict

    before = None
    if event is not None and event.sets is not None:
        before = verdict(deck, index, game, event)
        pin_printings(deck, index, game_for(deck, game), event.sets)
    new_text = format_deck(deck, text, index, game)
    again = parse_text_of(new_text, deck.path, deck.source_format, bom=deck.bom,
                          is_set=index.is_any_set_code)
    if any(p.is_error for p in again.problems):
        first = next(p for p in again.problems if p.is_error)
        raise _Unsafe(f"the formatted text does not parse (line {first.line}: {first.message})")
    if not same_deck(deck, again, index, game, event):
        raise _Unsafe("the formatted deck is not the same deck")
    chosen = game_for(deck, game)
    if _sideboard(deck, index, chosen) != _sideboard(again, index, chosen):
        raise _Unsafe("the formatted deck lost or changed its sideboard")
    if before is not None and verdict(again, index, game, event) != before:
        raise _Unsafe("the formatted deck gets another verdict at the event")
    if format_deck(again, new_text, index, game) != new_text:
        raise _Unsafe("formatting is not stable")
    return encode(new_text, deck.bom)


def _sideboard(deck, index, game) -> list[tuple]:
    """The sideboard's entries in order, each its count and the card (identity, printing,
    tags) it stands for, as the deck's cards are compared (fmt spells them anew)."""
    from deckcli.decks.same import card_key

    return [(e.count, card_key(index, game, e, deck.path)) for e in deck.sideboard]


def _settle_names(deck, index, game) -> None:
    """Entries whose whole name part is a card's name ('Agent RFS 9') are written as that
    name, not split into a name, a set and a number (where the game is known)."""
    from deckcli.decks.resolve import settle_whole_names

    _in_its_game(settle_whole_names, deck, index, game)


def _give_printings(deck, index, game) -> None:
    """Arena lines are ``QTY NAME (SET) NUMBER``: each entry that resolves to one card gets
    its printing (where the game is known)."""
    from deckcli.decks.convert import give_printings

    _in_its_game(give_printings, deck, index, game)


def _in_its_game(step, deck, index, game) -> None:
    """``step(deck, index, game)`` with the deck's game (the option, else its header); an
    unknown game in the header has no cards to look up, and the entries stay as written."""
    from deckcli.decks.format import CannotFormat, game_for

    try:
        step(deck, index, game_for(deck, game))
    except CannotFormat:
        pass


def _read_back(result: str, out: str | None, to: str, index, game):
    """``result`` (a ``to`` decklist) read back as every command will read it, once: the deck
    the checks below compare with the one converted. Before ``convert -o OUT`` writes, OUT
    must read as a ``to`` decklist (its suffix, else its content); else nothing is written
    (exit 2)."""
    from deckcli.decks.convert import SUFFIX
    from deckcli.decks.reader import detect_format, parse_text_of
    from deckcli.errors import UsageError

    kind = "text" if to == "arena" else to
    if out is not None:
        found = detect_format(out, result)
        if found != kind:
            raise UsageError(f"{out} would be read back as a {found} decklist, not {to}: name "
                             f"it with {SUFFIX[to]}, or convert --to {found}; nothing written")
    again = parse_text_of(result, out or "-", kind, is_set=index.is_any_set_code)
    if kind == "yaml":
        from deckcli.decks.yamlfmt import read_comments

        read_comments(again, result)
    _settle_names(again, index, game)
    return again


def _check_converted(deck, again, out: str, to: str) -> None:
    """Before ``convert -o OUT`` writes: OUT read back (``again``) keeps all the target
    carries of the deck (:func:`deckcli.decks.carry.kept`). Else nothing is written (exit 2)."""
    from deckcli.decks.carry import kept
    from deckcli.errors import DeckcliError

    if any(p.is_error for p in again.problems) or kept(again, to) != kept(deck, to):
        raise DeckcliError("internal error, please report: the converted deck is not the "
                           "same deck; nothing written", path=out)


def _misread(deck, again, to: str) -> list[str]:
    """The entries of ``deck`` that the conversion read back (``again``) does not give back
    as they stand: a name no card has may hold what a line of the target means otherwise
    ('Walrus # hi' in a JSON deck is, as a text line, a Walrus and a comment). Each as
    "the entry 'Walrus # hi' would read back as 'Walrus'". So may a header's value ('#1 Aggro'
    as the text line 'name: #1 Aggro' is no name and a comment)."""
    from deckcli.decks.carry import kept

    before, after = kept(deck, to), kept(again, to)
    found = []
    for key, value in before["header"].items():
        now = after["header"].get(key)
        if now != value:
            shown = "nothing" if now is None else repr(now)
            said = f"{key}: {value}"
            found.append(f"the header line {said!r} would read back as {shown}")
    for part in ("entries", "sideboard"):
        old, new = before[part] or [], after[part] or []
        for i, was in enumerate(old):
            now = new[i] if i < len(new) else None
            if now != was:
                shown = "nothing" if now is None else repr(now[1]) if now[1] != was[1] \
                    else "another entry"
                found.append(f"the entry {was[1]!r} would read back as {shown}")
                if len(old) != len(new):
                    break  # the entries after it are read out of step
    return found


def _lost_cards(deck, again, to: str, index, game) -> list[str]:
    """The entries of ``deck`` that name one card and, read back (``again``, a ``to``
    decklist, which carries no printing: ``dek``), no longer name that card: a .dek names
    cards by name only, and 'Bison' is two cards. Each as ''Bison' (Bison (DWV) 2)'."""
    from deckcli.decks.carry import CARRIES
    from deckcli.decks.format import CannotFormat, game_for
    from deckcli.decks.resolve import Resolved, resolve_entry

    if "printings" in CARRIES[to]:
        return []
    try:
        chosen = game_for(deck, game)
    except CannotFormat:  # an unknown game in the header: no card to lose
        return []
    pairs = list(zip(deck.entries, again.entries))
    if "sideboard" in CARRIES[to]:
        pairs += zip(deck.sideboard, again.sideboard)
    lost = []
    for old, new in pairs:
        was = resolve_entry(index, chosen, old, deck.path)
        if not isinstance(was, Resolved):
            continue
        now = resolve_entry(index, chosen, new, deck.path)
        if not isinstance(now, Resolved) or now.card.id != was.card.id:
            lost.append(f"{old.name!r} ({was.card.ref})")
    return list(dict.fromkeys(lost))


def _report_problems(deck) -> None:
    for p in deck.problems:
        if p.is_error:
            where = deck.path + (f":{p.line}" if p.line else "")
            _say(f"{where}: error: {p.message} [{p.code}, rule {p.rule}]")


def _diff(path: str, old: bytes, new: bytes) -> str:
    """A unified diff of a file's formatting, as a report shows what a file says: the file's
    name one line (:func:`~deckcli.diagnostics.visible_name`), and a control character or
    bidi override in a line escaped (:func:`~deckcli.diagnostics.visible`), its line end
    kept: a diff printed in a CI log or a terminal drives neither."""
    import difflib

    from deckcli.diagnostics import visible, visible_name

    def shown(line: str) -> str:
        body = line.rstrip("\r\n")
        return visible(body) + line[len(body):]

    name = visible_name(path)
    a = old.decode("utf-8", "replace").lstrip("\ufeff").splitlines(keepends=True)
    b = new.decode("utf-8", "replace").lstrip("\ufeff").splitlines(keepends=True)
    lines = list(difflib.unified_diff(a, b, f"{name} (original)", f"{name} (formatted)"))
    return "".join(shown(x) if x.endswith("\n") else
                   shown(x) + "\n\\ No newline at end of file\n" for x in lines)


def _plural(n: int, word: str = "file") -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


@click.command()
@click.argument("paths", nargs=-1, type=PATH, required=True, shell_complete=complete.path)
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 if any file would change, and list those files.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Write nothing; print a unified diff of the changes to stdout.")
@click.option("--stdin-filename", "stdin_name", default=None, metavar="NAME", type=FILE,
              help="Name whose suffix (.txt, .dck, .yaml, .json, .csv, .cod, .dek) says "
                   "what '-' holds.")
@click.option("--event", "event_path", default=None, metavar="EVENT.yaml", type=FILE,
              shell_complete=complete.path,
              help="Event file: its game, and printings from its legal sets for entries "
                   "that name only the card.")
@game_option
@db_option
@click.pass_context
def fmt(ctx, paths, check, show_diff, stdin_name, event_path, game, db_dirs):
    """Rewrite decklists (files or folders) in the canonical form; '-' reads stdin.

    Entries are grouped by kind under section headers, sorted, merged and spelled as in the
    card database; comments, line endings and the byte-order mark are kept. A deck is only
    rewritten when the new text holds exactly the same cards with the same verdict.

    With --event, an entry naming only the card gets a printing from the event's legal sets
    (the card's own printing may be from a set the event does not allow).

    Exit 0 when done, 1 when --check finds a file to change or a file cannot be read as a deck,
    2 on missing paths, a bad event file or an internal error.

    \b
    Example: deckcli fmt --check examples/good
    """
    from deckcli.decks.format import CannotFormat
    from deckcli.decks.reader import other_tool, read_bytes
    from deckcli.errors import DeckcliError, NotFoundError
    from deckcli.files.write import WriteError, atomic_write, editing
    from deckcli.validate import Unreadable

    event = None
    if event_path:
        from deckcli.events.model import load_event

        event = load_event(event_path)
    game = pick_game(ctx, game) or (event.game if event is not None else None)
    targets = collect_decks(paths)
    index = open_index(ctx, db_dirs)
    if event is not None:
        resolve_event(event, index)
    changed = unchanged = failed = 0
    internal = False
    for path in targets:
        try:
            if type(path) is Unreadable:  # found by the walk, not read (DL-1.4)
                raise NotFoundError(path.reason, path=path)
            deck, text, old = _read(path, index, stdin_name)
        except NotFoundError as exc:  # named paths were checked before: this one was found
            code = path.code if type(path) is Unreadable else "unreadable"
            _say(f"{path}: error: {exc.message} [{code}, rule DL-1.4]")
            _say(f"{path}: not formatted: it cannot be read")
            failed += 1
            continue
        if text is None or any(p.is_error for p in deck.problems):
            _report_problems(deck)
            _say(f"{deck.path}: not formatted: it has errors")
            failed += 1
            continue
        # a deck in another tool's layout is left to that tool (it would not read deckcli's
        # form), on disk and on stdin alike; convert makes a deckcli decklist of one
        tool = other_tool(stdin_name if path == "-" else path, text)
        if tool is not None:
            _say(f"{deck.path}: left as it is: a {tool} deck keeps {tool}'s layout (deckcli "
                 "convert makes a deckcli decklist of it)")
            if path == "-" and not (check or show_diff):
                _stdout_bytes(old)  # fmt - writes the deck to stdout: here, as it came
            unchanged += 1
            continue
        try:
            new = _safe_format(deck, text, index, game, event)
        except CannotFormat as exc:
            _say(f"{deck.path}: not formatted: {exc.message}")
            failed += 1
            continue
        except _Unsafe as exc:
            _say(f"{deck.path}: internal error, please report: {exc}; the file is unchanged")
            internal = True
            continue
        if path == "-":
            if show_diff:
                click.echo(_diff("<stdin>", old, new), nl=False)
            elif not check:
                _stdout_bytes(new)
        elif new != old and show_diff:
            click.echo(_diff(path, old, new), nl=False)
        if new == old:
            unchanged += 1
            continue
        changed += 1
        if check or show_diff or path == "-":
            if check:
                _say(f"would reformat {deck.path}")
            continue
        try:
            with editing(path):  # the file's lock: a concurrent add or fmt waits its turn
                if read_bytes(path) != old:  # edited since it was read: format that instead
                    raise WriteError("changed while it was being formatted; not rewritten "
                                     "(run fmt again)", path=path)
                atomic_write(path, new)
        except DeckcliError as exc:
            _say(f"deckcli: error: {exc}")
            changed -= 1
            internal = True
            continue
        _say(f"reformatted {path}")
    would = check or show_diff
    parts = [f"{_plural(changed)} {'would be reformatted' if would else 'reformatted'}"]
    if unchanged:
        parts.append(f"{unchanged:,} unchanged")
    if failed:
        parts.append(f"{failed:,} could not be formatted")
    _say(", ".join(parts))
    if internal:
        return EXIT_FAILURE
    if failed or (check and changed):
        return EXIT_PROBLEMS
    return EXIT_OK


@click.command()
@click.argument("path", type=FILE, shell_complete=complete.path)
@click.option("--to", "to", required=True, type=click.Choice(TARGETS),
              help="Target format: a deckcli decklist (text, yaml, json, csv), another "
                   "tool's (arena, cod for Cockatrice, dek for MTGO), or a registration list.")
@output_file_option(metavar="OUT", help="Write to this file (atomically) instead of stdout.",
                    formats=TARGETS, picker="--to", extra_names=("--out",))
@click.option("--stdin-filename", "stdin_name", default=None, metavar="NAME", type=FILE,
              help="Name whose suffix (.txt, .yaml, .json, .csv, .cod, .dek) says what '-' "
                   "holds.")
@game_option
@db_option
@click.pass_context
def convert(ctx, path, to, out, stdin_name, game, db_dirs):
    """Convert a decklist to text, YAML, JSON, CSV, MTG Arena's layout, a Cockatrice or MTGO
    deck, or a printable registration list.

    Entries stay as written and in order (for arena, each card's set and collector number
    are added where the entry lacks them); the rest goes along where the target can carry it,
    and a warning on stderr names each kind of thing the target leaves out (CSV carries cards
    only). '-' reads stdin. Exit 1 when the deck cannot be read.

    \b
    Example: deckcli convert examples/good/casual-savanna.yaml --to text
    """
    import os

    from deckcli.decks.carry import CARRIES, dropped
    from deckcli.decks.convert import convert as run_convert
    from deckcli.errors import UsageError
    from deckcli.files.write import atomic_write, check_target, is_one_of

    if out is not None:  # a FIFO, device or read-only file: refused as every writer does
        check_target(out)
        if is_one_of(out, [path]):
            # a conversion keeps only what the target carries: over its own source it would
            # lose the rest (tags, comments, headers); fmt is what rewrites a deck in place
            raise UsageError(f"{out} is the deck being converted; write the conversion to "
                             "another file (deckcli fmt rewrites a deck in place)")
    game = pick_game(ctx, game)
    index = open_index(ctx, db_dirs)
    deck, text, _ = _read(path, index, stdin_name)
    if text is None or any(p.is_error for p in deck.problems):
        _report_problems(deck)
        _say(f"{deck.path}: not converted: it has errors")
        return EXIT_PROBLEMS
    if out and os.path.exists(out) and not os.path.isdir(out):
        existing, existing_text, _ = _read(out, index)
        earlier_export = (existing_text or "").startswith("DECK REGISTRATION\n")
        if not earlier_export and (existing_text is None or any(
                p.is_error and p.code != "empty-deck" for p in existing.problems)):
            raise UsageError(f"{out} exists and is not a decklist deckcli can read; "
                             "not overwriting it")
    chosen = fmt_name = None
    if to == "registration":
        from deckcli.decks.format import CannotFormat, game_for
        from deckcli.validate import Options, pick_format

        try:
            chosen = game_for(deck, game)
        except CannotFormat as exc:
            raise UsageError(exc.message) from None
        fmt_name = pick_format(deck, chosen, Options(game=chosen))[0]
    else:
        if deck.source_format == "yaml":
            from deckcli.decks.yamlfmt import read_comments

            read_comments(deck, text)
        _settle_names(deck, index, game)
        if to == "arena":
            _give_printings(deck, index, game)
        if game and "game" not in deck.header and "game" in CARRIES[to]:
            # the game the command was told (a CSV list carries none): written down, so the
            # result is read as that game's deck without --game
            deck.header = {"game": game, **deck.header}
        for what in dropped(deck, to, _sections_derived(deck, index, game)):
            _say(f"{deck.path}: warning: {to} cannot hold {what}; left out")
    from deckcli.decks.xmldeck import CannotWrite

    try:
        result = run_convert(deck, to, index=index, game=chosen, fmt=fmt_name)
    except CannotWrite as exc:  # a character the target cannot carry (XML, a YAML comment)
        raise UsageError(f"cannot convert it to {to}: {exc}", path=deck.path) from None
    again = _read_back(result, out, to, index, game) if to != "registration" else None
    lost = _lost_cards(deck, again, to, index, game) if again is not None else []
    if lost:
        what = (f"{to} names cards by name only, and as a name alone "
                f"{', '.join(lost)} would be another card or none")
        if out is not None:
            raise UsageError(f"cannot convert it to {to}: {what}; nothing written (convert "
                             "--to cod keeps each printing)", path=deck.path)
        _say(f"{deck.path}: warning: {what}")
    misread = _misread(deck, again, to) if again is not None else []
    if misread:
        what = "; ".join(misread)
        if out is not None:
            raise UsageError(f"cannot convert it to {to}: {what}; nothing written",
                             path=deck.path)
        _say(f"{deck.path}: warning: as {to}, {what}")
    if out is None:
        click.echo(result, nl=False)
        return EXIT_OK
    if again is not None:
        _check_converted(deck, again, out, to)
    atomic_write(out, result.encode("utf-8"))
    _say(f"wrote {out} ({to})")
    return EXIT_OK


def _sections_derived(deck, index, game: str | None) -> bool:
    """Whether the deck's section headers say only what its cards say (fmt writes them again
    from the cards): then a target without sections drops them without a warning."""
    if not deck.sections:
        return False
    from deckcli.decks.format import CannotFormat, game_for
    from deckcli.decks.plan import sections_from_cards

    try:
        return sections_from_cards(deck, index, game_for(deck, game))
    except CannotFormat:
        return False
