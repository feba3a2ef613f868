"""The quick read of a text decklist: straight to per-card totals, for decks read cleanly.

A batch of decks for an event is mostly decks whose every line reads and resolves without a
problem, and whose lines repeat from deck to deck. For such a deck :func:`quick_resolve`
goes from the text to what the deck checks need (per card, the number of copies) without
building an :class:`~deckcli.decks.model.Entry` and a
:class:`~deckcli.decks.resolve.Resolved` for every line: each distinct line is read and
resolved once in a run, by the same functions the full reader uses, and remembered.

The moment a line is anything else (a problem of any kind, a header after the first entry,
too long, a sideboard or another tool's layout line it does not take, ...) the quick read
gives up and returns None, and the caller reads the file in full: the quick read never makes a
problem of its own. tests/test_quick.py checks on generated decks, good and bad, that both
routes give the same report.
"""

from __future__ import annotations

from operator import itemgetter

from deckcli.decks.fingerprint import item as fingerprint_item
from deckcli.decks.limits import MAX_ENTRIES, MAX_LINE_CHARS, MEMO_LINES
from deckcli.decks.lines import (
    classify_line,
    line_memo,
    name_line,
    read_section,
    section_words,
    split_comment,
    split_lines,
)
from deckcli.decks.model import Deck, Entry
from deckcli.decks.resolve import Resolved, resolve_entry, totals_of


class QuickDeck:
    """A resolved deck from the quick read, offering what :class:`~deckcli.decks.resolve.
    ResolvedDeck` offers the checks. ``entries`` are built only when a check asks for them
    (to point at the lines of a card over its copy limit, say)."""

    __slots__ = ("path", "game", "format", "card_count", "_totals", "_lines", "_facts",
                 "_entries")

    def __init__(self, path, game, fmt, card_count, totals, lines, facts):
        self.path = path
        self.game = game
        self.format = fmt
        self.card_count = card_count
        self._totals = totals
        self._lines = lines  # each entry's line number
        self._facts = facts  # and what its line says (see _facts)
        self._entries = None

    def totals(self) -> dict[int, tuple]:
        """Card id -> (card, copies): the pairs are each line's own, kept with its facts and
        shared by every deck that has the line (a tuple, so no check can change another
        deck's); a card on several lines gets a list of its own, as in ResolvedDeck."""
        return self._totals

    def unresolved(self) -> list:
        return []

    def listing(self, card_id: int) -> list[Resolved]:
        """One card's entries (a card over its limit, say), built without the others."""
        if self._entries is not None:
            return [r for r in self._entries if r.card.id == card_id]
        return [_resolved(facts, lineno) for lineno, facts in zip(self._lines, self._facts)
                if facts[1] == card_id]

    def fingerprint_items(self) -> list[tuple] | None:
        """Each card's (key, line) of the deck's fingerprint (:func:`~deckcli.decks.
        fingerprint.item`, kept with each line's facts), or None when a card is on more than
        one line (its copies add up)."""
        if len(self._totals) < len(self._facts):
            return None
        return list(map(_FINGERPRINT_OF, self._facts))

    def printed(self) -> list[tuple]:
        """:meth:`~deckcli.decks.resolve.ResolvedDeck.printed`, without building ``entries``
        (an event's set check reads it for every deck)."""
        return list(map(_PRINTED_OF, self._facts))

    @property
    def entries(self) -> list[Resolved]:
        if self._entries is None:
            self._entries = [_resolved(facts, lineno)
                             for lineno, facts in zip(self._lines, self._facts)]
        return self._entries


def _resolved(facts: tuple, lineno: int) -> Resolved:
    """The Resolved entry of one entry line, from its facts (see :func:`_facts`)."""
    _, _, card, fields, printing, _, _, _ = facts
    return Resolved(_entry(fields, lineno), card, printing)


def _entry(fields: tuple, lineno: int) -> Entry:
    count, name, code, number, tags, _, whole = fields
    return Entry(count, name, code, number, tags, lineno, whole)


def quick_resolve(text: str, path: str | None, index, options, pick):
    """(QuickDeck, header, sections, problems so far) for a text decklist, or None to read it
    in full. ``pick(deck, options)`` decides game and format from the header as the full route
    does: (game, format, problems), with game None when the header's game is unknown.

    ``header`` is the header deck: the header lines and their line numbers (its ``entries`` and
    ``sections`` stay empty). ``sections`` pairs each section header with the copies listed
    under it.
    """
    lines = split_lines(text)
    if len(lines) >= MAX_ENTRIES:
        return None  # near the entry limit: the full reader says where it stops
    is_set = index.is_any_set_code
    seen = line_memo(is_set)
    words = section_words()
    deck = Deck(path, "text")
    header, header_lines = deck.header, deck.header_lines
    sections: list = []  # (section, index in found of its first entry)
    facts: dict = {}  # line -> (copies, card id, card, fields, printing, printed, pair) or False
    game = fmt = None
    problems: list = []
    numbers: list[int] = []  # each entry's line number
    found_all: list = []  # and its facts
    for lineno, raw in enumerate(lines, 1):
        found = facts.get(raw)  # most lines: an entry line seen before, as it stands
        if found is None:
            if len(raw) > MAX_LINE_CHARS:
                return None
            line = raw.strip()
            if not line or line[0] == "#":
                continue
            if line[:2] == "//":
                if _layout(line, sections) is None:
                    return None  # '// Sideboard'
                continue  # a comment
            if "#" in line or "/" in line:
                line = split_comment(line)[0]
            found = facts.get(line)
        if found is None:
            if game is None and line[0] in "nN" and name_line(line) is not None:
                # ('N' and 'n' are the only characters whose casefold starts with 'n')
                return None  # Arena's 'Name ...' before the deck: the deck's name
            known = seen.get(line)
            if known is None:
                known = classify_line(line, seen, is_set)
            if known is None:
                section = read_section(line, lineno, words)
                if section is None:
                    if _layout(line, sections) is None:
                        return None  # no quantity, or another tool's line the quick read
                    continue  # does not take: the full reader reports it
                sections.append((section, len(found_all)))
                continue
            faults, fields = known
            if faults is None:  # a header line
                key, value = fields
                if found_all or key in header or not value:
                    return None  # after the entries, given twice, or empty: a problem
                header[key] = value
                header_lines[key] = lineno
                continue
            if fields is None or faults or fields[5]:
                return None  # an entry line with a problem (its faults), or beside the deck
            if game is None:  # the first entry: the header is complete
                game, fmt, problems = pick(deck, options)
                if game is None:
                    return None
                facts = index.memo.setdefault(("quick", game), {})
                found = facts.get(line)
                if found:
                    rest = list(map(facts.get, lines[lineno:]))
                    if all(rest):  # no None (a line not seen) and no False (not clean)
                        # every later line is a clean entry seen before, exactly as written:
                        # the usual deck in a batch, taken without a step per line
                        numbers += range(lineno, len(lines) + 1)
                        found_all.append(found)
                        found_all += rest
                        break
            if found is None:
                if len(facts) > MEMO_LINES:  # a batch of ever-new lines: start again
                    facts.clear()
                found = facts[line] = _facts(index, game, fields)
        if found is False:
            return None
        numbers.append(lineno)
        found_all.append(found)
    if not found_all:
        return None  # an empty deck: a problem
    totals = {f[1]: f[6] for f in found_all}  # card id -> (card, copies)
    if len(totals) < len(found_all):  # a card on more than one line: add its copies up
        totals = totals_of((f[2], f[0]) for f in found_all)
    listed = []
    for i, (section, first) in enumerate(sections):
        last = sections[i + 1][1] if i + 1 < len(sections) else len(found_all)
        listed.append((section, sum(map(_COPIES_OF, found_all[first:last]))))
    count = sum(map(_COPIES_OF, found_all))
    return QuickDeck(path, game, fmt, count, totals, numbers, found_all), deck, listed, problems


def _layout(line: str, sections: list) -> bool | None:
    """True for a line another tool writes that changes nothing the quick read keeps: a
    comment (``// ...``), or ``Deck``/``Main`` before any kind's section (the deck starts
    there anyway). None for every other line: the full reader takes the file."""
    from deckcli.decks.layouts import MAIN, slashed_side, zone_line

    if line[:2] == "//":
        return None if slashed_side(line[2:]) else True
    if zone_line(line) == MAIN and not sections:
        return True
    return None


_COPIES_OF = itemgetter(0)  # the copies of an entry line's facts
_PRINTED_OF = itemgetter(5)  # and what it says of its printing (QuickDeck.printed)
_FINGERPRINT_OF = itemgetter(7)  # and its (key, line) of the fingerprint


def _facts(index, game: str, fields: tuple):
    """(copies, card id, card, entry fields, printing, printed, (card, copies), fingerprint
    item) for an entry line that resolves cleanly, else False; ``printed`` is the line's item
    of ``printed()``, the pair its item of ``totals()`` when the card is on no other line, and
    the last its item of ``fingerprint_items()``."""
    found = resolve_entry(index, game, _entry(fields, None), None)
    if type(found) is not Resolved:
        return False
    card, printing = found.card, found.printing
    printed = (card, printing, fields[2], fields[4], fields[6])
    return (fields[0], card.id, card, fields, printing, printed, (card, fields[0]),
            fingerprint_item(card, fields[0]))
