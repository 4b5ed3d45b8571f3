"""Multiple comparisons: Holm and Benjamini–Hochberg adjusted p-values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

METHODS = ("holm", "bh", "bonferroni")


def adjust_pvalues(p: Sequence[float] | np.ndarray, method: str = "holm") -> np.ndarray:
    """Adjusted p-values for a family of tests, in the input order.

    - ``holm``: Holm's step-down method, controls the family-wise error rate (the chance of
      any false rejection) under any dependence: sorted ascending, ``p_(i) · (m − i + 1)``
      (i = 1..m), made non-decreasing by a running maximum, capped at 1.
    - ``bh``: Benjamini–Hochberg step-up, controls the false discovery rate (the expected
      share of false rejections among rejections) for independent or positively dependent
      tests: ``p_(i) · m / i``, made non-decreasing by a running minimum from the top, capped at 1.
    - ``bonferroni``: ``p · m``, capped at 1.

    Reject the hypotheses whose adjusted p-value is at most the chosen level. NaN p-values
    are left NaN and do not count in ``m``.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    p = np.asarray(p, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    if np.any((q < 0) | (q > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    if method == "bonferroni":
        out[ok] = np.minimum(q * m, 1.0)
        return out
    order = np.argsort(q, kind="stable")
    sorted_p = q[order]
    i = np.arange(1, m + 1)
    if method == "holm":
        adj = np.maximum.accumulate(sorted_p * (m - i + 1))
    else:
        adj = np.minimum.accumulate((sorted_p * m / i)[::-1])[::-1]
    res = np.empty(m)
    res[order] = np.minimum(adj, 1.0)
    out[ok] = res
    return out
