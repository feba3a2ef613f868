"""``deckcli cards list|show|search``: look cards up in the compiled index."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, complete
from deckcli.cli.common import (
    db_option,
    echo_json,
    game_option,
    open_index,
    output_option,
    pick_game,
)
from deckcli.cli.configured import Group
from deckcli.diagnostics import number_text


@click.group(cls=Group)
def cards():
    """List, show and search cards of a game (default animal-battle).

    \b
    Example: deckcli cards show Walrus
    """


def _game(ctx, game):
    from deckcli.games import DEFAULT_GAME

    return pick_game(ctx, game) or DEFAULT_GAME


def _paste_ref(index, card, set_code: str | None = None) -> str:
    """The card as a decklist line, `cards show` and the referee take it: 'Walrus (ABS) 12',
    or its printing in ``set_code`` when the listing was narrowed to that set."""
    if set_code:
        for p in index.printings_of(card.id):
            if p.set_code == set_code:
                return f"{card.name} {p.ref}"
    return card.ref


def _table(index, found, game, set_code: str | None = None) -> str:
    from tabulate import tabulate

    from deckcli.games import GAMES

    stats = GAMES[game].key_stats
    rows = []
    for c in found:
        sets = sorted({p.set_code for p in index.printings_of(c.id)})
        rows.append([_paste_ref(index, c, set_code), c.kind,
                     *[number_text(c.stats[s]) if s in c.stats else "-" for s in stats],
                     " ".join(sets)])
    headers = ["card", "kind", *stats, "sets"]
    align = ("left", "left", *("right" for _ in stats), "left")  # numbers line up on the right
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True,
                    colalign=align)


def _as_deck(index, found, game, set_code: str | None = None) -> str:
    """The cards as a decklist, one copy each, in fmt's canonical form: ready to edit, to
    paste into another tool or to check with `deckcli validate`."""
    from deckcli.decks.format import format_deck
    from deckcli.decks.reader import parse_text_of

    text = f"game: {game}\n" + "".join(f"1 {_paste_ref(index, c, set_code)}\n" for c in found)
    deck = parse_text_of(text, None, "text", is_set=index.is_any_set_code)
    return format_deck(deck, text, index, game)


def _show(index, found, game, output, as_deck, set_code=None) -> None:
    if output == "json":
        if as_deck:
            raise click.UsageError("--as-deck prints a decklist; leave out --output json")
        echo_json([index.card_json(c) for c in found])
    elif as_deck:
        click.echo(_as_deck(index, found, game, set_code), nl=False)
    elif not found:
        click.echo("deckcli: no cards match", err=True)
    else:
        click.echo(_table(index, found, game, set_code))
        click.echo(f"\n{len(found):,} card(s)")


AS_DECK = click.option("--as-deck", is_flag=True,
                       help="Print the cards as a decklist (one copy each, as fmt writes it).")


@cards.command("list")
@game_option
@click.option("--kind", default=None,
              help="Only cards of this kind (animal, action, creature, ...).")
@click.option("--set", "set_code", default=None, shell_complete=complete.set_code,
              help="Only cards with a printing in this set.")
@AS_DECK
@output_option()
@db_option
@click.pass_context
def list_cards(ctx, game, kind, set_code, as_deck, output, db_dirs):
    """List every card identity of a game, each as a reference to paste ('Walrus (ABS) 12').

    \b
    Example: deckcli cards list --set CLS
    """
    game = _game(ctx, game)
    index = open_index(ctx, db_dirs)
    found = index.all_cards(game)
    if kind:  # a kind or set the game does not have would list nothing, and say nothing
        kinds = sorted({c.kind for c in found})
        if kind.lower() not in kinds:
            raise click.BadParameter(f"{game} has no kind {kind!r}; its kinds: "
                                     f"{', '.join(kinds)}", param_hint="--kind")
        found = [c for c in found if c.kind == kind.lower()]
    if set_code:
        codes = [s["code"] for s in index.sets(game)]
        if set_code.upper() not in codes:
            raise click.BadParameter(f"{game} has no set {set_code!r}; its sets: "
                                     f"{', '.join(codes)}", param_hint="--set")
        set_code = set_code.upper()
        found = [c for c in found if any(p.set_code == set_code
                                         for p in index.printings_of(c.id))]
    _show(index, found, game, output, as_deck, set_code)
    return EXIT_OK


@cards.command("show")
@click.argument("ref", shell_complete=complete.card())
@game_option
@output_option()
@db_option
@click.pass_context
def show(ctx, ref, game, output, db_dirs):
    """Show one card: REF is a name, 'Name (SET) NUM' or 'SET NUM'.

    \b
    Example: deckcli cards show 'ABS 12'
    """
    from deckcli.decks.refs import parse_ref

    game = _game(ctx, game)
    index = open_index(ctx, db_dirs)
    card, _printing = parse_ref(index, game, ref)
    data = index.card_json(card)
    for p in data["printings"]:  # every version, regular copies (which need no tag) first
        p["versions"] = ["regular", *p["variants"]]
    if output == "json":
        echo_json(data)
        return EXIT_OK
    from deckcli.diagnostics import one_line  # a --db set file's text: one line, escaped

    lines = [f"{card.ref}  [{card.kind}]  ({game})"]
    if "species" in data:
        lines.append(f"  species: {one_line(data['species'])}")
    for stat, value in data.get("stats", {}).items():
        note = ""
        if stat == "population":
            note = "  (lower wins)"
        elif stat == "max_depth":
            note = "  (information only, not a battle statistic)"
        lines.append(f"  {stat}: {number_text(value)}{note}")
    if data.get("text"):
        lines.append(f"  text: {one_line(data['text'])}")
    for o in data.get("overrides", []):
        lines.append(f"  overrides {o['rule']}: {o['effect']} = {_value(o.get('value'))}")
    for e in data.get("effects", []):  # what the text does, as the referee applies it
        words = ", ".join(f"{k}: {_flow(v)}" for k, v in e.items() if k != "effect")
        lines.append(one_line(f"  effect: {e.get('effect')}" + (f" ({words})" if words else "")))
    lines.append("  printings:")
    for p in data["printings"]:
        lines.append(f"    ({p['set']}) {p['number']}: {', '.join(p['versions'])}")
    click.echo("\n".join(lines))
    return EXIT_OK


def _refuse_unknown_options(ctx, query) -> None:
    """A word of the query that starts with '--' is an option the command does not have (a
    typo of --limit, --output, ...), a usage error: unknown options are let through only so that
    '-term' can negate a term, and no card name starts with '-'."""
    for word in query:
        if word.startswith("--") and len(word) > 2:
            opts = [o for p in ctx.command.params for o in p.opts if o.startswith("--")]
            raise click.NoSuchOption(word.split("=", 1)[0], possibilities=opts, ctx=ctx)


def _flow(value) -> str:
    """An effect's value as its YAML flow would write it (``{phase: pool}``, ``true``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_flow, value)) + "]"
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(value)


def _value(value) -> str:
    """An override's value in words: null lifts the rule's number ('copy_limit = none')."""
    if value is None:
        return "none (no limit)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return number_text(value)


@cards.command("search", context_settings={"ignore_unknown_options": True})
@click.argument("query", nargs=-1, required=True)
@game_option
@click.option("--limit", type=click.IntRange(1), default=None, help="Show at most N cards.")
@AS_DECK
@output_option()
@db_option
@click.pass_context
def search_cmd(ctx, query, game, limit, as_deck, output, db_dirs):
    """Search cards: words, name: kind: set: variant:, speed>50, 'or', -term.

    Example: deckcli cards search 'kind:animal population<1000 -set:CLS'
    """
    from deckcli.cards.search import search

    _refuse_unknown_options(ctx, query)
    game = _game(ctx, game)
    index = open_index(ctx, db_dirs)
    found = search(index, " ".join(query), game, limit)
    _show(index, found, game, output, as_deck)
    return EXIT_OK
