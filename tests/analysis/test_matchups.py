"""Head-to-head win rates (paired by deal), Plackett–Luce ratings, the heatmap."""

from __future__ import annotations

import choix
import matplotlib
import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure
from polars.testing import assert_frame_equal
from scipy import stats

from simlab.analysis import matchup_heatmap, pairwise_win_rates, ratings
from simlab.analysis import matchups as mod

matplotlib.use("Agg")  # before pyplot is first imported (by matchup_heatmap)


def _naive_half_width(seats: pl.DataFrame, player: str, opponent: str) -> float:
    """95% half-width treating every game as an independent draw (what pairing improves on)."""
    s = seats.with_columns(pl.col("player").cast(pl.Utf8))
    a = s.filter(pl.col("player") == player).select("game", "rank")
    b = s.filter(pl.col("player") == opponent).select("game", pl.col("rank").alias("rank_b"))
    x = a.join(b, on="game").select(
        pl.when(pl.col("rank") < pl.col("rank_b")).then(1.0)
        .when(pl.col("rank") == pl.col("rank_b")).then(0.5).otherwise(0.0))
    x = x.to_series().to_numpy()
    return float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))


def test_pairwise_win_rates_on_a_pool(pool_run):
    pw = pairwise_win_rates(pool_run["seats"], games=pool_run["games"])
    assert pw.columns == ["variant", "player", "opponent", "deals", "games", "win_rate", "lo", "hi",
                          "p_value", "p_holm"]
    assert pw.height == 12  # ordered pairs of four players
    gr = pw.filter((pl.col("player") == "greedy") & (pl.col("opponent") == "random")).row(0, named=True)
    assert gr["win_rate"] > 0.98 and gr["hi"] <= 1.0
    assert gr["deals"] == 100 and gr["games"] == 600  # 2 line-ups x 3 rotations per deal
    # A-B and B-A are mirror images and share one (Holm-adjusted) test
    mirror = pw.join(pw, left_on=["player", "opponent"], right_on=["opponent", "player"], suffix="_m")
    assert np.allclose(mirror["win_rate"] + mirror["win_rate_m"], 1.0)
    assert np.allclose(mirror["p_holm"], mirror["p_holm_m"])
    assert (pw["p_holm"] >= pw["p_value"] - 1e-15).all()
    assert ((pw["lo"] <= pw["win_rate"]) & (pw["win_rate"] <= pw["hi"])).all()
    # deals inferred from the plan layout give the same table
    inferred = pairwise_win_rates(pool_run["seats"])
    counts = ["player", "opponent", "deals", "games"]
    assert inferred.select(counts).equals(pw.select(counts))
    assert np.allclose(inferred["win_rate"], pw["win_rate"]) and np.allclose(inferred["lo"], pw["lo"])


def test_pairing_by_deal_narrows_the_interval_on_rotated_games(mirror_run):
    """Two near-identical players swap seats on every deal: the deal mean cancels seat and deal luck."""
    seats = mirror_run["seats"].collect()
    pw = pairwise_win_rates(seats)
    row = pw.filter(pl.col("player") == "investor").row(0, named=True)
    assert row["deals"] == 1000 and row["games"] == 2000
    paired = (row["hi"] - row["lo"]) / 2
    naive = _naive_half_width(seats, "investor", "investor(card_weight=1.2)")
    assert paired < 0.8 * naive


def test_pairing_narrows_the_interval_on_simulated_rotations():
    """Simulated duplicate deals with a strong seat-0 advantage and equal players: paired is far narrower."""
    rng = np.random.default_rng(1)
    n_deals = 500
    seat0_wins = rng.random((n_deals, 2)) < 0.8  # rotation 0: A in seat 0; rotation 1: B in seat 0
    rows = []
    for d in range(n_deals):
        for rot in range(2):
            game = 2 * d + rot
            a_seat = rot
            a_wins = seat0_wins[d, rot] == (a_seat == 0)
            for seat in range(2):
                is_a = seat == a_seat
                rows.append((game, d, seat, "A" if is_a else "B", rot, 1 if (is_a == a_wins) else 2))
    seats = pl.DataFrame(rows, schema=["game", "deal", "seat", "player", "rotation", "rank"], orient="row")
    row = pairwise_win_rates(seats).filter(pl.col("player") == "A").row(0, named=True)
    assert row["deals"] == n_deals and row["games"] == 2 * n_deals
    assert (row["hi"] - row["lo"]) / 2 < 0.85 * _naive_half_width(seats, "A", "B")
    assert row["lo"] < 0.5 < row["hi"]


def test_ratings_order_and_intervals(pool_run):
    r = ratings(pool_run["seats"], n_boot=40, seed=1)
    order = r["player"].to_list()
    assert order.index("investor") < order.index("greedy") < order.index("random")
    assert abs(r["rating"].sum()) < 1e-9
    assert ((r["rating_lo"] <= r["rating"]) & (r["rating"] <= r["rating_hi"])).all()
    assert np.allclose(r["elo"], r["rating"] * 400 / np.log(10))
    assert (r["games"] == 900).all()  # 1200 games x 3 seats / 4 players
    again = ratings(pool_run["seats"], n_boot=40, seed=1)
    assert_frame_equal(again, r, rel_tol=1e-9, abs_tol=1e-12)  # float sums may run in another order


def test_plackett_luce_fit_matches_choix(pool_run):
    """The vectorised weighted fit reproduces choix.opt_rankings on the same finishing orders."""
    seats = mod.with_deal(mod.as_str(pool_run["seats"].collect(), "variant", "player"))
    seats = seats.filter(pl.col("game") < 300)
    items = sorted(seats["player"].unique().to_list())
    data = mod._rankings(seats, items, np.random.default_rng(0))
    mine = data.fit(data.weights, alpha=0.01)
    rankings = [[int(i) for i in order if i >= 0] for order, w in zip(data.orders, data.weights, strict=True)
                for _ in range(int(w))]
    assert len(rankings) == 300
    reference = choix.opt_rankings(len(items), rankings, alpha=0.01)
    assert np.allclose(mine, reference, atol=1e-3)


def test_ties_are_broken_without_dropping_games():
    seats = pl.DataFrame({
        "game": [0, 0, 1, 1, 2, 2, 3, 3],
        "seat": [0, 1] * 4,
        "player": ["a", "b"] * 4,
        "rank": [1, 1, 1, 2, 1, 1, 2, 1],
    })
    r = ratings(seats, n_boot=5)
    assert r["games"].to_list() == [4, 4]
    pw = pairwise_win_rates(seats)
    assert pw.filter(pl.col("player") == "a")["win_rate"][0] == 0.5


@pytest.mark.filterwarnings("ignore:The set_bad function:PendingDeprecationWarning")  # inside seaborn
def test_heatmap_returns_a_figure(pool_run):
    pw = pairwise_win_rates(pool_run["seats"])
    fig = matchup_heatmap(pw)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["greedy", "investor", "random", "specialist"]
    with pytest.raises(ValueError, match="several variants"):
        matchup_heatmap(pl.concat([pw, pw.with_columns(pl.lit("other").alias("variant"))]))
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_bootstrap_breaks_ties_afresh_in_every_resample():
    """One deal of 40 all-tied games: every resample draws the same deal, so only a fresh tie-break
    per resample gives the interval any width (a single tie-break drawn once would give lo == hi)."""
    n = 40
    seats = pl.DataFrame({"game": np.repeat(np.arange(n), 2), "deal": np.zeros(2 * n, dtype=np.int64),
                          "seat": np.tile([0, 1], n), "player": np.tile(["a", "b"], n), "rank": np.ones(2 * n)})
    r = ratings(seats, n_boot=50, seed=3)
    assert (r["rating_hi"] - r["rating_lo"] > 0.1).all()
    assert ((r["rating_lo"] < 0) & (r["rating_hi"] > 0)).all()


def test_ratings_anchored_to_a_named_player(pool_run):
    """Issue 22: the Elo scale is anchored to a named player at 0 (only differences are interpretable);
    the anchored ratings are the mean-0 ones shifted, intervals included, and the table says which."""
    mean0 = ratings(pool_run["seats"], n_boot=20, seed=1)
    anchored = ratings(pool_run["seats"], n_boot=20, seed=1, anchor="random")
    assert mean0["reference"].unique().to_list() == ["mean of the 4 players = 0"]
    assert anchored["reference"].unique().to_list() == ["random = 0"]
    rnd = anchored.filter(pl.col("player") == "random").row(0, named=True)
    assert rnd["elo"] == rnd["elo_lo"] == rnd["elo_hi"] == 0
    shift = mean0.filter(pl.col("player") == "random")["rating"][0]
    joined = mean0.join(anchored, on="player", suffix="_a")
    assert np.allclose(joined["rating_a"], joined["rating"] - shift)
    assert (anchored.filter(pl.col("player") != "random")["elo"] > 0).all()
    with pytest.raises(ValueError, match="the anchor 'nobody' did not play"):
        ratings(pool_run["seats"], n_boot=2, anchor="nobody")
