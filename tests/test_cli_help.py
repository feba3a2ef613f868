"""Every command has --help (docs/commands.md), under either game, and the referee's
subcommands of one game are refused, with the game to add, when run under the other."""

from __future__ import annotations

import re
import shlex
import shutil

import click
import pytest
from conftest import REPO, run

GAME_FLAGS = ([], ["--game", "animal-battle"], ["--game", "alpha-walrus"])


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and subcommand, as the words that name it (the tree click builds)."""
    from deckcli.cli import cli

    found = [()]

    def walk(group, prefix, ctx):
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            assert cmd is not None, (prefix, name)
            found.append((*prefix, name))
            if isinstance(cmd, click.Group):
                walk(cmd, (*prefix, name), click.Context(cmd, info_name=name, parent=ctx))

    walk(cli, (), click.Context(cli, info_name="deckcli"))
    return found


COMMANDS = _command_paths()


def test_the_tree_holds_every_contract_command():
    words = {" ".join(p) for p in COMMANDS}
    for name in ("validate", "fmt", "convert", "cards list", "cards show", "cards search",
                 "db check", "rules", "setup", "referee battle", "referee attack",
                 "referee check", "referee discard", "referee showdown"):
        assert name in words, name


@pytest.mark.parametrize("game", GAME_FLAGS, ids=lambda g: g[1] if g else "default")
@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "deckcli")
def test_help_exits_0(path, game):
    r = run(*game, *path, "--help")
    assert r.code == 0, r
    assert r.out.startswith("Usage: deckcli") and "Traceback" not in r.err
    assert " ".join(("deckcli", *path)) in r.out.splitlines()[0]


def test_referee_help_lists_both_games_subcommands():
    r = run("referee", "--help")
    assert r.code == 0, r
    listed = r.out.split("Commands:")[1].split()
    for name in ("attack", "battle", "check", "discard", "legal", "showdown"):
        assert name in listed, name


@pytest.mark.parametrize("args,game", [
    (["referee", "discard", "--help"], "alpha-walrus"),
    (["--game", "alpha-walrus", "referee", "attack", "--help"], "animal-battle"),
])
def test_help_on_another_games_subcommand_shows_it(args, game):
    r = run(*args)
    assert r.code == 0, r
    assert f"Usage: deckcli referee {args[-2]}" in r.out


@pytest.mark.parametrize("args,other", [
    (["referee", "discard", "Walrus"], "alpha-walrus"),
    (["referee", "showdown"], "alpha-walrus"),
    (["--game", "alpha-walrus", "referee", "attack", "--challenger", "Walrus",
      "--defender", "Walrus", "--stats", "weight"], "animal-battle"),
    (["referee", "--game", "alpha-walrus", "attack"], "animal-battle"),
])
def test_another_games_subcommand_is_refused_naming_the_game(args, other):
    r = run(*args)
    assert r.code == 2, r
    assert f"is an {other} ruling; add --game {other}" in r.err
    assert r.out == "" and "Traceback" not in r.err


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "deckcli")
def test_help_shows_no_doubled_percent_sign(path):
    """click does not %-format help text: a '%%' written for argparse is printed as it is."""
    r = run(*path, "--help")
    assert r.code == 0, r
    assert "%%" not in r.out, r.out


@pytest.mark.parametrize("args,message", [
    (["add", "d.txt", "Walrus", "-n", "0"], "Invalid value for '--count' / '-n': 0 is not in "
                                            "the range 1<=x<=999."),
    (["validate", "--frmat", "casual", "x.txt"], "No such option '--frmat'."),
    (["cards", "show"], "Missing argument 'REF'."),
    (["validate", "--as-of", "2026-01-01", "x.txt"], "--as-of needs --event"),
    (["frobnicate"], "No such command 'frobnicate'."),
    (["simulate", "a.txt", "--save-games", "-"], "Invalid value for '--save-games'"),
])
def test_every_usage_error_is_written_one_way(args, message):
    """click wrote its own 'Error: ...' after a usage block, beside deckcli's 'deckcli: error:'
    lines: now every usage error is 'deckcli: error: ...', exit 2, with where to find help."""
    r = run(*args)
    assert r.code == 2 and r.out == "", r
    first, *rest = r.err.splitlines()
    assert first.startswith(f"deckcli: error: {message}"), r
    assert not any(line.startswith("Error:") for line in r.err.splitlines()), r
    assert rest and rest[-1].startswith("Try 'deckcli") and rest[-1].endswith(
        " --help' for help."), r


EXAMPLE = re.compile(r"^\s*Example: (deckcli .+?)(?:\s+# exit (\d))?\s*$", re.M)


def _example(path) -> tuple[str, int]:
    r = run(*path, "--help")
    found = EXAMPLE.findall(re.sub(r"\\\n\s*", " ", r.out))  # a line going on below
    assert found, f"deckcli {' '.join(path)} --help shows no 'Example: deckcli ...' line"
    command, code = found[0]
    return command, int(code or 0)


@pytest.mark.parametrize("path", [*COMMANDS, ("--game", "alpha-walrus", "referee", "battle")],
                         ids=lambda p: " ".join(p) or "deckcli")
def test_every_help_has_an_example_that_runs(path, tmp_path, monkeypatch):
    """Only `cards search --help` showed an example. Every command's help now ends with one,
    run here as a user would run it from the repository's root (in a copy of examples/, beside
    a deck.txt to edit): it exits as the help says ('# exit 1'; 0 without one)."""
    command, code = _example(path)
    words = shlex.split(command)
    assert words[:len(path) + 1] == ["deckcli", *path] or "--game" in words, command
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    if "new" not in path:
        shutil.copy(REPO / "examples" / "good" / "casual-savanna.yaml", tmp_path / "deck.yaml")
        (tmp_path / "deck.txt").write_text("4 Walrus\n4 Orca\n4 Narwhal\n4 Coelacanth\n"
                                           "4 Vaquita\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = run(*words[1:])
    assert r.code == code, r
    assert "Traceback" not in r.err and "internal error" not in r.err, r
