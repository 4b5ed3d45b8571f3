"""Steel Arena's rules kernels: setup, legal actions and the phase machine (NOTES Part I, Part II).

Entry points (calling conventions of :mod:`simlab.core.compiled`; rule arrays in ``RULE_ARGS``
order, ``log`` last):

    new_log(capacity)
    setup(s, seed, n_players, tiles, pool, robots, setup_tab, cells, nbr, opts, log)
    legal_actions(s, out, tiles, pool, robots, setup_tab, cells, nbr, opts) -> n
    apply_action(s, action, tiles, pool, robots, setup_tab, cells, nbr, opts, log)
    py_setup(s_arr, seed, n_players, ..., log, legal) -> n
    py_step(s_arr, action, ..., log, legal) -> n (0 once the game is over)

Phases (``state.PH_*``) and who decides (``s.actor``):

- PH_PLACE: seats from the first player clockwise place their robots on an edge cell without a
  robot or obstacle (terrain allowed unless ``allow_terrain_start_cell = false``), any facing; the
  module tile under the robot joins its modules (terrain: nothing, NOTES I.3.8). Placement sets
  nothing off (II.16 default); with ``start_placement_triggers_terrain = true`` a robot placed on
  explosive terrain sets it off (cause "stop"), and the damage is discarded at once as in E0 with
  the placing seat as the active one (its own losses to the box, others' its trophies), then the
  end check, then the placement goes on (water has nothing to cool at setup). Should no edge cell
  be free, any free non-obstacle cell is offered.
- PH_ACTIVE: cool all (``A_COOL``; legal when something is overheated, always with
  ``cool_always_legal``) or one activation. PH_CONTINUE (after a speed module or wear b): one
  more activation, or ``A_STOP``; no cooling (II.29).
- Activation rules (I.5, I.6, I.8): a module at most once per turn; overheated modules only by
  the wear rule (a) (movement/rotation; with ``wear_on_first_activation = false`` not as the
  turn's first activation); wear (b): a token-free auto-cool movement/rotation module without
  speed used as if it had speed (a module that has speed gains nothing from it, so that choice
  is not offered); either wear destroys the module after use (box). Defence modules are never
  an action (ЗОНТ/РОЙ react in hits.py). The central module: one property per activation, once
  per turn, not when overheated, never by wear. ``overheat_token_limit`` > 0: no activation
  once the supply is used up. An active robot with nothing at all to do may always cool all.
- After an activation resolves, the owners settle what the hits left them (active seat first,
  then clockwise): PH_HEAT for every robot with pending heat (each ``A_PICK`` overheats one
  module, the central one via ``SLOT_CENTRAL``, each module at most once per heat; tokens on
  auto-cool and passive modules are shed at once, II.9; ``A_NONE`` refuses the rest; every
  unit refused or impossible is 1 pending damage), then PH_WATER for every robot owed a
  water cooling (one overheated module of choice, or ``A_NONE``; skipped when nothing is
  overheated). Then PH_CONTINUE if the activation allows a further one, else the end phase
  (``endphase.py``: PH_DISCARD, PH_LIMIT decisions).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind, shuffle
from simlab.core.kernels import new_log as _new_log
from simlab.core.rng import below, derive_key
from simlab.games.steel_arena.attacks import apply_attack, attack_params
from simlab.games.steel_arena.codes import (
    A_ACT,
    A_COOL,
    A_NONE,
    A_PICK,
    A_PLACE,
    A_STOP,
    EV_ACT_END,
    EV_ACTIVATE,
    EV_COOL_ALL,
    EV_COOL_TOKEN,
    EV_FIRST_PLAYER,
    EV_GEN2_RETURNED,
    EV_GEN2_TAKEN,
    EV_HEAT_ABSORB,
    EV_HEAT_DAMAGE,
    EV_PLACE,
    EV_SETUP_CELL,
    EV_SHED,
    EV_STACK,
    EV_STARTER,
    EV_TAKE_START,
    EV_WATER_COOL,
    LOG_WIDTH,
    OPT_COOL_ALWAYS,
    OPT_DESTROY_IMMEDIATE,
    OPT_EXPERT,
    OPT_FIRST_SEAT0,
    OPT_LIMIT_NEW,
    OPT_ONLY_COOL_ABSORB,
    OPT_PLACE_TRIGGERS,
    OPT_TEAM,
    OPT_TERRAIN_START,
    OPT_TOKEN_LIMIT,
    OPT_WEAR_FIRST,
    PARAM_SPAN,
    SLOT_C_ATTACK,
    SLOT_C_MOVE,
    SLOT_C_ROTATE,
    SLOT_CENTRAL,
    VIA_FIRST,
    VIA_SPEED,
    VIA_WEAR_A,
    VIA_WEAR_B,
    XC_STOP,
)
from simlab.games.steel_arena.data import (
    R_DAMAGE,
    R_DELIVERY,
    R_MOVE_KIND,
    R_MOVE_MAX,
    R_MOVE_MIN,
    R_ROTATE_MAX,
    R_ROTATE_MIN,
    T_AUTOCOOL,
    T_DAMAGE,
    T_DELIVERY,
    T_GENERATION,
    T_HEAT,
    T_IN_PLAY,
    T_MOVE_KIND,
    T_MOVE_MAX,
    T_MOVE_MIN,
    T_OBSTACLE,
    T_ONESHOT,
    T_PASSIVE,
    T_PUSH,
    T_ROTATE_MAX,
    T_ROTATE_MIN,
    T_SPEED,
    T_SPLASH,
    T_TYPE,
    T_WHIRL,
)
from simlab.games.steel_arena.endphase import (
    ES_DISCARDS,
    after_placement,
    apply_discard,
    apply_limit,
    begin_end_phase,
    remove_slot,
    robot_at,
    run_end_phase,
    to_box,
)
from simlab.games.steel_arena.hits import explode
from simlab.games.steel_arena.movement import apply_move, apply_rotate, move_params, rotate_params
from simlab.games.steel_arena.state import (
    MAX_CELLS,
    MAX_MODS,
    MAX_PICKUPS,
    MAX_PLAYERS,
    MAX_STACK,
    MAX_TILES,
    N_STREAMS,
    N_TYPES,
    PH_ACTIVE,
    PH_CONTINUE,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_PLACE,
    PH_WATER,
    STREAM_FIRST,
    STREAM_SETUP,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64

next_u64 = bind(kernels.next_u64)  # the shared helpers, compiled here so numba inlines them
log_event = bind(kernels.log_event)

TYPE_ATTACK = 0
TYPE_MOVE = 1
TYPE_ROTATE = 2
TYPE_DEFENCE = 3
TYPE_TERRAIN = 4
N_MODULE_TYPES = 4
RANDOM_TAKE = 5  # EV_GEN2_TAKEN type of a random draw
N_ABSORB = SLOT_CENTRAL + 1  # s.queued[0..13]: modules (and the central one) that took heat this time


@njit("(int64,)", cache=True)
def new_log(capacity: int) -> np.ndarray:
    """An event log for ``capacity`` events (0 records nothing). Compiled for int64 only, so a literal
    ``new_log(0)`` in a kernel shares the one version."""
    return _new_log(capacity, LOG_WIDTH)


# ---------------------------------------------------------------- setup


@kernel
def reset_record(s) -> None:
    """Every field of the record to its empty value (a new game)."""
    s.n_players = 0
    s.n_cells = 0
    s.n_tiles = 0
    s.expert = 0
    s.team = 0
    s.phase = PH_PLACE
    s.actor = 0
    s.active = 0
    s.turn = 0
    s.first_player = 0
    s.n_placed = 0
    s.over = 0
    s.end_reason = 0
    s.end_trigger = -1
    for c in range(MAX_CELLS):
        s.cell_tile[c] = -1
        s.cell_up[c] = 0
        s.cell_type[c] = -1
        s.queued[c] = 0
    for k in range(2 * MAX_CELLS):
        s.queue[k] = 0
    for k in range(MAX_STACK):
        s.stack[k] = -1
    s.stack_n = 0
    for k in range(MAX_TILES):
        s.box[k] = -1
    s.box_n = 0
    for p in range(MAX_PLAYERS):
        s.team_of[p] = 0
        s.cell[p] = -1
        s.facing[p] = 0
        s.side[p] = 0
        s.placed[p] = 0
        s.destroyed[p] = 0
        for m in range(MAX_MODS):
            s.mods[p, m] = -1
            s.heat[p, m] = 0
            s.used[p, m] = 0
            s.def_used[p, m] = 0
            s.revealed[p, m] = 0
            s.mod_type[p, m] = -1
        s.n_mods[p] = 0
        s.central_heat[p] = 0
        s.central_used[p] = 0
        s.central_def_used[p] = 0
        s.pending_dmg[p] = 0
        s.pending_heat[p] = 0
        s.pending_water[p] = 0
        for k in range(MAX_TILES):
            s.trophies[p, k] = -1
        s.n_trophies[p] = 0
        s.rank[p] = 0
        s.winner[p] = 0
        s.final_modules[p] = 0
        s.st_activations[p] = 0
        s.st_cools[p] = 0
        s.st_hits[p] = 0
        s.st_damage[p] = 0
        s.st_lost[p] = 0
        s.st_wear[p] = 0
        s.st_explosions[p] = 0
        s.st_pushes[p] = 0
        s.st_turns[p] = 0
        for t in range(N_TYPES):
            s.st_picked[p, t] = 0
        for k in range(MAX_PICKUPS):
            s.pick_design[p, k] = -1
            s.pick_turn[p, k] = 0
        s.n_picks[p] = 0
    s.tokens = 0
    s.may_continue = 0
    s.last_module = -1
    s.n_activations = 0
    s.discard_seat = -1
    s.end_step = 0
    s.resume_phase = PH_ACTIVE


@kernel
def setup(s, seed, n_players, tiles, pool, robots, setup_tab, cells, nbr, opts, log) -> None:
    """A new game from its seed (NOTES I.3): field, gen-3 stack, starters, first player; PH_PLACE.

    Designs out of play (``tiles.csv`` ``in_play = false``, tile ablation) are shuffled with the rest and
    then skipped (to the box), so every other tile keeps its place in the shuffles.
    """
    reset_record(s)
    s.seed = seed
    s.n_players = n_players
    n_cells = cells.shape[0]
    n_tiles = pool.shape[0]
    s.n_cells = n_cells
    s.n_tiles = n_tiles
    s.expert = 1 if opts[OPT_EXPERT] else 0
    s.team = 1 if opts[OPT_TEAM] else 0
    for k in range(N_STREAMS):
        s.rng_key[k] = derive_key(np.uint64(seed), np.uint64(k))
        s.rng_ctr[k] = 0
    for p in range(MAX_PLAYERS):
        s.team_of[p] = p % 2 if s.team else 0
    # ---- generation 2: shuffle, take per type, then random ones from the top of the rest
    g2 = np.empty(n_tiles, dtype=np.int64)
    n2 = 0
    for i in range(n_tiles):
        if tiles[pool[i], T_GENERATION] == 2:
            g2[n2] = i
            n2 += 1
    shuffle(s, STREAM_SETUP, g2, n2)
    taken = np.zeros(n2, dtype=np.int8)
    chosen = np.empty(n_tiles, dtype=np.int64)
    nc = 0
    for t in range(5):
        want = setup_tab[n_players, 1 + t]
        for j in range(n2):
            if want == 0:
                break
            inst = g2[j]
            if not taken[j] and tiles[pool[inst], T_IN_PLAY] and tiles[pool[inst], T_TYPE] == t:
                taken[j] = 1
                want -= 1
                row = log_event(log, EV_GEN2_TAKEN)
                if row >= 0:
                    log[row, 1] = t
                    log[row, 2] = inst
                    log[row, 3] = nc
                chosen[nc] = inst
                nc += 1
    want = setup_tab[n_players, 6]
    for j in range(n2):
        if want == 0:
            break
        if not taken[j] and tiles[pool[g2[j]], T_IN_PLAY]:
            taken[j] = 1
            want -= 1
            row = log_event(log, EV_GEN2_TAKEN)
            if row >= 0:
                log[row, 1] = RANDOM_TAKE
                log[row, 2] = g2[j]
                log[row, 3] = nc
            chosen[nc] = g2[j]
            nc += 1
    for j in range(n2):
        if not taken[j]:
            to_box(s, i64(g2[j]))
            row = log_event(log, EV_GEN2_RETURNED)
            if row >= 0:
                log[row, 1] = g2[j]
    # ---- the field: the chosen tiles shuffled onto cells 0..n_cells-1
    shuffle(s, STREAM_SETUP, chosen, nc)
    for c in range(n_cells):
        inst = chosen[c] if c < nc else -1
        if inst >= 0:
            t = tiles[pool[inst], T_TYPE]
            s.cell_tile[c] = inst
            s.cell_type[c] = t
            s.cell_up[c] = 1 if (s.expert or t == TYPE_TERRAIN) else 0
        row = log_event(log, EV_SETUP_CELL)
        if row >= 0:
            log[row, 1] = c
            log[row, 2] = inst
            log[row, 3] = s.cell_up[c]
    # ---- generation 3: shuffle, keep the stack, the rest to the box
    g3 = np.empty(n_tiles, dtype=np.int64)
    n3 = 0
    for i in range(n_tiles):
        if tiles[pool[i], T_GENERATION] == 3:
            g3[n3] = i
            n3 += 1
    shuffle(s, STREAM_SETUP, g3, n3)
    want = min(setup_tab[n_players, 7], MAX_STACK)
    keep = 0
    kept = np.empty(n3, dtype=np.int64)
    for k in range(n3):  # tiles out of play (ablation) keep the others' places and go to the box
        if keep < want and tiles[pool[g3[k]], T_IN_PLAY]:
            kept[keep] = g3[k]
            keep += 1
        else:
            to_box(s, i64(g3[k]))
    for k in range(keep):  # drawn in shuffled order: the top (last) is the first kept, so a tile out of
        s.stack[keep - 1 - k] = kept[k]  # play shifts only the draws after its place, and the extra goes last
    s.stack_n = keep
    for k in range(keep):  # draw order: the top (last) first
        row = log_event(log, EV_STACK)
        if row >= 0:
            log[row, 1] = k
            log[row, 2] = s.stack[keep - 1 - k]
    # ---- generation 1: one starter of each module type per seat, the rest to the box
    g1_used = np.zeros(n_tiles, dtype=np.int8)
    for p in range(n_players):
        for t in range(N_MODULE_TYPES):
            for i in range(n_tiles):
                if not g1_used[i] and tiles[pool[i], T_GENERATION] == 1 and tiles[pool[i], T_TYPE] == t:
                    g1_used[i] = 1
                    m = s.n_mods[p]
                    s.mods[p, m] = i
                    s.mod_type[p, m] = t
                    s.revealed[p, m] = s.expert
                    s.n_mods[p] = m + 1
                    row = log_event(log, EV_STARTER)
                    if row >= 0:
                        log[row, 1] = p
                        log[row, 2] = i
                    break
    for i in range(n_tiles):
        if tiles[pool[i], T_GENERATION] == 1 and not g1_used[i]:
            to_box(s, i64(i))
    # ---- first player
    x = next_u64(s, STREAM_FIRST)  # drawn either way (common random numbers)
    first = 0 if opts[OPT_FIRST_SEAT0] else below(x, n_players)
    s.first_player = first
    row = log_event(log, EV_FIRST_PLAYER)
    if row >= 0:
        log[row, 1] = first
        log[row, 2] = 1 if opts[OPT_FIRST_SEAT0] else 0
    s.phase = PH_PLACE
    s.actor = first
    s.active = first


# ---------------------------------------------------------------- legal actions


@njit(cache=True, inline="always")
def _is_obstacle_cell(s, c, tiles, pool) -> bool:
    return s.cell_tile[c] >= 0 and s.cell_type[c] == TYPE_TERRAIN and tiles[pool[s.cell_tile[c]], T_OBSTACLE] != 0


@kernel
def any_overheated(s, p) -> bool:
    """Whether robot ``p`` carries any token (central included)."""
    found = s.central_heat[p] != 0
    for m in range(s.n_mods[p]):
        found = found or s.heat[p, m] != 0
    return found


@kernel
def module_params(s, p, slot, wear, out, n, tiles, pool, cells, nbr, opts) -> int:
    """Append the codes of activating module ``slot`` of ``p`` (``wear`` 0/1); return n."""
    d = pool[s.mods[p, slot]]
    t = tiles[d, T_TYPE]
    base = A_ACT + (slot * 2 + wear) * PARAM_SPAN
    if t == TYPE_ROTATE:
        return rotate_params(s, p, tiles[d, T_ROTATE_MIN], tiles[d, T_ROTATE_MAX], base, out, n, opts)
    if t == TYPE_MOVE:
        return move_params(s, p, tiles[d, T_MOVE_KIND], tiles[d, T_MOVE_MIN], tiles[d, T_MOVE_MAX], base, out, n,
                           tiles, pool, cells, nbr, opts)
    if t == TYPE_ATTACK:
        return attack_params(s, i64(p), i64(tiles[d, T_DELIVERY]), i64(tiles[d, T_DAMAGE]),
                             i64(tiles[d, T_SPLASH]), i64(tiles[d, T_PUSH]), i64(tiles[d, T_WHIRL]),
                             i64(tiles[d, T_HEAT]), i64(base), out, i64(n), tiles, pool, cells, nbr, opts)
    return n


@kernel
def activation_actions(s, out, n, tiles, pool, robots, cells, nbr, opts) -> int:
    """Append every legal activation of the active robot (NOTES I.5, I.6, I.8); return n."""
    p = s.active
    lim = opts[OPT_TOKEN_LIMIT]
    if lim > 0 and s.tokens >= lim:
        return n
    n0 = n
    first = s.n_activations == 0
    for slot in range(s.n_mods[p]):
        if s.used[p, slot]:
            continue
        d = pool[s.mods[p, slot]]
        t = tiles[d, T_TYPE]
        if t != TYPE_ATTACK and t != TYPE_MOVE and t != TYPE_ROTATE:
            continue
        movish = t != TYPE_ATTACK
        if s.heat[p, slot]:
            if movish and (not first or opts[OPT_WEAR_FIRST]):
                n = module_params(s, i64(p), i64(slot), i64(1), out, i64(n), tiles, pool, cells, nbr, opts)
            continue
        n = module_params(s, i64(p), i64(slot), i64(0), out, i64(n), tiles, pool, cells, nbr, opts)
        if movish and tiles[d, T_AUTOCOOL] and not tiles[d, T_SPEED] and (not first or opts[OPT_WEAR_FIRST]):
            n = module_params(s, i64(p), i64(slot), i64(1), out, i64(n), tiles, pool, cells, nbr, opts)
    if not s.central_used[p] and not s.central_heat[p]:
        side = s.side[p]
        base = A_ACT + (SLOT_C_ATTACK * 2) * PARAM_SPAN
        n = attack_params(s, i64(p), i64(robots[p, side, R_DELIVERY]), i64(robots[p, side, R_DAMAGE]), i64(0), i64(0),
                          i64(0), i64(0), i64(base), out, i64(n),
                          tiles, pool, cells, nbr, opts)
        base = A_ACT + (SLOT_C_MOVE * 2) * PARAM_SPAN
        n = move_params(s, i64(p), robots[p, side, R_MOVE_KIND], robots[p, side, R_MOVE_MIN],
                        robots[p, side, R_MOVE_MAX], base, out, n, tiles, pool, cells, nbr, opts)
        base = A_ACT + (SLOT_C_ROTATE * 2) * PARAM_SPAN
        n = rotate_params(s, i64(p), robots[p, side, R_ROTATE_MIN], robots[p, side, R_ROTATE_MAX], base, out, n, opts)
    out[n0:n].sort()  # the enumerators append by module and kind; actions are listed ascending
    return n


@kernel
def heat_eligible(s, q, slot, opts) -> bool:
    """Whether ``slot`` of robot ``q`` (SLOT_CENTRAL: the central module) may absorb one heat unit now."""
    if s.queued[slot]:
        return False  # each module absorbs at most one unit of a heat
    lim = opts[OPT_TOKEN_LIMIT]
    full = lim > 0 and s.tokens >= lim
    if slot == SLOT_CENTRAL:
        if s.central_heat[q]:
            return not opts[OPT_ONLY_COOL_ABSORB]
        return not full
    if s.heat[q, slot]:
        return not opts[OPT_ONLY_COOL_ABSORB]
    return not full


@kernel
def heat_options(s, q, out, n, opts) -> int:
    """Append A_PICK + slot for every module of ``q`` that may absorb heat now; return n."""
    for m in range(s.n_mods[q]):
        if heat_eligible(s, i64(q), i64(m), opts):
            out[n] = A_PICK + m
            n += 1
    if heat_eligible(s, i64(q), i64(SLOT_CENTRAL), opts):
        out[n] = A_PICK + SLOT_CENTRAL
        n += 1
    return n


@kernel
def legal_actions(s, out, tiles, pool, robots, setup_tab, cells, nbr, opts) -> int:
    """The actor's legal actions in the current phase (see the module docstring); 0 once over."""
    if s.over:
        return 0
    n = 0
    ph = s.phase
    if ph == PH_PLACE:
        allow_terrain = opts[OPT_TERRAIN_START] != 0
        for c in range(s.n_cells):
            if not cells[c, 3]:
                continue
            if robot_at(s, i64(c)) >= 0:
                continue
            terrain = s.cell_tile[c] >= 0 and s.cell_type[c] == TYPE_TERRAIN
            if terrain and (not allow_terrain or _is_obstacle_cell(s, c, tiles, pool)):
                continue
            for f in range(6):
                out[n] = A_PLACE + c * 6 + f
                n += 1
        if n == 0:  # no edge cell free (a designer's field): any free cell without an obstacle
            for c in range(s.n_cells):
                if robot_at(s, i64(c)) < 0 and not _is_obstacle_cell(s, c, tiles, pool):
                    for f in range(6):
                        out[n] = A_PLACE + c * 6 + f
                        n += 1
        return n
    if ph == PH_ACTIVE:
        if opts[OPT_COOL_ALWAYS] or any_overheated(s, i64(s.active)):
            out[n] = A_COOL
            n += 1
        n = activation_actions(s, out, n, tiles, pool, robots, cells, nbr, opts)
        if n == 0:
            out[0] = A_COOL
            n = 1
        return n
    if ph == PH_CONTINUE:
        out[n] = A_STOP
        n += 1
        return activation_actions(s, out, n, tiles, pool, robots, cells, nbr, opts)
    if ph == PH_HEAT:
        out[n] = A_NONE
        n += 1
        return heat_options(s, s.actor, out, n, opts)
    if ph == PH_WATER:
        q = s.actor
        out[n] = A_NONE
        n += 1
        for m in range(s.n_mods[q]):
            if s.heat[q, m]:
                out[n] = A_PICK + m
                n += 1
        if s.central_heat[q]:
            out[n] = A_PICK + SLOT_CENTRAL
            n += 1
        return n
    if ph == PH_DISCARD:
        q = s.discard_seat
        for m in range(s.n_mods[q]):
            out[n] = A_PICK + m
            n += 1
        return n
    if ph == PH_LIMIT:
        a = s.active
        top = s.n_mods[a] if opts[OPT_LIMIT_NEW] else s.n_mods[a] - 1
        for m in range(top):
            out[n] = A_PICK + m
            n += 1
        return n
    return n


# ---------------------------------------------------------------- applying actions


@kernel
def place(s, c, f, tiles, pool, robots, cells, nbr, opts, log) -> None:
    """PH_PLACE: the actor's robot on cell ``c`` facing ``f``; it takes the module tile there (I.3.7-8)."""
    p = s.actor
    s.cell[p] = c
    s.facing[p] = f
    s.placed[p] = 1
    s.n_placed += 1
    row = log_event(log, EV_PLACE)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = c
        log[row, 3] = f
    inst = s.cell_tile[c]
    got = -1
    if inst >= 0 and s.cell_type[c] != TYPE_TERRAIN:
        got = inst
        m = s.n_mods[p]
        s.mods[p, m] = inst
        s.mod_type[p, m] = tiles[pool[inst], T_TYPE]
        s.revealed[p, m] = s.expert
        s.n_mods[p] = m + 1
        s.cell_tile[c] = -1
        s.cell_type[c] = -1
        s.cell_up[c] = 0
    row = log_event(log, EV_TAKE_START)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = c
        log[row, 3] = got
    if opts[OPT_PLACE_TRIGGERS]:
        explode(s, i64(c), i64(XC_STOP), i64(p), tiles, pool, robots, cells, nbr, opts, log)
        for q in range(s.n_players):
            s.pending_water[q] = 0  # nothing is overheated before the first turn
        pending = False
        for q in range(s.n_players):
            pending = pending or s.pending_dmg[q] > 0
        if pending:
            s.end_step = ES_DISCARDS
            run_end_phase(s, tiles, pool, opts, log)
            return
    after_placement(s, log)


@kernel
def cool_all(s, log) -> None:
    """A_COOL: every token of the active robot comes off, the central one included."""
    p = s.active
    removed = 0
    for m in range(s.n_mods[p]):
        if s.heat[p, m]:
            removed += 1
    if s.central_heat[p]:
        removed += 1
    row = log_event(log, EV_COOL_ALL)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = removed
    for m in range(s.n_mods[p]):
        if s.heat[p, m]:
            s.heat[p, m] = 0
            s.tokens -= 1
            row = log_event(log, EV_COOL_TOKEN)
            if row >= 0:
                log[row, 1] = p
                log[row, 2] = m
                log[row, 3] = s.mods[p, m]
    if s.central_heat[p]:
        s.central_heat[p] = 0
        s.tokens -= 1
        row = log_event(log, EV_COOL_TOKEN)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = SLOT_CENTRAL
            log[row, 3] = -1
    s.st_cools[p] += 1


@kernel
def activate(s, action, tiles, pool, robots, cells, nbr, opts, log) -> None:
    """One activation by the active robot (NOTES I.5): token, action, then one-shot / wear removal."""
    p = s.active
    code = action - A_ACT
    sw = code // PARAM_SPAN
    param = code % PARAM_SPAN
    slot = sw // 2
    wear = sw % 2
    via = VIA_FIRST if s.n_activations == 0 else VIA_SPEED
    may_continue = 0
    if slot < SLOT_C_ATTACK:
        inst = s.mods[p, slot]
        d = pool[inst]
        t = tiles[d, T_TYPE]
        was_heat = s.heat[p, slot]
        was_used = s.used[p, slot]
        if wear:
            via = VIA_WEAR_A if was_heat else VIA_WEAR_B
        if not was_heat:
            s.heat[p, slot] = 1
            s.tokens += 1
        s.used[p, slot] = 1
        s.revealed[p, slot] = 1
        row = log_event(log, EV_ACTIVATE)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = slot
            log[row, 3] = inst
            log[row, 4] = via
            log[row, 5] = s.last_module
            log[row, 6] = was_heat
            log[row, 7] = was_used
            log[row, 8] = param
            log[row, 9] = wear
            log[row, 10] = -1
            log[row, 11] = action
        if t == TYPE_ROTATE:
            apply_rotate(s, p, param, log)
        elif t == TYPE_MOVE:
            apply_move(s, p, tiles[d, T_MOVE_KIND], param, tiles, pool, robots, cells, nbr, opts, log)
        else:
            apply_attack(s, i64(p), i64(inst), i64(tiles[d, T_DELIVERY]), i64(tiles[d, T_DAMAGE]),
                         i64(tiles[d, T_SPLASH]), i64(tiles[d, T_PUSH]), i64(tiles[d, T_WHIRL]),
                         i64(tiles[d, T_HEAT]), i64(param), tiles, pool, robots, cells, nbr, opts, log)
        oneshot = tiles[d, T_ONESHOT] != 0
        if tiles[d, T_SPEED] or (wear and not was_heat):
            may_continue = 1
        # the slot may have moved only if the robot lost modules mid-resolution (it does not: damage
        # is pending until E0), so find the instance again to be safe
        cur = -1
        for m in range(s.n_mods[p]):
            if s.mods[p, m] == inst:
                cur = m
                break
        if cur >= 0 and (oneshot or wear):
            remove_slot(s, i64(p), i64(cur))
            to_box(s, i64(inst))
            if wear:
                s.st_wear[p] += 1
        row = log_event(log, EV_ACT_END)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = slot
            log[row, 3] = inst
            log[row, 4] = wear
            log[row, 5] = 1 if (oneshot and not wear) else 0
            log[row, 6] = may_continue
        s.last_module = inst if may_continue else -1
    else:
        side = s.side[p]
        was_heat = s.central_heat[p]
        was_used = s.central_used[p]
        s.central_heat[p] = 1
        if not was_heat:
            s.tokens += 1
        s.central_used[p] = 1
        row = log_event(log, EV_ACTIVATE)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = slot
            log[row, 3] = -1
            log[row, 4] = via
            log[row, 5] = s.last_module
            log[row, 6] = was_heat
            log[row, 7] = was_used
            log[row, 8] = param
            log[row, 9] = 0
            log[row, 10] = side
            log[row, 11] = action
        if slot == SLOT_C_ATTACK:
            apply_attack(s, i64(p), i64(-1), i64(robots[p, side, R_DELIVERY]), i64(robots[p, side, R_DAMAGE]), i64(0),
                         i64(0), i64(0), i64(0), i64(param),
                         tiles, pool, robots, cells, nbr, opts, log)
        elif slot == SLOT_C_MOVE:
            apply_move(s, p, robots[p, side, R_MOVE_KIND], param, tiles, pool, robots, cells, nbr, opts, log)
        else:
            apply_rotate(s, p, param, log)
        row = log_event(log, EV_ACT_END)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = slot
            log[row, 3] = -1
            log[row, 4] = 0
            log[row, 5] = 0
            log[row, 6] = 0
        s.last_module = -1
    s.may_continue = may_continue
    s.resume_phase = PH_CONTINUE if may_continue else PH_ACTIVE
    s.n_activations += 1
    s.st_activations[p] += 1


@kernel
def heat_to_damage(s, q, log) -> None:
    """Robot ``q``'s heat units left (refused or impossible) become pending damage."""
    units = s.pending_heat[q]
    if units <= 0:
        return
    s.pending_heat[q] = 0
    s.pending_dmg[q] += units
    row = log_event(log, EV_HEAT_DAMAGE)
    if row >= 0:
        log[row, 1] = q
        log[row, 2] = units
        log[row, 3] = s.pending_dmg[q]


@kernel
def absorb(s, q, slot, tiles, pool, log) -> None:
    """Robot ``q`` overheats ``slot`` (SLOT_CENTRAL: central) for one heat unit; auto-cool/passive shed it."""
    s.queued[slot] = 1
    s.pending_heat[q] -= 1
    shed = 0
    if slot == SLOT_CENTRAL:
        inst = -1
        if not s.central_heat[q]:
            s.central_heat[q] = 1
            s.tokens += 1
    else:
        inst = s.mods[q, slot]
        d = pool[inst]
        if tiles[d, T_AUTOCOOL] or tiles[d, T_PASSIVE]:
            shed = 1
        elif not s.heat[q, slot]:
            s.heat[q, slot] = 1
            s.tokens += 1
    row = log_event(log, EV_HEAT_ABSORB)
    if row >= 0:
        log[row, 1] = q
        log[row, 2] = slot
        log[row, 3] = inst
        log[row, 4] = shed
    if shed:
        if s.heat[q, slot]:  # an overheated auto-cool/passive module chosen (only_cool_modules_absorb off)
            s.heat[q, slot] = 0
            s.tokens -= 1
        row = log_event(log, EV_SHED)
        if row >= 0:
            log[row, 1] = q
            log[row, 2] = slot
            log[row, 3] = inst


@kernel
def water_cool(s, q, slot, log) -> None:
    """Robot ``q`` cools ``slot`` (SLOT_CENTRAL: central; -1: nothing) for one water cooling owed."""
    s.pending_water[q] -= 1
    inst = -1
    if slot == SLOT_CENTRAL:
        if s.central_heat[q]:
            s.central_heat[q] = 0
            s.tokens -= 1
    elif slot >= 0:
        inst = s.mods[q, slot]
        if s.heat[q, slot]:
            s.heat[q, slot] = 0
            s.tokens -= 1
    row = log_event(log, EV_WATER_COOL)
    if row >= 0:
        log[row, 1] = q
        log[row, 2] = slot
        log[row, 3] = inst


@kernel
def _clear_absorbed(s) -> None:
    for k in range(N_ABSORB):
        s.queued[k] = 0


@kernel
def settle(s, tiles, pool, opts, log) -> None:
    """After an activation: the owners' heat, then water decisions; then PH_CONTINUE or the end phase."""
    n = s.n_players
    for k in range(n):
        q = (s.active + k) % n
        if s.pending_heat[q] > 0:
            if not (s.phase == PH_HEAT and s.actor == q):
                _clear_absorbed(s)
            buf_any = False
            for m in range(s.n_mods[q]):
                if heat_eligible(s, i64(q), i64(m), opts):
                    buf_any = True
                    break
            if not buf_any and heat_eligible(s, i64(q), i64(SLOT_CENTRAL), opts):
                buf_any = True
            if not buf_any:
                heat_to_damage(s, i64(q), log)
                _clear_absorbed(s)
                continue
            s.phase = PH_HEAT
            s.actor = q
            return
    _clear_absorbed(s)
    for k in range(n):
        q = (s.active + k) % n
        while s.pending_water[q] > 0:
            if not any_overheated(s, i64(q)):
                s.pending_water[q] = 0
                row = log_event(log, EV_WATER_COOL)
                if row >= 0:
                    log[row, 1] = q
                    log[row, 2] = -1
                    log[row, 3] = -1
                break
            s.phase = PH_WATER
            s.actor = q
            return
    s.actor = s.active
    if opts[OPT_DESTROY_IMMEDIATE]:
        for q in range(n):
            if s.pending_dmg[q] > s.n_mods[q]:
                begin_end_phase(s, tiles, pool, opts, log)
                return
    if s.resume_phase == PH_CONTINUE:
        s.phase = PH_CONTINUE
    else:
        begin_end_phase(s, tiles, pool, opts, log)


@kernel
def apply_action(s, action, tiles, pool, robots, setup_tab, cells, nbr, opts, log) -> None:
    """The actor takes ``action`` (legal in the current phase); the game runs to the next decision."""
    ph = s.phase
    if ph == PH_PLACE:
        k = action - A_PLACE
        place(s, k // 6, k % 6, tiles, pool, robots, cells, nbr, opts, log)
    elif ph <= PH_CONTINUE:  # PH_ACTIVE or PH_CONTINUE
        if action == A_COOL:
            cool_all(s, log)
            begin_end_phase(s, tiles, pool, opts, log)
        elif action == A_STOP:
            begin_end_phase(s, tiles, pool, opts, log)
        else:
            s.phase = PH_ACTIVE  # the activation itself; settle() picks the next phase
            activate(s, action, tiles, pool, robots, cells, nbr, opts, log)
            settle(s, tiles, pool, opts, log)
    elif ph == PH_HEAT:
        q = s.actor
        if action == A_NONE:
            heat_to_damage(s, i64(q), log)
        else:
            absorb(s, q, action - A_PICK, tiles, pool, log)
        settle(s, tiles, pool, opts, log)
    elif ph == PH_WATER:
        q = s.actor
        water_cool(s, q, -1 if action == A_NONE else action - A_PICK, log)
        settle(s, tiles, pool, opts, log)
    elif ph == PH_DISCARD:
        apply_discard(s, action - A_PICK, tiles, pool, opts, log)
    elif ph == PH_LIMIT:
        apply_limit(s, action - A_PICK, tiles, pool, opts, log)


# ---------------------------------------------------------------- entry points for Python


@kernel
def py_setup(s_arr, seed, n_players, tiles, pool, robots, setup_tab, cells, nbr, opts, log, legal) -> int:
    """Set up a game; return the number of legal actions written to ``legal``."""
    s = s_arr[0]
    setup(s, seed, n_players, tiles, pool, robots, setup_tab, cells, nbr, opts, log)
    return legal_actions(s, legal, tiles, pool, robots, setup_tab, cells, nbr, opts)


@kernel
def py_legal(s_arr, tiles, pool, robots, setup_tab, cells, nbr, opts, legal) -> int:
    """The legal actions of the position in ``s_arr[0]`` written to ``legal``; return how many."""
    return legal_actions(s_arr[0], legal, tiles, pool, robots, setup_tab, cells, nbr, opts)


@kernel
def py_step(s_arr, action, tiles, pool, robots, setup_tab, cells, nbr, opts, log, legal) -> int:
    """Apply ``action``; return the next decision's legal actions count (0 once the game is over)."""
    s = s_arr[0]
    apply_action(s, action, tiles, pool, robots, setup_tab, cells, nbr, opts, log)
    if s.over:
        return 0
    return legal_actions(s, legal, tiles, pool, robots, setup_tab, cells, nbr, opts)
