"""Steel Arena's search hooks: what the shared ISMCTS (:mod:`simlab.core.search`) needs from the game.

* determinisation (what ``hide`` hides): every random stream re-keyed from the iteration's key,
  then what the seat has not seen (face-down field tiles, the generation-3 stack, the other
  robots' unrevealed modules, the tiles boxed unseen at setup) re-dealt among those places, each
  keeping its visible type (the heuristics' ``determinize``);
* rollouts: every seat plays the brawler for ``rollout_depth`` decisions;
* evaluation: a finished game's win (ties shared) blended with the trophy margin; a position cut
  off before the end is scored by the brawler's one-ply evaluation of each seat, as a softmax;
* prior: 1 for the brawler's choice, ``PRIOR_OTHERS`` for every other move, so the brawler's
  move is expanded first and the search widens from there.

The search player's entry (``SEARCH_PLAYER``) lives here, so the heuristics' module need not know it.
"""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.search import (
    favour,
    finished_values,
    ismcts_action,
    margin_values,
    register_search_hooks,
    search_player,
)
from simlab.games.steel_arena.codes import MAX_ACTIONS
from simlab.games.steel_arena.players import (
    BUILTIN_PLAYERS,
    KIND_BRAWLER,
    _team_trophies,
    determinize,
    heuristic_action,
    heuristic_weights,
    rekey,
    weights_size,
)
from simlab.games.steel_arena.players import (
    evaluate as position_value,
)
from simlab.games.steel_arena.rules import apply_action, legal_actions, new_log
from simlab.games.steel_arena.state import MAX_TILES, STATE_DTYPE, STREAM_SEAT0

next_u64 = bind(kernels.next_u64)
i64 = np.int64
b1 = np.bool_

KIND_ISMCTS = 6
SEARCH_PLAYER = search_player(
    "ismcts", KIND_ISMCTS,
    {"iterations": 200.0, "exploration": 0.5, "rollout_depth": 6.0, "prior_weight": 1.0, "widening": 1.5,
     "expand_after": 1.0},
    "information-set MCTS (the shared compiled search): determinised descents of one tree (unseen tiles "
    "re-dealt), brawler rollouts cut off and scored by the brawler's evaluation, the brawler's move first",
)
assert all(p.kind != KIND_ISMCTS for p in BUILTIN_PLAYERS.values())

MARGIN_WEIGHT = 0.2  # share of a finished game's value that comes from the trophy margin
TROPHY_SPREAD = 1.5  # trophies over which the margin (and a cut-off position's lead) counts a lot
PRIOR_OTHERS = 0.2  # the prior of a move other than the brawler's (its is 1)
BRAWLER_PARAMS = np.array(list(BUILTIN_PLAYERS["brawler"].params.values()) + [0.0] * 8)[:8]


@kernel
def determinise(g_arr, seat, key, args) -> None:
    """Re-key every stream, then re-deal what ``seat`` has not seen (types kept)."""
    g = g_arr[0]
    tiles, pool, setup_tab = args[0], args[1], args[3]
    rekey(g, key)
    determinize(g, i64(seat), tiles, pool, setup_tab, args[11])


@kernel
def legal(g_arr, out, args) -> int:
    """The legal actions (none once the game is over)."""
    g = g_arr[0]
    if g.over:
        return 0
    return legal_actions(g, out, args[0], args[1], args[2], args[3], args[4], args[5], args[6])


@kernel
def apply(g_arr, action, args) -> None:
    """Play ``action`` for the seat to act."""
    apply_action(g_arr[0], action, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[9])


@kernel
def actor(g_arr) -> int:
    """The seat to act."""
    return g_arr[0].actor


@kernel
def _brawler(g_arr, args) -> int:
    tiles, pool, robots, setup_tab, cells, nbr, opts, base, work, log, scores, buf, w, bparams, moves = args
    g = g_arr[0]
    n = legal_actions(g, moves, tiles, pool, robots, setup_tab, cells, nbr, opts)
    if n == 0:
        return -1
    return heuristic_action(i64(KIND_BRAWLER), bparams, g_arr, moves, i64(n), tiles, pool, robots, setup_tab, cells,
                            nbr, opts, base, work, log, scores, buf, w, b1(False))


@kernel
def rollout(g_arr, depth, args) -> None:
    """Every seat plays the brawler for at most ``depth`` decisions."""
    g = g_arr[0]
    steps = 0
    while not g.over and steps != depth:
        a = _brawler(g_arr, args)
        if a < 0:
            break
        apply_action(g, a, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[9])
        steps += 1


@kernel
def evaluate(g_arr, values, args) -> None:
    """The win blended with the trophy margin once over; else a softmax of the brawler's evaluation."""
    g = g_arr[0]
    n = g.n_players
    score = np.empty(n)
    if g.over:
        for p in range(n):
            mine, other = _team_trophies(g, i64(p))
            score[p] = mine - other
        finished_values(g.winner, score, n, TROPHY_SPREAD, MARGIN_WEIGHT, values)
        return
    tiles, pool, robots, cells, nbr, opts = args[0], args[1], args[2], args[4], args[5], args[6]
    w = args[12]
    heuristic_weights(i64(KIND_BRAWLER), args[13], w)
    for p in range(n):
        score[p] = position_value(g, i64(p), w, tiles, pool, robots, cells, nbr, opts, b1(False))
    margin_values(score, n, TROPHY_SPREAD, values)


@kernel
def prior(g_arr, legal_buf, n, out, args) -> None:
    """1 for the brawler's choice, PRIOR_OTHERS for every other move."""
    g = g_arr[0]
    stream = STREAM_SEAT0 + g.actor
    saved = g.rng_ctr[stream]
    pick = _brawler(g_arr, args)
    g.rng_ctr[stream] = saved  # the prior draws nothing the descent will see
    favour(legal_buf, n, pick, PRIOR_OTHERS, out)


@kernel
def search_action(params, s_arr, legal_buf, n_legal, tiles, pool, robots, setup_tab, cells, nbr, opts,
                  stats) -> int:
    """The ISMCTS player's action for the seat to act (its key comes from the seat's own stream)."""
    s = s_arr[0]
    if n_legal == 1:
        return legal_buf[0]
    seat = s.actor
    key = next_u64(s, STREAM_SEAT0 + seat)
    copies = np.empty(2, dtype=STATE_DTYPE)
    w = np.empty(weights_size(tiles))
    args = (tiles, pool, robots, setup_tab, cells, nbr, opts, copies[0:1], copies[1:2], new_log(0),
            np.empty(MAX_ACTIONS), np.empty((6, MAX_TILES), dtype=np.int64), w, BRAWLER_PARAMS.copy(),
            np.empty(MAX_ACTIONS, dtype=np.int64))
    return ismcts_action(s_arr, seat, int(s.n_players), MAX_ACTIONS, args, params, key, stats)


register_search_hooks(STATE_DTYPE, __name__, determinise=determinise, legal_actions=legal, apply=apply, actor=actor,
                      rollout=rollout, evaluate=evaluate, prior=prior)
