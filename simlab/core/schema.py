"""The result schema: how the batch arrays become tidy tables.

Every table carries what reproduces its rows. Columns common to all games:

- games: ``game`` (index in the run), ``deal`` (the seed index: every rotation of a
  line-up shares it), ``seed`` (the game's 64-bit seed), ``experiment_seed``, ``variant``,
  ``lineup``, ``rotation``, ``n_players``, then the game's own columns (e.g. turns,
  reshuffles, sweeps, n_winners, winner_mask);
- seats: ``game``, ``seat``, ``player`` (the spec label), ``variant``, ``lineup``,
  ``rotation``, then the game's columns; every game has ``score``, ``rank`` (1 = best, ties
  share a rank) and ``winner`` (bool); ``win_share`` is 1/k for each of k shared winners;
- event tables (e.g. a card game's ``takes``): ``game``, ``seat``, ``player``, ``variant``, then
  the event's columns.

Integer codes listed by ``Game.categorical_columns`` are stored as names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from simlab.core.game import Game

STANDARD_BOOL_COLUMNS = frozenset({"winner"})  # every game's; a game adds its own (Game.bool_columns)


@dataclass
class GameMeta:
    """Per-game identity of a block of games, and the line-up tables they index."""

    game: np.ndarray  # int64 game indices
    deal: np.ndarray  # int64 deal (seed) indices
    seed: np.ndarray  # uint64 game seeds
    table: np.ndarray  # int64 row in the line-up tables below
    labels: Sequence[Sequence[str]]  # per table: player label per seat
    lineup: Sequence[int]  # per table: line-up number
    rotation: Sequence[int]  # per table: rotation number
    experiment_seed: int = 0
    variant: str = "base"


def build_frames(game: Game, rules: object, n_players: int, arrays: dict[str, np.ndarray],
                 meta: GameMeta) -> dict[str, pl.DataFrame]:
    """Tables (games, seats, event tables) from the arrays of ``play_batch`` for these games."""
    cols = game.batch_columns(rules)
    cats = game.categorical_columns(rules)
    bools = STANDARD_BOOL_COLUMNS | game.bool_columns
    n = len(meta.game)
    lineup_of_table = np.asarray(meta.lineup, dtype=np.int32)
    rotation_of_table = np.asarray(meta.rotation, dtype=np.int32)
    table = np.asarray(meta.table, dtype=np.int64)
    frames: dict[str, pl.DataFrame] = {}
    frames["games"] = _frame(
        {
            "game": meta.game.astype(np.int64),
            "deal": meta.deal.astype(np.int64),
            "seed": meta.seed.astype(np.uint64),
            "experiment_seed": np.full(n, meta.experiment_seed, dtype=np.int64),
            "variant": pl.Series([meta.variant] * n, dtype=pl.Categorical),
            "lineup": lineup_of_table[table] if n else np.zeros(0, np.int32),
            "rotation": rotation_of_table[table] if n else np.zeros(0, np.int32),
            "n_players": np.full(n, n_players, dtype=np.int8),
        },
        cols["games"], arrays["games"], cats.get("games", {}), bools,
    )
    labels = np.array([list(row) for row in meta.labels], dtype=object).reshape(len(meta.labels), n_players)
    seat_table = np.repeat(table, n_players)
    seat_index = np.tile(np.arange(n_players), n)
    seat_labels = labels[seat_table, seat_index] if n else np.zeros(0, dtype=object)
    seats = _frame(
        {
            "game": np.repeat(meta.game.astype(np.int64), n_players),
            "seat": seat_index.astype(np.int8),
            "player": pl.Series(seat_labels.tolist(), dtype=pl.Categorical),
            "variant": pl.Series([meta.variant] * (n * n_players), dtype=pl.Categorical),
            "lineup": lineup_of_table[seat_table] if n else np.zeros(0, np.int32),
            "rotation": rotation_of_table[seat_table] if n else np.zeros(0, np.int32),
        },
        cols["seats"], arrays["seats"], cats.get("seats", {}), bools,
    )
    n_winners = seats.group_by("game").agg(pl.col("winner").sum().alias("_nw"))
    frames["seats"] = seats.join(n_winners, on="game", how="left", maintain_order="left").with_columns(
        pl.when(pl.col("winner")).then(1.0 / pl.col("_nw")).otherwise(0.0).alias("win_share")
    ).drop("_nw")
    for name, arr in arrays.items():
        if name in ("games", "seats"):
            continue
        per_game = arr.shape[0] // n if n else 0
        ev_game = np.repeat(meta.game.astype(np.int64), per_game)
        ev_table = np.repeat(table, per_game)
        ev_seat = arr[:, 0]
        ev_labels = labels[ev_table, ev_seat] if n else np.zeros(0, dtype=object)
        frames[name] = _frame(
            {
                "game": ev_game,
                "player": pl.Series(ev_labels.tolist(), dtype=pl.Categorical),
                "variant": pl.Series([meta.variant] * len(ev_game), dtype=pl.Categorical),
            },
            cols[name], arr, cats.get(name, {}), bools,
        )
    return frames


def _frame(data: dict[str, object], columns: Sequence[str], arr: np.ndarray,
           categorical: dict[str, list[str]], bools: frozenset[str]) -> pl.DataFrame:
    data = dict(data)
    for j, name in enumerate(columns):
        col = arr[:, j]
        if name in categorical:
            names = np.array(categorical[name], dtype=object)
            data[name] = pl.Series(names[col].tolist() if len(col) else [], dtype=pl.Categorical)
        elif name in bools:
            data[name] = col.astype(bool)
        elif name == "seat":
            data[name] = col.astype(np.int8)
        else:
            data[name] = col
    return pl.DataFrame(data)
