"""Position statistics for a column other than the seat (a start colour), and paired variant effects."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from study_helpers import fabricate_seats

from simlab.analysis import seat_fairness_test, seat_score_differences, seat_variant_effects, seat_win_rates


@pytest.fixture(scope="module")
def fabricated():
    return fabricate_seats(deals=30, counts=(3, 5), bonus=4.0, variants={"even": 0.0, "same": 4.0})


def test_colour_win_rates_find_the_advantaged_colour(fabricated):
    _games, seats = fabricated
    base = seats.filter(pl.col("variant") == "base")  # no n_players column: counted from the seats of a game
    rates = seat_win_rates(base, position="colour")
    assert rates.columns[:3] == ["variant", "n_players", "colour"]
    assert rates["colour"].dtype == pl.Utf8
    for n in (3, 5):
        r = rates.filter(pl.col("n_players") == n).sort("win_rate", descending=True)
        assert r["colour"][0] == "blue" and r["p_holm"][0] < 0.05
        # every colour's games: the seats it took, over the games it was in
        assert r["games"].sum() == base.filter(pl.len().over("game") == n).height
    assert (rates["p_holm"] >= rates["p_value"]).all()
    # p < 0.05 exactly when the deal-clustered Wilson interval excludes the fair share (the same score test)
    assert ((rates["p_value"] < 0.05) == rates["excludes_fair"]).all()
    fair = seat_fairness_test(base, position="colour")
    assert fair["seats"].to_list() == [5, 5] and (fair["p_value"] < 0.05).all()


def test_seat_statistics_are_unchanged_by_default(fabricated):
    _, seats = fabricated
    base = seats.filter(pl.col("variant") == "base")
    assert seat_win_rates(base)["seat"].dtype == pl.Int8
    # group-by order changes float summation order: compare with a tolerance
    assert_frame_equal(seat_fairness_test(base), seat_fairness_test(base, position="seat"), rel_tol=1e-9)


def test_score_components_add_up_to_the_score_difference(fabricated):
    games, seats = fabricated
    base = seats.filter(pl.col("variant") == "base")
    total = seat_score_differences(base, games=games, position="colour")
    parts = [seat_score_differences(base, games=games, position="colour", score=c)["score_diff"].to_numpy()
             for c in ("sales_vp", "nfc_vp", "control_vp", "patent_vp", "retailer_vp")]
    assert np.allclose(np.sum(parts, axis=0), total["score_diff"].to_numpy())
    blue = total.filter(pl.col("colour") == "blue")
    assert (blue["score_diff_lo"] > 0).all()


def test_variant_effects_are_paired_seat_by_seat(fabricated):
    games, seats = fabricated
    eff = seat_variant_effects(seats, position="colour", games=games)
    assert set(eff["variant"].unique().to_list()) == {"even", "same"}
    same = eff.filter(pl.col("variant") == "same")
    assert np.allclose(same["effect"].to_numpy(), 0) and (same["unpaired"] == 0).all()
    blue = eff.filter((pl.col("variant") == "even") & (pl.col("colour") == "blue"))
    assert (blue["effect_hi"] < 0).all() and (blue["p_holm"] < 0.05).all()
    assert np.allclose(blue["variant_mean"] - blue["baseline_mean"], blue["effect"])
    with pytest.raises(ValueError, match="baseline variant 'nothing'"):
        seat_variant_effects(seats, position="colour", baseline="nothing")
