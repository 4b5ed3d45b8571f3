"""Steel Arena rules the independent checks caught (issue 21), on hand-made positions citing the rule.

Sweeps need a front cell (NOTES I.9.4, II.17); passive armour is one pool spent on the turn's first
covering hit (I.10.6 step 3, II.7); heat overheats only primary targets and reaches the terrain of
every hit cell (II.20), checked with a tiles.csv data variant that gives beam, sweep and splash
weapons heat; the cell under a robot as a target (II.21, docs/steel_arena.md); and the trace's
``stopped_short``, heat ``cause_seq`` and box contents (NOTES "What a trace must carry", 3, 7, 8).
"""

from __future__ import annotations

import csv

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.games.steel_arena import attacks, hits, render
from simlab.games.steel_arena import rules as sa_rules
from simlab.games.steel_arena.codes import (
    EV_HIT,
    EV_REDUCE,
    EV_WATER_DESTROYED,
    HK_PRIMARY,
    LOG_WIDTH,
    MAX_ACTIONS,
)
from simlab.games.steel_arena.data import (
    DATA_DIR,
    T_DAMAGE,
    T_DELIVERY,
    T_HEAT,
    T_PUSH,
    T_SPLASH,
    T_WHIRL,
    load_data,
)
from simlab.games.steel_arena.positions import fixture_position, tile_id_of
from simlab.games.steel_arena.ruleset import default_ruleset
from simlab.games.steel_arena.state import new_state

BASE = 1 << 20
MODS = ["G1-A-PUSHKA-M1", "G1-M-SKOROKHOD-M1", "G1-R-OS-M1"]


def robot(rid, pos, facing, modules=(), side="A"):
    return {"id": rid, "pos": list(pos), "facing": facing, "side": side, "modules": [*MODS, *modules]}


def position(robots, field=(), options=None, data=None, players=3):
    rules = default_ruleset(players, options, data)
    return fixture_position(rules, {"layout": f"{players}p", "robots": robots, "field": list(field)})


def slot_of(rules, s, seat, tile_id):
    return [tile_id_of(rules, int(m)) for m in s["mods"][seat, : s["n_mods"][seat]]].index(tile_id)


def values(rules, inst):
    row = rules.tiles[int(rules.pool[inst])]
    return tuple(int(row[k]) for k in (T_DELIVERY, T_DAMAGE, T_SPLASH, T_PUSH, T_WHIRL, T_HEAT))


def params(rules, s_arr, seat, tile_id):
    """Legal attack params of ``seat``'s module as (t, which) pairs."""
    tiles, pool, _robots, _setup, cells, nbr, opts = rules.args
    s = s_arr[0]
    inst = int(s["mods"][seat, slot_of(rules, s, seat, tile_id)])
    out = np.zeros(512, dtype=np.int64)
    n = attacks.attack_params(s, seat, *values(rules, inst), BASE, out, 0, tiles, pool, cells, nbr, opts)
    return [((int(a) - BASE) >> 5, ((int(a) - BASE) >> 4) & 1) for a in out[:n]]


def fire(rules, s_arr, seat, tile_id, param=0):
    tiles, pool, robots, _setup, cells, nbr, opts = rules.args
    s = s_arr[0]
    inst = int(s["mods"][seat, slot_of(rules, s, seat, tile_id)])
    log = new_log(256, LOG_WIDTH)
    attacks.apply_attack(s, seat, inst, *values(rules, inst), param, tiles, pool, robots, cells, nbr, opts, log)
    return log


def rows(log, kind):
    return [log[i] for i in range(1, int(log[0, 0]) + 1) if log[i, 0] == kind]


def hit(rules, s_arr, seat, D, H=0, from_dir=3):
    tiles, pool, robots, _setup, cells, _nbr, opts = rules.args
    log = new_log(64, LOG_WIDTH)
    hits.hit_robot(s_arr[0], seat, D, H, from_dir, 0, HK_PRIMARY, 1, tiles, pool, robots, cells, opts, log)
    return log


# ---------------------------------------------------------------- 1. a sweep needs a front cell


@pytest.mark.parametrize("require", [True, False])
def test_sweep_facing_the_edge(require):
    """NOTES I.9.4 (a sweep strikes the target on the adjacent front cell, and the two side cells with it) and
    II.17 (``require_cell_in_line``): P1 on the edge cell [2,-1] faces east, off the field; its front-right cell
    [2,0] holds P2. No sweep is offered; with the option off the one action offered hits nothing."""
    rules, s_arr = position([robot("P1", [2, -1], 0, ["G2-A-TOPOR"]), robot("P2", [2, 0], 0)],
                            options={"require_cell_in_line": require})
    assert rules.nbr[rules.cell_index(2, -1), 0] < 0 and rules.nbr[rules.cell_index(2, -1), 5] >= 0
    ps = params(rules, s_arr, 0, "G2-A-TOPOR")
    assert ps == ([] if require else [(0, 0)])
    if not require:
        log = fire(rules, s_arr, 0, "G2-A-TOPOR")
        assert rows(log, EV_HIT) == [] and int(s_arr[0]["pending_dmg"][1]) == 0
    # facing the field the same sweep is legal and hits P2 on its front-right cell
    rules, s_arr = position([robot("P1", [1, -1], 0, ["G2-A-TOPOR"]), robot("P2", [1, 0], 0)])
    assert params(rules, s_arr, 0, "G2-A-TOPOR") == [(0, 0)]
    fire(rules, s_arr, 0, "G2-A-TOPOR")
    assert int(s_arr[0]["pending_dmg"][1]) == 2


# ---------------------------------------------------------------- 2. passive armour: one pool, all spent


def test_passive_pool_spends_every_covering_module():
    """NOTES I.10.6 step 3, II.7 (automatic): P2 with ФРОНТ М1 (front 1) and КОЛЬЧУГА (all-round 1) takes 1
    damage from the front: both cover it, both join the pool and are used, the surplus 1 is wasted; a second
    front hit in the same turn gets through in full."""
    rules, s_arr = position([robot("P1", [-2, 0], 0), robot("P2", [0, 0], 3, ["G1-D-FRONT-M1", "G2-D-KOLCHUGA"])])
    s = s_arr[0]
    log = hit(rules, s_arr, 1, 1)
    assert int(s["pending_dmg"][1]) == 0
    assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 1
    assert s["def_used"][1, slot_of(rules, s, 1, "G2-D-KOLCHUGA")] == 1
    assert sorted(int(r[4]) for r in rows(log, EV_REDUCE)) == [0, 1]  # the used, wasted module is logged with 0
    hit(rules, s_arr, 1, 1)
    assert int(s["pending_dmg"][1]) == 1


def test_passive_pool_counts_central_armour_and_needs_damage_or_heat():
    """NOTES I.10.6 step 3: the central armour (side B: all-round 1, robots.csv) joins the pool like a module;
    a hit with D + H = 0 uses nothing."""
    rules, s_arr = position([robot("P1", [-2, 0], 0), robot("P2", [0, 0], 3, ["G1-D-FRONT-M1"], side="B")])
    s = s_arr[0]
    hit(rules, s_arr, 1, 0, 0)
    assert s["def_used"][1].sum() == 0 and s["central_def_used"][1] == 0
    hit(rules, s_arr, 1, 1)
    assert int(s["pending_dmg"][1]) == 0 and s["central_def_used"][1] == 1
    assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 1


def test_passive_defender_chooses_keeps_what_it_does_not_need():
    """``passive_trigger = defender_chooses`` (NOTES II.7's alternative): the package spends for the defender
    only what takes something off, narrow arcs first, so КОЛЬЧУГА is kept and takes the second hit."""
    rules, s_arr = position([robot("P1", [-2, 0], 0), robot("P2", [0, 0], 3, ["G1-D-FRONT-M1", "G2-D-KOLCHUGA"])],
                            options={"passive_trigger": "defender_chooses"})
    s = s_arr[0]
    hit(rules, s_arr, 1, 1)
    assert s["def_used"][1, slot_of(rules, s, 1, "G1-D-FRONT-M1")] == 1
    assert s["def_used"][1, slot_of(rules, s, 1, "G2-D-KOLCHUGA")] == 0
    hit(rules, s_arr, 1, 1)
    assert int(s["pending_dmg"][1]) == 0


# ---------------------------------------------------------------- 3. heat: primary targets, every hit cell


@pytest.fixture(scope="module")
def heat_data(tmp_path_factory):
    """A data variant as users make one (``[data] tiles = "my_tiles.csv"``: a whole replacement file): ЛАЗЕР
    (beam), ТОПОР (sweep) and ГРАНАТОМЁТ (arc, splash 1) get heat 2."""
    path = tmp_path_factory.mktemp("heat") / "tiles.csv"
    with open(DATA_DIR / "tiles.csv", encoding="utf-8", newline="") as f:
        rows_ = list(csv.DictReader(f))
    for r in rows_:
        if r["tile_id"] in ("G2-A-LAZER", "G2-A-TOPOR", "G2-A-GRANATOMYOT"):
            r["heat"] = "2"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows_[0]))
        w.writeheader()
        w.writerows(rows_)
    return load_data(tiles=str(path))


def test_beam_heat_only_on_its_primary_target(heat_data):
    """NOTES II.20 (``heat_robot_scope = primary_targets``; heat 'applies to one target on the line of fire'):
    a heat-2 beam overheats only the first robot on its line (P2); P3 behind takes the damage, no heat. Both
    cells' water goes (II.20 ``heat_terrain_zone = all_hit_cells``)."""
    rules, s_arr = position([robot("P1", [-2, 0], 0, ["G2-A-LAZER"]), robot("P2", [0, 0], 0), robot("P3", [1, 0], 0)],
                            field=[{"cell": [2, 0], "tile": "G2-T-VODA"}], data=heat_data)
    s = s_arr[0]
    log = fire(rules, s_arr, 0, "G2-A-LAZER")
    assert [int(x) for x in s["pending_heat"][:3]] == [0, 2, 0]
    assert [int(x) for x in s["pending_dmg"][:3]] == [0, 1, 1]
    assert len(rows(log, EV_WATER_DESTROYED)) == 1 and s["cell_tile"][rules.cell_index(2, 0)] == -1


def test_sweep_heat_only_on_the_front_cell(heat_data):
    """NOTES I.9.4, II.20: a heat-2 sweep's primary target is the robot on its front cell; the side cells'
    robots take the damage only."""
    rules, s_arr = position([robot("P1", [0, 0], 0, ["G2-A-TOPOR"]), robot("P2", [1, 0], 0),
                             robot("P3", [1, -1], 0), robot("P4", [-1, 0], 0)], players=4, data=heat_data)
    s = s_arr[0]
    fire(rules, s_arr, 0, "G2-A-TOPOR")
    assert [int(x) for x in s["pending_heat"][:4]] == [0, 2, 0, 0]
    assert [int(x) for x in s["pending_dmg"][:4]] == [0, 2, 2, 0]


def test_splash_heat_destroys_water_on_splash_cells(heat_data):
    """NOTES II.20 (``heat_terrain_zone = all_hit_cells``: primary, beam line, splash) and I.12.2 (water is
    destroyed by heat): a heat-2 ГРАНАТОМЁТ (arc 1, splash 1) on P2 destroys the water on the splash cell
    [0,1]; P3 next to P2 takes splash damage but no heat (II.20: primary targets only)."""
    rules, s_arr = position([robot("P1", [-2, 0], 0, ["G2-A-GRANATOMYOT"]), robot("P2", [0, 0], 0),
                             robot("P3", [1, -1], 0)],
                            field=[{"cell": [0, 1], "tile": "G2-T-VODA"}], data=heat_data)
    s = s_arr[0]
    box0 = int(s["box_n"])
    log = fire(rules, s_arr, 0, "G2-A-GRANATOMYOT", attacks.attack_param(1, 0, 0, 0))
    assert s["cell_tile"][rules.cell_index(0, 1)] == -1
    assert [tile_id_of(rules, int(i)) for i in s["box"][box0: s["box_n"]]] == ["G2-T-VODA"]
    assert len(rows(log, EV_WATER_DESTROYED)) == 1
    assert [int(x) for x in s["pending_heat"][:3]] == [0, 2, 0]
    assert [int(x) for x in s["pending_dmg"][:3]] == [0, 1, 1]


# ---------------------------------------------------------------- 5. the cell under a robot


@pytest.mark.parametrize("reading", ["separate", "terrain_only"])
def test_cell_under_a_robot_as_a_target(reading):
    """docs/steel_arena.md (NOTES I.9.1, II.21): by default a single-target attack may aim at the cell under a
    robot apart from the robot (its module tile, or its tileless cell: 'пустой участок поля'); with
    ``cell_under_robot_target = terrain_only`` only terrain under a robot stays a second target."""
    field = [{"cell": [-1, 0], "tile": "G2-A-MORTIRA"}, {"cell": [0, 0], "tile": ""},
             {"cell": [1, 0], "tile": "G2-T-VODA"}]
    rules, s_arr = position([robot("P1", [-2, 0], 0, ["G2-A-MORTIRA"]), robot("P2", [-1, 0], 0),
                             robot("P3", [1, 0], 0)],
                            field=field, options={"cell_under_robot_target": reading})
    ps = set(params(rules, s_arr, 0, "G2-A-MORTIRA"))
    # [-1,0]: P2 on a module tile; [0,0]: an empty cell; [1,0]: P3 on water; [2,0]: the rest of the line
    assert {(0, 0), (1, 1), (2, 0), (2, 1), (3, 1)} <= ps
    assert ((0, 1) in ps) == (reading == "separate")


def test_cell_under_a_robot_empty_cell():
    """As above, the tileless cell under a robot ('пустой участок поля', rulebook end phase steps 1 and 4)."""
    for reading, offered in (("separate", True), ("terrain_only", False)):
        rules, s_arr = position([robot("P1", [-2, 0], 0, ["G2-A-MORTIRA"]), robot("P2", [0, 0], 0)],
                                field=[{"cell": [0, 0], "tile": ""}], options={"cell_under_robot_target": reading})
        assert s_arr[0]["cell_tile"][rules.cell_index(0, 0)] == -1
        assert ((1, 1) in params(rules, s_arr, 0, "G2-A-MORTIRA")) == offered


# ---------------------------------------------------------------- 6. the trace


def _random_game_events(n: int, seed: int, options: dict) -> list[dict]:
    """The trace events of one whole random game (the rules driver, seeded choices)."""
    rules = default_ruleset(n, options)
    s = new_state()
    log = sa_rules.new_log(60000)
    legal = np.zeros(MAX_ACTIONS, dtype=np.int64)
    k = sa_rules.py_setup(s, seed, n, *rules.args, log, legal)
    rng = np.random.default_rng(seed)
    while k > 0:
        k = sa_rules.py_step(s, int(legal[int(rng.integers(k))]), *rules.args, log, legal)
    assert not log[0, 1]
    return render.log_to_events(rules, log)


def test_trace_heat_cause_seq_box_and_push_stopped_short():
    """NOTES "What a trace must carry": item 3 (the box's contents in every turn_start snapshot), item 7 (a push
    that stops short has its own stopped_short line, before its push_effect) and item 8 (heat absorbed, shed and
    turned into damage point at the hit that caused it: ``cause_seq``). Random whole games with
    ``blocked_move = stop_short`` (pushes of any length are offered)."""
    found = {"heat": 0, "box": 0, "short_push": 0}
    for seed in range(30):
        events = _random_game_events(4, 100 + seed, {"blocked_move": "stop_short"})
        by_seq = {e["seq"]: e for e in events}
        for i, e in enumerate(events):
            if e["event"] in ("heat_absorb", "shed", "heat_damage"):
                cause = by_seq[e["cause_seq"]]
                assert cause["event"] == "hit" and cause["seat"] == e["seat"] and cause["heat_after"] > 0
                found["heat"] += 1
            elif e["event"] == "turn_start":
                snap = e["snapshot"]
                assert len(snap["box"]) == snap["box_size"] and None not in snap["box"]
                found["box"] += bool(snap["box"])
            elif e["event"] == "push_effect" and e["done"] < e["requested"]:
                back = next(x for x in reversed(events[:i]) if x["event"] in ("stopped_short", "activate"))
                assert back["event"] == "stopped_short" and back["seat"] == e["seat"]
                found["short_push"] += 1
        if all(found.values()):
            break
    assert all(found.values()), found
