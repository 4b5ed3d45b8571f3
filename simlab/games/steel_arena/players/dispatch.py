"""``choose_action``: the built-in player of a kind picks the action for the seat to act."""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below
from simlab.games.steel_arena.players.evaluation import (
    weights_size,
)
from simlab.games.steel_arena.players.heuristics import (
    heuristic_action,
)
from simlab.games.steel_arena.players.owner import (
    owner_action,
)
from simlab.games.steel_arena.players.registry import (
    KIND_RANDOM,
    KIND_SEARCH,
)
from simlab.games.steel_arena.players.search import (
    search_action,
)
from simlab.games.steel_arena.rules import new_log
from simlab.games.steel_arena.state import (
    MAX_TILES,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_WATER,
    STATE_DTYPE,
    STREAM_SEAT0,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64
b1 = np.bool_

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it


# ---------------------------------------------------------------- dispatch


@kernel
def choose_action(kind: int, params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr,
                  opts) -> int:
    """The action of built-in player ``kind`` for the seat to act (``s.actor``) in ``s_arr[0]``."""
    s = s_arr[0]
    if kind == KIND_RANDOM or n_legal == 1:
        if n_legal == 1:
            return legal[0]
        return legal[below(next_u64(s, STREAM_SEAT0 + s.actor), n_legal)]
    if s.phase in (PH_HEAT, PH_WATER, PH_DISCARD, PH_LIMIT):  # no scratch needed (as heuristic_action)
        return owner_action(s, legal, n_legal, tiles, pool)
    copies = np.empty(2, dtype=STATE_DTYPE)  # (scratch: few allocations per decision)
    base = copies[0:1]
    work = copies[1:2]
    log = new_log(i64(0))
    n_scores = max(n_legal, 1)
    floats = np.empty(n_scores + weights_size(tiles))
    scores = floats[:n_scores]
    w = floats[n_scores:]
    buf = np.empty((6, MAX_TILES), dtype=np.int64)
    if kind == KIND_SEARCH:
        return search_action(params, s_arr, legal, n_legal, tiles, pool, robots, setup_tab, cells, nbr, opts,
                             base, work, log, scores, buf, w)
    return heuristic_action(i64(kind), params, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr,
                            opts, base, work, log, scores, buf, w, b1(True))
