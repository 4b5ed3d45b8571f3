"""Experiment specs: TOML files under ``experiments/``, validated before anything runs.

See ``docs/experiments.md`` for every field. :func:`load_spec` reads and validates a file;
:func:`parse_spec` validates a dict (what overrides and tests use). Every error is one line
naming the file and the field.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.core.datafiles import read_text_file
from simlab.core.errors import SimlabError
from simlab.core.hints import did_you_mean
from simlab.runner.variants import Variant, VariantSpecError, parse_variants, resolve_data_paths, variant_data

__all__ = ["ExperimentSpec", "SpecError", "StopRule", "Variant", "load_spec", "parse_spec", "variant_data"]

ROTATIONS = ("none", "cyclic", "all")
MATCHES = ("round_robin", "focus", "self")
BACKENDS = ("local", "dask")
STOP_RULES = ("ci", "sprt")

_TOP_KEYS = {"name", "game", "seed", "games", "shard_size", "workers", "backend", "scheduler", "record", "options",
             "decision_timeout",
             "players", "stop", "data", "variants", "ablation", "description", "report", "tune", "companion"}
_PLAYER_KEYS = {"seats", "pool", "n_players", "match", "focus", "repeat", "rotation"}
_STOP_KEYS = {"rule", "player", "seat", "half_width", "player_a", "player_b", "elo0", "elo1", "alpha", "beta",
              "check_every"}


MAX_SEED = 2**63 - 1  # seeds are stored in a signed 64-bit column (experiment_seed)
MAX_SHARD_SIZE = 1_000_000  # games per shard: one shard's tables are held in memory
MAX_SHARDS = 100_000  # shards per run (all variants): the manifest lists the finished ones
MAX_GAMES = MAX_SHARD_SIZE * MAX_SHARDS  # games per variant (10^11: weeks of CPU time at 50,000 games/s)
DEFAULT_DECISION_TIMEOUT = 60.0  # seconds a Python player may take per decision in a run (0: no limit)


class SpecError(SimlabError):
    """A spec that cannot run: the message names the file and the field."""


@dataclass
class StopRule:
    """Stop early: a target 95% half-width on a rate (``ci``) or an SPRT between two players."""

    rule: str
    check_every: int
    player: str | None = None
    seat: int | None = None
    half_width: float = 0.01
    player_a: str | None = None
    player_b: str | None = None
    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05


@dataclass
class Companion:
    """What a companion spec's ``[companion]`` section says.

    ``study``: the name of the heuristic study (``experiments/<study>.toml``); ``variants``: this
    run's variant → the study's variant compared with it (default: the same name); ``players``:
    the study's player → this run's player whose win rates are compared (e.g. ``voter`` → ``search``).
    """

    study: str
    variants: dict[str, str]
    players: dict[str, str]


def parse_companion(raw: Any, source: str = "<spec>") -> Companion:
    """Validate a spec's ``[companion]`` table; a :class:`SimlabError` names the file and the field."""
    if not isinstance(raw, dict):
        raise _fail(source, "companion", "a table with 'study' (and optional 'variants', 'players')")
    unknown = sorted(set(raw) - {"study", "variants", "players"})
    if unknown:
        raise _fail(source, f"companion.{unknown[0]}", "unknown key (allowed: players, study, variants)")
    study = raw.get("study")
    if not isinstance(study, str) or not study:
        raise _fail(source, "companion.study", "the name of the heuristic study (experiments/<study>.toml)")
    maps = {}
    for key in ("variants", "players"):
        table = raw.get(key, {})
        if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
            raise _fail(source, f"companion.{key}", "a table of names to names (e.g. { voter = \"search\" })")
        maps[key] = dict(table)
    return Companion(study, maps["variants"], maps["players"])


@dataclass
class ExperimentSpec:
    """A validated experiment."""

    name: str
    game: str
    seed: int
    games: int
    shard_size: int
    workers: int
    backend: str
    scheduler: str | None
    record: list[str]
    options: dict[str, Any]
    seats: list[str] | None
    pool: list[str] | None
    n_players: list[int]
    match: str
    focus: str | None
    repeat: bool
    rotation: str
    stop: StopRule | None
    variants: list[Variant]
    source: str = "<spec>"
    description: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    decision_timeout: float | None = DEFAULT_DECISION_TIMEOUT  # seconds per Python-player decision; None: no limit
    # The validated [tune] section (a simlab.tune.spec.TuneSpec): set by simlab.tune.spec's parse_spec/load_spec, which
    # read the section the runner keeps in ``raw`` and never reads itself (a shard or a replay plays no tune).
    tune: Any = None
    # [companion]: the heuristic study this run re-plays under strong play (simlab.strong_play compares them)
    companion: Companion | None = None

    def spec_hash(self) -> str:
        """Hash of everything that decides the results (not workers, backend, shard size or description)."""
        keep = {k: v for k, v in self.raw.items()
                if k not in ("workers", "backend", "scheduler", "shard_size", "description", "decision_timeout")}
        text = json.dumps(keep, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _check_name(source: str, name: str) -> str:
    """The experiment name, which becomes a folder under ``results/`` and ``reports/``: one plain component."""
    if not name.strip():
        raise _fail(source, "name", "must not be empty")
    if name in (".", "..") or any(c in name for c in "/\\") or Path(name).is_absolute():
        raise _fail(source, "name", f"{name!r} must be a plain folder name (no '/', '\\', '..' or absolute path)")
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        raise _fail(source, "name", f"{name!r} holds control characters")
    if len(name) > 200:
        raise _fail(source, "name", "is longer than 200 characters")
    return name


def _fail(source: str, field_name: str, what: str) -> SpecError:
    return SpecError(f"{source}: {field_name}: {what}")


def _type(source: str, name: str, value: Any, types: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise _fail(source, name, f"expected {what}, got {value!r}")
    if not isinstance(value, types):
        raise _fail(source, name, f"expected {what}, got {value!r}")
    return value


def _unknown(source: str, where: str, table: dict, allowed: set[str]) -> None:
    for key in table:
        if key not in allowed:
            raise _fail(source, f"{where}{key}", f"unknown key (allowed: {', '.join(sorted(allowed))})"
                                                 f"{did_you_mean(key, sorted(allowed))}")


def load_spec(path: str | Path, overrides: dict[str, Any] | None = None) -> ExperimentSpec:
    """Read and validate a spec file; ``overrides`` replace top-level fields (games, seed, ...)."""
    p = Path(path)
    if p.is_dir():
        raise SpecError(f"{path}: is a directory, not a spec file")
    if not p.is_file():
        raise SpecError(f"{path}: file not found")
    try:
        raw = tomllib.loads(read_text_file(p))
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from None
    raw.setdefault("name", p.stem)
    resolve_data_paths(raw, p.parent)  # replacement data files are relative to the spec
    return parse_spec(raw, str(path), overrides)


def parse_spec(raw: dict[str, Any], source: str = "<spec>", overrides: dict[str, Any] | None = None) -> ExperimentSpec:
    """Validate a spec dict (see the module docstring): one function per part, each error naming its field."""
    from simlab.core.game import get_game

    raw = copy.deepcopy(raw)
    for key, value in (overrides or {}).items():
        if value is not None:
            raw[key] = value
    _unknown(source, "", raw, _TOP_KEYS)
    for key in ("game", "players"):
        if key not in raw:
            raise _fail(source, key, "required")
    name = _check_name(source, _type(source, "name", raw.get("name", "experiment"), str, "a string"))
    game_name = _type(source, "game", raw["game"], str, "a game name")
    try:
        game = get_game(game_name)
    except SimlabError as exc:
        raise _fail(source, "game", str(exc)) from None
    run = _parse_run(raw, source)
    record, options = _parse_record_and_options(raw, source, game)
    players = _parse_players(raw, source, game)
    games, shard_size, timeout = run["games"], run["shard_size"], run.pop("timeout")
    stop = _parse_stop(raw.get("stop"), source, players.pop("specs"))
    try:
        variants = parse_variants(raw, game)
    except VariantSpecError as exc:
        raise _fail(source, exc.field, exc.what) from None
    shards = -(-games // shard_size) * len(variants)
    if shards > MAX_SHARDS:
        raise _fail(source, "shard_size", f"{games:,} games in shards of {shard_size:,} for {len(variants)} "
                                          f"variant(s) make {shards:,} shards, more than {MAX_SHARDS:,}: "
                                          "raise shard_size")
    _check_rulesets(game, options, variants, players["n_players"], source)
    if "tune" in raw:  # kept as it is in raw: simlab.tune.spec reads it where a tune is run (see ExperimentSpec.tune)
        _type(source, "tune", raw["tune"], dict, "a table")
    return ExperimentSpec(
        name=name, game=game.name, **run, record=list(record), options=dict(options), **players,
        stop=stop, variants=variants, source=source, description=str(raw.get("description", "")), raw=raw,
        decision_timeout=float(timeout) or None,
        companion=parse_companion(raw["companion"], source) if "companion" in raw else None,
    )



def run_fields(raw: dict[str, Any], source: str) -> dict[str, Any]:
    """A raw spec's run fields, validated as :func:`parse_spec` validates them (a :class:`SpecError` naming
    the field): ``seed``, ``games``, ``shard_size``, ``timeout``, ``workers``, ``backend``, ``scheduler``.
    ``simlab run`` checks them before it starts its workers (:func:`simlab.runner.backends.prestart_local`)."""
    return _parse_run(raw, source)


def _parse_run(raw: dict[str, Any], source: str) -> dict[str, Any]:
    """``seed``, ``games``, ``shard_size``, ``decision_timeout`` (as ``timeout``), ``workers``, ``backend`` and
    ``scheduler``."""
    seed = _type(source, "seed", raw.get("seed", 0), int, "an integer")
    if not 0 <= seed <= MAX_SEED:
        raise _fail(source, "seed", f"{seed} is outside 0..2**63-1 (the seed range of a 64-bit table column)")
    games = _type(source, "games", raw.get("games", 10_000), int, "an integer")
    if games > MAX_GAMES:
        raise _fail(source, "games", f"{games:,} is more than the limit of {MAX_GAMES:,} games per variant")
    if games < 1:
        raise _fail(source, "games", "must be at least 1")
    shard_size = _type(source, "shard_size", raw.get("shard_size", 10_000), int, "an integer")
    if shard_size < 1:
        raise _fail(source, "shard_size", "must be at least 1")
    if shard_size > MAX_SHARD_SIZE:
        raise _fail(source, "shard_size", f"{shard_size:,} is more than {MAX_SHARD_SIZE:,} games per shard "
                                          "(a shard's tables are held in memory)")
    timeout = _type(source, "decision_timeout", raw.get("decision_timeout", DEFAULT_DECISION_TIMEOUT), (int, float),
                    "a number of seconds (0: no limit)")
    if not 0 <= timeout < float("inf"):
        raise _fail(source, "decision_timeout", f"{timeout} must be 0 (no limit) or a positive number of seconds")
    workers = _type(source, "workers", raw.get("workers", 0), int, "an integer (0 = all cores)")
    if workers < 0:
        raise _fail(source, "workers", "must be 0 (all cores) or more")
    backend = _type(source, "backend", raw.get("backend", "local"), str, "local or dask")
    if backend not in BACKENDS:
        raise _fail(source, "backend", f"'{backend}' is not one of {', '.join(BACKENDS)}")
    scheduler = raw.get("scheduler")
    if scheduler is not None:
        _type(source, "scheduler", scheduler, str, "an address like tcp://host:8786")
    return {"seed": seed, "games": games, "shard_size": shard_size, "timeout": timeout, "workers": workers,
            "backend": backend, "scheduler": scheduler}


def _parse_record_and_options(raw: dict[str, Any], source: str, game: Any) -> tuple[list[str], dict[str, Any]]:
    """The event tables to record and the rule options, checked against the game."""
    record = _type(source, "record", raw.get("record", []), list, "a list of event table names")
    tables = game.event_tables()
    for i, table in enumerate(record):
        if table not in tables:
            raise _fail(source, f"record[{i}]", f"'{table}' is not an event table of {game.name} "
                                                f"(tables: {', '.join(tables) or 'none'})")
    options = _type(source, "options", raw.get("options", {}), dict, "a table of rule options")
    _check_options(game, options, source, "options")

    return record, options


def _parse_players(raw: dict[str, Any], source: str, game: Any) -> dict[str, Any]:
    """``[players]``: seats or a pool, player counts, match, focus, repeat, rotation (and the specs named)."""
    from simlab.core.player import check_labels, resolve_player

    players = _type(source, "players", raw["players"], dict, "a table")
    _unknown(source, "players.", players, _PLAYER_KEYS)
    seats = players.get("seats")
    pool = players.get("pool")
    if (seats is None) == (pool is None):
        raise _fail(source, "players", "give either 'seats' (one player per seat) or 'pool' (players to match)")
    rotation = _type(source, "players.rotation", players.get("rotation", "cyclic"), str, "none, cyclic or all")
    if rotation not in ROTATIONS:
        raise _fail(source, "players.rotation", f"'{rotation}' is not one of {', '.join(ROTATIONS)}"
                                                  f"{did_you_mean(rotation, ROTATIONS)}")
    match = _type(source, "players.match", players.get("match", "round_robin"), str,
                  "round_robin, focus or self")
    if match not in MATCHES:
        raise _fail(source, "players.match", f"'{match}' is not one of {', '.join(MATCHES)}")
    focus = players.get("focus")
    repeat = _type(source, "players.repeat", players.get("repeat", False), bool, "true or false")
    specs = seats if seats is not None else pool
    where = "players.seats" if seats is not None else "players.pool"
    _type(source, where, specs, list, "a list of player specs")
    resolved = []
    for i, spec in enumerate(specs):
        _type(source, f"{where}[{i}]", spec, str, "a player spec string")
        try:
            resolved.append(resolve_player(game, spec))
        except SimlabError as exc:
            raise _fail(source, f"{where}[{i}]", str(exc)) from None
    try:
        check_labels(resolved)
    except SimlabError as exc:
        raise _fail(source, where, str(exc)) from None
    if seats is not None:
        n_players = [len(seats)]
        if "n_players" in players and players["n_players"] != len(seats):
            raise _fail(source, "players.n_players", f"{players['n_players']} does not match {len(seats)} seats")
    else:
        n_raw = players.get("n_players", game.min_players)
        n_players = n_raw if isinstance(n_raw, list) else [n_raw]
        for n in n_players:
            _type(source, "players.n_players", n, int, "an integer or a list of integers")
        if len(pool) < 1:
            raise _fail(source, "players.pool", "is empty")
        if match == "round_robin" and repeat and len(set(pool)) == 1:
            raise _fail(source, "players.pool", "one player with repeat = true gives no line-up (a player against "
                                                "copies of itself is left out of a round robin): for self-play "
                                                "write match = \"self\"")
        if match != "self" and not repeat and len(pool) < max(n_players):
            raise _fail(source, "players.pool", f"{len(pool)} players cannot fill {max(n_players)} seats without "
                                                "repeat = true")
        if match == "focus" and (focus is None or focus not in pool):
            raise _fail(source, "players.focus", "match = 'focus' needs a focus player from the pool"
                                                 f"{did_you_mean(focus, pool) if isinstance(focus, str) else ''}")
    for n in n_players:
        if not game.min_players <= n <= game.max_players:
            raise _fail(source, "players", f"{game.name} takes {game.min_players}-{game.max_players} players, not {n}")

    return {"seats": seats, "pool": pool, "n_players": [int(n) for n in n_players], "match": match, "focus": focus,
            "repeat": repeat, "rotation": rotation, "specs": specs}


def _check_rulesets(game: Any, options: dict[str, Any], variants: list[Variant], n_players: list[int],
                    source: str) -> None:
    """Build every variant's rule set for every player count, so that data the game cannot play
    with (too few cards left after ``remove``, say) fails now, before the run folder exists."""
    for v in variants:
        data = variant_data(game, v)
        for n in sorted(set(n_players)):
            try:
                game.ruleset(int(n), {**options, **v.options}, data)
            except SimlabError as exc:
                where = "data" if v.name == "base" else f"variants.{v.name}"
                raise _fail(source, where, f"{n} players: {exc}") from None


def _check_options(game: Any, options: dict[str, Any], source: str, where: str) -> None:
    from simlab.core.options import resolve_options

    try:
        resolve_options(game.option_table(), options)
    except SimlabError as exc:
        raise _fail(source, where, str(exc)) from None


def _parse_stop(stop: Any, source: str, specs: list[str]) -> StopRule | None:
    if stop is None:
        return None
    _type(source, "stop", stop, dict, "a table")
    _unknown(source, "stop.", stop, _STOP_KEYS)
    rule = stop.get("rule")
    if rule not in STOP_RULES:
        raise _fail(source, "stop.rule", f"expected one of {', '.join(STOP_RULES)}, got {rule!r}")
    check_every = _type(source, "stop.check_every", stop.get("check_every", 10_000), int, "an integer")
    if check_every < 1:
        raise _fail(source, "stop.check_every", "must be at least 1")
    out = StopRule(rule=rule, check_every=check_every)
    if rule == "ci":
        out.player = stop.get("player")
        out.seat = stop.get("seat")
        if (out.player is None) == (out.seat is None):
            raise _fail(source, "stop", "rule 'ci' needs exactly one of 'player' (a spec from players) or 'seat'")
        if out.player is not None and out.player not in specs:
            raise _fail(source, "stop.player", f"'{out.player}' is not among the players"
                                               f"{did_you_mean(out.player, specs)}")
        if out.seat is not None:
            _type(source, "stop.seat", out.seat, int, "a seat number")
        out.half_width = float(_type(source, "stop.half_width", stop.get("half_width", 0.01), (int, float), "a number"))
        if not 0 < out.half_width < 0.5:
            raise _fail(source, "stop.half_width", "must be between 0 and 0.5")
    else:
        for key in ("player_a", "player_b"):
            value = stop.get(key)
            if value not in specs:
                raise _fail(source, f"stop.{key}", f"{value!r} is not among the players"
                                                   f"{did_you_mean(value, specs) if isinstance(value, str) else ''}")
            setattr(out, key, value)
        if out.player_a == out.player_b:
            raise _fail(source, "stop.player_b", "must differ from player_a")
        for key in ("elo0", "elo1", "alpha", "beta"):
            if key in stop:
                setattr(out, key, float(_type(source, f"stop.{key}", stop[key], (int, float), "a number")))
        if out.elo1 <= out.elo0:
            raise _fail(source, "stop.elo1", "must be greater than elo0")
        for key in ("alpha", "beta"):
            if not 0 < getattr(out, key) < 0.5:
                raise _fail(source, f"stop.{key}", "must be between 0 and 0.5")
    from simlab.core.player import stored_name

    for key in ("player", "player_a", "player_b"):  # the rule reads the stored player column: labels there
        if getattr(out, key) is not None:
            setattr(out, key, stored_name(getattr(out, key)))
    return out
