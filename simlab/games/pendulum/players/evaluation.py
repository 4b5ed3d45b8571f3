"""The heuristics' value of a position for one seat (``evaluate``): its per-position context
(``prepare``), the workers' potentials and everything else (``static_value``)."""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AG_NEUTRAL,
    OPT_NEUTRAL_VOTES,
    OPT_PARCHMENT_FIRST,
    OPT_TRACK_LAST,
    PART_TOP,
    PH_COUNCIL,
    PH_TRIM,
    W_MAT,
)
from simlab.games.pendulum.players.values import (
    _automa_votes_estimate,
    _cap,
    _common_may_enter,
    _grandes,
    _is_timed,
    _pay,
    _province_value,
    _rank_bonus,
    _slot_limit,
    _strat_value,
    _workers_in_play,
    res_value,
    space_value,
    space_value_from,
)
from simlab.games.pendulum.players.weights import (
    C_BESTC,
    C_BESTG,
    C_CAP0,
    C_CONQ,
    C_FUT,
    C_HI0,
    C_RANKV,
    C_VP0,
    C_VPANY,
    C_WORKER,
    D0,
    RES_HIGH,
    W_ACH,
    W_FREE,
    W_FUT,
    W_GLORY,
    W_GRANDE,
    W_HAND,
    W_INSIDE,
    W_LEG,
    W_MARKER,
    W_MAX3,
    W_NOW,
    W_PARCH,
    W_PROV,
    W_RANK,
    W_RES,
    W_STUCK,
    W_TRACK,
    W_VOTE,
    W_WAIT,
    W_WORKER,
    W_WORST,
    WIN_SCORE,
)
from simlab.games.pendulum.state import MAX_WORKERS
from simlab.games.pendulum.tables import (
    EF_RES0,
    EF_VOTES,
    EF_WILD,
    SP_COST,
)


@kernel
def prepare(s, t, p: int, w, ctx) -> None:
    """Fill the context ``ctx`` (C_*) of seat p in position s: marginal VP values, caps, the best province,
    the best space a free worker could reach."""
    best = _prepare_tracks(s, t, p, w, ctx)
    _prepare_province(s, t, p, w, ctx, best)
    _prepare_rank(s, t, p, ctx, best)
    _prepare_spaces(s, t, p, w, ctx)


@kernel
def prepare_after(s, t, p: int, w, ctx, bctx) -> None:
    """``prepare`` for a copy played out from a base position whose context is ``bctx``: the marginal VP
    values, caps and the rank bonus recomputed; what its two scans find (the best province a conquer brings,
    the best space a free worker could reach: most of ``prepare``'s time) taken from the base. Measured
    stronger than the exact context (docs/pendulum.md, Players: issue 24)."""
    best = _prepare_tracks(s, t, p, w, ctx)
    ctx[C_CONQ] = bctx[C_CONQ]
    _prepare_rank(s, t, p, ctx, best)
    ctx[C_BESTC] = bctx[C_BESTC]
    ctx[C_BESTG] = bctx[C_BESTG]


@kernel
def _prepare_tracks(s, t, p: int, w, ctx) -> float:
    """The marginal VP values, caps, high cube values and the round's future weights; returns the best
    track's VP value."""
    pf = int(t.opts[OPT_PARCHMENT_FIRST])
    last = int(t.opts[OPT_TRACK_LAST])
    best = 0.0
    for k in range(3):
        x = s.track[p, k]
        d = pf - x
        if d > 0:
            v = w[W_TRACK] + w[W_WORST] * (2 * d - 1) / D0
        elif x < last:
            v = w[W_INSIDE]
        else:
            v = 0.0
        ctx[C_VP0 + k] = v
        if v > best:
            best = v
    ctx[C_VPANY] = best
    for r in range(3):
        ctx[C_CAP0 + r] = _cap(s, t, p, r)
        ctx[C_HI0 + r] = RES_HIGH[r] * w[W_RES]
    rnd = min(max(s.round, 1), 4)
    ctx[C_FUT] = w[W_FUT] * (0.5 + 0.5 * (4 - rnd))
    ctx[C_WORKER] = w[W_WORKER] * (0.25 + 0.25 * (4 - rnd))
    return best


@kernel
def _prepare_province(s, t, p: int, w, ctx, best: float) -> None:
    """C_CONQ: the best province a conquer brings now."""
    # the best province a conquer brings now: a display card (or the deck top, valued at the display's
    # average) under its best slot
    ctx[C_CONQ] = 0.0
    limit = _slot_limit(s, t, p)
    bestp = 0.0
    nd = 0
    for i in range(4):
        card = s.display[i]
        if card < 0:
            continue
        bc = 0.0
        for m in range(4):
            v = _province_value(s, t, p, card, m, s.prov_n[p, m] < limit, ctx, w)
            if v > bc:
                bc = v
        nd += 1
        if bc > bestp:
            bestp = bc
    if nd == 0 and s.pdeck_n > 0:
        bestp = w[W_PROV] + ctx[C_FUT] * best
    ctx[C_CONQ] = bestp


@kernel
def _prepare_rank(s, t, p: int, ctx, best: float) -> None:
    """C_RANKV: the council bonus the seat's votes point at, in VP of its best track."""
    ctx[C_RANKV] = 0.0
    if s.n_priv > 1 and s.phase != PH_COUNCIL and s.phase != PH_TRIM:
        ctx[C_RANKV] = _rank_bonus(s, t, p, s.votes[p]) * best


@kernel
def _prepare_spaces(s, t, p: int, w, ctx) -> None:
    """C_BESTC, C_BESTG: the best waiting value a free common (grande) could reach."""
    # the best waiting value a free worker could reach, common and grande
    bc = 0.0
    bg = 0.0
    for d in range(t.n_spaces):
        if _is_timed(s, t, d):
            continue
        v = space_value(s, t, p, d, ctx, w)
        if v <= 0.0:
            continue
        if v > bg:
            bg = v
        if v > bc and _common_may_enter(s, t, p, d):
            bc = v
    ctx[C_BESTC] = w[W_WAIT] * bc
    ctx[C_BESTG] = w[W_WAIT] * bg


@kernel
def potentials(s, t, p: int, ctx, w) -> float:
    """What seat p's workers are worth where they stand (see the module docstring). The workers that can act
    now, then those waiting for their timer, draw on one budget: a space whose cost the cubes left after
    the others' costs cannot pay counts a quarter."""
    h0 = s.res[p, 0]
    h1 = s.res[p, 1]
    h2 = s.res[p, 2]
    total = 0.0
    for timed_pass in range(2):
        for wk in range(MAX_WORKERS):
            d = s.w_place[p, wk]
            if d < 0 or s.w_part[p, wk] != PART_TOP:
                continue
            timed = _is_timed(s, t, d)
            if timed != (timed_pass == 0):
                continue
            v, ok = space_value_from(s, t, p, d, ctx, w, h0, h1, h2)
            if ok and v > 0.0:
                _, h0, h1, h2 = _pay(t, t.sp[d, SP_COST], ctx, w, h0, h1, h2)
            if timed:
                total += w[W_NOW] * v
            else:
                best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
                here = w[W_WAIT] * v
                alt = w[W_FREE] / w[W_WAIT] * best
                total += here if here > alt else alt
    for wk in range(MAX_WORKERS):
        d = s.w_place[p, wk]
        if d < W_MAT or (d >= 0 and s.w_part[p, wk] == PART_TOP):
            continue
        best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
        if d >= 0 and _is_timed(s, t, d):
            total += w[W_STUCK] / w[W_WAIT] * best
        else:
            total += w[W_FREE] / w[W_WAIT] * best
    return total


@kernel
def _req_progress(s, t, p: int, e: int, with_votes: bool) -> float:
    """Share (0..1) of requirement e (resources, wild, votes) seat p holds."""
    need = 0
    short = 0
    spare = 0
    for r in range(3):
        n = t.eff[e, 0, EF_RES0 + r]
        need += n
        if s.res[p, r] < n:
            short += n - s.res[p, r]
        else:
            spare += s.res[p, r] - n
    wild = t.eff[e, 0, EF_WILD]
    need += wild
    if wild > spare:
        short += wild - spare
    if with_votes:
        nv = t.eff[e, 0, EF_VOTES]
        need += nv
        if s.votes[p] < nv:
            short += nv - s.votes[p]
    if need == 0:
        return 1.0
    return 1.0 - short / need


@kernel
def _ach_progress(s, t, p: int) -> float:
    """Share (0..1) of the current achievement's requirement seat p holds (resources, wild, votes)."""
    if s.ach_card < 0:
        return 0.0
    return _req_progress(s, t, p, t.ach[s.ach_card, 0], True)


@kernel
def _next_ach_progress(s, t, p: int) -> float:
    """The mean over the achievements still in the deck (one of them comes next) of the squared share of its
    resource requirement seat p holds (votes aside: they are discarded at council)."""
    n = s.adeck_n
    if n <= 0:
        return 0.0
    tot = 0.0
    for i in range(n):
        f = _req_progress(s, t, p, t.ach[s.adeck[i], 0], False)
        tot += f * f
    return tot / n


@kernel
def _lead_share(s, t, p: int) -> float:
    """1 when seat p's votes lead every other agent's (expected) votes, else 0.4 plus 0.6 times its share of
    the leader's votes (one more vote always helps)."""
    top = 0.0
    for j in range(s.n_priv):
        q = s.priv[j]
        if q == p:
            continue
        if q < s.n_players:
            v = float(s.votes[q])
        elif q == AG_NEUTRAL:
            v = float(t.opts[OPT_NEUTRAL_VOTES])
        else:
            v = _automa_votes_estimate(s, t, q - AG_AUTOMA1)
        if v > top:
            top = v
    mine = float(s.votes[p])
    if mine > top:
        return 1.0
    return 0.4 + 0.6 * mine / (top + 1.0)


@kernel
def legendary_prospect(s, t, p: int) -> float:
    """How close seat p is to its legendary VP (0..1, squared so that the last cubes count most): the share
    of the achievement's requirement it holds while the token lies there; before the next token comes, 0.6
    times the mean over the achievements still in the deck (their resources only); in round 4 the share it
    holds of F5's 10 cubes (less when its votes do not lead: F5 goes to the first who takes it,
    ``_lead_share``)."""
    if s.legendary[p]:
        return 0.0
    best = 0.0
    if s.legendary_on_card and (s.ach_claims[p] == 0 or s.claim_twice[p]):
        f = _ach_progress(s, t, p)
        best = f * f
    elif s.round < 4:
        best = 0.6 * _next_ach_progress(s, t, p)
    if s.round == 4:
        f = min(s.res[p, 0] + s.res[p, 1] + s.res[p, 2], 10) / 10.0
        x = f * f * _lead_share(s, t, p)
        if x > best:
            best = x
    return best


@kernel
def static_value(g, t, p: int, w, ctx) -> float:
    """Everything of ``evaluate`` but the workers' potentials (``ctx`` must be ``prepare``d)."""
    pf = int(t.opts[OPT_PARCHMENT_FIRST])
    v = 0.0
    for k in range(3):
        x = g.track[p, k]
        d = pf - x
        if d > 0:
            v -= w[W_TRACK] * d + w[W_WORST] * d * d / D0
        else:
            v += w[W_INSIDE] * (1 - d)
        v += w[W_GLORY] * g.glory[p, k]
    if g.legendary[p]:
        v += w[W_LEG]
    for r in range(3):
        v += res_value(ctx, w, r, g.res[p, r])
    v += w[W_VOTE] * g.votes[p] + w[W_RANK] * ctx[C_RANKV]
    limit = _slot_limit(g, t, p)
    for m in range(4):
        for i in range(g.prov_n[p, m]):
            v += _province_value(g, t, p, g.prov[p, m, i], m, i < limit, ctx, w)
    v += ctx[C_WORKER] * _workers_in_play(g, p) + w[W_GRANDE] * _grandes(g, p)
    for i in range(t.n_strats):
        if g.strat[p, i] == 1:
            x = _strat_value(g, t, p, i, ctx, w)
            if x > 0.0:
                v += w[W_HAND] * x
    v += w[W_MAX3] * g.max3[p]
    v += 2.0 * ctx[C_HI0 + 2] * g.free_action[p] + 0.5 * (g.double_action[p] + g.adjacent_action[p])
    v += w[W_ACH] * w[W_LEG] * legendary_prospect(g, t, p)
    if pf - g.track[p, 0] <= 0 and pf - g.track[p, 1] <= 0 and pf - g.track[p, 2] <= 0:
        v += w[W_PARCH] * w[W_LEG]
    if g.solo:
        v -= w[W_MARKER] * g.markers_automa
    return v


@kernel
def evaluate(g, t, p: int, w, ctx) -> float:
    """The heuristics' score of position ``g`` for seat p (weights ``w``; ``ctx`` is filled here)."""
    if g.over:
        return WIN_SCORE if g.winner[p] else -WIN_SCORE
    prepare(g, t, p, w, ctx)
    return static_value(g, t, p, w, ctx) + potentials(g, t, p, ctx, w)


@kernel
def evaluate_after(g, t, p: int, w, ctx, bctx) -> float:
    """``evaluate`` of a copy played out from a base position whose context is ``bctx`` (``prepare_after``)."""
    if g.over:
        return WIN_SCORE if g.winner[p] else -WIN_SCORE
    prepare_after(g, t, p, w, ctx, bctx)
    return static_value(g, t, p, w, ctx) + potentials(g, t, p, ctx, w)
