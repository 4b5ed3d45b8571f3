"""The compiled batch loop: whole Solo Race games with compiled players, no Python in between."""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.kernels import winner_mask
from simlab_solo_race.columns import (
    G_AUTOMA,
    G_AUTOMA_RANK,
    G_AUTOMA_SCORE,
    G_AUTOMA_WON,
    G_N_WINNERS,
    G_ROUNDS,
    G_WINNER_MASK,
    S_BUSTS,
    S_FAVOURITE,
    S_MOVES0,
    S_RANK,
    S_SCORE,
    S_SHIFT_SUM,
    S_WINNER,
)
from simlab_solo_race.players import choose_action
from simlab_solo_race.rules import N_ACTIONS, apply_action, legal_actions, new_log, setup
from simlab_solo_race.state import N_MOVES, STATE_DTYPE


@njit(cache=True)
def play_games(seeds, n_players: int, kinds, params, lineup, board, opts, out_games, out_seats) -> None:
    """Play ``len(seeds)`` games; game i uses line-up ``lineup[i]`` (rows of kinds/params).

    Results go to ``out_games[i]`` and ``out_seats[i * n_players + seat]`` (columns ``G_*``, ``S_*``).
    """
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(N_ACTIONS, dtype=np.int64)
    log = new_log(0)
    for i in range(seeds.shape[0]):
        setup(s, seeds[i], n_players, board, opts, log)
        li = lineup[i]
        while not s.over:
            p = s.actor
            n_legal = legal_actions(s, legal)
            a = choose_action(kinds[li, p], params[li, p], s_arr, legal, n_legal, board, opts)
            apply_action(s, a, board, opts, log)
        write_results(s, i, out_games, out_seats)


@njit(cache=True)
def write_results(s, i: int, out_games, out_seats) -> None:
    """Copy a finished game's results into row i of the output arrays."""
    n = s.n_players
    nw, mask = winner_mask(s.winner, n)
    out_games[i, G_ROUNDS] = s.round
    out_games[i, G_N_WINNERS] = nw
    out_games[i, G_WINNER_MASK] = mask
    out_games[i, G_AUTOMA] = s.automa
    out_games[i, G_AUTOMA_SCORE] = s.automa_pos if s.automa else 0
    out_games[i, G_AUTOMA_RANK] = s.automa_rank
    out_games[i, G_AUTOMA_WON] = s.automa_won
    for p in range(n):
        r = i * n + p
        out_seats[r, S_SCORE] = s.score[p]
        out_seats[r, S_RANK] = s.rank[p]
        out_seats[r, S_WINNER] = s.winner[p]
        favourite = 0
        for m in range(N_MOVES):
            out_seats[r, S_MOVES0 + m] = s.moves[p, m]
            if s.moves[p, m] > s.moves[p, favourite]:
                favourite = m
        out_seats[r, S_BUSTS] = s.busts[p]
        out_seats[r, S_SHIFT_SUM] = s.shift_sum[p]
        out_seats[r, S_FAVOURITE] = favourite


@njit(cache=True)
def py_results(s_arr, board, opts, out_games, out_seats) -> None:
    """A finished game's rows (row 0 of each array)."""
    write_results(s_arr[0], 0, out_games, out_seats)
