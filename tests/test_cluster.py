"""`--scheduler`: every way a Dask cluster fails is an exit 2 naming the address, never an
internal error, a Dask traceback or a hang; a lost worker's games are played again where a
worker is left, and the report stays the same (docs/safety.md, "Long runs").

Everything is real and on 127.0.0.1: a TCP server that accepts and never answers, one that
answers with bytes that are not Dask's, and a Dask scheduler and workers started as processes
(`dask scheduler`, `dask worker --no-nanny`) that a test kills while `deckcli simulate` plays
on them. Each wait is on something observable (a file or a line appearing, a process ending)
with a generous deadline; DECKCLI_SCHEDULER_TIMEOUT gives the command a short deadline of its
own, and the test waits longer than that.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest
from conftest import EXAMPLES, run, start_deckcli, text_of, wait_until

pytest.importorskip("distributed")

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"
SIMULATE = ["simulate", DEEP, SAVANNA, "--seed", "12", "-O", "json"]


@pytest.fixture
def peer():
    """A TCP server on 127.0.0.1 that answers each connection with ``reply`` (None: accepts
    and says nothing, keeping the socket open); yields a function making one."""
    servers: list[socket.socket] = []
    held: list[socket.socket] = []

    def make(reply: bytes | None) -> str:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        servers.append(server)

        def serve():
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                held.append(conn)
                if reply is not None:
                    try:
                        conn.sendall(reply)
                    except OSError:
                        pass

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield make
    for s in servers + held:
        s.close()


def short(seconds: str = "2") -> dict:
    return {**os.environ, "DECKCLI_SCHEDULER_TIMEOUT": seconds}


def finished(proc, what: str) -> int:
    wait_until(lambda: proc.poll() is not None, what)
    return proc.returncode


def test_a_peer_that_accepts_and_never_answers_is_exit_2_within_the_timeout(tmp_path, peer,
                                                                            reaper):
    """Only the TCP connect had a timeout: a peer that kept the socket open held the command
    for as long as it liked (10 minutes seen). The whole handshake has one now."""
    address = peer(None)
    proc, out, err = start_deckcli(tmp_path, *SIMULATE, "--games", "4", "--scheduler", address,
                                   env=short())
    reaper.append(proc.pid)
    assert finished(proc, "the command to give up on a silent peer") == 2, text_of(err)
    said = text_of(err)
    assert f"the peer at {address} accepted the connection but did not answer as a Dask " \
           "scheduler within 2 s" in said, said
    assert "Traceback" not in said and text_of(out) == ""


def test_a_peer_that_answers_with_other_bytes_is_exit_2_naming_it(peer):
    """Bytes that are not Dask's (an SSH server's greeting) were read as a frame of exabytes:
    'internal error: MemoryError'."""
    address = peer(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" * 4)
    r = run(*SIMULATE, "--games", "4", "--scheduler", address)
    assert r.code == 2 and f"the peer at {address} did not answer as a Dask scheduler" in r.err, r
    assert "internal error" not in r.err and not r.out, r


@pytest.mark.parametrize("address, said", [
    ("tls://127.0.0.1:9", "tls:// needs the client's certificate and key"),
    ("ucx://127.0.0.1:9", "this Dask cannot connect over ucx://"),
    ("tcp://127.0.0.1:9", "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
])
def test_an_address_dask_cannot_use_here_is_exit_2_naming_it(address, said):
    """tls:// without TLS settings and ucx:// without UCX were internal errors (TypeError)."""
    r = run(*SIMULATE, "--games", "4", "--scheduler", address)
    assert r.code == 2 and said in r.err and address in r.err, r
    assert "internal error" not in r.err and not r.out, r


# -- a real scheduler and workers, killed while the games are played ----------------------
class Dask:
    """A scheduler and workers, each a process of its own on 127.0.0.1."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.procs: list[subprocess.Popen] = []
        info = tmp_path / "scheduler.json"
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1",
                                                   "--port", "0", "--no-dashboard",
                                                   "--scheduler-file", info])
        wait_until(lambda: info.exists() and info.read_text().strip().endswith("}"),
                   "the scheduler's address file")
        self.address = json.loads(info.read_text())["address"]
        self.workers: list[subprocess.Popen] = []

    def _start(self, name: str, args) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "wb")
        env = {**os.environ, "DASK_TEMPORARY_DIRECTORY": str(self.tmp)}
        proc = subprocess.Popen([sys.executable, "-m", "dask", *map(str, args)], stdout=log,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        self.procs.append(proc)
        return proc

    def worker(self) -> subprocess.Popen:
        name = f"w{len(self.workers) + 1}"
        proc = self._start(name, ["worker", self.address, "--no-nanny", "--nthreads", "1",
                                  "--name", name, "--no-dashboard"])
        wait_until(lambda: "Registered to" in text_of(self.tmp / f"{name}.log"),
                   f"worker {name} to register with the scheduler")
        self.workers.append(proc)
        return proc

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()


@pytest.fixture
def dask_cluster(tmp_path):
    cluster = Dask(tmp_path)
    yield cluster
    cluster.stop()


def playing(tmp_path, address: str, games: int, seconds: str):
    """`simulate` on the cluster with progress lines, once its first games are in."""
    env = {**short(seconds), "DECKCLI_PROGRESS_INTERVAL": "0"}
    proc, out, err = start_deckcli(tmp_path, *SIMULATE, "--games", games, "--scheduler",
                                   address, env=env)
    wait_until(lambda: f"of {games:,} games" in text_of(err) or proc.poll() is not None,
               f"the first games played on the cluster (stderr: {text_of(err)})")
    assert proc.poll() is None, text_of(err)  # still playing: what follows is mid-run
    return proc, out, err


def test_a_lost_worker_s_games_are_played_by_the_one_left(tmp_path, dask_cluster, reaper,
                                                          run_shared):
    dask_cluster.worker()
    second = dask_cluster.worker()
    proc, out, err = playing(tmp_path, dask_cluster.address, 3000, "30")
    reaper.append(proc.pid)
    second.send_signal(signal.SIGKILL)
    assert finished(proc, "the run to end") == 0, text_of(err)
    alone = run_shared(*SIMULATE, "--games", "3000", "--jobs", "1")  # the same in both tests
    assert text_of(out) == alone.out, text_of(err)


def test_when_the_only_worker_is_lost_the_run_waits_for_another(tmp_path, dask_cluster, reaper,
                                                                run_shared):
    """The only worker killed mid-run took the scattered spec with it: every game left was
    cancelled ('FutureCancelledError', an internal error), and no worker coming back helped.
    The games left are now sent again, with the spec, once a worker is there."""
    only = dask_cluster.worker()
    proc, out, err = playing(tmp_path, dask_cluster.address, 3000, "60")
    reaper.append(proc.pid)
    only.send_signal(signal.SIGKILL)
    only.wait()
    dask_cluster.worker()
    assert finished(proc, "the run to end") == 0, text_of(err)
    alone = run_shared(*SIMULATE, "--games", "3000", "--jobs", "1")  # the same in both tests
    assert text_of(out) == alone.out, text_of(err)


def test_a_cluster_left_without_a_worker_is_exit_2_saying_what_was_not_played(
        tmp_path, dask_cluster, reaper):
    only = dask_cluster.worker()
    proc, out, err = playing(tmp_path, dask_cluster.address, 100000, "3")
    reaper.append(proc.pid)
    only.send_signal(signal.SIGKILL)
    assert finished(proc, "the run to stop") == 2, text_of(err)
    said = text_of(err)
    assert f"the Dask cluster at {dask_cluster.address} lost its workers and has had none " \
           "for 3 s; games " in said and "to 100,000 were not played" in said, said
    assert "Traceback" not in said and "internal error" not in said and text_of(out) == ""


def test_a_lost_scheduler_is_exit_2_without_dask_s_traceback(tmp_path, dask_cluster, reaper):
    """A scheduler killed mid-run: distributed.client logged a full traceback, then an
    internal error."""
    dask_cluster.worker()
    proc, out, err = playing(tmp_path, dask_cluster.address, 100000, "3")
    reaper.append(proc.pid)
    dask_cluster.scheduler.send_signal(signal.SIGKILL)
    assert finished(proc, "the run to stop") == 2, text_of(err)
    said = text_of(err)
    assert f"lost the Dask scheduler at {dask_cluster.address}" in said, said
    assert "to 100,000 were not played" in said, said
    assert "Traceback" not in said and "internal error" not in said and text_of(out) == ""
