"""Pendulum's clock of the real-time phase: who flips when (NOTES I.5, I.12.4, I.12.7, II.2).

The seats' flips and solo trigger 2 (``human_flip``: a green or black flip while purple has run out makes the
Automa act after the flip), the flips nobody made (``auto_flip``, ``auto_flip_due``), and the clock itself
(realtime.py documents the protocol; the seats' turns are there):

- **schedule model**: ``begin_real`` (step 0), ``step_end`` (every seat passed in a row: the due timers nobody
  flipped flip automatically, the next step of ``t.sched`` begins at its time; EV_SCHEDULE_STEP). With
  ``allow_delayed_flips`` the next step begins at the next sand run-out or overdue deadline, whichever is first,
  and the overdue timers flip as it begins.
- **timed model**: ``timed_pick`` runs the clock to the next seat's decision: sand run-outs (EV_CLOCK) wake the
  seats that passed, the automatic flip of a timer nobody flipped comes at its deadline (with delayed flips:
  the overdue flip at run-out + ``max_flip_delay_s``), and the first seat
  ready acts (a seat higher in privilege order ready within the simultaneity window goes first, EV_CONFLICT).
  Reaction times are lognormal draws from STREAM_CLOCK (``timers.action_time``, ``timers.flip_delay``).

``round_start`` is council step 6 / the end of the start of play: all three timers flip (FL_ROUND_START, in
``auto_flip_order``; purple flip 1), the clock restarts at 0 and the real-time phase begins (step 0 of the
schedule, or the timed clock).

The flips themselves (markers, the legendary cut-off, council called) are ``timers.flip_timer``'s. This module
sits above ``automa`` (trigger 2 makes the Automa act), which sits above ``timers`` (an Automa card flips timers).
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum import automa
from simlab.games.pendulum.codes import (
    EV_CLOCK,
    EV_CONFLICT,
    EV_SCHEDULE_STEP,
    EV_TIMER_FLIP,
    FL_AUTO,
    FL_HUMAN,
    FL_OVERDUE,
    FL_ROUND_START,
    OPT_AUTO_FLIP_AS_HUMAN,
    OPT_DELAYED_FLIPS,
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
from simlab.games.pendulum.sand import INF, N_TIMERS, any_running, due_mask, has_run_out, next_run_out
from simlab.games.pendulum.state import MAX_PLAYERS
from simlab.games.pendulum.tables import SC_DUE, SC_PURPLE_NO, SC_TIME
from simlab.games.pendulum.timers import (
    N_MARKERS,
    action_time,
    auto_deadline_s,
    auto_order,
    first_seat,
    first_seat_index,
    flip_overdue,
    flip_timer,
    is_seat,
    is_timed,
    max_flip_delay_s,
    next_overdue,
    seat_index,
    wake_waiting,
)


@kernel
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


@kernel
def auto_flip(s, t, timer: int, log) -> None:
    """A flip nobody made (a schedule step ended, or nobody flipped in the timed model): FL_AUTO, no trigger, no
    marker to the Automa board. With ``auto_flips_count_as_human_flips`` it is the seat's flip instead
    (``human_flip`` for the first seat in privilege order: trigger 2 applies in solo)."""
    if t.opts[OPT_AUTO_FLIP_AS_HUMAN] != 0:
        human_flip(s, t, first_seat(s), timer, log)
    else:
        flip_timer(s, t, timer, FL_AUTO, log, -1)


@kernel
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


@kernel
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


@kernel
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


@kernel
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


@kernel
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


@kernel
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
