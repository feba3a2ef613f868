"""Where a run's games are played: this process, a pool of processes (``--jobs``), or a Dask
cluster (``--scheduler ADDRESS``). Every backend plays the same game numbers and hands the
records back in game-number order, so the report is the same wherever the games ran.
"""

from __future__ import annotations

import os

from deckcli.errors import UsageError
from deckcli.sim.play import Spec, play_many

CHUNK = 25  # games a worker plays at a time: long enough to pay for sending the spec
SMALLEST = 5  # the shortest chunk a small run is cut into so that every worker has some


def chunks(numbers: list[int], size: int = CHUNK) -> list[list[int]]:
    return [numbers[i:i + size] for i in range(0, len(numbers), size)]


def shared_out(tasks: list[tuple[Spec, list[int]]],
               jobs: int) -> list[tuple[int, Spec, list[int]]]:
    """The chunks of ``tasks`` (each a spec and its game numbers), in order, each with the
    index of its task, for ``jobs`` workers: :data:`CHUNK` games, or fewer when the tasks
    together hold too few games to keep every worker busy (a build's race of 20 games against
    each of three opponents is six chunks of 10, not three of 20 that two workers play in two
    rounds)."""
    total = sum(len(numbers) for _, numbers in tasks)
    size = max(SMALLEST, min(CHUNK, -(-total // (3 * max(1, jobs)))))
    return [(k, spec, part) for k, (spec, numbers) in enumerate(tasks)
            for part in chunks(numbers, size)]


class Backend:
    """Where games are played: :meth:`records` streams a run's records chunk by chunk, in
    game-number order; :meth:`run` collects them.

    From its first games to :meth:`close`, a run answers the signals that stop it
    (:class:`Stops`): the first Ctrl-C (or SIGTERM) unwinds the command, so its workers are
    stopped and what it wrote is said before it ends; a second one ends the process at
    once."""

    stops = None  # the run's Stops, once its first games are played

    def _arm(self) -> None:
        if self.stops is None:
            self.stops = Stops()

    def records(self, spec: Spec, numbers: list[int], progress=None):
        raise NotImplementedError

    def run(self, spec: Spec, numbers: list[int], progress=None) -> list[dict]:
        out: list[dict] = []
        for part in self.records(spec, numbers, progress):
            out += part
        return out

    def run_all(self, tasks: list[tuple[Spec, list[int]]], progress=None) -> list[list[dict]]:
        """The records of each task (a spec and its game numbers), in order: what
        :meth:`run` gives for each, played one task after another here; a pool plays them
        side by side."""
        return [self.run(spec, numbers, progress) for spec, numbers in tasks]

    def close(self) -> None:
        if self.stops is not None:
            self.stops.release()


class Stops:
    """SIGINT (Ctrl-C) and SIGTERM while a run plays: the first raises KeyboardInterrupt or
    :class:`~deckcli.errors.Terminated` (the command unwinds, stopping its workers, and says
    ``aborted`` or ``terminated``); from then on both have their default action, so another
    one ends the process at once, whatever it is doing (its workers end with it). Only the
    main thread can set handlers; elsewhere nothing changes."""

    def __init__(self):
        import signal
        import threading

        self.saved: dict = {}
        self.stopped = False
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.saved[sig] = signal.signal(sig, self._stop)

    def _stop(self, signum, frame):
        import signal

        from deckcli.errors import Terminated

        self.stopped = True
        for sig in self.saved:
            signal.signal(sig, signal.SIG_DFL)
        raise KeyboardInterrupt() if signum == signal.SIGINT else Terminated()

    def release(self) -> None:
        """The run is over: the handlers there were before, unless it was stopped (then a
        further signal still ends the process at once)."""
        import signal

        saved, self.saved = self.saved, {}
        if not self.stopped:
            for sig, handler in saved.items():
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


class Local(Backend):
    """This process."""

    def records(self, spec: Spec, numbers: list[int], progress=None):
        self._arm()
        for part in chunks(numbers):
            yield play_many(spec, part)
            if progress:
                progress(len(part))


class Pool(Backend):
    """Worker processes on this machine (``--jobs N``): :mod:`deckcli.sim.pool`."""

    def __init__(self, jobs: int):
        from deckcli.sim.pool import Processes

        self.jobs = jobs
        self.pool = Processes(jobs)  # started with the first games

    def records(self, spec: Spec, numbers: list[int], progress=None):
        self._arm()
        return self.pool.records([(s, part) for _, s, part in
                                  shared_out([(spec, numbers)], self.jobs)], progress)

    def run_all(self, tasks: list[tuple[Spec, list[int]]], progress=None) -> list[list[dict]]:
        """Every task's chunks handed out together, so that small tasks (a build's races)
        keep every worker busy; the records of each task in order."""
        self._arm()
        out: list[list[dict]] = [[] for _ in tasks]
        pieces = shared_out(tasks, self.jobs)
        played = list(self.pool.records([(spec, part) for _, spec, part in pieces], progress))
        for (k, _, _), records in zip(pieces, played, strict=True):
            out[k] += records
        return out

    def close(self) -> None:
        try:
            self.pool.close()
        finally:
            super().close()


class Cluster(Backend):
    """A Dask cluster (``--scheduler tcp://host:8786``): ``pip install 'deckcli[cluster]'``;
    connecting and every failure of a cluster: :mod:`deckcli.sim.cluster`."""

    def __init__(self, address: str):
        from deckcli.sim import cluster

        self.address, self.seconds = address, cluster.deadline()
        self.client = cluster.connect(address, self.seconds)

    def records(self, spec: Spec, numbers: list[int], progress=None):
        from deckcli.sim import cluster

        self._arm()
        return cluster.play(self.client, self.address, self.seconds, spec, chunks(numbers),
                            progress)

    def close(self) -> None:
        try:
            self.client.close(timeout=self.seconds)
        except Exception:  # noqa: BLE001 - a cluster already gone: nothing left to close
            pass
        finally:
            super().close()


def backend(jobs: str | int | None, scheduler: str | None, games: int):
    """The backend for ``--jobs`` and ``--scheduler``. ``auto``: one process per CPU once a
    run holds enough games to pay for starting them (and only then)."""
    if scheduler:
        return Cluster(scheduler)
    n = min(_jobs(jobs, games), -(-games // CHUNK))  # no more workers than chunks to play
    return Pool(n) if n > 1 else Local()


def _jobs(jobs, games: int) -> int:
    cpus = os.cpu_count() or 1
    if jobs in (None, "auto"):
        return min(cpus, max(1, games // 200))  # about 200 games pay for a worker's start
    try:
        n = int(jobs)
    except (TypeError, ValueError):
        raise UsageError(f"--jobs takes a number or 'auto', not {jobs!r}") from None
    if n < 0:
        raise UsageError("--jobs takes 0 (one per CPU), 1 or more, or 'auto'")
    return cpus if n == 0 else n
