"""What things are worth to a seat, in evaluation units: resources (concave), payments, an effect's gain,
an action space, a province under a mat slot, a stratagem in hand, the council bonus its votes point at."""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.pendulum import workers
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AG_NEUTRAL,
    OPT_LEVEL,
    OPT_NEUTRAL_VOTES,
    OPT_PROV_LIMIT,
    OPT_PROV_LIMIT_MAX3,
    OPT_RES_CAP,
    PART_TOP,
    T_BLACK,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.players.weights import (
    C_BESTC,
    C_BESTG,
    C_CAP0,
    C_CONQ,
    C_FUT,
    C_HI0,
    C_VP0,
    C_VPANY,
    C_WORKER,
    NEG,
    RES_FIRST,
    W_FREE,
    W_GRANDE,
    W_HAND,
    W_LEG,
    W_MAX3,
    W_NOW,
    W_PROV,
    W_RES,
    W_RETRIEVE,
    W_STUCK,
    W_VOTE,
    W_WAIT,
)
from simlab.games.pendulum.state import MAX_WORKERS
from simlab.games.pendulum.tables import (
    AC_VOTES,
    CH_PROD0,
    EF_CONQUER,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RES0,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VOTES,
    EF_VP0,
    EF_VP_ANY,
    EF_WILD,
    SP_AREA,
    SP_COST,
    SP_FREE_ACTION,
    SP_GRANDE,
    SP_MAX3,
    SP_NALT,
    SP_NONE,
    SP_PICKUP,
    SP_REWARD0,
    SP_ROW,
    ST_COST,
    ST_EFFECT,
)


@njit(cache=True, inline="always")
def _cap(s, t, p: int, r: int) -> int:
    """Seat p's cap on resource r: the bank of 10 less the glory cubes of that colour (effects.res_cap)."""
    return int(t.opts[OPT_RES_CAP]) - s.glory[p, r]


@njit(cache=True, inline="always")
def _is_timed(s, t, d: int) -> bool:
    return s.timer_row[t.sp[d, SP_AREA]] == t.sp[d, SP_ROW]


@njit(cache=True, inline="always")
def res_value(ctx, w, r: int, n: int) -> float:
    """What holding n cubes of resource r is worth (concave: see RES_FIRST)."""
    k = RES_FIRST[r]
    if n <= k:
        return ctx[C_HI0 + r] * n
    return ctx[C_HI0 + r] * k + w[W_RES] * (n - k)


@njit(cache=True, inline="always")
def _marginal(ctx, w, r: int, n: int) -> float:
    """Value of one more cube of resource r when n are held (0 at the cap)."""
    if n >= ctx[C_CAP0 + r]:
        return 0.0
    return ctx[C_HI0 + r] if n < RES_FIRST[r] else w[W_RES]


@kernel
def _holds(t, e: int, h0: int, h1: int, h2: int, votes: int, s, p: int) -> bool:
    """Whether holdings (h0, h1, h2) and the seat's votes and tracks pay effect e's first alternative."""
    if e <= 0:
        return True
    e0 = t.eff[e, 0, EF_RES0]
    e1 = t.eff[e, 0, EF_RES0 + 1]
    e2 = t.eff[e, 0, EF_RES0 + 2]
    if h0 < e0 or h1 < e1 or h2 < e2:
        return False
    if t.eff[e, 0, EF_WILD] > (h0 - e0) + (h1 - e1) + (h2 - e2):
        return False
    if t.eff[e, 0, EF_VOTES] > votes:
        return False
    for k in range(3):  # noqa: SIM110 (numba: no generators)
        if t.eff[e, 0, EF_VP0 + k] > s.track[p, k]:
            return False
    return True


@kernel
def _pay(t, e: int, ctx, w, h0: int, h1: int, h2: int):
    """What paying effect e's first alternative costs from holdings (h0, h1, h2), in evaluation units, and the
    holdings left: (value, h0, h1, h2). The wild part takes the cheapest cubes; a missing cube counts at the
    high value."""
    if e <= 0:
        return 0.0, h0, h1, h2
    v = 0.0
    h = (h0, h1, h2)
    n0 = t.eff[e, 0, EF_RES0]
    n1 = t.eff[e, 0, EF_RES0 + 1]
    n2 = t.eff[e, 0, EF_RES0 + 2]
    a0 = min(h[0], n0)
    a1 = min(h[1], n1)
    a2 = min(h[2], n2)
    v += res_value(ctx, w, 0, h0) - res_value(ctx, w, 0, h0 - a0) + (n0 - a0) * ctx[C_HI0]
    v += res_value(ctx, w, 1, h1) - res_value(ctx, w, 1, h1 - a1) + (n1 - a1) * ctx[C_HI0 + 1]
    v += res_value(ctx, w, 2, h2) - res_value(ctx, w, 2, h2 - a2) + (n2 - a2) * ctx[C_HI0 + 2]
    h0 -= a0
    h1 -= a1
    h2 -= a2
    wild = t.eff[e, 0, EF_WILD]
    while wild > 0:
        best = -1
        bv = 1e18
        for r in range(3):
            hr = h0 if r == 0 else (h1 if r == 1 else h2)
            if hr > 0:
                m = ctx[C_HI0 + r] if hr <= RES_FIRST[r] else w[W_RES]
                if m < bv:
                    bv = m
                    best = r
        if best < 0:
            v += wild * w[W_RES] * 2.0
            break
        v += bv
        if best == 0:
            h0 -= 1
        elif best == 1:
            h1 -= 1
        else:
            h2 -= 1
        wild -= 1
    v += t.eff[e, 0, EF_VOTES] * w[W_VOTE]
    for k in range(3):
        v += t.eff[e, 0, EF_VP0 + k] * ctx[C_VP0 + k]
    return v, h0, h1, h2


@kernel
def _workers_in_play(s, p: int) -> int:
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] >= W_MAT:
            n += 1
    return n


@kernel
def _reserve_common(s, p: int) -> bool:
    for w in range(MAX_WORKERS):  # noqa: SIM110 (numba: no generators)
        if s.w_place[p, w] == W_RESERVE and s.w_grande[p, w] == 0:
            return True
    return False


@kernel
def _grandes(s, p: int) -> int:
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_grande[p, w] != 0 and s.w_place[p, w] >= W_MAT:
            n += 1
    return n


@kernel
def _gain_res(ctx, w, r: int, n: int, h: int):
    """(value, new holding) of gaining n cubes of resource r on top of h (capped)."""
    room = int(ctx[C_CAP0 + r]) - h
    if n > room:
        n = room
    if n <= 0:
        return 0.0, h
    return res_value(ctx, w, r, h + n) - res_value(ctx, w, r, h), h + n


@kernel
def _gain_leaf(s, t, p: int, e: int, alt: int, ctx, w, h0: int, h1: int, h2: int):
    """What gaining alternative ``alt`` of effect e is worth to seat p on top of holdings (h0, h1, h2),
    production and the pick-up special aside: (value, h0, h1, h2)."""
    if e <= 0:
        return 0.0, h0, h1, h2
    v = 0.0
    x, h0 = _gain_res(ctx, w, 0, t.eff[e, alt, EF_RES0], h0)
    v += x
    x, h1 = _gain_res(ctx, w, 1, t.eff[e, alt, EF_RES0 + 1], h1)
    v += x
    x, h2 = _gain_res(ctx, w, 2, t.eff[e, alt, EF_RES0 + 2], h2)
    v += x
    wild = t.eff[e, alt, EF_WILD]
    while wild > 0:
        m0 = _marginal(ctx, w, 0, h0)
        m1 = _marginal(ctx, w, 1, h1)
        m2 = _marginal(ctx, w, 2, h2)
        if m0 <= 0.0 and m1 <= 0.0 and m2 <= 0.0:
            break
        if m2 >= m0 and m2 >= m1:
            v += m2
            h2 += 1
        elif m0 >= m1:
            v += m0
            h0 += 1
        else:
            v += m1
            h1 += 1
        wild -= 1
    v += t.eff[e, alt, EF_VOTES] * w[W_VOTE]
    for k in range(3):
        n = t.eff[e, alt, EF_VP0 + k]
        if n > 0:
            v += n * ctx[C_VP0 + k]
    v += t.eff[e, alt, EF_VP_ANY] * ctx[C_VPANY]
    if t.eff[e, alt, EF_LEGENDARY] > 0 and s.legendary[p] == 0:
        v += w[W_LEG]
    v += t.eff[e, alt, EF_CONQUER] * ctx[C_CONQ]
    v += t.eff[e, alt, EF_RETRIEVE] * w[W_RETRIEVE]
    if t.eff[e, alt, EF_RECRUIT] > 0 and _workers_in_play(s, p) < MAX_WORKERS and _reserve_common(s, p):
        v += ctx[C_WORKER]
    sp = t.eff[e, alt, EF_SPECIAL]
    if sp != SP_NONE:
        if sp == SP_MAX3:
            v += w[W_MAX3] if s.max3[p] == 0 else 0.0
        elif sp == SP_FREE_ACTION:
            v += 2.0 * ctx[C_HI0 + 2]
        elif sp == SP_GRANDE:
            v += w[W_GRANDE]
        elif sp != SP_PICKUP:
            v += 0.3
    return v, h0, h1, h2


@kernel
def _production_value(s, t, p: int, m: int, ctx, w, h0: int, h1: int, h2: int):
    """Seat p's production of mat slot m (the character's yield plus every tucked province's edge) on top of
    holdings (h0, h1, h2): (value, h0, h1, h2)."""
    v, h0, h1, h2 = _gain_leaf(s, t, p, t.ch[s.char[p], CH_PROD0 + m], 0, ctx, w, h0, h1, h2)
    for i in range(s.prov_n[p, m]):
        x, h0, h1, h2 = _gain_leaf(s, t, p, t.prov[s.prov[p, m, i], m], 0, ctx, w, h0, h1, h2)
        v += x
    return v, h0, h1, h2


@kernel
def _gain_mid(s, t, p: int, e: int, alt: int, ctx, w, h0: int, h1: int, h2: int):
    """``_gain_leaf`` plus production: (value, h0, h1, h2)."""
    v, h0, h1, h2 = _gain_leaf(s, t, p, e, alt, ctx, w, h0, h1, h2)
    prod = t.eff[e, alt, EF_PROD] if e > 0 else 0
    if prod != 0:
        for m in range(4):
            if prod & (1 << m):
                x, h0, h1, h2 = _production_value(s, t, p, m, ctx, w, h0, h1, h2)
                v += x
    return v, h0, h1, h2


@kernel
def _strat_value(s, t, p: int, i: int, ctx, w) -> float:
    """What playing stratagem i would gain now (its best alternative; a pick-up special counts nothing
    here), less its cost (halved when it cannot be paid now)."""
    e = t.st[i, ST_EFFECT]
    c = t.st[i, ST_COST]
    h0 = s.res[p, 0]
    h1 = s.res[p, 1]
    h2 = s.res[p, 2]
    ok = _holds(t, c, h0, h1, h2, s.votes[p], s, p)
    cost, g0, g1, g2 = _pay(t, c, ctx, w, h0, h1, h2)
    best = NEG
    for alt in range(max(1, t.eff_nalt[e])):
        v, _, _, _ = _gain_mid(s, t, p, e, alt, ctx, w, g0, g1, g2)
        if v > best:
            best = v
    if t.eff[e, 0, EF_RETRIEVE] > 0:
        best = _retrieve_value(s, t, p, ctx, w)
    v = best - cost
    return v if ok else 0.5 * v


@kernel
def _retrieve_value(s, t, p: int, ctx, w) -> float:
    """A retrieve: a stuck worker (bottom box of a timed row) freed at once."""
    v = 0.0
    for wk in range(MAX_WORKERS):
        d = s.w_place[p, wk]
        if d >= 0 and _is_timed(s, t, d):
            best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
            x = (w[W_FREE] - (w[W_STUCK] if s.w_part[p, wk] != PART_TOP else w[W_NOW])) / w[W_WAIT] * best
            if x > v:
                v = x
    return v


@kernel
def _discard_value(s, t, p: int, ctx, w) -> float:
    """Hand value the discarded stratagems would have back in hand (pick up)."""
    v = 0.0
    for i in range(t.n_strats):
        if s.strat[p, i] == 2:
            x = _strat_value(s, t, p, i, ctx, w)
            if x > 0.0:
                v += w[W_HAND] * x
    return v


@kernel
def gain_value(s, t, p: int, e: int, alt: int, ctx, w, h0: int, h1: int, h2: int) -> float:
    """What gaining alternative ``alt`` of effect e is worth to seat p on top of holdings (h0, h1, h2):
    resources (capped, concave), votes, VP at the tracks' marginal values, the legendary, production (the
    mat slot and its provinces), a conquer (the best province now), retrieve, recruit, specials (pick up:
    the discarded stratagems back in hand)."""
    v, _, _, _ = _gain_mid(s, t, p, e, alt, ctx, w, h0, h1, h2)
    if e > 0 and t.eff[e, alt, EF_SPECIAL] == SP_PICKUP:
        v += _discard_value(s, t, p, ctx, w)
    return v


@kernel
def best_gain_value(s, t, p: int, e: int, ctx, w) -> float:
    """The best alternative of effect e on top of what the seat holds."""
    best = NEG
    for alt in range(max(1, t.eff_nalt[e])):
        v = gain_value(s, t, p, e, alt, ctx, w, s.res[p, 0], s.res[p, 1], s.res[p, 2])
        if v > best:
            best = v
    return best if best > NEG else 0.0


@kernel
def space_value_from(s, t, p: int, d: int, ctx, w, h0: int, h1: int, h2: int):
    """Seat p's value of one action in space d from holdings (h0, h1, h2): its best reward less its cost
    (a quarter when the cost cannot be paid from them), never below 0; and whether it can be paid."""
    c = t.sp[d, SP_COST]
    ok = _holds(t, c, h0, h1, h2, s.votes[p], s, p)
    cost, g0, g1, g2 = _pay(t, c, ctx, w, h0, h1, h2)
    if s.free_action[p] and t.sp[d, SP_AREA] != T_BLACK:
        cost = 0.0
        g0 = h0
        g1 = h1
        g2 = h2
        ok = True
    best = 0.0
    for alt in range(max(1, t.sp[d, SP_NALT])):
        v = gain_value(s, t, p, t.sp[d, SP_REWARD0 + alt], 0, ctx, w, g0, g1, g2) - cost
        if v > best:
            best = v
    if not ok:
        best *= 0.25
    return best, ok


@kernel
def space_value(s, t, p: int, d: int, ctx, w) -> float:
    """Seat p's value of one action in space d from what it holds (``space_value_from``)."""
    v, _ = space_value_from(s, t, p, d, ctx, w, s.res[p, 0], s.res[p, 1], s.res[p, 2])
    return v


@kernel
def _province_value(s, t, p: int, card: int, m: int, kept: bool, ctx, w) -> float:
    """A province under mat slot m: W_PROV (kept past council) plus its edge's yield times the productions to
    come (half a production when it is over the slot limit and will be trimmed)."""
    edge, _, _, _ = _gain_leaf(s, t, p, t.prov[card, m], 0, ctx, w, 0, 0, 0)
    if kept:
        return w[W_PROV] + ctx[C_FUT] * edge
    return 0.5 * edge


@kernel
def _slot_limit(s, t, p: int) -> int:
    return int(t.opts[OPT_PROV_LIMIT_MAX3]) if s.max3[p] else int(t.opts[OPT_PROV_LIMIT])


@kernel
def _automa_votes_estimate(s, t, a: int) -> float:
    """Solo: the votes Automa a is expected to bring to this round's council (its revealed cards, about 1.1 a
    card for those still to come, the scoring card's bonus, the time markers on its board; 0..20)."""
    lvl = int(t.opts[OPT_LEVEL])
    rnd = min(max(s.round, 1), 4) - 1
    v = float(t.scoring[lvl, rnd, 1] + s.markers_automa)
    n = s.a_ncards[a]
    for i in range(n):
        v += t.acard[s.a_cards[a, i], AC_VOTES]
    v += 1.1 * (3 - n)
    return min(max(v, 0.0), 20.0)


@kernel
def _rank_bonus(s, t, p: int, votes: int) -> int:
    """The council bonus VP seat p's votes point at now (rank among the agents by votes, ties lost)."""
    ahead = 0
    for j in range(s.n_priv):
        q = s.priv[j]
        if q == p:
            continue
        if q < s.n_players:
            if s.votes[q] >= votes:
                ahead += 1
        elif q == AG_NEUTRAL:
            if t.opts[OPT_NEUTRAL_VOTES] >= votes:
                ahead += 1
        elif _automa_votes_estimate(s, t, q - AG_AUTOMA1) >= votes:
            ahead += 1
    if ahead >= 5:
        return 0
    return t.priv_bonus[ahead]


@kernel
def _common_may_enter(s, t, p: int, d: int) -> bool:
    """A common of seat p may enter space d's top frame (blocking only: ``workers.can_enter``)."""
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] >= W_MAT and s.w_grande[p, w] == 0:
            if s.w_place[p, w] == d and s.w_part[p, w] == PART_TOP:
                return True  # already there
            return workers.can_enter(s, t, p, w, d)
    return True
