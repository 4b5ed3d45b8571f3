"""Stopping rules stop where they should, and not early more often than alpha when nothing differs."""

from __future__ import annotations

import numpy as np
import polars as pl
from runner_helpers import assert_same_tables, small_spec, tables

from simlab.analysis._common import clustered_rate, with_deal
from simlab.analysis.sequential import elo_to_score, sprt
from simlab.results import load, manifest
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


def _two(a: str, b: str, **over) -> dict:
    return small_spec(record=[], players={"seats": [a, b], "rotation": "cyclic"}, **over)


def test_sprt_stops_early_on_a_planted_difference(tmp_path):
    """greedy vs random (a huge difference): H1 accepted at the first checkpoint."""
    stop = {"rule": "sprt", "player_a": "greedy", "player_b": "random", "elo0": 0, "elo1": 50, "check_every": 100}
    spec = parse_spec(_two("greedy", "random", games=20_000, shard_size=100, stop=stop))
    result = run_experiment(spec, tmp_path / "sprt", show_progress=False)
    decision = result.manifest["stop"]["base"]
    assert decision["decision"] == "H1"
    assert decision["stop_at"] == 100
    # the SPRT counts deals (both seat orders of one seed), not games
    assert decision["unit"] == "deal" and decision["deals"] == 50 and decision["games_compared"] == 100
    assert result.manifest["status"] == "stopped"
    assert load(result.path)["games"].collect().height == 100
    assert result.manifest["games_done"] == 100


def _clustered(seats: pl.DataFrame, player: str, below: int) -> dict:
    """The analysis layer's deal-clustered win rate of ``player`` over the games below ``below``."""
    mine = with_deal(seats).filter((pl.col("player") == player) & (pl.col("game") < below))
    return clustered_rate(mine, [], "win_share", "deal").row(0, named=True)


def test_ci_rule_stops_at_the_first_checkpoint_meeting_the_target(tmp_path):
    """The stored games end at the first checkpoint whose deal-clustered 95% half-width is at most the target.

    The interval is the analysis layer's (the win rate as a ratio over deals, clustered Wilson), not a
    Wilson interval over seat-games, which treated the three rotations of a deal as independent; the
    manifest records it (estimate, lo, hi, half_width, deals)."""
    stop = {"rule": "ci", "player": "investor", "half_width": 0.05, "check_every": 60}
    spec = parse_spec(small_spec(games=3000, shard_size=50, stop=stop, record=[]))
    result = run_experiment(spec, tmp_path / "ci", show_progress=False)
    decision = result.manifest["stop"]["base"]
    stop_at = decision["stop_at"]
    assert decision["decision"] == "target reached" and decision["unit"] == "deal"
    seats = load(result.path)["seats"].collect()
    assert seats["game"].max() == stop_at - 1
    at_stop = _clustered(seats, "investor", stop_at)
    assert (at_stop["hi"] - at_stop["lo"]) / 2 <= 0.05
    assert decision["deals"] == at_stop["clusters"] == stop_at // 3 and decision["n"] == at_stop["n"]
    for key, ref in (("estimate", "mean"), ("lo", "lo"), ("hi", "hi"), ("n_eff", "n_eff")):
        assert np.isclose(decision[key], at_stop[ref]), key
    assert np.isclose(decision["half_width"], (at_stop["hi"] - at_stop["lo"]) / 2)
    before = _clustered(seats, "investor", stop_at - 60)
    assert (before["hi"] - before["lo"]) / 2 > 0.05  # the previous checkpoint had not reached the target
    # the same stopping point with two workers and another shard size (cutting deals)
    again = run_experiment(parse_spec(small_spec(games=3000, shard_size=70, workers=2, stop=stop, record=[])),
                           tmp_path / "ci2", show_progress=False)
    assert again.manifest["stop"]["base"] == decision
    assert_same_tables(tables(result.path), tables(again.path))


def test_ci_rule_by_seat_counts_deals(tmp_path):
    """``seat`` instead of ``player``: the seat's win rate over whole deals, the analysis layer's interval."""
    stop = {"rule": "ci", "seat": 0, "half_width": 0.06, "check_every": 30}
    result = run_experiment(parse_spec(small_spec(games=1500, shard_size=40, stop=stop, record=[])),
                            tmp_path / "seat", show_progress=False)
    decision = result.manifest["stop"]["base"]
    seats = with_deal(load(result.path)["seats"].collect())
    mine = seats.filter(pl.col("seat") == 0)
    ref = clustered_rate(mine, [], "win_share", "deal").row(0, named=True)
    assert decision["deals"] == ref["clusters"] == decision["stop_at"] // 3
    assert np.isclose(decision["lo"], ref["lo"]) and np.isclose(decision["hi"], ref["hi"])


def test_sprt_false_alarms_stay_near_alpha(tmp_path):
    """Two labels of the same strategy (no difference) over many seeds: H1 is accepted in at most about alpha
    of the runs, and every run does compare the two (deals > 0; ``pairs`` is the same count)."""
    a, b = "greedy(pass_below=1)", "greedy(pass_below=1.0)"
    stop = {"rule": "sprt", "player_a": a, "player_b": b, "elo0": 0, "elo1": 40, "alpha": 0.05, "beta": 0.05,
            "check_every": 50}
    h1 = 0
    for seed in range(60):
        spec = parse_spec(small_spec(seed=seed, games=4000, shard_size=400, record=[], stop=stop,
                                     players={"seats": [a, b], "rotation": "cyclic"}))
        decision = run_experiment(spec, tmp_path / f"h0_{seed}", show_progress=False).manifest["stop"]["base"]
        assert decision["pairs"] == decision["deals"] > 0
        h1 += decision["decision"] == "H1"
    assert h1 <= 8  # alpha = 0.05 of 60 runs is 3; P(X >= 9) < 0.01 under Binomial(60, 0.05)


def test_sprt_statistic_matches_the_definition():
    s0, s1 = elo_to_score(0), elo_to_score(20)
    x = np.array([1, 0, 1, 1, 0.5, 1, 0, 1.0] * 50)
    r = sprt(len(x), x.sum(), (x * x).sum(), 0, 20, 0.05, 0.05)
    var = x.var()
    assert np.isclose(r.llr, len(x) * (s1 - s0) * (2 * x.mean() - s0 - s1) / (2 * var))
    assert r.decision == ("H1" if r.llr >= r.upper else "H0" if r.llr <= r.lower else "continue")


def test_manifest_records_the_stop(tmp_path):
    stop = {"rule": "sprt", "player_a": "greedy", "player_b": "random", "elo0": 0, "elo1": 50, "check_every": 100}
    result = run_experiment(parse_spec(_two("greedy", "random", games=2000, stop=stop)), tmp_path / "m",
                            show_progress=False)
    man = manifest(result.path)
    assert man["stop"]["base"]["rule"] == "sprt"
    assert man["stop"]["base"]["llr"] >= man["stop"]["base"]["bounds"][1]
