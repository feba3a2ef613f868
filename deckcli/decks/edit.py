"""Create decklists and add or remove cards in place (``deckcli new``, ``add``, ``remove``).

Edits touch as little as they can: a text decklist gets one line's count changed, one line
added (in the section of the card's kind, whose count is kept right) or one line removed; its
comments, order and line endings stay. YAML is edited round-trip (comments survive); JSON and
CSV are written again in their usual shape.

A card is named as on a decklist line: ``Walrus``, ``Walrus (ABS) 12``, ``Walrus (ABS) 12
[foil]``, or just ``ABS 12``. Suggest, never substitute: a misspelt name fails with "did you
mean", an ambiguous one with the candidates (rules DL-3.3, DL-3.4).

Every edit is checked before it is written: the new text must parse and hold exactly the old
cards plus (or minus) the edited ones (:func:`check_edit`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass

from deckcli.cards.names import VARIANTS
from deckcli.decks.limits import MAX_COUNT
from deckcli.decks.model import HEADER_KEYS, Deck, Entry
from deckcli.decks.shapes import dump_json, entry_line
from deckcli.errors import DeckcliError


class EditError(DeckcliError):
    """The edit cannot be made (unknown or ambiguous card, card not in the deck...): exit 2."""


@dataclass(frozen=True)
class Choice:
    """The card (and maybe printing and tags) named on the command line."""

    card: object
    printing: object | None
    variants: tuple[str, ...] = ()
    set_code: str | None = None  # "(SET)" without a number

    @property
    def key(self) -> tuple:
        printing = (self.printing.id if self.printing is not None
                    else ("set", self.set_code) if self.set_code else None)
        return ("card", self.card.id, printing, frozenset(self.variants))

    def describe(self) -> str:
        return entry_line(0, *self.fields(), None).split(" ", 1)[1]

    def fields(self):
        tags = tuple(sorted(self.variants, key=VARIANTS.index))
        if self.printing is not None:
            return self.card.name, self.printing.set_code, self.printing.number, tags
        return self.card.name, self.set_code, None, tags




def split_count(index, game: str, text: str) -> tuple[int | None, str]:
    """(the quantity, the card) of a CARD written as a decklist line: ``4 Orca``, ``4x Orca
    (ABS) 10 [foil]``, ``x4 Orca``, ``Orca x4``; the quantity is None when the text gives
    none (``Orca``, ``DWV 90``), or when the whole text is a card's name. EditError for a
    quantity outside 1 to 999 (DL-2.2)."""
    from deckcli.decks.lines import scan_count_after, scan_quantity

    text = " ".join(str(text).split())
    if index.cards_named(game, text):  # a name that starts with a number is that name
        return None, text
    found = scan_quantity(text) or scan_count_after(text)
    if found is None:
        return None, text
    digits, rest = found
    count = int(digits)
    if not 1 <= count <= MAX_COUNT:
        raise EditError(f"{text!r}: a quantity is a whole number from 1 to {MAX_COUNT:,} "
                        "(DL-2.2)")
    return count, rest


def choose_card(index, game: str, text: str) -> Choice:
    """Resolve a card named on the command line, or raise EditError with suggestions."""
    from deckcli.decks.refs import resolve_ref

    try:
        r = resolve_ref(index, game, text)
    except DeckcliError as exc:
        raise EditError(exc.message) from None
    entry = r.entry
    return Choice(r.card, r.printing, tuple(entry.variants),
                  entry.set_code if r.printing is None and entry.set_code else None)


def entry_key(index, game: str, entry: Entry):
    """The key :func:`deckcli.decks.same.deck_cards` counts an entry under (None: unresolved)."""
    from deckcli.decks.resolve import Resolved, resolve_entry

    r = resolve_entry(index, game, entry, None)
    if not isinstance(r, Resolved):
        return None
    printing = (r.printing.id if r.printing is not None
                else ("set", entry.set_code) if entry.set_code else None)
    return ("card", r.card.id, printing, frozenset(entry.variants))


# -- new -----------------------------------------------------------------------------------------
def new_deck_text(source_format: str, header: dict[str, str]) -> str:
    """The text of an empty decklist with a header, in a source format (text, yaml, json)."""
    header = {k: header[k] for k in HEADER_KEYS if header.get(k)}
    if source_format == "text":
        return "".join(f"{k}: {v}\n" for k, v in header.items())
    if source_format == "json":
        return dump_json({**header, "cards": []}, [])
    if source_format == "yaml":
        import io

        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        from deckcli.decks.yamlfmt import yaml_io

        data = CommentedMap(header)
        cards = CommentedSeq()
        cards.fa.set_flow_style()
        data["cards"] = cards
        out = io.StringIO()
        yaml_io().dump(data, out)
        return out.getvalue()
    raise EditError(f"cannot create a {source_format} decklist; use .txt, .yaml or .json")


# -- add / remove --------------------------------------------------------------------------------
@dataclass
class Edit:
    text: str  # the new file text (line endings as the file had them, no BOM)
    delta: Counter  # cards added (positive) or removed (negative), by key
    message: str


def add(deck: Deck, text: str, index, game: str, choice: Choice, count: int) -> Edit:
    keys = [entry_key(index, game, e) for e in deck.entries]
    target = next((e for e, k in zip(deck.entries, keys) if k == choice.key), None)
    what = choice.describe()
    delta = Counter({choice.key: count})
    if target is not None:
        if target.count + count > MAX_COUNT:
            raise EditError(f"{what} would have {target.count + count} copies in one entry; "
                            f"the limit is {MAX_COUNT}")
        changes = {id(target): target.count + count}
        return Edit(_rewrite(deck, text, changes, None, index, game), delta,
                    f"added {count} {what} (now {target.count + count})")
    if count > MAX_COUNT:
        raise EditError(f"{count} copies in one entry is over the limit of {MAX_COUNT}")
    new = Entry(count, *choice.fields())
    return Edit(_rewrite(deck, text, {}, (new, choice.card.kind), index, game), delta,
                f"added {count} {what}")


def remove(deck: Deck, text: str, index, game: str, choice: Choice, count: int) -> Edit:
    keys = [entry_key(index, game, e) for e in deck.entries]
    card_id, printing, tags = choice.key[1], choice.key[2], choice.key[3]
    exact = [e for e, k in zip(deck.entries, keys) if k == choice.key]
    if tags:
        others = []
    elif printing is not None:
        others = [e for e, k in zip(deck.entries, keys)
                  if k and k[1] == card_id and k[2] == printing and k != choice.key]
    else:
        others = [e for e, k in zip(deck.entries, keys) if k and k[1] == card_id
                  and k != choice.key]
    candidates = list(reversed(exact)) + list(reversed(others))
    what = choice.describe()
    present = sum(e.count for e in candidates)
    if not present:
        raise EditError(f"{what} is not in the deck; nothing removed")
    left = count
    changes: dict[int, int] = {}
    delta: Counter = Counter()
    by_id = dict(zip(map(id, deck.entries), keys))
    for e in candidates:
        if not left:
            break
        taken = min(left, e.count)
        changes[id(e)] = e.count - taken
        delta[by_id[id(e)]] -= taken
        left -= taken
    removed = count - left
    if left:
        message = (f"removed all {removed} {what} (asked to remove {count}); "
                   "the entry is gone")
    else:
        gone = sum(1 for v in changes.values() if v == 0)
        message = f"removed {removed} {what}" + ("; the entry is gone" if gone else "")
    return Edit(_rewrite(deck, text, changes, None, index, game), delta, message)


def _rewrite(deck: Deck, text: str, changes: dict[int, int], new, index, game) -> str:
    """Apply count changes (0 deletes) and one new entry, in the deck's own format."""
    if deck.source_format in ("cod", "dek"):
        tool = "a Cockatrice" if deck.source_format == "cod" else "an MTGO"
        raise EditError(f"cannot edit {tool} deck in place (that tool keeps more in it than "
                        f"deckcli reads); edit it there, or 'deckcli convert {deck.path} "
                        "--to text -o DECK.txt' and edit that")
    if deck.source_format == "text":
        return _rewrite_text(deck, text, changes, new, game)
    if deck.source_format == "yaml":
        return _rewrite_yaml(deck, text, changes, new)
    from deckcli.decks.convert import entry_values, to_csv

    if deck.source_format == "csv":
        entries = [Entry(changes.get(id(e), e.count), e.name, e.set_code, e.number, e.variants)
                   for e in deck.entries if changes.get(id(e), e.count)]
        if new is not None:
            entries.append(new[0])
        return to_csv(Deck(deck.path, "csv", entries=entries))

    data = json.loads(text)
    raw = data.get("cards") if isinstance(data.get("cards"), list) else []
    items = []
    kept = iter(raw)
    for e in deck.entries:  # keep each item as written, with its new count
        item = next(kept, None)
        n = changes.get(id(e), e.count)
        if n and isinstance(item, dict):
            items.append({**item, "count": n})
    if new is not None:
        items.append(entry_values(new[0]))
    return dump_json(data, items)


_QTY_DIGITS = re.compile(r"^(\s*(?:[xX]\s?)?)([+-]?\d+)")


def _rewrite_text(deck: Deck, text: str, changes: dict[int, int], new, game: str) -> str:
    from deckcli.decks.lines import split_lines
    from deckcli.games import get

    nl = deck.newline
    lines = split_lines(text)
    new_counts: dict[int, int] = {}  # section line -> new total
    for s in deck.sections:
        listed = sum(e.count for e in s.entries)
        if s.count is not None and s.count == listed:
            new_counts[s.line] = sum(changes.get(id(e), e.count) for e in s.entries)
    insert_at, insert = len(lines), []
    if new is not None:
        entry, kind = new
        line = entry_line(entry.count, entry.name, entry.set_code, entry.number,
                          entry.variants, None)
        plural = get(game).kinds.get(kind, "")
        own = [s for s in deck.sections if s.key == plural.casefold()]
        last_entry = max((e.line for e in deck.entries if e.line), default=None)
        if own:
            s = own[-1]
            insert_at = max([s.line, *(e.line for e in s.entries if e.line)])
            insert = [line]
            if s.line in new_counts:
                new_counts[s.line] += entry.count
        elif deck.sections:
            insert_at = last_entry if last_entry is not None else len(lines)
            insert = ["", f"{plural}: {entry.count}", line]
        elif last_entry is not None:
            insert_at, insert = last_entry, [line]
        else:
            while lines and not lines[-1].strip():
                lines.pop()
            insert_at = len(lines)
            insert = ([""] if lines else []) + [line]
    for s in deck.sections:
        if s.line in new_counts and new_counts[s.line] != s.count:
            lines[s.line - 1] = _set_section_count(lines[s.line - 1], new_counts[s.line])
    drop = set()
    for e in deck.entries:
        if id(e) in changes:
            n = changes[id(e)]
            if n == 0:
                drop.add(e.line)
            else:
                lines[e.line - 1] = _set_count(lines[e.line - 1], n)
    out = []
    for i, raw in enumerate(lines, start=1):
        if i not in drop:
            out.append(raw)
        if i == insert_at:
            out.extend(insert)
    if insert_at == 0:
        out = insert + out
    return nl.join(out) + nl


#: The count written after the card (``Walrus x4``, ``Walrus x4 [foil] *F*  # note``).
_AFTER_DIGITS = re.compile(r"(?<=\s[xX])(\d+)(?=(?:\s*(?:\[[^\[\]]*\]|\*[fF]\*))*\s*(?:#|//|$))")


def _set_count(raw: str, n: int) -> str:
    """An entry line with its count made ``n``, where the line writes its count: in front
    (``4 Walrus``, ``x4 Walrus``) or after the card (``Walrus x4``)."""
    if _QTY_DIGITS.match(raw):
        return _QTY_DIGITS.sub(lambda m: m[1] + str(n), raw, 1)
    body = raw.partition("#")[0]
    found = list(_AFTER_DIGITS.finditer(body))
    if not found:
        return raw
    m = found[-1]
    return raw[:m.start()] + str(n) + raw[m.end():]


def _set_section_count(raw: str, n: int) -> str:
    head, sep, comment = raw.partition("#")
    if re.search(r"\d", head):
        head = re.sub(r"\d+", str(n), head, count=1)
    else:
        stripped = head.rstrip()
        head = (stripped if stripped.endswith(":") else stripped + ":") + f" {n}" + \
            head[len(stripped):]
    return head + sep + comment


def _rewrite_yaml(deck: Deck, text: str, changes: dict[int, int], new) -> str:
    import io

    from deckcli.decks.convert import entry_values
    from deckcli.decks.yamlfmt import compact, expand_comments, joins, yaml_io, yaml_item

    y = yaml_io()
    joined = joins(text)  # runs of comment lines reach the parser joined (cost: issue 24)
    data = y.load(compact(text.replace("\r\n", "\n"), cut_blanks=False))
    cards = data.get("cards")
    if cards is None:
        from ruamel.yaml.comments import CommentedSeq

        cards = data["cards"] = CommentedSeq()
    for i in reversed(range(min(len(cards), len(deck.entries)))):
        e = deck.entries[i]
        if id(e) not in changes:
            continue
        if changes[id(e)] == 0:
            del cards[i]
        else:
            cards[i]["count"] = changes[id(e)]
    if new is not None:
        cards.append(yaml_item(entry_values(new[0])))
        if hasattr(cards, "fa"):
            cards.fa.set_block_style()
    out = io.StringIO()
    y.dump(data, out)
    result = out.getvalue()
    try:
        y.load(result)  # still joined: the comments are the same lines either way
    except Exception:  # noqa: BLE001 - any YAML error: ruamel wrote a layout it cannot read
        # ruamel.yaml cannot write some mixed layouts back (a block-style entry after a
        # flow-style one with a trailing comment comes out on one line): say what to do,
        # rather than "internal error"; the file is not touched
        from deckcli.diagnostics import command_text

        raise EditError("cannot change this YAML file in place without breaking its layout "
                        "(entries in block style after commented flow-style ones); run "
                        f"{command_text('deckcli', 'fmt', deck.path)} first, then edit it"
                        ) from None
    if joined:
        result = expand_comments(result)
    return result.replace("\n", "\r\n") if "\r\n" in text else result


def check_edit(old: Deck, new: Deck, index, game: str, delta: Counter) -> str | None:
    """None when ``new`` holds exactly ``old``'s cards plus ``delta``; else what is wrong."""
    from deckcli.decks.same import deck_cards, normal_key

    bad = [p for p in new.problems if p.is_error and p.code != "empty-deck"]
    if bad:
        return f"the edited text does not parse (line {bad[0].line}: {bad[0].message})"
    if new.header != old.header:
        return "the edited deck lost its header"
    want = deck_cards(old, index, game)
    for key, n in delta.items():  # two lines of one card ('Walrus', 'Walrus (ABS) 12') add up
        want[normal_key(index, key)] += n
    want = Counter({k: v for k, v in want.items() if v > 0})
    got = deck_cards(new, index, game)
    if got != want:
        return "the edited deck does not hold the expected cards"
    return None
