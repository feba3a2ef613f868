"""The compiled card index: the SQLite tables built from the card YAML, and the look-ups every
command reads them through (:class:`CardIndex`, :class:`Card`, :class:`Printing`).

The YAML under ``card_db/`` (and each ``--db DIR`` / ``DECKCLI_DB`` folder) is the source of
truth; parsing it takes ruamel.yaml seconds at scale, so commands read an SQLite file instead.
Where that file lives and how it is written and checked is :mod:`deckcli.cards.cache`;
:func:`deckcli.cards.open_index` opens one, rebuilt when its sources changed.

This module imports neither pydantic nor ruamel.yaml.
"""

from __future__ import annotations

import marshal
import sqlite3
from functools import cached_property

from deckcli.cards.names import fold_name, number_key, set_key
from deckcli.records import Record

SCHEMA_VERSION = "8"  # 8: the files table (a build patches one changed file: cards.patch)
_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE sets(game TEXT, code TEXT, name TEXT, released TEXT, path TEXT, line INTEGER,
                  PRIMARY KEY(game, code));
CREATE TABLE cards(id INTEGER PRIMARY KEY, game TEXT, name TEXT, name_key TEXT, number TEXT,
                   number_key TEXT, kind TEXT, base_set TEXT, data BLOB, path TEXT, line INTEGER);
CREATE TABLE printings(id INTEGER PRIMARY KEY, card_id INTEGER, game TEXT, set_code TEXT,
                       number TEXT, number_key TEXT, variants TEXT, path TEXT, line INTEGER);
CREATE TABLE stats(card_id INTEGER, stat TEXT, value REAL);
CREATE TABLE files(path TEXT PRIMARY KEY, ord INTEGER, sha256 TEXT, rank TEXT, game TEXT,
                   code TEXT);
"""
#: made once the rows are in (building an index over rows already there is quicker than
#: keeping it up to date row by row)
_INDEXES = """
CREATE INDEX cards_name ON cards(game, name_key);
CREATE INDEX printings_number ON printings(game, set_code, number_key);
CREATE INDEX printings_card ON printings(card_id);
CREATE INDEX stats_value ON stats(stat, value);
"""


def write_tables(conn: sqlite3.Connection, compiled, meta) -> None:
    """Create the tables in an empty database and fill them from compiled sources (see
    :func:`deckcli.cards.build.compile_sources`) and the ``meta`` (key, value) pairs."""
    conn.executescript(_SCHEMA)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", meta)
    conn.executemany("INSERT INTO files VALUES (?,?,?,?,?,?)", compiled.file_rows)
    conn.executemany("INSERT INTO sets VALUES (?,?,?,?,?,?)",
                     [(s.game, s.code, s.name, s.released, s.path, s.line) for s in compiled.sets])
    by_key = {c.key: c for c in compiled.cards}
    conn.executemany(
        "INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [(c.id, c.game, c.name, key[1], c.number, key[2], c.kind, c.base_set,
          marshal.dumps(c.data), c.path, c.line)
         for c, key in ((c, c.key) for c in compiled.cards)])
    conn.executemany(
        "INSERT INTO stats VALUES (?,?,?)",
        [(c.id, stat, value)
         for c in compiled.cards for stat, value in c.data.get("stats", {}).items()])
    conn.executemany(
        "INSERT INTO printings(card_id, game, set_code, number, number_key, variants, path, line)"
        " VALUES (?,?,?,?,?,?,?,?)",
        [(p.card_id or by_key[p.card_key].id, p.game, keys[0], p.number, keys[1],
          ",".join(p.variants), p.path, p.line)
         for p, keys in ((p, p.keys or (set_key(p.set_code), number_key(p.number)))
                         for p in compiled.printings)])
    conn.executescript(_INDEXES)
    conn.commit()


class Card(Record):
    """One card identity: game + common name + collector number (treated as immutable)."""

    __slots__ = ("id", "game", "name", "number", "kind", "base_set", "data", "identity")

    def __init__(self, id: int, game: str, name: str, number: str, kind: str, base_set: str,
                 data: dict):
        self.id = id
        self.game = game
        self.name = name
        self.number = number
        self.kind = kind
        self.base_set = base_set
        self.data = data
        #: what makes a card the same card (AB-1.6): folded common name and collector number
        #: as compared (``012`` is ``12``), as the deck fingerprint spells it
        self.identity = f"{fold_name(name)}#{number_key(number)}"

    def __hash__(self) -> int:
        return hash((self.game, self.id))

    @property
    def ref(self) -> str:
        return f"{self.name} ({self.base_set}) {self.number}"

    @property
    def stats(self) -> dict:
        return self.data.get("stats", {})

    def overrides(self, effect: str) -> list[dict]:
        found = self.data.get("overrides")
        if not found:  # most cards: asked once per card in every deck check
            return []
        return [o for o in found if o.get("effect") == effect]


class Printing(Record):
    """One printing: a set code and collector number, and the variant tags it exists in."""

    __slots__ = ("id", "card_id", "set_code", "number", "variants")

    def __init__(self, id: int, card_id: int, set_code: str, number: str,
                 variants: tuple[str, ...]):
        self.id = id
        self.card_id = card_id
        self.set_code = set_code
        self.number = number
        self.variants = variants

    @property
    def ref(self) -> str:
        return f"({self.set_code}) {self.number}"


class CardIndex:
    """Look-ups on the compiled index. Cheap to query; rows become small value objects."""

    built = None  # the Compiled sources when this run built the index

    def __init__(self, conn: sqlite3.Connection, dirs: list[str], path: str | None):
        self.conn = conn
        self.dirs = dirs
        self.path = path
        # One read transaction for the run: an index opened from a file without the
        # immutable flag (deckcli.cards.cache opens its own with it) would otherwise take and
        # drop its file lock around every query.
        try:
            conn.execute("BEGIN")
        except sqlite3.Error:
            pass  # a transaction already open: the same effect
        self._cards: dict[int, Card] = {}
        # look-ups repeat across the decks of a batch: remember them for this run
        self._named: dict[tuple[str, str], list[Card]] = {}
        self._printings: dict[tuple[str, str, str], Printing | None] = {}
        self._printings_of: dict[int, tuple[Printing, ...]] = {}
        #: answers other modules compute from the index and keep for the run, by a key of
        #: their own (a name, or a tuple that starts with one)
        self.memo: dict[str | tuple, dict] = {}

    # -- cards -------------------------------------------------------------------------------
    def _card(self, row) -> Card:
        cid = row[0]
        card = self._cards.get(cid)
        if card is None:
            card = Card(cid, row[1], row[2], row[3], row[4], row[5], marshal.loads(row[6]))
            self._cards[cid] = card
        return card

    _CARD_COLS = "id, game, name, number, kind, base_set, data"

    def card(self, card_id: int) -> Card:
        if card_id in self._cards:
            return self._cards[card_id]
        row = self.conn.execute(f"SELECT {self._CARD_COLS} FROM cards WHERE id=?",
                                (card_id,)).fetchone()
        return self._card(row)

    def cards_named(self, game: str, name: str) -> list[Card]:
        key = (game, fold_name(name))
        found = self._named.get(key)
        if found is None:
            rows = self.conn.execute(
                f"SELECT {self._CARD_COLS} FROM cards WHERE game=? AND name_key=? ORDER BY id",
                key).fetchall()
            found = self._named[key] = [self._card(r) for r in rows]
        return list(found)

    def all_cards(self, game: str | None = None) -> list[Card]:
        if game:
            rows = self.conn.execute(
                f"SELECT {self._CARD_COLS} FROM cards WHERE game=? ORDER BY name_key, number_key",
                (game,))
        else:
            rows = self.conn.execute(
                f"SELECT {self._CARD_COLS} FROM cards ORDER BY game, name_key, number_key")
        return [self._card(r) for r in rows]

    def names(self, game: str) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT DISTINCT name FROM cards WHERE game=? ORDER BY name", (game,))]

    def suggest(self, game: str, name: str, n: int = 3) -> list[str]:
        """Up to n names close to a misspelt one ("did you mean"); never used to substitute."""
        import difflib

        names = self.names(game)
        by_key = {fold_name(x): x for x in names}
        close = difflib.get_close_matches(fold_name(name), list(by_key), n=n, cutoff=0.6)
        return [by_key[k] for k in close]

    # -- printings ---------------------------------------------------------------------------
    def _printing(self, row) -> Printing:
        return Printing(row[0], row[1], row[2], row[3], tuple(v for v in row[4].split(",") if v))

    def printing(self, game: str, set_code: str, number: str) -> Printing | None:
        key = (game, set_key(set_code), number_key(number))
        if key not in self._printings:
            row = self.conn.execute(
                "SELECT id, card_id, set_code, number, variants FROM printings "
                "WHERE game=? AND set_code=? AND number_key=?", key).fetchone()
            self._printings[key] = self._printing(row) if row else None
        return self._printings[key]

    def printings_of(self, card_id: int) -> tuple[Printing, ...]:
        """A card's printings, oldest set first. Remembered for the run: an event's set check
        asks it for every entry that names no printing, in every deck of a batch."""
        found = self._printings_of.get(card_id)
        if found is None:
            rows = self.conn.execute(
                "SELECT p.id, p.card_id, p.set_code, p.number, p.variants FROM printings p "
                "LEFT JOIN sets s ON s.game=p.game AND s.code=p.set_code "
                "WHERE card_id=? ORDER BY s.released, p.set_code, p.id", (card_id,))
            found = self._printings_of[card_id] = tuple(self._printing(r) for r in rows)
        return found

    # -- sets --------------------------------------------------------------------------------
    @cached_property
    def _set_codes(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for game, code in self.conn.execute("SELECT game, code FROM sets"):
            out.setdefault(game, set()).add(code)
        return out

    def is_set_code(self, game: str | None, code: str) -> bool:
        code = set_key(code)
        if game is None:
            return any(code in codes for codes in self._set_codes.values())
        return code in self._set_codes.get(game, set())

    def is_any_set_code(self, code: str) -> bool:
        """Whether any game knows the set code (the text parser's ``is_set``; a bound method
        compares equal across calls, so the parser's per-line memo works across decks)."""
        return self.is_set_code(None, code)

    def sets(self, game: str | None = None) -> list[dict]:
        sql = "SELECT game, code, name, released FROM sets"
        sql += (" WHERE game=?" if game else "") + " ORDER BY game, released, code"
        rows = self.conn.execute(sql, (game,) if game else ())
        return [dict(zip(("game", "code", "name", "released"), r)) for r in rows]

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        rows = self.conn.execute("SELECT game, kind, count(*) FROM cards GROUP BY game, kind")
        for game, kind, n in rows:
            out.setdefault(game, {})[kind] = n
        for game, n in self.conn.execute("SELECT game, count(*) FROM printings GROUP BY game"):
            out.setdefault(game, {})["printings"] = n
        for game, n in self.conn.execute("SELECT game, count(*) FROM sets GROUP BY game"):
            out.setdefault(game, {})["sets"] = n
        return out

    def card_json(self, card: Card) -> dict:
        """The docs/commands.md shape of one card identity."""
        out = {"game": card.game, "name": card.name, "number": card.number, "kind": card.kind}
        data = card.data
        out["stats"] = data.get("stats", {})  # {} for a card without statistics: one shape
        for key in ("species", "text", "traits", "armor", "effects", "overrides", "refers_to"):
            if key in data:
                out[key] = data[key]
        out["printings"] = [{"set": p.set_code, "number": p.number, "variants": list(p.variants)}
                            for p in self.printings_of(card.id)]
        return out
