"""Confirmation: the printed data and the best candidates re-played on seeds the search never saw.

The search picks its best candidates on its own games, so their search values are optimistic
(the winner's curse). Each is played again, as an ordinary stored run (``confirm/<label>/``,
readable with ``simlab.results.load``), on the spec's players with ``confirm.games`` games of
``confirm.seed`` — a different seed, so different deals; :func:`search_seeds_overlap` checks
it. The objective is then computed per player count with intervals that hold together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console

from simlab.results import load
from simlab.runner.plan import Plan
from simlab.runner.run import run_experiment
from simlab.runner.spec import ExperimentSpec
from simlab.tune.evaluate import candidate_raw
from simlab.tune.knobs import candidate_edits
from simlab.tune.spec import TuneSpec


def confirm_spec(spec: ExperimentSpec, tune: TuneSpec, candidate: dict[str, Any], label: str) -> ExperimentSpec:
    """The stored run that confirms one candidate (``printed`` for the printed data)."""
    from simlab.runner.spec import parse_spec

    raw = candidate_raw(spec, candidate_edits(tune.knobs, candidate), tune.confirm.games, tune.confirm.seed)
    raw["name"] = f"{spec.name}-{label}"
    raw["description"] = f"tune confirmation of {label} ({spec.name})"
    return parse_spec(raw, spec.source)


def search_seeds_overlap(spec: ExperimentSpec, tune: TuneSpec) -> int:
    """How many game seeds the confirmation shares with the search (0: they are disjoint)."""
    from simlab.tune.evaluate import candidate_spec

    search = Plan(candidate_spec(spec, [], tune.games_per_trial, tune.seed))
    confirm = Plan(candidate_spec(spec, [], tune.confirm.games, tune.confirm.seed))
    a = search.seeds(np.arange(0, search.total_games, search.n_tables, dtype=np.int64))
    b = confirm.seeds(np.arange(0, confirm.total_games, confirm.n_tables, dtype=np.int64))
    return int(np.intersect1d(a, b).size)


def run_confirmation(spec: ExperimentSpec, tune: TuneSpec, path: Path, label: str, candidate: dict[str, Any],
                     console: Console | None, show_progress: bool, workers: int | None = None,
                     backend: str | None = None, scheduler: str | None = None) -> dict[str, pl.DataFrame]:
    """Play (or reuse, or resume) one candidate's confirmation run and return its tables."""
    cspec = confirm_spec(spec, tune, candidate, label)
    if workers is not None:
        cspec.workers = workers
    if backend is not None:
        cspec.backend = backend
        cspec.scheduler = scheduler
    out = path / "confirm" / label
    manifest = out / "manifest.json"
    if manifest.is_file():
        import json

        status = json.loads(manifest.read_text()).get("status")
        if status != "complete":
            run_experiment(cspec, out, resume=True, console=console, show_progress=show_progress)
    else:
        run_experiment(cspec, out, console=console, show_progress=show_progress, force=out.exists())
    return {k: v.collect() for k, v in load(out).items()}


def confirm_objective(tune: TuneSpec, tables: dict[str, pl.DataFrame], label: str, seed: int) -> pl.DataFrame:
    """The objective of one confirmation run per player count (``label`` added)."""
    return tune.objective.confirm(tables, seed=seed).with_columns(pl.lit(label).alias("candidate"))
