"""The compiled batch loop: whole Pendulum games with compiled players, no Python in between."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import winner_mask
from simlab.games.pendulum import columns as col
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AG_AUTOMA2,
    MAX_ACTIONS,
    OPT_AUTOMA_PARCHMENT_FIRST,
    OPT_LEVEL,
    OPT_PARCHMENT_BEYOND_ENTRY,
    OPT_PARCHMENT_FIRST,
    OPT_TIME_MODEL,
    W_MAT,
)
from simlab.games.pendulum.dispatch import choose_action_with
from simlab.games.pendulum.players.dispatch import new_scratch
from simlab.games.pendulum.rules import apply_action, legal_actions, new_log, setup
from simlab.games.pendulum.state import MAX_WORKERS, STATE_DTYPE


@kernel
def play_games(seeds, n_players: int, kinds, params, lineup, tables, out_games, out_seats) -> None:
    """Play ``len(seeds)`` games; game i uses line-up ``lineup[i]`` (rows of kinds/params).

    Results go to ``out_games[i]`` and ``out_seats[i * n_players + seat]`` (columns ``G_*``, ``S_*``).
    """
    t = tables[0]
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(0)
    copies, legal2, fbuf, plog = new_scratch()  # the players' scratch, once per batch
    for i in range(seeds.shape[0]):
        setup(s, seeds[i], n_players, t, log)
        li = lineup[i]
        while not s.over:
            p = s.actor
            n_legal = legal_actions(s, t, legal)
            a = choose_action_with(kinds[li, p], params[li, p], s_arr, legal, n_legal, tables, copies, legal2, fbuf,
                                   plog)
            apply_action(s, t, a, log)
        write_results(s, t, i, out_games, out_seats)


@kernel
def parchment_vp(s, t, p: int) -> int:
    """VP inside the parchment over the three tracks (0 unless all three reached it)."""
    first = t.opts[OPT_PARCHMENT_FIRST]
    total = 0
    for k in range(3):
        if s.track[p, k] < first:
            return 0
        total += s.track[p, k] - first + (0 if t.opts[OPT_PARCHMENT_BEYOND_ENTRY] else 1)
    return total


@kernel
def worst_distance(s, t, p: int) -> int:
    """Distance of the seat's worst track to the parchment (0 when every track is in it)."""
    first = t.opts[OPT_PARCHMENT_FIRST]
    worst = 0
    for k in range(3):
        d = first - s.track[p, k]
        if d > worst:
            worst = d
    return worst


@kernel
def write_results(s, t, i: int, out_games, out_seats) -> None:
    """Copy a finished game's results into row i of the output arrays."""
    n = s.n_players
    nw, mask = winner_mask(s.winner, n)
    g = out_games[i]
    g[col.G_SOLO] = s.solo
    g[col.G_LEVEL] = t.opts[OPT_LEVEL] + 1 if s.solo else 0
    g[col.G_TIME_MODEL] = t.opts[OPT_TIME_MODEL]
    adv = 0
    for p in range(n):
        adv |= s.advanced[p]
    g[col.G_ADVANCED] = adv
    g[col.G_N_WINNERS] = nw
    g[col.G_WINNER_MASK] = mask
    g[col.G_END_BRANCH] = s.end_branch
    g[col.G_AUTOMA_WON] = s.automa_won
    if s.solo:
        reach = t.opts[OPT_AUTOMA_PARCHMENT_FIRST]
        g[col.G_A1_SPACE] = s.a_score[0]
        g[col.G_A2_SPACE] = s.a_score[1]
        g[col.G_A1_REACHED] = s.a_score[0] >= reach
        g[col.G_A2_REACHED] = s.a_score[1] >= reach
        g[col.G_A1_GRANDE] = s.a_grande[0]
        g[col.G_A2_GRANDE] = s.a_grande[1]
    draws = 0
    for k in range(s.st_triggers.shape[0]):
        draws += s.st_triggers[k]
    g[col.G_AUTOMA_DRAWS] = draws - s.st_triggers[4]  # council VP reveals are not real-time draws
    g[col.G_TRIGGER1] = s.st_triggers[0] + s.st_triggers[2]
    g[col.G_TRIGGER2] = s.st_triggers[1]
    g[col.G_AUTOMA_FLIPS] = s.st_automa_flips
    g[col.G_AUTOMA_PURPLE] = s.st_automa_purple
    dec = 0
    for p in range(n):
        dec += s.st_decisions[p]
    g[col.G_DECISIONS] = dec
    g[col.G_CLOCK] = int(s.now)
    g[col.G_PROV_REMOVED] = s.removed_n
    for p in range(n):
        r = out_seats[i * n + p]
        pv = parchment_vp(s, t, p)
        wd = worst_distance(s, t, p)
        r[col.S_SCORE] = pv if wd == 0 else -wd
        r[col.S_RANK] = s.rank[p]
        r[col.S_WINNER] = s.winner[p]
        r[col.S_FIRST] = s.start_priv[p] == 1
        r[col.S_START_PRIV] = s.start_priv[p]
        fp = 0
        for j in range(s.n_priv):
            if s.priv[j] == p:
                fp = j + 1
        r[col.S_FINAL_PRIV] = fp
        r[col.S_CHARACTER] = s.char[p]
        r[col.S_ADVANCED] = s.advanced[p]
        r[col.S_POWER] = s.track[p, 0]
        r[col.S_PRESTIGE] = s.track[p, 1]
        r[col.S_POPULARITY] = s.track[p, 2]
        r[col.S_GLORY] = s.glory[p, 0] + s.glory[p, 1] + s.glory[p, 2]
        r[col.S_LEGENDARY] = s.legendary[p]
        r[col.S_LEGENDARY_ROUND] = s.st_legendary_round[p]
        r[col.S_PARCHMENT] = wd == 0
        r[col.S_PARCHMENT_VP] = pv
        r[col.S_WORST] = wd
        r[col.S_MILITARY] = s.res[p, 0]
        r[col.S_CULTURE] = s.res[p, 1]
        r[col.S_GOLD] = s.res[p, 2]
        r[col.S_PROVINCES] = s.st_provinces[p]
        kept = 0
        for m in range(4):
            kept += s.prov_n[p, m]
        r[col.S_PROV_KEPT] = kept
        r[col.S_ACTIONS] = s.st_actions[p]
        r[col.S_STRATS] = s.st_strats[p]
        r[col.S_CLAIMS] = s.st_claims[p]
        r[col.S_COUNCIL_VP] = s.st_council_vp[p]
        workers = 0
        grandes = 0
        for w in range(MAX_WORKERS):
            if s.w_place[p, w] >= W_MAT:
                workers += 1
                grandes += s.w_grande[p, w]
        r[col.S_WORKERS] = workers
        r[col.S_GRANDES] = grandes
        r[col.S_LOST] = s.st_lost[p]
        r[col.S_DECISIONS] = s.st_decisions[p]


@kernel
def _results(s_arr, tables, out_games, out_seats) -> None:
    write_results(s_arr[0], tables[0], 0, out_games, out_seats)


def py_results(state: np.ndarray, tables: np.ndarray, out_games: np.ndarray, out_seats: np.ndarray) -> None:
    """A finished game's rows into row 0 of the output arrays (the ``results`` kernel)."""
    _results(state, tables, out_games, out_seats)


assert AG_AUTOMA1 == 6 and AG_AUTOMA2 == 7
