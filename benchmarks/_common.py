"""Helpers shared by the benchmark scripts: run a command, time it, read its peak memory.

Benchmarks print ratios against a baseline measured in the same run, side by side
(alternating), so machine speed cancels out. They are never part of the test suite.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def deckcli_cmd() -> list[str]:
    """The installed console script next to this interpreter, else `python -m deckcli`."""
    exe = Path(sys.executable).with_name("deckcli")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("deckcli")
    return [found] if found else [sys.executable, "-m", "deckcli"]


def timed_env(env: dict | None = None) -> dict:
    """The environment a timed command runs in: this one, with ``env`` over it, less
    PYTHONDONTWRITEBYTECODE (an installed package has its bytecode, compiled by pip; without
    it every run would compile deckcli's modules again and time that instead)."""
    out = {**os.environ, **(env or {})}
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


def run_once(cmd: list[str], env: dict | None = None, stdin=None) -> tuple[float, int, int]:
    """(wall seconds, exit code, peak RSS in KiB) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=stdin, env=timed_env(env))
    _pid, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, os.waitstatus_to_exitcode(status), usage.ru_maxrss


def compare(cmds: dict[str, list[str]], runs: int = 15, env: dict | None = None,
            warmup: int = 2) -> dict[str, dict]:
    """Alternate the commands `runs` times; median wall time and max RSS for each."""
    for _ in range(warmup):
        for cmd in cmds.values():
            run_once(cmd, env)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    rss: dict[str, int] = {k: 0 for k in cmds}
    codes: dict[str, int] = {}
    for _ in range(runs):
        for name, cmd in cmds.items():
            t, code, peak = run_once(cmd, env)
            times[name].append(t)
            rss[name] = max(rss[name], peak)
            codes[name] = code
    return {k: {"median": statistics.median(v), "min": min(v), "rss_kib": rss[k],
                "exit": codes[k]} for k, v in times.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def instructions(cmd: list[str], env: dict | None = None) -> int | None:
    """Instructions one run of ``cmd`` executes, counted by valgrind's callgrind (the same
    count run after run, whatever else the machine does; worker processes are followed).
    None where valgrind is not installed."""
    import re

    if shutil.which("valgrind") is None:
        return None
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                           "--callgrind-out-file=/dev/null", *cmd], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=timed_env(env))
    counts = [int(n.replace(",", "")) for n in re.findall(r"Collected : ([\d,]+)",
                                                            proc.stderr)]
    return sum(counts) if counts else None

