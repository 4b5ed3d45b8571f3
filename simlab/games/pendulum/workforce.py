"""Pendulum's workforce: a seat's workers in play, counted and recruited (NOTES I.7.5, I.8).

``in_play`` / ``worker_count_in_play`` / ``grande_count`` count a seat's workers; ``recruit_legal`` / ``recruit``
bring a reserve common onto the mat (at most OPT_MAX_WORKERS in play; EV_RECRUIT, named in
``workers.EVENT_FIELDS``). Below the economy (a recruit is a gain, ``economy.gain``) and the workers' placements
and actions (``workers``, which re-exports these kernels and pays and gains through the economy).
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    EV_RECRUIT,
    OPT_MAX_WORKERS,
    PART_TOP,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_WORKERS


@kernel
def in_play(s, p: int, w: int) -> bool:
    """Worker slot w of seat p is in play (on the mat or on a space)."""
    return s.w_place[p, w] >= W_MAT


@kernel
def worker_count_in_play(s, p: int) -> int:
    """Number of seat p's workers in play (mat and spaces; at most 4)."""
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] >= W_MAT:
            n += 1
    return n


@kernel
def grande_count(s, p: int) -> int:
    """Number of grandes seat p has brought into the game (1, or 2 after the grande card)."""
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_grande[p, w] != 0:
            n += 1
    return n


@kernel
def _set_cause(s, r: int) -> None:
    if s.cause < 0:
        s.cause = r


@kernel
def _recruit_slot(s, limit: int, p: int) -> int:
    if worker_count_in_play(s, p) >= limit:
        return -1
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] == W_RESERVE and s.w_grande[p, w] == 0:
            return w
    return -1


@kernel
def recruit_legal(s, t, p: int) -> bool:
    """Seat p can recruit: fewer than OPT_MAX_WORKERS workers in play and a common in reserve."""
    return _recruit_slot(s, int(t.opts[OPT_MAX_WORKERS]), p) >= 0


@kernel
def recruit(s, t, p: int, log) -> int:
    """Bring a reserve common of seat p onto its mat (logs EV_RECRUIT); returns its slot, -1 when none can come."""
    w = _recruit_slot(s, int(t.opts[OPT_MAX_WORKERS]), p)
    if w < 0:
        return -1
    s.w_place[p, w] = W_MAT
    s.w_part[p, w] = PART_TOP
    r = ev_begin(s, log, EV_RECRUIT, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = worker_count_in_play(s, p)
    _set_cause(s, r)
    return w
