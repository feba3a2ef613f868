"""Colour on a terminal: verdicts, errors and warnings; --color auto|always|never and
NO_COLOR respected, and none where output goes to a pipe or a file."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest
from conftest import EXAMPLES, REPO, run

BAD = EXAMPLES / "bad" / "too-many-copies.txt"
RISKY = EXAMPLES / "good" / "casual-risky.txt"  # legal, with a warning
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def plain(text: str) -> str:
    return ANSI.sub("", text)


def test_always_colours_verdicts_errors_and_warnings_and_keeps_the_columns():
    coloured = run("--color", "always", "validate", BAD, RISKY)
    assert coloured.code == 1, coloured
    assert "\x1b[1;31mILLEGAL\x1b[0m" in coloured.out and "\x1b[32mlegal\x1b[0m" in coloured.out
    assert ": \x1b[1;31merror\x1b[0m: Walrus (ABS) 12" in coloured.out
    assert ": \x1b[33mwarning\x1b[0m: only a 77.3% chance" in coloured.out
    assert plain(coloured.out) == run("validate", BAD, RISKY).out  # the same table, aligned


@pytest.mark.parametrize("args", [["--color", "never"], []])
def test_never_and_a_pipe_get_no_colour(args):
    r = run(*args, "validate", BAD, RISKY)
    assert not ANSI.search(r.out + r.err), r


def test_status_lines_on_stderr_are_coloured_too(tmp_path):
    deck = tmp_path / "d.txt"
    deck.write_text("4 Walrus\n", encoding="utf-8")
    r = run("--color", "always", "add", deck, "Orca")
    assert ": \x1b[1;31mILLEGAL\x1b[0m (casual decks hold at least 20 cards" in r.err, r
    r = run("--color", "always", "cards", "show", "Wallrus")
    assert r.err.startswith("deckcli: \x1b[1;31merror\x1b[0m: no animal-battle card"), r
    aw = EXAMPLES / "good" / "alpha-walrus-4p.txt"
    r = run("--color", "always", "stats", aw, "--format", "casual")
    assert f"deckcli: \x1b[33mwarning\x1b[0m: {aw}" in r.err, r


def test_a_report_file_never_gets_colour(tmp_path):
    out = tmp_path / "report.txt"
    r = run("--color", "always", "validate", BAD, "-o", out)
    assert "ILLEGAL" in out.read_text(encoding="utf-8")
    assert not ANSI.search(out.read_text(encoding="utf-8"))
    r = run("--color", "always", "validate", BAD, "-O", "json", "-o", tmp_path / "r.json")
    assert "\x1b[1;31mILLEGAL" in r.out  # the text summary on stdout does


def test_a_run_after_a_coloured_one_is_not_coloured():
    run("--color", "always", "validate", BAD)
    assert not ANSI.search(run("validate", BAD).out)


def on_a_terminal(*args, env_extra=None) -> str:
    """What deckcli writes when its stdout and stderr are a real terminal (a pty)."""
    main, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update({"TERM": "xterm", **(env_extra or {})})
    proc = subprocess.Popen([sys.executable, "-m", "deckcli", *map(str, args)], cwd=REPO,
                            stdout=child, stderr=child, env=env)
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


def test_auto_colours_a_terminal():
    assert "\x1b[1;31mILLEGAL\x1b[0m" in on_a_terminal("validate", BAD)


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_auto_respects_no_color_and_a_dumb_terminal(env):
    out = on_a_terminal("validate", BAD, env_extra=env)
    assert "ILLEGAL" in out and not ANSI.search(out)


def test_never_on_a_terminal_and_always_over_no_color():
    assert not ANSI.search(on_a_terminal("--color", "never", "validate", BAD))
    assert "\x1b[1;31mILLEGAL" in on_a_terminal("--color", "always", "validate", BAD,
                                                env_extra={"NO_COLOR": "1"})
