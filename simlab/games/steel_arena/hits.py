"""Steel Arena's hit kernels: one hit on a robot or a cell, and terrain explosions.

The bottom layer of the rules kernels (it imports only state, codes, data, hexgrid and core).
Attacks (``attacks.py``) and movement (``movement.py``) call these; nothing here decides for a
player: the owner decisions a hit causes are deferred (``pending_heat``, ``pending_dmg``), as
the shared conventions say.

**One hit on a robot** (``hit_robot``, NOTES I.10.6 steps 2-6; push and whirl, steps 1 and 7,
are the attack's business). The hit carries damage D and heat H and comes from ``from_dir``
(the direction from the target towards the hit's origin, i.e. travel direction + 3, I.17.5), or
from no direction (-1: explosive terrain under the robot). ``rel = (from_dir - facing) mod 6``.
The reduction pool is taken in this order:

1. cover (terrain with ``cover`` under the robot): ``opts[OPT_COVER_VALUE]``, any direction,
   no limit per turn (I.10.5), while D + H > 0 is left;
2. passive defence modules with a ``front`` or ``side`` arc covering rel, slot order;
3. passive defence modules with an ``all`` arc, slot order, then the central module's armour
   on its current side (once per turn, ``central_def_used``);
4. ЗОНТ / РОЙ (``needs_activation``): activated on the incoming hit (II.26) when token-free, not
   yet used this turn and something is still left to take off; each gets an overheat token.

Passive defence (steps 2-3) follows ``passive_trigger`` (II.7). The default,
``automatic_first_applicable``, is NOTES I.10.6 step 3: on a hit with D + H > 0 (H counting only
where it is owed, below) every unused passive defence whose arc covers rel, the central armour
included, joins the pool and is used for this turn, even when the pool is already larger than the
hit (the surplus is wasted; such a module is logged with the amount it actually took off, possibly
0). ``defender_chooses`` has the package choose for the defender: a module is used only while
something is left and only when it takes something off, narrow arcs before all-round ones so that
the armour covering more directions is kept for later hits of the turn. Active defence comes last
in both because it costs a token. Every module works once per turn (``def_used``, reset by the
rules driver at each turn start); a directionless hit is reduced only by ``all`` arcs and cover
(II.6); an overheated passive module works unless ``passive_works_when_overheated`` is off (II.11;
the same option governs the central armour). A passive module is revealed when it is used (I.16).

The pool comes off D first, then H (II.8; ``heat_first`` the other way round; the
``defender_chooses`` setting is resolved as damage first, since damage costs modules for good).
The D left becomes pending discards (``pending_dmg``); the H left is owed as heat only by a
primary robot target (II.20: ``pending_heat``; the rules driver asks the owner which modules
absorb it). Heat on a robot that is not a primary target does nothing, so it uses no armour.

**One hit on a cell** (``hit_cell``): terrain, a module tile (ignores hits, I.9.1) or an empty
cell. Explosive terrain that takes D >= 1 or any heat goes off; water that takes heat is
destroyed (I.10.6 "other cells", I.12).

**Explosions** (``explode``, NOTES I.12, II.27): breadth-first over ``s.queue`` / ``s.queued``.
The tile goes to the box and its cell is empty; a robot on the cell takes the big number with no
direction (``HK_TERRAIN_BIG``); every robot on an adjacent cell takes the small number from the
direction of the exploding cell, and so does every terrain tile on an adjacent cell
(``HK_TERRAIN_SMALL``), so an adjacent explosive goes off next (cause ``XC_CHAIN``). Terrain
hits from explosions are damage only. An attack that hits several cells queues the explosions
it sets off (``hit_cell_queued``) and runs them after its last hit (``run_explosions``), the
order of II.27.

The event rows (``EV_HIT``, ``EV_REDUCE``, ``EV_EXPLOSION``, ``EV_WATER_DESTROYED``) follow
the column lists of ``codes.py``; a hit's ``EV_REDUCE`` rows come before its ``EV_HIT`` row.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.steel_arena.codes import (
    EV_EXPLOSION,
    EV_HIT,
    EV_REDUCE,
    EV_WATER_DESTROYED,
    HK_TERRAIN_BIG,
    HK_TERRAIN_SMALL,
    OPT_COVER_VALUE,
    OPT_PASSIVE_CHOOSE,
    OPT_PASSIVE_OVERHEATED,
    OPT_REDUCTION,
    OPT_TOKEN_LIMIT,
    RED_ACTIVE,
    RED_CENTRAL,
    RED_COVER,
    RED_HEAT_FIRST,
    RED_PASSIVE,
    SLOT_CENTRAL,
    TK_EMPTY,
    TK_MODULE_TILE,
    TK_ROBOT,
    TK_TERRAIN,
    XC_CHAIN,
    XC_DAMAGE,
    XC_HEAT,
)
from simlab.games.steel_arena.data import (
    R_ARMOUR_ARC,
    R_ARMOUR_VALUE,
    T_ARMOUR_ARC,
    T_ARMOUR_VALUE,
    T_COVER,
    T_EXPLOSIVE_ADJACENT,
    T_EXPLOSIVE_ON_TILE,
    T_NEEDS_ACTIVATION,
    T_PASSIVE,
    T_TYPE,
    T_WATER_COOL,
)
from simlab.games.steel_arena.hexgrid import ARC_ALL, arc_covers
from simlab.games.steel_arena.state import MAX_CELLS

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64

log_event = bind(kernels.log_event)

TYPE_DEFENCE = 3  # data.TILE_TYPES.index("defence")
TYPE_TERRAIN = 4  # data.TILE_TYPES.index("terrain")
QUEUE_SHIFT = 8  # s.queue entries are cell * QUEUE_SHIFT + cause (XC_*)


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def _covers(arc, rel):
    """Whether armour with ``arc`` reduces a hit from ``rel``; a directionless hit (rel -1) only by an
    all-round arc (II.6; ``hexgrid.arc_covers`` covers none there)."""
    if rel < 0:
        return arc == ARC_ALL
    return arc_covers(arc, rel)


@kernel
def robot_at(s, c):
    """The seat of the placed, not destroyed robot on cell ``c``, or -1."""
    if c < 0:
        return -1
    for p in range(s.n_players):
        if s.placed[p] and s.destroyed[p] == 0 and s.cell[p] == c:
            return p
    return -1


@kernel
def send_to_box(s, inst):
    """Tile instance ``inst`` leaves the game (appended to ``s.box``)."""
    s.box[s.box_n] = inst
    s.box_n += 1


@kernel
def _clear_cell(s, c):
    s.cell_tile[c] = -1
    s.cell_type[c] = -1
    s.cell_up[c] = 0


@kernel
def _log_reduce(log, p, slot, inst, amount, kind):
    row = log_event(log, EV_REDUCE)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = slot
        log[row, 3] = inst
        log[row, 4] = amount
        log[row, 5] = kind


@kernel
def _passive_class(s, p, m, rel, tiles, pool, opts):
    """0 when module slot ``m`` of robot ``p`` cannot reduce a hit from ``rel`` now; 1 a usable passive
    defence with a front or side arc; 2 a usable passive defence with an all-round arc."""
    row = pool[s.mods[p, m]]
    if tiles[row, T_TYPE] != TYPE_DEFENCE or tiles[row, T_NEEDS_ACTIVATION] != 0 or tiles[row, T_PASSIVE] == 0:
        return 0
    if s.def_used[p, m] or tiles[row, T_ARMOUR_VALUE] <= 0:
        return 0
    if s.heat[p, m] and opts[OPT_PASSIVE_OVERHEATED] == 0:
        return 0
    arc = tiles[row, T_ARMOUR_ARC]
    if not _covers(arc, rel):
        return 0
    return 2 if arc == ARC_ALL else 1


# ---------------------------------------------------------------- one hit on a robot


@kernel
def hit_robot(s, p, D, H, from_dir, source, kind, primary, tiles, pool, robots, cells, opts, log):
    """One hit with damage ``D`` and heat ``H`` on robot ``p`` (NOTES I.10.6 steps 2-6; module docstring).

    ``from_dir``: the direction from the target towards the hit's origin, -1 for none. ``source``:
    the module instance (-1 central, -2 - cell for terrain), ``kind``: HK_*. ``primary``: heat only
    counts for a primary robot target (II.20). Adds to ``pending_dmg`` / ``pending_heat``.
    """
    c = s.cell[p]
    f = s.facing[p]
    rel = -1
    if from_dir >= 0:
        rel = (from_dir - f) % 6
    h_in = H if primary else 0
    left = D + h_in
    total = 0
    # 1. cover: unlimited, any direction (I.10.5)
    if left > 0 and c >= 0:
        inst = s.cell_tile[c]
        if inst >= 0 and tiles[pool[inst], T_COVER] and opts[OPT_COVER_VALUE] > 0:
            amt = min(opts[OPT_COVER_VALUE], left)
            left -= amt
            total += amt
            _log_reduce(log, i64(p), i64(-1), i64(inst), i64(amt), i64(RED_COVER))
    # 2.-3. passive modules, narrow arcs first, then all-round ones and the central armour. Automatic
    # (II.7 default): on a hit with D + H > 0 every one that covers rel joins the pool and is used, the
    # surplus wasted (I.10.6 step 3); defender_chooses: only while something is left to take off.
    auto = opts[OPT_PASSIVE_CHOOSE] == 0
    spend = D + h_in > 0
    for cls in range(1, 3):
        for m in range(s.n_mods[p]):
            if not spend or (left <= 0 and not auto):
                break
            if _passive_class(s, p, m, rel, tiles, pool, opts) != cls:
                continue
            inst = s.mods[p, m]
            amt = min(tiles[pool[inst], T_ARMOUR_VALUE], left)
            left -= amt
            total += amt
            s.def_used[p, m] = 1
            s.revealed[p, m] = 1
            _log_reduce(log, i64(p), i64(m), i64(inst), i64(amt), i64(RED_PASSIVE))
        if cls == 2 and spend and (left > 0 or auto) and s.central_def_used[p] == 0:
            side = s.side[p]
            arc = robots[p, side, R_ARMOUR_ARC]
            val = robots[p, side, R_ARMOUR_VALUE]
            works = s.central_heat[p] == 0 or opts[OPT_PASSIVE_OVERHEATED] != 0
            if val > 0 and arc >= 0 and works and _covers(arc, rel):
                amt = min(val, left)
                left -= amt
                total += amt
                s.central_def_used[p] = 1
                _log_reduce(log, i64(p), i64(SLOT_CENTRAL), i64(-1), i64(amt), i64(RED_CENTRAL))
    # 4. ЗОНТ / РОЙ, activated on the incoming hit (II.26): token-free, once per turn
    limit = opts[OPT_TOKEN_LIMIT]
    for m in range(s.n_mods[p]):
        if left <= 0:
            break
        inst = s.mods[p, m]
        row = pool[inst]
        if tiles[row, T_TYPE] != TYPE_DEFENCE or tiles[row, T_NEEDS_ACTIVATION] == 0:
            continue
        if s.heat[p, m] or s.def_used[p, m] or tiles[row, T_ARMOUR_VALUE] <= 0:
            continue
        if limit > 0 and s.tokens >= limit:
            continue
        if not _covers(tiles[row, T_ARMOUR_ARC], rel):
            continue
        amt = min(tiles[row, T_ARMOUR_VALUE], left)
        left -= amt
        total += amt
        s.heat[p, m] = 1
        s.tokens += 1
        s.def_used[p, m] = 1
        s.revealed[p, m] = 1
        _log_reduce(log, i64(p), i64(m), i64(inst), i64(amt), i64(RED_ACTIVE))
    # apply the pool: damage first (II.8; defender_chooses resolved as damage first), or heat first
    if opts[OPT_REDUCTION] == RED_HEAT_FIRST:
        red_h = min(h_in, total)
        red_d = total - red_h
    else:
        red_d = min(D, total)
        red_h = total - red_d
    d_left = D - red_d
    h_left = h_in - red_h
    if d_left > 0:
        s.pending_dmg[p] += d_left
    if h_left > 0:
        s.pending_heat[p] += h_left
    if p != s.active:
        s.st_hits[s.active] += 1
        s.st_damage[s.active] += d_left
    row = log_event(log, EV_HIT)
    if row >= 0:
        log[row, 1] = source
        log[row, 2] = kind
        log[row, 3] = TK_ROBOT
        log[row, 4] = c
        log[row, 5] = p
        log[row, 6] = D
        log[row, 7] = H
        log[row, 8] = from_dir
        log[row, 9] = rel
        log[row, 10] = d_left
        log[row, 11] = h_left
        log[row, 12] = s.pending_dmg[p]


# ---------------------------------------------------------------- cells and explosions


@kernel
def _queue_explosion(s, c, cause):
    """Append cell ``c`` to the explosion queue unless it is already there (the queue's length is the
    number of cells flagged in ``s.queued``; the flags are cleared when the queue has run)."""
    if s.queued[c]:
        return
    n = 0
    for i in range(MAX_CELLS):
        n += s.queued[i]
    s.queue[n] = c * QUEUE_SHIFT + cause
    s.queued[c] = 1


@kernel
def _hit_cell(s, c, D, H, from_dir, source, kind, chain, tiles, pool, opts, log):
    """Log the hit on cell ``c`` and apply its terrain reactions; explosions are only queued (cause
    ``XC_CHAIN`` when ``chain``, the hit being another explosion's)."""
    inst = s.cell_tile[c]
    if inst < 0:
        tk = TK_EMPTY
    elif s.cell_type[c] == TYPE_TERRAIN:
        tk = TK_TERRAIN
    else:
        tk = TK_MODULE_TILE
    row = log_event(log, EV_HIT)
    if row >= 0:
        log[row, 1] = source
        log[row, 2] = kind
        log[row, 3] = tk
        log[row, 4] = c
        log[row, 5] = -1
        log[row, 6] = D
        log[row, 7] = H
        log[row, 8] = from_dir
        log[row, 9] = -1
        log[row, 10] = D if tk == TK_TERRAIN else 0
        log[row, 11] = H if tk == TK_TERRAIN else 0
        log[row, 12] = -1
    if tk != TK_TERRAIN:
        return  # empty cells have nothing to react; module tiles ignore hits (I.9.1)
    design = pool[inst]
    if tiles[design, T_EXPLOSIVE_ON_TILE] > 0 and (D >= 1 or H >= 1):
        _queue_explosion(s, i64(c), i64(XC_CHAIN if chain else (XC_DAMAGE if D >= 1 else XC_HEAT)))
    elif tiles[design, T_WATER_COOL] > 0 and H >= 1:
        send_to_box(s, i64(inst))
        _clear_cell(s, i64(c))
        row = log_event(log, EV_WATER_DESTROYED)
        if row >= 0:
            log[row, 1] = inst
            log[row, 2] = c


@kernel
def run_explosions(s, by_seat, tiles, pool, robots, cells, nbr, opts, log):
    """Set off every queued explosion, breadth-first with the chains they cause (NOTES I.12, II.27)."""
    head = 0
    while head < s.queue.shape[0]:
        n = 0
        for i in range(MAX_CELLS):
            n += s.queued[i]
        if head >= n:
            break
        entry = s.queue[head]
        head += 1
        c = entry // QUEUE_SHIFT
        cause = entry % QUEUE_SHIFT
        inst = s.cell_tile[c]
        if inst < 0 or s.cell_type[c] != TYPE_TERRAIN or tiles[pool[inst], T_EXPLOSIVE_ON_TILE] <= 0:
            continue  # gone already
        design = pool[inst]
        big = tiles[design, T_EXPLOSIVE_ON_TILE]
        small = tiles[design, T_EXPLOSIVE_ADJACENT]
        row = log_event(log, EV_EXPLOSION)
        if row >= 0:
            log[row, 1] = inst
            log[row, 2] = c
            log[row, 3] = cause
            log[row, 4] = by_seat
        if by_seat >= 0:
            s.st_explosions[by_seat] += 1
        send_to_box(s, i64(inst))
        _clear_cell(s, i64(c))
        src = -2 - c
        q = robot_at(s, i64(c))
        if q >= 0:
            hit_robot(s, i64(q), i64(big), i64(0), i64(-1), i64(src), i64(HK_TERRAIN_BIG), i64(0), tiles, pool,
                      robots, cells, opts, log)
        for d in range(6):
            y = nbr[c, d]
            if y < 0:
                continue
            q = robot_at(s, i64(y))
            if q >= 0:
                hit_robot(s, i64(q), i64(small), i64(0), i64((d + 3) % 6), i64(src), i64(HK_TERRAIN_SMALL), i64(0),
                          tiles, pool, robots, cells, opts,
                          log)
        for d in range(6):
            y = nbr[c, d]
            if y < 0 or s.cell_tile[y] < 0 or s.cell_type[y] != TYPE_TERRAIN:
                continue
            _hit_cell(s, i64(y), i64(small), i64(0), i64((d + 3) % 6), i64(src), i64(HK_TERRAIN_SMALL), i64(1), tiles,
                      pool, opts, log)
    for i in range(MAX_CELLS):
        s.queued[i] = 0


@kernel
def hit_cell_queued(s, c, D, H, from_dir, source, kind, tiles, pool, opts, log):
    """The cell ``c`` itself as a target, its explosion (if any) only queued: an attack calls
    ``run_explosions`` after its last hit (II.27)."""
    _hit_cell(s, i64(c), i64(D), i64(H), i64(from_dir), i64(source), i64(kind), i64(0), tiles, pool, opts, log)


@kernel
def hit_cell(s, c, D, H, from_dir, source, kind, by_seat, tiles, pool, robots, cells, nbr, opts, log):
    """The cell ``c`` itself as a target (terrain, module tile or empty cell): log the hit; explosive
    terrain that takes D >= 1 or any heat goes off now (with its chain), water that takes heat is
    destroyed; module tiles ignore hits (NOTES I.9.1, I.10.6, I.12)."""
    _hit_cell(s, i64(c), i64(D), i64(H), i64(from_dir), i64(source), i64(kind), i64(0), tiles, pool, opts, log)
    run_explosions(s, by_seat, tiles, pool, robots, cells, nbr, opts, log)


@kernel
def explode(s, c, cause, by_seat, tiles, pool, robots, cells, nbr, opts, log):
    """Explosive terrain on ``c`` goes off (cause XC_*, set off by ``by_seat`` or -1), with the
    breadth-first chain it causes (NOTES I.12, II.27); nothing happens when ``c`` holds none."""
    inst = s.cell_tile[c]
    if inst < 0 or s.cell_type[c] != TYPE_TERRAIN or tiles[pool[inst], T_EXPLOSIVE_ON_TILE] <= 0:
        return
    _queue_explosion(s, i64(c), i64(cause))
    run_explosions(s, by_seat, tiles, pool, robots, cells, nbr, opts, log)
