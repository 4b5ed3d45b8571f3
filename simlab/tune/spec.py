"""The ``[tune]`` section of an experiment spec, validated with errors naming the field.

See ``docs/tune.md`` for every field. The runner keeps a spec's ``[tune]`` table as it is;
:func:`parse_spec` and :func:`load_spec` here read a spec with it (:func:`parse_tune`, after
the rest of the spec, game, players, data, ablation, is valid, so knobs are checked against
the data the spec plays), and :func:`tune_of` reads it from a spec the runner parsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simlab.core.datavariants import data_texts
from simlab.core.hints import did_you_mean
from simlab.runner import spec as runner_spec
from simlab.runner.spec import ExperimentSpec, SpecError
from simlab.tune.knobs import Knob, KnobError, parse_knob

# simlab.tune.objectives (it imports scipy.stats, about 0.5 s) is imported where a [tune] section is read:
# `simlab run` checks every spec through this module, and most specs have no such section.
if TYPE_CHECKING:
    from simlab.tune.objectives import Objective

TUNE_KEYS = ("objective", "position", "band", "target", "knobs", "max_changes", "max_distance", "trials",
             "games_per_trial", "total_games", "wall_time", "sampler", "pruner", "stages", "batch", "seed",
             "confirm")
CONFIRM_KEYS = ("candidates", "games", "seed")
SAMPLERS = ("tpe", "cmaes", "random")
PRUNERS = ("median", "none")
MAX_TRIALS = 100_000


@dataclass
class ConfirmSettings:
    """How the best candidates are re-played on fresh seeds."""

    candidates: int
    games: int
    seed: int


@dataclass
class TuneSpec:
    """A validated ``[tune]`` section."""

    objective: Objective
    knobs: list[Knob]
    max_changes: int
    max_distance: float | None
    trials: int
    games_per_trial: int
    total_games: int | None
    wall_time: float | None
    sampler: str
    pruner: str
    stages: int
    batch: int
    seed: int
    target: float | None
    confirm: ConfirmSettings
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    warnings: list[str] = field(default_factory=list)  # knobs only partly usable (printed when a tune starts)

    def knob(self, name: str) -> Knob:
        """The knob called ``name``."""
        for k in self.knobs:
            if k.name == name:
                return k
        raise KeyError(name)


class TuneSpecError(Exception):
    """A ``[tune]`` field that cannot be used (``field``, ``what``); the spec parser adds the file."""

    def __init__(self, field_name: str, what: str) -> None:
        self.field = field_name
        self.what = what
        super().__init__(f"{field_name}: {what}")


def _int(table: dict, key: str, default: Any, low: int = 1, where: str = "tune") -> Any:
    value = table.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TuneSpecError(f"{where}.{key}", f"expected an integer, got {value!r}")
    if value < low:
        raise TuneSpecError(f"{where}.{key}", f"must be at least {low}")
    return value


def _number(table: dict, key: str, where: str = "tune") -> float | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TuneSpecError(f"{where}.{key}", f"expected a number, got {value!r}")
    return float(value)


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|min)?\s*$")


def parse_duration(value: Any, where: str) -> float | None:
    """Seconds from a number or a text like ``"90s"``, ``"20m"``, ``"1.5h"``."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str) and (m := _DURATION.match(value)):
        seconds = float(m.group(1)) * {"s": 1, None: 1, "m": 60, "min": 60, "h": 3600}[m.group(2)]
    else:
        raise TuneSpecError(where, f"expected seconds or a duration like \"20m\", got {value!r}")
    if seconds <= 0:
        raise TuneSpecError(where, "must be positive")
    return seconds


def _objective(table: dict, game: Any, raw: dict, source: str, record: list[str]) -> Objective:
    from simlab.tune.objectives import BUILTINS, Objective, load_user_function

    name = table.get("objective")
    if not isinstance(name, str) or not name:
        raise TuneSpecError("tune.objective", f"required: one of {', '.join(BUILTINS)} or \"file.py:function\"")
    if name not in BUILTINS:
        if ":" not in name or not name.rpartition(":")[0].endswith(".py"):
            raise TuneSpecError("tune.objective", f"'{name}' is not one of {', '.join(BUILTINS)} and not "
                                                  f"\"file.py:function\"{did_you_mean(name, BUILTINS)}")
        base = Path(source).parent if source and not source.startswith("<") else Path.cwd()
        try:
            fn = load_user_function(name, base, "tune.objective")
        except Exception as exc:
            raise TuneSpecError("tune.objective", str(exc).split(": ", 1)[-1]) from None
        return Objective(name, function=fn)
    if "band" in table and name != "card_value_band":
        raise TuneSpecError("tune.band", f"only the card_value_band objective takes a band (not {name})")
    if "position" in table and name != "max_position_deviation":
        raise TuneSpecError("tune.position", f"only max_position_deviation takes a position (not {name})")
    if name == "max_position_deviation":
        declared = game.position_columns
        if declared is None:
            declared = tuple(game.categorical_columns().get("seats", {}))
        allowed = ["seat", *declared]
        position = table.get("position", declared[0] if declared else "seat")
        if position not in allowed:
            raise TuneSpecError("tune.position", f"{position!r} is not a position of {game.name} "
                                                 f"(positions: {', '.join(allowed)})"
                                                 f"{did_you_mean(str(position), allowed)}")
        return Objective(name, position=position)
    if name == "first_player_advantage":
        if not game.standard_columns.get("first_player"):
            raise TuneSpecError("tune.objective", f"{game.name} declares no first_player column "
                                                  "(Game.standard_columns)")
        return Objective(name, game=game.name)
    band = table.get("band")
    if (not isinstance(band, list) or len(band) != 2
            or any(isinstance(b, bool) or not isinstance(b, int | float) for b in band)):
        raise TuneSpecError("tune.band", f"card_value_band needs band = [low, high] in VP, got {band!r}")
    if band[0] >= band[1]:
        raise TuneSpecError("tune.band", f"low {band[0]} must be below high {band[1]}")
    if not isinstance(raw.get("ablation"), dict):
        raise TuneSpecError("tune.objective", "card_value_band measures every card by paired ablation: add an "
                                              "[ablation] section (e.g. cards = \"all\", change = \"remove\")")
    if "takes" not in record:
        raise TuneSpecError("tune.objective", "card_value_band needs the cards' holders: record = [\"takes\"]")
    return Objective(name, band=(float(band[0]), float(band[1])), needs_ablation=True)


def _knobs(table: dict, game: Any, base_variant: Any) -> list[Knob]:
    items = table.get("knobs")
    if not isinstance(items, list) or not items:
        raise TuneSpecError("tune.knobs", "required: a list of [[tune.knobs]] tables {file, where, field, "
                                          "range|values|add}")
    files = game.data_files()
    if files is None:
        raise TuneSpecError("tune.knobs", f"{game.name} has no data files to tune")
    texts = data_texts(files, base_variant.files, base_variant.edits)
    knobs = []
    names: set[str] = set()
    for i, item in enumerate(items):
        try:
            knob = parse_knob(item, f"tune.knobs[{i}]", texts, files.stems)
        except KnobError as exc:
            raise TuneSpecError(exc.field, exc.what) from None
        if knob.name in names:
            raise TuneSpecError(f"tune.knobs[{i}]", f"knob '{knob.name}' is given twice (name them apart with "
                                                    "'name')")
        names.add(knob.name)
        knobs.append(knob)
    return knobs


def parse_tune(raw: dict[str, Any], source: str, game: Any, base_variant: Any, games: int, seed: int,
               record: list[str]) -> TuneSpec:
    """Validate ``raw["tune"]`` (``games`` and ``seed`` are the spec's, the defaults). Raises
    :class:`TuneSpecError` naming the field."""
    table = raw["tune"]
    if not isinstance(table, dict):
        raise TuneSpecError("tune", f"expected a table, got {table!r}")
    for key in table:
        if key not in TUNE_KEYS:
            raise TuneSpecError(f"tune.{key}", f"unknown key (allowed: {', '.join(TUNE_KEYS)})"
                                               f"{did_you_mean(key, TUNE_KEYS)}")
    objective = _objective(table, game, raw, source, record)
    knobs = _knobs(table, game, base_variant)
    max_changes = _int(table, "max_changes", None)
    max_distance = _number(table, "max_distance")
    if max_distance is not None and max_distance <= 0:
        raise TuneSpecError("tune.max_distance", "must be positive")
    if max_changes is None and max_distance is None:
        raise TuneSpecError("tune", "give a change budget: max_changes (data rows a knob changes) and/or "
                                    "max_distance (sum of |new − printed|), so the answer is a small change, not a "
                                    "new game")
    if max_changes is None:
        max_changes = sum(k.rows for k in knobs)
    warnings = _usable(knobs, max_changes, max_distance)
    trials = _int(table, "trials", 50)
    if trials > MAX_TRIALS:
        raise TuneSpecError("tune.trials", f"{trials:,} is more than {MAX_TRIALS:,}")
    per_trial = _int(table, "games_per_trial", games)
    stages = _int(table, "stages", 1)
    if stages > 8:
        raise TuneSpecError("tune.stages", "at most 8 stages")
    target = _number(table, "target")
    if target is not None and target < 0:
        raise TuneSpecError("tune.target", "must be 0 or more (objectives are distances from balance)")
    sampler = table.get("sampler", "tpe")
    if sampler not in SAMPLERS:
        raise TuneSpecError("tune.sampler", f"{sampler!r} is not one of {', '.join(SAMPLERS)}"
                                            f"{did_you_mean(str(sampler), SAMPLERS)}")
    pruner = table.get("pruner", "median" if stages > 1 else "none")
    if pruner not in PRUNERS:
        raise TuneSpecError("tune.pruner", f"{pruner!r} is not one of {', '.join(PRUNERS)}")
    if pruner != "none" and stages < 2:
        raise TuneSpecError("tune.pruner", "pruning drops candidates between stages: set stages = 2 or more")
    seed_value = _int(table, "seed", seed, low=0)
    confirm_table = table.get("confirm", {})
    if not isinstance(confirm_table, dict):
        raise TuneSpecError("tune.confirm", f"expected a table, got {confirm_table!r}")
    for key in confirm_table:
        if key not in CONFIRM_KEYS:
            raise TuneSpecError(f"tune.confirm.{key}", f"unknown key (allowed: {', '.join(CONFIRM_KEYS)})"
                                                       f"{did_you_mean(key, CONFIRM_KEYS)}")
    confirm = ConfirmSettings(
        candidates=_int(confirm_table, "candidates", 3, low=0, where="tune.confirm"),
        games=_int(confirm_table, "games", 2 * per_trial, where="tune.confirm"),
        seed=_int(confirm_table, "seed", (seed_value * 1_000_003 + 7_919) % (2**62), low=0, where="tune.confirm"),
    )
    if confirm.seed == seed_value:
        raise TuneSpecError("tune.confirm.seed", f"must differ from the search seed {seed_value} (fresh seeds)")
    return TuneSpec(
        objective=objective, knobs=knobs, max_changes=max_changes, max_distance=max_distance, trials=trials,
        games_per_trial=per_trial, total_games=_int(table, "total_games", None),
        wall_time=parse_duration(table.get("wall_time"), "tune.wall_time"), sampler=sampler, pruner=pruner,
        stages=stages, batch=_int(table, "batch", 1), seed=seed_value, target=target, confirm=confirm, raw=table,
        warnings=warnings,
    )


def _usable(knobs: list[Knob], max_changes: int, max_distance: float | None) -> list[str]:
    """Refuse a knob that no value can change within the change budget (it would only burn trials as
    infeasible); the warnings for knobs some values of which can never be played."""
    from simlab.tune.space import unusable_knobs

    never, partly = unusable_knobs(knobs, max_changes, max_distance)
    if never:
        i, why = never[0]
        knob = knobs[i]
        raise TuneSpecError(f"tune.knobs[{i}]", f"knob '{knob.name}' ({knob.file}, {knob.rows} "
                                                f"row{'s' if knob.rows != 1 else ''}) can never be used: {why}; "
                                                "raise the budget, or narrow its where or its values")
    return [f"tune.knobs[{i}]: knob '{knobs[i].name}': {why}" for i, why in partly]


def tune_of(spec: ExperimentSpec) -> TuneSpec | None:
    """The spec's validated ``[tune]`` section: ``spec.tune`` when this module read the spec, else the section the
    runner kept in ``spec.raw`` parsed now (None when the spec has none). Raises :class:`SpecError` naming the
    field."""
    if spec.tune is not None or "tune" not in spec.raw:
        return spec.tune
    from simlab.core.game import get_game

    try:
        return parse_tune(spec.raw, spec.source, get_game(spec.game), spec.variants[0], spec.games, spec.seed,
                          list(spec.record))
    except TuneSpecError as exc:
        raise SpecError(f"{spec.source}: {exc.field}: {exc.what}") from None


def parse_spec(raw: dict[str, Any], source: str = "<spec>", overrides: dict[str, Any] | None = None) -> ExperimentSpec:
    """:func:`simlab.runner.spec.parse_spec` with the ``[tune]`` section validated into ``spec.tune``.

    The runner keeps a spec's ``[tune]`` table as it is (it plays no tune); ``simlab tune``,
    ``simlab report`` and ``simlab publish`` read specs here, so a bad section is refused when
    the spec is read, with the field named.
    """
    spec = runner_spec.parse_spec(raw, source, overrides)
    spec.tune = tune_of(spec)
    return spec


def load_spec(path: str | Path, overrides: dict[str, Any] | None = None) -> ExperimentSpec:
    """:func:`simlab.runner.spec.load_spec` with the ``[tune]`` section validated into ``spec.tune``."""
    spec = runner_spec.load_spec(path, overrides)
    spec.tune = tune_of(spec)
    return spec
