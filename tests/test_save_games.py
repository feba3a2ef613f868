"""`simulate --save-games DIR`: each game's log is written as soon as it and the games before
it are played, in bounded memory; a run that stops part-way says exactly which logs it wrote;
logs of an earlier, longer run are named, never passed over (docs/safety.md, "Long runs").

The stops are real: Ctrl-C sent to a running command's process group, and a file-size limit
(RLIMIT_FSIZE, what a full disk does to the next write: it fails) on a real process. Every
wait is on a file appearing or a process ending, with a generous deadline.
"""

from __future__ import annotations

import os
import re
import signal
import sys

import pytest
from conftest import EXAMPLES, run, start_deckcli, text_of, wait_until

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"


def logs_in(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def names(first: int, last: int) -> list[str]:
    """game-0000F.yaml to game-0000L.yaml (counted from 1)."""
    return [f"game-{n:05d}.yaml" for n in range(first, last + 1)]


def written_by_the_run(err: str) -> int:
    """The last game whose log the note on stderr says this run wrote."""
    found = re.search(r"the logs of games 1 to ([\d,]+) were written by this run "
                      r"\(game-00001\.yaml to (game-\d+\.yaml)\), no later game's", err)
    assert found, err
    last = int(found.group(1).replace(",", ""))
    assert found.group(2) == f"game-{last:05d}.yaml", err
    return last


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a process group's Ctrl-C")
@pytest.mark.parametrize("stop, jobs, said", [("ctrl-c", "2", "deckcli: aborted"),
                                              ("sigterm", "1", "deckcli: terminated")])
def test_logs_are_written_as_games_end_and_ctrl_c_says_which_were(tmp_path, reaper, stop, jobs,
                                                                  said):
    """Every log was kept in memory until the run ended (about 11.5 KB a game: 262 MB for
    20,000 games, and --games allows 10,000,000), so nothing was on disk while a run went on;
    and a run stopped part-way said 'nothing written' beside the logs it had written. Now a
    log is on disk as soon as its game is played, and Ctrl-C (to the command and its
    workers) or SIGTERM (to the command alone) says exactly which are."""
    saved = tmp_path / "games"
    proc, out, err = start_deckcli(tmp_path, "simulate", DEEP, SAVANNA, "--games", "10000000",
                                   "--jobs", jobs, "--seed", "3", "--save-games", saved)
    reaper.append(proc.pid)
    wait_until(lambda: (saved / "game-00003.yaml").exists(), "game 3's log, while the run goes "
               f"on (stderr: {text_of(err)})")
    if stop == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, signal.SIGTERM)
    wait_until(lambda: proc.poll() is not None, "the command to stop")
    assert proc.returncode == 2 and said in text_of(err), text_of(err)
    last = written_by_the_run(text_of(err))
    assert last >= 3 and logs_in(saved) == names(1, last), text_of(err)  # no temporary file
    assert text_of(out) == ""
    r = run("referee", "check", saved / f"game-{last:05d}.yaml")
    assert r.code == 0, r  # the last one written is whole


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a file-size limit on a process (POSIX)")
def test_a_write_that_fails_part_way_says_which_logs_were_written(tmp_path):
    """A full disk (here: a limit on the size of a file the process writes, which makes the
    next write fail as a full disk does) after some logs were written said 'nothing
    written'. The error names the log that failed and a note the ones written before it."""
    import resource

    args = ["simulate", DEEP, SAVANNA, "--games", "40", "--seed", "5"]
    whole = tmp_path / "whole"
    r = run(*args, "--save-games", whole)  # the logs the limit cuts (and the index cache made)
    assert r.code == 0, r
    sizes = [(whole / name).stat().st_size for name in names(1, 40)]
    limit = max(sizes[:3]) + 1  # the first three fit; a later, longer game's does not
    first_too_big = next(i for i, size in enumerate(sizes) if size > limit)

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    saved = tmp_path / "games"
    proc, out, err = start_deckcli(tmp_path, *args, "--jobs", "1", "--save-games", saved,
                                   preexec_fn=limited)
    wait_until(lambda: proc.poll() is not None, "the command to stop")
    assert proc.returncode == 2 and "Traceback" not in text_of(err), text_of(err)
    failed = f"game-{first_too_big + 1:05d}.yaml: could not write: File too large"
    assert failed in text_of(err), text_of(err)
    assert written_by_the_run(text_of(err)) == first_too_big
    assert logs_in(saved) == names(1, first_too_big)
    assert all((saved / n).read_bytes() == (whole / n).read_bytes() for n in logs_in(saved))
    assert text_of(out) == ""


def test_the_logs_are_the_same_whatever_jobs_says(tmp_path):
    args = ["simulate", DEEP, SAVANNA, "--games", "120", "--seed", "6", "-O", "json"]
    one = run(*args, "--jobs", "1", "--save-games", tmp_path / "one")
    two = run(*args, "--jobs", "2", "--save-games", tmp_path / "two")
    assert one.code == two.code == 0 and one.out == two.out, two
    assert logs_in(tmp_path / "one") == logs_in(tmp_path / "two") == names(1, 120)
    for name in names(1, 120):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_older_logs_past_the_run_are_named_and_left_as_they_were(tmp_path):
    """Logs of an earlier run of more games stayed beside the new ones without a word, as if
    this run had played them."""
    saved = tmp_path / "games"
    saved.mkdir()
    for name in names(1, 10):
        (saved / name).write_text(f"# an earlier run's {name}\n", encoding="utf-8")
    r = run("simulate", DEEP, SAVANNA, "--games", "4", "--seed", "1", "--save-games", saved)
    assert r.code == 0, r
    assert ("also holds 6 older game logs (game-00005.yaml to game-00010.yaml) that this run "
            "of 4 games did not write") in r.err, r
    assert all((saved / n).read_text(encoding="utf-8") == f"# an earlier run's {n}\n"
               for n in names(5, 10))
    assert all(run("referee", "check", saved / n).code == 0 for n in names(1, 4))
    r = run("simulate", DEEP, SAVANNA, "--games", "10", "--seed", "1", "--save-games", saved)
    assert r.code == 0 and "older" not in r.err, r
