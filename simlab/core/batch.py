"""``play_batch``: many seeded games in one call, returned as tidy polars tables.

Game ``i`` of a batch seeded ``seed`` has the 64-bit seed ``rng.game_seed(seed, i)``: the
same game comes out of the compiled loop, the Python driver, ``simlab play --seed`` (game 0)
and any worker or shard of an experiment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from simlab.core.driver import play_game
from simlab.core.game import Game, get_game
from simlab.core.player import ResolvedPlayer, resolve_players
from simlab.core.rng import game_seeds
from simlab.core.schema import games_frame, seats_frame

CHUNK = 20_000


@dataclass
class BatchResult:
    """Tables of a batch: ``games`` (one row per game) and ``seats`` (one per game and seat)."""

    games: pl.DataFrame
    seats: pl.DataFrame
    seconds: float
    compiled: bool

    def summary(self) -> pl.DataFrame:
        """Win rate (shared wins split), mean score and games per player label and seat."""
        from simlab.core.schema import summary_table

        return summary_table(self.seats)


def play_batch(
    game: str | Game,
    players: Sequence[str | ResolvedPlayer],
    games: int = 1000,
    seed: int = 0,
    *,
    options: dict[str, Any] | None = None,
    data: Any = None,
    first_game: int = 0,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Play ``games`` games of ``game`` between ``players`` (one spec per seat).

    All-compiled line-ups run in the compiled batch loop; any Python player sends every game
    through the Python driver (same seeds, same games, slower). ``progress(n)`` is called
    with the number of games finished after each chunk.
    """
    g = get_game(game)
    resolved = resolve_players(g, players)
    n_players = len(resolved)
    rules = g.ruleset(n_players, options, data)
    labels = [p.label for p in resolved]
    seeds = game_seeds(seed, first_game, games)
    start = time.perf_counter()
    compiled = all(p.compiled for p in resolved)
    if compiled:
        kinds = np.array([[p.kind for p in resolved]], dtype=np.int64)
        params = np.stack([p.params for p in resolved])[None, :, :]
        game_parts, seat_parts = [], []
        for lo in range(0, games, CHUNK):
            chunk = seeds[lo : lo + CHUNK]
            g_arr, s_arr = g.play_batch(rules, chunk, kinds, params, np.zeros(len(chunk), dtype=np.int64))
            game_parts.append(g_arr)
            seat_parts.append(s_arr)
            if progress:
                progress(min(games, lo + CHUNK))
        game_cols, seat_cols = g.batch_columns(rules)
        game_arr = np.concatenate(game_parts) if game_parts else np.zeros((0, len(game_cols)), np.int32)
        seat_arr = np.concatenate(seat_parts) if seat_parts else np.zeros((0, len(seat_cols)), np.int32)
    else:
        game_cols, seat_cols = g.batch_columns(rules)
        game_arr = np.zeros((games, len(game_cols)), dtype=np.int32)
        seat_arr = np.zeros((games * n_players, len(seat_cols)), dtype=np.int32)
        instances = [None if p.compiled else p.make() for p in resolved]
        for i, s in enumerate(seeds):
            rec = play_game(g, rules, resolved, int(s), instances=instances)
            game_arr[i] = [rec.game[c] for c in game_cols]
            for p, row in enumerate(rec.seats):
                seat_arr[i * n_players + p] = [row[c] for c in seat_cols]
            if progress and (i + 1) % 100 == 0:
                progress(i + 1)
    seconds = time.perf_counter() - start
    indices = np.arange(first_game, first_game + games, dtype=np.int64)
    games_df = games_frame(g, seed, indices, seeds, n_players, game_cols, game_arr)
    seats_df = seats_frame(g, indices, n_players, labels, seat_cols, seat_arr)
    return BatchResult(games_df, seats_df, seconds, compiled)
