"""Where a run's games are played: this process, a pool of processes (``--jobs``), or a Dask
cluster (``--scheduler ADDRESS``). Every backend plays the same game numbers and hands the
records back in game-number order, so the report is the same wherever the games ran.
"""

from __future__ import annotations

import os

from deckcli.errors import UsageError
from deckcli.sim.play import Spec, play_many

CHUNK = 25  # games a worker plays at a time: long enough to pay for sending the spec


def chunks(numbers: list[int], size: int = CHUNK) -> list[list[int]]:
    return [numbers[i:i + size] for i in range(0, len(numbers), size)]


class Local:
    """This process."""

    def run(self, spec: Spec, numbers: list[int], progress=None) -> list[dict]:
        out = []
        for part in chunks(numbers):
            out += play_many(spec, part)
            if progress:
                progress(len(part))
        return out

    def close(self) -> None:
        pass


class Pool:
    """Worker processes on this machine (``--jobs N``)."""

    def __init__(self, jobs: int):
        from concurrent.futures import ProcessPoolExecutor

        self.jobs = jobs
        self.pool = ProcessPoolExecutor(max_workers=jobs)

    def run(self, spec: Spec, numbers: list[int], progress=None) -> list[dict]:
        futures = [self.pool.submit(play_many, spec, part) for part in chunks(numbers)]
        out = []
        for part, future in zip(chunks(numbers), futures):
            out += future.result()  # in submission order: game-number order
            if progress:
                progress(len(part))
        return out

    def close(self) -> None:
        self.pool.shutdown()


class Cluster:
    """A Dask cluster (``--scheduler tcp://host:8786``): ``pip install 'deckcli[cluster]'``."""

    def __init__(self, address: str, timeout: float = 3):
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("--scheduler needs dask.distributed: pip install "
                             "'deckcli[cluster]'") from None
        try:
            self.client = Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        except ValueError as exc:  # no address at all: no port, a scheme Dask does not know
            raise UsageError(f"--scheduler takes a Dask scheduler's address, such as "
                             f"tcp://host:8786, not {address!r}: {exc}") from None

    def run(self, spec: Spec, numbers: list[int], progress=None) -> list[dict]:
        parts = chunks(numbers)
        # a key of its own for every run: scattered by content, a spec sent again (the next
        # --until-ci batch, a candidate raced again) shares the key of the last one, and the
        # scheduler drops it with the last run's futures ("lost dependencies")
        scattered = self.client.scatter(spec, broadcast=True, hash=False)
        futures = self.client.map(play_many, [scattered] * len(parts), parts, pure=False)
        out = []
        for part, future in zip(parts, futures):
            out += future.result()
            if progress:
                progress(len(part))
        return out

    def close(self) -> None:
        self.client.close()


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
