"""Validate decklists: read, resolve, run the game's checks and the event's, build reports.

The library entry points are :func:`collect_paths`, :func:`validate_path` and
:func:`validate_deck`; the CLI only parses options and picks a reporter.
"""

from __future__ import annotations

import os
from operator import attrgetter

from deckcli.cards.index import CardIndex
from deckcli.decks.fingerprint import fingerprint
from deckcli.decks.header import game_of
from deckcli.decks.kinds import (
    OWN_OUTPUT,
    deck_file_name,
    is_own_output,
    named_kind,
    other_kind,
    own_output,
)
from deckcli.decks.model import Deck
from deckcli.decks.quick import quick_resolve
from deckcli.decks.reader import (
    DECK_SUFFIXES,
    check_readable,
    deck_from_text,
    read_deck,
    read_text,
)
from deckcli.diagnostics import Diagnostic, error, sort_diagnostics, visible_name, warning
from deckcli.errors import NotFoundError
from deckcli.games import DEFAULT_GAME, GAMES
from deckcli.records import MutableRecord


class Options(MutableRecord):
    """What the command line (and event file) decided for this run."""

    __slots__ = ("game", "format", "players", "event")

    def __init__(self, game: str | None = None, format: str | None = None,
                 players: int | None = None, event=None):
        self.game = game  # from --game
        self.format = format  # from --format
        self.players = players  # from --players
        self.event = event  # deckcli.events.model.Event


class DeckReport(MutableRecord):
    """The verdict on one deck: the docs/commands.md deck object plus name, player, fingerprint."""

    __slots__ = ("path", "game", "format", "card_count", "problems", "name", "player",
                 "fingerprint", "extra")

    def __init__(self, path: str | None, game: str, format: str | None, card_count: int,
                 problems: list[Diagnostic], name: str | None = None, player: str | None = None,
                 fingerprint: str | None = None, extra: dict | None = None):
        self.path = path
        self.game = game
        self.format = format
        self.card_count = card_count
        self.problems = problems
        self.name = name
        self.player = player
        self.fingerprint = fingerprint
        self.extra = {} if extra is None else extra  # game-specific facts (formats, players)

    @property
    def legal(self) -> bool:
        for p in self.problems:  # a plain loop: asked several times for every deck of a batch
            if p.is_error:
                return False
        return True

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.is_error)

    @property
    def warnings(self) -> int:
        return sum(1 for p in self.problems if not p.is_error)

    def to_json(self) -> dict:
        """The docs/commands.md deck object; its path and names escaped as every report shows
        them (:func:`~deckcli.diagnostics.visible_name`): JSON itself would let a right-to-left
        override or a file name's bytes that are not UTF-8 through raw."""
        out = {"path": visible_name(self.path), "game": self.game, "format": self.format,
               "legal": self.legal, "card_count": self.card_count,
               "problems": [p.to_json() for p in self.problems],
               "name": visible_name(self.name), "player": visible_name(self.player),
               "fingerprint": self.fingerprint}
        out.update(self.extra)
        return out


def collect_paths(paths: list[str], skipped: list | None = None, exclude=None) -> list[str]:
    """Files as given; directories walked (sorted, no symlinked folders) for deck files.

    What is not a decklist (:mod:`deckcli.decks.kinds`: an event file, a CI workflow, a
    requirements file) is left out of a walk, and a file named here that is an event file, a
    workflow or a configuration file is left out too; ``skipped`` collects (path, what it is)
    for those recognised by their name or content, so the command can say so. ``exclude``
    (the configuration's globs: path -> bool) leaves out what it matches, in a walk without a
    word and among the paths named with one. A folder given as :class:`Whole` is walked
    without the error a folder with no deck file in it is."""
    skipped = [] if skipped is None else skipped
    stdin_once(paths)
    out: list[str] = []
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        if exclude is not None and type(raw) is not Whole and exclude(raw):
            skipped.append((raw, f"excluded by {exclude.source}"))
            continue
        if os.path.isdir(raw):
            found: list[str] = []
            _walk(raw, found, skipped, exclude)
            if type(raw) is Whole and raw == os.curdir:  # 'decks/a.txt', not './decks/a.txt'
                found = [f[2:] if type(f) is str and f.startswith(os.curdir + os.sep) else f
                         for f in found]
            if not found and type(raw) is not Whole:
                raise NotFoundError(
                    f"no deck files ({' '.join('*' + s for s in DECK_SUFFIXES)}) in this folder",
                    path=raw)
            out.extend(found)
        elif os.path.exists(raw) or os.path.islink(raw):
            check_readable(raw)  # a file named that cannot be read stops the command (exit 2)
            kind = named_kind(raw) if os.path.isfile(raw) else None
            if kind:
                skipped.append((raw, kind))
            else:
                out.append(raw)
        else:
            raise NotFoundError("no such file or folder", path=raw)
    return out


def walk_decks(paths: list[str], exclude=None) -> list[str]:
    """:func:`collect_paths` for a command that plays or compares the decks it finds
    (simulate, build and suggest --against, diff --played) rather than reporting on each: a
    path the walk found and did not read (a folder it could not list, a link out of the
    folder) stops the command, naming it (exit 2), before any deck is read."""
    return refuse_unread(collect_paths(paths, exclude=exclude))


def refuse_unread(found: list[str]) -> list[str]:
    """``found`` (what a walk found), stopping the command (exit 2, naming it) at a path the
    walk did not read: a folder it could not list, a link out of the folder."""
    for path in found:
        if type(path) is Unreadable:
            raise NotFoundError(path.reason, path=path)
    return found


def stdin_once(paths) -> None:
    """UsageError (exit 2) when ``-`` is given more than once: standard input is read once,
    so a second ``-`` would be an empty deck."""
    if list(paths).count("-") > 1:
        from deckcli.errors import UsageError

        raise UsageError("'-' (standard input) is given more than once")


def _walk(top: str, found: list[str], skipped: list, exclude=None) -> None:
    """Deck files under a folder: each folder's own files by name (:func:`scan_folder`), then
    its subfolders by name (the order ``os.walk`` visits them in), never entering a hidden or
    symlinked folder. A folder inside that cannot be listed (no permission, a path too long
    for the system) is an :class:`Unreadable` path in ``found``, reported as a problem
    (DL-1.4); ``top`` itself that cannot be listed stops the command. ``exclude`` (path ->
    bool) leaves out what the configuration's globs match. A stack rather than recursion goes
    as deep as the paths do."""
    from deckcli.files.bounds import Bounds

    own = own_output()  # stdout redirected into the folder: a file, but no deck
    bounds = Bounds(top, "the folder walked", "DL-1.4")
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            folders = scan_folder(folder, bounds, found, skipped, own, exclude)
        except OSError as exc:
            if folder is top:
                raise NotFoundError(f"cannot read this folder: {_why(exc, folder)}",
                                    path=top) from None
            found.append(Unreadable(folder, f"cannot read this folder: {_why(exc, folder)}; "
                                            "the decks in it are not checked"))
            continue
        stack.extend(reversed(folders))  # popped in name order


def scan_folder(folder: str, bounds, found: list[str], skipped: list, own=None,
                exclude=None) -> list[str]:
    """The deck files of one folder (not of its subfolders), in name order, added to
    ``found``; returns its subfolders a walk enters (not hidden, not symlinked), in name
    order. The one look at a folder's files, for a folder walk and for an event's scan of its
    roster's folders alike:

    * a name that is not a decklist's is passed over (:mod:`deckcli.decks.kinds`); a YAML or
      JSON file whose content shows it is something else (an event file, a workflow) is added
      to ``skipped`` as (path, what it is), and so is the file stdout goes to (``own``,
      :func:`~deckcli.decks.kinds.own_output`);
    * what ``exclude`` (path -> bool: the configuration's globs) matches is left out, files
      and folders alike, without a word;
    * a symbolic link whose file is outside every folder of ``bounds`` (a
      :class:`~deckcli.files.bounds.Bounds`: the folder walked, or the event's, and every
      folder ``--allow-read`` names) is never opened: it is an :class:`Unreadable` path with
      code ``link-outside`` and the bounds' rule, saying so without quoting anything.

    The paths come from ``os.scandir``, which joins them without a Python call per file (a
    tournament folder holds thousands). Raises OSError when the folder cannot be listed."""
    from deckcli.files.bounds import link_outside

    with os.scandir(folder) as it:
        entries = list(it)
    files, folders = [], []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (folders if is_dir else files).append(entry)
    if exclude is not None:
        files = [e for e in files if not exclude(e.path)]
        folders = [e for e in folders if not exclude(e.path)]
    for entry in sorted(files, key=_NAME):
        if not deck_file_name(entry.name):
            continue
        if entry.is_symlink():  # before anything opens it: other_kind reads a YAML file
            why = link_outside(entry.path, bounds)
            if why is not None:
                found.append(Unreadable(entry.path, why, "link-outside", bounds.rule))
                continue
        kind = OWN_OUTPUT if is_own_output(entry, own) else other_kind(entry.path)
        if kind:
            skipped.append((entry.path, kind))
        else:
            found.append(entry.path)
    return [entry.path for entry in sorted(folders, key=_NAME)
            if entry.name[0] != "." and not entry.is_symlink()]


_NAME = attrgetter("name")  # sorts directory entries by file name


def _why(exc: OSError, path: str) -> str:
    import errno

    if exc.errno == errno.ENAMETOOLONG:
        return f"its path is too long for this system ({len(path):,} characters)"
    return exc.strerror or str(exc)


class Whole(str):
    """A folder whose every deck a command checks because a file that stands for them was
    named (the event file in force, the configuration file): walked like any folder, and
    no error when it holds no deck."""

    __slots__ = ()


class Unreadable(str):
    """A path a folder walk found and did not read, with the reason and the problem's code
    (``unreadable``; ``link-outside`` for a link out of the folder): reported as a deck that
    cannot be read (DL-1.4; EV-3.2 in an event's folder), so the run fails instead of
    passing without it."""

    def __new__(cls, path: str, reason: str, code: str = "unreadable", rule: str = "DL-1.4"):
        self = super().__new__(cls, path)
        self.reason, self.code, self.rule = reason, code, rule
        return self

    def __reduce__(self):  # to and from --jobs workers
        return (Unreadable, (str(self), self.reason, self.code, self.rule))


def unreadable_report(path: str, reason: str, options: Options, code: str = "unreadable",
                      rule: str = "DL-1.4") -> DeckReport:
    """The report on a path found but not read: not legal, one problem saying why."""
    game, fmt, _ = pick(Deck(None, "text"), options)
    return DeckReport(path, game, fmt, 0, [error(code, rule, reason, path=path)])


def found_report(path: Unreadable, options: Options) -> DeckReport:
    """:func:`unreadable_report` of a path a walk found and did not read."""
    return unreadable_report(path, path.reason, options, path.code, path.rule)


def check_found(path: str, index: CardIndex, options: Options) -> DeckReport:
    """:func:`validate_path` for a path :func:`collect_paths` gave: one it found but could not
    read, or that cannot be opened now (no permission, gone), is a problem on its report
    (DL-1.4), and the run goes on (a path named on the command line was checked by
    :func:`collect_paths` already: that one stops the command, exit 2)."""
    if type(path) is Unreadable:
        return found_report(path, options)
    try:
        return validate_path(path, index, options)
    except NotFoundError as exc:
        return unreadable_report(path, f"cannot be read: {exc.message}", options)


def pick_game(deck: Deck, options: Options) -> tuple[str, list[Diagnostic]]:
    """--game, else the event's game, else the deck header, else animal-battle (DL-5.1):
    :func:`deckcli.decks.header.game_of` with this run's options."""
    return game_of(deck, options.game, getattr(options.event, "game", None))


def pick_format(deck: Deck, game: str, options: Options) -> tuple[str | None, list[Diagnostic]]:
    module = GAMES[game]
    event_format = getattr(options.event, "format", None)
    wanted = options.format or event_format
    line = None
    if not wanted:
        wanted, line = deck.header.get("format"), deck.header_lines.get("format")
    if not module.formats:
        if wanted:  # from the header (its line), or --format: either way it is ignored
            said = (f"'format: {wanted}'" if line is not None else f"--format {wanted}"
                    if options.format else f"the event's 'format: {wanted}'")
            return None, [warning("no-formats", "DL-5.3",
                                  f"{game} has no formats; {said} is ignored",
                                  path=deck.path, line=line)]
        return None, []
    if not wanted:
        return module.default_format, []
    key = wanted.strip().lower()
    if key in module.formats:
        return key, []
    return module.default_format, [error(
        "unknown-format", "DL-5.2",
        f"unknown format '{wanted}'; {game} formats are {', '.join(module.formats)}",
        path=deck.path, line=line)]


#: the table sizes a deck may be checked for (--players, a 'players:' header)
TABLE_SIZES = (2, 12)


def pick_players(header: Deck, game: str, options: Options
                 ) -> tuple[int | None, list[Diagnostic]]:
    """The table a deck is checked for (DL-5.1): --players, else the deck's ``players:``
    header (a game that shares one deck among the table: alpha-walrus), else None (the
    game's default). A header that is no table size is an error on its line (DL-5.2); one in
    a deck of a game without a table to set is ignored with a warning (DL-5.3)."""
    said = header.header.get("players")
    if said is None:
        return options.players, []
    line = header.header_lines.get("players")
    if not GAMES[game].shared_deck:
        return options.players, [warning(
            "no-players", "DL-5.3", f"'players: {said}' is ignored: {game} plays one deck a "
            "player, whatever the table", path=header.path, line=line)]
    low, high = TABLE_SIZES
    if not (said.isascii() and said.isdecimal() and low <= int(said) <= high):
        return options.players, [error(
            "bad-players", "DL-5.2", f"'players: {said}' is not a number of players from "
            f"{low} to {high}", path=header.path, line=line)]
    return (int(said) if options.players is None else options.players), []


def _deck_checks(game: str):
    """The game's deck-checks module, asked of the game once per run (twice a deck here)."""
    found = _CHECKS.get(game)
    if found is None:
        found = _CHECKS[game] = GAMES[game].deck_checks()
    return found


_CHECKS: dict = {}


class CheckContext(MutableRecord):
    """What a game's deck checks may use besides the deck itself.

    ``players`` (``--players``) is read through a property that notes it was read: a game
    whose checks never ask for it had no use for the option (DL-5.3)."""

    __slots__ = ("index", "_players", "limited", "players_read")

    def __init__(self, index: CardIndex, players: int | None = None,
                 limited: dict[int, int] | None = None):
        self.index = index
        self._players = players
        self.limited = {} if limited is None else limited  # card id -> max copies (event)
        self.players_read = False

    @property
    def players(self) -> int | None:
        self.players_read = True
        return self._players


def pick(deck: Deck, options: Options) -> tuple[str | None, str | None, list[Diagnostic]]:
    """(game, format, problems) as DL-5.1 decides them; game is None when the deck's header
    names an unknown game (then the problems say so and the deck is not checked further)."""
    key = None
    if options.event is None:  # the answer depends on the header and options only
        key = (deck.header.get("game"), deck.header.get("format"), options.game, options.format)
        found = _PICKED.get(key)
        if found is not None:
            return found[0], found[1], []
    game, game_problems = pick_game(deck, options)
    if any(p.is_error for p in game_problems):
        return None, None, game_problems
    fmt, format_problems = pick_format(deck, game, options)
    problems = game_problems + format_problems
    if key is not None and not problems and len(_PICKED) < 1024:
        _PICKED[key] = (game, fmt)  # problems name the deck's file: those are not kept
    return game, fmt, problems


_PICKED: dict[tuple, tuple] = {}  # a batch asks the same question for every deck


def resolve_for(deck: Deck, index: CardIndex, options: Options):
    """(resolved deck or None, game, format, problems so far) as DL-5.1 decides game and format.

    The one place a read deck becomes a resolved deck, for validate, setup and the sheets. The
    resolved deck is None when the file could not be read as a deck or its game is unknown.
    """
    from deckcli.decks.resolve import resolve_deck

    problems = list(deck.problems)
    game, fmt, picked = pick(deck, options)
    problems += picked
    if game is None:  # reported under the default game, with the format that game would take
        return None, DEFAULT_GAME, pick_format(deck, DEFAULT_GAME, options)[0], problems
    if not deck.readable:
        return None, game, fmt, problems
    rdeck = resolve_deck(index, deck, game, fmt)
    return rdeck, game, fmt, problems + rdeck.problems


def validate_deck(deck: Deck, index: CardIndex, options: Options) -> DeckReport:
    return validate_resolved(deck, index, options)[0]


def validate_resolved(deck: Deck, index: CardIndex, options: Options):
    """The report on a deck, and the resolved deck it was made from (None if unreadable)."""
    rdeck, game, fmt, problems = resolve_for(deck, index, options)
    if rdeck is None:
        report = DeckReport(deck.path, game, fmt, deck.card_count, sort_diagnostics(problems),
                            name=deck.header.get("name"), player=deck.header.get("player"))
        return report, None
    listed = [(s, sum(e.count for e in s.entries)) for s in deck.sections]
    return judge(rdeck, deck, listed, problems, index, options), rdeck


def judge(rdeck, headed: Deck, listed, problems: list[Diagnostic], index: CardIndex,
          options: Options) -> DeckReport:
    """The report on a resolved deck (:class:`~deckcli.decks.resolve.ResolvedDeck` or
    :class:`~deckcli.decks.quick.QuickDeck`): the event's checks, the game's, the sections'
    counts (``listed``: each section header with the copies listed under it), the fingerprint
    and the game's extra facts. ``headed`` holds the deck's header lines; ``problems`` are
    those found before: reading, game, format."""
    game = rdeck.game
    header = headed.header
    players, said = pick_players(headed, game, options)
    problems += said
    ctx = CheckContext(index, players)
    event = options.event
    if event is not None:
        from deckcli.events.checks import check_event_rules

        ctx.limited = event.limited_ids()
        problems += check_event_rules(rdeck, event, index)
    rules = _deck_checks(game)
    problems += rules.check_deck(rdeck, ctx)
    if options.players is not None and not ctx.players_read:
        problems.append(warning(
            "option-ignored", "DL-5.3",
            f"--players {options.players} is ignored: {game}'s deck rules do not depend on "
            "the number of players", path=rdeck.path))
    for section, copies in listed:
        if section.key not in GAMES[game].section_kinds():
            problems.append(warning(
                "section-kind", "DL-2.4",
                f"section '{section.word}' is not a kind of {game} card (its sections: "
                f"{', '.join(GAMES[game].kinds.values())})", path=rdeck.path,
                line=section.line))
        if section.count is not None and section.count != copies:
            problems.append(warning(
                "section-count", "DL-2.4",
                f"section '{section.word}' says {section.count:,} cards but lists {copies:,}",
                path=rdeck.path, line=section.line))
    report = DeckReport(rdeck.path, game, rdeck.format, rdeck.card_count,
                        sort_diagnostics(problems), name=header.get("name"),
                        player=header.get("player"), fingerprint=fingerprint(game, rdeck))
    report.extra = rules.report_extra(rdeck, ctx, report.problems)
    return report


def validate_path(path: str, index: CardIndex, options: Options) -> DeckReport:
    """The report on one deck file (or '-', stdin).

    A text decklist whose lines all read and resolve cleanly takes the quick read
    (:mod:`deckcli.decks.quick`); any other file, or a text decklist with a problem in a line,
    is read in full. Both give the same report (tests/test_quick.py). The bytes are read and
    decoded as every command reads a deck (:func:`deckcli.decks.reader.read_text`).
    """
    report = _checked(path, index, options)
    event = options.event
    if event is not None and event.players:  # a deck the roster lists: that player's
        player = event.player_at(path)
        if player is not None:
            report.player = player
    return report


def _checked(path: str, index: CardIndex, options: Options) -> DeckReport:
    shown, data, text, fmt, failed = read_text(path)
    if failed is not None:  # not readable as text: the deck says why
        return validate_deck(failed, index, options)
    if fmt == "text":
        found = quick_resolve(text, shown, index, options, pick)
        if found is not None:
            rdeck, header, listed, problems = found
            return judge(rdeck, header, listed, problems, index, options)
    deck = deck_from_text(text, data, shown, fmt, is_set=index.is_any_set_code)
    return validate_deck(deck, index, options)


def read_and_validate(path: str, index: CardIndex, options: Options):
    """(report, deck, resolved deck or None) for a deck file, for callers that show the deck
    besides its verdict (the printed sheets)."""
    deck = read_deck(path, is_set=index.is_any_set_code)
    report, rdeck = validate_resolved(deck, index, options)
    return report, deck, rdeck
