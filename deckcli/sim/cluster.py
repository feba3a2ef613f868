"""Games on a Dask cluster (``--scheduler ADDRESS``): connecting within a deadline, and every
way a cluster fails said as what it is, naming the address (exit 2), never as an internal
error or a traceback from Dask's own log.

* **Connecting** (:func:`connect`): the whole handshake, not only the TCP connect, has
  :func:`deadline` seconds (``DECKCLI_SCHEDULER_TIMEOUT``, default 10): a peer that accepts
  the connection and says nothing, or answers with bytes that are not Dask's, is not a
  scheduler. An address Dask cannot use here (``tls://`` without TLS settings, ``ucx://``
  without UCX) is said before any connection.
* **Playing** (:func:`play`): chunks go out at most a window ahead of the one awaited. A chunk
  whose worker was lost (its future cancelled, the spec it needed gone with that worker) is
  sent again, with the spec scattered anew, once a worker is there to play it: a game's
  record depends only on the run's seed and its number, so the report is the same. When no
  worker is left for :func:`deadline` seconds, or the scheduler is gone, the run stops
  saying so and how far it got.
"""

from __future__ import annotations

import os

from deckcli.errors import DeckcliError, UsageError
from deckcli.sim.play import play_many

ENV = "DECKCLI_SCHEDULER_TIMEOUT"
DEFAULT = 10.0  # seconds for the whole handshake, and for a cluster without a worker
POLL = 0.5  # seconds between looks at the cluster while a chunk is awaited
AHEAD = 64  # chunks sent ahead of the one awaited (1,600 games)
TRIES = 4  # times the same chunk is sent before the run gives up on the cluster


def deadline() -> float:
    """Seconds the handshake may take, and a cluster may have no worker:
    ``DECKCLI_SCHEDULER_TIMEOUT``, else 10."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return DEFAULT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise UsageError(f"{ENV} must be a number of seconds above 0, not {raw!r}")
    return seconds


def connect(address: str, seconds: float):
    """A Dask client connected to the scheduler at ``address`` within ``seconds``, or
    UsageError (exit 2) saying why not."""
    import threading

    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs dask.distributed: pip install "
                         "'deckcli[cluster]'") from None
    _usable(address)
    _reachable(address, seconds)
    mute()
    box: dict = {}

    def attempt():
        try:
            box["client"] = Client(address, timeout=seconds, set_as_default=False)
        except BaseException as exc:  # noqa: BLE001 - said below, in this thread's caller
            box["error"] = exc

    # Dask bounds only the TCP connect: its handshake waits for the peer's first message
    # as long as the peer keeps the socket open. Here the whole of it has the deadline; a
    # peer that never answers leaves this (daemon) thread waiting, and the command goes on.
    waiting = threading.Thread(target=attempt, name="deckcli-dask-connect", daemon=True)
    waiting.start()
    waiting.join(seconds)
    if waiting.is_alive():
        raise UsageError(f"the peer at {address} accepted the connection but did not answer "
                         f"as a Dask scheduler within {seconds:g} s ({ENV} sets how long to "
                         "wait)")
    exc = box.get("error")
    if exc is None:
        return box["client"]
    if isinstance(exc, (OSError, TimeoutError)):
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    if isinstance(exc, ValueError):  # no address at all: no port, a scheme Dask does not know
        raise UsageError(f"--scheduler takes a Dask scheduler's address, such as "
                         f"tcp://host:8786, not {address!r}: {exc}") from None
    if isinstance(exc, Exception):  # bytes that are not Dask's (read as a frame of exabytes)
        raise UsageError(f"the peer at {address} did not answer as a Dask scheduler does "
                         f"({_said(exc)})") from None
    raise exc  # Ctrl-C, SIGTERM


def _usable(address: str) -> None:
    """UsageError for an address whose scheme Dask cannot connect over here."""
    scheme = address.partition("://")[0].lower() if "://" in address else "tcp"
    try:
        from distributed.comm.registry import get_backend

        get_backend(scheme).get_connector()
    except ValueError:
        return  # no such scheme: Client says so, with the address (below)
    except Exception as exc:  # noqa: BLE001 - a transport this Dask install lacks
        hint = " (pip install distributed-ucxx)" if scheme == "ucx" else ""
        raise UsageError(f"cannot use the Dask scheduler at {address}: this Dask cannot "
                         f"connect over {scheme}://{hint}: {_said(exc)}") from None
    if scheme in ("tls", "wss"):
        from distributed.security import Security

        if Security().get_connection_args("client").get("ssl_context") is None:
            raise UsageError(
                f"cannot use the Dask scheduler at {address}: {scheme}:// needs the client's "
                "certificate and key and the CA's in Dask's configuration "
                "(distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and .key; "
                "or DASK_DISTRIBUTED__COMM__TLS__CA_FILE and the like), and none is set")


def _reachable(address: str, seconds: float) -> None:
    """UsageError (exit 2) when nothing accepts a connection at ``address``'s host and port
    within ``seconds`` (a refused or unreachable peer is told from a silent one)."""
    import socket

    try:
        from distributed.comm.addressing import parse_address, parse_host_port

        scheme, where = parse_address(address)
        if scheme not in ("tcp", "tls", "ws", "wss"):
            return
        host, port = parse_host_port(where)
    except ValueError:
        return  # not an address: Client says so, with the address
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {why}") from None


def _said(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def mute() -> None:
    """Dask logs the failures it meets (a lost scheduler's full traceback, a worker removed)
    to stderr; deckcli says what failed itself, so those lines are dropped."""
    import logging

    # Dask's configuration gives "distributed", "distributed.client", "tornado" ... each a
    # handler of its own that writes to stderr: every one of them goes
    names = [n for n in list(logging.Logger.manager.loggerDict)
             if n.split(".")[0] in ("distributed", "tornado", "bokeh")]
    for name in {"distributed", "tornado", *names}:
        logger = logging.getLogger(name)
        for h in list(logger.handlers):
            logger.removeHandler(h)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False


class Lost(Exception):
    """A chunk's future was cancelled: its worker, or the spec it needed, is gone."""


def play(client, address: str, seconds: float, spec, parts: list[list[int]], progress=None):
    """The records of each chunk of ``parts``, in order, played on the cluster."""
    from distributed.scheduler import KilledWorker

    scattered = _scatter(client, spec)
    futures: dict = {}
    tries: dict[int, int] = {}
    emitted, sent = 0, 0
    while emitted < len(parts):
        while sent < len(parts) and sent < emitted + AHEAD:
            futures[sent] = client.submit(play_many, scattered, parts[sent], pure=False)
            sent += 1
        try:
            part = _result(client, address, seconds, futures[emitted], parts, emitted)
        except (Lost, KilledWorker) as exc:
            tries[emitted] = tries.get(emitted, 0) + 1
            if tries[emitted] >= TRIES:
                raise DeckcliError(f"the Dask cluster at {address} lost the workers playing "
                                   f"games {_games(parts, emitted)} {TRIES} times ({_said(exc)}); "
                                   f"{_left(parts, emitted)}") from None
            _worker_there(client, address, seconds, parts, emitted)
            scattered = _scatter(client, spec)  # the copies may have gone with the workers
            for i in range(emitted, sent):  # a chunk not yet played is sent again
                if futures[i].status != "finished":
                    futures[i] = client.submit(play_many, scattered, parts[i], pure=False)
            continue
        del futures[emitted]
        yield part
        if progress:
            progress(len(parts[emitted]))
        emitted += 1


def _scatter(client, spec):
    # a key of its own for every run: scattered by content, a spec sent again (the next
    # --until-ci batch, a candidate raced again) shares the key of the last one, and the
    # scheduler drops it with the last run's futures ("lost dependencies")
    return client.scatter(spec, broadcast=True, hash=False)


def _result(client, address: str, seconds: float, future, parts, i: int) -> list[dict]:
    """The records of chunk ``i``, looking at the cluster every :data:`POLL` seconds while
    they are awaited (a scheduler gone, no worker left): DeckcliError (exit 2) then."""
    import time
    from concurrent.futures import CancelledError

    since = None  # when the cluster was first seen without a worker or a scheduler
    while True:
        try:
            return future.result(timeout=POLL)
        except TimeoutError:
            pass
        except CancelledError as exc:
            _scheduler_there(client, address, parts, i)
            raise Lost(_said(exc)) from None
        except OSError as exc:  # the connection to the scheduler broke
            _scheduler_there(client, address, parts, i, exc)
            raise
        _scheduler_there(client, address, parts, i)
        if _workers(client):
            since = None
        elif since is None:
            since = time.monotonic()
        elif time.monotonic() - since > seconds:
            raise DeckcliError(f"the Dask cluster at {address} has had no worker for "
                               f"{seconds:g} s; {_left(parts, i)}")


def _scheduler_there(client, address, parts, i, exc=None, waiting: bool = True) -> None:
    """DeckcliError once the client has lost the scheduler (or, unless ``waiting``, is still
    trying to connect to it again)."""
    if client.status not in (("running", "connecting") if waiting else ("running",)):
        why = f" ({_said(exc)})" if exc is not None else ""
        raise DeckcliError(f"lost the Dask scheduler at {address}{why}; {_left(parts, i)}")


def _worker_there(client, address, seconds, parts, i) -> None:
    """Wait (at most ``seconds``) until the cluster has a worker to play chunk ``i`` again."""
    import time

    end = time.monotonic() + seconds
    while not _workers(client):
        _scheduler_there(client, address, parts, i)
        if time.monotonic() > end:
            _scheduler_there(client, address, parts, i, waiting=False)
            raise DeckcliError(f"the Dask cluster at {address} lost its workers and has had "
                               f"none for {seconds:g} s; {_left(parts, i)}")
        time.sleep(POLL)


def _workers(client) -> int:
    try:
        return len(client.scheduler_info(n_workers=-1).get("workers", {}))
    except Exception:  # noqa: BLE001 - the scheduler is asked again at the next look
        return 0


def _games(parts, i: int) -> str:
    """'1,201 to 1,225' (counted from 1), the games of chunk ``i``."""
    return f"{parts[i][0] + 1:,} to {parts[i][-1] + 1:,}"


def _left(parts, i: int) -> str:
    """'games 1,201 to 20,000 were not played' (counted from 1), chunk ``i`` and after."""
    return f"games {parts[i][0] + 1:,} to {parts[-1][-1] + 1:,} were not played"
