"""`--scheduler`: an address that is not a Dask scheduler's, or one Dask cannot use here, is an
exit 2 naming it, never an internal error or a hang (docs/safety.md, "Long runs").

Everything is real and on 127.0.0.1: a TCP server that accepts and never answers, and one
that answers with bytes that are not Dask's. DECKCLI_SCHEDULER_TIMEOUT gives the command a
short deadline of its own; the test waits on the command's exit, with a longer one.
"""

from __future__ import annotations

import os
import socket
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
