"""The README's examples print what the README shows.

Every fenced block with ``$ deckcli ...`` lines followed by output is run, command by command,
and what the command prints (stdout, then stderr) must be the lines shown: a line ``...``
stands for any number of lines. Commands on ``deck.txt`` run on the README's own ``deck.txt``
as ``deckcli fmt`` leaves it (the section they follow), commands on ``new.txt`` in a fresh
folder in order; every other command runs in the repository. (tests/test_packaging.py runs
every ``console`` command for its exit code.)
"""

from __future__ import annotations

import re
import shlex

import pytest
from conftest import REPO, run

README = (REPO / "README.md").read_text(encoding="utf-8")


def _blocks() -> list[list[tuple[str, list[str]]]]:
    """Each fenced block that shows a deckcli command's output: [(command, output lines)]."""
    found = []
    for block in re.findall(r"```\w*\n(.*?)```", README, flags=re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        if steps and all(cmd.startswith("deckcli ") for cmd, _ in steps) and any(
                out for _, out in steps):
            found.append(steps)
    return found


BLOCKS = _blocks()


def _matches(want: list[str], got: list[str]) -> bool:
    """``want`` line by line, where a line '...' matches any run of lines (none included)."""
    if not want:
        return not got
    if want[0].strip() in ("...", "…"):
        return any(_matches(want[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0].rstrip() == want[0].rstrip() and _matches(want[1:], got[1:])


def _readme_deck_txt() -> str:
    """The decklist the README's fmt section starts from ("Given this `deck.txt`:")."""
    after = README.split("Given this `deck.txt`:", 1)[1]
    return re.search(r"```\n(.*?)```", after, flags=re.S).group(1)


def test_every_block_with_output_is_found():
    commands = [cmd for steps in BLOCKS for cmd, _ in steps]
    for wanted in ("deckcli convert deck.txt --to csv", "deckcli stats examples/good/",
                   "deckcli referee battle Walrus Orca", "deckcli new new.txt",
                   "deckcli referee check examples/games/ab-gap-tie.yaml"):
        assert any(c.startswith(wanted) for c in commands), wanted


@pytest.mark.parametrize("steps", BLOCKS, ids=lambda s: s[0][0][:60])
def test_readme_output(steps, tmp_path, monkeypatch):
    uses = " ".join(cmd for cmd, _ in steps)
    if "deck.txt" in uses or "new.txt" in uses:
        monkeypatch.chdir(tmp_path)
        if "deck.txt" in uses:
            (tmp_path / "deck.txt").write_text(_readme_deck_txt(), encoding="utf-8")
            assert run("fmt", "deck.txt").code == 0
    else:
        monkeypatch.chdir(REPO)
    for cmd, want in steps:
        args = shlex.split(cmd.partition("  #")[0])[1:]
        r = run(*args)
        got = (r.out + r.err).rstrip("\n").splitlines()
        want = [line for line in want]
        while want and not want[-1].strip():
            want.pop()
        assert _matches(want, got), f"$ {cmd}\n--- README\n" + "\n".join(want) + \
            "\n--- printed\n" + "\n".join(got)
