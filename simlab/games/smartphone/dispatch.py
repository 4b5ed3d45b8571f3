"""Smartphone Inc.'s ``choose`` kernel: the built-in player of a kind picks the action.

It sits above :mod:`simlab.games.smartphone.players` (the greedy planners) and
:mod:`simlab.games.smartphone.search_hooks` (the shared ISMCTS, whose rollouts and prior use the
greedy planner), so neither has to import the other.
"""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.smartphone.players import (
    KIND_ISMCTS,
    KIND_RANDOM,
    greedy_action,
    needs_legal,
    random_action,
)
from simlab.games.smartphone.rules import legal_actions
from simlab.games.smartphone.search_hooks import search_action


@kernel
def choose_action(kind: int, prm, s_arr, T, legal, n_legal: int) -> int:
    """The action a built-in player of ``kind`` takes (legal list filled when ``needs_legal``)."""
    s = s_arr[0]
    p = s.actor
    if kind == KIND_RANDOM:
        return random_action(s, p, legal, n_legal)
    if kind == KIND_ISMCTS:
        return search_action(prm, s_arr, T, np.zeros(0))
    return greedy_action(s, T, p, prm, legal, n_legal)


@kernel
def py_choose(kind: int, prm, state, legal, n_legal: int, tables) -> int:
    """``choose_action`` from Python: the state and table arrays rather than records.

    The choose kernel of the compiled-game contract (``legal`` has room for ``N_ACTIONS``).
    """
    T = tables[0]
    if needs_legal(kind, state[0].pending) and n_legal == 0:
        n_legal = legal_actions(state[0], T, legal)
    return choose_action(kind, prm, state, T, legal, n_legal)
