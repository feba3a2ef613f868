"""The fields of an event file and what each may hold, checked by small functions.

An event file is one small mapping, read once per run. Checking it with a pydantic model cost
about 0.2 s a run (importing pydantic and building the model), more than checking hundreds of
decks, and a tournament's CI pays it on every push (benchmarks/cold_start.py times it). The
checks are plain functions instead; each problem names the field (``banned.1.effective``) and
the line of the value at fault, and stops the command (exit 2).

``null`` for a list or mapping field (``banned:`` with nothing under it yet) means empty.
"""

from __future__ import annotations

import datetime as dt
import re

from deckcli.yamlio import a_kind_of as _kind
from deckcli.yamlio import line_of

MAX_LIMIT = 999  # a limited card's copies, as a deck entry's count (DL-2.2)


class FieldError(Exception):
    """A field of the event file holds what it may not: ``where`` is its path, ``line`` the
    line of the value at fault."""

    def __init__(self, where: str, message: str, line: int | None):
        super().__init__(f"{where}: {message}")
        self.where, self.message, self.line = where, message, line


def read_fields(doc) -> dict:
    """The event file's fields, checked: name, date, game and format (None when not given),
    sets (None when not given, else a list of (code, line)), banned (a list of (card,
    effective date or None, line)), limited (a list of (card, copies, line)), house_rules (a
    mapping of text) and players (player -> (deck path, line)). ``doc`` is the loaded
    mapping (with its lines, :mod:`deckcli.yamlio`)."""
    for key in doc:
        if key not in _FIELDS:
            raise FieldError(str(key), f"not a field of an event file (fields: "
                             f"{', '.join(_FIELDS)})", line_of(doc, key))
    return {key: check(doc.get(key), key, doc) for key, check in _FIELDS.items()}


def _text(value, where: str, line: int | None) -> str:
    if not isinstance(value, str):
        raise FieldError(where, f"should be text, not {_kind(value)}", line)
    return value


def _optional_text(value, where, parent) -> str | None:
    return None if value is None else _text(value, where, line_of(parent, where))


def _date(value, where: str, line: int | None) -> dt.date:
    """A date as YAML writes one (2026-05-02), or the same text in quotes."""
    if isinstance(value, dt.datetime):
        raise FieldError(where, "should be a date like 2026-05-02, without a time", line)
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass  # 2026-02-30
    raise FieldError(where, f"should be a date like 2026-05-02, not {_shown(value)}", line)


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _optional_date(value, where, parent) -> dt.date | None:
    return None if value is None else _date(value, where, line_of(parent, where))


def _list(value, where: str, parent) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise FieldError(where, f"should be a list, not {_kind(value)}", line_of(parent, where))
    return value


def _mapping(value, where: str, parent) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FieldError(where, f"should be a mapping, not {_kind(value)}",
                         line_of(parent, where))
    return value


def _banned(value, where, parent) -> list[tuple[str, dt.date | None, int | None]]:
    """Each ban as (card, effective date or None, line): ``"Walrus (ABS) 12"`` or
    ``{card: Walrus, effective: 2026-06-01}``."""
    items = _list(value, where, parent)
    out = []
    for i, item in enumerate(items):
        at, line = f"{where}.{i}", line_of(items, i)
        if isinstance(item, dict):
            for key in item:
                if key not in ("card", "effective"):
                    raise FieldError(f"{at}.{key}", "a ban has only 'card' and 'effective'",
                                     line_of(item, key))
            if "card" not in item:
                raise FieldError(at, "a ban needs 'card'", line)
            card = _text(item["card"], f"{at}.card", line_of(item, "card"))
            effective = item.get("effective")
            if effective is not None:
                effective = _date(effective, f"{at}.effective", line_of(item, "effective"))
        else:
            card, effective = _text(item, at, line), None
        if not card.strip():
            raise FieldError(at, "names no card", line)
        out.append((card, effective, line))
    return out


def _limited(value, where, parent) -> list[tuple[str, int, int | None]]:
    """Each limited card as (card, copies, line): ``{"Herd Instinct": 2}``."""
    found = _mapping(value, where, parent)
    out = []
    for card, copies in found.items():
        at, line = f"{where}.{card}", line_of(found, card)
        _text(card, at, line)
        copies = _whole_number(copies, at, line)
        if not 0 <= copies <= MAX_LIMIT:
            raise FieldError(at, f"limit for {card!r} must be between 0 and {MAX_LIMIT}", line)
        out.append((card, copies, line))
    return out


def _whole_number(value, where: str, line: int | None) -> int:
    """A whole number, also when written ``2.0`` or ``"2"``; never true/false."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, str) and value.isascii() and value.strip().isdigit() \
            and len(value) <= 38:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(where, f"should be a whole number of copies, not {_shown(value)}",
                         line)
    return value


def _sets(value, where, parent) -> list[tuple[str, int | None]] | None:
    """Each legal set as (code, line), or None when the event names no sets."""
    if value is None:
        return None
    items = _list(value, where, parent)
    return [(_text(code, f"{where}.{i}", line_of(items, i)), line_of(items, i))
            for i, code in enumerate(items)]


def _text_mapping(value, where, parent, *, scalars: bool = False) -> dict[str, str]:
    """A mapping of text to text; with ``scalars`` a number or true/false is taken as its text
    (``stat_tie: defender``, ``max_rounds: 12``, ``allow_gear: true``)."""
    found = _mapping(value, where, parent)
    out = {}
    for key, item in found.items():
        at, line = f"{where}.{key}", line_of(found, key)
        _text(key, at, line)
        if scalars and isinstance(item, bool):
            item = "true" if item else "false"
        elif scalars and isinstance(item, int):
            item = str(item)
        out[key] = _text(item, at, line)
    return out


def _players(value, where, parent) -> dict[str, tuple[str | None, int | None]]:
    """The roster: player -> (deck path relative to the event file, line). A player listed
    with no path (``alice:`` or ``alice: ""``) has no deck yet: None, reported on the roster's
    check as a listed player without a deck (EV-3.1), never read as the event's own folder."""
    found = _mapping(value, where, parent)
    out = {}
    for player, deck in found.items():
        at, line = f"{where}.{player}", line_of(found, player)
        _text(player, at, line)
        if deck is None or (isinstance(deck, str) and not deck.strip()):
            out[player] = (None, line)
            continue
        out[player] = (_text(deck, at, line), line)
    return out


def _house_rules(value, where, parent) -> dict[str, str]:
    return _text_mapping(value, where, parent, scalars=True)


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) and len(value) <= 40 else _kind(value)


#: field -> its check: (value, field name, the mapping holding it) -> the checked value
_FIELDS = {
    "name": _optional_text,
    "date": _optional_date,
    "game": _optional_text,
    "format": _optional_text,
    "banned": _banned,
    "limited": _limited,
    "sets": _sets,
    "house_rules": _house_rules,
    "players": _players,
}
