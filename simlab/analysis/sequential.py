"""Sequential tests: the SPRT the runner's stopping rule uses, and a fixed-n power calculator.

The SPRT is paired by deal, after fishtest's pentanomial model: the seatings of one deal share
its seed, so their results are not independent; the unit of the test is the deal, whose score
is the mean of A's head-to-head scores (1 ahead, 1/2 level, 0 behind) over its games. With two
players in both seat orders a deal scores 0, 1/4, 1/2, 3/4 or 1 (0 to 2 points over the pair:
fishtest's five pentanomial outcomes); with more seatings it is any mean of that kind. The
log-likelihood ratio uses the empirical variance of these deal scores (:func:`sprt`), or the
exact multinomial maximum likelihood under each hypothesis (:func:`sprt_mle`, fishtest's
``LLR_logistic``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def elo_to_score(elo: float) -> float:
    """Expected score (win = 1, draw = 1/2) of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class SprtResult:
    """The log-likelihood ratio, the bounds and the decision (``H1``, ``H0`` or ``continue``)."""

    llr: float
    lower: float
    upper: float
    decision: str
    n: int
    mean: float


def sprt(n: int, total: float, total_sq: float, elo0: float, elo1: float, alpha: float, beta: float) -> SprtResult:
    """Generalised SPRT (normal approximation) of H1: elo = elo1 against H0: elo = elo0.

    ``n`` independent scores with sum ``total`` and sum of squares ``total_sq``. In the runner
    each score is one *deal's* score of A against B, the mean over the deal's games of 1 (A
    finishes ahead of B), 1/2 (level) or 0 (behind): the seatings of a deal share its seed and
    are not independent, so the deal is the unit (fishtest's pentanomial model for duplicate
    pairs). The statistic is fishtest's ``LLR_alt2``: ``n (s1 - s0) (2 x - s0 - s1) / (2 var)``
    with the sample mean x and the (biased) sample variance var of the scores, and
    ``s = 1 / (1 + 10^(-elo/400))`` the expected score at each hypothesis. It stops for H1 at
    or above ``log((1 - beta) / alpha)`` and for H0 at or below ``log(beta / (1 - alpha))``.
    Returns a :class:`SprtResult` (``n`` is the number of scores, ``mean`` their mean).
    """
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    if n < 2:
        return SprtResult(0.0, lower, upper, "continue", n, 0.0)
    mean = total / n
    var = max(total_sq / n - mean * mean, 1e-9)
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, decision, n, mean)


def sprt_scores(scores: np.ndarray, elo0: float, elo1: float, alpha: float, beta: float) -> SprtResult:
    """:func:`sprt` on an array of per-deal scores (each in [0, 1]); returns its :class:`SprtResult`."""
    x = np.asarray(scores, dtype=np.float64)
    return sprt(int(x.size), float(x.sum()), float((x * x).sum()), elo0, elo1, alpha, beta)


def _mle_with_mean(values: np.ndarray, probs: np.ndarray, s: float) -> np.ndarray:
    """The distribution on ``values`` closest (in likelihood) to ``probs`` with mean ``s``.

    fishtest's ``MLE_expected``: ``p*_i = p_i / (1 + x (a_i - s))`` with x the root of the
    secular equation ``Σ p_i (a_i - s) / (1 + x (a_i - s)) = 0``.
    """
    from scipy.optimize import brentq

    d = values - s
    lo, hi = -1.0 / d.max(), -1.0 / d.min()
    eps = 1e-12 * (hi - lo)

    def f(x: float) -> float:
        return float(np.sum(probs * d / (1 + x * d)))

    x = brentq(f, lo + eps, hi - eps)
    p = probs / (1 + x * d)
    return p / p.sum()


def sprt_mle(scores: np.ndarray, elo0: float, elo1: float, alpha: float, beta: float) -> SprtResult:
    """Exact GSPRT of per-deal scores: fishtest's ``LLR_logistic`` on the empirical distribution.

    The deal scores' distinct values (for two players in both seat orders: 0, 1/4, 1/2, 3/4, 1,
    the pentanomial outcomes) and their frequencies are a multinomial; under each hypothesis
    its maximum-likelihood distribution with expected score ``s0`` (``s1``) is found (see
    ``_mle_with_mean``), and the log-likelihood ratio is ``n Σ p̂_i log(p1_i / p0_i)``. Like
    fishtest, every possible outcome is given a count of at least ``1e-3`` so that the two
    extremes are always in the support. Same bounds and return value as :func:`sprt`; on
    realistic data it agrees closely with the variance approximation.
    """
    x = np.asarray(scores, dtype=np.float64)
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    n = int(x.size)
    if n < 2:
        return SprtResult(0.0, lower, upper, "continue", n, float(x.mean()) if n else 0.0)
    values, counts = np.unique(np.round(x, 12), return_counts=True)
    counts = counts.astype(np.float64)
    if values[0] > 0:
        values, counts = np.r_[0.0, values], np.r_[0.0, counts]
    if values[-1] < 1:
        values, counts = np.r_[values, 1.0], np.r_[counts, 0.0]
    counts = np.maximum(counts, 1e-3)
    probs = counts / counts.sum()
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    p0, p1 = _mle_with_mean(values, probs, s0), _mle_with_mean(values, probs, s1)
    llr = n * float(np.sum(probs * (np.log(p1) - np.log(p0))))
    decision = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, decision, n, float(x.mean()))


def games_for_difference(p1: float, p2: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per arm for a two-sided test to detect win rates p1 vs p2 (independent samples)."""
    from scipy import stats  # imported here: workers that never call it start faster

    z_a = stats.norm.ppf(1 - alpha / 2)
    z_b = stats.norm.ppf(power)
    pbar = (p1 + p2) / 2
    num = (z_a * math.sqrt(2 * pbar * (1 - pbar)) + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2
    return math.ceil(num / (p1 - p2) ** 2)


def _paired_sd(p: float, sd_diff: float | None) -> float:
    """Standard deviation of one paired difference; without a measured one, that of uncorrelated pairs."""
    if sd_diff is not None:
        if sd_diff <= 0:
            raise ValueError("sd_diff must be positive")
        return float(sd_diff)
    return math.sqrt(2 * p * (1 - p))


def _check_rates(p: float, alpha: float, power: float) -> None:
    if not 0 < p < 1:
        raise ValueError("p must lie strictly between 0 and 1")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("alpha and power must lie strictly between 0 and 1")


def power_games(delta: float, p: float = 0.5, alpha: float = 0.05, power: float = 0.8, paired: bool = False,
                sd_diff: float | None = None) -> int:
    """Games needed for a two-sided test at level ``alpha`` to detect a win-rate difference ``delta``.

    - ``paired=False``: two independent samples (e.g. two separate runs) with win rates ``p``
      and ``p + delta``; the answer is games *per arm* (normal approximation, as
      :func:`games_for_difference`).
    - ``paired=True``: each game of one arm is paired with a game of the other on the same
      seed (variants, seat rotations); the test is on the mean paired difference, and the
      answer is the number of *pairs*: ``((z_{1−α/2} + z_power) · sd / delta)²``. ``sd`` is
      the standard deviation of one paired difference: pass the measured ``sd_diff`` (e.g.
      the sd of ``win_share(variant) − win_share(base)`` from a pilot run) to gain from the
      pairing; the default ``sqrt(2 p (1 − p))`` assumes uncorrelated pairs, which is what
      pairing gives at worst when the two arms are positively correlated.

    ``delta = 0.01`` around ``p = 0.5`` needs about 39,000 games per arm unpaired.
    """
    from scipy import stats

    _check_rates(p, alpha, power)
    if delta == 0:
        raise ValueError("delta must be non-zero")
    z_a = stats.norm.ppf(1 - alpha / 2)
    z_b = stats.norm.ppf(power)
    if paired:
        sd = _paired_sd(p, sd_diff)
        return math.ceil(((z_a + z_b) * sd / abs(delta)) ** 2)
    p2 = p + delta
    if not 0 < p2 < 1:
        raise ValueError("p + delta must lie strictly between 0 and 1")
    return games_for_difference(p, p2, alpha, power)


def detectable_difference(n: int, p: float = 0.5, alpha: float = 0.05, power: float = 0.8, paired: bool = False,
                          sd_diff: float | None = None) -> float:
    """The smallest win-rate difference (above ``p``) that ``n`` games detect with the given power.

    The inverse of :func:`power_games`: ``n`` is games per arm (``paired=False``) or pairs
    (``paired=True``, with the same ``sd_diff`` convention); solved exactly for pairs and
    numerically (without rounding ``n`` up) for independent arms.
    """
    from scipy import stats
    from scipy.optimize import brentq

    _check_rates(p, alpha, power)
    if n < 1:
        raise ValueError("n must be at least 1")
    z_a = stats.norm.ppf(1 - alpha / 2)
    z_b = stats.norm.ppf(power)
    if paired:
        return float((z_a + z_b) * _paired_sd(p, sd_diff) / math.sqrt(n))

    def excess(delta: float) -> float:
        p2 = p + delta
        pbar = (p + p2) / 2
        root = z_a * math.sqrt(2 * pbar * (1 - pbar)) + z_b * math.sqrt(p * (1 - p) + p2 * (1 - p2))
        return root / math.sqrt(n) - delta

    upper = 1 - p - 1e-12
    if excess(upper) > 0:
        return float("nan")  # not even the largest possible difference is detectable
    return float(brentq(excess, 1e-12, upper))
