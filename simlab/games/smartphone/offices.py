"""Logistics and offices (S37-S42, S58-S59): progress markers on regions, offices placed, moved and
removed, and the targets of the WI-FI, GAMEPAD and retailer office bonuses.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.smartphone.codes import (
    BONUS_GOODS,
    BONUS_NONE,
    BONUS_RESEARCH,
    OFF_MOVE,
    RG_SIZE,
)
from simlab.games.smartphone.events import (
    EV_BONUS,
    EV_GOODS,
    EV_OFFICE,
    emit,
)
from simlab.games.smartphone.tables import (
    OPT_ADJACENCY,
    OPT_GAMEPAD_ON_RETAILER,
    OPT_MOVE_ANY,
    SIZE_SMALL,
)
from simlab.games.smartphone.tablets import (
    add_goods,
    free_place,
    office_supply,
    progress_supply,
    region_cost,
)

# ---------------------------------------------------------------- logistics and offices (S37-S42, S58-S59)


@njit(cache=True, inline="always")
def logistics_target(s, T, p: int, r: int) -> bool:
    """Whether seat p may put a logistics marker on region r (S39-S41, O11, O13, O14)."""
    if s.own_offices[p, r] > 0 or not free_place(s, r):
        return False
    if s.reg_progress[p, r] >= region_cost(s, T, r):
        return False
    if office_supply(s, T, p) <= 0:
        return False
    if T.opts[OPT_ADJACENCY]:
        for q in range(T.region.shape[0]):
            if s.own_offices[p, q] > 0 and T.adjacency[q, r]:
                return True
        return False
    return True


@kernel
def put_office(s, T, p: int, r: int, source: int, log) -> None:
    """Put seat p's office on region r's leftmost free place; a retailer's bonus applies at once (S59)."""
    k = s.office_n[r]
    s.office[r, k] = p
    s.office_n[r] = k + 1
    s.own_offices[p, r] += 1
    if source != OFF_MOVE:
        s.offices_built[p] += 1
    emit(log, s, EV_OFFICE, p, r, k, source, 0, 0, 0, 0, 0)
    tile = s.retailer[r]
    if tile >= 0 and source != OFF_MOVE:
        side = s.retailer_side[r]
        bonus = T.retailer[tile, side, 3]
        amount = T.retailer[tile, side, 4]
        emit(log, s, EV_BONUS, p, r, bonus, amount, 0, 0, 0, 0, 0)
        if bonus == BONUS_GOODS:
            got = add_goods(s, T, p, amount)
            s.produced_total[p] += got
            emit(log, s, EV_GOODS, p, got, 1, 0, 0, 0, 0, 0, 0)
        elif bonus != BONUS_NONE:
            s.rb_kind = bonus
            s.rb_left = min(amount, progress_supply(s, T, p)) if bonus == BONUS_RESEARCH else 1


@kernel
def remove_office(s, p: int, r: int) -> int:
    """Take seat p's rightmost office off region r; the offices right of it shift left (MOVE_OFFICE).

    Returns the place it stood on."""
    k = s.office_n[r] - 1
    while k >= 0 and s.office[r, k] != p:
        k -= 1
    for j in range(k, s.office_n[r] - 1):
        s.office[r, j] = s.office[r, j + 1]
    s.office[r, s.office_n[r] - 1] = -1
    s.office_n[r] -= 1
    s.own_offices[p, r] -= 1
    return k


@njit(cache=True, inline="always")
def second_office_target(s, T, p: int, r: int) -> bool:
    """WI-FI face / SECOND_OFFICE: a region of yours (one office), not a retailer, with a free place (O17)."""
    return s.own_offices[p, r] == 1 and s.retailer[r] < 0 and free_place(s, r) and office_supply(s, T, p) > 0


@njit(cache=True, inline="always")
def gamepad_target(s, T, p: int, r: int) -> bool:
    """GAMEPAD back: a small region without your office, with a free place (O18: retailers by option)."""
    if T.region[r, RG_SIZE] != SIZE_SMALL or s.own_offices[p, r] > 0 or not free_place(s, r):
        return False
    if s.retailer[r] >= 0 and not T.opts[OPT_GAMEPAD_ON_RETAILER]:
        return False
    return office_supply(s, T, p) > 0


@njit(cache=True, inline="always")
def move_to_target(s, T, p: int, src: int, r: int) -> bool:
    """MOVE_OFFICE destination (O27)."""
    if r == src or not free_place(s, r):
        return False
    if T.opts[OPT_MOVE_ANY]:  # never a third office, never two on a retailer
        return s.own_offices[p, r] == 0 or (s.own_offices[p, r] == 1 and s.retailer[r] < 0)
    return s.own_offices[p, r] == 0


@kernel
def any_move(s, T, p: int) -> bool:
    nr = T.region.shape[0]
    for a in range(nr):
        if s.own_offices[p, a] > 0:
            for r in range(nr):
                if move_to_target(s, T, p, a, r):
                    return True
    return False


