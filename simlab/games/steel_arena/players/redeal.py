"""Determinization: what a seat has not seen re-dealt among the places it could be, from the seat's own stream."""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below, derive_key
from simlab.games.steel_arena.data import (
    T_GENERATION,
    T_TYPE,
)
from simlab.games.steel_arena.state import (
    MAX_TILES,
    N_STREAMS,
    STREAM_SEAT0,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
b1 = np.bool_

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it


# ---------------------------------------------------------------- determinization


@kernel
def _setup_boxed(g, tiles, pool, setup_tab) -> int:
    """How many of the first box entries were boxed unseen at setup (unused gen-2 and gen-3 tiles)."""
    n2 = 0
    n3 = 0
    for i in range(g.n_tiles):
        gen = tiles[pool[i], T_GENERATION]
        if gen == 2:
            n2 += 1
        elif gen == 3:
            n3 += 1
    k = (n2 - setup_tab[g.n_players, 0]) + (n3 - setup_tab[g.n_players, 7])
    return min(max(k, 0), g.box_n)


@kernel
def rekey(g, seed: np.uint64) -> None:
    """Give every random stream of the copy ``g`` a fresh key derived from ``seed``."""
    for k in range(N_STREAMS):
        g.rng_key[k] = derive_key(seed, np.uint64(k))
        g.rng_ctr[k] = 0


@kernel
def _unseen_places(g, p: int, tiles, pool, n_boxed: int, buf, put: bool) -> None:
    """Walk the places seat p has not seen, always in the same order: face-down field tiles, the other
    robots' unrevealed modules (basic mode), the generation-3 stack, the first ``n_boxed`` box entries.
    ``put`` false: append each place's tile instance to the row of its type in ``buf`` (``buf[5, t]``
    counts them); true: give each place, in the same order, the next instance of its type's row."""
    n = 0
    for t in range(5):
        buf[5, t] = 0
    if not g.expert:
        for c in range(g.n_cells):
            inst = g.cell_tile[c]
            if inst >= 0 and g.cell_up[c] == 0:
                t = tiles[pool[inst], T_TYPE]
                k = buf[5, t]
                if put:
                    g.cell_tile[c] = buf[t, k]
                else:
                    buf[t, k] = inst
                buf[5, t] = k + 1
                n += 1
        for q in range(g.n_players):
            if q == p:
                continue
            for m in range(g.n_mods[q]):
                if g.revealed[q, m] == 0 and n < MAX_TILES:
                    inst = g.mods[q, m]
                    t = tiles[pool[inst], T_TYPE]
                    k = buf[5, t]
                    if put:
                        g.mods[q, m] = buf[t, k]
                    else:
                        buf[t, k] = inst
                    buf[5, t] = k + 1
                    n += 1
    for i in range(g.stack_n):
        if n < MAX_TILES:
            inst = g.stack[i]
            t = tiles[pool[inst], T_TYPE]
            k = buf[5, t]
            if put:
                g.stack[i] = buf[t, k]
            else:
                buf[t, k] = inst
            buf[5, t] = k + 1
            n += 1
    for i in range(n_boxed):
        if n < MAX_TILES:
            inst = g.box[i]
            t = tiles[pool[inst], T_TYPE]
            k = buf[5, t]
            if put:
                g.box[i] = buf[t, k]
            else:
                buf[t, k] = inst
            buf[5, t] = k + 1
            n += 1


@kernel
def determinize(g, p: int, tiles, pool, setup_tab, buf) -> None:
    """Re-deal, in the copy ``g``, what seat p has not seen: face-down field tiles, the gen-3 stack,
    the other robots' unrevealed modules and the tiles boxed unseen at setup. Each place keeps its
    visible type; the instances of each type are shuffled among that type's places (Fisher-Yates from
    the top, types in order) with ``g``'s stream of seat p (rekey ``g`` first). ``buf``: int64
    [6, MAX_TILES] scratch (a row of instances per type, row 5 the counts)."""
    n_boxed = _setup_boxed(g, tiles, pool, setup_tab)
    _unseen_places(g, p, tiles, pool, n_boxed, buf, b1(False))
    stream = STREAM_SEAT0 + p
    for t in range(5):
        for i in range(buf[5, t] - 1, 0, -1):
            j = below(next_u64(g, stream), i + 1)
            tmp = buf[t, i]
            buf[t, i] = buf[t, j]
            buf[t, j] = tmp
    _unseen_places(g, p, tiles, pool, n_boxed, buf, b1(True))


