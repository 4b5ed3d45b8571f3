"""Proof by simulation: seat and position (colour) win rates, the fairness test and the seat-deviation interval
hold their nominal error rates when the seatings of a deal are correlated.

The generator writes the project's own seats schema (``game``, ``deal``, ``seed``, ``variant``,
``n_players``, ``seat``, ``player``, ``colour``, ``score``, ``rank``, ``winner``, ``win_share``)
with the dependence of a real run: every deal is played at several tables (line-ups of a pool
of players, each rotated over the seats), the tables of a deal share its colour deal (colours
dealt to seats, 5 colours at 2 and 3 players) and a strong deal effect (the deal favours some
seats and some colours in every one of its games), and a share of games end in a shared win.
The outcome is a multinomial logit: seat ``s`` wins with probability proportional to
``exp(seat_effect[s] + colour_effect[colour] + deal effects + player strength)``; a shared win
splits the game when the two best utilities are within ``tie_eps``. In a fair game (no seat or
colour effect) every seat and colour wins ``1 / n`` by symmetry; under a planted effect the
truth is measured once on 300,000 deals.

Each scenario is ``R`` independent data sets (the ``variant`` column labels them, so each
function analyses all of them in one call). Tolerances are binomial: coverage at least
``0.95 − 3·sqrt(0.05·0.95/R)``, false-alarm rate at most ``0.05 + 3·sqrt(0.05·0.95/R)``, so a
correct method fails with probability about 0.1% per check, and the seeds are fixed.
``python tests/analysis/test_coverage_seats.py`` prints the measured table of docs/analysis.md.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
import polars as pl
from scipy import stats

from simlab.analysis import game_metrics, seat_fairness_test, seat_win_rates, wilson_interval

R = 400  # replicates (data sets) per scenario
COVER_MIN = 0.95 - 3 * np.sqrt(0.05 * 0.95 / R)  # 0.917
ALPHA_MAX = 0.05 + 3 * np.sqrt(0.05 * 0.95 / R)  # 0.083

SCENARIOS = {
    # n_players, colours, pool, deals per data set, deal effect sd (seats, colours)
    "2p": dict(n_players=2, n_colours=5, pool=3, n_deals=100, deal_sd=(0.6, 1.2)),
    "3p": dict(n_players=3, n_colours=5, pool=3, n_deals=150, deal_sd=(0.6, 1.2)),
}
PLANTED = {  # logit effects: seat 0 (the opener) ahead, colours spread
    "2p": dict(seat_effect=(0.4, 0.0), colour_effect=(0.7, 0.35, 0.0, -0.3, -0.75)),
    "3p": dict(seat_effect=(0.4, 0.0, -0.15), colour_effect=(0.7, 0.35, 0.0, -0.3, -0.75)),
}


def _outcomes(rng: np.random.Generator, deals: int, n_players: int, n_colours: int, pool: int,
              deal_sd: tuple[float, float], seat_effect: tuple[float, ...] | None = None,
              colour_effect: tuple[float, ...] | None = None, tie_eps: float = 0.05
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``deals`` deals at every table: colours (deal x seat), players (table x seat), utilities and win shares
    (deal x table x seat), shared wins (deal x table) and the number of tables."""
    seat_eff = np.zeros(n_players) if seat_effect is None else np.asarray(seat_effect, dtype=np.float64)
    col_eff = np.zeros(n_colours) if colour_effect is None else np.asarray(colour_effect, dtype=np.float64)
    strength = np.linspace(-0.6, 0.6, pool)
    tables = [(lineup, r) for lineup in combinations(range(pool), n_players) for r in range(n_players)]
    n_tables = len(tables)
    colour = np.argsort(rng.random((deals, n_colours)), axis=1)[:, :n_players]  # dealt once per deal
    deal_seat = rng.normal(0, deal_sd[0], (deals, n_players))
    deal_colour = rng.normal(0, deal_sd[1], (deals, n_colours))
    player = np.array([[lineup[(s + r) % n_players] for s in range(n_players)] for lineup, r in tables])  # T x n
    base = (seat_eff[None, :] + col_eff[colour] + deal_seat + np.take_along_axis(deal_colour, colour, axis=1))
    util = base[:, None, :] + strength[player][None, :, :] + rng.gumbel(size=(deals, n_tables, n_players))
    order = np.argsort(-util, axis=2)
    best, second = order[..., 0], order[..., 1]
    u_sorted = np.take_along_axis(util, order, axis=2)
    tie = (u_sorted[..., 0] - u_sorted[..., 1]) < tie_eps
    win = np.zeros_like(util)
    np.put_along_axis(win, best[..., None], np.where(tie, 0.5, 1.0)[..., None], axis=2)
    np.put_along_axis(win, second[..., None], np.where(tie, 0.5, 0.0)[..., None], axis=2)
    return colour, player, util, win, tie, n_tables


def simulate(rng: np.random.Generator, n_sets: int, n_players: int, n_colours: int, pool: int, n_deals: int,
             deal_sd: tuple[float, float], seat_effect: tuple[float, ...] | None = None,
             colour_effect: tuple[float, ...] | None = None, tie_eps: float = 0.05
             ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``n_sets`` data sets of ``n_deals`` deals each: (games, seats) in the runner's schema."""
    deals = n_sets * n_deals
    colour, player, util, win, tie, n_tables = _outcomes(rng, deals, n_players, n_colours, pool, deal_sd,
                                                         seat_effect, colour_effect, tie_eps)
    n_games = deals * n_tables
    deal_of_game = np.repeat(np.arange(deals), n_tables)
    dataset = deal_of_game // n_deals
    game = np.arange(n_games) - dataset * n_deals * n_tables  # game index within its data set
    deal = deal_of_game - dataset * n_deals
    ranks = np.argsort(np.argsort(-util, axis=2), axis=2) + 1
    ranks = np.where(win > 0, 1, np.maximum(ranks, 2))
    rep = np.repeat
    seats = pl.DataFrame({
        "game": rep(game, n_players), "deal": rep(deal, n_players), "seed": rep(deal_of_game, n_players),
        "variant": rep(dataset, n_players).astype(str), "n_players": np.full(n_games * n_players, n_players),
        "seat": np.tile(np.arange(n_players), n_games).astype(np.int8),
        "player": np.array([f"p{i}" for i in range(pool)])[np.broadcast_to(player, (deals, n_tables, n_players))
                                                          .ravel()],
        "colour": np.array([f"c{i}" for i in range(n_colours)])[np.repeat(colour, n_tables, axis=0).ravel()],
        "score": np.round(util * 10).astype(np.int32).ravel(), "rank": ranks.ravel().astype(np.int32),
        "winner": (win > 0).ravel(), "win_share": win.ravel(),
    })
    games = pl.DataFrame({"game": game, "deal": deal, "variant": dataset.astype(str),
                          "n_players": np.full(n_games, n_players), "n_winners": np.where(tie, 2, 1).ravel()})
    return games, seats


@cache
def _truth(name: str) -> tuple[np.ndarray, np.ndarray]:
    """True seat and colour win rates under the planted effect (300,000 deals, fixed seed)."""
    sc = {k: v for k, v in SCENARIOS[name].items() if k != "n_deals"}
    colour, _player, _util, win, _tie, n_tables = _outcomes(np.random.default_rng(999), 300_000, **sc,
                                                            **PLANTED[name])
    seat = win.mean(axis=(0, 1))
    per_deal = win.sum(axis=1)  # deal x seat: the win shares of the seat's colour over the deal's tables
    col = np.bincount(colour.ravel(), per_deal.ravel(), sc["n_colours"]) / (
        np.bincount(colour.ravel(), minlength=sc["n_colours"]) * n_tables)
    return seat, col


def _old_wilson(seats: pl.DataFrame, position: str) -> pl.DataFrame:
    """The former game-as-unit interval: Wilson over seat-games treated as independent."""
    rows = seats.group_by("variant", position).agg(pl.len().alias("n"), pl.col("win_share").sum().alias("w"))
    lo, hi = wilson_interval(rows["w"].to_numpy(), rows["n"].to_numpy())
    return rows.with_columns(pl.Series("lo", lo), pl.Series("hi", hi))


def _old_chi2(seats: pl.DataFrame, position: str, n_players: int) -> np.ndarray:
    """The former chi-square goodness-of-fit p-values (games as independent multinomial draws)."""
    per = seats.group_by("variant", position).agg(pl.len().alias("g"), pl.col("win_share").sum().alias("o"))
    per = per.with_columns((pl.col("o").sum().over("variant") * pl.col("g") / pl.col("g").sum().over("variant"))
                           .alias("e"))
    out = per.group_by("variant").agg(((pl.col("o") - pl.col("e")) ** 2 / pl.col("e")).sum().alias("x"),
                                      pl.len().alias("k"))
    return stats.chi2.sf(out["x"].to_numpy(), out["k"].to_numpy() - 1)


def _cover(frame: pl.DataFrame, position: str, truth: np.ndarray, lo: str, hi: str) -> float:
    labels = sorted(frame[position].unique().to_list())
    t = frame[position].replace_strict(dict(zip(labels, truth.tolist(), strict=True)), return_dtype=pl.Float64)
    return float(((frame[lo] <= t) & (t <= frame[hi])).mean())


@cache
def measure(name: str, planted: bool) -> dict[str, float]:
    """Coverage, rejection and old-method figures of one scenario over R data sets."""
    sc = SCENARIOS[name]
    n = sc["n_players"]
    seed = 1000 * (1 + list(SCENARIOS).index(name)) + int(planted)
    games, seats = simulate(np.random.default_rng(seed), R, **sc, **(PLANTED[name] if planted else {}))
    if planted:
        seat_truth, col_truth = _truth(name)
    else:
        seat_truth, col_truth = np.full(n, 1 / n), np.full(sc["n_colours"], 1 / n)
    out: dict[str, float] = {}
    for position, truth in (("seat", seat_truth), ("colour", col_truth)):
        rates = seat_win_rates(seats, position=position)
        assert rates["deals"].max() <= sc["n_deals"]
        out[f"{position}_cover"] = _cover(rates, position, truth, "win_rate_lo", "win_rate_hi")
        out[f"{position}_old_cover"] = _cover(_old_wilson(seats, position), position, truth, "lo", "hi")
        test = seat_fairness_test(seats, position=position)
        assert test.height == R and (test["dof"] == (n if position == "seat" else sc["n_colours"]) - 1).all()
        out[f"{position}_reject"] = float((test["p_value"] < 0.05).mean())
        out[f"{position}_old_reject"] = float((_old_chi2(seats, position, n) < 0.05).mean())
    m = game_metrics(games, seats, seed=1)
    dev_truth = float(np.max(np.abs(seat_truth - 1 / n)))
    out["deviation_cover"] = float(((m["max_seat_deviation_lo"] <= dev_truth + 1e-12)
                                    & (dev_truth <= m["max_seat_deviation_hi"] + 1e-12)).mean())
    out["deviation_truth"] = dev_truth
    return out


def test_generator_has_the_dependence_of_a_run():
    """Tables of a deal share the colour deal; wins of one game sum to one; some wins are shared."""
    games, seats = simulate(np.random.default_rng(0), 2, **SCENARIOS["2p"])
    assert games.height == 2 * 100 * 6
    per_deal = seats.group_by("variant", "deal", "seat").agg(pl.col("colour").n_unique())
    assert (per_deal["colour"] == 1).all()
    per_game = seats.group_by("variant", "game").agg(pl.col("win_share").sum())
    assert np.allclose(per_game["win_share"].to_numpy(), 1.0)
    assert 0.005 < (games["n_winners"] > 1).mean() < 0.1  # about 1% shared wins


def test_fair_game_coverage_and_false_alarms():
    """No seat or colour effect: intervals cover 1/n, the tests reject at most at about alpha, D = 0 is covered."""
    for name in SCENARIOS:
        f = measure(name, planted=False)
        assert f["seat_cover"] >= COVER_MIN, (name, f)
        assert f["colour_cover"] >= COVER_MIN, (name, f)
        assert f["seat_reject"] <= ALPHA_MAX, (name, f)
        assert f["colour_reject"] <= ALPHA_MAX, (name, f)
        assert f["deviation_cover"] >= COVER_MIN, (name, f)


def test_planted_effect_coverage_and_power():
    """Seat 0 and colour c0 ahead: intervals cover the true rates and the largest deviation; the tests have power."""
    for name in SCENARIOS:
        f = measure(name, planted=True)
        assert f["seat_cover"] >= COVER_MIN, (name, f)
        assert f["colour_cover"] >= COVER_MIN, (name, f)
        assert f["deviation_cover"] >= COVER_MIN, (name, f)
        assert f["colour_reject"] >= 0.6, (name, f)  # power of the colour test (measured 0.72 and 0.98)
        assert f["seat_reject"] >= 0.25, (name, f)  # power of the seat test (measured 0.38 and 0.57)


def test_game_as_unit_intervals_under_cover():
    """Why: on the same fair data, the former game-as-unit Wilson interval and chi-square test are invalid."""
    f = measure("2p", planted=False)
    assert f["colour_old_cover"] < 0.85, f
    assert f["colour_old_reject"] > 0.15, f
    assert f["colour_old_cover"] < f["colour_cover"] - 0.05


if __name__ == "__main__":  # the table of docs/analysis.md
    for name in SCENARIOS:
        for planted in (False, True):
            f = measure(name, planted)
            print(name, "planted" if planted else "fair", {k: round(v, 3) for k, v in f.items()})
