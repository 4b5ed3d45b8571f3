"""Research (S29-S36): progress markers on technologies and completing them.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.smartphone.codes import (
    E_GPS_GAIN5,
    E_NFC_PLUS1,
)
from simlab.games.smartphone.events import (
    EV_GOODS,
    EV_PRICE_CHANGE,
    EV_RESEARCHED,
    EV_RPROGRESS,
    emit,
)
from simlab.games.smartphone.state import (
    N_TECH,
)
from simlab.games.smartphone.tablets import (
    active_effect,
    add_goods,
    office_supply,
    set_price,
    tech_cost,
)

# ---------------------------------------------------------------- research (S29-S36)


@kernel
def complete_research(s, T, p: int, log) -> None:
    """Research every technology whose progress reached seat p's cost (own turn only, S35)."""
    again = True
    while again:
        again = False
        for t in range(N_TECH):
            if s.researched[p, t] == 0 and s.progress[p, t] > 0 and s.progress[p, t] >= tech_cost(s, T, p, t):
                if office_supply(s, T, p) <= 0:
                    continue
                research(s, T, p, t, log)
                again = True  # GAMEPAD face may make another one cheaper


@kernel
def research(s, T, p: int, t: int, log) -> None:
    """Seat p researches t: markers back (O13 surplus too), office beside it, patent if first, effect now."""
    s.progress[p, t] = 0
    s.researched[p, t] = 1
    s.n_techs[p] += 1
    patent = 0
    if s.patent_owner[t] < 0:
        s.patent_owner[t] = p
        s.n_patents[p] += 1
        patent = 1
    e = active_effect(s, T, t)
    emit(log, s, EV_RESEARCHED, p, t, patent, e, 0, 0, 0, 0, 0)
    if e == E_GPS_GAIN5:
        got = add_goods(s, T, p, 5)
        s.produced_total[p] += got
        emit(log, s, EV_GOODS, p, got, 0, 0, 0, 0, 0, 0, 0)
    elif e == E_NFC_PLUS1:
        before = s.price[p]
        set_price(s, T, p, before + 1)
        emit(log, s, EV_PRICE_CHANGE, p, s.price[p], 0, 1, before, 0, 0, 0, 0)


@njit(cache=True, inline="always")
def research_need(s, T, p: int, t: int) -> int:
    """Markers seat p may still put on t (O13: never past the cost)."""
    if s.researched[p, t]:
        return 0
    need = tech_cost(s, T, p, t) - s.progress[p, t]
    return need if need > 0 else 0


@kernel
def add_research(s, T, p: int, t: int, complete_now: bool, source: int, log) -> None:
    s.progress[p, t] += 1
    emit(log, s, EV_RPROGRESS, p, t, s.progress[p, t], tech_cost(s, T, p, t), source, 0, 0, 0, 0)
    if complete_now and s.progress[p, t] >= tech_cost(s, T, p, t) and office_supply(s, T, p) > 0:
        research(s, T, p, t, log)
        complete_research(s, T, p, log)


