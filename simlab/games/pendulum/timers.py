"""Pendulum's sand timers: flips, time markers, council called (NOTES I.5, I.12.4, I.12.7, I.12.9, I.13.1).

A timer ``tm`` (T_PURPLE, T_GREEN, T_BLACK) sits on row ``s.timer_row[tm]`` and has run out when
``s.now >= s.runs_out[tm]``. A flip (``flip_timer``) moves it to the other row of its area and restarts its
sand (``runs_out = now + t.timer_s[tm]``). Who flips (``FL_*``) decides what the flip sets off:

- **purple**, every flip: in solo with the Omen variant the Automas reveal their card first
  (``automa_deck.omen_before_purple_flip``, including the round-start flip); ``purple_flips`` counts the flip
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

Also here: the seats in privilege order (``is_seat``, ``first_seat``, ``next_seat_index``), the timed model's
reaction times (lognormal draws from STREAM_CLOCK: ``action_time``, ``flip_delay``) and the waits they end
(``wake_waiting``). Who flips when (the seats' flips and solo trigger 2, the automatic and overdue flips, the
schedule and timed clocks, the round start) is ``clock.py``'s; the sand's state (``has_run_out``, ``due_mask``,
re-exported here) is ``sand.py``'s.

Import order among the rules modules: ``sand`` < ``automa_deck`` (the Omen draws before a purple flip) < ``timers``
< ``automa`` (an Automa card flips timers) < ``clock`` (trigger 2 makes the Automa act).
"""

from __future__ import annotations

import math

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import unit
from simlab.games.pendulum import automa_deck
from simlab.games.pendulum.codes import (
    A_FLIP,
    EV_CLOCK,
    EV_CONFLICT,
    EV_COUNCIL_CALLED,
    EV_LEGENDARY,
    EV_SCHEDULE_STEP,
    EV_TIMER_FLIP,
    FL_AUTOMA,
    FL_OVERDUE,
    FL_ROUND_START,
    OPT_AUTO_ORDER0,
    OPT_FLIP_MS,
    OPT_FLIP_SIGMA_PM,
    OPT_HUMAN_MS,
    OPT_HUMAN_SIGMA_PM,
    OPT_MAX_FLIP_DELAY_MS,
    OPT_OMEN,
    OPT_SIMUL_MS,
    OPT_TIME_MODEL,
    T_PURPLE,
    TM_TIMED,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.sand import INF, N_TIMERS, any_running, due_mask, has_run_out, next_run_out  # noqa: F401  (re-exported)
from simlab.games.pendulum.state import MAX_PLAYERS, STREAM_CLOCK

next_u64 = bind(kernels.next_u64)

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
"""Fields of the timer events, in column order (eventlog.FIELD0 + i): the flips logged here, the schedule steps,
run-outs and conflicts logged by ``clock``."""


@kernel
def auto_order(t, k: int) -> int:
    """The k-th timer of ``auto_flip_order`` (default green, black, purple)."""
    return int(t.opts[OPT_AUTO_ORDER0 + k])


# ---------------------------------------------------------------- flips


@kernel
def flip_timer(s, t, timer: int, flipper: int, log, seat: int) -> bool:
    """Flip ``timer`` (it moves to the other row and its sand restarts); ``flipper`` is FL_*, ``seat`` the seat
    that flipped (-1 for nobody or an Automa card). Purple: Omen draws first (solo + option), the flip count,
    the time marker (to the Automa board only for an Automa card's flip 2 or 3), the solo legendary cut-off at
    flip 2, council called at the last marker. Returns False (and does nothing) once council has been called.
    The caller checks that the sand has run out (the round-start flip does not need it)."""
    if s.council_called != 0:
        return False
    due = due_mask(s)
    if timer == T_PURPLE and s.solo != 0 and t.opts[OPT_OMEN] != 0:
        automa_deck.omen_before_purple_flip(s, t, log)
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


@kernel
def max_flip_delay_s(t) -> float:
    """``max_flip_delay_s``: how long a run-out timer may stay unflipped with delayed flips."""
    return t.opts[OPT_MAX_FLIP_DELAY_MS] / 1000.0


@kernel
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


@kernel
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


@kernel
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


@kernel
def is_seat(s, a: int) -> bool:
    """Whether privilege-track agent ``a`` is a seat (not the neutral, not an Automa)."""
    return 0 <= a < s.n_players and a < MAX_PLAYERS


@kernel
def first_seat_index(s) -> int:
    """The index in ``s.priv`` of the first seat in privilege order."""
    for j in range(s.n_priv):
        if is_seat(s, s.priv[j]):
            return j
    return 0


@kernel
def first_seat(s) -> int:
    """The first seat in privilege order."""
    return int(s.priv[first_seat_index(s)])


@kernel
def next_seat_index(s, j: int) -> int:
    """The index in ``s.priv`` of the seat after index ``j`` in privilege order (round robin)."""
    for k in range(1, s.n_priv + 1):
        i = (j + k) % s.n_priv
        if is_seat(s, s.priv[i]):
            return i
    return j


@kernel
def seat_index(s, p: int) -> int:
    """The index of seat ``p`` in ``s.priv`` (-1 if absent)."""
    for j in range(s.n_priv):
        if s.priv[j] == p:
            return j
    return -1


@kernel
def is_timed(t) -> bool:
    """Whether the timed model is in use."""
    return t.opts[OPT_TIME_MODEL] == TM_TIMED


# ---------------------------------------------------------------- reaction times (timed model)


@kernel
def lognormal(s, median: float, sigma: float) -> float:
    """A lognormal time (seconds) with this median and sigma, from STREAM_CLOCK (Box-Muller: two draws)."""
    u1 = 1.0 - unit(next_u64(s, STREAM_CLOCK))
    u2 = unit(next_u64(s, STREAM_CLOCK))
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return median * math.exp(sigma * z)


@kernel
def action_time(s, t) -> float:
    """A seat's reaction time for one atomic action (``human_action_median_s``, ``human_action_sigma``)."""
    return lognormal(s, t.opts[OPT_HUMAN_MS] / 1000.0, t.opts[OPT_HUMAN_SIGMA_PM] / 1000.0)


@kernel
def flip_delay(s, t) -> float:
    """A seat's delay in noticing that the timers changed (``human_flip_delay_median_s``, ``..._sigma``)."""
    return lognormal(s, t.opts[OPT_FLIP_MS] / 1000.0, t.opts[OPT_FLIP_SIGMA_PM] / 1000.0)


@kernel
def auto_deadline_s(t) -> float:
    """Timed model: how long after its run-out a timer nobody flipped is flipped automatically."""
    return (t.opts[OPT_FLIP_MS] + t.opts[OPT_SIMUL_MS]) / 1000.0


@kernel
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
