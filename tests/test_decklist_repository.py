"""A decklist repository as an organiser keeps one: decks, an event file not named event.yaml,
the GitHub workflow the docs tell users to copy, a requirements file, a README. deckcli's folder
walk and pre-commit hooks take the decks and leave the rest alone; a malformed deck still fails.

The pre-commit tests run the real pre-commit against a real clone of this repository, pinned at
a commit as docs/ci.md tells users to pin it (tags do not travel to every clone: an old README
said `rev: v0.1.0`, which no clone could check out). The hooks run with `language: unsupported`
(deckcli from this test's own environment): `language: python` makes pre-commit pip-install the
clone, which needs a package index, and these tests must not need the network.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, GIT_ENV, REPO, git, run
from ruamel.yaml import YAML

from deckcli.decks.kinds import deck_file_name

DECK = EXAMPLES / "good" / "championship-deep-divers.txt"  # in fmt's form, legal
EVENT = """\
# our spring event: not named event.yaml
name: Spring 2026
game: animal-battle
format: championship
players:
  alice: decks/alice.txt
"""
def make_repository(root: Path) -> Path:
    """A decklist repository: two decks, an event file, a workflow, requirements, a README,
    and the event's promo cards, a card database set file, among the decks (for --db)."""
    (root / "decks").mkdir(parents=True)
    shutil.copy(DECK, root / "decks" / "alice.txt")
    shutil.copy(REPO / "card_db" / "animal-battle" / "PRM.yaml",
                root / "decks" / "spring-promos.yaml")
    shutil.copy(EXAMPLES / "good" / "casual-savanna.yaml", root / "decks" / "bo.yaml")
    (root / "spring-2026.yaml").write_text(EVENT, encoding="utf-8")
    (root / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(EXAMPLES / "ci" / "github-workflow.yml",
                root / ".github" / "workflows" / "decklists.yml")
    (root / "requirements.txt").write_text("deckcli @ git+https://example.org/deckcli\n",
                                           encoding="utf-8")
    (root / "README.txt").write_text("Our decks for the spring event.\n", encoding="utf-8")
    return root


# -- the folder walk ---------------------------------------------------------------------

def test_validate_folder_takes_the_decks_and_nothing_else(tmp_path):
    repo = make_repository(tmp_path / "decks-repo")
    r = run("validate", repo, "--output", "json")
    assert r.code == 0, r
    paths = sorted(Path(d["path"]).relative_to(repo).as_posix() for d in r.json()["decks"])
    assert paths == ["decks/alice.txt", "decks/bo.yaml"]
    assert "spring-2026.yaml is an event file, not a decklist: skipped" in r.err


def test_fmt_check_on_the_folder_touches_only_the_decks(tmp_path):
    repo = make_repository(tmp_path / "decks-repo")
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file()}
    r = run("fmt", "--check", repo)
    assert r.code == 0, r
    r = run("fmt", repo)
    assert r.code == 0, r
    assert {p: p.read_bytes() for p in repo.rglob("*") if p.is_file()} == before


def test_an_event_file_named_on_the_command_line_is_skipped_not_read_as_a_deck(tmp_path):
    repo = make_repository(tmp_path / "decks-repo")
    r = run("validate", repo / "spring-2026.yaml")
    assert r.code == 0 and "give it with --event" in r.err and "nothing to check" in r.err, r
    assert r.out == "0 deck(s): 0 legal, 0 illegal\n", r
    r = run("validate", repo / "spring-2026.yaml", "--output", "json")
    assert r.code == 0 and r.json() == {"version": 1, "decks": [], "summary": {
        "decks": 0, "legal": 0, "illegal": 0}}, r  # a report a script can read, empty
    r = run("validate", repo / "spring-2026.yaml", repo / "decks" / "alice.txt")
    assert r.code == 0 and "1 deck(s)" in r.out, r


def test_a_malformed_deck_is_still_a_deck(tmp_path):
    """A YAML deck whose 'cards' key is misspelt is no event file or workflow: it is read
    as a deck and fails, in a walk as when named."""
    repo = make_repository(tmp_path / "decks-repo")
    (repo / "decks" / "carl.yaml").write_text("name: Carl\ncard:\n  - {count: 4, name: Orca}\n",
                                             encoding="utf-8")
    for target in (repo, repo / "decks" / "carl.yaml"):
        r = run("validate", target)
        assert r.code == 1 and "carl.yaml" in r.out, r


def test_the_roster_warning_leaves_the_event_file_and_other_files_alone(tmp_path):
    """The 'deck nobody is listed for' warning looks at the same files as a walk."""
    repo = make_repository(tmp_path / "decks-repo")
    (repo / "decks" / "spare-event.yaml").write_text(EVENT, encoding="utf-8")
    r = run("validate", "--event", repo / "spring-2026.yaml", "--output", "json")
    unlisted = [d["path"] for d in r.json()["decks"]
                if any(p["code"] == "unlisted-deck" for p in d["problems"])]
    assert [Path(p).name for p in unlisted] == ["bo.yaml"]


def test_game_logs_beside_the_decks_are_skipped_as_game_logs(tmp_path):
    """Game logs (the referee's, or simulate --save-games's) live in an event's repository
    too. A walk, a file named on the command line, fmt and the roster's 'deck nobody is listed
    for' warning leave them alone, and the note says how to check one, not '--event' (an
    alpha-walrus log has 'players' as an event file does)."""
    repo = make_repository(tmp_path / "decks-repo")
    games = repo / "games"
    games.mkdir()
    for name in ("ab-gap-tie.yaml", "aw-showdown.yaml"):  # no 'players' key, and one
        shutil.copy(EXAMPLES / "games" / name, games / name)
    assert "players" in load_yaml(games / "aw-showdown.yaml")
    assert "players" not in load_yaml(games / "ab-gap-tie.yaml")
    before = {p: p.read_bytes() for p in games.iterdir()}
    r = run("validate", repo, "--output", "json")
    assert r.code == 0, r
    assert sorted(Path(d["path"]).name for d in r.json()["decks"]) == ["alice.txt", "bo.yaml"]
    for name in ("ab-gap-tie.yaml", "aw-showdown.yaml"):
        assert (f"{name} is a game log, not a decklist: skipped (check it with deckcli "
                "referee check)") in r.err.replace(str(games) + os.sep, ""), r
    r = run("validate", games / "aw-showdown.yaml")
    assert r.code == 0 and "is a game log" in r.err and "--event" not in r.err, r
    r = run("fmt", "--check", repo)
    assert r.code == 0, r
    r = run("fmt", games)
    assert {p: p.read_bytes() for p in games.iterdir()} == before
    shutil.copy(games / "ab-gap-tie.yaml", repo / "decks" / "game-00001.yaml")
    r = run("validate", "--event", repo / "spring-2026.yaml", "--output", "json")
    unlisted = [Path(d["path"]).name for d in r.json()["decks"]
                if any(p["code"] == "unlisted-deck" for p in d["problems"])]
    assert unlisted == ["bo.yaml"], r


# -- the hooks' own patterns agree with the walk --------------------------------------------

def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


HOOKS = load_yaml(REPO / ".pre-commit-hooks.yaml")


def test_card_database_set_files_beside_the_decks_are_skipped_as_such(tmp_path):
    """A set file of the card database (game, set and cards, each card with its number and
    kind: what --db reads) kept in a decklist folder was read as a deck: validate called it
    illegal (every card entry an error), and the pre-commit hook failed on it. A walk, a file
    named on the command line, fmt and the roster's 'deck nobody is listed for' warning
    leave it alone, and the note says how to check one."""
    repo = make_repository(tmp_path / "decks-repo")  # the hooks pass on it (below)
    promos = repo / "decks" / "spring-promos.yaml"
    (repo / "decks" / "promos.json").write_text(json.dumps(
        {"game": "animal-battle", "set": {"code": "PRZ", "name": "Prizes"}, "cards": [
            {"number": "1", "name": "Prize Orca", "kind": "animal"}]}), encoding="utf-8")
    before = {p: p.read_bytes() for p in (promos, repo / "decks" / "promos.json")}
    r = run("validate", repo, "--output", "json")
    assert r.code == 0, r
    assert sorted(Path(d["path"]).name for d in r.json()["decks"]) == ["alice.txt", "bo.yaml"]
    for name in ("spring-promos.yaml", "promos.json"):
        assert (f"{name} is a card database set file, not a decklist: skipped (check it with "
                "deckcli db check --db FOLDER)") in r.err, r
    r = run("validate", promos)
    assert r.code == 0 and "is a card database set file" in r.err, r
    assert run("fmt", "--check", repo).code == 0
    assert run("fmt", repo / "decks").code == 0
    assert {p: p.read_bytes() for p in before} == before
    r = run("validate", "--event", repo / "spring-2026.yaml", "--output", "json")
    unlisted = [Path(d["path"]).name for d in r.json()["decks"]
                if any(p["code"] == "unlisted-deck" for p in d["problems"])]
    assert unlisted == ["bo.yaml"], r


def test_a_deck_with_a_stray_set_key_is_still_a_deck(tmp_path):
    """'set: ABS' at the top of a YAML deck is a deck's unknown key (a warning), never a
    set file: a set file's 'set' is a mapping (code, name)."""
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: animal-battle\nset: ABS\ncards:\n  - {count: 20, name: Orca}\n",
                    encoding="utf-8")
    r = run("validate", deck)
    assert r.code == 1 and "unknown key 'set'" in r.out, r


@pytest.mark.parametrize("path", [
    "decks/alice.txt", "decks/bo.yaml", "a.json", "b.DECK", "c.dck", "d.cod", "e.dek",
    "spring-2026.yaml", ".github/workflows/decklists.yml", ".pre-commit-config.yaml",
    "event.yaml", "decks/Event.yml", "requirements.txt", "requirements-dev.txt",
    "constraints.txt", "README.txt", "LICENSE.txt", "CHANGELOG.txt", "notes.md",
    "decks/.draft.txt", "pyproject.toml", "deckcli.toml", "decks/deckcli.toml",
    ".config/deckcli.toml", "setup.toml"])
@pytest.mark.parametrize("hook", HOOKS, ids=[h["id"] for h in HOOKS])
def test_the_hooks_take_what_a_folder_walk_takes_by_name(hook, path):
    """deckcli-validate takes event and configuration files too: when the one in force
    changes, validate checks every deck again (and skips any other)."""
    taken = bool(re.search(hook["files"], path)) and not re.search(hook["exclude"], path)
    visible = all(part[0] != "." for part in path.split("/"))
    name = path.rsplit("/", 1)[-1]
    walked = visible and deck_file_name(name)
    if hook["id"] == "deckcli-validate":
        walked = walked or visible and name.lower() in (
            "event.yaml", "event.yml", "deckcli.toml", "pyproject.toml")
    assert taken == walked, path


# -- pre-commit, for real ----------------------------------------------------------------

def pre_commit(*args, cwd: Path, home: Path):
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def repository_with_hooks(root: Path, clone_path: Path, rev: str) -> Path:
    repo = make_repository(root)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {clone_path}\n    rev: '{rev}'\n    hooks:\n"
        "      - {id: deckcli-validate, language: unsupported}\n"
        "      - {id: deckcli-fmt, language: unsupported}\n", encoding="utf-8")
    git("init", "--quiet", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "--quiet", "-m", "decks", cwd=repo)
    return repo


def test_pre_commit_at_the_documented_rev_passes_on_a_decklist_repository(deckcli_clone, tmp_path):
    path, sha = deckcli_clone
    repo = repository_with_hooks(tmp_path / "decks-repo", path, sha)
    r = pre_commit("run", "--all-files", cwd=repo, home=tmp_path / "pc")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"deckcli validate\.+Passed", r.stdout), r.stdout
    assert re.search(r"deckcli fmt\.+Passed", r.stdout), r.stdout


def test_pre_commit_fails_on_a_malformed_deck(deckcli_clone, tmp_path):
    path, sha = deckcli_clone
    repo = repository_with_hooks(tmp_path / "decks-repo", path, sha)
    (repo / "decks" / "carl.txt").write_text("four Orca\n", encoding="utf-8")
    git("add", "-A", cwd=repo)
    r = pre_commit("run", "--all-files", cwd=repo, home=tmp_path / "pc")
    assert r.returncode == 1, r.stdout + r.stderr
    assert re.search(r"deckcli validate\.+Failed", r.stdout) and "carl.txt:1" in r.stdout


def test_pre_commit_checks_the_decks_against_the_configurations_event(deckcli_clone,
                                                                     tmp_path):
    """An organiser's repository with a deckcli.toml naming its event, and the hooks as
    docs/ci.md shows them, without `args:`: a banned card fails the commit, the fixed deck
    passes, and a change to the event file alone (a new ban) runs the hook on every deck."""
    path, sha = deckcli_clone
    repo = repository_with_hooks(tmp_path / "decks-repo", path, sha)
    (repo / "deckcli.toml").write_text('event = "event.yaml"\n', encoding="utf-8")
    (repo / "event.yaml").write_text('name: Summer Open\nbanned: ["Blue Whale"]\n',
                                     encoding="utf-8")
    git("add", "-A", cwd=repo)
    r = pre_commit("run", "--all-files", cwd=repo, home=tmp_path / "pc")
    assert r.returncode == 1, r.stdout + r.stderr
    assert re.search(r"deckcli validate\.+Failed", r.stdout), r.stdout
    assert "decks/alice.txt:9: error: Blue Whale (ABS) 1 is banned at Summer Open" in r.stdout
    assert "event.yaml:" not in r.stdout and "deckcli.toml:" not in r.stdout, r.stdout

    shutil.copy(EXAMPLES / "event" / "decks" / "alice.txt", repo / "decks" / "alice.txt")
    git("add", "-A", cwd=repo)
    r = pre_commit("run", cwd=repo, home=tmp_path / "pc")  # the staged files: the deck
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"deckcli validate\.+Passed", r.stdout), r.stdout
    git("commit", "--quiet", "-m", "a legal deck", cwd=repo)

    (repo / "event.yaml").write_text('name: Summer Open\nbanned: ["Blue Whale", '
                                     '"Sperm Whale"]\n', encoding="utf-8")
    git("add", "event.yaml", cwd=repo)
    r = pre_commit("run", cwd=repo, home=tmp_path / "pc")  # only the event file changed
    assert r.returncode == 1, r.stdout + r.stderr
    assert re.search(r"deckcli validate\.+Failed", r.stdout), r.stdout
    assert re.search(r"deckcli fmt\.+\(no files to check\)Skipped", r.stdout), r.stdout
    assert "decks/alice.txt:18: error: Sperm Whale (ABS) 8 is banned at Summer Open" \
        in r.stdout, r.stdout


def test_autoupdate_freeze_pins_a_commit_every_clone_has(deckcli_clone, tmp_path):
    """docs/ci.md: `pre-commit autoupdate --freeze` pins the newest commit as a sha."""
    path, sha = deckcli_clone
    repo = repository_with_hooks(tmp_path / "decks-repo", path, "0" * 40)
    r = pre_commit("autoupdate", "--freeze", cwd=repo, home=tmp_path / "pc")
    assert r.returncode == 0, r.stdout + r.stderr
    pinned = load_yaml(repo / ".pre-commit-config.yaml")["repos"][0]["rev"]
    assert re.fullmatch(r"[0-9a-f]{40}", pinned)
    assert pinned == git("rev-parse", "HEAD", cwd=path) == sha
    r = pre_commit("run", "--all-files", cwd=repo, home=tmp_path / "pc")
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_docs_pin_a_commit_not_a_tag():
    """No page tells users to pin a tag (none travels to a clone), and the pages say how to
    find the commit to pin."""
    for page in (".pre-commit-hooks.yaml", "docs/ci.md"):
        text = (REPO / page).read_text(encoding="utf-8")
        assert not re.search(r"rev:\s*v\d", text), page
        assert "git rev-parse HEAD" in text and "autoupdate --freeze" in text, page
        assert re.search(r"rev:\s*[0-9a-f]{40}", text), page


def test_the_contributors_hooks_pass_on_a_clone(deckcli_clone, tmp_path):
    """.pre-commit-config.yaml (ruff and deckcli's own checks of its data) passes on a clean
    clone, run as a contributor runs it."""
    path, _sha = deckcli_clone
    shutil.copy(REPO / ".pre-commit-config.yaml", path / ".pre-commit-config.yaml")
    r = pre_commit("run", "--all-files", cwd=path, home=tmp_path / "pc")
    assert r.returncode == 0, r.stdout + r.stderr
    for hook in ("ruff check", "deckcli db check", "fmt's form", "examples/good is legal"):
        assert re.search(re.escape(hook) + r".*\.+Passed", r.stdout), (hook, r.stdout)
