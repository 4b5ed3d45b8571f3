"""Backends: where shards run. ``local`` uses joblib processes on this machine; ``dask``
uses a Dask distributed cluster (a LocalCluster it starts, or a scheduler address).

Both call the same :func:`simlab.runner.shard.run_shard` and yield results as shards
finish, in any order; the runner records them and decides when to stop. Closing the
generator early cancels the shards not yet started. Workers on this machine (local, or a
Dask LocalCluster) write their shards themselves; workers of a remote scheduler send their
tables back to be written here.

No worker outlives the run: a worker process of this machine (a loky process, a Dask
LocalCluster worker) runs its shards through :func:`guarded_shard`, which makes it stop when
the process that started the run dies, even by SIGKILL (see :mod:`simlab.runner.processes`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence

from simlab.core.errors import SimlabError
from simlab.runner.processes import guard_worker
from simlab.runner.shard import ShardResult, ShardTask, run_shard

Result = ShardResult


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_tasks(tasks: Sequence[ShardTask], backend: str, workers: int, scheduler: str | None = None) -> Iterator[Result]:
    """Run the shards on a backend, yielding each result as it finishes."""
    workers = workers or default_workers()
    if backend == "local":
        yield from _local(tasks, workers)
    elif backend == "dask":
        yield from _dask(tasks, workers, scheduler)
    else:
        raise SimlabError(f"unknown backend '{backend}' (local or dask)")


def guarded_shard(task: ShardTask, parent: int) -> Result:
    """:func:`run_shard` in a worker that first arranges to die with ``parent`` (the run's process)."""
    guard_worker(parent)
    return run_shard(task)


def _local(tasks: Sequence[ShardTask], workers: int) -> Iterator[Result]:
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_shard(task)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered", pre_dispatch="2*n_jobs")
    with warnings.catch_warnings():  # stopping early cancels queued shards on purpose
        warnings.filterwarnings("ignore", message=".*tasks which were still being processed.*")
        yield from parallel(delayed(guarded_shard)(t, os.getpid()) for t in tasks)


def _dask(tasks: Sequence[ShardTask], workers: int, scheduler: str | None) -> Iterator[Result]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SimlabError("the dask backend needs dask[distributed]: pip install 'simlab[dask]'") from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except OSError as exc:
            raise SimlabError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        client = Client(cluster)
    futures = []
    try:
        # workers of a LocalCluster are this process's children: guard them; remote ones are not
        parent = 0 if scheduler else os.getpid()
        futures = client.map(guarded_shard, list(tasks), [parent] * len(tasks), pure=False)
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel([f for f in futures if not f.done()])
        client.close()
        if cluster is not None:
            cluster.close()
