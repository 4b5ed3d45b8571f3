"""Kernel helpers every compiled game shares: random draws, shuffles, the event log, ranks.

They are numba functions over a game's state record ``s``; what they need from it is named
here and nowhere else:

* random streams: ``s.rng_key`` and ``s.rng_ctr`` (uint64 arrays, one entry per stream; see
  :mod:`simlab.core.rng`). A draw from stream ``k`` is ``u64_at(rng_key[k], rng_ctr[k])``,
  then the counter moves on, so every stream is reproducible on its own.
* the event log: an int32 array of shape (capacity + 1, width); ``log[0, 0]`` counts the
  events written to rows 1.., ``log[0, 1]`` is set when an event was dropped for lack of
  room. A log with one row (capacity 0) records nothing, which is what batch loops pass.
  Column 0 of an event row is its kind; the game lays out the rest.

Ranks and winners are computed from per-seat keys compared in order (the score first, then
the tie-breaks), higher is better; seats equal on every key share a rank, and every seat
ranked 1 wins.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.jit import kernel
from simlab.core.rng import below, derive_key, u64_at

# ---------------------------------------------------------------- binding into a game's module


def bind(helper):  # a numba dispatcher in, a numba dispatcher out
    """The shared ``inline="always"`` helper ``helper`` compiled in the calling module.

    A game writes ``next_u64 = bind(kernels.next_u64)`` next to its kernels: the code stays
    the one written here, and numba inlines it into the game's hot loops. Calling the core's
    dispatcher directly from another module measured 5-10% slower in a greedy player whose
    tie-breaks draw in its innermost loop (``simlab bench``, see docs/adding_a_game.md).
    """
    return njit(cache=True, inline="always")(helper.py_func)


# ---------------------------------------------------------------- random draws


@njit(cache=True, inline="always")
def next_u64(s, stream: int) -> np.uint64:
    """The next value of the state's random stream ``stream`` (its counter moves on by one)."""
    c = s.rng_ctr[stream]
    s.rng_ctr[stream] = c + np.uint64(1)
    return u64_at(s.rng_key[stream], c)


@kernel
def rekey(s, key: np.uint64) -> None:
    """Give every random stream of ``s`` a fresh key derived from ``key`` (counters back to 0): a search's
    determinisation, after which no draw repeats the true game's future."""
    for k in range(s.rng_key.shape[0]):
        s.rng_key[k] = derive_key(key, np.uint64(k))
        s.rng_ctr[k] = 0


@kernel
def shuffle(s, stream: int, a, n: int) -> None:
    """Fisher-Yates shuffle of ``a[:n]`` with draws from the state's stream ``stream``.

    Draws ``n - 1`` values, swapping position ``i`` (from the top down) with ``below(x, i + 1)``.
    """
    for i in range(n - 1, 0, -1):
        j = below(next_u64(s, stream), i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


# ---------------------------------------------------------------- event log


@kernel
def new_log(capacity: int, width: int) -> np.ndarray:
    """An event log with room for ``capacity`` events of ``width`` columns (0: record nothing)."""
    return np.zeros((capacity + 1, width), dtype=np.int32)


@njit(cache=True, inline="always")
def log_event(log, kind: int) -> int:
    """Reserve the next row of ``log`` for an event of ``kind`` (written to column 0).

    Returns the row index, or -1 when the log records nothing or is full (a full log also
    sets ``log[0, 1]``).
    """
    n = log[0, 0]
    if n + 1 >= log.shape[0]:
        if log.shape[0] > 1:
            log[0, 1] = 1
        return -1
    log[0, 0] = n + 1
    log[n + 1, 0] = kind
    return n + 1


# ---------------------------------------------------------------- ranks and winners


@kernel
def rank_seats(keys, n: int, rank, winner) -> None:
    """Ranks and winners of seats ``0..n-1`` from ``keys[seat, k]`` (compared in k order, higher first).

    ``rank[p]`` becomes 1 + the number of seats strictly ahead of p; ``winner[p]`` is 1 when
    no seat is ahead (ties share the win), else 0.
    """
    n_keys = keys.shape[1]
    for p in range(n):
        ahead = 0
        for q in range(n):
            for k in range(n_keys):
                if keys[q, k] != keys[p, k]:
                    if keys[q, k] > keys[p, k]:
                        ahead += 1
                    break
        rank[p] = ahead + 1
        winner[p] = 1 if ahead == 0 else 0


@njit(cache=True, inline="always")
def winner_mask(winner, n: int) -> tuple[int, int]:
    """(number of winners, bit mask of winning seats) of seats ``0..n-1``."""
    nw = 0
    mask = 0
    for p in range(n):
        if winner[p]:
            nw += 1
            mask |= 1 << p
    return nw, mask
