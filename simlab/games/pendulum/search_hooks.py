"""Pendulum's search hooks: what the shared ISMCTS (:mod:`simlab.core.search`) needs from the game.

* determinisation (what ``hide`` hides): every random stream re-keyed from the iteration's key,
  the province, achievement and Automa decks' order forgotten and reshuffled, the council cards
  still to come drawn anew from those the seat has not seen (the heuristics' ``determinize``);
* rollouts: every seat plays the fast policy (``fast_action``: the static scorer's best action)
  for ``rollout_depth`` decisions at a table of several players, for ``solo_rollout_depth`` alone
  against the Automas (default: to the end of the game, measured stronger there than 40 decisions
  and the cut-off evaluation; at two players no stronger and five times as slow, docs/players.md);
  the Automa plays by its rules inside the game;
* evaluation: a finished game's win (ties shared; in solo, beating the Automa); a position cut
  off before the end is scored by the heuristics' evaluation of each seat, as a softmax (solo:
  a logistic of the one seat's score);
* prior (``prior`` parameter): 1 (the default), the voter's one-ply scores of every move
  (``score_actions_fast``, the heuristic's own scoring), as a weight falling linearly from 1 for its best
  move to 0 for one ``PRIOR_SCALE`` evaluation units worse, so that progressive widening adds moves in the
  voter's order; 0 (the default before, measured weaker alone against level B), 1 for the fast policy's
  choice and ``PRIOR_OTHERS`` for every other move, the others expanded in random order.

The search player's entry (``SEARCH_PLAYER``) lives here, so the players' package need not know it.
"""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.search import (
    N_SEARCH_PARAMS,
    P_ROLLOUT_DEPTH,
    favour,
    graded,
    ismcts_action,
    margin_values,
    register_search_hooks,
    search_player,
    win_values,
)
from simlab.games.pendulum.codes import A_PASS, MAX_ACTIONS, PH_REAL
from simlab.games.pendulum.players.evaluation import evaluate as position_value
from simlab.games.pendulum.players.fast import fast_action
from simlab.games.pendulum.players.heuristics import heuristic_weights
from simlab.games.pendulum.players.lookahead import score_actions_fast
from simlab.games.pendulum.players.redeal import determinize
from simlab.games.pendulum.players.registry import BUILTIN_PLAYERS, DEFAULT_PARAMS, KIND_BALANCER, KIND_VOTER
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.players.v1 import score_actions
from simlab.games.pendulum.players.weights import N_CTX, N_W, W_PASS
from simlab.games.pendulum.rules import apply_action, legal_actions, new_log
from simlab.games.pendulum.state import STATE_DTYPE, STREAM_SEAT0

KIND_ISMCTS = 8
SEARCH_PLAYER = search_player(
    "ismcts", KIND_ISMCTS,
    {"iterations": 200.0, "exploration": 0.5, "rollout_depth": 40.0, "prior_weight": 1.0, "widening": 1.5,
     "expand_after": 1.0, "prior": 1.0, "solo_rollout_depth": -1.0},
    "information-set MCTS (the shared compiled search): determinised descents of one tree (decks and "
    "council cards re-dealt), fast-policy rollouts (cut off and scored by the heuristics' evaluation at a "
    "table, played to the end alone against the Automas)",
    {"prior": "1: the voter's one-ply scores of every move, graded (1 for its best, 0 for a move 3 evaluation "
              "units worse); 0: 1 for the fast policy's move, 0.2 for the others",
     "solo_rollout_depth": "rollout_depth alone against the Automas (negative: to the end of the game)"},
)
assert all(p.kind != KIND_ISMCTS for p in BUILTIN_PLAYERS.values())

SCORE_SPREAD = 3.0  # evaluation units over which a lead (or, solo, a score) counts a lot
PRIOR_OTHERS = 0.2  # the prior of a move other than the fast policy's (its is 1)
PRIOR_SCALE = 3.0  # evaluation units: a move this much worse than the voter's best has prior weight 0
P_PRIOR_KIND = N_SEARCH_PARAMS  # the game's own parameters: which prior,
P_SOLO_DEPTH = N_SEARCH_PARAMS + 1  # and the rollout depth alone against the Automas


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
    t, log, buf, w, ctx = args[0], args[1], args[2], args[3], args[4]
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
    """The fast policy's choice (``prior`` 0) or the voter's graded scores (``prior`` 1): see the module docstring."""
    g = g_arr[0]
    t, log, w, ctx = args[0], args[1], args[3], args[4]
    kind, wv, scores, base, work = args[5], args[6], args[7], args[8], args[9]
    work2, legal2, bctx = args[10], args[11], args[12]
    if kind == 0 or n <= 1:
        pick = fast_action(g, t, legal_buf, n, w, ctx)
        favour(legal_buf, n, pick, PRIOR_OTHERS, out)
        return
    if g.phase == PH_REAL:
        base_v = score_actions_fast(g_arr, t, legal_buf, n, wv, scores, base, work, legal2, ctx, bctx, log)
    else:
        base_v = score_actions(g_arr, t, legal_buf, n, wv, scores, base, work, work2, legal2, ctx, bctx, log,
                               np.bool_(True), np.bool_(True))
    for i in range(n):
        out[i] = base_v + wv[W_PASS] if legal_buf[i] == A_PASS else scores[i]
    graded(n, PRIOR_SCALE, out)


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
    wv = np.empty(N_W)
    heuristic_weights(KIND_VOTER, DEFAULT_PARAMS[KIND_VOTER], wv)
    kind = int(params[P_PRIOR_KIND]) if params.shape[0] > P_PRIOR_KIND else 0
    if s.n_players == 1 and params.shape[0] > P_SOLO_DEPTH:
        params = params.copy()
        params[P_ROLLOUT_DEPTH] = params[P_SOLO_DEPTH]
    args = (tables[0], new_log(0), np.empty(MAX_ACTIONS, dtype=np.int64), w, np.empty(N_CTX), kind, wv,
            np.empty(MAX_ACTIONS), np.empty(1, dtype=STATE_DTYPE), np.empty(1, dtype=STATE_DTYPE),
            np.empty(1, dtype=STATE_DTYPE), np.empty(MAX_ACTIONS, dtype=np.int64), np.empty(N_CTX))
    return ismcts_action(s_arr, seat, int(s.n_players), MAX_ACTIONS, args, params, key, stats)


register_search_hooks(STATE_DTYPE, __name__, determinise=determinise, legal_actions=legal, apply=apply, actor=actor,
                      rollout=rollout, evaluate=evaluate, prior=prior)
