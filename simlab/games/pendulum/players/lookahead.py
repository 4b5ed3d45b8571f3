"""The one-ply heuristics' decision (track_balancer, producer, voter): moves scored directly, other actions
by the static scorer, the best few played out."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    A_PASS,
    MAX_ACTIONS,
    PH_COUNCIL,
    PH_REAL,
)
from simlab.games.pendulum.players.evaluation import evaluate, potentials, prepare, static_value
from simlab.games.pendulum.players.fast import fast_score, settle_fast
from simlab.games.pendulum.players.heuristics import heuristic_weights
from simlab.games.pendulum.players.ply import _is_move, _move_score, _trigger_penalty, pick_best
from simlab.games.pendulum.players.redeal import determinize
from simlab.games.pendulum.players.registry import KIND_BALANCER_V1
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.v1 import score_actions
from simlab.games.pendulum.players.weights import NEG, W_PASS
from simlab.games.pendulum.rules import apply_action
from simlab.games.pendulum.state import STREAM_SEAT0

# Real time: how many non-move actions, the best by fast_score, the heuristics play out. Every one (the
# legal list's capacity): cutting to the best two by the static scorer was faster but lost strength against
# the _v1 players (solo level B, 2,000 paired deals: producer -0.021 [-0.031, -0.011], voter -0.024
# [-0.039, -0.009]); playing every non-move action out is level with _v1 (producer -0.009 [-0.019, +0.001],
# voter -0.003 [-0.015, +0.010], track_balancer +0.002 [-0.011, +0.015]) and still 1.3-1.6x as fast, the
# moves and the pass being scored exactly without a copy (docs/pendulum.md, issue 24).
LOOKAHEAD = MAX_ACTIONS


@kernel
def score_actions_fast(s_arr, t, legal, n_legal: int, w, scores, base, work, legal2, ctx, bctx, log, fs, chosen,
                       look: int) -> float:
    """Score the legal actions of the seat to act like ``score_actions``, at a fraction of its cost: moves
    and the pass exactly (a move changes only the workers' potentials), every other action first by the
    static scorer ``fast_score``; only the ``look`` best of those by it (every one at council, where the
    card changes the position most) are played out on a determinized copy with the seat's follow-up
    decisions settled by the fast policy and evaluated; the others score ``NEG`` (never chosen). ``fs`` and
    ``chosen`` are scratch (n_legal entries each). Returns the value of the position as it is (what a pass
    keeps)."""
    s = s_arr[0]
    p = s.actor
    prepare(s, t, p, w, bctx)
    base_pot = potentials(s, t, p, bctx, w)
    base_v = static_value(s, t, p, w, bctx) + base_pot
    fs[:n_legal] = NEG  # fast_score of the actions to play out, NEG for the others
    n_other = 0
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            scores[i] = base_v
        elif _is_move(a):
            scores[i] = _move_score(s, t, p, a, base_v, base_pot, bctx, w)
        else:
            scores[i] = NEG
            fs[i] = fast_score(s, t, p, a, base_pot, bctx, w)
            n_other += 1
    if n_other == 0:
        return base_v
    if s.phase == PH_COUNCIL or look > n_other:
        look = n_other
    nc = 0  # chosen[:nc]: the ``look`` best by fast_score, the first of equals
    for _ in range(look):
        best = -1
        best_v = NEG
        for i in range(n_legal):
            if fs[i] > best_v:
                best_v = fs[i]
                best = i
        if best < 0:
            break
        chosen[nc] = best
        nc += 1
        fs[best] = NEG
    base[0] = s_arr[0]
    b = base[0]
    determinize(b, t, p, next_u64(s, STREAM_SEAT0 + p))
    for j in range(nc):
        i = chosen[j]
        a = legal[i]
        work[0] = base[0]
        apply_action(work[0], t, a, log)
        settle_fast(work, t, p, w, ctx, legal2, log)
        scores[i] = evaluate(work[0], t, p, w, ctx) - _trigger_penalty(b, t, a, w)
    return base_v


@kernel
def heuristic_action(kind: int, params, s_arr, legal, n_legal: int, t, w, scores, base, work, work2, legal2, ctx,
                     bctx, log, fs, chosen) -> int:
    """The action of a one-ply heuristic (track_balancer, producer, voter) in any phase: in the real-time
    phase only the best non-move actions by ``fast_score`` are played out (``score_actions_fast``), in the
    other phases (pending decisions, council, trim, step 5, start, re-placement: a few a round) every one
    (``score_actions``); the ``_v1`` kinds play every action out everywhere."""
    if n_legal == 1:
        return legal[0]
    heuristic_weights(kind, params, w)
    if kind >= KIND_BALANCER_V1 or s_arr[0].phase != PH_REAL:
        # np.bool_ / np.int64: typed as plain bool / int64, not as literals, so the batch loop and a call from
        # Python (the tests) share one compiled version of these two large kernels instead of compiling each twice
        base_v = score_actions(s_arr, t, legal, n_legal, w, scores, base, work, work2, legal2, ctx, bctx, log,
                               np.bool_(True))
    else:
        base_v = score_actions_fast(s_arr, t, legal, n_legal, w, scores, base, work, legal2, ctx, bctx, log, fs,
                                    chosen, np.int64(LOOKAHEAD))
    return pick_best(s_arr[0], legal, n_legal, scores, base_v, w[W_PASS])
