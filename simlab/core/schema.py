"""The result schema: the games table, the seats table and their summaries.

games: ``game`` (index in the experiment), ``experiment_seed``, ``seed`` (the game's 64-bit
seed), ``n_players``, then the game's own per-game columns (for Sentient: turns,
reshuffles, sweeps, n_winners, winner_mask).

seats: ``game``, ``seat``, ``player`` (the player spec label), then the game's per-seat
columns; every game has at least ``score``, ``rank`` (1 = best; ties share a rank) and
``winner`` (bool); ``win_share`` is 1/k for each of k shared winners, else 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from simlab.core.game import Game

_BOOL_COLUMNS = {"winner", "first_in_round1"}


def games_frame(game: Game, experiment_seed: int, indices: np.ndarray, seeds: np.ndarray, n_players: int,
                columns: Sequence[str], arr: np.ndarray) -> pl.DataFrame:
    """The games table of a batch."""
    data: dict[str, object] = {
        "game": indices,
        "experiment_seed": np.full(len(indices), experiment_seed, dtype=np.int64),
        "seed": seeds.astype(np.uint64),
        "n_players": np.full(len(indices), n_players, dtype=np.int8),
    }
    for j, name in enumerate(columns):
        data[name] = arr[:, j]
    return pl.DataFrame(data)


def seats_frame(game: Game, indices: np.ndarray, n_players: int, labels: Sequence[str], columns: Sequence[str],
                arr: np.ndarray) -> pl.DataFrame:
    """The seats table of a batch (rows game-major, seat-minor)."""
    n = len(indices)
    data: dict[str, object] = {
        "game": np.repeat(indices, n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int8), n),
        "player": pl.Series(np.tile(np.array(labels, dtype=object), n).tolist(), dtype=pl.Categorical)
        if n
        else pl.Series([], dtype=pl.Categorical),
    }
    for j, name in enumerate(columns):
        col = arr[:, j]
        data[name] = col.astype(bool) if name in _BOOL_COLUMNS else col
    df = pl.DataFrame(data)
    n_winners = df.group_by("game").agg(pl.col("winner").sum().alias("_nw"))
    df = df.join(n_winners, on="game", how="left").with_columns(
        pl.when(pl.col("winner")).then(1.0 / pl.col("_nw")).otherwise(0.0).alias("win_share")
    ).drop("_nw")
    return df.sort(["game", "seat"])


def summary_table(seats: pl.DataFrame) -> pl.DataFrame:
    """Per player and seat: games, win rate (shared wins split) with a 95% Wilson interval, mean score."""
    from simlab.core.stats import wilson_interval

    rows = seats.group_by(["player", "seat"]).agg(
        pl.len().alias("games"),
        pl.col("win_share").sum().alias("wins"),
        pl.col("score").mean().alias("mean_score"),
        pl.col("score").std().alias("sd_score"),
    ).sort(["seat", "player"])
    lo, hi = wilson_interval(rows["wins"].to_numpy(), rows["games"].to_numpy())
    return rows.with_columns(
        (pl.col("wins") / pl.col("games")).alias("win_rate"),
        pl.Series("win_lo", lo),
        pl.Series("win_hi", hi),
    )
