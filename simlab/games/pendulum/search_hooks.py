"""Pendulum's search hooks: what the shared ISMCTS (:mod:`simlab.core.search`) needs from the game.

* determinisation (what ``hide`` hides): every random stream re-keyed from the iteration's key,
  the province, achievement and Automa decks' order forgotten and reshuffled, the council cards
  still to come drawn anew from those the seat has not seen (the heuristics' ``determinize``);
* rollouts: every seat plays the fast policy (``fast_action``: the static scorer's best action)
  for ``rollout_depth`` decisions; the Automa plays by its rules inside the game;
* evaluation: a finished game's win (ties shared; in solo, beating the Automa); a position cut
  off before the end is scored by the heuristics' evaluation of each seat, as a softmax (solo:
  a logistic of the one seat's score);
* prior: 1 for the fast policy's choice, ``PRIOR_OTHERS`` for every other move.

The search player's entry (``SEARCH_PLAYER``) lives here, so the players' package need not know it.
"""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.search import (
    favour,
    ismcts_action,
    margin_values,
    register_search_hooks,
    search_player,
    win_values,
)
from simlab.games.pendulum.codes import MAX_ACTIONS
from simlab.games.pendulum.players.evaluation import evaluate as position_value
from simlab.games.pendulum.players.fast import fast_action
from simlab.games.pendulum.players.heuristics import heuristic_weights
from simlab.games.pendulum.players.redeal import determinize
from simlab.games.pendulum.players.registry import BUILTIN_PLAYERS, DEFAULT_PARAMS, KIND_BALANCER
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.weights import N_CTX, N_W
from simlab.games.pendulum.rules import apply_action, legal_actions, new_log
from simlab.games.pendulum.state import STATE_DTYPE, STREAM_SEAT0

KIND_ISMCTS = 8
SEARCH_PLAYER = search_player(
    "ismcts", KIND_ISMCTS,
    {"iterations": 200.0, "exploration": 0.5, "rollout_depth": 40.0, "prior_weight": 1.0, "widening": 1.5},
    "information-set MCTS (the shared compiled search): determinised descents of one tree (decks and "
    "council cards re-dealt), fast-policy rollouts cut off and scored by the heuristics' evaluation",
)
assert all(p.kind != KIND_ISMCTS for p in BUILTIN_PLAYERS.values())

SCORE_SPREAD = 3.0  # evaluation units over which a lead (or, solo, a score) counts a lot
PRIOR_OTHERS = 0.2  # the prior of a move other than the fast policy's (its is 1)


@kernel
def determinise(g_arr, seat, key, args) -> None:
    """Re-key every stream and re-deal what ``seat`` cannot see."""
    determinize(g_arr[0], args[0], seat, key)


@kernel
def legal(g_arr, out, args) -> int:
    """The legal actions (none once the game is over)."""
    g = g_arr[0]
    if g.over:
        return 0
    return legal_actions(g, args[0], out)


@kernel
def apply(g_arr, action, args) -> None:
    """Play ``action`` for the seat to act."""
    apply_action(g_arr[0], args[0], action, args[1])


@kernel
def actor(g_arr) -> int:
    """The seat to act."""
    return g_arr[0].actor


@kernel
def rollout(g_arr, depth, args) -> None:
    """Every seat plays the fast policy for at most ``depth`` decisions."""
    g = g_arr[0]
    t, log, buf, w, ctx = args
    steps = 0
    while not g.over and steps != depth:
        n = legal_actions(g, t, buf)
        if n == 0:
            break
        apply_action(g, t, fast_action(g, t, buf, n, w, ctx), log)
        steps += 1


@kernel
def evaluate(g_arr, values, args) -> None:
    """The win once over; else the heuristics' evaluation as a softmax (solo: a logistic)."""
    g = g_arr[0]
    n = g.n_players
    if g.over:
        win_values(g.winner, n, values)
        return
    t, w, ctx = args[0], args[3], args[4]
    score = np.empty(n)
    for p in range(n):
        score[p] = position_value(g, t, p, w, ctx)
    if n == 1:
        values[0] = 1.0 / (1.0 + np.exp(-score[0] / SCORE_SPREAD))
        return
    margin_values(score, n, SCORE_SPREAD, values)


@kernel
def prior(g_arr, legal_buf, n, out, args) -> None:
    """1 for the fast policy's choice, PRIOR_OTHERS for every other move."""
    g = g_arr[0]
    pick = fast_action(g, args[0], legal_buf, n, args[3], args[4])
    favour(legal_buf, n, pick, PRIOR_OTHERS, out)


@kernel
def search_action(params, s_arr, legal_buf, n_legal, tables, stats) -> int:
    """The ISMCTS player's action for the seat to act (its key comes from the seat's own stream)."""
    s = s_arr[0]
    if n_legal <= 1:
        return legal_buf[0]
    seat = s.actor
    key = next_u64(s, STREAM_SEAT0 + seat)
    w = np.empty(N_W)
    heuristic_weights(KIND_BALANCER, DEFAULT_PARAMS[KIND_BALANCER], w)
    args = (tables[0], new_log(0), np.empty(MAX_ACTIONS, dtype=np.int64), w, np.empty(N_CTX))
    return ismcts_action(s_arr, seat, int(s.n_players), MAX_ACTIONS, args, params, key, stats)


register_search_hooks(STATE_DTYPE, __name__, determinise=determinise, legal_actions=legal, apply=apply, actor=actor,
                      rollout=rollout, evaluate=evaluate, prior=prior)
