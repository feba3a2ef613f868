"""``deckcli cards list|show|search``: look cards up in the compiled index."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK
from deckcli.cli.common import (
    db_option,
    echo_json,
    game_option,
    open_index,
    output_option,
    pick_game,
)
from deckcli.diagnostics import number_text


@click.group()
def cards():
    """List, show and search cards of a game (default animal-battle)."""


def _game(ctx, game):
    from deckcli.games import DEFAULT_GAME

    return pick_game(ctx, game) or DEFAULT_GAME


def _table(index, found, game) -> str:
    from tabulate import tabulate

    from deckcli.games import GAMES

    stats = GAMES[game].key_stats
    rows = []
    for c in found:
        sets = sorted({p.set_code for p in index.printings_of(c.id)})
        rows.append([c.name, c.number, c.kind,
                     *[number_text(c.stats[s]) if s in c.stats else "-" for s in stats],
                     " ".join(sets)])
    headers = ["name", "number", "kind", *stats, "sets"]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


@cards.command("list")
@game_option
@click.option("--kind", default=None,
              help="Only cards of this kind (animal, action, creature, ...).")
@click.option("--set", "set_code", default=None, help="Only cards with a printing in this set.")
@output_option()
@db_option
@click.pass_context
def list_cards(ctx, game, kind, set_code, output, db_dirs):
    """List every card identity of a game."""
    game = _game(ctx, game)
    index = open_index(ctx, db_dirs)
    found = index.all_cards(game)
    if kind:
        found = [c for c in found if c.kind == kind.lower()]
    if set_code:
        found = [c for c in found if any(p.set_code == set_code.upper()
                                         for p in index.printings_of(c.id))]
    if output == "json":
        echo_json([index.card_json(c) for c in found])
    else:
        click.echo(_table(index, found, game))
        click.echo(f"\n{len(found)} card(s)")
    return EXIT_OK


@cards.command("show")
@click.argument("ref")
@game_option
@output_option()
@db_option
@click.pass_context
def show(ctx, ref, game, output, db_dirs):
    """Show one card: REF is a name, 'Name (SET) NUM' or 'SET NUM'."""
    from deckcli.cards.refs import parse_ref

    game = _game(ctx, game)
    index = open_index(ctx, db_dirs)
    card, _printing = parse_ref(index, game, ref)
    data = index.card_json(card)
    for p in data["printings"]:  # every version, regular copies (which need no tag) first
        p["versions"] = ["regular", *p["variants"]]
    if output == "json":
        echo_json(data)
        return EXIT_OK
    lines = [f"{card.ref}  [{card.kind}]  ({game})"]
    if "species" in data:
        lines.append(f"  species: {data['species']}")
    for stat, value in data.get("stats", {}).items():
        note = ""
        if stat == "population":
            note = "  (lower wins)"
        elif stat == "max_depth":
            note = "  (information only, not a battle statistic)"
        lines.append(f"  {stat}: {number_text(value)}{note}")
    if data.get("text"):
        lines.append(f"  text: {data['text']}")
    for o in data.get("overrides", []):
        lines.append(f"  overrides {o['rule']}: {o['effect']} = {_value(o.get('value'))}")
    lines.append("  printings:")
    for p in data["printings"]:
        lines.append(f"    ({p['set']}) {p['number']}: {', '.join(p['versions'])}")
    click.echo("\n".join(lines))
    return EXIT_OK


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
@output_option()
@db_option
@click.pass_context
def search_cmd(ctx, query, game, limit, output, db_dirs):
    """Search cards: words, name: kind: set: variant:, speed>50, 'or', -term.

    Example: deckcli cards search 'kind:animal population<1000 -set:CLS'
    """
    from deckcli.cards.search import search

    game = _game(ctx, game)
    index = open_index(ctx, db_dirs)
    found = search(index, " ".join(query), game, limit)
    if output == "json":
        echo_json([index.card_json(c) for c in found])
    else:
        click.echo(_table(index, found, game) if found else "no cards match")
        if found:
            click.echo(f"\n{len(found)} card(s)")
    return EXIT_OK
