"""The Steel Arena ``search`` player: determinized playouts of a few turns for its best candidates."""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.steel_arena.codes import (
    MAX_ACTIONS,
)
from simlab.games.steel_arena.players.evaluation import (
    evaluate,
    heuristic_weights,
)
from simlab.games.steel_arena.players.heuristics import (
    heuristic_action,
    score_actions,
)
from simlab.games.steel_arena.players.reach import (
    _team_trophies,
)
from simlab.games.steel_arena.players.redeal import (
    determinize,
    rekey,
)
from simlab.games.steel_arena.players.registry import (
    DEFAULT_PARAMS,
    KIND_BRAWLER_V1,
    POINTLESS,
)
from simlab.games.steel_arena.rules import apply_action, legal_actions
from simlab.games.steel_arena.state import (
    PH_ACTIVE,
    PH_CONTINUE,
    STATE_DTYPE,
    STREAM_SEAT0,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64
b1 = np.bool_

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it


# ---------------------------------------------------------------- search


@kernel
def _outcome(g, p: int, mod_w: float, win_bonus: float) -> float:
    """A playout's score for seat p: trophies (of its side) minus the most of another side, plus
    mod_w times the module count difference, plus or minus win_bonus for a finished game."""
    mine, other = _team_trophies(g, p)
    own_m = 0
    other_m = 0
    if g.team:
        for q in range(g.n_players):
            if g.team_of[q] == g.team_of[p]:
                own_m += g.n_mods[q]
            else:
                other_m += g.n_mods[q]
    else:
        own_m = g.n_mods[p]
        for q in range(g.n_players):
            if q != p and g.n_mods[q] > other_m:
                other_m = g.n_mods[q]
    v = float(mine - other) + mod_w * (own_m - other_m)
    if g.over:
        v += win_bonus if g.winner[p] else -win_bonus
    return v


@kernel
def _playout(g_arr, stop_turn: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
             legal, base, work, log, scores, buf, w, bparams) -> None:
    """Play the copy with the brawler for every seat until turn ``stop_turn`` begins (or the game ends)."""
    g = g_arr[0]
    while not g.over:
        if g.turn >= stop_turn and g.phase == PH_ACTIVE:
            break
        n = legal_actions(g, legal, tiles, pool, robots, setup_tab, cells, nbr, opts)
        if n == 0:
            break
        a = heuristic_action(i64(KIND_BRAWLER_V1), bparams, g_arr, legal, i64(n), tiles, pool, robots, setup_tab, cells,
                             nbr, opts, base, work, log, scores, buf, w, b1(False))
        apply_action(g, a, tiles, pool, robots, setup_tab, cells, nbr, opts, log)


@kernel
def search_action(params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
                  base, work, log, scores, buf, w) -> int:
    """Determinized Monte Carlo over the activations available now (see BUILTIN_PLAYERS['search'])."""
    s = s_arr[0]
    p = i64(s.actor)
    bparams = DEFAULT_PARAMS[KIND_BRAWLER_V1].copy()
    ph = s.phase
    if n_legal == 1 or ph not in (PH_ACTIVE, PH_CONTINUE):
        return heuristic_action(i64(KIND_BRAWLER_V1), bparams, s_arr, legal, i64(n_legal), tiles, pool, robots,
                                setup_tab, cells, nbr, opts, base, work, log, scores, buf, w, b1(True))
    playouts = max(1, int(params[0]))
    n_cand = int(params[1])
    depth = max(1, int(params[2]))
    mod_w = params[3]
    win_bonus = params[4]
    leaf_w = params[5]
    heuristic_weights(i64(KIND_BRAWLER_V1), bparams, w)
    score_actions(w, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr, opts,
                  base, work, log, scores, buf, b1(True))
    if n_cand <= 0 or n_cand > n_legal:
        n_cand = n_legal
    order = np.argsort(-scores[:n_legal])
    n_scored = 0
    for i in range(n_legal):
        if scores[i] > POINTLESS:
            n_scored += 1
    if n_cand > n_scored:
        n_cand = max(n_scored, 1)
    cands = np.empty(n_cand, dtype=np.int64)
    for i in range(n_cand):
        cands[i] = legal[order[i]]
    if n_cand == 1:
        return cands[0]
    totals = np.zeros(n_cand)
    d_arr = np.empty(1, dtype=STATE_DTYPE)
    g_arr = np.empty(1, dtype=STATE_DTYPE)
    legal2 = np.empty(MAX_ACTIONS, dtype=np.int64)
    scores2 = np.empty(MAX_ACTIONS)
    stop_turn = s.turn + depth  # the playout stops when that turn begins
    for _ in range(playouts):
        d_arr[0] = s_arr[0]
        rekey(d_arr[0], next_u64(s, STREAM_SEAT0 + p))
        determinize(d_arr[0], p, tiles, pool, setup_tab, buf)
        for ci in range(n_cand):
            g_arr[0] = d_arr[0]
            g = g_arr[0]
            apply_action(g, cands[ci], tiles, pool, robots, setup_tab, cells, nbr, opts, log)
            _playout(g_arr, stop_turn, tiles, pool, robots, setup_tab, cells, nbr, opts,
                     legal2, base, work, log, scores2, buf, w, bparams)
            v = _outcome(g, p, mod_w, win_bonus)
            if leaf_w != 0.0:  # (a finished game: +-WIN_SCORE)
                mine, other = _team_trophies(g, p)
                v += leaf_w * (evaluate(g, p, w, tiles, pool, robots, cells, nbr, opts, b1(False)) - (mine - other))
            totals[ci] += v
    best = 0
    for i in range(1, n_cand):
        if totals[i] > totals[best] + 1e-9:
            best = i
    return cands[best]


