"""Progress of long runs on stderr (docs/commands.md, "Progress"): one line redrawn in place
on a terminal, a line every few seconds in a CI log, never a byte on stdout.

The terminal is a real pseudo-terminal (the pty module) standing for stderr; the CI log is a
pipe. DECKCLI_PROGRESS_INTERVAL=0 shows progress from the first chunk of games on, so no test
waits for a clock.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from conftest import EXAMPLES, run

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"
BINDER = EXAMPLES / "collections" / "binder.txt"
# progress is the subject, not the play: random play (the default is expert)
SIMULATE = ["simulate", DEEP, SAVANNA, "--games", "200", "--seed", "4", "--jobs", "1",
            "--policy", "random"]


def deckcli(args, interval: str | None = "0", tty: bool = False) -> tuple[int, bytes, bytes]:
    """``python -m deckcli ARGS`` with stdout a pipe and stderr a pipe, or with ``tty`` a
    pseudo-terminal: (exit code, stdout, what stderr got)."""
    env = dict(os.environ)
    env.pop("DECKCLI_PROGRESS_INTERVAL", None)
    if interval is not None:
        env["DECKCLI_PROGRESS_INTERVAL"] = interval
    cmd = [sys.executable, "-m", "deckcli", *map(str, args)]
    if not tty:
        p = subprocess.run(cmd, capture_output=True, env=env, timeout=600)
        return p.returncode, p.stdout, p.stderr
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    got = bytearray()
    while True:
        try:
            part = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last writer has gone
            break
        if not part:
            break
        got += part
    os.close(master)
    out = p.stdout.read()
    return p.wait(timeout=600), out, bytes(got)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_on_a_terminal_one_line_is_redrawn_and_cleared(tmp_path):
    """`simulate` showed "simulating: 200 of 200 games" with no time left and only on a
    terminal outside CI; the line now says the games done of the total and the time left,
    redrawn in place, and is cleared at the end."""
    code, out, err = deckcli(SIMULATE, tty=True)
    assert code == 0, err
    text = err.decode("utf-8")
    frames = [f for f in text.split("\r") if f.strip()]
    assert "\n" not in text, text  # one line, redrawn: nothing scrolls
    assert frames and all(re.fullmatch(r"simulate: [\d,]+ of 200 games \(\d+%\)(, .* left)? *",
                                       f) for f in frames), frames
    assert any(re.search(r"(about [\d a-z]+|under 1 s) left", f) for f in frames), frames
    assert text.endswith("\r") and not text.rstrip("\r").split("\r")[-1].strip(), text
    assert out == run(*SIMULATE).out.encode("utf-8")


def test_in_a_ci_log_a_line_every_few_seconds_and_stdout_unchanged():
    """Off a terminal (a CI log) there was no progress at all: an hour-long build printed
    nothing until it ended. Now a line every few seconds (every chunk here), and one at the
    end; stdout holds the same bytes as without progress."""
    code, out, err = deckcli([*SIMULATE, "-O", "json"])
    assert code == 0, err
    lines = err.decode("utf-8").splitlines()
    assert "\r" not in err.decode("utf-8")
    assert lines[0].startswith("deckcli: simulate: 25 of 200 games (12%)"), lines
    assert "deckcli: simulate: 200 of 200 games (100%)" in lines, lines
    assert re.fullmatch(r"deckcli: simulate: 200 games played in .+", lines[-1]), lines
    quiet = deckcli([*SIMULATE, "-O", "json"], interval="off")
    assert quiet[0] == 0 and quiet[2] == b"" and quiet[1] == out


# the phases are the subject, not the play: random play, the cheapest (expert's is the default)
@pytest.mark.parametrize("args, phases", [
    (["build", "--collection", BINDER, "--against", SAVANNA, "--games", "60", "--measure", "4",
      "--seed", "2", "--policy", "random"], ["searching", "measuring", "before and after",
      "explaining"]),
    (["suggest", SAVANNA, "--collection", BINDER, "--against", DEEP, "--games", "60",
      "--measure", "4", "--seed", "2", "--policy", "random"], ["measuring", "screening swaps"]),
    (["build", "--collection", GOOD / "alpha-walrus-4p.txt", "--game", "alpha-walrus",
      "--games", "40", "--measure", "4", "--max-turns", "20", "--seed", "2", "--policy",
      "random"], ["searching", "measuring"])])
def test_build_and_suggest_name_each_phase(args, phases):
    """build and suggest showed 'building: N games' with no total, no phase and no time
    left, and nothing in a CI log."""
    args = [*args, "-O", "json"]  # the text report says how long the run took: not the same
    code, out, err = deckcli(args)
    assert code == 0, err
    command = str(args[0])
    said = [m.group(1) for m in re.finditer(rf"^deckcli: {command}: ([a-z ]+), [\d,]+ ",
                                            err.decode("utf-8"), re.M)]
    assert list(dict.fromkeys(said))[:len(phases)] == phases, err.decode("utf-8")
    assert out == run(*args).out.encode("utf-8")


def test_a_run_shorter_than_the_delay_shows_nothing_and_a_bad_interval_is_said():
    code, _out, err = deckcli(SIMULATE, interval="3600")  # no run here takes an hour
    assert code == 0 and err == b"", err
    code, _out, err = deckcli(SIMULATE, interval="soon")
    assert code == 0, err
    assert err.decode("utf-8").startswith("deckcli: warning: DECKCLI_PROGRESS_INTERVAL='soon' "
                                          "is not a number of seconds or 'off'; ignored"), err
