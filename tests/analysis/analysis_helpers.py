"""Helpers for the analysis tests: running small experiments and simulating tables with numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

import simlab.results
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


def run_tables(out: Path, spec: dict) -> dict[str, pl.LazyFrame]:
    """Run a small Sentient experiment (one worker, no progress bar) and load its tables lazily."""
    full = {"game": "sentient", "shard_size": 5000, "workers": 1, **spec}
    run = run_experiment(parse_spec(full), out / "run", show_progress=False)
    return simlab.results.load(run.path)


def simulated_seats(wins: np.ndarray, dataset: np.ndarray | None = None) -> pl.DataFrame:
    """A seats table from a games x seats matrix of win shares (rows sum to 1).

    ``dataset`` (one label per game) becomes the ``variant`` column, so that many simulated
    data sets are analysed in one call. Ranks: winners 1, the others 2.
    """
    n_games, n_seats = wins.shape
    variant = np.zeros(n_games, dtype=np.int64) if dataset is None else np.asarray(dataset)
    return pl.DataFrame({
        "game": np.repeat(np.arange(n_games), n_seats),
        "seat": np.tile(np.arange(n_seats), n_games).astype(np.int8),
        "variant": np.repeat(variant, n_seats).astype(str),
        "win_share": wins.ravel().astype(np.float64),
        "rank": np.where(wins.ravel() > 0, 1, 2).astype(np.int32),
        "score": (wins.ravel() * 10).astype(np.int32),
    })


def uniform_wins(rng: np.random.Generator, n_games: int, n_seats: int, tie_rate: float = 0.03) -> np.ndarray:
    """Win shares of games where every seat is equally likely to win; a share of two-way ties."""
    wins = np.zeros((n_games, n_seats))
    winner = rng.integers(0, n_seats, n_games)
    wins[np.arange(n_games), winner] = 1.0
    tied = rng.random(n_games) < tie_rate
    other = (winner + rng.integers(1, n_seats, n_games)) % n_seats
    rows = np.flatnonzero(tied)
    wins[rows, winner[rows]] = 0.5
    wins[rows, other[rows]] = 0.5
    return wins
