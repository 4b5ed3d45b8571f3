"""Pendulum's council phase (NOTES I.8, I.12.10 for the Automas' part), as kernels.

The council runs in steps; play stops only for a seat's decision:

    council_begin   solo: the Automas' council VP first (``automa.automa_council_vp``). Step 1: every
                    agent on the privilege track bids (seats their votes, the 2-player neutral exactly
                    ``OPT_NEUTRAL_VOTES``, an Automa ``automa.automa_votes``); the track is reordered,
                    most votes first, ties in REVERSE current privilege order (the lower-placed agent
                    moves ahead); the seats' votes are discarded (EV_COUNCIL_VOTES, one row per agent).
    council_next    step 2, in the new privilege order: a seat gets its rank bonus (``t.priv_bonus``)
                    as a PD_VP_ANY decision and then chooses one card in PH_COUNCIL (``council_legal`` /
                    ``council_apply``); an Automa takes its reward (``automa.automa_reward``, rank bonus
                    included); the neutral takes nothing. Then step 3 (PH_TRIM: every seat trims each
                    mat slot to 2 provinces, 3 with Max-3; ``trim_legal`` / ``trim_apply``, automatic
                    when every choice comes to the same), step 4 (after the last council the game end:
                    ``endgame.multi_end`` or ``automa.solo_end``, PH_OVER; else the round setup of
                    I.8.5) and step 5 (PH_STEP5: placement-only round robin in privilege order; the
                    rules driver offers the moves, ``step5_pass`` counts the passes and, when every
                    seat passed in a row, ``clock.round_start`` is step 6).

Sequencing contract with the rules driver: ``s.council_pos`` is the privilege-track index of the agent
whose reward is being handled. While a seat still owes its card, ``s.actor == s.priv[s.council_pos]``;
``council_apply`` moves ``council_pos`` on at once. Decisions a card (or the rank bonus) leaves on the pending
stack are settled as far as they go by themselves (``effects.pending_settle``); what is left is a PH_PENDING
decision with ``resume_phase`` PH_COUNCIL, and once the stack is empty the driver calls ``council_next``,
which does nothing while the seat still has to choose and otherwise goes on with the next agent (and the
later steps). Ranks passed to ``automa.automa_reward`` and logged in EV_COUNCIL_REWARD are 0-based places.

Council cards (``t.co``): immediate (red border) cards act at once (``effects.pay_gain``: any printed cost
first, the gain after it); stratagem cards join the hand (``s.strat[p, t.co[c, CO_STRAT]] = 1``; card 6 is
one or immediate per ``council_card_6_kind``, which the ruleset writes into ``CO_KIND``); the permanent Max-3
card sets ``s.max3`` (not a second one); the grande card needs a common worker in play and the second grande
unused (``workers.grande_swap_legal_workers``), is turned down for the rest of the council and leaves a
PD_GRANDE_SWAP decision; the DEFAULT card (+1 VP of choice) is always there; the final cards of council 4
cost their printed cost (``effects.can_pay``, then ``pay_gain``: F5's wild cost may ask which cubes), and F5
(the legendary) is refused to a seat that has its legendary VP.

Round setup conventions (as ``rules.setup``): a deck's top is entry ``n - 1``; the display's slot 0 is the
top; provinces leaving the game (the old display, the trimmed ones) are counted in ``s.removed_n``; the
finals are offered in order F1..F5 (offer slots R1..R5).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.jit import kernel
from simlab.games.pendulum import automa, clock, effects, endgame, workers
from simlab.games.pendulum.codes import (
    A_COUNCIL,
    A_TRIM,
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    DECK_COUNCIL_OFFER,
    DECK_COUNCIL_REMOVED,
    DECK_DISPLAY,
    EV_COUNCIL_REWARD,
    EV_COUNCIL_VOTES,
    EV_DECK_ORDER,
    EV_PASS,
    EV_PROVINCE_LIMIT,
    EV_ROUND_SETUP,
    OPT_NEUTRAL_VOTES,
    OPT_PROV_LIMIT,
    OPT_PROV_LIMIT_MAX3,
    OPT_ROUNDS,
    PD_GRANDE_SWAP,
    PD_VP_ANY,
    PH_COUNCIL,
    PH_OVER,
    PH_PENDING,
    PH_STEP5,
    PH_TRIM,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_PLAYERS, MAX_PRIV
from simlab.games.pendulum.tables import (
    C_DEFAULT,
    C_F1,
    C_GRANDE,
    CK_DEFAULT,
    CK_FINAL,
    CK_GRANDE,
    CK_IMMEDIATE,
    CK_PERMANENT,
    CK_STRATAGEM,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    CO_STRAT,
    EF_FIELDS,
    EF_LEGENDARY,
)

N_OFFER = 5
N_DISPLAY = 4
N_DECK_VALUES = 14  # v0..v13 of an EV_DECK_ORDER row

EVENT_FIELDS = {
    # one row per agent, in the new privilege order; pos_* are 0-based places on the privilege track;
    # is_tied: another agent bid the same (ties go to the agent placed lower before the vote)
    EV_COUNCIL_VOTES: ("player", "votes", "pos_before", "pos_after", "is_tied", "n_agents"),
    # a seat's council reward: rank (0-based place on the privilege track), the rank bonus VP (a PD_VP_ANY
    # decision before the card), the board when it chose (offer slots R1..R5 -> card, -1 taken; the grande card
    # up or down), the card taken and its kind (CK_*), the cost paid (effect index, 0 none) and the effect
    # gained (0 none: a stratagem card joins the hand as stratagem_strat); automa_how / fallback_vp /
    # automa_score are the Automa rows' (automa.automa_reward logs this event in the same layout), -1 here
    EV_COUNCIL_REWARD: ("seat", "rank", "bonus_vp", "r1_card", "r2_card", "r3_card", "r4_card", "r5_card",
                        "is_grande_up", "card", "card_kind", "cost_effect", "gain_effect", "stratagem_strat",
                        "automa_how", "fallback_vp", "automa_score", "tiebreak"),
    # one row per province removed at step 3: the seat's slot before/after (counts), its limit, the card
    # removed and the cards left under the slot (-1 padding)
    EV_PROVINCE_LIMIT: ("seat", "slot", "limit", "before", "after", "removed_province", "left0_province",
                        "left1_province", "left2_province", "left3_province", "left4_province",
                        "left5_province", "left6_province", "is_automatic"),
    # step 4: the new offer (R1..R5), the new display (slots 1..4, -1 empty), the achievement card replaced and
    # the new one (rows of the achievement table, -1 none), the legendary token on it, the time markers back
    EV_ROUND_SETUP: ("offer0_card", "offer1_card", "offer2_card", "offer3_card", "offer4_card",
                     "display0_province", "display1_province", "display2_province", "display3_province",
                     "old_achievement", "new_achievement", "is_legendary_on_card", "markers_left",
                     "markers_back_from_automa", "provinces_removed", "is_final_offer"),
    EV_DECK_ORDER: ("deck", "start", "n", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
                    "v11", "v12", "v13"),
    # council step 5: a seat passed (passes in a row so far, seats that must pass)
    EV_PASS: ("seat", "passes", "n_seats"),
}


# ---------------------------------------------------------------- small helpers


@kernel
def is_seat(s, a: int) -> bool:
    """Whether privilege-track agent ``a`` is a seat (not the neutral, not an Automa)."""
    return 0 <= a < s.n_players and a < MAX_PLAYERS


@kernel
def priv_pos(s, a: int) -> int:
    """The 0-based place of agent ``a`` on the privilege track (-1 if absent)."""
    for i in range(s.n_priv):
        if s.priv[i] == a:
            return i
    return -1


@kernel
def card_kind(t, c: int) -> int:
    """The kind (CK_*) of council card ``c`` (the ruleset makes card 6 immediate or a stratagem per
    ``council_card_6_kind``)."""
    return t.co[c, CO_KIND]


@kernel
def prov_limit(s, t, p: int) -> int:
    """How many provinces seat ``p`` may keep under each mat slot (2, or 3 with the Max-3 card)."""
    if s.max3[p] != 0:
        return int(t.opts[OPT_PROV_LIMIT_MAX3])
    return int(t.opts[OPT_PROV_LIMIT])


@kernel
def grande_card_legal(s, t, p: int) -> bool:
    """The grande card: face up, a common worker in play to swap and the second grande still unused."""
    return s.grande_up != 0 and workers.grande_swap_legal_workers(s, t, p) != 0


@kernel
def card_legal(s, t, p: int, c: int) -> bool:
    """Whether seat ``p`` may take council card ``c`` (offered or fixed; the offer itself is not checked)."""
    if c == C_DEFAULT:
        return True
    if c == C_GRANDE:
        return grande_card_legal(s, t, p)
    k = card_kind(t, c)
    if k == CK_PERMANENT:
        return s.max3[p] == 0
    if k == CK_FINAL:
        e = t.co[c, CO_EFFECT]
        if e > 0 and t.eff[e, 0, EF_LEGENDARY] > 0 and s.legendary[p] != 0:
            return False
    cost = t.co[c, CO_COST]
    if (k == CK_FINAL or k == CK_IMMEDIATE) and cost > 0:  # noqa: SIM109
        return effects.can_pay(s, t, p, cost, 1)
    return True


# ---------------------------------------------------------------- step 1: votes and privilege


@kernel
def agent_votes(s, t, a: int) -> int:
    """What agent ``a`` bids at step 1: a seat its votes, the neutral 3, an Automa its card votes (0..20)."""
    if a == AG_NEUTRAL:
        return int(t.opts[OPT_NEUTRAL_VOTES])
    if a == AG_AUTOMA1:
        return int(automa.automa_votes(s, t, 0))
    if a == AG_AUTOMA2:
        return int(automa.automa_votes(s, t, 1))
    return int(s.votes[a])


@kernel
def reorder_privilege(priv, votes, n: int, out) -> None:
    """The privilege track after the vote: ``out[:n]`` = ``priv[:n]`` by votes, most first; agents with equal
    votes in REVERSE of their current order (``votes[i]`` is the bid of ``priv[i]``)."""
    used = np.zeros(MAX_PRIV, dtype=np.int32)
    for j in range(n):
        best = -1
        for i in range(n):
            if used[i] != 0:
                continue
            # a later index (placed lower) wins a tie: >= while scanning upwards
            if best < 0 or votes[i] >= votes[best]:
                best = i
        used[best] = 1
        out[j] = priv[best]


@kernel
def council_begin(s, t, log) -> None:
    """Start the council (the last time marker was knocked and every agent passed): the Automas' council VP
    (solo), step 1 (votes, privilege order, votes discarded) and step 2 up to the first seat's decision."""
    s.phase = PH_COUNCIL
    if s.solo != 0:
        automa.automa_council_vp(s, t, log)
    n = s.n_priv
    votes = np.zeros(MAX_PRIV, dtype=np.int64)
    old = np.zeros(MAX_PRIV, dtype=np.int32)
    for i in range(n):
        old[i] = s.priv[i]
        votes[i] = agent_votes(s, t, s.priv[i])
    new = np.zeros(MAX_PRIV, dtype=np.int32)
    reorder_privilege(old, votes, n, new)
    for j in range(n):
        a = new[j]
        i = 0
        for q in range(n):
            if old[q] == a:
                i = q
        tied = 0
        for q in range(n):
            if q != i and votes[q] == votes[i]:
                tied = 1
        r = ev_begin(s, log, EV_COUNCIL_VOTES, a)
        if r >= 0:
            log[r, FIELD0 + 0] = a
            log[r, FIELD0 + 1] = votes[i]
            log[r, FIELD0 + 2] = i
            log[r, FIELD0 + 3] = j
            log[r, FIELD0 + 4] = tied
            log[r, FIELD0 + 5] = n
    for j in range(n):
        s.priv[j] = new[j]
    for p in range(s.n_players):
        s.votes[p] = 0
    s.council_pos = 0
    s.actor = -1
    council_next(s, t, log)


# ---------------------------------------------------------------- step 2: rewards


@kernel
def council_next(s, t, log) -> None:
    """Carry the council on: the next agent's reward (an Automa's at once, a seat's decision), then steps
    3-5. Does nothing while decisions are pending or the current seat still has to choose its card."""
    if s.n_pend > 0:
        return
    while s.council_pos < s.n_priv:
        a = s.priv[s.council_pos]
        if s.actor == a:
            s.phase = PH_COUNCIL
            return  # the seat still owes its card (its rank bonus is settled)
        rank = s.council_pos
        if a == AG_AUTOMA1 or a == AG_AUTOMA2:  # noqa: SIM109
            s.phase = PH_COUNCIL
            automa.automa_reward(s, t, a - AG_AUTOMA1, rank, log)
            s.council_pos += 1
            continue
        if not is_seat(s, a):
            s.council_pos += 1  # the neutral takes no reward
            continue
        s.actor = a
        s.phase = PH_COUNCIL
        s.resume_phase = PH_COUNCIL
        bonus = 0
        if rank < t.priv_bonus.shape[0]:
            bonus = int(t.priv_bonus[rank])
        if bonus > 0:
            s.st_council_vp[a] += bonus
            effects.push_pending(s, a, PD_VP_ANY, bonus, 0)
            effects.pending_settle(s, t, log)
            if s.n_pend > 0:
                s.phase = PH_PENDING
        return
    trim_begin(s, t, log)


@kernel
def council_legal(s, t, out) -> int:
    """PH_COUNCIL: the cards the actor may take, ``A_COUNCIL + c`` ascending (the DEFAULT card always)."""
    p = s.actor
    cards = np.empty(N_OFFER, dtype=np.int64)
    m = 0
    for i in range(N_OFFER):
        c = s.offer[i]
        if c >= 0 and card_legal(s, t, p, c):
            j = m  # insertion sort: the offer is not in index order
            while j > 0 and cards[j - 1] > c:
                cards[j] = cards[j - 1]
                j -= 1
            cards[j] = c
            m += 1
    n = 0
    for j in range(m):
        out[n] = A_COUNCIL + cards[j]
        n += 1
    if grande_card_legal(s, t, p):
        out[n] = A_COUNCIL + C_GRANDE
        n += 1
    out[n] = A_COUNCIL + C_DEFAULT
    return n + 1


@kernel
def council_apply(s, t, a: int, log) -> None:
    """PH_COUNCIL: the actor takes council card ``a - A_COUNCIL``; then the council goes on (at once, or
    through ``council_next`` once the decisions the card left are settled)."""
    p = s.actor
    c = a - A_COUNCIL
    k = CK_DEFAULT if c == C_DEFAULT else (CK_GRANDE if c == C_GRANDE else card_kind(t, c))
    rank = s.council_pos
    e = t.co[c, CO_EFFECT]
    cost = t.co[c, CO_COST]
    paid = k != CK_STRATAGEM and k != CK_PERMANENT and k != CK_GRANDE  # immediate, final, default
    r = ev_begin(s, log, EV_COUNCIL_REWARD, p)
    if r >= 0:
        log[r, FIELD0 + 0] = p
        log[r, FIELD0 + 1] = rank
        log[r, FIELD0 + 2] = t.priv_bonus[rank] if rank < t.priv_bonus.shape[0] else 0
        for i in range(N_OFFER):
            log[r, FIELD0 + 3 + i] = s.offer[i]
        log[r, FIELD0 + 8] = s.grande_up
        log[r, FIELD0 + 9] = c
        log[r, FIELD0 + 10] = k
        log[r, FIELD0 + 11] = cost if paid else 0
        log[r, FIELD0 + 12] = e if paid else 0
        log[r, FIELD0 + 13] = t.co[c, CO_STRAT] if k == CK_STRATAGEM else -1
        for j in range(14, 17):
            log[r, FIELD0 + j] = -1
        log[r, FIELD0 + 17] = 0  # CT_NONE: a seat chooses its card
        s.cause = r
    for i in range(N_OFFER):
        if s.offer[i] == c:
            s.offer[i] = -1
    s.council_pos += 1
    s.resume_phase = PH_COUNCIL
    if k == CK_STRATAGEM:
        st = t.co[c, CO_STRAT]
        if st >= 0:
            s.strat[p, st] = 1
    elif k == CK_PERMANENT:
        s.max3[p] = 1
    elif k == CK_GRANDE:
        s.grande_up = 0
        effects.push_pending(s, p, PD_GRANDE_SWAP, 1, 0)
    else:  # immediate, final, default: pay the printed cost (the final cards), then gain
        effects.pay_gain(s, t, p, cost, 1, e, 0, log)
    effects.pending_settle(s, t, log)
    if s.n_pend > 0:
        s.phase = PH_PENDING
    else:
        council_next(s, t, log)


# ---------------------------------------------------------------- step 3: province limit


@kernel
def _same_effect(t, e1: int, e2: int) -> bool:
    """Whether effects ``e1`` and ``e2`` are the same reward (same index or the same amounts)."""
    if e1 == e2:
        return True
    if t.eff_nalt[e1] != t.eff_nalt[e2]:
        return False
    for alt in range(t.eff_nalt[e1]):
        for f in range(EF_FIELDS):
            if t.eff[e1, alt, f] != t.eff[e2, alt, f]:
                return False
    return True


@kernel
def over_slot(s, t, p: int) -> int:
    """The first mat slot of seat ``p`` holding more provinces than its limit (-1 if none)."""
    lim = prov_limit(s, t, p)
    for m in range(4):
        if s.prov_n[p, m] > lim:
            return m
    return -1


@kernel
def _trim_options(s, t, p: int, m: int, out, n: int) -> int:
    """Append ``A_TRIM + m * 8 + i`` for the provinces of slot ``m`` whose removal differs (the first of each
    group of provinces with the same production edge for that slot)."""
    for i in range(s.prov_n[p, m]):
        ei = t.prov[s.prov[p, m, i], m]
        dup = False
        for j in range(i):
            if _same_effect(t, ei, t.prov[s.prov[p, m, j], m]):
                dup = True
                break
        if not dup:
            out[n] = A_TRIM + m * 8 + i
            n += 1
    return n


@kernel
def trim_legal(s, t, out) -> int:
    """PH_TRIM: which province of the first over-limit slot the trimming seat removes (``A_TRIM + m * 8 + i``,
    one per distinct production edge, ascending)."""
    p = s.trim_seat
    m = over_slot(s, t, p)
    if m < 0:
        return 0
    return _trim_options(s, t, p, m, out, 0)


@kernel
def remove_province(s, t, p: int, m: int, i: int, automatic: int, log) -> None:
    """Remove province ``i`` of seat ``p``'s mat slot ``m`` from the game (EV_PROVINCE_LIMIT)."""
    before = s.prov_n[p, m]
    card = s.prov[p, m, i]
    for j in range(i, before - 1):
        s.prov[p, m, j] = s.prov[p, m, j + 1]
    s.prov[p, m, before - 1] = 0
    s.prov_n[p, m] = before - 1
    s.removed_n += 1
    r = ev_begin(s, log, EV_PROVINCE_LIMIT, p)
    if r >= 0:
        log[r, FIELD0 + 0] = p
        log[r, FIELD0 + 1] = m
        log[r, FIELD0 + 2] = prov_limit(s, t, p)
        log[r, FIELD0 + 3] = before
        log[r, FIELD0 + 4] = before - 1
        log[r, FIELD0 + 5] = card
        for j in range(7):
            log[r, FIELD0 + 6 + j] = s.prov[p, m, j] if j < before - 1 else -1
        log[r, FIELD0 + 13] = automatic


@kernel
def _auto_trim(s, t, p: int, log) -> bool:
    """Remove seat ``p``'s extra provinces while there is no real choice; True when the seat is within its
    limits, False when it has to choose."""
    buf = np.empty(8, dtype=np.int64)
    while True:
        m = over_slot(s, t, p)
        if m < 0:
            return True
        if _trim_options(s, t, p, m, buf, 0) > 1:
            return False
        remove_province(s, t, p, m, s.prov_n[p, m] - 1, 1, log)


@kernel
def _trim_from(s, t, pos: int, log) -> None:
    """Step 3 for the seats from privilege place ``pos`` on; stops at the first seat with a choice."""
    for i in range(pos, s.n_priv):
        a = s.priv[i]
        if not is_seat(s, a):
            continue
        if not _auto_trim(s, t, a, log):
            s.trim_seat = a
            s.actor = a
            s.phase = PH_TRIM
            return
    s.trim_seat = -1
    council_step4(s, t, log)


@kernel
def trim_begin(s, t, log) -> None:
    """Council step 3: every seat trims each mat slot to its province limit (in privilege order)."""
    s.phase = PH_TRIM
    _trim_from(s, t, 0, log)


@kernel
def trim_apply(s, t, a: int, log) -> None:
    """PH_TRIM: the trimming seat removes province ``(a - A_TRIM) % 8`` of slot ``(a - A_TRIM) // 8``."""
    p = s.trim_seat
    m = (a - A_TRIM) // 8
    i = (a - A_TRIM) % 8
    remove_province(s, t, p, m, i, 0, log)
    if _auto_trim(s, t, p, log):
        _trim_from(s, t, priv_pos(s, p) + 1, log)


# ---------------------------------------------------------------- step 4: game end or round setup


@njit(cache=True, inline="always")
def _log_deck(s, log, deck: int, vals, n: int) -> None:
    """EV_DECK_ORDER rows for ``vals[:n]`` (14 values a row)."""
    start = 0
    while True:
        r = ev_begin(s, log, EV_DECK_ORDER, -1)
        k = min(N_DECK_VALUES, n - start)
        if r >= 0:
            log[r, FIELD0 + 0] = deck
            log[r, FIELD0 + 1] = start
            log[r, FIELD0 + 2] = k
            for j in range(N_DECK_VALUES):
                log[r, FIELD0 + 3 + j] = vals[start + j] if j < k else -1
        start += N_DECK_VALUES
        if start >= n:
            return


@kernel
def council_step4(s, t, log) -> None:
    """Council step 4: after the last council the game ends (``endgame.multi_end`` or ``automa.solo_end``);
    otherwise the round setup of I.8.5, then council step 5."""
    s.phase = PH_COUNCIL
    if s.round >= t.opts[OPT_ROUNDS]:
        if s.solo != 0:
            automa.solo_end(s, t, log)
        else:
            endgame.multi_end(s, t, log)
        s.over = 1
        s.phase = PH_OVER
        s.actor = -1
        return
    round_setup(s, t, log)
    step5_begin(s, t, log)


@kernel
def round_setup(s, t, log) -> None:
    """I.8.5: grande card up, unchosen standard cards out and 5 new ones (after council 3 the 5 finals),
    display out and 4 new provinces, achievement markers back, a new achievement card with the legendary
    token on it, the time markers back, (solo) the Automa deck rebuilt; then the next round."""
    s.grande_up = 1
    vals = np.full(N_OFFER * 2 + 4, -1, dtype=np.int64)
    # the council offer
    n_rm = 0
    for i in range(N_OFFER):
        if s.offer[i] >= 0:
            vals[n_rm] = s.offer[i]
            n_rm += 1
        s.offer[i] = -1
    if n_rm > 0:
        _log_deck(s, log, DECK_COUNCIL_REMOVED, vals, n_rm)
    final = s.round + 1 >= t.opts[OPT_ROUNDS]
    if final:
        for i in range(N_OFFER):
            s.offer[i] = C_F1 + i
    else:
        for i in range(N_OFFER):
            if s.cdeck_n > 0:
                s.cdeck_n -= 1
                s.offer[i] = s.cdeck[s.cdeck_n]
                s.cdeck[s.cdeck_n] = -1
    for i in range(N_OFFER):
        vals[i] = s.offer[i]
    _log_deck(s, log, DECK_COUNCIL_OFFER, vals, N_OFFER)
    # the province display
    for i in range(N_DISPLAY):
        if s.display[i] >= 0:
            s.removed_n += 1
        s.display[i] = -1
        if s.pdeck_n > 0:
            s.pdeck_n -= 1
            s.display[i] = s.pdeck[s.pdeck_n]
            s.pdeck[s.pdeck_n] = -1
        vals[i] = s.display[i]
    _log_deck(s, log, DECK_DISPLAY, vals, N_DISPLAY)
    # achievements and the legendary token
    for p in range(MAX_PLAYERS):
        s.ach_claims[p] = 0
    old_ach = s.ach_card
    s.ach_card = -1
    if s.adeck_n > 0:
        s.adeck_n -= 1
        s.ach_card = s.adeck[s.adeck_n]
        s.adeck[s.adeck_n] = -1
    s.legendary_on_card = 1 if s.ach_card >= 0 else 0
    s.legendary_on_council = 0
    # time markers
    back = s.markers_automa
    s.markers_left = 3
    s.markers_automa = 0
    s.purple_flips = 0
    s.council_called = 0
    if s.solo != 0:
        automa.automa_round_reset(s, t, log)
    s.round += 1
    r = ev_begin(s, log, EV_ROUND_SETUP, -1)
    if r >= 0:
        for i in range(N_OFFER):
            log[r, FIELD0 + i] = s.offer[i]
        for i in range(N_DISPLAY):
            log[r, FIELD0 + 5 + i] = s.display[i]
        log[r, FIELD0 + 9] = old_ach
        log[r, FIELD0 + 10] = s.ach_card
        log[r, FIELD0 + 11] = s.legendary_on_card
        log[r, FIELD0 + 12] = s.markers_left
        log[r, FIELD0 + 13] = back
        log[r, FIELD0 + 14] = s.removed_n
        log[r, FIELD0 + 15] = 1 if final else 0


# ---------------------------------------------------------------- step 5: placement, then step 6


@kernel
def n_seats(s) -> int:
    """Seats on the privilege track (the agents who act in step 5)."""
    n = 0
    for i in range(s.n_priv):
        if is_seat(s, s.priv[i]):
            n += 1
    return n


@kernel
def step5_advance(s) -> None:
    """Step 5: the next seat after ``s.rr`` in privilege order (cyclic) becomes the actor."""
    for k in range(1, s.n_priv + 1):
        i = (s.rr + k) % s.n_priv
        if is_seat(s, s.priv[i]):
            s.rr = i
            s.actor = s.priv[i]
            return


@kernel
def step5_begin(s, t, log) -> None:
    """Council step 5: a placement-only round robin in privilege order, the first seat to act."""
    s.phase = PH_STEP5
    s.resume_phase = PH_STEP5
    s.passes = 0
    s.rr = s.n_priv - 1
    step5_advance(s)


@kernel
def step5_pass(s, t, log) -> None:
    """PH_STEP5: the actor passes; when every seat passed in a row, step 6 (``clock.round_start``), else the
    next seat in privilege order. (After a move the driver sets ``s.passes = 0`` and calls ``step5_advance``.)"""
    s.passes += 1
    ns = n_seats(s)
    r = ev_begin(s, log, EV_PASS, s.actor)
    if r >= 0:
        log[r, FIELD0 + 0] = s.actor
        log[r, FIELD0 + 1] = s.passes
        log[r, FIELD0 + 2] = ns
    if s.passes >= ns:
        s.passes = 0
        clock.round_start(s, t, log)
        return
    step5_advance(s)
