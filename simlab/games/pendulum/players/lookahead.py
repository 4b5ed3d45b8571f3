"""The one-ply heuristics' decision (track_balancer, producer, voter): moves and the pass scored directly,
every other action played out on a copy and valued with the base position's scans."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    A_PASS,
    PH_REAL,
)
from simlab.games.pendulum.players.evaluation import evaluate_after, potentials, prepare, static_value
from simlab.games.pendulum.players.fast import settle_fast
from simlab.games.pendulum.players.heuristics import heuristic_weights
from simlab.games.pendulum.players.ply import _is_move, _move_score, _trigger_penalty, pick_best
from simlab.games.pendulum.players.redeal import DEAL_DEPTH, determinize_top
from simlab.games.pendulum.players.registry import KIND_BALANCER_V1
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.v1 import score_actions
from simlab.games.pendulum.players.weights import NEG, W_PASS
from simlab.games.pendulum.rules import apply_action
from simlab.games.pendulum.state import STREAM_SEAT0


@kernel
def score_actions_fast(s_arr, t, legal, n_legal: int, w, scores, base, work, legal2, ctx, bctx, log) -> float:
    """Score the legal actions of the seat to act like ``score_actions``, at a fraction of its cost: moves
    and the pass exactly without a copy (a move changes only the workers' potentials); every other action
    played out on a determinized copy, the seat's follow-up decisions settled by the fast policy, and valued
    with the base's scans (``evaluate_after``). Returns the value of the position as it is (what a pass
    keeps)."""
    s = s_arr[0]
    p = s.actor
    prepare(s, t, p, w, bctx)
    base_pot = potentials(s, t, p, bctx, w)
    base_v = static_value(s, t, p, w, bctx) + base_pot
    n_other = 0
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            scores[i] = base_v
        elif _is_move(a):
            scores[i] = _move_score(s, t, p, a, base_v, base_pot, bctx, w)
        else:
            scores[i] = NEG
            n_other += 1
    if n_other == 0:
        return base_v
    base[0] = s_arr[0]
    b = base[0]
    determinize_top(b, t, p, next_u64(s, STREAM_SEAT0 + p), DEAL_DEPTH)
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS or _is_move(a):
            continue
        work[0] = base[0]
        apply_action(work[0], t, a, log)
        settle_fast(work, t, p, w, ctx, bctx, legal2, log)
        scores[i] = evaluate_after(work[0], t, p, w, ctx, bctx) - _trigger_penalty(b, t, a, w)
    return base_v


@kernel
def heuristic_action(kind: int, params, s_arr, legal, n_legal: int, t, w, scores, base, work, work2, legal2, ctx,
                     bctx, log) -> int:
    """The action of a one-ply heuristic (track_balancer, producer, voter) in any phase: in the real-time
    phase ``score_actions_fast``, in the other phases (pending decisions, council, trim, step 5, start,
    re-placement: a few a round) ``score_actions`` with the copies valued by ``evaluate_after``; the ``_v1``
    kinds play every action out everywhere, each copy valued in full."""
    if n_legal == 1:
        return legal[0]
    heuristic_weights(kind, params, w)
    if kind >= KIND_BALANCER_V1 or s_arr[0].phase != PH_REAL:
        # np.bool_ / np.int64: typed as plain bool / int64, not as literals, so the batch loop and a call from
        # Python (the tests) share one compiled version of these two large kernels instead of compiling each twice
        base_v = score_actions(s_arr, t, legal, n_legal, w, scores, base, work, work2, legal2, ctx, bctx, log,
                               np.bool_(True), np.bool_(kind < KIND_BALANCER_V1))
    else:
        base_v = score_actions_fast(s_arr, t, legal, n_legal, w, scores, base, work, legal2, ctx, bctx, log)
    return pick_best(s_arr[0], legal, n_legal, scores, base_v, w[W_PASS])
