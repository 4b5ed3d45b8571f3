"""``play_batch``: many seeded games in one call, returned as tidy polars tables with a summary.

Game ``i`` of a batch seeded ``seed`` has the 64-bit seed ``rng.game_seed(seed, i)``: the
same game comes out of the compiled loop, the Python driver, ``simlab play --seed`` (game 0)
and any worker or shard of an experiment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simlab.core.batch import play_games
from simlab.core.game import Game, get_game
from simlab.core.player import ResolvedPlayer, resolve_players
from simlab.core.rng import game_seeds
from simlab.core.schema import GameMeta, build_frames


@dataclass
class BatchResult:
    """Tables of a batch: ``games`` (one row per game) and ``seats`` (one per game and seat)."""

    games: pl.DataFrame
    seats: pl.DataFrame
    seconds: float
    compiled: bool
    events: dict[str, pl.DataFrame] = field(default_factory=dict)

    def summary(self) -> pl.DataFrame:
        """Win rate (shared wins split), mean score and games per player label and seat."""
        from simlab.analysis.summary import summary_table

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
    record: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Play ``games`` games of ``game`` between ``players`` (one spec per seat).

    All-compiled line-ups run in the compiled batch loop; any Python player sends every game
    through the Python driver (same seeds, same games, slower). ``record`` names event
    tables to keep (Sentient: ``takes``). ``progress(n)`` is called with the number of
    games finished.
    """
    g = get_game(game)
    resolved = resolve_players(g, players)
    rules = g.ruleset(len(resolved), options, data)
    seeds = game_seeds(seed, first_game, games)
    start = time.perf_counter()
    arrays = play_games(g, rules, resolved, seeds, np.zeros(games, dtype=np.int64), tuple(record), progress)
    seconds = time.perf_counter() - start
    indices = np.arange(first_game, first_game + games, dtype=np.int64)
    meta = GameMeta(indices, indices, seeds, np.zeros(games, dtype=np.int64), [[p.label for p in resolved]], [0], [0],
                    experiment_seed=seed)
    frames = build_frames(g, rules, len(resolved), arrays, meta)
    return BatchResult(frames["games"], frames["seats"], seconds, all(p.compiled for p in resolved),
                       {k: v for k, v in frames.items() if k not in ("games", "seats")})


