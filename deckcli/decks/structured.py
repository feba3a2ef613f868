"""YAML and JSON decklists (docs/decklists.md; rule DL-2.6)::

    game: animal-battle
    format: championship
    name: Deep Divers
    cards:
      - {count: 4, name: Walrus}
      - {count: 1, name: Walrus, set: ABS, number: "012", variants: [foil]}

Each entry keeps its line. JSON is read with a position-keeping decoder so its problems have
lines too.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner

from deckcli.cards.names import clean_name, variant_tag
from deckcli.decks.limits import MAX_COUNT, MAX_ENTRIES
from deckcli.decks.model import EMPTY_DECK, HEADER_KEYS, Deck, Entry
from deckcli.diagnostics import error, warning
from deckcli.yamlio import kind_of

ENTRY_KEYS = ("count", "name", "set", "number", "variants", "comment")


class _LineDict(dict):
    line: int | None = None


class _LineDecoder(json.JSONDecoder):
    """json.JSONDecoder whose objects remember the line they start on."""

    def __init__(self, text: str):
        from deckcli.yamlio import StructuredInputError, json_int, unique_keys

        super().__init__(parse_int=json_int, object_pairs_hook=unique_keys)
        newlines = [i for i, ch in enumerate(text) if ch == "\n"]

        def parse_object(s_and_end, *args):
            s, end = s_and_end
            line = bisect.bisect_left(newlines, end - 1) + 1
            try:
                obj, new_end = json.decoder.JSONObject(s_and_end, *args)
            except StructuredInputError as exc:
                exc.line = exc.line or line  # the innermost object's line
                raise
            d = _LineDict(obj)
            d.line = line
            return d, new_end

        self.parse_object = parse_object
        self.scan_once = json.scanner.py_make_scanner(self)


def load_json_lines(text: str):
    from deckcli.yamlio import StructuredInputError, check_shape

    try:
        data = _LineDecoder(text).decode(text)
    except json.JSONDecodeError as exc:
        raise StructuredInputError(f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise StructuredInputError("nested too deeply") from None
    check_shape(data)
    return data


def _line(obj, key=None):
    if isinstance(obj, _LineDict):
        return obj.line
    from deckcli.yamlio import line_of

    return line_of(obj, key)


def parse_structured(text: str, path: str | None, fmt: str) -> Deck:
    from deckcli.yamlio import StructuredInputError, load_yaml

    deck = Deck(path, fmt)
    problems = deck.problems

    def bad(code, rule, message, line, severity=error):
        problems.append(severity(code, rule, message, path=path, line=line))

    try:
        data = load_json_lines(text) if fmt == "json" else load_yaml(text)
    except StructuredInputError as exc:
        bad("bad-structure", "DL-2.6", exc.message, exc.line)
        return deck
    if data is None:
        bad(*EMPTY_DECK, None)
        return deck
    if not isinstance(data, dict):
        bad("bad-structure", "DL-2.6",
            f"a {fmt.upper()} decklist is a mapping with a 'cards' list, not a "
            f"{kind_of(data)}", _line(data) or 1)
        return deck
    for key, value in data.items():
        line = _line(data, key)
        if key in HEADER_KEYS:
            if value is None:
                continue
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                bad("bad-header", "DL-2.6", f"'{key}' must be text, not a {kind_of(value)}", line)
                continue
            deck.header[key] = str(value).strip()
            deck.header_lines[key] = line
        elif key != "cards":
            bad("unknown-key", "DL-2.6", f"unknown key '{key}' (ignored)", line, warning)
    cards = data.get("cards")
    if cards is None:
        bad("empty-deck", "DL-2.6", "the decklist has no 'cards' list", _line(data) or 1)
        return deck
    if not isinstance(cards, list):
        bad("bad-structure", "DL-2.6", f"'cards' must be a list, not a {kind_of(cards)}",
            _line(data, "cards"))
        return deck
    for i, item in enumerate(cards):
        line = _line(cards, i) if not isinstance(item, _LineDict) else item.line
        if len(deck.entries) >= MAX_ENTRIES:
            bad("too-many-entries", "DL-1.3", f"more than {MAX_ENTRIES:,} entries; the rest is "
                "not read", line)
            break
        entry = entry_from(item, line, bad)
        if entry is not None:
            deck.entries.append(entry)
    if not cards:
        bad(*EMPTY_DECK, _line(data, "cards"))
    return deck


def entry_from(item, line, bad) -> Entry | None:
    """One card entry of a structured deck (a YAML/JSON mapping, a CSV row, an XML element's
    attributes) as an Entry; None when it is not one, after telling ``bad(code, rule, message,
    line)`` why. Every structured reader checks its entries here."""
    if not isinstance(item, dict):
        bad("bad-entry", "DL-2.6",
            f"a card entry is a mapping like {{count: 4, name: Walrus}}, not a {kind_of(item)}",
            line)
        return None
    unknown = [str(k) for k in item if k not in ENTRY_KEYS]
    if unknown:
        bad("bad-entry", "DL-2.6", f"unknown key(s) in card entry: {', '.join(unknown)}", line)
        return None
    count = item.get("count")
    if isinstance(count, bool) or not isinstance(count, int):
        if isinstance(count, str) and count.strip().isdigit() and len(count.strip()) < 7:
            count = int(count)
        else:
            bad("bad-count", "DL-2.2", f"count must be a whole number, not {_short(count)}", line)
            return None
    if count < 1:
        bad("bad-count", "DL-2.2", f"count {count} is not allowed: an entry has at least 1 copy",
            line)
        return None
    if count > MAX_COUNT:
        bad("bad-count", "DL-2.2",
            f"count {_short(count)} is over the limit of {MAX_COUNT} per entry", line)
        return None
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        bad("no-name", "DL-2.6", "a card entry needs a name", line)
        return None
    set_code, number = item.get("set"), item.get("number")
    for label, value in (("set", set_code), ("number", number)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
            bad("bad-entry", "DL-2.6", f"'{label}' must be text, not a {kind_of(value)}", line)
            return None
    if number is not None and set_code is None:
        bad("bad-entry", "DL-2.6", "'number' needs 'set' beside it", line)
        return None
    raw_tags = item.get("variants") or []
    if isinstance(raw_tags, str):
        raw_tags = [raw_tags]
    if not isinstance(raw_tags, list):
        bad("bad-entry", "DL-2.6", f"'variants' must be a list, not a {kind_of(raw_tags)}", line)
        return None
    tags: list[str] = []
    for word in raw_tags:
        tag = variant_tag(word) if isinstance(word, str) else None
        if tag is None:  # an error; the entry still counts, as in a text decklist
            bad("unknown-variant", "DL-4.1", f"{_short(word)} is not a variant tag "
                "(alternate-art, foil, promotional, first-edition)", line)
        elif tag not in tags:
            tags.append(tag)
    comment = item.get("comment")
    return Entry(count, clean_name(name), str(set_code).strip().upper() if set_code else None,
                 str(number).strip() if number is not None else None, tuple(tags), line,
                 comment=(str(comment).strip() or None) if comment else None)


def _short(value, n: int = 40) -> str:
    """A value as a message shows it: text quoted, a number as written, and true/false or
    null as the file says them (not Python's True and None)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    text = repr(value) if not isinstance(value, int) else str(value)
    return text if len(text) <= n else text[: n - 1] + "…"
