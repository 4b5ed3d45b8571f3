"""Solo Race's search hooks: what the shared ISMCTS (``simlab.core.search``) needs from a game.

The worked example of docs/adding_a_game.md ("Strong play"): seven small kernels, registered for
the game's state type, and one ``search_action`` the players' dispatch calls.

* determinisation: nothing is hidden but the future, so every random stream is re-keyed from the
  iteration's key (the dice and the Automa's die are then unknown, as they are to a player);
* rollouts: uniform random moves, from the copy's own streams;
* evaluation: a finished game's win (ties shared); a position cut off before the end by how far
  each seat is from the goal (against the Automa in solo games);
* prior: none (every move alike).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.kernels import next_u64, rekey
from simlab.core.rng import below
from simlab.core.search import ismcts_action, margin_values, register_search_hooks, search_player, win_values
from simlab_solo_race.rules import N_ACTIONS, apply_action, legal_actions, new_log
from simlab_solo_race.state import STATE_DTYPE, STREAM_SEAT0

KIND_ISMCTS = 2
SEARCH_PLAYER = search_player(
    "ismcts", KIND_ISMCTS,
    {"iterations": 200.0, "exploration": 0.7, "rollout_depth": -1.0, "prior_weight": 0.0, "widening": 0.0,
     "expand_after": 1.0},
    "information-set MCTS (the shared compiled search) with random rollouts",
)


@njit(cache=True)
def determinise(g_arr, seat, key, args) -> None:
    """Re-key every random stream: the future dice are unknown."""
    rekey(g_arr[0], key)


@njit(cache=True)
def legal(g_arr, out, args) -> int:
    """The legal moves (none once the race is over)."""
    if g_arr[0].over:
        return 0
    return legal_actions(g_arr[0], out)


@njit(cache=True)
def apply(g_arr, action, args) -> None:
    """Make ``action`` for the seat to act."""
    apply_action(g_arr[0], action, args[0], args[1], args[2])


@njit(cache=True)
def actor(g_arr) -> int:
    """The seat to act."""
    return g_arr[0].actor


@njit(cache=True)
def rollout(g_arr, depth, args) -> None:
    """Random moves for at most ``depth`` decisions."""
    g = g_arr[0]
    steps = 0
    while not g.over and steps != depth:
        apply_action(g, below(next_u64(g, STREAM_SEAT0 + g.actor), N_ACTIONS), args[0], args[1], args[2])
        steps += 1


@njit(cache=True)
def evaluate(g_arr, values, args) -> None:
    """The win once over; else a softmax of each seat's progress (less the Automa's in solo)."""
    g = g_arr[0]
    if g.over:
        win_values(g.winner, g.n_players, values)
        return
    progress = np.empty(g.n_players)
    for p in range(g.n_players):
        progress[p] = g.pos[p] - (g.automa_pos if g.automa else 0)
    if g.automa:
        values[0] = 1.0 / (1.0 + np.exp(-progress[0] / 4.0))
        return
    margin_values(progress, g.n_players, 4.0, values)


@njit(cache=True)
def search_action(params, s_arr, legal_buf, n_legal, board, opts, stats) -> int:
    """The search player's move (its key comes from the seat's own stream)."""
    s = s_arr[0]
    key = next_u64(s, STREAM_SEAT0 + s.actor)
    return ismcts_action(s_arr, s.actor, s.n_players, N_ACTIONS, (board, opts, new_log(0)), params, key, stats)


register_search_hooks(STATE_DTYPE, __name__, determinise=determinise, legal_actions=legal, apply=apply,
                      actor=actor, rollout=rollout, evaluate=evaluate)
