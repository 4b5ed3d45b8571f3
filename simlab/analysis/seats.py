"""Seat (position) effects: win rate per seat, a fairness test, score differences per seat.

All functions take the ``seats`` table (one row per game and seat) as a polars DataFrame or
LazyFrame. Games are keyed by (``variant``, ``game``): game indices repeat across variants.
``n_players`` is taken from the frame if present, else counted as the seat rows of each game;
it is always a grouping key, because the fair share of a seat is ``1 / n_players``.

Every function takes ``position`` (default ``"seat"``): the column that names the position
whose effect is measured. A game whose players get a start position other than their seat
(Smartphone Inc.'s ``colour`` or ``start_region``) passes that column instead; a position
absent from some games (5 colours, 3 players) is then compared over the games it is in.
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
    collect,
    game_keys,
    require,
    unique_keys,
    variant_key,
    with_deal,
    with_n_players,
)
from simlab.analysis.intervals import wilson_interval
from simlab.analysis.multiple import adjust_pvalues


def _prepare(seats: Frame, by: Sequence[str], position: str = "seat") -> tuple[pl.DataFrame, list[str]]:
    s = with_n_players(as_str(collect(seats), "variant", "player"))
    if position in s.columns and s.schema[position] in (pl.Categorical, pl.Enum):
        s = as_str(s, position)
    require(s, ["game", position, "win_share"], "seats")
    keys = unique_keys(variant_key(s), by, ["n_players"])
    require(s, keys, "seats")
    return s, keys


def seat_win_rates(seats: Frame, by: Sequence[str] = ("n_players",), position: str = "seat") -> pl.DataFrame:
    """Win rate per seat with a 95% Wilson interval, against the fair share ``1 / n_players``.

    Measured as the mean of ``win_share`` (1/k for each of k tied winners, else 0) over the
    games each seat played, grouped by ``variant``, ``by`` (e.g. ``("n_players", "lineup")``
    or ``("n_players", "player")``) and ``seat``. The Wilson score interval treats the games
    as independent Bernoulli trials (shared wins make the count fractional, which makes the
    interval slightly conservative). With seat rotation the rotations of one deal share a
    seed, so they are not independent draws; the interval is then approximate.

    ``p_value`` is the two-sided score test of ``win_rate == fair_share`` (the test the Wilson
    interval inverts: p < 0.05 exactly when the interval excludes the fair share); ``p_holm``
    adjusts it across every row of the table (Holm), for reading many positions at once.

    Columns: the group keys, ``seat`` (or ``position``), ``games``, ``wins`` (sum of win shares),
    ``win_rate``, ``win_rate_lo``, ``win_rate_hi``, ``fair_share``, ``excludes_fair`` (the interval
    lies entirely above or below the fair share), ``p_value``, ``p_holm``.
    """
    s, keys = _prepare(seats, by, position)
    rows = s.group_by([*keys, position]).agg(
        pl.len().alias("games"), pl.col("win_share").sum().alias("wins")
    ).sort([*keys, position])
    wins, n = rows["wins"].to_numpy().astype(np.float64), rows["games"].to_numpy().astype(np.float64)
    lo, hi = wilson_interval(wins, n)
    p0 = 1.0 / rows["n_players"].to_numpy().astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (wins / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    p = np.where(n > 0, 2 * stats.norm.sf(np.abs(z)), np.nan)
    return rows.with_columns(
        (pl.col("wins") / pl.col("games")).alias("win_rate"),
        pl.Series("win_rate_lo", lo),
        pl.Series("win_rate_hi", hi),
        (1.0 / pl.col("n_players").cast(pl.Float64)).alias("fair_share"),
    ).with_columns(
        ((pl.col("win_rate_lo") > pl.col("fair_share")) | (pl.col("win_rate_hi") < pl.col("fair_share")))
        .alias("excludes_fair"),
        pl.Series("p_value", p),
        pl.Series("p_holm", adjust_pvalues(p, "holm")),
    )


def seat_fairness_test(seats: Frame, by: Sequence[str] = ("n_players",), position: str = "seat") -> pl.DataFrame:
    """Chi-square goodness-of-fit test of the wins per seat against equal shares.

    Per group (``variant``, ``by``), the observed count of seat ``s`` is the sum of its
    ``win_share`` (so every game contributes one win in total, split on ties); the expected
    count is the total wins times the seat's share of the games (``1 / n_players`` when every
    seat played every game). The statistic ``Σ (O − E)² / E`` is compared with a chi-square
    distribution with ``seats − 1`` degrees of freedom. Games are treated as independent
    multinomial draws; split wins make the test slightly conservative. ``p_holm`` adjusts the
    p-values across the groups of the table (Holm).

    Columns: the group keys, ``games``, ``seats``, ``statistic``, ``dof``, ``p_value``,
    ``p_holm``, and ``max_deviation`` (largest |seat win rate − fair share|).
    """
    s, keys = _prepare(seats, by, position)
    per_seat = s.group_by([*keys, position]).agg(pl.len().alias("g"), pl.col("win_share").sum().alias("o"))
    tot = per_seat.group_by(keys).agg(
        pl.col("o").sum().alias("_wins"), pl.col("g").sum().alias("_seat_games"), pl.len().alias("seats"),
        (pl.col("g").sum() / pl.col("n_players").first()).alias("games"),
    )
    per_seat = per_seat.join(tot, on=keys, how="left").with_columns(
        (pl.col("_wins") * pl.col("g") / pl.col("_seat_games")).alias("e")
    )
    out = per_seat.group_by(keys).agg(
        ((pl.col("o") - pl.col("e")) ** 2 / pl.col("e")).sum().alias("statistic"),
        pl.col("seats").first(),
        pl.col("games").first().round(0).cast(pl.Int64),
        (pl.col("o") / pl.col("g") - 1.0 / pl.col("n_players").cast(pl.Float64)).abs().max().alias("max_deviation"),
    ).sort(keys)
    dof = out["seats"].to_numpy() - 1
    p = stats.chi2.sf(out["statistic"].to_numpy(), np.maximum(dof, 1))
    p = np.where(dof >= 1, p, np.nan)
    return out.with_columns(
        pl.Series("dof", dof, dtype=pl.Int64), pl.Series("p_value", p), pl.Series("p_holm", adjust_pvalues(p, "holm"))
    ).select([*keys, "games", "seats", "statistic", "dof", "p_value", "p_holm", "max_deviation"])


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
