"""The event log of Smartphone Inc.'s kernels: event kinds (``EV_*``), allowance kinds and ``emit``.

The log is an int32 array (capacity + 1, ``LOG_WIDTH``); ``log[0, 0]`` counts events written to rows 1..,
``log[0, 1]`` is set when events were dropped. A one-row log records nothing. docs/trace.md decodes the events.
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, int32, int64, njit, void

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.smartphone.state import STATE_DTYPE

next_u64 = bind(kernels.next_u64)  # the shared helpers, compiled here so numba inlines them
log_event = bind(kernels.log_event)


# ---- events ----
LOG_WIDTH = 12  # kind, round, phase, seat, then 8 arguments
(EV_SEAT, EV_RETAILER, EV_TECH_SIDE, EV_ROUND, EV_PLAN, EV_PLACE, EV_PRICE, EV_PRODUCE, EV_ORDER, EV_PICK,
 EV_TOKEN, EV_RPROGRESS, EV_RESEARCHED, EV_LPROGRESS, EV_OFFICE, EV_BONUS, EV_PRICE_CHANGE, EV_NFC, EV_SALE,
 EV_LOST, EV_INCOME, EV_CONTROL, EV_GOODS, EV_MOVE, EV_FINAL, EV_MARKERS_LOST, EV_PLAN_SYMBOLS, EV_PRIORITY_KEY,
 EV_TURN_START, EV_TURN_END, EV_ALLOWANCE) = range(1, 32)
# Allowance kinds (EV_ALLOWANCE): what a phase-4/5/6 turn may place or take.
ALLOW_UPGRADES, ALLOW_RESEARCH, ALLOW_LOGISTICS = range(3)


@kernel
def new_log(capacity: int) -> np.ndarray:
    """An event log with room for ``capacity`` events (0: record nothing)."""
    return kernels.new_log(capacity, LOG_WIDTH)


# One compiled version for every call site: the log, the state record and ten int64 values. Call sites pass
# every argument (no defaults: an omitted one is typed apart) and numba converts theirs (an EV_* literal, an
# int8/int16/int32 field, a bool) to int64; with lazy compiling each combination was a version of its own
# (51 in a cold run, each compiled and cached).
EMIT_SIGNATURE = void(int32[:, ::1], from_dtype(STATE_DTYPE), *([int64] * 10))


@njit(EMIT_SIGNATURE, cache=True)
def emit(log, s, kind: int, seat: int, a: int, b: int, c: int, d: int, e: int, f: int, g: int, h: int) -> None:
    """Append one event: ``kind``, the acting ``seat`` (-1: none) and its eight arguments ``a``..``h`` (pass 0
    for those an event does not use). Dropped, with ``log[0, 1]`` set, when the log is full."""
    if log.shape[0] <= 1:
        return
    n = log_event(log, kind)
    if n < 0:
        return
    row = log[n]
    row[1] = s.round
    row[2] = s.phase
    row[3] = seat
    row[4] = a
    row[5] = b
    row[6] = c
    row[7] = d
    row[8] = e
    row[9] = f
    row[10] = g
    row[11] = h


