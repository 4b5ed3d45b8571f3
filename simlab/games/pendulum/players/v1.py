"""The heuristics' first scoring (the ``_v1`` kinds, the search's candidates): every legal action played out
on a (determinized) copy, the seat's follow-up decisions settled one-ply."""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    A_PASS,
    A_REFILL,
    PH_PENDING,
    PH_REPLACE,
)
from simlab.games.pendulum.players.evaluation import evaluate, evaluate_after, potentials
from simlab.games.pendulum.players.ply import _is_move, _move_score, _trigger_penalty
from simlab.games.pendulum.players.redeal import DEAL_DEPTH, determinize, determinize_top
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.weights import NEG
from simlab.games.pendulum.rules import apply_action, legal_actions
from simlab.games.pendulum.state import STREAM_SEAT0


@kernel
def settle(g_arr, t, p: int, w, ctx, bctx, legal2, work2, log, after: bool) -> None:
    """Resolve greedily, one-ply, the decisions of seat p that follow at once in the copy (the pending stack,
    the solo re-placement after a lift); ``after``: each option valued by ``evaluate_after`` (``bctx`` the
    context of the position the copy was played out from), else by ``evaluate``."""
    g = g_arr[0]
    for _ in range(24):
        if g.over or g.actor != p or (g.phase != PH_PENDING and g.phase != PH_REPLACE):
            return
        n = legal_actions(g, t, legal2)
        if n == 0:
            return
        best = legal2[0]
        if n > 1:
            best_v = NEG
            for i in range(n):
                a = legal2[i]
                if a == A_REFILL:
                    continue  # the deck top stays an option; a refill only reshuffles the choice
                work2[0] = g
                apply_action(work2[0], t, a, log)
                v = evaluate_after(work2[0], t, p, w, ctx, bctx) if after else evaluate(work2[0], t, p, w, ctx)
                if v > best_v + 1e-9:
                    best_v = v
                    best = a
        apply_action(g, t, best, log)


@kernel
def _plays_out(legal, n_legal: int) -> bool:
    """Whether some legal action is played out on a copy (neither the pass nor a move)."""
    for i in range(n_legal):  # noqa: SIM110 (numba: no generators)
        if legal[i] != A_PASS and not _is_move(legal[i]):
            return True
    return False


@kernel
def score_actions(s_arr, t, legal, n_legal: int, w, scores, base, work, work2, legal2, ctx, bctx, log,
                  resample: bool, after: bool) -> float:
    """Score every legal action of the seat to act (``scores[i]`` for ``legal[i]``): moves directly, the rest
    on a (determinized) copy with the seat's follow-up decisions settled. ``after``: the copies are valued
    with the base's scans (``evaluate_after``), else each in full (``evaluate``: the ``_v1`` kinds, the
    search's candidates). Returns the value of the position as it is (what a pass keeps)."""
    s = s_arr[0]
    p = s.actor
    base[0] = s_arr[0]
    b = base[0]
    if resample and not after:
        determinize(b, t, p, next_u64(s, STREAM_SEAT0 + p))
    elif resample and _plays_out(legal, n_legal):  # the heuristics: only when a copy is played out, its top cards
        determinize_top(b, t, p, next_u64(s, STREAM_SEAT0 + p), DEAL_DEPTH)
    base_v = evaluate(b, t, p, w, bctx)
    base_pot = potentials(b, t, p, bctx, w)
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            scores[i] = base_v
        elif _is_move(a):
            scores[i] = _move_score(b, t, p, a, base_v, base_pot, bctx, w)
        else:
            work[0] = base[0]
            apply_action(work[0], t, a, log)
            settle(work, t, p, w, ctx, bctx, legal2, work2, log, after)
            v = evaluate_after(work[0], t, p, w, ctx, bctx) if after else evaluate(work[0], t, p, w, ctx)
            scores[i] = v - _trigger_penalty(b, t, a, w)
    return base_v
