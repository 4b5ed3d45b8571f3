"""The owner policy every player shares (lose, absorb and cool by module value) and robot placement."""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below
from simlab.games.steel_arena.codes import (
    A_ACT,
    A_NONE,
    A_PICK,
    A_PLACE,
    SLOT_CENTRAL,
)
from simlab.games.steel_arena.data import (
    T_AUTOCOOL,
    T_COVER,
    T_PASSIVE,
)
from simlab.games.steel_arena.hexgrid import DIRECTIONS
from simlab.games.steel_arena.players.reach import (
    _hex_distance,
    _is_enemy,
    _on_field,
    module_value,
)
from simlab.games.steel_arena.players.registry import (
    _VW,
    TY_TERRAIN,
    VW_CENTRAL,
    W_ADJ,
    W_AIM,
    W_APPROACH,
    W_CENTRE,
    W_COVER,
    W_FACE,
    W_MINRANGE,
    W_START_MODULE,
    W_TILE,
)
from simlab.games.steel_arena.state import (
    PH_HEAT,
    PH_WATER,
    STREAM_SEAT0,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it


# ---------------------------------------------------------------- owner decisions and placement


@kernel
def _slot_value(s, p: int, slot: int, tiles, pool) -> float:
    if slot == SLOT_CENTRAL:
        return _VW[VW_CENTRAL]
    return module_value(tiles, i64(pool[s.mods[p, slot]]))


@kernel
def owner_action(s, legal, n_legal: int, tiles, pool) -> int:
    """The shared owner policy for PH_HEAT, PH_WATER, PH_DISCARD and PH_LIMIT (seat ``s.actor``)."""
    p = i64(s.actor)
    ph = s.phase
    best = -1
    best_v = 0.0
    has_none = False
    for i in range(n_legal):
        a = legal[i]
        if a == A_NONE:
            has_none = True
            continue
        if a < A_PICK or a >= A_ACT:
            continue
        slot = a - A_PICK
        if ph == PH_HEAT:
            # cheapest token first: one shed at once (auto-cool, passive) or put on a module already
            # overheated (when the options allow it) costs nothing; else the least valuable module
            if slot == SLOT_CENTRAL:
                v = 0.0 if s.central_heat[p] else -_VW[VW_CENTRAL]
            else:
                d = pool[s.mods[p, slot]]
                free = s.heat[p, slot] or tiles[d, T_AUTOCOOL] or tiles[d, T_PASSIVE]
                v = 0.0 if free else -module_value(tiles, i64(d))
        elif ph == PH_WATER:
            hot = s.central_heat[p] if slot == SLOT_CENTRAL else s.heat[p, slot]
            if not hot:
                continue
            v = _slot_value(s, p, slot, tiles, pool)
        else:  # PH_DISCARD, PH_LIMIT: lose the least valuable (the central module only when forced)
            v = -_slot_value(s, p, slot, tiles, pool) - (100.0 if slot == SLOT_CENTRAL else 0.0)
        if best < 0 or v > best_v:
            best = a
            best_v = v
    if best >= 0:
        return best
    if has_none:
        return A_NONE
    return legal[0]


@njit(cache=True, inline="always")
def _keep_best(s, p: int, v: float, candidate: int, best: int, best_v: float, n_best: int) -> tuple[int, float, int]:
    """One step of an argmax with random tie-breaks: ``(best, best_v, n_best)`` after scoring ``candidate`` at
    ``v``. A tie (within 1e-9) replaces the best with probability 1/n_best, drawn from the seat's own stream,
    so every tied candidate is equally likely to be chosen."""
    if v > best_v + 1e-9:
        return candidate, v, 1
    if v > best_v - 1e-9:
        n_best += 1
        if below(next_u64(s, STREAM_SEAT0 + p), n_best) == 0:
            return candidate, best_v, n_best
    return best, best_v, n_best


@kernel
def place_action(s, w, legal, n_legal: int, tiles, pool, robots, cells, nbr, opts) -> int:
    """Placement: near the centre facing inwards, towards (or, with W_ADJ, away from) placed enemies,
    on a module tile (or cover) -- scored directly from the geometry."""
    p = i64(s.actor)
    n_c = s.n_cells
    cx = 0.0
    cy = 0.0
    for c in range(n_c):
        cx += cells[c, 0] + 0.5 * cells[c, 1]
        cy += 0.8660254 * cells[c, 1]
    cx /= n_c
    cy /= n_c
    best = legal[0]
    best_v = -1e18
    n_best = 0
    for i in range(n_legal):
        a = legal[i]
        if a < A_PLACE or a >= A_PICK:
            continue
        c = (a - A_PLACE) // 6
        f = (a - A_PLACE) % 6
        x = cells[c, 0] + 0.5 * cells[c, 1]
        y = 0.8660254 * cells[c, 1]
        dx = cx - x
        dy = cy - y
        dist = np.sqrt(dx * dx + dy * dy)
        fx = DIRECTIONS[f, 0] + 0.5 * DIRECTIONS[f, 1]
        fy = 0.8660254 * DIRECTIONS[f, 1]
        v = -w[W_CENTRE] * dist
        if dist > 1e-9:
            v += w[W_FACE] * (fx * dx + fy * dy) / dist
        inst = s.cell_tile[c]
        if inst >= 0:
            if s.cell_type[c] != TY_TERRAIN:
                v += w[W_START_MODULE]
            elif tiles[pool[inst], T_COVER]:
                v += w[W_COVER]
        if w[W_TILE] != 0.0:
            for d in range(6):
                b = nbr[c, d]
                if b >= 0 and s.cell_tile[b] >= 0 and s.cell_type[b] != TY_TERRAIN:
                    v += 0.2 * w[W_TILE]
        # enemies already placed: in the line of fire (at >= min_range), next to it
        for q in range(s.n_players):
            if not _is_enemy(s, p, q) or not _on_field(s, q):
                continue
            dist_q = _hex_distance(cells, c, s.cell[q])
            if dist_q == 1:
                v -= w[W_ADJ]
            v -= 0.5 * w[W_APPROACH] * dist_q
            b = nbr[c, f]
            k = 1
            while b >= 0:
                if b == s.cell[q] and k >= w[W_MINRANGE]:
                    v += w[W_AIM]
                    break
                b = nbr[b, f]
                k += 1
        best, best_v, n_best = _keep_best(s, p, v, a, best, best_v, n_best)
    return best


