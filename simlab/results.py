"""Stored runs: list them, show one, load its tables as lazy polars frames."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from simlab.core.errors import SimlabError
from simlab.runner.store import RunStore

DEFAULT_ROOT = Path("results")


def resolve_run(run: str | Path, root: str | Path = DEFAULT_ROOT) -> Path:
    """A run directory from a path, ``experiment/run``, or a bare run name under ``root``."""
    p = Path(run)
    if (p / "manifest.json").is_file():
        return p
    r = Path(root)
    if (r / p / "manifest.json").is_file():
        return r / p
    matches = sorted(r.glob(f"*/{run}/manifest.json")) if r.is_dir() else []
    if len(matches) == 1:
        return matches[0].parent
    if len(matches) > 1:
        raise SimlabError(f"run '{run}' is ambiguous: " + ", ".join(str(m.parent) for m in matches))
    experiment = r / p
    if experiment.is_dir():
        runs = sorted(q.parent for q in experiment.glob("*/manifest.json"))
        if runs:
            return runs[-1]
    raise SimlabError(f"no stored run '{run}' (looked in {p} and under {r}/)")


def manifest(run: str | Path, root: str | Path = DEFAULT_ROOT) -> dict[str, Any]:
    """The manifest of a run."""
    return RunStore(resolve_run(run, root)).read_manifest()


def load(run: str | Path, root: str | Path = DEFAULT_ROOT) -> dict[str, pl.LazyFrame]:
    """Table name -> lazy frame over the shards the manifest names (games past a stopping point left out).

    Exactly the files of ``shards_done`` are read, nothing else found in the folder; a named
    file that is missing or not readable parquet is a one-line error naming it, and so is a run
    that holds no stored shard at all (e.g. one that failed before its first shard was stored).
    """
    path = resolve_run(run, root)
    store = RunStore(path)
    man = store.read_manifest()
    if not any(store.done_files(man, table) for table in man.get("tables", ["games", "seats"])):
        status = man.get("status", "unknown")
        error = f": {man['error']}" if man.get("error") else ""
        raise SimlabError(f"run {path} ({status}{error}): no shard was stored, so there is no table to load")
    out: dict[str, pl.LazyFrame] = {}
    for table in man.get("tables", ["games", "seats"]):
        files = store.done_files(man, table)
        if not files:
            continue
        for file in files:
            check_shard_file(file)
        frame = pl.scan_parquet(files, glob=False)  # names are paths, not patterns ("[x]" is a name)
        for variant, stop in (man.get("stop") or {}).items():
            frame = frame.filter((pl.col("variant") != variant) | (pl.col("game") < int(stop["stop_at"])))
        out[table] = frame
    return out


def check_shard_file(file: Path) -> None:
    """Raise a one-line error naming ``file`` unless it is present, readable parquet (its footer checked)."""
    import pyarrow.parquet as pq

    if not file.is_file():
        raise SimlabError(f"{file}: shard named by the manifest is missing (resume the run to redo it)")
    try:
        pq.read_metadata(file)
    except Exception as exc:
        reason = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise SimlabError(f"{file}: unreadable shard ({reason}); resume the run to redo it") from None


def list_runs(root: str | Path = DEFAULT_ROOT) -> pl.DataFrame:
    """One row per stored run under ``root``."""
    rows = []
    r = Path(root)
    for m in sorted(r.glob("*/*/manifest.json")) if r.is_dir() else []:
        try:
            man = RunStore(m.parent).read_manifest()
        except SimlabError:
            continue
        rows.append({
            "experiment": man.get("experiment"),
            "run": man.get("run"),
            "status": man.get("status"),
            "games": man.get("games_done", sum(1 for _ in [])),
            "planned": man.get("plan", {}).get("games", 0) * len(man.get("variants", [1])),
            "created": man.get("created"),
            "path": str(m.parent),
        })
    return pl.DataFrame(rows, schema={"experiment": pl.Utf8, "run": pl.Utf8, "status": pl.Utf8, "games": pl.Int64,
                                      "planned": pl.Int64, "created": pl.Utf8, "path": pl.Utf8})


def position_columns(game_name: str | None, columns: list[str]) -> list[str]:
    """The seat columns of a game that name a start position (e.g. a colour), present in ``columns``.

    A game declares them as ``position_columns`` (a tuple of seat-table column names); a game
    that does not declares none there, and its categorical seat columns
    (``categorical_columns()["seats"]``, e.g. a start colour or region) are used instead.
    """
    if not game_name:
        return []
    try:
        from simlab.core.game import get_game

        game = get_game(game_name)
    except Exception:  # an unknown or unloadable game just has no positions here
        return []
    declared = game.position_columns
    if declared is None:
        declared = tuple(game.categorical_columns().get("seats", {}))
    return [c for c in declared if c in columns]


def summary(run: str | Path, root: str | Path = DEFAULT_ROOT) -> dict[str, pl.DataFrame]:
    """Win rates with 95% intervals clustered by deal: per player, per seat and per start position.

    Tables (each from ``simlab.analysis.summary.summary_table``): ``players`` (per variant and
    player), ``seats`` (per variant, ``n_players`` and seat) and, for each start-position
    column of the game (``position_columns``, e.g. a colour), ``position:<column>`` (per
    variant, ``n_players`` and position). Win rates are the mean ``win_share`` (shared wins
    split); the seatings of one deal share its seed, so intervals are deal-clustered (Wilson on
    the effective number of games; see ``simlab.analysis.seat_win_rates``).
    """
    from simlab.analysis.summary import summary_table

    path = resolve_run(run, root)
    tables = load(path)
    seats = tables["seats"]
    names = seats.collect_schema().names()
    positions = position_columns(manifest(path).get("game"), names)
    seats = seats.select("variant", "game", "player", "seat", "win_share", "score", *positions).collect()
    seats = seats.with_columns([pl.col(c).cast(pl.Utf8) for c in ("variant", "player", *positions)])
    games = tables["games"]
    gcols = [c for c in ("deal", "n_players") if c in games.collect_schema().names()]
    if gcols:
        g = games.select("variant", "game", *gcols).collect().with_columns(pl.col("variant").cast(pl.Utf8))
        seats = seats.join(g, on=["variant", "game"], how="left")
    if "n_players" not in seats.columns:
        seats = seats.with_columns(pl.len().over("variant", "game").cast(pl.Int64).alias("n_players"))
    out = {
        "players": summary_table(seats, ("variant", "player")),
        "seats": summary_table(seats, ("seat", "n_players", "variant")),  # sorted by variant, n_players, seat
    }
    for c in positions:
        out[f"position:{c}"] = summary_table(seats, (c, "n_players", "variant"))
    return out
