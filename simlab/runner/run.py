"""Run an experiment: plan its shards, run them on a backend, store them, stop when told."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.runner.backends import default_workers, run_tasks
from simlab.runner.folders import DEFAULT_ROOT, default_folder, latest_folder
from simlab.runner.inputs import compare_inputs, input_hashes
from simlab.runner.lock import LOCK_NAME, RunLock
from simlab.runner.plan import Plan
from simlab.runner.shard import ShardResult, ShardTask
from simlab.runner.spec import ExperimentSpec
from simlab.runner.stopping import StopTracker, segment_sums
from simlab.runner.store import RunStore, safe_component, versions
from simlab.runner.variants import variant_data_hash

LOCK_FILES = (LOCK_NAME, LOCK_NAME + ".break")

LONG_SHARD_SECONDS = 300.0  # a shard longer than this: say what an interruption would lose
PLAIN_PROGRESS_EVERY = 5.0  # seconds between plain progress lines when the output is not a terminal


@dataclass
class RunResult:
    """Where a run is stored and how it went."""

    path: Path
    manifest: dict[str, Any]


def default_run_dir(spec: ExperimentSpec, root: Path = DEFAULT_ROOT) -> Path:
    """``results/<experiment>/<timestamp>-<spec hash>`` (:func:`simlab.runner.folders.default_folder`)."""
    return default_folder(spec, root)


def latest_run_dir(spec: ExperimentSpec, root: Path = DEFAULT_ROOT) -> Path | None:
    """The newest stored run of this spec (same spec hash), if any (:func:`simlab.runner.folders.latest_folder`)."""
    return latest_folder(spec, root)


def _tables(spec: ExperimentSpec) -> list[str]:
    return ["games", "seats", *spec.record]


def new_manifest(spec: ExperimentSpec, plan: Plan, path: Path) -> dict[str, Any]:
    """The manifest of a new run."""
    game = get_game(spec.game)
    project = Path.cwd().resolve()
    try:
        run_in_project: str | None = str(path.resolve().relative_to(project))
    except ValueError:
        run_in_project = None
    return {
        "experiment": spec.name,
        "run": path.name,
        "source": spec.source,
        "project": str(project),
        "run_in_project": run_in_project,
        "description": spec.description,
        "spec": spec.raw,
        "spec_hash": spec.spec_hash(),
        "game": spec.game,
        "versions": versions(),
        "inputs": input_hashes(spec),
        "data": {v.name: {**v.manifest_entry(), "data_hash": variant_data_hash(game, v)}
                 for v in spec.variants},
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "status": "running",
        "plan": {"games": plan.total_games, "deals": plan.deals, "tables": [t.__dict__ for t in plan.tables],
                 "shards": len(plan.shards()), "shard_size": spec.shard_size, "check_every": plan.check_every},
        "variants": [v.name for v in spec.variants],
        "tables": _tables(spec),
        "shards_done": {v.name: [] for v in spec.variants},
        "shard_seconds": {},
        "stop": {},
        "timings": [],
    }


def _resume_command(spec: ExperimentSpec, path: Path) -> str:
    return f"simlab run {spec.source} --out {path} --resume"


def _check_resumable(spec: ExperimentSpec, manifest: dict[str, Any], path: Path) -> None:
    """Refuse a resume whose results would differ from the stored run's (one line naming why)."""
    if manifest.get("spec_hash") != spec.spec_hash():
        raise SimlabError(f"{path} holds a run of a different spec (hash {manifest.get('spec_hash')}, "
                          f"this spec {spec.spec_hash()}); use another --out")
    stored_size = (manifest.get("plan") or {}).get("shard_size")
    if stored_size != spec.shard_size:
        raise SimlabError(f"resume refused: {path} was stored with shard size {stored_size}; resume it with "
                          f"--shard-size {stored_size} (not {spec.shard_size})")
    if "inputs" not in manifest:
        raise SimlabError(f"resume refused: {path} was stored without input hashes (an older simlab), so changed "
                          "data or player files cannot be detected; start a new run")
    problem = compare_inputs(manifest["inputs"], input_hashes(spec))
    if problem:
        raise SimlabError(f"resume refused: {problem}; start a new run (another --out) to use the new inputs")


def _prepare_folder(spec: ExperimentSpec, plan: Plan, path: Path, store: RunStore, resume: bool,
                    force: bool, existed: bool = True) -> dict[str, Any]:
    """Under the lock: the manifest to continue (resume) or a new one (the folder checked or emptied).

    A resume in a folder that existed but holds nothing besides the lock and temporary files (a run
    killed before it wrote its manifest) starts the run there: that is what was asked for."""
    if store.exists() and resume:
        manifest = store.read_manifest()
        _check_resumable(spec, manifest, path)
        manifest["description"] = spec.description
        store.clean_temporaries()
        return manifest
    if resume:
        left = [p for p in store.foreign_entries(keep=LOCK_FILES) if not fnmatch(p.name, ".*.tmp-*")]
        if left or not existed:
            raise SimlabError(f"{path}: not a run directory (no manifest.json)")
        store.clean_temporaries()
        return new_manifest(spec, plan, path)
    foreign = store.foreign_entries(keep=LOCK_FILES)
    if foreign and not force:
        if store.exists():
            raise SimlabError(f"{path} already holds a run: pass --resume to continue it, --force to replace it, "
                              "or another --out")
        shown = ", ".join(p.name for p in foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise SimlabError(f"{path} is not empty ({shown}) and holds no run: pass --force to empty it, "
                          "or another --out")
    if foreign:
        _check_force_target(path)
        store.empty(keep=LOCK_FILES)
    return new_manifest(spec, plan, path)


def _check_force_target(path: Path) -> None:
    """Refuse to empty a folder that is plainly not a run folder (the home folder, a root, the current one)."""
    real = path.resolve()
    cwd = Path.cwd().resolve()
    if real in (Path.home().resolve(), Path(real.anchor)) or real == cwd or real in cwd.parents:
        raise SimlabError(f"--force will not empty {path} (it is the home folder, a filesystem root or holds "
                          "the current folder); give a run folder")


def run_experiment(spec: ExperimentSpec, out: Path | None = None, resume: bool = False,
                   console: Console | None = None, show_progress: bool = True,
                   root: Path = DEFAULT_ROOT, force: bool = False) -> RunResult:
    """Run (or resume) an experiment and return where it is stored.

    A fresh run needs an empty (or new) folder; ``force`` empties it first. A resume needs the
    same spec (up to description, workers, backend, scheduler), the same shard size and the
    same contents of every input file. The folder is locked for the whole run.
    """
    if resume and force:
        raise SimlabError("--resume continues a run and --force replaces it: give one of them")
    for v in spec.variants:
        if not safe_component(v.name):
            raise SimlabError(f"{spec.source}: variant name {v.name!r} cannot be a folder name "
                              "(no '/', '\\', '..' or empty names)")
    plan = Plan(spec)
    if out is None and resume:
        out = latest_run_dir(spec, root)
        if out is None:
            raise SimlabError(f"nothing to resume: no stored run of {spec.name} with this spec under {root}")
    path = out or default_run_dir(spec, root)
    if path.exists() and not path.is_dir():
        raise SimlabError(f"--out {path} is a file, not a folder")
    store = RunStore(path)
    existed = path.is_dir()  # before the lock creates it: --resume on a folder that never existed is refused
    try:
        with RunLock(path):
            manifest = _prepare_folder(spec, plan, path, store, resume, force, existed)
            return _run_locked(spec, plan, path, store, manifest, console, show_progress)
    except OSError as exc:  # a shard, the manifest or the lock (polars' wrapped OS errors arrive as OSError)
        where = exc.filename or path
        raise SimlabError(f"cannot write {where}: {_os_reason(exc)}"
                          + (f"; the run stays resumable: {_resume_command(spec, path)}" if store.exists() else "")
                          ) from None


def _os_reason(exc: OSError) -> str:
    """An OS error in words with its symbol, e.g. ``File too large (EFBIG)``."""
    import errno

    text = exc.strerror or str(exc)
    symbol = errno.errorcode.get(exc.errno) if isinstance(exc.errno, int) else None
    return f"{text} ({symbol})" if symbol else text


def _run_locked(spec: ExperimentSpec, plan: Plan, path: Path, store: RunStore, manifest: dict[str, Any],
                console: Console | None, show_progress: bool) -> RunResult:
    """Play what the manifest does not hold yet and record it (the caller holds the lock)."""
    fresh = not store.exists()  # a new manifest in an empty folder: no shard on disk to check
    manifest["status"] = "running"
    manifest.pop("error", None)
    store.write_manifest(manifest)
    trackers = {v: StopTracker(spec.stop, plan.check_every, plan.checkpoints()) if spec.stop else None
                for v in range(len(spec.variants))}
    todo, done_games = _pending_shards(spec, plan, path, store, manifest, trackers, fresh)
    workers = spec.workers or default_workers()
    start = time.perf_counter()
    played = 0
    try:
        total = plan.total_games * len(spec.variants)
        with contextlib.closing(_play(spec, todo, workers, total, done_games, console, show_progress)) as results:
            for result in results:  # closing early (a stopping rule decided) cancels the shards not started
                played += result.task.hi - result.task.lo
                if _record_shard(spec, store, manifest, trackers, result):
                    break
    except BaseException as exc:
        # The workers are stopped by now; one killed while writing a shard leaves its temporary file (a failed
        # write removes its own): remove them, so the folder holds only what the manifest accounts for.
        with contextlib.suppress(OSError):
            store.clean_temporaries()
        manifest["status"] = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
        manifest["error"] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        manifest["timings"].append({"started": start, "seconds": time.perf_counter() - start, "games": played,
                                    "workers": workers, "backend": spec.backend})
        with contextlib.suppress(OSError):  # a full or read-only disk: the manifest on disk still says what is done
            store.write_manifest(manifest)
        raise
    seconds = time.perf_counter() - start
    manifest["timings"].append({"seconds": round(seconds, 3), "games": played, "workers": workers,
                                "backend": spec.backend, "games_per_s": round(played / max(seconds, 1e-9), 1)})
    manifest["status"] = "stopped" if spec.stop and manifest["stop"] else "complete"
    for v in manifest["shards_done"]:
        manifest["shards_done"][v] = sorted(set(manifest["shards_done"][v]))
    manifest["games_done"] = sum(_games_kept(manifest, plan, v.name) for v in spec.variants)
    store.write_manifest(manifest)
    return RunResult(path, manifest)


def _pending_shards(spec: ExperimentSpec, plan: Plan, path: Path, store: RunStore, manifest: dict[str, Any],
                    trackers: dict[int, StopTracker | None], fresh: bool) -> tuple[list[ShardTask], int]:
    """The shards still to play, and the games already stored (whose stop statistics feed the trackers).

    A stored shard counts only when every table file holds exactly its games and seeds; any
    other file of it is removed, and the shard is played again.
    """
    tables = _tables(spec)
    spec_json = json.dumps(spec.raw, sort_keys=True, default=str)
    # Workers on this machine (local processes, a Dask LocalCluster) write their shards
    # themselves; workers of a remote Dask scheduler send them back to be written here.
    shared_disk = spec.backend == "local" or not spec.scheduler
    todo: list[ShardTask] = []
    done_games = 0
    for si, (lo, hi) in enumerate(plan.shards()):
        seeds = None if fresh else plan.seeds(np.arange(lo, hi, dtype=np.int64))
        for vi, variant in enumerate(spec.variants):
            if not fresh and store.shard_done(variant.name, si, lo, hi, tables, seeds):
                done_games += hi - lo
                if si not in manifest["shards_done"][variant.name]:
                    manifest["shards_done"][variant.name].append(si)
                tracker = trackers[vi]
                if tracker is not None:
                    seats = pl.read_parquet(store.shard_path("seats", variant.name, si), glob=False)
                    tracker.add(lo, hi, segment_sums(tracker.rule, seats, plan.check_every))
            else:
                if not fresh:
                    store.remove_shard(variant.name, si, tables)
                if si in manifest["shards_done"][variant.name]:
                    manifest["shards_done"][variant.name].remove(si)
                todo.append(ShardTask(spec_json, spec.source, vi, si, lo, hi, str(path.resolve()), shared_disk))
    for vi, tracker in trackers.items():
        if tracker is not None and tracker.evaluate():
            _record_stop(manifest, spec, vi, tracker)
    return [t for t in todo if not _stopped(trackers, t)], done_games


def _play(spec: ExperimentSpec, todo: list[ShardTask], workers: int, total: int, done_games: int,
          console: Console | None, show_progress: bool) -> Iterator[ShardResult]:
    """Run the shards on the spec's backend, yielding each as it finishes, with a progress bar (on a
    terminal) or a plain line every :data:`PLAIN_PROGRESS_EVERY` seconds (a log file, CI)."""
    plain = show_progress and console is not None and not console.is_terminal
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>10} games/s"), TimeRemainingColumn(),
        console=console, disable=not show_progress or plain, transient=False,
    )
    start = time.perf_counter()
    played = 0
    last_line = start
    warned = False
    with progress:
        bar = progress.add_task(escape(spec.name), total=total, completed=done_games, rate="-")
        results = run_tasks(todo, spec.backend, workers, spec.scheduler)
        try:
            for result in results:
                played += result.task.hi - result.task.lo
                elapsed = time.perf_counter() - start
                progress.update(bar, advance=result.task.hi - result.task.lo,
                                rate=f"{played / max(elapsed, 1e-9):,.0f}")
                now = time.perf_counter()
                if plain and (now - last_line >= PLAIN_PROGRESS_EVERY or done_games + played >= total):
                    last_line = now
                    done = done_games + played
                    left = elapsed / played * (total - done)  # at the pace of the shards played in this session
                    eta = f", about {_duration(left)} left" if done < total else ""
                    console.print(f"{spec.name}: playing {done:,}/{total:,} games ({100 * done / max(total, 1):.0f}%), "
                                  f"{elapsed:.0f} s{eta}", markup=False, highlight=False, soft_wrap=True)
                if console is not None and show_progress and not warned and result.seconds > LONG_SHARD_SECONDS:
                    warned = True
                    console.print(f"{spec.name}: a shard of {result.task.hi - result.task.lo:,} games took "
                                  f"{_duration(result.seconds)}; an interrupted run loses up to that much per worker. "
                                  "A smaller shard_size keeps it short (the results are the same whatever the shard "
                                  "size).", markup=False, highlight=False, soft_wrap=True)
                yield result
        finally:
            results.close()


def _duration(seconds: float) -> str:
    """'45 s', '12 min', '2.5 h'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _record_shard(spec: ExperimentSpec, store: RunStore, manifest: dict[str, Any],
                  trackers: dict[int, StopTracker | None], result: ShardResult) -> bool:
    """Store a finished shard (if its worker did not) and note it in the manifest; True when every
    variant's stopping rule has decided, so the run stops."""
    task = result.task
    variant = spec.variants[task.variant].name
    if result.frames is not None:
        store.write_shard(variant, task.shard, result.frames)
    manifest["shards_done"][variant].append(task.shard)
    manifest["shard_seconds"][f"{variant}/{task.shard}"] = round(result.seconds, 4)
    store.write_manifest(manifest)
    tracker = trackers[task.variant]
    if tracker is not None:
        tracker.add(task.lo, task.hi, result.stop_sums or {})
        if tracker.evaluate() and variant not in manifest["stop"]:
            _record_stop(manifest, spec, task.variant, tracker)
            store.write_manifest(manifest)
    return bool(spec.stop) and all(t is not None and t.stop_at is not None for t in trackers.values())


def _stopped(trackers: dict[int, StopTracker | None], task: ShardTask) -> bool:
    tracker = trackers[task.variant]
    return tracker is not None and tracker.stop_at is not None and task.lo >= tracker.stop_at


def _record_stop(manifest: dict[str, Any], spec: ExperimentSpec, vi: int, tracker: StopTracker) -> None:
    manifest["stop"][spec.variants[vi].name] = {"stop_at": tracker.stop_at, **tracker.decision}


def _games_kept(manifest: dict[str, Any], plan: Plan, variant: str) -> int:
    stop = manifest.get("stop", {}).get(variant)
    if stop:
        return int(stop["stop_at"])
    shards = plan.shards()
    return sum(shards[i][1] - shards[i][0] for i in manifest["shards_done"][variant])
