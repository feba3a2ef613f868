"""Stopping and memory of long runs: what a Ctrl-C, a second Ctrl-C, a SIGTERM to the parent
and ``--save-games`` cost, measured on real processes.

* Ctrl-C during ``simulate --jobs 2 --games N``: the terminal sends SIGINT to the whole
  foreground process group; here the command runs in a process group of its own and gets the
  signal there, once its workers are playing. Printed: seconds from the signal to the exit,
  the exit code, and whether any worker outlived the command.
* A second Ctrl-C two seconds after the first, if the command is still running: does it exit
  (within a minute; it is killed otherwise, and the figure says "hung").
* SIGTERM to the parent alone (``simulate`` and ``build``, ``--jobs 2``): how many of its
  workers are still alive five seconds after it is gone.
* ``simulate --save-games DIR`` on G games (default 20,000): peak memory of the command
  against the same run without it.

    python benchmarks/signals.py [--games 100000] [--save 20000]

No figure here is timed against a peer: each is a bound a person waits on (seconds to stop)
or a size (MiB), printed as measured.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from _common import REPO, deckcli_cmd, timed_env

DEEP = REPO / "examples" / "good" / "championship-deep-divers.txt"
SAVANNA = REPO / "examples" / "good" / "casual-savanna.yaml"
COLLECTION = REPO / "examples" / "collections" / "binder.txt"


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def start(args: list[str]) -> tuple[subprocess.Popen, list[int]]:
    """The command in a process group of its own, once it has two workers playing."""
    proc = subprocess.Popen([*deckcli_cmd(), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            env=timed_env())
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        workers = children(proc.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.05)
    time.sleep(2)  # the workers are well into their games
    return proc, workers


def ctrl_c(games: int) -> dict:
    proc, workers = start(["simulate", str(DEEP), str(SAVANNA), "--games", str(games),
                           "--jobs", "2", "--seed", "1"])
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        code = proc.wait(timeout=2)
        second = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)  # a second Ctrl-C, 2 s after the first
        second = True
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            code = None
    took = time.monotonic() - sent
    if code is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    return {"seconds": round(took, 2), "exit": code, "second_ctrl_c": second,
            "hung": code is None, "workers_left": len(left)}


def sigterm(args: list[str]) -> dict:
    proc, workers = start(args)
    os.kill(proc.pid, signal.SIGTERM)
    code = proc.wait(timeout=60)
    time.sleep(5)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    return {"exit": code, "workers": len(workers), "alive_5s_later": len(left)}


def peak_mib(args: list[str]) -> float:
    proc = subprocess.Popen([*deckcli_cmd(), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=timed_env())
    _pid, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, args
    return round(usage.ru_maxrss / 1024, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--save", type=int, default=20_000)
    args = ap.parse_args()
    out = {"ctrl_c": ctrl_c(args.games)}
    print(f"Ctrl-C, simulate --jobs 2 --games {args.games:,}: {out['ctrl_c']}", flush=True)
    out["sigterm_simulate"] = sigterm(["simulate", str(DEEP), str(SAVANNA), "--games",
                                       str(args.games), "--jobs", "2"])
    print(f"SIGTERM to simulate --jobs 2: {out['sigterm_simulate']}", flush=True)
    out["sigterm_build"] = sigterm(["build", "--collection", str(COLLECTION), "--games",
                                    "100000", "--jobs", "2", "--seed", "1"])
    print(f"SIGTERM to build --jobs 2: {out['sigterm_build']}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        base = ["simulate", str(DEEP), str(SAVANNA), "--games", str(args.save), "--seed", "1",
                "--jobs", "1"]
        out["save_games_mib"] = peak_mib([*base, "--save-games", folder])
        out["without_mib"] = peak_mib(base)
    print(f"peak memory, simulate --games {args.save:,} --jobs 1: with --save-games "
          f"{out['save_games_mib']} MiB, without {out['without_mib']} MiB", flush=True)
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
