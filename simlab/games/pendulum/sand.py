"""Pendulum's sand: which timer has run out, which are due, when the next runs out (NOTES I.5, I.12.4).

Pure reads of the timers' state (``s.runs_out``, ``s.now``), at the bottom of the rules modules: the flips
(``timers``), the Automa's draws (``automa_deck`` logs which timers had run out) and the clock (``clock``) all read
them. ``timers`` re-exports them.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel

INF = 1.0e18
N_TIMERS = 3


@njit(cache=True, inline="always")
def has_run_out(s, timer: int) -> bool:
    """Whether ``timer``'s sand has run out (``now >= runs_out``); a run-out timer has not been flipped since."""
    return s.now >= s.runs_out[timer]


@kernel
def due_mask(s) -> int:
    """The timers that have run out now, as a bit mask (bit ``1 << timer``)."""
    m = 0
    for tm in range(N_TIMERS):
        if s.now >= s.runs_out[tm]:
            m |= 1 << tm
    return m


@kernel
def next_run_out(s) -> float:
    """The earliest sand run-out after ``now`` (INF when no sand runs)."""
    nxt = INF
    for tm in range(N_TIMERS):
        if s.runs_out[tm] > s.now and s.runs_out[tm] < nxt:
            nxt = s.runs_out[tm]
    return nxt


@kernel
def any_running(s) -> bool:
    """Whether some timer's sand is still running."""
    return next_run_out(s) < INF
