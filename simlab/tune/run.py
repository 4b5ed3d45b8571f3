"""``simlab tune``: search, confirm, and write the answer (see ``docs/tune.md``).

A tune folder (``results/<experiment>/<time>-<hash>-tune``) holds:

- ``tune.json``: what was asked (spec, knobs with their printed values, budgets), how the search
  went (trials, games, seconds, why it stopped) and the answer (the recommended change, the
  confirmed objective before and after);
- ``study.db``: the Optuna study (SQLite), from which ``--resume`` continues;
- ``trials.parquet``: one row per trial (status, objective, games, changes);
- ``candidates.csv``: the best candidates with their search and confirmed objective;
- ``objective.parquet``: the confirmed objective per candidate and player count, with intervals;
- ``variant.toml``: the recommended change as a ``[[variants]]`` table that specs take as is (only
  when a change is recommended: the paired test confirms that it improves on the printed data;
  otherwise ``answer.recommendation`` says "no change recommended" and why);
- ``confirm/<label>/``: the confirmation runs (ordinary stored runs).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from simlab.core.dataedits import cell_text
from simlab.core.errors import SimlabError
from simlab.runner.folders import DEFAULT_ROOT, default_folder, latest_folder
from simlab.runner.lock import RunLock
from simlab.runner.run import PLAIN_PROGRESS_EVERY
from simlab.runner.spec import ExperimentSpec
from simlab.runner.store import versions
from simlab.tune.confirm import confirm_objective, run_confirmation, search_seeds_overlap
from simlab.tune.evaluate import Evaluator
from simlab.tune.knobs import candidate_cost, candidate_edits, describe_candidate
from simlab.tune.objectives import _call_user
from simlab.tune.paired import (
    ALPHA,
    DRAWS,
    USER_DRAWS,
    bias_corrected,
    common_deals,
    deal_weights,
    paired_test,
    replicates,
    simultaneous_differences,
    user_replicates,
)
from simlab.tune.search import Search, SearchState, candidate_from_params, exhausted_text, open_study, totals
from simlab.tune.space import Space
from simlab.tune.spec import TuneSpec, tune_of

MANIFEST = "tune.json"
SUFFIX = "-tune"  # a tune folder's name ends with it, after the spec hash


@dataclass
class TuneResult:
    """Where a tune is stored and its manifest."""

    path: Path
    manifest: dict[str, Any]


def is_tune_dir(path: Path) -> bool:
    """Whether ``path`` holds a tune (a ``tune.json``)."""
    return (Path(path) / MANIFEST).is_file()


def read_manifest(path: Path) -> dict[str, Any]:
    """A tune folder's ``tune.json``."""
    try:
        return json.loads((Path(path) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SimlabError(f"{Path(path) / MANIFEST}: cannot be read: {exc}") from None


def _write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    tmp = path / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, default=str), encoding="utf-8")
    tmp.replace(path / MANIFEST)


def default_tune_dir(spec: ExperimentSpec, root: Path = DEFAULT_ROOT) -> Path:
    """``results/<experiment>/<time>-<hash>-tune`` (:func:`simlab.runner.folders.default_folder`)."""
    return default_folder(spec, root, SUFFIX)


def latest_tune_dir(spec: ExperimentSpec, root: Path = DEFAULT_ROOT) -> Path | None:
    """The newest tune folder of this spec (same spec hash), if any (:func:`simlab.runner.folders.latest_folder`)."""
    return latest_folder(spec, root, SUFFIX, MANIFEST)


def _knob_entry(knob: Any) -> dict[str, Any]:
    return {"name": knob.name, "file": knob.file, "where": knob.where, "fields": list(knob.fields),
            "mode": knob.mode, "choices": [knob.label(c) for c in knob.choices],
            "printed": [dict(r) for r in knob.printed]}


def new_manifest(spec: ExperimentSpec, tune: TuneSpec, path: Path) -> dict[str, Any]:
    """The manifest of a new tune."""
    return {
        "kind": "tune", "experiment": spec.name, "run": path.name, "source": spec.source,
        "project": str(Path.cwd().resolve()), "description": spec.description, "spec": spec.raw,
        "spec_hash": spec.spec_hash(), "game": spec.game, "versions": versions(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"), "status": "searching",
        "objective": {"name": tune.objective.name, "unit": tune.objective.unit, "position": tune.objective.position,
                      "band": list(tune.objective.band) if tune.objective.band else None, "target": tune.target},
        "knobs": [_knob_entry(k) for k in tune.knobs],
        "budget": {"max_changes": tune.max_changes, "max_distance": tune.max_distance, "trials": tune.trials,
                   "games_per_trial": tune.games_per_trial, "total_games": tune.total_games,
                   "wall_time": tune.wall_time, "sampler": tune.sampler, "pruner": tune.pruner,
                   "stages": tune.stages, "batch": tune.batch, "seed": tune.seed},
        "confirm": {"candidates": tune.confirm.candidates, "games": tune.confirm.games, "seed": tune.confirm.seed},
        "sessions": [],
        "warnings": list(tune.warnings),
        **input_record(spec),
    }


def input_record(spec: ExperimentSpec) -> dict[str, Any]:
    """The tune's input file hashes and each variant's data hash, as a run's manifest records them (what
    ``simlab publish`` compares with the current files to tell a stale published page)."""
    from simlab.core.game import get_game
    from simlab.runner.inputs import input_hashes
    from simlab.runner.variants import variant_data_hash

    game = get_game(spec.game)
    return {"inputs": input_hashes(spec),
            "data": {v.name: {"data_hash": variant_data_hash(game, v)} for v in spec.variants}}


def _check_resumable(spec: ExperimentSpec, manifest: dict[str, Any], path: Path) -> None:
    if manifest.get("spec_hash") != spec.spec_hash():
        raise SimlabError(f"{path} holds a tune of a different spec (hash {manifest.get('spec_hash')}, this spec "
                          f"{spec.spec_hash()}); use another --out")


def run_tune(spec: ExperimentSpec, out: Path | None = None, resume: bool = False, console: Console | None = None,
             show_progress: bool = True, root: Path = DEFAULT_ROOT, force: bool = False) -> TuneResult:
    """Search for the smallest data change that minimises the spec's objective, confirm the best
    candidates on fresh seeds and write the answer (see the module docstring)."""
    tune = tune_of(spec)
    if tune is None:
        raise SimlabError(f"{spec.source}: no [tune] section: add one (docs/tune.md) to tune this spec")
    if resume and force:
        raise SimlabError("--resume continues a tune and --force replaces it: give one of them")
    if out is None and resume:
        out = latest_tune_dir(spec, root)
        if out is None:
            raise SimlabError(f"nothing to resume: no tune of {spec.name} with this spec under {root}")
    path = out or default_tune_dir(spec, root)
    if path.exists() and not path.is_dir():
        raise SimlabError(f"--out {path} is a file, not a folder")
    path.mkdir(parents=True, exist_ok=True)
    with RunLock(path):
        if is_tune_dir(path):
            if not resume and not force:
                raise SimlabError(f"{path} already holds a tune: pass --resume to continue it, --force to replace "
                                  "it, or another --out")
            if force:
                _empty(path)
        elif any(p.name not in (".simlab.lock", ".simlab.lock.break") for p in path.iterdir()):
            if not force:
                raise SimlabError(f"{path} is not empty and holds no tune: pass --force to empty it, or another "
                                  "--out")
            _empty(path)
        manifest = read_manifest(path) if is_tune_dir(path) else new_manifest(spec, tune, path)
        if resume:
            _check_resumable(spec, manifest, path)
        return _run_locked(spec, tune, path, manifest, console, show_progress)


def _empty(path: Path) -> None:
    import shutil

    for p in path.iterdir():
        if p.name.startswith(".simlab.lock"):
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()


def _progress(console: Console | None, show: bool) -> Progress:
    """A live bar on a terminal; disabled when the output is not one (plain lines are printed instead)."""
    plain = show and console is not None and not console.is_terminal
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("best {task.fields[best]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=console, disable=not show or plain, transient=False)


def _run_locked(spec: ExperimentSpec, tune: TuneSpec, path: Path, manifest: dict[str, Any],
                console: Console | None, show_progress: bool) -> TuneResult:
    start = time.perf_counter()
    session = {"started": time.strftime("%Y-%m-%dT%H:%M:%S"), "workers": spec.workers, "backend": spec.backend}
    if "inputs" not in manifest:  # a tune begun before tunes recorded their inputs: the files as they are now
        manifest.update(input_record(spec))
    manifest["sessions"].append(session)
    if console is not None:
        for line in tune.warnings:
            console.print(f"warning: {line}", markup=False, highlight=False, soft_wrap=True)
    manifest["status"] = "searching" if manifest.get("status") not in ("confirming", "complete") else \
        manifest["status"]
    _write_manifest(path, manifest)
    try:
        if manifest["status"] == "searching":
            state = _search(spec, tune, path, console, show_progress)
            space = Space(tune.knobs, tune.max_changes, tune.max_distance)
            manifest["search"] = {"trials": state.trials, "games": state.games,
                                  "seconds": round(state.seconds, 2), "stopped_by": state.stopped_by,
                                  "best_trial": state.best_trial, "best_value": state.best_value,
                                  "allowed": space.size, "exhaustive": space.listable and space.size <= tune.trials,
                                  "exhausted": state.stopped_by == exhausted_text(space.size),
                                  "substitutes": state.substitutes}
            manifest["status"] = "confirming"
            write_trials(path, tune)
            _write_manifest(path, manifest)
        if manifest["status"] == "confirming":
            _confirm(spec, tune, path, manifest, console, show_progress)
            manifest["status"] = "complete"
    except BaseException as exc:
        session["seconds"] = round(time.perf_counter() - start, 2)
        session["ended"] = "interrupted" if isinstance(exc, KeyboardInterrupt) else f"failed: {exc}"
        with_status = manifest["status"]
        manifest["status"] = with_status if with_status in ("searching", "confirming") else "failed"
        _write_manifest(path, manifest)
        raise
    session["seconds"] = round(time.perf_counter() - start, 2)
    _write_manifest(path, manifest)
    return TuneResult(path, manifest)


def _search(spec: ExperimentSpec, tune: TuneSpec, path: Path, console: Console | None, show: bool) -> SearchState:
    progress = _progress(console, show)
    with progress, Evaluator(spec.backend, spec.workers, spec.scheduler) as evaluator:
        bar = progress.add_task(escape(f"tune {spec.name}"), total=tune.trials, best="-")
        plain = show and console is not None and not console.is_terminal
        started = time.perf_counter()
        last_line = [started - PLAIN_PROGRESS_EVERY]

        def update(state: SearchState) -> None:
            best = "-" if state.best_value is None else f"{state.best_value:.4f} (trial {state.best_trial})"
            progress.update(bar, completed=state.trials, best=best)
            now = time.perf_counter()
            if plain and console is not None and (now - last_line[0] >= PLAIN_PROGRESS_EVERY
                                                  or state.trials >= tune.trials):
                last_line[0] = now
                console.print(f"tune {spec.name}: {state.trials}/{tune.trials} trials, best {best}, "
                              f"{now - started:.0f} s", markup=False, highlight=False, soft_wrap=True)

        search = Search(spec, tune, path, evaluator, on_trial=update)
        update(totals(search.study))
        deadline = None
        state = search.run(deadline)
        update(state)
        return state


def trials_table(path: Path, tune: TuneSpec) -> pl.DataFrame:
    """One row per finished trial: ``trial``, ``status``, ``value``, ``games``, ``seconds``, ``cells``,
    ``distance``, ``changes`` (the change list in words, ``; ``-separated), ``key``, ``repeat_of``, ``reason``,
    ``origin`` (``printed``, ``sampler``, ``listing`` or ``substitute``) and ``replaced`` (for a substitute: what
    the sampler had proposed)."""
    study = open_study(path, tune)
    rows = []
    for t in study.get_trials(deepcopy=False):
        a = t.user_attrs
        rows.append({"trial": t.number, "status": a.get("status", t.state.name.lower()), "value": t.value,
                     "last_stage_value": (a.get("stage_values") or [None])[-1], "stages": len(a.get("stage_values")
                                                                                              or []),
                     "games": int(a.get("games", 0)), "seconds": float(a.get("seconds", 0.0)),
                     "cells": int(a.get("cells", 0)), "distance": float(a.get("distance", 0.0)),
                     "changes": "; ".join(a.get("changes", [])) or "(printed data)", "key": a.get("key", ""),
                     "repeat_of": a.get("repeat_of"), "reason": a.get("reason", ""),
                     "origin": a.get("origin", "sampler" if t.number else "printed"),
                     "replaced": a.get("replaced", ""), "params": json.dumps(t.params, sort_keys=True)})
    schema = {"trial": pl.Int64, "status": pl.Utf8, "value": pl.Float64, "last_stage_value": pl.Float64,
              "stages": pl.Int64, "games": pl.Int64, "seconds": pl.Float64, "cells": pl.Int64,
              "distance": pl.Float64, "changes": pl.Utf8, "key": pl.Utf8, "repeat_of": pl.Int64, "reason": pl.Utf8,
              "origin": pl.Utf8, "replaced": pl.Utf8, "params": pl.Utf8}
    return pl.DataFrame(rows, schema=schema).sort("trial")


def write_trials(path: Path, tune: TuneSpec) -> pl.DataFrame:
    """Write ``trials.parquet`` from the study and return it."""
    table = trials_table(path, tune)
    table.write_parquet(path / "trials.parquet")
    return table


def best_candidates(path: Path, tune: TuneSpec) -> list[tuple[int, float, dict[str, Any]]]:
    """The best distinct complete candidates that change something: (trial, search value, candidate)."""
    study = open_study(path, tune)
    done = [t for t in study.get_trials(deepcopy=False) if t.user_attrs.get("status") == "complete"
            and t.value is not None and t.user_attrs.get("cells", 0) > 0]
    done.sort(key=lambda t: (round(t.value, 12), t.number))  # equal values (up to rounding): the earlier trial
    out, seen = [], set()
    for t in done:
        if t.user_attrs["key"] in seen:
            continue
        seen.add(t.user_attrs["key"])
        out.append((t.number, float(t.value), candidate_from_params(t.params, tune)))
        if len(out) >= tune.confirm.candidates:
            break
    return out


def _confirm(spec: ExperimentSpec, tune: TuneSpec, path: Path, manifest: dict[str, Any], console: Console | None,
             show: bool) -> None:
    overlap = search_seeds_overlap(spec, tune)
    if overlap:
        raise SimlabError(f"tune.confirm.seed {tune.confirm.seed} gives {overlap} deal seed(s) of the search: "
                          "choose another")
    trials = pl.read_parquet(path / "trials.parquet")
    printed_value = trials.filter(pl.col("cells") == 0, pl.col("status") == "complete")["value"]
    candidates = best_candidates(path, tune)
    entries = [("printed", None, printed_value[0] if printed_value.len() else None, {})]
    entries += [(f"trial{n}", n, v, c) for n, v, c in candidates]
    rows = []
    frames = []
    runs = []
    for i, (label, number, search_value, candidate) in enumerate(entries):
        if console is not None and show:
            console.print(f"confirming {label} on {tune.confirm.games:,} fresh games (seed {tune.confirm.seed})",
                          markup=False, highlight=False)
        tables = run_confirmation(spec, tune, path, label, candidate, console, show)
        obj = confirm_objective(tune, tables, label, seed=tune.confirm.seed + i)
        frames.append(obj)
        runs.append(paired_input(tune, tables))
        overall = obj.filter(pl.col("scope") == "all").row(0, named=True)
        cells, distance = candidate_cost(tune.knobs, candidate)
        rows.append({"rank": i, "candidate": label, "trial": number, "search_value": search_value,
                     "confirmed": overall["value"], "confirmed_lo": overall["lo"], "confirmed_hi": overall["hi"],
                     "cells": cells, "distance": distance,
                     "changes": "; ".join(describe_candidate(tune.knobs, candidate)) or "(printed data)"})
    paired = paired_comparison(tune, [e[0] for e in entries], runs, seed=tune.confirm.seed)
    for row, extra in zip(rows, paired["rows"], strict=True):
        row.update(extra)
    objective = pl.concat(frames, how="diagonal_relaxed").join(paired["scopes"], on=["candidate", "scope"],
                                                               how="left")
    objective.write_parquet(path / "objective.parquet")
    table = pl.DataFrame(rows, schema_overrides={"trial": pl.Int64, "search_value": pl.Float64,
                                                 **{k: pl.Float64 for k in PAIRED_FLOATS}})
    table.write_csv(path / "candidates.csv")
    recommended = candidates[0] if candidates else None
    answer: dict[str, Any] = {"printed": rows[0]}
    if recommended is not None:
        number, value, candidate = recommended
        row = rows[1]
        answer.update({"trial": number, "search_value": value, "candidate": "trial" + str(number),
                       "edits": [e.as_dict() for e in candidate_edits(tune.knobs, candidate)],
                       "changes": describe_candidate(tune.knobs, candidate), "confirmed": row,
                       "target": _verdict(tune.target, row), "paired": paired["tests"][1],
                       "improvement": improvement_text(rows[0], row, paired["tests"][1], paired["deals"])})
        answer["recommended"] = bool(paired["tests"][1]["confirmed"])
        answer["recommendation"] = recommendation_text(answer)
        better = [r["candidate"] for r in rows[2:] if r["confirmed"] < row["confirmed"]]
        if better:
            answer["note"] = (f"{', '.join(better)} confirmed lower than the recommended {row['candidate']} (chosen "
                              "on the search seeds, so its confirmed value is free of selection; choosing the lowest "
                              "confirmed value would select again); see candidates.csv")
        if answer["recommended"]:
            write_variant(path, spec, tune, answer)
    else:
        answer["note"] = "no candidate that changes the data finished (all pruned, infeasible or invalid)"
        answer["recommended"] = False
        answer["recommendation"] = recommendation_text(answer)
    answer["printed_target"] = _verdict(tune.target, rows[0])
    manifest["answer"] = answer
    manifest["confirm"]["seed_overlap"] = overlap
    manifest["confirm"]["test"] = {"deals": paired["deals"], "draws": paired["draws"], "alpha": ALPHA,
                                   "method": TEST_METHOD}


# candidates.csv columns of the paired comparison (empty for the printed data's row but its bias-corrected value)
PAIRED_FLOATS = ("confirmed_bc", "diff", "diff_bc", "diff_upper", "p_value")
TEST_METHOD = ("paired deal bootstrap of candidate − printed on the shared confirmation deals, one-sided at 5%: "
               "confirmed when both the basic and the percentile bootstrap upper bounds are below 0")


def paired_input(tune: TuneSpec, tables: dict[str, pl.DataFrame]) -> Any:
    """What the paired comparison needs of one confirmation run: its deal sums and statistic (built-in objectives)
    or its tables with deals (a user objective)."""
    sums = tune.objective.deal_sums(tables)
    return sums if sums is not None else tune.objective.user_tables(tables)


def paired_comparison(tune: TuneSpec, labels: list[str], runs: list[Any], seed: int) -> dict[str, Any]:
    """Every run resampled on the same deals (run 0 the printed data): per run its bias-corrected objective, per
    candidate the paired test of its objective minus the printed data's and, per player count, the paired
    differences with simultaneous intervals (:mod:`simlab.tune.paired`)."""
    if isinstance(runs[0], tuple):  # a built-in objective: deal sums, statistic, scopes
        deals = common_deals([r[0].deals for r in runs])
        weights = deal_weights(deals.size, DRAWS, seed)
        points, reps = zip(*(replicates(r[0].on(deals), r[1], weights) for r in runs), strict=True)
        scopes_of, draws = runs[0][2], DRAWS
    else:
        deals = common_deals([np.unique(r["games"]["deal"].to_numpy()) for r in runs])
        fn, name = tune.objective.function, tune.objective.name
        assert fn is not None
        points = [np.array([_call_user(fn, r, name)]) for r in runs]
        reps = [x[:, None] for x in user_replicates(runs, lambda t: _call_user(fn, t, name), deals, USER_DRAWS,
                                                     seed)]
        scopes_of, draws = ["all"], USER_DRAWS
    rows, tests, scopes = [], [], []
    for i, (point, rep) in enumerate(zip(points, reps, strict=True)):
        bc = [bias_corrected(float(point[j]), rep[:, j]) for j in range(point.size)]
        row: dict[str, Any] = {"confirmed_bc": bc[0], "diff": None, "diff_bc": None, "diff_upper": None,
                               "p_value": None}
        test = None
        per: list[tuple[Any, Any, Any]] = [(None, None, None)] * (point.size - 1)
        if i > 0:
            test = paired_test(float(point[0]), float(points[0][0]), rep[:, 0], reps[0][:, 0])
            row.update({k: test[k] for k in ("diff", "diff_bc", "diff_upper", "p_value")})
            if point.size > 1:
                per = simultaneous_differences(point[1:], points[0][1:], rep[:, 1:], reps[0][:, 1:])
        rows.append(row)
        tests.append(test)
        for j, scope in enumerate(scopes_of):
            d = ((test["diff"], None, test["diff_upper"]) if test else (None,) * 3) if j == 0 else per[j - 1]
            scopes.append({"candidate": labels[i], "scope": scope, "value_bc": bc[j], "diff": d[0],
                           "diff_lo": d[1], "diff_hi": d[2]})
    frame = pl.DataFrame(scopes, schema={"candidate": pl.Utf8, "scope": pl.Utf8, "value_bc": pl.Float64,
                                         "diff": pl.Float64, "diff_lo": pl.Float64, "diff_hi": pl.Float64})
    return {"rows": rows, "tests": tests, "scopes": frame, "deals": int(deals.size), "draws": draws}


def improvement_text(printed: dict[str, Any], row: dict[str, Any], test: dict[str, Any], deals: int) -> str:
    """The verdict of the paired test of the recommended change against the printed data (``answer.improvement``)."""
    how = (f"paired difference {test['diff']:+.4f}, one-sided 95% upper bound {test['diff_upper']:+.4f} "
           f"(deal bootstrap over the {deals:,} shared confirmation deals, level 5%)")
    change = f"{printed['confirmed']:.4f} -> {row['confirmed']:.4f}"
    if test["confirmed"]:
        return f"confirmed: {change}, {how}"
    if test["diff"] < 0:
        return f"not confirmed: {change}, {how}: the upper bound is not below 0"
    return f"none: {row['confirmed']:.4f} is not below the printed data's {printed['confirmed']:.4f}, {how}"


def recommendation_text(answer: dict[str, Any]) -> str:
    """``answer.recommendation``: the change to make, or "no change recommended" and why."""
    if not answer.get("candidate"):
        return f"no change recommended: {answer.get('note', 'no candidate that changes the data finished')}"
    n = len(answer.get("changes", []))
    if answer.get("recommended"):
        return (f"change the data as trial {answer['trial']} does ({n} knob{'s' if n != 1 else ''}; variant.toml): "
                "the paired test confirms that it improves on the printed data")
    paired = answer.get("paired") or {}
    lower = paired.get("diff") is not None and paired["diff"] < 0
    return (f"no change recommended: the best candidate of the search (trial {answer['trial']}) "
            + ("is lower than the printed data on the fresh deals, but within the noise (the paired test does not "
               "confirm it)" if lower else "is not lower than the printed data on the fresh deals"))


def _verdict(target: float | None, row: dict[str, Any]) -> str:
    if target is None:
        return "no target"
    if row["confirmed_hi"] <= target:
        return f"met: the whole interval is within {target:g}"
    if row["confirmed"] <= target:
        return f"point estimate within {target:g}, interval reaches {row['confirmed_hi']:.3f}"
    return f"not met: {row['confirmed']:.3f} > {target:g}"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return cell_text(value)
    return json.dumps(str(value), ensure_ascii=False)


def _inline(table: dict[str, Any]) -> str:
    return "{ " + ", ".join(f"{k} = {_toml_value(v) if not isinstance(v, dict) else _inline(v)}"
                            for k, v in table.items()) + " }"


def write_variant(path: Path, spec: ExperimentSpec, tune: TuneSpec, answer: dict[str, Any]) -> Path:
    """``variant.toml``: the recommended change as a ``[[variants]]`` table (paste it into a spec)."""
    row = answer["confirmed"]
    printed = answer["printed"]
    lines = [f"# simlab tune {spec.name}: the recommended change (trial {answer['trial']}), "
             f"{row['cells']} data row change(s).",
             f"# objective: {tune.objective.unit}",
             f"# confirmed on {tune.confirm.games:,} fresh games (seed {tune.confirm.seed}): printed data "
             f"{printed['confirmed']:.4f} [{printed['confirmed_lo']:.4f}, {printed['confirmed_hi']:.4f}] -> "
             f"this change {row['confirmed']:.4f} [{row['confirmed_lo']:.4f}, {row['confirmed_hi']:.4f}] "
             f"(intervals {100 * 0.95:.0f}%, simultaneous over the player counts)",
             f"# improvement: {answer['improvement']}",
             *[f"#   {c}" for c in answer["changes"]],
             "[[variants]]", 'name = "tuned"', "edit = ["]
    lines += [f"  {_inline(e)}," for e in answer["edits"]]
    lines.append("]")
    target = path / "variant.toml"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def dashboard_command(url: str) -> list[str] | None:
    """The optuna-dashboard command for a study URL, when optuna-dashboard is installed (its console script in
    this Python's folder or on the PATH), else None."""
    import shutil
    import sys

    beside = Path(sys.executable).parent / "optuna-dashboard"
    exe = str(beside) if beside.is_file() else shutil.which("optuna-dashboard")
    return [exe, url] if exe else None


def open_dashboard(spec: ExperimentSpec, out: Path | None, announce: Any = print, root: Path = DEFAULT_ROOT,
                   call: Any = None) -> int:
    """``simlab tune SPEC --dashboard``: serve the tune's study (``out``, else the spec's newest tune) in
    optuna-dashboard until Ctrl-C; its exit status. It only reads ``study.db``, so it works while a tune runs.
    One clear error when there is no tune or optuna-dashboard is not installed (it is not a dependency)."""
    import subprocess

    from simlab.tune.search import storage_url

    path = out or latest_tune_dir(spec, root)
    if path is None or not (Path(path) / "study.db").is_file():
        where = f"in {path}" if path is not None else f"of {spec.name} with this spec under {root}"
        raise SimlabError(f"no tune {where}: run simlab tune {spec.source} first")
    url = storage_url(Path(path))
    command = dashboard_command(url)
    if command is None:
        raise SimlabError(f"optuna-dashboard is not installed: pip install optuna-dashboard (then simlab tune "
                          f"{spec.source} --dashboard, or optuna-dashboard {url})")
    announce(f"optuna-dashboard {url}  (the study is named 'tune'; Ctrl-C stops the dashboard)")
    try:
        return int((call or subprocess.call)(command))
    except KeyboardInterrupt:
        return 0
