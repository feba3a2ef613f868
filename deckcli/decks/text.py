"""The text decklist grammar (CONTRACT.md "Text decklist"; rules DL-2.x, DL-4.1).

::

    # comment                         game: animal-battle      Animals: 8
    4 Walrus                          4x Walrus (ABS) 12       1 Walrus (ABS) 012 [foil]
    x4 Walrus    4 x Walrus           4 Walrus ABS 12  (when ABS is a known set code)

Every line that is not blank, a comment, a header or a section header must start with a
quantity; anything else is an error *on that line*, and parsing goes on so every problem in
the file is reported at once.
"""

from __future__ import annotations

import re

from deckcli.cards.names import clean_name, fold_name, variant_tag
from deckcli.decks.limits import MAX_COUNT, MAX_ENTRIES, MAX_LINE_CHARS
from deckcli.decks.model import HEADER_KEYS, Deck, Entry, Section
from deckcli.diagnostics import error

_QTY = re.compile(
    r"^(?:(?P<a>[+-]?\d+)(?:\s*[xX](?=\s))?|(?P<b>[+-]?\d+)[xX]|[xX]\s?(?P<c>[+-]?\d+))(?=\s|$)\s*(?P<rest>.*)$")
_HEADER = re.compile(r"^(?P<key>[A-Za-z]+)\s*:\s*(?P<value>.*)$")
_SECTION = re.compile(
    r"^(?P<word>[A-Za-z][A-Za-z ]*?)\s*(?::\s*(?P<n>\d+)?|\(\s*(?P<p>\d+)\s*\)|\s+(?P<s>\d+))?$")
_TAGS = re.compile(r"\s*\[(?P<tags>[^\[\]]*)\]\s*$")
_PAREN = re.compile(r"^(?P<name>.*?\S)\s*\(\s*(?P<set>[^()\s]+)\s*\)\s*(?P<num>\S+)?$")
_BARE = re.compile(r"^(?P<name>.*?\S)\s+(?P<set>[A-Za-z0-9]{2,6})\s+(?P<num>[A-Za-z]{0,3}\d+[A-Za-z]{0,3})$")


def _section_words() -> set[str]:
    from deckcli.games import kind_plurals

    return set(kind_plurals())


def parse_text(text: str, path: str | None, *, is_set=None) -> Deck:
    """Parse a text decklist. ``is_set(code)`` says whether a bare word is a known set code."""
    deck = Deck(path, "text", newline="\r\n" if "\r\n" in text else "\n")
    problems = deck.problems
    sections = _section_words()
    pending: list[str] = []  # comment lines waiting for the entry below them
    section: Section | None = None

    def bad(code: str, rule: str, message: str, lineno: int):
        problems.append(error(code, rule, message, path=path, line=lineno))

    for lineno, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE_CHARS:
            bad("line-too-long", "DL-1.3",
                f"line is {len(raw):,} characters long; the limit is {MAX_LINE_CHARS:,}", lineno)
            continue
        line = raw.strip()
        if not line:
            if pending and not deck.entries and not deck.header:
                deck.preamble.extend(pending)
                pending = []
            continue
        if line.startswith("#"):
            pending.append(line[1:].strip())
            continue
        comment = None
        if "#" in line:
            line, _, comment = line.partition("#")
            line, comment = line.strip(), comment.strip()
        m = _QTY.match(line)
        if m is None:
            h = _HEADER.match(line)
            if h and h["key"].lower() in HEADER_KEYS:
                key = h["key"].lower()
                if deck.entries:
                    bad("header-after-entries", "DL-2.3",
                        f"header line '{key}:' must come before the first card entry", lineno)
                elif key in deck.header:
                    bad("duplicate-header", "DL-2.3",
                        f"'{key}:' is given twice (first on line {deck.header_lines[key]})",
                        lineno)
                else:
                    deck.header[key] = h["value"].strip()
                    deck.header_lines[key] = lineno
                    if pending:
                        deck.preamble.extend(pending)
                        pending = []
                continue
            s = _SECTION.match(line)
            if s and fold_name(s["word"]) in sections:
                count = s["n"] or s["p"] or s["s"]
                section = Section(s["word"].strip(), fold_name(s["word"]),
                                  int(count) if count and len(count) < 7 else None, lineno)
                deck.sections.append(section)
                pending = []
                continue
            bad("no-quantity", "DL-2.5",
                f"'{_short(line)}' is not a card entry: an entry starts with a quantity in "
                "digits, as in '4 Walrus'", lineno)
            continue
        digits = m["a"] or m["b"] or m["c"]
        rest = m["rest"].strip()
        if len(digits.lstrip("+-")) > 6:
            bad("bad-count", "DL-2.2",
                f"count {_short(digits, 20)} is far beyond the limit of {MAX_COUNT}", lineno)
            continue
        count = int(digits)
        if count < 1:
            bad("bad-count", "DL-2.2", f"count {count} is not allowed: an entry has at least 1 "
                "copy (delete the line to remove the card)", lineno)
            continue
        if count > MAX_COUNT:
            bad("bad-count", "DL-2.2", f"count {count} is over the limit of {MAX_COUNT} per entry",
                lineno)
            continue
        tags: list[str] = []
        tag_error = False
        while True:
            t = _TAGS.search(rest)
            if not t:
                break
            rest = rest[: t.start()].rstrip()
            group: list[str] = []  # groups are found last first; keep the written order
            for word in re.split(r"[\s,]+", t["tags"].strip()):
                if not word:
                    continue
                tag = variant_tag(word)
                if tag is None:
                    bad("unknown-variant", "DL-4.1",
                        f"[{word}] is not a variant tag (alternate-art, foil, promotional, "
                        "first-edition)", lineno)
                    tag_error = True
                elif tag not in tags and tag not in group:
                    group.append(tag)
            tags[:0] = group
        if not rest:
            bad("no-name", "DL-2.1", f"quantity {count} is not followed by a card name", lineno)
            continue
        if tag_error:
            continue
        if len(deck.entries) >= MAX_ENTRIES:
            bad("too-many-entries", "DL-1.3",
                f"more than {MAX_ENTRIES:,} entries; the rest of the file is not read", lineno)
            break
        entry = _entry(count, rest, is_set)
        entry.variants = tuple(tags)
        entry.line = lineno
        entry.comment = comment or None
        entry.leading = pending
        pending = []
        if section is not None:
            entry.section = section.key
            section.entries.append(entry)
        deck.entries.append(entry)
    deck.trailer = pending
    if not deck.entries and not problems:
        problems.append(error("empty-deck", "DL-2.1", "the file holds no card entries",
                              path=path, line=None))
    return deck


def _entry(count: int, body: str, is_set) -> Entry:
    """Split 'Name (SET) NUM' or 'Name SET NUM' off the body; keep the whole as a fallback."""
    body = clean_name(body)
    m = _PAREN.match(body)
    if m:
        return Entry(count, m["name"], m["set"].upper(), m["num"], whole=body)
    m = _BARE.match(body)
    if m and is_set is not None and is_set(m["set"]):
        return Entry(count, m["name"], m["set"].upper(), m["num"], whole=body)
    return Entry(count, body)


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
