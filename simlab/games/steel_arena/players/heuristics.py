"""The one-ply heuristics (brawler, sniper, collector): each legal activation applied to a determinized
copy and scored by ``evaluate``."""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.steel_arena.codes import (
    A_ACT,
    A_COOL,
    A_STOP,
    PARAM_SPAN,
    SLOT_C_ATTACK,
)
from simlab.games.steel_arena.data import (
    T_SPLASH,
)
from simlab.games.steel_arena.players.evaluation import (
    evaluate,
    heuristic_weights,
)
from simlab.games.steel_arena.players.owner import (
    _keep_best,
    owner_action,
    place_action,
)
from simlab.games.steel_arena.players.reach import (
    _tokens,
)
from simlab.games.steel_arena.players.redeal import (
    determinize,
)
from simlab.games.steel_arena.players.registry import (
    KIND_BRAWLER,
    POINTLESS,
    TY_ATTACK,
    TY_TERRAIN,
    W_PASS,
)
from simlab.games.steel_arena.rules import activate, apply_action, cool_all
from simlab.games.steel_arena.state import (
    PH_ACTIVE,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_PLACE,
    PH_WATER,
    STREAM_SEAT0,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64
b1 = np.bool_

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it


# ---------------------------------------------------------------- heuristics


@kernel
def _pointless(s, p: int, a: int, tiles, pool, nbr) -> bool:
    """Actions a one-ply look need not score: an attack on a cell with no terrain and no splash (module
    tiles and empty cells ignore hits, NOTES I.10.6: a pass that costs a token); the wear rule (b) on a
    token-free module (the same action without wear, less the module: the look does not value the
    further activation)."""
    if a < A_ACT:
        return False
    x = a - A_ACT
    slot = x // PARAM_SPAN // 2
    wear = (x // PARAM_SPAN) % 2
    param = x % PARAM_SPAN
    if slot == SLOT_C_ATTACK:
        splash = 0
    elif slot < SLOT_C_ATTACK:
        t = s.mod_type[p, slot]
        if wear and s.heat[p, slot] == 0:
            return True
        if t != TY_ATTACK:
            return False
        splash = tiles[pool[s.mods[p, slot]], T_SPLASH]
    else:
        return False
    if splash > 0 or (param // 16) % 2 == 0:
        return False
    t = param // 32
    f = s.facing[p]
    c = nbr[s.cell[p], f]
    for _ in range(t):
        if c < 0:
            break
        c = nbr[c, f]
    if c < 0:
        return True
    return s.cell_tile[c] < 0 or s.cell_type[c] != TY_TERRAIN


@kernel
def score_actions(w, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
                  base, work, log, scores, buf, resample: bool) -> int:
    """Score every legal action of the active seat (PH_ACTIVE / PH_CONTINUE) by applying it to a copy
    (determinized from the seat's view when ``resample``) and evaluating the result; ``scores[i]``
    gets the score of ``legal[i]``. Returns the index of the best (ties at random)."""
    s = s_arr[0]
    p = i64(s.actor)
    base[0] = s_arr[0]
    b = base[0]
    if resample:  # (a one-ply look draws from no other stream: only the seat's own is re-keyed)
        b.rng_key[STREAM_SEAT0 + p] = next_u64(s, STREAM_SEAT0 + p)
        b.rng_ctr[STREAM_SEAT0 + p] = 0
        determinize(b, p, tiles, pool, setup_tab, buf)
    best = 0
    best_v = POINTLESS
    n_best = 0
    cool_pass = _tokens(s, p, tiles, pool) == 0
    for i in range(n_legal):
        if _pointless(s, p, legal[i], tiles, pool, nbr):
            scores[i] = POINTLESS
            continue
        work[0] = base[0]
        g = work[0]
        apply_action(g, legal[i], tiles, pool, robots, setup_tab, cells, nbr, opts, log)
        v = evaluate(g, p, w, tiles, pool, robots, cells, nbr, opts, b1(False))
        if legal[i] == A_COOL and cool_pass:
            v -= w[W_PASS]  # cooling nothing: a wasted turn
        scores[i] = v
        best, best_v, n_best = _keep_best(s, p, v, i, best, best_v, n_best)
    return best


@kernel
def score_activations(w, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
                      base, work, log, scores, buf) -> int:
    """``score_actions`` scored at the end of each activation: the activation alone is applied to
    the (determinized) copy, with no owner decisions and no end phase, and that position is
    evaluated (``evaluate`` counts the damage and heat left pending on each robot, the module tile
    the robot stands on as picked up, and a game the pending damage ends). A cool is the tokens
    removed, a stop the position as it is. Returns the index of the best (ties at random)."""
    s = s_arr[0]
    p = i64(s.actor)
    base[0] = s_arr[0]
    b = base[0]
    b.rng_key[STREAM_SEAT0 + p] = next_u64(s, STREAM_SEAT0 + p)
    b.rng_ctr[STREAM_SEAT0 + p] = 0
    determinize(b, p, tiles, pool, setup_tab, buf)
    best = 0
    best_v = POINTLESS
    n_best = 0
    cool_pass = _tokens(s, p, tiles, pool) == 0
    for i in range(n_legal):
        a = legal[i]
        if _pointless(s, p, a, tiles, pool, nbr):
            scores[i] = POINTLESS
            continue
        if a == A_STOP:
            g = b
        else:
            work[0] = base[0]
            g = work[0]
            if a == A_COOL:
                cool_all(g, log)
            else:
                g.phase = PH_ACTIVE
                activate(g, a, tiles, pool, robots, cells, nbr, opts, log)
        v = evaluate(g, p, w, tiles, pool, robots, cells, nbr, opts, b1(True))
        if a == A_COOL and cool_pass:
            v -= w[W_PASS]  # cooling nothing: a wasted turn
        scores[i] = v
        best, best_v, n_best = _keep_best(s, p, v, i, best, best_v, n_best)
    return best


@kernel
def heuristic_action(kind: int, params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr,
                     opts, base, work, log, scores, buf, w, resample: bool) -> int:
    """The action of a heuristic (brawler, sniper, collector) in any phase."""
    s = s_arr[0]
    ph = s.phase
    if n_legal == 1:
        return legal[0]
    if ph in (PH_HEAT, PH_WATER, PH_DISCARD, PH_LIMIT):
        return owner_action(s, legal, n_legal, tiles, pool)
    heuristic_weights(i64(kind), params, w)
    if ph == PH_PLACE:
        return place_action(s, w, legal, n_legal, tiles, pool, robots, cells, nbr, opts)
    if kind == KIND_BRAWLER:
        i = score_activations(w, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr, opts,
                              base, work, log, scores, buf)
    else:
        i = score_actions(w, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr, opts,
                          base, work, log, scores, buf, b1(resample))
    return legal[i]


