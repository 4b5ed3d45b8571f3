"""What the heuristics read off a position: robots, modules, tokens, armour against a hit from each side, and
the best hit a robot's ready attacks could deal from where it stands."""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.jit import kernel
from simlab.games.steel_arena.codes import (
    OPT_COVER_VALUE,
)
from simlab.games.steel_arena.data import (
    R_ARMOUR_ARC,
    R_ARMOUR_VALUE,
    R_DAMAGE,
    R_DELIVERY,
    T_ARMOUR_ARC,
    T_ARMOUR_VALUE,
    T_AUTOCOOL,
    T_COVER,
    T_DAMAGE,
    T_DELIVERY,
    T_HEAT,
    T_INTERFERENCE,
    T_MOVE_KIND,
    T_MOVE_MAX,
    T_MOVE_MIN,
    T_NEEDS_ACTIVATION,
    T_ONESHOT,
    T_PUSH,
    T_ROTATE_MAX,
    T_ROTATE_MIN,
    T_SPEED,
    T_SPLASH,
    T_TYPE,
    T_WHIRL,
)
from simlab.games.steel_arena.hexgrid import DIRECTIONS, arc_covers
from simlab.games.steel_arena.players.registry import (
    _VW,
    ARC_ALL,
    ARC_SIDE,
    ARM0,
    DL_ARC,
    DL_BEAM,
    DL_DIRECT,
    DL_MELEE,
    DL_SWEEP,
    MK_JUMP,
    MV0,
    TY_ATTACK,
    TY_DEFENCE,
    TY_MOVE,
    TY_ROTATE,
    TY_TERRAIN,
    VW_ARMOUR,
    VW_AUTOCOOL,
    VW_BASE,
    VW_DAMAGE,
    VW_ONESHOT,
    VW_SPEED,
    VW_STEP,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def _is_enemy(s, p: int, q: int) -> bool:
    return q != p and (s.team == 0 or s.team_of[q] != s.team_of[p])


@njit(cache=True, inline="always")
def _robot_at(s, c: int) -> int:
    for q in range(s.n_players):
        if s.placed[q] and s.cell[q] == c:
            return q
    return -1


@njit(cache=True, inline="always")
def _hex_distance(cells, a: int, b: int) -> int:
    dq = cells[b, 0] - cells[a, 0]
    dr = cells[b, 1] - cells[a, 1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True, inline="always")
def _on_field(s, q: int) -> bool:
    return s.placed[q] != 0 and s.cell[q] >= 0 and s.destroyed[q] == 0


@kernel
def module_value(tiles, d: int) -> float:
    """The value of a module of design row ``d`` (``VALUE_WEIGHTS``): what the owner policy keeps."""
    t = tiles[d, T_TYPE]
    v = _VW[VW_BASE]
    if t == TY_ATTACK:
        dl = tiles[d, T_DELIVERY]
        f = 1.2 if dl in (DL_ARC, DL_BEAM) else 1.0
        v += _VW[VW_DAMAGE] * f * (tiles[d, T_DAMAGE] + 1.5 * tiles[d, T_SPLASH] + 0.5 * tiles[d, T_HEAT]
                                   + 0.3 * (tiles[d, T_PUSH] + tiles[d, T_WHIRL]))
    elif t == TY_MOVE:
        f = 1.3 if tiles[d, T_MOVE_KIND] == MK_JUMP else (1.1 if tiles[d, T_MOVE_KIND] == 1 else 1.0)
        v += _VW[VW_STEP] * f * (tiles[d, T_MOVE_MAX] + 0.5 * (tiles[d, T_MOVE_MAX] - tiles[d, T_MOVE_MIN]))
    elif t == TY_ROTATE:
        v += _VW[VW_STEP] * (tiles[d, T_ROTATE_MAX] + 0.5 * (tiles[d, T_ROTATE_MAX] - tiles[d, T_ROTATE_MIN]))
    elif t == TY_DEFENCE:
        arc = tiles[d, T_ARMOUR_ARC]
        f = 1.0 if arc == ARC_ALL else (0.8 if arc == ARC_SIDE else 0.5)
        v += _VW[VW_ARMOUR] * f * tiles[d, T_ARMOUR_VALUE]
    if tiles[d, T_SPEED]:
        v += _VW[VW_SPEED]
    if tiles[d, T_AUTOCOOL]:
        v += _VW[VW_AUTOCOOL]
    if tiles[d, T_ONESHOT]:
        v *= _VW[VW_ONESHOT]
    return v


@kernel
def _module_sum(s, q: int, tiles, pool, w) -> tuple[float, float]:
    """Sum and minimum of the module values of robot q (each design's value computed once per
    decision: ``w[MV0 + d]``, -1 until then, see ``heuristic_weights``)."""
    total = 0.0
    lo = 1e9
    for m in range(s.n_mods[q]):
        d = pool[s.mods[q, m]]
        v = w[MV0 + d]
        if v < 0.0:
            v = module_value(tiles, i64(d))
            w[MV0 + d] = v
        total += v
        if v < lo:
            lo = v
    if lo > 1e8:
        lo = 0.0
    return total, lo


@kernel
def _free_modules(s, q: int) -> int:
    """Modules of robot q that could take a heat token (token-free, the central module included)."""
    n = 0
    for m in range(s.n_mods[q]):
        if s.heat[q, m] == 0:
            n += 1
    if s.central_heat[q] == 0:
        n += 1
    return n


@kernel
def _tokens(s, q: int, tiles, pool) -> int:
    """Overheat tokens robot q carries that stay (auto-cool modules shed theirs at the end of the turn)."""
    n = 1 if s.central_heat[q] else 0
    for m in range(s.n_mods[q]):
        if s.heat[q, m] and not tiles[pool[s.mods[q, m]], T_AUTOCOOL]:
            n += 1
    return n


@njit(cache=True, inline="always")
def _interferes(s, c: int, tiles, pool) -> bool:
    inst = s.cell_tile[c]
    if inst < 0 or s.cell_type[c] != TY_TERRAIN:
        return False
    return tiles[pool[inst], T_INTERFERENCE] != 0


@kernel
def _armour(s, q: int, rel: int, tiles, pool, robots, opts) -> int:
    """Armour robot q would put against a hit from relative sector rel (passive and ready active
    defence, the central module's armour, cover)."""
    a = 0
    for m in range(s.n_mods[q]):
        if s.mod_type[q, m] != TY_DEFENCE:
            continue
        d = pool[s.mods[q, m]]
        if tiles[d, T_NEEDS_ACTIVATION]:
            if s.heat[q, m] == 0 and arc_covers(tiles[d, T_ARMOUR_ARC], rel):
                a += tiles[d, T_ARMOUR_VALUE]
        elif arc_covers(tiles[d, T_ARMOUR_ARC], rel):
            a += tiles[d, T_ARMOUR_VALUE]
    arc = robots[q, s.side[q], R_ARMOUR_ARC]
    if arc >= 0 and arc_covers(arc, rel):
        a += robots[q, s.side[q], R_ARMOUR_VALUE]
    c = s.cell[q]
    inst = s.cell_tile[c]
    if inst >= 0 and s.cell_type[c] == TY_TERRAIN and tiles[pool[inst], T_COVER]:
        a += opts[OPT_COVER_VALUE]
    return a


@njit(cache=True, inline="always")
def _armour_seen(s, q: int, rel: int, tiles, pool, robots, opts, w) -> int:
    """``_armour``, computed once per position: ``w[ARM0 + 6 q + rel]`` (-1 until then, reset by ``evaluate``)."""
    i = ARM0 + 6 * q + rel
    a = w[i]
    if a < 0.0:
        a = float(_armour(s, i64(q), i64(rel), tiles, pool, robots, opts))
        w[i] = a
    return int(a)


@njit(cache=True, inline="always")
def _hit(a: int, dmg: int, heat: int, heat_w: float) -> float:
    """Modules lost (plus heat_w per heat unit) by a robot with armour ``a`` hit by (dmg, heat): armour
    comes off the damage first, then the heat."""
    d = dmg - a
    rest = 0
    if d < 0:
        rest = -d
        d = 0
    h = heat - rest
    if h < 0:
        h = 0
    return d + heat_w * h


@kernel
def _best_ready_attack(s, p: int, only: int, min_range: int, heat_w: float, tiles, pool, robots, cells, nbr,
                       opts, w) -> float:
    """The best value among robot p's token-free attacks (modules and the central module) from where it
    stands: an attack is worth its best single target among p's enemies (``only`` >= 0: that robot only),
    the sum for beams and sweeps; targets closer than ``min_range`` do not count. Direct fire stops at the
    first robot or interfering terrain, melee reaches the cell ahead, arcs and beams the whole line."""
    # most positions have no target in reach: check the enemies' cells against the ray (and the
    # sweep's side cells) before walking the line
    c0 = s.cell[p]
    f = s.facing[p]
    found = False
    for q in range(s.n_players):
        if not _is_enemy(s, p, q) or (only >= 0 and q != only) or not _on_field(s, q):
            continue
        dq = cells[s.cell[q], 0] - cells[c0, 0]
        dr = cells[s.cell[q], 1] - cells[c0, 1]
        k = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if k >= min_range and dq == k * DIRECTIONS[f, 0] and dr == k * DIRECTIONS[f, 1]:
            found = True
            break
        if k == 1 and min_range <= 1:
            for dirn in ((f + 1) % 6, (f + 5) % 6):
                if dq == DIRECTIONS[dirn, 0] and dr == DIRECTIONS[dirn, 1]:
                    found = True
    if not found:
        return 0.0
    # the targets, walked once: the armour each puts against this robot's hits (-1: no target there).
    # Along the line, in order: up to three targets (arc, beam), the one direct fire reaches, the one ahead
    ray0 = -1
    ray1 = -1
    ray2 = -1
    n_ray = 0
    direct = -1
    melee = -1
    blocked = False
    c = nbr[c0, f]
    k = 1
    while c >= 0:
        q = _robot_at(s, c)
        if q >= 0 and k >= min_range and _is_enemy(s, p, q) and (only < 0 or q == only):
            a = _armour_seen(s, q, (f + 3 - s.facing[q]) % 6, tiles, pool, robots, opts, w)
            if n_ray == 0:
                ray0 = a
            elif n_ray == 1:
                ray1 = a
            else:
                ray2 = a
            n_ray += 1
            if not blocked:
                direct = a
            if k == 1:
                melee = a
        if q >= 0 or _interferes(s, c, tiles, pool):
            blocked = True
        c = nbr[c, f]
        k += 1
    # the sweep's three cells (front, then the two front sides)
    sw0 = -1
    sw1 = -1
    sw2 = -1
    if min_range <= 1:
        for j in range(3):
            dirn = (f + (0, 1, 5)[j]) % 6
            c = nbr[c0, dirn]
            if c < 0:
                continue
            q = _robot_at(s, c)
            if q >= 0 and _is_enemy(s, p, q) and (only < 0 or q == only):
                a = _armour_seen(s, q, (dirn + 3 - s.facing[q]) % 6, tiles, pool, robots, opts, w)
                if j == 0:
                    sw0 = a
                elif j == 1:
                    sw1 = a
                else:
                    sw2 = a
    best = 0.0
    for m in range(-1, s.n_mods[p]):
        if m < 0:  # the central module
            if s.central_heat[p]:
                continue
            side = s.side[p]
            dl = robots[p, side, R_DELIVERY]
            dmg = robots[p, side, R_DAMAGE]
            heat = 0
        else:
            if s.heat[p, m] or s.mod_type[p, m] != TY_ATTACK:
                continue
            d = pool[s.mods[p, m]]
            dl = tiles[d, T_DELIVERY]
            dmg = tiles[d, T_DAMAGE] + tiles[d, T_SPLASH]
            heat = tiles[d, T_HEAT]
        v = 0.0
        if dl == DL_SWEEP:
            if sw0 >= 0:
                v += _hit(sw0, dmg, heat, heat_w)
            if sw1 >= 0:
                v += _hit(sw1, dmg, heat, heat_w)
            if sw2 >= 0:
                v += _hit(sw2, dmg, heat, heat_w)
        elif dl == DL_MELEE:
            if melee >= 0:
                v = _hit(melee, dmg, heat, heat_w)
        elif dl == DL_DIRECT:
            if direct >= 0:
                v = _hit(direct, dmg, heat, heat_w)
        elif dl == DL_BEAM:
            if ray0 >= 0:
                v += _hit(ray0, dmg, heat, heat_w)
            if ray1 >= 0:
                v += _hit(ray1, dmg, heat, heat_w)
            if ray2 >= 0:
                v += _hit(ray2, dmg, heat, heat_w)
        else:  # an arc: the best target on the line
            if ray0 >= 0:
                v = max(v, _hit(ray0, dmg, heat, heat_w))
            if ray1 >= 0:
                v = max(v, _hit(ray1, dmg, heat, heat_w))
            if ray2 >= 0:
                v = max(v, _hit(ray2, dmg, heat, heat_w))
        if v > best:
            best = v
    return best


@kernel
def _team_trophies(s, p: int) -> tuple[int, int]:
    """(trophies of p's side, the most trophies of another side): per team in team mode."""
    mine = 0
    other = 0
    if s.team:
        t_other = 0
        for q in range(s.n_players):
            if s.team_of[q] == s.team_of[p]:
                mine += s.n_trophies[q]
            else:
                t_other += s.n_trophies[q]
        other = t_other
    else:
        mine = s.n_trophies[p]
        for q in range(s.n_players):
            if q != p and s.n_trophies[q] > other:
                other = s.n_trophies[q]
    return mine, other


@kernel
def _can_hurt(s, p: int, q: int, tiles, pool, robots, cells, opts, w) -> bool:
    """Whether one of robot p's attacks (any, overheated or not) beats robot q's armour on q's side
    that faces p: otherwise fighting q from here is pointless for now."""
    dq = cells[s.cell[p], 0] - cells[s.cell[q], 0]
    dr = cells[s.cell[p], 1] - cells[s.cell[q], 1]
    ds = -dq - dr
    d_best = 0
    best_dot = -(1 << 30)
    for d in range(6):
        ddq = DIRECTIONS[d, 0]
        ddr = DIRECTIONS[d, 1]
        dot = dq * ddq + dr * ddr + ds * (-ddq - ddr)
        if dot > best_dot:
            best_dot = dot
            d_best = d
    lo = _armour_seen(s, q, (d_best - s.facing[q]) % 6, tiles, pool, robots, opts, w)
    side = s.side[p]
    if robots[p, side, R_DAMAGE] > lo:
        return True
    for m in range(s.n_mods[p]):
        if s.mod_type[p, m] != TY_ATTACK:
            continue
        d = pool[s.mods[p, m]]
        if tiles[d, T_DAMAGE] + tiles[d, T_HEAT] > lo or tiles[d, T_PUSH] > 0:
            return True
    return False


