"""The compiled batch loop: whole Sentient games with compiled players, no Python in between."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import winner_mask
from simlab.games.sentient.columns import (
    G_N_WINNERS,
    G_RESHUFFLES,
    G_SWEEPS,
    G_TURNS,
    G_WINNER_MASK,
    S_CARD_VP,
    S_CARDS0,
    S_FIRST_IN_ROUND1,
    S_INVESTOR_VP,
    S_INVESTORS,
    S_INVESTORS0,
    S_RANK,
    S_ROUND_VP0,
    S_SECOND_VP,
    S_START_INVESTOR,
    S_TOTAL,
    S_WINNER,
    T_BLOCK_LEFT,
    T_BLOCK_RIGHT,
    T_CARD,
    T_COLUMN,
    T_INFLUENCE,
    T_POINTS,
    T_ROUND,
    T_SEAT,
    T_SLOT,
    T_TURN,
    T_TYPE,
    TAKES_PER_SEAT,
)
from simlab.games.sentient.dispatch import choose_action
from simlab.games.sentient.players import KIND_GREEDY, NEEDS_LEGAL, SCRATCH, greedy_action
from simlab.games.sentient.rules import N_ACTIONS, apply_action, investor_count, legal_actions, new_log, setup
from simlab.games.sentient.state import N_ROUNDS, N_TYPES, STATE_DTYPE


@kernel
def play_games(seeds, n_players: int, kinds, params, lineup, cards, inv, opts, out_games, out_seats,
               out_takes) -> None:
    """Play ``len(seeds)`` games; game i uses line-up ``lineup[i]`` (rows of kinds/params).

    ``kinds[l, seat]`` and ``params[l, seat]`` describe line-up l. Results go to
    ``out_games[i]`` and ``out_seats[i * n_players + seat]`` (columns ``G_*`` and ``S_*``);
    when ``out_takes`` has rows, every card bought goes to it (``T_*``, 12 rows per seat).
    """
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(N_ACTIONS, dtype=np.int64)
    scores = np.empty(SCRATCH)
    log = new_log(0)
    for i in range(seeds.shape[0]):
        setup(s, seeds[i], n_players, cards, inv, opts, log)
        li = lineup[i]
        while not s.over:
            p = s.order[s.turn]
            kind = kinds[li, p]
            if kind == KIND_GREEDY:  # the common case, called directly
                a = greedy_action(params[li, p], s, cards, opts)
            else:
                n_legal = 0
                for k in NEEDS_LEGAL:
                    if kind == k:
                        n_legal = legal_actions(s, cards, opts, legal)
                a = choose_action(kind, params[li, p], s_arr, legal, n_legal, cards, inv, opts, scores)
            apply_action(s, a, cards, inv, opts, log)
        write_results(s, i, out_games, out_seats)
        if out_takes.shape[0] > 0:
            write_takes(s, i, cards, out_takes)


@kernel
def write_results(s, i: int, out_games, out_seats) -> None:
    """Copy a finished game's results into row i of the output arrays."""
    n = s.n_players
    out_games[i, G_TURNS] = s.n_turns
    out_games[i, G_RESHUFFLES] = s.n_reshuffles
    out_games[i, G_SWEEPS] = s.n_sweeps
    nw, mask = winner_mask(s.winner, n)
    out_games[i, G_N_WINNERS] = nw
    out_games[i, G_WINNER_MASK] = mask
    for p in range(n):
        r = i * n + p
        out_seats[r, S_TOTAL] = s.total[p]
        out_seats[r, S_CARD_VP] = s.card_vp[p]
        out_seats[r, S_SECOND_VP] = s.second_vp[p]
        out_seats[r, S_INVESTOR_VP] = s.investor_vp[p]
        out_seats[r, S_RANK] = s.rank[p]
        out_seats[r, S_WINNER] = s.winner[p]
        out_seats[r, S_INVESTORS] = investor_count(s, p)
        out_seats[r, S_START_INVESTOR] = s.start_investor[p]
        out_seats[r, S_FIRST_IN_ROUND1] = s.first_seat == p
        for t in range(N_TYPES):
            out_seats[r, S_CARDS0 + t] = s.type_count[p, t]
            out_seats[r, S_INVESTORS0 + t] = s.investors_held[p, t]
        for k in range(N_ROUNDS):
            out_seats[r, S_ROUND_VP0 + k] = s.round_vp[p, k]


@kernel
def write_takes(s, i: int, cards, out_takes) -> None:
    """Copy a finished game's purchases into rows i * n_players * 12 ... of ``out_takes``."""
    n = s.n_players
    for p in range(n):
        for k in range(TAKES_PER_SEAT):
            r = (i * n + p) * TAKES_PER_SEAT + k
            c = s.owned[p, k]
            out_takes[r, T_SEAT] = p
            out_takes[r, T_ROUND] = 1 + k // 4
            out_takes[r, T_TURN] = s.owned_turn[p, k]
            out_takes[r, T_CARD] = cards[c, 0]
            out_takes[r, T_TYPE] = cards[c, 1]
            out_takes[r, T_COLUMN] = s.owned_column[p, k]
            out_takes[r, T_SLOT] = s.owned_slot[p, k]
            out_takes[r, T_BLOCK_LEFT] = s.owned_block[p, k] & 1
            out_takes[r, T_BLOCK_RIGHT] = (s.owned_block[p, k] >> 1) & 1
            out_takes[r, T_INFLUENCE] = s.owned_influence[p, k]
            out_takes[r, T_POINTS] = s.owned_points[p, k]


@kernel
def py_results(s_arr, cards, inv, opts, out_games, out_seats, out_takes) -> None:
    """A finished game's rows (row 0 of each array; takes only when ``out_takes`` has rows)."""
    s = s_arr[0]
    write_results(s, 0, out_games, out_seats)
    if out_takes.shape[0] > 0:
        write_takes(s, 0, cards, out_takes)
