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

import contextlib
import os
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError
from simlab.runner.processes import guard_worker
from simlab.runner.shard import ShardResult, ShardTask, run_shard, warm_shard_context
from simlab.runner.spec import SpecError, run_fields

Result = ShardResult


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_warming: list[Any] = []  # joblib result generators of the warm-ups :func:`prestart_local` started


def prestart_local(spec_path: str | Path, overrides: dict[str, Any]) -> bool:
    """Start the local worker pool now, each worker reading the spec as the run will, so that the
    workers' start-up (interpreter, imports, game data, compiled-kernel cache, spec and rule sets)
    overlaps the main process's own set-up instead of following it. True when a pool was started.

    Called by ``simlab run`` before it validates the spec: the spec's TOML is only read for its run
    fields (seed, games, shard size, decision timeout, workers, backend, scheduler, with the command
    line's ``overrides``), checked as the spec's validation checks them, and nothing is started for a
    Dask run, a one-worker run, a file that does not read as TOML or run fields the validation refuses
    (the run reports it at once, with no worker to stop). The warm-ups are the first tasks of the
    same loky pool the run's shards then use; a warm-up that fails is ignored (the shard that meets
    the same failure reports it).
    """
    import tomllib

    try:
        raw = tomllib.loads(Path(spec_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        run = run_fields({**raw, **given}, str(spec_path))
    except SpecError:
        return False
    if run["backend"] != "local" or run["scheduler"]:
        return False
    workers = run["workers"] or default_workers()
    if workers <= 1:
        return False
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered", pre_dispatch="2*n_jobs")
    _warming.append(parallel(delayed(_warm_worker)(str(spec_path), overrides, os.getpid())
                             for _ in range(workers)))
    return True


def _warm_worker(spec_path: str, overrides: dict[str, Any], parent: int) -> None:
    """In a worker: what its first shard would do before playing (the spec read, its rule sets built)."""
    try:
        guard_worker(parent)
        warm_shard_context(spec_path, overrides)
    except Exception:  # the run's own validation, or the shard, reports it
        return


def _finish_warmups() -> None:
    """Wait for the warm-ups :func:`prestart_local` started (they run first on the pool anyway)."""
    while _warming:
        with contextlib.suppress(Exception):
            for _ in _warming.pop():
                pass


def discard_warmups() -> None:
    """Stop the warm-ups of a run that ended before playing (a spec refused, a folder not empty) at once.

    Their workers are killed, not waited for (one may still be starting up): a warm-up writes
    nothing, so nothing is lost, and a later run starts a new pool. Closing the warm-ups' joblib
    generators aborts them as joblib aborts a failed batch (loky kills the pool's workers); its
    warning that tasks were cancelled is expected here and not shown.

    loky's manager thread fails (a ``KeyError`` traceback on stderr) when the pool is killed while a
    submitted task is still waiting to be handed to the workers, so the abort waits until every
    warm-up has been handed over (at once: a pool takes one task per worker and one more); should
    that not happen within :data:`HANDOVER_WAIT` seconds, the warm-ups are waited out instead.
    """
    if not _warming:
        return
    if not _handed_over(HANDOVER_WAIT):
        _finish_warmups()
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*tasks which were still being processed.*")
        while _warming:
            _warming.pop().close()


HANDOVER_WAIT = 5.0  # seconds a refused run waits for its warm-ups to reach loky's call queue


def _handed_over(timeout: float) -> bool:
    """Whether loky's reusable pool has handed every submitted task to its call queue (within ``timeout``)."""
    import time

    from joblib.externals.loky import reusable_executor

    executor = reusable_executor._executor
    waiting = getattr(executor, "_work_ids", None)  # submitted tasks not yet in the call queue
    if waiting is None:
        return executor is None
    deadline = time.monotonic() + timeout
    while not waiting.empty():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def run_tasks(tasks: Sequence[ShardTask], backend: str, workers: int, scheduler: str | None = None) -> Iterator[Result]:
    """Run the shards on a backend, yielding each result as it finishes."""
    _finish_warmups()
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
