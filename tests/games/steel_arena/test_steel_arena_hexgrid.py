"""Steel Arena hex geometry (``simlab/games/steel_arena/hexgrid.py``) against the research notes.

NOTES.md I.17 defines the convention; the fixtures cited by id come from
``shared/research/steel-arena/examples.toml`` (only their pure-geometry parts are checked here:
cells, lines, sectors, facings; the rules that act on them belong to the game kernels).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simlab.games.steel_arena import hexgrid as hg

# The three recommended fields of arena_layouts.csv: (q, r, is_edge), NOTES I.17.10.
LAYOUT_2P = [
    (0, -1, True),
    (1, -1, True),
    (2, -1, True),
    (-1, 0, True),
    (0, 0, False),
    (1, 0, False),
    (2, 0, True),
    (-1, 1, True),
    (0, 1, False),
    (1, 1, True),
    (-1, 2, True),
    (0, 2, True),
]
LAYOUT_3P = [
    (q, r, max(abs(q), abs(r), abs(q + r)) == 2)
    for q in range(-2, 3)
    for r in range(-2, 3)
    if max(abs(q), abs(r), abs(q + r)) <= 2
]
LAYOUT_4P = [
    (0, -2, True),
    (1, -2, True),
    (2, -2, True),
    (3, -2, True),
    (-1, -1, True),
    (0, -1, False),
    (1, -1, False),
    (2, -1, False),
    (3, -1, True),
    (-2, 0, True),
    (-1, 0, False),
    (0, 0, False),
    (1, 0, False),
    (2, 0, False),
    (3, 0, True),
    (-2, 1, True),
    (-1, 1, False),
    (0, 1, False),
    (1, 1, False),
    (2, 1, True),
    (-2, 2, True),
    (-1, 2, True),
    (0, 2, True),
    (1, 2, True),
]
LAYOUTS = {"2p": LAYOUT_2P, "3p": LAYOUT_3P, "4p": LAYOUT_4P}


def lookup_of(layout):
    return hg.cell_lookup([(q, r) for q, r, _ in LAYOUTS[layout]])


coord = st.integers(min_value=-20, max_value=20)
facing = st.integers(min_value=0, max_value=5)


# ---------------------------------------------------------------------------- directions


def test_direction_vectors_in_notes_order():
    """NOTES I.17.2: the table of the six direction vectors, in index order."""
    assert hg.DIRECTIONS.tolist() == [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
    assert hg.N_DIRECTIONS == 6


def test_direction_vectors_sum_to_zero_and_are_unit():
    """The six vectors cancel; each is a unit step; opposite indices are opposite vectors."""
    assert hg.DIRECTIONS.sum(axis=0).tolist() == [0, 0]
    for d in range(6):
        assert hg.distance(0, 0, hg.direction_dq(d), hg.direction_dr(d)) == 1
        assert hg.neighbour(0, 0, d) == tuple(hg.DIRECTIONS[d])
        o = hg.opposite(d)
        assert (hg.DIRECTIONS[d] + hg.DIRECTIONS[o]).tolist() == [0, 0]
        # consecutive indices are 60 degrees apart: D[d] + D[d+2] = D[d+1]
        assert (hg.DIRECTIONS[d] + hg.DIRECTIONS[(d + 2) % 6]).tolist() == hg.DIRECTIONS[(d + 1) % 6].tolist()


@given(coord, coord, facing)
def test_neighbour_is_adjacent_and_direction_to_inverts_it(q, r, f):
    """A neighbour is at distance 1 and lies in direction f; stepping back returns home."""
    nq, nr = hg.neighbour(q, r, f)
    assert hg.distance(q, r, nq, nr) == 1
    assert hg.direction_to(q, r, nq, nr) == f
    assert hg.neighbour(nq, nr, hg.opposite(f)) == (q, r)


@given(coord, coord, facing, st.integers(min_value=1, max_value=10))
def test_step_k_cells(q, r, f, k):
    """NOTES I.17.7: p + k*D[f] is k cells away along direction f."""
    cq, cr = hg.step(q, r, f, k)
    assert hg.distance(q, r, cq, cr) == k
    assert hg.direction_to(q, r, cq, cr) == f
    assert hg.nearest_direction(q, r, cq, cr) == f


def test_direction_to_off_line_and_same_cell():
    """Cells on none of the six lines, and the cell itself, have no direction."""
    assert hg.direction_to(0, 0, 0, 0) == -1
    assert hg.direction_to(0, 0, 2, -1) == -1
    assert hg.direction_to(0, 0, 1, 1) == -1
    assert hg.nearest_direction(0, 0, 0, 0) == -1
    assert hg.nearest_direction(0, 0, 3, -1) == 0
    assert hg.nearest_direction(0, 0, 2, -1) in (0, 1)


# ---------------------------------------------------------------------------- rotation


@given(facing, st.integers(min_value=-20, max_value=20))
def test_rotation_six_steps_is_identity_and_inverse(f, k):
    """NOTES I.17.3: facing + k mod 6; turning 6 sectors either way is no turn; -k undoes k."""
    assert hg.rotate(f, 6) == f
    assert hg.rotate(f, -6) == f
    g = hg.rotate(f, k)
    assert 0 <= g <= 5
    assert g == (f + k) % 6
    assert hg.rotate(g, -k) == f


def test_rotation_sense():
    """NOTES I.17.3 with the examples.toml notation: counter-clockwise increases the index,
    clockwise ("right") decreases it; 3 sectors is a U-turn."""
    assert hg.rotate(0, hg.COUNTERCLOCKWISE) == 1
    assert hg.rotate(0, hg.CLOCKWISE) == 5
    assert hg.rotate(2, 3 * hg.CLOCKWISE) == hg.opposite(2)


def test_example_rotate_os_m1():
    """examples.toml ``rotate-os-m1``: facing 0 turned 2 sectors clockwise faces 4; turning 1-2
    sectors either way reaches facings 1, 2, 4, 5."""
    assert hg.rotate(0, 2 * hg.CLOCKWISE) == 4
    reachable = sorted({hg.rotate(0, k * sense) for k in (1, 2) for sense in (hg.CLOCKWISE, hg.COUNTERCLOCKWISE)})
    assert reachable == [1, 2, 4, 5]


# ---------------------------------------------------------------------------- distance


@given(coord, coord, coord, coord)
def test_distance_symmetric_and_zero_only_on_same_cell(q0, r0, q1, r1):
    """Hex distance is symmetric, non-negative and zero exactly on the same cell."""
    d = hg.distance(q0, r0, q1, r1)
    assert d == hg.distance(q1, r1, q0, r0)
    assert d >= 0
    assert (d == 0) == ((q0, r0) == (q1, r1))


@given(coord, coord, coord, coord, coord, coord)
def test_distance_triangle_inequality(q0, r0, q1, r1, q2, r2):
    """d(a, c) <= d(a, b) + d(b, c)."""
    assert hg.distance(q0, r0, q2, r2) <= hg.distance(q0, r0, q1, r1) + hg.distance(q1, r1, q2, r2)


def test_distance_values():
    """A few hand values: (|dq| + |dr| + |ds|) / 2."""
    assert hg.distance(0, 0, 2, -1) == 2
    assert hg.distance(-2, 0, 2, 0) == 4
    assert hg.distance(0, -2, -2, 2) == 4
    assert hg.distance(1, 1, -1, -1) == 4


# ---------------------------------------------------------------------------- field lookup and edges


@pytest.mark.parametrize("layout", ["2p", "3p", "4p"])
def test_lookup_indexes_every_cell(layout):
    """build_cell_lookup: each listed cell maps to its position, everything else to -1."""
    cells = LAYOUTS[layout]
    lookup, bounds = lookup_of(layout)
    for i, (q, r, _) in enumerate(cells):
        assert hg.cell_index(lookup, bounds, q, r) == i
        assert hg.in_field(lookup, bounds, q, r)
    listed = {(q, r) for q, r, _ in cells}
    for q in range(-5, 6):
        for r in range(-5, 6):
            if (q, r) not in listed:
                assert hg.cell_index(lookup, bounds, q, r) == -1
    assert lookup.shape == (bounds[2] - bounds[0] + 1, bounds[3] - bounds[1] + 1)


def test_empty_field_lookup():
    """An empty field holds no cell."""
    lookup, bounds = hg.cell_lookup([])
    assert not hg.in_field(lookup, bounds, 0, 0)


@pytest.mark.parametrize(("layout", "n_cells", "n_edge"), [("2p", 12, 9), ("3p", 19, 12), ("4p", 24, 14)])
def test_edge_cells_match_arena_layouts(layout, n_cells, n_edge):
    """NOTES I.17.9 / I.17.10: an edge cell has fewer than 6 field neighbours; the ``is_edge``
    flags of arena_layouts.csv and the edge counts 9 / 12 / 14 of the table."""
    lookup, bounds = lookup_of(layout)
    cells = LAYOUTS[layout]
    assert len(cells) == n_cells
    for q, r, edge in cells:
        assert hg.is_edge_cell(lookup, bounds, q, r) == edge, (q, r)
    assert sum(hg.is_edge_cell(lookup, bounds, q, r) for q, r, _ in cells) == n_edge
    assert not hg.is_edge_cell(lookup, bounds, 9, 9)  # not a field cell at all


# ---------------------------------------------------------------------------- lines


def test_line_of_fire_stops_at_edge_of_small_layout():
    """NOTES I.17.6: the line runs while cells belong to the field; it stops at the first gap even
    if field cells lie further on (the edge is the first position outside)."""
    lookup, bounds = hg.cell_lookup([(0, 0), (1, 0), (2, 0), (4, 0), (0, 1)])
    assert hg.line_of_fire(lookup, bounds, 0, 0, 0) == [(1, 0), (2, 0)]
    assert hg.line_length(lookup, bounds, 0, 0, 0) == 2
    assert hg.line_of_fire(lookup, bounds, 0, 0, 5) == [(0, 1)]
    assert hg.line_of_fire(lookup, bounds, 0, 0, 3) == []
    assert hg.line_of_fire(lookup, bounds, 2, 0, 0) == []


@pytest.mark.parametrize("layout", ["2p", "3p", "4p"])
def test_lines_end_next_to_the_edge(layout):
    """Every line from every field cell ends on an edge cell (or is empty from an edge cell),
    and the next position beyond it is outside the field."""
    lookup, bounds = lookup_of(layout)
    for q, r, edge in LAYOUTS[layout]:
        for f in range(6):
            line = hg.line_of_fire(lookup, bounds, q, r, f)
            assert len(line) == hg.line_length(lookup, bounds, q, r, f)
            assert len(line) <= hg.max_line_length(bounds)
            last = line[-1] if line else (q, r)
            assert hg.is_edge_cell(lookup, bounds, *last)
            assert not hg.in_field(lookup, bounds, *hg.neighbour(*last, f))
            assert [hg.step(q, r, f, k) for k in range(1, len(line) + 1)] == line
            if not line:
                assert edge


def test_line_cells_respects_out_capacity():
    """line_cells never writes past ``out``."""
    lookup, bounds = lookup_of("3p")
    out = np.zeros((2, 2), dtype=np.int64)
    assert hg.line_cells(lookup, bounds, -2, 0, 0, out) == 2
    assert out.tolist() == [[-1, 0], [0, 0]]


def test_example_attack_line_direct_arc_beam():
    """examples.toml ``attack-line-direct-arc-beam``: from [-2, 0] facing 0 on 3p the line of fire is
    [-1, 0], [0, 0], [1, 0], [2, 0]; with robots on [0, 0] and [1, 0] a direct shot reaches
    [-1, 0] and [0, 0] (the blocking robot is a target); an arc shot or beam the whole line."""
    lookup, bounds = lookup_of("3p")
    line = hg.line_of_fire(lookup, bounds, -2, 0, 0)
    assert line == [(-1, 0), (0, 0), (1, 0), (2, 0)]
    blocks = np.zeros(len(LAYOUT_3P), dtype=np.bool_)
    for q, r in [(0, 0), (1, 0)]:
        blocks[hg.cell_index(lookup, bounds, q, r)] = True
    n = hg.direct_shot_length(lookup, bounds, blocks, -2, 0, 0)
    assert line[:n] == [(-1, 0), (0, 0)]


def test_example_attack_interference():
    """examples.toml ``attack-interference``: interference terrain on [-1, 0] limits a direct shot
    from [-2, 0] facing 0 to that cell; the line (arc shot, beam) still runs to [2, 0]."""
    lookup, bounds = lookup_of("3p")
    blocks = np.zeros(len(LAYOUT_3P), dtype=np.bool_)
    blocks[hg.cell_index(lookup, bounds, -1, 0)] = True
    blocks[hg.cell_index(lookup, bounds, 0, 0)] = True  # the robot P2 behind it
    line = hg.line_of_fire(lookup, bounds, -2, 0, 0)
    assert line[: hg.direct_shot_length(lookup, bounds, blocks, -2, 0, 0)] == [(-1, 0)]
    assert line == [(-1, 0), (0, 0), (1, 0), (2, 0)]


def test_direct_shot_without_blockers_reaches_the_edge():
    """NOTES I.9.4: with nothing in the way a direct shot reaches the whole line, never beyond."""
    lookup, bounds = lookup_of("4p")
    blocks = np.zeros(len(LAYOUT_4P), dtype=np.bool_)
    for q, r, _ in LAYOUT_4P:
        for f in range(6):
            assert hg.direct_shot_length(lookup, bounds, blocks, q, r, f) == hg.line_length(lookup, bounds, q, r, f)


def test_example_attack_melee_adjacent_only():
    """examples.toml ``attack-melee-adjacent-only``: melee from [-2, 0] facing 0 targets only the first
    cell of the line, [-1, 0]."""
    lookup, bounds = lookup_of("3p")
    assert hg.line_of_fire(lookup, bounds, -2, 0, 0)[:1] == [(-1, 0)]
    assert hg.neighbour(-2, 0, 0) == (-1, 0)


def test_example_attack_sweep():
    """examples.toml ``attack-sweep``: a sweep from [0, 0] facing 0 hits [1, 0], [1, -1], [0, 1]
    (front, f + 1, f - 1); [-1, 0] behind is untouched. The side cells are hit travelling along
    f +- 1 (NOTES I.17.5, II.39): P3 on [1, -1] facing 0 is hit travelling along direction 1, so
    rel = (1 + 3 - 0) mod 6 = 4, a rear side."""
    out = np.zeros((3, 2), dtype=np.int64)
    assert hg.sweep_cells(0, 0, 0, out) == 3
    cells = [tuple(row) for row in out.tolist()]
    assert cells == [(1, 0), (1, -1), (0, 1)]
    assert (-1, 0) not in cells
    assert hg.sector_kind(hg.hit_sector(1, 0)) == hg.SECTOR_REAR_SIDE


# ---------------------------------------------------------------------------- movement geometry


def test_example_move_diagram_open_field():
    """examples.toml ``move-diagram-open-field``: from [-1, 0] facing 0 forward 1-2 reaches [0, 0] and
    [1, 0]; side-forward 1 reaches [0, -1] (f + 1) and [-1, 1] (f - 1); a jump of 2 lands on [1, 0]."""
    assert [hg.step(-1, 0, 0, k) for k in (1, 2)] == [(0, 0), (1, 0)]
    side = {hg.diagonal_forward(-1, 0, 0, sense, 1) for sense in (hg.COUNTERCLOCKWISE, hg.CLOCKWISE)}
    assert side == {(0, -1), (-1, 1)}
    assert hg.diagonal_forward_direction(0, hg.COUNTERCLOCKWISE) == 1
    assert hg.diagonal_forward_direction(0, hg.CLOCKWISE) == 5
    assert hg.step(-1, 0, 0, 2) == (1, 0)


def test_example_move_diagram_obstacles():
    """examples.toml ``move-diagram-obstacles``, geometry part: from [-2, 0] facing 0 on 3p with
    obstacles on [0, 0] and [-1, -1]: forward's path meets the obstacle at its 2nd cell; the f + 1
    diagonal meets one at its 1st; the f - 1 diagonal of length 2 ends on [-2, 2]; jumps of 2, 3,
    4 land on [0, 0] (the obstacle), [1, 0], [2, 0], all inside the field."""
    lookup, bounds = lookup_of("3p")
    obstacles = {(0, 0), (-1, -1)}

    def path(direction, n):
        return [hg.step(-2, 0, direction, k) for k in range(1, n + 1)]

    def clear(cells):
        return all(hg.in_field(lookup, bounds, *c) and c not in obstacles for c in cells)

    assert path(0, 2)[1] in obstacles and clear(path(0, 1))
    assert path(0, 1)[-1] == (-1, 0)
    left = hg.diagonal_forward_direction(0, hg.COUNTERCLOCKWISE)
    right = hg.diagonal_forward_direction(0, hg.CLOCKWISE)
    assert not clear(path(left, 2)) and path(left, 1)[0] == (-1, -1)
    assert clear(path(right, 2)) and path(right, 2)[-1] == (-2, 2)
    landings = [hg.step(-2, 0, 0, k) for k in (2, 3, 4)]
    assert landings == [(0, 0), (1, 0), (2, 0)]
    assert [c for c in landings if clear([c])] == [(1, 0), (2, 0)]


def test_example_jump_over_robot():
    """examples.toml ``jump-over-robot``: a jump of 2 from [-2, 0] facing 0 lands on [0, 0], passing
    [-1, 0]."""
    assert hg.step(-2, 0, 0, 2) == (0, 0)
    assert hg.step(-2, 0, 0, 1) == (-1, 0)


def test_example_collision_side_forward_direction():
    """examples.toml ``collision-side-forward-direction``: a side-forward step from [0, 0] facing 0 in
    direction 1 enters [1, -1]; the robot there is shoved one cell along that direction, to [2, -2]."""
    d = hg.diagonal_forward_direction(0, hg.COUNTERCLOCKWISE)
    assert d == 1
    assert hg.diagonal_forward(0, 0, 0, hg.COUNTERCLOCKWISE, 1) == (1, -1)
    assert hg.neighbour(1, -1, d) == (2, -2)


def test_example_collision_blocked():
    """examples.toml ``collision-blocked``: [2, 0] is an edge cell of 3p and the shove from it along
    facing 0 would leave the field ([3, 0])."""
    lookup, bounds = lookup_of("3p")
    assert hg.is_edge_cell(lookup, bounds, 2, 0)
    assert hg.neighbour(2, 0, 0) == (3, 0)
    assert not hg.in_field(lookup, bounds, 3, 0)
    assert hg.line_of_fire(lookup, bounds, 0, 0, 0) == [(1, 0), (2, 0)]


# ---------------------------------------------------------------------------- sectors


def test_relative_sector_table():
    """NOTES I.17.4: rel 0 front, 1 and 5 front sides, 2 and 4 rear sides, 3 rear; the four side
    sectors are 1, 2, 4, 5."""
    kinds = [hg.sector_kind(rel) for rel in range(6)]
    assert kinds == [
        hg.SECTOR_FRONT,
        hg.SECTOR_FRONT_SIDE,
        hg.SECTOR_REAR_SIDE,
        hg.SECTOR_REAR,
        hg.SECTOR_REAR_SIDE,
        hg.SECTOR_FRONT_SIDE,
    ]
    assert [hg.is_side_sector(rel) for rel in range(6)] == [False, True, True, False, True, True]
    assert hg.sector_kind(hg.NO_SECTOR) == hg.NO_SECTOR
    assert hg.relative_sector(-1, 0) == hg.NO_SECTOR
    assert hg.hit_sector(-1, 0) == hg.NO_SECTOR


@given(coord, coord, facing, st.integers(min_value=1, max_value=5))
def test_cells_around_a_robot(q, r, f, k):
    """A cell straight ahead is front, straight behind is rear, and the cells along f +- 1 / f +- 2
    are front / rear sides; off-line cells have no sector."""
    assert hg.cell_sector(q, r, f, *hg.step(q, r, f, k)) == hg.REL_FRONT
    assert hg.sector_kind(hg.cell_sector(q, r, f, *hg.step(q, r, f + 3, k))) == hg.SECTOR_REAR
    for j in (1, 5):
        assert hg.sector_kind(hg.cell_sector(q, r, f, *hg.step(q, r, f + j, k))) == hg.SECTOR_FRONT_SIDE
    for j in (2, 4):
        assert hg.sector_kind(hg.cell_sector(q, r, f, *hg.step(q, r, f + j, k))) == hg.SECTOR_REAR_SIDE
    assert hg.cell_sector(q, r, f, q, r) == hg.NO_SECTOR


@given(facing, facing)
def test_hit_from_a_cell_matches_the_cell_sector(s, f):
    """NOTES I.17.5: a hit travelling along s arrives from direction s + 3, the sector in which its
    source cell lies (a shot from the cell k steps along s + 3)."""
    target = (0, 0)
    source = hg.step(*target, s + 3, 2)
    assert hg.hit_sector(s, f) == hg.cell_sector(*target, f, *source)
    assert hg.hit_sector(s, f) == hg.relative_sector(hg.opposite(s), f)


def test_facing_the_shooter_is_front_and_back_to_it_is_rear():
    """A robot facing its attacker is hit in the front; turned away, in the rear."""
    assert hg.hit_sector(0, 3) == hg.REL_FRONT
    assert hg.hit_sector(0, 0) == hg.REL_REAR


@pytest.mark.parametrize(
    ("p2_facing", "sector"),
    [(3, hg.SECTOR_FRONT), (2, hg.SECTOR_FRONT_SIDE), (1, hg.SECTOR_REAR_SIDE), (0, hg.SECTOR_REAR)],
)
def test_example_defence_stacking_and_arcs(p2_facing, sector):
    """examples.toml ``defence-stacking-and-arcs``: P1 at [-2, 0] facing 0 shoots P2 at [0, 0]; P2
    facing 3 / 2 / 1 / 0 is hit in the front / front-side / rear-side / rear; front armour covers
    only the first, side armour the middle two, all-round armour all four."""
    assert hg.direction_to(-2, 0, 0, 0) == 0
    rel = hg.hit_sector(0, p2_facing)
    assert hg.sector_kind(rel) == sector
    assert hg.SECTOR_NAMES[sector] == ["front", "front-side", "rear-side", "rear"][3 - p2_facing]
    assert hg.arc_covers(hg.ARC_FRONT, rel) == (sector == hg.SECTOR_FRONT)
    assert hg.arc_covers(hg.ARC_SIDE, rel) == (sector in (hg.SECTOR_FRONT_SIDE, hg.SECTOR_REAR_SIDE))
    assert hg.arc_covers(hg.ARC_ALL, rel)


def test_arcs_cover_nothing_without_direction():
    """NOTES I.17.5 / I.10.4: a hit with no direction (explosion under the robot) meets no armour arc."""
    for arc in (hg.ARC_FRONT, hg.ARC_SIDE, hg.ARC_ALL):
        assert not hg.arc_covers(arc, hg.NO_SECTOR)


def test_example_defence_nezabudka_front():
    """examples.toml ``defence-nezabudka-front``: Karl at [-2, 0] facing 0 shoots Anna at [0, 0]
    facing 3: the hit comes from her front."""
    assert hg.sector_kind(hg.hit_sector(0, 3)) == hg.SECTOR_FRONT
    assert hg.cell_sector(0, 0, 3, -2, 0) == hg.REL_FRONT


def test_example_attack_whirl_exposes_rear():
    """examples.toml ``attack-whirl-exposes-rear``: P2 at [0, 0] facing 3, whirled 3 sectors, faces 0;
    P1's shot along facing 0 then hits its rear; dealt before the whirl, its front."""
    after = hg.rotate(3, 3)
    assert after == 0
    assert hg.rotate(3, -3) == 0
    assert hg.sector_kind(hg.hit_sector(0, after)) == hg.SECTOR_REAR
    assert hg.sector_kind(hg.hit_sector(0, 3)) == hg.SECTOR_FRONT


@settings(max_examples=50)
@given(facing, facing)
def test_splash_from_a_neighbour(d, f):
    """NOTES I.17.5: splash from the exploding neighbour in direction d arrives in sector (d - f) mod 6."""
    assert hg.cell_sector(0, 0, f, *hg.neighbour(0, 0, d)) == (d - f) % 6


def test_helpers_compile_inside_a_kernel():
    """The helpers are usable from another compiled kernel (inlined helpers included)."""
    from numba import njit

    @njit
    def kernel(lookup, bounds, blocks):
        out = np.zeros((hg.max_line_length(bounds), 2), dtype=np.int64)
        total = 0
        for i in range(6):
            q, r = hg.neighbour(0, 0, i)
            f = hg.rotate(i, hg.CLOCKWISE)
            total += hg.line_cells(lookup, bounds, q, r, f, out)
            total += hg.direct_shot_length(lookup, bounds, blocks, q, r, f)
            total += hg.sector_kind(hg.hit_sector(f, i)) + hg.is_edge_cell(lookup, bounds, q, r)
            dq, dr = hg.diagonal_forward(q, r, f, hg.COUNTERCLOCKWISE, 2)
            total += hg.distance(0, 0, dq, dr)
            total += hg.arc_covers(hg.ARC_SIDE, hg.cell_sector(0, 0, f, q, r))
        return total

    lookup, bounds = lookup_of("3p")
    blocks = np.zeros(len(LAYOUT_3P), dtype=np.bool_)
    expected = 0
    for i in range(6):
        q, r = hg.neighbour(0, 0, i)
        f = hg.rotate(i, hg.CLOCKWISE)
        expected += 2 * len(hg.line_of_fire(lookup, bounds, q, r, f))
        expected += hg.sector_kind(hg.hit_sector(f, i)) + hg.is_edge_cell(lookup, bounds, q, r)
        expected += hg.distance(0, 0, *hg.diagonal_forward(q, r, f, hg.COUNTERCLOCKWISE, 2))
        expected += hg.arc_covers(hg.ARC_SIDE, hg.cell_sector(0, 0, f, q, r))
    assert kernel(lookup, bounds, blocks) == expected
