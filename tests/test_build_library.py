"""``deckcli build`` and ``deckcli suggest`` are thin layers over library calls: a script builds
a BuildRequest, calls deckcli.build.run.build (or suggest) in a Python where click cannot be
imported, and gets the deck, the report and the warnings the command prints and writes."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import EXAMPLES, WITHOUT_CLICK, run

BINDER = EXAMPLES / "collections" / "binder.txt"
SAVANNA = EXAMPLES / "good" / "casual-savanna.yaml"
SCRIPT = WITHOUT_CLICK + """
from deckcli.build.request import BuildRequest
from deckcli.build.run import build, suggest

what, collection, deck, out = sys.argv[1:5]
request = BuildRequest(collection=collection, seed=5, games=40, measure=10, jobs=1,
                       policy="random", players=3 if what == "build" else None,
                       deck=deck or None, out=out or None)
if what == "build":
    built = build(request, kept)
    print(json.dumps({"report": built.report, "said": kept.said}))
else:
    found = suggest(request, kept)
    print(json.dumps({"report": found.report, "text": found.text(), "said": kept.said}))
"""
OPTIONS = ("--collection", BINDER, "--seed", "5", "--games", "40", "--measure", "10",
           "--jobs", "1", "--policy", "random")


def library(what: str, deck="", out="") -> dict:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, what, str(BINDER), str(deck), str(out)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_build_call_gives_the_commands_deck_report_and_warnings_without_click(tmp_path):
    out = tmp_path / "built.txt"
    got = library("build", out=out)
    again = tmp_path / "again.txt"
    r = run("build", *OPTIONS, "--players", "3", "-O", "json", "-o", again)
    assert r.code == 0, r
    assert got["report"] == r.json(), r
    assert got["said"][-1] == ["wrote", str(out)]
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    # the option this game ignores: the command writes on stderr what the listener was told
    warnings = []
    for said in got["said"]:
        if said[0] == "warning":
            _, message, rule = said
            warnings.append(f"deckcli: warning: {message}" + (f" [rule {rule}]" if rule else ""))
    assert any("--players 3" in w for w in warnings), got["said"]
    assert [line for line in r.err.splitlines() if line.startswith("deckcli: warning:")] \
        == warnings, r


def test_the_suggest_call_gives_the_commands_report_without_click():
    got = library("suggest", deck=SAVANNA)
    r = run("suggest", SAVANNA, *OPTIONS, "-O", "json")
    assert r.code == 0, r
    assert got["report"] == r.json(), r
    text = run("suggest", SAVANNA, *OPTIONS)
    assert got["text"] + "\n" == text.out, text
