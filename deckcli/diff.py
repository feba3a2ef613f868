"""Compare two decks card for card (``deckcli diff``), and a whole event's registered decks
with the decks played (``deckcli diff --event FILE --played DIR``).

Cards are compared as the fingerprint compares them: by card identity, every printing and
variant of a card together, unless ``printings`` asks for each printing and set of variant
tags on its own. An entry that names no card counts by its name as written.
"""

from __future__ import annotations

import os

from deckcli.cards.names import fold_name
from deckcli.decks.linked import not_a_decklist_message
from deckcli.records import MutableRecord


class Side(MutableRecord):
    """One deck of a comparison: where it is, its fingerprint and size, and its card counts
    (key -> [name, number, printing text or None, label, copies])."""

    __slots__ = ("path", "fingerprint", "card_count", "counts")

    def __init__(self, path, fingerprint, card_count, counts):
        self.path, self.fingerprint, self.card_count, self.counts = \
            path, fingerprint, card_count, counts

    def to_json(self) -> dict:
        from deckcli.diagnostics import visible_name

        return {"path": visible_name(self.path), "fingerprint": self.fingerprint,
                "card_count": self.card_count}


class Unreadable(Exception):
    """A deck that cannot be read as a deck (its reading errors), for diff: exit 2."""

    def __init__(self, path: str, message: str):
        super().__init__(message)
        self.path, self.message = path, message


def read_side(path: str, index, options, printings: bool, named_in: str | None = None) -> Side:
    """The deck at ``path`` for a comparison; raises :class:`Unreadable` for a deck with
    reading errors (and NotFoundError, exit 2, for a path that is not a file). A path
    ``named_in`` a file from a stranger (an event's roster) that leads to a file none of whose
    lines is a card entry is not a decklist, and its lines are not quoted, as ``validate
    --event`` says of it (:func:`~deckcli.decks.linked.hide_lines`)."""
    from deckcli.decks.linked import hide_lines
    from deckcli.validate import read_and_validate

    report, deck, rdeck = read_and_validate(path, index, options)
    if named_in is not None:
        hide_lines(report, named_in)
        if any(p.code == "not-a-decklist" for p in report.problems):
            raise Unreadable(path, f"is {not_a_decklist_message(named_in)}")
    errors = [p for p in deck.problems if p.is_error]
    if rdeck is None or errors:
        first = (errors or [p for p in report.problems if p.is_error] or [None])[0]
        where = f"line {first.line}: " if first is not None and first.line else ""
        what = first.message if first is not None else "it holds no deck"
        raise Unreadable(path, f"cannot be read as a deck ({where}{what})")
    counts: dict = {}

    def add(key, name, number, printed, label, copies):
        found = counts.setdefault(key, [name, number, printed, label, 0])
        found[4] += copies

    for r in rdeck.entries:
        card, entry = r.card, r.entry
        if not printings:
            add(card.identity, card.name, card.number, None, card.ref, entry.count)
            continue
        if r.printing is not None:
            printed = r.printing.ref
        else:
            printed = f"({entry.set_code})" if entry.set_code else None
        tags = sorted(entry.variants)
        if tags:
            printed = f"{printed or ''} [{', '.join(tags)}]".strip()
        add((card.identity, printed), card.name, card.number, printed,
            f"{card.name} {printed}" if printed else card.name, entry.count)
    for entry in rdeck.unresolved():
        key = f"?{fold_name(entry.name)}"
        add(key if not printings else (key, None), entry.name, None, None, entry.name,
            entry.count)
    return Side(report.path, report.fingerprint, report.card_count, counts)


def changes(a: Side, b: Side) -> tuple[list[dict], list[str]]:
    """The cards whose copies differ, ``{"name", "number", "a", "b"}`` (and ``"printing"``
    when printings are compared), sorted by name, then number, then printing; and the label
    a judge reads for each ('Orca (ABS) 10')."""
    out = []
    for key in {*a.counts, *b.counts}:
        x, y = a.counts.get(key), b.counts.get(key)
        na, nb = (x[4] if x else 0), (y[4] if y else 0)
        if na != nb:
            name, number, printed, label, _ = x or y
            item = {"name": name, "number": number, "a": na, "b": nb}
            if isinstance(key, tuple):
                item["printing"] = printed
            out.append((label, item))
    out.sort(key=lambda p: (fold_name(p[1]["name"]), p[1]["number"] or "",
                            p[1].get("printing") or ""))
    return [item for _, item in out], [label for label, _ in out]


def summary(items: list[dict], labels: list[str]) -> list[str]:
    """['-1 Orca (ABS) 10', '+1 Narwhal (ABS) 13']: what B has less, then what it has more; an
    entry naming no card by its name as written, escaped as every report shows what a file
    says (one line)."""
    from deckcli.diagnostics import visible_name

    labels = [visible_name(label) for label in labels]
    less = [f"-{i['a'] - i['b']} {label}" for i, label in zip(items, labels) if i["a"] > i["b"]]
    more = [f"+{i['b'] - i['a']} {label}" for i, label in zip(items, labels) if i["b"] > i["a"]]
    return less + more


#: a difference longer than this is written one change a line
WIDTH = 100


def summary_lines(head: str, parts: list[str]) -> list[str]:
    """``head`` and the changes on one line (``different: -1 Orca (ABS) 10, +1 Narwhal (ABS)
    13``) when it fits in :data:`WIDTH` columns, else ``head`` with the number of changes and
    one change a line under it."""
    one = f"{head} {', '.join(parts)}"
    if len(one) <= WIDTH:
        return [one]
    return [f"{head} {len(parts):,} changes", *(f"  {p}" for p in parts)]


def compare(a: Side, b: Side) -> dict:
    """The diff object of two sides, as docs/commands.md gives it (plus the judge's summary:
    the changes, as :func:`summary_lines` writes them)."""
    items, labels = changes(a, b)
    return {"version": 1, "same": not items, "a": a.to_json(), "b": b.to_json(),
            "changes": items, "summary": summary(items, labels)}


# -- a whole event -------------------------------------------------------------------------------
def find_played(event, played_dir: str) -> tuple[dict, list[str]]:
    """Each listed player's played deck in ``played_dir``: player -> (path or None, why not);
    and the played deck files no player was matched to.

    A player's played deck is, first, the file at the same path under ``played_dir`` as their
    registered deck has under the event file's folder (``decks/alice.txt`` ->
    ``PLAYED/decks/alice.txt``); else the one deck file under ``played_dir`` whose name without
    its suffix is the registered file's (``alice``), else the player's name. Two such files
    are reported, never guessed between."""
    from deckcli.validate import walk_decks

    files = walk_decks([played_dir])
    by_stem: dict[str, list[str]] = {}
    for path in files:
        by_stem.setdefault(os.path.splitext(os.path.basename(path))[0].casefold(), []).append(path)
    found: dict[str, tuple[str | None, str | None]] = {}
    for player, registered in event.roster_paths():
        if registered is None:  # listed without a deck: nothing registered to compare with
            found[player] = (None, "no deck file is listed for them in the roster")
            continue
        same = os.path.join(played_dir, os.path.relpath(registered, event.base_dir()))
        if os.path.isfile(same):
            found[player] = (same, None)
            continue
        stem = os.path.splitext(os.path.basename(registered))[0].casefold()
        for wanted in dict.fromkeys([stem, player.casefold()]):
            hits = by_stem.get(wanted, [])
            if len(hits) == 1:
                found[player] = (hits[0], None)
                break
            if len(hits) > 1:
                found[player] = (None, f"{len(hits)} played decks could be theirs: "
                                       f"{', '.join(hits)}")
                break
        else:
            found[player] = (None, f"no played deck in {played_dir} (looked for {same}, and "
                                   f"for a deck file named {stem} or {player})")
    taken = {os.path.abspath(p) for p, _ in found.values() if p}
    return found, [p for p in files if os.path.abspath(p) not in taken]
