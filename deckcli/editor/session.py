"""One deck being edited: its text, its verdict, its figures, its history, its save.

Everything the editor shows or changes goes through the library functions the commands use:
an edit is :mod:`deckcli.decks.edit`'s (``add``/``remove``: the line's count, a new line in its
kind's section, comments and line ends kept), checked by its ``check_edit``; the verdict is
``validate``'s (:func:`deckcli.validate.validate_resolved`, with the format, players and event
in force); the groups are ``fmt``'s plan (:func:`deckcli.decks.plan.arrange`); the figures are
``stats``' (:func:`deckcli.sheets.stats.deck_stats`); a save is ``fmt``'s canonical text,
written by the atomic writer only after the text read back is the same deck
(:func:`deckcli.rewrite.same_deck`) and formatting it again changes nothing.

Nothing here imports the terminal toolkit: the application (:mod:`deckcli.editor.app`) is a
view of a :class:`Session`, and the tests drive a Session on its own too.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

from deckcli.errors import DeckcliError, UsageError

#: how many copies the deck pane's and cards pane's keys add or remove at a time
STEP = 1
#: edits remembered for undo
HISTORY = 500


class SaveError(DeckcliError):
    """The deck could not be saved; the message says why and that nothing was lost."""


class Changed(SaveError):
    """The file on disk is not what was read (or last saved): removed, or changed by someone
    else. A second save, told to, writes over it."""


@dataclass(frozen=True)
class Row:
    """One line of the deck pane: a kind's header, or one entry as ``fmt`` writes it."""

    kind: str  # "group" or "entry"
    text: str
    count: int = 0
    card: object | None = None  # the card (None: a header, or an entry naming no card)
    entries: tuple = ()  # the deck's entries this line stands for (fmt merges equal ones)
    lines: tuple[int, ...] = ()  # their lines in the text


class Session:
    """A deck file opened for editing, held in memory until it is saved."""

    def __init__(self, path: str, index, *, game: str | None = None, fmt: str | None = None,
                 players: int | None = None, event=None, collection: str | None = None):
        from deckcli.validate import Options

        self.path = path
        self.index = index
        self.event = event
        self.options = Options(game=game, format=fmt, players=players, event=event)
        self._read(game, fmt)
        self.saved = None if self.new else self.text
        self.undo_stack: list[str] = []
        self.redo_stack: list[str] = []
        self._cache: dict[str, object] = {}
        self.owned: Counter = Counter()
        self.collection = collection
        if collection:
            self.owned = owned_copies(collection, index, self.game)

    # -- reading -------------------------------------------------------------------------------
    def _read(self, game, fmt) -> None:
        from deckcli.decks.format import CannotFormat, game_for
        from deckcli.decks.reader import FORMAT_BY_SUFFIX, read_source

        self.new = not os.path.lexists(self.path)
        if self.new:  # as `deckcli new` would make it: the header, no cards
            from deckcli.decks.edit import new_deck_text
            from deckcli.games import DEFAULT_GAME, get

            source = FORMAT_BY_SUFFIX.get(os.path.splitext(self.path)[1].lower())
            if source not in ("text", "yaml", "json"):
                raise UsageError("give a new deck a .txt, .deck, .yaml, .yml or .json name",
                                 path=self.path)
            chosen = game or getattr(self.event, "game", None) or DEFAULT_GAME
            g = get(chosen)
            fmt = fmt or getattr(self.event, "format", None)
            if fmt and not g.formats:
                raise UsageError(f"{chosen} has no formats; leave out --format")
            header = {"game": chosen, "format": fmt or g.default_format}
            self.text, self.bom, self.source_format = new_deck_text(source, header), False, source
            self.disk = None
        else:
            deck, text, data = read_source(self.path, is_set=self.index.is_any_set_code)
            if text is None:  # not text at all
                first = deck.problems[0]
                raise UsageError(f"cannot edit it: {first.message}", path=self.path,
                                 line=first.line)
            errors = [p for p in deck.problems if p.is_error and p.code != "empty-deck"]
            if errors:
                from deckcli.diagnostics import command_text

                raise UsageError(
                    f"cannot edit it: {errors[0].message} (fix the {len(errors)} error(s) "
                    f"first; {command_text('deckcli', 'validate', self.path)} lists them)",
                    path=self.path, line=errors[0].line)
            if deck.source_format in ("cod", "dek"):
                raise UsageError("cannot edit a Cockatrice or MTGO deck in place (that tool "
                                 "keeps more in it than deckcli reads); convert it to a text "
                                 "decklist first: deckcli convert DECK --to text -o DECK.txt",
                                 path=self.path)
            self.text, self.bom, self.source_format = text, deck.bom, deck.source_format
            self.disk = data
        try:
            from deckcli.decks.reader import parse_text_of

            deck = parse_text_of(self.text, self.path, self.source_format,
                                 is_set=self.index.is_any_set_code)
            self.game = game_for(deck, game or getattr(self.event, "game", None))
        except CannotFormat as exc:
            raise UsageError(exc.message, path=self.path) from None

    # -- what the deck is now ------------------------------------------------------------------
    def _memo(self, key: str, make):
        found = self._cache.get(key)
        if found is None or found[0] is not self.text:
            found = (self.text, make())
            self._cache[key] = found
        return found[1]

    def deck(self):
        """The deck the text holds, parsed afresh (callers may change it)."""
        from deckcli.decks.reader import parse_text_of

        return parse_text_of(self.text, self.path, self.source_format, bom=self.bom,
                             is_set=self.index.is_any_set_code)

    def checked(self):
        """(report, resolved deck or None, deck): ``validate``'s verdict on the text."""
        from deckcli.validate import validate_resolved

        def make():
            deck = self.deck()
            report, rdeck = validate_resolved(deck, self.index, self.options)
            return report, rdeck, deck
        return self._memo("checked", make)

    @property
    def report(self):
        return self.checked()[0]

    def stats(self) -> dict:
        """``deckcli stats``' document for the deck as it stands."""
        from deckcli.sheets import DeckSheet
        from deckcli.sheets.stats import deck_stats

        def make():
            report, rdeck, deck = self.checked()
            return deck_stats(DeckSheet(report, deck, rdeck), self.index)
        return self._memo("stats", make)

    def rows(self) -> list[Row]:
        """The deck pane's lines: each kind's header with its total, then its entries, as
        ``fmt`` groups and spells them (entries naming no card first, as written)."""
        def make():
            from deckcli.decks.plan import arrange
            from deckcli.decks.shapes import entry_line

            loose, groups = arrange(self.deck(), self.index, self.game)
            out = []

            def entry(line):
                text = entry_line(line.count, *line.fields(), None)
                card = line.resolved.card if line.resolved is not None else None
                return Row("entry", text, line.count, card, tuple(line.entries),
                           tuple(e.line for e in line.entries if e.line))
            if loose:
                out.append(Row("group", f"Not recognised: {sum(x.count for x in loose)}"))
                out.extend(entry(x) for x in loose)
            for g in groups:
                out.append(Row("group", f"{g.title}: {g.total}", g.total))
                out.extend(entry(x) for x in g.lines)
            return out
        return self._memo("rows", make)

    def in_deck(self) -> Counter:
        """Copies of each card (by id) in the deck, every version counted."""
        def make():
            rdeck = self.checked()[1]
            out: Counter = Counter()
            for r in rdeck.entries if rdeck is not None else ():
                out[r.card.id] += r.entry.count
            return out
        return self._memo("in_deck", make)

    @property
    def modified(self) -> bool:
        return self.text != self.saved

    # -- choosing what to add ------------------------------------------------------------------
    def default_choice(self, card):
        """A card as the cards pane adds it: its own printing (with an event's legal sets,
        the first legal one), the printing ``fmt`` would write for the name alone."""
        from deckcli.decks.edit import Choice
        from deckcli.decks.resolve import default_printing

        sets = getattr(self.event, "sets", None)
        printing = default_printing(self.index, card, (), None, sets)
        if printing is None and sets is not None:
            printing = default_printing(self.index, card)
        return Choice(card, printing)

    def entry_choice(self, entry):
        """The choice that names exactly one of the deck's entries (its key, as ``add`` and
        ``remove`` match entries); None for an entry naming no card."""
        from deckcli.decks.edit import Choice
        from deckcli.decks.resolve import Resolved, resolve_entry

        r = resolve_entry(self.index, self.game, entry, self.path)
        if not isinstance(r, Resolved):
            return None
        return Choice(r.card, r.printing, tuple(entry.variants),
                      entry.set_code if r.printing is None and entry.set_code else None)

    def versions(self, card) -> list:
        """Every version of a card a line may name: each printing, regular and in each
        variant tag it exists in, as choices."""
        from deckcli.decks.edit import Choice

        out = []
        for p in self.index.printings_of(card.id):
            out.append(Choice(card, p))
            out.extend(Choice(card, p, (tag,)) for tag in p.variants)
        return out

    # -- editing -------------------------------------------------------------------------------
    def add(self, choice, count: int = STEP) -> str:
        """Add copies; returns what was done (as ``deckcli add`` says it)."""
        return self._apply([("add", choice, count)])

    def remove(self, choice, count: int = STEP) -> str:
        return self._apply([("remove", choice, count)])

    def add_to_row(self, row: Row, count: int = STEP) -> str:
        choice = self._row_choice(row)
        return self.add(choice, count)

    def remove_from_row(self, row: Row, count: int = STEP) -> str:
        """Remove copies from a deck pane line: from its last entry first."""
        steps, left = [], count
        for e in reversed(row.entries):
            choice = self.entry_choice(e)
            if choice is None or not left:
                continue
            n = min(left, e.count)
            steps.append(("remove", choice, n))
            left -= n
        if not steps:
            raise UsageError(f"'{row.text}' names no card; edit that line in a text editor")
        return self._apply(steps)

    def set_version(self, row: Row, choice) -> str:
        """Every copy of a deck pane line becomes ``choice``'s printing and tags."""
        steps = []
        for e in row.entries:
            was = self.entry_choice(e)
            if was is None:
                raise UsageError(f"'{row.text}' names no card")
            steps.append(("remove", was, e.count))
        steps.append(("add", choice, row.count))
        self._apply(steps)
        return f"{row.count} {choice.describe()} (was {row.text.split(' ', 1)[1]})"

    def swap(self, steps) -> str:
        """Cards named as ``suggest`` names them ('Walrus (ABS) 12 [foil]'), each added or
        removed once (``steps``: (action, reference) pairs), as one change. A copy to remove
        is the version named if the deck holds it, else any version of the card."""
        from deckcli.decks.edit import Choice, choose_card, entry_key

        made = []
        for action, ref in steps:
            choice = choose_card(self.index, self.game, ref)
            if action == "remove":
                keys = {entry_key(self.index, self.game, e) for e in self.deck().entries}
                if choice.key not in keys:
                    choice = Choice(choice.card, None)
            made.append((action, choice, 1))
        return self._apply(made)

    def _row_choice(self, row: Row):
        choice = self.entry_choice(row.entries[0]) if row.entries else None
        if choice is None:
            raise UsageError(f"'{row.text}' names no card; edit that line in a text editor")
        return choice

    def _apply(self, steps) -> str:
        """Make the edits one after another on the text, each checked as ``add`` and
        ``remove`` check theirs; all or nothing, and one step of the undo history."""
        from deckcli.decks import edit
        from deckcli.decks.reader import parse_text_of

        text, said = self.text, []
        for action, choice, count in steps:
            deck = parse_text_of(text, self.path, self.source_format, bom=self.bom,
                                 is_set=self.index.is_any_set_code)
            result = getattr(edit, action)(deck, text, self.index, self.game, choice, count)
            newline = "\r\n" if "\r\n" in text else "\n"
            new_text = result.text.replace("\r\n", "\n").replace("\n", newline)
            new_deck = parse_text_of(new_text, self.path, self.source_format, bom=self.bom,
                                     is_set=self.index.is_any_set_code)
            problem = edit.check_edit(deck, new_deck, self.index, self.game, result.delta)
            if problem:
                raise edit.EditError(f"internal error, please report: {problem}; the deck "
                                     "is unchanged")
            text = new_text
            said.append(result.message)
        self._set(text)
        return "; ".join(said)

    def _set(self, text: str) -> None:
        if text == self.text:
            return
        self.undo_stack.append(self.text)
        del self.undo_stack[:-HISTORY]
        self.redo_stack.clear()
        self.text = text

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.text)
        self.text = self.undo_stack.pop()
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.text)
        self.text = self.redo_stack.pop()
        return True

    # -- saving --------------------------------------------------------------------------------
    def formatted(self) -> str:
        """The text as ``fmt`` writes it, after ``fmt``'s checks: it parses, it is the same
        deck with the same verdict (at the event in force), and formatting it again changes
        nothing. A failed check is a bug: SaveError, and nothing is written."""
        from deckcli.decks.format import CannotFormat, format_deck
        from deckcli.decks.reader import parse_text_of
        from deckcli.rewrite import same_deck

        deck = self.deck()
        try:
            new_text = format_deck(deck, self.text, self.index, self.game)
        except CannotFormat as exc:
            raise SaveError(f"cannot write it as fmt would: {exc.message}") from None
        again = parse_text_of(new_text, self.path, self.source_format, bom=self.bom,
                              is_set=self.index.is_any_set_code)
        unsafe = None
        if any(p.is_error for p in again.problems):
            unsafe = "the formatted text does not parse"
        elif not same_deck(self.deck(), again, self.index, self.game, self.event):
            unsafe = "the formatted deck is not the same deck"
        elif format_deck(again, new_text, self.index, self.game) != new_text:
            unsafe = "formatting is not stable"
        if unsafe:
            raise SaveError(f"internal error, please report: {unsafe}; nothing written")
        return new_text

    def on_disk(self) -> bytes | None:
        """The file's bytes now (None: no file there)."""
        from deckcli.decks.reader import read_bytes

        if not os.path.lexists(self.path):
            return None
        try:
            return read_bytes(self.path)
        except DeckcliError:
            return None

    def save(self, *, over: bool = False) -> str:
        """Write the deck as ``fmt`` writes it, atomically. Changed (nothing written) when
        the file was removed or changed on disk since it was read or last saved, unless
        ``over``; SaveError when it cannot be written (read-only, its folder gone). The deck
        stays in memory either way."""
        from deckcli.decks.format import encode
        from deckcli.diagnostics import visible_name
        from deckcli.files.write import WriteError, atomic_write, editing

        shown = visible_name(self.path)
        new_text = self.formatted()
        data = encode(new_text, self.bom)
        try:
            with editing(self.path):
                now = self.on_disk()
                if not over and now != self.disk:
                    if now is None:
                        raise Changed(f"{shown} is gone (removed or moved since it was "
                                      f"{'read' if self.saved is not None else 'opened'}); "
                                      "save again to write it anew")
                    raise Changed(f"{shown} was changed on disk since it was read; save "
                                  "again to write over it")
                atomic_write(self.path, data)
        except WriteError as exc:
            raise SaveError(f"{shown}: {exc.message}; the deck is kept here") from None
        if new_text != self.text:
            self._set(new_text)
        self.saved, self.disk, self.new = new_text, data, False
        report = self.report
        return (f"saved {shown}: {report.card_count} cards, "
                f"{'legal' if report.legal else 'ILLEGAL'}")


def owned_copies(path: str, index, game: str) -> Counter:
    """The collection's copies of each card (by id), every version counted: a decklist whose
    counts are the copies owned (``build``'s binder)."""
    from deckcli.decks.reader import read_deck
    from deckcli.decks.same import deck_cards

    deck = read_deck(path, is_set=index.is_any_set_code)
    errors = [p for p in deck.problems if p.is_error and p.code != "empty-deck"]
    if errors:
        raise UsageError(f"collection: {errors[0].message}", path=path, line=errors[0].line)
    out: Counter = Counter()
    for key, n in deck_cards(deck, index, game).items():
        if key[0] == "card":
            out[key[1]] += n
    return out
