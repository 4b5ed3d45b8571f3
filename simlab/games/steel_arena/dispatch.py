"""Steel Arena's ``choose`` kernel: the heuristics' dispatch (``players.choose_action``) plus the
shared ISMCTS (``search_hooks``), which sits above the heuristics it uses for rollouts and prior."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.steel_arena.players import choose_action as heuristic_choose
from simlab.games.steel_arena.search_hooks import KIND_ISMCTS, search_action


@kernel
def choose_action(kind: int, params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr,
                  opts) -> int:
    """The action of built-in player ``kind`` for the seat to act (``s.actor``) in ``s_arr[0]``."""
    if kind == KIND_ISMCTS:
        return search_action(params, s_arr, legal, n_legal, tiles, pool, robots, setup_tab, cells, nbr, opts,
                             np.zeros(0))
    return heuristic_choose(kind, params, s_arr, legal, n_legal, tiles, pool, robots, setup_tab, cells, nbr, opts)
