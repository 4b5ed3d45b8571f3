"""Seat (position) effects: win rate per seat, a fairness test, score differences per seat.

All functions take the ``seats`` table (one row per game and seat) as a polars DataFrame or
LazyFrame. Games are keyed by (``variant``, ``game``): game indices repeat across variants.
``n_players`` is taken from the frame if present, else counted as the seat rows of each game;
it is always a grouping key, because the fair share of a seat is ``1 / n_players``.

Every function takes ``position`` (default ``"seat"``): the column that names the position
whose effect is measured. A game whose players get a start position other than their seat
(e.g. a start ``colour`` or ``start_region``) passes that column instead; a position
absent from some games (5 colours, 3 players) is then compared over the games it is in.

The deal is the unit of every interval and test here: the seatings of one deal share its
seed, deck and colour deal, so their games are correlated. Intervals are clustered by deal
(``with_deal``: the frame's ``deal`` column, the ``games`` table, or the plan layout); a frame
without deals (``play_batch``, no rotation) uses each game as its own cluster. The coverage
and error rates are checked by simulation in ``tests/analysis/test_coverage_seats.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats

from simlab.analysis._common import (
    Frame,
    add_t_interval,
    as_str,
    clustered_mean,
    clustered_rate,
    collect,
    game_keys,
    require,
    unique_keys,
    variant_key,
    with_deal,
    with_n_players,
)
from simlab.analysis.multiple import adjust_pvalues


def _prepare(seats: Frame, by: Sequence[str], position: str = "seat") -> tuple[pl.DataFrame, list[str]]:
    s = with_n_players(as_str(collect(seats), "variant", "player"))
    if position in s.columns and s.schema[position] in (pl.Categorical, pl.Enum):
        s = as_str(s, position)
    require(s, ["game", position, "win_share"], "seats")
    keys = unique_keys(variant_key(s), by, ["n_players"])
    require(s, keys, "seats")
    return s, keys


def seat_win_rates(seats: Frame, by: Sequence[str] = ("n_players",), position: str = "seat",
                   games: Frame | None = None) -> pl.DataFrame:
    """Win rate per seat (or position) with a deal-clustered 95% interval, against the fair share ``1 / n_players``.

    Measured as the mean of ``win_share`` (1/k for each of k tied winners, else 0) over the
    seat-games of each position, grouped by ``variant``, ``by`` (e.g. ``("n_players", "lineup")``
    or ``("n_players", "player")``) and ``seat`` (or ``position``).

    **The deal is the unit.** Every seating (rotation, line-up) of one deal shares its seed,
    deck and colour deal, so its games are not independent. The standard error is the
    deal-clustered (CR1) one of the ratio ``Σ win_share / Σ seat-games``; the interval is Wilson's
    on the effective number of games ``n_eff = rate(1 − rate) / se²`` with the t quantile on
    ``deals − 1`` degrees of freedom (with one game per deal it is the plain Wilson interval).
    The deal comes from the frame's ``deal`` column, else from ``games``, else from the runner's
    plan layout (see ``with_deal``); a frame with none of these (``play_batch`` output, no
    rotations) falls back to each game as its own cluster.

    ``p_value`` is the two-sided score test of ``win_rate == fair_share`` that the interval
    inverts (p < 0.05 exactly when the interval excludes the fair share), on the same
    effective sample size; ``p_holm`` adjusts it across every row of the table (Holm).

    Columns: the group keys, ``seat`` (or ``position``), ``games`` (seat-games), ``deals``,
    ``effective_games`` (``n_eff``), ``wins`` (sum of win shares), ``win_rate``, ``win_rate_lo``,
    ``win_rate_hi``, ``fair_share``, ``excludes_fair`` (the interval lies entirely above or below
    the fair share), ``p_value``, ``p_holm``.
    """
    s, keys = _prepare(seats, by, position)
    s = with_deal(s, games).with_columns((1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair_share"))
    group = [*keys, position]
    rates = clustered_rate(s, group, "win_share", "deal", null="fair_share")
    wins = s.group_by(group).agg(pl.col("win_share").cast(pl.Float64).sum().alias("wins"))
    out = rates.join(wins, on=group, how="left").sort(group).with_columns(
        pl.col("n").alias("games"), pl.col("clusters").alias("deals"), pl.col("n_eff").alias("effective_games"),
        pl.col("mean").alias("win_rate"), pl.col("lo").alias("win_rate_lo"), pl.col("hi").alias("win_rate_hi"),
        (1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair_share"),
    ).with_columns(
        ((pl.col("win_rate_lo") > pl.col("fair_share")) | (pl.col("win_rate_hi") < pl.col("fair_share")))
        .alias("excludes_fair"),
    ).select([*group, "games", "deals", "effective_games", "wins", "win_rate", "win_rate_lo", "win_rate_hi",
              "fair_share", "excludes_fair", "p_value"])
    return out.with_columns(pl.Series("p_holm", adjust_pvalues(out["p_value"].to_numpy(), "holm")))


def cluster_wald_equal(deal: np.ndarray, position: np.ndarray, value: np.ndarray) -> tuple[float, int, int, float]:
    """Cluster-robust Wald (score) test that every position has the same mean ``value`` (one group's rows).

    With ``K`` positions, ``rate_j`` the mean of ``value`` over position ``j``'s rows and
    ``p̄`` the pooled mean, the deal-clustered covariance of the rates is taken under the null:
    ``V = G/(G−1) · Σ_d u_d u_dᵀ`` with ``u_dj = (Σ_{rows of j in d} value − p̄ · rows) / rows_j``
    over the ``G`` deals (the score form: better sized than the covariance at the estimated
    rates). With ``C`` the ``K − 1`` contrasts ``rate_j − rate_K`` and ``d = C·rate`` the
    statistic is ``W = dᵀ (C V Cᵀ)⁺ d``, ``q = rank(C V Cᵀ)`` (``K − 1`` unless a position never
    varies), and the p-value is that of ``W / q`` on an F distribution with ``(q, G − 1)``
    degrees of freedom (the small-sample form of the chi-square on ``q``). Returns
    ``(W, q, G, p)``.
    """
    deals, di = np.unique(deal, return_inverse=True)
    labels, pi = np.unique(position, return_inverse=True)
    k, g = labels.size, deals.size
    if k < 2 or g < 2:
        return float("nan"), 0, g, float("nan")
    num = np.zeros((g, k))
    den = np.zeros((g, k))
    np.add.at(num, (di, pi), np.asarray(value, dtype=np.float64))
    np.add.at(den, (di, pi), 1.0)
    tot = den.sum(axis=0)
    rates = num.sum(axis=0) / tot
    pooled = num.sum() / tot.sum()
    u = (num - pooled * den) / tot
    cov = g / (g - 1) * (u.T @ u)
    c = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    d = c @ rates
    m = c @ cov @ c.T
    q = int(np.linalg.matrix_rank(m, tol=1e-12 * max(float(np.abs(m).max()), 1e-300)))
    if q < 1:
        return float("nan"), 0, g, float("nan")
    w = float(d @ np.linalg.pinv(m, rcond=1e-10, hermitian=True) @ d)
    return w, q, g, float(stats.f.sf(w / q, q, g - 1))


def seat_fairness_test(seats: Frame, by: Sequence[str] = ("n_players",), position: str = "seat",
                       games: Frame | None = None) -> pl.DataFrame:
    """Test that every seat (or position) wins equally often, valid when the seatings of a deal are correlated.

    Per group (``variant``, ``by``), the win rate of each position is its mean ``win_share``
    over its seat-games; the test is the cluster-robust Wald test (``cluster_wald_equal``) of
    ``rate_1 = … = rate_K`` with the deals as clusters: the covariance of the rates is the
    deal-clustered sandwich (under the null), the statistic ``W`` is a quadratic form in the
    ``K − 1`` contrasts, and the p-value is that of ``W / (K − 1)`` on F ``(K − 1, deals − 1)``.
    Because a game's win shares sum to one, equal rates are the same as every rate being the
    fair share ``1 / n_players`` (for ``by`` that splits games, e.g. by player type, the null is
    equal rates). When there are more positions than seats (5 colours at 2 players) a position
    is compared over the games it is in and the degrees of freedom are still ``K − 1``, ``K``
    the number of positions present. The deal comes as in :func:`seat_win_rates` (each game its
    own cluster without one). ``p_holm`` adjusts the p-values across the groups (Holm).

    Columns: the group keys, ``games``, ``deals``, ``seats`` (positions ``K``), ``statistic``
    (``W``, about chi-square on ``dof`` under the null), ``dof``, ``p_value``, ``p_holm``, and
    ``max_deviation`` (largest |position win rate − fair share|, a biased-upward point estimate:
    see ``game_metrics`` for its simultaneous interval).
    """
    s, keys = _prepare(seats, by, position)
    s = with_deal(s, games)
    gk = game_keys(s)
    rows = []
    for key, part in s.group_by(keys, maintain_order=True):
        w, q, g, p = cluster_wald_equal(part["deal"].to_numpy(), part[position].to_numpy(),
                                        part["win_share"].to_numpy())
        rates = part.group_by(position).agg(pl.col("win_share").cast(pl.Float64).mean().alias("r"))
        fair = 1.0 / float(part["n_players"][0])
        rows.append({**dict(zip(keys, key, strict=True)), "games": part.select(gk).n_unique(), "deals": g,
                     "seats": rates.height, "statistic": w, "dof": q, "p_value": p,
                     "max_deviation": float((rates["r"] - fair).abs().max())})
    out = pl.DataFrame(rows, schema_overrides={"games": pl.Int64, "deals": pl.Int64, "seats": pl.Int64,
                                               "statistic": pl.Float64, "dof": pl.Int64, "p_value": pl.Float64,
                                               "max_deviation": pl.Float64}).sort(keys)
    return out.with_columns(pl.Series("p_holm", adjust_pvalues(out["p_value"].to_numpy(), "holm"))).select(
        [*keys, "games", "deals", "seats", "statistic", "dof", "p_value", "p_holm", "max_deviation"])


def seat_score_differences(seats: Frame, by: Sequence[str] = ("n_players",),
                           games: Frame | None = None, position: str = "seat", score: str = "score") -> pl.DataFrame:
    """Mean score difference of each seat against the mean of the other seats of the same game.

    Per game and seat, ``diff = score − mean(score of the other seats)``. The estimate is the
    mean ``diff`` over games, per group (``variant``, ``by``) and seat, with a 95% t-interval
    and the p-value of a zero mean. Games are the independent units; when seats are rotated
    within a deal (the rotations share the seed), games are clustered by deal (a cluster-robust
    standard error, ``deals − 1`` degrees of freedom), so correlated rotations do not narrow
    the interval. The deal comes from ``games`` if given, else from the plan layout (see
    ``with_deal``); without rotations every game is its own deal.

    ``score`` names the score column (e.g. one component of the score).

    Columns: the group keys, ``seat`` (or ``position``), ``games``, ``deals``, ``score_diff``,
    ``score_diff_lo``, ``score_diff_hi``, ``p_value``.
    """
    s, keys = _prepare(seats, by, position)
    require(s, [score], "seats")
    gk = game_keys(s)
    s = with_deal(s, games)
    s = s.with_columns(
        pl.col(score).cast(pl.Float64).sum().over(gk).alias("_tot"),
        pl.len().over(gk).alias("_n"),
    ).filter(pl.col("_n") > 1).with_columns(
        (pl.col(score) - (pl.col("_tot") - pl.col(score)) / (pl.col("_n") - 1)).alias("_diff")
    )
    out = clustered_mean(s, [*keys, position], "_diff", "deal").sort([*keys, position])
    out = add_t_interval(out, "score_diff", p_name="p_value")
    return out.rename({"n": "games", "clusters": "deals"}).select(
        [*keys, position, "games", "deals", "score_diff", "score_diff_lo", "score_diff_hi", "p_value"])


def seat_variant_effects(seats: Frame, by: Sequence[str] = ("n_players",), position: str = "seat",
                         value: str = "win_share", baseline: str = "base",
                         games: Frame | None = None) -> pl.DataFrame:
    """Paired change of each position's ``value`` (win share by default) in every variant against ``baseline``.

    The variants of a run play the same seeds, so game ``g`` of a variant and of the baseline
    share their seed and seating. Per game and seat, ``diff = value(variant) − value(baseline)``;
    a seat whose ``position`` differs between the two games (a data change that altered the
    set-up) is left out and counted in ``unpaired``. The estimate is the mean ``diff`` per
    (``variant``, ``by``, ``position``) with a 95% t-interval clustered by deal (the seat
    rotations of a deal share its seed) and the p-value of a zero change; ``p_holm`` adjusts
    the p-values across the rows of each variant (Holm). ``baseline_mean`` and ``variant_mean``
    are the two means over the paired seats.

    Columns: ``variant``, the ``by`` keys, ``position``, ``games``, ``deals``, ``unpaired``,
    ``baseline_mean``, ``variant_mean``, ``effect``, ``effect_lo``, ``effect_hi``, ``p_value``, ``p_holm``.
    """
    s, keys = _prepare(seats, by, position)
    require(s, ["variant", value], "seats")
    keys = [k for k in keys if k != "variant"]
    variants = [v for v in s["variant"].unique(maintain_order=True).to_list() if v != baseline]
    if baseline not in s["variant"].unique().to_list():
        raise ValueError(f"seats: no rows of the baseline variant '{baseline}'")
    base = s.filter(pl.col("variant") == baseline).select(
        "game", "seat", pl.col(position).alias("_pos0"), pl.col(value).cast(pl.Float64).alias("_v0"))
    other = s.filter(pl.col("variant") != baseline).join(base, on=["game", "seat"], how="inner")
    unpaired = other.filter(pl.col(position) != pl.col("_pos0")).group_by(["variant", *keys, position]).agg(
        pl.len().alias("unpaired"))
    paired = other.filter(pl.col(position) == pl.col("_pos0")).with_columns(
        (pl.col(value).cast(pl.Float64) - pl.col("_v0")).alias("_diff"))
    paired = with_deal(paired, games)
    group = ["variant", *keys, position]
    if paired.height == 0:
        raise ValueError(f"seats: no seat of variants {variants} pairs with the baseline '{baseline}'")
    means = paired.group_by(group).agg(pl.col("_v0").mean().alias("baseline_mean"),
                                       pl.col(value).cast(pl.Float64).mean().alias("variant_mean"))
    out = clustered_mean(paired, group, "_diff", "deal").join(means, on=group, how="left")
    out = add_t_interval(out, "effect", p_name="p_value").sort(group)
    out = out.join(unpaired, on=group, how="left").with_columns(pl.col("unpaired").fill_null(0))
    p_holm = np.full(out.height, np.nan)
    variant_col = out["variant"].to_numpy()
    for v in variants:
        mask = variant_col == v
        p_holm[mask] = adjust_pvalues(out["p_value"].to_numpy()[mask], "holm")
    return out.with_columns(pl.Series("p_holm", p_holm)).rename({"n": "games", "clusters": "deals"}).select(
        [*group, "games", "deals", "unpaired", "baseline_mean", "variant_mean", "effect", "effect_lo", "effect_hi",
         "p_value", "p_holm"])
