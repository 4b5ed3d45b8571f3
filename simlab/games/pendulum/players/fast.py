"""The static scorer (``fast_score``: an action's value read off the position, no copy) and the fast policy
built on it (the playouts' policy, the follow-ups of the heuristics' look-ahead)."""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_CLAIM,
    A_CONQUER,
    A_COUNCIL,
    A_FLIP,
    A_LIFT,
    A_MOVE,
    A_NO,
    A_PASS,
    A_PICKUP,
    A_REFILL,
    A_RES,
    A_RETURN,
    A_SPACE,
    A_STRAT,
    A_SWAPVP,
    A_TRACK,
    A_TRIM,
    A_WORKER,
    A_YES,
    PART_TOP,
    PD_ALT,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_WILD_PAY,
    PH_PENDING,
    PH_REPLACE,
    T_BLACK,
    T_PURPLE,
)
from simlab.games.pendulum.players.evaluation import potentials, prepare, prepare_after
from simlab.games.pendulum.players.ply import _move_score, _trigger_penalty
from simlab.games.pendulum.players.values import (
    _discard_value,
    _is_timed,
    _marginal,
    _pay,
    _province_value,
    _slot_limit,
    _strat_value,
    best_gain_value,
    gain_value,
    res_value,
    space_value,
)
from simlab.games.pendulum.players.weights import (
    C_BESTC,
    C_BESTG,
    C_CONQ,
    C_VP0,
    NEG,
    W_ACH,
    W_FREE,
    W_GLORY,
    W_GRANDE,
    W_HAND,
    W_LEG,
    W_MAX3,
    W_NOW,
    W_PASS,
    W_WAIT,
)
from simlab.games.pendulum.rules import apply_action, legal_actions
from simlab.games.pendulum.state import MAX_WORKERS
from simlab.games.pendulum.tables import (
    C_DEFAULT,
    CK_GRANDE,
    CK_PERMANENT,
    CK_STRATAGEM,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    CO_STRAT,
    SP_AREA,
    SP_COST,
    SP_REWARD0,
)


@njit(cache=True, inline="always")
def _pending_top(s) -> int:
    if s.n_pend <= 0:
        return 0
    return s.pend_kind[s.n_pend - 1]


@kernel
def fast_score(s, t, p: int, a: int, base_pot: float, ctx, w) -> float:
    """The value of action a for seat p scored directly from the position (no copy of it): what the fast policy
    of the playouts maximises (0 = passing). ``ctx`` must be ``prepare``d for (s, p) and ``base_pot`` be
    ``potentials(s, ...)``; ``s`` is changed and restored for a move."""
    h0 = s.res[p, 0]
    h1 = s.res[p, 1]
    h2 = s.res[p, 2]
    if a == A_PASS:
        return 0.0
    if a < A_PICKUP:  # flips: the own workers a flip makes actable, less the solo trigger risk
        tm = a - A_FLIP
        v = 0.0
        for wk in range(MAX_WORKERS):
            d = s.w_place[p, wk]
            if d >= 0 and s.w_part[p, wk] == PART_TOP and t.sp[d, SP_AREA] == tm and not _is_timed(s, t, d):
                v += (w[W_NOW] - w[W_WAIT]) * space_value(s, t, p, d, ctx, w)
        if tm == T_PURPLE and s.legendary[p] == 0 and s.legendary_on_card and s.purple_flips == 1:
            v -= w[W_ACH] * w[W_LEG]
        return v - _trigger_penalty(s, t, a, w)
    if a == A_PICKUP:
        return _discard_value(s, t, p, ctx, w) - (res_value(ctx, w, 1, h1) - res_value(ctx, w, 1, h1 - 5))
    if a == A_REFILL:
        return -0.01
    if a < A_NO:
        if a == A_CLAIM:
            return w[W_LEG]
        return best_gain_value(s, t, p, t.ach[s.ach_card, 1], ctx, w) if s.ach_card >= 0 else 0.0
    if a == A_NO:
        return 0.0
    if a == A_YES:
        return w[W_GLORY]
    if a < A_TRACK:
        r = a - A_RES
        k = _pending_top(s)
        if k == PD_WILD_PAY:
            return -_marginal(ctx, w, r, s.res[p, r] - 1) + 0.001 * r
        if k == PD_ALT:
            e = s.pend_arg[s.n_pend - 1]
            if e >= 0:
                return gain_value(s, t, p, e, r, ctx, w, h0, h1, h2) if r < t.eff_nalt[e] else 0.0
            if e == -1:  # claim: the legendary (0) or the ribbon (1)
                if r == 0:
                    return w[W_LEG]
                return best_gain_value(s, t, p, t.ach[s.ach_card, 1], ctx, w) if s.ach_card >= 0 else 0.0
            return -0.01
        return _marginal(ctx, w, r, s.res[p, r]) + 0.001 * (3 - r)
    if a < A_LIFT:
        return ctx[C_VP0 + a - A_TRACK]
    if a < A_MOVE:
        wk = a - A_LIFT
        best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
        return best - w[W_FREE] / w[W_WAIT] * best - _trigger_penalty(s, t, a, w)
    if a < A_ACTION:
        return _move_score(s, t, p, a, 0.0, base_pot, ctx, w)
    if a < A_STRAT:
        x = a - A_ACTION
        wk = x // 2
        d = s.w_place[p, wk]
        c = t.sp[d, SP_COST]
        cost, g0, g1, g2 = _pay(t, c, ctx, w, h0, h1, h2)
        if s.free_action[p] and t.sp[d, SP_AREA] != T_BLACK:
            cost = 0.0
            g0 = h0
            g1 = h1
            g2 = h2
        v = gain_value(s, t, p, t.sp[d, SP_REWARD0 + x % 2], 0, ctx, w, g0, g1, g2) - cost
        return v - w[W_NOW] * space_value(s, t, p, d, ctx, w) + 0.01
    if a < A_CONQUER:
        i = a - A_STRAT
        return (1.0 - w[W_HAND]) * _strat_value(s, t, p, i, ctx, w)
    if a < A_COUNCIL:
        x = a - A_CONQUER
        src = x // 4
        m = x % 4
        limit = _slot_limit(s, t, p)
        if src < 4:
            card = s.display[src]
            if card < 0:
                return 0.0
            return _province_value(s, t, p, card, m, s.prov_n[p, m] < limit, ctx, w)
        return 0.8 * ctx[C_CONQ] + 0.1 * (s.prov_n[p, m] < limit)
    if a < A_WORKER:
        c = a - A_COUNCIL
        kind = t.co[c, CO_KIND]
        if kind == CK_GRANDE:
            return w[W_GRANDE] + 0.5
        if kind == CK_STRATAGEM:
            i = t.co[c, CO_STRAT]
            return w[W_HAND] * _strat_value(s, t, p, i, ctx, w) if i >= 0 else 0.3
        if kind == CK_PERMANENT:
            return w[W_MAX3] + 0.3
        cost, g0, g1, g2 = _pay(t, t.co[c, CO_COST], ctx, w, h0, h1, h2)
        v = gain_value(s, t, p, t.co[c, CO_EFFECT], 0, ctx, w, g0, g1, g2) - cost
        if c == C_DEFAULT:
            v -= 0.01
        return v
    if a < A_TRIM:
        wk = a - A_WORKER
        k = _pending_top(s)
        if k == PD_RETRIEVE:
            d = s.w_place[p, wk]
            return 0.5 if d >= 0 and s.w_part[p, wk] != PART_TOP else -0.1
        if k == PD_GRANDE_SWAP:
            return 0.001 * wk
        return 0.0
    if a < A_RETURN:
        x = a - A_TRIM
        m = x // 8
        return -_province_value(s, t, p, s.prov[p, m, x % 8], m, True, ctx, w)
    if a < A_SWAPVP:
        return _strat_value(s, t, p, a - A_RETURN, ctx, w)
    if a < A_SPACE:
        x = a - A_SWAPVP
        return ctx[C_VP0 + x % 3] - ctx[C_VP0 + x // 3]
    return space_value(s, t, p, a - A_SPACE, ctx, w)


@kernel
def fast_action(g, t, legal, n_legal: int, w, ctx) -> int:
    """The fast policy: the legal action with the best ``fast_score`` (the first of equals); the pass when
    nothing beats passing by more than W_PASS."""
    if n_legal == 1:
        return legal[0]
    prepare(g, t, g.actor, w, ctx)
    return _fast_pick(g, t, legal, n_legal, w, ctx)


@kernel
def fast_action_after(g, t, legal, n_legal: int, w, ctx, bctx) -> int:
    """``fast_action`` in a copy played out from a base position whose context is ``bctx``
    (``prepare_after``: the base's best reachable spaces)."""
    if n_legal == 1:
        return legal[0]
    prepare_after(g, t, g.actor, w, ctx, bctx)
    return _fast_pick(g, t, legal, n_legal, w, ctx)


@kernel
def _fast_pick(g, t, legal, n_legal: int, w, ctx) -> int:
    """``fast_action`` once ``ctx`` is prepared."""
    p = g.actor
    base_pot = potentials(g, t, p, ctx, w)
    best = -1
    best_v = NEG
    has_pass = False
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            has_pass = True
            continue
        v = fast_score(g, t, p, a, base_pot, ctx, w)
        if v > best_v + 1e-9:
            best_v = v
            best = i
    if has_pass and (best < 0 or best_v <= w[W_PASS]):
        return A_PASS
    if best < 0:
        return legal[0]
    return legal[best]


@kernel
def settle_fast(g_arr, t, p: int, w, ctx, bctx, legal2, log) -> None:
    """Resolve with the fast policy (``fast_action_after``: ``bctx`` is the context of the position the copy
    was played out from) the decisions of seat p that follow at once in the copy (the pending stack, the solo
    re-placement after a lift)."""
    g = g_arr[0]
    for _ in range(24):
        if g.over or g.actor != p or (g.phase != PH_PENDING and g.phase != PH_REPLACE):
            return
        n = legal_actions(g, t, legal2)
        if n == 0:
            return
        apply_action(g, t, fast_action_after(g, t, legal2, n, w, ctx, bctx), log)
