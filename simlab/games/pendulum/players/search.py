"""The search player: determinized Monte Carlo over its base heuristic's best candidates."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    A_PASS,
    MAX_ACTIONS,
    PH_COUNCIL,
    PH_REAL,
)
from simlab.games.pendulum.players.evaluation import evaluate
from simlab.games.pendulum.players.fast import fast_action
from simlab.games.pendulum.players.heuristics import heuristic_weights
from simlab.games.pendulum.players.ply import pick_best
from simlab.games.pendulum.players.redeal import determinize
from simlab.games.pendulum.players.registry import DEFAULT_PARAMS, KIND_BALANCER, KIND_VOTER
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.v1 import score_actions
from simlab.games.pendulum.players.weights import W_PASS
from simlab.games.pendulum.rules import apply_action, legal_actions
from simlab.games.pendulum.state import STATE_DTYPE, STREAM_SEAT0


@kernel
def playout(g_arr, t, stop_round: int, legal, w, ctx, log, max_steps: int) -> int:
    """Play the copy with the fast policy for every seat until round ``stop_round`` begins (the council
    before it done) or the game ends; returns the number of actions played."""
    g = g_arr[0]
    for i in range(max_steps):
        if g.over or g.round >= stop_round:
            return i
        n = legal_actions(g, t, legal)
        if n == 0:
            return i
        apply_action(g, t, fast_action(g, t, legal, n, w, ctx), log)
    return max_steps


@kernel
def search_action(params, s_arr, legal, n_legal: int, t, w, scores, base, work, work2, legal2, ctx, bctx,
                  log) -> int:
    """Determinized Monte Carlo over the base heuristic's best candidates (see BUILTIN_PLAYERS['search'])."""
    s = s_arr[0]
    p = s.actor
    if n_legal == 1:
        return legal[0]
    base_kind = int(params[4])
    if base_kind < KIND_BALANCER or base_kind > KIND_VOTER:
        base_kind = KIND_BALANCER
    heuristic_weights(base_kind, DEFAULT_PARAMS[base_kind], w)
    base_v = score_actions(s_arr, t, legal, n_legal, w, scores, base, work, work2, legal2, ctx, bctx, log,
                           np.bool_(True), np.bool_(False))
    pass_below = w[W_PASS]
    ph = s.phase
    if ph != PH_REAL and ph != PH_COUNCIL:
        return pick_best(s, legal, n_legal, scores, base_v, pass_below)
    # the candidates: the heuristic's best actions (a pass scores the position plus pass_below)
    for i in range(n_legal):
        if legal[i] == A_PASS:
            scores[i] = base_v + pass_below
    n_cand = max(1, int(params[1]))
    if n_cand > n_legal:
        n_cand = n_legal
    order = np.argsort(-scores[:n_legal], kind="mergesort")
    if n_cand == 1 or scores[order[0]] - scores[order[1]] > params[5]:
        return pick_best(s, legal, n_legal, scores, base_v, pass_below)
    cands = np.empty(n_cand, dtype=np.int64)
    for i in range(n_cand):
        cands[i] = legal[order[i]]
    playouts = max(1, int(params[0]))
    stop_round = 99 if int(params[2]) >= 1 else s.round + 1
    win_bonus = params[3]
    totals = np.zeros(n_cand)
    d_arr = np.empty(1, dtype=STATE_DTYPE)
    g_arr = np.empty(1, dtype=STATE_DTYPE)
    legal3 = np.empty(MAX_ACTIONS, dtype=np.int64)
    for _ in range(playouts):
        d_arr[0] = s_arr[0]
        determinize(d_arr[0], t, p, next_u64(s, STREAM_SEAT0 + p))
        for ci in range(n_cand):
            g_arr[0] = d_arr[0]
            g = g_arr[0]
            apply_action(g, t, cands[ci], log)
            playout(g_arr, t, stop_round, legal3, w, ctx, log, 50000)
            totals[ci] += (win_bonus if g.winner[p] else -win_bonus) if g.over else evaluate(g, t, p, w, ctx)
    best = 0
    for i in range(1, n_cand):
        if totals[i] > totals[best] + 1e-9:
            best = i
    return cands[best]
