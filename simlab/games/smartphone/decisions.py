"""The next decision (one kernel per phase/stage) and ``advance``: everything between decisions runs here.
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.smartphone.codes import (
    BONUS_MOVE,
    BONUS_NONE,
    BONUS_PRICE,
    BONUS_RESEARCH,
    BONUS_SECOND,
    E_GAMEPAD_SMALL,
    E_NFC_DIRECT,
    E_WIFI_SECOND,
    ST_GAMEPAD_WIFI_OWED,
    ST_WIFI_LATE,
)
from simlab.games.smartphone.events import (
    EV_MARKERS_LOST,
    emit,
)
from simlab.games.smartphone.legal import (
    legal_actions,
)
from simlab.games.smartphone.offices import (
    any_move,
    gamepad_target,
    logistics_target,
    second_office_target,
)
from simlab.games.smartphone.research import (
    research_need,
)
from simlab.games.smartphone.rounds import (
    end_turn,
    give_token,
)
from simlab.games.smartphone.sales import (
    any_sale,
)
from simlab.games.smartphone.state import (
    D_ARRANGE,
    D_GAMEPAD,
    D_LOGISTICS,
    D_MOVE_FROM,
    D_MOVE_TO,
    D_NFC,
    D_NONE,
    D_PICK,
    D_PLACE,
    D_RB_PRICE,
    D_RB_RESEARCH,
    D_RB_SECOND,
    D_RESEARCH,
    D_SELL,
    D_WIFI,
    N_TECH,
    ST_END,
    ST_GAMEPAD,
    ST_LOGISTICS,
    ST_NFC,
    ST_WIFI,
)
from simlab.games.smartphone.tables import (
    OPT_EMPTY_DISPLAY_TOKEN,
)
from simlab.games.smartphone.tablets import (
    hand_placed,
    has,
    place_legal,
)

# ---------------------------------------------------------------- decisions: the next one (one kernel per phase/stage)


@kernel
def decide_plan(s, T, p: int) -> int:
    """Phase 1: arrange, then place upgrades while one fits (D_NONE: the plan is done)."""
    if s.plan_arr[p] < 0:
        return D_ARRANGE
    if s.stage == 0:
        arr = s.plan_arr[p]
        for h in range(s.hand_n[p]):
            if not hand_placed(s, p, h):
                for k in range(T.n_slots[arr]):
                    if place_legal(s, T, p, h, k, 0):
                        return D_PLACE
    return D_NONE


@kernel
def decide_pick(s, T, p: int, log) -> int:
    """Phase 4: pick while takes are left (an empty display costs the take, O5)."""
    while s.takes > 0:
        for j in range(s.display.shape[0]):
            if s.display[j] >= 0:
                return D_PICK
        s.takes -= 1  # display empty (O5)
        if T.opts[OPT_EMPTY_DISPLAY_TOKEN]:
            give_token(s, T, p, log)
    return D_NONE


@kernel
def decide_research(s, T, p: int) -> int:
    """Phase 5: place research markers while some are left and a technology is still needed."""
    if s.markers > 0:
        for t in range(N_TECH):
            if research_need(s, T, p, t) > 0:
                return D_RESEARCH
    return D_NONE


@kernel
def decide_bonus(s, T, p: int, log) -> int:
    """Phase 6: the pending retailer bonus's decision; clears the bonus (D_NONE) when none is left."""
    k = s.rb_kind
    nr = T.region.shape[0]
    if k == BONUS_RESEARCH:
        if s.rb_left > 0:
            for t in range(N_TECH):
                if research_need(s, T, p, t) > 0:
                    return D_RB_RESEARCH
        if s.rb_left > 0:
            emit(log, s, EV_MARKERS_LOST, p, s.rb_left, 2, 0, 0, 0, 0, 0, 0)
    elif k == BONUS_PRICE:
        return D_RB_PRICE
    elif k == BONUS_SECOND:
        for r in range(nr):
            if second_office_target(s, T, p, r):
                return D_RB_SECOND
    elif k == BONUS_MOVE:
        if s.move_from >= 0:
            return D_MOVE_TO
        if any_move(s, T, p):
            return D_MOVE_FROM
    s.rb_kind = BONUS_NONE
    s.rb_left = 0
    return D_NONE


@kernel
def decide_logistics(s, T, p: int) -> int:
    """Stage ST_LOGISTICS: place logistics markers while some are left and a target exists."""
    if s.markers > 0:
        for r in range(T.region.shape[0]):
            if logistics_target(s, T, p, r):
                return D_LOGISTICS
    s.stage = ST_WIFI
    return D_NONE


@kernel
def decide_wifi(s, T, p: int) -> int:
    """Stage ST_WIFI: the WI-FI face office (owed for later when it has no target yet, O17)."""
    s.stage = ST_GAMEPAD
    if has(s, T, p, E_WIFI_SECOND):
        for r in range(T.region.shape[0]):
            if second_office_target(s, T, p, r):
                s.stage = ST_WIFI
                return D_WIFI
        s.stage = ST_GAMEPAD_WIFI_OWED  # no target yet: the GAMEPAD office may open one
    return D_NONE


@kernel
def decide_gamepad(s, T, p: int) -> int:
    """Stages ST_GAMEPAD / ST_GAMEPAD_WIFI_OWED: the GAMEPAD back office."""
    owed = s.stage == ST_GAMEPAD_WIFI_OWED
    s.stage = ST_WIFI_LATE if owed else ST_NFC
    if has(s, T, p, E_GAMEPAD_SMALL):
        for r in range(T.region.shape[0]):
            if gamepad_target(s, T, p, r):
                s.stage = ST_GAMEPAD_WIFI_OWED if owed else ST_GAMEPAD
                return D_GAMEPAD
    return D_NONE


@kernel
def decide_wifi_late(s, T, p: int) -> int:
    """Stage ST_WIFI_LATE: the owed WI-FI face office, if the GAMEPAD office opened a target."""
    s.stage = ST_NFC
    for r in range(T.region.shape[0]):
        if second_office_target(s, T, p, r):
            s.stage = ST_WIFI_LATE
            return D_WIFI
    return D_NONE


@kernel
def decide_nfc(s, T, p: int) -> int:
    """Stage ST_NFC: the NFC face direct sale."""
    s.stage = ST_END
    if has(s, T, p, E_NFC_DIRECT) and s.goods[p] > 0:
        s.stage = ST_NFC
        return D_NFC
    return D_NONE


@kernel
def decide_turn6(s, T, p: int, log) -> int:
    """Phase 6: a retailer bonus first, then the stages in order (each passes to the next)."""
    if s.rb_kind != BONUS_NONE:
        d = decide_bonus(s, T, p, log)
        if d != D_NONE:
            return d
    if s.stage == ST_LOGISTICS:
        d = decide_logistics(s, T, p)
        if d != D_NONE:
            return d
    if s.stage == ST_WIFI:
        d = decide_wifi(s, T, p)
        if d != D_NONE:
            return d
    if s.stage == ST_GAMEPAD or s.stage == ST_GAMEPAD_WIFI_OWED:
        d = decide_gamepad(s, T, p)
        if d != D_NONE:
            return d
    if s.stage == ST_WIFI_LATE:
        d = decide_wifi_late(s, T, p)
        if d != D_NONE:
            return d
    if s.stage == ST_NFC:
        return decide_nfc(s, T, p)
    return D_NONE


@kernel
def decide_sell(s, T, p: int) -> int:
    """Phase 7: sell while goods and a buyer are left (until the seat stops)."""
    if s.stage == 0 and s.goods[p] > 0 and any_sale(s, T, p):
        return D_SELL
    return D_NONE


@kernel
def decide(s, T, log) -> int:
    """The actor's next decision in this turn (D_NONE: the turn is over). Resolves forced steps."""
    p = s.actor
    ph = s.phase
    if ph == 1:
        return decide_plan(s, T, p)
    elif ph == 4:
        return decide_pick(s, T, p, log)
    elif ph == 5:
        return decide_research(s, T, p)
    elif ph == 6:
        return decide_turn6(s, T, p, log)
    elif ph == 7:
        return decide_sell(s, T, p)
    return D_NONE


@kernel
def advance(s, T, log) -> None:
    """Run the game forward to the next decision (or the end)."""
    while not s.over:
        d = decide(s, T, log)
        if d != D_NONE:
            s.pending = d
            return
        end_turn(s, T, log)
    s.pending = D_NONE


@kernel
def is_legal(s, T, a: int, scratch) -> bool:
    """Whether action ``a`` is legal now (scratch: an int64 buffer of N_ACTIONS)."""
    n = legal_actions(s, T, scratch)
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if scratch[mid] < a:
            lo = mid + 1
        else:
            hi = mid
    return lo < n and scratch[lo] == a


