"""``deckcli cards search``: a small query language in the spirit of Scryfall's.

::

    walrus                      bare words match names (all words, any order)
    "snow leopard"              a quoted phrase
    name:fox  kind:animal  set:ABS  variant:foil
    speed>50  population<10000  weight>=100  length=3.2  level!=6
    speed>100 or weight>5000    'or' between terms; terms combine with AND by default
    -kind:action                a leading '-' negates a term

Queries compile to one SQL statement over the card index. A malformed query raises
:class:`QueryError` with the 1-based column where reading went wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deckcli.cards.names import fold_name, set_key, variant_tag
from deckcli.errors import UsageError

#: A query's bounds: the card index (SQLite) refuses a LIKE pattern past 50,000 bytes and an
#: expression nested past 1,000 levels, and no card name is anywhere near these.
MAX_TERMS = 100
MAX_TERM_CHARS = 1000
STATS = ("weight", "speed", "lifespan", "population", "length", "max_depth", "level")
FILTERS = ("name", "kind", "set", "variant")
_TOKEN = re.compile(r'\s*(?:(?P<neg>-)?(?:(?P<quoted>"[^"]*"?)|(?P<word>[^\s"]+)))')
_COMPARE = re.compile(r"^(?P<field>[A-Za-z_]+)(?P<op>>=|<=|!=|=|>|<|:)(?P<value>.*)$")


class QueryError(UsageError):
    def __init__(self, message: str, column: int):
        super().__init__(f"query column {column}: {message}")
        self.column = column


@dataclass
class Term:
    sql: str
    params: list
    negated: bool = False


def parse(query: str) -> list[list[Term]]:
    """OR-groups of AND-ed terms."""
    groups: list[list[Term]] = [[]]
    pos = 0
    text = query
    if not text.strip():
        raise QueryError("the query is empty", 1)
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        col = m.start("quoted") if m["quoted"] else m.start("word")
        col = (col if col >= 0 else pos) + 1
        pos = m.end()
        if len(m["quoted"] or m["word"]) > MAX_TERM_CHARS:
            raise QueryError(f"a term is longer than {MAX_TERM_CHARS:,} characters", col)
        if sum(map(len, groups)) + len(groups) > MAX_TERMS:
            raise QueryError(f"the query has more than {MAX_TERMS} terms", col)
        neg = bool(m["neg"])
        if m["quoted"] is not None:
            q = m["quoted"]
            if len(q) < 2 or not q.endswith('"'):
                raise QueryError("unclosed quote", col)
            groups[-1].append(_name_term(q[1:-1], neg))
            continue
        word = m["word"]
        if word.lower() == "or" and not neg:
            if not groups[-1]:
                raise QueryError("'or' needs a term before it", col)
            groups.append([])
            continue
        c = _COMPARE.match(word)
        if c is None:
            groups[-1].append(_name_term(word, neg))
            continue
        groups[-1].append(_field_term(c["field"].lower(), c["op"], c["value"], neg, col, c))
    if not groups[-1]:
        raise QueryError("'or' needs a term after it", len(text) + 1)
    return groups


def _name_term(words: str, neg: bool) -> Term:
    like = "%" + _escape(fold_name(words)) + "%"
    return Term("c.name_key LIKE ? ESCAPE '\\'", [like], neg)


def _field_term(field: str, op: str, value: str, neg: bool, col: int, m) -> Term:
    vcol = col + m.start("value")
    if field in FILTERS:
        if op != ":":
            raise QueryError(f"use '{field}:VALUE' (not {op})", col + m.start("op"))
        if not value:
            raise QueryError(f"'{field}:' needs a value", vcol)
        if value.startswith('"') and value.endswith('"') and len(value) >= 2:
            value = value[1:-1]
        if field == "name":
            return _name_term(value, neg)
        if field == "kind":
            return Term("c.kind = ?", [value.lower()], neg)
        if field == "set":
            return Term("EXISTS (SELECT 1 FROM printings p WHERE p.card_id = c.id AND "
                        "p.set_code = ?)", [set_key(value)], neg)
        tag = variant_tag(value)
        if tag is None:
            raise QueryError(f"{value!r} is not a variant tag (alternate-art, foil, "
                             "promotional, first-edition)", vcol)
        return Term("EXISTS (SELECT 1 FROM printings p WHERE p.card_id = c.id AND "
                    "(',' || p.variants || ',') LIKE ?)", [f"%,{tag},%"], neg)
    if field in STATS:
        if op == ":":
            op = "="
        try:
            number = float(value.replace("_", "").replace(",", ""))
            if number != number:  # NaN: no comparison with it is true, not even !=
                raise ValueError
        except ValueError:
            raise QueryError(f"expected a number after '{field}{op}', got {value!r}"
                             if value else f"expected a number after '{field}{op}'", vcol) from None
        sql_op = {"=": "=", "!=": "!=", ">": ">", "<": "<", ">=": ">=", "<=": "<="}[op]
        # the cards that pass, found once through the (stat, value) index: a subquery tied to
        # each card (EXISTS ... s.card_id = c.id) walked that index range again for every card
        return Term(f"c.id IN (SELECT s.card_id FROM stats s WHERE s.stat = ? "
                    f"AND s.value {sql_op} ?)", [field, number], neg)
    raise QueryError(f"unknown field {field!r}; fields are {', '.join(FILTERS + STATS)}", col)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search(index, query: str, game: str | None = None, limit: int | None = None):
    """Cards matching the query, ordered by name then number."""
    groups = parse(query)
    clauses, params = [], []
    for group in groups:
        parts = []
        for term in group:
            parts.append(("NOT " if term.negated else "") + "(" + term.sql + ")")
            params.extend(term.params)
        clauses.append("(" + " AND ".join(parts) + ")")
    where = " OR ".join(clauses)
    sql = f"SELECT c.id FROM cards c WHERE ({where})"
    if game:
        sql += " AND c.game = ?"
        params.append(game)
    sql += " ORDER BY c.game, c.name_key, c.number_key"
    if limit:
        sql += f" LIMIT {int(limit)}"
    return [index.card(row[0]) for row in index.conn.execute(sql, params)]
