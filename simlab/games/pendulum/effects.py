"""Pendulum's economy: costs, rewards, caps, VP tracks and glory, pending decisions, stratagems,
achievements and provinces (NOTES I.4, I.7, I.10.3, I.11, II.15-II.17, V.1), as kernels.

**Amounts.** An effect ``e`` (``t.eff[e, alt]``, one row per ``|`` alternative) is a vector of the token
grammar (tables ``EF_*``). Resources are capped per colour at ``res_cap`` = ``OPT_RES_CAP`` (10) minus the
glory cubes of that colour (military <-> power, culture <-> prestige, gold <-> popularity: the same index);
whatever a gain would put above the cap is lost (counted in ``s.st_lost``). Votes have no cap. Nothing ever
goes below 0.

**Tracks** (``add_vp``) run 0..``OPT_TRACK_LAST``. A VP past the end is lost for a basic seat; a seat playing
the advanced variant (``s.advanced[p]``) gets one PD_GLORY decision per such VP (A_YES: one cube of the
track's colour from the seat's bank becomes a glory cube, lowering that resource's cap; A_NO: the VP is lost).
A_YES needs a cube in the bank (held + glory < OPT_RES_CAP), else the VP is lost without asking. VP costs
(Warmonger and Pacifist recruits) come off the tracks and never touch glory.

**Costs** (``can_pay`` / ``pay``): the fixed amounts of alt 0, ``times`` times, then the wild part from any
cubes left (never votes). A wild split that admits one way only (all cubes must go, or one colour holds
cubes) is paid at once; otherwise ``pay`` pushes PD_WILD_PAY (one A_RES per cube) and returns 1.
``pay_gain`` is "pay, then gain": when the wild part waits for decisions, the gain waits too (the
PD_WILD_PAY entry's ``arg`` = follow-up ``e * 4 + alt + 1``), so a reward never pays its own cost.

**Gains** (``gain``): resources (capped), votes, VP per track (``add_vp``), ``vp:any`` (PD_VP_ANY, one A_TRACK
per VP), legendary, production (``prod``: for each mat slot in the mask, the character's mat yield
``t.ch[char, CH_PROD0 + m]`` plus the edge ``t.prov[card, m]`` of every province tucked under that slot; one
EV_PRODUCTION row per slot), conquer (PD_CONQUER), retrieve (PD_RETRIEVE), recruit (at once through
``workers.recruit`` while allowed), wild (PD_WILD_GAIN, one A_RES per cube; fully forced splits are taken at
once) and the specials (``tables.SP_*``):

    max3                  s.max3 = 1
    pickup_stratagems     every discarded stratagem back to hand, free (council card 7; EV_PICKUP)
    swap_vp               PD_SWAP_VP: 1 VP from one track to another (A_SWAPVP)
    free_action           arms s.free_action (the next green/purple worker action costs no gold)
    double_action         arms s.double_action;  adjacent_action arms s.adjacent_action (workers.take_action)
    claim_achievement_twice  s.claim_twice = 1: one more claim this round (consumed by that claim)
    claim_achievement     Pacifist: claim the current achievement with its requirement waived (the card's cost
                          stands for it); the per-round claim limit still applies. PD_ALT with arg ALT_CLAIM:
                          A_RES + 0 the legendary (when allowed), A_RES + 1 the ribbon reward
    exchange_military_culture  Warmonger (II.17, opts[OPT_WARMONGER_CONVERT]): 0 = swap the two amounts held
                          (each capped); 1 = convert any number 1:1: PD_ALT with arg ALT_EXCHANGE, one A_RES per
                          cube (A_RES + R_MILITARY: a culture cube becomes military, A_RES + R_CULTURE the other
                          way), the first choice fixes the direction, A_NO stops
    place_on_timed_row    PD_TIMED_PLACE: A_WORKER (a free worker), then A_SPACE (workers.timed_place)
    return_one_stratagem  PD_RETURN_STRAT: a discarded stratagem back to hand (A_RETURN; never the card played)
    grande                PD_GRANDE_SWAP: the common to swap for the second grande (workers.grande_swap)

An effect with several alternatives gained with ``alt = -1`` pushes PD_ALT (arg = the effect; A_RES + alt).

**Pending decisions** (a stack, ``s.pend_*``; the top is ``n_pend - 1``; one seat ``s.pend_seat``):
``push_pending`` (records ``s.resume_phase = s.phase`` when the stack was empty and the phase is not
PH_PENDING; the phase itself is the caller's business), ``pending_legal`` (A_NO alone when the top has no
option: it is then forfeited), ``pending_apply`` and ``pending_settle``. ``pending_settle`` resolves what
needs no decision: a top with no option is dropped (a conquer with no province left, a retrieve with no
worker...), a top with exactly one option is applied, forced wild splits are paid or gained. Every public
mutator of this module that is a whole player action (``pending_apply``, ``play_strat``, ``pickup``, ``claim``)
settles before it returns; ``gain`` and ``pay`` do not (they are called from inside other
modules' actions), so the rules driver calls ``pending_settle`` before it offers a PH_PENDING decision.
Every decision logs EV_CHOICE (pending kind, the action, units left, arg, automatic or not, the value before
and after, lost). The worker decisions are the workers module's: PD_RETRIEVE (``workers.retrieve_legal_workers``
/ ``retrieve_worker``), PD_GRANDE_SWAP (``grande_swap_legal_workers`` / ``grande_swap``), PD_TIMED_PLACE
(``timed_place_worker_codes`` then ``timed_place_legal`` / ``timed_place``; arg -1 until the worker is chosen,
then the worker; solo, a worker chosen in a bottom box is lifted at once and the Automa acts before the space is
chosen, arg = worker + ``workers.TP_LIFTED``, NOTES I.12.4.1 and II.8) and PD_ADJACENT (A_NO, then
``adjacent_legal`` / ``adjacent_apply``, which also resolves its double-frame choice entries).

**Stratagems** (``strat_legal`` / ``play_strat``): a card in hand (``s.strat[p, i] == 1``) whose cost can be
paid and whose effect can act now: retrieve needs a retrievable worker, recruit fewer than 4 workers in play
and a reserve common (``workers.recruit_legal``), the armed modifiers (free, double, adjacent) a worker in a
top frame of a timed row (green/purple for free) and the flag not armed yet, claim twice the flag not set,
swap a VP somewhere, return one another discarded stratagem, place on a timed row a free worker with a target,
claim the achievement a card and a claim left this round, conquer a province left, pick up a discarded card.
Played cards (persona and council stratagems alike) go to the discard (``s.strat = 2``); Pick Up Stratagems
(``pickup``, OPT_PICKUP_CULTURE culture) and council card 7 bring them back.

**Achievements** (``claim_legal`` / ``claim``): the requirement is held, not paid (wild = any cubes in total
beyond the named ones); once per round (``s.ach_claims``), twice with ``claim_twice``; c = 0 takes the
legendary token (``s.legendary_on_card`` and the seat never had its legendary VP), c = 1 the ribbon reward.

**Provinces**: ``refill`` deals the deck top into every empty display position (0 = top); a conquest takes a
display card (``A_CONQUER + src * 4 + m``, src 0..3) or the deck top (src 4) and tucks it under mat slot m
(at most MAX_PER_SLOT per slot); its edge ``t.prov[card, m]`` is what it adds to that slot's production.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.games.pendulum import workers
from simlab.games.pendulum.codes import (
    A_CONQUER,
    A_NO,
    A_REFILL,
    A_RES,
    A_RETURN,
    A_SPACE,
    A_STRAT,
    A_SWAPVP,
    A_TRACK,
    A_WORKER,
    A_YES,
    EV_ACHIEVEMENT,
    EV_CHOICE,
    EV_CONQUER,
    EV_GAIN,
    EV_PAY,
    EV_PICKUP,
    EV_PRODUCTION,
    EV_REFILL,
    EV_STRATAGEM,
    EV_TRACK,
    MAX_ACTIONS,
    OPT_PICKUP_CULTURE,
    OPT_RES_CAP,
    OPT_TRACK_LAST,
    OPT_WARMONGER_CONVERT,
    PART_TOP,
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
    PH_PENDING,
    R_CULTURE,
    R_MILITARY,
    T_BLACK,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_PENDING, MAX_PER_SLOT, MAX_WORKERS
from simlab.games.pendulum.tables import (
    CH_PROD0,
    EF_CONQUER,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RES0,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VOTES,
    EF_VP0,
    EF_VP_ANY,
    EF_WILD,
    NEED_RECRUIT,
    NEED_RETRIEVABLE,
    NEED_WORKER_ACTION,
    SP_ADJACENT,
    SP_AREA,
    SP_CLAIM_ACH,
    SP_CLAIM_TWICE,
    SP_DOUBLE,
    SP_EXCHANGE_MC,
    SP_FREE_ACTION,
    SP_GRANDE,
    SP_MAX3,
    SP_PICKUP,
    SP_PLACE_TIMED,
    SP_RETURN_ONE,
    SP_SWAP_VP,
    ST_COST,
    ST_EFFECT,
    ST_NEEDS,
)

N_DISPLAY = 4
SRC_DECK = 4  # A_CONQUER source code of the deck top

# PD_ALT args that are not effect indices
ALT_CLAIM = -1  # Pacifist: claim the achievement (A_RES + 0 legendary, A_RES + 1 ribbon)
ALT_EXCHANGE = -2  # Warmonger convert_any_1to1, direction still open
ALT_EXCHANGE_TO_MIL = -3  # ... culture cubes become military
ALT_EXCHANGE_TO_CUL = -4  # ... military cubes become culture

# EV_CHOICE.action of a decision that had no option and was dropped
FORFEIT = -1

N_PROD_PAIRS = 6  # (province, edge) pairs per EV_PRODUCTION row
N_PICKUP_LISTED = 13  # stratagems listed per EV_PICKUP row

EVENT_FIELDS = {
    # a gain of effect e (alternative alt; effect 0 = a direct resource/vote change): resources and votes
    # before and after, cubes lost to the caps, the legendary VP held after; VP appear as EV_TRACK rows and
    # production details as EV_PRODUCTION rows (logged after this row)
    EV_GAIN: ("effect", "alt", "military_before", "culture_before", "gold_before", "votes_before",
              "military_after", "culture_after", "gold_after", "votes_after", "lost", "has_legendary"),
    # a cost paid (effect, times; effect 0 = the rest of a wild cost paid automatically); is_wild_pending: the
    # wild part waits for PD_WILD_PAY decisions (EV_CHOICE rows); VP costs appear as EV_TRACK rows
    EV_PAY: ("effect", "times", "military_before", "culture_before", "gold_before", "votes_before",
             "military_after", "culture_after", "gold_after", "votes_after", "is_wild_pending"),
    # every change of a VP track or a glory cube: gain = the change applied (after - before; negative: paid),
    # requested = the VP the effect asked for (gain + lost + glory_pending when nothing was clipped at 0),
    # lost = VP lost past the end, glory_pending = VP past the end waiting for PD_GLORY decisions
    EV_TRACK: ("player", "track", "before", "after", "gain", "lost", "glory_pending", "glory_before",
               "glory_after", "requested"),
    # production of one mat slot: the mat's yield effect (0 on continuation rows), the number of provinces under
    # the slot, the index of the first one listed here, then (province, its edge effect for this slot) pairs
    EV_PRODUCTION: ("slot", "mat_effect", "n_provinces", "first", "p0_province", "p0_effect", "p1_province",
                    "p1_effect", "p2_province", "p2_effect", "p3_province", "p3_effect", "p4_province",
                    "p4_effect", "p5_province", "p5_effect"),
    EV_STRATAGEM: ("strat", "cost_effect", "effect", "n_in_hand_after"),
    # Pick Up Stratagems: culture paid (0 for council card 7), culture before/after, the cards returned
    EV_PICKUP: ("culture_paid", "culture_before", "culture_after", "n_returned", "ret0_strat", "ret1_strat",
                "ret2_strat", "ret3_strat", "ret4_strat", "ret5_strat", "ret6_strat", "ret7_strat",
                "ret8_strat", "ret9_strat", "ret10_strat", "ret11_strat", "ret12_strat"),
    # a claim: achievement row, its requirement and ribbon effects, the amounts held when claiming, legendary
    # (1) or ribbon (0), the claim's number this round, is_waived: Pacifist stratagem (requirement not checked)
    EV_ACHIEVEMENT: ("achievement_row", "requirement_effect", "ribbon_effect", "military", "culture", "gold",
                     "votes", "is_legendary", "claim_no", "is_waived"),
    # a conquest: source (display position 0..3, 4 = deck top), the province, the mat slot, its edge there,
    # provinces now under that slot, cards left in the deck
    EV_CONQUER: ("source", "province", "mat_slot", "edge_effect", "n_under_slot", "deck_left"),
    EV_REFILL: ("display_pos", "province", "deck_left"),
    # a pending decision: kind (PD_*), the action taken (FORFEIT = -1: no option, dropped), units left after,
    # the entry's arg, is_auto (forced, taken by the rules), the value concerned before/after (resource or track;
    # -1 when none) and what was lost
    EV_CHOICE: ("pending", "action", "n_left", "arg", "is_auto", "before", "after", "lost"),
}
"""Fields of the events this module logs, in column order (eventlog.FIELD0 + i)."""


# ---------------------------------------------------------------- small helpers


@njit(cache=True)
def _set_cause(s, r: int) -> None:
    if r >= 0 and s.cause < 0:
        s.cause = r


@njit(cache=True)
def res_cap(s, t, p: int, r: int) -> int:
    """Seat p's cap on resource r: OPT_RES_CAP minus its glory cubes of that colour (track r)."""
    return int(t.opts[OPT_RES_CAP]) - int(s.glory[p, r])


@njit(cache=True)
def _add_res(s, t, p: int, r: int, n: int) -> int:
    """Resource r += n within 0..cap; returns the amount lost to the cap (st_lost counts it)."""
    v = int(s.res[p, r]) + n
    lost = 0
    if v < 0:
        v = 0
    cap = res_cap(s, t, p, r)
    if v > cap:
        lost = v - cap
        v = cap
    s.res[p, r] = v
    s.st_lost[p] += lost
    return lost


@njit(cache=True)
def _gain_row_begin(s, log, p: int, e: int, alt: int) -> int:
    r = ev_begin(s, log, EV_GAIN, p)
    if r >= 0:
        log[r, FIELD0 + 0] = e
        log[r, FIELD0 + 1] = alt
        for k in range(3):
            log[r, FIELD0 + 2 + k] = s.res[p, k]
        log[r, FIELD0 + 5] = s.votes[p]
    return r


@njit(cache=True)
def _gain_row_end(s, log, r: int, p: int, lost: int) -> None:
    if r >= 0:
        for k in range(3):
            log[r, FIELD0 + 6 + k] = s.res[p, k]
        log[r, FIELD0 + 9] = s.votes[p]
        log[r, FIELD0 + 10] = lost
        log[r, FIELD0 + 11] = s.legendary[p]


@njit(cache=True)
def _pay_row_begin(s, log, p: int, e: int, times: int) -> int:
    r = ev_begin(s, log, EV_PAY, p)
    if r >= 0:
        log[r, FIELD0 + 0] = e
        log[r, FIELD0 + 1] = times
        for k in range(3):
            log[r, FIELD0 + 2 + k] = s.res[p, k]
        log[r, FIELD0 + 5] = s.votes[p]
    return r


@njit(cache=True)
def _pay_row_end(s, log, r: int, p: int, pending: int) -> None:
    if r >= 0:
        for k in range(3):
            log[r, FIELD0 + 6 + k] = s.res[p, k]
        log[r, FIELD0 + 9] = s.votes[p]
        log[r, FIELD0 + 10] = pending


@njit(cache=True)
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


# ---------------------------------------------------------------- resources, votes, tracks


@njit(cache=True)
def add_resource(s, t, p: int, r: int, n: int, log) -> int:
    """Seat p gains n of resource r (negative: loses, never below 0), capped by ``res_cap``; logs EV_GAIN with
    effect 0. Returns the amount lost to the cap."""
    row = _gain_row_begin(s, log, p, 0, -1)
    lost = _add_res(s, t, p, r, n)
    _gain_row_end(s, log, row, p, lost)
    return lost


@njit(cache=True)
def add_votes(s, p: int, n: int, log) -> None:
    """Seat p gains n votes (negative: loses, never below 0; no cap); logs EV_GAIN with effect 0."""
    row = _gain_row_begin(s, log, p, 0, -1)
    v = int(s.votes[p]) + n
    s.votes[p] = v if v > 0 else 0
    _gain_row_end(s, log, row, p, 0)


@njit(cache=True)
def add_vp(s, t, p: int, k: int, n: int, log) -> int:
    """Seat p gains n VP on track k (negative n: pays them, never below 0); logs EV_TRACK.

    VP past ``OPT_TRACK_LAST``: an advanced seat gets one PD_GLORY decision per VP (arg k), a basic seat loses
    them (``s.st_lost``). Returns the VP lost.
    """
    last = int(t.opts[OPT_TRACK_LAST])
    before = int(s.track[p, k])
    v = before + n
    if v < 0:
        v = 0
    over = 0
    if v > last:
        over = v - last
        v = last
    s.track[p, k] = v
    lost = 0
    glory = 0
    if over > 0:
        if s.advanced[p] != 0:
            glory = over
            push_pending(s, p, PD_GLORY, over, k)
        else:
            lost = over
            s.st_lost[p] += over
    r = ev_begin(s, log, EV_TRACK, p)
    if r >= 0:
        log[r, FIELD0 + 0] = p
        log[r, FIELD0 + 1] = k
        log[r, FIELD0 + 2] = before
        log[r, FIELD0 + 3] = v
        log[r, FIELD0 + 4] = v - before
        log[r, FIELD0 + 5] = lost
        log[r, FIELD0 + 6] = glory
        log[r, FIELD0 + 7] = s.glory[p, k]
        log[r, FIELD0 + 8] = s.glory[p, k]
        log[r, FIELD0 + 9] = n
    return lost


@njit(cache=True)
def glory_possible(s, t, p: int, k: int) -> bool:
    """Seat p has a cube of track k's colour in its bank to turn into glory (held + glory < OPT_RES_CAP)."""
    return int(s.res[p, k]) + int(s.glory[p, k]) < int(t.opts[OPT_RES_CAP])


# ---------------------------------------------------------------- costs


@njit(cache=True)
def _wild_ways(a: int, b: int, c: int, n: int):
    """(ways, x, y, z): how many splits x + y + z = n with 0 <= x <= a... exist (capped at 2), and the first."""
    ways = 0
    fx = -1
    fy = -1
    fz = -1
    for x in range(min(a, n) + 1):
        rest = n - x
        lo = rest - c
        if lo < 0:
            lo = 0
        hi = min(b, rest)
        if hi < lo:
            continue
        if ways == 0:
            fx = x
            fy = lo
            fz = rest - lo
        ways += hi - lo + 1
        if ways >= 2:
            return 2, fx, fy, fz
    return ways, fx, fy, fz


@njit(cache=True)
def can_pay(s, t, p: int, e: int, times: int) -> bool:
    """Seat p can pay alt 0 of effect e ``times`` times: named cubes, then the wild part from any cubes left,
    votes, VP from the tracks (never glory)."""
    if e <= 0:
        return True
    spare = 0
    for r in range(3):
        need = int(t.eff[e, 0, EF_RES0 + r]) * times
        have = int(s.res[p, r])
        if have < need:
            return False
        spare += have - need
    if spare < int(t.eff[e, 0, EF_WILD]) * times:
        return False
    if int(s.votes[p]) < int(t.eff[e, 0, EF_VOTES]) * times:
        return False
    ok = True
    for k in range(3):
        if int(s.track[p, k]) < int(t.eff[e, 0, EF_VP0 + k]) * times:
            ok = False
    return ok


@njit(cache=True)
def pay(s, t, p: int, e: int, times: int, log) -> int:
    """Seat p pays alt 0 of effect e ``times`` times (assumes ``can_pay``); logs EV_PAY (VP as EV_TRACK).

    A wild part with a single possible split is paid at once; otherwise a PD_WILD_PAY entry (n = cubes, arg 0)
    is pushed and 1 is returned (0 otherwise).
    """
    if e <= 0:
        return 0
    row = _pay_row_begin(s, log, p, e, times)
    for r in range(3):
        _add_res(s, t, p, r, -int(t.eff[e, 0, EF_RES0 + r]) * times)
    v = int(s.votes[p]) - int(t.eff[e, 0, EF_VOTES]) * times
    s.votes[p] = v if v > 0 else 0
    pending = 0
    w = int(t.eff[e, 0, EF_WILD]) * times
    if w > 0:
        ways, x, y, z = _wild_ways(int(s.res[p, 0]), int(s.res[p, 1]), int(s.res[p, 2]), w)
        if ways == 1:
            _add_res(s, t, p, 0, -x)
            _add_res(s, t, p, 1, -y)
            _add_res(s, t, p, 2, -z)
        elif ways == 0:  # cannot happen after can_pay: pay what there is
            for r in range(3):
                s.res[p, r] = 0
        else:
            push_pending(s, p, PD_WILD_PAY, w, 0)
            pending = 1
    _pay_row_end(s, log, row, p, pending)
    for k in range(3):
        n = int(t.eff[e, 0, EF_VP0 + k]) * times
        if n > 0:
            add_vp(s, t, p, k, -n, log)
    return pending


@njit(cache=True)
def pay_gain(s, t, p: int, cost: int, times: int, e: int, alt: int, log) -> None:
    """Pay ``cost`` (``times`` times), then gain alternative ``alt`` of effect e; when the wild part of the cost
    waits for decisions, the gain follows the last one (the PD_WILD_PAY entry's arg)."""
    if pay(s, t, p, cost, times, log) != 0:
        s.pend_arg[s.n_pend - 1] = e * 4 + alt + 1
    elif e > 0:
        gain(s, t, p, e, alt, log)


@njit(cache=True)
def holds(s, t, p: int, e: int) -> bool:
    """Seat p holds (does not pay) alt 0 of effect e: named cubes, any cubes for the wild part, votes."""
    if e <= 0:
        return True
    spare = 0
    for r in range(3):
        need = int(t.eff[e, 0, EF_RES0 + r])
        have = int(s.res[p, r])
        if have < need:
            return False
        spare += have - need
    if spare < int(t.eff[e, 0, EF_WILD]):
        return False
    return int(s.votes[p]) >= int(t.eff[e, 0, EF_VOTES])


# ---------------------------------------------------------------- gains


@njit(cache=True)
def _production(s, t, p: int, m: int, log) -> int:
    """Production of mat slot m: the mat's yield, then every province's edge for m; returns cubes lost."""
    me = int(t.ch[s.char[p], CH_PROD0 + m])
    n = int(s.prov_n[p, m])
    first = 0
    while True:
        r = ev_begin(s, log, EV_PRODUCTION, p)
        if r >= 0:
            log[r, FIELD0 + 0] = m
            log[r, FIELD0 + 1] = me if first == 0 else 0
            log[r, FIELD0 + 2] = n
            log[r, FIELD0 + 3] = first
            for j in range(N_PROD_PAIRS):
                i = first + j
                if i < n:
                    c = s.prov[p, m, i]
                    log[r, FIELD0 + 4 + 2 * j] = c
                    log[r, FIELD0 + 5 + 2 * j] = t.prov[c, m]
                else:
                    log[r, FIELD0 + 4 + 2 * j] = -1
                    log[r, FIELD0 + 5 + 2 * j] = 0
        first += N_PROD_PAIRS
        if first >= n:
            break
    lost = _apply_vec(s, t, p, me, 0, log)
    for i in range(n):
        lost += _apply_vec(s, t, p, int(t.prov[s.prov[p, m, i], m]), 0, log)
    return lost


@njit(cache=True)
def _return_all(s, t, p: int, paid: int, before: int, log) -> int:
    """Every discarded stratagem of seat p back to hand; logs EV_PICKUP; returns how many."""
    r = ev_begin(s, log, EV_PICKUP, p)
    k = 0
    for i in range(t.n_strats):
        if s.strat[p, i] == 2:
            s.strat[p, i] = 1
            if r >= 0 and k < N_PICKUP_LISTED:
                log[r, FIELD0 + 4 + k] = i
            k += 1
    if r >= 0:
        log[r, FIELD0 + 0] = paid
        log[r, FIELD0 + 1] = before
        log[r, FIELD0 + 2] = s.res[p, R_CULTURE]
        log[r, FIELD0 + 3] = k
        for j in range(k, N_PICKUP_LISTED):
            log[r, FIELD0 + 4 + j] = -1
    _set_cause(s, r)
    return k


@njit(cache=True)
def _apply_vec(s, t, p: int, e: int, alt: int, log) -> int:
    """Alternative alt of effect e for seat p, production excepted; returns cubes lost to caps."""
    if e <= 0:
        return 0
    lost = 0
    for r in range(3):
        n = int(t.eff[e, alt, EF_RES0 + r])
        if n != 0:
            lost += _add_res(s, t, p, r, n)
    nv = int(t.eff[e, alt, EF_VOTES])
    if nv != 0:
        v = int(s.votes[p]) + nv
        s.votes[p] = v if v > 0 else 0
    for k in range(3):
        n = int(t.eff[e, alt, EF_VP0 + k])
        if n != 0:
            add_vp(s, t, p, k, n, log)
    if t.eff[e, alt, EF_LEGENDARY] > 0 and s.legendary[p] == 0:
        s.legendary[p] = 1
        s.st_legendary_round[p] = s.round
    for _ in range(int(t.eff[e, alt, EF_RECRUIT])):
        if workers.recruit_legal(s, t, p):
            workers.recruit(s, t, p, log)
    n = int(t.eff[e, alt, EF_VP_ANY])
    if n > 0:
        push_pending(s, p, PD_VP_ANY, n, 0)
    n = int(t.eff[e, alt, EF_WILD])
    if n > 0:
        push_pending(s, p, PD_WILD_GAIN, n, 0)
    n = int(t.eff[e, alt, EF_CONQUER])
    if n > 0:
        push_pending(s, p, PD_CONQUER, n, 0)
    n = int(t.eff[e, alt, EF_RETRIEVE])
    if n > 0:
        push_pending(s, p, PD_RETRIEVE, n, 0)
    sp = int(t.eff[e, alt, EF_SPECIAL])
    if sp == SP_MAX3:
        s.max3[p] = 1
    elif sp == SP_PICKUP:
        _return_all(s, t, p, 0, int(s.res[p, R_CULTURE]), log)
    elif sp == SP_SWAP_VP:
        push_pending(s, p, PD_SWAP_VP, 1, 0)
    elif sp == SP_FREE_ACTION:
        s.free_action[p] = 1
    elif sp == SP_DOUBLE:
        s.double_action[p] = 1
    elif sp == SP_ADJACENT:
        s.adjacent_action[p] = 1
    elif sp == SP_CLAIM_TWICE:
        s.claim_twice[p] = 1
    elif sp == SP_CLAIM_ACH:
        push_pending(s, p, PD_ALT, 1, ALT_CLAIM)
    elif sp == SP_GRANDE:
        push_pending(s, p, PD_GRANDE_SWAP, 1, 0)
    elif sp == SP_PLACE_TIMED:
        push_pending(s, p, PD_TIMED_PLACE, 1, -1)
    elif sp == SP_RETURN_ONE:
        # the card that carries this effect was just discarded: it may not come back by itself
        own = -1
        for i in range(t.n_strats):
            if t.st[i, ST_EFFECT] == e and s.strat[p, i] == 2:
                own = i
                break
        push_pending(s, p, PD_RETURN_STRAT, 1, own)
    elif sp == SP_EXCHANGE_MC:
        if t.opts[OPT_WARMONGER_CONVERT] == 0:
            m = int(s.res[p, R_MILITARY])
            c = int(s.res[p, R_CULTURE])
            s.res[p, R_MILITARY] = 0
            s.res[p, R_CULTURE] = 0
            lost += _add_res(s, t, p, R_MILITARY, c)
            lost += _add_res(s, t, p, R_CULTURE, m)
        else:
            push_pending(s, p, PD_ALT, 1, ALT_EXCHANGE)
    return lost


@njit(cache=True)
def gain(s, t, p: int, e: int, alt: int, log) -> None:
    """Seat p gains alternative ``alt`` of effect e (alt -1: the seat chooses, PD_ALT, when e has several).

    Logs EV_GAIN (resources and votes before/after, cubes lost) and, below it, EV_TRACK / EV_PRODUCTION rows;
    decisions go to the pending stack (not settled here: see ``pending_settle``).
    """
    if e <= 0:
        return
    if alt < 0:
        if t.eff_nalt[e] > 1:
            push_pending(s, p, PD_ALT, 1, e)
            return
        alt = 0
    row = _gain_row_begin(s, log, p, e, alt)
    lost = _apply_vec(s, t, p, e, alt, log)
    mask = int(t.eff[e, alt, EF_PROD])
    for m in range(4):
        if (mask >> m) & 1:
            lost += _production(s, t, p, m, log)
    _gain_row_end(s, log, row, p, lost)


# ---------------------------------------------------------------- the pending stack


@njit(cache=True)
def push_pending(s, p: int, kind: int, n: int, arg: int) -> None:
    """Push a decision of ``kind`` for seat p (n units, parameter arg) on top of the pending stack.

    When the stack was empty and the phase is not PH_PENDING, ``s.resume_phase`` becomes the current phase.
    """
    if s.n_pend >= MAX_PENDING:
        return  # cannot happen in play: a decision never nests this deep
    if s.n_pend == 0 and s.phase != PH_PENDING:
        s.resume_phase = s.phase
    i = s.n_pend
    s.pend_kind[i] = kind
    s.pend_n[i] = n
    s.pend_arg[i] = arg
    s.n_pend = i + 1
    s.pend_seat = p


@njit(cache=True)
def _pop(s) -> None:
    s.n_pend -= 1
    i = s.n_pend
    s.pend_kind[i] = 0
    s.pend_n[i] = 0
    s.pend_arg[i] = 0


@njit(cache=True)
def _use_one(s) -> None:
    """One unit of the top entry is done: pop it when it was the last."""
    i = s.n_pend - 1
    if s.pend_n[i] > 1:
        s.pend_n[i] -= 1
    else:
        _pop(s)


@njit(cache=True)
def _conquer_slot_free(s, p: int) -> bool:
    k = 0
    for m in range(4):
        if s.prov_n[p, m] < MAX_PER_SLOT:
            k += 1
    return k > 0


@njit(cache=True)
def conquer_legal(s, t, p: int, out, n: int) -> int:
    """Append ``A_CONQUER + src * 4 + m`` (ascending): a display card (src 0..3) or the deck top (src 4), tucked
    under a mat slot m with room (< MAX_PER_SLOT)."""
    for src in range(N_DISPLAY + 1):
        if src < N_DISPLAY:
            if s.display[src] < 0:
                continue
        elif s.pdeck_n <= 0:
            continue
        for m in range(4):
            if s.prov_n[p, m] < MAX_PER_SLOT:
                out[n] = A_CONQUER + src * 4 + m
                n += 1
    return n


@njit(cache=True)
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


@njit(cache=True)
def pending_legal(s, t, out) -> int:
    """The actions of the top pending decision (PH_PENDING; seat ``s.pend_seat``), strictly ascending.

    A top with no option offers A_NO alone (``pending_apply`` then drops it).
    """
    n = _legal(s, t, out)
    if n == 0 and s.n_pend > 0:
        out[0] = A_NO
        n = 1
    return n


@njit(cache=True)
def _forfeit(s, log, auto: int) -> None:
    i = s.n_pend - 1
    kind = s.pend_kind[i]
    _choice_row(s, log, s.pend_seat, kind, FORFEIT, 0, s.pend_arg[i], auto, -1, -1, s.pend_n[i])
    _pop(s)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _follow_up(s, t, p: int, arg: int, log) -> None:
    """The gain that waited for a wild payment (arg = e * 4 + alt + 1)."""
    if arg > 0:
        gain(s, t, p, arg // 4, arg % 4 - 1, log)


@njit(cache=True)
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


@njit(cache=True)
def _conquer_do(s, t, p: int, src: int, m: int, log) -> None:
    """Take the province of display position src (or the deck top, src 4) and tuck it under mat slot m."""
    if src < N_DISPLAY:
        c = s.display[src]
        s.display[src] = -1
    else:
        s.pdeck_n -= 1
        c = s.pdeck[s.pdeck_n]
    k = s.prov_n[p, m]
    if k < MAX_PER_SLOT:
        s.prov[p, m, k] = c
        s.prov_n[p, m] = k + 1
    s.st_provinces[p] += 1
    r = ev_begin(s, log, EV_CONQUER, p)
    if r >= 0:
        log[r, FIELD0 + 0] = src
        log[r, FIELD0 + 1] = c
        log[r, FIELD0 + 2] = m
        log[r, FIELD0 + 3] = t.prov[c, m]
        log[r, FIELD0 + 4] = s.prov_n[p, m]
        log[r, FIELD0 + 5] = s.pdeck_n


@njit(cache=True)
def _legendary_ok(s, p: int) -> bool:
    return s.legendary_on_card != 0 and s.legendary[p] == 0 and s.ach_card >= 0


@njit(cache=True)
def _claims_left(s, p: int) -> bool:
    return s.ach_claims[p] == 0 or s.claim_twice[p] != 0


@njit(cache=True)
def _claim_do(s, t, p: int, c: int, waived: int, log) -> None:
    """Seat p claims the achievement: c = 0 the legendary token, 1 the ribbon reward (logs EV_ACHIEVEMENT)."""
    card = s.ach_card
    if s.ach_claims[p] >= 1:
        s.claim_twice[p] = 0
    s.ach_claims[p] += 1
    s.st_claims[p] += 1
    req = t.ach[card, 0]
    rib = t.ach[card, 1]
    r = ev_begin(s, log, EV_ACHIEVEMENT, p)
    if r >= 0:
        log[r, FIELD0 + 0] = card
        log[r, FIELD0 + 1] = req
        log[r, FIELD0 + 2] = rib
        for k in range(3):
            log[r, FIELD0 + 3 + k] = s.res[p, k]
        log[r, FIELD0 + 6] = s.votes[p]
        log[r, FIELD0 + 7] = 1 if c == 0 else 0
        log[r, FIELD0 + 8] = s.ach_claims[p]
        log[r, FIELD0 + 9] = waived
    _set_cause(s, r)
    if c == 0:
        s.legendary_on_card = 0
        s.legendary[p] = 1
        s.st_legendary_round[p] = s.round
    else:
        gain(s, t, p, rib, -1, log)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def pending_apply(s, t, a: int, log) -> None:
    """Seat ``s.pend_seat`` resolves the top pending decision with action a (from ``pending_legal``); logs
    EV_CHOICE and what follows, then settles the stack (``pending_settle``)."""
    if s.n_pend <= 0:
        return
    _apply_choice(s, t, a, 0, log)
    pending_settle(s, t, log)


# ---------------------------------------------------------------- stratagems


@njit(cache=True)
def _can_act_now(s, t, p: int, coloured_only: bool) -> bool:
    """Seat p has a worker in a top frame of a timed row (green or purple only when coloured_only)."""
    for w in range(MAX_WORKERS):
        d = s.w_place[p, w]
        if d < 0 or s.w_part[p, w] != PART_TOP:
            continue
        if not workers.is_timed(s, t, d):
            continue
        if coloured_only and t.sp[d, SP_AREA] == T_BLACK:
            continue
        return True
    return False


@njit(cache=True)
def _any_discarded(s, t, p: int, skip: int) -> bool:
    k = 0
    for j in range(t.n_strats):
        if j != skip and s.strat[p, j] == 2:
            k += 1
    return k > 0


@njit(cache=True)
def _is_modifier(sp: int) -> bool:
    """The special arms a worker-action modifier (free, double or adjacent action)."""
    if sp == SP_FREE_ACTION:
        return True
    if sp == SP_DOUBLE:
        return True
    return sp == SP_ADJACENT


@njit(cache=True)
def strat_playable(s, t, p: int, i: int) -> bool:
    """Seat p may play stratagem i now: in hand, cost payable, its needs met and its effect able to act."""
    if i < 0 or i >= t.n_strats or s.strat[p, i] != 1:
        return False
    if not can_pay(s, t, p, int(t.st[i, ST_COST]), 1):
        return False
    e = int(t.st[i, ST_EFFECT])
    need = int(t.st[i, ST_NEEDS])
    retrieves = e > 0 and t.eff[e, 0, EF_RETRIEVE] > 0
    if (need == NEED_RETRIEVABLE or retrieves) and workers.retrieve_legal_workers(s, t, p) == 0:
        return False
    recruits = e > 0 and t.eff[e, 0, EF_RECRUIT] > 0
    if (need == NEED_RECRUIT or recruits) and not workers.recruit_legal(s, t, p):
        return False
    if e <= 0:
        return True
    if t.eff[e, 0, EF_CONQUER] > 0 and not (_conquer_slot_free(s, p) and (s.pdeck_n > 0 or _display_any(s))):
        return False
    sp = int(t.eff[e, 0, EF_SPECIAL])
    modifier = _is_modifier(sp)
    if (need == NEED_WORKER_ACTION or modifier) and not _can_act_now(s, t, p, sp == SP_FREE_ACTION):
        return False
    if sp == SP_FREE_ACTION and s.free_action[p] != 0:
        return False
    if sp == SP_DOUBLE and s.double_action[p] != 0:
        return False
    if sp == SP_ADJACENT and s.adjacent_action[p] != 0:
        return False
    if sp == SP_CLAIM_TWICE and s.claim_twice[p] != 0:
        return False
    if sp == SP_SWAP_VP and s.track[p, 0] + s.track[p, 1] + s.track[p, 2] <= 0:
        return False
    if sp == SP_RETURN_ONE and not _any_discarded(s, t, p, i):
        return False
    if sp == SP_PICKUP and not _any_discarded(s, t, p, i):
        return False
    if sp == SP_PLACE_TIMED and workers.timed_place_workers(s, t, p) == 0:
        return False
    return not (sp == SP_CLAIM_ACH and (s.ach_card < 0 or not _claims_left(s, p)))


@njit(cache=True)
def _display_any(s) -> bool:
    k = 0
    for i in range(N_DISPLAY):
        if s.display[i] >= 0:
            k += 1
    return k > 0


@njit(cache=True)
def strat_legal(s, t, p: int, out, n: int) -> int:
    """Append ``A_STRAT + i`` (ascending) for every stratagem seat p may play now (``strat_playable``)."""
    for i in range(t.n_strats):
        if s.strat[p, i] == 1 and strat_playable(s, t, p, i):
            out[n] = A_STRAT + i
            n += 1
    return n


@njit(cache=True)
def play_strat(s, t, p: int, i: int, log) -> None:
    """Seat p plays stratagem i: logs EV_STRATAGEM, the card goes to the discard, pay its cost, gain its effect
    (the gain waits for a wild payment's decisions), then settle the pending stack."""
    s.strat[p, i] = 2
    s.st_strats[p] += 1
    cost = int(t.st[i, ST_COST])
    e = int(t.st[i, ST_EFFECT])
    r = ev_begin(s, log, EV_STRATAGEM, p)
    if r >= 0:
        log[r, FIELD0 + 0] = i
        log[r, FIELD0 + 1] = cost
        log[r, FIELD0 + 2] = e
        k = 0
        for j in range(t.n_strats):
            if s.strat[p, j] == 1:
                k += 1
        log[r, FIELD0 + 3] = k
    _set_cause(s, r)
    pay_gain(s, t, p, cost, 1, e, -1, log)
    pending_settle(s, t, log)


@njit(cache=True)
def pickup_legal(s, t, p: int) -> bool:
    """Seat p may Pick Up Stratagems: a discarded stratagem and OPT_PICKUP_CULTURE culture to pay."""
    return s.res[p, R_CULTURE] >= t.opts[OPT_PICKUP_CULTURE] and _any_discarded(s, t, p, -1)


@njit(cache=True)
def pickup(s, t, p: int, log) -> None:
    """Pick Up Stratagems: pay OPT_PICKUP_CULTURE culture, every discarded stratagem back to hand (EV_PICKUP)."""
    before = int(s.res[p, R_CULTURE])
    cost = int(t.opts[OPT_PICKUP_CULTURE])
    _add_res(s, t, p, R_CULTURE, -cost)
    _return_all(s, t, p, cost, before, log)
    pending_settle(s, t, log)


# ---------------------------------------------------------------- achievements


@njit(cache=True)
def claim_legal(s, t, p: int, c: int) -> bool:
    """Seat p may claim the achievement now: a card is out, a claim left this round (once; twice with
    ``claim_twice``), its requirement held; c = 0 (legendary) also needs the token on the card and a seat that
    never had its legendary VP; c = 1 is the ribbon reward."""
    if s.ach_card < 0 or not _claims_left(s, p):
        return False
    if not holds(s, t, p, int(t.ach[s.ach_card, 0])):
        return False
    if c == 0:
        return _legendary_ok(s, p)
    return c == 1


@njit(cache=True)
def claim(s, t, p: int, c: int, log) -> None:
    """Seat p claims the achievement (c = 0 legendary, 1 ribbon; assumes ``claim_legal``); logs EV_ACHIEVEMENT,
    then settles the pending stack (a ribbon may conquer or produce)."""
    _claim_do(s, t, p, c, 0, log)
    pending_settle(s, t, log)


# ---------------------------------------------------------------- the province display


@njit(cache=True)
def refill_legal(s) -> bool:
    """The display has an empty position and the deck a card."""
    k = 0
    for i in range(N_DISPLAY):
        if s.display[i] < 0:
            k += 1
    return k > 0 and s.pdeck_n > 0


@njit(cache=True)
def refill(s, t, log) -> None:
    """Deal the deck top into every empty display position, top first (one EV_REFILL row each; actor s.actor)."""
    for i in range(N_DISPLAY):
        if s.display[i] >= 0 or s.pdeck_n <= 0:
            continue
        s.pdeck_n -= 1
        c = s.pdeck[s.pdeck_n]
        s.display[i] = c
        r = ev_begin(s, log, EV_REFILL, s.actor)
        if r >= 0:
            log[r, FIELD0 + 0] = i
            log[r, FIELD0 + 1] = c
            log[r, FIELD0 + 2] = s.pdeck_n
        _set_cause(s, r)
