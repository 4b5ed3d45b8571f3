"""Sequential tests: the SPRT the runner's stopping rule uses, and a fixed-n power calculator."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats


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

    ``n`` paired scores with sum ``total`` and sum of squares ``total_sq`` (each score is
    1 when A finishes ahead of B, 1/2 when level, 0 behind). The statistic is
    ``n (s1 - s0) (2 x - s0 - s1) / (2 var)`` with the sample mean x and variance var; it
    stops for H1 above ``log((1 - beta) / alpha)`` and for H0 below ``log(beta / (1 - alpha))``.
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


def games_for_difference(p1: float, p2: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per arm for a two-sided test to detect win rates p1 vs p2 (independent samples)."""
    z_a = stats.norm.ppf(1 - alpha / 2)
    z_b = stats.norm.ppf(power)
    pbar = (p1 + p2) / 2
    num = (z_a * math.sqrt(2 * pbar * (1 - pbar)) + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2
    return math.ceil(num / (p1 - p2) ** 2)
