"""Experiment specs: TOML files under ``experiments/``, validated before anything runs.

See ``docs/experiments.md`` for every field. :func:`load_spec` reads and validates a file;
:func:`parse_spec` validates a dict (what overrides and tests use). Every error is one line
naming the file and the field.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.core.dataedits import DataEditError, RowEdit, parse_edits
from simlab.core.datafiles import read_text_file
from simlab.core.errors import SimlabError

ROTATIONS = ("none", "cyclic", "all")
MATCHES = ("round_robin", "focus")
BACKENDS = ("local", "dask")
STOP_RULES = ("ci", "sprt")

_TOP_KEYS = {"name", "game", "seed", "games", "shard_size", "workers", "backend", "scheduler", "record", "options",
             "decision_timeout",
             "players", "stop", "data", "variants", "ablation", "description", "report"}
_PLAYER_KEYS = {"seats", "pool", "n_players", "match", "focus", "repeat", "rotation"}
_STOP_KEYS = {"rule", "player", "seat", "half_width", "player_a", "player_b", "elo0", "elo1", "alpha", "beta",
              "check_every"}
_DATA_KEYS = {"cards", "set", "remove"}  # Sentient's card overrides
_VARIANT_KEYS = {"name", "options", "cards", "set", "remove", "data", "edit"}
_ABLATION_KEYS = {"cards", "change", "delta"}
_SET_KEYS = {"card", "field", "value"}


MAX_SEED = 2**63 - 1  # seeds are stored in a signed 64-bit column (experiment_seed)
MAX_SHARD_SIZE = 1_000_000  # games per shard: one shard's tables are held in memory
MAX_SHARDS = 100_000  # shards per run (all variants): the manifest lists the finished ones
MAX_GAMES = MAX_SHARD_SIZE * MAX_SHARDS  # games per variant (10^11: weeks of CPU time at 50,000 games/s)
DEFAULT_DECISION_TIMEOUT = 60.0  # seconds a Python player may take per decision in a run (0: no limit)


class SpecError(SimlabError):
    """A spec that cannot run: the message names the file and the field."""


@dataclass
class CardChange:
    """One single-value data override: ``card``'s ``field`` set to ``value``."""

    card: int
    field: str
    value: Any


@dataclass
class Variant:
    """A data/option variant; every variant is played on the same seeds."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    cards: str | None = None
    changes: list[CardChange] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    card: int | None = None  # the card an ablation variant is about
    files: dict[str, str] = field(default_factory=dict)  # replacement data files (game-agnostic), by file stem
    edits: list[RowEdit] = field(default_factory=list)  # row edits of the data files (game-agnostic)


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
            raise _fail(source, f"{where}{key}", f"unknown key (allowed: {', '.join(sorted(allowed))})")


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
    base = p.parent
    variants = raw.get("variants", [])
    file_tables = [raw.get("data", {})]
    if isinstance(variants, list):
        file_tables += [v.get("data", {}) for v in variants if isinstance(v, dict)]
    for table in [raw.get("data", {}), *(variants if isinstance(variants, list) else [])]:
        if isinstance(table, dict) and isinstance(table.get("cards"), str):
            table["cards"] = _resolve(base, table["cards"])
    for table in file_tables:  # replacement data files, relative to the spec
        if isinstance(table, dict):
            for key, value in table.items():
                if key not in ("cards", "set", "remove", "edit") and isinstance(value, str):
                    table[key] = _resolve(base, value)
    return parse_spec(raw, str(path), overrides)


def _resolve(base: Path, path: str) -> str:
    return path if Path(path).is_absolute() else str((base / path).resolve())


def parse_spec(raw: dict[str, Any], source: str = "<spec>", overrides: dict[str, Any] | None = None) -> ExperimentSpec:
    """Validate a spec dict (see the module docstring)."""
    from simlab.core.game import get_game
    from simlab.core.player import resolve_player

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
    record = _type(source, "record", raw.get("record", []), list, "a list of event table names")
    tables = game.event_tables()
    for i, table in enumerate(record):
        if table not in tables:
            raise _fail(source, f"record[{i}]", f"'{table}' is not an event table of {game.name} "
                                                f"(tables: {', '.join(tables) or 'none'})")
    options = _type(source, "options", raw.get("options", {}), dict, "a table of rule options")
    _check_options(game, options, source, "options")

    players = _type(source, "players", raw["players"], dict, "a table")
    _unknown(source, "players.", players, _PLAYER_KEYS)
    seats = players.get("seats")
    pool = players.get("pool")
    if (seats is None) == (pool is None):
        raise _fail(source, "players", "give either 'seats' (one player per seat) or 'pool' (players to match)")
    rotation = _type(source, "players.rotation", players.get("rotation", "cyclic"), str, "none, cyclic or all")
    if rotation not in ROTATIONS:
        raise _fail(source, "players.rotation", f"'{rotation}' is not one of {', '.join(ROTATIONS)}")
    match = _type(source, "players.match", players.get("match", "round_robin"), str, "round_robin or focus")
    if match not in MATCHES:
        raise _fail(source, "players.match", f"'{match}' is not one of {', '.join(MATCHES)}")
    focus = players.get("focus")
    repeat = _type(source, "players.repeat", players.get("repeat", False), bool, "true or false")
    specs = seats if seats is not None else pool
    where = "players.seats" if seats is not None else "players.pool"
    _type(source, where, specs, list, "a list of player specs")
    for i, spec in enumerate(specs):
        _type(source, f"{where}[{i}]", spec, str, "a player spec string")
        try:
            resolve_player(game, spec)
        except SimlabError as exc:
            raise _fail(source, f"{where}[{i}]", str(exc)) from None
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
        if not repeat and len(pool) < max(n_players):
            raise _fail(source, "players.pool", f"{len(pool)} players cannot fill {max(n_players)} seats without "
                                                "repeat = true")
        if match == "focus" and (focus is None or focus not in pool):
            raise _fail(source, "players.focus", "match = 'focus' needs a focus player from the pool")
    for n in n_players:
        if not game.min_players <= n <= game.max_players:
            raise _fail(source, "players", f"{game.name} takes {game.min_players}-{game.max_players} players, not {n}")

    stop = _parse_stop(raw.get("stop"), source, specs)
    variants = _parse_variants(raw, source, game)
    shards = -(-games // shard_size) * len(variants)
    if shards > MAX_SHARDS:
        raise _fail(source, "shard_size", f"{games:,} games in shards of {shard_size:,} for {len(variants)} "
                                          f"variant(s) make {shards:,} shards, more than {MAX_SHARDS:,}: "
                                          "raise shard_size")
    _check_rulesets(game, options, variants, n_players, source)
    return ExperimentSpec(
        name=name, game=game.name, seed=seed, games=games, shard_size=shard_size, workers=workers,
        backend=backend, scheduler=scheduler, record=list(record), options=dict(options), seats=seats, pool=pool,
        n_players=[int(n) for n in n_players], match=match, focus=focus, repeat=repeat, rotation=rotation,
        stop=stop, variants=variants, source=source, description=str(raw.get("description", "")), raw=raw,
        decision_timeout=float(timeout) or None,
    )


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
            raise _fail(source, "stop.player", f"'{out.player}' is not among the players")
        if out.seat is not None:
            _type(source, "stop.seat", out.seat, int, "a seat number")
        out.half_width = float(_type(source, "stop.half_width", stop.get("half_width", 0.01), (int, float), "a number"))
        if not 0 < out.half_width < 0.5:
            raise _fail(source, "stop.half_width", "must be between 0 and 0.5")
    else:
        for key in ("player_a", "player_b"):
            value = stop.get(key)
            if value not in specs:
                raise _fail(source, f"stop.{key}", f"{value!r} is not among the players")
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
    return out


def _parse_changes(table: dict, source: str, where: str) -> list[CardChange]:
    changes = []
    for i, item in enumerate(_type(source, f"{where}.set", table.get("set", []), list, "a list of tables")):
        _type(source, f"{where}.set[{i}]", item, dict, "a table {card, field, value}")
        _unknown(source, f"{where}.set[{i}].", item, _SET_KEYS)
        for key in _SET_KEYS:
            if key not in item:
                raise _fail(source, f"{where}.set[{i}].{key}", "required")
        card = _type(source, f"{where}.set[{i}].card", item["card"], int, "a card id (an integer)")
        fname = _type(source, f"{where}.set[{i}].field", item["field"], str, "a column name")
        changes.append(CardChange(card, fname, item["value"]))
    return changes


def _parse_removed(table: dict, source: str, where: str) -> list[int]:
    removed = _type(source, f"{where}.remove", table.get("remove", []), list, "a list of card ids")
    for i, cid in enumerate(removed):
        _type(source, f"{where}.remove[{i}]", cid, int, "a card id")
    return list(removed)


def data_hooks(game: Any) -> Any:
    """The game's data-variant hooks, or None: the ``variants`` module of the game's package.

    A game that supports replacement data files and row edits (``data = {...}``, ``edit = [...]``
    in a spec) provides ``simlab.games.<game>.variants`` (the package its Game class lives in)
    with ``DATA_FILES`` (the file stems a spec may name), ``variant_data(files, edits)`` (the
    loaded data set) and ``data_texts(files, edits)`` (each file's text as played, for the
    manifest's data hash). A game object may instead carry the hooks as ``data_variants``.
    """
    hooks = getattr(game, "data_variants", None)
    if hooks is not None:
        return hooks
    module = sys.modules.get(type(game).__module__)
    package = getattr(module, "__package__", None) or type(game).__module__.rpartition(".")[0]
    name = f"{package}.variants"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def _parse_files(table: Any, source: str, where: str, game: Any, hooks: Any) -> dict[str, str]:
    """Replacement data files ``{stem: path}`` of a ``[data]`` table or a variant's ``data``."""
    _type(source, where, table, dict, "a table of data file = path")
    files = {}
    for key, value in table.items():
        if hooks is None:
            raise _fail(source, f"{where}.{key}", f"{game.name} has no replaceable data files")
        if key not in hooks.DATA_FILES:
            raise _fail(source, f"{where}.{key}", f"unknown data file (files: {', '.join(hooks.DATA_FILES)})")
        files[key] = _type(source, f"{where}.{key}", value, str, "a file path")
        if not Path(value).is_file():
            raise _fail(source, f"{where}.{key}", f"{value}: file not found")
    return files


def _parse_edits(items: Any, source: str, where: str, game: Any, hooks: Any) -> list[RowEdit]:
    if items is None:
        return []
    if hooks is None:
        raise _fail(source, where, f"{game.name} has no editable data files (no simlab.games.{game.name}.variants)")
    try:
        return parse_edits(items, where)
    except DataEditError as exc:
        raise _fail(source, exc.field, exc.what) from None


def _parse_variants(raw: dict[str, Any], source: str, game: Any) -> list[Variant]:
    data = _type(source, "data", raw.get("data", {}), dict, "a table")
    hooks = data_hooks(game)
    file_keys = set(getattr(hooks, "DATA_FILES", ()))
    _unknown(source, "data.", data, _DATA_KEYS | file_keys | {"edit"})
    if hooks is not None:
        for key in _DATA_KEYS - file_keys:
            if key in data:
                raise _fail(source, f"data.{key}", f"Sentient's card overrides do not apply to {game.name}: "
                                                   f"give data files ({', '.join(sorted(file_keys))}) or 'edit'")
    base = Variant("base", {}, data.get("cards"), _parse_changes(data, source, "data"),
                   _parse_removed(data, source, "data"),
                   files=_parse_files({k: v for k, v in data.items() if k in file_keys}, source, "data", game, hooks),
                   edits=_parse_edits(data.get("edit"), source, "data.edit", game, hooks))
    variants = [base]
    names = {"base"}
    for i, item in enumerate(_type(source, "variants", raw.get("variants", []), list, "a list of tables")):
        where = f"variants[{i}]"
        _type(source, where, item, dict, "a table")
        _unknown(source, f"{where}.", item, _VARIANT_KEYS)
        vname = _type(source, f"{where}.name", item.get("name", f"variant{i + 1}"), str, "a string")
        if vname in names:
            raise _fail(source, f"{where}.name", f"duplicate variant name '{vname}'")
        names.add(vname)
        options = _type(source, f"{where}.options", item.get("options", {}), dict, "a table")
        _check_options(game, {**raw.get("options", {}), **options}, source, f"{where}.options")
        if hooks is not None:
            for key in ("cards", "set", "remove"):
                if key in item:
                    raise _fail(source, f"{where}.{key}", f"Sentient's card overrides do not apply to {game.name}: "
                                                          "give data = {file = path} or 'edit'")
        files = _parse_files(item.get("data", {}), source, f"{where}.data", game, hooks)
        edits = _parse_edits(item.get("edit"), source, f"{where}.edit", game, hooks)
        variants.append(Variant(vname, options, item.get("cards", base.cards),
                                base.changes + _parse_changes(item, source, where),
                                base.removed + _parse_removed(item, source, where),
                                files={**base.files, **files}, edits=base.edits + edits))
    variants.extend(_ablation_variants(raw.get("ablation"), source, game, base, names))
    for v in variants:  # load the data now, so that a bad file or value fails before anything runs
        try:
            variant_data(game, v)
        except DataEditError as exc:
            raise _fail(source, exc.field, exc.what) from None
        except SimlabError as exc:
            raise _fail(source, "data" if v.name == "base" else f"variants.{v.name}", str(exc)) from None
    return variants


def _ablation_variants(table: Any, source: str, game: Any, base: Variant, names: set[str]) -> list[Variant]:
    """One variant per card: the card removed from the deck, or its printed VP changed by ``delta``."""
    if table is None:
        return []
    _type(source, "ablation", table, dict, "a table")
    _unknown(source, "ablation.", table, _ABLATION_KEYS)
    change = _type(source, "ablation.change", table.get("change", "remove"), str, "remove or vp")
    if change not in ("remove", "vp"):
        raise _fail(source, "ablation.change", f"'{change}' is not one of remove, vp")
    delta = _type(source, "ablation.delta", table.get("delta", 1), int, "an integer")
    data = variant_data(game, base) or game.default_data()
    if not hasattr(data, "cards"):
        raise _fail(source, "ablation", f"{game.name} has no cards to ablate")
    cards = {c.id: c for c in data.cards}
    wanted = table.get("cards", "all")
    if wanted == "all":
        ids = list(cards)
    else:
        ids = _type(source, "ablation.cards", wanted, list, "\"all\" or a list of card ids")
        for i, cid in enumerate(ids):
            if cid not in cards:
                raise _fail(source, f"ablation.cards[{i}]", f"no card with id {cid!r}")
    out = []
    for cid in ids:
        if change == "remove":
            v = Variant(f"card{cid}_removed", {}, base.cards, list(base.changes), [*base.removed, cid], card=cid)
        else:
            if cards[cid].printed_vp is None:
                continue  # information and service cards score by rule, not a printed VP
            vp = cards[cid].printed_vp + delta
            v = Variant(f"card{cid}_vp{vp}", {}, base.cards,
                        [*base.changes, CardChange(cid, "printed_vp", vp)], list(base.removed), card=cid)
        if v.name in names:
            raise _fail(source, "ablation", f"variant name '{v.name}' is already used")
        names.add(v.name)
        out.append(v)
    return out


def variant_data(game: Any, variant: Variant) -> Any:
    """The data set of a variant (None: the game's bundled data).

    Replacement files and row edits go to the game's data hooks (:func:`data_hooks`);
    ``cards``, ``set`` and ``remove`` are Sentient's card overrides.
    """
    if variant.files or variant.edits:
        hooks = data_hooks(game)
        if hooks is None:
            raise SimlabError(f"{game.name} has no replaceable or editable data files")
        return hooks.variant_data(dict(variant.files), list(variant.edits))
    if variant.cards is None and not variant.changes and not variant.removed:
        return None
    if game.name != "sentient":
        raise SimlabError(f"data overrides are not supported for {game.name} yet")
    from simlab.games.sentient.data import load_data

    data = load_data(variant.cards) if variant.cards else game.default_data()
    if variant.changes:
        merged: dict[int, dict[str, Any]] = {}
        for ch in variant.changes:
            merged.setdefault(ch.card, {})[ch.field] = ch.value
        data = data.with_card_values(merged)
    if variant.removed:
        data = data.without_cards(variant.removed)
    return data
