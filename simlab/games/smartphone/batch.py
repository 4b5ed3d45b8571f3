"""The compiled batch loop: whole Smartphone Inc. games with compiled players, no Python in between."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import winner_mask
from simlab.games.smartphone.columns import (
    G_N_WINNERS,
    G_RETAILERS,
    G_STEPS,
    G_TECH_BACK,
    G_UPGRADES_LEFT,
    G_WINNER_MASK,
    S_COLOUR,
    S_CONTROL_VP,
    S_CONTROLS,
    S_FIRST,
    S_LOST,
    S_NFC_VP,
    S_OFFICES,
    S_PATENT_VP,
    S_PATENTS,
    S_PRICE_SUM,
    S_PRODUCED,
    S_RANK,
    S_RETAILER_VP,
    S_ROUND_VP0,
    S_SALES_VP,
    S_SCORE,
    S_SOLD,
    S_START_REGION,
    S_TECHS,
    S_TOKENS,
    S_UPGRADES,
    S_VP_TRACK,
    S_WINNER,
)
from simlab.games.smartphone.dispatch import choose_action
from simlab.games.smartphone.players import KIND_GREEDY, greedy_action, needs_legal
from simlab.games.smartphone.rules import N_ACTIONS, apply_action, legal_actions, new_log, setup
from simlab.games.smartphone.state import N_ROUNDS, N_TECH, STATE_DTYPE


@kernel
def play_games(seeds, n_players: int, kinds, params, lineup, tables, out_games, out_seats) -> None:
    """Play ``len(seeds)`` games; game i uses line-up ``lineup[i]`` (rows of kinds/params).

    ``kinds[l, seat]`` and ``params[l, seat]`` describe line-up l. Results go to
    ``out_games[i]`` and ``out_seats[i * n_players + seat]`` (columns ``G_*`` and ``S_*``).
    """
    T = tables[0]
    legal = np.empty(N_ACTIONS, dtype=np.int64)
    log = new_log(0)
    for i in range(seeds.shape[0]):
        s_arr = np.zeros(1, dtype=STATE_DTYPE)
        s = s_arr[0]
        setup(s, seeds[i], n_players, T, log)
        li = lineup[i]
        while not s.over:
            p = s.actor
            kind = kinds[li, p]
            n_legal = 0
            if needs_legal(kind, s.pending):
                n_legal = legal_actions(s, T, legal)
            if kind == KIND_GREEDY:
                a = greedy_action(s, T, p, params[li, p], legal, n_legal)
            else:
                a = choose_action(kind, params[li, p], s_arr, T, legal, n_legal)
            apply_action(s, T, a, log)
        write_results(s, T, i, out_games, out_seats)


@kernel
def write_results(s, T, i: int, out_games, out_seats) -> None:
    """Copy a finished game's results into row i of the output arrays."""
    n = s.n_players
    nw, mask = winner_mask(s.winner, n)
    out_games[i, G_N_WINNERS] = nw
    out_games[i, G_WINNER_MASK] = mask
    out_games[i, G_STEPS] = s.n_steps
    nret = 0
    for r in range(T.region.shape[0]):
        if s.retailer[r] >= 0:
            nret += 1
    out_games[i, G_RETAILERS] = nret
    back = 0
    for t in range(N_TECH):
        if s.tech_side[t]:
            back |= 1 << t
    out_games[i, G_TECH_BACK] = back
    out_games[i, G_UPGRADES_LEFT] = s.deck_n
    for p in range(n):
        r = i * n + p
        out_seats[r, S_SCORE] = s.total[p]
        out_seats[r, S_RANK] = s.rank[p]
        out_seats[r, S_WINNER] = s.winner[p]
        out_seats[r, S_COLOUR] = s.colour[p]
        out_seats[r, S_START_REGION] = s.start_region[p]
        out_seats[r, S_VP_TRACK] = s.vp[p]
        out_seats[r, S_SALES_VP] = s.sales_vp[p]
        out_seats[r, S_NFC_VP] = s.nfc_vp[p]
        out_seats[r, S_CONTROL_VP] = s.control_vp[p]
        out_seats[r, S_PATENT_VP] = s.patent_vp[p]
        out_seats[r, S_RETAILER_VP] = s.retailer_vp[p]
        out_seats[r, S_PRODUCED] = s.produced_total[p]
        out_seats[r, S_SOLD] = s.sold[p]
        out_seats[r, S_LOST] = s.lost[p]
        out_seats[r, S_OFFICES] = s.offices_built[p]
        out_seats[r, S_CONTROLS] = s.controls[p]
        out_seats[r, S_TECHS] = s.n_techs[p]
        out_seats[r, S_PATENTS] = s.n_patents[p]
        out_seats[r, S_UPGRADES] = s.upgrades_taken[p]
        out_seats[r, S_TOKENS] = s.tokens_taken[p]
        out_seats[r, S_PRICE_SUM] = s.price_sum[p]
        out_seats[r, S_FIRST] = s.first_count[p]
        for k in range(N_ROUNDS):
            out_seats[r, S_ROUND_VP0 + k] = s.round_vp[p, k]


@kernel
def py_results(s_arr, tables, out_games, out_seats) -> None:
    """A finished game's rows (row 0 of each array)."""
    write_results(s_arr[0], tables[0], 0, out_games, out_seats)
