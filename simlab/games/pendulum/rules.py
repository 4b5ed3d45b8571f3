"""Pendulum's rules kernels: setup, legal actions and the phase machine (NOTES I.2, I.3, I.12.2, I.13).

Entry points (calling conventions of :mod:`simlab.core.compiled`; ``t`` = ``tables[0]``):

    new_log(capacity)
    setup(s, seed, n_players, t, log)
    legal_actions(s, t, out) -> n            (strictly ascending)
    apply_action(s, t, a, log)
    py_setup(state, seed, n_players, tables, log, legal) -> n
    py_legal(state, tables, legal) -> n
    py_step(state, action, tables, log, legal) -> n (0 once the game is over)

**Setup** (``setup``): the 64-bit game seed gives one key per random stream (``derive_key(seed, k)``, as every
simlab game), so each chance stream is reproducible on its own and none depends on the seats' choices (I.13.6):
provinces (STREAM_PROVINCES: 4 dealt face up, slot 0 = the top of the column), achievements (STREAM_ACHIEVEMENTS:
1 revealed; the legendary token on it with 4-5 players, on the council deck with 2-3 players and in solo),
council (STREAM_COUNCIL: the 25 standard cards shuffled, 10 removed unseen, 5 offered, 10 kept on top of the
finals, which council 3's round setup offers), setup (STREAM_SETUP: the privilege order — seats at random, the
2-player neutral last; in solo the seat and both Automas at random —, the characters: distinct, one random
character per seat, its side per ``character_side``: basic, advanced or random per seat; the side is drawn for
every seat whatever the option, so the option changes no other draw). Every seat: the persona's 4 stratagems in
hand, the mat's start resources, votes and track positions, slot 0 its grande and slot 1 a common on the mat,
slots 2-3 commons in reserve (workers.py); the advanced variant per ``advanced_variant`` (levels D-F impose it
on the solo seat, ``t.lvl_adv``). Timers on the top row, 3 time markers. Solo: ``automa.automa_setup`` (before
the seat places). Logged: EV_GAME_START (the seed, options codes, level, characters, advanced seats) and
EV_DECK_ORDER rows for the privilege order and every shuffled deck (index order, the top card last: provinces,
achievements, council with the cards removed, the offer and the display). Then PH_START.

**Phases** (``legal_actions`` / ``apply_action``; ``s.actor`` decides):

- PH_START: in privilege order every seat places its grande on a bottom-row space, then every seat its common
  (``workers.start_legal`` / ``start_apply``); then ``clock.round_start`` (the round-start flips, PH_REAL).
- PH_REAL: the seat's atomic actions (``realtime.real_legal`` / ``real_apply``; who acts next:
  ``realtime.next_real_actor``, which also starts the council).
- PH_PENDING: the top decision of the pending stack, by ``s.pend_seat`` (``effects.pending_legal`` /
  ``pending_apply``).
- PH_REPLACE: solo, the lifted worker's new place (``workers.replace_legal`` / ``replace_apply``).
- PH_COUNCIL, PH_TRIM: ``council.council_legal`` / ``council_apply``, ``council.trim_legal`` / ``trim_apply``.
- PH_STEP5: ``workers.step5_legal`` and A_PASS (``council.step5_pass``; after a move ``council.step5_advance``).

``apply_action`` sets ``s.cause = -1`` and counts the decision (``st_decisions``), dispatches, then carries the
game to the next decision: while the pending stack is not empty its seat decides (PH_PENDING); a lift waits for
the placement (PH_REPLACE); once the action is settled play returns to ``s.resume_phase`` (the phase the action
began in) and moves on: the next start placement, the next real-time turn, the council's next step
(``council.council_next``) or the next step-5 seat.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.kernels import new_log as _new_log
from simlab.core.rng import below, derive_key
from simlab.games.pendulum import automa, clock, council, effects, realtime, timers, workers
from simlab.games.pendulum.codes import (
    A_LIFT,
    A_MOVE,
    A_PASS,
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    DECK_ACHIEVEMENTS,
    DECK_COUNCIL,
    DECK_COUNCIL_OFFER,
    DECK_COUNCIL_REMOVED,
    DECK_DISPLAY,
    DECK_PRIVILEGE,
    DECK_PROVINCES,
    EV_DECK_ORDER,
    EV_GAME_START,
    LOG_WIDTH,
    N_DEST,
    OPT_ADVANCED,
    OPT_CHARACTER_SIDE,
    OPT_LEVEL,
    OPT_OMEN,
    OPT_TIME_MODEL,
    PART_TOP,
    PH_COUNCIL,
    PH_OVER,
    PH_PENDING,
    PH_REAL,
    PH_REPLACE,
    PH_START,
    PH_STEP5,
    PH_TRIM,
    ROW_TOP,
    TM_TIMED,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import (
    MAX_PLAYERS,
    MAX_WORKERS,
    N_STREAMS,
    STREAM_ACHIEVEMENTS,
    STREAM_COUNCIL,
    STREAM_PROVINCES,
    STREAM_SETUP,
)
from simlab.games.pendulum.tables import (
    CH_ADVANCED,
    CH_GROUP,
    CH_START_RES0,
    CH_START_TRACK0,
    CH_START_VOTES,
    CO_DECK,
    ST_OWNER,
)

next_u64 = bind(kernels.next_u64)
shuffle = bind(kernels.shuffle)

N_DISPLAY = 4
N_OFFER = 5
N_REMOVED = 10  # standard council cards removed unseen at setup
N_DECK_VALUES = 14  # v0..v13 of an EV_DECK_ORDER row
N_MARKERS = 3

EVENT_FIELDS = {
    # the game's set-up: the 64-bit seed in four 16-bit words (low first; every stream key is
    # derive_key(seed, stream)), the player count, solo, the Automa level (solo), the time model (TM_*), the
    # character_side option (0 basic, 1 advanced, 2 random), the seats playing the advanced variant (bit p),
    # the Omen variant, each seat's character (row of the ruleset's characters; -1 for no seat), agents on
    # the privilege track (the order is the DECK_PRIVILEGE row that follows)
    EV_GAME_START: ("seed_w0", "seed_w1", "seed_w2", "seed_w3", "n_players", "is_solo", "level", "time_model",
                    "character_side", "advanced_seat_mask", "is_omen", "seat0_character", "seat1_character",
                    "seat2_character", "seat3_character", "seat4_character", "n_priv"),
    # a list too long for one row (deck code DECK_*, index of its first value, length of the whole list,
    # values; -1 padding). Decks are listed in index order: the top card (drawn first) is the LAST value
    EV_DECK_ORDER: ("deck", "start", "n", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
                    "v11", "v12", "v13"),
}
"""Fields of the events this module logs, in column order (eventlog.FIELD0 + i)."""


@kernel
def new_log(capacity: int) -> np.ndarray:
    """An event log for ``capacity`` events (0 records nothing)."""
    return _new_log(capacity, LOG_WIDTH)


@njit(cache=True, inline="always")
def log_deck(s, log, deck: int, vals, n: int) -> None:
    """EV_DECK_ORDER rows listing ``vals[:n]`` (14 values a row; ``start``: index of the row's first value,
    ``n``: values in the row)."""
    start = 0
    while True:
        r = ev_begin(s, log, EV_DECK_ORDER, -1)
        if r < 0:
            return
        log[r, FIELD0 + 0] = deck
        log[r, FIELD0 + 1] = start
        log[r, FIELD0 + 2] = min(N_DECK_VALUES, n - start)  # values in this row
        for j in range(N_DECK_VALUES):
            log[r, FIELD0 + 3 + j] = vals[start + j] if start + j < n else -1
        start += N_DECK_VALUES
        if start >= n:
            return


# ---------------------------------------------------------------- setup


@kernel
def reset_record(s) -> None:
    """Every field of the record to its empty value (a new game; the batch loop reuses one record)."""
    s.seed = 0
    s.n_players = 0
    s.solo = 0
    s.phase = PH_START
    s.actor = 0
    s.over = 0
    s.round = 1
    s.end_branch = 0
    s.level = 0
    s.cause = -1
    s.now = 0.0
    s.sched_step = 0
    s.timer_row[:] = ROW_TOP
    s.runs_out[:] = 0.0
    s.purple_flips = 0
    s.markers_left = N_MARKERS
    s.markers_automa = 0
    s.council_called = 0
    s.priv[:] = -1
    s.n_priv = 0
    s.rr = 0
    s.passes = 0
    s.ready_at[:] = 0.0
    s.waiting[:] = 0
    s.pend_kind[:] = 0
    s.pend_n[:] = 0
    s.pend_arg[:] = 0
    s.n_pend = 0
    s.pend_seat = -1
    s.resume_phase = PH_START
    s.lifted_seat = -1
    s.lifted_worker = -1
    s.char[:] = -1
    s.advanced[:] = 0
    s.res[:, :] = 0
    s.votes[:] = 0
    s.track[:, :] = 0
    s.glory[:, :] = 0
    s.legendary[:] = 0
    s.ach_claims[:] = 0
    s.max3[:] = 0
    s.strat[:, :] = 0
    s.w_place[:, :] = W_RESERVE
    s.w_part[:, :] = PART_TOP
    s.w_grande[:, :] = 0
    s.prov[:, :, :] = 0
    s.prov_n[:, :] = 0
    s.free_action[:] = 0
    s.double_action[:] = 0
    s.adjacent_action[:] = 0
    s.claim_twice[:] = 0
    s.pdeck[:] = -1
    s.pdeck_n = 0
    s.display[:] = -1
    s.removed_n = 0
    s.adeck[:] = -1
    s.adeck_n = 0
    s.ach_card = -1
    s.legendary_on_card = 0
    s.legendary_on_council = 0
    s.cdeck[:] = -1
    s.cdeck_n = 0
    s.offer[:] = -1
    s.grande_up = 1
    s.council_pos = 0
    s.trim_seat = -1
    s.a_deck[:] = -1
    s.a_deck_n = 0
    s.a_disc[:] = -1
    s.a_disc_n = 0
    s.a_work[:] = -1
    s.a_score[:] = 0
    s.a_grande[:] = 0
    s.a_cards[:, :] = -1
    s.a_ncards[:] = 0
    s.a_fallback[:] = 0
    s.rank[:] = 0
    s.winner[:] = 0
    s.automa_won = 0
    s.st_actions[:] = 0
    s.st_strats[:] = 0
    s.st_provinces[:] = 0
    s.st_claims[:] = 0
    s.st_legendary_round[:] = 0
    s.st_council_vp[:] = 0
    s.st_triggers[:] = 0
    s.st_automa_flips = 0
    s.st_automa_purple = 0
    s.st_decisions[:] = 0
    s.st_lost[:] = 0
    s.start_priv[:] = 0
    s.step_acts[:] = 0
    s.step_key[:] = 0
    s.rng_key[:] = 0
    s.rng_ctr[:] = 0


@kernel
def character_row(t, group: int, advanced: int) -> int:
    """The characters-table row of character ``group`` on side ``advanced`` (the other side if missing)."""
    other = -1
    for r in range(t.n_chars):
        if t.ch[r, CH_GROUP] == group:
            if t.ch[r, CH_ADVANCED] == advanced:
                return r
            other = r
    return other


@kernel
def n_groups(t) -> int:
    """How many characters the table holds (each with a basic and an advanced side)."""
    g = 0
    for r in range(t.n_chars):
        if t.ch[r, CH_GROUP] + 1 > g:
            g = t.ch[r, CH_GROUP] + 1
    return g


@kernel
def setup_seat(s, t, p: int, row: int, advanced: int) -> None:
    """Seat ``p`` plays character row ``row`` (I.3): its stratagems in hand, its start resources, votes and
    tracks, the grande (slot 0) and one common (slot 1) on the mat, two commons in reserve."""
    s.char[p] = row
    s.advanced[p] = advanced
    for i in range(t.n_strats):
        if t.st[i, ST_OWNER] == row:
            s.strat[p, i] = 1
    for r in range(3):
        s.res[p, r] = t.ch[row, CH_START_RES0 + r]
        s.track[p, r] = t.ch[row, CH_START_TRACK0 + r]
    s.votes[p] = t.ch[row, CH_START_VOTES]
    for w in range(MAX_WORKERS):
        s.w_place[p, w] = W_MAT if w < 2 else W_RESERVE
        s.w_part[p, w] = PART_TOP
        s.w_grande[p, w] = 1 if w == 0 else 0


@kernel
def setup(s, seed, n_players, t, log) -> None:
    """A new game from its 64-bit seed (NOTES I.2, I.3, I.12.2; see the module docstring); PH_START."""
    reset_record(s)
    s.seed = np.uint64(seed)
    s.n_players = n_players
    solo = n_players == 1
    s.solo = 1 if solo else 0
    s.level = int(t.opts[OPT_LEVEL]) if solo else 0
    timed = t.opts[OPT_TIME_MODEL] == TM_TIMED
    s.sched_step = -1 if timed else 0
    for k in range(N_STREAMS):
        s.rng_key[k] = derive_key(np.uint64(seed), np.uint64(k))
        s.rng_ctr[k] = 0
    # ---- privilege order (STREAM_SETUP): seats at random, the 2-player neutral last; solo: the seat and the
    # two Automas at random
    n_priv = 3 if solo else n_players
    for j in range(n_priv):
        s.priv[j] = j
    if solo:
        s.priv[1] = AG_AUTOMA1
        s.priv[2] = AG_AUTOMA2
    shuffle(s, STREAM_SETUP, s.priv, n_priv)
    if n_players == 2:
        s.priv[n_priv] = AG_NEUTRAL
        n_priv += 1
    s.n_priv = n_priv
    for j in range(n_priv):
        a = s.priv[j]
        if 0 <= a < n_players:
            s.start_priv[a] = j + 1
    # ---- characters (STREAM_SETUP): distinct, sides per character_side (drawn for every seat)
    ng = n_groups(t)
    groups = np.arange(ng)
    shuffle(s, STREAM_SETUP, groups, ng)
    side_opt = t.opts[OPT_CHARACTER_SIDE]
    level_adv = solo and t.lvl_adv[s.level] != 0
    adv_mask = 0
    for p in range(n_players):
        x = next_u64(s, STREAM_SETUP)
        side = 0
        if side_opt == 1:
            side = 1
        elif side_opt == 2:
            side = below(x, 2)
        adv = 1 if (t.opts[OPT_ADVANCED] != 0 or level_adv) else 0
        setup_seat(s, t, p, character_row(t, groups[p % ng], side), adv)
        adv_mask |= adv << p
    # ---- timers on the top row; the time markers in the other purple circles
    for tm in range(3):
        s.timer_row[tm] = ROW_TOP
        s.runs_out[tm] = 0.0
    s.markers_left = N_MARKERS
    # ---- achievements (STREAM_ACHIEVEMENTS): one revealed; the legendary token on it (4-5 players) or on the
    # council deck (2-3 players, solo)
    na = t.n_ach
    for i in range(na):
        s.adeck[i] = i
    shuffle(s, STREAM_ACHIEVEMENTS, s.adeck, na)
    ach_order = s.adeck[:na].copy()
    s.adeck_n = na
    if na > 0:
        s.adeck_n = na - 1
        s.ach_card = s.adeck[na - 1]
        s.adeck[na - 1] = -1
    big = n_players >= 4
    s.legendary_on_card = 1 if big and s.ach_card >= 0 else 0
    s.legendary_on_council = 0 if big else 1
    # ---- provinces (STREAM_PROVINCES): 4 face up, slot 0 (the top) first
    npv = t.n_prov
    for i in range(npv):
        s.pdeck[i] = i
    shuffle(s, STREAM_PROVINCES, s.pdeck, npv)
    prov_order = s.pdeck[:npv].copy()
    s.pdeck_n = npv
    for k in range(N_DISPLAY):
        if s.pdeck_n > 0:
            s.pdeck_n -= 1
            s.display[k] = s.pdeck[s.pdeck_n]
            s.pdeck[s.pdeck_n] = -1
    # ---- council deck (STREAM_COUNCIL): 25 standard cards shuffled, 10 removed unseen, 5 offered, 10 kept
    std = np.empty(32, dtype=np.int32)
    nstd = 0
    for c in range(32):
        if t.co[c, CO_DECK] == 0:
            std[nstd] = c
            nstd += 1
    shuffle(s, STREAM_COUNCIL, std, nstd)
    top = nstd
    removed = np.full(N_REMOVED, -1, dtype=np.int32)
    n_rm = 0
    while n_rm < N_REMOVED and top > 0:
        top -= 1
        removed[n_rm] = std[top]
        n_rm += 1
    for i in range(N_OFFER):
        if top > 0:
            top -= 1
            s.offer[i] = std[top]
    for i in range(top):
        s.cdeck[i] = std[i]
    s.cdeck_n = top
    s.grande_up = 1
    # ---- the log
    r = ev_begin(s, log, EV_GAME_START, -1)
    if r >= 0:
        sd = np.uint64(seed)
        for k in range(4):
            log[r, FIELD0 + k] = int((sd >> np.uint64(16 * k)) & np.uint64(0xFFFF))
        log[r, FIELD0 + 4] = n_players
        log[r, FIELD0 + 5] = s.solo
        log[r, FIELD0 + 6] = s.level if solo else -1
        log[r, FIELD0 + 7] = t.opts[OPT_TIME_MODEL]
        log[r, FIELD0 + 8] = side_opt
        log[r, FIELD0 + 9] = adv_mask
        log[r, FIELD0 + 10] = 1 if t.opts[OPT_OMEN] != 0 else 0
        for p in range(MAX_PLAYERS):
            log[r, FIELD0 + 11 + p] = s.char[p]
        log[r, FIELD0 + 16] = n_priv
    log_deck(s, log, DECK_PRIVILEGE, s.priv, n_priv)
    log_deck(s, log, DECK_ACHIEVEMENTS, ach_order, na)
    log_deck(s, log, DECK_PROVINCES, prov_order, npv)
    log_deck(s, log, DECK_DISPLAY, s.display, N_DISPLAY)
    log_deck(s, log, DECK_COUNCIL, std, nstd)
    log_deck(s, log, DECK_COUNCIL_REMOVED, removed, n_rm)
    log_deck(s, log, DECK_COUNCIL_OFFER, s.offer, N_OFFER)
    # ---- solo: the Automas' workers and deck, before the seat places (I.12.2)
    if solo:
        automa.automa_setup(s, t, log)
    s.cause = -1
    s.phase = PH_START
    s.resume_phase = PH_START
    start_next(s, t, log)


# ---------------------------------------------------------------- start of play


@kernel
def start_next(s, t, log) -> None:
    """PH_START: the next seat to place (privilege order: every grande, then every common); when every seat
    has placed both, the round-start flips (``clock.round_start``)."""
    for j in range(s.n_priv):
        p = s.priv[j]
        if timers.is_seat(s, p):
            for w in range(MAX_WORKERS):
                if s.w_place[p, w] == W_MAT and s.w_grande[p, w] != 0:
                    s.phase = PH_START
                    s.actor = p
                    return
    for j in range(s.n_priv):
        p = s.priv[j]
        if timers.is_seat(s, p) and workers.start_worker(s, p) >= 0:
            s.phase = PH_START
            s.actor = p
            return
    clock.round_start(s, t, log)


# ---------------------------------------------------------------- legal actions


@kernel
def legal_actions(s, t, out) -> int:
    """The actor's legal actions in the current phase, written to ``out``; returns how many (ascending)."""
    ph = s.phase
    n = 0
    if ph == PH_START:
        n = workers.start_legal(s, t, out)
    elif ph == PH_REAL:
        return realtime.real_legal(s, t, out)
    elif ph == PH_PENDING:
        n = effects.pending_legal(s, t, out)
    elif ph == PH_REPLACE:
        n = workers.replace_legal(s, t, out)
    elif ph == PH_COUNCIL:
        n = council.council_legal(s, t, out)
    elif ph == PH_TRIM:
        n = council.trim_legal(s, t, out)
    elif ph == PH_STEP5:
        out[0] = A_PASS
        n = 1 if realtime.at_step_limit(s, t, s.actor) else workers.step5_legal(s, t, s.actor, out, 1)
    else:
        return 0
    realtime.sort_actions(out, n)
    return n


# ---------------------------------------------------------------- applying actions


@kernel
def move_on(s, t, base: int, log) -> None:
    """The action begun in phase ``base`` is settled (no decision left): the game goes on from there."""
    if base == PH_START:
        start_next(s, t, log)
    elif base == PH_REAL:
        realtime.next_real_actor(s, t, log)
    elif base == PH_COUNCIL:
        council.council_next(s, t, log)
    elif base == PH_STEP5:
        s.phase = PH_STEP5
        s.passes = 0
        council.step5_advance(s)


@kernel
def settle(s, t, ph: int, a: int, log) -> None:
    """After an action taken in phase ``ph``: the next decision (pending stack, lifted worker, or the next
    turn once the action is settled)."""
    if s.over != 0:
        s.phase = PH_OVER
        return
    if s.n_pend > 0:
        s.phase = PH_PENDING
        s.actor = s.pend_seat
        return
    if s.phase == PH_REPLACE and s.lifted_seat >= 0:
        s.actor = s.lifted_seat
        return
    if ph in (PH_PENDING, PH_REPLACE):
        base = s.resume_phase
        s.phase = base
        move_on(s, t, base, log)
    elif ph in (PH_START, PH_REAL):
        move_on(s, t, ph, log)
    elif ph == PH_STEP5 and a != A_PASS:
        move_on(s, t, PH_STEP5, log)
    # PH_COUNCIL and PH_TRIM move on by themselves (council_apply / trim_apply), as does a step-5 pass
    if s.over != 0:
        s.phase = PH_OVER
    elif s.n_pend > 0:
        s.phase = PH_PENDING
        s.actor = s.pend_seat


@kernel
def apply_action(s, t, a, log) -> None:
    """The actor takes action ``a`` (legal in the current phase); the game runs to the next decision."""
    s.cause = -1
    p = s.actor
    if 0 <= p < s.n_players:
        s.st_decisions[p] += 1
    ph = s.phase
    if ph == PH_START:
        workers.start_apply(s, t, a, log)
    elif ph == PH_REAL:
        s.resume_phase = PH_REAL
        realtime.real_apply(s, t, a, log)
    elif ph == PH_PENDING:
        effects.pending_apply(s, t, a, log)
    elif ph == PH_REPLACE:
        workers.replace_apply(s, t, a, log)
    elif ph == PH_COUNCIL:
        council.council_apply(s, t, a, log)
    elif ph == PH_TRIM:
        council.trim_apply(s, t, a, log)
    elif ph == PH_STEP5:
        s.resume_phase = PH_STEP5
        if a != A_PASS:
            realtime.count_step_action(s, p)
        if a == A_PASS:
            council.step5_pass(s, t, log)
        elif a < A_MOVE:
            workers.lift_worker(s, t, p, a - A_LIFT, log)
            s.phase = PH_REPLACE
            s.actor = p
        else:
            x = a - A_MOVE
            workers.move_worker(s, t, p, x // N_DEST, x % N_DEST, log)
    else:
        return
    settle(s, t, ph, a, log)


# ---------------------------------------------------------------- entry points for Python


@kernel
def py_setup(state, seed, n_players, tables, log, legal) -> int:
    """Set up a game; return the number of legal actions written to ``legal``."""
    s = state[0]
    t = tables[0]
    setup(s, seed, n_players, t, log)
    return legal_actions(s, t, legal)


@kernel
def py_legal(state, tables, legal) -> int:
    """The legal actions of the position in ``state[0]`` written to ``legal``; return how many."""
    return legal_actions(state[0], tables[0], legal)


@kernel
def py_step(state, action, tables, log, legal) -> int:
    """Apply ``action``; return the next decision's legal actions count (0 once the game is over)."""
    s = state[0]
    t = tables[0]
    apply_action(s, t, action, log)
    if s.over != 0:
        return 0
    return legal_actions(s, t, legal)

