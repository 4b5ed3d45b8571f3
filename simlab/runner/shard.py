"""One shard: a range of games played in a worker, returned as tidy tables.

``run_shard`` is what every backend calls; it needs only the task (the validated spec's raw
dict, the variant and the game range), so it runs the same in this process, a joblib worker
or a Dask worker on another machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import polars as pl

from simlab.core.batch import play_games
from simlab.core.driver import decision_timeout
from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.player import resolve_player, stored_name
from simlab.core.schema import GameMeta, build_frames
from simlab.runner.plan import Plan
from simlab.runner.spec import ExperimentSpec, load_spec, parse_spec, variant_data
from simlab.runner.stopping import segment_sums
from simlab.runner.store import RunStore


@dataclass(frozen=True)
class ShardTask:
    """Play games [lo, hi) of one variant; ``spec_json`` is the spec's raw dict as JSON."""

    spec_json: str
    source: str
    variant: int
    shard: int
    lo: int
    hi: int
    run_dir: str = ""
    write: bool = False  # the worker writes the shard itself (it shares the run's filesystem)


class ShardError(SimlabError):
    """A shard failed; the message names the game, its seed and how to replay it."""


@lru_cache(maxsize=8)
def _context(spec_json: str, source: str) -> tuple[ExperimentSpec, Plan]:
    import json

    spec = parse_spec(json.loads(spec_json), source)
    return spec, Plan(spec)


@lru_cache(maxsize=32)
def _rules(spec_json: str, source: str, variant: int, n_players: int) -> Any:
    spec, _ = _context(spec_json, source)
    game = get_game(spec.game)
    v = spec.variants[variant]
    return game.ruleset(n_players, {**spec.options, **v.options}, variant_data(game, v))


def warm_shard_context(spec_path: str, overrides: dict[str, Any]) -> None:
    """Read the spec as ``simlab run`` does and build what this process's shards of it will use (the
    parsed spec and plan, every variant's rule set for every player count, the players), so that its
    first shard starts playing at once."""
    import json

    spec = load_spec(spec_path, overrides)
    spec_json = json.dumps(spec.raw, sort_keys=True, default=str)
    _, plan = _context(spec_json, spec.source)
    game = get_game(spec.game)
    for n in sorted({t.n_players for t in plan.tables}):
        for variant in range(len(spec.variants)):
            _rules(spec_json, spec.source, variant, n)
    for table in plan.tables:
        for seat in table.seats:
            resolve_player(game, seat)


@dataclass
class ShardResult:
    """What a worker sends back: its tables (unless it wrote them), timing and stop sums."""

    task: ShardTask
    frames: dict[str, pl.DataFrame] | None
    seconds: float
    stop_sums: dict[int, Any] | None


def run_shard(task: ShardTask) -> ShardResult:
    """Play the task's games and return (or, with ``task.write``, store) their tables."""
    start = time.perf_counter()
    spec, plan = _context(task.spec_json, task.source)
    game = get_game(spec.game)
    games = np.arange(task.lo, task.hi, dtype=np.int64)
    tables = plan.table_of(games)
    seeds = plan.seeds(games)
    deals = plan.deal_of(games)
    parts: list[dict[str, pl.DataFrame]] = []
    for n in sorted({t.n_players for t in plan.tables}):
        ids = [t.index for t in plan.tables if t.n_players == n]
        local = np.full(plan.n_tables, -1, dtype=np.int64)  # plan table -> its index among this count's tables
        local[ids] = np.arange(len(ids), dtype=np.int64)
        mask = local[tables] >= 0
        if not mask.any():
            continue
        rules = _rules(task.spec_json, task.source, task.variant, n)
        lineups = [[resolve_player(game, s) for s in plan.tables[tid].seats] for tid in ids]
        local_tables = local[tables[mask]]
        try:
            with decision_timeout(spec.decision_timeout):
                arrays = play_games(game, rules, lineups, seeds[mask], local_tables, tuple(spec.record),
                                    game_indices=games[mask])
        except SimlabError as exc:
            where = f"{task.run_dir}" if task.run_dir else "RUN"
            raise ShardError(f"shard {task.shard} (games {task.lo}-{task.hi - 1}) of variant "
                             f"{spec.variants[task.variant].name}: {exc}; replay: simlab replay {where} "
                             f"--game {_failed_game(str(exc))}") from exc
        meta = GameMeta(games[mask], deals[mask], seeds[mask], local_tables,
                        [[stored_name(s) for s in plan.tables[tid].seats] for tid in ids],
                        [plan.tables[tid].lineup for tid in ids],
                        [plan.tables[tid].rotation for tid in ids], spec.seed, spec.variants[task.variant].name)
        parts.append(build_frames(game, rules, n, arrays, meta))
    frames = {name: pl.concat([p[name] for p in parts], how="vertical") for name in parts[0]} if parts else {}
    if len(parts) > 1:
        frames = {name: df.sort("game", maintain_order=True) for name, df in frames.items()}
    plan_check = plan.check_every
    sums = segment_sums(spec.stop, frames["seats"], plan_check) if spec.stop else None
    if task.write:
        RunStore(task.run_dir).write_shard(spec.variants[task.variant].name, task.shard, frames)
        return ShardResult(task, None, time.perf_counter() - start, sums)
    return ShardResult(task, frames, time.perf_counter() - start, sums)


def _failed_game(message: str) -> str:
    """The game index a driver error message starts with ("game N: ...")."""
    head = message.split(":", 1)[0]
    return head.split()[-1] if head.startswith("game ") else "N"
