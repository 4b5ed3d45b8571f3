"""Pendulum's provinces: the display and conquests (NOTES I.10.3, V.1).

``refill`` deals the deck top into every empty display position (0 = top); a conquest (``conquer_legal``, the
PD_CONQUER decision's options) takes a display card (``A_CONQUER + src * 4 + m``, src 0..3) or the deck top
(src 4) and tucks it under mat slot m (at most MAX_PER_SLOT per slot); its edge ``t.prov[card, m]`` is what it
adds to that slot's production (``economy.gain``). EV_CONQUER and EV_REFILL rows are named in
``effects.EVENT_FIELDS``.
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    A_CONQUER,
    EV_CONQUER,
    EV_REFILL,
)
from simlab.games.pendulum.economy import (
    _set_cause,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_PER_SLOT

N_DISPLAY = 4
SRC_DECK = 4  # A_CONQUER source code of the deck top


@kernel
def _conquer_slot_free(s, p: int) -> bool:
    k = 0
    for m in range(4):
        if s.prov_n[p, m] < MAX_PER_SLOT:
            k += 1
    return k > 0


@kernel
def conquer_legal(s, t, p: int, out, n: int) -> int:
    """Append ``A_CONQUER + src * 4 + m`` (ascending): a display card (src 0..3) or the deck top (src 4), tucked
    under a mat slot m with room (< MAX_PER_SLOT)."""
    for src in range(N_DISPLAY + 1):
        if src < N_DISPLAY:
            if s.display[src] < 0:
                continue
        elif s.pdeck_n <= 0:
            continue
        for m in range(4):
            if s.prov_n[p, m] < MAX_PER_SLOT:
                out[n] = A_CONQUER + src * 4 + m
                n += 1
    return n


@kernel
def _conquer_do(s, t, p: int, src: int, m: int, log) -> None:
    """Take the province of display position src (or the deck top, src 4) and tuck it under mat slot m."""
    if src < N_DISPLAY:
        c = s.display[src]
        s.display[src] = -1
    else:
        s.pdeck_n -= 1
        c = s.pdeck[s.pdeck_n]
    k = s.prov_n[p, m]
    if k < MAX_PER_SLOT:
        s.prov[p, m, k] = c
        s.prov_n[p, m] = k + 1
    s.st_provinces[p] += 1
    r = ev_begin(s, log, EV_CONQUER, p)
    if r >= 0:
        log[r, FIELD0 + 0] = src
        log[r, FIELD0 + 1] = c
        log[r, FIELD0 + 2] = m
        log[r, FIELD0 + 3] = t.prov[c, m]
        log[r, FIELD0 + 4] = s.prov_n[p, m]
        log[r, FIELD0 + 5] = s.pdeck_n


@kernel
def _display_any(s) -> bool:
    k = 0
    for i in range(N_DISPLAY):
        if s.display[i] >= 0:
            k += 1
    return k > 0


@kernel
def refill_legal(s) -> bool:
    """The display has an empty position and the deck a card."""
    k = 0
    for i in range(N_DISPLAY):
        if s.display[i] < 0:
            k += 1
    return k > 0 and s.pdeck_n > 0


@kernel
def refill(s, t, log) -> None:
    """Deal the deck top into every empty display position, top first (one EV_REFILL row each; actor s.actor)."""
    for i in range(N_DISPLAY):
        if s.display[i] >= 0 or s.pdeck_n <= 0:
            continue
        s.pdeck_n -= 1
        c = s.pdeck[s.pdeck_n]
        s.display[i] = c
        r = ev_begin(s, log, EV_REFILL, s.actor)
        if r >= 0:
            log[r, FIELD0 + 0] = i
            log[r, FIELD0 + 1] = c
            log[r, FIELD0 + 2] = s.pdeck_n
        _set_cause(s, r)
