"""The win-rate summary of a table of seats: per player, seat or position, with deal-clustered intervals."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from simlab.analysis.intervals import clustered_wilson, wilson_interval

_DENSE_RANGE = 1 << 22  # integer keys spanning at most this many values (or 4 per row) are coded by offset


def summary_table(seats: pl.DataFrame, by: Sequence[str] = ("player", "seat"), cluster: str | None = None
                  ) -> pl.DataFrame:
    """Games, win rate (shared wins split) with a 95% interval clustered by deal, and mean score, per group.

    The win rate is the mean ``win_share`` of the group's seat-games. Its interval is the
    deal-clustered Wilson interval of ``simlab.analysis.seat_win_rates`` (Wilson on the
    effective number of games, t quantile on ``deals − 1``): the seatings of a deal share its
    seed, so they count as one cluster. ``cluster`` names the cluster column (default: ``deal``
    when the frame has it); without one (``play_batch`` output: independent games) the
    interval is the plain Wilson interval over games. Columns: ``by``, ``games``, ``deals``
    (clusters), ``wins``, ``mean_score``, ``sd_score``, ``win_rate``, ``win_lo``, ``win_hi``,
    sorted by ``by`` read from the last column to the first.

    Groups and clusters are integer codes of the key columns (one pass over each column), so
    millions of seat rows take a fraction of a second. Games, wins, mean and standard deviation
    of the score are polars' aggregations of each group's rows in frame order; the clustered
    residual sum over a group's (group, cluster) cells is exactly rounded (``math.fsum``), so
    it does not depend on the order in which the cells are met.
    """
    by = list(by)
    independent = cluster is None and "deal" not in seats.columns
    if cluster is None:
        cluster_keys = ["deal"] if "deal" in seats.columns else [k for k in ("variant", "game") if k in seats.columns]
    else:
        cluster_keys = [cluster]
    group, keys = _group_codes(seats, by)
    n_groups = keys.height
    clusters = _group_codes(seats, cluster_keys)[0]
    n_clusters = int(clusters.max()) + 1 if clusters.size else 0
    share = seats["win_share"].cast(pl.Float64).to_numpy()
    totals = pl.DataFrame({"_g": group, "win_share": seats["win_share"], "score": seats["score"]}).group_by("_g").agg(
        pl.len().alias("games"),
        pl.col("win_share").sum().alias("wins"),
        pl.col("score").mean().alias("mean_score"),
        pl.col("score").std().alias("sd_score"),
    ).sort("_g")
    games = totals["games"].to_numpy()
    wins = totals["wins"].cast(pl.Float64).to_numpy()
    cell, cell_group = _cells(group, clusters, n_groups, n_clusters)
    cell_n = np.bincount(cell, minlength=cell_group.size).astype(np.float64)
    cell_w = np.bincount(cell, weights=share, minlength=cell_group.size)
    deals = np.bincount(cell_group, minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = wins / games
    squares = (cell_w - rate[cell_group] * cell_n) ** 2
    bounds = np.searchsorted(cell_group, np.arange(n_groups + 1))  # cells are in group order
    r2 = np.array([math.fsum(squares[a:b].tolist()) for a, b in itertools.pairwise(bounds)], dtype=np.float64)
    rows = keys.with_columns(
        totals["games"], pl.Series("deals", deals, dtype=pl.UInt32), totals["wins"],
        totals["mean_score"], totals["sd_score"],
        (totals["wins"] / totals["games"]).alias("win_rate"),
        pl.Series("_r2", r2, dtype=pl.Float64),
    ).sort(by[::-1])
    g = rows["deals"].to_numpy().astype(np.float64)
    n = rows["games"].to_numpy().astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where(g > 1, np.sqrt(g / (g - 1) * rows["_r2"].to_numpy()) / n, np.nan)
    if independent:
        lo, hi = wilson_interval(rows["wins"].to_numpy(), n)
    else:
        lo, hi, _, _ = clustered_wilson(rows["win_rate"].to_numpy(), se, n, g)
    return rows.drop("_r2").with_columns(pl.Series("win_lo", lo), pl.Series("win_hi", hi))


def _group_codes(frame: pl.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, pl.DataFrame]:
    """Each row's group (0..k-1) under the columns' value combinations, and the k combinations.

    Groups are numbered in the order of their key values (each column's distinct values sorted,
    nulls last; the first column most significant); only combinations that occur are kept.
    """
    codes = np.zeros(frame.height, dtype=np.int64)
    values: list[pl.Series] = []
    for name in columns:
        col_codes, distinct = _column_codes(frame[name])
        codes = codes * len(distinct) + col_codes
        values.append(distinct)
    sizes = [len(v) for v in values]
    total = int(np.prod(sizes, dtype=np.float64)) if sizes else 1
    if total <= max(4 * frame.height, 1024):
        present = np.bincount(codes, minlength=total) > 0
        used = np.flatnonzero(present)
        remap = np.cumsum(present) - 1
        codes = remap[codes]
    else:  # a sparse product of many keys: number the combinations that occur
        used, codes = np.unique(codes, return_inverse=True)
        codes = codes.reshape(-1)
    keys = {}
    rest = used
    for name, distinct, size in zip(columns[::-1], values[::-1], sizes[::-1], strict=True):
        keys[name] = distinct.gather(rest % size)
        rest = rest // size
    return codes.astype(np.int64), pl.DataFrame([keys[name] for name in columns])


def _column_codes(column: pl.Series) -> tuple[np.ndarray, pl.Series]:
    """Each value's index among the column's distinct values (sorted, null last), and those values."""
    if column.dtype.is_integer() and column.null_count() == 0 and column.len():
        v = column.to_numpy().astype(np.int64)
        lo, hi = int(v.min()), int(v.max())
        if hi - lo < max(4 * v.size, _DENSE_RANGE):
            present = np.bincount(v - lo, minlength=hi - lo + 1) > 0
            remap = np.cumsum(present) - 1
            return remap[v - lo], pl.Series(column.name, np.flatnonzero(present) + lo).cast(column.dtype)
        distinct, inverse = np.unique(v, return_inverse=True)
        return inverse.reshape(-1), pl.Series(column.name, distinct).cast(column.dtype)
    if isinstance(column.dtype, pl.Categorical | pl.Enum):
        if column.null_count() == 0:  # code the categories' physical numbers, keep the dtype
            codes, _ = _column_codes(column.to_physical())
            distinct = column.unique()
            return codes, distinct.gather(np.argsort(distinct.to_physical().to_numpy(), kind="stable"))
        codes, distinct = _column_codes(column.cast(pl.Utf8))
        return codes, distinct.cast(column.dtype)
    distinct = column.unique().sort(nulls_last=True)
    known = distinct.drop_nulls()
    nulls = column.null_count()
    probe = column.fill_null(known[0]) if nulls and known.len() else column
    codes = known.search_sorted(probe, side="left").to_numpy().astype(np.int64) if known.len() else \
        np.zeros(column.len(), dtype=np.int64)
    if nulls:
        codes[column.is_null().to_numpy()] = known.len()  # null sorts last
    return codes, distinct


def _cells(group: np.ndarray, clusters: np.ndarray, n_groups: int, n_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's (group, cluster) cell (0..c-1, in group then cluster order) and each cell's group."""
    if n_groups * n_clusters <= max(4 * group.size, 1024):
        flat = group * n_clusters + clusters
        present = np.bincount(flat, minlength=n_groups * n_clusters) > 0
        used = np.flatnonzero(present)
        return (np.cumsum(present) - 1)[flat], used // max(n_clusters, 1)
    used, cell = np.unique(group * n_clusters + clusters, return_inverse=True)
    return cell.reshape(-1), used // n_clusters
