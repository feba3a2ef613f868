"""``deckcli simulate`` is a thin layer over one library call: a script builds a
SimulateRequest, calls deckcli.sim.run.simulate in a Python where click cannot be imported, and
gets the report the command prints, with the warnings the command writes on stderr."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import EXAMPLES, WITHOUT_CLICK, run

GOOD, BAD = EXAMPLES / "good", EXAMPLES / "bad"
SCRIPT = WITHOUT_CLICK + """
from deckcli.sim.request import SimulateRequest
from deckcli.sim.run import simulate

result = simulate(SimulateRequest(decks=tuple(sys.argv[1:]), seed=7, games=20,
                                  policy="greedy", jobs=1), kept)
print(json.dumps({"report": result.report, "text": result.text(), "said": kept.said}))
"""


def library(*decks) -> dict:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, decks)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_library_call_gives_the_commands_report_without_click():
    a, b = GOOD / "casual-savanna.yaml", BAD / "too-many-copies.txt"
    got = library(a, b)
    r = run("simulate", a, b, "--games", "20", "--seed", "7", "--policy", "greedy",
            "--jobs", "1", "-O", "json")
    assert r.code == 0, r
    assert got["report"] == r.json(), r
    text = run("simulate", a, b, "--games", "20", "--seed", "7", "--policy", "greedy",
               "--jobs", "1")
    assert got["text"] + "\n" == text.out, text
    # the illegal deck's warning: the command writes on stderr what the listener was told
    warnings = [f"deckcli: warning: {message}" for kind, message, _ in got["said"]
                if kind == "warning"]
    assert warnings and any("is not a legal deck, simulated anyway" in w for w in warnings)
    assert [line for line in r.err.splitlines() if line.startswith("deckcli: warning:")] \
        == warnings, r


def test_decks_that_do_not_fit_together_are_a_usage_error_with_where_help_is():
    r = run("simulate", GOOD / "alpha-walrus-2p.yaml", GOOD / "casual-savanna.yaml")
    assert r.code == 2 and r.out == "", r
    assert r.err.splitlines()[-2:] == [
        "deckcli: error: the decks are of more than one game (alpha-walrus, animal-battle); "
        "give decks of one game", "Try 'deckcli simulate --help' for help."], r
