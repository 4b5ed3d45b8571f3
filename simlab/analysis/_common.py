"""Shared plumbing for the analysis modules: frames, game keys, deals, deal-clustered means, rates and t-intervals.

Private: the public functions live in ``seats``, ``matchups``, ``cards`` and ``metrics``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats

Frame = pl.DataFrame | pl.LazyFrame

LEVEL = 0.95


def collect(frame: Frame) -> pl.DataFrame:
    """A DataFrame from a DataFrame or a LazyFrame."""
    if isinstance(frame, pl.LazyFrame):
        return frame.collect()
    if isinstance(frame, pl.DataFrame):
        return frame
    raise TypeError(f"expected a polars DataFrame or LazyFrame, got {type(frame).__name__}")


def require(frame: pl.DataFrame, columns: Sequence[str], what: str) -> None:
    """Raise a ValueError naming the missing columns of ``frame``."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what}: missing column(s) {', '.join(missing)} (has {', '.join(frame.columns)})")


def game_keys(frame: pl.DataFrame) -> list[str]:
    """The columns naming one game: ``variant`` and ``game`` (game indices repeat across variants)."""
    return ["variant", "game"] if "variant" in frame.columns else ["game"]


def variant_key(frame: pl.DataFrame) -> list[str]:
    """``["variant"]`` when the frame has that column, else ``[]``."""
    return ["variant"] if "variant" in frame.columns else []


def unique_keys(*groups: Sequence[str]) -> list[str]:
    """Concatenate key lists, dropping repeats, keeping order."""
    out: list[str] = []
    for group in groups:
        for k in group:
            if k not in out:
                out.append(k)
    return out


def as_str(frame: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """Categorical label columns as plain strings (so joins and comparisons across frames are safe)."""
    casts = [pl.col(c).cast(pl.Utf8) for c in columns if c in frame.columns and frame.schema[c] != pl.Utf8]
    return frame.with_columns(casts) if casts else frame


def with_n_players(seats: pl.DataFrame) -> pl.DataFrame:
    """Seats with an ``n_players`` column (the number of seat rows of each game) if it lacks one."""
    if "n_players" in seats.columns:
        return seats
    keys = game_keys(seats)
    return seats.with_columns(pl.len().over(keys).cast(pl.Int64).alias("n_players"))


def with_deal(frame: pl.DataFrame, games: Frame | None = None) -> pl.DataFrame:
    """``frame`` (one row per game, seat or event) with a ``deal`` column.

    The deal is the unit that pairs games: every seat rotation (and line-up) of one deal is
    played with the same seed. It comes from ``frame`` itself, else from the ``games`` table,
    else from the runner's plan layout: game ``g`` is table ``g % T`` of deal ``g // T``,
    with ``T`` the number of distinct (lineup, rotation) tables. The layout is checked (every
    ``g % T`` must be one table); without ``lineup``/``rotation`` columns every game is its
    own deal (``play_batch`` output).
    """
    if "deal" in frame.columns:
        return frame
    if games is not None:
        g = as_str(collect(games), "variant")
        require(g, ["game", "deal"], "games")
        keys = [k for k in game_keys(frame) if k in g.columns]
        deals = g.select([*keys, "deal"]).unique(subset=keys)
        out = as_str(frame, "variant").join(deals, on=keys, how="left")
        if out["deal"].null_count():
            raise ValueError("games table: some games of the frame have no row in the games table")
        return out
    if "lineup" not in frame.columns or "rotation" not in frame.columns:
        return frame.with_columns(pl.col("game").cast(pl.Int64).alias("deal"))
    tables = frame.select("lineup", "rotation").unique()
    n_tables = tables.height
    if n_tables <= 1:
        return frame.with_columns(pl.col("game").cast(pl.Int64).alias("deal"))
    layout = frame.select((pl.col("game") % n_tables).alias("_t"), "lineup", "rotation").unique()
    if layout.height != n_tables:
        raise ValueError("cannot infer deals from game indices (the frame is not a whole run's tables): "
                         "pass the games table (games=...)")
    return frame.with_columns((pl.col("game") // n_tables).cast(pl.Int64).alias("deal"))


def t_bounds(mean: np.ndarray, se: np.ndarray, dof: np.ndarray,
             level: float = LEVEL, null: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two-sided t-interval bounds and the p-value of ``mean == null`` (vectorised).

    A zero standard error gives a zero-width interval and p = 0 (mean differs from the null)
    or 1; fewer than one degree of freedom gives NaN.
    """
    mean = np.asarray(mean, dtype=np.float64)
    se = np.asarray(se, dtype=np.float64)
    dof = np.asarray(dof, dtype=np.float64)
    ok = dof >= 1
    safe_dof = np.where(ok, dof, 1.0)
    q = stats.t.ppf(0.5 + level / 2, safe_dof)
    lo = np.where(ok, mean - q * se, np.nan)
    hi = np.where(ok, mean + q * se, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        tstat = (mean - null) / se
        p = 2 * stats.t.sf(np.abs(tstat), safe_dof)
    p = np.where(se > 0, p, np.where(np.isclose(mean, null), 1.0, 0.0))
    p = np.where(ok, p, np.nan)
    return lo, hi, p


def clustered_ratio(frame: pl.DataFrame, by: Sequence[str], num: str, den: str | None, cluster: str) -> pl.DataFrame:
    """Ratio ``Σ num / Σ den`` per group with a cluster-robust standard error.

    The estimate is the ratio of sums over rows (``den`` None: a plain mean, each row counts
    one); its standard error is the CR1 linearisation (sandwich) clustered by ``cluster``:
    ``se² = G/(G−1) · Σ_c (Σ_{i∈c} num_i − ratio · Σ_{i∈c} den_i)² / (Σ den)²`` with ``G``
    clusters (with one row per cluster and ``den`` None this is ``s²/N``, the usual
    t-interval). Degrees of freedom are ``G − 1``. Returns ``by``, ``n`` (rows), ``den``
    (sum of ``den``), ``clusters``, ``mean`` (the ratio), ``se``, ``dof``.
    """
    by = list(by)
    if not by:
        out = clustered_ratio(frame.with_columns(pl.lit(0).alias("_all")), ["_all"], num, den, cluster)
        return out.drop("_all")
    d = pl.col(den).cast(pl.Float64).sum() if den else pl.len().cast(pl.Float64)
    per = frame.group_by([*by, cluster]).agg(pl.col(num).cast(pl.Float64).sum().alias("_s"),
                                             d.alias("_d"), pl.len().alias("_n"))
    tot = per.group_by(by).agg(pl.col("_s").sum().alias("_S"), pl.col("_d").sum().alias("_D"),
                               pl.col("_n").sum().alias("n"), pl.len().alias("clusters"))
    tot = tot.with_columns((pl.col("_S") / pl.col("_D")).alias("mean"))
    per = per.join(tot.select([*by, "mean"]), on=by, how="left")
    r2 = per.group_by(by).agg(((pl.col("_s") - pl.col("_d") * pl.col("mean")) ** 2).sum().alias("_r2"))
    g = pl.col("clusters").cast(pl.Float64)
    return tot.join(r2, on=by, how="left").with_columns(
        pl.when(pl.col("clusters") > 1)
        .then((g / (g - 1) * pl.col("_r2")).sqrt() / pl.col("_D"))
        .otherwise(None).alias("se"),
        (pl.col("clusters") - 1).alias("dof"),
    ).rename({"_D": "den"}).select([*by, "n", "den", "clusters", "mean", "se", "dof"])


def clustered_mean(frame: pl.DataFrame, by: Sequence[str], value: str, cluster: str) -> pl.DataFrame:
    """Mean of ``value`` per group with a cluster-robust standard error.

    The estimate is the plain mean over rows; its standard error is the CR1 sandwich of an
    intercept-only regression clustered by ``cluster``:
    ``se² = G/(G-1) · Σ_c (Σ_{i∈c} (x_i − mean))² / N²`` with ``G`` clusters and ``N`` rows
    (with one row per cluster this is ``s²/N``, the usual t-interval). Degrees of freedom are
    ``G − 1``. Returns ``by``, ``n`` (rows), ``clusters``, ``mean``, ``se``, ``dof``.
    """
    return clustered_ratio(frame, by, value, None, cluster).drop("den")


def clustered_rate(frame: pl.DataFrame, by: Sequence[str], value: str, cluster: str,
                   den: str | None = None, null: str | None = None) -> pl.DataFrame:
    """A rate (mean of ``value`` in [0, 1], e.g. ``win_share``) per group with a deal-clustered Wilson interval.

    The rate and its standard error are those of :func:`clustered_ratio`; the interval is
    :func:`simlab.analysis.intervals.clustered_wilson` (Wilson on the effective sample size
    ``rate(1 − rate)/se²``, t quantile on ``clusters − 1`` degrees of freedom). ``null`` names a
    column of ``frame`` (constant per group, e.g. the fair share) whose score-test p-value is
    returned. Returns ``by``, ``n``, ``den``, ``clusters``, ``mean``, ``se``, ``dof``, ``n_eff``,
    ``lo``, ``hi`` and ``p_value`` (NaN without ``null``).
    """
    from simlab.analysis.intervals import clustered_wilson

    out = clustered_ratio(frame, by, value, den, cluster)
    p0 = None
    if null is not None:
        out = out.join(frame.group_by(list(by)).agg(pl.col(null).first().cast(pl.Float64).alias("_null")),
                       on=list(by), how="left")
        p0 = out["_null"].to_numpy()
        out = out.drop("_null")
    lo, hi, n_eff, p = clustered_wilson(out["mean"].to_numpy(), out["se"].fill_null(np.nan).to_numpy(),
                                        out["den"].to_numpy(), out["clusters"].to_numpy(), LEVEL, p0)
    return out.with_columns(pl.Series("n_eff", n_eff), pl.Series("lo", lo), pl.Series("hi", hi),
                            pl.Series("p_value", p))


def position_covariance(deal: np.ndarray, position: np.ndarray, value: np.ndarray, weight: np.ndarray | None = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Rates of every position and their deal-clustered covariance matrix (one group's rows).

    ``deal``, ``position`` and ``value`` are one entry per row (seat-game); the rate of
    position ``j`` is ``Σ value / Σ weight`` over its rows (weight 1 by default). With
    ``u_dj = (Σ_{rows of j in d} value − rate_j · weight) / Σ_j weight`` (0 in a deal without
    position ``j``), the covariance is the CR1 sandwich taken per position:
    ``cov_jk = sqrt(f_j f_k) · Σ_d u_dj u_dk`` with ``f_j = G_j/(G_j−1)`` and ``G_j`` the number
    of deals that position ``j`` is in. Its diagonal is each position's own CR1 variance (the
    one of ``seat_win_rates``); positions that share deals (one deal's seats, or the colours
    dealt to one deal) are correlated as they are in the data. When every position is in
    every deal (seats), ``G_j = G`` and this is the usual ``G/(G−1) · Σ_d u_d u_dᵀ``. When
    there are more positions than seats (5 colours at 2 or 3 seats) a position is in only
    40–60% of the deals: its estimate rests on ``G_j`` deals, not ``G``, and using ``G`` there
    under-covers in small runs (docs/analysis.md, coverage table). Scaling each position's
    scores by ``sqrt(f_j)`` keeps the matrix positive semi-definite and the correlations
    unchanged. Returns the position labels, the rates, the covariance (NaN rows and columns
    for a position in a single deal), the per-position rows (sum of weights), the per-position
    deal counts ``G_j`` and the number of deals ``G``.
    """
    deals, di = np.unique(deal, return_inverse=True)
    labels, pi = np.unique(position, return_inverse=True)
    w = np.ones(len(value)) if weight is None else np.asarray(weight, dtype=np.float64)
    num = np.zeros((deals.size, labels.size))
    den = np.zeros((deals.size, labels.size))
    np.add.at(num, (di, pi), np.asarray(value, dtype=np.float64))
    np.add.at(den, (di, pi), w)
    tot = den.sum(axis=0)
    rates = num.sum(axis=0) / tot
    u = (num - rates * den) / tot
    g_pos = np.count_nonzero(den, axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(g_pos > 1, np.sqrt(g_pos / np.maximum(g_pos - 1, 1)), np.nan)
    cov = root[:, None] * (u.T @ u) * root[None, :]
    return labels, rates, cov, tot, g_pos, deals.size


def add_t_interval(frame: pl.DataFrame, name: str, mean: str = "mean", se: str = "se", dof: str = "dof",
                   null: float = 0.0, p_name: str | None = None) -> pl.DataFrame:
    """Add ``name`` (= ``mean``), ``name_lo``, ``name_hi`` and optionally a p-value column of ``mean == null``."""
    m = frame[mean].to_numpy().astype(np.float64)
    s = frame[se].fill_null(np.nan).to_numpy().astype(np.float64)
    d = frame[dof].fill_null(0).to_numpy().astype(np.float64)
    lo, hi, p = t_bounds(m, s, d, null=null)
    cols = [pl.Series(name, m), pl.Series(f"{name}_lo", lo), pl.Series(f"{name}_hi", hi)]
    if p_name:
        cols.append(pl.Series(p_name, p))
    return frame.with_columns(cols)
