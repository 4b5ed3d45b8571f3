"""A round's flow: priority order (S19, O25), turns and phases, pricing, production, income, region
control and final scoring.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind, rank_seats
from simlab.games.smartphone.codes import (
    E_GPS_DOUBLE,
    E_LIION_GOODS,
    E_LIION_PRICE_UP,
    E_NFC_PLUS1,
    E_WIFI_KEEP,
    GOODS,
    LOGISTICS,
    PRICE_DOWN,
    PRICE_UP,
    RESEARCH,
    RG_BUYERS,
    RG_FIRST_BUYER,
    UPGRADE,
)
from simlab.games.smartphone.events import (
    ALLOW_LOGISTICS,
    ALLOW_RESEARCH,
    ALLOW_UPGRADES,
    EV_ALLOWANCE,
    EV_CONTROL,
    EV_FINAL,
    EV_INCOME,
    EV_LOST,
    EV_MARKERS_LOST,
    EV_ORDER,
    EV_PRICE,
    EV_PRIORITY_KEY,
    EV_PRODUCE,
    EV_ROUND,
    EV_TOKEN,
    EV_TURN_END,
    EV_TURN_START,
    emit,
)
from simlab.games.smartphone.research import (
    complete_research,
)
from simlab.games.smartphone.state import (
    D_NONE,
    N_ROUNDS,
    N_TECH,
    ST_LOGISTICS,
    STREAM_PRIORITY,
)
from simlab.games.smartphone.tables import (
    OPT_CONTROL_REQUIRES_OFFICE,
    OPT_CONTROL_TIE,
    OPT_DISPLAY,
    OPT_LOG_PERSISTS,
    OPT_PRIORITY_EACH_PHASE,
    OPT_START_PRICE,
    OPT_TOKENS_LIMITED,
    OPT_UPG_PER_SYMBOL,
)
from simlab.games.smartphone.tablets import (
    add_goods,
    emit_plan,
    has,
    progress_supply,
    set_price,
    sym_count,
    sym_count_for_tech,
)

next_u64 = bind(kernels.next_u64)  # the shared helpers, compiled here so numba inlines them
log_event = bind(kernels.log_event)


# ---------------------------------------------------------------- priority (S19, O25)


@kernel
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


@kernel
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


@kernel
def begin_turn(s, T, log) -> None:
    """Start the turn of ``order[turn]`` in the current phase."""
    p = s.order[s.turn]
    s.actor = p
    s.stage = 0
    s.markers = 0
    s.takes = 0
    ph = s.phase
    emit(log, s, EV_TURN_START, p, s.turn, 0, 0, 0, 0, 0, 0, 0)
    if ph == 4:
        n_up = sym_count(s, T, p, UPGRADE)
        if n_up > 0:
            s.takes = n_up if T.opts[OPT_UPG_PER_SYMBOL] else 1
        emit(log, s, EV_ALLOWANCE, p, ALLOW_UPGRADES, s.takes, n_up, 0, 0, 0, 0, 0)
        if n_up == 0:
            give_token(s, T, p, log)
    elif ph == 5:
        complete_research(s, T, p, log)
        s.markers = min(sym_count(s, T, p, RESEARCH), progress_supply(s, T, p))
        if log.shape[0] > 1:
            emit(log, s, EV_ALLOWANCE, p, ALLOW_RESEARCH, s.markers, sym_count(s, T, p, RESEARCH), 0,
                 progress_supply(s, T, p), 0, 0, 0)
    elif ph == 6:
        m = sym_count(s, T, p, LOGISTICS)
        extra = 0
        if has(s, T, p, E_LIION_PRICE_UP):
            extra = sym_count_for_tech(s, T, p, PRICE_UP)
            m += extra
        s.markers = min(m, progress_supply(s, T, p))
        s.stage = ST_LOGISTICS
        if log.shape[0] > 1:
            emit(log, s, EV_ALLOWANCE, p, ALLOW_LOGISTICS, s.markers, m - extra, extra, progress_supply(s, T, p),
                 0, 0, 0)


@kernel
def give_token(s, T, p: int, log) -> None:
    """Phase 4 without an upgrade: one goods token (O6 supply)."""
    if T.opts[OPT_TOKENS_LIMITED]:
        if s.tokens_left <= 0:
            emit(log, s, EV_TOKEN, p, 0, 0, 0, 0, 0, 0, 0, 0)
            return
        s.tokens_left -= 1
    s.tokens[p] += 1
    s.tokens_taken[p] += 1
    emit(log, s, EV_TOKEN, p, 1, 0, 0, 0, 0, 0, 0, 0)


@kernel
def end_turn(s, T, log) -> None:
    """Close the actor's turn (markers lost, unsold goods) and move to the next seat or phase."""
    p = s.actor
    ph = s.phase
    if ph == 1:
        emit_plan(s, T, p, log)
    elif ph == 5 and s.markers > 0:
        emit(log, s, EV_MARKERS_LOST, p, s.markers, 0, 0, 0, 0, 0, 0, 0)
    elif ph == 6:
        if s.markers > 0:
            emit(log, s, EV_MARKERS_LOST, p, s.markers, 1, 0, 0, 0, 0, 0, 0)
        if not T.opts[OPT_LOG_PERSISTS]:
            for r in range(T.region.shape[0]):
                s.reg_progress[p, r] = 0
    elif ph == 7:
        keep = has(s, T, p, E_WIFI_KEEP)
        emit(log, s, EV_LOST, p, s.goods[p], keep, 0, 0, 0, 0, 0, 0)
        if s.goods[p] > 0 and not keep:
            s.lost[p] += s.goods[p]
            s.goods[p] = 0
    emit(log, s, EV_TURN_END, p, s.goods[p], s.vp[p], s.price[p], 0, 0, 0, 0, 0)
    s.markers = 0
    s.pending = D_NONE
    s.turn += 1
    if s.turn < s.n_players:
        begin_turn(s, T, log)
        return
    next_phase(s, T, log)


@kernel
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


@kernel
def prepare_next_round(s, T) -> None:
    """S51: goods on the board go back to the organisers, every price marker back to the start value (5),
    the round marker advances (``start_round`` lays out the new display)."""
    s.round += 1
    for b in range(s.buyer_owner.shape[0]):
        s.buyer_owner[b] = -1
    for p in range(s.n_players):
        s.price[p] = T.opts[OPT_START_PRICE]


@kernel
def open_priority_phase(s, T, ph: int, log) -> None:
    s.phase = ph
    if ph == 4 or T.opts[OPT_PRIORITY_EACH_PHASE]:
        tie = compute_order(s, T)
        if log.shape[0] > 1:
            emit_priority_keys(s, tie, log)
    if ph == 4:
        s.first_count[s.order[0]] += 1
    emit(log, s, EV_ORDER, -1, s.order[0], s.order[1], s.order[2], s.order[3], s.order[4], s.n_players, 0, 0)
    s.turn = 0
    begin_turn(s, T, log)


@kernel
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
        emit(log, s, EV_PRIORITY_KEY, p, hi, lo, s.price[p], s.vp[p], s.produced[p], s.n_techs[p], s.n_patents[p], 0)


@kernel
def pricing(s, T, log) -> None:
    """Phase 2 (S15): 5, -1 per active -$, +1 per active +$, +1 with NFC back; clamped (O8)."""
    s.phase = 2
    for p in range(s.n_players):
        v = T.opts[OPT_START_PRICE] - sym_count(s, T, p, PRICE_DOWN) + sym_count(s, T, p, PRICE_UP)
        if has(s, T, p, E_NFC_PLUS1):
            v += 1
        set_price(s, T, p, v)
        s.price_sum[p] += s.price[p]
        emit(log, s, EV_PRICE, p, s.price[p], 0, 0, 0, 0, 0, 0, 0)


@kernel
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
        emit(log, s, EV_PRODUCE, p, got, sym, hidden, unused, s.tokens[p], tech, s.goods[p], 0)


@kernel
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
        emit(log, s, EV_INCOME, p, on_board[p], s.price[p], v, 0, 0, 0, 0, 0)
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
            emit(log, s, EV_CONTROL, -1, r, 0, best, n_best, 0, 0, 0, 0)
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


@kernel
def award_control(s, p: int, r: int, vp: int, goods: int, n_tied: int, log) -> None:
    """Seat p controls region r (S50): ``vp`` to its track; ``n_tied`` seats had the most goods (1: a sole
    winner; more when an O9 option awards a tie)."""
    s.vp[p] += vp
    s.control_vp[p] += vp
    s.controls[p] += 1
    s.round_vp[p, s.round - 1] += vp
    emit(log, s, EV_CONTROL, p, r, vp, goods, n_tied, 0, 0, 0, 0)


@kernel
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
        emit(log, s, EV_FINAL, p, s.total[p], s.vp[p], s.patent_vp[p], s.retailer_vp[p], s.rank[p], s.winner[p], 0, 0)
    s.over = 1
    s.pending = D_NONE
    s.phase = 8




@kernel
def start_round(s, T, log) -> None:
    """Lay out the upgrade display (S51) and open phase 1."""
    for j in range(s.display.shape[0]):
        s.display[j] = -1
    for j in range(T.opts[OPT_DISPLAY]):
        if s.deck_n > 0:
            s.deck_n -= 1
            s.display[j] = s.deck[s.deck_n]
    s.phase = 1
    emit(log, s, EV_ROUND, -1, s.display[0], s.display[1], s.display[2], s.display[3], s.display[4], 0, 0, 0)
    for p in range(s.n_players):
        s.plan_arr[p] = -1
        s.plan_n[p] = 0
        s.used_outside[p] = 0
        s.order[p] = p
    s.turn = 0
    begin_turn(s, T, log)
