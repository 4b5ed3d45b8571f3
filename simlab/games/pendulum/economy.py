"""Pendulum's economy: resources, votes, VP tracks and glory, costs and gains (NOTES I.4, I.7, I.11, II.15-II.17).

**Amounts.** An effect ``e`` (``t.eff[e, alt]``, one row per ``|`` alternative) is a vector of the token
grammar (tables ``EF_*``). Resources are capped per colour at ``res_cap`` = ``OPT_RES_CAP`` (10) minus the
glory cubes of that colour (military <-> power, culture <-> prestige, gold <-> popularity: the same index);
whatever a gain would put above the cap is lost (counted in ``s.st_lost``). Votes have no cap. Nothing ever
goes below 0.

**Tracks** (``add_vp``) run 0..``OPT_TRACK_LAST``. A VP past the end is lost for a basic seat; a seat playing
the advanced variant (``s.advanced[p]``) gets one PD_GLORY decision per such VP (A_YES: one cube of the
track's colour from the seat's bank becomes a glory cube, lowering that resource's cap; A_NO: the VP is lost).
A_YES needs a cube in the bank (held + glory < OPT_RES_CAP), else the VP is lost without asking. VP costs
(Warmonger and Pacifist recruits) come off the tracks and never touch glory.

**Costs** (``can_pay`` / ``pay``): the fixed amounts of alt 0, ``times`` times, then the wild part from any
cubes left (never votes). A wild split that admits one way only (all cubes must go, or one colour holds
cubes) is paid at once; otherwise ``pay`` pushes PD_WILD_PAY (one A_RES per cube) and returns 1.
``pay_gain`` is "pay, then gain": when the wild part waits for decisions, the gain waits too (the
PD_WILD_PAY entry's ``arg`` = follow-up ``e * 4 + alt + 1``), so a reward never pays its own cost.

**Gains** (``gain``): resources (capped), votes, VP per track (``add_vp``), ``vp:any`` (PD_VP_ANY), legendary,
production (``prod``: for each mat slot in the mask, the character's mat yield ``t.ch[char, CH_PROD0 + m]`` plus
the edge ``t.prov[card, m]`` of every province tucked under that slot; one EV_PRODUCTION row per slot), conquer
(PD_CONQUER), retrieve (PD_RETRIEVE), recruit (at once through ``workforce.recruit`` while allowed), wild
(PD_WILD_GAIN; fully forced splits are taken at once) and the specials (``tables.SP_*``, listed in ``effects``).
An effect with several alternatives gained with ``alt = -1`` pushes PD_ALT (arg = the effect; A_RES + alt).

What needs a decision goes onto the pending stack (``push_pending``, here because gains and costs push; the
decisions themselves are ``pending.py``'s). The event rows (EV_GAIN, EV_PAY, EV_TRACK, EV_PRODUCTION, EV_PICKUP)
are named in ``effects.EVENT_FIELDS``. The lowest of the economy's modules: it imports only ``workforce``.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    EV_GAIN,
    EV_PAY,
    EV_PICKUP,
    EV_PRODUCTION,
    EV_TRACK,
    OPT_RES_CAP,
    OPT_TRACK_LAST,
    OPT_WARMONGER_CONVERT,
    PD_ALT,
    PD_CONQUER,
    PD_GLORY,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_RETURN_STRAT,
    PD_SWAP_VP,
    PD_TIMED_PLACE,
    PD_VP_ANY,
    PD_WILD_GAIN,
    PD_WILD_PAY,
    PH_PENDING,
    R_CULTURE,
    R_MILITARY,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_PENDING
from simlab.games.pendulum.tables import (
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
    SP_ADJACENT,
    SP_CLAIM_ACH,
    SP_CLAIM_TWICE,
    SP_DOUBLE,
    SP_EXCHANGE_MC,
    SP_FREE_ACTION,
    SP_GRANDE,
    SP_MAX3,
    SP_PICKUP,
    SP_PLACE_TIMED,
    SP_RETURN_ONE,
    SP_SWAP_VP,
    ST_EFFECT,
)
from simlab.games.pendulum.workforce import recruit, recruit_legal

# PD_ALT args that are not effect indices
ALT_CLAIM = -1  # Pacifist: claim the achievement (A_RES + 0 legendary, A_RES + 1 ribbon)
ALT_EXCHANGE = -2  # Warmonger convert_any_1to1, direction still open
ALT_EXCHANGE_TO_MIL = -3  # ... culture cubes become military
ALT_EXCHANGE_TO_CUL = -4  # ... military cubes become culture
N_PROD_PAIRS = 6  # (province, edge) pairs per EV_PRODUCTION row
N_PICKUP_LISTED = 13  # stratagems listed per EV_PICKUP row


@njit(cache=True, inline="always")
def _set_cause(s, r: int) -> None:
    if r >= 0 and s.cause < 0:
        s.cause = r


@njit(cache=True, inline="always")
def res_cap(s, t, p: int, r: int) -> int:
    """Seat p's cap on resource r: OPT_RES_CAP minus its glory cubes of that colour (track r)."""
    return int(t.opts[OPT_RES_CAP]) - int(s.glory[p, r])


@njit(cache=True, inline="always")
def _add_res(s, t, p: int, r: int, n: int) -> int:
    """Resource r += n within 0..cap; returns the amount lost to the cap (st_lost counts it)."""
    v = int(s.res[p, r]) + n
    lost = 0
    if v < 0:
        v = 0
    cap = res_cap(s, t, p, r)
    if v > cap:
        lost = v - cap
        v = cap
    s.res[p, r] = v
    s.st_lost[p] += lost
    return lost


@njit(cache=True, inline="always")
def _gain_row_begin(s, log, p: int, e: int, alt: int) -> int:
    r = ev_begin(s, log, EV_GAIN, p)
    if r >= 0:
        log[r, FIELD0 + 0] = e
        log[r, FIELD0 + 1] = alt
        for k in range(3):
            log[r, FIELD0 + 2 + k] = s.res[p, k]
        log[r, FIELD0 + 5] = s.votes[p]
    return r


@njit(cache=True, inline="always")
def _gain_row_end(s, log, r: int, p: int, lost: int) -> None:
    if r >= 0:
        for k in range(3):
            log[r, FIELD0 + 6 + k] = s.res[p, k]
        log[r, FIELD0 + 9] = s.votes[p]
        log[r, FIELD0 + 10] = lost
        log[r, FIELD0 + 11] = s.legendary[p]


@njit(cache=True, inline="always")
def _pay_row_begin(s, log, p: int, e: int, times: int) -> int:
    r = ev_begin(s, log, EV_PAY, p)
    if r >= 0:
        log[r, FIELD0 + 0] = e
        log[r, FIELD0 + 1] = times
        for k in range(3):
            log[r, FIELD0 + 2 + k] = s.res[p, k]
        log[r, FIELD0 + 5] = s.votes[p]
    return r


@njit(cache=True, inline="always")
def _pay_row_end(s, log, r: int, p: int, pending: int) -> None:
    if r >= 0:
        for k in range(3):
            log[r, FIELD0 + 6 + k] = s.res[p, k]
        log[r, FIELD0 + 9] = s.votes[p]
        log[r, FIELD0 + 10] = pending


@kernel
def add_resource(s, t, p: int, r: int, n: int, log) -> int:
    """Seat p gains n of resource r (negative: loses, never below 0), capped by ``res_cap``; logs EV_GAIN with
    effect 0. Returns the amount lost to the cap."""
    row = _gain_row_begin(s, log, p, 0, -1)
    lost = _add_res(s, t, p, r, n)
    _gain_row_end(s, log, row, p, lost)
    return lost


@kernel
def add_votes(s, p: int, n: int, log) -> None:
    """Seat p gains n votes (negative: loses, never below 0; no cap); logs EV_GAIN with effect 0."""
    row = _gain_row_begin(s, log, p, 0, -1)
    v = int(s.votes[p]) + n
    s.votes[p] = v if v > 0 else 0
    _gain_row_end(s, log, row, p, 0)


@kernel
def add_vp(s, t, p: int, k: int, n: int, log) -> int:
    """Seat p gains n VP on track k (negative n: pays them, never below 0); logs EV_TRACK.

    VP past ``OPT_TRACK_LAST``: an advanced seat gets one PD_GLORY decision per VP (arg k), a basic seat loses
    them (``s.st_lost``). Returns the VP lost.
    """
    last = int(t.opts[OPT_TRACK_LAST])
    before = int(s.track[p, k])
    v = before + n
    if v < 0:
        v = 0
    over = 0
    if v > last:
        over = v - last
        v = last
    s.track[p, k] = v
    lost = 0
    glory = 0
    if over > 0:
        if s.advanced[p] != 0:
            glory = over
            push_pending(s, p, PD_GLORY, over, k)
        else:
            lost = over
            s.st_lost[p] += over
    r = ev_begin(s, log, EV_TRACK, p)
    if r >= 0:
        log[r, FIELD0 + 0] = p
        log[r, FIELD0 + 1] = k
        log[r, FIELD0 + 2] = before
        log[r, FIELD0 + 3] = v
        log[r, FIELD0 + 4] = v - before
        log[r, FIELD0 + 5] = lost
        log[r, FIELD0 + 6] = glory
        log[r, FIELD0 + 7] = s.glory[p, k]
        log[r, FIELD0 + 8] = s.glory[p, k]
        log[r, FIELD0 + 9] = n
    return lost


@kernel
def glory_possible(s, t, p: int, k: int) -> bool:
    """Seat p has a cube of track k's colour in its bank to turn into glory (held + glory < OPT_RES_CAP)."""
    return int(s.res[p, k]) + int(s.glory[p, k]) < int(t.opts[OPT_RES_CAP])


@kernel
def _wild_ways(a: int, b: int, c: int, n: int):
    """(ways, x, y, z): how many splits x + y + z = n with 0 <= x <= a... exist (capped at 2), and the first."""
    ways = 0
    fx = -1
    fy = -1
    fz = -1
    for x in range(min(a, n) + 1):
        rest = n - x
        lo = rest - c
        if lo < 0:
            lo = 0
        hi = min(b, rest)
        if hi < lo:
            continue
        if ways == 0:
            fx = x
            fy = lo
            fz = rest - lo
        ways += hi - lo + 1
        if ways >= 2:
            return 2, fx, fy, fz
    return ways, fx, fy, fz


@kernel
def can_pay(s, t, p: int, e: int, times: int) -> bool:
    """Seat p can pay alt 0 of effect e ``times`` times: named cubes, then the wild part from any cubes left,
    votes, VP from the tracks (never glory)."""
    if e <= 0:
        return True
    spare = 0
    for r in range(3):
        need = int(t.eff[e, 0, EF_RES0 + r]) * times
        have = int(s.res[p, r])
        if have < need:
            return False
        spare += have - need
    if spare < int(t.eff[e, 0, EF_WILD]) * times:
        return False
    if int(s.votes[p]) < int(t.eff[e, 0, EF_VOTES]) * times:
        return False
    ok = True
    for k in range(3):
        if int(s.track[p, k]) < int(t.eff[e, 0, EF_VP0 + k]) * times:
            ok = False
    return ok


@kernel
def pay(s, t, p: int, e: int, times: int, log) -> int:
    """Seat p pays alt 0 of effect e ``times`` times (assumes ``can_pay``); logs EV_PAY (VP as EV_TRACK).

    A wild part with a single possible split is paid at once; otherwise a PD_WILD_PAY entry (n = cubes, arg 0)
    is pushed and 1 is returned (0 otherwise).
    """
    if e <= 0:
        return 0
    row = _pay_row_begin(s, log, p, e, times)
    for r in range(3):
        _add_res(s, t, p, r, -int(t.eff[e, 0, EF_RES0 + r]) * times)
    v = int(s.votes[p]) - int(t.eff[e, 0, EF_VOTES]) * times
    s.votes[p] = v if v > 0 else 0
    pending = 0
    w = int(t.eff[e, 0, EF_WILD]) * times
    if w > 0:
        ways, x, y, z = _wild_ways(int(s.res[p, 0]), int(s.res[p, 1]), int(s.res[p, 2]), w)
        if ways == 1:
            _add_res(s, t, p, 0, -x)
            _add_res(s, t, p, 1, -y)
            _add_res(s, t, p, 2, -z)
        elif ways == 0:  # cannot happen after can_pay: pay what there is
            for r in range(3):
                s.res[p, r] = 0
        else:
            push_pending(s, p, PD_WILD_PAY, w, 0)
            pending = 1
    _pay_row_end(s, log, row, p, pending)
    for k in range(3):
        n = int(t.eff[e, 0, EF_VP0 + k]) * times
        if n > 0:
            add_vp(s, t, p, k, -n, log)
    return pending


@kernel
def pay_gain(s, t, p: int, cost: int, times: int, e: int, alt: int, log) -> None:
    """Pay ``cost`` (``times`` times), then gain alternative ``alt`` of effect e; when the wild part of the cost
    waits for decisions, the gain follows the last one (the PD_WILD_PAY entry's arg)."""
    if pay(s, t, p, cost, times, log) != 0:
        s.pend_arg[s.n_pend - 1] = e * 4 + alt + 1
    elif e > 0:
        gain(s, t, p, e, alt, log)


@kernel
def holds(s, t, p: int, e: int) -> bool:
    """Seat p holds (does not pay) alt 0 of effect e: named cubes, any cubes for the wild part, votes."""
    if e <= 0:
        return True
    spare = 0
    for r in range(3):
        need = int(t.eff[e, 0, EF_RES0 + r])
        have = int(s.res[p, r])
        if have < need:
            return False
        spare += have - need
    if spare < int(t.eff[e, 0, EF_WILD]):
        return False
    return int(s.votes[p]) >= int(t.eff[e, 0, EF_VOTES])


@kernel
def _production(s, t, p: int, m: int, log) -> int:
    """Production of mat slot m: the mat's yield, then every province's edge for m; returns cubes lost."""
    me = int(t.ch[s.char[p], CH_PROD0 + m])
    n = int(s.prov_n[p, m])
    first = 0
    while True:
        r = ev_begin(s, log, EV_PRODUCTION, p)
        if r >= 0:
            log[r, FIELD0 + 0] = m
            log[r, FIELD0 + 1] = me if first == 0 else 0
            log[r, FIELD0 + 2] = n
            log[r, FIELD0 + 3] = first
            for j in range(N_PROD_PAIRS):
                i = first + j
                if i < n:
                    c = s.prov[p, m, i]
                    log[r, FIELD0 + 4 + 2 * j] = c
                    log[r, FIELD0 + 5 + 2 * j] = t.prov[c, m]
                else:
                    log[r, FIELD0 + 4 + 2 * j] = -1
                    log[r, FIELD0 + 5 + 2 * j] = 0
        first += N_PROD_PAIRS
        if first >= n:
            break
    lost = _apply_vec(s, t, p, me, 0, log)
    for i in range(n):
        lost += _apply_vec(s, t, p, int(t.prov[s.prov[p, m, i], m]), 0, log)
    return lost


@kernel
def _return_all(s, t, p: int, paid: int, before: int, log) -> int:
    """Every discarded stratagem of seat p back to hand; logs EV_PICKUP; returns how many."""
    r = ev_begin(s, log, EV_PICKUP, p)
    k = 0
    for i in range(t.n_strats):
        if s.strat[p, i] == 2:
            s.strat[p, i] = 1
            if r >= 0 and k < N_PICKUP_LISTED:
                log[r, FIELD0 + 4 + k] = i
            k += 1
    if r >= 0:
        log[r, FIELD0 + 0] = paid
        log[r, FIELD0 + 1] = before
        log[r, FIELD0 + 2] = s.res[p, R_CULTURE]
        log[r, FIELD0 + 3] = k
        for j in range(k, N_PICKUP_LISTED):
            log[r, FIELD0 + 4 + j] = -1
    _set_cause(s, r)
    return k


@kernel
def _apply_vec(s, t, p: int, e: int, alt: int, log) -> int:
    """Alternative alt of effect e for seat p, production excepted; returns cubes lost to caps."""
    if e <= 0:
        return 0
    lost = 0
    for r in range(3):
        n = int(t.eff[e, alt, EF_RES0 + r])
        if n != 0:
            lost += _add_res(s, t, p, r, n)
    nv = int(t.eff[e, alt, EF_VOTES])
    if nv != 0:
        v = int(s.votes[p]) + nv
        s.votes[p] = v if v > 0 else 0
    for k in range(3):
        n = int(t.eff[e, alt, EF_VP0 + k])
        if n != 0:
            add_vp(s, t, p, k, n, log)
    if t.eff[e, alt, EF_LEGENDARY] > 0 and s.legendary[p] == 0:
        s.legendary[p] = 1
        s.st_legendary_round[p] = s.round
    for _ in range(int(t.eff[e, alt, EF_RECRUIT])):
        if recruit_legal(s, t, p):
            recruit(s, t, p, log)
    n = int(t.eff[e, alt, EF_VP_ANY])
    if n > 0:
        push_pending(s, p, PD_VP_ANY, n, 0)
    n = int(t.eff[e, alt, EF_WILD])
    if n > 0:
        push_pending(s, p, PD_WILD_GAIN, n, 0)
    n = int(t.eff[e, alt, EF_CONQUER])
    if n > 0:
        push_pending(s, p, PD_CONQUER, n, 0)
    n = int(t.eff[e, alt, EF_RETRIEVE])
    if n > 0:
        push_pending(s, p, PD_RETRIEVE, n, 0)
    sp = int(t.eff[e, alt, EF_SPECIAL])
    if sp == SP_MAX3:
        s.max3[p] = 1
    elif sp == SP_PICKUP:
        _return_all(s, t, p, 0, int(s.res[p, R_CULTURE]), log)
    elif sp == SP_SWAP_VP:
        push_pending(s, p, PD_SWAP_VP, 1, 0)
    elif sp == SP_FREE_ACTION:
        s.free_action[p] = 1
    elif sp == SP_DOUBLE:
        s.double_action[p] = 1
    elif sp == SP_ADJACENT:
        s.adjacent_action[p] = 1
    elif sp == SP_CLAIM_TWICE:
        s.claim_twice[p] = 1
    elif sp == SP_CLAIM_ACH:
        push_pending(s, p, PD_ALT, 1, ALT_CLAIM)
    elif sp == SP_GRANDE:
        push_pending(s, p, PD_GRANDE_SWAP, 1, 0)
    elif sp == SP_PLACE_TIMED:
        push_pending(s, p, PD_TIMED_PLACE, 1, -1)
    elif sp == SP_RETURN_ONE:
        # the card that carries this effect was just discarded: it may not come back by itself
        own = -1
        for i in range(t.n_strats):
            if t.st[i, ST_EFFECT] == e and s.strat[p, i] == 2:
                own = i
                break
        push_pending(s, p, PD_RETURN_STRAT, 1, own)
    elif sp == SP_EXCHANGE_MC:
        if t.opts[OPT_WARMONGER_CONVERT] == 0:
            m = int(s.res[p, R_MILITARY])
            c = int(s.res[p, R_CULTURE])
            s.res[p, R_MILITARY] = 0
            s.res[p, R_CULTURE] = 0
            lost += _add_res(s, t, p, R_MILITARY, c)
            lost += _add_res(s, t, p, R_CULTURE, m)
        else:
            push_pending(s, p, PD_ALT, 1, ALT_EXCHANGE)
    return lost


@kernel
def gain(s, t, p: int, e: int, alt: int, log) -> None:
    """Seat p gains alternative ``alt`` of effect e (alt -1: the seat chooses, PD_ALT, when e has several).

    Logs EV_GAIN (resources and votes before/after, cubes lost) and, below it, EV_TRACK / EV_PRODUCTION rows;
    decisions go to the pending stack (not settled here: see ``pending_settle``).
    """
    if e <= 0:
        return
    if alt < 0:
        if t.eff_nalt[e] > 1:
            push_pending(s, p, PD_ALT, 1, e)
            return
        alt = 0
    row = _gain_row_begin(s, log, p, e, alt)
    lost = _apply_vec(s, t, p, e, alt, log)
    mask = int(t.eff[e, alt, EF_PROD])
    for m in range(4):
        if (mask >> m) & 1:
            lost += _production(s, t, p, m, log)
    _gain_row_end(s, log, row, p, lost)


@njit(cache=True, inline="always")
def push_pending(s, p: int, kind: int, n: int, arg: int) -> None:
    """Push a decision of ``kind`` for seat p (n units, parameter arg) on top of the pending stack.

    When the stack was empty and the phase is not PH_PENDING, ``s.resume_phase`` becomes the current phase.
    """
    if s.n_pend >= MAX_PENDING:
        return  # cannot happen in play: a decision never nests this deep
    if s.n_pend == 0 and s.phase != PH_PENDING:
        s.resume_phase = s.phase
    i = s.n_pend
    s.pend_kind[i] = kind
    s.pend_n[i] = n
    s.pend_arg[i] = arg
    s.n_pend = i + 1
    s.pend_seat = p
