"""Compile card-database sources (YAML set files) into records, collecting every problem.

``compile_sources`` is shared by ``db build`` (:func:`build_index`, which then writes the
SQLite index, see :mod:`deckcli.cards.index`) and ``db check`` (which reports the problems).
Every problem is a :class:`~deckcli.diagnostics.Diagnostic` with the file and line it was
found at; conflicts name both places.
"""

from __future__ import annotations

import json
import marshal
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from deckcli.cards.cache import SOURCE_SUFFIXES, builtin_db_dir, content_key, dirs_key, save
from deckcli.cards.index import SCHEMA_VERSION, CardIndex, write_tables
from deckcli.cards.names import fold_name, number_key, set_key
from deckcli.diagnostics import Diagnostic, command_text, error
from deckcli.errors import CardDatabaseError


@dataclass
class CardRecord:
    game: str
    name: str
    number: str
    kind: str
    base_set: str
    data: dict
    path: str
    line: int | None
    id: int = 0

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.game, fold_name(self.name), number_key(self.number))


@dataclass
class PrintingRecord:
    game: str
    set_code: str
    number: str
    variants: tuple[str, ...]
    card_key: tuple[str, str, str]
    path: str
    line: int | None


@dataclass
class SetRecord:
    game: str
    code: str
    name: str
    released: str | None
    path: str
    line: int | None


@dataclass
class Compiled:
    files: list[Path] = field(default_factory=list)
    sets: list[SetRecord] = field(default_factory=list)
    cards: list[CardRecord] = field(default_factory=list)
    printings: list[PrintingRecord] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)


def discover(dirs) -> list[tuple[Path, str]]:
    """Every source file under the folders, as (path, label for messages), in a stable order;
    a file reached twice (``--db card_db/alpha-walrus``, inside the built-in folder) once."""
    out = []
    seen: set[str] = set()

    def take(path: Path, label: str) -> None:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            out.append((path, label))

    for root in map(Path, dirs):
        if root.is_file():
            take(root, str(root))
            continue
        for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES):
            if path.is_file():
                take(path, _label(root, path))
    return out


def _label(root: Path, path: Path) -> str:
    rel = path.relative_to(root).as_posix()
    if root == Path(builtin_db_dir()):
        return f"card_db/{rel}"
    return f"{root}/{rel}" if str(root) != "." else rel


# Fields of a defining entry that every appearance of the same card must agree on (DB-3.2).
_IDENTITY_FIELDS = ("kind", "species", "stats", "text", "refers_to", "overrides", "traits",
                    "armor", "effects")


def compile_sources(dirs) -> Compiled:
    from pydantic import ValidationError

    from deckcli.cards.model import CardEntry, SetFile
    from deckcli.games import GAMES
    from deckcli.rulebook import find_rule
    from deckcli.yamlio import StructuredInputError, line_of, load_yaml, plain

    out = Compiled()
    problems = out.problems
    raw_entries = []  # (released, file order, game, set code, entry, label, line)
    set_files: dict[tuple[str, str], tuple[str, int | None]] = {}

    for order, (path, label) in enumerate(discover(dirs)):
        out.files.append(path)
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(error("db-unreadable", "DB-1.1", f"cannot read: {exc}", path=label))
            continue
        try:
            doc = load_yaml(text)
        except StructuredInputError as exc:
            problems.append(error("db-yaml", "DB-1.1", exc.message, path=label, line=exc.line))
            continue
        if not isinstance(doc, dict):
            problems.append(error("db-schema", "DB-1.1",
                                  "a set file is a mapping with game, set and cards",
                                  path=label, line=1))
            continue
        try:  # the cards are checked one at a time below: here only that they are a list
            head = SetFile.model_validate(
                {k: list(v) if k == "cards" and isinstance(v, list) else plain(v)
                 for k, v in doc.items()})
        except ValidationError as exc:
            for err in exc.errors():
                loc = err["loc"]
                line = line_of(doc, loc[0]) if loc else line_of(doc)
                if len(loc) >= 2 and isinstance(doc.get(loc[0]), dict):
                    line = line_of(doc[loc[0]], loc[1]) or line
                problems.append(error("db-schema", "DB-1.1",
                                      f"{_loc(loc)}: {err['msg']}", path=label, line=line))
            continue
        if head.game not in GAMES:
            problems.append(error("db-game", "DB-1.3",
                                  f"unknown game {head.game!r}; known: {', '.join(GAMES)}",
                                  path=label, line=line_of(doc, "game")))
            continue
        code = head.set.code
        set_line = line_of(doc, "set")
        released = head.set.released.isoformat() if head.set.released else None
        first = set_files.get((head.game, code))
        link = True  # the file's cards join the database (duplicates, versions, printings)
        if first is None:
            set_files[(head.game, code)] = (label, set_line, head.set.name)
            out.sets.append(SetRecord(head.game, code, head.set.name, released, label, set_line))
        elif first[2] != head.set.name:
            # another file may add cards to a set (a promo drop), but it is the same set
            problems.append(error("db-set-conflict", "DB-3.5",
                                  f"set {code} is named {head.set.name!r} here but "
                                  f"{first[2]!r} at {first[0]}:{first[1]}",
                                  path=label, line=set_line))
            link = False  # its cards are still checked one by one, so every problem shows
        check_entry = GAMES[head.game].check_card_entry
        cards = doc.get("cards") or []
        for i, raw in enumerate(cards):
            line = line_of(cards, i)
            if not isinstance(raw, dict):
                problems.append(error("db-schema", "DB-1.2", f"cards[{i}]: a card is a mapping",
                                      path=label, line=line))
                continue
            bad: set = set()  # the fields with a schema problem
            try:
                entry = CardEntry.model_validate(plain(raw))
            except ValidationError as exc:
                for err in exc.errors():
                    loc = err["loc"]
                    bad.add(loc[0] if loc else None)
                    where = line_of(raw, loc[0]) if loc and loc[0] in raw else line
                    if loc and loc[0] == "variants" and err["type"] == "literal_error":
                        code_, rule = "db-variant", "DB-3.4"
                    else:
                        code_, rule = "db-schema", "DB-1.2"
                    problems.append(error(code_, rule,
                                          f"{raw.get('name', f'cards[{i}]')}: "
                                          f"{_loc(loc) or 'entry'}: {err['msg']}",
                                          path=label, line=where))
                entry = _without(CardEntry, raw, bad)
                if entry is None:
                    continue
            reserved = sorted(set(entry.name) & set(_RESERVED))
            if reserved:
                problems.append(error("db-name", "DB-1.4", f"{entry.name}: a card's name cannot "
                                      f"hold {' '.join(repr(c) for c in reserved)}, which a "
                                      "decklist line reads as a comment, tags or a set",
                                      path=label, line=line_of(raw, "name") or line))
            if entry.version_of is None and not bad & _CHECKED_FIELDS:
                for c, rule, msg in check_entry(entry, lambda rid: find_rule(rid) is not None):
                    problems.append(error(c, rule, msg, path=label, line=line))
            if link:
                raw_entries.append((released or "9999", order, head.game, code, entry, label,
                                    line))

    _link(out, raw_entries)
    return out


_RESERVED = "#[]()"  # what a text decklist line reads as a comment, variant tags, a set (DB-1.4)

#: fields the game's own card checks read: with a schema problem in one of them, those checks
#: would only repeat it
_CHECKED_FIELDS = {None, "kind", "stats", "effects", "text", "armor"}


def _without(model, raw: dict, bad: set):
    """The card entry without the fields that broke its schema, so the rest of it (its
    statistics, its number among the others) is still checked: one mistake must not hide the
    next (``db check`` reports every problem at once). None when that is not a card either."""
    from pydantic import ValidationError

    from deckcli.yamlio import plain

    if None in bad:
        return None
    try:
        return model.model_validate({k: v for k, v in plain(raw).items() if k not in bad})
    except ValidationError:
        return None


def _loc(loc) -> str:
    return ".".join(str(p) for p in loc)


def _link(out: Compiled, raw_entries) -> None:
    """Identities from defining entries, then every printing pointed at its identity."""
    problems = out.problems
    cards: dict[tuple, CardRecord] = {}
    raw_entries.sort(key=lambda r: (r[0], r[1]))
    for _rel, _order, game, code, entry, label, line in raw_entries:
        if entry.version_of is not None:
            continue
        data = entry.model_dump(include=set(_IDENTITY_FIELDS), exclude_none=True)
        data = {k: v for k, v in data.items() if v not in ([], {}, None)}
        if entry.species is None:
            data.pop("species", None)
        rec = CardRecord(game, entry.name, entry.number, entry.kind, code, data, label, line)
        known = cards.get(rec.key)
        if known is None:
            cards[rec.key] = rec
        elif json.dumps(known.data, sort_keys=True) != json.dumps(data, sort_keys=True):
            diff = sorted(k for k in set(known.data) | set(data)
                          if known.data.get(k) != data.get(k))
            problems.append(error(
                "db-identity-conflict", "DB-3.2",
                f"{entry.name} {entry.number} differs from its entry at {known.path}:{known.line} "
                f"in {', '.join(diff)}",
                path=label, line=line, card=f"{entry.name} {entry.number}"))
    out.cards = list(cards.values())
    for i, rec in enumerate(out.cards, start=1):
        rec.id = i

    seen: dict[tuple, tuple[str, int | None]] = {}
    for _rel, _order, game, code, entry, label, line in raw_entries:
        pkey = (game, set_key(code), number_key(entry.number))
        if pkey in seen:
            first = seen[pkey]
            problems.append(error("db-duplicate-printing", "DB-3.1",
                                  f"{code} {entry.number} is also defined at {first[0]}:{first[1]}",
                                  path=label, line=line,
                                  card=f"{entry.name} ({code}) {entry.number}"))
            continue
        seen[pkey] = (label, line)
        target = entry.version_of if entry.version_of is not None else entry.number
        ckey = (game, fold_name(entry.name), number_key(target))
        if ckey not in cards:
            problems.append(error("db-dangling-version", "DB-3.3",
                                  f"{entry.name} ({code}) {entry.number} is a version of "
                                  f"{entry.name} {target}, which is not in the database",
                                  path=label, line=line))
            continue
        out.printings.append(PrintingRecord(game, code, entry.number, tuple(entry.variants),
                                            ckey, label, line))


def build_index(dirs: list[str], files: list[str], path: str | None, stat_key: str
                ) -> CardIndex:
    """Compile the sources and write the index to ``path`` atomically; kept in memory only
    when the cache is read-only (or ``path`` is None)."""
    compiled = compile_sources(dirs)
    errors = [p for p in compiled.problems if p.is_error]
    if errors:
        first = errors[0]
        check = command_text("deckcli", "db", "check", *(a for d in dirs[1:] for a in ("--db", d)))
        raise CardDatabaseError(
            f"the card database has {len(errors)} problem(s); first: {first.path}:{first.line}: "
            f"{first.message} (run {check} for all)", problems=errors)
    meta = [("schema", SCHEMA_VERSION), ("stat_key", stat_key),
            ("content_key", content_key(files)), ("dirs", dirs_key(dirs)),
            ("marshal", str(marshal.version))]
    conn = sqlite3.connect(":memory:")
    write_tables(conn, compiled, meta)
    index = CardIndex(conn, dirs, save(path, conn) if path else None)
    index.built = compiled
    return index
