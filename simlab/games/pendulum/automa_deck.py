"""Pendulum's Automa deck: draws, reshuffles and the Omen variant's cards (NOTES I.12.4, I.12.13).

``draw_card`` takes the top Automa card (shuffling the discard into an empty deck first, ``STREAM_AUTOMA``), logs
EV_AUTOMA_DRAW and, in the timed model, charges the seat ``automa_card_resolution_s`` for a real-time card;
``omen_before_purple_flip`` lays one card for each Automa on the Automa board before every purple flip (Omen
variant). ``log_deck`` writes EV_DECK_ORDER rows.

Below the flips (``timers.flip_timer`` draws the Omen cards) and the Automa's actions (``automa``, which
re-exports these kernels); the rows' fields are named in ``automa.EVENT_FIELDS`` (the trace reads the Automa's
rows under that module's name).
"""

from __future__ import annotations

from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    DECK_AUTOMA,
    EV_AUTOMA_DRAW,
    EV_DECK_ORDER,
    OPT_AUTOMA_CARD_MS,
    OPT_TIME_MODEL,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TM_TIMED,
    TR_COUNCIL_VP,
    TR_OMEN,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.sand import has_run_out
from simlab.games.pendulum.state import STREAM_AUTOMA
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
)

shuffle = bind(kernels.shuffle)

N_COUNCIL_CARDS = 3  # cards revealed per Automa at council
_DECK_V = 14  # values per EV_DECK_ORDER row


@njit(cache=True, inline="always")
def log_deck(s, log, deck: int, arr, n: int, actor: int) -> None:
    """EV_DECK_ORDER rows listing ``arr[:n]`` in index order, 14 a row (``start``: the first index, ``n``: the
    values in that row, -1 padding); for the Automa deck the top card is the last."""
    start = 0
    while True:
        r = ev_begin(s, log, EV_DECK_ORDER, actor)
        if r < 0:
            return
        k = min(_DECK_V, n - start)
        log[r, FIELD0] = deck
        log[r, FIELD0 + 1] = start
        log[r, FIELD0 + 2] = k
        for i in range(_DECK_V):
            log[r, FIELD0 + 3 + i] = arr[start + i] if i < k else -1
        start += _DECK_V
        if start >= n:
            return


@kernel
def _card_ms_delay(s, t) -> None:
    """Timed model: the human spends ``automa_card_resolution_s`` on one card."""
    if t.opts[OPT_TIME_MODEL] == TM_TIMED:
        base = s.ready_at[0]
        if base < s.now:
            base = s.now
        s.ready_at[0] = base + t.opts[OPT_AUTOMA_CARD_MS] / 1000.0


@kernel
def _reshuffle_discard(s, log) -> None:
    for i in range(s.a_disc_n):
        s.a_deck[i] = s.a_disc[i]
    s.a_deck_n = s.a_disc_n
    s.a_disc_n = 0
    shuffle(s, STREAM_AUTOMA, s.a_deck, s.a_deck_n)
    log_deck(s, log, DECK_AUTOMA, s.a_deck, s.a_deck_n, -1)


@kernel
def draw_card(s, t, trigger: int, a: int, log) -> int:
    """Draw the top Automa card (reshuffling the discard into an empty deck first) and log EV_AUTOMA_DRAW.

    ``a`` = -1: a real-time card, it goes onto the discard; ``a`` = 0/1: the card is laid on the Automa
    board for that Automa (council or Omen, ``a_cards``). Counts ``st_triggers[trigger]``; a real-time draw
    (every trigger but the council VP reveal) costs the timed model's card time. Returns the card (-1 if none
    is left anywhere, which the 32-card deck never allows).
    """
    reshuffled = 0
    if s.a_deck_n == 0:
        if s.a_disc_n == 0:
            return -1
        _reshuffle_discard(s, log)
        reshuffled = 1
    c = s.a_deck[s.a_deck_n - 1]
    s.a_deck_n -= 1
    if a < 0:
        s.a_disc[s.a_disc_n] = c
        s.a_disc_n += 1
    else:
        s.a_cards[a, s.a_ncards[a]] = c
        s.a_ncards[a] += 1
    s.st_triggers[trigger] += 1
    if trigger != TR_COUNCIL_VP:
        _card_ms_delay(s, t)
    r = ev_begin(s, log, EV_AUTOMA_DRAW, -1 if a < 0 else AG_AUTOMA1 + a)
    if r >= 0:
        log[r, FIELD0] = trigger
        log[r, FIELD0 + 1] = reshuffled
        log[r, FIELD0 + 2] = c
        log[r, FIELD0 + 3] = t.acard[c, AC_MOVE]
        log[r, FIELD0 + 4] = t.acard[c, AC_FLIP]
        log[r, FIELD0 + 5] = t.acard[c, AC_DISCARD]
        log[r, FIELD0 + 6] = t.acard[c, AC_VP]
        log[r, FIELD0 + 7] = t.acard[c, AC_VOTES]
        log[r, FIELD0 + 8] = t.acard[c, AC_SYMBOL]
        log[r, FIELD0 + 9] = -1 if a < 0 else AG_AUTOMA1 + a
        log[r, FIELD0 + 10] = s.a_deck_n
        log[r, FIELD0 + 11] = s.a_disc_n
        log[r, FIELD0 + 12] = 1 if has_run_out(s, T_PURPLE) else 0
        log[r, FIELD0 + 13] = 1 if has_run_out(s, T_GREEN) else 0
        log[r, FIELD0 + 14] = 1 if has_run_out(s, T_BLACK) else 0
        s.cause = r
    return c


@kernel
def omen_before_purple_flip(s, t, log) -> None:
    """Omen variant (I.12.13): one card for Automa 1, then one for Automa 2, laid on the Automa board; called
    before every purple flip (round start included) by ``timers.flip_timer``. An Automa that already holds its
    3 cards gets none."""
    old = s.cause
    for a in range(2):
        if s.a_ncards[a] < N_COUNCIL_CARDS:
            draw_card(s, t, TR_OMEN, a, log)
            s.cause = old
