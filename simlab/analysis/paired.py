"""The deal bootstrap of ratio estimates: the machinery behind the tune's paired confirmation and ``simlab compare``.

Many estimates are ratios of per-deal sums, ``estimate_k = Σ_d num[d, k] / Σ_d den[d, k]`` over
deals ``d`` (a win rate: win shares over seat-games; a mean score; a mean game length). **The deal
is the unit**: the seatings of a deal share its seed, so a bootstrap resamples whole deals. A
resample is a vector of deal weights (multiplicities), so every estimate of a resample costs two
matrix products (:class:`DealSums`, :func:`deal_weights`, :func:`ratios`, :func:`replicates`).

Two runs played on the **same deals** (the same deal seeds) are compared pairwise by resampling
both with the **same weights**: the luck of a deal moves both estimates, and the spread of the
difference is that of a paired comparison. Runs with no deal in common are resampled with
independent weights. Intervals of a difference (:func:`simultaneous_differences`) are the union
of the basic and the percentile bootstrap intervals; :func:`two_sided_p` is the p-value of the
same interval (the smallest level at which it excludes 0). Used by :mod:`simlab.tune.paired`
(the confirmation test) and :mod:`simlab.compare`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl


@dataclass
class DealSums:
    """Per-deal sums behind an objective's ratio estimates: ``estimate_k = Σ_d num[d, k] / Σ_d den[d, k]``.

    ``deals``: the deal ids (sorted, one per row); ``num``, ``den``: deals × K arrays.
    """

    deals: np.ndarray
    num: np.ndarray
    den: np.ndarray

    def on(self, deals: np.ndarray) -> DealSums:
        """The same sums on ``deals`` (rows of deals this run lacks are zero)."""
        index = {int(d): i for i, d in enumerate(self.deals)}
        rows = np.array([index.get(int(d), -1) for d in deals])
        num = np.zeros((deals.size, self.num.shape[1]))
        den = np.zeros((deals.size, self.den.shape[1]))
        ok = rows >= 0
        num[ok], den[ok] = self.num[rows[ok]], self.den[rows[ok]]
        return DealSums(np.asarray(deals), num, den)


def deal_sums(frame: pl.DataFrame, key: str, num: str, den: str | None, columns: list[Any]) -> DealSums:
    """Sum ``num`` (and ``den``, or count rows) per ``deal`` and ``key`` value, one column per ``columns`` entry."""
    d = pl.col(den).cast(pl.Float64).sum() if den else pl.len().cast(pl.Float64)
    per = frame.group_by("deal", key).agg(pl.col(num).cast(pl.Float64).sum().alias("_s"), d.alias("_d"))
    deals = np.sort(frame["deal"].unique().to_numpy())
    row = {int(x): i for i, x in enumerate(deals)}
    col = {c: j for j, c in enumerate(columns)}
    out_num = np.zeros((deals.size, len(columns)))
    out_den = np.zeros((deals.size, len(columns)))
    for deal, k, s, n in per.iter_rows():
        if k in col:
            out_num[row[int(deal)], col[k]] += s
            out_den[row[int(deal)], col[k]] += n
    return DealSums(deals, out_num, out_den)


def deal_weights(n_deals: int, draws: int, seed: int) -> np.ndarray:
    """``draws`` bootstrap resamples of ``n_deals`` deals as multiplicities (draws × deals)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_deals, np.full(n_deals, 1.0 / n_deals), size=draws).astype(np.float64)


def ratios(sums: DealSums, weights: np.ndarray | None = None) -> np.ndarray:
    """The ratio estimates (K,), or per resample (draws × K) with deal ``weights``; NaN where no row."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if weights is None:
            return sums.num.sum(axis=0) / np.where(sums.den.sum(axis=0) > 0, sums.den.sum(axis=0), np.nan)
        den = weights @ sums.den
        return (weights @ sums.num) / np.where(den > 0, den, np.nan)


def replicates(sums: DealSums, statistic: Callable[[np.ndarray], np.ndarray],
               weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``statistic`` (ratios (B × K) -> values (B × m)) at the point estimate (m,) and per resample (B × m)."""
    point = statistic(ratios(sums)[None, :])[0]
    return point, statistic(ratios(sums, weights))


def simultaneous_differences(cand_point: np.ndarray, printed_point: np.ndarray, cand_reps: np.ndarray,
                             printed_reps: np.ndarray, level: float = 0.95) -> list[tuple[float, float, float]]:
    """Per column (player count), the paired difference with a two-sided interval that holds for every column at
    once (Bonferroni): the union of the basic and the percentile bootstrap intervals, ``(diff, lo, hi)``."""
    k = len(cand_point)
    tail = (1 - level) / (2 * k)
    out = []
    for j in range(k):
        d = float(cand_point[j] - printed_point[j])
        star = cand_reps[:, j] - printed_reps[:, j]
        star = star[np.isfinite(star)]
        if not star.size or not np.isfinite(d):
            out.append((d, float("nan"), float("nan")))
            continue
        q_lo, q_hi = (float(q) for q in np.quantile(star, [tail, 1 - tail]))
        out.append((d, min(2 * d - q_hi, q_lo), max(2 * d - q_lo, q_hi)))
    return out


def two_sided_p(diff: float, star: np.ndarray) -> float:
    """The two-sided bootstrap p-value of no difference that :func:`simultaneous_differences`' interval inverts.

    ``diff`` is the point difference and ``star`` its resamples. The interval (the union of the
    percentile interval ``[q_lo, q_hi]`` and the basic one ``[2·diff − q_hi, 2·diff − q_lo]``)
    excludes 0 at level ``a`` when both do: the percentile one when ``a > 2·min(P*(D* ≤ 0), P*(D* ≥ 0))``,
    the basic one when ``a > 2·min(P*(D* ≥ 2·diff), P*(D* ≤ 2·diff))``; the larger of the two
    is returned (at most 1; NaN without finite resamples).
    """
    star = np.asarray(star, dtype=np.float64)
    star = star[np.isfinite(star)]
    if not star.size or not np.isfinite(diff):
        return float("nan")
    pct = 2 * min(float(np.mean(star <= 0.0)), float(np.mean(star >= 0.0)))
    basic = 2 * min(float(np.mean(star >= 2 * diff)), float(np.mean(star <= 2 * diff)))
    return min(1.0, max(pct, basic))
