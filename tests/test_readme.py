"""The examples of the README and of docs/*.md print what those pages show.

Every fenced block with ``$ deckcli ...`` lines followed by output is run, command by command,
and what the command prints (stdout, then stderr) must be the lines shown: a line ``...``
stands for any number of lines. Commands on ``deck.txt`` run on the page's own ``deck.txt``
(the block after "Given this `deck.txt`:") as ``deckcli fmt`` leaves it, commands on
``new.txt`` in a fresh folder in order; every other command runs in the repository.
(tests/test_packaging.py runs every ``console`` command for its exit code.)
"""

from __future__ import annotations

import re
import shlex

import pytest
from conftest import REPO, doc_pages, run

TEXT = doc_pages()


def _blocks() -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each fenced block that shows a deckcli command's output: (page, [(command, output)])."""
    found = []
    for page, text in TEXT.items():
        found.extend((page, steps) for steps in _page_blocks(text))
    return found


def _page_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    found = []
    for block in re.findall(r"```\w*\n(.*?)```", text, flags=re.S):
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


def _page_deck_txt(page: str) -> str:
    """The decklist a page's fmt section starts from ("Given this `deck.txt`:")."""
    after = TEXT[page].split("Given this `deck.txt`:", 1)[1]
    return re.search(r"```\n(.*?)```", after, flags=re.S).group(1)


def test_the_pages_are_found():
    assert {"README.md", "docs/commands.md", "docs/decklists.md", "docs/referee.md"} <= set(TEXT)


def test_every_block_with_output_is_found():
    commands = [cmd for _, steps in BLOCKS for cmd, _ in steps]
    for wanted in ("deckcli convert deck.txt --to csv", "deckcli stats examples/good/",
                   "deckcli referee battle Walrus Orca", "deckcli new new.txt",
                   "deckcli referee check examples/games/ab-gap-tie.yaml"):
        assert any(c.startswith(wanted) for c in commands), wanted


@pytest.mark.parametrize("page,steps", BLOCKS, ids=[f"{p}: {s[0][0][:60]}" for p, s in BLOCKS])
def test_readme_output(page, steps, tmp_path, monkeypatch, run_shared):
    uses = " ".join(cmd for cmd, _ in steps)
    if "deck.txt" in uses or "new.txt" in uses:
        monkeypatch.chdir(tmp_path)
        if "deck.txt" in uses:
            (tmp_path / "deck.txt").write_text(_page_deck_txt(page), encoding="utf-8")
            assert run("fmt", "deck.txt").code == 0
    else:
        monkeypatch.chdir(REPO)
    for cmd, want in steps:
        args = shlex.split(cmd.partition("  #")[0])[1:]
        r = run_shared(*args)  # a build or simulate example is run once with test_packaging's
        got = (r.out + r.err).rstrip("\n").splitlines()
        want = [line for line in want]
        while want and not want[-1].strip():
            want.pop()
        assert _matches(want, got), f"$ {cmd}\n--- {page}\n" + "\n".join(want) + \
            "\n--- printed\n" + "\n".join(got)


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_pages_link_to_what_exists():
    """Every relative link of a page names a file of the repository, and a '#part' a heading
    of that file: the guide and the reference point at each other and must not rot."""
    anchors = {page: {_anchor(h) for h in re.findall(r"^#+ (.*)$", _prose(text), flags=re.M)}
               for page, text in TEXT.items()}
    broken = []
    for page, text in TEXT.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", _prose(text)):
            if re.match(r"\w+://", target):
                continue
            file, _, part = target.partition("#")
            path = (REPO / page).parent / file if file else REPO / page
            rel = path.resolve().relative_to(REPO.resolve()).as_posix()
            if not path.exists():
                broken.append(f"{page}: {target} (no such file)")
            elif part and part not in anchors.get(rel, set()):
                broken.append(f"{page}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def _prose(text: str) -> str:
    """A page without its fenced blocks (a '# comment' in a block is no heading)."""
    return re.sub(r"^ *```.*?^ *```", "", text, flags=re.S | re.M)


def test_fences_are_closed():
    for page, text in TEXT.items():
        assert len(re.findall(r"^ *```", text, flags=re.M)) % 2 == 0, page


def test_readme_is_a_guide():
    """The README is the user's guide: short, and it names nothing a user does not have."""
    readme = TEXT["README.md"]
    assert len(readme.splitlines()) <= 800
    for page in TEXT:
        # every page a page names is one the user has: in the repository, beside the page or
        # from its root
        for name in re.findall(r"[\w./-]+\.md\b", TEXT[page]):
            assert (REPO / page).parent.joinpath(name).exists() or (REPO / name).exists() or \
                (REPO / "docs" / name).exists(), f"{page} names {name}, which is not here"
        if page != "README.md":
            assert page in readme, f"README.md does not link {page}"


def test_the_quick_starts_first_command_prints_what_the_readme_says(monkeypatch):
    """The README said the first quick-start command prints 'one row for the deck, ending in
    `legal`': the row ends in the fingerprint. What it says now is checked against the
    command itself (the deckcli part of it, in the repository)."""
    readme = TEXT["README.md"]
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    first = [line for line in block.splitlines() if line and not line.startswith("#")][0]
    args = shlex.split(first.rpartition("&& .venv/bin/deckcli ")[2])
    monkeypatch.chdir(REPO)
    r = run(*args)
    said = " ".join(readme.split("The first prints", 1)[1].split(". The second", 1)[0].split())
    header, rule, row = r.out.splitlines()[:3]
    total = r.out.rstrip("\n").splitlines()[-1]
    verdict = row[header.index("verdict"):].split()[0]
    assert len(r.out.rstrip("\n").splitlines()) == 5, r  # the table of one deck, the total
    assert f"verdict `{verdict}`" in said, said
    assert f"`{total}`" in said, (said, total)
    assert f"exits {r.code}" in said, said
