"""What each decklist format can carry, and what a conversion would leave out.

``convert`` writes everything the target can hold and warns, kind by kind, about what the
source had that the target cannot hold (docs/decklists.md has the same table). Before
``convert -o`` writes, the result is read back and must keep exactly what :func:`kept` says
the target carries.
"""

from __future__ import annotations

from deckcli.decks.model import HEADER_KEYS, Deck

#: The kinds of things a deck may hold besides its cards' counts and names.
KINDS = (*HEADER_KEYS, "opening comments", "comment lines", "entry comments", "printings",
         "variants", "sections", "sideboard")

_ALL = frozenset(KINDS)
CARRIES: dict[str, frozenset[str]] = {
    "text": _ALL,
    "yaml": _ALL - {"sideboard"},  # a section header as the comment line above its entries
    "json": frozenset({*HEADER_KEYS, "entry comments", "printings", "variants"}),
    "csv": frozenset({"printings", "variants"}),  # cards only (docs/decklists.md)
    "arena": frozenset({"name", "printings", "sideboard"}),
    "cod": frozenset({"name", "opening comments", "printings", "sideboard"}),
    "dek": frozenset({"sideboard"}),
}


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _entries(n: int) -> str:
    return f"{n:,} entr{'y' if n == 1 else 'ies'}"


def held(deck: Deck, sections_derived: bool = False) -> dict[str, str]:
    """Each kind the deck holds, described for a warning ("the header line 'name: ...'");
    with ``sections_derived`` (its section headers say only what its cards say, as ``fmt``
    writes them: :func:`~deckcli.decks.plan.sections_from_cards`), not its section headers."""
    everything = deck.entries + deck.sideboard
    out = {k: f"'{k}: {deck.header[k]}'" for k in HEADER_KEYS if deck.header.get(k)}
    if deck.preamble:
        out["opening comments"] = _plural(len(deck.preamble), "comment line") + " at the top"
    lines = sum(len(e.leading) for e in everything) + len(deck.trailer)
    if lines:
        out["comment lines"] = _plural(lines, "comment line") + " among the entries"
    n = sum(1 for e in everything if e.comment)
    if n:
        out["entry comments"] = f"the comments after {_entries(n)}"
    n = sum(1 for e in everything if e.set_code)
    if n:
        out["printings"] = f"the printings (set, number) of {_entries(n)}"
    n = sum(1 for e in everything if e.variants)
    if n:
        out["variants"] = f"the variant tags of {_entries(n)}"
    if deck.sections and not sections_derived:
        out["sections"] = "the section headers " + ", ".join(
            dict.fromkeys(s.word for s in deck.sections))
    if deck.sideboard:
        copies = sum(e.count for e in deck.sideboard)
        out["sideboard"] = f"the sideboard ({_plural(copies, 'card')})"
    return out


def dropped(deck: Deck, target: str, sections_derived: bool = False) -> list[str]:
    """What the deck holds that ``target`` cannot carry, one description per kind (see
    :func:`held` for ``sections_derived``)."""
    carries = CARRIES[target]
    found = [(kind, what) for kind, what in held(deck, sections_derived).items()
             if kind not in carries]
    header = [what for kind, what in found if kind in HEADER_KEYS]
    out = [f"the header line{'s' if len(header) > 1 else ''} {', '.join(header)}"] \
        if header else []
    return out + [what for kind, what in found if kind not in HEADER_KEYS]


def kept(deck: Deck, target: str) -> dict:
    """The part of ``deck`` that ``target`` carries, in a form two decks compare by."""
    c = CARRIES[target]

    def entry(e):
        return (e.count, e.name,
                (e.set_code, e.number) if "printings" in c else None,
                frozenset(e.variants) if "variants" in c else None,
                (e.comment or None) if "entry comments" in c else None,
                tuple(e.leading) if "comment lines" in c else None,
                e.section if "sections" in c else None)

    return {"header": {k: v for k, v in deck.header.items() if k in c},
            "entries": [entry(e) for e in deck.entries],
            "sideboard": [entry(e) for e in deck.sideboard] if "sideboard" in c else None,
            "preamble": deck.preamble if "opening comments" in c else None,
            "trailer": deck.trailer if "comment lines" in c else None,
            "sections": [(s.word, s.count) for s in deck.sections if s.entries]
            if "sections" in c else None}
