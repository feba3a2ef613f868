"""The in-memory decklist: entries as written, with the file and line each came from.

Plain classes with ``__slots__`` (see :mod:`deckcli.records` for why not dataclasses).
"""

from __future__ import annotations

from deckcli.diagnostics import Diagnostic
from deckcli.records import MutableRecord

HEADER_KEYS = ("game", "format", "players", "name", "player")


def header_items(header: dict) -> list[tuple[str, object]]:
    """The header's keys and values in :data:`HEADER_KEYS` order, as YAML and JSON write
    them: a table size (``players``) that is a whole number as one, the rest as text."""
    return [(k, int(header[k]) if k == "players" and header[k].isdecimal() and
             header[k].isascii() else header[k]) for k in HEADER_KEYS if k in header]


#: a decklist with no card entry (DL-2.1): one code and wording, whatever the format
EMPTY_DECK = ("empty-deck", "DL-2.1", "the file holds no card entries")


class Entry(MutableRecord):
    """One decklist entry as written: a count of a card, optionally a printing and tags.

    ``whole`` is the whole name part of a text line when the parser split a set and number off
    it; the resolver prefers it when a card has that whole name ("a set-code-looking word that
    is part of a name stays part of the name"). ``comment`` is the trailing comment (without
    '#'), ``leading`` the full comment lines above the entry, ``section`` the folded plural of
    the section header it stood under.
    """

    __slots__ = ("count", "name", "set_code", "number", "variants", "line", "whole", "comment",
                 "leading", "section")

    def __init__(self, count: int, name: str, set_code: str | None = None,
                 number: str | None = None, variants: tuple[str, ...] = (),
                 line: int | None = None, whole: str | None = None, comment: str | None = None,
                 leading: list[str] | None = None, section: str | None = None):
        self.count = count
        self.name = name
        self.set_code = set_code
        self.number = number
        self.variants = variants
        self.line = line
        self.whole = whole
        self.comment = comment
        self.leading = [] if leading is None else leading
        self.section = section

    @property
    def printing_text(self) -> str:
        if self.set_code and self.number:
            return f"({self.set_code}) {self.number}"
        if self.set_code:
            return f"({self.set_code})"
        return ""

    def describe(self) -> str:
        parts = [self.name]
        if self.printing_text:
            parts.append(self.printing_text)
        if self.variants:
            parts.append("[" + ", ".join(self.variants) + "]")
        return " ".join(parts)


class Section(MutableRecord):
    """A section header of a text decklist (``Animals: 8``) and the entries under it."""

    __slots__ = ("word", "key", "count", "line", "entries")

    def __init__(self, word: str, key: str, count: int | None, line: int,
                 entries: list[Entry] | None = None):
        self.word = word  # as written, e.g. "Animals"
        self.key = key  # folded
        self.count = count
        self.line = line
        self.entries = [] if entries is None else entries


class Deck(MutableRecord):
    """A parsed decklist: header, entries, sections, and the problems found while reading it.

    ``preamble``/``trailer`` are comment lines before the header / at the end of a text file
    (kept by fmt); ``newline`` and ``bom`` record how the file was written. ``sideboard``
    holds the entries another tool's layout lists outside the deck (a sideboard: rule
    DL-2.7): they are kept as written, never counted or checked.
    """

    __slots__ = ("path", "source_format", "header", "header_lines", "entries", "sections",
                 "problems", "preamble", "trailer", "newline", "bom", "sideboard")

    def __init__(self, path: str | None, source_format: str, header: dict | None = None,
                 header_lines: dict | None = None, entries: list[Entry] | None = None,
                 sections: list[Section] | None = None,
                 problems: list[Diagnostic] | None = None, preamble: list[str] | None = None,
                 trailer: list[str] | None = None, newline: str = "\n", bom: bool = False,
                 sideboard: list[Entry] | None = None):
        self.path = path
        self.source_format = source_format  # text | yaml | json | csv | cod | dek
        self.header = {} if header is None else header
        self.header_lines = {} if header_lines is None else header_lines
        self.entries = [] if entries is None else entries
        self.sections = [] if sections is None else sections
        self.problems = [] if problems is None else problems
        self.preamble = [] if preamble is None else preamble
        self.trailer = [] if trailer is None else trailer
        self.newline = newline
        self.bom = bom
        self.sideboard = [] if sideboard is None else sideboard

    @property
    def readable(self) -> bool:
        """False when the file could not be read as a deck at all (not a single entry line)."""
        return not any(p.code in UNREADABLE_CODES for p in self.problems)

    @property
    def card_count(self) -> int:
        total = 0
        for e in self.entries:  # a plain loop: several times a deck in a batch, and faster
            total += e.count
        return total


#: Problems after which nothing in the file was read as a deck.
UNREADABLE_CODES = frozenset({"unreadable", "encoding", "binary", "too-large", "bad-structure",
                              "unsafe-xml", "empty-file"})
