"""Confidence intervals for rates: Wilson, Wilson on a deal-clustered effective sample size, max-t."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(successes: np.ndarray, n: np.ndarray, z: float | np.ndarray = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for proportions ``successes / n`` (successes and n may be fractional).

    ``z`` is the two-sided quantile (1.96 for 95%); it may be an array (one per proportion).
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = np.asarray(z, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, 0.0)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = np.where(n > 0, np.clip(centre - half, 0, 1), 0.0)
    hi = np.where(n > 0, np.clip(centre + half, 0, 1), 1.0)
    lo = np.where(np.isnan(z), np.nan, lo)
    hi = np.where(np.isnan(z), np.nan, hi)
    return lo, hi


def effective_n(rate: np.ndarray, se: np.ndarray, n: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    """Effective number of independent trials behind a clustered rate: ``rate(1 − rate) / se²``.

    ``se`` is the cluster-robust standard error of the rate (deals as clusters), so
    ``n / n_eff`` is the design effect of the clustering (1 for independent games). When the
    rate is 0 or 1 (no within-sample variance to measure) each cluster counts once
    (``n_eff = clusters``), which is conservative.
    """
    rate = np.asarray(rate, dtype=np.float64)
    se = np.asarray(se, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    clusters = np.asarray(clusters, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        raw = rate * (1 - rate) / (se * se)
    ok = (rate > 0) & (rate < 1) & (se > 0) & np.isfinite(raw)
    return np.where(ok, raw, np.minimum(clusters, n))


def clustered_wilson(rate: np.ndarray, se: np.ndarray, n: np.ndarray, clusters: np.ndarray,
                     level: float = 0.95, null: np.ndarray | float | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Wilson interval of a rate measured over clustered trials (the seatings of a deal).

    The interval is Wilson's score interval on the effective sample size
    ``n_eff = rate(1 − rate) / se²`` (:func:`effective_n`, ``se`` the deal-clustered standard
    error), with the Student t quantile on ``clusters − 1`` degrees of freedom instead of the
    normal one. With one game per cluster and many clusters this is the ordinary Wilson
    interval. ``null`` (e.g. the fair share) gives the two-sided p-value of the score test
    the interval inverts: ``t = (rate − null) / sqrt(null(1 − null) / n_eff)`` on
    ``clusters − 1`` degrees of freedom (p < 1 − level exactly when the interval excludes null).

    Returns ``lo``, ``hi``, ``n_eff`` and the p-values (NaN without ``null`` or with fewer than
    two clusters).
    """
    # the t distribution's quantile and tail straight from scipy.special (what scipy.stats.t calls):
    # importing scipy.stats costs about a second, the summary of a run this whole function
    from scipy.special import stdtr, stdtrit

    rate = np.asarray(rate, dtype=np.float64)
    clusters = np.asarray(clusters, dtype=np.float64)
    n_eff = effective_n(rate, se, n, clusters)
    dof = clusters - 1
    ok = dof >= 1
    q = np.where(ok, stdtrit(np.where(ok, dof, 1.0), 0.5 + level / 2), np.nan)
    lo, hi = wilson_interval(rate * n_eff, n_eff, q)
    p = np.full(rate.shape, np.nan)
    if null is not None:
        p0 = np.broadcast_to(np.asarray(null, dtype=np.float64), rate.shape)
        with np.errstate(invalid="ignore", divide="ignore"):
            t = (rate - p0) / np.sqrt(p0 * (1 - p0) / n_eff)
        p = np.where(ok, 2 * stdtr(np.where(ok, dof, 1.0), -np.abs(t)), np.nan)
    return lo, hi, n_eff, p


def max_t_quantile(cov: np.ndarray, dof: float, level: float = 0.95, draws: int = 20_000, seed: int = 0) -> float:
    """Critical value ``c`` of simultaneous intervals ``estimate_j ± c·se_j`` over correlated estimates.

    The ``level`` quantile of ``max_j |T_j|`` for ``T`` multivariate t with ``dof`` degrees of
    freedom and the correlation of ``cov`` (the estimates' covariance, possibly singular, e.g.
    seat win rates that sum to one), by simulation (``draws`` draws, ``seed``). Less
    conservative than Bonferroni when the estimates are correlated; equal to the t quantile for
    one estimate.
    """
    cov = np.atleast_2d(np.asarray(cov, dtype=np.float64))
    sd = np.sqrt(np.clip(np.diag(cov), 0, None))
    keep = sd > 0
    if not keep.any() or dof < 1:
        return float("nan")
    corr = cov[np.ix_(keep, keep)] / np.outer(sd[keep], sd[keep])
    vals, vecs = np.linalg.eigh(corr)
    root = vecs * np.sqrt(np.clip(vals, 0, None))
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((draws, corr.shape[0])) @ root.T
    scale = np.sqrt(rng.chisquare(dof, draws) / dof)
    return float(np.quantile(np.abs(z).max(axis=1) / scale, level))
