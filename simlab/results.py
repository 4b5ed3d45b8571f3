"""Stored runs and tunes: list them, show one, load a run's tables as lazy polars frames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simlab.core.errors import SimlabError
from simlab.runner.folders import DEFAULT_ROOT, manifest, resolve_run
from simlab.runner.store import RunStore

__all__ = ["DEFAULT_ROOT", "check_shard_file", "is_tune", "list_runs", "load", "manifest", "position_columns",
           "resolve_run", "resolve_tune", "summary", "tune_manifest", "tune_result"]  # the public API of simlab.results

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


TUNE_MANIFEST = "tune.json"  # a tune folder's manifest (``simlab tune``; read here as plain JSON)
LIST_SCHEMA = {"kind": pl.Utf8, "experiment": pl.Utf8, "run": pl.Utf8, "status": pl.Utf8, "games": pl.Int64,
               "planned": pl.Int64, "trials": pl.Int64, "result": pl.Utf8, "created": pl.Utf8, "path": pl.Utf8}


def is_tune(path: str | Path) -> bool:
    """Whether ``path`` is a tune folder (it holds a ``tune.json``)."""
    return (Path(path) / TUNE_MANIFEST).is_file()


def resolve_tune(name: str | Path, root: str | Path = DEFAULT_ROOT) -> Path | None:
    """A tune folder from a path, ``experiment/tune`` or a bare tune folder name under ``root``; None if none."""
    p, r = Path(name), Path(root)
    for candidate in (p, r / p):
        if is_tune(candidate):
            return candidate
    matches = sorted(m.parent for m in r.glob(f"*/{name}/{TUNE_MANIFEST}")) if r.is_dir() else []
    if len(matches) > 1:
        raise SimlabError(f"tune '{name}' is ambiguous: " + ", ".join(map(str, matches)))
    return matches[0] if matches else None


def tune_manifest(path: str | Path) -> dict[str, Any]:
    """A tune folder's ``tune.json`` (a one-line error when it cannot be read)."""
    file = Path(path) / TUNE_MANIFEST
    try:
        man = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SimlabError(f"{file}: unreadable tune manifest ({exc})") from None
    if not isinstance(man, dict):
        raise SimlabError(f"{file}: unreadable tune manifest (not a JSON object)")
    return man


def tune_result(man: dict[str, Any]) -> str:
    """A tune's answer in one line: the verdict on the recommended change, or why there is none (yet)."""
    answer = man.get("answer") or {}
    if "recommended" in answer and not answer["recommended"]:
        return "no change recommended" + (f": {answer['improvement']}" if answer.get("improvement") else "")
    if answer.get("improvement"):
        return str(answer["improvement"])
    if answer.get("note"):
        return str(answer["note"])
    return {"searching": "search not finished", "confirming": "confirmation not finished"}.get(
        str(man.get("status")), "no answer")


def list_runs(root: str | Path = DEFAULT_ROOT) -> pl.DataFrame:
    """One row per stored run and per tune under ``root`` (``results/<experiment>/<folder>``), by path.

    Columns: ``kind`` (``run`` or ``tune``), ``experiment``, ``run`` (the folder name), ``status``,
    ``games`` (stored; a tune: played by its search), ``planned`` (a run's planned games, all
    variants), ``trials`` (a tune's search trials), ``result`` (a tune's answer in one line,
    :func:`tune_result`), ``created``, ``path``. A folder whose manifest cannot be read is left out.
    """
    rows = []
    r = Path(root)
    found = [(m.parent, "run") for m in r.glob("*/*/manifest.json")] if r.is_dir() else []
    found += [(m.parent, "tune") for m in r.glob(f"*/*/{TUNE_MANIFEST}")] if r.is_dir() else []
    for folder, kind in sorted(found, key=lambda f: str(f[0])):
        try:
            man = RunStore(folder).read_manifest() if kind == "run" else tune_manifest(folder)
        except SimlabError:
            continue
        search = man.get("search") or {}
        rows.append({
            "kind": kind,
            "experiment": man.get("experiment"),
            "run": man.get("run", folder.name),
            "status": man.get("status"),
            "games": man.get("games_done", 0) if kind == "run" else search.get("games"),
            "planned": (man.get("plan") or {}).get("games", 0) * len(man.get("variants", [1])) if kind == "run"
            else None,
            "trials": search.get("trials") if kind == "tune" else None,
            "result": tune_result(man) if kind == "tune" else None,
            "created": man.get("created"),
            "path": str(folder),
        })
    return pl.DataFrame(rows, schema=LIST_SCHEMA)


def position_columns(game_name: str | None, columns: list[str]) -> list[str]:
    """The seat columns of a game naming what a seat is dealt (a start position, a colour, a character) in ``columns``.

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


def with_game_columns(seats: pl.DataFrame, games: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """``seats`` with the ``columns`` of each row's game appended: its left join with ``games`` on
    (``variant``, ``game``), in the seats' row order.

    Where each variant's games are distinct, null-free, and numbered densely enough to index an
    array (a run's games are), each column is gathered by game number (a tenth of the join's time
    on millions of seat rows); otherwise the join itself is used.
    """
    gathered = _gather_by_game(seats, games, columns)
    if gathered is None:
        return seats.join(games.select("variant", "game", *columns), on=["variant", "game"], how="left",
                          maintain_order="left")
    return seats.with_columns(gathered)


def _gather_by_game(seats: pl.DataFrame, games: pl.DataFrame, columns: list[str]) -> list[pl.Series] | None:
    """The games' ``columns`` for each seat row, looked up by (variant, game number); None where a plain
    lookup cannot stand in for the join (a game listed twice or missing, a null, sparse game numbers)."""
    if any(games[c].null_count() for c in ("variant", "game", *columns)) or seats["game"].null_count():
        return None
    seat_games = seats["game"].to_numpy()
    game_numbers = games["game"].to_numpy()
    values = {c: games[c].to_numpy() for c in columns}
    out = {c: np.empty(seats.height, dtype=values[c].dtype) for c in columns}
    variants = games["variant"].unique(maintain_order=True).to_list()
    if not set(seats["variant"].unique().to_list()) <= set(variants):  # a seat whose variant has no games
        return None
    single = len(variants) == 1  # every row of both tables: no masks needed
    for variant in variants:
        rows = None if single else (games["variant"] == variant).to_numpy()
        where = None if single else (seats["variant"] == variant).to_numpy()
        numbers = game_numbers if rows is None else game_numbers[rows]
        wanted = seat_games if where is None else seat_games[where]
        if not numbers.size:
            continue
        lo, hi = int(numbers.min()), int(numbers.max())
        if hi - lo >= max(4 * numbers.size, 1024):
            return None
        position = np.full(hi - lo + 1, -1, dtype=np.int64)
        position[numbers - lo] = np.arange(numbers.size)
        if np.count_nonzero(position >= 0) != numbers.size:  # a game listed twice
            return None
        inside = (wanted >= lo) & (wanted <= hi)
        index = np.where(inside, position[np.where(inside, wanted - lo, 0)], -1)
        if index.size and index.min() < 0:  # a seat whose game is not in the games table
            return None
        for c in columns:
            picked = (values[c] if rows is None else values[c][rows])[index]
            if where is None:
                out[c] = picked
            else:
                out[c][where] = picked
    return [pl.Series(c, out[c], dtype=games[c].dtype) for c in columns]


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
    games = tables["games"]
    gcols = [c for c in ("deal", "n_players") if c in games.collect_schema().names()]
    if gcols:
        seats = with_game_columns(seats, games.select("variant", "game", *gcols).collect(), gcols)
    if "n_players" not in seats.columns:
        seats = seats.with_columns(pl.len().over("variant", "game").cast(pl.Int64).alias("n_players"))
    text = ("variant", "player", *positions)  # categorical in the tables; text in the summary (cast per group)

    def table(by: tuple[str, ...]) -> pl.DataFrame:
        out = summary_table(seats, by)
        return out.with_columns([pl.col(c).cast(pl.Utf8) for c in by if c in text]).sort(list(by)[::-1])

    out = {
        "players": table(("variant", "player")),
        "seats": table(("seat", "n_players", "variant")),  # sorted by variant, n_players, seat
    }
    for c in positions:
        out[f"position:{c}"] = table((c, "n_players", "variant"))
    return out
