"""Sentient's ``choose`` kernel: the built-in player of a kind picks the action.

It sits above :mod:`simlab.games.sentient.players` (the heuristics)
and :mod:`simlab.games.sentient.search_hooks` (the shared ISMCTS, whose rollouts and prior use
the heuristics), so neither has to import the other.
"""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below
from simlab.games.sentient.players import KIND_ISMCTS, KIND_RANDOM, SCRATCH, heuristic_action
from simlab.games.sentient.search_hooks import search_action
from simlab.games.sentient.state import STREAM_SEAT0

next_u64 = bind(kernels.next_u64)


@kernel
def choose_action(kind: int, params, s_arr, legal, n_legal: int, cards, inv, opts, scores) -> int:
    """The action of built-in player ``kind`` for the current seat of ``s_arr[0]``."""
    s = s_arr[0]
    if kind == KIND_RANDOM:
        return legal[below(next_u64(s, STREAM_SEAT0 + s.order[s.turn]), n_legal)]
    if kind == KIND_ISMCTS:
        return search_action(params, s_arr, legal, n_legal, cards, inv, opts, np.zeros(0))
    return heuristic_action(kind, params, s, cards, opts, scores)


@kernel
def py_choose(kind: int, params, s_arr, legal, n_legal: int, cards, inv, opts) -> int:
    """``choose_action`` with its own scratch room (the choose kernel of the compiled-game contract)."""
    scratch = np.empty(SCRATCH)
    return choose_action(kind, params, s_arr, legal, n_legal, cards, inv, opts, scratch)
