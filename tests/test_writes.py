"""Writes in a hostile or unlucky place (issue 24): a full disk, a read-only mount or folder,
concurrent edits, writes killed part-way. Every case runs against the real thing: a tmpfs
filled up or remounted read-only in a private mount namespace, a process the kernel checks
permissions for, real processes racing for one file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, run, run_unprivileged

DECK = (EXAMPLES / "good" / "championship-deep-divers.txt").read_text()
MESSY = "4   walrus\n"  # fmt rewrites it
#: the folder under test: a deck, a deck fmt would rewrite, and an earlier report
BEFORE = {"deck.txt": DECK, "messy.txt": MESSY, "report.json": "the last report\n"}
WRITES = [  # every command that writes a file, each writing into the folder under test
    ["validate", "deck.txt", "-O", "json", "--output-file", "report.json"],
    ["sheet", "deck.txt", "-o", "sheet.html"],
    ["report", str(EXAMPLES / "event" / "event.yaml"), "-o", "report.html"],
    ["convert", "deck.txt", "--to", "json", "-o", "deck.json"],
    ["new", "new.txt"],
    ["add", "deck.txt", "Orca"],
    ["fmt", "messy.txt"],
]

# Run inside a private mount namespace: mount a small tmpfs, put the decks in it, fill it up
# or remount it read-only, run each command there, and say what each left behind.
INNER = r"""
import json, os, subprocess, sys
spec = json.loads(sys.argv[1])
mnt = spec["mount"]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], check=True)
for name, text in spec["files"].items():
    with open(os.path.join(mnt, name), "w") as fh:
        fh.write(text)
if spec["how"] == "full":
    fd = os.open(os.path.join(mnt, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        os.close(fd)
else:
    subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
results = []
for args in spec["commands"]:
    p = subprocess.run([sys.executable, "-m", "deckcli", *args], capture_output=True,
                       text=True, cwd=mnt)
    left = {}
    for n in sorted(os.listdir(mnt)):
        if n != "filler":
            with open(os.path.join(mnt, n)) as fh:
                left[n] = fh.read()
    results.append({"code": p.returncode, "err": p.stderr, "left": left})
print(json.dumps(results))
"""


def in_private_mount(tmp_path: Path, how: str) -> list[dict]:
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs util-linux's unshare to make a private mount namespace")
    prefix = [unshare, "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        prefix[1:1] = ["--user", "--map-root-user"]
    mount = tmp_path / "mnt"
    mount.mkdir()
    spec = {"mount": str(mount), "how": how, "commands": WRITES,
            "files": BEFORE}
    proc = subprocess.run([*prefix, sys.executable, "-c", INNER, json.dumps(spec)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and ("unshare failed" in proc.stderr or "mount" in proc.stderr):
        pytest.skip(f"cannot mount a file system here: {proc.stderr.strip()[-200:]}")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("how, reason", [("full", "No space left on device"),
                                         ("read-only", "Read-only file system")])
def test_a_write_that_fails_is_a_clear_error_and_leaves_nothing(tmp_path, how, reason):
    """Issue 24, 5: on a full file system or a read-only mount every command that writes exits
    2 with one message naming the file and the reason, leaves every file as it was (the last
    report whole) and creates none: no 0-byte report, no temporary or lock file."""
    for args, result in zip(WRITES, in_private_mount(tmp_path, how)):
        shown = f"{args}: {result}"
        assert result["code"] == 2, shown
        err = result["err"]
        assert "internal error" not in err and "Traceback" not in err, shown
        assert f"could not write: {reason}" in err, shown
        assert result["left"] == BEFORE, shown


def test_a_read_only_folder_is_a_clear_error_for_a_normal_user(tmp_path):
    """Issue 24, 5, as a normal user (not root, whom permissions do not stop): a folder
    without write permission refuses every write, exit 2, and nothing is created."""
    folder = tmp_path / "ro"
    folder.mkdir()
    for name, text in BEFORE.items():
        (folder / name).write_text(text)
    folder.chmod(0o555)
    try:
        for args in WRITES:
            proc = run_unprivileged(*args, cwd=folder)
            shown = f"{args}: {proc}"
            assert proc.returncode == 2, shown
            assert "could not write: Permission denied (its folder cannot be written)" in \
                proc.stderr, shown
            assert "internal error" not in proc.stderr, shown
            assert {p.name: p.read_text() for p in folder.iterdir()} == BEFORE, shown
    finally:
        folder.chmod(0o755)


def test_a_folder_that_cannot_be_written_is_refused_before_the_work(tmp_path):
    """`build -o`, `simulate --csv` and `--save-games` check their targets before the search
    or any game: a folder without write permission is refused there, exit 2, as a folder that
    does not exist is (was: found at the write, after all the work; here, the work stopping
    first on a collection that makes no deck, or a deck that cannot start a game)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    poor = tmp_path / "poor.txt"
    poor.write_text("1 Walrus\n")
    no_animals = EXAMPLES / "bad" / "no-animals.txt"
    deck, savanna = EXAMPLES / "good" / "championship-deep-divers.txt", \
        EXAMPLES / "good" / "casual-savanna.yaml"
    folder.chmod(0o555)
    try:
        for args in (["build", "--collection", poor, "-o", folder / "deck.txt"],
                     ["simulate", no_animals, deck, savanna, "--csv", folder / "m.csv"],
                     ["simulate", no_animals, deck, "--save-games", folder]):
            proc = run_unprivileged(*args, cwd=tmp_path)
            shown = f"{args}: {proc}"
            assert proc.returncode == 2, shown
            assert f"{folder.name}" in proc.stderr and "Permission denied" in proc.stderr, shown
            assert "internal error" not in proc.stderr, shown
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


GOOD = EXAMPLES / "good"
EVENT = EXAMPLES / "event" / "event.yaml"
#: every command's -o/--output-file given '-': what stdout then holds (its first characters)
TO_STDOUT = {
    "validate": (["validate", GOOD / "championship-deep-divers.txt", "-O", "json"], '{"version"'),
    "convert": (["convert", GOOD / "championship-deep-divers.txt", "--to", "json"], "{"),
    "export": (["export", "--event", EVENT, "--to", "csv"], "player,deck,"),
    "sheet": (["sheet", GOOD / "championship-deep-divers.txt"], "<!DOCTYPE html>"),
    "report": (["report", EVENT], "<!DOCTYPE html>"),
    # where the deck goes is the subject, not the play: random play (the default is expert)
    "build": (["build", "--collection", EXAMPLES / "collections" / "binder.txt", "--games",
               "20", "--measure", "4", "--jobs", "1", "--seed", "1", "--policy", "random"],
              "game: animal-battle"),
}


@pytest.mark.parametrize("command", TO_STDOUT)
def test_o_dash_is_stdout_in_every_command_that_takes_o(tmp_path, monkeypatch, command):
    """`-o -` is stdout wherever -o names the file to write, as in most command-line tools:
    stdout holds what the file would, and no file named '-' is made (convert, validate and
    build made one). build's stdout then holds the deck alone (its report goes to stderr), a
    deck validate and fmt read from stdin as it stands."""
    args, start = TO_STDOUT[command]
    monkeypatch.chdir(tmp_path)
    r = run(*args, "-o", "-")
    assert r.code in (0, 1) and r.out.startswith(start), r
    assert "wrote" not in r.err and list(tmp_path.iterdir()) == [], r
    if command == "build":
        assert "built a casual deck" in r.err, r
        assert run("validate", "-", input=r.out).code == 0
        assert run("fmt", "-", input=r.out).out == r.out


@pytest.mark.parametrize("args", [
    ["build", "--collection", EXAMPLES / "collections" / "binder.txt", "-O", "json", "-o", "-"],
    ["simulate", GOOD / "casual-risky.txt", GOOD / "casual-savanna.yaml",
     GOOD / "casual-rainforest.json", "--games", "2", "--csv", "-"],
    ["simulate", GOOD / "casual-risky.txt", GOOD / "casual-savanna.yaml",
     GOOD / "casual-rainforest.json", "--games", "2", "--html", "-"],
    ["simulate", GOOD / "casual-risky.txt", GOOD / "casual-savanna.yaml", "--games", "2",
     "--save-games", "-"],
], ids=["build -O json -o -", "simulate --csv -", "simulate --html -",
        "simulate --save-games -"])
def test_dash_where_stdout_holds_the_report_is_a_usage_error(tmp_path, monkeypatch, args):
    """A file beside a report that goes to stdout (simulate's matrix files and game logs, build's
    deck with its JSON report) cannot go there too: '-' is a usage error naming the option
    (exit 2), never a file or folder named '-' made silently, as simulate did."""
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.code == 2 and ("'-'" in r.err or "-o -" in r.err), r
    assert "Traceback" not in r.err and "internal error" not in r.err, r
    assert list(tmp_path.iterdir()) == [] and not r.out, r


# -- concurrent edits (issue 24, 9) -------------------------------------------------------------
def _add_at_once(deck: str, card: str, barrier, results) -> None:
    """One `deckcli add` process: waits until all are ready, then edits the same deck."""
    import contextlib
    import io

    from deckcli.cli import run as cli_run

    barrier.wait()
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli_run(["add", deck, card])
    results.put((code, err.getvalue()))


def test_four_adds_at_once_all_land(tmp_path):
    """Four `add` processes started together on one deck: each edit lands (or says it did
    not, exit non-zero). Without the lock, most rounds ended with 2 or 3 copies added and
    every process exiting 0."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    deck = tmp_path / "deck.txt"
    for _round in range(5):
        deck.write_text("4 Walrus\n")
        barrier, results = ctx.Barrier(4), ctx.Queue()
        procs = [ctx.Process(target=_add_at_once, args=(str(deck), "Orca", barrier, results))
                 for _ in range(4)]
        for p in procs:
            p.start()
        outcomes = [results.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=120)
        landed = sum(code == 0 for code, _ in outcomes)
        assert all(code == 0 or err for code, err in outcomes), outcomes  # refused: says so
        text = deck.read_text()
        assert text.count("Orca") <= 1 and (f"{landed} Orca" in text), (text, outcomes)
        assert landed == 4, outcomes  # the wait is long enough for four quick edits
        assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]


def _hold_lock(path: str, held, release) -> None:
    from deckcli.files.lock import locked

    with locked(path):
        held.set()
        release.wait(60)


def test_an_edit_waits_a_bounded_time_then_refuses(tmp_path, monkeypatch):
    """While another process holds the deck's lock longer than the bound, `add` writes
    nothing and exits 2 saying why; once it is released, the edit goes through."""
    import multiprocessing

    import deckcli.files.lock as lock

    ctx = multiprocessing.get_context("fork")
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Walrus\n")
    held, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(deck), held, release))
    holder.start()
    try:
        assert held.wait(60)
        monkeypatch.setattr(lock, "WAIT_SECONDS", 0.2)
        r = run("add", deck, "Orca")
        assert r.code == 2, r
        assert "another deckcli process is writing this file (waited 0.2 s); nothing " \
               "written" in r.err, r
        assert deck.read_text() == "4 Walrus\n"
    finally:
        release.set()
        holder.join(60)
    r = run("add", deck, "Orca")
    assert r.code == 0, r
    assert deck.read_text() == "4 Walrus\n1 Orca\n"


def test_fmt_does_not_rewrite_a_read_only_deck(tmp_path):
    """A deck whose mode says read-only is not rewritten (exit 2, as formatters that write
    in place refuse it), while one already formatted is simply unchanged (exit 0)."""
    messy = tmp_path / "messy.txt"
    messy.write_text(MESSY)
    messy.chmod(0o444)
    r = run("fmt", messy)
    assert r.code == 2, r
    assert "messy.txt: is read-only (mode 0444); not replacing it" in r.err, r
    assert messy.read_text() == MESSY and (messy.stat().st_mode & 0o777) == 0o444
    tidy = tmp_path / "tidy.txt"
    tidy.write_text(MESSY)
    assert run("fmt", tidy).code == 0
    tidy.chmod(0o444)
    r = run("fmt", tidy)
    assert r.code == 0 and r.err == "0 files reformatted, 1 unchanged\n", r


# -- what a killed write leaves (issue 24, 9) ---------------------------------------------------
def _write_then_hang(path: str, ready, release) -> None:
    """A write stopped part-way: its temporary file holds half the bytes, its lock is held."""
    from deckcli.files.write import replacing

    with replacing(path) as fh:
        fh.write(b"4 Orca\n")
        fh.flush()
        ready.set()
        release.wait(60)
        fh.write(b"4 Walrus\n")


def _start_writer(ctx, path):
    ready, release = ctx.Event(), ctx.Event()
    proc = ctx.Process(target=_write_then_hang, args=(str(path), ready, release))
    proc.start()
    assert ready.wait(60)
    return proc, release


def test_a_write_killed_part_way_leaves_nothing_behind_after_the_next_write(tmp_path):
    """`kill -9` during a write leaves its temporary file (and lock file); the next write
    into the folder removes them, and the deck is as it was before the killed write. A
    temporary file of a write still going on is left alone, and that write lands."""
    import multiprocessing
    import signal

    ctx = multiprocessing.get_context("fork")
    deck, other, live = tmp_path / "deck.txt", tmp_path / "other.txt", tmp_path / "live.txt"
    for p in (deck, other, live):
        p.write_text("4 Walrus\n")
    going, release = _start_writer(ctx, live)
    killed, _ = _start_writer(ctx, deck)
    os.kill(killed.pid, signal.SIGKILL)
    killed.join(60)
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))
    assert len(left) == 4 and ".deck.txt.deckcli.lock" in left and \
        ".live.txt.deckcli.lock" in left, left
    # the next deckcli run that writes in the folder (a fresh process, as after a crash)
    proc = subprocess.run([sys.executable, "-m", "deckcli", "add", str(other), "Orca"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))
    temp = [n for n in left if n != ".live.txt.deckcli.lock"]  # the live write's files stay
    assert len(left) == 2 and len(temp) == 1, left
    assert temp[0].startswith(".live.txt.deckcli.") and temp[0].endswith(".tmp"), left
    assert deck.read_text() == "4 Walrus\n"
    release.set()
    going.join(60)
    assert live.read_text() == "4 Orca\n4 Walrus\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt", "live.txt", "other.txt"]


def test_a_write_leaves_other_programs_dot_lock_and_tmp_files_alone(tmp_path):
    """The sweep of killed writes' leftovers removes only what a deckcli write leaves (an
    empty `.NAME.deckcli.lock` beside `.NAME.deckcli.XXXXXXXX.tmp`): a user's `.notes.lock`
    that holds something, or a `.backup.20261203.tmp` with no lock file beside it, is not
    deckcli's, and a fmt of a deck in that folder used to delete both."""
    deck = tmp_path / "messy.txt"
    deck.write_text(MESSY)
    notes, backup = tmp_path / ".notes.lock", tmp_path / ".backup.20261203.tmp"
    notes.write_text("someone's notes\n")
    backup.write_text("a backup\n")
    r = run("fmt", deck)
    assert r.code == 0, r
    assert notes.read_text() == "someone's notes\n"
    assert backup.read_text() == "a backup\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".backup.20261203.tmp", ".notes.lock", "messy.txt"]


def test_a_write_never_deletes_a_users_files_named_like_its_lock_or_temporary_files(tmp_path):
    """The sweep and the lock touch only names no user file carries: a user's `.deck.txt.lock`
    (notes, a tool's marker), a `.deck.txt.backup01.tmp` beside the deck written, and an empty
    `.notes.lock` beside a `.notes.20261203.tmp` (the shape a killed deckcli write used to
    leave) all stay; `add` used to delete all four."""
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Walrus\n")
    users = {".deck.txt.lock": "my notes\n", ".deck.txt.backup01.tmp": "my backup\n",
             ".notes.lock": "", ".notes.20261203.tmp": "precious\n"}
    for name, text in users.items():
        (tmp_path / name).write_text(text)
    r = run("add", deck, "Orca")
    assert r.code == 0, r
    assert deck.read_text() == "4 Walrus\n1 Orca\n"
    assert {p.name: p.read_text() for p in tmp_path.iterdir() if p.name != "deck.txt"} == users


def test_a_file_whose_name_is_long_but_allowed_is_written_and_its_leftovers_swept(tmp_path):
    """A 250-byte file name is allowed, but `.NAME.deckcli.lock` and
    `.NAME.deckcli.XXXXXXXX.tmp` beside it are not: fmt, add, new and convert -o of such a file
    failed with 'could not write: File name too long'. The lock and temporary files now carry a
    shortened stem (the name's start and a digest), which the sweep of killed writes' leftovers
    knows too."""
    deck = tmp_path / ("d" * 246 + ".txt")
    deck.write_text(MESSY)
    r = run("fmt", deck)
    assert r.code == 0 and deck.read_text() != MESSY, r
    assert run("add", deck, "Orca").code == 0
    created = tmp_path / ("n" * 246 + ".txt")
    assert run("new", created).code == 0 and created.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([deck.name, created.name])
    # what a write of the long-named deck killed part-way leaves, swept by the next write
    from deckcli.files.lock import stem

    short = stem(deck.name)
    assert len(os.fsencode(f".{short}.deckcli.abcdefgh.tmp")) <= 255
    (tmp_path / f".{short}.deckcli.lock").write_bytes(b"")
    (tmp_path / f".{short}.deckcli.abcdefgh.tmp").write_text("half a deck")
    other = tmp_path / "other.txt"
    other.write_text(MESSY)
    proc = subprocess.run([sys.executable, "-m", "deckcli", "fmt", str(other)],  # a new process
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [deck.name, created.name, other.name])


def test_an_empty_output_path_is_named_as_one(tmp_path, monkeypatch):
    """`convert -o ''` names no file: the message says so (was: ': could not write: its folder
    does not exist'), exit 2, and nothing is written in the working folder."""
    deck = EXAMPLES / "good" / "championship-deep-divers.txt"
    monkeypatch.chdir(tmp_path)
    r = run("convert", deck, "--to", "yaml", "-o", "")
    assert r.code == 2 and "'-o' / '--output-file' / '--out': an empty value names no file" \
        in r.err, r
    assert "Traceback" not in r.err, r
    assert list(tmp_path.iterdir()) == []
