"""Pendulum's sand timers: run-out, flips, time markers, council called (NOTES I.5, I.12.4, I.12.7, I.12.9, I.13.1).

A timer ``tm`` (T_PURPLE, T_GREEN, T_BLACK) sits on row ``s.timer_row[tm]`` and has run out when
``s.now >= s.runs_out[tm]``. A flip (``flip_timer``) moves it to the other row of its area and restarts its
sand (``runs_out = now + t.timer_s[tm]``). Who flips (``FL_*``) decides what the flip sets off:

- **purple**, every flip: in solo with the Omen variant the Automas reveal their card first
  (``automa.omen_before_purple_flip``, including the round-start flip); ``purple_flips`` counts the flip
  (the round-start flip is flip 1) and a time marker is knocked off (``markers_left``). The marker goes to
  the Automa board only when an Automa card made the flip and it is flip 2 or 3 (I.12.7, VI.12); the
  round-start flip, the seats' flips and the automatic flips never send it there.
- **solo, purple flip 2** (whoever makes it): the legendary token leaves the achievement card
  (``legendary_on_card = 0``, EV_LEGENDARY; I.12.9, I.13.8).
- **the last marker** knocked: council is called at once (``council_called``, EV_COUNCIL_CALLED); no timer
  is flipped after that (I.5.5, VI.3): ``flip_timer`` refuses, ``flip_legal`` offers nothing.
- **trigger 2** (solo, ``human_flip``): the seat flips green or black while purple has run out (and, being
  run out, is unflipped): the Automa acts after the flip (``automa.automa_act(.., TR_HUMAN_FLIP, ..)``). Only
  the seat's own flips fire it; automatic flips do only with ``auto_flips_count_as_human_flips`` (II.2).
- **timed model**: every flip ends the waits of the seats that passed: the timers changed.
- **overdue** (FL_OVERDUE; only with ``allow_delayed_flips``): a timer whose sand ran out ``max_flip_delay_s``
  ago and that nobody flipped flips by itself (``flip_overdue``), attributed to nobody like FL_AUTO (no trigger,
  no marker to the Automa board). A simulator safeguard with no rulebook counterpart: without it seats that
  never flip purple and keep flipping black would stall the round for ever (council is never called).

The clock of the real-time phase (realtime.py documents the protocol; the seats' turns are there):

- **schedule model**: ``begin_real`` (step 0), ``step_end`` (every seat passed in a row: the due timers nobody
  flipped flip automatically, the next step of ``t.sched`` begins at its time; EV_SCHEDULE_STEP). With
  ``allow_delayed_flips`` the next step begins at the next sand run-out or overdue deadline, whichever is first,
  and the overdue timers flip as it begins.
- **timed model**: ``timed_pick`` runs the clock to the next seat's decision: sand run-outs (EV_CLOCK) wake the
  seats that passed, the automatic flip of a timer nobody flipped comes at its deadline (with delayed flips:
  the overdue flip at run-out + ``max_flip_delay_s``), and the first seat
  ready acts (a seat higher in privilege order ready within the simultaneity window goes first, EV_CONFLICT).
  Reaction times are lognormal draws from STREAM_CLOCK (``action_time``, ``flip_delay``).

``round_start`` is council step 6 / the end of the start of play: all three timers flip (FL_ROUND_START, in
``auto_flip_order``; purple flip 1), the clock restarts at 0 and the real-time phase begins (step 0 of the
schedule, or the timed clock).

Among the rules modules this one imports only ``automa``: the modules import each other, and some read a
sibling's ``EVENT_FIELDS`` at import time, so the clock stays at the bottom of the import graph.
"""

from __future__ import annotations

import math

from numba import njit

from simlab.core import kernels
from simlab.core.kernels import bind
from simlab.core.rng import unit
from simlab.games.pendulum import automa
from simlab.games.pendulum.codes import (
    A_FLIP,
    EV_CLOCK,
    EV_CONFLICT,
    EV_COUNCIL_CALLED,
    EV_LEGENDARY,
    EV_SCHEDULE_STEP,
    EV_TIMER_FLIP,
    FL_AUTO,
    FL_AUTOMA,
    FL_HUMAN,
    FL_OVERDUE,
    FL_ROUND_START,
    OPT_AUTO_FLIP_AS_HUMAN,
    OPT_AUTO_ORDER0,
    OPT_DELAYED_FLIPS,
    OPT_FLIP_MS,
    OPT_FLIP_SIGMA_PM,
    OPT_HUMAN_MS,
    OPT_HUMAN_SIGMA_PM,
    OPT_MAX_FLIP_DELAY_MS,
    OPT_OMEN,
    OPT_SIMUL_MS,
    OPT_TIME_MODEL,
    PH_REAL,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TM_TIMED,
    TR_HUMAN_FLIP,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_PLAYERS, STREAM_CLOCK
from simlab.games.pendulum.tables import SC_DUE, SC_PURPLE_NO, SC_TIME

next_u64 = bind(kernels.next_u64)

INF = 1.0e18
N_TIMERS = 3
N_MARKERS = 3  # time markers in the purple circles at the start of a round

EVENT_FIELDS = {
    # a flip: which timer, who flipped (FL_*) and which seat (-1: nobody / an Automa card), the row before and
    # after, when its sand had run out (proof it could be flipped) and when it runs out now; for purple the
    # flip number this round, the markers left in the purple circles, whether the knocked marker went to the
    # Automa board and how many lie there now, whether the legendary token left the achievement card and
    # whether council was called; the timers that had run out at that moment (bit 1 << timer)
    EV_TIMER_FLIP: ("timer", "flipper", "seat", "before_row", "after_row", "before_runs_out_ds", "runs_out_ds",
                    "purple_flip_no", "markers_left", "is_marker_to_automa", "markers_automa",
                    "is_legendary_removed", "is_council_called", "due_mask"),
    # solo: the legendary token left the achievement card at the 2nd purple flip of the round
    EV_LEGENDARY: ("purple_flip_no", "by_flipper", "seat"),
    # the last time marker was knocked off: no more flips; play goes on until every seat passed, then council
    EV_COUNCIL_CALLED: ("purple_flip_no", "by_flipper", "seat", "markers_automa"),
    # schedule model: a step begins (the timers that have run out now and those the schedule says are due,
    # bit 1 << timer; the schedule's purple flip number; the timers flipped automatically when the previous
    # step ended, in auto_flip_order)
    EV_SCHEDULE_STEP: ("step", "due_mask", "sched_due_mask", "purple_flip_no", "auto_flip_mask"),
    # timed model: a timer's sand ran out now; the seats it woke from their wait (bit 1 << seat)
    EV_CLOCK: ("timer", "woken_seat_mask"),
    # timed model: a seat higher in privilege order acted before a seat that was ready earlier, within the
    # simultaneity window (times in tenths of a second); the contested object is what the seat then took: its
    # action code, written when it acts (realtime.real_apply; -1 until then)
    EV_CONFLICT: ("seat", "overtaken_seat", "ready_ds", "overtaken_ready_ds", "window_ds", "action"),
}
"""Fields of the events this module logs, in column order (eventlog.FIELD0 + i)."""


# ---------------------------------------------------------------- state of the sand


@njit(cache=True)
def has_run_out(s, timer: int) -> bool:
    """Whether ``timer``'s sand has run out (``now >= runs_out``); a run-out timer has not been flipped since."""
    return s.now >= s.runs_out[timer]


@njit(cache=True)
def due_mask(s) -> int:
    """The timers that have run out now, as a bit mask (bit ``1 << timer``)."""
    m = 0
    for tm in range(N_TIMERS):
        if s.now >= s.runs_out[tm]:
            m |= 1 << tm
    return m


@njit(cache=True)
def auto_order(t, k: int) -> int:
    """The k-th timer of ``auto_flip_order`` (default green, black, purple)."""
    return int(t.opts[OPT_AUTO_ORDER0 + k])


# ---------------------------------------------------------------- flips


@njit(cache=True)
def flip_timer(s, t, timer: int, flipper: int, log, seat: int = -1) -> bool:
    """Flip ``timer`` (it moves to the other row and its sand restarts); ``flipper`` is FL_*, ``seat`` the seat
    that flipped (-1 for nobody or an Automa card). Purple: Omen draws first (solo + option), the flip count,
    the time marker (to the Automa board only for an Automa card's flip 2 or 3), the solo legendary cut-off at
    flip 2, council called at the last marker. Returns False (and does nothing) once council has been called.
    The caller checks that the sand has run out (the round-start flip does not need it)."""
    if s.council_called != 0:
        return False
    due = due_mask(s)
    if timer == T_PURPLE and s.solo != 0 and t.opts[OPT_OMEN] != 0:
        automa.omen_before_purple_flip(s, t, log)
    before_row = s.timer_row[timer]
    before_runs_out = s.runs_out[timer]
    s.timer_row[timer] = 1 - before_row
    s.runs_out[timer] = s.now + float(t.timer_s[timer])
    flip_no = 0
    to_automa = 0
    legendary_removed = 0
    called = 0
    if timer == T_PURPLE:
        s.purple_flips += 1
        flip_no = s.purple_flips
        if s.markers_left > 0:
            s.markers_left -= 1
            if flipper == FL_AUTOMA and (flip_no == 2 or flip_no == 3):
                s.markers_automa += 1
                to_automa = 1
        if s.solo != 0 and flip_no == 2 and s.legendary_on_card != 0:
            s.legendary_on_card = 0
            legendary_removed = 1
        if s.markers_left == 0:
            s.council_called = 1
            called = 1
    r = ev_begin(s, log, EV_TIMER_FLIP, seat)
    if r >= 0:
        log[r, FIELD0 + 0] = timer
        log[r, FIELD0 + 1] = flipper
        log[r, FIELD0 + 2] = seat
        log[r, FIELD0 + 3] = before_row
        log[r, FIELD0 + 4] = s.timer_row[timer]
        log[r, FIELD0 + 5] = int(before_runs_out * 10.0 + 0.5)
        log[r, FIELD0 + 6] = int(s.runs_out[timer] * 10.0 + 0.5)
        log[r, FIELD0 + 7] = flip_no
        log[r, FIELD0 + 8] = s.markers_left
        log[r, FIELD0 + 9] = to_automa
        log[r, FIELD0 + 10] = s.markers_automa
        log[r, FIELD0 + 11] = legendary_removed
        log[r, FIELD0 + 12] = called
        log[r, FIELD0 + 13] = due
    if legendary_removed or called:
        cause = s.cause
        if r >= 0:
            s.cause = r
        if legendary_removed:
            r2 = ev_begin(s, log, EV_LEGENDARY, seat)
            if r2 >= 0:
                log[r2, FIELD0 + 0] = flip_no
                log[r2, FIELD0 + 1] = flipper
                log[r2, FIELD0 + 2] = seat
        if called:
            r2 = ev_begin(s, log, EV_COUNCIL_CALLED, seat)
            if r2 >= 0:
                log[r2, FIELD0 + 0] = flip_no
                log[r2, FIELD0 + 1] = flipper
                log[r2, FIELD0 + 2] = seat
                log[r2, FIELD0 + 3] = s.markers_automa
        s.cause = cause
    if t.opts[OPT_TIME_MODEL] == TM_TIMED and flipper != FL_ROUND_START:
        wake_waiting(s, t)
    return True


@njit(cache=True)
def human_flip(s, t, p: int, timer: int, log) -> None:
    """Seat ``p`` flips ``timer`` (run out). Solo trigger 2: a green or black flip while purple has run out
    makes the Automa act after the flip (NOTES I.12.4.2; only the seat's own flips do)."""
    trigger = (s.solo != 0 and timer in (T_GREEN, T_BLACK) and has_run_out(s, T_PURPLE)
               and s.council_called == 0)
    row = log[0, 0] + 1 if log.shape[0] > 1 else -1  # the row the flip will be logged in
    flip_timer(s, t, timer, FL_HUMAN, log, p)
    if trigger:
        old = s.cause
        if 0 < row <= log[0, 0] and log[row, 0] == EV_TIMER_FLIP:
            s.cause = row  # the draw's cause is the flip (trace cause_seq)
        automa.automa_act(s, t, TR_HUMAN_FLIP, log)
        s.cause = old


@njit(cache=True)
def auto_flip(s, t, timer: int, log) -> None:
    """A flip nobody made (a schedule step ended, or nobody flipped in the timed model): FL_AUTO, no trigger, no
    marker to the Automa board. With ``auto_flips_count_as_human_flips`` it is the seat's flip instead
    (``human_flip`` for the first seat in privilege order: trigger 2 applies in solo)."""
    if t.opts[OPT_AUTO_FLIP_AS_HUMAN] != 0:
        human_flip(s, t, first_seat(s), timer, log)
    else:
        flip_timer(s, t, timer, FL_AUTO, log, -1)


@njit(cache=True)
def auto_flip_due(s, t, log) -> int:
    """Flip every timer that has run out, in ``auto_flip_order`` (``auto_flip``); returns the mask flipped.
    Stops once council is called (the order puts purple last by default)."""
    m = 0
    for k in range(N_TIMERS):
        tm = auto_order(t, k)
        if s.council_called != 0:
            break
        if has_run_out(s, tm):
            auto_flip(s, t, tm, log)
            m |= 1 << tm
    return m


@njit(cache=True)
def max_flip_delay_s(t) -> float:
    """``max_flip_delay_s``: how long a run-out timer may stay unflipped with delayed flips."""
    return t.opts[OPT_MAX_FLIP_DELAY_MS] / 1000.0


@njit(cache=True)
def next_overdue(s, t) -> float:
    """Delayed flips: the earliest moment after ``now`` at which a run-out timer becomes overdue (INF: none)."""
    nxt = INF
    if s.council_called != 0:
        return nxt
    dmax = max_flip_delay_s(t)
    for tm in range(N_TIMERS):
        dl = s.runs_out[tm] + dmax
        if has_run_out(s, tm) and s.now < dl < nxt:
            nxt = dl
    return nxt


@njit(cache=True)
def flip_overdue(s, t, log) -> int:
    """Delayed flips: flip (FL_OVERDUE, nobody's) every timer whose sand ran out at least ``max_flip_delay_s``
    ago, in ``auto_flip_order``; returns the mask flipped. Stops once council is called."""
    m = 0
    dmax = max_flip_delay_s(t)
    for k in range(N_TIMERS):
        tm = auto_order(t, k)
        if s.council_called != 0:
            break
        if has_run_out(s, tm) and s.now >= s.runs_out[tm] + dmax:
            flip_timer(s, t, tm, FL_OVERDUE, log, -1)
            m |= 1 << tm
    return m


@njit(cache=True)
def flip_legal(s, t, p: int, out, n: int) -> int:
    """Append ``A_FLIP + timer`` (ascending) for every timer that has run out; nothing once council is called."""
    if s.council_called != 0:
        return n
    for tm in range(N_TIMERS):
        if has_run_out(s, tm):
            out[n] = A_FLIP + tm
            n += 1
    return n


# ---------------------------------------------------------------- seats on the privilege track


@njit(cache=True)
def is_seat(s, a: int) -> bool:
    """Whether privilege-track agent ``a`` is a seat (not the neutral, not an Automa)."""
    return 0 <= a < s.n_players and a < MAX_PLAYERS


@njit(cache=True)
def first_seat_index(s) -> int:
    """The index in ``s.priv`` of the first seat in privilege order."""
    for j in range(s.n_priv):
        if is_seat(s, s.priv[j]):
            return j
    return 0


@njit(cache=True)
def first_seat(s) -> int:
    """The first seat in privilege order."""
    return int(s.priv[first_seat_index(s)])


@njit(cache=True)
def next_seat_index(s, j: int) -> int:
    """The index in ``s.priv`` of the seat after index ``j`` in privilege order (round robin)."""
    for k in range(1, s.n_priv + 1):
        i = (j + k) % s.n_priv
        if is_seat(s, s.priv[i]):
            return i
    return j


@njit(cache=True)
def seat_index(s, p: int) -> int:
    """The index of seat ``p`` in ``s.priv`` (-1 if absent)."""
    for j in range(s.n_priv):
        if s.priv[j] == p:
            return j
    return -1


@njit(cache=True)
def is_timed(t) -> bool:
    """Whether the timed model is in use."""
    return t.opts[OPT_TIME_MODEL] == TM_TIMED


# ---------------------------------------------------------------- reaction times (timed model)


@njit(cache=True)
def lognormal(s, median: float, sigma: float) -> float:
    """A lognormal time (seconds) with this median and sigma, from STREAM_CLOCK (Box-Muller: two draws)."""
    u1 = 1.0 - unit(next_u64(s, STREAM_CLOCK))
    u2 = unit(next_u64(s, STREAM_CLOCK))
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return median * math.exp(sigma * z)


@njit(cache=True)
def action_time(s, t) -> float:
    """A seat's reaction time for one atomic action (``human_action_median_s``, ``human_action_sigma``)."""
    return lognormal(s, t.opts[OPT_HUMAN_MS] / 1000.0, t.opts[OPT_HUMAN_SIGMA_PM] / 1000.0)


@njit(cache=True)
def flip_delay(s, t) -> float:
    """A seat's delay in noticing that the timers changed (``human_flip_delay_median_s``, ``..._sigma``)."""
    return lognormal(s, t.opts[OPT_FLIP_MS] / 1000.0, t.opts[OPT_FLIP_SIGMA_PM] / 1000.0)


@njit(cache=True)
def auto_deadline_s(t) -> float:
    """Timed model: how long after its run-out a timer nobody flipped is flipped automatically."""
    return (t.opts[OPT_FLIP_MS] + t.opts[OPT_SIMUL_MS]) / 1000.0


@njit(cache=True)
def wake_waiting(s, t) -> int:
    """Timed model: every waiting seat wakes (the timers changed, or another seat acted after council was
    called) and decides again after a flip delay; returns the seats woken as a bit mask."""
    m = 0
    for p in range(s.n_players):
        if s.waiting[p] != 0:
            s.waiting[p] = 0
            s.ready_at[p] = s.now + flip_delay(s, t)
            m |= 1 << p
    return m


# ---------------------------------------------------------------- the start of a real-time phase


@njit(cache=True)
def log_step(s, t, auto_mask: int, log) -> None:
    """EV_SCHEDULE_STEP for the step that begins now."""
    r = ev_begin(s, log, EV_SCHEDULE_STEP, -1)
    if r >= 0:
        k = s.sched_step
        in_table = 0 <= k < t.n_sched and t.opts[OPT_DELAYED_FLIPS] == 0
        log[r, FIELD0 + 0] = k
        log[r, FIELD0 + 1] = due_mask(s)
        log[r, FIELD0 + 2] = t.sched[k, SC_DUE] if in_table else -1
        log[r, FIELD0 + 3] = t.sched[k, SC_PURPLE_NO] if in_table else 0
        log[r, FIELD0 + 4] = auto_mask


@njit(cache=True)
def begin_real(s, t, log) -> None:
    """The real-time phase begins (after the round-start flips, ``now`` = 0): schedule step 0 with the first
    seat in privilege order, or the timed clock with fresh reaction times for every seat."""
    s.phase = PH_REAL
    s.passes = 0
    for p in range(MAX_PLAYERS):
        s.waiting[p] = 0
        s.ready_at[p] = 0.0
    if is_timed(t):
        for p in range(s.n_players):
            s.ready_at[p] = s.now + action_time(s, t)
        timed_pick(s, t, log)
    else:
        log_step(s, t, 0, log)
        s.rr = first_seat_index(s)
        s.actor = s.priv[s.rr]


# ---------------------------------------------------------------- the schedule model


@njit(cache=True)
def next_run_out(s) -> float:
    """The earliest sand run-out after ``now`` (INF when no sand runs)."""
    nxt = INF
    for tm in range(N_TIMERS):
        if s.runs_out[tm] > s.now and s.runs_out[tm] < nxt:
            nxt = s.runs_out[tm]
    return nxt


@njit(cache=True)
def any_running(s) -> bool:
    """Whether some timer's sand is still running."""
    return next_run_out(s) < INF


@njit(cache=True)
def step_end(s, t, log) -> None:
    """Schedule model: every seat passed in a row and council is not called. The due timers nobody flipped are
    flipped automatically (not with ``allow_delayed_flips`` while some sand still runs); then the next step
    (or, when that called council, the same step goes on), the first seat in privilege order to act. With
    delayed flips the next step begins at the next run-out or overdue deadline (``next_overdue``), whichever
    comes first, and the timers overdue then flip (``flip_overdue``) right after its EV_SCHEDULE_STEP."""
    delayed = t.opts[OPT_DELAYED_FLIPS] != 0
    mask = 0
    if not delayed or not any_running(s):
        mask = auto_flip_due(s, t, log)
    s.passes = 0
    if s.council_called == 0:
        s.sched_step += 1
        if delayed:
            nxt = min(next_run_out(s), next_overdue(s, t))
            if nxt < INF and nxt > s.now:
                s.now = nxt
        elif s.sched_step < t.n_sched:
            tm = float(t.sched[s.sched_step, SC_TIME])
            if tm > s.now:
                s.now = tm
        else:  # a schedule without the third purple flip (not the data's): the track's end calls council
            s.sched_step = t.n_sched - 1
            s.council_called = 1
        log_step(s, t, mask, log)
        if delayed:
            flip_overdue(s, t, log)
    s.rr = first_seat_index(s)
    s.actor = s.priv[s.rr]


# ---------------------------------------------------------------- the timed model


@njit(cache=True)
def timed_pick(s, t, log) -> bool:
    """Timed model: run the clock to the next seat's decision (sand run-outs wake waiting seats, deadlines flip
    the timers nobody flipped) and make that seat the actor; False when every seat waits after council was
    called (the council may begin)."""
    window = t.opts[OPT_SIMUL_MS] / 1000.0
    delayed = t.opts[OPT_DELAYED_FLIPS] != 0
    dead = auto_deadline_s(t)
    while True:
        best = -1
        bt = INF
        for j in range(s.n_priv):
            p = s.priv[j]
            if is_seat(s, p) and s.waiting[p] == 0 and s.ready_at[p] < bt:
                best = p
                bt = s.ready_at[p]
        ev = INF  # the next sand run-out
        dl = INF  # the next automatic flip
        dl_timer = -1
        if s.council_called == 0:
            ev = next_run_out(s)
            wait = max_flip_delay_s(t) if delayed else dead  # delayed flips: the overdue safeguard
            for k in range(N_TIMERS):
                tm = auto_order(t, k)
                if has_run_out(s, tm) and s.runs_out[tm] + wait < dl:
                    dl = s.runs_out[tm] + wait
                    dl_timer = tm
        if best >= 0 and bt < ev and bt < dl:
            limit = bt + window
            if ev < limit:
                limit = ev
            if dl < limit:
                limit = dl
            chosen = best
            for j in range(s.n_priv):
                p = s.priv[j]
                if p == best:
                    break
                if is_seat(s, p) and s.waiting[p] == 0 and s.ready_at[p] <= limit:
                    chosen = p
                    r = ev_begin(s, log, EV_CONFLICT, p)
                    if r >= 0:
                        log[r, FIELD0 + 0] = p
                        log[r, FIELD0 + 1] = best
                        log[r, FIELD0 + 2] = int(s.ready_at[p] * 10.0 + 0.5)
                        log[r, FIELD0 + 3] = int(bt * 10.0 + 0.5)
                        log[r, FIELD0 + 4] = int(window * 10.0 + 0.5)
                        log[r, FIELD0 + 5] = -1
                    break
            if s.ready_at[chosen] > s.now:
                s.now = s.ready_at[chosen]
            s.actor = chosen
            s.rr = seat_index(s, chosen)
            s.phase = PH_REAL
            return True
        if dl < INF and dl <= ev:
            if dl > s.now:
                s.now = dl
            if delayed:
                flip_timer(s, t, dl_timer, FL_OVERDUE, log, -1)
            else:
                auto_flip(s, t, dl_timer, log)  # flips wake the waiting seats
            continue
        if ev < INF:
            s.now = ev
            woken = wake_waiting(s, t)
            tm_out = -1
            for tm in range(N_TIMERS):
                if s.runs_out[tm] == ev:
                    tm_out = tm
                    break
            r = ev_begin(s, log, EV_CLOCK, -1)
            if r >= 0:
                log[r, FIELD0 + 0] = tm_out
                log[r, FIELD0 + 1] = woken
            continue
        if s.council_called != 0 or best >= 0:
            return False  # (best >= 0 cannot happen here: a seat is always earlier than INF)
        # delayed flips, every seat waits and no sand runs: nobody can wait for anything, the timers flip
        if auto_flip_due(s, t, log) == 0:
            return False


# ---------------------------------------------------------------- round start


@njit(cache=True)
def round_start(s, t, log) -> None:
    """Start the real-time phase of a round (I.3.7, I.8.7): the clock restarts at 0, the purple count and the
    time markers are reset, all three timers flip (FL_ROUND_START, in ``auto_flip_order``; purple flip 1,
    which knocks the first marker and triggers nothing), then step 0 of the schedule (or the timed clock)
    gives the first seat its turn (PH_REAL)."""
    s.now = 0.0
    s.purple_flips = 0
    s.markers_left = N_MARKERS
    s.markers_automa = 0
    s.council_called = 0
    s.phase = PH_REAL
    s.resume_phase = PH_REAL
    s.sched_step = -1 if t.opts[OPT_TIME_MODEL] == TM_TIMED else 0
    for k in range(N_TIMERS):
        flip_timer(s, t, auto_order(t, k), FL_ROUND_START, log, -1)
    begin_real(s, t, log)
