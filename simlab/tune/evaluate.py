"""Play candidates: each candidate is the spec's base data plus its row edits, on common random numbers.

A candidate's games are those of the spec (its players, seatings and, with an ``[ablation]``, one
variant per component) with the candidate's edits added to the base ``[data]`` edits; every
candidate plays the same game indices of the same seed, so the same deals: differences between
candidates are the data change's, not luck's. Stages split a candidate's games into whole-deal
ranges played one after another, so the search can drop a poor candidate early.

Shards run on the spec's backend (joblib processes on this machine, or a Dask cluster kept for the
whole tune); the tables come back to this process and are never stored: a trial's record is its
objective value. Results do not depend on the number of workers or how games are split into
shards (a game's seed depends only on its index).
"""

from __future__ import annotations

import copy
import json
import math
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from simlab.core.dataedits import RowEdit
from simlab.runner.backends import default_workers, guarded_shard
from simlab.runner.plan import Plan
from simlab.runner.shard import ShardResult, ShardTask, run_shard
from simlab.runner.spec import ExperimentSpec, parse_spec

# spec fields a candidate's games do not use: the search itself, stopping rules, hand-written variants
_DROPPED = ("tune", "stop", "variants", "report")


def candidate_raw(spec: ExperimentSpec, edits: Sequence[RowEdit], games: int, seed: int) -> dict[str, Any]:
    """The raw spec that plays a candidate: the spec's base data plus ``edits``, ``games`` games of ``seed``."""
    raw = copy.deepcopy(spec.raw)
    for key in _DROPPED:
        raw.pop(key, None)
    raw["games"] = games
    raw["seed"] = seed
    data = raw.setdefault("data", {})
    data["edit"] = list(data.get("edit", [])) + [e.as_dict() for e in edits]
    return raw


def candidate_spec(spec: ExperimentSpec, edits: Sequence[RowEdit], games: int, seed: int) -> ExperimentSpec:
    """The validated spec of a candidate (see :func:`candidate_raw`)."""
    return parse_spec(candidate_raw(spec, edits, games, seed), spec.source)


def stage_bounds(plan: Plan, stages: int) -> list[int]:
    """Cumulative game counts at the end of each stage: whole deals, the last one the plan's total."""
    out = []
    for s in range(1, stages + 1):
        deals = max(1, math.ceil(plan.deals * s / stages))
        out.append(min(deals, plan.deals) * plan.n_tables)
    return sorted(set(out))


@dataclass
class Job:
    """Games ``[lo, hi)`` of every variant of one candidate spec."""

    key: Any
    spec: ExperimentSpec
    lo: int
    hi: int


class Evaluator:
    """Plays jobs on a backend and returns each job's tables; use it as a context manager.

    ``workers`` processes (0: every core) of ``backend`` ``local`` or ``dask`` (a LocalCluster
    started once, or the ``scheduler``'s cluster). ``chunk`` caps the games of one shard.
    """

    def __init__(self, backend: str = "local", workers: int = 0, scheduler: str | None = None,
                 chunk: int = 20_000) -> None:
        self.backend = backend
        self.workers = workers or default_workers()
        self.scheduler = scheduler
        self.chunk = chunk
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> Evaluator:
        if self.backend == "dask":
            from dask.distributed import Client, LocalCluster

            if self.scheduler:
                self._client = Client(self.scheduler, timeout="20s")
            else:
                self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                             host="127.0.0.1", dashboard_address=None)
                self._client = Client(self._cluster)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = self._cluster = None

    def _tasks(self, jobs: Sequence[Job]) -> list[tuple[int, ShardTask]]:
        out = []
        for ji, job in enumerate(jobs):
            spec_json = json.dumps(job.spec.raw, sort_keys=True, default=str)
            n_tables = Plan(job.spec).n_tables
            total = job.hi - job.lo
            pieces = max(1, min(math.ceil(total / self.chunk) if self.chunk else 1,
                                math.ceil(total / n_tables)))
            if self.workers > 1:  # enough pieces to keep every worker busy
                per_job = max(1, math.ceil(2 * self.workers / max(1, len(jobs) * len(job.spec.variants))))
                pieces = max(pieces, min(per_job, math.ceil(total / n_tables)))
            deals = total // n_tables
            for vi in range(len(job.spec.variants)):
                for p in range(pieces):
                    lo = job.lo + (deals * p // pieces) * n_tables
                    hi = job.lo + (deals * (p + 1) // pieces) * n_tables
                    if hi > lo:
                        out.append((ji, ShardTask(spec_json, job.spec.source, vi, p, lo, hi)))
        return out

    def _run(self, tasks: list[ShardTask]) -> Iterator[ShardResult]:
        if self.backend == "dask":
            from dask.distributed import as_completed

            parent = 0 if self.scheduler else os.getpid()
            futures = self._client.map(guarded_shard, tasks, [parent] * len(tasks), pure=False)
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:
                self._client.cancel([f for f in futures if not f.done()])
            return
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                yield run_shard(task)
            return
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=self.workers, backend="loky", return_as="generator_unordered")
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*tasks which were still being processed.*")
            yield from parallel(delayed(guarded_shard)(t, os.getpid()) for t in tasks)

    def play(self, jobs: Sequence[Job]) -> list[dict[str, pl.DataFrame]]:
        """Every job's tables (``games``, ``seats`` and the recorded event tables), rows in game order."""
        tasks = self._tasks(jobs)
        owner = {id(t): ji for ji, t in tasks}
        parts: list[list[tuple[tuple[int, int], dict[str, pl.DataFrame]]]] = [[] for _ in jobs]
        for result in self._run([t for _, t in tasks]):
            ji = owner.get(id(result.task))
            if ji is None:  # a result that crossed a process boundary: match it by its fields
                ji = next(j for j, t in tasks if t == result.task)
            assert result.frames is not None
            parts[ji].append(((result.task.variant, result.task.lo), result.frames))
        out = []
        for chunks in parts:
            chunks.sort(key=lambda c: c[0])
            out.append(concat_tables([frames for _, frames in chunks]))
        return out


def concat_tables(parts: Sequence[Mapping[str, pl.DataFrame]]) -> dict[str, pl.DataFrame]:
    """Table name -> the parts' frames of that table one after another (each part has the first part's tables;
    columns whose types differ between parts are widened); ``{}`` for no parts."""
    if not parts:
        return {}
    return {name: pl.concat([part[name] for part in parts], how="vertical_relaxed") for name in parts[0]}
