"""Smartphone Inc.'s rules as compiled kernels over the state record (see ``state.py``).

Every kernel takes the state record ``s`` (``arr[0]``), the table record ``T`` (``tables[0]``, see ``tables.py``)
and, where events happen, an event log ``log``. Rule numbers S1... and open points O1... are
those of the research notes (``NOTES.md``); the rulebook is the authority.

A game is a sequence of decisions (``state.pending``, the ``D_*`` codes) taken by ``state.actor``;
everything between decisions (pricing, production, priority, income, set-up) runs inside
``advance``. Simultaneous planning (phase 1) is asked seat by seat; a seat never sees another
seat's plan for the round (observations hide it, compiled players do not read it).

Actions are integers (``A_*`` bases plus an argument), legal lists sorted ascending:

    A_DONE                       stop placing upgrades / markers / selling (where allowed)
    A_ARR + i                    lay the tablets as arrangement i (arrangements.py)
    A_PLACE + (h*MAX_SLOTS+k)*2+o  lay hand upgrade h on slot k, halves in order o (0: a on slot pos a)
    A_PICK + j                   take the upgrade in display position j (phase 4)
    A_RESEARCH + t               put one progress marker on technology t (phase 5)
    A_LOGISTICS + r              put one progress marker on region r (phase 6)
    A_WIFI + r / A_GAMEPAD + r   the free office of WI-FI face / GAMEPAD back
    A_NFC + n                    sell n goods directly (NFC face)
    A_SELL + b                   put one good on buyer b (phase 7)
    A_RB_RESEARCH + t            a retailer RESEARCH bonus marker on technology t
    A_RB_PRICE + d               the retailer PRICE bonus: d = 0 lower, 1 raise
    A_RB_SECOND + r              the retailer SECOND_OFFICE bonus office
    A_MOVE_FROM + r / A_MOVE_TO + r  the retailer MOVE_OFFICE bonus

The event log is an int32 array (capacity + 1, LOG_WIDTH); ``log[0, 0]`` counts events written
to rows 1.., ``log[0, 1]`` is set when events were dropped. A one-row log records nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.kernels import bind, rank_seats, shuffle
from simlab.core.rng import below, derive_key
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
    MAX_HAND,
    MAX_PLAYERS,
    N_ROUNDS,
    N_STREAMS,
    N_SYM,
    N_TECH,
    PAD_N,
    ST_END,
    ST_GAMEPAD,
    ST_LOGISTICS,
    ST_NFC,
    ST_WIFI,
    STREAM_PRIORITY,
    STREAM_SETUP,
)
from simlab.games.smartphone.tables import (
    OPT_ADJACENCY,
    OPT_COLOUR_RANDOM,
    OPT_COMPONENT_LIMITS,
    OPT_CONTROL_REQUIRES_OFFICE,
    OPT_CONTROL_TIE,
    OPT_DISPLAY,
    OPT_EMPTY_DISPLAY_TOKEN,
    OPT_GAMEPAD_ON_RETAILER,
    OPT_GOODS_MARKERS,
    OPT_LOG_PERSISTS,
    OPT_MAY_WITHHOLD,
    OPT_MOVE_ANY,
    OPT_NFC_MAX,
    OPT_NFC_MIN,
    OPT_OFFICE_MARKERS,
    OPT_PRICE_MAX,
    OPT_PRICE_MIN,
    OPT_PRIORITY_EACH_PHASE,
    OPT_PROGRESS_MARKERS,
    OPT_RET_4P_RANDOM,
    OPT_RET_SIDE,
    OPT_START_PRICE,
    OPT_SYMBOLS_INCLUDE_UPGRADES,
    OPT_TECH_LIST0,
    OPT_TECH_SIDES,
    OPT_TOKEN_SUPPLY,
    OPT_TOKENS_LIMITED,
    OPT_UPG_PER_SYMBOL,
    SIZE_SMALL,
)

next_u64 = bind(kernels.next_u64)  # the shared helpers, compiled here so numba inlines them
log_event = bind(kernels.log_event)

# Symbols (data.SYMBOLS order).
GOODS, PRICE_DOWN, PRICE_UP, UPGRADE, RESEARCH, LOGISTICS, BLANK = range(7)
# Layers (arrangements.py).
EMPTY, LOWER, UPPER, BOTH = 0, 1, 2, 3
# Slot columns and levels (upgrades.py).
SL_A, SL_B, SL_LEVEL, SL_OVERHANG, SL_FLEX = range(5)
TOP, UNDER = 0, 1
# Technologies (data.TECHNOLOGIES order) and effect codes (data.EFFECTS order).
GPS, WIFI, GAMEPAD, LIION, NFC, G4 = range(6)
(E_GPS_DOUBLE, E_GPS_GAIN5, E_WIFI_SECOND, E_WIFI_KEEP, E_GAMEPAD_DISCOUNT, E_GAMEPAD_SMALL, E_LIION_PRICE_UP,
 E_LIION_GOODS, E_NFC_DIRECT, E_NFC_PLUS1, E_4G_OVERHANG, E_4G_OUTSIDE) = range(12)
# Retailer bonuses (data.BONUSES order).
BONUS_NONE, BONUS_GOODS, BONUS_RESEARCH, BONUS_PRICE, BONUS_SECOND, BONUS_MOVE = range(6)
# Region array columns (data.region_array).
RG_SIZE, RG_SIZE_NUMBER, RG_START_COLOUR, RG_FIRST_PLACE, RG_PLACES, RG_FIRST_BUYER, RG_BUYERS = range(7)
# Buyer array columns.
BY_REGION, BY_POS, BY_KIND, BY_CAP, BY_TECH = range(5)
RED, PURPLE = 0, 1
# Placement rules (data.PLACEMENT_RULES order).
PL_REGION, PL_ALL_MEDIUM, PL_ONE_MEDIUM, PL_NONE = range(4)
SIZE_MEDIUM = 1
# Office sources (events).
OFF_LOGISTICS, OFF_WIFI, OFF_GAMEPAD, OFF_SECOND, OFF_MOVE = range(5)
# Phase-6 stages beyond state.ST_*: the GAMEPAD office while the WI-FI office is still owed (WI-FI face had
# no target yet), and the WI-FI office placed after it (the GAMEPAD office may open its only target, O17).
ST_GAMEPAD_WIFI_OWED = ST_END + 1
ST_WIFI_LATE = ST_END + 2

MAX_SLOTS = 32
A_DONE = 0
A_ARR = 1
A_PLACE = 1024
A_PICK = A_PLACE + MAX_HAND * MAX_SLOTS * 2
A_RESEARCH = A_PICK + 16
A_LOGISTICS = A_RESEARCH + 16
A_WIFI = A_LOGISTICS + 16
A_GAMEPAD = A_WIFI + 16
A_NFC = A_GAMEPAD + 16
A_SELL = A_NFC + 16
A_RB_RESEARCH = A_SELL + 128
A_RB_PRICE = A_RB_RESEARCH + 16
A_RB_SECOND = A_RB_PRICE + 16
A_MOVE_FROM = A_RB_SECOND + 16
A_MOVE_TO = A_MOVE_FROM + 16
A_END = A_MOVE_TO + 16
N_ACTIONS = 1200  # the most legal actions of one decision (upgrade placements) fit easily

# ---- events ----
LOG_WIDTH = 12  # kind, round, phase, seat, then 8 arguments
(EV_SEAT, EV_RETAILER, EV_TECH_SIDE, EV_ROUND, EV_PLAN, EV_PLACE, EV_PRICE, EV_PRODUCE, EV_ORDER, EV_PICK,
 EV_TOKEN, EV_RPROGRESS, EV_RESEARCHED, EV_LPROGRESS, EV_OFFICE, EV_BONUS, EV_PRICE_CHANGE, EV_NFC, EV_SALE,
 EV_LOST, EV_INCOME, EV_CONTROL, EV_GOODS, EV_MOVE, EV_FINAL, EV_MARKERS_LOST, EV_PLAN_SYMBOLS, EV_PRIORITY_KEY,
 EV_TURN_START, EV_TURN_END, EV_ALLOWANCE) = range(1, 32)
# Allowance kinds (EV_ALLOWANCE): what a phase-4/5/6 turn may place or take.
ALLOW_UPGRADES, ALLOW_RESEARCH, ALLOW_LOGISTICS = range(3)


@njit(cache=True)
def new_log(capacity: int) -> np.ndarray:
    """An event log with room for ``capacity`` events (0: record nothing)."""
    return kernels.new_log(capacity, LOG_WIDTH)


@njit(cache=True)
def emit(log, s, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0, e: int = 0, f: int = 0,
         g: int = 0, h: int = 0) -> None:
    """Append one event (dropped, with ``log[0, 1]`` set, when the log is full)."""
    if log.shape[0] <= 1:
        return
    n = log_event(log, kind)
    if n < 0:
        return
    row = log[n]
    row[1] = s.round
    row[2] = s.phase
    row[3] = seat
    row[4] = a
    row[5] = b
    row[6] = c
    row[7] = d
    row[8] = e
    row[9] = f
    row[10] = g
    row[11] = h


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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
         T.slots[arr, k, SL_OVERHANG])


# ---------------------------------------------------------------- set-up (S5-S10)


@njit(cache=True)
def reset_board(s, T) -> None:
    """Empty regions, buyers, patents and seats (start price, no plan, empty hand)."""
    for r in range(T.region.shape[0]):
        s.office_n[r] = 0
        s.retailer[r] = -1
        s.retailer_side[r] = 0
        s.places[r] = T.region[r, RG_PLACES]
        for k in range(s.office.shape[1]):
            s.office[r, k] = -1
    for b in range(s.buyer_owner.shape[0]):
        s.buyer_owner[b] = -1
    for t in range(N_TECH):
        s.patent_owner[t] = -1
    for p in range(MAX_PLAYERS):
        s.colour[p] = -1
        s.start_region[p] = -1
        s.plan_arr[p] = -1
        s.plan_n[p] = 0
        s.hand_n[p] = 0
        for h in range(MAX_HAND):
            s.hand[p, h] = -1
        s.price[p] = T.opts[OPT_START_PRICE]
        s.rank[p] = 0
        s.winner[p] = 0


@njit(cache=True)
def seat_players(s, T, cols, log) -> None:
    """Seat p takes colour ``cols[p]``: its start office and start upgrade (S6)."""
    for p in range(s.n_players):
        c = cols[p]
        s.colour[p] = c
        r = T.start[c, 0]
        s.start_region[p] = r
        s.office[r, 0] = p
        s.office_n[r] = 1
        s.own_offices[p, r] = 1
        s.hand[p, 0] = T.start[c, 1]
        s.hand_round[p, 0] = 0
        s.hand_n[p] = 1
        emit(log, s, EV_SEAT, p, c, r, T.start[c, 1])


@njit(cache=True)
def choose_tech_sides(s, T, log) -> None:
    """The technology side in play for each technology (S5 step 7, O15)."""
    mode = T.opts[OPT_TECH_SIDES]
    for t in range(N_TECH):
        if mode == 0:
            side = 0
        elif mode == 1:
            side = 1
        elif mode == 2:
            side = np.int64(below(next_u64(s, STREAM_SETUP), 2))
        else:
            side = T.opts[OPT_TECH_LIST0 + t]
        s.tech_side[t] = side
        emit(log, s, EV_TECH_SIDE, -1, t, side, T.tech_effect[t, side])


@njit(cache=True)
def build_deck(s, T) -> None:
    """The upgrade deck: the upgrades in play, shuffled (S5 step 8)."""
    n = 0
    for u in range(T.upgrades.shape[0]):
        if T.upgrades[u, 0] == 1:
            s.deck[n] = u
            n += 1
    shuffle(s, STREAM_SETUP, s.deck, n)
    s.deck_n = n


@njit(cache=True)
def setup(s, seed, n_players: int, T, log) -> None:
    """Set up a game from its 64-bit seed (S5-S10), then run to the first decision.

    ``s`` must be a freshly zeroed record (``np.zeros(1, STATE_DTYPE)[0]``). The set-up stream is
    drawn in this order: colours, retailers, technology sides, the upgrade deck.
    """
    s.seed = seed
    s.n_players = n_players
    for k in range(N_STREAMS):
        s.rng_key[k] = derive_key(np.uint64(seed), np.uint64(k))
        s.rng_ctr[k] = 0
    s.round = 1
    s.phase = 1
    s.over = 0
    s.n_steps = 0
    s.pending = D_NONE
    s.rb_kind = BONUS_NONE
    s.rb_left = 0
    s.move_from = -1
    s.tokens_left = T.opts[OPT_TOKEN_SUPPLY]
    n_colours = T.start.shape[0]
    cols = np.arange(n_colours)
    if T.opts[OPT_COLOUR_RANDOM]:
        shuffle(s, STREAM_SETUP, cols, n_colours)
    reset_board(s, T)
    seat_players(s, T, cols, log)
    place_retailers(s, T, log)
    choose_tech_sides(s, T, log)
    build_deck(s, T)
    start_round(s, T, log)
    advance(s, T, log)


@njit(cache=True)
def place_retailers(s, T, log) -> None:
    """Cover regions with retailers for this player count (S9, O22, O23)."""
    n = s.n_players
    nt = T.retailer.shape[0]
    nr = T.region.shape[0]
    tiles = np.arange(nt)
    shuffle(s, STREAM_SETUP, tiles, nt)
    used = np.zeros(nt, dtype=np.int8)
    for row in range(T.placement.shape[0]):
        if T.placement[row, 0] != n:
            continue
        rule = T.placement[row, 1]
        if rule == PL_REGION:
            cover_region(s, T, T.placement[row, 2], tiles, used, log)
        elif rule == PL_ALL_MEDIUM or rule == PL_ONE_MEDIUM:
            cands = np.empty(nr, dtype=np.int64)
            nc = 0
            for r in range(nr):
                if T.region[r, RG_SIZE] == SIZE_MEDIUM and s.office_n[r] == 0 and s.retailer[r] < 0:
                    cands[nc] = r
                    nc += 1
            if rule == PL_ALL_MEDIUM:
                for i in range(nc):
                    cover_region(s, T, cands[i], tiles, used, log)
            elif nc > 0:
                j = np.int64(below(next_u64(s, STREAM_SETUP), nc)) if T.opts[OPT_RET_4P_RANDOM] else 0
                cover_region(s, T, cands[j], tiles, used, log)


@njit(cache=True)
def cover_region(s, T, r: int, tiles, used, log) -> None:
    """Put the next unused shuffled retailer of region r's size on it (side by O23)."""
    for i in range(tiles.shape[0]):
        tile = tiles[i]
        if used[i] or T.retailer[tile, 0, 0] != T.region[r, RG_SIZE]:
            continue
        used[i] = 1
        mode = T.opts[OPT_RET_SIDE]
        side = np.int64(below(next_u64(s, STREAM_SETUP), 2)) if mode == 0 else mode - 1
        s.retailer[r] = tile
        s.retailer_side[r] = side
        s.places[r] = T.retailer[tile, side, 2]
        emit(log, s, EV_RETAILER, -1, r, tile, side)
        return


@njit(cache=True)
def start_round(s, T, log) -> None:
    """Lay out the upgrade display (S51) and open phase 1."""
    for j in range(s.display.shape[0]):
        s.display[j] = -1
    for j in range(T.opts[OPT_DISPLAY]):
        if s.deck_n > 0:
            s.deck_n -= 1
            s.display[j] = s.deck[s.deck_n]
    s.phase = 1
    emit(log, s, EV_ROUND, -1, s.display[0], s.display[1], s.display[2], s.display[3], s.display[4])
    for p in range(s.n_players):
        s.plan_arr[p] = -1
        s.plan_n[p] = 0
        s.used_outside[p] = 0
        s.order[p] = p
    s.turn = 0
    begin_turn(s, T, log)


# ---------------------------------------------------------------- priority (S19, O25)


@njit(cache=True)
def compute_order(s, T) -> np.ndarray:
    """Order the seats by price, VP, goods produced, technologies (more first), patents (more first), chance.

    Returns the tie-break draws (one uint64 per seat, the smaller first) for the trace.
    """
    n = s.n_players
    tie = np.empty(n, dtype=np.uint64)
    for p in range(n):
        tie[p] = next_u64(s, STREAM_PRIORITY)
    for p in range(n):
        s.order[p] = p
    for i in range(1, n):  # insertion sort on the lexicographic key
        j = i
        while j > 0 and before(s, s.order[j], s.order[j - 1], tie):
            t = s.order[j]
            s.order[j] = s.order[j - 1]
            s.order[j - 1] = t
            j -= 1
    return tie


@njit(cache=True)
def before(s, a: int, b: int, tie) -> bool:
    """Whether seat a comes before seat b in priority."""
    if s.price[a] != s.price[b]:
        return s.price[a] < s.price[b]
    if s.vp[a] != s.vp[b]:
        return s.vp[a] < s.vp[b]
    if s.produced[a] != s.produced[b]:
        return s.produced[a] < s.produced[b]
    if s.n_techs[a] != s.n_techs[b]:
        return s.n_techs[a] > s.n_techs[b]
    if s.n_patents[a] != s.n_patents[b]:
        return s.n_patents[a] > s.n_patents[b]
    return tie[a] < tie[b]


# ---------------------------------------------------------------- phase flow


@njit(cache=True)
def begin_turn(s, T, log) -> None:
    """Start the turn of ``order[turn]`` in the current phase."""
    p = s.order[s.turn]
    s.actor = p
    s.stage = 0
    s.markers = 0
    s.takes = 0
    ph = s.phase
    emit(log, s, EV_TURN_START, p, s.turn)
    if ph == 4:
        n_up = sym_count(s, T, p, UPGRADE)
        if n_up > 0:
            s.takes = n_up if T.opts[OPT_UPG_PER_SYMBOL] else 1
        emit(log, s, EV_ALLOWANCE, p, ALLOW_UPGRADES, s.takes, n_up)
        if n_up == 0:
            give_token(s, T, p, log)
    elif ph == 5:
        complete_research(s, T, p, log)
        s.markers = min(sym_count(s, T, p, RESEARCH), progress_supply(s, T, p))
        if log.shape[0] > 1:
            emit(log, s, EV_ALLOWANCE, p, ALLOW_RESEARCH, s.markers, sym_count(s, T, p, RESEARCH), 0,
                 progress_supply(s, T, p))
    elif ph == 6:
        m = sym_count(s, T, p, LOGISTICS)
        extra = 0
        if has(s, T, p, E_LIION_PRICE_UP):
            extra = sym_count_for_tech(s, T, p, PRICE_UP)
            m += extra
        s.markers = min(m, progress_supply(s, T, p))
        s.stage = ST_LOGISTICS
        if log.shape[0] > 1:
            emit(log, s, EV_ALLOWANCE, p, ALLOW_LOGISTICS, s.markers, m - extra, extra, progress_supply(s, T, p))


@njit(cache=True)
def give_token(s, T, p: int, log) -> None:
    """Phase 4 without an upgrade: one goods token (O6 supply)."""
    if T.opts[OPT_TOKENS_LIMITED]:
        if s.tokens_left <= 0:
            emit(log, s, EV_TOKEN, p, 0)
            return
        s.tokens_left -= 1
    s.tokens[p] += 1
    s.tokens_taken[p] += 1
    emit(log, s, EV_TOKEN, p, 1)


@njit(cache=True)
def end_turn(s, T, log) -> None:
    """Close the actor's turn (markers lost, unsold goods) and move to the next seat or phase."""
    p = s.actor
    ph = s.phase
    if ph == 1:
        emit_plan(s, T, p, log)
    elif ph == 5 and s.markers > 0:
        emit(log, s, EV_MARKERS_LOST, p, s.markers, 0)
    elif ph == 6:
        if s.markers > 0:
            emit(log, s, EV_MARKERS_LOST, p, s.markers, 1)
        if not T.opts[OPT_LOG_PERSISTS]:
            for r in range(T.region.shape[0]):
                s.reg_progress[p, r] = 0
    elif ph == 7:
        keep = has(s, T, p, E_WIFI_KEEP)
        emit(log, s, EV_LOST, p, s.goods[p], keep)
        if s.goods[p] > 0 and not keep:
            s.lost[p] += s.goods[p]
            s.goods[p] = 0
    emit(log, s, EV_TURN_END, p, s.goods[p], s.vp[p], s.price[p])
    s.markers = 0
    s.pending = D_NONE
    s.turn += 1
    if s.turn < s.n_players:
        begin_turn(s, T, log)
        return
    next_phase(s, T, log)


@njit(cache=True)
def next_phase(s, T, log) -> None:
    """Run the phases that need no decision and open the next phase that does."""
    ph = s.phase
    if ph == 1:
        pricing(s, T, log)
        production(s, T, log)
        open_priority_phase(s, T, 4, log)
    elif ph < 7:
        open_priority_phase(s, T, ph + 1, log)
    else:
        income(s, T, log)
        if s.round >= N_ROUNDS:
            final_scoring(s, T, log)
            return
        prepare_next_round(s, T)
        start_round(s, T, log)


@njit(cache=True)
def prepare_next_round(s, T) -> None:
    """S51: goods on the board go back to the organisers, every price marker back to the start value (5),
    the round marker advances (``start_round`` lays out the new display)."""
    s.round += 1
    for b in range(s.buyer_owner.shape[0]):
        s.buyer_owner[b] = -1
    for p in range(s.n_players):
        s.price[p] = T.opts[OPT_START_PRICE]


@njit(cache=True)
def open_priority_phase(s, T, ph: int, log) -> None:
    s.phase = ph
    if ph == 4 or T.opts[OPT_PRIORITY_EACH_PHASE]:
        tie = compute_order(s, T)
        if log.shape[0] > 1:
            emit_priority_keys(s, tie, log)
    if ph == 4:
        s.first_count[s.order[0]] += 1
    emit(log, s, EV_ORDER, -1, s.order[0], s.order[1], s.order[2], s.order[3], s.order[4], s.n_players)
    s.turn = 0
    begin_turn(s, T, log)


@njit(cache=True)
def emit_priority_keys(s, tie, log) -> None:
    """Log each seat's priority key: the tie-break draw as two signed 32-bit halves, then price, VP, goods
    produced, technologies, patents."""
    for p in range(s.n_players):
        hi = np.int64(tie[p] >> np.uint64(32))
        lo = np.int64(tie[p] & np.uint64(0xFFFFFFFF))
        if hi >= 2147483648:
            hi -= 4294967296
        if lo >= 2147483648:
            lo -= 4294967296
        emit(log, s, EV_PRIORITY_KEY, p, hi, lo, s.price[p], s.vp[p], s.produced[p], s.n_techs[p], s.n_patents[p])


@njit(cache=True)
def pricing(s, T, log) -> None:
    """Phase 2 (S15): 5, -1 per active -$, +1 per active +$, +1 with NFC back; clamped (O8)."""
    s.phase = 2
    for p in range(s.n_players):
        v = T.opts[OPT_START_PRICE] - sym_count(s, T, p, PRICE_DOWN) + sym_count(s, T, p, PRICE_UP)
        if has(s, T, p, E_NFC_PLUS1):
            v += 1
        set_price(s, T, p, v)
        s.price_sum[p] += s.price[p]
        emit(log, s, EV_PRICE, p, s.price[p])


@njit(cache=True)
def production(s, T, log) -> None:
    """Phase 3 (S17): goods symbols (x2 GPS face), hidden cells, unused upgrades, tokens, LI-ION back."""
    s.phase = 3
    for p in range(s.n_players):
        arr = s.plan_arr[p]
        sym = sym_count(s, T, p, GOODS)
        if has(s, T, p, E_GPS_DOUBLE):
            sym += sym_count_for_tech(s, T, p, GOODS)
        hidden = T.arr_hidden[arr]
        unused = s.hand_n[p] - s.plan_n[p]
        tech = s.n_techs[p] // 2 if has(s, T, p, E_LIION_GOODS) else 0
        total = sym + hidden + unused + s.tokens[p] + tech
        got = add_goods(s, T, p, total)
        s.produced[p] = got
        s.produced_total[p] += got
        emit(log, s, EV_PRODUCE, p, got, sym, hidden, unused, s.tokens[p], tech, s.goods[p])


@njit(cache=True)
def income(s, T, log) -> None:
    """Phase 8 (S48-S50): goods on buyers x price, then region control."""
    s.phase = 8
    n = s.n_players
    nr = T.region.shape[0]
    on_board = np.zeros(n, dtype=np.int64)
    for b in range(T.buyers.shape[0]):
        q = s.buyer_owner[b]
        if q >= 0:
            on_board[q] += 1
    for p in range(n):
        v = on_board[p] * s.price[p]
        s.vp[p] += v
        s.sales_vp[p] += v
        s.round_vp[p, s.round - 1] += v
        emit(log, s, EV_INCOME, p, on_board[p], s.price[p], v)
    counts = np.zeros(n, dtype=np.int64)
    for r in range(nr):
        if s.office_n[r] == 0:
            continue
        for p in range(n):
            counts[p] = 0
        for k in range(T.region[r, RG_BUYERS]):
            q = s.buyer_owner[T.region[r, RG_FIRST_BUYER] + k]
            if q >= 0:
                counts[q] += 1
        best = 0
        n_best = 0
        for p in range(n):
            if T.opts[OPT_CONTROL_REQUIRES_OFFICE] and s.own_offices[p, r] == 0:
                counts[p] = 0
            if counts[p] > best:
                best = counts[p]
                n_best = 1
            elif counts[p] == best and best > 0:
                n_best += 1
        if best == 0:
            continue
        vp = control_value(s, T, r)
        tie = T.opts[OPT_CONTROL_TIE]
        if n_best > 1 and tie == 0:
            emit(log, s, EV_CONTROL, -1, r, 0, best, n_best)
            continue
        if n_best > 1 and tie == 1:  # the tied player whose office is further left
            for k in range(s.office_n[r]):
                q = s.office[r, k]
                if counts[q] == best:
                    award_control(s, q, r, vp, best, n_best, log)
                    break
            continue
        for p in range(n):
            if counts[p] == best:
                award_control(s, p, r, vp, best, n_best, log)


@njit(cache=True, inline="always")
def control_value(s, T, r: int) -> int:
    """VP above the rightmost occupied office place of region r (S50)."""
    k = s.office_n[r] - 1
    if s.retailer[r] >= 0:
        return 0  # a covered region has no sales, so no goods to control with
    return T.place_vp[r, k]


@njit(cache=True)
def award_control(s, p: int, r: int, vp: int, goods: int, n_tied: int, log) -> None:
    """Seat p controls region r (S50): ``vp`` to its track; ``n_tied`` seats had the most goods (1: a sole
    winner; more when an O9 option awards a tie)."""
    s.vp[p] += vp
    s.control_vp[p] += vp
    s.controls[p] += 1
    s.round_vp[p, s.round - 1] += vp
    emit(log, s, EV_CONTROL, p, r, vp, goods, n_tied)


@njit(cache=True)
def final_scoring(s, T, log) -> None:
    """S52-S53: patents, retailer offices; most VP, then technologies, then patents; ties share the win."""
    n = s.n_players
    for t in range(N_TECH):
        q = s.patent_owner[t]
        if q >= 0:
            s.patent_vp[q] += T.tech[t, 3]
    for r in range(T.region.shape[0]):
        tile = s.retailer[r]
        if tile < 0:
            continue
        for k in range(s.office_n[r]):
            q = s.office[r, k]
            s.retailer_vp[q] += T.retailer_vp[tile, s.retailer_side[r], k]
    for p in range(n):
        s.total[p] = s.vp[p] + s.patent_vp[p] + s.retailer_vp[p]
    keys = np.empty((n, 3), dtype=np.int64)  # most VP, then technologies, then patents
    for p in range(n):
        keys[p, 0] = s.total[p]
        keys[p, 1] = s.n_techs[p]
        keys[p, 2] = s.n_patents[p]
    rank_seats(keys, n, s.rank, s.winner)
    for p in range(n):
        emit(log, s, EV_FINAL, p, s.total[p], s.vp[p], s.patent_vp[p], s.retailer_vp[p], s.rank[p], s.winner[p])
    s.over = 1
    s.pending = D_NONE
    s.phase = 8


# ---------------------------------------------------------------- research (S29-S36)


@njit(cache=True)
def complete_research(s, T, p: int, log) -> None:
    """Research every technology whose progress reached seat p's cost (own turn only, S35)."""
    again = True
    while again:
        again = False
        for t in range(N_TECH):
            if s.researched[p, t] == 0 and s.progress[p, t] > 0 and s.progress[p, t] >= tech_cost(s, T, p, t):
                if office_supply(s, T, p) <= 0:
                    continue
                research(s, T, p, t, log)
                again = True  # GAMEPAD face may make another one cheaper


@njit(cache=True)
def research(s, T, p: int, t: int, log) -> None:
    """Seat p researches t: markers back (O13 surplus too), office beside it, patent if first, effect now."""
    s.progress[p, t] = 0
    s.researched[p, t] = 1
    s.n_techs[p] += 1
    patent = 0
    if s.patent_owner[t] < 0:
        s.patent_owner[t] = p
        s.n_patents[p] += 1
        patent = 1
    e = active_effect(s, T, t)
    emit(log, s, EV_RESEARCHED, p, t, patent, e)
    if e == E_GPS_GAIN5:
        got = add_goods(s, T, p, 5)
        s.produced_total[p] += got
        emit(log, s, EV_GOODS, p, got, 0)
    elif e == E_NFC_PLUS1:
        before = s.price[p]
        set_price(s, T, p, before + 1)
        emit(log, s, EV_PRICE_CHANGE, p, s.price[p], 0, 1, before)


@njit(cache=True, inline="always")
def research_need(s, T, p: int, t: int) -> int:
    """Markers seat p may still put on t (O13: never past the cost)."""
    if s.researched[p, t]:
        return 0
    need = tech_cost(s, T, p, t) - s.progress[p, t]
    return need if need > 0 else 0


@njit(cache=True)
def add_research(s, T, p: int, t: int, complete_now: bool, source: int, log) -> None:
    s.progress[p, t] += 1
    emit(log, s, EV_RPROGRESS, p, t, s.progress[p, t], tech_cost(s, T, p, t), source)
    if complete_now and s.progress[p, t] >= tech_cost(s, T, p, t) and office_supply(s, T, p) > 0:
        research(s, T, p, t, log)
        complete_research(s, T, p, log)


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


@njit(cache=True)
def put_office(s, T, p: int, r: int, source: int, log) -> None:
    """Put seat p's office on region r's leftmost free place; a retailer's bonus applies at once (S59)."""
    k = s.office_n[r]
    s.office[r, k] = p
    s.office_n[r] = k + 1
    s.own_offices[p, r] += 1
    if source != OFF_MOVE:
        s.offices_built[p] += 1
    emit(log, s, EV_OFFICE, p, r, k, source)
    tile = s.retailer[r]
    if tile >= 0 and source != OFF_MOVE:
        side = s.retailer_side[r]
        bonus = T.retailer[tile, side, 3]
        amount = T.retailer[tile, side, 4]
        emit(log, s, EV_BONUS, p, r, bonus, amount)
        if bonus == BONUS_GOODS:
            got = add_goods(s, T, p, amount)
            s.produced_total[p] += got
            emit(log, s, EV_GOODS, p, got, 1)
        elif bonus != BONUS_NONE:
            s.rb_kind = bonus
            s.rb_left = min(amount, progress_supply(s, T, p)) if bonus == BONUS_RESEARCH else 1


@njit(cache=True)
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


@njit(cache=True)
def any_move(s, T, p: int) -> bool:
    nr = T.region.shape[0]
    for a in range(nr):
        if s.own_offices[p, a] > 0:
            for r in range(nr):
                if move_to_target(s, T, p, a, r):
                    return True
    return False


# ---------------------------------------------------------------- sales (S43-S47)


@njit(cache=True, inline="always")
def can_sell(s, T, p: int, b: int) -> bool:
    """Whether seat p may put a good on buyer b now (S43-S45, 4G back)."""
    if s.buyer_owner[b] >= 0:
        return False
    r = T.buyers[b, BY_REGION]
    if s.retailer[r] >= 0:
        return False
    if s.own_offices[p, r] == 0 and (s.used_outside[p] or not has(s, T, p, E_4G_OUTSIDE)):
        return False
    if T.buyers[b, BY_KIND] == RED:
        return s.price[p] <= T.buyers[b, BY_CAP]
    return s.researched[p, T.buyers[b, BY_TECH]] == 1


@njit(cache=True)
def any_sale(s, T, p: int) -> bool:
    """Whether seat p can put a good on any buyer now (region by region, like ``can_sell``)."""
    outside = s.used_outside[p] == 0 and has(s, T, p, E_4G_OUTSIDE)
    for r in range(T.region.shape[0]):
        if s.retailer[r] >= 0 or (s.own_offices[p, r] == 0 and not outside):
            continue
        first = T.region[r, RG_FIRST_BUYER]
        for k in range(T.region[r, RG_BUYERS]):
            b = first + k
            if s.buyer_owner[b] >= 0:
                continue
            if T.buyers[b, BY_KIND] == RED:
                if s.price[p] <= T.buyers[b, BY_CAP]:
                    return True
            elif s.researched[p, T.buyers[b, BY_TECH]] == 1:
                return True
    return False


# ---------------------------------------------------------------- decisions: legal actions (one kernel per decision)


@njit(cache=True)
def legal_arrange(s, T, p: int, out) -> int:
    """D_ARRANGE: every arrangement."""
    n = 0
    for i in range(T.arr_hidden.shape[0]):
        out[n] = A_ARR + i
        n += 1
    return n


@njit(cache=True)
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


@njit(cache=True)
def legal_pick(s, T, p: int, out) -> int:
    """D_PICK: any upgrade on display."""
    n = 0
    for j in range(s.display.shape[0]):
        if s.display[j] >= 0:
            out[n] = A_PICK + j
            n += 1
    return n


@njit(cache=True)
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


@njit(cache=True)
def legal_rb_research(s, T, p: int, out) -> int:
    """D_RB_RESEARCH: a retailer RESEARCH marker on a technology still needed."""
    n = 0
    for t in range(N_TECH):
        if research_need(s, T, p, t) > 0:
            out[n] = A_RB_RESEARCH + t
            n += 1
    return n


@njit(cache=True)
def legal_logistics(s, T, p: int, out) -> int:
    """D_LOGISTICS: stop, or a marker on a logistics target."""
    out[0] = A_DONE
    n = 1
    for r in range(T.region.shape[0]):
        if logistics_target(s, T, p, r):
            out[n] = A_LOGISTICS + r
            n += 1
    return n


@njit(cache=True)
def legal_second_office(s, T, p: int, base: int, out) -> int:
    """D_WIFI / D_RB_SECOND: a second-office target (actions ``base + r``)."""
    n = 0
    for r in range(T.region.shape[0]):
        if second_office_target(s, T, p, r):
            out[n] = base + r
            n += 1
    return n


@njit(cache=True)
def legal_gamepad(s, T, p: int, out) -> int:
    """D_GAMEPAD: a GAMEPAD back target."""
    n = 0
    for r in range(T.region.shape[0]):
        if gamepad_target(s, T, p, r):
            out[n] = A_GAMEPAD + r
            n += 1
    return n


@njit(cache=True)
def legal_nfc(s, T, p: int, out) -> int:
    """D_NFC: how many goods to sell directly."""
    lo, hi = nfc_range(s, T, p)
    n = 0
    for k in range(lo, hi + 1):
        out[n] = A_NFC + k
        n += 1
    return n


@njit(cache=True)
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


@njit(cache=True)
def legal_rb_price(s, T, p: int, out) -> int:
    """D_RB_PRICE: lower or raise."""
    out[0] = A_RB_PRICE
    out[1] = A_RB_PRICE + 1
    return 2


@njit(cache=True)
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


@njit(cache=True)
def legal_move_to(s, T, p: int, out) -> int:
    """D_MOVE_TO: a destination for the office taken from ``s.move_from``."""
    n = 0
    for r in range(T.region.shape[0]):
        if move_to_target(s, T, p, s.move_from, r):
            out[n] = A_MOVE_TO + r
            n += 1
    return n


@njit(cache=True)
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


# ---------------------------------------------------------------- decisions: the next one (one kernel per phase/stage)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def decide_research(s, T, p: int) -> int:
    """Phase 5: place research markers while some are left and a technology is still needed."""
    if s.markers > 0:
        for t in range(N_TECH):
            if research_need(s, T, p, t) > 0:
                return D_RESEARCH
    return D_NONE


@njit(cache=True)
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
            emit(log, s, EV_MARKERS_LOST, p, s.rb_left, 2)
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


@njit(cache=True)
def decide_logistics(s, T, p: int) -> int:
    """Stage ST_LOGISTICS: place logistics markers while some are left and a target exists."""
    if s.markers > 0:
        for r in range(T.region.shape[0]):
            if logistics_target(s, T, p, r):
                return D_LOGISTICS
    s.stage = ST_WIFI
    return D_NONE


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def decide_wifi_late(s, T, p: int) -> int:
    """Stage ST_WIFI_LATE: the owed WI-FI face office, if the GAMEPAD office opened a target."""
    s.stage = ST_NFC
    for r in range(T.region.shape[0]):
        if second_office_target(s, T, p, r):
            s.stage = ST_WIFI_LATE
            return D_WIFI
    return D_NONE


@njit(cache=True)
def decide_nfc(s, T, p: int) -> int:
    """Stage ST_NFC: the NFC face direct sale."""
    s.stage = ST_END
    if has(s, T, p, E_NFC_DIRECT) and s.goods[p] > 0:
        s.stage = ST_NFC
        return D_NFC
    return D_NONE


@njit(cache=True)
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


@njit(cache=True)
def decide_sell(s, T, p: int) -> int:
    """Phase 7: sell while goods and a buyer are left (until the seat stops)."""
    if s.stage == 0 and s.goods[p] > 0 and any_sale(s, T, p):
        return D_SELL
    return D_NONE


@njit(cache=True)
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


@njit(cache=True)
def advance(s, T, log) -> None:
    """Run the game forward to the next decision (or the end)."""
    while not s.over:
        d = decide(s, T, log)
        if d != D_NONE:
            s.pending = d
            return
        end_turn(s, T, log)
    s.pending = D_NONE


@njit(cache=True)
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


# ---------------------------------------------------------------- decisions: applying an action (one per decision)


@njit(cache=True)
def apply_arrange(s, T, p: int, a: int, log) -> None:
    """D_ARRANGE: lay the tablets."""
    set_arrangement(s, T, p, a - A_ARR)


@njit(cache=True)
def apply_place(s, T, p: int, a: int, log) -> None:
    """D_PLACE: lay an upgrade, or stop placing."""
    if a == A_DONE:
        s.stage = 1
    else:
        x = a - A_PLACE
        o = x % 2
        x //= 2
        place_upgrade(s, T, p, x // MAX_SLOTS, x % MAX_SLOTS, o, log)


@njit(cache=True)
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
    emit(log, s, EV_PICK, p, u, j)


@njit(cache=True)
def apply_research(s, T, p: int, a: int, log) -> None:
    """D_RESEARCH: a research marker, or stop (the markers left are lost)."""
    if a == A_DONE:
        emit(log, s, EV_MARKERS_LOST, p, s.markers, 0)
        s.markers = 0
    else:
        s.markers -= 1
        add_research(s, T, p, a - A_RESEARCH, True, 0, log)


@njit(cache=True)
def apply_rb_research(s, T, p: int, a: int, log) -> None:
    """D_RB_RESEARCH: a retailer RESEARCH marker."""
    s.rb_left -= 1
    add_research(s, T, p, a - A_RB_RESEARCH, False, 1, log)


@njit(cache=True)
def apply_logistics(s, T, p: int, a: int, log) -> None:
    """D_LOGISTICS: a logistics marker (an office when the region's cost is reached), or stop."""
    if a == A_DONE:
        emit(log, s, EV_MARKERS_LOST, p, s.markers, 1)
        s.markers = 0
    else:
        r = a - A_LOGISTICS
        s.markers -= 1
        s.reg_progress[p, r] += 1
        cost = region_cost(s, T, r)
        emit(log, s, EV_LPROGRESS, p, r, s.reg_progress[p, r], cost)
        if s.reg_progress[p, r] >= cost:
            s.reg_progress[p, r] = 0
            put_office(s, T, p, r, OFF_LOGISTICS, log)


@njit(cache=True)
def apply_wifi(s, T, p: int, a: int, log) -> None:
    """D_WIFI: the WI-FI face office (in its stage or late, after the GAMEPAD office)."""
    s.stage = ST_GAMEPAD if s.stage == ST_WIFI else ST_NFC
    put_office(s, T, p, a - A_WIFI, OFF_WIFI, log)


@njit(cache=True)
def apply_gamepad(s, T, p: int, a: int, log) -> None:
    """D_GAMEPAD: the GAMEPAD back office (then the owed WI-FI office, if any)."""
    s.stage = ST_WIFI_LATE if s.stage == ST_GAMEPAD_WIFI_OWED else ST_NFC
    put_office(s, T, p, a - A_GAMEPAD, OFF_GAMEPAD, log)


@njit(cache=True)
def apply_rb_second(s, T, p: int, a: int, log) -> None:
    """D_RB_SECOND: the retailer SECOND_OFFICE office."""
    s.rb_kind = BONUS_NONE
    put_office(s, T, p, a - A_RB_SECOND, OFF_SECOND, log)


@njit(cache=True)
def apply_rb_price(s, T, p: int, a: int, log) -> None:
    """D_RB_PRICE: lower or raise the price by one."""
    s.rb_kind = BONUS_NONE
    before = s.price[p]
    delta = 1 if a - A_RB_PRICE == 1 else -1
    set_price(s, T, p, before + delta)
    emit(log, s, EV_PRICE_CHANGE, p, s.price[p], 1, delta, before)


@njit(cache=True)
def apply_move_from(s, T, p: int, a: int, log) -> None:
    """D_MOVE_FROM: the office to move."""
    s.move_from = a - A_MOVE_FROM


@njit(cache=True)
def apply_move_to(s, T, p: int, a: int, log) -> None:
    """D_MOVE_TO: move the office (the move is logged before the office it makes)."""
    r = a - A_MOVE_TO
    src = s.move_from
    k = remove_office(s, p, src)
    emit(log, s, EV_MOVE, p, src, r, k)
    put_office(s, T, p, r, OFF_MOVE, log)
    s.move_from = -1
    s.rb_kind = BONUS_NONE


@njit(cache=True)
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
    emit(log, s, EV_NFC, p, k, v, s.price[p])


@njit(cache=True)
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
        emit(log, s, EV_SALE, p, b, r, outside)


@njit(cache=True)
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


@njit(cache=True)
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


# ---------------------------------------------------------------- Python entry points


@njit(cache=True)
def py_setup(state, seed, n_players: int, tables, log, legal) -> int:
    """Set up ``state[0]`` with ``tables[0]``; writes the first legal actions, returns how many."""
    s = state[0]
    T = tables[0]
    setup(s, np.uint64(seed), n_players, T, log)
    return legal_actions(s, T, legal)


@njit(cache=True)
def py_step(state, action: int, tables, log, legal) -> int:
    """Apply ``action`` to ``state[0]``; writes the next legal actions, returns how many."""
    s = state[0]
    T = tables[0]
    apply_action(s, T, action, log)
    if s.over:
        return 0
    return legal_actions(s, T, legal)
