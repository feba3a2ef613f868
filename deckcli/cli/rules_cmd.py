"""``deckcli rules [RULE-ID | WORDS] [--game G] [--output json] [--verbose]``."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, complete
from deckcli.cli.common import echo_json, echo_status, game_option, output_option, pick_game


def _render(rule, full: bool = True, verbose: bool = False) -> str:
    """A rule: id, title and text; in ``full`` the rules it points at; with ``verbose`` the
    modules that check it (for contributors: a judge has no use for source paths)."""
    text = f"{rule.id}  {rule.title}\n    {rule.text}"
    if full and rule.refs:
        text += f"\n    see also: {', '.join(rule.refs)}"
    if verbose:
        from deckcli.rulebook import checked_in

        where = checked_in(rule.id)
        if where:
            text += f"\n    checked in: {', '.join('deckcli/' + m for m in where)}"
    return text


@click.command()
@click.argument("query", nargs=-1, shell_complete=complete.rule_id)
@game_option
@output_option()
@click.option("--verbose", "-v", is_flag=True,
              help="Also name the source files that check each rule (for contributors).")
@click.pass_context
def rules(ctx, query, game, output, verbose):
    """Show the rules reference: all of it, one rule by id, or rules matching words.

    Ids are stable: AB- animal-battle, AW- alpha-walrus, DL- reading decklists,
    EV- event files, DB- card database files. Gaps (situations the rules leave open) are
    marked and name the house-rule key that settles them.

    \b
    Example: deckcli rules AB-1.5
    """
    from deckcli.errors import NotFoundError
    from deckcli.rulebook import all_rules, referring_to, rules_by_id, search_rules

    game = pick_game(ctx, game)
    text = " ".join(query).strip()
    named = rules_by_id(text, game) if text else None
    if named is not None:  # an id ('AB-5.2', 'AB 5.2') or a rule's number ('5.2')
        if not named:
            raise NotFoundError(f"no rule has the id {text!r} (run 'deckcli rules' for the "
                                "list)")
        for rule in named if len(named) == 1 else ():
            if game and rule.game and rule.game != game:  # DL-5.3: the id names its game
                echo_status(f"deckcli: warning: {rule.id} is an {rule.game} rule; --game "
                            f"{game} changes nothing for a rule asked for by its id")
        if output == "json":
            echo_json([rule.to_json() for rule in named])
            return EXIT_OK
        for i, rule in enumerate(named):
            click.echo(("\n" if i else "") + _render(rule, verbose=verbose))
            related = referring_to(rule.id)
            if related:
                click.echo("\nreferred to by:")
                for r in related:
                    click.echo(f"  {r.id}  {r.title}")
        return EXIT_OK
    found = search_rules(text, game) if text else all_rules(game)
    if output == "json":
        echo_json([r.to_json() for r in found])
    elif not found:
        click.echo(f"deckcli: no rules match {text!r}", err=True)
    else:
        click.echo("\n".join(_render(r, full=False, verbose=verbose) for r in found))
    return EXIT_OK
