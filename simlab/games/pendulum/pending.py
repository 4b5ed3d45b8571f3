"""Pendulum's pending decisions: the stack of choices a gain, a cost or a card leaves (NOTES I.7, I.11, II.15-II.17).

A stack (``s.pend_*``; the top is ``n_pend - 1``; one seat ``s.pend_seat``), pushed by ``economy.push_pending``
(which records ``s.resume_phase = s.phase`` when the stack was empty and the phase is not PH_PENDING; the phase
itself is the caller's business). ``pending_legal`` (A_NO alone when the top has no option: it is then
forfeited), ``pending_apply`` and ``pending_settle``. ``pending_settle`` resolves what needs no decision: a top
with no option is dropped (a conquer with no province left, a retrieve with no worker...), a top with exactly one
option is applied, forced wild splits are paid or gained. ``pending_apply`` settles before it returns; ``gain``
and ``pay`` do not (they are called from inside other modules' actions), so the rules driver calls
``pending_settle`` before it offers a PH_PENDING decision.

Every decision logs EV_CHOICE (pending kind, the action, units left, arg, automatic or not, the value before
and after, lost; named in ``effects.EVENT_FIELDS``). The worker decisions are the workers module's: PD_RETRIEVE
(``workers.retrieve_legal_workers`` / ``retrieve_worker``), PD_GRANDE_SWAP (``grande_swap_legal_workers`` /
``grande_swap``), PD_TIMED_PLACE (``timed_place_worker_codes`` then ``timed_place_legal`` / ``timed_place``; arg
-1 until the worker is chosen, then the worker; solo, a worker chosen in a bottom box is lifted at once and the
Automa acts before the space is chosen, arg = worker + ``workers.TP_LIFTED``, NOTES I.12.4.1 and II.8) and
PD_ADJACENT (A_NO, then ``adjacent_legal`` / ``adjacent_apply``, which also resolves its double-frame choice
entries). The kinds and their actions are listed in ``effects``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.jit import kernel
from simlab.games.pendulum import workers
from simlab.games.pendulum.achievements import (
    _claim_do,
    _legendary_ok,
)
from simlab.games.pendulum.codes import (
    A_CONQUER,
    A_NO,
    A_REFILL,
    A_RES,
    A_RETURN,
    A_SPACE,
    A_SWAPVP,
    A_TRACK,
    A_WORKER,
    A_YES,
    EV_CHOICE,
    EV_TRACK,
    MAX_ACTIONS,
    PD_ADJACENT,
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
    R_CULTURE,
    R_MILITARY,
)
from simlab.games.pendulum.economy import (
    ALT_CLAIM,
    ALT_EXCHANGE,
    ALT_EXCHANGE_TO_CUL,
    ALT_EXCHANGE_TO_MIL,
    _add_res,
    _gain_row_begin,
    _gain_row_end,
    _pay_row_begin,
    _pay_row_end,
    _wild_ways,
    add_vp,
    gain,
    glory_possible,
    res_cap,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.provinces import (
    _conquer_do,
    _conquer_slot_free,
    conquer_legal,
    refill,
    refill_legal,
)
from simlab.games.pendulum.state import MAX_WORKERS

# EV_CHOICE.action of a decision that had no option and was dropped
FORFEIT = -1


@njit(cache=True, inline="always")
def _choice_row(s, log, p: int, kind: int, a: int, n_left: int, arg: int, auto: int, before: int, after: int,
                lost: int) -> None:
    r = ev_begin(s, log, EV_CHOICE, p)
    if r >= 0:
        log[r, FIELD0 + 0] = kind
        log[r, FIELD0 + 1] = a
        log[r, FIELD0 + 2] = n_left
        log[r, FIELD0 + 3] = arg
        log[r, FIELD0 + 4] = auto
        log[r, FIELD0 + 5] = before
        log[r, FIELD0 + 6] = after
        log[r, FIELD0 + 7] = lost


@njit(cache=True, inline="always")
def _pop(s) -> None:
    s.n_pend -= 1
    i = s.n_pend
    s.pend_kind[i] = 0
    s.pend_n[i] = 0
    s.pend_arg[i] = 0


@kernel
def _use_one(s) -> None:
    """One unit of the top entry is done: pop it when it was the last."""
    i = s.n_pend - 1
    if s.pend_n[i] > 1:
        s.pend_n[i] -= 1
    else:
        _pop(s)


@kernel
def _legal(s, t, out) -> int:
    """The options of the top pending entry (may be none)."""
    if s.n_pend <= 0:
        return 0
    i = s.n_pend - 1
    kind = s.pend_kind[i]
    arg = s.pend_arg[i]
    p = s.pend_seat
    n = 0
    if kind == PD_WILD_GAIN:
        for r in range(3):
            if s.res[p, r] < res_cap(s, t, p, r):
                out[n] = A_RES + r
                n += 1
    elif kind == PD_WILD_PAY:
        for r in range(3):
            if s.res[p, r] > 0:
                out[n] = A_RES + r
                n += 1
    elif kind == PD_VP_ANY:
        for k in range(3):
            out[n] = A_TRACK + k
            n += 1
    elif kind == PD_CONQUER:
        if refill_legal(s) and _conquer_slot_free(s, p):
            out[n] = A_REFILL
            n += 1
        n = conquer_legal(s, t, p, out, n)
    elif kind == PD_RETRIEVE:
        mask = workers.retrieve_legal_workers(s, t, p)
        for w in range(MAX_WORKERS):
            if (mask >> w) & 1:
                out[n] = A_WORKER + w
                n += 1
    elif kind == PD_GLORY:
        out[n] = A_NO
        n += 1
        if glory_possible(s, t, p, arg):
            out[n] = A_YES
            n += 1
    elif kind == PD_GRANDE_SWAP:
        mask = workers.grande_swap_legal_workers(s, t, p)
        for w in range(MAX_WORKERS):
            if (mask >> w) & 1:
                out[n] = A_WORKER + w
                n += 1
    elif kind == PD_RETURN_STRAT:
        for j in range(t.n_strats):
            if s.strat[p, j] == 2 and j != arg:
                out[n] = A_RETURN + j
                n += 1
    elif kind == PD_SWAP_VP:
        for f in range(3):
            if s.track[p, f] > 0:
                for k in range(3):
                    if k != f:
                        out[n] = A_SWAPVP + f * 3 + k
                        n += 1
    elif kind == PD_TIMED_PLACE:
        if arg < 0:
            n = workers.timed_place_worker_codes(s, t, p, out, n)
        else:
            n = workers.timed_place_legal(s, t, p, arg, out, n)
    elif kind == PD_ADJACENT:
        out[n] = A_NO
        n += 1
        n = workers.adjacent_legal(s, t, p, arg, out, n)
    elif kind == PD_ALT:
        if arg >= 0:
            for a in range(t.eff_nalt[arg]):
                out[n] = A_RES + a
                n += 1
        elif arg == ALT_CLAIM:
            if _legendary_ok(s, p):
                out[n] = A_RES + 0
                n += 1
            out[n] = A_RES + 1
            n += 1
        else:
            out[n] = A_NO
            n += 1
            mil_ok = s.res[p, R_CULTURE] > 0 and s.res[p, R_MILITARY] < res_cap(s, t, p, R_MILITARY)
            cul_ok = s.res[p, R_MILITARY] > 0 and s.res[p, R_CULTURE] < res_cap(s, t, p, R_CULTURE)
            if mil_ok and arg != ALT_EXCHANGE_TO_CUL:
                out[n] = A_RES + R_MILITARY
                n += 1
            if cul_ok and arg != ALT_EXCHANGE_TO_MIL:
                out[n] = A_RES + R_CULTURE
                n += 1
    return n


@kernel
def pending_legal(s, t, out) -> int:
    """The actions of the top pending decision (PH_PENDING; seat ``s.pend_seat``), strictly ascending.

    A top with no option offers A_NO alone (``pending_apply`` then drops it).
    """
    n = _legal(s, t, out)
    if n == 0 and s.n_pend > 0:
        out[0] = A_NO
        n = 1
    return n


@kernel
def _forfeit(s, log, auto: int) -> None:
    i = s.n_pend - 1
    kind = s.pend_kind[i]
    _choice_row(s, log, s.pend_seat, kind, FORFEIT, 0, s.pend_arg[i], auto, -1, -1, s.pend_n[i])
    _pop(s)


@kernel
def _wild_gain_forced(s, t, p: int, n: int) -> bool:
    """A wild gain of n cubes whose split cannot matter: at most one colour has room, or all room is filled."""
    open_ = 0
    room = 0
    for r in range(3):
        x = res_cap(s, t, p, r) - int(s.res[p, r])
        if x > 0:
            open_ += 1
            room += x
    return open_ <= 1 or room <= n


@kernel
def _auto_wild_gain(s, t, p: int, log) -> None:
    i = s.n_pend - 1
    n = int(s.pend_n[i])
    _pop(s)
    row = _gain_row_begin(s, log, p, 0, -1)
    left = n
    for r in range(3):
        x = res_cap(s, t, p, r) - int(s.res[p, r])
        if x > left:
            x = left
        if x > 0:
            _add_res(s, t, p, r, x)
            left -= x
    s.st_lost[p] += left
    _gain_row_end(s, log, row, p, left)
    _choice_row(s, log, p, PD_WILD_GAIN, -1, 0, 0, 1, n, n - left, left)


@kernel
def _follow_up(s, t, p: int, arg: int, log) -> None:
    """The gain that waited for a wild payment (arg = e * 4 + alt + 1)."""
    if arg > 0:
        gain(s, t, p, arg // 4, arg % 4 - 1, log)


@kernel
def _auto_wild_pay(s, t, p: int, log) -> None:
    i = s.n_pend - 1
    n = int(s.pend_n[i])
    arg = int(s.pend_arg[i])
    _pop(s)
    ways, x, y, z = _wild_ways(int(s.res[p, 0]), int(s.res[p, 1]), int(s.res[p, 2]), n)
    row = _pay_row_begin(s, log, p, 0, 1)
    if ways == 0:
        for r in range(3):
            s.res[p, r] = 0
    else:
        _add_res(s, t, p, 0, -x)
        _add_res(s, t, p, 1, -y)
        _add_res(s, t, p, 2, -z)
    _pay_row_end(s, log, row, p, 0)
    _choice_row(s, log, p, PD_WILD_PAY, -1, 0, arg, 1, n, 0, 0)
    _follow_up(s, t, p, arg, log)


@kernel
def _apply_choice(s, t, a: int, auto: int, log) -> None:
    """Resolve the top pending decision with action a (assumed legal)."""
    i = s.n_pend - 1
    kind = s.pend_kind[i]
    arg = int(s.pend_arg[i])
    p = s.pend_seat
    if a == A_NO and kind != PD_GLORY and kind != PD_ADJACENT and not (kind == PD_ALT and arg <= ALT_EXCHANGE):
        _forfeit(s, log, auto)
        return
    if kind == PD_WILD_GAIN:
        r = a - A_RES
        _use_one(s)
        before = int(s.res[p, r])
        lost = _add_res(s, t, p, r, 1)
        left = int(s.pend_n[i]) if s.n_pend > i else 0
        _choice_row(s, log, p, kind, a, left, arg, auto, before, int(s.res[p, r]), lost)
    elif kind == PD_WILD_PAY:
        r = a - A_RES
        _use_one(s)
        left = int(s.pend_n[i]) if s.n_pend > i else 0
        before = int(s.res[p, r])
        _add_res(s, t, p, r, -1)
        _choice_row(s, log, p, kind, a, left, arg, auto, before, int(s.res[p, r]), 0)
        if left == 0:
            _follow_up(s, t, p, arg, log)
    elif kind == PD_VP_ANY:
        k = a - A_TRACK
        _use_one(s)
        left = int(s.pend_n[i]) if s.n_pend > i else 0
        before = int(s.track[p, k])
        lost = add_vp(s, t, p, k, 1, log)
        _choice_row(s, log, p, kind, a, left, arg, auto, before, int(s.track[p, k]), lost)
    elif kind == PD_CONQUER:
        if a == A_REFILL:
            _choice_row(s, log, p, kind, a, int(s.pend_n[i]), arg, auto, -1, -1, 0)
            refill(s, t, log)
        else:
            x = a - A_CONQUER
            _use_one(s)
            left = int(s.pend_n[i]) if s.n_pend > i else 0
            _choice_row(s, log, p, kind, a, left, arg, auto, -1, -1, 0)
            _conquer_do(s, t, p, x // 4, x % 4, log)
    elif kind == PD_RETRIEVE:
        _use_one(s)
        left = int(s.pend_n[i]) if s.n_pend > i else 0
        _choice_row(s, log, p, kind, a, left, arg, auto, -1, -1, 0)
        workers.retrieve_worker(s, t, p, a - A_WORKER, log)
    elif kind == PD_GLORY:
        _use_one(s)
        left = int(s.pend_n[i]) if s.n_pend > i else 0
        g = int(s.glory[p, arg])
        lost = 0
        if a == A_YES:
            s.glory[p, arg] = g + 1
        else:
            lost = 1
            s.st_lost[p] += 1
        _choice_row(s, log, p, kind, a, left, arg, auto, g, int(s.glory[p, arg]), lost)
        r = ev_begin(s, log, EV_TRACK, p)
        if r >= 0:
            log[r, FIELD0 + 0] = p
            log[r, FIELD0 + 1] = arg
            log[r, FIELD0 + 2] = s.track[p, arg]
            log[r, FIELD0 + 3] = s.track[p, arg]
            log[r, FIELD0 + 4] = 0
            log[r, FIELD0 + 5] = lost
            log[r, FIELD0 + 6] = left
            log[r, FIELD0 + 7] = g
            log[r, FIELD0 + 8] = s.glory[p, arg]
            log[r, FIELD0 + 9] = 0
    elif kind == PD_GRANDE_SWAP:
        _use_one(s)
        _choice_row(s, log, p, kind, a, 0, arg, auto, -1, -1, 0)
        workers.grande_swap(s, t, p, a - A_WORKER, log)
    elif kind == PD_RETURN_STRAT:
        _use_one(s)
        j = a - A_RETURN
        _choice_row(s, log, p, kind, a, 0, arg, auto, int(s.strat[p, j]), 1, 0)
        s.strat[p, j] = 1
    elif kind == PD_SWAP_VP:
        x = a - A_SWAPVP
        f = x // 3
        k = x % 3
        _use_one(s)
        before = int(s.track[p, k])
        add_vp(s, t, p, f, -1, log)
        lost = add_vp(s, t, p, k, 1, log)
        _choice_row(s, log, p, kind, a, 0, arg, auto, before, int(s.track[p, k]), lost)
    elif kind == PD_TIMED_PLACE:
        if arg < 0:
            w = a - A_WORKER
            s.pend_arg[i] = w
            _choice_row(s, log, p, kind, a, 1, arg, auto, -1, -1, 0)
            if workers.timed_place_needs_lift(s, p, w):
                # solo trigger 1: the Automa acts before the worker is placed; then the space is chosen again
                if workers.timed_place_lift(s, t, p, w, log):
                    s.pend_arg[i] = w + workers.TP_LIFTED
                else:
                    _pop(s)
        else:
            _use_one(s)
            _choice_row(s, log, p, kind, a, 0, arg, auto, -1, -1, 0)
            workers.timed_place(s, t, p, arg, a - A_SPACE, log)
    elif kind == PD_ADJACENT:
        _use_one(s)
        _choice_row(s, log, p, kind, a, 0, arg, auto, -1, -1, 0)
        if a != A_NO:
            workers.adjacent_apply(s, t, p, a - A_SPACE, log)
    elif kind == PD_ALT:
        if arg >= 0:
            _use_one(s)
            _choice_row(s, log, p, kind, a, 0, arg, auto, -1, -1, 0)
            gain(s, t, p, arg, a - A_RES, log)
        elif arg == ALT_CLAIM:
            _use_one(s)
            _choice_row(s, log, p, kind, a, 0, arg, auto, -1, -1, 0)
            _claim_do(s, t, p, a - A_RES, 1, log)
        elif a == A_NO:
            _use_one(s)
            _choice_row(s, log, p, kind, a, 0, arg, auto, -1, -1, 0)
        else:
            to = a - A_RES
            frm = R_CULTURE if to == R_MILITARY else R_MILITARY
            s.pend_arg[i] = ALT_EXCHANGE_TO_MIL if to == R_MILITARY else ALT_EXCHANGE_TO_CUL
            before = int(s.res[p, to])
            row = _gain_row_begin(s, log, p, 0, -1)
            _add_res(s, t, p, frm, -1)
            _add_res(s, t, p, to, 1)
            _gain_row_end(s, log, row, p, 0)
            _choice_row(s, log, p, kind, a, 1, arg, auto, before, int(s.res[p, to]), 0)


@kernel
def pending_settle(s, t, log) -> None:
    """Resolve what needs no decision on top of the stack: drop a top with no option, apply a top with exactly
    one option, pay / gain forced wild splits; stop at the first real decision (or an empty stack)."""
    if s.n_pend <= 0:
        return
    buf = np.empty(MAX_ACTIONS, np.int32)
    for _ in range(1000):  # every step resolves a unit or drops an entry
        if s.n_pend <= 0:
            return
        i = s.n_pend - 1
        kind = s.pend_kind[i]
        p = s.pend_seat
        if kind == PD_WILD_PAY:
            ways, _x, _y, _z = _wild_ways(int(s.res[p, 0]), int(s.res[p, 1]), int(s.res[p, 2]), int(s.pend_n[i]))
            if ways <= 1:
                _auto_wild_pay(s, t, p, log)
                continue
        elif kind == PD_WILD_GAIN and _wild_gain_forced(s, t, p, int(s.pend_n[i])):
            _auto_wild_gain(s, t, p, log)
            continue
        n = _legal(s, t, buf)
        if n == 0:
            _forfeit(s, log, 1)
        elif n == 1:
            _apply_choice(s, t, buf[0], 1, log)
        else:
            return


@kernel
def pending_apply(s, t, a: int, log) -> None:
    """Seat ``s.pend_seat`` resolves the top pending decision with action a (from ``pending_legal``); logs
    EV_CHOICE and what follows, then settles the stack (``pending_settle``)."""
    if s.n_pend <= 0:
        return
    _apply_choice(s, t, a, 0, log)
    pending_settle(s, t, log)
