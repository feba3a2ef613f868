"""The suite leaves nothing in the system's temp folder: everything goes under pytest's own
temporary tree (tmp_path, tmp_path_factory), which pytest prunes itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import REPO, dependencies_folder


def test_a_run_leaves_nothing_but_pytests_own_tree_in_the_temp_folder(tmp_path):
    """A few tests, among them one that opens the card index, the hostile corpus (whose
    parameters are computed at import) and one that starts a Dask cluster (whose scheduler
    and workers keep a scratch folder), run with TMPDIR pointing at an empty folder."""
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    env.pop("DECKCLI_CACHE_DIR", None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-p", "no:xdist", "tests/test_packaging.py::test_version",
                        "tests/test_hostile.py::test_validate[empty.txt]",
                        "tests/test_simulate.py::test_a_dask_cluster_gives_the_same_report"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(p.name for p in temp.iterdir()) == [f"pytest-of-{_user()}"]


def _user() -> str:
    import getpass

    return getpass.getuser()


def readme_test_command() -> str:
    """Command 2 of the README's quick start: install the test extra, lint, type-check, run
    the tests."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n.*?```sh\n(.*?)```", readme, flags=re.S).group(1)
    lines = block.splitlines()
    return lines[lines.index(next(line for line in lines if line.startswith("# 2."))) + 1]


def test_ci_runs_the_readme_test_command_exactly():
    command = readme_test_command()
    assert "pip install '.[test]'" in command
    assert command.endswith(".venv/bin/ruff check && .venv/bin/mypy && .venv/bin/pytest -n auto")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci, ".ci/run does not run the README's test command as written"


def test_the_test_extra_brings_what_the_test_command_uses():
    """The README's pytest line runs the suite on as many processes as the machine has cores
    (pytest-xdist's -n auto: the suite passed the same on one process and on two, faster on
    two; benchmarks/README.md), so the test extra installs pytest-xdist."""
    import tomllib

    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]["test"]
    names = {re.match(r"[A-Za-z0-9_.-]+", req).group(0).lower() for req in extra}
    assert {"pytest", "pytest-xdist", "ruff", "mypy"} <= names


def test_after_command_1_the_quick_start_puts_deckcli_on_path(deckcli_clone, tmp_path):
    """Command 1 of the README's quick start, then the line the README gives after it, in a
    fresh clone and a shell with no deckcli on PATH: the examples' `deckcli ...` then runs the
    deckcli command 1 installed. Without that line the shell finds no deckcli. (pip gets
    deckcli's dependencies and build backend from this environment, with no index.)"""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = re.search(r"## Quick start\n.*?```sh\n(.*?)```", readme, flags=re.S).group(1) \
        .splitlines()
    first = lines.index(next(line for line in lines if line.startswith("# 1.")))
    install, then = lines[first + 1], lines[first + 3]
    assert then == ". .venv/bin/activate", lines
    clone = tmp_path / "deckcli"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(deckcli_clone[0]), str(clone)],
                   check=True, capture_output=True, timeout=120)
    tools = tmp_path / "bin"  # python3 as this test's, and no deckcli anywhere on PATH
    tools.mkdir()
    (tools / "python3").symlink_to(getattr(sys, "_base_executable", sys.executable))
    path = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.path.exists(os.path.join(d, "deckcli"))]
    env = {**os.environ, "PATH": os.pathsep.join([str(tools), *path]),
           "PYTHONPATH": str(dependencies_folder(tmp_path / "deps")), "PIP_NO_INDEX": "1",
           "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("VIRTUAL_ENV", None)
    example = "deckcli validate examples/good/championship-deep-divers.txt"
    r = subprocess.run(["bash", "-e", "-c", "\n".join([install, then, "command -v deckcli",
                                                      example])],
                       cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert str(clone / ".venv" / "bin" / "deckcli") in r.stdout.splitlines(), r.stdout
    assert r.stdout.count("1 deck(s): 1 legal, 0 illegal") == 2, r.stdout  # command 1's too
    r = subprocess.run(["bash", "-c", f"command -v deckcli || {example}"], cwd=clone, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 127 and "deckcli: command not found" in r.stderr, r  # not activated


def test_the_quick_start_says_what_the_test_command_needs_that_ci_installs():
    """The system packages .ci/run installs for the browser tests (which skip, saying why,
    without them) are named beside the README's test command, with the suite's duration."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    installed = re.search(r"apt-get install -y -qq ([\w .-]+?) >", ci).group(1).split()
    assert installed == ["chromium", "poppler-utils"]
    for package in installed:
        assert package in quick.lower(), package
    assert ".ci/run` installs them" in quick and "skip" in quick
    assert re.search(r"two (otherwise idle )?cores the suite .*takes \d+ to \d+ minutes",
                     " ".join(quick.split())), quick
