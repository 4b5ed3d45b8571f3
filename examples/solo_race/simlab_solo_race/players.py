"""Solo Race's built-in compiled players and their parameters.

A compiled player is a kind number and a float64 parameter vector (the parameters in the
order ``BUILTIN_PLAYERS`` lists them). The batch loop and the Python driver both call

    choose_action(kind, params, s_arr, legal, n_legal, board, opts) -> action

``s_arr`` is the one-element state array, ``legal[:n_legal]`` the legal actions; a player's
randomness comes only from its seat's own stream (``STREAM_SEAT0 + seat``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.game import BuiltinPlayer
from simlab.core.kernels import next_u64
from simlab.core.rng import below
from simlab_solo_race.rules import ACT_GAMBLE, ACT_ROLL, ACT_WALK, OPT_GOAL, WALK_STEPS
from simlab_solo_race.search_hooks import KIND_ISMCTS, SEARCH_PLAYER, search_action
from simlab_solo_race.state import STREAM_SEAT0

KIND_RANDOM = 0
KIND_RACER = 1

BUILTIN_PLAYERS: dict[str, BuiltinPlayer] = {
    "random": BuiltinPlayer("random", KIND_RANDOM, {}, "walks, rolls or gambles at random"),
    "racer": BuiltinPlayer(
        "racer",
        KIND_RACER,
        {"gamble_behind": 4.0, "walk_within": 2.0},
        "rolls one die; gambles when far behind the leader (the Automa included); walks in when the goal is close",
        {
            "gamble_behind": "gamble when the leading rival is at least this many spaces ahead",
            "walk_within": "walk when the goal is at most this many spaces away (a walk moves 2)",
        },
    ),
    "ismcts": SEARCH_PLAYER,  # the shared compiled search with this game's hooks (search_hooks.py)
}


@njit(cache=True)
def racer_action(params, s, opts) -> int:
    """The ``racer`` heuristic for the seat to act."""
    p = s.actor
    left = opts[OPT_GOAL] - s.pos[p]
    if left <= params[1] and left <= WALK_STEPS:
        return ACT_WALK
    lead = s.automa_pos if s.automa else 0
    for q in range(s.n_players):
        if q != p and s.pos[q] > lead:
            lead = s.pos[q]
    if lead - s.pos[p] >= params[0]:
        return ACT_GAMBLE
    return ACT_ROLL


@njit(cache=True)
def choose_action(kind: int, params, s_arr, legal, n_legal: int, board, opts) -> int:
    """The action of built-in player ``kind`` for the seat to act in ``s_arr[0]``."""
    s = s_arr[0]
    if kind == KIND_RANDOM:
        return legal[below(next_u64(s, STREAM_SEAT0 + s.actor), n_legal)]
    if kind == KIND_ISMCTS:
        return search_action(params, s_arr, legal, n_legal, board, opts, np.zeros(0))
    return racer_action(params, s, opts)
