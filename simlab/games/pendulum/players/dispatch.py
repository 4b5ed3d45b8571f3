"""The one entry point of every built-in player: ``choose_action(kind, params, ...)``."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.pendulum.codes import (
    MAX_ACTIONS,
)
from simlab.games.pendulum.players.lookahead import heuristic_action
from simlab.games.pendulum.players.random_player import random_action
from simlab.games.pendulum.players.registry import KIND_RANDOM, KIND_SEARCH
from simlab.games.pendulum.players.search import search_action
from simlab.games.pendulum.players.weights import N_CTX, N_W
from simlab.games.pendulum.rules import new_log
from simlab.games.pendulum.state import STATE_DTYPE


@kernel
def choose_action(kind: int, params, s_arr, legal, n_legal: int, tables) -> int:
    """The action of built-in player ``kind`` for the seat to act (``s.actor``) in ``s_arr[0]``."""
    if n_legal <= 1:
        return legal[0]
    if kind == KIND_RANDOM:  # no scratch to allocate
        return random_action(params, s_arr, legal, n_legal)
    copies, legal2, fbuf, log = new_scratch()
    return choose_with(kind, params, s_arr, legal, n_legal, tables, copies, legal2, fbuf, log)


@kernel
def new_scratch():
    """The scratch a decision of a built-in player needs (three state copies, a legal list, the weights,
    two contexts and the scores, an empty log): a batch allocates it once and passes it to ``choose_with``
    (at a few microseconds a decision, allocating it each time cost about a tenth of a heuristic's time)."""
    return (np.empty(3, dtype=STATE_DTYPE), np.empty(MAX_ACTIONS, dtype=np.int64),
            np.empty(N_W + 2 * N_CTX + MAX_ACTIONS), new_log(0))


@kernel
def choose_with(kind: int, params, s_arr, legal, n_legal: int, tables, copies, legal2, fbuf, log) -> int:
    """``choose_action`` with the caller's scratch (``new_scratch``; unused by ``random``)."""
    if n_legal <= 1:
        return legal[0]
    if kind == KIND_RANDOM:
        return random_action(params, s_arr, legal, n_legal)
    t = tables[0]
    base = copies[0:1]
    work = copies[1:2]
    work2 = copies[2:]
    w = fbuf[:N_W]
    ctx = fbuf[N_W:N_W + N_CTX]
    bctx = fbuf[N_W + N_CTX:N_W + 2 * N_CTX]
    scores = fbuf[N_W + 2 * N_CTX:]
    if kind == KIND_SEARCH:
        return search_action(params, s_arr, legal, n_legal, t, w, scores, base, work, work2, legal2, ctx, bctx, log)
    return heuristic_action(kind, params, s_arr, legal, n_legal, t, w, scores, base, work, work2, legal2, ctx, bctx,
                            log)
