"""One convention in every command: results on stdout, status and progress on stderr; and
short options that mean one thing everywhere (-o the file to write, -O the format)."""

from __future__ import annotations

import click
import pytest
from conftest import EXAMPLES, run

GOOD = EXAMPLES / "good" / "championship-deep-divers.txt"
EVENT = EXAMPLES / "event" / "event.yaml"


def _commands():
    """(name, click command) for every command and subcommand, under each game (the referee
    has subcommands of each game's own)."""
    from deckcli.cli import COMMANDS, cli
    from deckcli.games import GAMES

    seen = {}
    for game in GAMES:
        root = click.Context(cli, obj={"game": game})
        for name in COMMANDS:
            command = cli.get_command(root, name)
            if isinstance(command, click.Group):
                ctx = click.Context(command, parent=root, info_name=name)
                for sub in command.list_commands(ctx):
                    c = command.get_command(ctx, sub)
                    if c is not None:
                        seen.setdefault((f"{name} {sub}", id(c)), c)
            else:
                seen.setdefault((name, id(command)), command)
    return [(name, c) for (name, _), c in seen.items()]


COMMAND_LIST = list(_commands())


def test_every_command_is_walked():
    names = {n for n, _ in COMMAND_LIST}
    assert {"validate", "convert", "sheet", "cards list", "referee battle", "referee attack",
            "referee discard", "referee check"} <= names
    assert len([n for n in names if n == "referee battle"]) == 1
    assert len([n for n, _ in COMMAND_LIST if n == "referee battle"]) == 2  # one per game


@pytest.mark.parametrize("name,command", COMMAND_LIST,
                         ids=[f"{n}-{i}" for i, (n, _) in enumerate(COMMAND_LIST)])
def test_short_options_mean_one_thing_everywhere(name, command):
    for param in command.params:
        opts = set(getattr(param, "opts", ())) | set(getattr(param, "secondary_opts", ()))
        if "-o" in opts:
            assert "--output-file" in opts, (name, opts)
        if "-O" in opts:
            assert "--output" in opts, (name, opts)
        if "--output-file" in opts:
            assert "-o" in opts, (name, opts)  # the file to write: -o wherever there is one
        if "--output" in opts:
            assert "-O" in opts, (name, opts)


@pytest.mark.parametrize("args,picker", [(["validate", GOOD, "-o", "json"], "--output json"),
                                         (["validate", GOOD, "--output-file", "SARIF"],
                                          "--output SARIF"),
                                         (["convert", GOOD, "-o", "yaml"], "--to yaml")])
def test_a_format_given_to_o_is_refused_with_a_hint(args, picker, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.code == 2, r
    assert picker in r.err and "-o/--output-file names the file" in r.err, r
    assert not list(tmp_path.iterdir())  # no file called 'json' was written


def test_o_names_the_report_file_of_validate(tmp_path):
    out = tmp_path / "report.json"
    r = run("validate", GOOD, "-o", out, "-O", "json")
    assert r.code == 0, r
    assert '"legal": true' in out.read_text(encoding="utf-8")
    assert "1 deck(s): 1 legal" in r.out  # the text summary still goes to stdout


@pytest.mark.parametrize("args", [["stats", GOOD, "-o", "x"], ["cards", "list", "-o", "x"]])
def test_o_on_a_command_that_prints_gets_a_hint(args):
    r = run(*args)
    assert r.code == 2 and "No such option '-o'" in r.err, r
    assert "prints to stdout" in r.err and "> FILE" in r.err, r


def test_commands_that_write_a_file_print_status_on_stderr_only(tmp_path):
    deck = tmp_path / "new.txt"
    steps = [["new", deck], ["add", deck, "Walrus", "--count", "4"], ["remove", deck, "Walrus"],
             ["fmt", deck], ["convert", deck, "--to", "yaml", "-o", tmp_path / "new.yaml"],
             ["sheet", GOOD, "-o", tmp_path / "sheet.html"],
             ["report", EVENT, "-o", tmp_path / "report.html"]]
    for args in steps:
        r = run(*args)
        assert r.code == 0, r
        assert r.out == "" and r.err.strip(), r


@pytest.mark.parametrize("args", [["validate", GOOD], ["cards", "show", "Walrus"],
                                  ["rules", "AB-1.5"], ["stats", GOOD],
                                  ["setup", GOOD, "--seed", "1"],
                                  ["convert", GOOD, "--to", "yaml"],
                                  ["referee", "battle", "Walrus", "Orca", "--stat", "weight"],
                                  ["sheet", GOOD, "-o", "-"]])
def test_commands_print_their_result_on_stdout_and_nothing_else_on_stderr(args):
    r = run(*args)
    assert r.code == 0, r
    assert r.out.strip() and r.err == "", r


@pytest.mark.parametrize("args", [["cards", "search", "unicorn"], ["rules", "zebra"]])
def test_no_match_is_said_on_stderr_and_stdout_stays_empty(args):
    r = run(*args)
    assert r.code == 0 and r.out == "" and "match" in r.err, r


#: every command with -o/--output-file, and the arguments it is given without -o
WITHOUT_O = {
    "validate": [GOOD],
    "convert": [GOOD, "--to", "yaml"],
    "export": ["--event", EVENT, "--to", "csv"],
    "sheet": [GOOD],
    "report": [EVENT],
    # where the output goes is the subject, not the play: random play (the default is expert)
    "build": ["--collection", EXAMPLES / "collections" / "binder.txt", "--games", "20",
              "--measure", "2", "--seed", "1", "--jobs", "1", "--policy", "random"],
}


def test_every_command_with_o_is_run_without_it():
    with_o = {n for n, c in COMMAND_LIST
              if any("-o" in getattr(p, "opts", ()) for p in c.params)}
    assert with_o == set(WITHOUT_O)


@pytest.mark.parametrize("name", sorted(WITHOUT_O))
def test_without_o_a_command_prints_its_result_on_stdout(name):
    """'report EVENT' and 'sheet DECK' without -o stopped on an internal error (a TypeError:
    the file to write was None); every command with -o prints its result without it."""
    r = run(*name.split(), *WITHOUT_O[name])
    assert r.code in (0, 1) and "internal error" not in r.err, r
    assert r.out.strip(), r


def test_sheet_and_report_without_o_print_the_page(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["report", EVENT], ["sheet", "--event", EVENT], ["sheet", GOOD]):
        r = run(*args)
        assert r.code == 0, r
        assert r.out.lstrip().lower().startswith("<!doctype html") and r.err == "", r
    assert not list(tmp_path.iterdir())  # no file was written


#: files that hold no decklist at all: nothing, blank lines, a byte-order mark, binary bytes
NOT_DECKS = {"empty": b"", "blank lines": b"\n  \n\t\n", "a BOM alone": b"\xef\xbb\xbf",
             "binary": b"\x7fELF\x02\x01\x01\x00\x00\x00"}


@pytest.mark.parametrize("what", NOT_DECKS)
@pytest.mark.parametrize("args,code", [
    (["validate"], 1), (["fmt", "--check"], 1), (["convert", "--to", "yaml"], 1),
    (["stats"], 2), (["setup", "--seed", "1"], 2), (["simulate", GOOD, "--games", "2"], 2),
    (["diff", GOOD], 2)], ids=lambda v: v[0] if isinstance(v, list) else str(v))
def test_an_empty_or_binary_file_is_not_a_decklist_in_every_command(tmp_path, what, args,
                                                                     code):
    """An empty file: validate exited 1, stats 0 with a table of dashes, setup 1 (with a
    deal of nothing), simulate 2; stats of a binary file printed a table of zeros before its
    error. Every command now says the file is not a decklist, and prints nothing before it:
    1 from the commands whose job is to check decks, 2 from those that need one to work."""
    path = tmp_path / "deck.txt"
    path.write_bytes(NOT_DECKS[what])
    cmd, *rest = args
    r = run(cmd, *rest, path) if cmd in ("simulate", "diff") else run(cmd, path, *rest)
    assert r.code == code, r
    said = r.out + r.err
    assert "not a decklist" in said or "not a text decklist" in said, r
    assert "Traceback" not in said and "internal error" not in said, r
    if code == 2:
        assert r.out == "" and len(r.err.splitlines()) == 1, r
    if cmd == "validate":
        data = run("validate", path, "-O", "json").json()["decks"][0]
        assert len(data["problems"]) == 1 and data["fingerprint"] is None, data
# -- options that name a file, a folder or an address ----------------------------------------------
#: the metavars of a file, a folder or an address, in every command
NAMING = {"FILE", "FILE.html", "OUT", "DIR", "DECK", "DECK|DIR", "DECK...", "DECK_A DECK_B",
          "EVENT.yaml", "ADDRESS", "[DECK|FOLDER]..."}


def _named_params():
    """(argv before the value, the parameter) for every option and argument that names a file,
    a folder or an address: deckcli's own (--db, --allow-read) and every command's, under
    each game (the referee's subcommands differ by game)."""
    from deckcli.cli import COMMANDS, cli
    from deckcli.cli import complete as comp
    from deckcli.games import GAMES

    def names_a_path(param) -> bool:
        return (getattr(param, "_custom_shell_complete", None) in (comp.path, comp.folder)
                or param.metavar in NAMING or param.name in ("stdin_name", "gamelog", "deck"))

    out = [([], p) for p in cli.params if names_a_path(p)]
    for game in GAMES:
        root = click.Context(cli, obj={"game": game})
        for name in COMMANDS:
            command = cli.get_command(root, name)
            subs = [(name, command)]
            if isinstance(command, click.Group):  # the referee lists every game's subcommands:
                ctx = click.Context(command, parent=root, info_name=name)  # this game's only
                owner = getattr(command, "_owner", lambda s, g: g)
                subs = [(f"{name} {s}", command.get_command(ctx, s))
                        for s in command.list_commands(ctx) if owner(s, game) == game]
            for path, c in subs:
                out += [(["--game", game, *path.split()], p) for p in c.params
                        if names_a_path(p)]
    return out


NAMED = _named_params()


def test_every_option_naming_a_file_folder_or_address_is_of_the_one_type():
    """A new option that names a file must refuse an empty value too: it takes the one type
    (deckcli.cli.common.Named) that does, or this test names it."""
    from deckcli.cli.common import Named

    assert len(NAMED) > 60, len(NAMED)
    wrong = [(" ".join(argv), p.name) for argv, p in NAMED if not isinstance(p.type, Named)]
    assert not wrong, wrong


@pytest.mark.parametrize("argv,param", NAMED,
                         ids=[f"{' '.join(a[2:]) or 'deckcli'} {p.name}" for a, p in NAMED])
def test_an_empty_value_naming_a_file_is_refused(argv, param):
    """Issue 38, 12: ``simulate ... --event=`` (or ``--scheduler=``, ``--csv=``, ``--html=``)
    ran with no event, on this machine, writing nothing, and exited 0: an unset ``$EVENT``
    dropped the event's house rules without a word. Every option and argument that names a
    file, a folder or an address refuses the empty value: exit 2, naming it."""
    if isinstance(param, click.Option):
        args = [*argv, param.opts[0], "", *([] if argv else ["validate", GOOD])]
        shown = f"'{param.opts[0]}'"
    else:
        args, shown = [*argv, ""], param.human_readable_name
    r = run(*args)
    assert r.code == 2, r
    assert "an empty value names no" in r.err and shown in r.err, r


@pytest.mark.parametrize("option", ["--config", "--db", "--allow-read"])
def test_deckclis_own_options_after_the_subcommand_refuse_the_empty_value_too(option):
    """deckcli's own options may follow the subcommand's name (``deckcli validate --db DIR``):
    there too an empty value is a usage error naming the option, not the option left out."""
    r = run("validate", option, "", GOOD)
    assert r.code == 2, r
    assert f"'{option}': an empty value names no" in r.err, r
