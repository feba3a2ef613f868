"""One line of a text decklist: the scanners of its grammar and what the line says (an entry,
a header, a section header), remembered for lines that repeat. The full reader
(:mod:`.text`) and the quick read (:mod:`.quick`) read every line through here, so both
take a line the same way.
"""

from __future__ import annotations

from deckcli.cards.names import clean_name, fold_name, variant_tag
from deckcli.decks.limits import MAX_COUNT, MEMO_LINES
from deckcli.decks.model import HEADER_KEYS, Section

# The line grammar is scanned by hand rather than with regular expressions: compiling the
# half-dozen patterns it needs cost more than the rest of parsing a deck (3.4M instructions,
# measured with valgrind). tests/test_text_grammar.py holds the grammar as regular
# expressions and checks these scanners accept exactly the same lines.


def _signed_digits(line: str, start: int) -> int:
    """End of an optionally signed run of decimal digits at ``start`` (``start`` if none)."""
    i = start + 1 if line[start:start + 1] in ("+", "-") else start
    j = i
    while j < len(line) and line[j].isdecimal():
        j += 1
    return j if j > i else start


def _at_break(line: str, i: int) -> bool:
    return i == len(line) or line[i].isspace()


def scan_quantity(line: str) -> tuple[str, str] | None:
    """``4 Name``, ``4x Name``, ``4 x Name``, ``x4 Name``: (the digits, the rest) or None."""
    first = line[:1]
    if not first or not (first.isdecimal() or first in "+-xX"):
        return None  # a header or a name: no quantity can start here
    if first in ("x", "X"):
        start = 2 if line[1:2].isspace() else 1
        end = _signed_digits(line, start)
        if end > start and _at_break(line, end):
            return line[start:end], line[end:].lstrip()
        return None
    end = _signed_digits(line, 0)
    if end == 0:
        return None
    digits = line[:end]
    if line[end:end + 1] in ("x", "X"):
        return (digits, line[end + 1:].lstrip()) if _at_break(line, end + 1) else None
    if not _at_break(line, end):
        return None
    rest = line[end:].lstrip()
    if rest[:1] in ("x", "X") and rest[1:2].isspace():  # "4 x Walrus"
        rest = rest[1:].lstrip()
    return digits, rest


def scan_count_after(line: str) -> tuple[str, str] | None:
    """``Walrus x4``, ``Walrus (ABS) 12 x4``, ``Walrus x4 [foil]``: (the digits, the line
    without them) for a count written after the card, or None."""
    core = scan_marks(line)[0]
    parts = core.rsplit(None, 1)
    if len(parts) != 2:
        return None
    token = parts[1]
    if token[:1] not in ("x", "X") or not token[1:].isdecimal():
        return None
    return token[1:], parts[0] + line[len(core):]


def scan_marks(rest: str) -> tuple[str, list[str], bool]:
    """Strip what may follow a card at the end of a line: ``[tag]`` groups, Moxfield's and
    Archidekt's ``*F*`` (foil) and Archidekt's ``^Have,#37d67a^`` markers (which say nothing
    of the card), in any order: (what is left, the groups' insides in order, foil seen)."""
    groups: list[str] = []
    foil = False
    while True:
        rest, more = scan_tags(rest)
        groups[:0] = more
        if rest[-3:] in ("*F*", "*f*") and (len(rest) == 3 or rest[-4].isspace()):
            foil = True
            rest = rest[:-3].rstrip()
            continue
        if rest[-1:] == "^":
            opening = rest.rfind("^", 0, len(rest) - 1)
            if opening == 0 or opening > 0 and rest[opening - 1].isspace():
                rest = rest[:opening].rstrip()
                continue
        return rest, groups, foil


def _markers(line: str) -> list[tuple[int, int]]:
    """Where Archidekt's ``^Have,#37d67a^`` markers stand in ``line``: (first, last) of each
    pair of carets with white space (or the line's ends) outside them."""
    spans: list[tuple[int, int]] = []
    i = line.find("^")
    while i >= 0:
        j = line.find("^", i + 1)
        if j < 0:
            break
        if (i == 0 or line[i - 1].isspace()) and (j + 1 == len(line) or line[j + 1].isspace()):
            spans.append((i, j))
            i = line.find("^", j + 1)
        else:
            i = j
    return spans


def _outside(line: str, what: str, spans: list[tuple[int, int]]) -> int:
    """The first ``what`` in ``line`` outside every span (-1 if none)."""
    at = line.find(what)
    while at >= 0 and any(a < at <= b for a, b in spans):
        at = line.find(what, at + 1)
    return at


def _scan_forge(body: str) -> tuple[str, str, None] | None:
    """Forge's ``Walrus|ABS`` or ``Walrus|ABS|2``: (name, set, None). The third field is
    Forge's art index, not a collector number, so it names no printing."""
    name, _, rest = body.partition("|")
    code = rest.partition("|")[0].strip()
    name = name.rstrip()
    if not name or not code or any(c.isspace() for c in code):
        return None
    return name, code, None


def split_comment(line: str) -> tuple[str, str | None]:
    """(the line before its trailing comment, the comment or None), both stripped: a comment
    starts at the first ``#`` or ``//`` outside an Archidekt marker (``^Have,#37d67a^``)."""
    at = line.find("#")
    slash = line.find("//") if "/" in line else -1
    if "^" in line and (at >= 0 or slash >= 0):
        spans = _markers(line)
        if spans:
            at = _outside(line, "#", spans)
            slash = _outside(line, "//", spans)
    if slash >= 0 and (at < 0 or slash < at):
        return line[:slash].strip(), line[slash + 2:].strip()
    if at < 0:
        return line, None
    return line[:at].strip(), line[at + 1:].strip()


def name_line(line: str) -> str | None:
    """The deck's name from MTG Arena's ``Name Deep Divers`` line, else None; ``""`` for
    ``Name`` alone (what is left of ``Name #1 Aggro``: a name without a value)."""
    if line[:4].casefold() == "name":
        if len(line) == 4:
            return ""
        if line[4:5].isspace():
            return line[5:].strip() or None
    return None


def scan_header(line: str) -> tuple[str, str] | None:
    """``key: value`` with a key of ASCII letters."""
    key, sep, value = line.partition(":")
    key = key.rstrip()
    if sep and key and key.isascii() and key.isalpha():
        return key, value.strip()
    return None


def scan_section(line: str) -> tuple[str, str | None] | None:
    """``Animals``, ``Animals:``, ``Animals: 8``, ``Animals (8)``, ``Animals 8``: (word, count)."""
    word, count = line, None
    if ":" in line:
        word, _, after = line.partition(":")
        after = after.strip()
        if after and not after.isdecimal():
            return None
        count = after or None
    elif line.endswith(")"):
        word, _, inner = line[:-1].rpartition("(")
        inner = inner.strip()
        if not inner.isdecimal():
            return None
        count = inner
    else:
        parts = line.rsplit(None, 1)
        if len(parts) == 2 and parts[1].isdecimal():
            word, count = parts
    word = word.rstrip()
    if not word or not ("A" <= word[0] <= "Z" or "a" <= word[0] <= "z"):
        return None
    if not all(c == " " or ("A" <= c <= "Z" or "a" <= c <= "z") for c in word):
        return None
    return word, count


def scan_tags(rest: str) -> tuple[str, list[str]]:
    """Strip trailing ``[tag, tag] [tag]`` groups: (what is left, the groups' insides in order)."""
    groups: list[str] = []
    while rest.endswith("]"):
        opening = rest.rfind("[")
        inner = rest[opening + 1:-1]
        if opening < 0 or "]" in inner:
            break
        groups.insert(0, inner)
        rest = rest[:opening].rstrip()
    return rest, groups


def scan_printing_in_parens(body: str) -> tuple[str, str, str | None] | None:
    """``Name (SET) NUMBER`` or ``Name (SET)``: (name, set, number or None)."""
    start = 0
    while True:
        i = body.find("(", start)
        if i < 0:
            return None
        start = i + 1
        name = body[:i].rstrip()
        close = body.find(")", i + 1)
        if not name or close < 0:
            continue
        code = body[i + 1:close].strip()
        tail = body[close + 1:].strip()
        if not code or "(" in code or any(c.isspace() for c in code) or len(tail.split()) > 1:
            continue
        return name, code, tail or None


def is_number_token(text: str) -> bool:
    """Letters (up to three), digits, letters (up to three): ``12``, ``P3``, ``12a``."""
    i = 0
    while i < len(text) and i < 3 and text[i].isascii() and text[i].isalpha():
        i += 1
    j = i
    while j < len(text) and text[j].isdecimal():
        j += 1
    if j == i:
        return False
    tail = text[j:]
    return len(tail) <= 3 and all(c.isascii() and c.isalpha() for c in tail)


def scan_bare_printing(body: str) -> tuple[str, str, str] | None:
    """``Name SET NUMBER`` without parentheses: (name, set, number), set not yet checked."""
    parts = body.rsplit(None, 2)
    if len(parts) != 3:
        return None
    name, code, number = parts
    if not (2 <= len(code) <= 6 and code.isascii() and code.isalnum()):
        return None
    if not is_number_token(number):
        return None
    return name, code, number


def split_lines(text: str) -> list[str]:
    """The lines of a decklist. Only LF, CRLF and CR end a line: str.splitlines would also
    break at \x1c, \x85, \u2028, ..., and line numbers would no longer match an editor's."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline at the end of the last line
    return lines


_SECTION_WORDS: frozenset[str] | None = None


def section_words() -> frozenset[str]:
    """The folded section-header words of every game (``animals``, ``battle cards``, ...)."""
    global _SECTION_WORDS
    if _SECTION_WORDS is None:
        from deckcli.games import kind_plurals

        _SECTION_WORDS = frozenset(kind_plurals())
    return _SECTION_WORDS


#: set-code test -> line -> what the line says, for the rest of the run: for an entry line its
#: problems and the Entry fields, for a game or format header line (None, (key, value)). The
#: answer depends only on the line and the set codes, and a batch of decks repeats the same
#: lines over and over.
_READ: dict[object, dict[str, tuple]] = {}


def line_memo(is_set) -> dict[str, tuple]:
    """The remembered line readings for one set-code test (see ``_READ``)."""
    seen = _READ.get(is_set)
    if seen is None or len(seen) > MEMO_LINES:
        if len(_READ) > 16:  # many indexes in one process (a test run): start again
            _READ.clear()
        seen = _READ[is_set] = {}
    return seen


def classify_line(line: str, seen: dict, is_set) -> tuple | None:
    """What a stripped, comment-free line says, remembering it in ``seen`` where it repeats.

    An entry line: (problems, the Entry fields or None). A header line: (None, (key, value)).
    Anything else (a section header, a line with no quantity): None.
    """
    qty = scan_quantity(line)
    if qty is not None:
        known = seen[line] = _read_entry(qty, is_set)
        return known
    h = scan_header(line)
    if h and h[0].lower() in HEADER_KEYS:
        known = (None, (h[0].lower(), h[1]))
        if known[1][0] in ("game", "format"):  # these repeat across decks
            seen[line] = known
        return known
    if line[:3].casefold() == "sb:":
        return None  # 'SB: Orca x2': a sideboard card (the caller reads what follows 'SB:')
    qty = scan_count_after(line)
    if qty is not None:
        known = seen[line] = _read_entry(qty, is_set)
        return known
    return None


def read_section(line: str, lineno: int, words: frozenset[str]) -> Section | None:
    """A section header line (``Animals: 8``) as a Section, or None when it is not one (a
    count of more than 18 digits, too: no count a deck could match)."""
    sec = scan_section(line)
    if not sec or fold_name(sec[0]) not in words:
        return None
    word, count = sec
    if count and len(count) > 18:
        return None
    return Section(word.strip(), fold_name(word), int(count) if count else None, lineno)


def _read_entry(qty: tuple[str, str], is_set) -> tuple[list, tuple | None]:
    """An entry line's problems, and its (count, name, set, number, variants, board, whole):
    ``board`` is the category that puts the entry beside the deck (``Maybeboard``), else
    None."""
    faults: list[tuple[str, str, str]] = []
    digits, rest = qty
    rest = rest.strip()
    if len(digits.lstrip("+-")) > 6:
        return [("bad-count", "DL-2.2",
                 f"count {shorten(digits, 20)} is far beyond the limit of {MAX_COUNT}")], None
    count = int(digits)
    if count < 1:
        return [("bad-count", "DL-2.2", f"count {count} is not allowed: an entry has at least "
                 "1 copy (delete the line to remove the card)")], None
    if count > MAX_COUNT:
        return [("bad-count", "DL-2.2",
                 f"count {count} is over the limit of {MAX_COUNT} per entry")], None
    tags: list[str] = []
    rest, groups, foil = scan_marks(rest)
    if foil:
        groups.append("foil")
    board = None  # the category that puts the entry beside the deck (Archidekt's Maybeboard)
    for group in groups:
        for item in group.split(","):
            words = item.split()
            if not words:
                continue
            found = [variant_tag(item)]
            if found[0] is None:
                found = [variant_tag(word) for word in words]
                if None in found:
                    kind = category(item)
                    if kind is not None:  # another tool's category: says nothing of the card
                        board = board or (item.strip() if kind else None)
                        continue
            for word, tag in zip(words, found):
                if tag is None:
                    faults.append(("unknown-variant", "DL-4.1",
                                   f"[{word}] is not a variant tag (alternate-art, foil, "
                                   "promotional, first-edition)"))
                elif tag not in tags:
                    tags.append(tag)
    if not rest:
        return faults + [("no-name", "DL-2.1",
                          f"quantity {count} is not followed by a card name")], None
    # an unknown tag is an error on the line, but the entry still counts (its copies are in
    # the deck as listed, like a card name that matches no card): the tags it names are kept
    body = clean_name(rest)
    name, code, number, whole = body, None, None, None
    found = scan_printing_in_parens(body)
    if found is None and "|" in body:
        found = _scan_forge(body)
    if found is None and is_set is not None:
        found = scan_bare_printing(body)
        if found is not None and not is_set(found[1]):
            found = None
    if found is not None:
        name, code, number = found
        code, whole = code.upper(), body
    return faults, (count, name, code, number, tuple(tags), board, whole)


#: Categories that hold cards beside the deck, not in it (Archidekt's boards)
OFF_DECK = frozenset({"maybeboard", "sideboard"})


def category(item: str) -> bool | None:
    """Whether a bracketed item that is no variant tag is another tool's category (rule
    DL-2.8), and which (rule DL-2.7 for those beside the deck):
    True for one whose cards are not part of the deck (``Maybeboard``, ``Sideboard``, or one
    Archidekt marks ``{noDeck}``), False for any other (``Animals``, ``Card Draw``,
    ``Commander{top}``: a label), None for no category (a lower-case word such as ``shiny``,
    an unknown tag). A category starts with a capital letter or carries Archidekt's ``{...}``
    flags; a kind's plural or a board's name is one in any case."""
    item = item.strip()
    base = item.partition("{")[0].strip()
    folded = fold_name(base)
    if "{nodeck}" in item.casefold() or folded in OFF_DECK:
        return True
    if "{" in item or "A" <= item[:1] <= "Z" or folded in section_words():
        return False
    return None


def shorten(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
