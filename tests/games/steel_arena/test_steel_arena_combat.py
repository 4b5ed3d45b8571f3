"""Steel Arena combat kernels (``hits.py``, ``attacks.py``) against the research fixtures.

Positions come from ``tests/games/steel_arena/examples.toml`` (cited by id) through
``positions.fixture_position``; the kernels are called directly on the state record. The
fixtures' ``damage`` is the damage that gets through, i.e. the pending discards
(``s.pending_dmg``): trophies are only paid at E0 by the rules driver, so these tests check the
pending damage (and pending heat) instead of trophies. NOTES sections are cited per test.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.games.steel_arena import attacks, hits
from simlab.games.steel_arena.codes import (
    EV_EXPLOSION,
    EV_HIT,
    EV_PUSH_EFFECT,
    EV_REDUCE,
    EV_WATER_DESTROYED,
    EV_WHIRL_EFFECT,
    HK_PRIMARY,
    LOG_WIDTH,
    OPT_REDUCTION,
    RED_ACTIVE,
    RED_COVER,
    RED_HEAT_FIRST,
    RED_PASSIVE,
    TK_MODULE_TILE,
    TK_ROBOT,
    TK_TERRAIN,
    XC_CHAIN,
    XC_STOP,
)
from simlab.games.steel_arena.data import (
    R_ARMOUR_VALUE,
    T_DAMAGE,
    T_DELIVERY,
    T_HEAT,
    T_PUSH,
    T_SPLASH,
    T_WHIRL,
)
from simlab.games.steel_arena.positions import fixture_position, seat_of, tile_id_of
from simlab.games.steel_arena.ruleset import default_ruleset

EXAMPLES = tomllib.loads((Path(__file__).parent / "examples.toml").read_text(encoding="utf-8"))["example"]
BY_ID = {e["id"]: e for e in EXAMPLES}
RULES = {n: default_ruleset(n) for n in (2, 3, 4)}
LAYOUT_PLAYERS = {"2p": 2, "3p": 3, "4p": 4}


def fixture(fid: str, **changes):
    """A copy of fixture ``fid`` with top-level keys replaced."""
    fx = dict(BY_ID[fid])
    fx.update(changes)
    return fx


def build(fx, robot_changes=None):
    """``(rules, s_arr)`` for fixture dict ``fx``; ``robot_changes``: {id: {key: value}} per robot."""
    if robot_changes:
        robots = []
        for rb in fx["robots"]:
            rb = dict(rb)
            rb.update(robot_changes.get(rb["id"], {}))
            robots.append(rb)
        fx = dict(fx, robots=robots)
    n = LAYOUT_PLAYERS[fx.get("layout", "3p")]
    return fixture_position(RULES[n], fx)


def cell(rules, qr):
    return rules.cell_index(*qr)


def slot_of(rules, s, seat, tile_id):
    mods = [tile_id_of(rules, int(m)) for m in s["mods"][seat, : s["n_mods"][seat]]]
    return mods.index(tile_id)


def rows(log, kind):
    n = int(log[0, 0])
    return [log[i] for i in range(1, n + 1) if log[i, 0] == kind]


def pending(s, n=4):
    return [int(x) for x in s["pending_dmg"][:n]]


def do_hit(rules, s_arr, seat, D, H, from_dir, primary=1, log=None):
    tiles, pool, robots, _setup, cells, _nbr, opts = rules.args
    log = new_log(64, LOG_WIDTH) if log is None else log
    hits.hit_robot(s_arr[0], seat, D, H, from_dir, 0, HK_PRIMARY, primary, tiles, pool, robots, cells, opts, log)
    return log


def box_ids(rules, s):
    return [tile_id_of(rules, int(i)) for i in s["box"][: s["box_n"]]]


# ---------------------------------------------------------------- hits.py


def test_robot_at():
    """``robot_at``: the placed robot on a cell, -1 elsewhere (fixture attack-line-direct-arc-beam)."""
    rules, s_arr = build(BY_ID["attack-line-direct-arc-beam"])
    s = s_arr[0]
    assert hits.robot_at(s, cell(rules, [0, 0])) == 1
    assert hits.robot_at(s, cell(rules, [1, 0])) == 2
    assert hits.robot_at(s, cell(rules, [-1, 0])) == -1
    s["destroyed"][1] = 1
    assert hits.robot_at(s, cell(rules, [0, 0])) == -1


@pytest.mark.parametrize("facing,rel,used,damage", [
    (3, 0, ["G1-D-FRONT-M1", "G2-D-KOLCHUGA"], 1),
    (2, 1, ["G2-D-BORT", "G2-D-KOLCHUGA"], 1),
    (1, 2, ["G2-D-BORT", "G2-D-KOLCHUGA"], 1),
    (0, 3, ["G2-D-KOLCHUGA"], 2),
    (4, 5, ["G2-D-BORT", "G2-D-KOLCHUGA"], 1),
    (5, 4, ["G2-D-BORT", "G2-D-KOLCHUGA"], 1),
])
def test_defence_stacking_and_arcs(facing, rel, used, damage):
    """defence-stacking-and-arcs (NOTES I.10.2, I.10.4, I.17.4): НЕЗАБУДКА 3 from direction 3; front,
    side and all-round armour cover their sectors and add up (rel 4 and 5 added by symmetry)."""
    rules, s_arr = build(BY_ID["defence-stacking-and-arcs"], {"P2": {"facing": facing}})
    s = s_arr[0]
    log = do_hit(rules, s_arr, 1, 3, 0, 3)
    assert int(s["pending_dmg"][1]) == damage
    got = sorted(tile_id_of(rules, int(s["mods"][1, m])) for m in range(s["n_mods"][1]) if s["def_used"][1, m])
    assert got == sorted(used)
    for tid in used:
        assert s["revealed"][1, slot_of(rules, s, 1, tid)] == 1
    (hit,) = rows(log, EV_HIT)
    assert list(hit[1:13]) == [0, HK_PRIMARY, TK_ROBOT, cell(rules, [0, 0]), 1, 3, 0, 3, rel, damage, 0, damage]
    assert len(rows(log, EV_REDUCE)) == len(used)


@pytest.mark.parametrize("arc_tile,covered", [
    ("G1-D-FRONT-M1", {0}),
    ("G2-D-BORT", {1, 2, 4, 5}),
    ("G2-D-KOLCHUGA", {0, 1, 2, 3, 4, 5}),
])
def test_every_arc_against_every_sector(arc_tile, covered):
    """Each armour arc against each relative sector and a directionless hit (NOTES I.10.4, II.6)."""
    fx = fixture("defence-nezabudka-front")
    for rel in range(6):
        rules, s_arr = build(fx, {"P2": {"facing": 0, "modules": ["G1-A-PUSHKA-M1", arc_tile]}})
        s = s_arr[0]
        do_hit(rules, s_arr, 1, 2, 0, rel)  # facing 0: from_dir = rel
        assert int(s["pending_dmg"][1]) == (1 if rel in covered else 2), (arc_tile, rel)
        assert s["def_used"][1, 1] == (rel in covered)
    rules, s_arr = build(fx, {"P2": {"facing": 0, "modules": ["G1-A-PUSHKA-M1", arc_tile]}})
    do_hit(rules, s_arr, 1, 2, 0, -1)
    assert int(s_arr[0]["pending_dmg"][1]) == (1 if arc_tile == "G2-D-KOLCHUGA" else 2)


def test_passive_once_per_turn():
    """defence-nezabudka-after-speed-attack (NOTES I.10.3): ФРОНТ М1 is spent on the first hit (2 -> 1);
    the second hit (3) gets through in full: 4 in all."""
    rules, s_arr = build(BY_ID["defence-nezabudka-after-speed-attack"])
    s = s_arr[0]
    do_hit(rules, s_arr, 1, 2, 0, 3)
    assert int(s["pending_dmg"][1]) == 1
    do_hit(rules, s_arr, 1, 3, 0, 3)
    assert int(s["pending_dmg"][1]) == 4
    assert int(s["st_hits"][0]) == 2 and int(s["st_damage"][0]) == 4


def test_module_used_only_when_it_contributes():
    """A hit with nothing left to reduce uses no module (NOTES I.10.6 step 3: only if D + H > 0)."""
    rules, s_arr = build(BY_ID["defence-nezabudka-front"])
    s = s_arr[0]
    log = do_hit(rules, s_arr, 1, 0, 0, 3)
    assert s["def_used"][1].sum() == 0 and len(rows(log, EV_REDUCE)) == 0
    assert int(s["pending_dmg"][1]) == 0


def test_cover_unlimited():
    """defence-cover (NOTES I.10.5): cover takes 1 off every hit, any direction, any number of times:
    2 -> 1, 3 -> 2, and even a directionless hit; the cover stays."""
    rules, s_arr = build(BY_ID["defence-cover"])
    s = s_arr[0]
    do_hit(rules, s_arr, 1, 2, 0, 3)
    log = do_hit(rules, s_arr, 1, 3, 0, 3)
    assert int(s["pending_dmg"][1]) == 3
    (red,) = rows(log, EV_REDUCE)
    assert red[2] == -1 and red[4] == 1 and red[5] == RED_COVER
    do_hit(rules, s_arr, 1, 1, 0, -1)
    assert int(s["pending_dmg"][1]) == 3
    assert tile_id_of(rules, int(s["cell_tile"][cell(rules, [0, 0])])) == "G2-T-UKRYTIE"


def test_zont_activation():
    """defence-zont-in-opponent-turn (NOTES I.10.1, II.26): ЗОНТ (all-round 2) is activated on the
    incoming rear hit, gets a token: 3 -> 1. With a token already on it, it cannot: 3."""
    rules, s_arr = build(BY_ID["defence-zont-in-opponent-turn"])
    s = s_arr[0]
    tokens = int(s["tokens"])
    log = do_hit(rules, s_arr, 1, 3, 0, 3)
    z = slot_of(rules, s, 1, "G2-D-ZONT")
    assert int(s["pending_dmg"][1]) == 1
    assert s["heat"][1, z] == 1 and s["def_used"][1, z] == 1 and s["revealed"][1, z] == 1
    assert int(s["tokens"]) == tokens + 1
    (red,) = rows(log, EV_REDUCE)
    assert list(red[1:6]) == [1, z, int(s["mods"][1, z]), 2, RED_ACTIVE]
    assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 0  # rear hit: front armour idle
    rules, s_arr = build(BY_ID["defence-zont-in-opponent-turn"], {"P2": {"overheated": ["G2-D-ZONT"]}})
    do_hit(rules, s_arr, 1, 3, 0, 3)
    assert int(s_arr[0]["pending_dmg"][1]) == 3


def test_zont_after_passive_armour():
    """ЗОНТ is only activated when passive armour and cover leave something (brief; NOTES II.26):
    a 1-damage hit on the front is taken by ФРОНТ М1 alone; the next one wakes ЗОНТ."""
    rules, s_arr = build(BY_ID["defence-zont-in-opponent-turn"], {"P2": {"facing": 3}})
    s = s_arr[0]
    z = slot_of(rules, s, 1, "G2-D-ZONT")
    do_hit(rules, s_arr, 1, 1, 0, 3)
    assert int(s["pending_dmg"][1]) == 0 and s["heat"][1, z] == 0
    do_hit(rules, s_arr, 1, 3, 0, 3)
    assert int(s["pending_dmg"][1]) == 1 and s["heat"][1, z] == 1


def test_passive_overheated_option():
    """II.11: an overheated passive module keeps working by default; with the option off it does not."""
    fx = BY_ID["defence-nezabudka-front"]
    rules, s_arr = build(fx, {"P2": {"overheated": ["G1-D-FRONT-M1"]}})
    do_hit(rules, s_arr, 1, 3, 0, 3)
    assert int(s_arr[0]["pending_dmg"][1]) == 2
    r2 = default_ruleset(3, {"passive_works_when_overheated": False})
    r2, s_arr = fixture_position(r2, dict(fx, robots=[fx["robots"][0], dict(fx["robots"][1],
                                                                               overheated=["G1-D-FRONT-M1"])]))
    do_hit(r2, s_arr, 1, 3, 0, 3)
    assert int(s_arr[0]["pending_dmg"][1]) == 3


def test_heat_primary_only_and_reduction_order():
    """attack-heat-front-armour (NOTES I.10.6, II.8, II.20): armour comes off damage first, then heat;
    heat counts only for a primary target (a splash-like hit with heat uses no armour for it)."""
    fx = BY_ID["defence-nezabudka-front"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    do_hit(rules, s_arr, 1, 1, 2, 3)  # front armour 1 takes the damage
    assert int(s["pending_dmg"][1]) == 0 and int(s["pending_heat"][1]) == 2
    r2 = default_ruleset(3, {"reduction_priority": "heat_first"})
    assert r2.opts[OPT_REDUCTION] == RED_HEAT_FIRST
    r2, s_arr = fixture_position(r2, fx)
    do_hit(r2, s_arr, 1, 1, 2, 3)
    assert int(s_arr[0]["pending_dmg"][1]) == 1 and int(s_arr[0]["pending_heat"][1]) == 1
    rules, s_arr = build(fx)
    do_hit(rules, s_arr, 1, 0, 3, 3, primary=0)
    assert int(s_arr[0]["pending_heat"][1]) == 0 and s_arr[0]["def_used"][1].sum() == 0


def test_central_armour_side_b():
    """The central module's armour on side B (robots.csv: all-round 1) works once per turn (NOTES I.10.6
    step 3, II.33)."""
    rules, s_arr = build(BY_ID["attack-heat-f451"])
    s = s_arr[0]
    assert rules.robots[1, 1, R_ARMOUR_VALUE] == 1
    do_hit(rules, s_arr, 1, 2, 0, 3)
    assert int(s["pending_dmg"][1]) == 1 and s["central_def_used"][1] == 1
    do_hit(rules, s_arr, 1, 2, 0, 3)
    assert int(s["pending_dmg"][1]) == 3


def test_own_losses_not_counted_as_hits():
    """Stats count only hits on other robots (the active seat's hits made / damage dealt)."""
    rules, s_arr = build(BY_ID["attack-explosion"])
    do_hit(rules, s_arr, 0, 2, 0, 3)
    s = s_arr[0]
    assert int(s["pending_dmg"][0]) == 2 and int(s["st_hits"][0]) == 0 and int(s["st_damage"][0]) == 0


def explode_args(rules):
    tiles, pool, robots, _setup, cells, nbr, opts = rules.args
    return tiles, pool, robots, cells, nbr, opts


def test_explosion_stop_and_chain():
    """terrain-explosive-stop-and-chain (NOTES I.12, II.27): P1 stops on ЛОВУШКА (2 under it), the
    adjacent СЮРПРИЗ chains (1 more to P1), P2 next to ЛОВУШКА takes 1; both tiles to the box."""
    fx = BY_ID["terrain-explosive-stop-and-chain"]
    rules, s_arr = build(fx, {"P1": {"pos": [-1, 0]}})  # where SKOROKHOD M1 (1) takes it
    s = s_arr[0]
    log = new_log(64, LOG_WIDTH)
    box0 = int(s["box_n"])
    c = cell(rules, [-1, 0])
    hits.explode(s, c, XC_STOP, 0, *explode_args(rules), log)
    assert pending(s, 3) == [3, 1, 0]
    assert box_ids(rules, s)[box0:] == ["G2-T-LOVUSHKA", "G2-T-SYURPRIZ"]
    assert s["cell_tile"][c] == -1 and s["cell_tile"][cell(rules, [-2, 1])] == -1
    assert s["cell_type"][c] == -1
    ex = rows(log, EV_EXPLOSION)
    assert [(int(r[2]), int(r[3]), int(r[4])) for r in ex] == [(c, XC_STOP, 0), (cell(rules, [-2, 1]), XC_CHAIN, 0)]
    assert int(s["st_explosions"][0]) == 2
    assert s["queued"].sum() == 0


def test_explosion_nothing_there():
    """``explode`` on a cell without explosive terrain does nothing."""
    rules, s_arr = build(BY_ID["terrain-explosive-stop-and-chain"])
    s = s_arr[0]
    log = new_log(8, LOG_WIDTH)
    hits.explode(s, cell(rules, [0, 0]), XC_STOP, 0, *explode_args(rules), log)
    assert int(log[0, 0]) == 0 and pending(s) == [0, 0, 0, 0]


def test_trap_chain_reaction():
    """A chain of three explosives in a row goes off breadth-first; a robot between two of them takes
    the small number from each (NOTES I.12, II.27); cover next to an explosion is hit but stays."""
    fx = fixture("terrain-explosive-stop-and-chain", field=[
        {"cell": [-1, 0], "tile": "G2-T-LOVUSHKA"},
        {"cell": [0, 0], "tile": "G2-T-SYURPRIZ"},
        {"cell": [1, 0], "tile": "G2-T-GORYASHCHEE-TOPLIVO"},
        {"cell": [-1, 1], "tile": "G2-T-UKRYTIE"},
    ])
    rules, s_arr = build(fx, {"P1": {"pos": [-2, 0]}, "P2": {"pos": [1, -1], "facing": 0}})
    s = s_arr[0]
    log = new_log(64, LOG_WIDTH)
    hits.explode(s, cell(rules, [-1, 0]), 0, 0, *explode_args(rules), log)
    # P1 at [-2,0]: next to [-1,0] only -> 1 (front: its FRONT M1 takes it -> 0)
    # P2 at [1,-1]: next to [0,0] and [1,0] -> 1 + 1
    assert pending(s, 2) == [0, 2]
    ex = [int(r[2]) for r in rows(log, EV_EXPLOSION)]
    assert ex == [cell(rules, [-1, 0]), cell(rules, [0, 0]), cell(rules, [1, 0])]
    assert tile_id_of(rules, int(s["cell_tile"][cell(rules, [-1, 1])])) == "G2-T-UKRYTIE"
    terrain_hits = [r for r in rows(log, EV_HIT) if r[3] == TK_TERRAIN]
    assert cell(rules, [-1, 1]) in [int(r[4]) for r in terrain_hits]


def test_hit_cell_water_and_module_tile():
    """attack-heat-terrain / attack-module-tile-and-empty-cell (NOTES I.9.1, I.12): heat destroys water
    (to the box); damage alone does not; a module tile ignores hits."""
    fx = BY_ID["attack-heat-terrain"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    tiles, pool, robots, _setup, cells, nbr, opts = rules.args
    c = cell(rules, [-1, 0])
    log = new_log(16, LOG_WIDTH)
    hits.hit_cell(s, c, 1, 0, 3, 0, HK_PRIMARY, 0, tiles, pool, robots, cells, nbr, opts, log)
    assert tile_id_of(rules, int(s["cell_tile"][c])) == "G2-T-VODA"
    box0 = int(s["box_n"])
    hits.hit_cell(s, c, 1, 3, 3, 0, HK_PRIMARY, 0, tiles, pool, robots, cells, nbr, opts, log)
    assert s["cell_tile"][c] == -1 and box_ids(rules, s)[box0:] == ["G2-T-VODA"]
    assert len(rows(log, EV_WATER_DESTROYED)) == 1
    rules, s_arr = build(BY_ID["attack-module-tile-and-empty-cell"])
    s = s_arr[0]
    tiles, pool, robots, _setup, cells, nbr, opts = rules.args
    c = cell(rules, [0, 0])
    log = new_log(16, LOG_WIDTH)
    hits.hit_cell(s, c, 4, 4, 3, 0, HK_PRIMARY, 0, tiles, pool, robots, cells, nbr, opts, log)
    assert tile_id_of(rules, int(s["cell_tile"][c])) == "G2-A-MORTIRA"
    (hit,) = rows(log, EV_HIT)
    assert hit[3] == TK_MODULE_TILE and hit[10] == 0


def test_explosion_under_robot_only_all_round():
    """attack-push-into-burning-fuel (NOTES II.6): the big number under a robot has no direction; only
    all-round armour and cover reduce it (ФРОНТ М1 does not; КОЛЬЧУГА does)."""
    fx = BY_ID["attack-push-into-burning-fuel"]
    rules, s_arr = build(fx, {"P2": {"pos": [0, 0], "modules": ["G1-D-FRONT-M1", "G2-D-KOLCHUGA"]}})
    s = s_arr[0]
    hits.explode(s, cell(rules, [0, 0]), XC_STOP, 0, *explode_args(rules), new_log(16, LOG_WIDTH))
    assert int(s["pending_dmg"][1]) == 2
    assert s["def_used"][1, 0] == 0 and s["def_used"][1, 1] == 1


def test_reduce_log_passive():
    """EV_REDUCE rows (seat, slot, instance, amount, kind) precede the EV_HIT row (codes.py)."""
    rules, s_arr = build(BY_ID["defence-nezabudka-front"])
    s = s_arr[0]
    log = do_hit(rules, s_arr, 1, 3, 0, 3)
    assert [int(log[i, 0]) for i in range(1, int(log[0, 0]) + 1)] == [EV_REDUCE, EV_HIT]
    f = slot_of(rules, s, 1, "G1-D-FRONT-M1")
    assert list(log[1, 1:6]) == [1, f, int(s["mods"][1, f]), 1, RED_PASSIVE]



# ---------------------------------------------------------------- attacks.py

BASE = 100000  # an arbitrary action base: the params come back as BASE + param


def decode(param):
    """``(t, which, e, order)`` of an attack param (codes.py docstring)."""
    return param >> 5, (param >> 4) & 1, (param >> 1) & 7, param & 1


def module_values(rules, inst):
    row = rules.tiles[rules.pool[inst]]
    return (int(row[T_DELIVERY]), int(row[T_DAMAGE]), int(row[T_SPLASH]), int(row[T_PUSH]), int(row[T_WHIRL]),
            int(row[T_HEAT]))


def params(rules, s_arr, seat, tile_id):
    """The legal params of robot ``seat``'s module ``tile_id`` as (t, which, e, order) tuples."""
    tiles, pool, _robots, _setup, cells, nbr, opts = rules.args
    s = s_arr[0]
    inst = int(s["mods"][seat, slot_of(rules, s, seat, tile_id)])
    out = np.zeros(512, dtype=np.int64)
    n = attacks.attack_params(s, seat, *module_values(rules, inst), BASE, out, 0, tiles, pool, cells, nbr, opts)
    return [decode(int(a) - BASE) for a in out[:n]]


def target_cells(rules, s_arr, seat, tile_id):
    """The (q, r) of every cell the module can target (robot or cell), in line order."""
    s = s_arr[0]
    line = np.zeros(16, dtype=np.int64)
    n = attacks.line_of_fire(s, seat, rules.nbr, line)
    ts = sorted({t for t, _w, _e, _o in params(rules, s_arr, seat, tile_id)})
    assert all(t < n for t in ts)
    return [list(rules.cell_qr(int(line[t]))) for t in ts]


def fire(rules, s_arr, seat, tile_id, param=0, log=None):
    """Robot ``seat`` attacks with its module ``tile_id`` and ``param``; returns the log."""
    tiles, pool, robots, _setup, cells, nbr, opts = rules.args
    s = s_arr[0]
    inst = int(s["mods"][seat, slot_of(rules, s, seat, tile_id)])
    log = new_log(128, LOG_WIDTH) if log is None else log
    attacks.apply_attack(s, seat, inst, *module_values(rules, inst), param, tiles, pool, robots, cells, nbr, opts,
                         log)
    return log


def robot_param(rules, s_arr, seat, target_seat, e=0, order=0):
    """The param aiming at robot ``target_seat`` on ``seat``'s line of fire."""
    s = s_arr[0]
    line = np.zeros(16, dtype=np.int64)
    n = attacks.line_of_fire(s, seat, rules.nbr, line)
    t = [int(c) for c in line[:n]].index(int(s["cell"][target_seat]))
    return attacks.attack_param(t, 0, e, order)


def cell_param(rules, s_arr, seat, qr):
    s = s_arr[0]
    line = np.zeros(16, dtype=np.int64)
    n = attacks.line_of_fire(s, seat, rules.nbr, line)
    t = [int(c) for c in line[:n]].index(cell(rules, qr))
    return attacks.attack_param(t, 1, 0, 0)


def expected_damage(fx_damage, n=4):
    d = [0] * n
    for rid, v in fx_damage.items():
        d[seat_of(rid)] = v
    return d


def test_line_direct_arc_beam():
    """attack-line-direct-arc-beam (NOTES I.9.3, I.9.4, I.17.6): the line of fire; a direct shot stops at
    the first robot (P3 behind it cannot be picked), an arc shot reaches every cell; the beam hits P2 and P3."""
    fx = BY_ID["attack-line-direct-arc-beam"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    line = np.zeros(16, dtype=np.int64)
    n = attacks.line_of_fire(s, 0, rules.nbr, line)
    assert [list(rules.cell_qr(int(c))) for c in line[:n]] == ex["line_of_fire"]
    for tid, cells_ in ex["legal_target_cells"].items():
        assert target_cells(rules, s_arr, 0, tid) == cells_, tid
    # the blocking robot itself: robot or cell; the cells before it: cell only
    assert params(rules, s_arr, 0, "G1-A-PUSHKA-M1") == [(0, 1, 0, 0), (1, 0, 0, 0), (1, 1, 0, 0)]
    log = fire(rules, s_arr, 0, "G2-A-LAZER")
    assert pending(s, 3) == expected_damage(ex["beam_damage"], 3)
    # outward along the line: robot then cell, cell by cell (II.21, II.27)
    order = [(int(r[3]), int(r[4])) for r in rows(log, EV_HIT)]
    line_cells = [int(c) for c in line[:n]]
    assert [c for _k, c in order] == [line_cells[0], line_cells[1], line_cells[1], line_cells[2], line_cells[2],
                                     line_cells[3]]
    assert int(s["st_hits"][0]) == 2 and int(s["st_damage"][0]) == 2


def test_shot_blocked_and_arc_over():
    """A direct shot cannot reach P3 behind P2 (NOTES I.9.4), an arc shot can: МОРТИРА (2) on P3 leaves
    P2 untouched."""
    rules, s_arr = build(BY_ID["attack-line-direct-arc-beam"])
    s = s_arr[0]
    t_p3 = robot_param(rules, s_arr, 0, 2)
    assert decode(t_p3) not in params(rules, s_arr, 0, "G1-A-PUSHKA-M1")
    assert decode(t_p3) in params(rules, s_arr, 0, "G2-A-MORTIRA")
    fire(rules, s_arr, 0, "G2-A-MORTIRA", t_p3)
    assert pending(s, 3) == [0, 0, 2]


def test_interference():
    """attack-interference (NOTES I.9.4, I.12.2): МЕТАЛЛОЛОМ stops the direct shot (and is its only
    target), not the arc shot; the beam reaches P2 beyond it."""
    fx = BY_ID["attack-interference"]
    rules, s_arr = build(fx)
    for tid, cells_ in fx["expected"]["legal_target_cells"].items():
        assert target_cells(rules, s_arr, 0, tid) == cells_, tid
    assert params(rules, s_arr, 0, "G1-A-PUSHKA-M1") == [(0, 1, 0, 0)]
    fire(rules, s_arr, 0, "G2-A-LAZER")
    assert pending(s_arr[0], 2) == [0, 1]
    assert tile_id_of(rules, int(s_arr[0]["cell_tile"][cell(rules, [-1, 0])])) == "G2-T-METALLOLOM"


def test_melee_adjacent_only():
    """attack-melee-adjacent-only (NOTES I.9.4, II.17): КУВАЛДА reaches the empty adjacent cell only
    (no damage); variant: P2 adjacent takes 4."""
    fx = BY_ID["attack-melee-adjacent-only"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    assert target_cells(rules, s_arr, 0, "G3-A-KUVALDA") == ex["legal_target_cells"]
    assert params(rules, s_arr, 0, "G3-A-KUVALDA") == [(0, 1, 0, 0)]
    log = fire(rules, s_arr, 0, "G3-A-KUVALDA", params_code(0, 1))
    assert pending(s_arr[0], 2) == [0, 0]
    assert rows(log, EV_HIT)[0][3] == 3  # TK_EMPTY
    rules, s_arr = build(fx, {"P2": {"pos": ex["variant"]["P2_pos"]}})
    assert params(rules, s_arr, 0, "G3-A-KUVALDA") == [(0, 0, 0, 0), (0, 1, 0, 0)]
    fire(rules, s_arr, 0, "G3-A-KUVALDA", params_code(0, 0))
    assert pending(s_arr[0], 2) == expected_damage(ex["variant"]["damage"], 2)


def params_code(t, which, e=0, order=0):
    return attacks.attack_param(t, which, e, order)


@pytest.mark.parametrize("facing_option", ["from_attacker_cell", "attacker_facing"])
def test_sweep(facing_option):
    """attack-sweep (NOTES I.9.4, I.17.8, II.32, II.39): ТОПОР hits [1,0], [1,-1], [0,1]: P2 and P3 take
    2, P4 behind is untouched. The side cell [1,-1] is hit from the attacker's cell (rel 4 for P3 facing
    0), or with attacker_facing from the front cell's direction (rel 3)."""
    fx = BY_ID["attack-sweep"]
    ex = fx["expected"]
    rules = fixture_position(default_ruleset(4, {"sweep_side_hit_direction": facing_option}), fx)
    rules, s_arr = rules
    assert params(rules, s_arr, 0, "G2-A-TOPOR") == [(0, 0, 0, 0)]
    log = fire(rules, s_arr, 0, "G2-A-TOPOR")
    assert pending(s_arr[0]) == expected_damage(ex["damage"])
    hit_cells = []
    for r in rows(log, EV_HIT):
        if list(rules.cell_qr(int(r[4]))) not in hit_cells:
            hit_cells.append(list(rules.cell_qr(int(r[4]))))
    assert hit_cells == ex["hit_cells"]
    p3 = next(r for r in rows(log, EV_HIT) if r[3] == TK_ROBOT and r[5] == 2)
    assert int(p3[9]) == (4 if facing_option == "from_attacker_cell" else 3)


def test_explosion_splash():
    """attack-explosion (NOTES I.9.5, I.17.5): РАКЕТА (3, splash 1) on P2; P3 next to P2 takes 1 from the
    direction of P2's cell (rel 4 for P3 facing 0). (The one-shot РАКЕТА going to the box is the rules
    driver's.)"""
    fx = BY_ID["attack-explosion"]
    rules, s_arr = build(fx)
    log = fire(rules, s_arr, 0, "G3-A-RAKETA", robot_param(rules, s_arr, 0, 1))
    assert pending(s_arr[0], 3) == expected_damage(fx["expected"]["damage"], 3)
    kinds = [(int(r[2]), int(r[5]), int(r[9])) for r in rows(log, EV_HIT) if r[3] == TK_ROBOT]
    assert kinds == [(HK_PRIMARY, 1, 3), (3, 2, 4)]  # HK_SPLASH = 3


@pytest.mark.parametrize("option,expected_p1", [(True, 1), (False, 0)])
def test_splash_hits_attacker(option, expected_p1):
    """II.19: splash hits an adjacent attacker (its own pending damage; E0 sends it to the box), unless
    splash_hits_attacker is off. P1 (no front armour) shoots РАКЕТА at the adjacent P2."""
    fx = BY_ID["attack-explosion"]
    r = default_ruleset(3, {"splash_hits_attacker": option})
    robots = [dict(fx["robots"][0], modules=["G1-A-PUSHKA-M1", "G3-A-RAKETA"]),
              dict(fx["robots"][1], pos=[-1, 0]), fx["robots"][2]]
    rules, s_arr = fixture_position(r, dict(fx, robots=robots))
    fire(rules, s_arr, 0, "G3-A-RAKETA", robot_param(rules, s_arr, 0, 1))
    assert pending(s_arr[0], 3) == [expected_p1, 3, 0]
    assert int(s_arr[0]["st_damage"][0]) == 3  # own losses are no damage dealt


def test_push_chain_limited():
    """attack-push-chain-limited (NOTES I.9.5, I.7.5, II.18): ТАРАН push 3 can only push 2 here (P3 would
    leave the field): legal 0, 1, 2. Push 2 first, then damage: P2 at [1,0], P3 shoved to [2,0]; P2
    takes 2."""
    fx = BY_ID["attack-push-chain-limited"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    ps = params(rules, s_arr, 0, "G3-A-TARAN")
    assert sorted({e for _t, _w, e, _o in ps}) == ex["legal_push_values"]
    assert all(w == 0 and t == 0 for t, w, _e, _o in ps)  # push needs the robot target
    assert (0, 0, 0, 1) not in ps and (0, 0, 2, 1) in ps and (0, 0, 2, 0) in ps
    log = fire(rules, s_arr, 0, "G3-A-TARAN", params_code(0, 0, 2, 1))
    for rb in ex["robots_after"]:
        p = seat_of(rb["id"])
        assert list(rules.cell_qr(int(s["cell"][p]))) == rb["pos"] and s["facing"][p] == rb["facing"]
    assert pending(s, 3) == expected_damage(ex["damage"], 3)
    (pe,) = rows(log, EV_PUSH_EFFECT)
    assert list(pe[1:4]) == [1, 2, 2]
    assert int(s["st_pushes"][0]) == 1
    # the hit comes after the push: logged on P2's new cell
    (hit,) = [r for r in rows(log, EV_HIT) if r[3] == TK_ROBOT]
    assert hit[4] == cell(rules, [1, 0])


def test_push_min_option():
    """II.18 push_whirl_min = 1: no zero push or whirl."""
    fx = BY_ID["attack-push-chain-limited"]
    rules, s_arr = fixture_position(default_ruleset(3, {"push_whirl_min": 1}), fx)
    assert sorted({e for _t, _w, e, _o in params(rules, s_arr, 0, "G3-A-TARAN")}) == [1, 2]


def test_push_into_burning_fuel():
    """attack-push-into-burning-fuel (NOTES I.7.5, I.12, II.6): ПНЕВМОМОЛОТ pushes P2 one cell onto the
    fuel first (3, no direction), then hits it (2): 5 pending; the fuel goes to the box."""
    fx = BY_ID["attack-push-into-burning-fuel"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    box0 = int(s["box_n"])
    fire(rules, s_arr, 0, "G2-A-PNEVMOMOLOT", params_code(0, 0, 1, 1))
    for rb in ex["robots_after"]:
        p = seat_of(rb["id"])
        assert list(rules.cell_qr(int(s["cell"][p]))) == rb["pos"] and s["facing"][p] == rb["facing"]
    assert pending(s, 2) == expected_damage(ex["damage"], 2)
    assert box_ids(rules, s)[box0:] == ex["to_box"]
    assert s["cell_tile"][cell(rules, [0, 0])] == -1


def test_push_after_damage():
    """Damage first, then the push (order 0): P2 is hit on its cell, then pushed onto the fuel (2 + 3)."""
    fx = BY_ID["attack-push-into-burning-fuel"]
    rules, s_arr = build(fx)
    log = fire(rules, s_arr, 0, "G2-A-PNEVMOMOLOT", params_code(0, 0, 1, 0))
    s = s_arr[0]
    assert pending(s, 2) == [0, 5]
    robot_hits = [r for r in rows(log, EV_HIT) if r[3] == TK_ROBOT]
    assert [int(r[4]) for r in robot_hits] == [cell(rules, [-1, 0]), cell(rules, [0, 0])]


def test_whirl_exposes_rear():
    """attack-whirl-exposes-rear (NOTES I.9.5, I.10.6 steps 1 and 7, II.31): СМЕРЧ whirl 3 first turns P2
    to facing 0, the hit comes from the rear: 1 damage, ФРОНТ М1 unused. Variant damage first: front,
    0 damage, ФРОНТ М1 used, facing 0 after."""
    fx = BY_ID["attack-whirl-exposes-rear"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    ps = params(rules, s_arr, 0, "G3-A-SMERCH")
    assert sorted({e for _t, w, e, _o in ps if w == 0}) == [0, 1, 2, 3, 4, 5, 6]
    assert all(w == 0 for _t, w, _e, _o in ps)
    for e in (3, 6):  # 3 counter-clockwise or 3 clockwise
        rules, s_arr = build(fx)
        s = s_arr[0]
        log = fire(rules, s_arr, 0, "G3-A-SMERCH", robot_param(rules, s_arr, 0, 1, e, 1))
        assert s["facing"][1] == ex["robots_after"][0]["facing"]
        assert pending(s, 2) == expected_damage(ex["damage"], 2)
        assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 0
        (hit,) = rows(log, EV_HIT)
        assert hit[9] == 3  # rear
    rules, s_arr = build(fx)
    s = s_arr[0]
    fire(rules, s_arr, 0, "G3-A-SMERCH", robot_param(rules, s_arr, 0, 1, 3, 0))
    v = ex["variant_damage_first"]
    assert pending(s, 2) == expected_damage(v["damage"], 2)
    assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 1
    assert s["facing"][1] == v["facing_after"]


def test_heat_f451():
    """attack-heat-f451 (NOTES I.9.5, I.10.3, I.10.6 step 3, II.20), as written: ЛАЗЕР М2 (beam 1, speed)
    spends P2's side-B central armour (0 damage), so F451 brings all 6 heat; F451 alone: the central armour
    takes 1 of the 6 (variant_f451_alone)."""
    fx = BY_ID["attack-heat-f451"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G3-A-LAZER-M2")
    (hit,) = [r for r in rows(log, EV_HIT) if r[3] == TK_ROBOT]
    assert int(hit[10]) == ex["per_hit_damage"][0] and s["central_def_used"][1] == ex["central_armour_used_on_hit"]
    fire(rules, s_arr, 0, "G3-A-F451", robot_param(rules, s_arr, 0, 1))
    assert int(s["pending_heat"][1]) == ex["heat_after_armour"] and int(s["pending_dmg"][1]) == 0
    v = ex["variant_f451_alone"]
    rules, s_arr = build(fx)
    fire(rules, s_arr, 0, "G3-A-F451", robot_param(rules, s_arr, 0, 1))
    assert int(s_arr[0]["pending_heat"][1]) == v["heat_after_armour"] and int(s_arr[0]["pending_dmg"][1]) == 0


def test_heat_front_armour():
    """attack-heat-front-armour (NOTES I.10.6 steps 3-4, II.8), as written: ФРОНТ М1 (front 1) and the side-B
    central armour (all-round 1) both cover the front hit: 6 - 2 = 4 heat, both used."""
    fx = BY_ID["attack-heat-front-armour"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G3-A-F451", robot_param(rules, s_arr, 0, 1))
    assert int(s["pending_heat"][1]) == ex["heat_after_armour"] and int(s["pending_dmg"][1]) == 0
    assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 1 and s["central_def_used"][1] == 1
    hit = rows(log, EV_HIT)[0]
    assert int(hit[9]) == 0  # rel 0 = front
    got = {("CENTRAL" if int(r[2]) == 13 else tile_id_of(rules, int(r[3]))): int(r[4]) for r in rows(log, EV_REDUCE)}
    assert got == ex["absorbed"]


def test_heat_terrain_water():
    """attack-heat-terrain (NOTES I.9.5, I.12, II.20): ОГНЕМЁТ (1, heat 3) on the water cell destroys the
    water (to the box, cell empty); nobody takes damage."""
    fx = BY_ID["attack-heat-terrain"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    box0 = int(s["box_n"])
    c = cell(rules, [-1, 0])
    log = fire(rules, s_arr, 0, "G2-A-OGNEMYOT", cell_param(rules, s_arr, 0, [-1, 0]))
    assert s["cell_tile"][c] == -1 and box_ids(rules, s)[box0:] == fx["expected"]["to_box"]
    assert pending(s) == [0, 0, 0, 0] and list(s["pending_heat"]) == [0, 0, 0, 0]
    assert len(rows(log, EV_WATER_DESTROYED)) == 1


def test_heat_terrain_lovushka():
    """attack-heat-terrain, variant ЛОВУШКА (NOTES I.12.2, I.10.6 step 3, II.19), as written: the trap goes off;
    P1 next to it takes the blast from its front, where ФРОНТ М1 takes it (0); P2 takes 1 from its rear.
    Sub-variant without ФРОНТ М1: P1 takes 1 too, its own pending damage (its own turn: box at E0)."""
    fx = BY_ID["attack-heat-terrain"]
    v = fx["expected"]["variant_lovushka"]
    fxv = fixture("attack-heat-terrain", field=v["field"])
    rules, s_arr = build(fxv)
    s = s_arr[0]
    box0 = int(s["box_n"])
    log = fire(rules, s_arr, 0, "G2-A-OGNEMYOT", cell_param(rules, s_arr, 0, [-1, 0]))
    assert pending(s, 2) == expected_damage(v["damage"], 2)
    assert s["def_used"][0, slot_of(rules, s, 0, "G1-D-FRONT-M1")] == v["absorbed"]["P1"]["G1-D-FRONT-M1"]
    assert box_ids(rules, s)[box0:] == v["to_box"] and s["cell_tile"][cell(rules, [-1, 0])] == -1
    robot_hits = [r for r in rows(log, EV_HIT) if r[3] == TK_ROBOT]
    assert sorted(f"P{int(r[5]) + 1}" for r in robot_hits) == v["robots_hit"]
    sectors = {f"P{int(r[5]) + 1}": int(r[9]) for r in robot_hits}
    assert sectors == {"P1": 0, "P2": 3} and v["incoming_sector"] == {"P1": "front", "P2": "rear"}
    (ex,) = rows(log, EV_EXPLOSION)
    assert ex[3] == 0 and ex[4] == 0  # XC_DAMAGE (1 damage is enough), set off by P1
    w = v["without_front_m1"]
    rules, s_arr = build(fxv, {"P1": {"modules": w["p1_modules"]}})
    fire(rules, s_arr, 0, "G2-A-OGNEMYOT", cell_param(rules, s_arr, 0, [-1, 0]))
    assert pending(s_arr[0], 2) == expected_damage(w["damage"], 2)
    assert int(s_arr[0]["st_damage"][0]) == 1  # only P2's damage counts as dealt


def test_heat_on_robot_target_reaches_its_cell():
    """II.20 heat zone: heat on a robot standing on water destroys the water (the hit cell), the robot
    owes the heat (attack-heat-f451's F451 alone: 6 - 1 side-B central armour = 5)."""
    fx = fixture("attack-heat-f451", field=[{"cell": [0, 0], "tile": "G2-T-VODA"}])
    rules, s_arr = build(fx)
    s = s_arr[0]
    fire(rules, s_arr, 0, "G3-A-F451", robot_param(rules, s_arr, 0, 1))
    assert s["cell_tile"][cell(rules, [0, 0])] == -1
    assert int(s["pending_heat"][1]) == 5


def test_module_tile_and_empty_cell():
    """attack-module-tile-and-empty-cell (NOTES I.9.1, II.17): a module tile and empty cells are legal
    targets; the module tile takes no damage and stays."""
    fx = BY_ID["attack-module-tile-and-empty-cell"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    cells_ = target_cells(rules, s_arr, 0, "G1-A-PUSHKA-M1")
    assert cells_ == [[-1, 0], [0, 0], [1, 0], [2, 0]]
    assert all(c in cells_ for c in fx["expected"]["also_legal_target_cells"])
    log = fire(rules, s_arr, 0, "G1-A-PUSHKA-M1", cell_param(rules, s_arr, 0, [0, 0]))
    for f_ in fx["expected"]["field_after"]:
        assert tile_id_of(rules, int(s["cell_tile"][cell(rules, f_["cell"])])) == f_["tile"]
    (hit,) = rows(log, EV_HIT)
    assert hit[3] == TK_MODULE_TILE


def test_require_cell_in_line():
    """II.17: a robot facing the edge has no attack (require_cell_in_line); with the option off, one
    action that hits nothing, and none for a push module (it needs a robot)."""
    fx = BY_ID["attack-push-chain-limited"]
    rules, s_arr = build(fx, {"P1": {"facing": 3}})
    assert params(rules, s_arr, 0, "G1-A-PUSHKA-M1") == []
    r = default_ruleset(3, {"require_cell_in_line": False})
    robots = [dict(fx["robots"][0], facing=3), *fx["robots"][1:]]
    rules, s_arr = fixture_position(r, dict(fx, robots=robots))
    assert params(rules, s_arr, 0, "G1-A-PUSHKA-M1") == [(0, 1, 0, 0)]
    assert params(rules, s_arr, 0, "G3-A-TARAN") == []
    log = fire(rules, s_arr, 0, "G1-A-PUSHKA-M1", 0)
    assert int(log[0, 0]) == 0


def test_nezabudka_front():
    """defence-nezabudka-front (NOTES I.10.6): НЕЗАБУДКА 3 on Anna facing Karl; ФРОНТ М1 absorbs 1,
    2 pending (trophies for P1 at E0)."""
    fx = BY_ID["defence-nezabudka-front"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G2-A-NEZABUDKA", robot_param(rules, s_arr, 0, 1))
    assert pending(s, 2) == expected_damage(fx["expected"]["damage"], 2)
    f = slot_of(rules, s, 1, "G1-D-FRONT-M1")
    assert s["def_used"][1, f] == 1 and s["revealed"][1, f] == 1
    assert rows(log, EV_HIT)[0][9] == 0  # front
    (red,) = rows(log, EV_REDUCE)
    assert red[4] == fx["expected"]["absorbed"]["G1-D-FRONT-M1"]


def test_nezabudka_after_speed_attack():
    """defence-nezabudka-after-speed-attack (NOTES I.10.3): ПУШКА М2 first (2 -> 1, ФРОНТ М1 spent), then
    НЕЗАБУДКА deals its full 3: 4."""
    fx = BY_ID["defence-nezabudka-after-speed-attack"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    per_hit = []
    for tid in ("G2-A-PUSHKA-M2", "G2-A-NEZABUDKA"):
        before = int(s["pending_dmg"][1])
        fire(rules, s_arr, 0, tid, robot_param(rules, s_arr, 0, 1))
        per_hit.append(int(s["pending_dmg"][1]) - before)
    assert per_hit == fx["expected"]["per_hit_damage"]
    assert pending(s, 2) == expected_damage(fx["expected"]["damage"], 2)


@pytest.mark.parametrize("case", BY_ID["defence-stacking-and-arcs"]["cases"], ids=lambda c: c["incoming_sector"])
def test_stacking_and_arcs_attack(case):
    """defence-stacking-and-arcs through apply_attack (NOTES I.10.2, I.10.4)."""
    rules, s_arr = build(BY_ID["defence-stacking-and-arcs"], {"P2": {"facing": case["p2_facing"]}})
    s = s_arr[0]
    fire(rules, s_arr, 0, "G2-A-NEZABUDKA", robot_param(rules, s_arr, 0, 1))
    assert int(s["pending_dmg"][1]) == case["damage"]
    used = sorted(tile_id_of(rules, int(s["mods"][1, m])) for m in range(s["n_mods"][1]) if s["def_used"][1, m])
    assert used == sorted(case["used"])


def test_zont_attack():
    """defence-zont-in-opponent-turn (NOTES I.10.1, II.26): ЗОНТ activated on НЕЗАБУДКА's rear hit: 1."""
    fx = BY_ID["defence-zont-in-opponent-turn"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    fire(rules, s_arr, 0, "G2-A-NEZABUDKA", robot_param(rules, s_arr, 0, 1))
    assert pending(s, 2) == expected_damage(fx["expected"]["damage"], 2)
    assert s["heat"][1, slot_of(rules, s, 1, "G2-D-ZONT")] == 1


def test_cover_attack():
    """defence-cover (NOTES I.10.5): ПУШКА М2 then НЕЗАБУДКА on P2 on cover: 1 + 2 = 3; cover stays."""
    fx = BY_ID["defence-cover"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    per_hit = []
    for tid in ("G2-A-PUSHKA-M2", "G2-A-NEZABUDKA"):
        before = int(s["pending_dmg"][1])
        fire(rules, s_arr, 0, tid, robot_param(rules, s_arr, 0, 1))
        per_hit.append(int(s["pending_dmg"][1]) - before)
    assert per_hit == fx["expected"]["per_hit_damage"]
    assert tile_id_of(rules, int(s["cell_tile"][cell(rules, [0, 0])])) == "G2-T-UKRYTIE"


def test_explosive_shot():
    """terrain-explosive-shot (NOTES I.12, II.21): МОРТИРА picks the ЛОВУШКА under P2 (not P2): it goes off,
    P2 on it takes 2 (no direction), P3 next to it 1; the trap goes to the box."""
    fx = BY_ID["terrain-explosive-shot"]
    ex = fx["expected"]
    rules, s_arr = build(fx)
    s = s_arr[0]
    box0 = int(s["box_n"])
    ps = params(rules, s_arr, 0, "G2-A-MORTIRA")
    assert (1, 0, 0, 0) in ps and (1, 1, 0, 0) in ps  # robot and terrain on [0, 0]: two targets
    log = fire(rules, s_arr, 0, "G2-A-MORTIRA", cell_param(rules, s_arr, 0, [0, 0]))
    assert pending(s, 3) == expected_damage(ex["damage"], 3)
    assert box_ids(rules, s)[box0:] == ex["to_box"]
    kinds = [(int(r[5]), int(r[8])) for r in rows(log, EV_HIT) if r[3] == TK_ROBOT]
    assert kinds == [(1, -1), (2, 3)]  # P2 directionless; P3 from direction 3 ([0,0] seen from [1,0])
    assert int(s["st_explosions"][0]) == 1


def test_attack_chain_reaction():
    """A shot on a trap next to another explosive: both go off breadth-first after the shot (II.27);
    the robot between them takes the small number twice."""
    fx = fixture("terrain-explosive-shot", field=[{"cell": [0, 0], "tile": "G2-T-LOVUSHKA"},
                                                  {"cell": [2, 0], "tile": "G2-T-SYURPRIZ"}])
    rules, s_arr = build(fx, {"P2": {"pos": [0, 1]}})
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G2-A-MORTIRA", cell_param(rules, s_arr, 0, [0, 0]))
    # [0,0] goes off: P3 at [1,0] takes 1, P2 at [0,1] 1; [2,0] is not adjacent to [0,0]: no chain
    assert pending(s, 3) == [0, 1, 1]
    assert len(rows(log, EV_EXPLOSION)) == 1
    fx = fixture("terrain-explosive-shot", field=[{"cell": [0, 0], "tile": "G2-T-LOVUSHKA"},
                                                  {"cell": [1, 0], "tile": "G2-T-SYURPRIZ"}])
    rules, s_arr = build(fx, {"P2": {"pos": [0, 1]}, "P3": {"pos": [2, -1]}})
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G2-A-MORTIRA", cell_param(rules, s_arr, 0, [0, 0]))
    ex = rows(log, EV_EXPLOSION)
    assert [int(r[2]) for r in ex] == [cell(rules, [0, 0]), cell(rules, [1, 0])]
    assert [int(r[3]) for r in ex] == [0, XC_CHAIN]
    # P2 at [0,1]: next to [0,0] and [1,0] -> 2; P3 at [2,-1]: next to [1,0] -> 1
    assert pending(s, 3) == [0, 2, 1]


def test_heat_alone_sets_off_explosive():
    """NOTES I.12.2 / I.9.5: heat alone (F451: damage 0, heat 6) sets off explosive terrain (cause heat);
    the whirl effect is logged with its signed sectors."""
    fx = fixture("attack-heat-f451", field=[{"cell": [-1, 0], "tile": "G2-T-LOVUSHKA"}])
    rules, s_arr = build(fx)
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G3-A-F451", cell_param(rules, s_arr, 0, [-1, 0]))
    (ex,) = rows(log, EV_EXPLOSION)
    assert ex[3] == 1  # XC_HEAT
    assert s["cell_tile"][cell(rules, [-1, 0])] == -1
    # P1 adjacent (front: ФРОНТ М1 takes it), P2 at [0,0] adjacent from its rear; side B armour takes it
    assert pending(s, 2) == [0, 0] and s["central_def_used"][1] == 1
    rules, s_arr = build(BY_ID["attack-whirl-exposes-rear"])
    log = fire(rules, s_arr, 0, "G3-A-SMERCH", robot_param(rules, s_arr, 0, 1, 5, 0))  # 2 clockwise
    (we,) = rows(log, EV_WHIRL_EFFECT)
    assert list(we[1:3]) == [1, -2] and s_arr[0]["facing"][1] == 1
