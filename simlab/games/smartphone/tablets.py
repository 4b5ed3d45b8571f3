"""A company's tablets and board reads: prices, symbols counted on the tablets (and upgrades), technology
and region costs, supplies, what a plan shows (S28), laying upgrades on slots and logging a finished plan.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.smartphone.codes import (
    A_PLACE,
    BLANK,
    BOTH,
    E_4G_OVERHANG,
    E_GAMEPAD_DISCOUNT,
    GOODS,
    LOGISTICS,
    LOWER,
    MAX_SLOTS,
    PRICE_DOWN,
    PRICE_UP,
    RESEARCH,
    RG_PLACES,
    SL_A,
    SL_B,
    SL_LEVEL,
    SL_OVERHANG,
    TOP,
    UPGRADE,
    UPPER,
)
from simlab.games.smartphone.events import (
    EV_PLACE,
    EV_PLAN,
    EV_PLAN_SYMBOLS,
    emit,
)
from simlab.games.smartphone.state import (
    N_SYM,
    N_TECH,
    PAD_N,
)
from simlab.games.smartphone.tables import (
    OPT_COMPONENT_LIMITS,
    OPT_GOODS_MARKERS,
    OPT_OFFICE_MARKERS,
    OPT_PRICE_MAX,
    OPT_PRICE_MIN,
    OPT_PROGRESS_MARKERS,
    OPT_SYMBOLS_INCLUDE_UPGRADES,
)

# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def clamp_price(T, v: int) -> int:
    lo = T.opts[OPT_PRICE_MIN]
    hi = T.opts[OPT_PRICE_MAX]
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


@njit(cache=True, inline="always")
def active_effect(s, T, t: int) -> int:
    """Effect code of technology t's side in play."""
    return T.tech_effect[t, s.tech_side[t]]


@njit(cache=True, inline="always")
def has(s, T, p: int, effect: int) -> bool:
    """Whether seat p has researched the technology whose side in play carries ``effect``."""
    t = T.effect_tech[effect]
    return s.researched[p, t] == 1 and T.tech_effect[t, s.tech_side[t]] == effect


@njit(cache=True, inline="always")
def sym_count(s, T, p: int, sym: int) -> int:
    """Active symbols ``sym`` on seat p's tablets and visible upgrade halves."""
    return s.vis_tab[p, sym] + s.vis_upg[p, sym]


@njit(cache=True, inline="always")
def sym_count_for_tech(s, T, p: int, sym: int) -> int:
    """Active symbols ``sym`` that technology effects count (O26: upgrade halves too, by default)."""
    if T.opts[OPT_SYMBOLS_INCLUDE_UPGRADES]:
        return s.vis_tab[p, sym] + s.vis_upg[p, sym]
    return s.vis_tab[p, sym]


@njit(cache=True, inline="always")
def tech_cost(s, T, p: int, t: int) -> int:
    """Seat p's current cost of technology t (S33: patent premium while on it, GAMEPAD face discount)."""
    cost = T.tech[t, 2] if s.patent_owner[t] < 0 else T.tech[t, 1]
    if has(s, T, p, E_GAMEPAD_DISCOUNT):
        cost -= 1
    if cost < 1:
        cost = 1
    return cost


@njit(cache=True, inline="always")
def region_cost(s, T, r: int) -> int:
    """Entry cost of region r: that of its leftmost free place (O21: a retailer uses the region's cost)."""
    k = s.office_n[r]
    n_own = T.region[r, RG_PLACES]
    if k >= n_own:
        k = n_own - 1
    return T.place_cost[r, k]


@njit(cache=True, inline="always")
def free_place(s, r: int) -> bool:
    return s.office_n[r] < s.places[r]


@njit(cache=True, inline="always")
def progress_supply(s, T, p: int) -> int:
    """Progress markers seat p has left (O7; a large number without component limits)."""
    if not T.opts[OPT_COMPONENT_LIMITS]:
        return 1000
    used = 0
    for t in range(N_TECH):
        used += s.progress[p, t]
    for r in range(T.region.shape[0]):
        used += s.reg_progress[p, r]
    return T.opts[OPT_PROGRESS_MARKERS] - used


@njit(cache=True, inline="always")
def office_supply(s, T, p: int) -> int:
    """Office markers seat p has left (O7; a large number without component limits)."""
    if not T.opts[OPT_COMPONENT_LIMITS]:
        return 1000
    used = s.n_techs[p]
    for r in range(T.region.shape[0]):
        used += s.own_offices[p, r]
    return T.opts[OPT_OFFICE_MARKERS] - used


@kernel
def add_goods(s, T, p: int, n: int) -> int:
    """Give seat p ``n`` produced goods (capped by its goods markers with component limits); returns the gain."""
    if T.opts[OPT_COMPONENT_LIMITS]:
        room = T.opts[OPT_GOODS_MARKERS] - s.goods[p]
        if n > room:
            n = room
        if n < 0:
            n = 0
    s.goods[p] += n
    return n


@kernel
def set_price(s, T, p: int, v: int) -> None:
    s.price[p] = clamp_price(T, v)


# ---------------------------------------------------------------- planning visibility (S28)


@njit(cache=True, inline="always")
def visible(s, T, p: int, arr: int, pos: int) -> tuple[int, int]:
    """(symbol, source) shown at a padded position: source 0 tablet, 1 upgrade; symbol -1 if none."""
    top = s.pl_top[p, pos]
    if top >= 0:
        return top, 1
    lay = T.arr_layers[arr, pos]
    if lay == UPPER or lay == BOTH:
        return T.arr_grid[arr, pos], 0
    low = s.pl_low[p, pos]
    if low >= 0:
        return low, 1
    if lay == LOWER:
        return T.arr_grid[arr, pos], 0
    return -1, 0


@njit(cache=True, inline="always")
def lay_half(s, T, p: int, arr: int, pos: int, level: int, sym: int) -> None:
    """Lay one upgrade half on a position at a level, updating the active symbol counts."""
    b_sym, b_src = visible(s, T, p, arr, pos)
    if level == TOP:
        s.pl_top[p, pos] = sym
    else:
        s.pl_low[p, pos] = sym
    a_sym, a_src = visible(s, T, p, arr, pos)
    if b_sym != a_sym or b_src != a_src:
        if b_sym >= 0:
            if b_src == 0:
                s.vis_tab[p, b_sym] -= 1
            else:
                s.vis_upg[p, b_sym] -= 1
        if a_sym >= 0:
            if a_src == 0:
                s.vis_tab[p, a_sym] += 1
            else:
                s.vis_upg[p, a_sym] += 1


@kernel
def set_arrangement(s, T, p: int, arr: int) -> None:
    """Lay seat p's tablets as arrangement ``arr`` (no upgrades yet)."""
    s.plan_arr[p] = arr
    s.plan_n[p] = 0
    s.overhang_used[p] = 0
    for x in range(PAD_N):
        s.pl_low[p, x] = -1
        s.pl_top[p, x] = -1
    for k in range(N_SYM):
        s.vis_tab[p, k] = T.arr_counts[arr, k]
        s.vis_upg[p, k] = 0


@njit(cache=True, inline="always")
def hand_placed(s, p: int, h: int) -> bool:
    for i in range(s.plan_n[p]):
        if s.plan_hand[p, i] == h:
            return True
    return False


@njit(cache=True, inline="always")
def slot_taken(s, T, p: int, arr: int, k: int) -> bool:
    """S25: another placed upgrade already lies on exactly these two positions."""
    a = T.slots[arr, k, SL_A]
    b = T.slots[arr, k, SL_B]
    for i in range(s.plan_n[p]):
        k2 = s.plan_slot[p, i]
        if T.slots[arr, k2, SL_A] == a and T.slots[arr, k2, SL_B] == b:
            return True
    return False


@njit(cache=True, inline="always")
def encode_place(h: int, k: int, o: int) -> int:
    return A_PLACE + (h * MAX_SLOTS + k) * 2 + o


@njit(cache=True, inline="always")
def place_legal(s, T, p: int, h: int, k: int, o: int) -> bool:
    """Whether hand upgrade h may go on slot k with half order o (S23, S25, 4G face overhang)."""
    arr = s.plan_arr[p]
    if h < 0 or h >= s.hand_n[p] or k < 0 or k >= T.n_slots[arr] or o < 0 or o > 1:
        return False
    if hand_placed(s, p, h):
        return False
    u = s.hand[p, h]
    if o == 1 and T.upgrades[u, 2] == T.upgrades[u, 3]:
        return False
    if T.slots[arr, k, SL_OVERHANG] == 1:
        if s.overhang_used[p] or not has(s, T, p, E_4G_OVERHANG):
            return False
    return not slot_taken(s, T, p, arr, k)


@kernel
def place_upgrade(s, T, p: int, h: int, k: int, o: int, log) -> None:
    """Lay hand upgrade h on slot k (on top of its level, S28)."""
    arr = s.plan_arr[p]
    u = s.hand[p, h]
    sa = T.upgrades[u, 2 + o]
    sb = T.upgrades[u, 3 - o]
    level = T.slots[arr, k, SL_LEVEL]
    lay_half(s, T, p, arr, T.slots[arr, k, SL_A], level, sa)
    lay_half(s, T, p, arr, T.slots[arr, k, SL_B], level, sb)
    if T.slots[arr, k, SL_OVERHANG] == 1:
        s.overhang_used[p] = 1
    i = s.plan_n[p]
    s.plan_hand[p, i] = h
    s.plan_slot[p, i] = k
    s.plan_orient[p, i] = o
    s.plan_n[p] = i + 1
    emit(log, s, EV_PLACE, p, u, k, o, T.slots[arr, k, SL_A], T.slots[arr, k, SL_B], level,
         T.slots[arr, k, SL_OVERHANG], 0)




@kernel
def emit_plan(s, T, p: int, log) -> None:
    """Log a finished plan: arrangement, upgrades placed, hidden cells and active symbols."""
    arr = s.plan_arr[p]
    if log.shape[0] <= 1:
        return
    emit(log, s, EV_PLAN, p, arr, s.plan_n[p], T.arr_hidden[arr], sym_count(s, T, p, GOODS),
         sym_count(s, T, p, PRICE_DOWN), sym_count(s, T, p, PRICE_UP), sym_count(s, T, p, UPGRADE),
         sym_count(s, T, p, RESEARCH) * 100 + sym_count(s, T, p, LOGISTICS))
    emit(log, s, EV_PLAN_SYMBOLS, p, 0, s.vis_tab[p, GOODS], s.vis_tab[p, PRICE_DOWN], s.vis_tab[p, PRICE_UP],
         s.vis_tab[p, UPGRADE], s.vis_tab[p, RESEARCH], s.vis_tab[p, LOGISTICS], s.vis_tab[p, BLANK])
    emit(log, s, EV_PLAN_SYMBOLS, p, 1, s.vis_upg[p, GOODS], s.vis_upg[p, PRICE_DOWN], s.vis_upg[p, PRICE_UP],
         s.vis_upg[p, UPGRADE], s.vis_upg[p, RESEARCH], s.vis_upg[p, LOGISTICS], s.vis_upg[p, BLANK])
