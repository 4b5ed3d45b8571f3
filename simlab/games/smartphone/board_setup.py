"""Set-up (S5-S10): board reset, seating, technology sides, the deck, retailers and the regions' cover.
"""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind, shuffle
from simlab.core.rng import below
from simlab.games.smartphone.codes import (
    PL_ALL_MEDIUM,
    PL_ONE_MEDIUM,
    PL_REGION,
    RG_PLACES,
    RG_SIZE,
    SIZE_MEDIUM,
)
from simlab.games.smartphone.events import (
    EV_RETAILER,
    EV_SEAT,
    EV_TECH_SIDE,
    emit,
)
from simlab.games.smartphone.state import (
    MAX_HAND,
    MAX_PLAYERS,
    N_TECH,
    STREAM_SETUP,
)
from simlab.games.smartphone.tables import (
    OPT_RET_4P_RANDOM,
    OPT_RET_SIDE,
    OPT_START_PRICE,
    OPT_TECH_LIST0,
    OPT_TECH_SIDES,
)

next_u64 = bind(kernels.next_u64)  # the shared helpers, compiled here so numba inlines them
log_event = bind(kernels.log_event)


# ---------------------------------------------------------------- set-up (S5-S10)


@kernel
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


@kernel
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
        emit(log, s, EV_SEAT, p, c, r, T.start[c, 1], 0, 0, 0, 0, 0)


@kernel
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
        emit(log, s, EV_TECH_SIDE, -1, t, side, T.tech_effect[t, side], 0, 0, 0, 0, 0)


@kernel
def build_deck(s, T) -> None:
    """The upgrade deck: the upgrades in play, shuffled (S5 step 8)."""
    n = 0
    for u in range(T.upgrades.shape[0]):
        if T.upgrades[u, 0] == 1:
            s.deck[n] = u
            n += 1
    shuffle(s, STREAM_SETUP, s.deck, n)
    s.deck_n = n




@kernel
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


@kernel
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
        emit(log, s, EV_RETAILER, -1, r, tile, side, 0, 0, 0, 0, 0)
        return




