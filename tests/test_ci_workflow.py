"""The example GitHub workflow (examples/ci/github-workflow.yml) works in a decklist
repository as written: each of its `run:` lines is run, in order, in a fresh virtualenv and a
repository laid out as its comment says, with GitHub's GITHUB_ACTIONS=true.

The one thing changed is where pip gets deckcli: the workflow's DECKCLI variable names a commit
of this repository on GitHub; here it names the same kind of thing, a commit of a real clone
(`deckcli @ git+file://localhost/CLONE@SHA`). deckcli's own dependencies come from this test's
environment and its build backend too (PIP_NO_DEPS, no build isolation), so the test needs no
package index and no network.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, dependencies_folder
from ruamel.yaml import YAML

WORKFLOW = EXAMPLES / "ci" / "github-workflow.yml"
FLOW = YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))
STEPS = FLOW["jobs"]["validate"]["steps"]


def test_the_workflow_installs_deckcli_from_a_pinned_commit():
    """No index serves a 'deckcli' package: the install names a repository and a commit."""
    install = next(s for s in STEPS if s.get("name") == "Install deckcli")
    assert install["run"].strip() == 'python -m pip install "$DECKCLI"'
    assert re.fullmatch(r"deckcli @ git\+https://\S+/deckcli@[0-9a-f]{40}", FLOW["env"]["DECKCLI"])


@pytest.fixture(scope="module")
def venv(deckcli_clone, tmp_path_factory) -> Path:
    """A fresh virtualenv whose python sees this environment's packages (deckcli's
    dependencies and build backend) and nothing of deckcli itself, until the workflow's
    install step puts it there."""
    where = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    site = Path(subprocess.run(
        [str(where / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True).stdout.strip())
    deps = dependencies_folder(where.parent / "deps")  # everything here but deckcli
    (site / "_test_deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    return where


def run_steps(repo: Path, venv: Path, clone: tuple[Path, str]) -> list[tuple[str, int, str]]:
    """Each `run:` step in order, as a runner does: bash, in the repository, with the
    workflow's env. A failed step stops the rest, except those marked `if: always()`."""
    path, sha = clone
    env = {**os.environ, "GITHUB_ACTIONS": "true",
           "DECKCLI": f"deckcli @ git+file://localhost{path}@{sha}",
           "PIP_NO_DEPS": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_NO_INDEX": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PATH": str(venv / "bin") + os.pathsep + os.environ.get("PATH", ""),
           "VIRTUAL_ENV": str(venv)}
    env.pop("DECKCLI_CACHE_DIR", None)
    env["XDG_CACHE_HOME"] = str(repo.parent / "cache")  # a fresh runner's empty cache
    done, failed = [], False
    for step in STEPS:
        if "run" not in step or (failed and step.get("if") != "always()"):
            continue
        r = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=600)
        done.append((step.get("name", step["run"]), r.returncode, r.stdout + r.stderr))
        failed = failed or r.returncode != 0
    return done


def test_the_workflow_takes_the_event_from_the_configuration():
    """The steps name no event: deckcli reads it from the repository's deckcli.toml, as the
    pre-commit hooks do, so the two never check against different events."""
    runs = [s["run"] for s in STEPS if "run" in s and "deckcli validate" in s["run"]]
    assert runs and all("--event" not in r for r in runs), runs
    assert 'event = "event.yaml"' in WORKFLOW.read_text(encoding="utf-8")


def decklist_repository(root: Path, *, illegal: bool = False) -> Path:
    """event.yaml at the top with a roster, the decks where the roster says, and the
    deckcli.toml that names the event."""
    (root / "decks").mkdir(parents=True)
    shutil.copy(EXAMPLES / "good" / "championship-deep-divers.txt", root / "decks" / "alice.txt")
    shutil.copy(EXAMPLES / "event" / "decks" / "erin.txt", root / "decks" / "erin.txt")
    if illegal:
        shutil.copy(EXAMPLES / "bad" / "championship-59.txt", root / "decks" / "erin.txt")
    (root / "event.yaml").write_text(
        "name: Spring\ngame: animal-battle\nformat: championship\n"
        "players:\n  alice: decks/alice.txt\n  erin: decks/erin.txt\n", encoding="utf-8")
    (root / "deckcli.toml").write_text('event = "event.yaml"\n', encoding="utf-8")
    return root


def test_every_step_passes_in_a_repository_of_legal_decks(venv, deckcli_clone, tmp_path):
    repo = decklist_repository(tmp_path / "decks")
    steps = run_steps(repo, venv, deckcli_clone)
    assert [name for name, _, _ in steps] == [s.get("name") for s in STEPS if "run" in s]
    for name, code, output in steps:
        assert code == 0, (name, output)
    installed = subprocess.run([str(venv / "bin" / "python"), "-c",
                                "import deckcli; print(deckcli.__file__)"], cwd=repo,
                               capture_output=True, text=True, check=True).stdout
    assert str(venv) in installed  # the workflow's install, not this test's own deckcli
    report = (repo / "deckcli-junit.xml").read_text(encoding="utf-8")
    assert 'tests="2"' in report and 'failures="0"' in report


def test_an_illegal_deck_fails_the_run_on_its_line_and_the_report_is_still_kept(
        venv, deckcli_clone, tmp_path):
    repo = decklist_repository(tmp_path / "decks", illegal=True)
    steps = dict((name, (code, output)) for name, code, output in run_steps(
        repo, venv, deckcli_clone))
    code, output = steps["Check the roster's decks"]
    assert code == 1, output
    assert "::error file=decks/erin.txt" in output  # GitHub shows it on the file
    assert steps["Keep a JUnit report for the test tab"][0] == 1  # if: always() still runs
    assert 'failures="1"' in (repo / "deckcli-junit.xml").read_text(encoding="utf-8")
