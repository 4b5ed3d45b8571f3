"""The legal actions of each decision (one kernel per decision), sorted ascending.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.smartphone.codes import (
    A_ARR,
    A_DONE,
    A_GAMEPAD,
    A_LOGISTICS,
    A_MOVE_FROM,
    A_MOVE_TO,
    A_NFC,
    A_PICK,
    A_RB_PRICE,
    A_RB_RESEARCH,
    A_RB_SECOND,
    A_RESEARCH,
    A_SELL,
    A_WIFI,
)
from simlab.games.smartphone.offices import (
    gamepad_target,
    logistics_target,
    move_to_target,
    second_office_target,
)
from simlab.games.smartphone.research import (
    research_need,
)
from simlab.games.smartphone.sales import (
    can_sell,
)
from simlab.games.smartphone.state import (
    D_ARRANGE,
    D_GAMEPAD,
    D_LOGISTICS,
    D_MOVE_FROM,
    D_MOVE_TO,
    D_NFC,
    D_PICK,
    D_PLACE,
    D_RB_PRICE,
    D_RB_RESEARCH,
    D_RB_SECOND,
    D_RESEARCH,
    D_SELL,
    D_WIFI,
    N_TECH,
)
from simlab.games.smartphone.tables import (
    OPT_MAY_WITHHOLD,
    OPT_NFC_MAX,
    OPT_NFC_MIN,
)
from simlab.games.smartphone.tablets import (
    encode_place,
    office_supply,
    place_legal,
    tech_cost,
)

# ---------------------------------------------------------------- decisions: legal actions (one kernel per decision)


@kernel
def legal_arrange(s, T, p: int, out) -> int:
    """D_ARRANGE: every arrangement."""
    n = 0
    for i in range(T.arr_hidden.shape[0]):
        out[n] = A_ARR + i
        n += 1
    return n


@kernel
def legal_place(s, T, p: int, out) -> int:
    """D_PLACE: stop, or any legal (upgrade, slot, half order)."""
    out[0] = A_DONE
    n = 1
    arr = s.plan_arr[p]
    for h in range(s.hand_n[p]):
        for k in range(T.n_slots[arr]):
            for o in range(2):
                if place_legal(s, T, p, h, k, o):
                    out[n] = encode_place(h, k, o)
                    n += 1
    return n


@kernel
def legal_pick(s, T, p: int, out) -> int:
    """D_PICK: any upgrade on display."""
    n = 0
    for j in range(s.display.shape[0]):
        if s.display[j] >= 0:
            out[n] = A_PICK + j
            n += 1
    return n


@kernel
def legal_research(s, T, p: int, out) -> int:
    """D_RESEARCH: stop, or a marker on a technology still needed (and completable, O7)."""
    out[0] = A_DONE
    n = 1
    for t in range(N_TECH):
        if research_need(s, T, p, t) > 0 and (s.progress[p, t] + 1 < tech_cost(s, T, p, t)
                                               or office_supply(s, T, p) > 0):
            out[n] = A_RESEARCH + t
            n += 1
    return n


@kernel
def legal_rb_research(s, T, p: int, out) -> int:
    """D_RB_RESEARCH: a retailer RESEARCH marker on a technology still needed."""
    n = 0
    for t in range(N_TECH):
        if research_need(s, T, p, t) > 0:
            out[n] = A_RB_RESEARCH + t
            n += 1
    return n


@kernel
def legal_logistics(s, T, p: int, out) -> int:
    """D_LOGISTICS: stop, or a marker on a logistics target."""
    out[0] = A_DONE
    n = 1
    for r in range(T.region.shape[0]):
        if logistics_target(s, T, p, r):
            out[n] = A_LOGISTICS + r
            n += 1
    return n


@kernel
def legal_second_office(s, T, p: int, base: int, out) -> int:
    """D_WIFI / D_RB_SECOND: a second-office target (actions ``base + r``)."""
    n = 0
    for r in range(T.region.shape[0]):
        if second_office_target(s, T, p, r):
            out[n] = base + r
            n += 1
    return n


@kernel
def legal_gamepad(s, T, p: int, out) -> int:
    """D_GAMEPAD: a GAMEPAD back target."""
    n = 0
    for r in range(T.region.shape[0]):
        if gamepad_target(s, T, p, r):
            out[n] = A_GAMEPAD + r
            n += 1
    return n


@kernel
def legal_nfc(s, T, p: int, out) -> int:
    """D_NFC: how many goods to sell directly."""
    lo, hi = nfc_range(s, T, p)
    n = 0
    for k in range(lo, hi + 1):
        out[n] = A_NFC + k
        n += 1
    return n


@kernel
def legal_sell(s, T, p: int, out) -> int:
    """D_SELL: stop (where withholding is allowed), or any buyer seat p may sell to."""
    n = 0
    if T.opts[OPT_MAY_WITHHOLD]:
        out[n] = A_DONE
        n += 1
    for b in range(T.buyers.shape[0]):
        if can_sell(s, T, p, b):
            out[n] = A_SELL + b
            n += 1
    return n


@kernel
def legal_rb_price(s, T, p: int, out) -> int:
    """D_RB_PRICE: lower or raise."""
    out[0] = A_RB_PRICE
    out[1] = A_RB_PRICE + 1
    return 2


@kernel
def legal_move_from(s, T, p: int, out) -> int:
    """D_MOVE_FROM: a region with one of seat p's offices that has somewhere to go."""
    nr = T.region.shape[0]
    n = 0
    for a in range(nr):
        if s.own_offices[p, a] > 0:
            for r in range(nr):
                if move_to_target(s, T, p, a, r):
                    out[n] = A_MOVE_FROM + a
                    n += 1
                    break
    return n


@kernel
def legal_move_to(s, T, p: int, out) -> int:
    """D_MOVE_TO: a destination for the office taken from ``s.move_from``."""
    n = 0
    for r in range(T.region.shape[0]):
        if move_to_target(s, T, p, s.move_from, r):
            out[n] = A_MOVE_TO + r
            n += 1
    return n


@kernel
def legal_actions(s, T, out) -> int:
    """Write the legal actions of the pending decision to ``out`` (ascending); returns how many."""
    p = s.actor
    d = s.pending
    if d == D_ARRANGE:
        return legal_arrange(s, T, p, out)
    elif d == D_PLACE:
        return legal_place(s, T, p, out)
    elif d == D_PICK:
        return legal_pick(s, T, p, out)
    elif d == D_RESEARCH:
        return legal_research(s, T, p, out)
    elif d == D_RB_RESEARCH:
        return legal_rb_research(s, T, p, out)
    elif d == D_LOGISTICS:
        return legal_logistics(s, T, p, out)
    elif d == D_WIFI:
        return legal_second_office(s, T, p, A_WIFI, out)
    elif d == D_RB_SECOND:
        return legal_second_office(s, T, p, A_RB_SECOND, out)
    elif d == D_GAMEPAD:
        return legal_gamepad(s, T, p, out)
    elif d == D_NFC:
        return legal_nfc(s, T, p, out)
    elif d == D_SELL:
        return legal_sell(s, T, p, out)
    elif d == D_RB_PRICE:
        return legal_rb_price(s, T, p, out)
    elif d == D_MOVE_FROM:
        return legal_move_from(s, T, p, out)
    elif d == D_MOVE_TO:
        return legal_move_to(s, T, p, out)
    return 0


@njit(cache=True, inline="always")
def nfc_range(s, T, p: int) -> tuple[int, int]:
    """How many goods NFC face may sell now (O19)."""
    hi = min(T.opts[OPT_NFC_MAX], s.goods[p])
    lo = min(T.opts[OPT_NFC_MIN], hi)
    return lo, hi


