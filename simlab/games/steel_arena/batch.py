"""The compiled batch loop: whole Steel Arena games with compiled players, no Python in between."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import winner_mask
from simlab.games.steel_arena.codes import MAX_ACTIONS
from simlab.games.steel_arena.columns import (
    G_END_REASON,
    G_EXPLOSIONS,
    G_N_WINNERS,
    G_STACK_LEFT,
    G_TEAM,
    G_TURNS,
    G_WINNER_MASK,
    P_DESIGN,
    P_GENERATION,
    P_KEPT,
    P_SEAT,
    P_TURN,
    P_TYPE,
    PICKUPS_PER_SEAT,
    S_ACTIVATIONS,
    S_BOOSTED,
    S_COOLS,
    S_DAMAGE,
    S_DESTROYED,
    S_EXPLOSIONS,
    S_FIRST,
    S_HITS,
    S_LOST,
    S_MODULES,
    S_PICKED0,
    S_PUSHES,
    S_RANK,
    S_SCORE,
    S_TEAM,
    S_TROPHIES,
    S_TURNS,
    S_WEAR,
    S_WINNER,
)
from simlab.games.steel_arena.data import T_GENERATION, T_TYPE
from simlab.games.steel_arena.dispatch import choose_action
from simlab.games.steel_arena.rules import apply_action, legal_actions, new_log, setup
from simlab.games.steel_arena.state import STATE_DTYPE


@kernel
def play_games(seeds, n_players: int, kinds, params, lineup, tiles, pool, robots, setup_tab, cells, nbr, opts,
               out_games, out_seats, out_pickups) -> None:
    """Play ``len(seeds)`` games; game i uses line-up ``lineup[i]`` (rows of kinds/params).

    Results go to ``out_games[i]`` and ``out_seats[i * n_players + seat]`` (columns ``G_*``, ``S_*``);
    when ``out_pickups`` has rows, every module picked up goes to it (``P_*``, PICKUPS_PER_SEAT per seat).
    """
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(np.int64(0))
    for i in range(seeds.shape[0]):
        setup(s, seeds[i], n_players, tiles, pool, robots, setup_tab, cells, nbr, opts, log)
        li = lineup[i]
        while not s.over:
            p = s.actor
            n_legal = legal_actions(s, legal, tiles, pool, robots, setup_tab, cells, nbr, opts)
            a = choose_action(kinds[li, p], params[li, p], s_arr, legal, n_legal, tiles, pool, robots, setup_tab,
                              cells, nbr, opts)
            apply_action(s, a, tiles, pool, robots, setup_tab, cells, nbr, opts, log)
        write_results(s, i, out_games, out_seats)
        if out_pickups.shape[0] > 0:
            write_pickups(s, i, tiles, pool, out_pickups)


@kernel
def write_results(s, i: int, out_games, out_seats) -> None:
    """Copy a finished game's results into row i of the output arrays."""
    n = s.n_players
    nw, mask = winner_mask(s.winner, n)
    out_games[i, G_TURNS] = s.turn
    out_games[i, G_END_REASON] = s.end_reason
    out_games[i, G_N_WINNERS] = nw
    out_games[i, G_WINNER_MASK] = mask
    explosions = 0
    for p in range(n):
        explosions += s.st_explosions[p]
    out_games[i, G_EXPLOSIONS] = explosions
    out_games[i, G_STACK_LEFT] = s.stack_n
    out_games[i, G_TEAM] = s.team
    for p in range(n):
        r = i * n + p
        score = s.n_trophies[p]
        if s.team:
            score = 0
            for q in range(n):
                if s.team_of[q] == s.team_of[p]:
                    score += s.n_trophies[q]
        out_seats[r, S_SCORE] = score
        out_seats[r, S_TROPHIES] = s.n_trophies[p]
        out_seats[r, S_RANK] = s.rank[p]
        out_seats[r, S_WINNER] = s.winner[p]
        out_seats[r, S_FIRST] = s.first_player == p
        out_seats[r, S_TEAM] = s.team_of[p]
        out_seats[r, S_MODULES] = 0 if s.destroyed[p] else s.n_mods[p] + 1
        out_seats[r, S_BOOSTED] = s.side[p]
        out_seats[r, S_DESTROYED] = s.destroyed[p]
        out_seats[r, S_ACTIVATIONS] = s.st_activations[p]
        out_seats[r, S_COOLS] = s.st_cools[p]
        out_seats[r, S_HITS] = s.st_hits[p]
        out_seats[r, S_DAMAGE] = s.st_damage[p]
        out_seats[r, S_LOST] = s.st_lost[p]
        out_seats[r, S_WEAR] = s.st_wear[p]
        out_seats[r, S_EXPLOSIONS] = s.st_explosions[p]
        out_seats[r, S_PUSHES] = s.st_pushes[p]
        out_seats[r, S_TURNS] = s.st_turns[p]
        for t in range(4):
            out_seats[r, S_PICKED0 + t] = s.st_picked[p, t]


@kernel
def write_pickups(s, i: int, tiles, pool, out_pickups) -> None:
    """Copy a finished game's pickups into rows (i * n_players + seat) * PICKUPS_PER_SEAT ... (design 0: unused row)."""
    n = s.n_players
    for p in range(n):
        for k in range(PICKUPS_PER_SEAT):
            r = (i * n + p) * PICKUPS_PER_SEAT + k
            out_pickups[r, P_SEAT] = p
            if k < s.n_picks[p] and k < PICKUPS_PER_SEAT:
                d = s.pick_design[p, k]
                out_pickups[r, P_TURN] = s.pick_turn[p, k]
                out_pickups[r, P_DESIGN] = d + 1  # 0 = none (categorical code)
                out_pickups[r, P_TYPE] = tiles[d, T_TYPE] + 1
                out_pickups[r, P_GENERATION] = tiles[d, T_GENERATION]
                kept = 0
                for m in range(s.n_mods[p]):
                    if pool[s.mods[p, m]] == d:
                        kept = 1
                out_pickups[r, P_KEPT] = kept
            else:
                out_pickups[r, P_TURN] = -1
                out_pickups[r, P_DESIGN] = 0
                out_pickups[r, P_TYPE] = 0
                out_pickups[r, P_GENERATION] = 0
                out_pickups[r, P_KEPT] = 0


@kernel
def py_results(s_arr, tiles, pool, robots, setup_tab, cells, nbr, opts, out_games, out_seats, out_pickups) -> None:
    """A finished game's rows (row 0 of each array)."""
    write_results(s_arr[0], 0, out_games, out_seats)
    if out_pickups.shape[0] > 0:
        write_pickups(s_arr[0], 0, tiles, pool, out_pickups)
