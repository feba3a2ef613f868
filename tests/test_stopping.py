"""A long run stops when asked, at once, and leaves no process behind (docs/safety.md, "Long
runs").

Real processes: `deckcli simulate` and `build` with `--jobs 2` in a process group of their
own (as a shell runs a command in the foreground), sent the signals a terminal, a supervisor
or `kill -9` sends. Every wait is on something observable (the worker processes appearing,
the command's exit, a process id gone), polled with a generous deadline; nothing here is
timed. Linux only: the worker processes are found in /proc.
"""

from __future__ import annotations

import os
import signal
import sys

import pytest
from conftest import EXAMPLES, child_pids, pid_gone, start_deckcli, text_of, wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="finds worker processes in /proc (Linux)")

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"
BINDER = EXAMPLES / "collections" / "binder.txt"

#: runs far too long to finish while a test waits: only a prompt stop ends them in time
ENDLESS = {
    "simulate": ["simulate", DEEP, SAVANNA, "--games", "10000000", "--jobs", "2", "--seed", "1"],
    "build": ["build", "--collection", BINDER, "--against", SAVANNA, "--games", "10000000",
              "--measure", "100000", "--jobs", "2", "--seed", "1"],
}


def workers_of(proc, count: int = 2) -> list[int]:
    """The ids of ``proc``'s ``count`` worker processes, once they are running."""
    return wait_until(lambda: (lambda w: w if len(w) >= count else None)(child_pids(proc.pid)),
                      f"{count} workers of pid {proc.pid}")


def start(tmp_path, command: str):
    """``deckcli COMMAND ...`` (an endless run), once its two workers are running: (the
    process, the workers' ids, its stdout file, its stderr file)."""
    proc, out, err = start_deckcli(tmp_path, *ENDLESS[command])
    return proc, workers_of(proc), out, err


def ended(proc) -> int:
    """The exit code of ``proc``, once it has exited."""
    wait_until(lambda: proc.poll() is not None, f"pid {proc.pid} to exit")
    return proc.returncode


@pytest.mark.parametrize("command", ["simulate", "build"])
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_stops_a_run_on_worker_processes_at_once(tmp_path, reaper, command, presses):
    """Ctrl-C during `simulate --jobs 2` printed 'aborted' only once every queued game had
    been played (280 s for 100,000 games), and a second Ctrl-C left it hanging for good. The
    first now stops the workers and the command (exit 2, 'aborted'); a second one, right
    after, ends it at once if it has not ended yet (killed by the signal, as the shell's 130
    says), never with a traceback."""
    proc, workers, out, err = start(tmp_path, command)
    reaper.append(proc.pid)
    for _ in range(presses):
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole group
    code = ended(proc)
    if presses == 1 or code != -signal.SIGINT:
        assert code == 2 and "deckcli: aborted" in text_of(err), text_of(err)
    assert "Traceback" not in text_of(err) and text_of(out) == "", text_of(err)
    wait_until(lambda: all(pid_gone(w) for w in workers), f"workers {workers} to end")


@pytest.mark.parametrize("command", ["simulate", "build"])
def test_sigterm_to_the_command_stops_its_workers_too(tmp_path, reaper, command):
    """SIGTERM to the parent of `simulate --jobs 2` or `build --jobs 2` left its workers
    running, re-parented to PID 1 (alive 40 s later). Now they are stopped first."""
    proc, workers, out, err = start(tmp_path, command)
    reaper.append(proc.pid)
    os.kill(proc.pid, signal.SIGTERM)  # the parent alone, as a supervisor sends it
    assert ended(proc) == 2 and "deckcli: terminated" in text_of(err), text_of(err)
    assert "Traceback" not in text_of(err)
    wait_until(lambda: all(pid_gone(w) for w in workers), f"workers {workers} to end")


def test_workers_end_with_a_command_killed_outright(tmp_path, reaper):
    """`kill -9` gives the command no chance to stop anything: the workers end by
    themselves when their parent does."""
    proc, workers, _out, _err = start(tmp_path, "simulate")
    reaper.extend(workers)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    wait_until(lambda: all(pid_gone(w) for w in workers), f"workers {workers} to end")


@pytest.mark.parametrize("lost", [1, 2])
def test_the_games_of_a_lost_worker_are_played_again_and_the_report_is_the_same(tmp_path,
                                                                                 reaper, lost,
                                                                                 run_shared):
    """A worker killed from outside (out of memory, say) broke the whole pool (an internal
    error). Its games are now played again by the worker left, or by the command itself when
    none is: the report is byte for byte that of --jobs 1."""
    args = ["simulate", DEEP, SAVANNA, "--games", "1000", "--seed", "8", "-O", "json"]
    proc, out, err = start_deckcli(tmp_path, *args, "--jobs", "2")
    reaper.append(proc.pid)
    workers = workers_of(proc)
    for w in workers[:lost]:
        os.kill(w, signal.SIGKILL)
    assert proc.poll() is None  # killed while the command still played its games
    assert ended(proc) == 0, text_of(err)
    alone = run_shared(*args, "--jobs", "1")  # the same for either worker lost
    assert alone.code == 0 and text_of(out) == alone.out, text_of(err)


def test_a_worker_gone_before_it_is_handed_games_is_a_lost_worker_too():
    """A worker that ended while idle was found out when handed its next chunk: the send's
    BrokenPipeError stopped the run. Its chunk now goes to the worker left."""
    from deckcli.cards import open_index
    from deckcli.sim.play import Spec
    from deckcli.sim.pool import Processes
    from deckcli.sim.run import load_deck
    from deckcli.sim.where import Local, chunks

    index = open_index()
    a, b = (load_deck(str(p), index, None) for p in (DEEP, SAVANNA))
    spec = Spec("animal-battle", 9, {"a": a.cards, "b": b.cards}, ["p1", "p2"],
                {"p1": "a", "p2": "b"}, {"p1": "greedy", "p2": "greedy"}, {}, 200)
    pool = Processes(2)
    try:
        pool._start()
        gone = pool.workers[0].process
        os.kill(gone.pid, signal.SIGKILL)
        gone.join()
        parts = [(spec, c) for c in chunks(list(range(100)))]
        got = [r for part in pool.records(parts) for r in part]
    finally:
        pool.close()
    assert got == Local().run(spec, list(range(100)))


def test_runs_handed_out_together_each_get_their_own_games_and_the_workers_stay():
    """A build hands a race's games against every opponent out at once (``run_all``): each
    run gets the records ``Local`` plays for it, every game is counted, and the workers are
    still there for the next run (they were stopped when the records were read but the
    pool's last answer was not, and the rest of the build was played in one process)."""
    from deckcli.cards import open_index
    from deckcli.sim.play import Spec
    from deckcli.sim.run import load_deck
    from deckcli.sim.where import Local, Pool, shared_out

    index = open_index()
    a, b = (load_deck(str(p), index, None) for p in (DEEP, SAVANNA))
    one, two = (Spec("animal-battle", seed, {"a": a.cards, "b": b.cards}, ["p1", "p2"],
                     {"p1": "a", "p2": "b"}, {"p1": "greedy", "p2": "greedy"}, {}, 200)
                for seed in (4, 5))
    tasks = [(one, list(range(12))), (two, list(range(3, 10))), (one, list(range(12, 20)))]
    counted: list[int] = []
    pool = Pool(2)
    try:
        got = pool.run_all(tasks, counted.append)
        alive = [w.process.is_alive() for w in pool.pool.workers]
        after = pool.run(two, list(range(6)))
    finally:
        pool.close()
    assert got == [Local().run(spec, numbers) for spec, numbers in tasks]
    assert sum(counted) == 27 and alive == [True, True]
    assert after == Local().run(two, list(range(6)))
    # 20 games against each of three opponents, for two workers: six chunks of 10
    assert [len(p) for _, _, p in shared_out([(one, list(range(20)))] * 3, 2)] == [10] * 6
