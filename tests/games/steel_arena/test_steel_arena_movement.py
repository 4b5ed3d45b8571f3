"""Steel Arena movement kernels (movement.py): rotations, moves, jumps, collisions, pushes, terrain.

Fixtures are the examples.toml ids named in each docstring; NOTES sections are those of
../shared/research/steel-arena/NOTES.md (I.7 movement, I.12 terrain, II.2-II.5 options).
The kernels are called directly on the state record ``s_arr[0]``.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.games.steel_arena import movement as mv
from simlab.games.steel_arena.codes import (
    CAUSE_MOVE,
    CAUSE_PUSH,
    CAUSE_SHOVE,
    EV_EXPLOSION,
    EV_JUMP_OVER,
    EV_ROTATE,
    EV_STEP,
    EV_STOPPED_SHORT,
    LOG_WIDTH,
    MV_LEFT,
    MV_RIGHT,
    MV_STRAIGHT,
    XC_PASS,
    XC_STOP,
)
from simlab.games.steel_arena.data import (
    MOVE_KINDS,
    T_MOVE_KIND,
    T_MOVE_MAX,
    T_MOVE_MIN,
    T_ROTATE_MAX,
    T_ROTATE_MIN,
)
from simlab.games.steel_arena.positions import fixture_position, tile_id_of
from simlab.games.steel_arena.ruleset import default_ruleset

EXAMPLES = {ex["id"]: ex for ex in tomllib.loads((Path(__file__).parent / "examples.toml").read_text())["example"]}
PLAYERS = {"2p": 2, "3p": 3, "4p": 4}
FILLER = ["G1-A-PUSHKA-M1", "G1-M-SKOROKHOD-M1", "G1-R-OS-M1", "G1-D-FRONT-M1"]


# ---------------------------------------------------------------- helpers


class Pos:
    """A position built from a fixture dict, with the kernel arguments and a fresh log."""

    def __init__(self, fx: dict, options: dict | None = None) -> None:
        rules = default_ruleset(PLAYERS[fx.get("layout", "3p")], options)
        self.rules, self.s_arr = fixture_position(rules, fx)
        self.s = self.s_arr[0]
        (self.tiles, self.pool, self.robots, _setup, self.cells, self.nbr, self.opts) = self.rules.args
        self.log = new_log(256, LOG_WIDTH)

    def cell(self, q: int, r: int) -> int:
        return self.rules.cell_index(q, r)

    def qr(self, seat: int) -> list[int]:
        return list(self.rules.cell_qr(int(self.s["cell"][seat])))

    def module_row(self, seat: int, tile_id: str) -> np.ndarray:
        for k in range(int(self.s["n_mods"][seat])):
            inst = int(self.s["mods"][seat, k])
            if tile_id_of(self.rules, inst) == tile_id:
                return self.tiles[self.pool[inst]]
        raise KeyError(tile_id)

    def move_module(self, seat: int, tile_id: str) -> tuple[int, int, int]:
        row = self.module_row(seat, tile_id)
        return int(row[T_MOVE_KIND]), int(row[T_MOVE_MIN]), int(row[T_MOVE_MAX])

    def move_params(self, seat: int, tile_id: str) -> list[int]:
        kind, lo, hi = self.move_module(seat, tile_id)
        out = np.zeros(64, dtype=np.int32)
        n = mv.move_params(self.s, seat, kind, lo, hi, 0, out, 0, self.tiles, self.pool, self.cells, self.nbr,
                           self.opts)
        return [int(x) for x in out[:n]]

    def reachable(self, seat: int, tile_id: str) -> list[list[int]]:
        kind, lo, hi = self.move_module(seat, tile_id)
        out = np.zeros(24, dtype=np.int32)
        n = mv.reachable_cells(self.s, seat, kind, lo, hi, self.tiles, self.pool, self.cells, self.nbr, self.opts,
                               out)
        return sorted(list(self.rules.cell_qr(int(c))) for c in out[:n])

    def apply_move(self, seat: int, tile_id: str, param: int) -> None:
        kind, _lo, _hi = self.move_module(seat, tile_id)
        mv.apply_move(self.s, seat, kind, param, self.tiles, self.pool, self.robots, self.cells, self.nbr,
                      self.opts, self.log)

    def push(self, seat: int, direction: int, n: int, by: int) -> int:
        return int(mv.push_robot(self.s, seat, direction, n, by, CAUSE_PUSH, self.tiles, self.pool, self.robots,
                                 self.cells, self.nbr, self.opts, self.log))

    def rows(self, kind: int | None = None) -> list[list[int]]:
        n = int(self.log[0, 0])
        rows = [[int(x) for x in self.log[i]] for i in range(1, n + 1)]
        return [r for r in rows if kind is None or r[0] == kind]

    def tile_on(self, q: int, r: int) -> str:
        inst = int(self.s["cell_tile"][self.cell(q, r)])
        return "" if inst < 0 else tile_id_of(self.rules, inst)

    def check_robots(self, expected: list[dict]) -> None:
        for rb in expected:
            seat = int(rb["id"][1:]) - 1
            assert self.qr(seat) == list(rb["pos"]), rb["id"]
            if "facing" in rb:
                assert int(self.s["facing"][seat]) == rb["facing"], rb["id"]


def fixture(fid: str, **changes) -> dict:
    fx = copy.deepcopy(EXAMPLES[fid])
    fx.update(changes)
    return fx


def robot(rid: str, pos: list[int], facing: int, extra: list[str] | None = None) -> dict:
    return {"id": rid, "pos": pos, "facing": facing, "side": "A", "modules": [*FILLER, *(extra or [])]}


def param(variant: int, dist: int) -> int:
    return variant * 8 + dist


# ---------------------------------------------------------------- rotation


def test_rotate_os_m1():
    """rotate-os-m1 (NOTES I.7.2): ОСЬ М1 1-2 offers facings 1, 2, 4, 5; 2 sectors clockwise gives 4."""
    fx = fixture("rotate-os-m1")
    pos = Pos(fx)
    row = pos.module_row(0, "G1-R-OS-M1")
    out = np.zeros(16, dtype=np.int32)
    n = mv.rotate_params(pos.s, 0, int(row[T_ROTATE_MIN]), int(row[T_ROTATE_MAX]), 100, out, 0, pos.opts)
    params = [int(x) - 100 for x in out[:n]]
    facings = set()
    for prm in params:
        trial = Pos(fx)
        mv.apply_rotate(trial.s, 0, prm, trial.log)
        facings.add(int(trial.s["facing"][0]))
    assert len(params) == 4
    assert sorted(facings) == fx["expected"]["legal_facings"]
    mv.apply_rotate(pos.s, 0, 0 * 4 + 2, pos.log)  # sense 0 = clockwise, k = 2
    pos.check_robots(fx["expected"]["robots_after"])
    assert pos.rows(EV_ROTATE) == [[EV_ROTATE, 0, 0, 4, 0, 0] + [0] * 8]


def test_rotate_three_sectors_once_and_up_to():
    """NOTES I.7.2, II.2: a 3-sector turn is offered once; single_value = up_to makes РАЗВОРОТ 3 mean 1..3."""
    fx = fixture("rotate-os-m1")
    out = np.zeros(16, dtype=np.int32)
    exact = Pos(fx)
    n = mv.rotate_params(exact.s, 0, 3, 3, 0, out, 0, exact.opts)
    assert [int(x) for x in out[:n]] == [1 * 4 + 3]
    up_to = Pos(fx, {"single_value": "up_to"})
    n = mv.rotate_params(up_to.s, 0, 3, 3, 0, out, 0, up_to.opts)
    assert sorted(int(x) for x in out[:n]) == sorted([1, 5, 2, 6, 7])
    n = mv.rotate_params(up_to.s, 0, 1, 2, 0, out, 0, up_to.opts)  # a range stays a range
    assert sorted(int(x) for x in out[:n]) == [1, 2, 5, 6]


def test_rotate_appends_after_n_and_respects_capacity():
    """rotate_params appends at n with the base offset and never writes past the buffer."""
    pos = Pos(fixture("rotate-os-m1"))
    out = np.full(5, -7, dtype=np.int32)
    n = mv.rotate_params(pos.s, 0, 1, 3, 1000, out, 2, pos.opts)
    assert n == 5
    assert [int(x) for x in out] == [-7, -7, 1000 + 1, 1000 + 5, 1000 + 2]


def test_whirl():
    """NOTES I.9 (whirl), II.31: whirl turns by signed sectors, EV_ROTATE cause 1 by the attacker."""
    pos = Pos(fixture("rotate-os-m1"))
    mv.whirl_robot(pos.s, 0, -2, 1, pos.log)
    assert int(pos.s["facing"][0]) == 4
    mv.whirl_robot(pos.s, 0, 3, 1, pos.log)
    assert int(pos.s["facing"][0]) == 1
    assert [r[1:6] for r in pos.rows(EV_ROTATE)] == [[0, 0, 4, 1, 1], [0, 4, 1, 1, 1]]


# ---------------------------------------------------------------- movement diagrams


def test_move_diagram_open_field():
    """move-diagram-open-field (NOTES I.7.3, II.2): reachable cells per module; facing unchanged."""
    fx = fixture("move-diagram-open-field")
    pos = Pos(fx)
    for tile_id, cells in fx["expected"]["reachable"].items():
        assert pos.reachable(0, tile_id) == sorted(cells), tile_id
    assert pos.move_params(0, "G2-M-KRAB") == [param(MV_LEFT, 1), param(MV_RIGHT, 1)]
    assert pos.move_params(0, "G2-M-BLOKHA") == [param(MV_STRAIGHT, 2)]
    for tile_id in fx["expected"]["reachable"]:
        kind = pos.move_module(0, tile_id)[0]
        for prm in pos.move_params(0, tile_id):
            target = int(mv.move_target(pos.s, 0, kind, prm, pos.tiles, pos.pool, pos.cells, pos.nbr, pos.opts))
            trial = Pos(fx)
            trial.apply_move(0, tile_id, prm)
            assert trial.s["cell"][0] == target
            assert int(trial.s["facing"][0]) == 0  # facing_unchanged
    assert pos.qr(0) == [-1, 0]  # move_target leaves the state as it was


def test_move_diagram_obstacles():
    """move-diagram-obstacles (NOTES I.7.4, II.3): obstacles cut СКОРОХОД and one КРАБ diagonal; БЛОХА cannot land."""
    fx = fixture("move-diagram-obstacles")
    pos = Pos(fx)
    for tile_id, cells in fx["expected"]["reachable"].items():
        assert pos.reachable(0, tile_id) == sorted(cells), tile_id
    assert pos.move_params(0, "G3-M-KRAB") == [param(MV_RIGHT, 2)]  # direction 1 blocked at [-1, -1]
    assert param(MV_STRAIGHT, 2) not in pos.move_params(0, "G3-M-BLOKHA")  # landing on [0, 0]
    up_to = Pos(fx, {"single_value": "up_to"})
    assert up_to.reachable(0, "G3-M-KRAB") == [[-2, 1], [-2, 2]]  # the fixture's assumed up_to variant


def test_move_diagram_obstacles_stop_short():
    """move-diagram-obstacles under blocked_move = stop_short (II.3): СКОРОХОД 2 stops after 1 tile."""
    fx = fixture("move-diagram-obstacles")
    pos = Pos(fx, {"blocked_move": "stop_short"})
    assert pos.move_params(0, "G1-M-SKOROKHOD-M1") == [param(MV_STRAIGHT, 1), param(MV_STRAIGHT, 2)]
    assert pos.move_params(0, "G3-M-KRAB") == [param(MV_RIGHT, 2)]  # left diagonal: not even one step
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))
    assert pos.qr(0) == [-1, 0]
    obstacle = pos.cell(0, 0)
    assert [r[1:4] for r in pos.rows(EV_STOPPED_SHORT)] == [[0, obstacle, obstacle]]
    assert [r[1:8] for r in pos.rows(EV_STEP)] == [[0, pos.cell(-2, 0), pos.cell(-1, 0), 0, CAUSE_MOVE, 0, 0]]


def test_jump_over_robot():
    """jump-over-robot (NOTES I.7.3, I.7.5): a jump ignores the robot on the way but may not land on one."""
    fx = fixture("jump-over-robot")
    pos = Pos(fx)
    assert pos.move_params(0, "G2-M-BLOKHA") == [param(MV_STRAIGHT, 2)]
    pos.apply_move(0, "G2-M-BLOKHA", param(MV_STRAIGHT, 2))
    pos.check_robots(fx["expected"]["robots_after"])
    assert [r[1:8] for r in pos.rows(EV_STEP)] == [[0, pos.cell(-2, 0), pos.cell(0, 0), 0, CAUSE_MOVE, 0, 1]]
    assert [r[1:3] for r in pos.rows(EV_JUMP_OVER)] == [[0, pos.cell(-1, 0)]]
    variant = copy.deepcopy(fx)
    variant["robots"][1]["pos"] = fx["expected"]["variant"]["P2_pos"]
    blocked = Pos(variant)
    assert (len(blocked.move_params(0, "G2-M-BLOKHA")) > 0) == fx["expected"]["variant"]["blokha_legal"]


def test_jump_over_robot_and_obstacle_and_edge():
    """NOTES I.7.4, I.12.2: a jump passes over a robot and an obstacle, never lands off the field or on an obstacle."""
    fx = fixture("jump-over-robot", field=[{"cell": [0, 0], "tile": "G2-T-METALLOLOM"}])
    fx["robots"][0]["modules"] = [*FILLER, "G3-M-BLOKHA"]  # 2-4
    pos = Pos(fx)
    # [0, 0] obstacle, [2, 0] is the last field cell of the line, [3, 0] would be off the field
    assert pos.move_params(0, "G3-M-BLOKHA") == [param(MV_STRAIGHT, 3), param(MV_STRAIGHT, 4)]
    pos.apply_move(0, "G3-M-BLOKHA", param(MV_STRAIGHT, 4))
    assert pos.qr(0) == [2, 0] and pos.qr(1) == [-1, 0]
    assert [r[2] for r in pos.rows(EV_JUMP_OVER)] == [pos.cell(-1, 0), pos.cell(0, 0), pos.cell(1, 0)]
    assert pos.tile_on(0, 0) == "G2-T-METALLOLOM"


# ---------------------------------------------------------------- collisions


def test_collision_pass_through():
    """collision-pass-through (NOTES I.7.5): one shove per step, so P2 ends one tile beyond P1; no damage."""
    fx = fixture("collision-pass-through")
    pos = Pos(fx)
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))
    pos.check_robots(fx["expected"]["robots_after"])
    assert int(pos.s["pending_dmg"].sum()) == 0 and int(pos.s["pending_heat"].sum()) == 0
    c = pos.cell
    assert [r[1:8] for r in pos.rows(EV_STEP)] == [
        [1, c(-1, 0), c(0, 0), 0, CAUSE_SHOVE, 0, 0],
        [0, c(-2, 0), c(-1, 0), 0, CAUSE_MOVE, 0, 0],
        [1, c(0, 0), c(1, 0), 0, CAUSE_SHOVE, 0, 0],
        [0, c(-1, 0), c(0, 0), 0, CAUSE_MOVE, 0, 0],
    ]


def test_collision_chain():
    """collision-chain (NOTES I.7.5): a shoved robot shoves the next one; facings kept."""
    fx = fixture("collision-chain")
    pos = Pos(fx)
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    pos.check_robots(fx["expected"]["robots_after"])
    assert [r[1] for r in pos.rows(EV_STEP)] == [2, 1, 0]  # furthest first
    assert [r[5] for r in pos.rows(EV_STEP)] == [CAUSE_SHOVE, CAUSE_SHOVE, CAUSE_MOVE]
    assert [r[6] for r in pos.rows(EV_STEP)] == [0, 0, 0]


def test_collision_chain_of_three():
    """NOTES I.7.5 (chains; edge): a mover shoves three robots; a move shoving the last one off is illegal."""
    fx = {"layout": "4p", "robots": [robot("P1", [-2, 0], 0, ["G2-M-SKOROKHOD-M2"]), robot("P2", [-1, 0], 1),
                                     robot("P3", [0, 0], 2), robot("P4", [1, 0], 3)]}
    pos = Pos(fx)
    # row r = 0 of the 4p layout runs q = -2..3: P4 can be shoved to [2, 0] and [3, 0], not further
    assert pos.move_params(0, "G2-M-SKOROKHOD-M2") == [param(MV_STRAIGHT, 1), param(MV_STRAIGHT, 2)]
    pos.apply_move(0, "G2-M-SKOROKHOD-M2", param(MV_STRAIGHT, 2))
    assert [pos.qr(p) for p in range(4)] == [[0, 0], [1, 0], [2, 0], [3, 0]]
    assert [int(f) for f in pos.s["facing"]] == [0, 1, 2, 3]
    assert [r[1] for r in pos.rows(EV_STEP)] == [3, 2, 1, 0, 3, 2, 1, 0]
    stop = Pos(fx, {"blocked_move": "stop_short"})
    assert stop.move_params(0, "G2-M-SKOROKHOD-M2") == [param(MV_STRAIGHT, d) for d in (1, 2, 3)]
    stop.apply_move(0, "G2-M-SKOROKHOD-M2", param(MV_STRAIGHT, 3))
    assert [stop.qr(p) for p in range(4)] == [[0, 0], [1, 0], [2, 0], [3, 0]]
    assert [r[1:4] for r in stop.rows(EV_STOPPED_SHORT)] == [[0, stop.cell(1, 0), stop.cell(3, 0)]]


def test_collision_side_forward_direction():
    """collision-side-forward-direction (NOTES I.7.5, I.17.7): the shove follows the diagonal, not the facing."""
    fx = fixture("collision-side-forward-direction")
    pos = Pos(fx)
    assert param(MV_LEFT, 1) in pos.move_params(0, "G2-M-KRAB")
    pos.apply_move(0, "G2-M-KRAB", param(MV_LEFT, 1))  # direction 1 = facing + 1
    pos.check_robots(fx["expected"]["robots_after"])
    assert [r[4] for r in pos.rows(EV_STEP)] == [1, 1]


def test_collision_blocked():
    """collision-blocked (NOTES I.7.5, II.3, II.17): no shove over the edge or into an obstacle, so no legal move."""
    fx = fixture("collision-blocked")
    pos = Pos(fx)
    assert pos.move_params(0, "G1-M-SKOROKHOD-M1") == []  # module_activatable = false
    variant = fx["expected"]["variant_obstacle"]
    vfx = fixture("collision-blocked", field=variant["field"])
    vfx["robots"] = [rb for rb in vfx["robots"] if rb["id"] != "P3"]
    vpos = Pos(vfx)
    assert (len(vpos.move_params(0, "G1-M-SKOROKHOD-M1")) > 0) == variant["legal"]
    # stop_short (the fixture's parenthesis): P1 cannot take a single step and stays on [0, 0]
    stop = Pos(fx, {"blocked_move": "stop_short"})
    assert stop.move_params(0, "G1-M-SKOROKHOD-M1") == []
    stop.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    assert [stop.qr(p) for p in range(3)] == [[0, 0], [1, 0], [2, 0]]
    assert stop.rows(EV_STEP) == []
    assert [r[1:4] for r in stop.rows(EV_STOPPED_SHORT)] == [[0, stop.cell(1, 0), stop.cell(2, 0)]]


def test_collision_no_pickup_by_movement():
    """collision-no-pickup (NOTES I.7.5, I.13.1): moving and shoving pick nothing up; the tile stays on the field."""
    fx = fixture("collision-no-pickup")
    pos = Pos(fx)
    mods_before = pos.s["mods"].copy()
    n_before = pos.s["n_mods"].copy()
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    pos.check_robots(fx["expected"]["robots_after"])
    for cell in fx["expected"]["field_after"]:
        assert pos.tile_on(*cell["cell"]) == cell["tile"]
    assert np.array_equal(pos.s["mods"], mods_before) and np.array_equal(pos.s["n_mods"], n_before)
    assert int(pos.s["n_picks"].sum()) == 0


# ---------------------------------------------------------------- edges and obstacles, every kind


def test_forward_side_forward_jump_at_the_edge():
    """NOTES I.7.4, I.17.6: the edge blocks forward and side-forward steps and jump landings."""
    # [2, -2] is a corner of the 3p hexagon: facing 0 points off the field, and so does the left diagonal
    fx = {"layout": "3p", "robots": [robot("P1", [2, -2], 0, ["G2-M-KRAB", "G2-M-BLOKHA", "G3-M-KRAB"])]}
    pos = Pos(fx)
    assert pos.move_params(0, "G1-M-SKOROKHOD-M1") == []
    assert pos.move_params(0, "G2-M-BLOKHA") == []
    assert pos.move_params(0, "G2-M-KRAB") == [param(MV_RIGHT, 1)]  # direction 1 = (+1, -1) is off the field
    assert pos.reachable(0, "G2-M-KRAB") == [[2, -1]]
    assert pos.reachable(0, "G3-M-KRAB") == [[2, 0]]
    fx["robots"][0]["facing"] = 3  # towards the field: [1, -2], [0, -2]; left diagonal 4 in, right 2 off
    inward = Pos(fx)
    assert inward.reachable(0, "G1-M-SKOROKHOD-M1") == [[0, -2], [1, -2]]
    assert inward.reachable(0, "G2-M-BLOKHA") == [[0, -2]]
    assert inward.move_params(0, "G2-M-KRAB") == [param(MV_LEFT, 1)]


def test_side_forward_near_obstacles_and_up_to():
    """NOTES I.7.3-I.7.4, II.2: КРАБ 2 with an obstacle two cells down one diagonal; up_to offers 1 there."""
    fx = {"layout": "3p", "field": [{"cell": [1, -2], "tile": "G2-T-METALLOLOM"}],
          "robots": [robot("P1", [-1, 0], 0, ["G3-M-KRAB"])]}
    pos = Pos(fx)
    # left diagonal (direction 1): [0, -1], then [1, -2] obstacle; right (direction 5): [-1, 1], [-1, 2]
    assert pos.move_params(0, "G3-M-KRAB") == [param(MV_RIGHT, 2)]
    up_to = Pos(fx, {"single_value": "up_to"})
    assert up_to.move_params(0, "G3-M-KRAB") == [param(MV_LEFT, 1), param(MV_RIGHT, 1), param(MV_RIGHT, 2)]
    assert up_to.reachable(0, "G3-M-KRAB") == [[-1, 1], [-1, 2], [0, -1]]
    stop = Pos(fx, {"blocked_move": "stop_short"})
    assert stop.move_params(0, "G3-M-KRAB") == [param(MV_LEFT, 2), param(MV_RIGHT, 2)]
    stop.apply_move(0, "G3-M-KRAB", param(MV_LEFT, 2))
    assert stop.qr(0) == [0, -1] and int(stop.s["facing"][0]) == 0
    assert [r[1:4] for r in stop.rows(EV_STOPPED_SHORT)] == [[0, stop.cell(1, -2), stop.cell(1, -2)]]


def test_up_to_forward_and_jump():
    """NOTES II.2 single_value = up_to: ШАГОХОД 2 and БЛОХА 2 mean 1..2; exact means 2 only."""
    fx = {"layout": "3p", "robots": [robot("P1", [-2, 0], 0, ["G2-M-SHAGOKHOD", "G2-M-BLOKHA"])]}
    exact = Pos(fx)
    assert exact.move_params(0, "G2-M-SHAGOKHOD") == [param(MV_STRAIGHT, 2)]
    assert exact.move_params(0, "G2-M-BLOKHA") == [param(MV_STRAIGHT, 2)]
    up_to = Pos(fx, {"single_value": "up_to"})
    assert up_to.move_params(0, "G2-M-SHAGOKHOD") == [param(MV_STRAIGHT, 1), param(MV_STRAIGHT, 2)]
    assert up_to.move_params(0, "G2-M-BLOKHA") == [param(MV_STRAIGHT, 1), param(MV_STRAIGHT, 2)]


def test_shove_into_obstacle_makes_move_illegal_and_side_shove():
    """NOTES I.7.5: a robot cannot be shoved into an obstacle, along a diagonal too."""
    fx = {"layout": "3p", "field": [{"cell": [1, -2], "tile": "G2-T-METALLOLOM"}],
          "robots": [robot("P1", [-1, 0], 0, ["G2-M-LOVKACH"]), robot("P2", [0, -1], 3)]}
    pos = Pos(fx)
    # left diagonal: P2 on [0, -1] would be shoved onto the obstacle; right diagonal free for 1 and 2
    assert pos.move_params(0, "G2-M-LOVKACH") == [param(MV_RIGHT, 1), param(MV_RIGHT, 2)]
    fx["field"] = []
    free = Pos(fx)
    assert free.move_params(0, "G2-M-LOVKACH") == [param(MV_LEFT, 1), param(MV_RIGHT, 1), param(MV_RIGHT, 2)]
    free.apply_move(0, "G2-M-LOVKACH", param(MV_LEFT, 1))
    assert free.qr(0) == [0, -1] and free.qr(1) == [1, -2]


# ---------------------------------------------------------------- pushes


def test_attack_push_chain_limited():
    """attack-push-chain-limited (NOTES I.9 push, I.7.5, II.18): push 2 moves P2 and shoves P3; 3 stops after 2."""
    fx = fixture("attack-push-chain-limited")
    pos = Pos(fx)
    assert pos.push(1, 0, 2, 0) == 2
    pos.check_robots(fx["expected"]["robots_after"])
    c = pos.cell
    assert [r[1:8] for r in pos.rows(EV_STEP)] == [
        [1, c(-1, 0), c(0, 0), 0, CAUSE_PUSH, 0, 0],
        [2, c(1, 0), c(2, 0), 0, CAUSE_SHOVE, 0, 0],
        [1, c(0, 0), c(1, 0), 0, CAUSE_PUSH, 0, 0],
    ]
    assert int(pos.s["pending_dmg"].sum()) == 0  # pushes never damage directly (VI.6)
    legal = []
    for n in range(4):
        trial = Pos(fx)
        legal.append(trial.push(1, 0, n, 0))
    assert sorted(set(legal)) == fx["expected"]["legal_push_values"]
    assert legal[3] == 2  # the third tile would shove P3 off the edge: the push stops, it does not fail


def test_push_into_obstacle_stops():
    """NOTES I.7.5, VI.6: a push stops at an obstacle; a push of a robot at the edge towards the edge does nothing.
    Each push that stops short leaves its own ``stopped_short`` row (NOTES "What a trace must carry", item 7):
    the refused step's cell (-1: the edge) and the blocking cell."""
    fx = {"layout": "3p", "field": [{"cell": [1, 0], "tile": "G2-T-METALLOLOM"}],
          "robots": [robot("P1", [-2, 0], 0), robot("P2", [-1, 0], 1), robot("P3", [2, -2], 4)]}
    pos = Pos(fx)
    assert pos.push(1, 0, 3, 0) == 1
    assert pos.qr(1) == [0, 0]
    c = pos.cell
    assert [r[1:4] for r in pos.rows(EV_STOPPED_SHORT)] == [[1, c(1, 0), c(1, 0)]]
    assert pos.push(2, 1, 2, 0) == 0  # P3 on the corner [2, -2] pushed off the field
    assert pos.qr(2) == [2, -2]
    assert [r[1:4] for r in pos.rows(EV_STOPPED_SHORT)][1:] == [[2, -1, c(2, -2)]]
    assert pos.push(1, 0, 0, 0) == 0
    assert len(pos.rows(EV_STOPPED_SHORT)) == 2  # a push of 0 is no push


# ---------------------------------------------------------------- terrain


def explosions(pos: Pos) -> list[tuple[str, list[int], int]]:
    return [(tile_id_of(pos.rules, r[1]), list(pos.rules.cell_qr(r[2])), r[3]) for r in pos.rows(EV_EXPLOSION)]


def test_terrain_explosive_stop_and_chain():
    """terrain-explosive-stop-and-chain (NOTES I.12.2, II.27): stopping on ЛОВУШКА sets it off; СЮРПРИЗ chains."""
    fx = fixture("terrain-explosive-stop-and-chain")
    pos = Pos(fx)
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    ex = fx["expected"]
    pos.check_robots(ex["robots_after"])
    found = explosions(pos)
    assert [f"{t} at [{q}, {r}]" for t, (q, r), _ in found] == ex["explosions"]
    assert found[0][2] == XC_STOP
    assert [int(pos.s["pending_dmg"][p]) for p in range(2)] == [ex["damage"]["P1"], ex["damage"]["P2"]]
    for cell in ex["field_after"]:
        assert pos.tile_on(*cell["cell"]) == cell["tile"]
    box = {tile_id_of(pos.rules, int(i)) for i in pos.s["box"][: int(pos.s["box_n"])]}
    assert set(ex["to_box"]) <= box


def test_terrain_explosive_pass_and_jump():
    """terrain-explosive-pass-and-jump (NOTES I.12.2, II.4): passing ЛОВУШКА sets it off; a jump over it does not."""
    fx = fixture("terrain-explosive-pass-and-jump")
    ex = fx["expected"]
    pos = Pos(fx)
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))
    pos.check_robots(ex["robots_after"])
    assert [(t, c, cause) for t, c, cause in explosions(pos)] == [("G2-T-LOVUSHKA", [-1, 0], XC_PASS)]
    assert int(pos.s["pending_dmg"][0]) == ex["damage"]["P1"]
    assert pos.tile_on(-1, 0) == ""
    jump = Pos(fx)
    var = ex["variant_jump"]
    jump.apply_move(0, var["activate"], param(MV_STRAIGHT, var["distance"]))
    assert jump.qr(0) == var["pos"]
    assert int(jump.s["pending_dmg"].sum()) == 0 and explosions(jump) == []
    assert (jump.tile_on(-1, 0) == "G2-T-LOVUSHKA") == var["lovushka_stays"]


def test_jump_triggers_option():
    """NOTES II.4 alternative jump_triggers_crossed_terrain: the jump sets off ЛОВУШКА in passing, jumper in the air."""
    fx = fixture("terrain-explosive-pass-and-jump")
    pos = Pos(fx, {"jump_triggers_crossed_terrain": True})
    pos.apply_move(0, "G2-M-BLOKHA", param(MV_STRAIGHT, 2))
    assert pos.qr(0) == [0, 0]
    assert [(t, c, cause) for t, c, cause in explosions(pos)] == [("G2-T-LOVUSHKA", [-1, 0], XC_PASS)]
    assert int(pos.s["pending_dmg"][0]) == 0


def test_jump_landing_on_explosive_is_a_stop():
    """NOTES II.4: a jump's landing cell counts as stopping there."""
    fx = fixture("terrain-explosive-pass-and-jump", field=[{"cell": [0, 0], "tile": "G2-T-LOVUSHKA"}])
    pos = Pos(fx)
    pos.apply_move(0, "G2-M-BLOKHA", param(MV_STRAIGHT, 2))
    assert [(t, c, cause) for t, c, cause in explosions(pos)] == [("G2-T-LOVUSHKA", [0, 0], XC_STOP)]
    assert int(pos.s["pending_dmg"][0]) == 2  # ЛОВУШКА's big number


def test_shoved_robot_sets_off_explosives():
    """NOTES I.7.5, I.12.2: a shoved robot passing or stopping on explosives sets them off (credited to the mover)."""
    fx = {"layout": "3p", "field": [{"cell": [0, 0], "tile": "G2-T-LOVUSHKA"}],
          "robots": [robot("P1", [-2, 0], 0), robot("P2", [-1, 0], 2)]}
    stop = Pos(fx)
    stop.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))  # P2 shoved onto [0, 0] and stays
    assert stop.qr(1) == [0, 0]
    assert [(t, c, cause) for t, c, cause in explosions(stop)] == [("G2-T-LOVUSHKA", [0, 0], XC_STOP)]
    assert [r[4] for r in stop.rows(EV_EXPLOSION)] == [0]
    passing = Pos(fx)
    passing.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))  # P2 shoved over [0, 0] to [1, 0]
    assert passing.qr(1) == [1, 0]
    assert [(t, c, cause) for t, c, cause in explosions(passing)] == [("G2-T-LOVUSHKA", [0, 0], XC_PASS)]
    pushed = Pos(fx)
    assert pushed.push(1, 0, 1, 2) == 1  # pushed by P3's attack onto the trap
    assert [r[3:5] for r in pushed.rows(EV_EXPLOSION)] == [[XC_STOP, 2]]


def test_terrain_water():
    """terrain-water (NOTES I.12.2, II.5): stopping on water owes one cooling; the water stays."""
    fx = fixture("terrain-water")
    pos = Pos(fx)
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    pos.check_robots(fx["expected"]["robots_after"])
    assert int(pos.s["pending_water"][0]) == 1
    assert pos.tile_on(-1, 0) == "G2-T-VODA"  # water_stays
    assert int(pos.s["heat"][0].sum()) == 2  # the cooling itself is the rules driver's (PH_WATER)


def test_water_pass_stop_and_enter_option():
    """NOTES II.5: passing water cools nothing by default; water_trigger = enter cools on entering; pushes too."""
    fx = fixture("terrain-water")
    passing = Pos(fx)
    passing.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))
    assert int(passing.s["pending_water"][0]) == 0
    enter = Pos(fx, {"water_trigger": "enter"})
    enter.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))
    assert int(enter.s["pending_water"][0]) == 1
    enter_stop = Pos(fx, {"water_trigger": "enter"})
    enter_stop.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    assert int(enter_stop.s["pending_water"][0]) == 1  # entering and stopping is one cooling
    shoved = {"layout": "3p", "field": [{"cell": [0, 0], "tile": "G2-T-VODA"}],
              "robots": [robot("P1", [-2, 0], 0), robot("P2", [-1, 0], 2)]}
    pos = Pos(shoved)
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 1))
    assert [int(x) for x in pos.s["pending_water"][:2]] == [0, 1]
    pushed = Pos(shoved)
    assert pushed.push(1, 0, 1, 0) == 1
    assert int(pushed.s["pending_water"][1]) == 1
    jump = Pos({"layout": "3p", "field": [{"cell": [0, 0], "tile": "G2-T-VODA"}],
                "robots": [robot("P1", [-2, 0], 0, ["G2-M-BLOKHA"])]})
    jump.apply_move(0, "G2-M-BLOKHA", param(MV_STRAIGHT, 2))
    assert int(jump.s["pending_water"][0]) == 1


@pytest.mark.parametrize("kind", MOVE_KINDS)
def test_robot_off_field_has_no_moves(kind):
    """Robots without a cell are not on the field (state.py): no move parameters."""
    pos = Pos({"layout": "3p", "robots": [{"id": "P1", "modules": FILLER}, robot("P2", [0, 0], 0)]})
    out = np.zeros(8, dtype=np.int32)
    n = mv.move_params(pos.s, 0, MOVE_KINDS.index(kind), 1, 2, 0, out, 0, pos.tiles, pos.pool, pos.cells, pos.nbr,
                       pos.opts)
    assert n == 0


def test_stop_short_on_explosive_is_a_stop_and_push_passes():
    """NOTES II.3 stop_short, I.12.2: a move cut short on ЛОВУШКА stops there; a push over it passes it."""
    fx = {"layout": "3p",
          "field": [{"cell": [-1, 0], "tile": "G2-T-LOVUSHKA"}, {"cell": [0, 0], "tile": "G2-T-METALLOLOM"}],
          "robots": [robot("P1", [-2, 0], 0)]}
    pos = Pos(fx, {"blocked_move": "stop_short"})
    pos.apply_move(0, "G1-M-SKOROKHOD-M1", param(MV_STRAIGHT, 2))
    assert pos.qr(0) == [-1, 0]
    assert [(t, c, cause) for t, c, cause in explosions(pos)] == [("G2-T-LOVUSHKA", [-1, 0], XC_STOP)]
    assert int(pos.s["pending_dmg"][0]) == 2
    rows = pos.rows()
    kinds = [r[0] for r in rows]
    assert kinds.index(EV_STEP) < kinds.index(EV_EXPLOSION)  # the explosion follows the step onto the tile
    pushed = Pos({"layout": "3p", "field": [{"cell": [0, 0], "tile": "G2-T-LOVUSHKA"}],
                  "robots": [robot("P1", [-2, 0], 0), robot("P2", [-1, 0], 2)]})
    assert pushed.push(1, 0, 2, 0) == 2
    assert pushed.qr(1) == [1, 0]
    assert [(t, c, cause) for t, c, cause in explosions(pushed)] == [("G2-T-LOVUSHKA", [0, 0], XC_PASS)]
    assert int(pushed.s["pending_dmg"][1]) == 2  # on the tile when it went off: the big number
