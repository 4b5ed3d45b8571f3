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
    file that is missing or not readable parquet is a one-line error naming it.
    """
    path = resolve_run(run, root)
    store = RunStore(path)
    man = store.read_manifest()
    out: dict[str, pl.LazyFrame] = {}
    for table in man.get("tables", ["games", "seats"]):
        files = store.done_files(man, table)
        if not files:
            continue
        for file in files:
            check_shard_file(file)
        frame = pl.scan_parquet(files)
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


def summary(run: str | Path, root: str | Path = DEFAULT_ROOT) -> dict[str, pl.DataFrame]:
    """Win rate with 95% Wilson intervals per player and per seat (per variant)."""
    from simlab.core.schema import summary_table

    seats = load(run, root)["seats"].select("variant", "player", "seat", "win_share", "score").collect()
    return {
        "players": summary_table(seats, ("variant", "player")),
        "seats": summary_table(seats, ("variant", "seat")),
    }
