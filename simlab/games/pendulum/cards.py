"""Pendulum's card actions: stratagems (play, pick up) and the achievement claim (NOTES I.11, II.15-II.17).

Each is a whole player action: it settles the decisions it leaves (``pending.pending_settle``) before it returns.

**Stratagems** (``strat_legal`` / ``play_strat``): a card in hand (``s.strat[p, i] == 1``) whose cost can be
paid and whose effect can act now: retrieve needs a retrievable worker, recruit fewer than 4 workers in play
and a reserve common (``workers.recruit_legal``), the armed modifiers (free, double, adjacent) a worker in a
top frame of a timed row (green/purple for free) and the flag not armed yet, claim twice the flag not set,
swap a VP somewhere, return one another discarded stratagem, place on a timed row a free worker with a target,
claim the achievement a card and a claim left this round, conquer a province left, pick up a discarded card.
Played cards (persona and council stratagems alike) go to the discard (``s.strat = 2``); Pick Up Stratagems
(``pickup``, OPT_PICKUP_CULTURE culture) and council card 7 bring them back.

**The claim** (``claim``): ``achievements._claim_do`` (the requirement, once or twice a round, legendary or
ribbon; ``claim_legal`` is there), then the settle. EV_STRATAGEM and EV_PICKUP rows are named in
``effects.EVENT_FIELDS``.
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum import workers
from simlab.games.pendulum.achievements import (
    _claim_do,
    _claims_left,
)
from simlab.games.pendulum.codes import (
    A_STRAT,
    EV_STRATAGEM,
    OPT_PICKUP_CULTURE,
    PART_TOP,
    R_CULTURE,
    T_BLACK,
)
from simlab.games.pendulum.economy import (
    _add_res,
    _return_all,
    _set_cause,
    can_pay,
    pay_gain,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.pending import (
    pending_settle,
)
from simlab.games.pendulum.provinces import (
    _conquer_slot_free,
    _display_any,
)
from simlab.games.pendulum.state import MAX_WORKERS
from simlab.games.pendulum.tables import (
    EF_CONQUER,
    EF_RECRUIT,
    EF_RETRIEVE,
    EF_SPECIAL,
    NEED_RECRUIT,
    NEED_RETRIEVABLE,
    NEED_WORKER_ACTION,
    SP_ADJACENT,
    SP_AREA,
    SP_CLAIM_ACH,
    SP_CLAIM_TWICE,
    SP_DOUBLE,
    SP_FREE_ACTION,
    SP_PICKUP,
    SP_PLACE_TIMED,
    SP_RETURN_ONE,
    SP_SWAP_VP,
    ST_COST,
    ST_EFFECT,
    ST_NEEDS,
)


@kernel
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


@kernel
def _any_discarded(s, t, p: int, skip: int) -> bool:
    k = 0
    for j in range(t.n_strats):
        if j != skip and s.strat[p, j] == 2:
            k += 1
    return k > 0


@kernel
def _is_modifier(sp: int) -> bool:
    """The special arms a worker-action modifier (free, double or adjacent action)."""
    if sp == SP_FREE_ACTION:
        return True
    if sp == SP_DOUBLE:
        return True
    return sp == SP_ADJACENT


@kernel
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


@kernel
def strat_legal(s, t, p: int, out, n: int) -> int:
    """Append ``A_STRAT + i`` (ascending) for every stratagem seat p may play now (``strat_playable``)."""
    for i in range(t.n_strats):
        if s.strat[p, i] == 1 and strat_playable(s, t, p, i):
            out[n] = A_STRAT + i
            n += 1
    return n


@kernel
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


@kernel
def pickup_legal(s, t, p: int) -> bool:
    """Seat p may Pick Up Stratagems: a discarded stratagem and OPT_PICKUP_CULTURE culture to pay."""
    return s.res[p, R_CULTURE] >= t.opts[OPT_PICKUP_CULTURE] and _any_discarded(s, t, p, -1)


@kernel
def pickup(s, t, p: int, log) -> None:
    """Pick Up Stratagems: pay OPT_PICKUP_CULTURE culture, every discarded stratagem back to hand (EV_PICKUP)."""
    before = int(s.res[p, R_CULTURE])
    cost = int(t.opts[OPT_PICKUP_CULTURE])
    _add_res(s, t, p, R_CULTURE, -cost)
    _return_all(s, t, p, cost, before, log)
    pending_settle(s, t, log)


@kernel
def claim(s, t, p: int, c: int, log) -> None:
    """Seat p claims the achievement (c = 0 legendary, 1 ribbon; assumes ``claim_legal``); logs EV_ACHIEVEMENT,
    then settles the pending stack (a ribbon may conquer or produce)."""
    _claim_do(s, t, p, c, 0, log)
    pending_settle(s, t, log)
