"""The summary ``simlab run`` prints (issue 24: made cheaper, its numbers unchanged).

``summary_table`` groups on integer codes of the keys instead of polars' multi-column group-by
over (keys, deal); these tests hold it to the polars formulation it replaced (kept below as the
reference), on frames with shared wins (thirds), several variants, categorical and null keys,
sparse deal numbers and independent games. DESIGN.md principle 5: the deal is the unit.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from simlab.analysis.intervals import clustered_wilson, wilson_interval
from simlab.analysis.summary import summary_table

EXACT = ["games", "deals", "wins", "mean_score", "sd_score", "win_rate"]


def reference_summary(seats: pl.DataFrame, by: list[str], cluster: str | None = None) -> pl.DataFrame:
    """The polars formulation ``summary_table`` had before issue 24."""
    independent = cluster is None and "deal" not in seats.columns
    if cluster is None:
        cluster = "deal" if "deal" in seats.columns else "_cluster"
    if cluster == "_cluster":
        keys = [k for k in ("variant", "game") if k in seats.columns]
        seats = seats.with_columns(pl.struct(keys).rank("dense").alias("_cluster"))
    per = seats.group_by([*by, cluster]).agg(pl.len().alias("_n"),
                                             pl.col("win_share").cast(pl.Float64).sum().alias("_w"))
    rows = seats.group_by(by).agg(
        pl.len().alias("games"), pl.col(cluster).n_unique().alias("deals"), pl.col("win_share").sum().alias("wins"),
        pl.col("score").mean().alias("mean_score"), pl.col("score").std().alias("sd_score"),
    ).with_columns((pl.col("wins") / pl.col("games")).alias("win_rate"))
    resid = per.join(rows.select([*by, "win_rate"]), on=by, how="left", nulls_equal=True).group_by(by).agg(
        ((pl.col("_w") - pl.col("win_rate") * pl.col("_n")) ** 2).sum().alias("_r2"))
    rows = rows.join(resid, on=by, how="left", nulls_equal=True).sort(by[::-1])
    g = rows["deals"].to_numpy().astype(np.float64)
    n = rows["games"].to_numpy().astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where(g > 1, np.sqrt(g / (g - 1) * rows["_r2"].to_numpy()) / n, np.nan)
    if independent:
        lo, hi = wilson_interval(rows["wins"].to_numpy(), n)
    else:
        lo, hi, _, _ = clustered_wilson(rows["win_rate"].to_numpy(), se, n, g)
    return rows.drop("_r2").with_columns(pl.Series("win_lo", lo), pl.Series("win_hi", hi))


def seat_frame(deals: int = 3000, seed: int = 3, deal_step: int = 1, variants: int = 2) -> pl.DataFrame:
    """Rotated 3-player games: two seatings per deal, shared wins (halves and thirds), a start colour."""
    rng = np.random.default_rng(seed)
    rows = []
    game = 0
    for v in range(variants):
        for d in range(deals):
            for rotation in range(2):
                scores = rng.integers(20, 30, 3)
                top = scores == scores.max()
                colours = rng.permutation(["red", "blue", "green"])
                for seat in range(3):
                    rows.append({"variant": f"v{v}", "game": game, "deal": d * deal_step, "seat": seat,
                                 "player": ["greedy", "investor", "greedy"][(seat + rotation) % 3],
                                 "score": int(scores[seat]), "win_share": float(top[seat]) / top.sum(),
                                 "colour": colours[seat], "n_players": 3})
                game += 1
    frame = pl.DataFrame(rows).with_columns(pl.col("seat", "n_players").cast(pl.Int8), pl.col("score").cast(pl.Int32))
    return frame.sample(fraction=1.0, shuffle=True, seed=seed)  # rows in no particular order


def assert_same(new: pl.DataFrame, old: pl.DataFrame) -> None:
    assert new.columns == old.columns and new.schema == old.schema
    keys = [c for c in new.columns if c not in [*EXACT, "win_lo", "win_hi"]]
    assert new.select(keys).equals(old.select(keys))
    assert new.select(EXACT).equals(old.select(EXACT))
    # the clustered residual sum is exactly rounded now; polars summed it in its hash order
    for c in ("win_lo", "win_hi"):
        np.testing.assert_allclose(new[c].to_numpy(), old[c].to_numpy(), rtol=1e-13, atol=0)


@pytest.mark.parametrize("by", [["variant", "player"], ["seat", "n_players", "variant"],
                                ["colour", "n_players", "variant"], ["player", "seat"]])
def test_summary_matches_the_polars_formulation(by: list[str]) -> None:
    seats = seat_frame()
    assert_same(summary_table(seats, by), reference_summary(seats, by))


def test_categorical_and_null_keys_and_sparse_deals() -> None:
    seats = seat_frame(deals=800, deal_step=10**9).with_columns(  # deal numbers far apart: not coded by offset
        pl.col("player").cast(pl.Categorical),
        pl.when(pl.col("game") % 7 == 0).then(None).otherwise(pl.col("colour")).alias("colour"))
    for by in (["variant", "player"], ["colour", "variant"]):
        new, old = summary_table(seats, by), reference_summary(seats, by)
        assert_same(new, old)
    assert new["colour"].null_count() == 2  # a null start colour is a group of its own (one per variant)


def test_independent_games_and_an_explicit_cluster() -> None:
    seats = seat_frame(deals=500)
    plain = seats.drop("deal")  # play_batch output: every game its own cluster, plain Wilson
    assert_same(summary_table(plain, ["player"]), reference_summary(plain, ["player"]))
    by_game = summary_table(seats, ["player"], cluster="game")
    assert_same(by_game, reference_summary(seats, ["player"], cluster="game"))
    assert (by_game["deals"] == seats["game"].n_unique()).all()  # every game has both players


def test_the_summary_does_not_import_scipy_stats() -> None:
    """scipy.stats costs about a second to import; the t quantile and tail come from scipy.special."""
    code = ("import sys, numpy as np\n"
            "from simlab.analysis.intervals import clustered_wilson\n"
            "lo, hi, n_eff, p = clustered_wilson(np.array([0.3]), np.array([0.01]), np.array([500.0]),"
            " np.array([200.0]), null=0.25)\n"
            "assert 0.27 < lo[0] < 0.3 < hi[0] < 0.33 and 0 < p[0] < 0.05, (lo, hi, p)\n"
            "print('scipy.stats' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_log_shows_the_time_left_and_what_a_long_shard_would_lose(tmp_path, monkeypatch):
    """issue 25: with slow (search) players the plain progress lines give the time left, and a shard that took
    long is named with what an interruption would lose (a smaller shard_size gives the same results)."""
    import io

    from rich.console import Console

    import simlab.runner.run as run_module
    from simlab.runner.run import run_experiment
    from simlab.runner.spec import parse_spec

    monkeypatch.setattr(run_module, "PLAIN_PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(run_module, "LONG_SHARD_SECONDS", 0.0)
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=200)
    spec = parse_spec({"name": "slow", "game": "sentient", "seed": 3, "games": 40, "shard_size": 10, "workers": 1,
                       "players": {"seats": ["greedy", "random"]}})
    run_experiment(spec, tmp_path / "run", console=console, show_progress=True)
    text = out.getvalue()
    assert "slow: playing 10/40 games (25%)" in text and " left" in text.split("playing 10/40")[1].splitlines()[0]
    assert "playing 40/40 games (100%)" in text and "left" not in text.split("playing 40/40")[1].splitlines()[0]
    assert text.count("an interrupted run loses up to that much per worker") == 1
