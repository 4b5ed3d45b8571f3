"""Issue 23, "Command line": ``simlab compare RUN_A RUN_B`` — the difference of two stored runs' headline measures
with 95% intervals, paired by deal when the runs share deal seeds (the deal bootstrap of the tune's confirmation,
``simlab.analysis.paired``), independent otherwise, Holm over the rows; refused in one line when incompatible."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.compare import compare_runs, compare_tables
from simlab.core.errors import SimlabError
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


def _run(root: Path, name: str, seed: int, options: dict | None = None) -> Path:
    spec = {"name": name, "game": "sentient", "seed": seed, "games": 300, "shard_size": 150, "workers": 1,
            "players": {"seats": ["greedy", "investor", "random"], "rotation": "cyclic"}}
    if options:
        spec["options"] = options
    return run_experiment(parse_spec(spec), root / name, show_progress=False).path


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("compare")
    return {"a": _run(root, "a", 5),
            # the same deals with a rule option changed (docs/sentient.md, O2: runner_up_min_influence)
            "b": _run(root, "b", 5, {"runner_up_min_influence": 0}),
            "c": _run(root, "c", 6)}  # other deals


def test_same_seed_with_a_rule_changed_is_paired_by_deal(runs):
    result = compare_runs(runs["a"], runs["b"], draws=500)
    assert result.paired and result.shared == result.deals_a == result.deals_b == 100  # 300 games / 3 seatings
    table = result.table
    rows = {(r["measure"], r["of"]): r for r in table.iter_rows(named=True)}
    assert {("win rate", "player greedy"), ("win rate", "seat 0 (3 players)"), ("mean score", "player random"),
            ("game length", "3 players"), ("tie rate", "3 players")} <= set(rows)
    for r in rows.values():
        assert r["diff"] == pytest.approx(r["b"] - r["a"]) and r["diff_lo"] <= r["diff"] <= r["diff_hi"]
        assert r["holm_p"] >= r["p"] and r["differs"] == (r["holm_p"] <= 0.05)
    assert "paired by deal (100 shared deal seeds" in result.method() and "Holm" in result.method()
    # pairing uses the shared deals: the same comparison made as if independent is wider
    independent = compare_tables(*_measures(runs["a"], runs["b"], split=True), draws=500)
    assert not independent["paired"]
    score = ("mean score", "player greedy")
    width = rows[score]["diff_hi"] - rows[score]["diff_lo"]
    other = independent["table"].filter((pl.col("measure") == score[0]) & (pl.col("of") == score[1])).row(
        0, named=True)
    assert width < other["diff_hi"] - other["diff_lo"]


def _measures(run_a: Path, run_b: Path, split: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Both runs' per-deal measure sums; ``split`` gives B's deals other seeds (as if played on other deals)."""
    from simlab.compare import measures, seat_frame

    out = []
    for i, run in enumerate((run_a, run_b)):
        seats, games, game = seat_frame(run, None, "AB"[i])
        long = measures(seats, games, game)
        if split and i:
            long = long.with_columns(pl.col("seed") ^ pl.lit(0x5A5A5A5A, dtype=pl.UInt64))
        out.append(long)
    return out[0], out[1]


def test_different_seeds_are_independent(runs):
    result = compare_runs(runs["a"], runs["c"], draws=500)
    assert not result.paired and result.shared == 0
    assert "independent runs (no deal seed in common" in result.method()


def test_deterministic(runs):
    one = compare_runs(runs["a"], runs["b"], draws=300, seed=4).table
    assert one.equals(compare_runs(runs["a"], runs["b"], draws=300, seed=4).table)


def test_cli_compare_table_and_json(runs):
    out = CliRunner().invoke(app, ["compare", str(runs["a"]), str(runs["b"]), "--draws", "300"])
    assert out.exit_code == 0, out.output
    assert "player greedy" in out.output and "paired by deal" in out.output and "Holm" in out.output
    data = json.loads(CliRunner().invoke(app, ["compare", str(runs["a"]), str(runs["c"]), "--draws", "300",
                                               "--json"]).output)
    assert data["paired"] is False and data["game"] == "sentient"
    assert {"measure", "of", "a", "b", "diff", "diff_lo", "diff_hi", "p", "holm_p", "differs"} <= set(data["rows"][0])


def test_refuses_runs_of_different_games(runs, tmp_path):
    import shutil

    other = tmp_path / "other"
    shutil.copytree(runs["c"], other)
    man = json.loads((other / "manifest.json").read_text())
    man["game"] = "smartphone"
    (other / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(SimlabError) as info:
        compare_runs(runs["a"], other)
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("cannot compare: run A") and "is a sentient run and run B" in str(info.value)


def test_refuses_runs_without_a_common_measure():
    a = pl.DataFrame({"seed": [1, 2], "measure": ["win rate"] * 2, "of": ["player x"] * 2, "num": [1.0, 0.0],
                      "den": [1.0, 1.0]}).with_columns(pl.col("seed").cast(pl.UInt64))
    b = a.with_columns(pl.lit("player y").alias("of"))
    with pytest.raises(SimlabError, match="cannot compare: the runs have no measure in common"):
        compare_tables(a, b, draws=100)


def _synthetic(rng: np.random.Generator, deals: int, seeds: np.ndarray) -> pl.DataFrame:
    """One measure per deal: a deal effect shared by both runs of a deal (the same seed) plus game noise."""
    effect = (seeds % 997).astype(np.float64) / 997.0  # the deal's luck: a function of its seed
    values = effect[:, None] + rng.normal(0, 0.5, (deals, 3))
    return pl.DataFrame({"seed": np.repeat(seeds, 3).astype(np.uint64), "measure": "mean score", "of": "player x",
                         "num": values.ravel(), "den": 1.0})


@pytest.mark.parametrize("paired", [True, False])
def test_interval_coverage_by_simulation(paired):
    """With no true difference, the 95% interval of B − A covers 0 in about 95% of 200 simulated comparisons
    (bounds ±4 binomial standard errors), paired (shared deal seeds) and independent."""
    rng = np.random.default_rng(12)
    covered = 0
    reps = 200
    for i in range(reps):
        seeds_a = rng.integers(0, 2**40, 40)
        seeds_b = seeds_a if paired else rng.integers(0, 2**40, 40)
        row = compare_tables(_synthetic(rng, 40, seeds_a), _synthetic(rng, 40, seeds_b), draws=400,
                             seed=i)["table"].row(0, named=True)
        covered += row["diff_lo"] <= 0.0 <= row["diff_hi"]
    assert 0.95 - 4 * 0.0154 <= covered / reps <= 1.0
