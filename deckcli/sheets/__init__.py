"""Printable sheets, deck statistics and event reports: the data behind the pages.

The library side of ``deckcli sheet``, ``deckcli stats`` and ``deckcli report``. Nothing in this
package imports click or tabulate; the pages are plain strings of self-contained HTML (inline CSS,
inline SVG drawn by :mod:`.svg`, no script, no network) and the statistics are plain dicts.

* :func:`load_deck` / :func:`load_event_decks`: a :class:`DeckSheet` per deck, the validation
  report together with the resolved entries.
* :func:`card_groups`: a deck's lines grouped by card kind, with per-kind subtotals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckcli.decks.model import Deck, Entry
from deckcli.decks.resolve import ResolvedDeck
from deckcli.validate import DeckReport

UNRESOLVED = "unresolved"  # the group of lines that name no known card


@dataclass
class DeckSheet:
    """One deck as a sheet shows it: the verdict, and the cards (None when nothing was read)."""

    report: DeckReport
    deck: Deck | None = None
    rdeck: ResolvedDeck | None = None
    note: str | None = None  # why there is no deck (a listed player who submitted none)

    @property
    def player(self) -> str | None:
        return self.report.player

    @property
    def legal(self) -> bool:
        """A deck was read, and it is legal (a listed player without one is not)."""
        return self.deck is not None and self.report.legal

    @property
    def title(self) -> str:
        return self.report.name or self.report.player or self.report.path or "deck"


@dataclass
class Line:
    """One decklist line as the sheet prints it."""

    count: int
    name: str
    printing: str = ""  # "(ABS) 12", or "" when the line names the card only
    variants: tuple[str, ...] = ()
    line: int | None = None
    card_ref: str | None = None  # the card identity, when the line resolved

    def text(self) -> str:
        out = f"{self.count} {self.name}"
        if self.printing:
            out += f" {self.printing}"
        if self.variants:
            out += " [" + ", ".join(self.variants) + "]"
        return out


@dataclass
class Group:
    kind: str
    label: str  # the kind's plural ("Animals"), as decklist section headers name it
    lines: list[Line] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(x.count for x in self.lines)


def _line(entry: Entry, ref: str | None) -> Line:
    return Line(entry.count, entry.name, entry.printing_text, tuple(entry.variants), entry.line,
                ref)


def card_groups(sheet: DeckSheet) -> list[Group]:
    """Lines grouped by kind in the game's kind order; lines naming no known card come last."""
    from deckcli.games import DEFAULT_GAME, GAMES

    deck = sheet.deck
    if deck is None:
        return []
    game = GAMES.get(sheet.report.game) or GAMES[DEFAULT_GAME]
    by_entry = {id(r.entry): r for r in (sheet.rdeck.entries if sheet.rdeck else [])}
    groups = {kind: Group(kind, plural) for kind, plural in game.kinds.items()}
    other = Group(UNRESOLVED, "Not recognised")
    for entry in deck.entries:
        r = by_entry.get(id(entry))
        if r is None:
            other.lines.append(_line(entry, None))
            continue
        group = groups.setdefault(r.card.kind, Group(r.card.kind, r.card.kind.title()))
        group.lines.append(_line(entry, r.card.ref))
    out = [g for g in groups.values() if g.lines]
    if other.lines:
        out.append(other)
    return out


def load_deck(path: str, index, options, *, player: str | None = None) -> DeckSheet:
    """Read, validate and resolve one deck file (a missing path raises NotFoundError)."""
    from deckcli.validate import read_and_validate

    report, deck, rdeck = read_and_validate(path, index, options)
    if player:
        report.player = player
    return DeckSheet(report, deck, rdeck)


def load_event_decks(event, index, options, *, player: str | None = None) -> list[DeckSheet]:
    """A sheet per roster entry (in roster order), then one per unlisted deck in the folders.

    ``player`` keeps only that player's sheet; a name not in the roster raises UsageError.
    """
    from deckcli.errors import UsageError
    from deckcli.roster import roster_decks

    event.need_roster()
    if player is not None and player not in event.players:
        raise UsageError(f"no player {player!r} in the roster of {event.path} (players: "
                         f"{', '.join(event.players)})")
    out = []
    for report, deck, rdeck in roster_decks(event, index, options):
        if player is not None and report.player != player:
            continue
        if report.path is None:
            listed = event.players.get(report.player)
            why = f"their deck file ({listed}) cannot be read" if listed else \
                "no deck file is listed for them"
            out.append(DeckSheet(report, note=f"{report.player} is on the roster of {event.path}, "
                                 f"but {why}."))
            continue
        out.append(DeckSheet(report, deck, rdeck))
    return out
