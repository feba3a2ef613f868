"""The shapes a deck's parts are written in, shared by ``fmt``, ``convert`` and the editor.

* an entry: ``QTY NAME (SET) NUMBER [tag, tag]  # comment`` (:func:`entry_line`, docs/decklists.md);
* a comment line: ``# text`` (:func:`comment_line`);
* the sideboard: a ``Sideboard`` header and its entries (:func:`sideboard_lines`);
* a JSON deck: 2-space indent, header keys first, one card entry per line (:func:`dump_json`);
* variant tags in the order of :data:`~deckcli.cards.names.VARIANTS` (:func:`tag_order`).

This module knows nothing of cards or games: it only writes what it is given.
"""

from __future__ import annotations

import json

from deckcli.cards.names import VARIANTS
from deckcli.decks.model import HEADER_KEYS, Deck


def variant_rank(tag: str) -> int:
    """Where a variant tag sorts: VARIANTS order, any other word after them."""
    return VARIANTS.index(tag) if tag in VARIANTS else len(VARIANTS)


def tag_order(tags) -> list[str]:
    """The distinct tags, in the order they are written."""
    return sorted(set(tags), key=variant_rank)


def comment_line(text: str) -> str:
    if not text:
        return "#"
    return "#" + text if text.startswith("#") else "# " + text


def entry_line(count: int, name: str, set_code, number, tags, comment) -> str:
    out = f"{count} {name}"
    if set_code:
        out += f" ({set_code})" + (f" {number}" if number else "")
    if tags:
        out += " [" + ", ".join(tags) + "]"
    if comment:
        out += f"  # {comment}"
    return out


def sideboard_lines(deck: Deck, write=None) -> list[str]:
    """A ``Sideboard`` header and the sideboard's entries, in their order: not part of the
    deck, but the file's own, so fmt and convert keep them (rule DL-2.7). ``write(entry)``
    gives an entry's lines (fmt's canonical writer); without it, each is written as written
    (with its comment lines above it), in the one entry shape."""
    out = ["Sideboard"]
    for e in deck.sideboard:
        if write is not None:
            out.extend(write(e))
            continue
        out.extend(comment_line(c) for c in e.leading)
        out.append(entry_line(e.count, e.name, e.set_code, e.number, e.variants, e.comment))
    return out


def dump_json(data: dict, items: list) -> str:
    """JSON with 2-space indent, header keys first, one card entry per line."""

    def one(value) -> str:
        return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")

    keys = [k for k in HEADER_KEYS if k in data]
    keys += ["cards"] + [k for k in data if k not in HEADER_KEYS and k != "cards"]
    parts = []
    for key in keys:
        if key == "cards":
            if items:
                body = ",\n".join(
                    "    " + json.dumps(i, ensure_ascii=False, separators=(", ", ": "))
                    for i in items)
                parts.append(f'  "cards": [\n{body}\n  ]')
            else:
                parts.append('  "cards": []')
        else:
            parts.append(f"  {json.dumps(key, ensure_ascii=False)}: {one(data[key])}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
