"""What a removed component is worth to its holder, in wins first, and whether replications agree.

- :func:`ablation_values`: from the per-component rows of ``card_value_ablation`` (one paired
  ablation per component), the value of each *tested* component in win share (the headline
  measure: "does it help you win?") with its score value beside it, adjusted p-values, and a
  flag where the two measures disagree in sign.
- :func:`cochran_q`: the inverse-variance pooled estimate of one quantity measured in several
  independent runs (e.g. two seeds of a study) and Cochran's heterogeneity test.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats

from simlab.analysis.multiple import adjust_pvalues

OPPOSITE = "opposite"
OPPOSITE_BOTH = "opposite, both CIs exclude 0"


def ablation_values(rows: pl.DataFrame, key: str = "card") -> pl.DataFrame:
    """Win-share and score value of each tested component from its removal, ranked by win share.

    ``rows`` has one row per component (``key``) as :func:`simlab.analysis.card_value_ablation`
    returns them for a *removal*: ``games_held``, ``win_diff`` (+ ``_lo``, ``_hi``, ``win_p``) and
    ``score_diff`` (+ ``_lo``, ``_hi``, ``score_p``), each the holder's ``ablated − full``.

    - A component with no game where somebody held it (``games_held`` 0 or missing, or no
      estimate) was not tested: it is left out, not shown as a row of zeros. Count what was
      tested from the result's height.
    - ``win_value = −win_diff`` (what the component adds to its holder's win share) and
      ``score_value = −score_diff`` (to its score), each with its interval (bounds swapped).
    - ``p_holm``, ``p_bh``: the win-share test (``win_p``) adjusted over the tested components
      (Holm: family-wise error; Benjamini–Hochberg: false discovery rate); ``score_p_bh`` the
      score test's BH-adjusted p-value.
    - ``signs``: ``"opposite"`` where the two values have opposite signs (both non-zero),
      ``"opposite, both CIs exclude 0"`` where moreover each interval excludes 0 (the module
      raises one measure and lowers the other, beyond noise), else ``""``.

    Sorted by ``win_value``, largest first.
    """
    need = [key, "games_held", "win_diff", "win_diff_lo", "win_diff_hi", "win_p",
            "score_diff", "score_diff_lo", "score_diff_hi", "score_p"]
    missing = [c for c in need if c not in rows.columns]
    if missing:
        raise ValueError(f"ablation rows lack the column(s) {', '.join(missing)} (see card_value_ablation)")
    tested = rows.filter((pl.col("games_held").fill_null(0) > 0) & pl.col("win_diff").is_not_null()
                         & pl.col("score_diff").is_not_null())
    out = tested.with_columns(
        (-pl.col("win_diff")).alias("win_value"), (-pl.col("win_diff_hi")).alias("win_value_lo"),
        (-pl.col("win_diff_lo")).alias("win_value_hi"),
        (-pl.col("score_diff")).alias("score_value"), (-pl.col("score_diff_hi")).alias("score_value_lo"),
        (-pl.col("score_diff_lo")).alias("score_value_hi"))
    win_p = out["win_p"].cast(pl.Float64).to_numpy()
    score_p = out["score_p"].cast(pl.Float64).to_numpy()
    opposite = (pl.col("win_value") * pl.col("score_value")) < 0
    excl = ((pl.col("win_value_lo") > 0) | (pl.col("win_value_hi") < 0)) & (
        (pl.col("score_value_lo") > 0) | (pl.col("score_value_hi") < 0))
    out = out.with_columns(
        pl.Series("p_holm", adjust_pvalues(win_p, "holm")), pl.Series("p_bh", adjust_pvalues(win_p, "bh")),
        pl.Series("score_p_bh", adjust_pvalues(score_p, "bh")),
        pl.when(opposite & excl).then(pl.lit(OPPOSITE_BOTH)).when(opposite).then(pl.lit(OPPOSITE))
        .otherwise(pl.lit("")).alias("signs"))
    return out.sort("win_value", descending=True, nulls_last=True)


def cochran_q(estimates: Sequence[float] | np.ndarray, ses: Sequence[float] | np.ndarray) -> dict[str, float]:
    """Pooled estimate of independent measurements of one quantity and Cochran's Q heterogeneity test.

    Weights ``w_i = 1 / se_i²``; pooled ``Σ w_i x_i / Σ w_i`` with standard error
    ``1 / sqrt(Σ w_i)``; ``Q = Σ w_i (x_i − pooled)²``, which is χ² with ``k − 1`` degrees of
    freedom when every run estimates the same value with the stated standard errors. A small
    p-value says the runs disagree by more than their intervals allow: either the stated
    errors miss a source of variation or the runs measure different things. ``i2`` is
    ``max(0, (Q − df) / Q)``, the share of the spread beyond chance.

    Returns ``pooled``, ``pooled_se``, ``q``, ``df``, ``p_value``, ``i2``.
    """
    x = np.asarray(estimates, dtype=np.float64)
    se = np.asarray(ses, dtype=np.float64)
    if x.shape != se.shape or x.ndim != 1 or x.size < 2:
        raise ValueError("cochran_q needs at least two estimates, each with its standard error")
    if not np.all(np.isfinite(se) & (se > 0)):
        raise ValueError("every standard error must be a positive number")
    w = 1.0 / se**2
    pooled = float(np.sum(w * x) / np.sum(w))
    q = float(np.sum(w * (x - pooled) ** 2))
    df = x.size - 1
    return {"pooled": pooled, "pooled_se": float(1.0 / np.sqrt(np.sum(w))), "q": q, "df": float(df),
            "p_value": float(stats.chi2.sf(q, df)), "i2": max(0.0, (q - df) / q) if q > 0 else 0.0}
