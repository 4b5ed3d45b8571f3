"""``play_games``: the result arrays of many seeded games, from the compiled loop or the driver.

Game ``i`` of a batch seeded ``seed`` has the 64-bit seed ``rng.game_seed(seed, i)``: the
same game comes out of the compiled loop, the Python driver, ``simlab play --seed`` (game 0)
and any worker or shard of an experiment. ``simlab.play_batch`` turns them into tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simlab.core.driver import play_game
from simlab.core.errors import SimlabError
from simlab.core.game import Game
from simlab.core.player import ResolvedPlayer

CHUNK = 20_000


def play_games(
    game: Game,
    rules: Any,
    tables: Sequence[ResolvedPlayer] | Sequence[Sequence[ResolvedPlayer]],
    seeds: np.ndarray,
    table_of_game: np.ndarray,
    record: tuple[str, ...] = (),
    progress: Callable[[int], None] | None = None,
    game_indices: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Result arrays for these seeds; game i is played by line-up ``tables[table_of_game[i]]``.

    ``tables`` is one line-up (a list of players) or a list of line-ups. Line-ups of compiled
    players only run in the compiled loop; the others go game by game through the driver,
    where an error names the game (its index from ``game_indices``) and its seed.
    """
    if tables and isinstance(tables[0], ResolvedPlayer):
        tables = [tables]  # type: ignore[list-item]
    lineups: list[Sequence[ResolvedPlayer]] = list(tables)  # type: ignore[arg-type]
    n_games = len(seeds)
    cols = game.batch_columns(rules)
    if all(p.compiled for lineup in lineups for p in lineup):
        kinds = np.array([[p.kind for p in lineup] for lineup in lineups], dtype=np.int64)
        params = np.stack([np.stack([p.params for p in lineup]) for lineup in lineups])
        parts: dict[str, list[np.ndarray]] = {}
        for lo in range(0, n_games, CHUNK):
            hi = min(n_games, lo + CHUNK)
            out = game.play_batch(rules, seeds[lo:hi], kinds, params, table_of_game[lo:hi], record)
            for name, arr in out.items():
                parts.setdefault(name, []).append(arr)
            if progress:
                progress(hi)
        if not parts:
            return {name: np.zeros((0, len(cols[name])), np.int32) for name in ("games", "seats", *record)}
        return {name: np.concatenate(arrs) for name, arrs in parts.items()}
    rows: dict[str, list[np.ndarray]] = {}
    instances = [[None if p.compiled else p.make() for p in lineup] for lineup in lineups]
    for i, s in enumerate(seeds):
        t = int(table_of_game[i])
        try:
            rec = play_game(game, rules, lineups[t], int(s), record=record, instances=instances[t])
        except SimlabError as exc:
            index = int(game_indices[i]) if game_indices is not None else i
            raise _with_prefix(exc, f"game {index}: ") from exc
        for name, arr in rec.arrays.items():
            rows.setdefault(name, []).append(arr)
        if progress and ((i + 1) % 100 == 0 or i + 1 == n_games):
            progress(i + 1)
    if not rows:
        return {name: np.zeros((0, len(cols[name])), np.int32) for name in ("games", "seats", *record)}
    return {name: np.concatenate(arrs) for name, arrs in rows.items()}


def _with_prefix(exc: SimlabError, prefix: str) -> SimlabError:
    """The same kind of error with a prefix on its message."""
    try:
        return type(exc)(prefix + str(exc))
    except TypeError:
        return SimlabError(prefix + str(exc))
