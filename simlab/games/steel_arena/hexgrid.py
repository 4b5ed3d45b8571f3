"""Steel Arena's hex geometry as compiled pure functions over axial coordinates.

Everything here follows the research notes' modelling convention (``NOTES.md`` I.17):

- **Coordinates** (I.17.1): a cell is ``(q, r)`` in axial coordinates, with ``s = -q - r``.
- **Directions** (I.17.2): ``DIRECTIONS[i]`` is the ``(dq, dr)`` of direction ``i``, consecutive
  indices 60 degrees apart: 0 ``(+1, 0)``, 1 ``(+1, -1)``, 2 ``(0, -1)``, 3 ``(-1, 0)``,
  4 ``(-1, +1)``, 5 ``(0, +1)``. The neighbour of ``c`` in direction ``i`` is ``c + D[i]``.
- **Facing and rotation** (I.17.3): a facing is a direction index 0..5; turning ``k`` sectors
  gives ``f + k (mod 6)``. A positive ``steps`` increases the index (``COUNTERCLOCKWISE``), a
  negative one decreases it (``CLOCKWISE``), the drawing convention of ``examples.toml`` ("right" =
  clockwise = decreasing index, with r drawn downwards; example ``rotate-os-m1``). Every rule is
  left/right symmetric, so the handedness only matters for logs and drawings.
- **Relative sector** (I.17.4): direction ``d`` seen from a robot facing ``f`` lies in sector
  ``rel = (d - f) mod 6``: 0 front, 1 and 5 front sides, 2 and 4 rear sides, 3 rear; the
  "4 side sectors" are rel 1, 2, 4, 5 (I.7.1).
- **Incoming direction of a hit** (I.17.5): a hit travelling along direction ``s`` arrives from
  direction ``s + 3``, so ``rel = (s + 3 - f_target) mod 6``; splash comes from the direction of
  the exploding cell; a terrain explosion under the robot has no direction (``NO_SECTOR``).
- **Line of fire** (I.9.3, I.17.6): the cells ``p + k*D[f]``, k = 1, 2, ... while the cell belongs
  to the field (every cell laid at setup, empty or not); the edge is the first position outside.
  A direct shot stops at the first robot or interference terrain, which may itself be the target
  (I.9.4); an arc shot and a beam reach the whole line; melee only its first cell.
- **Movement paths** (I.7.3, I.17.7): forward N is ``p + k*D[f]``, k = 1..N; side-forward
  (diagonal-forward) N is ``p + k*D[f +- 1]``; a jump N only lands on ``p + N*D[f]``.
- **Sweep cells** (I.9.4, I.17.8): ``p + D[f]``, ``p + D[f + 1]``, ``p + D[f - 1]``.
- **Edge cell** (I.17.9): a field cell with fewer than 6 neighbours inside the field
  (``is_edge`` in ``arena_layouts.csv``).
- **Armour arcs** (I.10.4): ``front`` covers rel 0, ``side`` any of the 4 side sectors,
  ``all`` any of the 6; a hit with no direction is covered by none.

Fields are given to the kernels as a *cell lookup*: a dense ``int64`` array indexed by offset
coordinates ``[q - q_min, r - r_min]`` holding each field cell's index (its position in the list
the lookup was built from) or ``-1``, together with ``bounds = [q_min, r_min, q_max, r_max]``
(``build_cell_lookup``). Functions that list cells write them into a caller-provided ``out``
array of shape ``(n, 2)`` and return how many they wrote, so the game kernels allocate nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.jit import kernel

# ---------------------------------------------------------------------------- constants

#: Number of hex directions / facings (NOTES I.17.2).
N_DIRECTIONS = 6

#: ``DIRECTIONS[i] = (dq, dr)``, in the notes' facing order (NOTES I.17.2).
DIRECTIONS = np.array([[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]], dtype=np.int64)

#: Rotation senses for ``rotate`` (NOTES I.17.3; "clockwise" = decreasing index, examples.toml notation).
COUNTERCLOCKWISE = 1
CLOCKWISE = -1

#: Sector kinds (NOTES I.17.4), returned by ``sector_kind``.
SECTOR_FRONT = 0
SECTOR_FRONT_SIDE = 1
SECTOR_REAR_SIDE = 2
SECTOR_REAR = 3
#: A hit with no direction (a terrain explosion under the robot, NOTES I.17.5 / II.6), or a cell
#: that lies on none of the six straight lines from the robot.
NO_SECTOR = -1
SECTOR_NAMES = ("front", "front-side", "rear-side", "rear")

#: Relative sectors (rel = (d - f) mod 6) by name (NOTES I.17.4).
REL_FRONT = 0
REL_REAR = 3

#: Armour arcs (``armour_arc`` of tiles.csv, NOTES I.10.4), for ``arc_covers``.
ARC_FRONT = 0
ARC_SIDE = 1
ARC_ALL = 2
ARC_NAMES = ("front", "side", "all")

#: Bounds layout: ``bounds = [q_min, r_min, q_max, r_max]``.
B_QMIN = 0
B_RMIN = 1
B_QMAX = 2
B_RMAX = 3

# ---------------------------------------------------------------------------- directions


@njit(cache=True, inline="always")
def direction_dq(direction):
    """The q step of ``direction`` (0..5, NOTES I.17.2)."""
    return DIRECTIONS[direction % 6, 0]


@njit(cache=True, inline="always")
def direction_dr(direction):
    """The r step of ``direction`` (0..5, NOTES I.17.2)."""
    return DIRECTIONS[direction % 6, 1]


@njit(cache=True, inline="always")
def rotate(facing, steps):
    """The facing after turning ``steps`` sectors: ``(facing + steps) mod 6`` (NOTES I.17.3).

    Positive ``steps`` = ``COUNTERCLOCKWISE`` (increasing index), negative = ``CLOCKWISE``.
    """
    return (facing + steps) % 6


@njit(cache=True, inline="always")
def opposite(direction):
    """The opposite direction, ``direction + 3 (mod 6)`` (NOTES I.17.5)."""
    return (direction + 3) % 6


@njit(cache=True, inline="always")
def step(q, r, direction, k):
    """The cell ``(q, r) + k * D[direction]`` (NOTES I.17.7: forward / side-forward paths, jump landing)."""
    d = direction % 6
    return q + k * DIRECTIONS[d, 0], r + k * DIRECTIONS[d, 1]


@njit(cache=True, inline="always")
def neighbour(q, r, facing):
    """The neighbour ``(q, r) + D[facing]`` (NOTES I.17.2)."""
    d = facing % 6
    return q + DIRECTIONS[d, 0], r + DIRECTIONS[d, 1]


@njit(cache=True, inline="always")
def distance(q0, r0, q1, r1):
    """Hex distance: ``(|dq| + |dr| + |ds|) / 2`` with ``s = -q - r`` (NOTES I.17.1)."""
    dq = q1 - q0
    dr = r1 - r0
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True, inline="always")
def diagonal_forward_direction(facing, sense):
    """The side-forward (diagonal-forward) direction ``facing + sense`` (NOTES I.7.3, I.17.7).

    ``sense`` is ``COUNTERCLOCKWISE`` (+1) or ``CLOCKWISE`` (-1); under the examples' drawing
    convention clockwise is "right".
    """
    return (facing + sense) % 6


@njit(cache=True, inline="always")
def diagonal_forward(q, r, facing, sense, k):
    """The cell ``k`` tiles along the diagonal-forward direction ``facing + sense`` (NOTES I.17.7)."""
    return step(q, r, (facing + sense) % 6, k)


@kernel
def direction_to(q0, r0, q1, r1):
    """The direction ``d`` with ``(q1, r1) = (q0, r0) + k*D[d]`` for some k >= 1, or -1.

    -1 when the two cells are equal or the second lies on none of the six straight lines from
    the first (NOTES I.17.6: a line of fire only runs along a facing).
    """
    dq = q1 - q0
    dr = r1 - r0
    k = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if k == 0:
        return -1
    for d in range(6):
        if dq == k * DIRECTIONS[d, 0] and dr == k * DIRECTIONS[d, 1]:
            return d
    return -1


@kernel
def nearest_direction(q0, r0, q1, r1):
    """The direction from ``(q0, r0)`` that points closest to ``(q1, r1)``, or -1 for the same cell.

    The largest cube-coordinate dot product wins; a cell exactly between two directions goes to
    the lower index. Equals ``direction_to`` for a cell on one of the six straight lines. A helper
    for players that turn towards a target; no rule uses it.
    """
    dq = q1 - q0
    dr = r1 - r0
    if dq == 0 and dr == 0:
        return -1
    ds = -dq - dr
    best = -1
    best_dot = -(1 << 62)
    for d in range(6):
        ddq = DIRECTIONS[d, 0]
        ddr = DIRECTIONS[d, 1]
        dot = dq * ddq + dr * ddr + ds * (-ddq - ddr)
        if dot > best_dot:
            best_dot = dot
            best = d
    return best


# ---------------------------------------------------------------------------- sectors


@njit(cache=True, inline="always")
def relative_sector(direction, facing):
    """``rel = (direction - facing) mod 6`` of a direction seen from a robot facing ``facing``.

    NOTES I.17.4: 0 front, 1 / 5 front sides, 2 / 4 rear sides, 3 rear. ``direction`` -1 (no
    direction) gives ``NO_SECTOR``.
    """
    if direction < 0:
        return NO_SECTOR
    return (direction - facing) % 6


@njit(cache=True, inline="always")
def hit_sector(travel_direction, target_facing):
    """The relative sector a hit travelling along ``travel_direction`` arrives from (NOTES I.17.5).

    ``rel = (travel + 3 - target_facing) mod 6``; ``travel_direction`` -1 (a terrain explosion under
    the robot) gives ``NO_SECTOR``. For a straight shot the travel direction is the attacker's
    facing; for a sweep's side cells it is ``f +- 1`` (II.39).
    """
    if travel_direction < 0:
        return NO_SECTOR
    return (travel_direction + 3 - target_facing) % 6


@njit(cache=True, inline="always")
def sector_kind(rel):
    """``SECTOR_FRONT`` / ``SECTOR_FRONT_SIDE`` / ``SECTOR_REAR_SIDE`` / ``SECTOR_REAR`` of a relative
    sector 0..5, ``NO_SECTOR`` for -1 (NOTES I.17.4)."""
    if rel < 0:
        return NO_SECTOR
    if rel == 0:
        return SECTOR_FRONT
    if rel == 3:
        return SECTOR_REAR
    if rel == 1 or rel == 5:
        return SECTOR_FRONT_SIDE
    return SECTOR_REAR_SIDE


@njit(cache=True, inline="always")
def is_side_sector(rel):
    """True for the four side sectors, rel 1, 2, 4, 5 (NOTES I.7.1, I.17.4)."""
    return rel == 1 or rel == 2 or rel == 4 or rel == 5


@njit(cache=True, inline="always")
def arc_covers(arc, rel):
    """Whether armour with arc ``ARC_FRONT`` / ``ARC_SIDE`` / ``ARC_ALL`` covers a hit from ``rel``.

    NOTES I.10.4: front = rel 0, side = any of the four side sectors, all = any of the six; a hit
    with no direction (``NO_SECTOR``) is covered by none.
    """
    if rel < 0:
        return False
    if arc == ARC_ALL:
        return True
    if arc == ARC_FRONT:
        return rel == 0
    if arc == ARC_SIDE:
        return rel == 1 or rel == 2 or rel == 4 or rel == 5
    return False


@kernel
def cell_sector(q, r, facing, cq, cr):
    """The relative sector in which cell ``(cq, cr)`` lies, seen from a robot at ``(q, r)`` facing ``facing``.

    ``(direction_to(robot, cell) - facing) mod 6`` (NOTES I.17.4); ``NO_SECTOR`` for the robot's own
    cell or a cell on none of the six straight lines. A hit *from* that cell (splash from an
    exploding neighbour, NOTES I.17.5) arrives from this same sector.
    """
    return relative_sector(direction_to(q, r, cq, cr), facing)


# ---------------------------------------------------------------------------- field lookup


@kernel
def build_cell_lookup(qs, rs):
    """The cell lookup of a field given as arrays of axial ``qs`` and ``rs`` (one entry per cell).

    Returns ``(lookup, bounds)``: ``lookup[q - q_min, r - r_min]`` is the cell's position in
    ``qs`` / ``rs`` or -1, and ``bounds = [q_min, r_min, q_max, r_max]`` (int64). An empty field
    gives a 1x1 lookup holding -1.
    """
    n = qs.shape[0]
    bounds = np.zeros(4, dtype=np.int64)
    if n == 0:
        return np.full((1, 1), -1, dtype=np.int64), bounds
    qmin = qs[0]
    qmax = qs[0]
    rmin = rs[0]
    rmax = rs[0]
    for i in range(1, n):
        qmin = min(qmin, qs[i])
        qmax = max(qmax, qs[i])
        rmin = min(rmin, rs[i])
        rmax = max(rmax, rs[i])
    bounds[B_QMIN] = qmin
    bounds[B_RMIN] = rmin
    bounds[B_QMAX] = qmax
    bounds[B_RMAX] = rmax
    lookup = np.full((qmax - qmin + 1, rmax - rmin + 1), -1, dtype=np.int64)
    for i in range(n):
        lookup[qs[i] - qmin, rs[i] - rmin] = i
    return lookup, bounds


@njit(cache=True, inline="always")
def cell_index(lookup, bounds, q, r):
    """The index of field cell ``(q, r)``, or -1 when it is not part of the field (NOTES I.17.6)."""
    if q < bounds[B_QMIN] or q > bounds[B_QMAX] or r < bounds[B_RMIN] or r > bounds[B_RMAX]:
        return -1
    return lookup[q - bounds[B_QMIN], r - bounds[B_RMIN]]


@njit(cache=True, inline="always")
def in_field(lookup, bounds, q, r):
    """Whether ``(q, r)`` is a field cell (laid at setup, empty or not; NOTES I.17.6)."""
    return cell_index(lookup, bounds, q, r) >= 0


@kernel
def field_neighbour_count(lookup, bounds, q, r):
    """How many of the six neighbours of ``(q, r)`` are field cells (``in_field_neighbours`` of arena_layouts.csv)."""
    n = 0
    for d in range(6):
        if cell_index(lookup, bounds, q + DIRECTIONS[d, 0], r + DIRECTIONS[d, 1]) >= 0:
            n += 1
    return n


@kernel
def is_edge_cell(lookup, bounds, q, r):
    """Whether ``(q, r)`` is an edge cell: a field cell with fewer than 6 field neighbours (NOTES I.17.9)."""
    if cell_index(lookup, bounds, q, r) < 0:
        return False
    return field_neighbour_count(lookup, bounds, q, r) < 6


@kernel
def max_line_length(bounds):
    """An upper bound on the cells of any straight line in the field: the size of ``out`` for ``line_cells``."""
    return max(bounds[B_QMAX] - bounds[B_QMIN], bounds[B_RMAX] - bounds[B_RMIN]) + 1


@kernel
def line_length(lookup, bounds, q, r, direction):
    """How many cells ``p + k*D[direction]``, k = 1, 2, ..., belong to the field before the edge (NOTES I.17.6)."""
    dq = DIRECTIONS[direction % 6, 0]
    dr = DIRECTIONS[direction % 6, 1]
    n = 0
    cq = q + dq
    cr = r + dr
    while cell_index(lookup, bounds, cq, cr) >= 0:
        n += 1
        cq += dq
        cr += dr
    return n


@kernel
def line_cells(lookup, bounds, q, r, direction, out):
    """Write the straight line from ``(q, r)`` along ``direction`` up to the field edge into ``out``.

    The line of fire when ``direction`` is the robot's facing (NOTES I.9.3, I.17.6): cells
    ``p + k*D[direction]`` for k = 1, 2, ... while the cell is in the field. The start cell is not
    included. ``out`` has shape ``(m, 2)`` with ``m >= max_line_length(bounds)``; row ``k - 1``
    gets ``(q, r)`` of the k-th cell. Returns the number of cells written.
    """
    dq = DIRECTIONS[direction % 6, 0]
    dr = DIRECTIONS[direction % 6, 1]
    n = 0
    cq = q + dq
    cr = r + dr
    while n < out.shape[0] and cell_index(lookup, bounds, cq, cr) >= 0:
        out[n, 0] = cq
        out[n, 1] = cr
        n += 1
        cq += dq
        cr += dr
    return n


@kernel
def direct_shot_length(lookup, bounds, blocks, q, r, direction):
    """How many cells of the line along ``direction`` a direct shot can reach (NOTES I.9.4).

    ``blocks[i]`` is true for field cell ``i`` when it holds a robot or interference terrain. The
    shot reaches every cell up to and including the first blocking cell (which may itself be the
    target), and never passes the edge. The reachable cells are the first cells of ``line_cells``.
    """
    dq = DIRECTIONS[direction % 6, 0]
    dr = DIRECTIONS[direction % 6, 1]
    n = 0
    cq = q + dq
    cr = r + dr
    while True:
        i = cell_index(lookup, bounds, cq, cr)
        if i < 0:
            return n
        n += 1
        if blocks[i]:
            return n
        cq += dq
        cr += dr


@kernel
def sweep_cells(q, r, facing, out):
    """Write the three sweep cells into ``out`` (shape ``(>= 3, 2)``): front, front ``f + 1``, front ``f - 1``.

    NOTES I.9.4 / I.17.8: ``p + D[f]``, ``p + D[f + 1]``, ``p + D[f - 1]``; cells may lie outside the
    field (the caller filters with ``in_field``). Returns 3.
    """
    for j in range(3):
        d = facing % 6
        if j == 1:
            d = (facing + 1) % 6
        elif j == 2:
            d = (facing + 5) % 6
        out[j, 0] = q + DIRECTIONS[d, 0]
        out[j, 1] = r + DIRECTIONS[d, 1]
    return 3


# ---------------------------------------------------------------------------- Python conveniences


def cell_lookup(cells):
    """``(lookup, bounds)`` from an iterable of ``(q, r)`` pairs (Python wrapper of ``build_cell_lookup``)."""
    pairs = [(int(q), int(r)) for q, r in cells]
    qs = np.array([p[0] for p in pairs], dtype=np.int64)
    rs = np.array([p[1] for p in pairs], dtype=np.int64)
    return build_cell_lookup(qs, rs)


def line_of_fire(lookup, bounds, q, r, direction):
    """The line from ``(q, r)`` along ``direction`` up to the edge, as a list of ``(q, r)`` (NOTES I.17.6)."""
    out = np.zeros((max_line_length(bounds), 2), dtype=np.int64)
    n = line_cells(lookup, bounds, q, r, direction, out)
    return [(int(out[k, 0]), int(out[k, 1])) for k in range(n)]
