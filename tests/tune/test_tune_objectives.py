"""Objectives: the interval of a largest distance outside a band covers its target (by simulation), a user
objective ``file.py:function`` runs end to end, and ``first_player_advantage`` runs on Sentient."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats
from tune_helpers import HEAD, PLANT, run_tiny, trials, write_spec

from simlab.results import load
from simlab.runner.plan import Plan
from simlab.tune.evaluate import Evaluator, Job, candidate_spec
from simlab.tune.objectives import Objective, excess_interval
from simlab.tune.spec import load_spec

# ---------------------------------------------------------------- excess_interval


def _coverage(mu: np.ndarray, sigma: float, band: tuple[float, float], z: float, draws: int, seed: int,
              total: bool) -> float:
    """How often ``excess_interval`` of intervals ``estimate ± z·sigma`` (normal estimates of ``mu``) holds
    the true largest (``total``: summed) distance outside ``band``."""
    distances = np.maximum(0.0, np.maximum(band[0] - mu, mu - band[1]))
    truth = float(np.sum(distances) if total else np.max(distances))
    rng = np.random.default_rng(seed)
    estimates = mu + sigma * rng.standard_normal((draws, mu.size))
    hits = 0
    for x in estimates:
        lo, hi = excess_interval(x - z * sigma, x + z * sigma, band, total=total)
        assert 0.0 <= lo <= hi
        hits += lo <= truth <= hi
    return hits / draws


BAND = (-0.5, 1.5)
CASES = {
    "spread over and around the band": np.linspace(-1.5, 2.5, 20),
    "all inside, at its edges": np.array([-0.5, 1.5] * 10),
    "one card far outside": np.array([3.0] + [0.5] * 19),
    "two cards outside by the same amount": np.array([-1.5, 2.5] + [1.0] * 18),
    "all inside, well within": np.full(20, 0.5),
}


@pytest.mark.parametrize("total", [False, True], ids=["largest", "summed"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_excess_interval_covers_the_true_excess_at_95_percent(case, total):
    """Simultaneous (Bonferroni) 95% intervals of 20 values give an excess interval that holds >= 95%."""
    mu = CASES[case]
    z = stats.norm.ppf(1 - 0.05 / (2 * mu.size))
    assert _coverage(mu, 0.3, BAND, z, draws=2000, seed=7, total=total) >= 0.95


@pytest.mark.parametrize("total", [False, True], ids=["largest", "summed"])
def test_excess_interval_needs_simultaneous_intervals(total):
    """The check can fail: per-value 95% intervals (not simultaneous) miss when many values sit at the band's
    edge, since one of twenty is then likely to look outside."""
    mu = CASES["all inside, at its edges"]
    assert _coverage(mu, 0.3, BAND, stats.norm.ppf(0.975), draws=2000, seed=7, total=total) < 0.8


def test_excess_interval_by_hand():
    assert excess_interval(np.array([0.0, 2.0]), np.array([1.0, 3.0]), BAND) == (0.5, 1.5)
    assert excess_interval(np.array([-2.0, 0.0]), np.array([-1.0, 1.0]), BAND) == (0.5, 1.5)
    assert excess_interval(np.array([0.0, 1.0]), np.array([1.0, 2.0]), BAND) == (0.0, 0.5)
    assert excess_interval(np.array([0.0]), np.array([1.0]), BAND) == (0.0, 0.0)
    assert excess_interval(np.array([0.0, 2.0, -2.0]), np.array([1.0, 3.0, -1.0]), BAND, total=True) == (1.0, 3.0)


# ---------------------------------------------------------------- a user objective end to end

USER_FUNCTION = '''
import polars as pl


def blue_gap(tables):
    """|blue's win rate - 1/2| in the candidate's own games (variant base)."""
    assert {"games", "seats"} <= set(tables), sorted(tables)
    seats = tables["seats"].filter(pl.col("variant").cast(pl.Utf8) == "base")
    blue = seats.filter(pl.col("colour").cast(pl.Utf8) == "blue")
    return abs(float(blue["win_share"].mean()) - 0.5)
'''

USER_SPEC = HEAD.format(name="tune_user", seed=4, games=180, plant=PLANT) + """
[tune]
objective = "blue.py:blue_gap"
max_changes = 1
trials = 2

[tune.confirm]
candidates = 1
games = 180

[[tune.knobs]]
file = "buyers"
where = { region_id = "USA", position = 1 }
field = "price_cap"
range = [4, 5]
"""


def _played(spec, edits=()) -> dict[str, pl.DataFrame]:
    """The tables of a candidate as the search plays them (its games of the search seed)."""
    tune = spec.tune
    cspec = candidate_spec(spec, list(edits), tune.games_per_trial, tune.seed)
    with Evaluator("local", 1) as evaluator:
        return evaluator.play([Job("printed", cspec, 0, Plan(cspec).total_games)])[0]


def _confirmed(path, label: str) -> dict[str, pl.DataFrame]:
    return {k: v.collect() for k, v in load(path / "confirm" / label).items()}


def test_user_objective_end_to_end(fast_path):
    (fast_path / "blue.py").write_text(USER_FUNCTION)
    spec_file = write_spec(fast_path, "tune_user", USER_SPEC)
    spec = load_spec(spec_file)
    path = run_tiny(spec_file, fast_path / "tune")
    rows = trials(path)
    assert [r["status"] for r in rows if r["status"] != "repeat"] == ["complete"] * 2
    namespace: dict = {}
    exec(USER_FUNCTION, namespace)  # the same function, called here on the printed data's games
    printed = _played(spec)
    assert rows[0]["value"] == pytest.approx(namespace["blue_gap"](printed), abs=1e-12)
    # at two colours it is the largest deviation of any colour from 1/2
    builtin = Objective("max_position_deviation", position="colour").value(printed)
    assert rows[0]["value"] == pytest.approx(builtin, abs=1e-12)
    assert rows[0]["value"] > 0.1  # the plant
    assert min(r["value"] for r in rows[1:] if r["status"] == "complete") < rows[0]["value"] - 0.05  # undone
    objective = pl.read_parquet(path / "objective.parquet")
    assert objective["scope"].to_list() == ["all", "all"]
    for label in ("printed", objective["candidate"][1]):
        row = objective.filter(pl.col("candidate") == label).row(0, named=True)
        assert row["value"] == pytest.approx(namespace["blue_gap"](_confirmed(path, label)), abs=1e-12)
        assert row["lo"] <= row["value"] <= row["hi"] and row["level"] == 0.95
        assert row["hi"] > row["lo"]  # a bootstrap over deals, not a point


# ---------------------------------------------------------------- first_player_advantage on Sentient

SENTIENT_SPEC = """
name = "tune_first"
game = "sentient"
seed = 4
games = 90
workers = 1

[players]
seats = ["greedy", "investor", "random"]
rotation = "cyclic"

[tune]
objective = "first_player_advantage"
max_changes = 1
trials = 2

[tune.confirm]
candidates = 1
games = 90

[[tune.knobs]]
file = "cards"
where = { id = 32 }
field = "printed_vp"
range = [1, 5]
"""


def _first_player_gap(tables: dict[str, pl.DataFrame]) -> dict[int, float]:
    """Per player count, the first player's win rate minus 1/n, by hand from the seats."""
    seats = tables["seats"].filter(pl.col("variant").cast(pl.Utf8) == "base", pl.col("first_in_round1"))
    n = tables["seats"].group_by("game").len().rename({"len": "n"})
    rates = seats.join(n, on="game").group_by("n").agg(pl.col("win_share").mean())
    assert seats.height == tables["games"].filter(pl.col("variant").cast(pl.Utf8) == "base").height  # one each
    return {int(k): float(v) - 1 / int(k) for k, v in rates.iter_rows()}


def test_first_player_advantage_runs_on_sentient(fast_path):
    spec_file = write_spec(fast_path, "tune_first", SENTIENT_SPEC)
    spec = load_spec(spec_file)
    path = run_tiny(spec_file, fast_path / "tune")
    rows = trials(path)
    assert rows[0]["status"] == "complete" and rows[0]["changes"] == "(printed data)"
    assert all(r["status"] in ("complete", "repeat") for r in rows)
    gap = _first_player_gap(_played(spec))
    assert rows[0]["value"] == pytest.approx(max(abs(v) for v in gap.values()), abs=1e-12)
    objective = pl.read_parquet(path / "objective.parquet").filter(pl.col("candidate") == "printed")
    assert objective["scope"].to_list() == ["3 players", "all"]
    confirmed = _first_player_gap(_confirmed(path, "printed"))
    row = objective.row(0, named=True)
    assert row["signed"] == pytest.approx(confirmed[3], abs=1e-12)
    assert row["value"] == pytest.approx(abs(confirmed[3]), abs=1e-12)
    assert row["lo"] <= row["value"] <= row["hi"] and row["hi"] > 0
