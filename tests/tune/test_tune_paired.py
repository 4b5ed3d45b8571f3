"""The paired confirmation test (``simlab.tune.paired``, issue 22): candidate minus printed data on the shared
confirmation deals, one-sided at 5%.

- its level (false confirmations at most 5% when there is no improvement) and power, by simulation on
  synthetic confirmation runs with the dependence of real ones (``simlab.tune.simulate``), and that the
  check can fail: the percentile bound alone exceeds 5% when the printed data's estimate carries more
  noise bias than the candidate's;
- the deal sums behind it give exactly the objectives the tune reports (so the test compares what the
  table shows);
- a candidate identical to the printed data is never confirmed, and the tune's verdict is the paired one.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from tune_helpers import PLANTED_SPEC, run_tiny, write_spec

from simlab.tune import simulate
from simlab.tune.objectives import Objective
from simlab.tune.paired import (
    DealSums,
    bias_corrected,
    deal_weights,
    paired_test,
    ratios,
    replicates,
    simultaneous_differences,
)

# nominal 5% plus three binomial standard errors of the replicates
REPS_COLOURS, REPS_CARDS = 300, 200


def _bound(reps: int) -> float:
    return 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)


def _scenario(text: str, **sizes) -> simulate.Scenario:
    return next(s for s in simulate.scenarios(**sizes) if text in s.name)


@pytest.mark.parametrize("text", ["no change in truth", "strengths permuted", "two colours tied"])
def test_no_false_confirmations_of_a_colour_change_that_changes_nothing(text):
    """max_position_deviation, Smartphone Inc.'s 75 seatings a deal at 25 (and 100) confirmation deals."""
    s = _scenario(text, deals_colours=(25, 100))
    rates = simulate.confirm_rates(s, REPS_COLOURS, 400, seed=3)
    assert rates["both"] <= _bound(REPS_COLOURS), rates


def test_a_real_colour_improvement_is_confirmed():
    """0.35 -> 0.22 (the tune's colour change): the issue measured 2% for the overlap rule at 25 deals."""
    s = _scenario("real improvement", deals_colours=(25,))
    assert simulate.confirm_rates(s, 100, 400, seed=4)["both"] >= 0.85


def test_card_band_holds_its_level_where_the_percentile_bound_does_not():
    """card_value_band at the demonstration's 450 deals: cards just inside the band's edges in the printed
    data, moved further in by the candidate (the objective is unchanged; the printed estimate carries more
    upward bias). The percentile bound alone confirms far more than 5%; the tune's test does not."""
    s = _scenario("moved further in")
    rates = simulate.confirm_rates(s, REPS_CARDS, 300, seed=6)
    assert rates["both"] <= _bound(REPS_CARDS), rates
    assert rates["percentile"] > _bound(REPS_CARDS), rates  # the check can fail


# ---------------------------------------------------------------- the machinery


def test_identical_runs_are_never_confirmed_and_bounds_are_ordered():
    rng = np.random.default_rng(0)
    num, den = rng.poisson(3, (40, 6)).astype(float), np.full((40, 6), 6.0)
    sums = DealSums(np.arange(40), num, den)
    stat = simulate.colour_statistic
    weights = deal_weights(40, 300, 1)
    sums20 = DealSums(np.arange(40), np.hstack([num] * 4)[:, :20], np.hstack([den] * 4)[:, :20])
    point, reps = replicates(sums20, stat, weights)
    test = paired_test(point[0], point[0], reps[:, 0], reps[:, 0])
    assert test["diff"] == 0 and not test["confirmed"] and test["diff_upper"] == 0
    assert ratios(sums) == pytest.approx(num.sum(0) / den.sum(0))
    # a clear improvement: the tune's bound is the larger of the basic and percentile bounds
    better = DealSums(np.arange(40), np.clip(sums20.num - 1.0, 0, None), sums20.den)
    c_point, c_reps = replicates(better, stat, weights)
    tests = {m: paired_test(c_point[0], point[0], c_reps[:, 0], reps[:, 0], method=m)
             for m in ("both", "basic", "percentile")}
    assert tests["both"]["diff_upper"] == max(tests["basic"]["diff_upper"], tests["percentile"]["diff_upper"])
    assert tests["both"]["confirmed"] and tests["both"]["p_value"] < 0.05
    per = simultaneous_differences(c_point[1:], point[1:], c_reps[:, 1:], reps[:, 1:])
    assert all(lo <= d <= hi for d, lo, hi in per)


def test_bias_correction_takes_the_bootstrap_bias_off_and_stays_non_negative():
    assert bias_corrected(0.3, np.array([0.35, 0.33, 0.34])) == pytest.approx(0.26)
    assert bias_corrected(0.01, np.array([0.05, 0.06])) == 0.0


def test_deal_sums_give_the_objective_the_tune_reports(tiny_reference):
    """The statistic of the deal sums is the search's value and the confirmation's per-player-count value."""
    from simlab.results import load

    tables = {k: v.collect() for k, v in load(tiny_reference / "confirm" / "printed").items()}
    for position in ("colour", "seat"):
        objective = Objective("max_position_deviation", position=position)
        sums, statistic, scopes = objective.deal_sums(tables)
        point = statistic(ratios(sums)[None, :])[0]
        assert point[0] == pytest.approx(objective.value(tables), abs=1e-12)
        confirmed = objective.confirm(tables)
        for scope, value in zip(scopes, point, strict=True):
            assert value == pytest.approx(confirmed.filter(pl.col("scope") == scope)["value"].item(), abs=1e-12)


def test_the_tune_verdict_is_the_paired_test(fast_path):
    """The planted imbalance undone: tune.json, candidates.csv and objective.parquet carry the paired
    difference, its one-sided bound and the verdict, on the confirmation's shared deals."""
    path = run_tiny(write_spec(fast_path, "tune_planted", PLANTED_SPEC), fast_path / "tune")
    man = json.loads((path / "tune.json").read_text())
    answer = man["answer"]
    test = answer["paired"]
    assert test["confirmed"] and test["diff_upper"] < 0 and test["method"] == "both" and test["alpha"] == 0.05
    assert test["diff"] == pytest.approx(answer["confirmed"]["confirmed"] - answer["printed"]["confirmed"],
                                         abs=1e-12)
    assert answer["improvement"].startswith("confirmed: ") and "paired difference" in answer["improvement"]
    assert man["confirm"]["test"]["deals"] == 200
    table = pl.read_csv(path / "candidates.csv")
    assert table["diff"][1] == pytest.approx(test["diff"]) and table["diff"][0] is None
    objective = pl.read_parquet(path / "objective.parquet")
    row = objective.filter(pl.col("candidate") != "printed", pl.col("scope") == "2 players").row(0, named=True)
    assert row["diff_lo"] <= row["diff"] <= row["diff_hi"] < 0
    assert objective["value_bc"].is_not_null().all()
    assert "improvement: confirmed" in (path / "variant.toml").read_text()


CARD_SPEC = {"name": "paired_cards", "game": "sentient", "seed": 8, "games": 120, "workers": 1, "record": ["takes"],
             "players": {"pool": ["investor", "specialist"], "repeat": True, "n_players": [2], "rotation": "cyclic"},
             "ablation": {"cards": [46, 48, 58], "change": "remove"}}


def test_card_deal_sums_give_the_card_values_of_the_ablation(tmp_path):
    """card_value_band: the deal sums reproduce card_values_causal's values (the holder's paired change), so the
    paired test compares the objective the confirmation reports."""
    from simlab.analysis.cards import card_values_causal
    from simlab.runner.plan import Plan
    from simlab.runner.spec import parse_spec
    from simlab.tune.evaluate import Evaluator, Job

    spec = parse_spec(CARD_SPEC, str(tmp_path / "paired_cards.toml"))
    with Evaluator("local", 1) as evaluator:
        tables = evaluator.play([Job("printed", spec, 0, Plan(spec).total_games)])[0]
    objective = Objective("card_value_band", band=(-0.5, 1.5))
    sums, statistic, scopes = objective.deal_sums(tables)
    values = card_values_causal(tables).sort("card")
    assert ratios(sums) == pytest.approx(values["value"].to_numpy(), abs=1e-12)
    assert scopes == ["all"]
    assert statistic(ratios(sums)[None, :])[0, 0] == pytest.approx(objective.value(tables), abs=1e-12)
