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
from simlab.games.steel_arena import hits
from simlab.games.steel_arena.codes import (
    EV_EXPLOSION,
    EV_HIT,
    EV_REDUCE,
    EV_WATER_DESTROYED,
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
from simlab.games.steel_arena.data import R_ARMOUR_VALUE
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


_ = (np, seat_of)
