"""The lines other deck tools write around their entries (rules DL-2.7, DL-2.8)::

    About                     Name Deep Divers          <- MTG Arena: the deck's name
    Deck      Main:     Maindeck                        <- the deck starts (any case, ':' optional)
    Sideboard Side      SB:       // Sideboard          <- cards that are not part of the deck
    SB: 2 Orca                                          <- one such card
    [metadata]  Name=Deep Divers  [main]  [sideboard]   <- Forge's .dck layout
    [general]   Constructed                             <- Forge: the deck's type

Each is a line without a leading quantity, so none of them can be taken for an entry; a card
name can only meet them in ``Name ...`` before the first entry (the deck's name wins there, as
in Arena's layout). The scanners that entry lines need (``Walrus x4``, ``*F*``, ``//``
comments, ``Name ...``) live in :mod:`deckcli.decks.lines`; this module is imported only when a
file has one of the lines above, so an ordinary deck costs nothing more to read.

Neither game has a sideboard: its cards are kept as written (``Deck.sideboard``) but never
counted, and :func:`left_out` warns how many were left out and where.
"""

from __future__ import annotations

from deckcli.diagnostics import warning

MAIN, SIDE, ABOUT, METADATA, GENERAL = "main", "side", "about", "metadata", "general"

_WORDS = {"deck": MAIN, "main": MAIN, "maindeck": MAIN,
          "sideboard": SIDE, "side": SIDE, "sb": SIDE, "about": ABOUT}
_FORGE = {"[main]": MAIN, "[sideboard]": SIDE, "[metadata]": METADATA, "[general]": GENERAL}


def zone_line(line: str) -> str | None:
    """What a layout line starts: MAIN, SIDE, ABOUT, METADATA or GENERAL; None for any other
    line."""
    if len(line) > 12:
        return None  # longer than any of the words: the usual answer, taken at once
    folded = line.casefold()
    if folded[:1] == "[":
        return _FORGE.get(folded)
    if folded.endswith(":"):
        folded = folded[:-1].rstrip()
    return _WORDS.get(folded)


def forge_start(text: str) -> bool:
    """Whether the first line that is not blank is one of Forge's section lines
    (``[metadata]``, ``[general]``, ``[main]``, ``[sideboard]``, any case): a text decklist
    in Forge's layout, which no JSON document starts with."""
    first = text.lstrip().split("\n", 1)[0]
    return first.strip().casefold() in _FORGE


def slashed_side(after_slashes: str) -> bool:
    """``// Sideboard`` (what follows the ``//``) is a sideboard header, not a comment."""
    return zone_line(after_slashes.strip()) == SIDE


def sb_prefix(line: str) -> str | None:
    """The entry of an ``SB: 2 Orca`` line (``2 Orca``), else None. The ':' is optional, as
    after every layout word, where a quantity in digits follows (``SB 2 Orca``): then no card
    name can be read as the prefix."""
    if line[:3].casefold() == "sb:":
        rest = line[3:].strip()
        return rest or None
    if line[:2].casefold() == "sb" and line[2:3].isspace():
        rest = line[3:].lstrip()
        if rest[:1].isdecimal() and rest[:1].isascii():
            return rest
    return None


def metadata_line(line: str) -> tuple[str, str] | None:
    """A Forge ``[metadata]`` line ``Key=Value``: (key folded, value), else None."""
    key, sep, value = line.partition("=")
    if sep and key.strip():
        return key.strip().casefold(), value.strip()
    return None


def deck_type_line(line: str) -> bool:
    """Forge's ``[general]`` line naming the deck's type (``Constructed``, ``Limited``): words
    of letters alone, so no entry (which starts or ends with a quantity) is taken for one."""
    return line.replace(" ", "").isalpha()


#: At most this many line ranges are listed in one message; the rest are counted.
MAX_RANGES = 20


def line_ranges(lines: list[int]) -> str:
    """``3-5, 9`` for lines 3, 4, 5 and 9 (bounded: "... and 12 more lines")."""
    runs: list[list[int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = [f"{a}-{b}" if b > a else str(a) for a, b in runs[:MAX_RANGES]]
    rest = sum(b - a + 1 for a, b in runs[MAX_RANGES:])
    if rest:
        shown.append(f"and {rest:,} more line{'s' if rest != 1 else ''}")
    return ", ".join(shown)


def left_out(sideboard, path: str | None, what: str = "sideboard"):
    """The warning that ``sideboard``'s cards are not part of the deck (None when empty)."""
    lines = [e.line for e in sideboard if e.line is not None]
    if not sideboard:
        return None
    copies = sum(e.count for e in sideboard)
    where = ""
    if lines:
        where = f" on line{'s' if len(lines) > 1 else ''} {line_ranges(lines)}"
    return warning(
        "sideboard", "DL-2.7",
        f"{copies:,} {what} card{'s' if copies != 1 else ''}{where} left out: neither game has a "
        "sideboard, so they are not part of the deck and not counted",
        path=path, line=min(lines) if lines else None)
