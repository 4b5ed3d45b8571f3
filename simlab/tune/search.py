"""The search: an Optuna study over candidates, stored so that an interrupted tune resumes exactly.

**Parameters.** A candidate changes at most ``max_changes`` data rows. The study samples how
many knobs to change, ``changes`` (0 to ``slots``), then that many knob names ``change0 …``
and, for every knob picked, its value ``value:<knob>`` (an integer for a knob whose values are an
evenly spaced integer range, else a categorical choice). So every sampled candidate is small by
construction, small changes are proposed as often as large ones, and the sampler learns how many
changes help, which knobs matter and their values. A candidate that still breaks
the budget (a knob that changes several rows, or ``max_distance``) is recorded as infeasible
and never played; one whose data the game rejects is recorded as invalid with the reason.

**Spending the budget on new candidates** (:mod:`simlab.tune.space`). The sampler proposes trial
``n`` on an in-memory copy of the study; when its proposal was already tried (candidates are
played on the same games, common random numbers, so a repeat would only give the stored value
again) or breaks the change budget, the trial plays an untried allowed candidate instead (a
neighbour of the proposal, else a random one; ``origin = "substitute"``, ``replaced`` says what
the sampler proposed). When the space of allowed candidates is no larger than ``trials``, the
search lists it (``origin = "listing"``) instead of sampling. When every allowed candidate was
tried, the search stops and says so. The proposal is stored before the trial is asked (an
enqueued trial), so the study holds exactly what was played. A space too large to list in which
no untried candidate was found falls back to recording the sampler's proposal as a repeat
(not counted towards ``trials``; at most ``3 × trials`` proposals) or as infeasible.

**Determinism.** Trial ``n``'s proposal depends only on the finished trials before it: the
sampler is re-created for every trial with a seed derived from the tune seed and ``n`` (and so
is the choice of a substitute), and a batch of ``batch`` trials is asked before any of them is
told. The first trial is always the printed data (no change).

**Resume.** The study lives in ``study.db`` (SQLite, written transactionally). A trial that was
running when the process died is still ``RUNNING`` there; on resume it is played again with the
parameters it already has and told under its own number, so no trial is lost or repeated and the
resumed study equals an uninterrupted one.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import optuna
from optuna.trial import TrialState

from simlab.core.errors import SimlabError
from simlab.runner.plan import Plan
from simlab.runner.spec import ExperimentSpec
from simlab.tune.evaluate import Evaluator, Job, candidate_spec, concat_tables, stage_bounds
from simlab.tune.knobs import Knob, candidate_cost, candidate_edits, describe_candidate
from simlab.tune.space import Space, params_of
from simlab.tune.spec import TuneSpec

REPEAT_CAP = 3  # a search ends after this many times ``trials`` proposals, repeats included
STARTUP_TRIALS = 10  # random proposals before the sampler models the results (fixed: --trials only sets the length)
STUDY_NAME = "tune"

optuna.logging.set_verbosity(logging.WARNING)
warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
warnings.filterwarnings("ignore", category=FutureWarning, module="optuna")


def storage_url(path: Path) -> str:
    """The SQLite URL of a tune folder's study."""
    return f"sqlite:///{(path / 'study.db').resolve()}"


def slots(tune: TuneSpec) -> int:
    """How many changes a candidate may pick."""
    return max(1, min(tune.max_changes, len(tune.knobs)))


def _int_range(knob: Knob) -> tuple[int, int, int] | None:
    """(low, high, step) when the knob's values are an evenly spaced integer range."""
    if not knob.integer or len(knob.choices) < 2:
        return None
    vals = sorted(int(v) for v in knob.choices)
    step = vals[1] - vals[0]
    if step <= 0 or any(b - a != step for a, b in itertools.pairwise(vals)):
        return None
    return vals[0], vals[-1], step


def suggest(trial: optuna.Trial, tune: TuneSpec) -> dict[str, Any]:
    """A candidate (knob name -> value) sampled in ``trial``."""
    names = [k.name for k in tune.knobs]
    out: dict[str, Any] = {}
    for i in range(trial.suggest_int("changes", 0, slots(tune))):
        pick = trial.suggest_categorical(f"change{i}", names)
        if pick in out:
            continue
        knob = tune.knob(str(pick))
        rng = _int_range(knob)
        if rng is not None:
            out[knob.name] = trial.suggest_int(f"value:{knob.name}", rng[0], rng[1], step=rng[2])
        else:
            labels = [knob.label(c) for c in knob.choices]
            label = trial.suggest_categorical(f"value:{knob.name}", labels)
            out[knob.name] = knob.choices[labels.index(str(label))]
    return out


def candidate_from_params(params: dict[str, Any], tune: TuneSpec) -> dict[str, Any]:
    """The candidate a trial's stored parameters describe (what :func:`suggest` returned)."""
    out: dict[str, Any] = {}
    for i in range(int(params.get("changes", 0))):
        pick = params[f"change{i}"]
        if pick in out:
            continue
        knob = tune.knob(str(pick))
        value = params[f"value:{knob.name}"]
        if _int_range(knob) is None:
            labels = [knob.label(c) for c in knob.choices]
            value = knob.choices[labels.index(str(value))]
        out[knob.name] = value
    return out


def baseline_params(tune: TuneSpec) -> dict[str, Any]:
    """The parameters of the printed data: no change."""
    return {"changes": 0}


def candidate_key(tune: TuneSpec, candidate: dict[str, Any]) -> str:
    """A canonical text of a candidate's real changes (knobs at their printed value drop out)."""
    changed = {k.name: k.label(candidate[k.name]) for k in tune.knobs
               if k.name in candidate and k.cost(candidate[k.name])[0] > 0}
    return json.dumps(changed, sort_keys=True)


def make_sampler(tune: TuneSpec, number: int) -> optuna.samplers.BaseSampler:
    """The sampler for trial ``number``: seeded by the tune seed and the trial number."""
    seed = (tune.seed * 1_000_003 + number * 7_919 + 17) % 2**32
    startup = STARTUP_TRIALS
    if tune.sampler == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    with warnings.catch_warnings():  # ``group`` is marked experimental (stable since Optuna 2.8)
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        tpe = optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup, multivariate=True, group=True,
                                         constant_liar=tune.batch > 1)
        if tune.sampler == "cmaes":
            return optuna.samplers.CmaEsSampler(seed=seed, n_startup_trials=startup, independent_sampler=tpe,
                                                warn_independent_sampling=False)
    return tpe


def make_pruner(tune: TuneSpec) -> optuna.pruners.BasePruner:
    """The pruner: the median rule between stages (after five trials), or none."""
    if tune.pruner == "median":
        return optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0)
    return optuna.pruners.NopPruner()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Write-ahead log, synced at checkpoints: a killed process loses nothing committed (the log is in the
    operating system's cache), and a commit no longer waits for the disk (a tune makes a few hundred)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def open_storage(path: Path) -> optuna.storages.RDBStorage:
    """The SQLite storage of a tune folder's study."""
    import sqlalchemy

    storage = optuna.storages.RDBStorage(storage_url(path), engine_kwargs={"connect_args": {"timeout": 60}})
    sqlalchemy.event.listen(storage.engine, "connect", _sqlite_pragmas)
    storage.engine.dispose()  # reconnect, so that every connection gets the pragmas
    return storage


def open_study(path: Path, tune: TuneSpec) -> optuna.Study:
    """The tune folder's study (created on first use)."""
    return optuna.create_study(study_name=STUDY_NAME, storage=open_storage(path), direction="minimize",
                               sampler=make_sampler(tune, 0), pruner=make_pruner(tune), load_if_exists=True)


@dataclass
class Pending:
    """A trial being evaluated."""

    trial: optuna.Trial
    candidate: dict[str, Any]
    key: str
    started: float = field(default_factory=time.perf_counter)
    values: list[float] = field(default_factory=list)
    games: int = 0
    pruned: bool = False


@dataclass
class SearchState:
    """Totals of the stored study (for budgets and the progress bar)."""

    trials: int = 0  # distinct candidates: every finished trial but the repeats
    asked: int = 0  # every finished trial, repeats included
    games: int = 0
    seconds: float = 0.0
    best_value: float | None = None
    best_trial: int | None = None
    stopped_by: str = ""
    substitutes: int = 0  # trials that play an untried candidate in place of the sampler's proposal


def over_budget(tune: TuneSpec, cells: int, distance: float) -> list[str]:
    """Why a candidate breaks the change budget (empty when it keeps to it)."""
    over = []
    if cells > tune.max_changes:
        over.append(f"{cells} rows changed > max_changes {tune.max_changes}")
    if tune.max_distance is not None and distance > tune.max_distance + 1e-9:
        over.append(f"distance {distance:g} > max_distance {tune.max_distance:g}")
    return over


def exhausted_text(size: int) -> str:
    """The stop reason of a search that tried every allowed candidate."""
    return f"the space is exhausted: all {size:,} allowed candidates (the printed data included) were tried"


def totals(study: optuna.Study) -> SearchState:
    """Trials, games and evaluation seconds spent so far, and the best complete trial."""
    state = SearchState()
    for t in study.get_trials(deepcopy=False):
        if t.state not in (TrialState.COMPLETE, TrialState.PRUNED, TrialState.FAIL):
            continue  # running (being played, or left by a killed process) or waiting (enqueued)
        state.asked += 1
        state.trials += t.user_attrs.get("status") != "repeat"
        state.substitutes += t.user_attrs.get("origin") == "substitute"
        state.games += int(t.user_attrs.get("games", 0))
        state.seconds += float(t.user_attrs.get("seconds", 0.0))
        if t.state == TrialState.COMPLETE and t.value is not None and (
                state.best_value is None or t.value < state.best_value):
            state.best_value, state.best_trial = float(t.value), t.number
    return state


class Search:
    """Runs the study: asks candidates, plays them in stages, tells the results."""

    def __init__(self, spec: ExperimentSpec, tune: TuneSpec, path: Path, evaluator: Evaluator,
                 on_trial: Callable[[SearchState], None] | None = None) -> None:
        self.spec = spec
        self.tune = tune
        self.path = path
        self.evaluator = evaluator
        self.on_trial = on_trial
        self.study = open_study(path, tune)
        self.plan = Plan(candidate_spec(spec, [], tune.games_per_trial, tune.seed))
        self.bounds = stage_bounds(self.plan, tune.stages)
        self.space = Space(tune.knobs, tune.max_changes, tune.max_distance)
        # a space no larger than the budget is listed, every allowed candidate once (no sampler)
        self.exhaustive = self.space.listable and self.space.size <= tune.trials
        self.known: dict[str, tuple[int, float]] = {}
        for t in self.study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            key = t.user_attrs.get("key")
            if key is not None and t.value is not None and "repeat_of" not in t.user_attrs:
                self.known.setdefault(key, (t.number, float(t.value)))

    # ------------------------------------------------------------------ the loop
    def run(self, deadline_seconds: float | None = None) -> SearchState:
        """Search until the trial, games or wall-time budget is spent or the target is reached."""
        if not self.study.trials:
            self.study.enqueue_trial(baseline_params(self.tune), user_attrs={"origin": "printed"})
        self._finish_stale()
        while True:
            state = totals(self.study)
            why = self._stop_reason(state, deadline_seconds)
            if why:
                state.stopped_by = why
                return state
            want = max(1, min(self.tune.batch, self.tune.trials - state.trials))
            batch = []
            for _ in range(want):
                trial = self._ask()
                if trial is None:
                    break
                batch.append(self._pending(trial))
            if not batch:
                state.stopped_by = exhausted_text(self.space.size)
                return state
            self._evaluate(batch)
            if self.on_trial is not None:
                self.on_trial(totals(self.study))

    def _stop_reason(self, state: SearchState, deadline_seconds: float | None) -> str:
        tune = self.tune
        if state.trials >= tune.trials:
            return f"trials ({tune.trials})"
        if state.asked >= REPEAT_CAP * tune.trials:
            return f"the sampler kept proposing candidates already played ({state.asked} trials asked)"
        if tune.total_games is not None and state.games >= tune.total_games:
            return f"total_games ({tune.total_games:,})"
        if tune.wall_time is not None and state.seconds >= tune.wall_time:
            return f"wall_time ({tune.wall_time:,.0f} s)"
        if deadline_seconds is not None and time.perf_counter() >= deadline_seconds:
            return "wall_time"
        if tune.target is not None and state.best_value is not None and state.best_value <= tune.target:
            return f"target ({tune.target:g}) reached"
        return ""

    def _finish_stale(self) -> None:
        """Play again, under their own numbers, the trials a killed process left running."""
        stale = self.study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
        if not stale:
            return
        batch = []
        stale = sorted(stale, key=lambda t: t.number)
        for frozen in stale:
            fixed = frozen.system_attrs.get("fixed_params")  # an enqueued trial: its parameters are stored
            self.study.sampler = _Replay(fixed if fixed is not None else self._proposal(frozen.number),
                                         make_sampler(self.tune, frozen.number))
            batch.append(self._pending(optuna.trial.Trial(self.study, frozen._trial_id)))
        # a process killed while asking a batch left it short: ask the rest, as the uninterrupted tune did
        for _ in range(self._batch_end(stale[0].number) - len(self.study.trials)):
            trial = self._ask()
            if trial is None:
                break
            batch.append(self._pending(trial))
        self._evaluate(batch)

    # ------------------------------------------------------------------ proposals
    def _ask(self) -> optuna.Trial | None:
        """The next trial, its candidate decided (:meth:`_propose`) and enqueued before it is asked; None when
        every allowed candidate was tried. A trial a killed process enqueued but never asked is asked now."""
        trials = self.study.get_trials(deepcopy=False)
        if not any(t.state == TrialState.WAITING for t in trials):
            proposal = self._propose(len(trials), trials)
            if proposal is None:
                return None
            params, attrs = proposal
            self.study.enqueue_trial(params, user_attrs=attrs)
        self.study.sampler = optuna.samplers.RandomSampler(seed=0)  # every parameter is fixed by the queue
        return self.study.ask()

    def _tried(self, trials: Sequence[optuna.trial.FrozenTrial]) -> dict[str, tuple[int, bool]]:
        """Every candidate the study holds: key -> (its first trial, whether it keeps to the budget)."""
        out: dict[str, tuple[int, bool]] = {}
        for t in trials:
            if t.state == TrialState.WAITING:
                continue
            try:
                candidate = candidate_from_params(t.params, self.tune)
            except (KeyError, ValueError):  # a trial a killed process left half-asked (older tunes)
                continue
            out.setdefault(candidate_key(self.tune, candidate), (t.number, self.space.allowed(candidate)))
        return out

    def _propose(self, number: int, trials: Sequence[optuna.trial.FrozenTrial]) -> tuple[dict, dict] | None:
        """Trial ``number``'s parameters and user attributes: the sampler's proposal, or an untried allowed
        candidate in its place (see the module docstring); None when every allowed candidate was tried."""
        tune, space = self.tune, self.space
        tried = self._tried(trials)
        if space.listable and sum(ok for _, ok in tried.values()) >= space.size:
            return None

        def key(c: dict[str, Any]) -> str:
            return candidate_key(tune, c)

        if self.exhaustive:
            listed = next((c for c in space.listing() if key(c) not in tried), None)
            if listed is None:
                return None
            return params_of(tune.knobs, listed, _int_range), {"origin": "listing"}
        params = self._proposal(number)
        candidate = candidate_from_params(params, tune)
        over = over_budget(tune, *candidate_cost(tune.knobs, candidate))
        if over:
            why = f"the sampler proposed a candidate over the budget ({'; '.join(over)})"
        elif key(candidate) in tried:
            why = f"the sampler proposed trial {tried[key(candidate)][0]}'s candidate again"
        else:
            return params, {"origin": "sampler"}
        rng = np.random.default_rng([tune.seed, number, 7919])
        substitute = space.untried(candidate, set(tried), key, rng)
        if substitute is None:
            if space.listable:
                return None
            return params, {"origin": "sampler"}  # nothing untried found in a large space: the proposal as it is
        return params_of(tune.knobs, substitute, _int_range), {"origin": "substitute", "replaced": why}

    def _batch_end(self, number: int) -> int:
        """One past the last trial of the batch that holds trial ``number``, the batches as :meth:`run` asks
        them (each of ``batch`` trials, fewer when the trial budget has fewer left)."""
        done = self.study.get_trials(deepcopy=False)
        start, distinct = 0, 0
        while True:
            size = max(1, min(self.tune.batch, self.tune.trials - distinct))
            if number < start + size:
                return start + size
            distinct += sum(t.user_attrs.get("status") != "repeat" for t in done[start:start + size])
            start += size

    def _proposal(self, number: int) -> dict[str, Any]:
        """The parameters trial ``number`` was given, proposed again by its sampler on an in-memory copy of the
        trials before it. A process killed between two of a trial's parameters left the rest unstored, and
        drawn now by a fresh sampler they would not be the ones an uninterrupted tune draws."""
        replica = optuna.create_study(direction="minimize", sampler=make_sampler(self.tune, number))
        replica.add_trials([t for t in self.study.get_trials(deepcopy=True) if t.number < number])
        trial = replica.ask()
        suggest(trial, self.tune)
        return trial.params

    def _pending(self, trial: optuna.Trial) -> Pending:
        candidate = suggest(trial, self.tune)
        return Pending(trial, candidate, candidate_key(self.tune, candidate))

    # ------------------------------------------------------------------ one batch
    def _evaluate(self, batch: Sequence[Pending]) -> None:
        tune = self.tune
        to_play: list[Pending] = []
        first_of: dict[str, Pending] = {}
        for p in batch:
            cells, distance = candidate_cost(tune.knobs, p.candidate)
            changes = describe_candidate(tune.knobs, p.candidate)
            attrs = {"key": p.key, "cells": cells, "distance": distance, "changes": changes, "games": 0,
                     "seconds": 0.0}
            for k, v in attrs.items():
                p.trial.set_user_attr(k, v)
            over = over_budget(tune, cells, distance)
            if over:
                self._tell_status(p, "infeasible", "; ".join(over))
            elif p.key in self.known:
                number, value = self.known[p.key]
                p.trial.set_user_attr("repeat_of", number)
                p.trial.set_user_attr("status", "repeat")
                self.study.tell(p.trial, value)
            elif p.key in first_of:  # the same candidate twice in one batch: play it once
                p.trial.set_user_attr("repeat_of", first_of[p.key].trial.number)
                to_play.append(p)
            else:
                first_of[p.key] = p
                to_play.append(p)
        playing = [p for p in to_play if "repeat_of" not in p.trial.user_attrs]
        specs = {}
        for p in playing:
            try:
                specs[p.key] = candidate_spec(self.spec, candidate_edits(tune.knobs, p.candidate),
                                              self.plan.total_games, tune.seed)
            except SimlabError as exc:
                self._tell_status(p, "invalid", str(exc).split(": ", 1)[-1])
        playing = [p for p in playing if p.key in specs]
        tables: dict[str, list[dict[str, Any]]] = {p.key: [] for p in playing}
        lo = 0
        for step, hi in enumerate(self.bounds):
            alive = [p for p in playing if not p.pruned]
            if not alive:
                break
            results = self.evaluator.play([Job(p.key, specs[p.key], lo, hi) for p in alive])
            for p, frames in zip(alive, results, strict=True):
                tables[p.key].append(frames)
                merged = concat_tables(tables[p.key])
                p.values.append(tune.objective.value(merged))
                p.games += hi - lo
                p.trial.report(p.values[-1], step)
                if step < len(self.bounds) - 1 and p.trial.should_prune():
                    p.pruned = True
            lo = hi
        for p in playing:
            seconds = time.perf_counter() - p.started
            p.trial.set_user_attr("games", p.games * len(specs[p.key].variants))
            p.trial.set_user_attr("seconds", round(seconds, 3))
            p.trial.set_user_attr("stage_values", p.values)
        for p in sorted(to_play, key=lambda q: q.trial.number):
            if "repeat_of" in p.trial.user_attrs:
                src = first_of[p.key]
                if src.pruned or not src.values or src.key not in specs:
                    self._tell_status(p, "pruned" if src.pruned else "invalid", "same candidate as trial "
                                      f"{src.trial.number}")
                else:
                    p.trial.set_user_attr("status", "repeat")
                    self.study.tell(p.trial, src.values[-1])
            elif p.key not in specs:
                continue
            elif p.pruned:
                p.trial.set_user_attr("status", "pruned")
                self.study.tell(p.trial, state=TrialState.PRUNED)
            else:
                p.trial.set_user_attr("status", "complete")
                self.study.tell(p.trial, p.values[-1])
                self.known.setdefault(p.key, (p.trial.number, p.values[-1]))

    def _tell_status(self, p: Pending, status: str, reason: str) -> None:
        p.trial.set_user_attr("status", status)
        p.trial.set_user_attr("reason", reason)
        self.study.tell(p.trial, state=TrialState.PRUNED)


class _Replay(optuna.samplers.BaseSampler):
    """A sampler that gives each parameter the value of ``params`` (a replayed proposal), else asks ``fallback``."""

    def __init__(self, params: dict[str, Any], fallback: optuna.samplers.BaseSampler) -> None:
        self.params = params
        self.fallback = fallback

    def infer_relative_search_space(self, study: optuna.Study, trial: Any) -> dict[str, Any]:
        return {}

    def sample_relative(self, study: optuna.Study, trial: Any, search_space: dict[str, Any]) -> dict[str, Any]:
        return {}

    def sample_independent(self, study: optuna.Study, trial: Any, name: str, distribution: Any) -> Any:
        if name in self.params:
            return self.params[name]
        return self.fallback.sample_independent(study, trial, name, distribution)
