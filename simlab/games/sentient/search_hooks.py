"""Sentient's search hooks: what the shared ISMCTS (:mod:`simlab.core.search`) needs from the game.

* determinisation: the deck's order is the only hidden information (``SentientGame.hide``), so
  a determinisation re-keys every random stream from the iteration's key and reshuffles the
  deck (future dice, layouts and reshuffles are then unknown too);
* rollouts: every seat plays the rollout heuristic (greedy by default, ``rollout`` parameter);
* evaluation: a finished game's win (ties shared), blended with a small margin term so that a
  rollout that loses by one VP counts a little more than one that loses by twenty; a position
  cut off before the end is scored from the VP scored so far;
* prior: the greedy view of every buy (the change in the seat's network VP, less a little per
  assistant spent) and of the pass (the greedy's pass threshold), as a weight falling linearly from
  1 for the best move to 0 for one ``PRIOR_SCALE`` VP worse.
"""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind, rekey, shuffle
from simlab.core.rng import below
from simlab.core.search import (
    N_SEARCH_PARAMS,
    finished_values,
    graded,
    ismcts_action,
    margin_values,
    register_search_hooks,
)
from simlab.games.sentient.players import DEFAULT_PARAMS, SCRATCH, heuristic_action
from simlab.games.sentient.players import _take_delta as take_delta
from simlab.games.sentient.rules import (
    ACT_BUY0,
    MAX_INFLUENCE,
    N_ACTIONS,
    apply_action,
    decode_buy,
    legal_actions,
    new_log,
)
from simlab.games.sentient.state import N_COLUMNS, N_ROUNDS, N_SLOTS, STATE_DTYPE, STREAM_DICE, STREAM_SEAT0

next_u64 = bind(kernels.next_u64)

RANDOM_ROLLOUT = 0  # rollout kind 0: uniform over the legal actions
MARGIN_WEIGHT = 0.1  # share of a finished game's value that comes from the VP margin
MARGIN_SPREAD = 10.0  # VP over which the margin term goes from a little to a lot
PRIOR_SCALE = 6.0  # VP: a move this much worse than the best has prior weight 0
ASSISTANT_COST = 0.4  # VP an assistant spent costs in the prior
PASS_VALUE = 1.0  # the prior's value of passing (the greedy's pass threshold)


@kernel
def determinise(g_arr, seat, key, args) -> None:
    """Resample the deck's order and every future draw from ``key``."""
    g = g_arr[0]
    rekey(g, key)
    shuffle(g, STREAM_DICE, g.deck, g.deck_n)


@kernel
def legal(g_arr, out, args) -> int:
    """The legal actions (none once the game is over)."""
    g = g_arr[0]
    if g.over:
        return 0
    return legal_actions(g, args[0], args[2], out)


@kernel
def apply(g_arr, action, args) -> None:
    """Play ``action`` for the seat to act."""
    apply_action(g_arr[0], action, args[0], args[1], args[2], args[3])


@kernel
def actor(g_arr) -> int:
    """The seat to act."""
    g = g_arr[0]
    return g.order[g.turn]


@kernel
def rollout(g_arr, depth, args) -> None:
    """Play on with the rollout heuristic (every seat) for at most ``depth`` decisions."""
    g = g_arr[0]
    cards, inv, opts, log, scratch, kind, kind_params, buf = args
    steps = 0
    while not g.over and steps != depth:
        if kind == RANDOM_ROLLOUT:
            n = legal_actions(g, cards, opts, buf)
            a = buf[below(next_u64(g, STREAM_SEAT0 + g.order[g.turn]), n)]
        else:
            a = heuristic_action(kind, kind_params, g, cards, opts, scratch)
        apply_action(g, a, cards, inv, opts, log)
        steps += 1


@kernel
def evaluate(g_arr, values, args) -> None:
    """Each seat's value: the win (blended with the VP margin) once over, else its VP share so far."""
    g = g_arr[0]
    n = g.n_players
    if g.over:
        score = np.empty(n)
        for p in range(n):
            score[p] = g.total[p]
        finished_values(g.winner, score, n, MARGIN_SPREAD, MARGIN_WEIGHT, values)
        return
    score = np.zeros(n)
    for p in range(n):
        for k in range(N_ROUNDS):
            score[p] += g.round_vp[p, k]
    margin_values(score, n, MARGIN_SPREAD, values)


@kernel
def prior(g_arr, legal_buf, n, out, args) -> None:
    """The greedy's view of each action as a weight in [0, 1] (see the module docstring); the change in
    network VP is computed once per (column, slot, blocks), not once per influence count."""
    g = g_arr[0]
    cards = args[0]
    p = g.order[g.turn]
    memo = args[4]  # scratch: one entry per (column, slot, left block, right block), NaN until computed
    for i in range(N_COLUMNS * N_SLOTS * 4):
        memo[i] = np.nan
    last = -1  # the legal actions of one (column, slot, blocks) come one after another: reuse its delta
    delta = 0.0
    for i in range(n):
        a = legal_buf[i]
        if a < ACT_BUY0:
            v = PASS_VALUE
        else:
            x = a - ACT_BUY0
            m = x // (MAX_INFLUENCE + 1)  # (column, slot, blocks) as one index; the rest is the influence
            if m != last:
                if np.isnan(memo[m]):
                    col, slot, bl, br, _ = decode_buy(a)
                    memo[m] = take_delta(g, p, cards, g.factory[col], slot, bl, br)
                delta = memo[m]
                last = m
            blocks = (m & 1) + ((m >> 1) & 1)
            v = delta - ASSISTANT_COST * (blocks + x - m * (MAX_INFLUENCE + 1))
        out[i] = v
    graded(n, PRIOR_SCALE, out)  # 1 for the best, 0 for PRIOR_SCALE VP worse or more


@kernel
def search_action(params, s_arr, legal_buf, n_legal, cards, inv, opts, stats) -> int:
    """The ISMCTS player's action for the seat to act (its key comes from the seat's own stream)."""
    s = s_arr[0]
    seat = s.order[s.turn]
    if n_legal == 1:
        return legal_buf[0]
    key = next_u64(s, STREAM_SEAT0 + seat)
    kind = int(params[N_SEARCH_PARAMS])
    args = (cards, inv, opts, new_log(0), np.empty(SCRATCH), kind, DEFAULT_PARAMS[kind].copy(),
            np.empty(N_ACTIONS, dtype=np.int64))
    return ismcts_action(s_arr, seat, int(s.n_players), N_ACTIONS, args, params, key, stats)


register_search_hooks(STATE_DTYPE, __name__, determinise=determinise, legal_actions=legal, apply=apply, actor=actor,
                      rollout=rollout, evaluate=evaluate, prior=prior, observable_prior=True)
