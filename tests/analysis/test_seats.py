"""Seat effects: planted advantages are found, a symmetric game raises false alarms at the nominal rate."""

from __future__ import annotations

import numpy as np
import polars as pl
from analysis_helpers import simulated_seats, uniform_wins
from polars.testing import assert_frame_equal

import simlab
from simlab.analysis import seat_fairness_test, seat_score_differences, seat_win_rates


def test_planted_seat_advantage_is_flagged():
    """Seat 0 is always the strongest player (no rotation): its interval excludes 1/3 and the test rejects."""
    seats = simlab.play_batch("sentient", ["investor", "greedy", "greedy"], 1500, seed=4).seats
    rates = seat_win_rates(seats.lazy())
    seat0 = rates.filter(pl.col("seat") == 0).row(0, named=True)
    assert seat0["games"] == 1500 and seat0["fair_share"] == 1 / 3
    assert seat0["excludes_fair"] and seat0["win_rate_lo"] > 1 / 3
    assert seat0["win_rate_lo"] <= seat0["win_rate"] <= seat0["win_rate_hi"]
    assert abs(rates["win_rate"].sum() - 1.0) < 1e-9
    test = seat_fairness_test(seats)
    assert test.height == 1 and test["dof"][0] == 2 and test["games"][0] == 1500
    assert test["p_value"][0] < 0.01
    diffs = seat_score_differences(seats)
    assert diffs.filter(pl.col("seat") == 0)["score_diff_lo"][0] > 0
    assert (diffs.filter(pl.col("seat") > 0)["score_diff_hi"] < 0).all()


def test_seat_win_rates_by_player_and_lineup(pool_run):
    rates = seat_win_rates(pool_run["seats"], by=("n_players", "lineup"))
    assert set(rates["n_players"].to_list()) == {3}
    assert rates.height == 4 * 3  # four line-ups of three seats
    per_group = rates.group_by("lineup").agg(pl.col("win_rate").sum())
    assert np.allclose(per_group["win_rate"].to_numpy(), 1.0)
    by_player = seat_win_rates(pool_run["seats"], by=("player",))
    assert by_player.filter(pl.col("player") == "random")["win_rate"].max() < 0.05


def test_fairness_test_false_alarm_rate_is_nominal():
    """400 symmetric data sets (fair seats, some ties): the test rejects at about alpha = 0.05."""
    rng = np.random.default_rng(123)
    n_sets, n_games = 400, 300
    wins = uniform_wins(rng, n_sets * n_games, 4)
    seats = simulated_seats(wins, np.repeat(np.arange(n_sets), n_games))
    tests = seat_fairness_test(seats)
    assert tests.height == n_sets
    assert (tests["games"] == n_games).all()
    rejection = float((tests["p_value"] < 0.05).mean())
    assert 0.02 <= rejection <= 0.09
    # Holm across the 400 groups: at most a rare family-wise false alarm
    assert (tests["p_holm"] < 0.05).sum() <= 1


def test_wilson_interval_coverage():
    """Seat 0 wins with probability 0.3 in 2000 simulated data sets of 150 games: ~95% of intervals cover 0.3."""
    rng = np.random.default_rng(7)
    n_sets, n_games, p = 2000, 150, 0.3
    first = rng.random(n_sets * n_games) < p
    wins = np.column_stack([first, ~first]).astype(np.float64)
    rates = seat_win_rates(simulated_seats(wins, np.repeat(np.arange(n_sets), n_games)))
    seat0 = rates.filter(pl.col("seat") == 0)
    assert seat0.height == n_sets
    covered = ((seat0["win_rate_lo"] <= p) & (p <= seat0["win_rate_hi"])).mean()
    assert 0.93 <= covered <= 0.97


def test_score_differences_cluster_rotations_by_deal(pool_run):
    diffs = seat_score_differences(pool_run["seats"], games=pool_run["games"])
    inferred = seat_score_differences(pool_run["seats"])  # deals from the plan layout
    assert_frame_equal(diffs, inferred, rel_tol=1e-9, abs_tol=1e-12)  # float sums may run in another order
    assert (diffs["deals"] < diffs["games"]).all()
    assert abs(diffs["score_diff"].sum()) < 1e-9  # the seat differences of a game sum to zero
