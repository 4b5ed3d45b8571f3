"""Fixed-n power: games needed for a win-rate difference, and the difference n games detect."""

from __future__ import annotations

import math

import pytest

from simlab.analysis import detectable_difference, games_for_difference, power_games


def test_power_games_for_one_point_of_win_rate():
    n = power_games(0.01)
    assert n == games_for_difference(0.5, 0.51)
    # textbook: 2 (z_.975 + z_.8)^2 p (1 - p) / delta^2 = 39,245 per arm at p = 1/2
    assert abs(n - 2 * (1.959964 + 0.841621) ** 2 * 0.25 / 0.01**2) / n < 0.01
    assert power_games(0.02) < n / 3.5
    assert power_games(0.01, power=0.9) > n


def test_paired_power_uses_the_sd_of_the_differences():
    uncorrelated = power_games(0.01, paired=True)
    assert uncorrelated == math.ceil((1.959964 + 0.841621) ** 2 * 0.5 / 0.01**2)
    assert power_games(0.01, paired=True, sd_diff=0.3) < uncorrelated / 5


def test_detectable_difference_inverts_power_games():
    for delta in (0.005, 0.01, 0.05):
        assert detectable_difference(power_games(delta)) == pytest.approx(delta, rel=0.01)
        n = power_games(delta, paired=True, sd_diff=0.4)
        assert detectable_difference(n, paired=True, sd_diff=0.4) == pytest.approx(delta, rel=0.01)
    assert math.isnan(detectable_difference(3))
    with pytest.raises(ValueError):
        power_games(0.0)
    with pytest.raises(ValueError):
        power_games(0.6, p=0.5)


def test_exact_pentanomial_llr_agrees_with_the_variance_approximation():
    """fishtest's exact (multinomial MLE) LLR and the variance form agree on pentanomial deal scores."""
    import numpy as np

    from simlab.analysis.sequential import sprt_mle, sprt_scores

    rng = np.random.default_rng(0)
    x = rng.choice([0, 0.25, 0.5, 0.75, 1], size=800, p=[0.1, 0.2, 0.35, 0.2, 0.15])
    approx, exact = sprt_scores(x, 0, 20, 0.05, 0.05), sprt_mle(x, 0, 20, 0.05, 0.05)
    assert exact.llr == pytest.approx(approx.llr, rel=0.03)
    assert exact.decision == approx.decision == "H1" and exact.n == 800
    assert sprt_mle(np.ones(50), 0, 50, 0.05, 0.05).decision == "H1"
    assert sprt_mle(np.full(300, 0.5), 0, 20, 0.05, 0.05).decision == "H0"
