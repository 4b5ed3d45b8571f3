"""Applying an action (one kernel per decision), then advancing to the next decision.
"""

from __future__ import annotations

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
    A_PLACE,
    A_RB_PRICE,
    A_RB_RESEARCH,
    A_RB_SECOND,
    A_RESEARCH,
    A_SELL,
    A_WIFI,
    BONUS_NONE,
    BY_REGION,
    MAX_SLOTS,
    OFF_GAMEPAD,
    OFF_LOGISTICS,
    OFF_MOVE,
    OFF_SECOND,
    OFF_WIFI,
    ST_GAMEPAD_WIFI_OWED,
    ST_WIFI_LATE,
)
from simlab.games.smartphone.decisions import (
    advance,
)
from simlab.games.smartphone.events import (
    EV_LPROGRESS,
    EV_MARKERS_LOST,
    EV_MOVE,
    EV_NFC,
    EV_PICK,
    EV_PRICE_CHANGE,
    EV_SALE,
    emit,
)
from simlab.games.smartphone.offices import (
    put_office,
    remove_office,
)
from simlab.games.smartphone.research import (
    add_research,
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
    MAX_HAND,
    ST_END,
    ST_GAMEPAD,
    ST_NFC,
    ST_WIFI,
)
from simlab.games.smartphone.tablets import (
    place_upgrade,
    region_cost,
    set_arrangement,
    set_price,
)

# ---------------------------------------------------------------- decisions: applying an action (one per decision)


@kernel
def apply_arrange(s, T, p: int, a: int, log) -> None:
    """D_ARRANGE: lay the tablets."""
    set_arrangement(s, T, p, a - A_ARR)


@kernel
def apply_place(s, T, p: int, a: int, log) -> None:
    """D_PLACE: lay an upgrade, or stop placing."""
    if a == A_DONE:
        s.stage = 1
    else:
        x = a - A_PLACE
        o = x % 2
        x //= 2
        place_upgrade(s, T, p, x // MAX_SLOTS, x % MAX_SLOTS, o, log)


@kernel
def apply_pick(s, T, p: int, a: int, log) -> None:
    """D_PICK: take an upgrade from the display (kept only while the hand has room)."""
    j = a - A_PICK
    u = s.display[j]
    s.display[j] = -1
    h = s.hand_n[p]
    if h < MAX_HAND:
        s.hand[p, h] = u
        s.hand_round[p, h] = s.round
        s.hand_n[p] = h + 1
    s.upgrades_taken[p] += 1
    s.takes -= 1
    emit(log, s, EV_PICK, p, u, j, 0, 0, 0, 0, 0, 0)


@kernel
def apply_research(s, T, p: int, a: int, log) -> None:
    """D_RESEARCH: a research marker, or stop (the markers left are lost)."""
    if a == A_DONE:
        emit(log, s, EV_MARKERS_LOST, p, s.markers, 0, 0, 0, 0, 0, 0, 0)
        s.markers = 0
    else:
        s.markers -= 1
        add_research(s, T, p, a - A_RESEARCH, True, 0, log)


@kernel
def apply_rb_research(s, T, p: int, a: int, log) -> None:
    """D_RB_RESEARCH: a retailer RESEARCH marker."""
    s.rb_left -= 1
    add_research(s, T, p, a - A_RB_RESEARCH, False, 1, log)


@kernel
def apply_logistics(s, T, p: int, a: int, log) -> None:
    """D_LOGISTICS: a logistics marker (an office when the region's cost is reached), or stop."""
    if a == A_DONE:
        emit(log, s, EV_MARKERS_LOST, p, s.markers, 1, 0, 0, 0, 0, 0, 0)
        s.markers = 0
    else:
        r = a - A_LOGISTICS
        s.markers -= 1
        s.reg_progress[p, r] += 1
        cost = region_cost(s, T, r)
        emit(log, s, EV_LPROGRESS, p, r, s.reg_progress[p, r], cost, 0, 0, 0, 0, 0)
        if s.reg_progress[p, r] >= cost:
            s.reg_progress[p, r] = 0
            put_office(s, T, p, r, OFF_LOGISTICS, log)


@kernel
def apply_wifi(s, T, p: int, a: int, log) -> None:
    """D_WIFI: the WI-FI face office (in its stage or late, after the GAMEPAD office)."""
    s.stage = ST_GAMEPAD if s.stage == ST_WIFI else ST_NFC
    put_office(s, T, p, a - A_WIFI, OFF_WIFI, log)


@kernel
def apply_gamepad(s, T, p: int, a: int, log) -> None:
    """D_GAMEPAD: the GAMEPAD back office (then the owed WI-FI office, if any)."""
    s.stage = ST_WIFI_LATE if s.stage == ST_GAMEPAD_WIFI_OWED else ST_NFC
    put_office(s, T, p, a - A_GAMEPAD, OFF_GAMEPAD, log)


@kernel
def apply_rb_second(s, T, p: int, a: int, log) -> None:
    """D_RB_SECOND: the retailer SECOND_OFFICE office."""
    s.rb_kind = BONUS_NONE
    put_office(s, T, p, a - A_RB_SECOND, OFF_SECOND, log)


@kernel
def apply_rb_price(s, T, p: int, a: int, log) -> None:
    """D_RB_PRICE: lower or raise the price by one."""
    s.rb_kind = BONUS_NONE
    before = s.price[p]
    delta = 1 if a - A_RB_PRICE == 1 else -1
    set_price(s, T, p, before + delta)
    emit(log, s, EV_PRICE_CHANGE, p, s.price[p], 1, delta, before, 0, 0, 0, 0)


@kernel
def apply_move_from(s, T, p: int, a: int, log) -> None:
    """D_MOVE_FROM: the office to move."""
    s.move_from = a - A_MOVE_FROM


@kernel
def apply_move_to(s, T, p: int, a: int, log) -> None:
    """D_MOVE_TO: move the office (the move is logged before the office it makes)."""
    r = a - A_MOVE_TO
    src = s.move_from
    k = remove_office(s, p, src)
    emit(log, s, EV_MOVE, p, src, r, k, 0, 0, 0, 0, 0)
    put_office(s, T, p, r, OFF_MOVE, log)
    s.move_from = -1
    s.rb_kind = BONUS_NONE


@kernel
def apply_nfc(s, T, p: int, a: int, log) -> None:
    """D_NFC: sell goods directly at the seat's price."""
    k = a - A_NFC
    s.stage = ST_END
    v = k * s.price[p]
    if k > 0:
        s.goods[p] -= k
        s.sold[p] += k
        s.vp[p] += v
        s.nfc_vp[p] += v
        s.round_vp[p, s.round - 1] += v
    emit(log, s, EV_NFC, p, k, v, s.price[p], 0, 0, 0, 0, 0)


@kernel
def apply_sell(s, T, p: int, a: int, log) -> None:
    """D_SELL: put one good on a buyer, or stop."""
    if a == A_DONE:
        s.stage = 1
    else:
        b = a - A_SELL
        r = T.buyers[b, BY_REGION]
        outside = s.own_offices[p, r] == 0
        if outside:
            s.used_outside[p] = 1
        s.buyer_owner[b] = p
        s.goods[p] -= 1
        s.sold[p] += 1
        emit(log, s, EV_SALE, p, b, r, outside, 0, 0, 0, 0, 0)


@kernel
def apply_action(s, T, a: int, log) -> None:
    """Apply a legal action of the pending decision, then advance to the next decision."""
    p = s.actor
    d = s.pending
    s.n_steps += 1
    if d == D_ARRANGE:
        apply_arrange(s, T, p, a, log)
    elif d == D_PLACE:
        apply_place(s, T, p, a, log)
    elif d == D_PICK:
        apply_pick(s, T, p, a, log)
    elif d == D_RESEARCH:
        apply_research(s, T, p, a, log)
    elif d == D_RB_RESEARCH:
        apply_rb_research(s, T, p, a, log)
    elif d == D_LOGISTICS:
        apply_logistics(s, T, p, a, log)
    elif d == D_WIFI:
        apply_wifi(s, T, p, a, log)
    elif d == D_GAMEPAD:
        apply_gamepad(s, T, p, a, log)
    elif d == D_RB_SECOND:
        apply_rb_second(s, T, p, a, log)
    elif d == D_RB_PRICE:
        apply_rb_price(s, T, p, a, log)
    elif d == D_MOVE_FROM:
        apply_move_from(s, T, p, a, log)
    elif d == D_MOVE_TO:
        apply_move_to(s, T, p, a, log)
    elif d == D_NFC:
        apply_nfc(s, T, p, a, log)
    elif d == D_SELL:
        apply_sell(s, T, p, a, log)
    advance(s, T, log)




