"""Pendulum's ``choose`` kernel: the players' dispatch (``players.choose_action``) plus the shared
ISMCTS (``search_hooks``), which sits above the players it uses for rollouts, evaluation and prior."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.pendulum.players import choose_action as players_choose
from simlab.games.pendulum.players.dispatch import choose_with
from simlab.games.pendulum.search_hooks import KIND_ISMCTS, search_action


@kernel
def choose_action(kind: int, params, s_arr, legal, n_legal: int, tables) -> int:
    """The action of built-in player ``kind`` for the seat to act (``s.actor``) in ``s_arr[0]``."""
    if kind == KIND_ISMCTS:
        return search_action(params, s_arr, legal, n_legal, tables, np.zeros(0))
    return players_choose(kind, params, s_arr, legal, n_legal, tables)


@kernel
def choose_action_with(kind: int, params, s_arr, legal, n_legal: int, tables, copies, legal2, fbuf, log) -> int:
    """``choose_action`` with the caller's scratch for the built-in players (``players.dispatch.new_scratch``):
    what the batch loop calls."""
    if kind == KIND_ISMCTS:
        return search_action(params, s_arr, legal, n_legal, tables, np.zeros(0))
    return choose_with(kind, params, s_arr, legal, n_legal, tables, copies, legal2, fbuf, log)
