"""Proof by simulation: the largest-position-deviation interval holds its level in small runs when there are
more positions than seats (5 start colours at 2 or 3 seats, each colour in only 40–60% of the deals).

Issue 22 (part 2): ``position_covariance`` used all ``G`` deals for every position's small-sample
factor and for the max-t degrees of freedom, although a colour dealt to 2 of 5 seats is in only
40% of the deals; the simultaneous interval of ``seat_deviation_interval`` (and the tune's
confirmation of ``max_position_deviation``, which calls it) then under-covered at 30–60 deals. Each
position now uses its own deal count ``G_j`` (factor ``G_j/(G_j−1)``) and the max-t quantile the
smallest ``G_j − 1`` degrees of freedom.

The generator deals, per deal, ``n_players`` of 5 colours to the seats (a colour stays with its
seat: the start position) and plays ``n_players`` games, the players rotated over the seats. The
games of a deal share a strong deal effect on its seats and on its colours (what the deal's seed
fixes: deck, start positions); the winner is the best of ``effect + Gumbel`` utilities
(a multinomial logit). Without a colour effect every colour wins ``1 / n`` by symmetry, so the true
largest deviation is 0 and the interval covers it exactly when every colour's simultaneous
interval contains the fair share: the case where the interval is tightest (under a planted effect
it is conservative by construction, see test_coverage_seats.py).

Each scenario is ``R`` independent data sets from a fixed seed. A correct method covers at least
``0.95 − 3·sqrt(0.05·0.95/R)``; the bound is three binomial (Monte Carlo) standard errors below
95%. ``python tests/analysis/test_coverage_positions.py [R]`` prints the before/after table of
docs/analysis.md (it was measured with R = 4000).
"""

from __future__ import annotations

import sys
from functools import cache

import numpy as np
import polars as pl

import simlab.tune.objectives as objectives
from simlab.analysis.intervals import max_t_quantile
from simlab.analysis.metrics import seat_deviation_interval
from simlab.tune.objectives import Objective

R = 400  # replicates (data sets) per scenario
COVER_MIN = 0.95 - 3 * np.sqrt(0.05 * 0.95 / R)  # 0.917
TUNE_R = 200  # replicates of the tune's confirmation (two player counts a replicate)
TEST_SEED = 22_000  # the tests' data; the table of docs/analysis.md was measured from DOC_SEED with R = 4000
DOC_SEED = 2200
N_COLOURS = 5
DEAL_SD = (0.6, 1.2)  # deal effect on each seat and on each colour, shared by the deal's games
SCENARIOS = {  # name: (n_players, deals per data set)
    "2p-30": (2, 30), "2p-57": (2, 57), "2p-100": (2, 100),
    "3p-30": (3, 30), "3p-57": (3, 57), "3p-100": (3, 100),
}


def simulate(rng: np.random.Generator, n_sets: int, n_players: int, n_deals: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n_sets`` fair data sets: per set and seat-game row, the deal, the start colour and the win share.

    Arrays of shape ``(n_sets, n_deals · n_players games · n_players seats)``, rows ordered by
    deal, game, seat (so the deal column is the same for every set).
    """
    deals = n_sets * n_deals
    n = n_players
    colour = np.argsort(rng.random((deals, N_COLOURS)), axis=1)[:, :n]  # deal x seat: 2–3 of the 5 colours
    deal_seat = rng.normal(0, DEAL_SD[0], (deals, n))
    deal_colour = rng.normal(0, DEAL_SD[1], (deals, N_COLOURS))
    base = deal_seat + np.take_along_axis(deal_colour, colour, axis=1)  # deal x seat
    strength = np.linspace(-0.5, 0.5, n)
    player = (np.arange(n)[None, :] + np.arange(n)[:, None]) % n  # game (rotation) x seat
    util = base[:, None, :] + strength[player][None] + rng.gumbel(size=(deals, n, n))
    win = (util == util.max(axis=2, keepdims=True)).astype(np.float64)
    rows = n_deals * n * n
    deal = np.broadcast_to(np.repeat(np.arange(n_deals), n * n), (n_sets, rows))
    colours = np.repeat(colour[:, None, :], n, axis=1).reshape(n_sets, rows)
    return deal, colours, win.reshape(n_sets, rows)


def old_deviation_interval(deal: np.ndarray, position: np.ndarray, win: np.ndarray, fair: float,
                           level: float = 0.95, seed: int = 0) -> tuple[float, float, float]:
    """The former interval, for comparison: every position's factor ``G/(G−1)`` and ``G − 1`` degrees of freedom
    with ``G`` all the deals."""
    deals, di = np.unique(deal, return_inverse=True)
    labels, pi = np.unique(position, return_inverse=True)
    num = np.zeros((deals.size, labels.size))
    den = np.zeros((deals.size, labels.size))
    np.add.at(num, (di, pi), win)
    np.add.at(den, (di, pi), 1.0)
    tot = den.sum(axis=0)
    rates = num.sum(axis=0) / tot
    u = (num - rates * den) / tot
    g = deals.size
    cov = g / (g - 1) * (u.T @ u)
    c = max_t_quantile(cov, g - 1, level, seed=seed)
    se = np.sqrt(np.diag(cov))
    lo_s, hi_s = rates - c * se, rates + c * se
    return (float(np.max(np.abs(rates - fair))), float(np.max(np.maximum(0.0, np.maximum(lo_s - fair, fair - hi_s)))),
            float(np.max(np.maximum(np.abs(lo_s - fair), np.abs(hi_s - fair)))))


@cache
def measure(name: str, replicates: int = R, old: bool = False, seed: int = TEST_SEED) -> float:
    """Coverage of the true largest colour deviation (0) by the interval (``old``: the former one)."""
    n, n_deals = SCENARIOS[name]
    deal, colour, win = simulate(np.random.default_rng(seed + list(SCENARIOS).index(name)), replicates, n, n_deals)
    interval = old_deviation_interval if old else seat_deviation_interval
    return float(np.mean([interval(deal[i], colour[i], win[i], 1 / n, seed=i)[1] <= 1e-12
                          for i in range(replicates)]))


def tune_tables(n_deals: int, replicates: int, seed: int) -> list[dict[str, pl.DataFrame]]:
    """``replicates`` fair candidate tables at 2 and 3 players (``n_deals`` deals each), in the tune's schema."""
    parts: list[list[pl.DataFrame]] = [[] for _ in range(replicates)]
    rng = np.random.default_rng(seed)
    offset = 0
    names = np.array([f"c{c}" for c in range(N_COLOURS)])
    for n in (2, 3):
        deal, colour, win = simulate(rng, replicates, n, n_deals)
        games = n_deals * n
        game = np.repeat(np.arange(games), n) + offset
        for i in range(replicates):
            parts[i].append(pl.DataFrame({
                "variant": "base", "game": game, "seat": np.tile(np.arange(n), games), "n_players": n,
                "colour": names[colour[i]], "win_share": win[i], "deal": deal[i] + 10_000 * n}))
        offset += games
    return [{"seats": pl.concat(p)} for p in parts]


@cache
def measure_tune(n_deals: int, replicates: int = TUNE_R, old: bool = False, seed: int = TEST_SEED) -> float:
    """Coverage of the true 0 by the tune's confirmation of ``max_position_deviation`` over colours at 2 and 3
    players (Bonferroni over the two counts, the overall interval)."""
    objective = Objective("max_position_deviation", position="colour")
    covered = []
    saved = objectives.seat_deviation_interval
    try:
        if old:
            objectives.seat_deviation_interval = old_deviation_interval  # type: ignore[assignment]
        for i, tables in enumerate(tune_tables(n_deals, replicates, seed + 100 + n_deals)):
            row = objective.confirm(tables, seed=i).filter(pl.col("scope") == "all")
            covered.append(row["lo"].item() <= 1e-12)
    finally:
        objectives.seat_deviation_interval = saved
    return float(np.mean(covered))


def test_generator_deals_each_colour_to_part_of_the_deals():
    """5 colours at 2 seats: a colour is in about 40% of the deals and keeps its seat over the deal's games."""
    deal, colour, win = simulate(np.random.default_rng(0), 3, 2, 200)
    assert np.allclose(win.reshape(3, -1, 2).sum(axis=2), 1.0)  # one winner a game
    per_deal = colour.reshape(3, 200, 2, 2)
    assert (per_deal == per_deal[:, :, :1, :]).all()  # the deal's games share its colour deal
    share = np.mean([np.unique(deal[0][colour[0] == c]).size for c in range(N_COLOURS)]) / 200
    assert 0.35 < share < 0.45


def test_small_runs_colour_deviation_interval_covers():
    """2 players at 30 and 57 deals, 3 players at 100: the colour deviation interval covers the true 0 at the
    nominal rate (measured 94.5–95.2%; at 3 players and 30–57 deals it still falls short, 91.8–93.7%, as the
    seat interval does at so few deals: see docs/analysis.md)."""
    for name in ("2p-30", "2p-57", "3p-100"):
        cover = measure(name)
        assert cover >= COVER_MIN, (name, cover)


def test_all_deals_as_every_colours_count_under_covers():
    """Why: the former factor and degrees of freedom from all the deals under-cover at 30 deals, on the same data
    (measured 86.7% against 94.5% at 2 players)."""
    cover, old = measure("2p-30"), measure("2p-30", old=True)
    assert old < COVER_MIN, old
    assert old < cover - 0.03, (old, cover)


def test_small_runs_tune_confirmation_gains_the_lost_coverage():
    """The tune's confirmation of ``max_position_deviation`` over colours (2 and 3 players, 30 deals, Bonferroni
    over the counts) calls the fixed interval: on the same data it covers the true 0 clearly more often than the
    former one (measured 92.7% against 84.7%, the figure of issue 22); the rest is the 3-player shortfall."""
    cover, old = measure_tune(30), measure_tune(30, old=True)
    assert cover - old >= 0.03, (cover, old)


if __name__ == "__main__":  # the before/after table of docs/analysis.md
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else R

    def _mc(p: float) -> str:
        return f"{100 * p:.1f}% ± {100 * np.sqrt(p * (1 - p) / reps):.1f}"

    for key in SCENARIOS:
        print(f"{key}: cover {_mc(measure(key, reps, seed=DOC_SEED))}, "
              f"old {_mc(measure(key, reps, old=True, seed=DOC_SEED))}")
    for size in (30, 57, 100):
        print(f"tune 2+3 players, {size} deals: cover {_mc(measure_tune(size, reps, seed=DOC_SEED))}, "
              f"old {_mc(measure_tune(size, reps, old=True, seed=DOC_SEED))}")
