"""Games on a Dask cluster (``--scheduler ADDRESS``): connecting within a deadline, and every
way the connection fails said as what it is, naming the address (exit 2), never as an
internal error or a traceback from Dask's own log.

* **Connecting** (:func:`connect`): the whole handshake, not only the TCP connect, has
  :func:`deadline` seconds (``DECKCLI_SCHEDULER_TIMEOUT``, default 10): a peer that accepts
  the connection and says nothing, or answers with bytes that are not Dask's, is not a
  scheduler. An address Dask cannot use here (``tls://`` without TLS settings, ``ucx://``
  without UCX) is said before any connection.
"""

from __future__ import annotations

import os

from deckcli.errors import UsageError

ENV = "DECKCLI_SCHEDULER_TIMEOUT"
DEFAULT = 10.0  # seconds for the whole handshake


def deadline() -> float:
    """Seconds the handshake may take: ``DECKCLI_SCHEDULER_TIMEOUT``, else 10."""
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
    """Dask logs the failures it meets to stderr; deckcli says what failed itself, so those
    lines are dropped."""
    import logging

    for name in ("distributed", "tornado"):
        logger = logging.getLogger(name)
        for h in list(logger.handlers):
            logger.removeHandler(h)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False
