"""Steel Arena's attack kernels: the line of fire, the legal attack parameters, and an attack's resolution.

Rules: NOTES I.9 (targets, line of fire, deliveries, explosion / push / whirl / heat), I.10.6 (one
hit), I.17.5-I.17.8 (hit directions, line of fire, sweep cells) and the Part II defaults II.17-II.21,
II.27, II.31, II.32, II.39. The hits themselves are ``hits.py``'s; pushes and whirls are
``movement.py``'s.

**Targets** (I.9.4, II.21). The line of fire runs from the attacker's cell along its facing ``f``
up to the edge; empty cells are part of it. A single-target attack (direct, arc, melee) picks a
cell ``t`` of the line (0 = adjacent) and either the robot there (``which = 0``) or the cell itself
(``which = 1``: terrain, a module tile or an empty cell; a robot on terrain gives both, II.21).
The cell under a robot is a target apart from it whatever lies there (``cell_under_robot_target =
separate``, docs/steel_arena.md: the rulebook's "пустой участок поля"); with ``terrain_only`` only
terrain under a robot is. Direct: cells up to and including the first blocker (another robot or terrain with
interference); arc: any cell of the line; melee: the adjacent front cell only. Beam and sweep
hit everything in reach and have one action (t = which = e = order = 0). An attack needs a
field cell in front (``require_cell_in_line``, II.17; a sweep too, its main target being the
front cell, I.9.4; with the option off an attack facing the edge is one action that hits
nothing). Push and whirl modules need a robot target
(II.17); the value e runs from ``push_whirl_min`` to N (II.18): push e = n (only distances the
chain of robots ahead can make: no robot is pushed over the edge or into an obstacle, I.7.5; with
``blocked_move = stop_short`` every distance is offered and the push stops short), whirl
e = k counter-clockwise or 3 + k clockwise (II.31); ``order`` 1 = effect first, only for e > 0.

**Resolution** (II.27: outward along the line, then splash, then chained explosions
breadth-first). A hit travels along ``f`` and arrives from ``f + 3``; a sweep's side cells are hit
from the attacker's cell (travel ``f +- 1``, II.39) unless ``sweep_side_hit_direction =
attacker_facing``. Direct / arc / melee hit their one target; with "effect first" the push or
whirl comes before the damage and the robot's new cell and facing count (the hit follows the
robot). Beam: every robot and every cell of the line, robot first, outward. Sweep: front cell,
front-left (``f + 1``), front-right (``f - 1``), each robot and cell. Splash (single-target
attacks): every robot and every terrain tile on the six cells around the primary target's cell
takes the splash damage from the direction of that cell; an adjacent attacker too unless
``splash_hits_attacker`` is off (II.19; its losses go to the box at E0 since it is its own turn).
Heat is owed only by the primary target (II.20 ``heat_robot_scope = primary_targets``): the robot
a single-target attack aims at, the first robot on a beam's line, the robot on a sweep's front
cell; never by splash. Water and explosives on every cell the attack hits react to the heat
(II.20 ``heat_terrain_zone = all_hit_cells``: the cell of a robot target included, logged as a
hit on the cell with no damage; the beam line, the sweep's cells, the splash cells). Explosions
set off by the attack run after its last hit
(``hits.run_explosions``), before an "effect after" push or whirl. ``EV_PUSH_EFFECT`` /
``EV_WHIRL_EFFECT`` log the effect; a push of n > 0 counts in ``st_pushes``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.steel_arena.codes import (
    CAUSE_PUSH,
    EV_PUSH_EFFECT,
    EV_WHIRL_EFFECT,
    HK_BEAM,
    HK_PRIMARY,
    HK_SPLASH,
    HK_SWEEP,
    OPT_PUSH_WHIRL_MIN,
    OPT_REQUIRE_CELL,
    OPT_SPLASH_ATTACKER,
    OPT_STOP_SHORT,
    OPT_SWEEP_FACING,
    OPT_UNDER_ROBOT_TERRAIN_ONLY,
)
from simlab.games.steel_arena.data import T_INTERFERENCE
from simlab.games.steel_arena.hits import (
    TYPE_TERRAIN,
    hit_cell_queued,
    hit_robot,
    robot_at,
    run_explosions,
)
from simlab.games.steel_arena.movement import is_obstacle, push_robot, whirl_robot

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64

log_event = bind(kernels.log_event)

# data.DELIVERIES order
DL_DIRECT, DL_ARC, DL_BEAM, DL_MELEE, DL_SWEEP = range(5)
MAX_WHIRL = 3  # whirl e = k or 3 + k must fit the 3 bits of e


@njit(cache=True, inline="always")
def attack_param(t, which, e, order):
    """The attack ``param`` of target cell ``t``, ``which`` (0 robot, 1 cell), effect ``e`` and ``order``."""
    return ((t * 2 + which) * 8 + e) * 2 + order


@kernel
def line_of_fire(s, p, nbr, out):
    """Write the cells of robot ``p``'s line of fire into ``out`` (adjacent first, up to the edge; empty
    cells count, the field is fixed: NOTES I.17.6); return how many."""
    n = 0
    c = s.cell[p]
    if c < 0:
        return 0
    f = s.facing[p]
    c = nbr[c, f]
    while c >= 0:
        out[n] = c
        n += 1
        c = nbr[c, f]
    return n


@kernel
def _is_terrain(s, c):
    """Whether cell ``c`` holds a terrain tile."""
    return s.cell_tile[c] >= 0 and s.cell_type[c] == TYPE_TERRAIN


@kernel
def push_possible(s, q, d, k, tiles, pool, nbr):
    """Whether robot ``q`` can be pushed ``k`` cells along ``d``: every robot of the chain ahead that has
    to move finds a field cell without obstacle (NOTES I.7.5, II.3)."""
    need = k
    idx = 0
    c = s.cell[q]
    while idx < need:
        c = nbr[c, d]
        idx += 1
        if c < 0 or is_obstacle(s, c, tiles, pool):
            return False
        if robot_at(s, i64(c)) >= 0:
            need += 1
    return True


@kernel
def _robot_target_params(s, q, f, t, push, whirl, base, out, n, tiles, pool, nbr, opts):
    """Append the params for robot ``q`` on line cell ``t`` (effect values and orders)."""
    lo = opts[OPT_PUSH_WHIRL_MIN]
    if push > 0:
        for k in range(lo, min(push, 7) + 1):
            if k == 0:
                out[n] = base + attack_param(t, 0, 0, 0)
                n += 1
            elif opts[OPT_STOP_SHORT] or push_possible(s, q, f, k, tiles, pool, nbr):
                out[n] = base + attack_param(t, 0, k, 0)
                out[n + 1] = base + attack_param(t, 0, k, 1)
                n += 2
    elif whirl > 0:
        if lo == 0:
            out[n] = base + attack_param(t, 0, 0, 0)
            n += 1
        for k in range(1, min(whirl, MAX_WHIRL) + 1):
            for e in (k, MAX_WHIRL + k):
                out[n] = base + attack_param(t, 0, e, 0)
                out[n + 1] = base + attack_param(t, 0, e, 1)
                n += 2
    else:
        out[n] = base + attack_param(t, 0, 0, 0)
        n += 1
    return n


@kernel
def attack_params(s, p, delivery, damage, splash, push, whirl, heat, base, out, n, tiles, pool, cells, nbr, opts):
    """Append every legal action ``base + param`` of this attack by robot ``p`` to ``out[n:]``; return the
    new count (module docstring; NOTES I.9.4, II.17, II.18, II.21)."""
    c0 = s.cell[p]
    if c0 < 0:
        return n
    f = s.facing[p]
    require = opts[OPT_REQUIRE_CELL] != 0
    reach = nbr[c0, f] >= 0  # a sweep too: its main target is the front cell (I.9.4), the side cells come with it
    if delivery == DL_SWEEP or delivery == DL_BEAM:  # noqa: SIM109 (numba: no `in` on a tuple needed)
        if reach or not require:
            out[n] = base
            n += 1
        return n
    needs_robot = push > 0 or whirl > 0
    terrain_only = opts[OPT_UNDER_ROBOT_TERRAIN_ONLY] != 0  # the cell under a robot: its terrain only (II.21)
    c = nbr[c0, f]
    if c < 0:
        if not require and not needs_robot:
            out[n] = base + attack_param(0, 1, 0, 0)
            n += 1
        return n
    t = 0
    while c >= 0:
        q = robot_at(s, i64(c))
        if q >= 0:
            n = _robot_target_params(s, i64(q), i64(f), i64(t), i64(push), i64(whirl), i64(base), out, i64(n), tiles,
                                     pool, nbr, opts)
        if not needs_robot and (q < 0 or not terrain_only or _is_terrain(s, c)):
            out[n] = base + attack_param(t, 1, 0, 0)
            n += 1
        if delivery == DL_MELEE:
            break
        if delivery == DL_DIRECT:
            inst = s.cell_tile[c]
            if q >= 0 or (inst >= 0 and s.cell_type[c] == TYPE_TERRAIN and tiles[pool[inst], T_INTERFERENCE] > 0):
                break
        t += 1
        c = nbr[c, f]
    return n


@kernel
def _splash_around(s, p, x, splash, heat, source, tiles, pool, robots, cells, nbr, opts, log):
    """Splash damage on every robot and terrain tile on the six cells around ``x``, from the direction of
    ``x`` (NOTES I.9.5, I.17.5, II.19); the attacker only with ``splash_hits_attacker``. The attack's
    ``heat`` reaches the terrain of every splash cell (water destroyed, explosives set off: II.20
    ``heat_terrain_zone = all_hit_cells``) but overheats no robot there (II.20: primary targets only)."""
    if splash <= 0:
        return
    for d in range(6):
        y = nbr[x, d]
        if y < 0:
            continue
        fd = (d + 3) % 6
        q = robot_at(s, i64(y))
        if q >= 0 and (q != p or opts[OPT_SPLASH_ATTACKER]):
            hit_robot(s, i64(q), i64(splash), i64(0), i64(fd), i64(source), i64(HK_SPLASH), i64(0), tiles, pool,
                      robots, cells, opts, log)
        if s.cell_tile[y] >= 0 and s.cell_type[y] == TYPE_TERRAIN:
            hit_cell_queued(s, i64(y), i64(splash), i64(heat), i64(fd), i64(source), i64(HK_SPLASH), tiles, pool,
                            opts, log)


@kernel
def _effect(s, p, q, f, push, e, tiles, pool, robots, cells, nbr, opts, log):
    """The push (e cells along ``f``) or whirl (e = k counter-clockwise, 3 + k clockwise) on robot ``q``."""
    if push > 0:
        done = push_robot(s, q, f, e, p, CAUSE_PUSH, tiles, pool, robots, cells, nbr, opts, log)
        s.st_pushes[p] += 1
        row = log_event(log, EV_PUSH_EFFECT)
        if row >= 0:
            log[row, 1] = q
            log[row, 2] = e
            log[row, 3] = done
    else:
        k = e if e <= MAX_WHIRL else -(e - MAX_WHIRL)
        whirl_robot(s, q, k, p, log)
        row = log_event(log, EV_WHIRL_EFFECT)
        if row >= 0:
            log[row, 1] = q
            log[row, 2] = k


@kernel
def _on_field(s, q):
    return s.placed[q] != 0 and s.destroyed[q] == 0 and s.cell[q] >= 0


@kernel
def apply_attack(s, p, source, delivery, damage, splash, push, whirl, heat, param, tiles, pool, robots, cells, nbr,
                 opts, log):
    """Resolve attack ``param`` of robot ``p`` (``source``: module instance, -1 central) per NOTES I.9, I.10.6
    and II.27 (module docstring)."""
    c0 = s.cell[p]
    if c0 < 0:
        return
    f = s.facing[p]
    hdir = (f + 3) % 6
    if delivery == DL_BEAM:
        c = nbr[c0, f]
        primary = 1  # the first robot on the line is the beam's primary target: only it owes heat (II.20)
        while c >= 0:
            q = robot_at(s, i64(c))
            if q >= 0:
                hit_robot(s, i64(q), i64(damage), i64(heat), i64(hdir), i64(source), i64(HK_BEAM), i64(primary),
                          tiles, pool, robots, cells, opts, log)
                primary = 0
            hit_cell_queued(s, i64(c), i64(damage), i64(heat), i64(hdir), i64(source), i64(HK_BEAM), tiles, pool,
                            opts, log)
            c = nbr[c, f]
        run_explosions(s, p, tiles, pool, robots, cells, nbr, opts, log)
        return
    if delivery == DL_SWEEP:
        if nbr[c0, f] < 0:
            return  # no front cell, no sweep (I.9.4; only reachable with require_cell_in_line off): nothing is hit
        for i in range(3):
            d = f  # front, then front-left f + 1, then front-right f - 1 (II.32, I.17.8)
            if i == 1:
                d = (f + 1) % 6
            elif i == 2:
                d = (f + 5) % 6
            c = nbr[c0, d]
            if c < 0:
                continue
            fd = hdir if (i == 0 or opts[OPT_SWEEP_FACING]) else (d + 3) % 6
            q = robot_at(s, i64(c))
            if q >= 0:
                # heat only on the front cell's robot, the sweep's primary target (I.9.4, II.20)
                hit_robot(s, i64(q), i64(damage), i64(heat), i64(fd), i64(source), i64(HK_SWEEP),
                          i64(1 if i == 0 else 0), tiles, pool, robots, cells,
                          opts, log)
            hit_cell_queued(s, i64(c), i64(damage), i64(heat), i64(fd), i64(source), i64(HK_SWEEP), tiles, pool, opts,
                            log)
        run_explosions(s, p, tiles, pool, robots, cells, nbr, opts, log)
        return
    order = param & 1
    e = (param >> 1) & 7
    which = (param >> 4) & 1
    t = param >> 5
    tc = nbr[c0, f]
    for _ in range(t):
        if tc < 0:
            break
        tc = nbr[tc, f]
    if tc < 0:
        return  # an attack into the edge (require_cell_in_line off): nothing is hit
    q = -1
    if which == 0:
        q = robot_at(s, i64(tc))
    if q < 0:
        hit_cell_queued(s, i64(tc), i64(damage), i64(heat), i64(hdir), i64(source), i64(HK_PRIMARY), tiles, pool,
                        opts, log)
        _splash_around(s, i64(p), i64(tc), i64(splash), i64(heat), i64(source), tiles, pool, robots, cells, nbr, opts,
                       log)
        run_explosions(s, p, tiles, pool, robots, cells, nbr, opts, log)
        return
    effect = e > 0 and (push > 0 or whirl > 0)
    if effect and order == 1:
        _effect(s, i64(p), i64(q), i64(f), i64(push), i64(e), tiles, pool, robots, cells, nbr, opts, log)
    if _on_field(s, q):
        rc = s.cell[q]
        hit_robot(s, i64(q), i64(damage), i64(heat), i64(hdir), i64(source), i64(HK_PRIMARY), i64(1), tiles, pool,
                  robots, cells, opts, log)
        if heat > 0 and s.cell_tile[rc] >= 0 and s.cell_type[rc] == TYPE_TERRAIN:
            hit_cell_queued(s, i64(rc), i64(0), i64(heat), i64(hdir), i64(source), i64(HK_PRIMARY), tiles, pool, opts,
                            log)
        _splash_around(s, i64(p), i64(rc), i64(splash), i64(heat), i64(source), tiles, pool, robots, cells, nbr, opts,
                       log)
    run_explosions(s, p, tiles, pool, robots, cells, nbr, opts, log)
    if effect and order == 0 and _on_field(s, q):
        _effect(s, i64(p), i64(q), i64(f), i64(push), i64(e), tiles, pool, robots, cells, nbr, opts, log)
