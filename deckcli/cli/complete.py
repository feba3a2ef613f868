"""Shell completion (bash, zsh, fish) through click's own machinery: card names, set codes,
rule ids and paths, offered where a command takes them.

Enable it as docs/commands.md says (``eval "$(_DECKCLI_COMPLETE=bash_source deckcli)"`` and the
zsh and fish equivalents). Each callback gets what the user has typed so far and returns what
may follow; none of this runs (nor is click's completion module imported) unless the shell
asks, so a deck check pays nothing for it.
"""

from __future__ import annotations

import os

#: Which shell is asking: click sets _DECKCLI_COMPLETE to bash_complete, zsh_complete, ...
_COMPLETE_VAR = "_DECKCLI_COMPLETE"


def _item(value: str, **kw):
    from click.shell_completion import CompletionItem  # only when a shell asks

    return CompletionItem(value, **kw)


def _quoted(value: str) -> str:
    """bash inserts a completion as it stands, so a card name's spaces and brackets are
    escaped for it; zsh and fish quote what they insert themselves."""
    if not os.environ.get(_COMPLETE_VAR, "").startswith("bash"):
        return value
    import re

    return re.sub(r"([^\w@%+=:,./-])", r"\\\1", value)


def _game(ctx, default: str | None = None) -> str:
    """The game the command line asks for: the nearest --game, else ``default``, else the
    default game."""
    while ctx is not None:
        if ctx.params.get("game"):
            return ctx.params["game"]
        ctx = ctx.parent
    from deckcli.games import DEFAULT_GAME

    return default or DEFAULT_GAME


def _index(ctx):
    from deckcli.cards import open_index

    dirs = []
    while ctx is not None:
        dirs.extend(ctx.params.get("db_dirs") or ())
        ctx = ctx.parent
    return open_index(dirs)


def card(game: str | None = None):
    """Complete a card: the names that start with what was typed (case folded), and for a
    name several cards share, each card's 'Name (SET) NUM'. ``game`` for the commands of one
    game (alpha-walrus's referee); else the --game given."""

    def complete(ctx, param, incomplete):
        from deckcli.cards.names import fold_name

        try:
            index = _index(ctx)
            cards = index.all_cards(_game(ctx, game))
        except Exception:  # noqa: BLE001 - a completion never prints an error into a prompt
            return []
        typed = fold_name(incomplete)
        by_name: dict[str, list] = {}
        for c in cards:
            by_name.setdefault(c.name, []).append(c)
        out = []
        for name, same in sorted(by_name.items()):
            if not fold_name(name).startswith(typed):
                if len(same) > 1 and any(fold_name(c.ref).startswith(typed) for c in same):
                    out.extend(c.ref for c in same if fold_name(c.ref).startswith(typed))
                continue
            out.extend([c.ref for c in same] if len(same) > 1 else [name])
        return [_item(_quoted(v)) for v in out]

    return complete


def set_code(ctx, param, incomplete):
    """Complete a set code of the game."""
    try:
        sets = _index(ctx).sets(_game(ctx))
    except Exception:  # noqa: BLE001
        return []
    return [_item(s["code"], help=s["name"]) for s in sets
            if s["code"].startswith(incomplete.upper())]


def rule_id(ctx, param, incomplete):
    """Complete a rule id (AB-1.5, AW-G.3, DL-2.1 ...), with its title as help."""
    from deckcli.rulebook import all_rules

    wanted = incomplete.upper()
    return [_item(r.id, help=r.title) for r in all_rules()
            if r.id.upper().startswith(wanted)]


def path(ctx, param, incomplete):
    """Complete a file path (the shell lists the files)."""
    return [_item(incomplete, type="file")]


def folder(ctx, param, incomplete):
    """Complete a folder path."""
    return [_item(incomplete, type="dir")]
