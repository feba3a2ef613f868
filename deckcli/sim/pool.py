"""Worker processes for ``--jobs N`` (simulate, build, suggest): games played in N processes,
records handed back in game-number order, and no process left behind however the run ends.

Each worker is a process of its own with a pipe of its own to this one: it takes one chunk
of games at a time, plays it and sends the records back. Nothing is shared between workers
(no queue, no lock), so a worker that is killed cannot block another, and its chunk is
played again by one that is left (or, when none is, here).

How a run ends, and what becomes of the workers:

* **done**: each worker is told to stop and exits;
* **Ctrl-C** (SIGINT, sent by the terminal to every process of the command): the workers
  ignore it, this process stops them at once (SIGTERM, then SIGKILL for one still there a
  few seconds later) and the command says ``aborted``;
* **SIGTERM to this process** (a supervisor, a CI job cancelled): while a run goes on, it
  unwinds this process as Ctrl-C does (:class:`~deckcli.errors.Terminated`), so the
  workers are stopped first (:class:`deckcli.sim.where.Stops`);
* **a second Ctrl-C or SIGTERM**, or **this process killed outright** (SIGKILL, a crash):
  on Linux the kernel sends each worker SIGTERM when the process that started it ends
  (``prctl(PR_SET_PDEATHSIG)``); elsewhere a worker's thread sees that its parent has
  changed, and everywhere a worker that finds its pipe closed exits.
"""

from __future__ import annotations

import os
import signal
import sys
from bisect import insort
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcli.sim.play import Spec

#: seconds a worker stopped with SIGTERM gets to go before it is killed (SIGKILL)
GRACE = 5.0


class Worker:
    """One worker process and this process's end of its pipe."""

    __slots__ = ("process", "conn", "token", "chunk")

    def __init__(self, context):
        here, there = context.Pipe()
        # the worker's parent is this process, unless a fork server starts it (then the
        # server is, and it ends when this process does)
        parent = None if context.get_start_method() == "forkserver" else os.getpid()
        self.process = context.Process(target=serve, args=(there, parent), daemon=True,
                                       name="deckcli-worker")
        # Ctrl-C and SIGTERM wait (blocked) until the worker has set its own handling: a
        # copy of this process's handlers would raise in the worker as it starts
        held = _hold(_STOPS)
        try:
            self.process.start()
        finally:
            _hold(held, release=True)
        there.close()  # only the worker holds its end: its death closes the pipe here
        self.conn = here
        self.token = None  # the spec it was last sent (a spec goes to a worker once a run)
        self.chunk = None  # the chunk it is playing


class Processes:
    """``jobs`` worker processes, started when the first games are to be played;
    :meth:`records` plays a run's chunks on them."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.workers: list[Worker] = []
        self.started = False

    def _start(self) -> None:
        import multiprocessing

        self.started = True
        context = multiprocessing.get_context()
        for _ in range(self.jobs):
            self.workers.append(Worker(context))

    def records(self, parts: list[tuple[Spec, list[int]]], progress=None):
        """The records of each chunk of ``parts`` (a spec and its game numbers), in order, as
        soon as it and every chunk before it are played. At most ``4 * jobs`` chunks are out
        or waiting at once, so the records kept here stay bounded however long the run. Any
        exception (Ctrl-C, SIGTERM, an error in a game) stops the workers before it goes
        on."""
        from multiprocessing.connection import wait

        todo = list(range(len(parts)))  # chunk numbers not handed out, in order
        todo.reverse()  # the next is the last: popped
        done: dict[int, list] = {}
        window = 4 * max(1, self.jobs)
        emitted = 0
        try:
            if not self.started:
                self._start()
            while emitted < len(parts):
                for w in list(self.workers):
                    if w.chunk is None and todo and todo[-1] < emitted + window:
                        w.chunk = todo.pop()
                        spec, numbers = parts[w.chunk]
                        try:
                            w.conn.send((w.chunk, spec if w.token != spec.token else None,
                                         numbers))
                        except OSError:  # it ended while idle: its chunk goes to another
                            self._lose(w, todo)
                            continue
                        w.token = spec.token
                while emitted in done:
                    yield done.pop(emitted)
                    if progress:
                        progress(len(parts[emitted][1]))
                    emitted += 1
                if emitted == len(parts):
                    break
                busy = [w for w in self.workers if w.chunk is not None]
                if not busy:  # every worker is gone: what is left is played here
                    from deckcli.sim.play import play_many

                    i = todo.pop()
                    done[i] = play_many(*parts[i])
                    continue
                ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
                for w in busy:
                    if w.conn in ready or w.process.sentinel in ready:
                        self._receive(w, done, todo)
        except BaseException:
            self.abort()
            raise

    def _receive(self, w: Worker, done: dict, todo: list) -> None:
        try:
            if not w.conn.poll():  # the process ended without answering
                raise EOFError
            i, records, error = w.conn.recv()
        except (EOFError, OSError):  # lost (killed, out of memory): its chunk is played again
            self._lose(w, todo)
            return
        if error is not None:
            raise error
        done[i] = records
        w.chunk = None

    def _lose(self, w: Worker, todo: list) -> None:
        """``w`` is gone: its chunk goes back to be handed out again, first in line."""
        insort(todo, w.chunk, key=lambda i: -i)
        w.chunk = None
        self.workers.remove(w)
        w.conn.close()
        _end([w.process])

    def close(self) -> None:
        """Tell every worker to stop, and wait for them (a worker that does not stop within
        :data:`GRACE` seconds is stopped). A run cut short (a worker still playing: the
        records were not all read) stops them at once."""
        if any(w.chunk is not None for w in self.workers):
            self.abort()
            return
        for w in self.workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        _end([w.process for w in self.workers], polite=True)
        self.workers = []

    def abort(self) -> None:
        """Stop every worker now (SIGTERM, then SIGKILL), whatever it is doing."""
        _end([w.process for w in self.workers])
        for w in self.workers:
            w.conn.close()
        self.workers = []


def _end(processes, polite: bool = False) -> None:
    """Wait for ``processes`` to end: at once (SIGTERM) unless ``polite``; those still there
    after :data:`GRACE` seconds are killed. A second Ctrl-C while this waits stops the
    waiting, never the stopping: every process has had its signal first."""
    import time

    if not polite:
        for p in processes:
            _signal(p, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    try:
        for p in processes:
            p.join(max(0.0, deadline - time.monotonic()))
    finally:
        for p in processes:
            if p.exitcode is None:
                _signal(p, getattr(signal, "SIGKILL", signal.SIGTERM))
                p.join(1.0)


def _signal(process, sig) -> None:
    try:
        if process.pid is not None and process.exitcode is None:
            os.kill(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _hold(signals, release: bool = False):
    """Block ``signals`` for this thread (a new process inherits the mask), or with
    ``release`` unblock them; returns what was blocked, where the system can block signals
    (POSIX), else None."""
    if not hasattr(signal, "pthread_sigmask") or signals is None:
        return None
    how = signal.SIG_UNBLOCK if release else signal.SIG_BLOCK
    before = signal.pthread_sigmask(how, signals)
    return None if release else set(signals) - set(before)


# -- in a worker -------------------------------------------------------------------------
def serve(conn, parent: int | None) -> None:
    """A worker: play the chunks it is sent until it is told to stop (None) or its pipe
    closes. Ctrl-C is the parent's to handle; SIGTERM ends it at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _hold(_STOPS, release=True)  # blocked by the parent while it started this process
    _die_with_parent(parent)
    from deckcli.sim.play import play_many

    spec: Spec | None = None  # sent with the first batch, kept for the next ones
    reply: tuple[int, list[dict] | None, Exception | None]
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            break  # the parent is gone
        if message is None:
            break
        i, sent, numbers = message
        spec = sent or spec
        try:
            assert spec is not None, "the first batch a worker is sent carries the spec"
            reply = (i, play_many(spec, numbers), None)
        except Exception as exc:  # noqa: BLE001 - a bug: the parent raises it in turn
            reply = (i, None, _sendable(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            break
    conn.close()


def _die_with_parent(parent: int | None) -> None:
    """End this process when the process that started it ends, however it ends: Linux's
    PR_SET_PDEATHSIG; elsewhere a thread watching the parent's id. ``parent``: the id that
    parent had (None: not known here, a fork server's child)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0:  # 1: PR_SET_PDEATHSIG
                if parent is not None and os.getppid() != parent:
                    os._exit(1)  # the parent ended before the signal was asked for
                return
        except (OSError, AttributeError):
            pass
    if hasattr(os, "getppid"):
        import threading

        first = os.getppid()
        threading.Thread(target=_watch, args=(first,), daemon=True).start()


def _watch(first: int) -> None:
    import time

    while os.getppid() == first:
        time.sleep(0.5)
    os._exit(1)


def _sendable(exc: Exception) -> Exception:
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001
        return RuntimeError(f"a worker failed: {exc!r}")
