"""Steel Arena movement kernels: rotations, moves (forward, side-forward, jump), collisions, pushes.

Rules: NOTES I.7 (facing, rotation, movement, obstacles, collisions), I.12 (terrain), II.2-II.5
(value semantics, blocked moves, jumps and crossed terrain, water), I.17.7 (movement paths).

Readings fixed here (the brief and NOTES leave them to the implementation):

- **Legal moves** (II.3 default ``blocked_move = illegal``): every step of a forward or side-forward
  move must enter a field cell without obstacle terrain; a robot on it is shoved one cell further
  along the movement, chains included, and the step is impossible when any robot of the chain would
  have to enter the edge or an obstacle. A jump needs only its landing cell: a field cell, no
  obstacle, no robot (jumps never collide, I.7.3).
- **stop_short** (II.3 alternative): the robot moves until its next step is impossible and stops
  there (``EV_STOPPED_SHORT``). A declared distance is legal when at least one step can be made
  (II.17: a movement needs a result; a move of zero tiles is none). Every declared distance that
  passes this test is offered, even where two of them end on the same cell: the player declares a
  distance and the trace records the refused step.
- **One shove per step** (I.7.5): each step of the mover shoves the contiguous block of robots in
  front of it by one cell, so a robot "passed through" ends one cell beyond the mover's final cell.
- **Step-line order**: within one step of the mover, the shoved robots are logged (and moved)
  furthest first, then the mover (or the pushed robot). Replayed line by line, every line moves a
  robot into a free cell. Shoves carry ``CAUSE_SHOVE`` and ``by`` = the seat that caused the
  movement (the mover for moves, the attacker for pushes).
- **Terrain timing**: explosive terrain goes off at the moment a robot (mover, shoved or pushed)
  enters it, while the robot is on it: cause ``XC_PASS`` when the movement goes on after this step
  (the robot will leave the cell again), ``XC_STOP`` when it ends there. All robots moved in a step
  are moved again by the next step of the same movement, so "goes on" is one test per step. Effects
  of one step are applied in step-line order (furthest robot first). Water adds 1 to
  ``s.pending_water[robot]`` for every robot whose movement ends on it (``water_trigger = enter``:
  for every water cell entered, once per entry).
- **Jumps**: one ``EV_STEP`` (jump = 1) from start to landing plus ``EV_JUMP_OVER`` for every field
  cell passed over; the landing counts as stopping there. With ``jump_triggers_crossed_terrain``
  the explosives (and, with ``water_trigger = enter``, the water) passed over react in passing
  order while the jumper is in the air (it is off the field during those explosions, so it takes
  none of their hits), then the landing cell reacts.
- Nobody picks anything up when moving (pickups belong to the end phase, I.13.1). Pushes and
  collisions never damage directly (VI.6). ``push_robot`` leaves ``EV_PUSH_EFFECT`` and the push
  statistics to its caller (the attack), which knows the requested value.

Move ``param`` = variant * 8 + distance (``codes.MV_*``); rotate ``param`` = sense * 4 + k (sense 0
clockwise = facing - k, 1 counter-clockwise = facing + k).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.steel_arena.codes import (
    CAUSE_MOVE,
    CAUSE_SHOVE,
    EV_JUMP_OVER,
    EV_ROTATE,
    EV_STEP,
    EV_STOPPED_SHORT,
    MV_LEFT,
    MV_RIGHT,
    MV_STRAIGHT,
    OPT_JUMP_TRIGGERS,
    OPT_STOP_SHORT,
    OPT_UP_TO,
    OPT_WATER_ENTER,
    XC_PASS,
    XC_STOP,
)
from simlab.games.steel_arena.data import (
    C_Q,
    C_R,
    MOVE_KINDS,
    T_EXPLOSIVE_ON_TILE,
    T_OBSTACLE,
    T_WATER_COOL,
    TILE_TYPES,
)
from simlab.games.steel_arena.hexgrid import DIRECTIONS
from simlab.games.steel_arena.hits import explode, robot_at

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64
b1 = np.bool_

log_event = bind(kernels.log_event)

MK_FORWARD = MOVE_KINDS.index("forward")
MK_SIDE_FORWARD = MOVE_KINDS.index("side_forward")
MK_JUMP = MOVE_KINDS.index("jump")
TERRAIN = TILE_TYPES.index("terrain")
MAX_DIST = 7  # param = variant * 8 + distance


# ---------------------------------------------------------------- cells


@njit(cache=True, inline="always")
def terrain_value(s, c, col, tiles, pool):
    """Column ``col`` of the terrain tile on cell ``c``, or 0 when the cell holds no terrain."""
    inst = s.cell_tile[c]
    if inst < 0 or s.cell_type[c] != TERRAIN:
        return 0
    return tiles[pool[inst], col]


@njit(cache=True, inline="always")
def is_obstacle(s, c, tiles, pool):
    """Whether field cell ``c`` holds obstacle terrain (NOTES I.7.4, I.12.2); False off the field (c < 0)."""
    return c >= 0 and terrain_value(s, c, T_OBSTACLE, tiles, pool) > 0


@njit(cache=True, inline="always")
def can_enter(s, c, tiles, pool):
    """Whether a robot may enter cell ``c`` at all (a field cell without obstacle; robots aside)."""
    return c >= 0 and not is_obstacle(s, c, tiles, pool)


@kernel
def cell_at(cells, q, r):
    """The field cell at axial ``(q, r)``, or -1 (off the field)."""
    for c in range(cells.shape[0]):
        if cells[c, C_Q] == q and cells[c, C_R] == r:
            return c
    return -1


@njit(cache=True, inline="always")
def move_direction(facing, variant):
    """The direction of a move variant: straight ahead, diagonal-forward left (f + 1) or right (f - 1)."""
    if variant == MV_LEFT:
        return (facing + 1) % 6
    if variant == MV_RIGHT:
        return (facing + 5) % 6
    return facing % 6


@njit(cache=True, inline="always")
def jump_landing(s, p, distance, cells):
    """The landing cell of a jump of ``distance`` straight ahead (-1 off the field, NOTES I.17.7)."""
    c = s.cell[p]
    f = s.facing[p]
    return cell_at(cells, cells[c, C_Q] + distance * DIRECTIONS[f, 0], cells[c, C_R] + distance * DIRECTIONS[f, 1])


@kernel
def step_block(s, c, d, tiles, pool, nbr):
    """-1 when the robot on cell ``c`` can step along ``d`` (shoving the robots ahead), else the blocking cell.

    The blocking cell is the obstacle cell, or, at the edge, the last field cell on the way (the
    cell whose robot would have to leave the field; ``c`` itself when ``c`` faces the edge).
    """
    cur = c
    for _ in range(nbr.shape[0]):
        t = nbr[cur, d]
        if t < 0:
            return cur
        if is_obstacle(s, t, tiles, pool):
            return t
        if robot_at(s, i64(t)) < 0:
            return -1
        cur = t
    return cur


@kernel
def _free_end(s, c, d, nbr):
    """The first cell along ``d`` from ``c`` without a robot (the step must be possible)."""
    t = nbr[c, d]
    while robot_at(s, i64(t)) >= 0:
        t = nbr[t, d]
    return t


@kernel
def _shift(s, p, d, nbr):
    """Step robot ``p`` along ``d``, shoving the block in front of it by one cell (no log, no effects)."""
    c = s.cell[p]
    cur = _free_end(s, c, d, nbr)
    back = (d + 3) % 6
    while cur != c:
        prev = nbr[cur, back]
        q = p if prev == c else robot_at(s, i64(prev))
        s.cell[q] = cur
        cur = prev


@kernel
def _count_steps(s, p, d, n, tiles, pool, nbr):
    """How many of ``n`` steps along ``d`` robot ``p`` can make before one is impossible (state unchanged)."""
    saved0 = s.cell[0]
    saved1 = s.cell[1]
    saved2 = s.cell[2]
    saved3 = s.cell[3]
    done = 0
    while done < n:
        if step_block(s, s.cell[p], d, tiles, pool, nbr) >= 0:
            break
        _shift(s, p, d, nbr)
        done += 1
    s.cell[0] = saved0
    s.cell[1] = saved1
    s.cell[2] = saved2
    s.cell[3] = saved3
    return done


# ---------------------------------------------------------------- legal parameters


@kernel
def rotate_params(s, p, lo, hi, base, out, n, opts):
    """Append ``base + param`` for every legal rotation of robot ``p`` by ``lo..hi`` sectors; return n.

    ``single_value = up_to`` (II.2): a single value ``hi`` means any 1..hi. Both senses for k = 1, 2;
    for k = 3 only sense 1 (both senses give the same facing).
    """
    if opts[OPT_UP_TO] and lo == hi:
        lo = 1
    if lo < 1:
        lo = 1
    if hi > 3:
        hi = 3
    for k in range(lo, hi + 1):
        for sense in range(2):
            if k == 3 and sense == 0:
                continue
            if n < out.shape[0]:
                out[n] = base + sense * 4 + k
                n += 1
    return n


@kernel
def move_params(s, p, kind, lo, hi, base, out, n, tiles, pool, cells, nbr, opts):
    """Append ``base + param`` for every legal move of robot ``p`` (``kind``: MOVE_KINDS index); return n.

    Distances ``lo..hi`` (``single_value = up_to``: 1..hi when lo == hi). Forward and side-forward
    moves follow the II.3 option (module docstring); a jump needs a free, obstacle-free landing cell.
    """
    if s.cell[p] < 0 or not s.placed[p]:
        return n
    if opts[OPT_UP_TO] and lo == hi:
        lo = 1
    if lo < 1:
        lo = 1
    if hi > MAX_DIST:
        hi = MAX_DIST
    if hi < lo:
        return n
    f = s.facing[p]
    if kind == MK_JUMP:
        for dist in range(lo, hi + 1):
            t = jump_landing(s, p, dist, cells)
            if t >= 0 and not is_obstacle(s, t, tiles, pool) and robot_at(s, i64(t)) < 0 and n < out.shape[0]:
                out[n] = base + MV_STRAIGHT * 8 + dist
                n += 1
        return n
    stop_short = opts[OPT_STOP_SHORT] != 0
    for v in range(3):
        if kind == MK_FORWARD and v != MV_STRAIGHT:
            continue
        if kind == MK_SIDE_FORWARD and v == MV_STRAIGHT:
            continue
        possible = _count_steps(s, p, move_direction(f, v), hi, tiles, pool, nbr)
        for dist in range(lo, hi + 1):
            ok = possible >= 1 if stop_short else possible >= dist
            if ok and n < out.shape[0]:
                out[n] = base + v * 8 + dist
                n += 1
    return n


@kernel
def move_target(s, p, kind, param, tiles, pool, cells, nbr, opts):
    """The cell where robot ``p`` ends a move ``param`` (legal or stop-short; state unchanged)."""
    v = param // 8
    dist = param % 8
    if kind == MK_JUMP:
        return jump_landing(s, p, dist, cells)
    d = move_direction(s.facing[p], v)
    c = s.cell[p]
    done = _count_steps(s, p, d, dist, tiles, pool, nbr)
    for _ in range(done):
        c = nbr[c, d]
    return c


@kernel
def reachable_cells(s, p, kind, lo, hi, tiles, pool, cells, nbr, opts, out):
    """The distinct cells robot ``p`` can end on with one move of ``kind`` and values ``lo..hi``.

    Writes them to ``out`` (in the order of the legal parameters) and returns their number; ``out``
    must have room for 3 * 8 entries (it is also the parameter scratch).
    """
    n = move_params(s, p, kind, lo, hi, 0, out, 0, tiles, pool, cells, nbr, opts)
    k = 0
    for i in range(n):
        t = move_target(s, p, kind, out[i], tiles, pool, cells, nbr, opts)
        seen = False
        for j in range(k):
            if out[j] == t:
                seen = True
        if not seen:
            out[k] = t
            k += 1
    return k


# ---------------------------------------------------------------- applying


@kernel
def apply_rotate(s, p, param, log):
    """Turn robot ``p`` by a rotation module's ``param`` (sense * 4 + k); logs EV_ROTATE cause 0."""
    before = s.facing[p]
    k = param % 4
    after = (before + 6 - k) % 6 if param // 4 == 0 else (before + k) % 6
    s.facing[p] = after
    row = log_event(log, EV_ROTATE)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = before
        log[row, 3] = after
        log[row, 4] = 0
        log[row, 5] = p


@kernel
def whirl_robot(s, p, signed_k, by_seat, log):
    """An attack's whirl: turn robot ``p`` by ``signed_k`` sectors (+ counter-clockwise); EV_ROTATE cause 1."""
    before = s.facing[p]
    after = (before + signed_k) % 6
    if after < 0:
        after += 6
    s.facing[p] = after
    row = log_event(log, EV_ROTATE)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = before
        log[row, 3] = after
        log[row, 4] = 1
        log[row, 5] = by_seat


@njit(cache=True, inline="always")
def _log_step(log, p, frm, to, d, cause, by, jump):
    row = log_event(log, EV_STEP)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = frm
        log[row, 3] = to
        log[row, 4] = d
        log[row, 5] = cause
        log[row, 6] = by
        log[row, 7] = jump


@kernel
def _step(s, p, d, cause, by, nbr, log):
    """Step robot ``p`` along ``d`` with its shoves, logged furthest first; return the chain's end cell."""
    c = s.cell[p]
    end = _free_end(s, c, d, nbr)
    back = (d + 3) % 6
    cur = end
    while cur != c:
        prev = nbr[cur, back]
        q = p if prev == c else robot_at(s, i64(prev))
        s.cell[q] = cur
        if q == p:
            _log_step(log, q, prev, cur, d, cause, by, 0)
        else:
            _log_step(log, q, prev, cur, d, CAUSE_SHOVE, by, 0)
        cur = prev
    return end


@kernel
def _arrive(s, q, c, stops, by_seat, tiles, pool, robots, cells, nbr, opts, log):
    """Terrain effects for robot ``q`` that has just entered cell ``c`` (``stops``: it ends there)."""
    if s.cell_tile[c] < 0 or s.cell_type[c] != TERRAIN:
        return
    if terrain_value(s, c, T_WATER_COOL, tiles, pool) > 0 and (stops or opts[OPT_WATER_ENTER]):
        s.pending_water[q] += 1
    if terrain_value(s, c, T_EXPLOSIVE_ON_TILE, tiles, pool) > 0:
        explode(s, i64(c), i64(XC_STOP if stops else XC_PASS), i64(by_seat), tiles, pool, robots, cells, nbr, opts, log)


@kernel
def _step_effects(s, p, d, end, stops, by_seat, tiles, pool, robots, cells, nbr, opts, log):
    """Terrain effects of one step: every robot from ``end`` back to robot ``p``, furthest first."""
    back = (d + 3) % 6
    cur = end
    stop_at = s.cell[p]
    while True:
        q = p if cur == stop_at else robot_at(s, i64(cur))
        if q >= 0:
            _arrive(s, i64(q), i64(cur), b1(stops), i64(by_seat), tiles, pool, robots, cells, nbr, opts, log)
        if cur == stop_at:
            break
        cur = nbr[cur, back]


@kernel
def _log_stopped_short(log, p, target, blocking):
    row = log_event(log, EV_STOPPED_SHORT)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = target
        log[row, 3] = blocking


@kernel
def _walk(s, p, d, n, cause, by, by_seat, short_log, tiles, pool, robots, cells, nbr, opts, log):
    """Up to ``n`` steps of robot ``p`` along ``d`` with shoves and terrain effects; return steps done.

    Stops at the first impossible step; ``short_log`` logs it as EV_STOPPED_SHORT.
    """
    done = 0
    if n <= 0:
        return 0
    blocking = step_block(s, s.cell[p], d, tiles, pool, nbr)
    while blocking < 0:
        end = _step(s, i64(p), i64(d), i64(cause), i64(by), nbr, log)
        done += 1
        if done < n:
            blocking = step_block(s, s.cell[p], d, tiles, pool, nbr)
            stops = blocking >= 0
        else:
            blocking = -1
            stops = True
        _step_effects(s, i64(p), i64(d), i64(end), b1(stops), i64(by_seat), tiles, pool, robots, cells, nbr, opts, log)
        if stops or s.cell[p] < 0:
            break
    if done < n and short_log and s.cell[p] >= 0:
        _log_stopped_short(log, i64(p), i64(nbr[s.cell[p], d]), i64(blocking))
    return done


@kernel
def apply_move(s, p, kind, param, tiles, pool, robots, cells, nbr, opts, log):
    """Carry out move ``param`` (variant * 8 + distance) of robot ``p`` (``kind``: MOVE_KINDS index).

    Forward / side-forward: step by step with shoves and terrain effects (module docstring);
    a jump: one step line, the cells passed over, then the landing. The facing does not change.
    """
    v = param // 8
    dist = param % 8
    f = s.facing[p]
    by_seat = s.active
    if kind != MK_JUMP:
        _walk(s, i64(p), i64(move_direction(f, v)), i64(dist), i64(CAUSE_MOVE), i64(p), i64(by_seat), b1(True),
              tiles, pool, robots, cells, nbr, opts, log)
        return
    start = s.cell[p]
    land = jump_landing(s, p, dist, cells)
    if land < 0:
        return  # not a legal jump (move_params never offers it)
    _log_step(log, p, start, land, f, CAUSE_MOVE, p, 1)
    q0 = cells[start, C_Q]
    r0 = cells[start, C_R]
    for k in range(1, dist):
        c = cell_at(cells, q0 + k * DIRECTIONS[f, 0], r0 + k * DIRECTIONS[f, 1])
        if c >= 0:
            row = log_event(log, EV_JUMP_OVER)
            if row >= 0:
                log[row, 1] = p
                log[row, 2] = c
    if opts[OPT_JUMP_TRIGGERS]:
        s.cell[p] = -1  # in the air: the explosions it sets off in passing do not hit it
        for k in range(1, dist):
            c = cell_at(cells, q0 + k * DIRECTIONS[f, 0], r0 + k * DIRECTIONS[f, 1])
            if c >= 0:
                _arrive(s, i64(p), i64(c), b1(False), i64(by_seat), tiles, pool, robots, cells, nbr, opts, log)
    s.cell[p] = land
    _arrive(s, i64(p), i64(land), b1(True), i64(by_seat), tiles, pool, robots, cells, nbr, opts, log)


@kernel
def push_robot(s, p, direction, n, by_seat, cause, tiles, pool, robots, cells, nbr, opts, log):
    """An attack's push: move robot ``p`` up to ``n`` cells along ``direction``; return the steps done.

    One step at a time with chain shoves (``CAUSE_SHOVE``, by ``by_seat``); the pushed robot's own
    steps carry ``cause``. Stops (does not fail) at the first impossible step, logged as
    EV_STOPPED_SHORT (before the attack's EV_PUSH_EFFECT). Terrain effects as for moves, explosions
    credited to ``by_seat``. Pushes never damage directly.
    """
    if n <= 0 or s.cell[p] < 0 or not s.placed[p]:
        return 0
    return _walk(s, i64(p), i64(direction % 6), i64(n), i64(cause), i64(by_seat), i64(by_seat), b1(True),
                 tiles, pool, robots, cells, nbr, opts, log)
