"""Pendulum's real-time phase in a headless simulator: who acts next, and when (NOTES I.13.2-I.13.4, II.1-II.5).

This module holds the seats' turns (``real_legal``, ``real_apply``, ``next_real_actor``); the clock itself
(steps, run-outs, automatic flips) is in ``clock.py``, the flips and reaction times in ``timers.py``, which
``automa.py`` and ``council.py`` call too.

Only seats take turns: the 2-player neutral and the Automas never do (the Automas act on triggers, inside a
seat's action). A turn is one **atomic action** (``real_legal``): a worker move (solo: a lift out of a bottom box,
trigger 1, then the placement in PH_REPLACE), a worker action, a stratagem, pick up, claim, refill, a flip of a
run-out timer, or a pass. The decisions it leaves on the pending stack belong to it; the next turn comes when
they are settled (``rules.apply_action`` calls ``next_real_actor``).

**Schedule model** (default, I.13.2): the round is the steps of ``t.sched`` (virtual times 0, 45, 90, ... 360 s).
At step k the clock is the step's time and the timers due at that step have run out (and only those). Seats act
one atomic action at a time in privilege order, round robin (``s.rr`` = the acting seat's index in ``s.priv``);
a pass counts (``s.passes``, passes in a row) and any other action resets the count. When every seat passed in a
row the step ends (``clock.step_end``): the due timers nobody flipped are flipped automatically in ``auto_flip_order``
(FL_AUTO: no trigger, no marker to the Automa board, II.2), then the next step begins with the first seat in
privilege order. Should an automatic flip call council (step 10), the seats act again until all pass; once
council is called, all passing starts the council (``council.council_begin``).
With ``allow_delayed_flips`` (II.3) nothing is flipped automatically: the step's fixed time is dropped and the
next step is the next sand run-out (``s.sched_step`` then just counts steps); only when no sand runs any more
and every seat passed do the run-out timers flip by themselves (nobody can wait for anything).

**Timed model** (``time_model = timed``, I.13.3, II.4; ``s.sched_step = -1``): a continuous clock. Each seat's
next decision comes at ``s.ready_at[p]``; after any action but a pass it is ``now`` + a lognormal reaction time
(``human_action_median_s``, ``human_action_sigma``; drawn from STREAM_CLOCK), plus ``automa_card_resolution_s``
for every Automa card the action drew (automa.py). A pass makes the seat wait (``s.waiting[p]``) for the timers to
change: the next sand run-out (EV_CLOCK) or flip wakes it after a flip delay (``human_flip_delay_median_s``,
``human_flip_delay_sigma``). Once council is called nothing runs out any more: a waiting seat wakes when another
seat acts, and when every seat waits the council begins. The next seat to act is the one ready first; a seat
higher in privilege order that is ready within ``simultaneity_window_s`` of it goes first (EV_CONFLICT: the
rulebook's claim privilege, I.7.7). A timer that has run out and that no seat flipped is flipped automatically
(FL_AUTO) at its deadline: run-out + the flip-delay median + the simultaneity window (nobody at the table
flipped it within the usual reaction). With ``allow_delayed_flips`` there is no deadline: a run-out timer waits
for a seat, and flips by itself only when every seat waits and no sand runs any more.
The clock never moves back (``now`` only grows within a round; ``clock.round_start`` restarts it at 0).
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum import clock, council, effects, timers, workers
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_CLAIM,
    A_FLIP,
    A_LIFT,
    A_MOVE,
    A_PASS,
    A_PICKUP,
    A_REFILL,
    A_STRAT,
    EV_CONFLICT,
    EV_PASS,
    N_DEST,
    OPT_STEP_LIMIT,
    PH_REAL,
    PH_REPLACE,
    PH_STEP5,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin

EVENT_FIELDS = {
    # a seat passed in the real-time phase (passes in a row so far, seats that must pass for the step to end)
    EV_PASS: ("seat", "passes", "n_seats"),
}
"""Fields of the events this module logs, in column order (eventlog.FIELD0 + i)."""


# ---------------------------------------------------------------- the actor's atomic actions


@kernel
def sort_actions(out, n: int) -> None:
    """Sort ``out[:n]`` ascending (insertion sort: the lists are short and nearly sorted)."""
    for i in range(1, n):
        x = out[i]
        j = i - 1
        while j >= 0 and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x


@kernel
def step_key(s) -> int:
    """A number naming the stretch of play a seat's actions are counted in for ``step_action_limit``: the
    schedule step, the council-called stretch after it, council step 5."""
    if s.phase == PH_STEP5:
        return s.round * 64 + 63
    return s.round * 64 + (s.sched_step + 1) * 2 + (1 if s.council_called != 0 else 0)


@kernel
def at_step_limit(s, t, p: int) -> bool:
    """The seat has taken ``step_action_limit`` actions in this stretch of a schedule round (it may only pass)."""
    limit = t.opts[OPT_STEP_LIMIT]
    if limit <= 0 or timers.is_timed(t):
        return False
    return s.step_key[p] == step_key(s) and s.step_acts[p] >= limit


@kernel
def count_step_action(s, p: int) -> None:
    """Count one action of seat ``p`` in the current stretch (a new stretch restarts the count)."""
    k = step_key(s)
    if s.step_key[p] != k:
        s.step_key[p] = k
        s.step_acts[p] = 0
    s.step_acts[p] += 1


@kernel
def real_legal(s, t, out) -> int:
    """PH_REAL: the actor's atomic actions (I.13.4), ascending: pass, flips of run-out timers, pick up, refill,
    claims, lifts (solo), moves, worker actions, stratagems."""
    p = s.actor
    n = 0
    out[n] = A_PASS
    n += 1
    if at_step_limit(s, t, p):
        return n
    n = timers.flip_legal(s, t, p, out, n)
    if effects.pickup_legal(s, t, p):
        out[n] = A_PICKUP
        n += 1
    if effects.refill_legal(s):
        out[n] = A_REFILL
        n += 1
    for c in range(2):
        if effects.claim_legal(s, t, p, c):
            out[n] = A_CLAIM + c
            n += 1
    n = workers.move_legal(s, t, p, out, n)
    n = workers.action_legal(s, t, p, out, n)
    n = effects.strat_legal(s, t, p, out, n)
    sort_actions(out, n)
    return n


@kernel
def note_conflict_action(s, p: int, a: int, log) -> None:
    """Timed model: when the last row is the EV_CONFLICT that gave seat ``p`` this turn, write the action it
    takes (the contested object: the space, timer or card it claims first) into the row's ``action``."""
    if log.shape[0] <= 1:
        return
    r = log[0, 0]
    if r >= 1 and log[r, 0] == EV_CONFLICT and log[r, FIELD0 + 0] == p and log[r, FIELD0 + 5] == -1:
        log[r, FIELD0 + 5] = a


@kernel
def real_apply(s, t, a: int, log) -> None:
    """PH_REAL: the actor takes atomic action ``a``. A lift (solo trigger 1) leaves the phase at PH_REPLACE for
    the placement. Passes are counted (schedule) or start a wait (timed); any other action resets the count and,
    in the timed model, sets the seat's next decision time before the action (Automa cards add to it)."""
    p = s.actor
    timed = timers.is_timed(t)
    if timed:
        note_conflict_action(s, p, a, log)
    if a == A_PASS:
        s.passes += 1
        if timed:
            s.waiting[p] = 1
        r = ev_begin(s, log, EV_PASS, p)
        if r >= 0:
            log[r, FIELD0 + 0] = p
            log[r, FIELD0 + 1] = s.passes
            log[r, FIELD0 + 2] = s.n_players
        return
    s.passes = 0
    count_step_action(s, p)
    if timed:
        s.ready_at[p] = s.now + timers.action_time(s, t)
    if a < A_PICKUP:
        clock.human_flip(s, t, p, a - A_FLIP, log)
    elif a == A_PICKUP:
        effects.pickup(s, t, p, log)
    elif a == A_REFILL:
        effects.refill(s, t, log)
    elif a < A_LIFT:
        effects.claim(s, t, p, a - A_CLAIM, log)
    elif a < A_MOVE:
        workers.lift_worker(s, t, p, a - A_LIFT, log)
        s.phase = PH_REPLACE
        s.actor = p
    elif a < A_ACTION:
        x = a - A_MOVE
        workers.move_worker(s, t, p, x // N_DEST, x % N_DEST, log)
    elif a < A_STRAT:
        x = a - A_ACTION
        workers.take_action(s, t, p, x // 2, x % 2, log)
    else:
        effects.play_strat(s, t, p, a - A_STRAT, log)
    if timed and s.council_called != 0:
        timers.wake_waiting(s, t)  # after council is called a seat waits for the others, not for the sand


@kernel
def next_real_actor(s, t, log) -> None:
    """After a PH_REAL action is settled (its decisions resolved): the next seat's turn, the end of a schedule
    step, the timed clock, or — council called and every seat passed — the council (``council.council_begin``)."""
    s.phase = PH_REAL
    if timers.is_timed(t):
        if not clock.timed_pick(s, t, log):
            council.council_begin(s, t, log)
        return
    if s.passes >= s.n_players:
        if s.council_called != 0:
            council.council_begin(s, t, log)
            return
        clock.step_end(s, t, log)
        return
    s.rr = timers.next_seat_index(s, s.rr)
    s.actor = s.priv[s.rr]

