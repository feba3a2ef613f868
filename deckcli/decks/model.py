"""The in-memory decklist: entries as written, with the file and line each came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from deckcli.diagnostics import Diagnostic

HEADER_KEYS = ("game", "format", "name", "player")


@dataclass
class Entry:
    """One decklist entry as written: a count of a card, optionally a printing and tags."""

    count: int
    name: str
    set_code: str | None = None
    number: str | None = None
    variants: tuple[str, ...] = ()
    line: int | None = None
    #: the whole name part of a text line when the parser split a set and number off it; the
    #: resolver prefers it when a card has that whole name ("a set-code-looking word that is
    #: part of a name stays part of the name").
    whole: str | None = None
    comment: str | None = None  # trailing comment, without '#'
    leading: list[str] = field(default_factory=list)  # full comment lines above the entry
    section: str | None = None  # the section header it stood under (folded plural)

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


@dataclass
class Section:
    word: str  # the header word as written (e.g. "Animals")
    key: str  # folded
    count: int | None
    line: int
    entries: list[Entry] = field(default_factory=list)


@dataclass
class Deck:
    path: str | None
    source_format: str  # text | yaml | json | csv
    header: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    #: comment lines before the header / at the end of a text file (kept by fmt)
    preamble: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)
    newline: str = "\n"
    bom: bool = False

    @property
    def readable(self) -> bool:
        """False when the file could not be read as a deck at all (not a single entry line)."""
        return not any(p.code in UNREADABLE_CODES for p in self.problems)

    @property
    def card_count(self) -> int:
        return sum(e.count for e in self.entries)


#: Problems after which nothing in the file was read as a deck.
UNREADABLE_CODES = frozenset({"unreadable", "encoding", "binary", "too-large", "bad-structure"})
