"""The paired confirmation test: candidate minus printed data, deal by deal, on the shared fresh deals.

The printed data and every confirmed candidate are played on the same confirmation deals (the
same seed and game indices), so their objectives are positively correlated: the luck of a deal
(its cards, colours and dice) moves both. Comparing two separate intervals (do they overlap?)
throws that away. Here both are resampled together: one deal bootstrap draws deals with
replacement, **the same deals for every run**, and recomputes each run's objective on them, so
the spread of the difference ``candidate − printed`` is that of a paired comparison.

Every built-in objective is a function of ratio estimates ``Σ_d num[d, k] / Σ_d den[d, k]`` over
deals ``d`` (a position's win rate per player count, the first player's win rate, a card's mean
paired score change), so a bootstrap resample is a vector of deal weights and costs two matrix
products (:class:`DealSums`, :func:`replicates`). A user objective is called on every resampled
set of tables instead (:func:`user_replicates`).

The test (:func:`paired_test`), stated once: **H0: the candidate's objective is not below the
printed data's (true difference ≥ 0); H1: it is below. One-sided, level 5%.** The objective is
the one the tune minimises (for ``max_position_deviation`` and ``first_player_advantage`` the
worst player count), so it is one hypothesis and one test: the resample recomputes the whole
objective, the worst over player counts included, and needs no correction over player counts.
Two bootstrap bounds are computed from the same resamples ``D*`` of the difference ``D``: the
*percentile* bound ``q_{1−α}(D*)`` and the *basic* (bias-corrected) bound ``2·D − q_α(D*)``. The
objectives are maxima and sums of distances (``|rate − 1/n|``, VP outside a band), whose point
values are biased upward by noise. When the printed data's estimate carries more of that bias
than the candidate's (several positions near its largest gap, cards just inside the band's
edges), ``D`` is pushed below 0 and the percentile bound carries the bias in twice, while the
basic bound takes the bootstrap's estimate of it off; when both carry the same, the basic bound
is too short (the estimated biases add noise) and the percentile bound holds. **The
improvement is confirmed only when both bounds lie below 0**: the chance that two tests both
reject is at most the smaller of their chances, so the test holds the level of whichever bound
holds it (an intersection of the two rejection regions). Its level and power are measured by
simulation (``simlab.tune.simulate``, ``docs/analysis.md``): each bound alone exceeds 5% in
some scenario there (basic up to 11.5%, percentile up to 21.5%); the combination holds 5% in
every scenario at the demonstrations' sizes, and exceeds it (10.5%) only for a card band on 150
deals with many cards just inside the band's edges.

Per player count, the differences ``D_n`` are shown with two-sided intervals that hold for
every player count at once (Bonferroni, each at ``1 − 5%/k``; the union of the basic and the
percentile bootstrap intervals): they say where the change acts, not whether it is confirmed.

Bias correction (:func:`bias_corrected`): ``2·θ − mean(θ*)``, the bootstrap estimate of the
upward bias of a maximum (or a sum of distances) taken off, floored at 0. It removes most of
the bias when one position (or card) stands out, less when several lie close to the maximum
(the bootstrap under-estimates the bias of a maximum over near-ties).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.paired import (  # the deal bootstrap, shared with simlab compare
    DealSums,
    deal_sums,
    deal_weights,
    ratios,
    replicates,
    simultaneous_differences,
)

ALPHA = 0.05  # one-sided level of the confirmation test
DRAWS = 2000  # bootstrap resamples for the built-in objectives (two matrix products each)
USER_DRAWS = 400  # for a user objective (each resample calls the function on resampled tables)


def common_deals(deal_sets: list[np.ndarray]) -> np.ndarray:
    """The deals of the runs, which must be the same (the confirmation plays every run on the same deals)."""
    first = np.sort(np.asarray(deal_sets[0]))
    for other in deal_sets[1:]:
        if not np.array_equal(np.sort(np.asarray(other)), first):
            raise ValueError("the confirmation runs do not share their deals: they cannot be compared pairwise")
    return first


def resample_tables(tables: Mapping[str, pl.DataFrame], picks: np.ndarray) -> dict[str, pl.DataFrame]:
    """``tables`` (each with a ``deal`` column, or left as they are) on the deals ``picks`` (with repeats)."""
    pick = pl.DataFrame({"deal": picks.astype(np.int64)})
    return {k: pick.join(v.with_columns(pl.col("deal").cast(pl.Int64)), on="deal", how="inner")
            if "deal" in v.columns else v for k, v in tables.items()}


def user_replicates(runs: list[Mapping[str, pl.DataFrame]], function: Callable[[Mapping[str, pl.DataFrame]], float],
                    deals: np.ndarray, draws: int, seed: int) -> list[np.ndarray]:
    """A user objective on each run's tables resampled by the same deals: one (draws,) array per run."""
    rng = np.random.default_rng(seed)
    out = [np.empty(draws) for _ in runs]
    for b in range(draws):
        picks = rng.choice(deals, deals.size, replace=True)
        for r, tables in enumerate(runs):
            out[r][b] = function(resample_tables(tables, picks))
    return out


def bias_corrected(point: float, reps: np.ndarray, floor: float | None = 0.0) -> float:
    """``2·point − mean(reps)`` (the bootstrap's estimate of the bias taken off), at least ``floor``."""
    reps = np.asarray(reps, dtype=np.float64)
    reps = reps[np.isfinite(reps)]
    if not reps.size or not np.isfinite(point):
        return float("nan")
    value = 2.0 * point - float(np.mean(reps))
    return float(value if floor is None else max(floor, value))


def paired_test(cand_point: float, printed_point: float, cand_reps: np.ndarray, printed_reps: np.ndarray,
                alpha: float = ALPHA, method: str = "both") -> dict[str, Any]:
    """One-sided paired bootstrap test of ``candidate < printed`` from replicates on the same resampled deals.

    ``method``: ``both`` (the test the tune uses: confirmed only when the basic *and* the
    percentile bound lie below 0; its bound is the larger of the two), ``basic``
    (``2·D − q_α(D*)``) or ``percentile`` (``q_{1−α}(D*)``), the last two kept for the
    simulation that compares them. Returns ``diff`` (candidate − printed), ``diff_bc``
    (bias-corrected, ``2·D − mean(D*)``), ``diff_upper`` (the one-sided ``1 − alpha`` upper
    bound), ``p_value`` (the bootstrap p-value of the same test: the smallest alpha at which it
    confirms), ``alpha``, ``confirmed`` (bound below 0), ``draws``, ``method``.
    """
    d = float(cand_point) - float(printed_point)
    star = np.asarray(cand_reps, dtype=np.float64) - np.asarray(printed_reps, dtype=np.float64)
    star = star[np.isfinite(star)]
    if method not in ("both", "basic", "percentile"):
        raise ValueError(f"method: {method!r} is not both, basic or percentile")
    if not star.size or not np.isfinite(d):
        return {"diff": d, "diff_bc": float("nan"), "diff_upper": float("nan"), "p_value": float("nan"),
                "alpha": alpha, "confirmed": False, "draws": int(star.size), "method": method}
    # basic: confirmed at level a exactly when 2d - q_a(D*) < 0, i.e. q_a(D*) > 2d, i.e. a > P*(D* <= 2d)
    basic, p_basic = 2.0 * d - float(np.quantile(star, alpha)), float(np.mean(star <= 2.0 * d))
    pct, p_pct = float(np.quantile(star, 1 - alpha)), float(np.mean(star >= 0.0))
    upper, p = {"both": (max(basic, pct), max(p_basic, p_pct)), "basic": (basic, p_basic),
                "percentile": (pct, p_pct)}[method]
    return {"diff": d, "diff_bc": 2.0 * d - float(np.mean(star)), "diff_upper": upper, "p_value": p,
            "alpha": alpha, "confirmed": bool(upper < 0), "draws": int(star.size), "method": method}


__all__ = ["ALPHA", "DRAWS", "USER_DRAWS", "DealSums", "bias_corrected", "common_deals", "deal_sums",
           "deal_weights", "paired_test", "ratios", "replicates", "resample_tables", "simultaneous_differences",
           "user_replicates"]
