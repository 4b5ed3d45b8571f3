"""Smartphone Inc.'s built-in compiled players.

Every player is a kind number and a float parameter vector (``P_*``); ``dispatch.choose_action``
dispatches on the kind. The heuristics read only what the seat may know: the board, the
public state and their own hand; never another seat's plan for the round (phase 1 is
simultaneous) nor the order of the upgrade deck.

* ``random``: uniform over the legal actions of every decision.
* ``greedy``: plans by the VP the round would earn with the current offices and buyers
  (goods sold x price), plus weighted research and logistics markers, an upgrade symbol and a
  cheap price; then lays each upgrade where it adds most (or keeps it unused for 1 goods).
  Research goes where a patent and buyers are nearest, logistics where buyers and control
  are worth most per marker, and sales where they win control.
* ``price_cutter``, ``tech_rusher``, ``expansionist``: greedy with weights that favour a low
  price, research and logistics respectively.
* ``ismcts``: the shared information-set MCTS (:mod:`simlab.core.search`) with this game's hooks
  (:mod:`simlab.games.smartphone.search_hooks`): every decision, greedy rollouts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.game import BuiltinPlayer
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below
from simlab.core.search import search_player
from simlab.games.smartphone.rules import (
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
    BONUS_GOODS,
    BONUS_MOVE,
    BONUS_PRICE,
    BONUS_RESEARCH,
    BONUS_SECOND,
    BOTH,
    BY_CAP,
    BY_KIND,
    BY_REGION,
    BY_TECH,
    E_4G_OUTSIDE,
    E_4G_OVERHANG,
    E_GPS_DOUBLE,
    E_LIION_GOODS,
    E_LIION_PRICE_UP,
    E_NFC_DIRECT,
    E_NFC_PLUS1,
    GOODS,
    LOGISTICS,
    MAX_SLOTS,
    PRICE_DOWN,
    PRICE_UP,
    RED,
    RESEARCH,
    RG_BUYERS,
    RG_FIRST_BUYER,
    SL_A,
    SL_B,
    SL_LEVEL,
    SL_OVERHANG,
    UNDER,
    UPGRADE,
    UPPER,
    active_effect,
    clamp_price,
    control_value,
    encode_place,
    hand_placed,
    has,
    nfc_range,
    place_upgrade,
    region_cost,
    research_need,
    set_arrangement,
    slot_taken,
    visible,
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
    N_ROUNDS,
    N_SYM,
    N_TECH,
    STREAM_SEAT0,
)
from simlab.games.smartphone.tables import OPT_PRICE_MAX, OPT_PRICE_MIN, OPT_START_PRICE

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it

KIND_RANDOM, KIND_GREEDY, KIND_PRICE_CUTTER, KIND_TECH_RUSHER, KIND_EXPANSIONIST = range(5)
KIND_ISMCTS = 6  # kind 5 was the flat Monte Carlo player 'mc', retired (issue 25)

# Parameter vector layout.
(P_RESEARCH, P_LOGISTICS, P_UPGRADE, P_CHEAP, P_SPARE, P_CONTROL) = range(6)
N_PARAMS = 8
PARAM_NAMES = ("research", "logistics", "upgrade", "cheap", "spare", "control")

GREEDY_DEFAULTS = {"research": 2.0, "logistics": 2.0, "upgrade": 3.0, "cheap": 0.5, "spare": 0.3, "control": 1.0}
PARAM_HELP = {
    "research": "VP a research marker is worth when planning",
    "logistics": "VP a logistics marker is worth when planning",
    "upgrade": "VP of an active upgrade symbol (rounds 1-4)",
    "cheap": "VP per price step below the start price (earlier priority)",
    "spare": "VP of a produced good that finds no buyer",
    "control": "weight of region-control VP in logistics and sales choices",
}

# Rough worth of each technology effect to its owner over the rest of a game (effect code order).
EFFECT_VALUE = np.array([5.0, 4.0, 4.0, 2.0, 4.0, 4.0, 3.0, 3.0, 4.0, 3.0, 2.0, 2.0])


def _player(name: str, kind: int, over: dict[str, float], description: str) -> BuiltinPlayer:
    params = dict(GREEDY_DEFAULTS)
    params.update(over)
    return BuiltinPlayer(name, kind, params, description, {k: PARAM_HELP[k] for k in params})


BUILTIN_PLAYERS = {
    "random": BuiltinPlayer("random", KIND_RANDOM, {}, "uniform over the legal actions of every decision"),
    "greedy": _player("greedy", KIND_GREEDY, {}, "plans for this round's VP (sales x price, weighted markers)"),
    "price_cutter": _player("price_cutter", KIND_PRICE_CUTTER, {"cheap": 3.0, "research": 1.5},
                            "greedy that prizes a low price: early priority, more red buyers"),
    "tech_rusher": _player("tech_rusher", KIND_TECH_RUSHER, {"research": 4.5, "logistics": 1.5},
                           "greedy that prizes research: patents and purple buyers"),
    "expansionist": _player("expansionist", KIND_EXPANSIONIST, {"logistics": 4.5, "research": 1.5, "control": 2.0},
                            "greedy that prizes logistics: offices, buyers and control"),
    "ismcts": search_player("ismcts", KIND_ISMCTS,
                            {"iterations": 100.0, "exploration": 0.5, "rollout_depth": -1.0, "prior_weight": 1.0,
                             "widening": 1.5, "expand_after": 1.0},
                            "information-set MCTS (the shared compiled search): determinised descents of one tree, "
                            "greedy rollouts, the greedy plan first"),
}
SCRATCH = 64


def param_vector(values: dict[str, float]) -> np.ndarray:
    """The float vector of named parameters (missing ones are 0)."""
    v = np.zeros(N_PARAMS)
    for k, x in values.items():
        v[PARAM_NAMES.index(k)] = x
    return v


# ---------------------------------------------------------------- shared evaluation


@kernel
def eligible_by_price(s, T, p: int, elig) -> None:
    """elig[v]: free buyers seat p could sell to at price v now (its offices, no competition)."""
    for v in range(elig.shape[0]):
        elig[v] = 0
    for b in range(T.buyers.shape[0]):
        if s.buyer_owner[b] >= 0:
            continue
        r = T.buyers[b, BY_REGION]
        if s.retailer[r] >= 0 or s.own_offices[p, r] == 0:
            continue
        if T.buyers[b, BY_KIND] == RED:
            cap = T.buyers[b, BY_CAP]
            for v in range(min(cap, elig.shape[0] - 1) + 1):
                elig[v] += 1
        elif s.researched[p, T.buyers[b, BY_TECH]]:
            for v in range(elig.shape[0]):
                elig[v] += 1
    if has(s, T, p, E_4G_OUTSIDE):
        for v in range(elig.shape[0]):
            elig[v] += 1
    if has(s, T, p, E_NFC_DIRECT):
        for v in range(elig.shape[0]):
            elig[v] += 3


# plan context: what plan_value needs about the seat, computed once per decision
(C_PRICE0, C_GPS, C_GOODS0, C_LIION_PU, C_LATE, C_PRICE_MIN, C_PRICE_MAX, C_ROUND5) = range(8)


@kernel
def plan_context(s, T, p: int, ctx) -> None:
    """Fill ``ctx`` (C_*) with seat p's planning constants."""
    price0 = T.opts[OPT_START_PRICE]
    if has(s, T, p, E_NFC_PLUS1):
        price0 += 1
    ctx[C_PRICE0] = price0
    ctx[C_GPS] = 1.0 if has(s, T, p, E_GPS_DOUBLE) else 0.0
    g = s.tokens[p] + s.goods[p]
    if has(s, T, p, E_LIION_GOODS):
        g += s.n_techs[p] // 2
    ctx[C_GOODS0] = g
    ctx[C_LIION_PU] = 1.0 if has(s, T, p, E_LIION_PRICE_UP) else 0.0
    ctx[C_LATE] = 0.6 if s.round >= N_ROUNDS else 1.0
    ctx[C_PRICE_MIN] = T.opts[OPT_PRICE_MIN]
    ctx[C_PRICE_MAX] = T.opts[OPT_PRICE_MAX]
    ctx[C_ROUND5] = 1.0 if s.round >= N_ROUNDS else 0.0


@njit(cache=True, inline="always")
def plan_value(ctx, prm, cnt, hidden: int, unused: int, elig) -> float:
    """Greedy's value of a plan showing active symbols ``cnt`` (see the module docstring)."""
    price = int(ctx[C_PRICE0]) - cnt[PRICE_DOWN] + cnt[PRICE_UP]
    if price < ctx[C_PRICE_MIN]:
        price = int(ctx[C_PRICE_MIN])
    if price > ctx[C_PRICE_MAX]:
        price = int(ctx[C_PRICE_MAX])
    goods = cnt[GOODS] * (1 + int(ctx[C_GPS])) + hidden + unused + int(ctx[C_GOODS0])
    sold = min(goods, elig[price])
    log_m = cnt[LOGISTICS] + cnt[PRICE_UP] * int(ctx[C_LIION_PU])
    v = sold * price + prm[P_SPARE] * (goods - sold)
    v += ctx[C_LATE] * (prm[P_RESEARCH] * cnt[RESEARCH] + prm[P_LOGISTICS] * log_m)
    if cnt[UPGRADE] > 0 and ctx[C_ROUND5] == 0.0:
        v += prm[P_UPGRADE]
    v += prm[P_CHEAP] * (ctx[C_PRICE0] - price)
    return v


@kernel
def best_arrangement(s, T, p: int, prm, elig) -> int:
    """The arrangement of highest plan value with no upgrade laid (the first of equals).

    One kernel for the one arrangement greedy wants: the top-k list it replaced (called with k = 1) kept its values
    in a heap array, which cost 4-6% of Smartphone's heuristic games once kernels stopped being compiled for their
    constant arguments (issue 24).
    """
    ctx = np.empty(8)
    plan_context(s, T, p, ctx)
    counts = T.arr_counts
    hid = T.arr_hidden
    unused = s.hand_n[p]
    best_a = -1
    best_v = 0.0
    for a in range(hid.shape[0]):
        v = plan_value(ctx, prm, counts[a], hid[a], unused, elig)
        if best_a < 0 or v > best_v:
            best_a = a
            best_v = v
    return best_a


@kernel
def symbol_margins(ctx, prm, cnt, hidden: int, unused: int, elig, base: float, gain, loss) -> None:
    """gain[k] / loss[k]: the plan value one more / one fewer active symbol k brings / costs.

    Both count giving up the unused upgrade's good (``unused - 1``); ``cnt`` is restored.
    """
    for k in range(N_SYM):
        cnt[k] += 1
        gain[k] = plan_value(ctx, prm, cnt, hidden, unused - 1, elig) - base
        cnt[k] -= 2
        loss[k] = base - plan_value(ctx, prm, cnt, hidden, unused - 1, elig) if cnt[k] >= 0 else 0.0
        cnt[k] += 1


@kernel
def open_slots(s, T, p: int, arr: int, slot_ok) -> None:
    """slot_ok[k]: slot k is free for an upgrade (S25, the 4G face overhang once)."""
    allow_over = has(s, T, p, E_4G_OVERHANG) and s.overhang_used[p] == 0
    for k in range(slot_ok.shape[0]):
        if T.slots[arr, k, SL_OVERHANG] == 1 and not allow_over:
            continue
        if slot_taken(s, T, p, arr, k):
            continue
        slot_ok[k] = True


@kernel
def best_placement(s, T, p: int, prm, elig) -> tuple[int, float]:
    """Greedy's next upgrade placement on the current plan (A_DONE when none adds value).

    Each candidate is scored with the marginal worth of the symbols it shows and covers (one
    plan evaluation per symbol, not per candidate), less the good an unused upgrade would give.
    """
    arr = s.plan_arr[p]
    ctx = np.empty(8)
    plan_context(s, T, p, ctx)
    cnt = np.empty(N_SYM, dtype=np.int64)
    for k in range(N_SYM):
        cnt[k] = s.vis_tab[p, k] + s.vis_upg[p, k]
    unused = s.hand_n[p] - s.plan_n[p]
    hidden = T.arr_hidden[arr]
    base = plan_value(ctx, prm, cnt, hidden, unused, elig)
    gain = np.empty(N_SYM)
    loss = np.empty(N_SYM)
    symbol_margins(ctx, prm, cnt, hidden, unused, elig, base, gain, loss)
    n_slots = T.n_slots[arr]
    slot_ok = np.zeros(n_slots, dtype=np.bool_)
    open_slots(s, T, p, arr, slot_ok)
    best = 1e-9
    best_a = A_DONE
    for h in range(s.hand_n[p]):
        if hand_placed(s, p, h):
            continue
        u = s.hand[p, h]
        sa = T.upgrades[u, 2]
        sb = T.upgrades[u, 3]
        for k in range(n_slots):
            if not slot_ok[k]:
                continue
            level = T.slots[arr, k, SL_LEVEL]
            pa = T.slots[arr, k, SL_A]
            pb = T.slots[arr, k, SL_B]
            ba, _ = visible(s, T, p, arr, pa)
            bb, _ = visible(s, T, p, arr, pb)
            show_a = True
            show_b = True
            if level == UNDER:
                la = T.arr_layers[arr, pa]
                lb = T.arr_layers[arr, pb]
                show_a = s.pl_top[p, pa] < 0 and la != UPPER and la != BOTH
                show_b = s.pl_top[p, pb] < 0 and lb != UPPER and lb != BOTH
            covered = 0.0
            if show_a and ba >= 0:
                covered += loss[ba]
            if show_b and bb >= 0:
                covered += loss[bb]
            for o in range(2):
                if o == 1 and sa == sb:
                    break
                x = sa if o == 0 else sb
                y = sb if o == 0 else sa
                v = -covered
                if show_a:
                    v += gain[x]
                if show_b:
                    v += gain[y]
                if v > best:
                    best = v
                    best_a = encode_place(h, k, o)
    return best_a, base + best


@kernel
def plan_with_upgrades(s, T, p: int, prm, arr: int, elig) -> float:
    """Lay arrangement ``arr`` and greedy's upgrades on seat p's plan (mutates it); returns the value."""
    set_arrangement(s, T, p, arr)
    v = 0.0
    while True:
        a, val = best_placement(s, T, p, prm, elig)
        if a == A_DONE:
            break
        x = a - A_PLACE
        o = x % 2
        x //= 2
        place_upgrade(s, T, p, x // MAX_SLOTS, x % MAX_SLOTS, o, np.zeros((1, 12), dtype=np.int32))
        v = val
    if s.plan_n[p] == 0:
        ctx = np.empty(8)
        plan_context(s, T, p, ctx)
        cnt = np.empty(N_SYM, dtype=np.int64)
        for k in range(N_SYM):
            cnt[k] = s.vis_tab[p, k] + s.vis_upg[p, k]
        v = plan_value(ctx, prm, cnt, T.arr_hidden[arr], s.hand_n[p], elig)
    return v


@kernel
def greedy_arrangement(s, T, p: int, prm, elig) -> int:
    """Greedy's arrangement: the best by plan value with no upgrades (upgrades follow)."""
    return best_arrangement(s, T, p, prm, elig)


@njit(cache=True, inline="always")
def tech_score(s, T, p: int, t: int, purple) -> float:
    """How much seat p wants technology t per marker still needed (``purple``: its buyers in p's regions)."""
    need = research_need(s, T, p, t)
    if need <= 0:
        return -1.0
    left = N_ROUNDS - s.round + 1
    v = EFFECT_VALUE[active_effect(s, T, t)] * left / N_ROUNDS
    if s.patent_owner[t] < 0:
        v += T.tech[t, 3]
    v += 1.5 * purple[t] * left / N_ROUNDS
    return v / need


@kernel
def purple_in_reach(s, T, p: int, purple) -> None:
    """purple[t]: purple buyers of technology t in regions where seat p has an office (no retailer)."""
    for t in range(N_TECH):
        purple[t] = 0
    for b in range(T.buyers.shape[0]):
        if T.buyers[b, BY_KIND] != RED:
            r = T.buyers[b, BY_REGION]
            if s.own_offices[p, r] > 0 and s.retailer[r] < 0:
                purple[T.buyers[b, BY_TECH]] += 1


@njit(cache=True, inline="always")
def region_score(s, T, p: int, r: int, prm) -> float:
    """How much seat p wants an office in region r (buyers it could serve, control, retailer VP and bonus)."""
    left = N_ROUNDS - s.round + 1
    tile = s.retailer[r]
    if tile >= 0:
        side = s.retailer_side[r]
        k = s.office_n[r]
        v = T.retailer_vp[tile, side, k]
        bonus = T.retailer[tile, side, 3]
        amount = T.retailer[tile, side, 4]
        if bonus == BONUS_GOODS:
            v += 2.0 * amount
        elif bonus == BONUS_RESEARCH:
            v += 1.5 * amount
        elif bonus == BONUS_PRICE:
            v += 1.0
        elif bonus == BONUS_SECOND:
            v += 2.0
        elif bonus == BONUS_MOVE:
            v += 1.0
        return v
    price = s.price[p] if s.price[p] > 0 else 5
    v = 0.0
    for k in range(T.region[r, RG_BUYERS]):
        b = T.region[r, RG_FIRST_BUYER] + k
        if T.buyers[b, BY_KIND] == RED:
            if T.buyers[b, BY_CAP] >= price:
                v += 1.0
        elif s.researched[p, T.buyers[b, BY_TECH]]:
            v += 1.0
        else:
            v += 0.3
    k = s.office_n[r]
    cv = T.place_vp[r, k] if k < T.place_vp.shape[1] else 0
    return (v * 0.8 + prm[P_CONTROL] * cv * 0.5) * left / N_ROUNDS


@njit(cache=True, inline="always")
def region_sell_value(s, T, p: int, r: int, prm) -> float:
    """Greedy's wish to put its next good in region r (where it has an office): win or hold control."""
    n = s.n_players
    mine = 0
    top = 0
    first = T.region[r, RG_FIRST_BUYER]
    nb = T.region[r, RG_BUYERS]
    for q in range(n):
        c = 0
        for k in range(nb):
            if s.buyer_owner[first + k] == q:
                c += 1
        if q == p:
            mine = c
        elif s.own_offices[q, r] > 0 and c > top:
            top = c
    vp = control_value(s, T, r)
    if mine + 1 > top and mine <= top:
        return prm[P_CONTROL] * vp
    if mine + 1 == top:
        return 0.3 * prm[P_CONTROL] * vp
    return 0.0


# ---------------------------------------------------------------- the players


@kernel
def greedy_arrange(s, T, p: int, prm) -> int:
    """D_ARRANGE: the best arrangement by plan value."""
    elig = np.zeros(16, dtype=np.int64)
    eligible_by_price(s, T, p, elig)
    return A_ARR + greedy_arrangement(s, T, p, prm, elig)


@kernel
def greedy_place(s, T, p: int, prm) -> int:
    """D_PLACE: the upgrade placement that adds most (A_DONE when none adds value)."""
    elig = np.zeros(16, dtype=np.int64)
    eligible_by_price(s, T, p, elig)
    a, _ = best_placement(s, T, p, prm, elig)
    return a


@kernel
def greedy_pick(s, T, p: int, prm) -> int:
    """D_PICK: the display upgrade whose two halves are worth most."""
    best = -1.0
    ba = -1
    for j in range(s.display.shape[0]):
        u = s.display[j]
        if u < 0:
            continue
        v = symbol_worth(prm, T.upgrades[u, 2]) + symbol_worth(prm, T.upgrades[u, 3])
        if v > best:
            best = v
            ba = A_PICK + j
    return ba


@kernel
def best_tech(s, T, p: int, base: int) -> int:
    """``base + t`` for the technology of best ``tech_score`` (A_DONE when none is needed)."""
    best = -1e9
    ba = A_DONE
    purple = np.zeros(N_TECH, dtype=np.int64)
    purple_in_reach(s, T, p, purple)
    for t in range(N_TECH):
        if research_need(s, T, p, t) > 0:
            v = tech_score(s, T, p, t, purple)
            if v > best:
                best = v
                ba = base + t
    return ba


@kernel
def greedy_research(s, T, p: int) -> int:
    """D_RESEARCH: the best technology, or stop."""
    return best_tech(s, T, p, A_RESEARCH)


@kernel
def greedy_rb_research(s, T, p: int, legal) -> int:
    """D_RB_RESEARCH: the best technology (the first legal one when none scores)."""
    ba = best_tech(s, T, p, A_RB_RESEARCH)
    if ba == A_DONE:
        return legal[0]
    return ba


@kernel
def greedy_logistics(s, T, p: int, prm, legal, n_legal: int) -> int:
    """D_LOGISTICS: the region worth most per marker still needed (progress counts), or stop."""
    best = -1e9
    ba = A_DONE
    for i in range(n_legal):
        a = legal[i]
        if a == A_DONE:
            continue
        r = a - A_LOGISTICS
        need = region_cost(s, T, r) - s.reg_progress[p, r]
        v = region_score(s, T, p, r, prm) / need + 0.5 * s.reg_progress[p, r]
        if v > best:
            best = v
            ba = a
    return ba


@kernel
def best_office(s, T, p: int, prm, legal, n_legal: int, base: int) -> int:
    """The legal office action ``base + r`` whose region scores best (D_WIFI, D_RB_SECOND, D_GAMEPAD, D_MOVE_TO)."""
    best = -1e9
    ba = legal[0]
    for i in range(n_legal):
        a = legal[i]
        v = region_score(s, T, p, a - base, prm)
        if v > best:
            best = v
            ba = a
    return ba


@kernel
def greedy_move_from(s, T, p: int, prm, legal, n_legal: int) -> int:
    """D_MOVE_FROM: the office worth least (never the start region's, while another may move)."""
    best = 1e9
    ba = legal[0]
    for i in range(n_legal):
        a = legal[i]
        r = a - A_MOVE_FROM
        v = region_score(s, T, p, r, prm) + (100.0 if r == s.start_region[p] else 0.0)
        if v < best:
            best = v
            ba = a
    return ba


@kernel
def greedy_nfc(s, T, p: int) -> int:
    """D_NFC: sell directly the goods the seat's buyers would not take (within the NFC range)."""
    elig = np.zeros(16, dtype=np.int64)
    eligible_by_price(s, T, p, elig)
    lo, hi = nfc_range(s, T, p)
    k = s.goods[p] - (elig[s.price[p]] - 3)
    if k < lo:
        k = lo
    if k > hi:
        k = hi
    return A_NFC + k


@kernel
def greedy_rb_price(s, T, p: int, prm) -> int:
    """D_RB_PRICE: raise when the sales it allows are worth more than a lower price."""
    elig = np.zeros(16, dtype=np.int64)
    eligible_by_price(s, T, p, elig)
    g = s.goods[p]
    down = clamp_price(T, s.price[p] - 1)
    up = clamp_price(T, s.price[p] + 1)
    vd = min(g, elig[down]) * down + prm[P_CHEAP]
    vu = min(g, elig[up]) * up
    return A_RB_PRICE + (1 if vu > vd else 0)


@kernel
def greedy_sell(s, T, p: int, prm) -> int:
    """D_SELL: the buyer in the region where a good wins or holds most control (A_DONE when none)."""
    best = -1e9
    ba = A_DONE
    outside = has(s, T, p, E_4G_OUTSIDE) and s.used_outside[p] == 0
    price = s.price[p]
    for r in range(T.region.shape[0]):
        if s.retailer[r] >= 0:
            continue
        own = s.own_offices[p, r] > 0
        if not own and not outside:
            continue
        rv = region_sell_value(s, T, p, r, prm) if own else -1.0
        first = T.region[r, RG_FIRST_BUYER]
        for k in range(T.region[r, RG_BUYERS]):
            b = first + k
            if s.buyer_owner[b] >= 0:
                continue
            if T.buyers[b, BY_KIND] == RED:
                if price > T.buyers[b, BY_CAP]:
                    continue
                v = rv - 0.01 * T.buyers[b, BY_CAP]
            else:
                if s.researched[p, T.buyers[b, BY_TECH]] == 0:
                    continue
                v = rv
            if v > best:
                best = v
                ba = A_SELL + b
    return ba


@kernel
def greedy_action(s, T, p: int, prm, legal, n_legal: int) -> int:
    """Greedy's action for the pending decision (``legal`` is filled for the decisions that need it)."""
    d = s.pending
    if d == D_ARRANGE:
        return greedy_arrange(s, T, p, prm)
    elif d == D_PLACE:
        return greedy_place(s, T, p, prm)
    elif d == D_PICK:
        return greedy_pick(s, T, p, prm)
    elif d == D_RESEARCH:
        return greedy_research(s, T, p)
    elif d == D_RB_RESEARCH:
        return greedy_rb_research(s, T, p, legal)
    elif d == D_LOGISTICS:
        return greedy_logistics(s, T, p, prm, legal, n_legal)
    elif d == D_WIFI:
        return best_office(s, T, p, prm, legal, n_legal, A_WIFI)
    elif d == D_RB_SECOND:
        return best_office(s, T, p, prm, legal, n_legal, A_RB_SECOND)
    elif d == D_GAMEPAD:
        return best_office(s, T, p, prm, legal, n_legal, A_GAMEPAD)
    elif d == D_MOVE_TO:
        return best_office(s, T, p, prm, legal, n_legal, A_MOVE_TO)
    elif d == D_MOVE_FROM:
        return greedy_move_from(s, T, p, prm, legal, n_legal)
    elif d == D_NFC:
        return greedy_nfc(s, T, p)
    elif d == D_RB_PRICE:
        return greedy_rb_price(s, T, p, prm)
    elif d == D_SELL:
        return greedy_sell(s, T, p, prm)
    return legal[0]


@njit(cache=True, inline="always")
def symbol_worth(prm, sym: int) -> float:
    """Greedy's worth of one upgrade half showing ``sym``."""
    if sym == GOODS:
        return 2.5
    if sym == RESEARCH:
        return prm[P_RESEARCH]
    if sym == LOGISTICS:
        return prm[P_LOGISTICS]
    if sym == PRICE_DOWN:
        return 0.5 + prm[P_CHEAP]
    if sym == PRICE_UP:
        return 1.0
    return 0.0


@kernel
def needs_legal(kind: int, d: int) -> bool:
    """Whether a player of this kind reads the legal list for decision d."""
    if kind == KIND_RANDOM:
        return True
    return d == D_LOGISTICS or d == D_WIFI or d == D_RB_SECOND or d == D_GAMEPAD or d == D_MOVE_TO \
        or d == D_MOVE_FROM or d == D_RB_RESEARCH


@kernel
def random_action(s, p: int, legal, n_legal: int) -> int:
    """Uniform over the legal actions, from the seat's own stream."""
    return legal[below(next_u64(s, STREAM_SEAT0 + p), n_legal)]
