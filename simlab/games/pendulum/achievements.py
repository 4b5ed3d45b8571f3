"""Pendulum's achievement card: what a claim requires and what it gives (NOTES I.11, II.16).

``claim_legal``: the requirement is held, not paid (wild = any cubes in total beyond the named ones); once per
round (``s.ach_claims``), twice with ``claim_twice``; c = 0 takes the legendary token (``s.legendary_on_card``
and the seat never had its legendary VP), c = 1 the ribbon reward. ``_claim_do`` is the claim itself (EV_ACHIEVEMENT,
named in ``effects.EVENT_FIELDS``); the whole player action, which then settles the decisions the reward left,
is ``cards.claim`` (the Pacifist's waived claim is a pending decision, ``pending.py``).
"""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    EV_ACHIEVEMENT,
)
from simlab.games.pendulum.economy import (
    _set_cause,
    gain,
    holds,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin


@kernel
def _legendary_ok(s, p: int) -> bool:
    return s.legendary_on_card != 0 and s.legendary[p] == 0 and s.ach_card >= 0


@kernel
def _claims_left(s, p: int) -> bool:
    return s.ach_claims[p] == 0 or s.claim_twice[p] != 0


@kernel
def _claim_do(s, t, p: int, c: int, waived: int, log) -> None:
    """Seat p claims the achievement: c = 0 the legendary token, 1 the ribbon reward (logs EV_ACHIEVEMENT)."""
    card = s.ach_card
    if s.ach_claims[p] >= 1:
        s.claim_twice[p] = 0
    s.ach_claims[p] += 1
    s.st_claims[p] += 1
    req = t.ach[card, 0]
    rib = t.ach[card, 1]
    r = ev_begin(s, log, EV_ACHIEVEMENT, p)
    if r >= 0:
        log[r, FIELD0 + 0] = card
        log[r, FIELD0 + 1] = req
        log[r, FIELD0 + 2] = rib
        for k in range(3):
            log[r, FIELD0 + 3 + k] = s.res[p, k]
        log[r, FIELD0 + 6] = s.votes[p]
        log[r, FIELD0 + 7] = 1 if c == 0 else 0
        log[r, FIELD0 + 8] = s.ach_claims[p]
        log[r, FIELD0 + 9] = waived
    _set_cause(s, r)
    if c == 0:
        s.legendary_on_card = 0
        s.legendary[p] = 1
        s.st_legendary_round[p] = s.round
    else:
        gain(s, t, p, rib, -1, log)


@kernel
def claim_legal(s, t, p: int, c: int) -> bool:
    """Seat p may claim the achievement now: a card is out, a claim left this round (once; twice with
    ``claim_twice``), its requirement held; c = 0 (legendary) also needs the token on the card and a seat that
    never had its legendary VP; c = 1 is the ribbon reward."""
    if s.ach_card < 0 or not _claims_left(s, p):
        return False
    if not holds(s, t, p, int(t.ach[s.ach_card, 0])):
        return False
    if c == 0:
        return _legendary_ok(s, p)
    return c == 1
