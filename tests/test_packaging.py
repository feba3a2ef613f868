"""The installed package carries its card database; the commands of README.md and docs/ work as written."""

import json
import os
import re
import shlex
from pathlib import Path

import pytest
from conftest import REPO, doc_pages, run

import deckcli
from deckcli.cards.cache import builtin_db_dir


def test_card_db_is_found_with_every_set():
    db = Path(builtin_db_dir())
    files = sorted(p.relative_to(db).as_posix() for p in db.rglob("*.yaml"))
    assert "animal-battle/ABS.yaml" in files
    assert "alpha-walrus/AWC.yaml" in files
    # the installed copy matches the repository's sources file for file
    src = sorted(p.relative_to(REPO / "card_db").as_posix() for p in (REPO / "card_db").rglob("*.yaml"))
    assert files == src


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="CI checks the non-editable install")
def test_ci_runs_against_the_installed_package():
    # .ci/run installs with 'pip install .', so the package must not be the source folder
    assert Path(deckcli.__file__).resolve().parent != (REPO / "deckcli").resolve()
    assert Path(builtin_db_dir()).parent == Path(deckcli.__file__).resolve().parent


def test_a_package_without_its_card_database_says_so(tmp_path):
    """A copy of the package without card_db/ (vendored by hand, say) stops with exit 2 and
    names what is missing, instead of reading every deck against an empty database."""
    import shutil
    import subprocess
    import sys

    shutil.copytree(Path(deckcli.__file__).resolve().parent, tmp_path / "deckcli",
                    ignore=shutil.ignore_patterns("card_db", "__pycache__"))
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Walrus\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "DECKCLI_CACHE_DIR": str(tmp_path / "c")}
    r = subprocess.run([sys.executable, "-m", "deckcli", "validate", str(deck)], env=env,
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2, r
    assert "built-in card database is missing" in r.stderr and "Traceback" not in r.stderr


def test_version():
    r = run("--version")
    assert r.code == 0, r
    assert r.out.strip() == f"deckcli {deckcli.__version__}"


def test_builtin_database_is_clean():
    r = run("db", "check")
    assert r.code == 0, r
    assert "no problems" in r.out


def _readme_commands():
    """Every ``$ deckcli`` line of a ``console`` block in README.md and docs/*.md."""
    for text in doc_pages().values():
        for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
            for line in block.splitlines():
                if line.startswith("$ deckcli "):
                    cmd, _, comment = line[2:].partition("  #")
                    m = re.search(r"exit (\d)", comment)
                    yield shlex.split(cmd)[1:], int(m.group(1)) if m else 0


@pytest.mark.parametrize("args,code", list(_readme_commands()),
                         ids=lambda v: " ".join(v) if isinstance(v, list) else str(v))
def test_readme_examples_run(args, code, monkeypatch, run_shared):
    monkeypatch.chdir(REPO)
    r = run_shared(*args)  # a build or simulate example is run once with test_readme's
    assert r.code == code, r
    assert "Traceback" not in r.err


def test_readme_promo_set_example_works(tmp_path):
    text = doc_pages()["docs/commands.md"]
    block = re.search(r"```yaml\n(# my-cards/spring-promos.yaml\n.*?)```", text, flags=re.S).group(1)
    folder = tmp_path / "my-cards"
    folder.mkdir()
    (folder / "spring-promos.yaml").write_text(block, encoding="utf-8")
    r = run("--db", folder, "cards", "show", "Walrus")
    assert r.code == 0 and "(PRM) P300" in r.out, r
    assert run("db", "check", "--db", folder).code == 0
    deck = tmp_path / "d.txt"
    deck.write_text("1 Walrus (PRM) P300\n1 Snow Leopard (PRM) P301 [promo]\n4 Orca\n4 Vaquita\n"
                    "4 Narwhal\n4 Coelacanth\n2 Koala\n", encoding="utf-8")
    assert run("--db", folder, "validate", deck).code == 0


_GC_PROBE = """
import gc, sys
import deckcli.batch, deckcli.entry as entry
seen = []
real = deckcli.batch.run_validation
def spy(*args, **kw):
    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
    return real(*args, **kw)
deckcli.batch.run_validation = spy
entry._leave = lambda code: print(code, seen)  # how the process would end: not tested here
entry.main(sys.argv[1:])
"""


@pytest.mark.parametrize("args,code", [(["validate", "examples/good/casual-risky.txt"], 0),
                                       (["validate", "examples/bad"], 1)])
def test_entry_point_collects_during_the_work(args, code, tmp_path):
    # deckcli.entry holds the garbage collector off while modules load; by the time decks are
    # checked it is on again (a long run collects its garbage) with start-up objects frozen.
    import subprocess
    import sys

    env = {**os.environ, "DECKCLI_CACHE_DIR": str(tmp_path)}
    p = subprocess.run([sys.executable, "-c", _GC_PROBE, *args], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.stdout.splitlines()[-1] == f"{code} [(True, True)]", (p.stdout, p.stderr)


_LEAVE_PROBE = """
import atexit, sys, threading
from deckcli.entry import _leave
sys.stdout.write("buffered, not yet flushed")  # stdout is a pipe: block-buffered
if sys.argv[1] == "handler":
    atexit.register(lambda: sys.stdout.write(" and the exit handler ran"))
elif sys.argv[1] == "thread":  # a thread that is not a daemon, done once the main one ends
    worker = threading.Thread(target=lambda: (threading.main_thread().join(),
                                              sys.stdout.write(" and the thread finished")))
    worker.start()
_leave(int(sys.argv[2]))
print("never printed")
"""


@pytest.mark.parametrize("case,said", [
    ("plain", ""),  # nothing left to do: the process ends at once, its output written
    ("handler", " and the exit handler ran"),  # the interpreter's usual end, handlers run
    ("thread", " and the thread finished"),  # and a thread still at work is waited for
])
@pytest.mark.parametrize("code", [0, 1, 2])
def test_the_console_script_ends_without_losing_output_or_work(case, said, code):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # block-buffered
    p = subprocess.run([sys.executable, "-c", _LEAVE_PROBE, case, str(code)], cwd=REPO,
                       env=env, capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (code, "buffered, not yet flushed" + said,
                                                  "")


_GONE_PROBE = """
import sys
from deckcli.entry import _leave
sys.stdout.write("more than the reader wanted")  # buffered: the pipe is block-buffered
sys.stdin.readline()  # the test closes its end of stdout, then says go on
_leave(int(sys.argv[1]))
"""


@pytest.mark.parametrize("code", [0, 1])
def test_a_reader_of_stdout_gone_before_the_end_leaves_the_commands_exit_code(code):
    # as '| head' does: the flush fails with a broken pipe; the exit code stays the command's,
    # and nothing is said about it (Python would print "Exception ignored" and exit 120)
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen([sys.executable, "-c", _GONE_PROBE, str(code)], cwd=REPO, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # the reader is gone before the process flushes
    _out, err = proc.communicate("go\n", timeout=60)
    assert (proc.returncode, err) == (code, "")


def test_the_console_script_keeps_its_exit_code_and_whole_output_on_a_pipe(tmp_path):
    # the installed entry point, output to a pipe (block-buffered) and the exit code kept
    import subprocess
    import sys

    env = {**os.environ, "DECKCLI_CACHE_DIR": str(tmp_path)}
    env.pop("PYTHONUNBUFFERED", None)  # as most shells run it: stdout block-buffered
    decks = sorted(str(p) for p in (REPO / "examples" / "bad").glob("*.txt"))
    p = subprocess.run([sys.executable, "-m", "deckcli", "validate", *decks, "--output",
                        "json"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr
    report = json.loads(p.stdout)  # the whole report: cut short, it would not parse
    assert [d["path"] for d in report["decks"]] == decks


def test_library_callers_keep_their_collector_state():
    import gc

    assert gc.isenabled()
    r = run("validate", str(REPO / "examples/good/casual-risky.txt"))
    assert r.code == 0, r
    assert gc.isenabled()  # only the console script's start-up switches it off
    gc.disable()
    try:
        run("--version")
        assert not gc.isenabled()  # and a caller's own choice is kept
    finally:
        gc.enable()


def test_the_license_file_is_the_license_pyproject_declares():
    """LICENSE holds the license and the holders pyproject.toml names, and the sdist carries it."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert project["project"]["license"] == {"text": "MIT"}
    assert text.startswith("MIT License\n") and "Permission is hereby granted" in text
    holders = [a["name"] for a in project["project"]["authors"]]
    assert re.search(rf"^Copyright \(c\) \d{{4}} {re.escape(holders[0])}$", text, flags=re.M)
    sdist = project["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert "LICENSE" in sdist


def test_the_package_ships_no_note_of_a_checked_index():
    """The note a cache keeps beside an index it found whole (`.checked`: that machine's inode
    and times) never ships: refreshing the shipped index leaves none beside it."""
    package = Path(deckcli.__file__).resolve().parent
    assert (package / "cards" / "bundled.sqlite").is_file()
    assert not sorted(package.rglob("*.checked"))


def test_a_batch_whose_reader_leaves_before_the_end_never_exits_0(tmp_path):
    # every deck is legal, but the reader stops after a few bytes while the report is still
    # being written: not every deck was reported, so the run must not say "all legal"
    import subprocess
    import sys

    good = REPO / "examples" / "good" / "championship-deep-divers.txt"
    folder = tmp_path / "decks"
    folder.mkdir()
    for i in range(3000):  # about 600 KB of report, far more than a pipe holds
        os.link(good, folder / f"deck{i:04d}.txt")
    env = {**os.environ, "DECKCLI_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONUNBUFFERED", None)
    proc = subprocess.Popen([sys.executable, "-m", "deckcli", "validate", str(folder)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(10)  # the report has begun
    proc.stdout.close()
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert subprocess.run([sys.executable, "-m", "deckcli", "validate", str(folder)], cwd=REPO,
                          env=env, capture_output=True, timeout=120).returncode == 0
