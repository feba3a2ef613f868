"""The last index brought up to date one changed set file at a time, in SQL.

A build from the compiled parts (:mod:`deckcli.cards.parts`) parses only the files that
changed, but still links every card and writes every row of the catalogue: at 100,000
printings that is most of a rebuild after one edit. Here the index the last build wrote is
copied into memory and only the changed file's rows are replaced, so a rebuild costs about
what parsing that one file costs.

The result is the index a build from nothing makes, row for row (tested by comparing both):

* Rows are numbered in the order of definitions (release rank, then the order the files are
  found in, then the order of the entries in a file), so each file's cards and printings hold
  one run of numbers. The changed file's run is replaced, and the rows after it are moved by
  how many rows the file gained or lost.
* Only what can be settled from the file and the index alone is patched. Whatever would need
  the other files' entries (the file is new, gone, or moved in the order; another file shares
  its set code; another file's printings point at its cards or it points at a card another
  file defines as well; it has a problem of its own) makes :func:`patch_index` return None,
  and the build links every file as before (:func:`deckcli.cards.build.build_index`), which
  reports every problem with its file and line.
"""

from __future__ import annotations

import json
import marshal
import sqlite3

from deckcli.cards.cache import content_key, dirs_key, load_copy, save, unchanged
from deckcli.cards.names import fold_name, number_key, set_key
from deckcli.cards.sources import read_source


class _Fallback(Exception):
    """This change needs the other files' entries: link every file instead."""


def patch_index(dirs: list[str], files: list[str], path: str | None, stat_key: str):
    """The :class:`~deckcli.cards.index.CardIndex` of the last index at ``path`` with the
    changed source files' rows replaced, written to ``path``; None when a full link is needed
    (see the module's text) or there is no usable last index. A changed file is compiled
    through the kept parts (:class:`~deckcli.cards.parts.PartStore`), as a full build's are."""
    from deckcli.cards.build import without_cycle_collection
    from deckcli.cards.parts import PartStore

    with without_cycle_collection():
        return _patch_index(dirs, files, path, stat_key, PartStore())


def _patch_index(dirs, files, path, stat_key, parts):
    from deckcli.cards.build import Compiled, discover
    from deckcli.cards.index import SCHEMA_VERSION, CardIndex
    from deckcli.cards.parts import code_hash
    from deckcli.digest import sha256

    loaded = load_copy(path) if path else None
    if loaded is None:
        return None
    work, meta = loaded
    try:
        if (meta.get("schema") != SCHEMA_VERSION or meta.get("dirs") != dirs_key(dirs)
                or meta.get("code") != code_hash()):
            raise _Fallback  # an index another deckcli, or other folders, made
        known = {row[0]: row for row in work.execute(
            "SELECT path, ord, sha256, rank, game, code FROM files")}
        unlisted: list = []
        found = discover(dirs, unlisted)
        if unlisted or [label for _, label in found] != sorted(known, key=lambda k: known[k][1]):
            raise _Fallback  # a file added, gone or moved: the numbering of everything changes
        # a file whose size and time are the ones the index recorded is not read (as a run
        # trusts the whole index when they all are)
        same = unchanged(meta.get("stat_key", ""), stat_key)
        changed, digests = [], {}
        for source, label in found:
            if str(source) in same:
                digests[str(source)] = bytes.fromhex(known[label][2])
                continue
            data = read_source(str(source))  # a FIFO put there: UnreadableSource
            digest = digests[str(source)] = sha256(data).digest()
            if digest.hex() != known[label][2]:
                changed.append((known[label], data, digest.hex()))
        for row, data, digest in changed:
            _patch_file(work, row, data, digest, parts)
        work.executemany("UPDATE meta SET value=? WHERE key=?",
                         [(stat_key, "stat_key"),
                          (content_key(dirs, files, digests), "content_key")])
    except (_Fallback, OSError, sqlite3.Error):
        work.close()
        return None
    index = CardIndex(work, dirs, save(path, work))
    index.built = Compiled(files=[source for source, _ in found], parts=parts, patched=True,
                           kept=len(found) - len(changed))
    return index


def _patch_file(conn: sqlite3.Connection, known: tuple, data: bytes, digest: str,
                parts) -> None:
    """Replace one set file's rows (``known``: its row of the ``files`` table) with what its
    new bytes (SHA-256 ``digest``) compile to; raises _Fallback where the other files'
    entries are needed."""
    from deckcli.cards.build import compile_kept, release_rank

    label, order, _sha, rank, game, code = known
    problems, head, entries = compile_kept(data, parts)
    if problems or head is None:
        raise _Fallback  # reported with every other problem by a full link
    new_game, new_code, set_name, released, set_line = head
    if (new_game, new_code, release_rank(released)) != (game, code, rank):
        raise _Fallback  # another set, or a move in the order of definitions
    one = conn.execute
    if one("SELECT 1 FROM files WHERE game=? AND code=? AND path!=?",
           (game, code, label)).fetchone():
        raise _Fallback  # a set shared with another file
    if one("SELECT 1 FROM printings WHERE path!=? AND card_id IN "
           "(SELECT id FROM cards WHERE path=?) LIMIT 1", (label, label)).fetchone():
        raise _Fallback  # another file's printings (or a reprint) point at this file's cards

    # where the file's runs of numbers start: after every row of the files before it
    before = "(f.rank < ? OR (f.rank = ? AND f.ord < ?))"
    card_start = 1 + one(f"SELECT count(*) FROM cards c JOIN files f ON f.path=c.path "
                         f"WHERE {before}", (rank, rank, order)).fetchone()[0]
    print_start = 1 + one(f"SELECT count(*) FROM printings p JOIN files f ON f.path=p.path "
                          f"WHERE {before}", (rank, rank, order)).fetchone()[0]
    old_cards = one("SELECT count(*) FROM cards WHERE path=?", (label,)).fetchone()[0]
    old_prints = one("SELECT count(*) FROM printings WHERE path=?", (label,)).fetchone()[0]
    one("DELETE FROM stats WHERE card_id IN (SELECT id FROM cards WHERE path=?)", (label,))
    one("DELETE FROM cards WHERE path=?", (label,))
    one("DELETE FROM printings WHERE path=?", (label,))

    def elsewhere(key: tuple) -> int | None:
        found = one("SELECT id FROM cards WHERE game=? AND name_key=? AND number_key=?",
                    key).fetchone()
        return found[0] if found else None

    # the file's entries linked as a full link links them (build._link), one file alone
    cards: dict[tuple, tuple] = {}  # key -> (id, identity data)
    card_rows, stat_rows = [], []
    for name, number, kind, version_of, _variants, ident, line in entries:
        if version_of is not None:
            continue
        key = (game, fold_name(name), number_key(number))
        if key in cards:
            if json.dumps(cards[key][1], sort_keys=True) != json.dumps(ident, sort_keys=True):
                raise _Fallback  # an identity conflict: reported by a full link
            continue
        if elsewhere(key) is not None:
            raise _Fallback  # defined by another file as well: which one is first matters
        card_id = card_start + len(card_rows)
        cards[key] = (card_id, ident)
        card_rows.append((card_id, game, name, key[1], number, key[2], kind, code,
                          marshal.dumps(ident), label, line))
        stat_rows.extend((card_id, stat, value) for stat, value in ident.get("stats", {}).items())
    shift_cards = len(card_rows) - old_cards
    printing_rows, seen = [], set()
    for name, number, _kind, version_of, variants, _ident, line in entries:
        keys = (set_key(code), number_key(number))
        if keys in seen:
            raise _Fallback  # a duplicate printing: reported by a full link
        seen.add(keys)
        target = (game, fold_name(name), number_key(number if version_of is None
                                                     else version_of))
        printing_rows.append([target, game, keys[0], number, keys[1], ",".join(variants),
                              label, line])
    shift_prints = len(printing_rows) - old_prints
    if one("SELECT 1 FROM printings WHERE game=? AND set_code=? LIMIT 1",
           (game, set_key(code))).fetchone():
        raise _Fallback  # the set's printings are in another file too

    _shift(conn, "cards", "id", card_start, shift_cards, unique=True)
    for table in ("stats", "printings"):
        _shift(conn, table, "card_id", card_start, shift_cards)
    _shift(conn, "printings", "id", print_start, shift_prints, unique=True)
    for row in printing_rows:
        target = row[0]
        card_id = cards[target][0] if target in cards else elsewhere(target)
        if card_id is None:
            raise _Fallback  # a version of a card nobody defines: reported by a full link
        row[0] = card_id
    conn.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)", card_rows)
    conn.executemany("INSERT INTO stats VALUES (?,?,?)", stat_rows)
    conn.executemany(
        "INSERT INTO printings(id, card_id, game, set_code, number, number_key, variants, path,"
        " line) VALUES (?,?,?,?,?,?,?,?,?)",
        [(print_start + i, *row) for i, row in enumerate(printing_rows)])
    one("UPDATE sets SET name=?, released=?, line=? WHERE game=? AND code=? AND path=?",
        (set_name, released, set_line, game, code, label))
    one("UPDATE files SET sha256=? WHERE path=?", (digest, label))


def _shift(conn: sqlite3.Connection, table: str, column: str, start: int, by: int,
           unique: bool = False) -> None:
    """Add ``by`` to ``column`` wherever it is ``start`` or more (the rows after a replaced
    file's run). A unique column goes through negative numbers, so that no row is given a
    number another row still holds."""
    if not by:
        return
    if unique:
        conn.execute(f"UPDATE {table} SET {column} = -({column} + ?) WHERE {column} >= ?",
                     (by, start))
        conn.execute(f"UPDATE {table} SET {column} = -{column} WHERE {column} < 0")
    else:
        conn.execute(f"UPDATE {table} SET {column} = {column} + ? WHERE {column} >= ?",
                     (by, start))
