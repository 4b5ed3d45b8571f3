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
    if kind == KIND_RANDOM:
        return random_action(params, s_arr, legal, n_legal)
    t = tables[0]
    # one allocation per kind of scratch (a decision takes a few microseconds: allocations count)
    copies = np.empty(3, dtype=STATE_DTYPE)
    base = copies[0:1]
    work = copies[1:2]
    work2 = copies[2:]
    m = max(n_legal, 2)
    ibuf = np.empty(MAX_ACTIONS + m, dtype=np.int64)
    legal2 = ibuf[:MAX_ACTIONS]
    chosen = ibuf[MAX_ACTIONS:]
    fbuf = np.empty(N_W + 2 * N_CTX + 2 * m)
    w = fbuf[:N_W]
    ctx = fbuf[N_W:N_W + N_CTX]
    bctx = fbuf[N_W + N_CTX:N_W + 2 * N_CTX]
    scores = fbuf[N_W + 2 * N_CTX:N_W + 2 * N_CTX + m]
    fs = fbuf[N_W + 2 * N_CTX + m:]
    log = new_log(0)
    if kind == KIND_SEARCH:
        return search_action(params, s_arr, legal, n_legal, t, w, scores, base, work, work2, legal2, ctx, bctx, log)
    return heuristic_action(kind, params, s_arr, legal, n_legal, t, w, scores, base, work, work2, legal2, ctx, bctx,
                            log, fs, chosen)
