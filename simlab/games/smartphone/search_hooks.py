"""Smartphone Inc.'s search hooks: what the shared ISMCTS (:mod:`simlab.core.search`) needs from the game.

* determinisation (what ``hide`` hides): the face-down upgrade deck's order, every future draw,
  and in phase 1 the plans of the seats that planned before the searching seat (S11: plans are
  secret until revealed): they are replaced by the greedy planner's plan for that seat;
* rollouts: every seat plays the greedy planner (the game's fast heuristic);
* evaluation: a finished game's win (ties shared) blended with the VP margin; a position cut
  off before the end is scored from the VP track so far;
* prior: 1 for the greedy planner's choice, ``PRIOR_OTHERS`` for every other move, so the greedy
  move is expanded first and the search widens from there.
"""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import rekey, shuffle
from simlab.core.rng import derive_key
from simlab.core.search import favour, finished_values, ismcts_action, margin_values, register_search_hooks
from simlab.games.smartphone.events import new_log
from simlab.games.smartphone.players import (
    GREEDY_DEFAULTS,
    KIND_GREEDY,
    eligible_by_price,
    greedy_action,
    greedy_arrangement,
    needs_legal,
    param_vector,
    plan_with_upgrades,
)
from simlab.games.smartphone.rules import N_ACTIONS, apply_action, legal_actions
from simlab.games.smartphone.state import STATE_DTYPE, STREAM_SEAT0, STREAM_SETUP

GREEDY_PARAMS = param_vector(GREEDY_DEFAULTS)  # the rollouts' and the prior's planner
MARGIN_WEIGHT = 0.1  # share of a finished game's value that comes from the VP margin
MARGIN_SPREAD = 8.0  # VP over which the margin term goes from a little to a lot
PRIOR_OTHERS = 0.2  # the prior of a move other than the greedy planner's (its is 1)


@kernel
def determinise(g_arr, seat, key, args) -> None:
    """Re-key every stream from ``key``, reshuffle the upgrade deck, and replace the secret plans."""
    g = g_arr[0]
    T = args[0]
    prm = args[3]
    rekey(g, key)
    shuffle(g, STREAM_SETUP, g.deck, g.deck_n)
    if g.phase == 1:
        elig = np.zeros(16, dtype=np.int64)
        for o in range(g.n_players):
            if o != seat and g.plan_arr[o] >= 0:
                elig[:] = 0
                eligible_by_price(g, T, o, elig)
                plan_with_upgrades(g, T, o, prm, greedy_arrangement(g, T, o, prm, elig), elig)


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
def _greedy(g, T, prm, buf) -> int:
    n = 0
    if needs_legal(KIND_GREEDY, g.pending):
        n = legal_actions(g, T, buf)
    return greedy_action(g, T, g.actor, prm, buf, n)


@kernel
def rollout(g_arr, depth, args) -> None:
    """Every seat plays the greedy planner for at most ``depth`` decisions."""
    g = g_arr[0]
    T, log, buf, prm = args
    steps = 0
    while not g.over and steps != depth:
        apply_action(g, T, _greedy(g, T, prm, buf), log)
        steps += 1


@kernel
def evaluate(g_arr, values, args) -> None:
    """The win blended with the VP margin once over; else the VP track's lead as a share."""
    g = g_arr[0]
    n = g.n_players
    score = np.empty(n)
    if g.over:
        for p in range(n):
            score[p] = g.total[p]
        finished_values(g.winner, score, n, MARGIN_SPREAD, MARGIN_WEIGHT, values)
        return
    for p in range(n):
        score[p] = g.vp[p]
    margin_values(score, n, MARGIN_SPREAD, values)


@kernel
def prior(g_arr, legal_buf, n, out, args) -> None:
    """1 for the greedy planner's choice, PRIOR_OTHERS for every other move."""
    g = g_arr[0]
    T, _log, buf, prm = args
    saved = g.rng_ctr[STREAM_SEAT0 + g.actor]
    pick = _greedy(g, T, prm, buf)
    g.rng_ctr[STREAM_SEAT0 + g.actor] = saved  # the prior draws nothing the descent will see
    favour(legal_buf, n, pick, PRIOR_OTHERS, out)


@kernel
def search_action(prm, s_arr, T, stats) -> int:
    """The ISMCTS player's action for the seat to act (its key comes from the seat's own stream)."""
    s = s_arr[0]
    seat = s.actor
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    if legal_actions(s, T, buf) == 1:
        return buf[0]
    stream = STREAM_SEAT0 + seat
    ctr = s.rng_ctr[stream]
    s.rng_ctr[stream] = ctr + np.uint64(1)
    key = derive_key(s.rng_key[stream], ctr)
    args = (T, new_log(0), buf, GREEDY_PARAMS.copy())
    return ismcts_action(s_arr, seat, int(s.n_players), N_ACTIONS, args, prm, key, stats)


@kernel
def profile_search(prm, s_arr, legal_buf, n_legal, tables, stats) -> int:
    """``search_action`` with the contract's arguments, adding its counters to ``stats`` (``simlab bench``)."""
    return search_action(prm, s_arr, tables[0], stats)


register_search_hooks(STATE_DTYPE, __name__, determinise=determinise, legal_actions=legal, apply=apply, actor=actor,
                      rollout=rollout, evaluate=evaluate, prior=prior)
