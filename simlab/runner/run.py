"""Run an experiment: plan its shards, run them on a backend, store them, stop when told."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from simlab.core.errors import SimlabError
from simlab.runner.backends import default_workers, run_tasks
from simlab.runner.plan import Plan
from simlab.runner.shard import ShardTask
from simlab.runner.spec import ExperimentSpec
from simlab.runner.stopping import StopTracker, segment_sums
from simlab.runner.store import RunStore, versions

DEFAULT_ROOT = Path("results")


@dataclass
class RunResult:
    """Where a run is stored and how it went."""

    path: Path
    manifest: dict[str, Any]


def default_run_dir(spec: ExperimentSpec, root: Path = DEFAULT_ROOT) -> Path:
    """``results/<experiment>/<timestamp>-<spec hash>``."""
    return root / spec.name / f"{time.strftime('%Y%m%d-%H%M%S')}-{spec.spec_hash()[:8]}"


def latest_run_dir(spec: ExperimentSpec, root: Path = DEFAULT_ROOT) -> Path | None:
    """The newest stored run of this spec (same spec hash), if any."""
    base = root / spec.name
    if not base.is_dir():
        return None
    tag = spec.spec_hash()[:8]
    runs = sorted(p for p in base.iterdir() if p.name.endswith(tag) and (p / "manifest.json").is_file())
    return runs[-1] if runs else None


def _data_hash(spec: ExperimentSpec, variant: Any) -> str:
    """A hash of the game data a variant plays with.

    Games with data hooks (``simlab.runner.spec.data_hooks``): every data file's text as played,
    after replacements and edits. Otherwise (Sentient) the card and investor arrays as loaded,
    after the variant's changes.
    """
    import hashlib

    from simlab.core.game import get_game
    from simlab.runner.spec import data_hooks, variant_data

    game = get_game(spec.game)
    hooks = data_hooks(game)
    if hooks is not None and hasattr(hooks, "data_texts"):
        digest = hashlib.sha256()
        for name, text in sorted(hooks.data_texts(dict(variant.files), list(variant.edits)).items()):
            digest.update(f"{name}\0{text}\0".encode())
        return digest.hexdigest()[:16]
    data = variant_data(game, variant)
    if data is None and hasattr(game, "default_data"):
        data = game.default_data()
    digest = hashlib.sha256()
    for name in ("card_array", "round_investor_array", "starting_investor_array"):
        arr = getattr(data, name, None)
        if arr is not None:
            digest.update(arr.tobytes())
    return digest.hexdigest()[:16]


def _tables(spec: ExperimentSpec) -> list[str]:
    return ["games", "seats", *spec.record]


def new_manifest(spec: ExperimentSpec, plan: Plan, path: Path) -> dict[str, Any]:
    """The manifest of a new run."""
    return {
        "experiment": spec.name,
        "run": path.name,
        "source": spec.source,
        "description": spec.description,
        "spec": spec.raw,
        "spec_hash": spec.spec_hash(),
        "game": spec.game,
        "versions": versions(),
        "data": {v.name: {"cards": v.cards, "set": [c.__dict__ for c in v.changes], "remove": v.removed,
                          "files": v.files, "edit": [e.as_dict() for e in v.edits],
                          "options": v.options, "card": v.card, "data_hash": _data_hash(spec, v)}
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


def run_experiment(spec: ExperimentSpec, out: Path | None = None, resume: bool = False,
                   console: Console | None = None, show_progress: bool = True,
                   root: Path = DEFAULT_ROOT) -> RunResult:
    """Run (or resume) an experiment and return where it is stored."""
    plan = Plan(spec)
    if out is None and resume:
        out = latest_run_dir(spec, root)
        if out is None:
            raise SimlabError(f"nothing to resume: no stored run of {spec.name} with this spec under {root}")
    path = out or default_run_dir(spec, root)
    store = RunStore(path)
    if store.exists():
        if not resume:
            raise SimlabError(f"{path} already holds a run: pass --resume to continue it, or another --out")
        manifest = store.read_manifest()
        if manifest.get("spec_hash") != spec.spec_hash():
            raise SimlabError(f"{path} holds a run of a different spec (hash {manifest.get('spec_hash')}, "
                              f"this spec {spec.spec_hash()}); use another --out")
        store.clean_temporaries()
    else:
        if resume and out is not None and path.exists() and any(path.iterdir()):
            raise SimlabError(f"{path}: not a run directory (no manifest.json)")
        manifest = new_manifest(spec, plan, path)
    manifest["status"] = "running"
    manifest.pop("error", None)
    store.write_manifest(manifest)
    tables = _tables(spec)
    shards = plan.shards()
    trackers = {v: StopTracker(spec.stop, plan.check_every, plan.checkpoints()) if spec.stop else None
                for v in range(len(spec.variants))}
    spec_json = json.dumps(spec.raw, sort_keys=True, default=str)
    # Workers on this machine (local processes, a Dask LocalCluster) write their shards
    # themselves; workers of a remote Dask scheduler send them back to be written here.
    shared_disk = spec.backend == "local" or not spec.scheduler
    todo: list[ShardTask] = []
    done_games = 0
    for si, (lo, hi) in enumerate(shards):
        for vi, variant in enumerate(spec.variants):
            if store.shard_done(variant.name, si, hi - lo, tables):
                done_games += hi - lo
                if si not in manifest["shards_done"][variant.name]:
                    manifest["shards_done"][variant.name].append(si)
                tracker = trackers[vi]
                if tracker is not None:
                    seats = pl.read_parquet(store.shard_path("seats", variant.name, si))
                    tracker.add(lo, hi, segment_sums(tracker.rule, seats, plan.check_every))
            else:
                store.remove_shard(variant.name, si, tables)
                if si in manifest["shards_done"][variant.name]:
                    manifest["shards_done"][variant.name].remove(si)
                todo.append(ShardTask(spec_json, spec.source, vi, si, lo, hi, str(path.resolve()), shared_disk))
    for vi, tracker in trackers.items():
        if tracker is not None and tracker.evaluate():
            _record_stop(manifest, spec, vi, tracker)
    todo = [t for t in todo if not _stopped(trackers, t)]
    total = plan.total_games * len(spec.variants)
    workers = spec.workers or default_workers()
    start = time.perf_counter()
    played = 0
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>10} games/s"), TimeRemainingColumn(),
        console=console, disable=not show_progress, transient=False,
    )
    try:
        with progress:
            bar = progress.add_task(spec.name, total=total, completed=done_games, rate="-")
            results = run_tasks(todo, spec.backend, workers, spec.scheduler)
            try:
                for result in results:
                    task, seconds = result.task, result.seconds
                    variant = spec.variants[task.variant].name
                    if result.frames is not None:
                        store.write_shard(variant, task.shard, result.frames)
                    manifest["shards_done"][variant].append(task.shard)
                    manifest["shard_seconds"][f"{variant}/{task.shard}"] = round(seconds, 4)
                    store.write_manifest(manifest)
                    played += task.hi - task.lo
                    elapsed = time.perf_counter() - start
                    progress.update(bar, advance=task.hi - task.lo, rate=f"{played / max(elapsed, 1e-9):,.0f}")
                    tracker = trackers[task.variant]
                    if tracker is not None:
                        tracker.add(task.lo, task.hi, result.stop_sums or {})
                        if tracker.evaluate() and variant not in manifest["stop"]:
                            _record_stop(manifest, spec, task.variant, tracker)
                            store.write_manifest(manifest)
                    if spec.stop and all(t is not None and t.stop_at is not None for t in trackers.values()):
                        break
            finally:
                results.close()
    except BaseException as exc:
        manifest["status"] = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
        manifest["error"] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        manifest["timings"].append({"started": start, "seconds": time.perf_counter() - start, "games": played,
                                    "workers": workers, "backend": spec.backend})
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
