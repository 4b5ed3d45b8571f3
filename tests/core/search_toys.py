"""Two toy games for the shared search's tests, with their search hooks registered.

* Nim: ``left`` stones, each turn a seat takes 1-3, who takes the last wins. From n stones the
  seat to act wins by leaving a multiple of 4, so the best move is known exactly.
* Coin: one decision. Seat 0 either takes a sure 0.6 (action 0) or bets on a hidden coin (action
  1: worth 1 if the coin shows heads, 0 otherwise; the coin is fair). The state knows the coin
  (heads in the tests); a search that peeked would bet, one that determinises takes the 0.6.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.rng import below, u64_at
from simlab.core.search import register_search_hooks

NIM_DTYPE = np.dtype([("left", np.int64), ("actor", np.int64), ("over", np.int8), ("winner", np.int8, (2,)),
                      ("key", np.uint64), ("ctr", np.uint64)])
COIN_DTYPE = np.dtype([("coin", np.int64), ("over", np.int8), ("value", np.float64), ("n_choices", np.int64)])


@njit(cache=True)
def nim_determinise(g_arr, seat, key, args) -> None:
    g_arr[0].key = key  # nothing hidden: only the rollouts' stream is re-keyed
    g_arr[0].ctr = 0


@njit(cache=True)
def nim_legal(g_arr, out, args) -> int:
    s = g_arr[0]
    if s.over:
        return 0
    n = 0
    for k in range(1, 4):
        if k <= s.left:
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def nim_apply(g_arr, action, args) -> None:
    s = g_arr[0]
    s.left -= action
    if s.left == 0:
        s.over = 1
        s.winner[s.actor] = 1
    else:
        s.actor = 1 - s.actor


@njit(cache=True)
def nim_actor(g_arr) -> int:
    return g_arr[0].actor


@njit(cache=True)
def nim_rollout(g_arr, depth, args) -> None:
    s = g_arr[0]
    buf = np.empty(3, dtype=np.int64)
    steps = 0
    while not s.over and steps != depth:
        n = nim_legal(g_arr, buf, args)
        s.ctr += np.uint64(1)
        nim_apply(g_arr, buf[below(u64_at(s.key, s.ctr), n)], args)
        steps += 1


@njit(cache=True)
def nim_evaluate(g_arr, values, args) -> None:
    s = g_arr[0]
    for p in range(2):
        values[p] = 0.5 if not s.over else float(s.winner[p])


@njit(cache=True)
def coin_determinise(g_arr, seat, key, args) -> None:
    g_arr[0].coin = below(key, 2)  # the coin is hidden: a fair resample


@njit(cache=True)
def coin_legal(g_arr, out, args) -> int:
    if g_arr[0].over:
        return 0
    out[0] = 0
    out[1] = 1
    return 2


@njit(cache=True)
def coin_apply(g_arr, action, args) -> None:
    s = g_arr[0]
    s.value = 0.6 if action == 0 else float(s.coin)
    s.over = 1


@njit(cache=True)
def coin_actor(g_arr) -> int:
    return 0


@njit(cache=True)
def coin_rollout(g_arr, depth, args) -> None:
    return


@njit(cache=True)
def coin_evaluate(g_arr, values, args) -> None:
    values[0] = g_arr[0].value
    values[1] = 1.0 - g_arr[0].value


register_search_hooks(NIM_DTYPE, __name__, determinise=nim_determinise, legal_actions=nim_legal, apply=nim_apply,
                      actor=nim_actor, rollout=nim_rollout, evaluate=nim_evaluate)
register_search_hooks(COIN_DTYPE, __name__, determinise=coin_determinise, legal_actions=coin_legal,
                      apply=coin_apply, actor=coin_actor, rollout=coin_rollout, evaluate=coin_evaluate)


def nim(left: int) -> np.ndarray:
    """A Nim position with ``left`` stones, seat 0 to act."""
    s = np.zeros(1, dtype=NIM_DTYPE)
    s[0]["left"] = left
    return s


def coin(heads: bool) -> np.ndarray:
    """The coin game's one position (the coin as given)."""
    s = np.zeros(1, dtype=COIN_DTYPE)
    s[0]["coin"] = int(heads)
    return s
