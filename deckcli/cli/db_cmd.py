"""``deckcli db build|check``: compile and lint the card database sources."""

from __future__ import annotations

import click

from deckcli.cli import EXIT_OK, EXIT_PROBLEMS
from deckcli.cli.common import db_dirs as all_db_dirs
from deckcli.cli.common import db_option, echo_json, output_option
from deckcli.cli.configured import Group


@click.group(cls=Group)
def db():
    """Build the compiled card index and lint the YAML sources.

    \b
    Example: deckcli db check
    """


@db.command("build")
@click.option("--full", is_flag=True,
              help="Parse every source file again, not only the files that changed.")
@db_option
@click.pass_context
def build(ctx, full, db_dirs):
    """Rebuild the compiled index now and print what was read.

    Only the set files whose content changed since a build read them are parsed again; the
    index is the one a build of every file makes (--full parses every file).

    \b
    Example: deckcli db build
    """
    import time

    from deckcli.cards import open_index
    from deckcli.diagnostics import visible_name

    start = time.perf_counter()
    index = open_index(all_db_dirs(ctx, db_dirs), rebuild=True, reuse=not full)
    elapsed = time.perf_counter() - start
    for d in index.dirs:
        click.echo(f"source: {visible_name(str(d))}")
    if index.built is not None:
        parts = index.built.parts
        if parts is None:
            click.echo(f"files read: {len(index.built.files):,}, every one parsed")
        elif index.built.patched:
            click.echo(f"files read: {len(index.built.files):,}, {parts.compiled:,} parsed, "
                       f"{parts.reused:,} compiled before, {index.built.kept:,} unchanged "
                       "(their rows kept from the last index)")
        else:
            click.echo(f"files read: {len(index.built.files):,}, {parts.compiled:,} parsed, "
                       f"{parts.reused:,} unchanged since a build parsed them")
    for game, counts in sorted(index.counts().items()):
        kinds = ", ".join(f"{n:,} {k}" for k, n in sorted(counts.items())
                          if k not in ("printings", "sets"))
        click.echo(f"{game}: {counts.get('sets', 0):,} sets, {kinds}, "
                   f"{counts.get('printings', 0):,} printings")
    where = visible_name(index.path) if index.path else \
        "memory (the cache folder is not writable)"
    click.echo(f"index: {where} ({elapsed:.2f} s)")
    return EXIT_OK


@db.command("check")
@db_option
@output_option()
@click.pass_context
def check(ctx, db_dirs, output):
    """Lint every source file; report every problem with file and line (exit 1 if any).

    \b
    Example: deckcli db check
    """
    from deckcli.cards.build import compile_sources
    from deckcli.cards.cache import source_dirs
    from deckcli.cards.parts import PartStore
    from deckcli.diagnostics import sort_diagnostics

    dirs = source_dirs(all_db_dirs(ctx, db_dirs))
    compiled = compile_sources(dirs, PartStore())  # a file unchanged since: its problems kept
    problems = sort_diagnostics(compiled.problems)
    if output == "json":
        echo_json({"files": len(compiled.files), "cards": len(compiled.cards),
                   "printings": len(compiled.printings),
                   "problems": [dict(p.to_json(), path=p.path) for p in problems]})
    else:
        from deckcli.reporters.text import problem_line

        for p in problems:  # one line each, as validate's report: a quoted line break escaped
            click.echo(problem_line(p, p.path))
        click.echo(f"{len(compiled.files):,} file(s), {len(compiled.cards):,} cards, "
                   f"{len(compiled.printings):,} printings: "
                   + (f"{len(problems):,} problem(s)" if problems else "no problems"))
    return EXIT_PROBLEMS if any(p.is_error for p in problems) else EXIT_OK
