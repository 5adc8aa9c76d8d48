"""Where the map side of an ingest runs: a local process pool or a Dask cluster.

An engine takes the function a worker runs (:func:`paipu.pipeline.ingest.process`) and
the tasks, and yields ``(task, result)`` *in task order* with a bounded number of tasks in
flight, so that the loader sees the same sequence whichever engine ran: the database an
ingest builds does not depend on the engine. Results are small (the paths of the Parquet
shards a task wrote, and its counts); the rows themselves travel through the stage folder.

- :class:`LocalEngine`: ``jobs`` processes of this machine (one: in this process).
- :class:`DaskEngine`: a Dask distributed cluster, at an address (``tcp://host:8786``,
  started with ``dask scheduler`` and ``dask worker``, docs/scale.md) or a
  ``LocalCluster`` started here for the run. A worker that dies has its tasks run again
  elsewhere (Dask's own retry): the task writes the same shards again and its result is
  taken once.
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: How long to wait for a Dask scheduler to answer before giving up, in seconds.
CONNECT_TIMEOUT = 20
#: How many times Dask runs a task again after the worker running it died.
ALLOWED_FAILURES = 3


class EngineError(RuntimeError):
    """The engine could not run: no scheduler at the address, Dask not installed, …"""


class Engine(Protocol):
    """Runs ``fn`` over the tasks, yielding ``(task, fn(task))`` in task order."""

    name: str
    #: Worker processes this engine runs on this machine (the load leaves them the cores).
    local_workers: int

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[tuple[T, R]]: ...


class LocalEngine:
    """A pool of ``jobs`` worker processes on this machine (``jobs == 1``: this process)."""

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)
        self.local_workers = self.jobs

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[tuple[T, R]]:
        if self.jobs == 1:
            for task in tasks:
                yield task, fn(task)
            return
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            window: deque[tuple[T, Future[R]]] = deque()
            for task in tasks:
                window.append((task, pool.submit(fn, task)))
                if len(window) >= 2 * self.jobs:
                    done, future = window.popleft()
                    yield done, future.result()
            while window:
                done, future = window.popleft()
                yield done, future.result()


class DaskEngine:
    """A Dask distributed cluster: the scheduler at ``address``, or, with none, a
    ``LocalCluster`` of ``jobs`` single-threaded worker processes started for the run.

    Tasks are submitted as the input is read, at most ``2 ×`` the cluster's worker
    threads in flight, and their results taken back in order.
    """

    name = "dask"

    def __init__(self, address: str | None = None, jobs: int = 1) -> None:
        self.address = address
        self.jobs = max(1, jobs)
        self.local_workers = self.jobs if address is None else 0

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[tuple[T, R]]:
        with self._client() as client:
            threads = sum(client.nthreads().values()) or 1
            window: deque[tuple[T, Any]] = deque()
            for task in tasks:
                window.append((task, client.submit(fn, task, pure=False)))
                if len(window) >= 2 * threads:
                    done, future = window.popleft()
                    yield done, future.result()
            while window:
                done, future = window.popleft()
                yield done, future.result()

    @contextlib.contextmanager
    def _client(self) -> Iterator[Any]:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise EngineError(
                "the dask engine needs Dask: pip install 'paipu[dask]' "
                "(or pip install 'dask[distributed]')"
            ) from exc
        logging.getLogger("distributed").setLevel(logging.ERROR)
        with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}):
            if self.address is None:
                cluster = LocalCluster(
                    n_workers=self.jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
                try:
                    with Client(cluster) as client:
                        yield client
                finally:
                    cluster.close()
                return
            try:
                client = Client(self.address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise EngineError(
                    f"no Dask scheduler answered at {self.address} "
                    f"within {CONNECT_TIMEOUT} s: {exc}"
                ) from exc
            with client:
                yield client
