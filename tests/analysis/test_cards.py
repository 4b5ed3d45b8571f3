"""Card value: a planted VP change is found by the paired ablation; p-value adjustment; the regression."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlab.analysis import (
    adjust_pvalues,
    card_score_regression,
    card_value_ablation,
    card_value_observational,
    card_values_causal,
)

# ---------------------------------------------------------------- multiple comparisons


def test_adjust_pvalues_matches_hand_computed_values():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max
    assert np.allclose(adjust_pvalues(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    # BH: times 4/1, 4/2, 4/3, 4/4 = 0.02, 0.02, 0.04, 0.04 -> running min from the top
    assert np.allclose(adjust_pvalues(p, "bh"), [0.02, 0.04, 0.04, 0.02])
    assert np.allclose(adjust_pvalues(p, "bonferroni"), [0.04, 0.16, 0.12, 0.02])
    assert np.allclose(adjust_pvalues([0.5, 0.9], "holm"), [1.0, 1.0])  # 0.5 x 2 caps, the max carries
    rng = np.random.default_rng(0)
    q = rng.random(50) ** 3
    assert np.allclose(adjust_pvalues(q, "bh"), stats.false_discovery_control(q, method="bh"))
    with_nan = adjust_pvalues([0.01, np.nan, 0.02], "holm")
    assert np.isnan(with_nan[1]) and np.allclose(with_nan[[0, 2]], [0.02, 0.02])
    with pytest.raises(ValueError, match="method"):
        adjust_pvalues(p, "fdr")


# ---------------------------------------------------------------- causal (paired ablation)


def test_planted_card_value_is_found_and_ranked_first(ablation_run):
    """Card 32's printed VP raised 4 -> 7: its holder's score rises, and it tops the table."""
    causal = card_values_causal(ablation_run)
    assert causal["variant"].to_list()[0] == "card32_vp7"
    top = causal.row(0, named=True)
    assert top["card"] == 32 and top["games"] == 2500 and top["games_held"] > 2000
    assert top["score_diff_lo"] > 0.5 and top["score_diff"] < 4
    assert top["win_diff_lo"] > 0
    assert top["score_p_holm"] < 1e-6 and top["win_p_bh"] < 0.01
    assert set(causal["kind"].to_list()) == {"causal (paired ablation)"}
    assert set(causal["card"].to_list()) == {32, 28, 50, 40}
    assert (causal["score_p_holm"] >= causal["score_p"] - 1e-15).all()
    assert (causal["score_p_bh"] <= causal["score_p_holm"] + 1e-15).all()
    removed = causal.filter(pl.col("card") == 40).row(0, named=True)
    assert removed["score_diff_hi"] < 0  # the base holder loses the card's points
    assert removed["change"] == "removed" and removed["value"] == -removed["score_diff"] and removed["value_lo"] > 0
    assert top["change"] == "vp" and top["value"] == top["score_diff"]
    assert causal["value"].is_sorted(descending=True)


def test_ablation_by_mapping_and_single_card(ablation_run):
    mapped = card_values_causal(ablation_run, cards={"card32_vp7": {"card": 32}, "card28_vp4": 28})
    assert sorted(mapped["card"].to_list()) == [28, 32]
    seats = ablation_run["seats"].collect()
    takes = ablation_run["takes"].collect()
    base = seats.filter(pl.col("variant") == "base")
    one = card_value_ablation(base, seats.filter(pl.col("variant") == "card32_vp7"),
                              takes.filter(pl.col("variant") == "base"), 32,
                              takes_variant=takes.filter(pl.col("variant") == "card32_vp7"))
    row = mapped.filter(pl.col("card") == 32).row(0, named=True)
    assert one.height == 1 and one["score_diff"][0] == pytest.approx(row["score_diff"])
    # the same base seats against themselves: no difference at all
    null = card_value_ablation(base, base, takes.filter(pl.col("variant") == "base"), 32)
    assert null["score_diff"][0] == 0 and null["score_diff_lo"][0] == 0 and null["score_p"][0] == 1


def test_causal_refuses_unpaired_or_unnamed_variants(ablation_run):
    with pytest.raises(ValueError, match="no variant is matched"):
        card_values_causal(ablation_run, cards={"nothing": 3})
    games = ablation_run["games"].collect()
    shifted = games.with_columns(
        pl.when(pl.col("variant") == "card28_vp4").then(pl.col("seed") + 1).otherwise(pl.col("seed")).alias("seed"))
    with pytest.raises(ValueError, match="not paired"):
        card_values_causal({**ablation_run, "games": shifted})


# ---------------------------------------------------------------- observational


def test_observational_card_table(ablation_run):
    seats = ablation_run["seats"].filter(pl.col("variant") == "base")
    takes = ablation_run["takes"].filter(pl.col("variant") == "base")
    obs = card_value_observational(takes, seats)
    assert set(obs["kind"].to_list()) == {"observational (correlational)"}
    assert obs.height == 60 and (obs["games"] == 2500).all()
    assert int(obs["times_taken"].sum()) == 2500 * 48  # 12 cards for each of four seats
    assert ((obs["take_rate_lo"] <= obs["take_rate"]) & (obs["take_rate"] <= obs["take_rate_hi"])).all()
    c32 = obs.filter(pl.col("card") == 32).row(0, named=True)
    assert 0 < c32["mean_points"] <= 4
    # win rates of takers and of the others of the same games balance out to the fair 1/4
    total = obs.select(
        (pl.col("win_rate_taker") + 3 * pl.col("win_rate_others")).alias("t"))["t"].to_numpy()
    assert np.allclose(total, 1.0)
    assert np.allclose(obs["win_diff"], obs["win_rate_taker"] - obs["win_rate_others"])


# ---------------------------------------------------------------- regression


def _synthetic_regression(rng: np.random.Generator, beta: np.ndarray, n_games: int = 250, n_seats: int = 4):
    """Games where each card goes to one seat at random (or to nobody); a shared game effect and noise."""
    takes, seats = [], []
    for g in range(n_games):
        owner = rng.integers(-1, n_seats, beta.size)  # -1: nobody took the card
        game_effect = rng.normal(0, 4)
        for s in range(n_seats):
            cards = np.flatnonzero(owner == s)
            score = 10 + beta[cards].sum() + game_effect + rng.normal(0, 2)
            seats.append((g, s, float(score)))
            takes += [(g, s, int(c) + 1) for c in cards]
    return (pl.DataFrame(takes, schema=["game", "seat", "card"], orient="row"),
            pl.DataFrame(seats, schema=["game", "seat", "score"], orient="row"))


def test_regression_recovers_known_coefficients():
    """On synthetic data with known card values, the cluster-robust 95% intervals cover them ~95% of the time."""
    rng = np.random.default_rng(11)
    beta = np.array([0.0, 1.0, 2.0, -1.5, 3.0, 0.5, 4.0, -0.5])
    covered, total = 0, 0
    for _ in range(40):
        takes, seats = _synthetic_regression(rng, beta)
        fit = card_score_regression(takes, seats)
        cards = fit.filter(pl.col("term") != "intercept").sort("card")
        assert cards["card"].to_list() == list(range(1, beta.size + 1))
        truth = beta[cards["card"].to_numpy() - 1]
        lo, hi = cards["lo"].to_numpy(), cards["hi"].to_numpy()
        covered += int(((lo <= truth) & (truth <= hi)).sum())
        total += truth.size
        intercept = fit.filter(pl.col("term") == "intercept").row(0, named=True)
        assert intercept["card"] is None and intercept["clusters"] == 250
    assert 0.88 <= covered / total <= 0.99


def test_regression_on_games_drops_the_collinear_intercept(ablation_run):
    takes = ablation_run["takes"].filter(pl.col("variant") == "base")
    seats = ablation_run["seats"].filter(pl.col("variant") == "base")
    fit = card_score_regression(takes, seats, cluster="game")
    assert "intercept" not in fit["term"].to_list()  # every seat takes 12 cards: collinear with the intercept
    assert fit.height == 60 and (fit["n"] == 10000).all() and (fit["clusters"] == 2500).all()
    assert ((fit["lo"] < fit["coef"]) & (fit["coef"] < fit["hi"])).all()
    assert set(fit["kind"].to_list()) == {"observational (regression)"}
    by_deal = card_score_regression(takes, seats)  # the default: by deal; no rotations, so a deal is a game
    assert np.allclose(by_deal["coef"], fit["coef"]) and (by_deal["clusters"] == 2500).all()


def test_regression_clusters_by_deal_by_default_on_rotated_games():
    """Two seatings per deal: the default clusters by deal (half as many clusters as games)."""
    rng = np.random.default_rng(3)
    takes, seats = _synthetic_regression(rng, np.array([0.0, 1.0, 2.0]), n_games=200, n_seats=2)
    seats = seats.with_columns((pl.col("game") // 2).alias("deal"))
    assert (card_score_regression(takes, seats)["clusters"] == 100).all()
    assert (card_score_regression(takes, seats, cluster="game")["clusters"] == 200).all()
