"""Shared test helpers: run deckcli like a shell line, in-process, and see its output."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

os.environ.pop("DECKCLI_DB", None)
os.environ.pop("GITHUB_ACTIONS", None)
# A Python the tests start (`python -m deckcli`, `python -c ...`) imports deckcli as installed,
# never the source tree it happens to run in: CI installs deckcli non-editable so that a file
# the package lacks fails there, and a child importing ./deckcli from the clone would hide it.
os.environ["PYTHONSAFEPATH"] = "1"
# Progress lines start once a run has taken 2 s: on a loaded machine some runs of a test would
# print them and others not. The tests of progress (test_progress.py) set their own interval.
os.environ["DECKCLI_PROGRESS_INTERVAL"] = "off"

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


def doc_pages() -> dict[str, str]:
    """The user's guide and the reference pages (README.md, docs/*.md) by path: their
    examples are tests (test_readme.py, test_packaging.py)."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    return {page.relative_to(REPO).as_posix(): page.read_text(encoding="utf-8")
            for page in pages}


@dataclass
class Result:
    code: int
    out: str
    err: str
    args: tuple

    def __str__(self) -> str:  # shown by pytest when an assertion on the result fails
        return (f"$ deckcli {' '.join(self.args)}\n[exit {self.code}]\n--- stdout ---\n{self.out}"
                f"--- stderr ---\n{self.err}")

    def json(self):
        import json

        return json.loads(self.out)


#: the head of a script that runs a library call in a Python where click cannot be imported,
#: with ``kept``, a listener that keeps what the run tells it (``kept.said``)
WITHOUT_CLICK = """
import json, sys
sys.modules["click"] = None  # the library never imports click: this makes it fail if it did
from deckcli.sim.request import Listener

class Kept(Listener):
    def __init__(self):
        self.said = []
    def warning(self, message, rule=None):
        self.said.append(["warning", message, rule])
    def note(self, message):
        self.said.append(["note", message])
    def wrote(self, path):
        self.said.append(["wrote", path])

kept = Kept()
"""


def run(*args, input: str | bytes | None = None) -> Result:
    """Run ``deckcli ARGS`` in this process; returns exit code, stdout and stderr."""
    from deckcli.cli import run as cli_run

    args = tuple(str(a) for a in args)
    out, err = io.StringIO(), io.StringIO()
    data = input.encode() if isinstance(input, str) else (input or b"")
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, stdin
    try:
        code = cli_run(list(args))
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    return Result(code, out.getvalue(), err.getvalue(), args)


#: the commands a docs example may name that play games for seconds to tens of seconds, and the
#: options with which they write a file (then they are run each time: see ``run_shared``)
PLAYING = ("build", "suggest", "simulate")
WRITING = ("-o", "--output-file", "--csv", "--html", "--save-games")


@pytest.fixture(scope="session")
def run_shared(tmp_path_factory):
    """``run(*args)`` in the current folder, run once a test session for the same arguments and
    folder when it plays games and writes no file (``PLAYING``, ``WRITING``): a command several
    tests run alike, such as the docs' examples of build and simulate, which test_readme.py
    (their output) and test_packaging.py (their exit code) both run. Under pytest-xdist the
    first worker to ask runs it holding a lock file in the session's temp folder (the parent
    of each worker's own), and saves the result there for the others, which wait on the lock;
    any other command runs each time."""
    import fcntl
    import hashlib
    import json

    folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = folder.parent
    folder = folder / "shared-runs"
    folder.mkdir(exist_ok=True)

    def shared(*args) -> Result:
        args = tuple(str(a) for a in args)
        if not args or args[0] not in PLAYING or any(a in WRITING for a in args):
            return run(*args)
        key = hashlib.sha256(json.dumps([os.getcwd(), args]).encode("utf-8")).hexdigest()[:16]
        done = folder / f"{key}.json"
        with open(folder / f"{key}.lock", "w", encoding="utf-8") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
            if done.exists():
                code, out, err = json.loads(done.read_text(encoding="utf-8"))
                return Result(code, out, err, args)
            r = run(*args)
            part = folder / f"{key}.part"
            part.write_text(json.dumps([r.code, r.out, r.err]), encoding="utf-8")
            part.replace(done)
            return r

    return shared


@pytest.fixture(scope="session", autouse=True)
def card_cache(tmp_path_factory):
    """One card-index cache for the whole session (each xdist worker its own), never the
    user's: a folder of pytest's temporary tree, which pytest prunes, so a run leaves nothing
    in the system's temp folder. Processes the tests start inherit it."""
    folder = tmp_path_factory.mktemp("card-cache")
    saved = os.environ.get("DECKCLI_CACHE_DIR")
    os.environ["DECKCLI_CACHE_DIR"] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop("DECKCLI_CACHE_DIR", None)
    else:
        os.environ["DECKCLI_CACHE_DIR"] = saved


@pytest.fixture
def deck_file(tmp_path):
    """Write a decklist file and return its path: deck_file("4 Walrus\\n", "a.txt")."""

    def make(text: str | bytes, name: str = "deck.txt") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return make


def one_set_db(folder: Path, game: str, code: str, name: str, cards: str) -> Path:
    """A card database folder holding one set file (``cards``: its YAML card list)."""
    folder.mkdir()
    (folder / f"{code}.yaml").write_text(
        f"game: {game}\nset: {{code: {code}, name: {name}}}\ncards:\n{cards}", encoding="utf-8")
    return folder


def animals_db(folder: Path, names: list[str]) -> Path:
    """A one-set (TST) card database of Animals with these names, numbered 1, 2, ..."""
    stats = "stats: {weight: 1, speed: 1, lifespan: 1, population: 1, length: 1, max_depth: 0}"
    cards = "".join(f"  - {{number: '{i}', name: '{n}', kind: animal, {stats}}}\n"
                    for i, n in enumerate(names, 1))
    return one_set_db(folder, "animal-battle", "TST", "Test Set", cards)


@pytest.fixture
def mark_db(tmp_path):
    """A card database folder with one set, TST, whose one card is named 'Mark DWV 2': a name
    that holds a real set code and number (DWV 2 is Bison)."""
    return one_set_db(tmp_path / "db", "animal-battle", "TST", "Test Set",
                      "  - {number: '1', name: Mark DWV 2, kind: animal, stats: {weight: 1, "
                      "speed: 1, lifespan: 1, population: 1, length: 1, max_depth: 0}}\n")


@pytest.fixture(scope="session")
def index():
    from deckcli.cards import open_index

    return open_index()


def named_cards(index, names, ids: dict, book: dict, game: str = "animal-battle") -> None:
    """The position tests' card table: for each name, the one card it names, its id in
    ``ids`` (name -> id) and its figures in ``book`` (id -> CardInfo)."""
    from deckcli.games.base import CardInfo

    for name in names:
        (card,) = index.cards_named(game, name)
        ids[name], book[card.id] = card.id, CardInfo.of(card)


def run_on_cluster(tmp_path, *args) -> Result:
    """``deckcli ARGS --scheduler ADDRESS`` against a real Dask scheduler and two worker
    processes on 127.0.0.1, started for the call, their scratch space in ``tmp_path`` (by
    default it is left in the system's temp folder). Skipped without the cluster extra."""
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"temporary-directory": str(tmp_path)}), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None) as cluster:
        return run(*args, "--scheduler", cluster.scheduler_address)


#: seconds a test waits for something it can see (a worker process, a file, an exit): generous;
#: what it waits for comes in a fraction of one
DEADLINE = 60.0


def wait_until(condition, what: str, deadline: float = DEADLINE):
    """Poll ``condition`` until it holds (its value is returned), or fail saying ``what``."""
    import time

    end = time.monotonic() + deadline
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > end:
            pytest.fail(f"still waiting after {deadline:.0f} s: {what}")
        time.sleep(0.05)


def child_pids(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (from /proc: Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _proc_stat(int(entry))
            if stat and stat[1] == str(pid) and stat[0] not in ("Z", "X"):
                found.append(int(entry))
    return found


def pid_gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie nobody has reaped yet has ended too)."""
    stat = _proc_stat(pid)
    return stat is None or stat[0] in ("Z", "X")


def _proc_stat(pid: int) -> list[str] | None:
    """(state, parent id, ...) of a process from /proc, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rpartition(")")[2].split()
    except OSError:
        return None


def start_deckcli(tmp_path, *args, preexec_fn=None, env=None) -> tuple:
    """``python -m deckcli ARGS`` started in a session of its own (as a shell runs a command in
    the foreground: its own process group), stdout and stderr into files in ``tmp_path``:
    (the Popen, the stdout path, the stderr path)."""
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with open(out, "wb") as o, open(err, "wb") as e:
        proc = subprocess.Popen([sys.executable, "-m", "deckcli", *map(str, args)], stdout=o,
                                stderr=e, start_new_session=True, preexec_fn=preexec_fn,
                                env=env)
    return proc, out, err


def text_of(path) -> str:
    """A file's text, '' when it is not there (what a process wrote so far)."""
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


@pytest.fixture
def reaper():
    """Append a process id: it and its children are killed at the end of the test, whatever
    happened (a test that failed leaves nothing running)."""
    import signal

    started: list[int] = []
    yield started
    for pid in started:
        for p in [pid, *child_pids(pid)]:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass


def run_unprivileged(*args, cwd=None, timeout: float = 120):
    """Run ``python -m deckcli ARGS`` in a fresh process that the kernel checks file
    permissions for, as it does for any normal user (a folder without ``r`` cannot be listed,
    one without ``w`` cannot be written), and return the CompletedProcess.

    The tests run as root here, and root ignores permissions. The child keeps uid 0 (so the
    interpreter and the test's own temporary folders, all root's, stay reachable) but drops
    every capability before it starts, CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH among them:
    then only the permission bits decide, as for a user who owns the files. Skips where that
    cannot be done (not Linux). Run as a normal user, the child is simply that user."""
    import subprocess

    preexec = None
    if os.geteuid() == 0:
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            prctl = libc.prctl
        except (OSError, AttributeError):
            pytest.skip("cannot drop root's capabilities on this system (no prctl)")

        def preexec():
            for cap in range(64):  # PR_CAPBSET_DROP: gone from the bounding set, so exec
                if prctl(24, cap, 0, 0, 0) != 0:  # gives uid 0 no capability at all
                    break  # EINVAL: past the last capability this kernel knows
        if not _dropped(preexec):
            pytest.skip("could not drop root's capabilities here (the child still reads "
                        "a folder of mode 000)")
    return subprocess.run([sys.executable, "-m", "deckcli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=preexec)


_DROP_WORKS: list[bool] = []


def _dropped(preexec) -> bool:
    """Whether a child started with ``preexec`` is refused a folder of mode 000 (asked once)."""
    import subprocess

    if not _DROP_WORKS:
        closed = Path(tempfile.mkdtemp(prefix="deckcli-closed-"))
        closed.chmod(0)
        try:
            proc = subprocess.run([sys.executable, "-c", "import os, sys; os.listdir(sys.argv[1])",
                                   str(closed)], capture_output=True, preexec_fn=preexec)
        finally:
            closed.chmod(0o700)
            closed.rmdir()
        _DROP_WORKS.append(proc.returncode != 0 and b"PermissionError" in proc.stderr)
    return _DROP_WORKS[0]


def check_log(log: dict, path=None, house: dict | None = None) -> dict:
    """``referee check --output json`` of a log mapping, in-process (the referee driver)."""
    from deckcli.cards import open_index
    from deckcli.games import get
    from deckcli.games.replay import check, replay

    return check(replay(get(log.get("game", "animal-battle")), log, path, house or {},
                        open_index()))


def start_game(log: dict, house: dict | None = None):
    """The dealt match of a log (its actions not applied)."""
    from deckcli.cards import open_index
    from deckcli.games import get

    engine = get(log.get("game", "animal-battle")).engine()
    match, _steps, _setup = engine.read_log({**log, "actions": []}, None, house or {},
                                            open_index())
    return match


#: git as a fresh machine runs it: a fixed identity, none of this user's configuration.
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(*args, cwd) -> str:
    r = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV},
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r.stdout.strip()


@pytest.fixture(scope="session")
def deckcli_clone(tmp_path_factory) -> tuple[Path, str]:
    """A clone of this repository, as a user makes one, and the commit its HEAD is at (the
    working tree's .pre-commit-hooks.yaml committed on top, so the hooks tested are these)."""
    where = tmp_path_factory.mktemp("clone") / "deckcli"
    git("clone", "--quiet", "--no-local", str(REPO), str(where), cwd=where.parent)
    shutil.copy(REPO / ".pre-commit-hooks.yaml", where / ".pre-commit-hooks.yaml")
    if git("status", "--porcelain", cwd=where):
        git("commit", "--quiet", "-am", "the hooks as in the working tree", cwd=where)
    return where, git("rev-parse", "HEAD", cwd=where)


def dependencies_folder(where: Path) -> Path:
    """A folder of links to everything this environment has installed except deckcli itself
    (its dependencies, its build backend): on a new environment's path, pip builds and runs
    deckcli from a clone with no package index to fetch anything from. (A .pth naming the
    whole site-packages would show this environment's deckcli too, and pip would take that one
    as installed already.)"""
    import sysconfig

    where.mkdir(parents=True)
    folders = [sysconfig.get_path("purelib"), *(p for p in sys.path if p.endswith("-packages"))]
    for folder in dict.fromkeys(folders):
        for entry in Path(folder).iterdir() if Path(folder).is_dir() else ():
            name = entry.name.lower()
            if name == "deckcli" or name.startswith(("deckcli-", "__editable__")) or \
                    name.endswith(".pth") or (where / entry.name).exists():
                continue
            (where / entry.name).symlink_to(entry)
    return where
