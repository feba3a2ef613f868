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
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from deckcli.cards.cache import SOURCE_SUFFIXES, builtin_db_dir, content_key, dirs_key, save
from deckcli.cards.index import SCHEMA_VERSION, CardIndex, write_tables
from deckcli.cards.names import fold_name, number_key, set_key
from deckcli.cards.parts import code_hash
from deckcli.cards.sources import UnreadableSource, read_source
from deckcli.diagnostics import Diagnostic, command_text, error, one_line, visible_name, warning
from deckcli.errors import CardDatabaseError
from deckcli.games.effects import UNAPPLIED


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
    folded: tuple = ()  # the key, where the linking worked it out already

    @property
    def key(self) -> tuple[str, str, str]:
        return self.folded or (self.game, fold_name(self.name), number_key(self.number))


@dataclass
class PrintingRecord:
    game: str
    set_code: str
    number: str
    variants: tuple[str, ...]
    card_key: tuple[str, str, str]
    path: str
    line: int | None
    card_id: int = 0  # the card's id, once the linking numbered the cards
    keys: tuple = ()  # (set_key, number_key), where the linking worked them out already


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
    parts: object = None  # the PartStore a build used (how many files it parsed), or None
    #: per source file that joined the database: (label, order, SHA-256 of its bytes, rank
    #: of its release, game, set code), the index's ``files`` table (:mod:`deckcli.cards.patch`)
    file_rows: list[tuple] = field(default_factory=list)
    #: a build that replaced the changed files' rows in the last index (cards.patch): how
    #: many files' rows it kept as they were (none of those files was read further)
    patched: bool = False
    kept: int = 0


def discover(dirs, unlisted: list | None = None) -> list[tuple[Path, str]]:
    """Every source file under the folders, as (path, label for messages), in a stable order;
    a file reached twice (``--db card_db/alpha-walrus``, inside the built-in folder) once.
    ``unlisted`` (a list): gets (label, why) of each folder that could not be listed, whose
    set files are then missing (symlinked folders are not followed), and of each symbolic link
    to a file outside the folder (and every folder ``deckcli --allow-read`` names), which is
    never read: a folder walk stays in its folder (rule DB-1.1, as DL-1.4 for decks)."""
    from deckcli.files.bounds import Bounds, link_outside

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
        found = []
        for top, _subdirs, names in os.walk(root, onerror=lambda exc, root=root: _unlisted(
                root, exc, unlisted)):
            found.extend(Path(top, n) for n in names if Path(n).suffix in SOURCE_SUFFIXES)
        bounds = Bounds(str(root), "the card database folder", "DB-1.1")
        for path in sorted(found):  # a FIFO or a broken symlink too: reading it says what it is
            why = link_outside(str(path), bounds) if path.is_symlink() else None
            if why is not None:
                if unlisted is not None:
                    unlisted.append((_label(root, path), why))
                continue
            take(path, _label(root, path))
    return out


def _unlisted(root: Path, exc: OSError, unlisted: list | None) -> None:
    """os.walk's onerror: note the folder it could not list (see :func:`discover`)."""
    import errno

    if unlisted is None:
        return
    why = "permission denied" if exc.errno in (errno.EACCES, errno.EPERM) else \
        (exc.strerror or str(exc)).lower()
    unlisted.append((_label(root, Path(exc.filename)).removesuffix("/."),
                     f"cannot read this folder: {why}; the set files in it are not read"))


def _bundled(path) -> bool:
    """Whether a source file is one of the bundled card database's (DB-2.5's severity)."""
    try:
        return Path(path).resolve().is_relative_to(Path(builtin_db_dir()).resolve())
    except OSError:
        return False


def _label(root: Path, path: Path) -> str:
    rel = path.relative_to(root).as_posix()
    if root == Path(builtin_db_dir()):
        return f"card_db/{rel}"
    return f"{root}/{rel}" if str(root) != "." else rel


# Fields of a defining entry that every appearance of the same card must agree on (DB-3.2).
_IDENTITY_FIELDS = ("kind", "species", "stats", "text", "refers_to", "overrides", "traits",
                    "armor", "effects")


@contextmanager
def without_cycle_collection():
    """The cyclic garbage collector paused while a build makes its hundreds of thousands of
    records, tuples and dicts (none of which form cycles: reference counting frees them): each
    of its passes over everything alive took a third of a rebuild of 100,000 printings
    (1.7 -> 1.1 s of CPU with it paused). Parsing a file does leave cycles (ruamel's loader
    refers to itself), so after each file parsed the youngest generation alone is collected:
    what that file made, not everything alive (a full build's peak memory stays ~310 MiB).
    It runs again afterwards, as it was."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def compile_sources(dirs, parts=None) -> Compiled:
    """Every source file compiled (:func:`compile_file`) and linked into one database.

    ``parts`` (a :class:`deckcli.cards.parts.PartStore`, or None): where the compiled form of
    each file is kept by its content hash, so only a file whose bytes changed is parsed again;
    the result is the same either way (the cross-file checks and the linking run every time).
    """
    with without_cycle_collection():
        return _compile_sources(dirs, parts)


def _compile_sources(dirs, parts=None) -> Compiled:
    from deckcli.digest import sha256

    out = Compiled()
    problems = out.problems
    raw_entries = []  # (released, file order, game, set code, entry, label, line)
    set_files: dict[tuple[str, str], tuple[str, int | None, str]] = {}

    unlisted: list[tuple[str, str]] = []
    sources = discover(dirs, unlisted)
    problems.extend(error("db-unreadable", "DB-1.1", why, path=label) for label, why in unlisted)
    for order, (path, label) in enumerate(sources):
        out.files.append(path)
        try:
            data = read_source(str(path))
        except UnreadableSource as exc:
            problems.append(error(exc.code, "DB-1.1", exc.message, path=label))
            continue
        found, head, entries = compile_kept(data, parts)
        own = not _bundled(path)  # a set of one's own: text it leaves unapplied is a warning
        file_problems = [(warning if own and code == UNAPPLIED else error)(
            code, rule, message, path=label, line=line, card=card)
            for code, rule, message, line, card in found]
        if head is None:
            problems.extend(file_problems)
            continue
        game, code, name, released, set_line = head
        first = set_files.get((game, code))
        link = True  # the file's cards join the database (duplicates, versions, printings)
        if first is None:
            set_files[(game, code)] = (label, set_line, name)
            out.sets.append(SetRecord(game, code, name, released, label, set_line))
        elif first[2] != name:
            # another file may add cards to a set (a promo drop), but it is the same set
            problems.append(error("db-set-conflict", "DB-3.5",
                                  f"set {code} is named {name!r} here but "
                                  f"{first[2]!r} at {first[0]}:{first[1]}",
                                  path=label, line=set_line))
            link = False  # its cards are still checked one by one, so every problem shows
        problems.extend(file_problems)
        if link:
            rank = release_rank(released)
            out.file_rows.append((label, order, sha256(data).hexdigest(), rank, game, code))
            for entry in entries:
                raw_entries.append((rank, order, game, code, entry, label, entry[6]))

    _link(out, raw_entries)
    return out


def compile_kept(data: bytes, parts) -> tuple:
    """:func:`compile_file` of a file's bytes, taken from ``parts`` (a
    :class:`~deckcli.cards.parts.PartStore`, or None) when a build compiled the same bytes
    before, and kept there when not."""
    import gc

    part = parts.get(data) if parts is not None else None
    if part is None:
        part = compile_file(data)
        if parts is not None:
            parts.put(data, part)
        gc.collect(0)  # what parsing this file left in cycles (builds pause the collector)
    return part


def release_rank(released: str | None) -> str:
    """Where a set file's cards come in the order of definitions: by release date, a set with
    none last (then by the order the files are found in)."""
    return released or "9999"


def compile_file(data: bytes) -> tuple:
    """One set file's bytes checked on their own: ``(problems, head, entries)``, plain data
    (:mod:`marshal` keeps it: :mod:`deckcli.cards.parts`).

    * problems: ``(code, rule, message, line, card)`` for every problem found in the file
      alone (the file's path is added by :func:`compile_sources`);
    * head: ``(game, set code, set name, released, line of 'set')``, or None when the file is
      not a set file (then nothing of it joins the database);
    * entries: per card entry that is a card, ``(name, number, kind, version_of, variants,
      identity data, line)``, what linking needs (:func:`_link`).
    """
    from pydantic import ValidationError

    from deckcli.cards.model import SCHEMA_RULES, CardEntry, SetFile
    from deckcli.files.text import decode_text
    from deckcli.games import GAMES
    from deckcli.rulebook import find_rule
    from deckcli.yamlio import StructuredInputError, line_of, load_yaml, plain

    problems: list[tuple] = []

    def problem(code, rule, message, line=None, card=None):
        problems.append((code, rule, message, line, card))

    text, unreadable = decode_text(data, "a YAML set file")  # as a decklist's bytes are read
    if unreadable is not None:  # which byte, on which line, and what it looks like
        _code, message, line = unreadable
        problem("db-unreadable", "DB-1.1", message, line)
        return problems, None, []
    try:
        doc = load_yaml(text)
    except StructuredInputError as exc:
        problem("db-yaml", "DB-1.1", exc.message, exc.line)
        return problems, None, []
    if not isinstance(doc, dict):
        problem("db-schema", "DB-1.1", "a set file is a mapping with game, set and cards", 1)
        return problems, None, []
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
            problem("db-schema", "DB-1.1", f"{_loc(loc)}: {err['msg']}", line)
        return problems, None, []
    if head.game not in GAMES:
        problem("db-game", "DB-1.3", f"unknown game {head.game!r}; known: {', '.join(GAMES)}",
                line_of(doc, "game"))
        return problems, None, []
    released = head.set.released.isoformat() if head.set.released else None
    check_entry = GAMES[head.game].check_card_entry
    entries = []
    cards = doc.get("cards") or []
    for i, raw in enumerate(cards):
        line = line_of(cards, i)
        if not isinstance(raw, dict):
            problem("db-schema", "DB-1.2", f"cards[{i}]: a card is a mapping", line)
            continue
        bad: set = set()  # the fields with a schema problem
        bad_stats: set = set()  # the statistics with one (the others are still checked)
        try:
            entry = CardEntry.model_validate(plain(raw))
        except ValidationError as exc:
            for err in exc.errors():
                loc = err["loc"]
                if len(loc) >= 2 and loc[0] == "stats" and isinstance(raw.get("stats"), dict):
                    bad_stats.add(loc[1])
                else:
                    bad.add(loc[0] if loc else None)
                where = line_of(raw, loc[0]) if loc and loc[0] in raw else line
                if len(loc) >= 2 and isinstance(raw.get(loc[0]), (dict, list)):
                    where = line_of(raw[loc[0]], loc[1]) or where  # a statistic's, a tag's line
                code_, rule = SCHEMA_RULES.get((loc[0] if loc else None, err["type"]),
                                               ("db-schema", "DB-1.2"))
                problem(code_, rule, f"{raw.get('name', f'cards[{i}]')}: "
                                     f"{_loc(loc) or 'entry'}: {err['msg']}", where)
            entry = _without(CardEntry, raw, bad, bad_stats)
            if entry is None:
                continue
        unwritable = _unwritable(entry.name)
        if unwritable:
            shown = entry.name if entry.name.isprintable() and entry.name.strip() \
                else repr(entry.name)
            problem("db-name", "DB-1.4", f"{shown}: {unwritable}",
                    line_of(raw, "name") or line)
        unwritable = _unwritable_number(entry.number)
        if unwritable:
            problem("db-number", "DB-1.5", f"{entry.name} {entry.number!r}: {unwritable}",
                    line_of(raw, "number") or line)
        if entry.version_of is None:  # what broke the schema is left out, and not missing
            unread = frozenset({*map(str, bad), *(f"stats.{k}" for k in bad_stats)})
            for c, rule, msg in check_entry(entry, lambda rid: find_rule(rid) is not None,
                                            unread):
                problem(c, rule, msg, line)
        entries.append((entry.name, entry.number, entry.kind, entry.version_of,
                        tuple(entry.variants), _identity(entry), line))
    return problems, (head.game, head.set.code, head.set.name, released, line_of(doc, "set")
                      ), entries


def _identity(entry) -> dict | None:
    """What every appearance of a defining entry's card must agree on (DB-3.2): the identity
    fields it sets. None for a version (``version_of``), which inherits its card's."""
    if entry.version_of is not None:
        return None
    data = entry.model_dump(include=set(_IDENTITY_FIELDS), exclude_none=True)
    data = {k: v for k, v in data.items() if v not in ([], {}, None)}
    if entry.species is None:
        data.pop("species", None)
    return data


_RESERVED = "#[]()"  # what a text decklist line reads as a comment, variant tags, a set (DB-1.4)


def _unwritable(name: str) -> str | None:
    """Why no text decklist line can hold ``name`` (DB-1.4), else None."""
    import unicodedata

    if not name.strip():
        return "a card's name cannot be blank"
    reserved = sorted(set(name) & set(_RESERVED)) + (["//"] if "//" in name else [])
    if reserved:
        return (f"a card's name cannot hold {' '.join(repr(c) for c in reserved)}, which a "
                "decklist line reads as a comment, tags or a set")
    if not name.isprintable() and any(unicodedata.category(c) in ("Cc", "Zl", "Zp")
                                      for c in name):  # (the usual name: one C test)
        return "a card's name cannot hold a line break or another control character"
    return None


#: what a text decklist line reads at its end besides a collector number (DB-1.5): a comment,
#: variant tags, another tool's foil mark
_NOT_IN_NUMBERS = ("#", "//", "[", "]")
_FOIL_MARK = "*f*"


def _unwritable_number(number: str) -> str | None:
    """Why no text decklist line can end with collector number ``number`` (DB-1.5), else
    None. A line names a printing as '(SET) NUMBER', the number one word."""
    if (number.isascii() and number.isalnum()) or not number:  # (the usual number: one test)
        return None
    if (any(c in number for c in _NOT_IN_NUMBERS) or number.casefold() == _FOIL_MARK
            or not number.isprintable() or any(c.isspace() for c in number)):
        return ("a collector number is one word a decklist line can end with: no space, "
                "line break or other control character, no '#', '//', '[' or ']', and not "
                "'*F*'")
    return None


def _without(model, raw: dict, bad: set, bad_stats: set = frozenset()):
    """The card entry without the fields (and statistics) that broke its schema, so the rest
    of it (its other statistics, its text, its number among the others) is still checked: one
    mistake must not hide the next (``db check`` reports every problem at once). None when
    that is not a card either."""
    from pydantic import ValidationError

    from deckcli.yamlio import plain

    if None in bad:
        return None
    data = {k: v for k, v in plain(raw).items() if k not in bad}
    if bad_stats and isinstance(data.get("stats"), dict):
        data["stats"] = {k: v for k, v in data["stats"].items() if k not in bad_stats}
    try:
        return model.model_validate(data)
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
        name, number, kind, version_of, _variants, data, _line = entry
        if version_of is not None:
            continue
        key = (game, fold_name(name), number_key(number))
        rec = CardRecord(game, name, number, kind, code, data, label, line, folded=key)
        known = cards.get(key)
        if known is None:
            cards[key] = rec
        elif json.dumps(known.data, sort_keys=True) != json.dumps(data, sort_keys=True):
            diff = sorted(k for k in set(known.data) | set(data)
                          if known.data.get(k) != data.get(k))
            problems.append(error(
                "db-identity-conflict", "DB-3.2",
                f"{name} {number} differs from its entry at {known.path}:{known.line} "
                f"in {', '.join(diff)}",
                path=label, line=line, card=f"{name} {number}"))
    out.cards = list(cards.values())
    for i, rec in enumerate(out.cards, start=1):
        rec.id = i

    seen: dict[tuple, tuple[str, int | None]] = {}
    for _rel, _order, game, code, entry, label, line in raw_entries:
        name, number, _kind, version_of, variants, _data, _line = entry
        pkey = (game, set_key(code), number_key(number))
        if pkey in seen:
            first = seen[pkey]
            problems.append(error("db-duplicate-printing", "DB-3.1",
                                  f"{code} {number} is also defined at {first[0]}:{first[1]}",
                                  path=label, line=line,
                                  card=f"{name} ({code}) {number}"))
            continue
        seen[pkey] = (label, line)
        target = version_of if version_of is not None else number
        ckey = (game, fold_name(name), number_key(target))
        if ckey not in cards:
            problems.append(error("db-dangling-version", "DB-3.3",
                                  f"{name} ({code}) {number} is a version of "
                                  f"{name} {target}, which is not in the database",
                                  path=label, line=line))
            continue
        out.printings.append(PrintingRecord(game, code, number, tuple(variants), ckey, label,
                                            line, cards[ckey].id, pkey[1:]))


def build_index(dirs: list[str], files: list[str], path: str | None, stat_key: str,
                reuse: bool = True) -> CardIndex:
    """Compile the sources and write the index to ``path`` atomically; kept in memory only
    when the cache is read-only (or ``path`` is None). ``reuse``: parse only the files whose
    bytes changed since a build compiled them (:mod:`deckcli.cards.parts`); else every one."""
    from deckcli.cards.parts import PartStore

    parts = PartStore() if reuse else None
    with without_cycle_collection():
        return _build_index(dirs, files, path, stat_key, parts)


def _build_index(dirs, files, path, stat_key, parts) -> CardIndex:
    compiled = compile_sources(dirs, parts)
    compiled.parts = parts
    errors = [p for p in compiled.problems if p.is_error]
    if errors:
        first = errors[0]
        check = command_text("deckcli", "db", "check", *(a for d in dirs[1:] for a in ("--db", d)))
        where = visible_name(first.path) + (f":{first.line}" if first.line else "")
        raise CardDatabaseError(
            f"the card database has {len(errors)} problem(s); first: {where}: "
            f"{one_line(first.message)} (run {check} for all)", problems=errors)
    meta = [("schema", SCHEMA_VERSION), ("stat_key", stat_key),
            ("content_key", content_key(dirs, files)), ("dirs", dirs_key(dirs)),
            ("marshal", str(marshal.version)), ("code", code_hash())]
    conn = sqlite3.connect(":memory:")
    write_tables(conn, compiled, meta)
    index = CardIndex(conn, dirs, save(path, conn) if path else None)
    index.built = compiled
    return index
