"""Pendulum's multi-player game end (NOTES I.9), as kernels. The solo end is ``automa.solo_end``.

1. **Parchment.** Seats with all three VP tracks in the parchment (``track >= OPT_PARCHMENT_FIRST``)
   compete alone: most VP inside the parchment wins (``parchment_counting``: ``occupied`` counts the
   first parchment space as 1, ``beyond_entry`` as 0; summed over the three tracks), then glory
   (the advanced variant's cubes; 0 for basic seats), then privilege order (higher place wins).
2. **No parchment winner.** Only seats holding their legendary VP can win: the worst track's distance
   to the parchment (smallest wins), then the next track, then the third, then privilege order.
3. **Nobody** in the parchment and nobody with the legendary: no winner (``s.winner`` all 0).

``s.rank[:n]`` is a total order by the same keys: parchment seats first (by parchment VP, glory,
privilege), then the others with the legendary before those without, each by their sorted distances,
then privilege; the best seat ranks 1, or 2 when nobody wins ("no winner" is the outcome ahead of
every seat). ``s.end_branch`` is EB_MULTI_PARCHMENT, EB_MULTI_LEGENDARY or EB_NO_WINNER.
EV_GAME_END: one row per seat with every compared value (the same row layout as the solo end's) and
``decided_by`` (``deciding_key``: the comparison that separated the seat from its nearest rival, codes.DB_*:
``reached``, ``parchment_vp``, ``glory`` (tie-break), ``legendary``, ``worst_dist``, ``second_dist`` /
``third_dist`` (tie-breaks), ``privilege`` (the last tie-break)).
"""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import rank_seats
from simlab.games.pendulum.codes import (
    DB_GLORY,
    DB_LEGENDARY,
    DB_NONE,
    DB_PARCHMENT_VP,
    DB_PRIVILEGE,
    DB_REACHED,
    DB_SECOND_DIST,
    DB_THIRD_DIST,
    DB_WORST_DIST,
    EB_MULTI_LEGENDARY,
    EB_MULTI_PARCHMENT,
    EB_NO_WINNER,
    EV_GAME_END,
    OPT_PARCHMENT_BEYOND_ENTRY,
    OPT_PARCHMENT_FIRST,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin

N_KEYS = 8
(K_IN_PARCHMENT, K_PARCHMENT_VP, K_GLORY, K_LEGENDARY, K_DIST0, K_DIST1, K_DIST2, K_PRIV) = range(N_KEYS)

EVENT_FIELDS = {
    # one row per seat: the branch applied, all three tracks in the parchment, the VP inside it (parchment_counting;
    # 0 unless all three are in), glory, the legendary, the three tracks' distances to the parchment worst first,
    # the 0-based place on the privilege track, the result, the track positions; automa_score / label_space are
    # the solo rows' (automa.solo_end logs this event in the same layout), -1 here
    EV_GAME_END: ("seat", "end_branch", "is_parchment", "parchment_vp", "glory", "has_legendary", "worst_dist",
                  "second_dist", "third_dist", "priv_pos", "rank", "is_winner", "power_vp", "prestige_vp",
                  "popularity_vp", "automa_score", "label_space", "decided_by"),
}

#: the DB_* name of each comparison key (K_*)
KEY_DECIDED_BY = (DB_REACHED, DB_PARCHMENT_VP, DB_GLORY, DB_LEGENDARY, DB_WORST_DIST, DB_SECOND_DIST,
                  DB_THIRD_DIST, DB_PRIVILEGE)


@kernel
def deciding_key(keys, n: int, i: int) -> int:
    """The index of the key that separated row ``i`` of ``keys[:n]`` (compared in column order) from its nearest
    rival: the deepest first-differing key over the other rows; -1 when another row has equal keys (a tie) or
    there is no other row."""
    deepest = -1
    for j in range(n):
        if j == i:
            continue
        k = 0
        while k < keys.shape[1] and keys[j, k] == keys[i, k]:
            k += 1
        if k == keys.shape[1]:
            return -1
        if k > deepest:
            deepest = k
    return deepest


@kernel
def in_parchment(s, t, p: int) -> bool:
    """Whether all three of seat ``p``'s tracks are in the parchment."""
    first = t.opts[OPT_PARCHMENT_FIRST]
    for k in range(3):  # noqa: SIM110 (numba: no generators)
        if s.track[p, k] < first:
            return False
    return True


@kernel
def parchment_vp(s, t, p: int) -> int:
    """VP inside the parchment summed over the three tracks (per ``parchment_counting``); 0 unless all three
    tracks are in it."""
    if not in_parchment(s, t, p):
        return 0
    first = t.opts[OPT_PARCHMENT_FIRST]
    extra = 0 if t.opts[OPT_PARCHMENT_BEYOND_ENTRY] != 0 else 1
    v = 0
    for k in range(3):
        v += s.track[p, k] - first + extra
    return int(v)


@kernel
def sorted_distances(s, t, p: int, out) -> None:
    """``out[0..2]``: seat ``p``'s tracks' distances to the parchment (0 inside it), largest (worst) first."""
    first = t.opts[OPT_PARCHMENT_FIRST]
    for k in range(3):
        out[k] = max(0, first - s.track[p, k])
    for i in range(3):
        for j in range(2 - i):
            if out[j] < out[j + 1]:
                x = out[j]
                out[j] = out[j + 1]
                out[j + 1] = x


@kernel
def end_keys(s, t, keys) -> None:
    """The comparison keys of the seats (rows ``0..n-1``; higher is better, compared in column order)."""
    d = np.zeros(3, dtype=np.int64)
    for p in range(s.n_players):
        for k in range(N_KEYS):
            keys[p, k] = 0
        pos = 0
        for i in range(s.n_priv):
            if s.priv[i] == p:
                pos = i
        keys[p, K_PRIV] = -pos
        if in_parchment(s, t, p):
            keys[p, K_IN_PARCHMENT] = 1
            keys[p, K_PARCHMENT_VP] = parchment_vp(s, t, p)
            keys[p, K_GLORY] = s.glory[p, 0] + s.glory[p, 1] + s.glory[p, 2]
        else:
            keys[p, K_LEGENDARY] = 1 if s.legendary[p] != 0 else 0
            sorted_distances(s, t, p, d)
            keys[p, K_DIST0] = -d[0]
            keys[p, K_DIST1] = -d[1]
            keys[p, K_DIST2] = -d[2]


@kernel
def multi_end(s, t, log) -> None:
    """I.9: ranks, winner and end branch of a 2-5 player game (see the module docstring); EV_GAME_END."""
    n = s.n_players
    keys = np.zeros((n, N_KEYS), dtype=np.int64)
    end_keys(s, t, keys)
    rank = np.zeros(n, dtype=np.int64)
    win = np.zeros(n, dtype=np.int64)
    rank_seats(keys, n, rank, win)
    any_parch = False
    any_leg = False
    for p in range(n):
        if keys[p, K_IN_PARCHMENT] != 0:
            any_parch = True
        if s.legendary[p] != 0:
            any_leg = True
    if any_parch:
        branch = EB_MULTI_PARCHMENT
    elif any_leg:
        branch = EB_MULTI_LEGENDARY
    else:
        branch = EB_NO_WINNER
    s.end_branch = branch
    for p in range(n):
        # nobody wins (I.9.3): "no winner" is the outcome ahead of every seat, so the best seat ranks 2
        s.rank[p] = rank[p] + (1 if branch == EB_NO_WINNER else 0)
        s.winner[p] = 1 if (branch != EB_NO_WINNER and rank[p] == 1) else 0
    d = np.zeros(3, dtype=np.int64)
    for p in range(n):
        r = ev_begin(s, log, EV_GAME_END, p)
        if r >= 0:
            sorted_distances(s, t, p, d)
            log[r, FIELD0 + 0] = p
            log[r, FIELD0 + 1] = branch
            log[r, FIELD0 + 2] = keys[p, K_IN_PARCHMENT]
            log[r, FIELD0 + 3] = parchment_vp(s, t, p)
            log[r, FIELD0 + 4] = s.glory[p, 0] + s.glory[p, 1] + s.glory[p, 2]
            log[r, FIELD0 + 5] = s.legendary[p]
            for k in range(3):
                log[r, FIELD0 + 6 + k] = d[k]
                log[r, FIELD0 + 12 + k] = s.track[p, k]
            log[r, FIELD0 + 9] = -keys[p, K_PRIV]
            log[r, FIELD0 + 10] = s.rank[p]
            log[r, FIELD0 + 11] = s.winner[p]
            log[r, FIELD0 + 15] = -1
            log[r, FIELD0 + 16] = -1
            k = deciding_key(keys, n, p)
            log[r, FIELD0 + 17] = KEY_DECIDED_BY[k] if k >= 0 else DB_NONE
