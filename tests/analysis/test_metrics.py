"""Game-level metrics: a hand-made pair of games, and a real run."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab.analysis import game_metrics


def _two_games() -> tuple[pl.DataFrame, pl.DataFrame]:
    """Game 0: the card-VP lead changes twice, seat 0 wins 12-9. Game 1: no lead change, a 10-10 shared win."""
    games = pl.DataFrame({
        "game": [0, 1], "deal": [0, 1], "variant": ["base", "base"], "n_players": [3, 3],
        "turns": [30, 40], "n_winners": [1, 2],
    })
    seats = pl.DataFrame({
        "game": [0, 0, 0, 1, 1, 1],
        "seat": [0, 1, 2, 0, 1, 2],
        "variant": ["base"] * 6,
        "score": [12, 9, 3, 10, 10, 2],
        "win_share": [1.0, 0.0, 0.0, 0.5, 0.5, 0.0],
        "first_in_round1": [False, True, False, True, False, False],
        # cumulative card VP: game 0 leaders {0} -> {1} -> {0}; game 1 {0,1} -> {0} -> {0,1}
        "round1_card_vp": [5, 1, 0, 3, 3, 0],
        "round2_card_vp": [0, 6, 0, 3, 2, 0],
        "round3_card_vp": [5, 0, 3, 3, 4, 0],
    })
    return games, seats


def test_hand_made_games():
    games, seats = _two_games()
    m = game_metrics(games, seats.lazy(), n_boot=20).row(0, named=True)
    assert m["games"] == 2 and m["n_players"] == 3
    assert m["turns"] == 35
    assert m["margin"] == pytest.approx(1.5)  # 12 - 9 and a shared win
    assert m["score_spread"] == pytest.approx((np.std([12, 9, 3]) + np.std([10, 10, 2])) / 2)
    assert m["tie_rate"] == 0.5
    assert m["first_player_win_rate"] == pytest.approx(0.25)  # 0 in game 0, a half share in game 1
    assert m["first_player_advantage"] == pytest.approx(0.25 - 1 / 3)
    assert m["lead_changes"] == 1.0
    # seat win rates 0.75, 0.25, 0: the largest deviation from 1/3 is seat 0's
    assert m["max_seat_deviation"] == pytest.approx(0.75 - 1 / 3)
    assert m["max_seat_deviation_lo"] <= m["max_seat_deviation"] <= m["max_seat_deviation_hi"]
    assert m["deals"] == 2
    for name in ("turns", "margin", "tie_rate", "first_player_win_rate", "lead_changes"):
        assert m[f"{name}_lo"] <= m[name] <= m[f"{name}_hi"]


def test_metrics_on_a_run(pool_run):
    m = game_metrics(pool_run["games"], pool_run["seats"], by=("lineup",), n_boot=50)
    assert m.height == 4 and (m["games"] == 300).all()
    for name in ("turns", "score_spread", "margin", "tie_rate", "first_player_win_rate", "max_seat_deviation",
                 "lead_changes"):
        assert ((m[f"{name}_lo"] <= m[name] + 1e-12) & (m[name] <= m[f"{name}_hi"] + 1e-12)).all(), name
    assert ((m["lead_changes"] >= 0) & (m["lead_changes"] <= 2)).all()
    assert ((m["max_seat_deviation"] >= 0) & (m["max_seat_deviation"] <= 2 / 3)).all()
    assert (m["deals"] < m["games"]).all()  # rotations share a deal
    assert ((m["seat_fairness_p"] >= 0) & (m["seat_fairness_p"] <= 1)).all()
    assert ((m["tie_rate"] >= 0) & (m["tie_rate"] < 0.2)).all()
