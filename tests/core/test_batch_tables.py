"""play_batch's tables (games, seats, summary) and the Wilson interval behind the summary."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl
import pytest

import simlab
from simlab.core.player import Player, ResolvedPlayer
from simlab.core.rng import game_seeds

try:  # the interval helpers live in simlab.analysis (formerly simlab.core.stats)
    from simlab.analysis.intervals import wilson_interval
except ImportError:  # pragma: no cover - older layout
    from simlab.core.stats import wilson_interval

N_GAMES = 300


@pytest.fixture(scope="module")
def batch3():
    """A 3-player compiled batch with a shared-win-prone random seat."""
    return simlab.play_batch("sentient", ["greedy", "investor", "random"], games=N_GAMES, seed=11)


@pytest.fixture(scope="module")
def batch_random4():
    """4 random players tie often enough to see shared wins."""
    return simlab.play_batch("sentient", ["random"] * 4, games=2000, seed=3)


def _is_int(dtype: pl.DataType) -> bool:
    return dtype.is_integer()


# ---------------------------------------------------------------- games table


def test_games_table_columns_and_dtypes(batch3):
    g = batch3.games
    schema = g.schema
    for col in ("game", "experiment_seed", "seed", "n_players", "turns", "reshuffles", "sweeps", "n_winners"):
        assert col in schema, col
    assert schema["game"] == pl.Int64
    assert schema["experiment_seed"] == pl.Int64
    assert schema["seed"] == pl.UInt64
    assert schema["n_players"] == pl.Int8
    for col in ("turns", "reshuffles", "sweeps", "n_winners"):
        assert _is_int(schema[col]), (col, schema[col])
    assert g.height == N_GAMES


def test_games_table_values(batch3):
    g = batch3.games.sort("game")
    assert g["game"].to_list() == list(range(N_GAMES))
    assert set(g["experiment_seed"].to_list()) == {11}
    assert set(g["n_players"].to_list()) == {3}
    np.testing.assert_array_equal(g["seed"].to_numpy(), game_seeds(11, 0, N_GAMES))
    # 12 takes and at least one pass per seat and round
    assert (g["turns"] >= 3 * 12 + 3 * 3).all()
    assert (g["reshuffles"] >= 0).all()
    assert (g["n_winners"] >= 1).all()


# ---------------------------------------------------------------- seats table


def test_seats_table_columns_and_dtypes(batch3):
    schema = batch3.seats.schema
    for col in ("game", "seat", "player", "score", "rank", "winner", "win_share"):
        assert col in schema, col
    assert schema["game"] == pl.Int64
    assert schema["seat"] == pl.Int8
    assert schema["player"] == pl.Categorical
    assert _is_int(schema["score"])
    assert _is_int(schema["rank"])
    assert schema["winner"] == pl.Boolean
    assert schema["win_share"] == pl.Float64


def test_seats_rows_game_major(batch3):
    s = batch3.seats
    assert s.height == 3 * N_GAMES
    assert s["game"].to_list() == [i for i in range(N_GAMES) for _ in range(3)]
    assert s["seat"].to_list() == [0, 1, 2] * N_GAMES
    assert s["player"].cast(pl.String).to_list() == ["greedy", "investor", "random"] * N_GAMES


def test_seats_ranks(batch3):
    s = batch3.seats
    assert s["rank"].min() == 1
    assert s["rank"].max() <= 3
    assert (s.group_by("game").agg(pl.col("rank").min())["rank"] == 1).all()


@pytest.mark.parametrize("fixture", ["batch3", "batch_random4"])
def test_win_share_sums_to_one(fixture, request):
    s = request.getfixturevalue(fixture).seats
    sums = s.group_by("game").agg(pl.col("win_share").sum())["win_share"].to_numpy()
    np.testing.assert_allclose(sums, 1.0)


@pytest.mark.parametrize("fixture", ["batch3", "batch_random4"])
def test_rank_one_iff_winner(fixture, request):
    s = request.getfixturevalue(fixture).seats
    assert ((s["rank"] == 1) == s["winner"]).all()
    assert ((s["win_share"] > 0) == s["winner"]).all()


def test_shared_wins_split(batch_random4):
    """A game with k winners gives each 1/k; n_winners in the games table agrees with the seats."""
    s = batch_random4.seats
    per_game = s.group_by("game").agg(pl.col("winner").sum().alias("k"))
    joined = s.join(per_game, on="game").filter(pl.col("winner"))
    np.testing.assert_allclose(joined["win_share"].to_numpy(), 1.0 / joined["k"].to_numpy())
    games = batch_random4.games.join(per_game, on="game")
    assert (games["n_winners"] == games["k"]).all()
    assert (per_game["k"] > 1).any(), "expected at least one shared win among 2000 random games"


def test_winner_has_top_score(batch3):
    s = batch3.seats
    top = s.group_by("game").agg(pl.col("score").max().alias("top"))
    winners = s.filter(pl.col("winner")).join(top, on="game")
    assert (winners["score"] == winners["top"]).all()


# ---------------------------------------------------------------- summary


def test_summary_columns(batch3):
    summary = batch3.summary()
    for col in ("player", "seat", "games", "wins", "win_rate", "win_lo", "win_hi", "mean_score", "sd_score"):
        assert col in summary.columns, col
    assert summary.height == 3
    assert sorted(summary["seat"].to_list()) == [0, 1, 2]
    assert set(summary["games"].to_list()) == {N_GAMES}


def test_summary_values(batch3):
    summary = batch3.summary()
    s = batch3.seats
    for row in summary.iter_rows(named=True):
        mine = s.filter(pl.col("seat") == row["seat"])
        assert row["player"] == mine["player"][0]
        assert row["wins"] == pytest.approx(mine["win_share"].sum())
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"])
        assert row["mean_score"] == pytest.approx(mine["score"].mean())
        # (a seat with no wins gets a lower bound of ~1e-18 from rounding, hence the tolerance)
        assert 0.0 <= row["win_lo"] <= row["win_rate"] + 1e-12
        assert row["win_rate"] <= row["win_hi"] <= 1.0
        lo, hi = wilson_interval(np.array([row["wins"]]), np.array([row["games"]]))
        assert row["win_lo"] == pytest.approx(lo[0])
        assert row["win_hi"] == pytest.approx(hi[0])
    assert summary["wins"].sum() == pytest.approx(N_GAMES)


# ---------------------------------------------------------------- Wilson interval

# (successes, n, lo, hi): hand-computed with z = 1.959963984540054
KNOWN = [
    (0, 10, 0.0, 0.2775328),
    (5, 10, 0.2365931, 0.7634069),
    (10, 10, 0.7224672, 1.0),
    (1, 1, 0.2065493, 1.0),
    (50, 100, 0.4038315, 0.5961685),
]


@pytest.mark.parametrize(("k", "n", "lo", "hi"), KNOWN)
def test_wilson_known_values(k, n, lo, hi):
    got_lo, got_hi = wilson_interval(np.array([k]), np.array([n]))
    assert got_lo[0] == pytest.approx(lo, abs=1e-6)
    assert got_hi[0] == pytest.approx(hi, abs=1e-6)


def test_wilson_closed_form():
    """The textbook formula, written out independently."""
    z = 1.959963984540054
    for k, n in [(3, 17), (0, 1), (123, 456), (7.5, 20)]:
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        lo, hi = wilson_interval(np.array([k]), np.array([n]))
        assert lo[0] == pytest.approx(max(0.0, centre - half), abs=1e-12)
        assert hi[0] == pytest.approx(min(1.0, centre + half), abs=1e-12)


def test_wilson_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    ks = np.array([0, 1, 2, 5, 9, 10, 37, 120])
    ns = np.array([10, 10, 10, 10, 10, 10, 120, 120])
    lo, hi = wilson_interval(ks, ns)
    for i, (k, n) in enumerate(zip(ks, ns, strict=True)):
        ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
        assert lo[i] == pytest.approx(ci.low, abs=1e-9)
        assert hi[i] == pytest.approx(ci.high, abs=1e-9)


def test_wilson_vectorised_and_empty_groups():
    lo, hi = wilson_interval(np.array([0, 3, 0]), np.array([0, 6, 5]))
    assert lo.shape == hi.shape == (3,)
    assert (lo[0], hi[0]) == (0.0, 1.0)  # no games: no information
    assert lo[1] < 0.5 < hi[1]
    assert lo[2] == 0.0 and 0 < hi[2] < 1


def test_wilson_contains_rate_and_narrows():
    rates = np.linspace(0, 1, 21)
    for n in (10, 100, 10_000):
        lo, hi = wilson_interval(rates * n, np.full(21, n))
        assert (lo <= rates + 1e-12).all() and (rates - 1e-12 <= hi).all()
    w_small = np.subtract(*wilson_interval(np.array([30]), np.array([100]))[::-1])
    w_big = np.subtract(*wilson_interval(np.array([3000]), np.array([10_000]))[::-1])
    assert w_big < w_small


# ---------------------------------------------------------------- Python players in play_batch


class FirstLegal(Player):
    """Always the first legal action."""

    calls = 0

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        FirstLegal.calls += 1
        return legal[0]


def _first_legal() -> ResolvedPlayer:
    return ResolvedPlayer("first_legal", False, factory=FirstLegal)


def test_python_player_runs_through_driver():
    FirstLegal.calls = 0
    res = simlab.play_batch("sentient", [_first_legal(), "greedy"], games=4, seed=2)
    assert res.compiled is False
    assert FirstLegal.calls == 4 * 15  # 15 decisions per seat per game
    assert res.seats["player"].cast(pl.String).to_list() == ["first_legal", "greedy"] * 4
    assert res.games.height == 4
    np.testing.assert_allclose(res.seats.group_by("game").agg(pl.col("win_share").sum())["win_share"], 1.0)
    np.testing.assert_array_equal(res.games.sort("game")["seed"].to_numpy(), game_seeds(2, 0, 4))


def test_compiled_flag_for_builtin_lineup():
    res = simlab.play_batch("sentient", ["greedy", "random"], games=3, seed=2)
    assert res.compiled is True


def test_progress_compiled():
    calls: list[int] = []
    simlab.play_batch("sentient", ["greedy", "random"], games=7, seed=2, progress=calls.append)
    assert calls and calls[-1] == 7


def test_progress_driver_reports_final_count():
    """The driver path reports the final count too, not only every hundredth game."""
    calls: list[int] = []
    simlab.play_batch("sentient", [_first_legal(), "greedy"], games=5, seed=2, progress=calls.append)
    assert calls and calls[-1] == 5


def test_empty_batch():
    res = simlab.play_batch("sentient", ["greedy", "random"], games=0, seed=1)
    assert res.games.height == 0
    assert res.seats.height == 0
    assert "seed" in res.games.columns and "win_share" in res.seats.columns
