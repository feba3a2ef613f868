"""How names, set codes, collector numbers and variant tags compare (rules DL-3.1 to DL-3.4).

These functions are the single definition of "the same name" and "the same number" used by the
index builder, the decklist resolver and every search, so the three can never disagree.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Curly and straight apostrophes (and their look-alikes) compare equal.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'"})
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=1 << 16)
def fold_name(name: str) -> str:
    """The key two card names are compared by: NFKC, apostrophes, whitespace, case (DL-3.1)."""
    text = unicodedata.normalize("NFKC", name).translate(_APOSTROPHES)
    return _SPACE.sub(" ", text).strip().casefold()


@lru_cache(maxsize=1 << 16)
def clean_name(name: str) -> str:
    """A name as a person typed it, tidied (NFKC, single spaces) but keeping its case."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", name)).strip()


_NUMBER = re.compile(r"^([^\d]*)(\d+)(.*)$")


@lru_cache(maxsize=1 << 16)
def number_key(number: str) -> str:
    """Collector numbers compare with leading zeros of the numeric part ignored (DL-3.2).

    ``012`` == ``12`` and ``P03`` == ``P3``, but ``12a`` is a number of its own.
    Letters compare case-insensitively.
    """
    text = unicodedata.normalize("NFKC", str(number)).strip()
    m = _NUMBER.match(text)
    if not m:
        return text.casefold()
    prefix, digits, suffix = m.groups()
    return f"{prefix.casefold()}{_without_zeros(digits)}{suffix.casefold()}"


def _without_zeros(digits: str) -> str:
    """Decimal digits as int() would write their value (leading zeros gone, any script's
    digits as 0-9), without int(): it refuses more than 4,300 digits, and a decklist may
    name any number (no printing has it: "there is no card number ...")."""
    if not digits.isascii():
        digits = "".join(str(unicodedata.decimal(c)) for c in digits)
    return digits.lstrip("0") or "0"


def set_key(code: str) -> str:
    return unicodedata.normalize("NFKC", code).strip().upper()


#: The four variant tags and the spellings accepted for them on input (docs/decklists.md).
VARIANTS = ("alternate-art", "foil", "promotional", "first-edition")
VARIANT_ALIASES = {
    "alternate-art": "alternate-art",
    "alt-art": "alternate-art",
    "foil": "foil",
    "promotional": "promotional",
    "promo": "promotional",
    "first-edition": "first-edition",
    "1st-edition": "first-edition",
    "1st": "first-edition",
}


def variant_tag(text: str) -> str | None:
    """The canonical tag for a spelling, or None when it is not a variant tag."""
    return VARIANT_ALIASES.get(fold_name(text).replace(" ", "-").replace("_", "-"))
