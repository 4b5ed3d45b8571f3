"""Counter-based random numbers for compiled kernels.

Every random draw is ``mix(key + counter * GOLDEN)`` (the SplitMix64 construction), so a
stream is a 64-bit key plus a counter. Streams never share state: a game keeps one key and
one counter per stream (chance streams and one stream per seat) inside its state record.
Keys come from (experiment seed, game index, stream id) by hashing, so any game can be
re-created from its seed alone, whatever worker or shard plays it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ONE = np.uint64(1)


@njit(cache=True, inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """The SplitMix64 finaliser: a bijective 64-bit hash."""
    z = np.uint64(x)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def u64_at(key: np.uint64, counter: np.uint64) -> np.uint64:
    """The ``counter``-th 64-bit value of the stream ``key``."""
    return mix64(np.uint64(key) + (np.uint64(counter) + _ONE) * GOLDEN)


@njit(cache=True)
def derive_key(parent: np.uint64, index: np.uint64) -> np.uint64:
    """The key of child stream ``index`` of ``parent`` (a hash of both)."""
    return mix64(mix64(np.uint64(parent) ^ GOLDEN) + mix64(np.uint64(index) + GOLDEN))


@njit(cache=True, inline="always")
def below(x: np.uint64, n: int) -> int:
    """Map a 64-bit value to 0..n-1 (multiply-shift; bias below 2**-32 * n)."""
    return int(((x >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def unit(x: np.uint64) -> float:
    """Map a 64-bit value to a float in [0, 1)."""
    return float(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def game_seed(experiment_seed: int, game_index: int) -> np.uint64:
    """The seed of game ``game_index`` in an experiment seeded with ``experiment_seed``."""
    return derive_key(mix64(np.uint64(experiment_seed)), np.uint64(game_index))


def game_seeds(experiment_seed: int, first_game: int, n_games: int) -> np.ndarray:
    """Seeds (uint64) of games ``first_game .. first_game + n_games - 1``."""
    return _game_seeds(np.int64(experiment_seed), np.int64(first_game), np.int64(n_games))


@njit(cache=True)
def _game_seeds(experiment_seed: int, first_game: int, n_games: int) -> np.ndarray:
    out = np.empty(n_games, dtype=np.uint64)
    for i in range(n_games):
        out[i] = game_seed(experiment_seed, first_game + i)
    return out


@njit(cache=True)
def stream_keys(seed: np.uint64, n_streams: int) -> np.ndarray:
    """Keys for the streams 0..n_streams-1 of one game."""
    keys = np.empty(n_streams, dtype=np.uint64)
    for i in range(n_streams):
        keys[i] = derive_key(np.uint64(seed), np.uint64(i))
    return keys
