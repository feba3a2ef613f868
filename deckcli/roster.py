"""An event's roster checked (rule EV-3.1): each listed player's deck validated as
``validate`` validates any deck file, a missing deck an error on the player's line, and the deck
files beside the roster's decks that nobody is listed for checked too, each with a warning.

It sits above :mod:`deckcli.validate`, whose checks it runs; the event itself (its fields, its
roster's paths) is :mod:`deckcli.events.model`'s, below validate.
"""

from __future__ import annotations

import os

from deckcli.decks.kinds import own_output
from deckcli.decks.linked import hide_lines
from deckcli.decks.model import Deck
from deckcli.diagnostics import error, visible_name, warning
from deckcli.errors import NotFoundError
from deckcli.files.bounds import Bounds
from deckcli.validate import (
    DeckReport,
    Unreadable,
    found_report,
    pick,
    read_and_validate,
    scan_folder,
    unreadable_report,
    validate_path,
)


def roster_reports(event, index, options):
    """A report per listed player, then one per deck file nobody is listed for (EV-3.1).
    Each deck is checked as ``validate`` checks any deck file (the quick read included)."""

    def check(path):
        return validate_path(path, index, options), None, None

    for report, _deck, _rdeck in _roster(event, index, options, check):
        yield report


def roster_decks(event, index, options):
    """:func:`roster_reports` with each report's read and resolved deck: (report, deck,
    resolved deck); both None for a listed player whose deck cannot be read."""
    yield from _roster(event, index, options,
                       lambda path: read_and_validate(path, index, options))


def _roster(event, index, options, check):
    """(report, deck, resolved deck) for each listed player, then for each deck file
    nobody is listed for; ``check(path)`` gives them for one deck file."""
    # a missing deck is reported with the game and format a deck with no header gets here
    game, fmt, _ = pick(Deck(None, "text"), options)

    for player, path in event.roster_paths():
        why = None
        if path is None:
            why = f"player {player!r} is listed in the roster without a deck file"
        else:
            try:
                report, deck, rdeck = check(path)
            except NotFoundError as exc:
                why = (f"player {player!r} is listed in the roster but their deck "
                       f"{visible_name(path)} cannot be read: {exc.message}")
        if why is not None:
            yield DeckReport(None, game, fmt, 0, [
                error("missing-deck", "EV-3.1", why, path=event.path,
                      line=event.player_lines.get(player))], player=player), None, None
            continue
        report.player = player
        hide_lines(report, event.path)  # a file that is not a decklist is not quoted
        yield report, deck, rdeck
    for path in unlisted_paths(event):
        if type(path) is Unreadable:  # a link out of the folder, say: never opened
            report, deck, rdeck = found_report(path, options), None, None
        else:
            try:
                report, deck, rdeck = check(path)
            except NotFoundError as exc:  # a FIFO, a dangling link: found, not read
                report, deck, rdeck = unreadable_report(
                    path, f"cannot be read: {exc.message}", options), None, None
            hide_lines(report, event.path)
        report.problems.append(warning(
            "unlisted-deck", "EV-3.1",
            f"no player in the roster of {visible_name(event.path)} is listed for this "
            "deck"))
        yield report, deck, rdeck


def unlisted_paths(event) -> list[str]:
    """The deck files beside the roster's decks (in their folders) that no player is
    listed for, in name order: checked with the roster, each with a warning (EV-3.1).
    Found once (``validate --event -o`` asks before the run that checks them)."""
    if event.unlisted is None:
        event.unlisted = _find_unlisted(event)
    return list(event.unlisted)


def _find_unlisted(event) -> list[str]:
    """The roster's folders looked at as a folder walk looks at one
    (:func:`~deckcli.validate.scan_folder`), not their subfolders: a symbolic link to a
    file outside the event's folder (and every allowed one) is an
    :class:`~deckcli.validate.Unreadable` path, never opened (EV-3.2)."""
    listed, folders = set(), set()
    for _player, path in event.roster_paths():
        if path is not None:
            listed.add(os.path.abspath(path))
            folders.add(os.path.dirname(path) or ".")
    event_abs = os.path.abspath(event.path)
    own = own_output()  # stdout redirected beside the decks: no deck of anybody's
    bounds = Bounds(event.base_dir(), "the event's folder", "EV-3.2")
    out = []
    for folder in sorted(folders):
        found: list[str] = []
        try:
            scan_folder(folder, bounds, found, [], own, event.exclude)
        except OSError:
            continue
        out += [path for path in found
                if os.path.abspath(path) not in listed and os.path.abspath(path) != event_abs]
    return out
