"""Pendulum's event-log rows: a fixed header on every row, then the event's own fields.

Row layout (``codes.LOG_WIDTH`` int32 columns):

    0  event code (codes.EV_*)        1  cause: log row of the event that caused this one, or -1
    2  round (1..4)                   3  phase (codes.PH_*)
    4  schedule step (-1 in the timed model)
    5  virtual time in tenths of a second
    6  actor: seat 0..4, codes.AG_* for the neutral and the Automas, -1 for the system
    7.. the event's fields (FIELD0 + i), named in each rules module's ``EVENT_FIELDS``

Rules modules log with::

    r = ev_begin(s, log, EV_X, actor)
    if r >= 0:
        log[r, FIELD0 + 0] = ...

and set ``s.cause = r`` after logging the primary event of a player's action, so that
everything the action sets off points back to it (``rules.apply_action`` resets it to -1).

``ev_begin`` is a kernel, not an inlined helper: the rules call it from 82 places, and inlining it (with the
core's ``log_event`` inside) into each cost 12 of 92 CPU-seconds of a cold Pendulum compile, for no measurable
speed in play (issue 24).
"""

from __future__ import annotations

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.pendulum.codes import LOG_WIDTH

FIELD0 = 7
N_FIELDS = LOG_WIDTH - FIELD0  # 19

log_event = bind(kernels.log_event)


@kernel
def ev_begin(s, log, kind: int, actor: int) -> int:
    """Reserve a log row for event ``kind`` and write its header; -1 when nothing is recorded."""
    r = log_event(log, kind)
    if r >= 0:
        log[r, 1] = s.cause
        log[r, 2] = s.round
        log[r, 3] = s.phase
        log[r, 4] = s.sched_step
        log[r, 5] = int(s.now * 10.0 + 0.5)
        log[r, 6] = actor
    return r
