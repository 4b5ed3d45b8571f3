"""What every one-ply decision shares: moves scored directly, the solo trigger penalty, picking the best
(or the pass)."""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.core.rng import below
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_FLIP,
    A_LIFT,
    A_MOVE,
    A_PASS,
    DEST_MAT,
    N_DEST,
    PART_TOP,
    PH_STEP5,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    W_MAT,
)
from simlab.games.pendulum.players.evaluation import potentials
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.weights import NEG, W_ACH, W_LEG, W_MARKER, W_TRIGGER
from simlab.games.pendulum.state import STREAM_SEAT0


@njit(cache=True, inline="always")
def _is_move(a: int) -> bool:
    return A_MOVE <= a < A_ACTION


@kernel
def _move_score(s, t, p: int, a: int, base_v: float, base_pot: float, ctx, w) -> float:
    """The one-ply value of ``A_MOVE`` a computed directly: the position's value with the workers' potentials
    recomputed with the worker at its destination (``s`` is a scratch copy: changed and restored)."""
    x = a - A_MOVE
    wk = x // N_DEST
    d = x % N_DEST
    place = s.w_place[p, wk]
    part = s.w_part[p, wk]
    if d == DEST_MAT:
        s.w_place[p, wk] = W_MAT
    else:
        s.w_place[p, wk] = d
        s.w_part[p, wk] = PART_TOP
    pot = potentials(s, t, p, ctx, w)
    s.w_place[p, wk] = place
    s.w_part[p, wk] = part
    return base_v - base_pot + pot


@kernel
def _trigger_penalty(s, t, a: int, w) -> float:
    """Solo: taking a card off the Automa deck while purple has run out and is unflipped risks an Automa purple
    flip (a time marker to its board, the legendary token gone at flip 2): a worker out of a bottom box
    (trigger 1) or a green/black flip (trigger 2)."""
    if s.solo == 0 or s.council_called or s.phase == PH_STEP5:
        return 0.0
    if s.now < s.runs_out[T_PURPLE]:
        return 0.0
    if A_LIFT <= a < A_MOVE or a == A_FLIP + T_GREEN or a == A_FLIP + T_BLACK:
        v = w[W_TRIGGER] * w[W_MARKER]
        if s.purple_flips == 1 and s.legendary_on_card and s.legendary[s.actor] == 0:
            v += 0.3 * w[W_ACH] * w[W_LEG]
        return v
    return 0.0


@kernel
def pick_best(s, legal, n_legal: int, scores, base_v: float, pass_below: float) -> int:
    """The best-scored action (ties at random from the seat's stream); the pass when it is legal and nothing
    beats the position as it is by more than ``pass_below``."""
    p = s.actor
    best = -1
    best_v = NEG
    n_best = 0
    pass_i = -1
    for i in range(n_legal):
        if legal[i] == A_PASS:
            pass_i = i
            continue
        v = scores[i]
        if v > best_v + 1e-9:
            best_v = v
            best = i
            n_best = 1
        elif v > best_v - 1e-9:
            n_best += 1
            if below(next_u64(s, STREAM_SEAT0 + p), n_best) == 0:
                best = i
    if pass_i >= 0 and (best < 0 or best_v <= base_v + pass_below):
        return legal[pass_i]
    if best < 0:
        return legal[0]
    return legal[best]
