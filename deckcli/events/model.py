"""Event files (docs/ci.md "The event file"): checked field by field (:mod:`deckcli.events.fields`),
errors with line numbers.

::

    name: Spring Championship
    date: 2026-05-02
    game: animal-battle
    format: championship
    banned: ["Walrus (ABS) 12", {card: "Orca", effective: 2026-04-01}]
    limited: {"Vaquita": 2}
    sets: [ABS, DWV, PRM]
    house_rules: {stat_tie: defender}
    players: {alice: decks/alice.txt}

A malformed event file, or a ban naming a card that does not exist, stops the command (exit 2);
an unknown code in ``sets`` is only a warning, since it makes nothing legal.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field

from deckcli.errors import EventFileError


@dataclass
class Ban:
    ref: str
    effective: dt.date | None
    line: int | None
    card_id: int | None = None
    card_ref: str | None = None


@dataclass
class Event:
    path: str
    name: str | None = None
    date: dt.date | None = None
    game: str | None = None
    format: str | None = None
    bans: list[Ban] = field(default_factory=list)
    limited: list[tuple[str, int, int | None]] = field(default_factory=list)  # (ref, max, line)
    sets: list[str] | None = None
    set_lines: list[int | None] = field(default_factory=list)  # each code's line, if known
    house_rules: dict[str, str] = field(default_factory=dict)  # EV-4.1: rulings for gaps
    players: dict[str, str | None] = field(default_factory=dict)  # player -> deck path as
    # written (None: listed without a deck)
    player_lines: dict[str, int | None] = field(default_factory=dict)
    as_of: dt.date | None = None
    warnings: list[str] = field(default_factory=list)
    _limited_ids: dict[int, int] = field(default_factory=dict)
    _banned_ids: dict[int, Ban] = field(default_factory=dict)
    _legal_sets: frozenset[str] | None = None  # set by resolve
    _at: dict[str, str] | None = None  # deck file (absolute) -> its listed player
    unlisted: list[str] | None = None  # deckcli.roster.unlisted_paths(), found once a run
    exclude: object = None  # the configuration's exclude (path -> bool): no unlisted deck

    # -- resolution against the card index ------------------------------------------------
    def resolve(self, index) -> None:
        """Look every banned and limited card up; a card that does not exist is exit 2."""
        from deckcli.decks.refs import parse_ref
        from deckcli.errors import DeckcliError
        from deckcli.games import DEFAULT_GAME

        game = self.game or DEFAULT_GAME
        for ban in self.bans:
            try:
                card, _ = parse_ref(index, game, ban.ref)
            except DeckcliError as exc:
                raise EventFileError(f"banned card: {exc.message}", path=self.path,
                                     line=ban.line) from None
            ban.card_id, ban.card_ref = card.id, card.ref
        self._banned_ids = {b.card_id: b for b in self.active_bans()}
        for ref, limit, line in self.limited:
            try:
                card, _ = parse_ref(index, game, ref)
            except DeckcliError as exc:
                raise EventFileError(f"limited card: {exc.message}", path=self.path,
                                     line=line) from None
            self._limited_ids[card.id] = limit
        if self.sets is not None:
            known = []
            for i, code in enumerate(self.sets):
                if index.is_set_code(game, code):
                    known.append(code)
                    continue
                line = self.set_lines[i] if i < len(self.set_lines) else None
                where = f"{self.path}:{line}" if line else self.path
                self.warnings.append(f"{where}: unknown set code {code!r} in 'sets' "
                                     "(it makes nothing legal)")
            self._legal_sets = frozenset(known)

    def active_bans(self) -> list[Ban]:
        """Bans in force on the event's date (or --as-of); undated bans always (EV-1.2)."""
        when = self.as_of or self.date
        return [b for b in self.bans
                if b.effective is None or when is None or b.effective <= when]

    def banned_ids(self) -> dict[int, Ban]:
        """Card id -> its ban in force (:meth:`active_bans`), as :meth:`resolve` found them:
        the same for every deck of the run (read it, do not change it)."""
        return self._banned_ids

    def legal_sets(self) -> frozenset[str]:
        """The codes in ``sets`` the card database knows, as :meth:`resolve` found them: what
        a printing's set is checked against (EV-2.1), and what a message lists as legal (an
        unknown code, warned about, makes nothing legal). Not resolved yet: the codes as
        written."""
        if self._legal_sets is None:
            return frozenset(self.sets or ())
        return self._legal_sets

    def limited_ids(self) -> dict[int, int]:
        """Card id -> the most copies the event allows, as :meth:`resolve` found them (read it,
        do not change it)."""
        return self._limited_ids

    # -- roster ------------------------------------------------------------------------------
    def base_dir(self) -> str:
        return os.path.dirname(self.path) or "."

    def need_roster(self) -> None:
        """Stop (exit 2) when the event lists no players: a command given no deck files
        would otherwise check nothing, and pass."""
        if not self.players:
            from deckcli.diagnostics import visible_name
            from deckcli.errors import UsageError

            raise UsageError(f"{visible_name(self.path)} lists no players (add a 'players:' "
                             "roster, or give deck files)")

    def roster_paths(self) -> list[tuple[str, str | None]]:
        """(player, deck path relative to the current folder) for each listed player: inside
        the event's folder, or an allowed one (EV-3.2, checked by :func:`load_event`); None
        for a player listed without a deck."""
        from deckcli.decks.linked import linked_path

        return [(player, linked_path(self.path, deck)[0] if deck is not None else None)
                for player, deck in self.players.items()]

    def player_at(self, path: str) -> str | None:
        """The listed player whose deck is the file at ``path``, else None."""
        if self._at is None:
            self._at = {os.path.abspath(p): player for player, p in self.roster_paths()
                        if p is not None}
        return self._at.get(os.path.abspath(path)) if path != "-" else None


def _check_house_rules(doc: dict, given: dict, game: str | None, path: str) -> None:
    """Each house rule against the gaps of the event's game (of any game when it names none:
    its decks say which), an error on its own line (exit 2) for a key no game has or a value
    its gap does not take; every command that reads the event refuses it alike."""
    from deckcli.errors import UsageError
    from deckcli.games import DEFAULT_GAME, GAMES
    from deckcli.yamlio import line_of

    rulings = doc.get("house_rules") if isinstance(doc.get("house_rules"), dict) else {}
    games = [GAMES[game]] if game is not None else [
        GAMES[DEFAULT_GAME], *(g for gid, g in GAMES.items() if gid != DEFAULT_GAME)]
    for key, value in given.items():
        first = None
        for g in games:
            try:
                g.house_rules({key: value}, source="event")
                break
            except UsageError as exc:
                first = first or exc
        else:
            raise EventFileError(f"house_rules.{key}: {first.message}", path=path,
                                 line=line_of(rulings, key) or line_of(doc, "house_rules"))


def load_event(path: str, as_of: str | None = None) -> Event:
    """Read and check an event file; every problem raises EventFileError (exit 2)."""
    from deckcli.decks.reader import decode, read_bytes
    from deckcli.errors import NotFoundError
    from deckcli.events.fields import FieldError, read_fields
    from deckcli.games import DEFAULT_GAME, GAMES
    from deckcli.yamlio import StructuredInputError, line_of, load_yaml

    try:
        data = read_bytes(path, "an event file")
    except NotFoundError as exc:
        raise EventFileError(f"event file: {exc.message}", path=path) from None
    text, failed = decode(data, path)
    if failed is not None:
        p = failed.problems[0]
        raise EventFileError(p.message, path=path, line=p.line)
    try:
        doc = load_yaml(text)
    except StructuredInputError as exc:
        raise EventFileError(exc.message, path=path, line=exc.line) from None
    if not isinstance(doc, dict):
        raise EventFileError("an event file is a mapping (name, game, format, banned, ...)",
                             path=path, line=1)
    try:
        fields = read_fields(doc)
    except FieldError as exc:
        raise EventFileError(str(exc), path=path, line=exc.line) from None
    game = fields["game"]
    if game is not None and game not in GAMES:
        raise EventFileError(f"game: unknown game {game!r}; known: {', '.join(GAMES)}",
                             path=path, line=line_of(doc, "game"))
    if fields["format"] is not None:
        formats = GAMES[game or DEFAULT_GAME].formats
        if fields["format"] not in formats:
            raise EventFileError(
                f"format {fields['format']!r} is not a format of {game or DEFAULT_GAME}"
                + (f" ({', '.join(formats)})" if formats else " (it has none)"),
                path=path, line=line_of(doc, "format"))
    _check_house_rules(doc, fields["house_rules"], game, path)
    sets, roster = fields["sets"], fields["players"]
    from deckcli.decks.linked import linked_path

    for _player, (deck, line) in roster.items():
        refused = linked_path(path, deck)[1] if deck is not None else None
        if refused:  # nothing outside the event's folder is read (EV-3.2)
            raise EventFileError(f"{refused} [rule EV-3.2]", path=path, line=line)
    event = Event(path, fields["name"], fields["date"], game, fields["format"],
                  sets=[code.upper() for code, _ in sets] if sets is not None else None,
                  house_rules=fields["house_rules"],
                  players={player: deck for player, (deck, _) in roster.items()},
                  player_lines={player: line for player, (_, line) in roster.items()})
    event.bans = [Ban(card, effective, line) for card, effective, line in fields["banned"]]
    event.limited = fields["limited"]
    if sets is not None:
        event.set_lines = [line for _, line in sets]
    if as_of:
        try:
            event.as_of = dt.date.fromisoformat(as_of)
        except ValueError:
            from deckcli.errors import UsageError

            raise UsageError(f"--as-of takes a date like 2026-05-02, not {as_of!r}") from None
    return event
