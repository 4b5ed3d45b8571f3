"""The win-rate summary of a table of seats: per player, seat or position, with deal-clustered intervals."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from simlab.analysis.intervals import clustered_wilson, wilson_interval


def summary_table(seats: pl.DataFrame, by: Sequence[str] = ("player", "seat"), cluster: str | None = None
                  ) -> pl.DataFrame:
    """Games, win rate (shared wins split) with a 95% interval clustered by deal, and mean score, per group.

    The win rate is the mean ``win_share`` of the group's seat-games. Its interval is the
    deal-clustered Wilson interval of ``simlab.analysis.seat_win_rates`` (Wilson on the
    effective number of games, t quantile on ``deals − 1``): the seatings of a deal share its
    seed, so they count as one cluster. ``cluster`` names the cluster column (default: ``deal``
    when the frame has it); without one (``play_batch`` output: independent games) the
    interval is the plain Wilson interval over games. Columns: ``by``, ``games``, ``deals``
    (clusters), ``wins``, ``mean_score``, ``sd_score``, ``win_rate``, ``win_lo``, ``win_hi``.
    """
    by = list(by)
    independent = cluster is None and "deal" not in seats.columns
    if cluster is None:
        cluster = "deal" if "deal" in seats.columns else "_cluster"
    if cluster == "_cluster":
        keys = [k for k in ("variant", "game") if k in seats.columns]
        seats = seats.with_columns(pl.struct(keys).rank("dense").alias("_cluster"))
    per = seats.group_by([*by, cluster]).agg(pl.len().alias("_n"), pl.col("win_share").cast(pl.Float64).sum()
                                             .alias("_w"))
    rows = seats.group_by(by).agg(
        pl.len().alias("games"),
        pl.col(cluster).n_unique().alias("deals"),
        pl.col("win_share").sum().alias("wins"),
        pl.col("score").mean().alias("mean_score"),
        pl.col("score").std().alias("sd_score"),
    ).with_columns((pl.col("wins") / pl.col("games")).alias("win_rate"))
    resid = per.join(rows.select([*by, "win_rate"]), on=by, how="left").group_by(by).agg(
        ((pl.col("_w") - pl.col("win_rate") * pl.col("_n")) ** 2).sum().alias("_r2"))
    rows = rows.join(resid, on=by, how="left").sort(by[::-1])
    g = rows["deals"].to_numpy().astype(np.float64)
    n = rows["games"].to_numpy().astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where(g > 1, np.sqrt(g / (g - 1) * rows["_r2"].to_numpy()) / n, np.nan)
    if independent:
        lo, hi = wilson_interval(rows["wins"].to_numpy(), n)
    else:
        lo, hi, _, _ = clustered_wilson(rows["win_rate"].to_numpy(), se, n, g)
    return rows.drop("_r2").with_columns(pl.Series("win_lo", lo), pl.Series("win_hi", hi))
