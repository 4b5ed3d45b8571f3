"""Steel Arena as text and as a trace (render.py): the arena map, action descriptions and menus,
the JSON-lines trace events and the readable log.

Fixtures are the examples.toml ids named in the docstrings; NOTES sections are those of
../shared/research/steel-arena/NOTES.md (I.16 hidden information, I.17 geometry, "What a
trace must carry to be checked"). Random games are played with the rules kernels (rules.py).
"""

from __future__ import annotations

import itertools
import json
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.games.steel_arena import render
from simlab.games.steel_arena import rules as sa_rules
from simlab.games.steel_arena.codes import (
    A_ACT,
    EV_TURN_START,
    MAX_ACTIONS,
    PARAM_SPAN,
)
from simlab.games.steel_arena.data import COLOUR_OF_TYPE
from simlab.games.steel_arena.positions import fixture_position, seat_of, tile_id_of
from simlab.games.steel_arena.ruleset import default_ruleset
from simlab.games.steel_arena.state import new_state

EXAMPLES = {ex["id"]: ex for ex in tomllib.loads((Path(__file__).parent / "examples.toml").read_text())["example"]}
PLAYERS = {"2p": 2, "3p": 3, "4p": 4}
POSITIONS = sorted(k for k, ex in EXAMPLES.items() if "robots" in ex)


def position(fx_id: str, options: dict | None = None):
    fx = EXAMPLES[fx_id]
    rules = default_ruleset(PLAYERS[fx.get("layout", "3p")], options)
    return fixture_position(rules, fx)


def legal_of(rules, s_arr) -> list[int]:
    out = np.zeros(MAX_ACTIONS, dtype=np.int64)
    n = sa_rules.legal_actions(s_arr[0], out, *rules.args)
    return [int(a) for a in out[:n]]


def leaves(menu) -> list[int]:
    out: list[int] = []
    for _label, choice in menu:
        out.extend(leaves(choice) if isinstance(choice, list) else [int(choice)])
    return out


# ---------------------------------------------------------------- the position


@pytest.mark.parametrize("fx_id", POSITIONS)
def test_render_fixture_positions_referee_and_seat(fx_id: str) -> None:
    """Every examples.toml position renders: each placed robot shows on the map with its facing
    arrow (I.17.2); in basic mode a seat sees face-down field tiles only by colour and other robots'
    unused modules only by type, while the referee sees every name (NOTES I.16)."""
    rules, s_arr = position(fx_id)
    rec = s_arr[0]
    n = rules.n_players
    referee = render.render_state(rules, rec)
    seat_view = render.render_state(rules, rec, 0)
    for p in range(n):
        if rec["placed"][p]:
            code = f"P{p + 1}{render.ARROWS[int(rec['facing'][p])]}"
            assert code in referee and code in seat_view
    hidden_mods = sum(int(rec["n_mods"][p]) for p in range(1, n))
    assert seat_view.count("(not yet used: hidden)") == hidden_mods
    assert "(not yet used: hidden)" not in referee
    for c in range(len(rules.cells)):
        inst = int(rec["cell_tile"][c])
        if inst < 0:
            continue
        t = rules.design(inst)
        where = render._cell_text(list(rules.cell_qr(c)))
        assert f"{where} {render.tile_name_printed(t)}" in referee
        if rec["cell_up"][c]:
            assert f"{where} {render.tile_name_printed(t)}" in seat_view
        else:
            assert f"{where} {t.tile_id}" not in seat_view
            assert f"{where} face-down {COLOUR_OF_TYPE[t.type]}" in seat_view


@pytest.mark.parametrize("fx_id", ["defence-stacking-and-arcs", "attack-sweep", "setup-place-and-take"])
def test_render_expert_mode_shows_everything(fx_id: str) -> None:
    """Expert mode (NOTES I.15.1): tiles face up and modules open, so a seat's view names every
    module of every robot and every field tile."""
    rules, s_arr = position(fx_id, {"mode": "expert"})
    rec = s_arr[0]
    text = render.render_state(rules, rec, 0)
    assert "(not yet used: hidden)" not in text and "] face-down" not in text
    for p in range(rules.n_players):
        for k in range(int(rec["n_mods"][p])):
            assert render.tile_name_printed(rules.design(int(rec["mods"][p, k]))) in text


def test_hex_map_rows_and_arrows() -> None:
    """The map draws rows of equal r with x = 2q + r (I.17.2: direction 0 = (+1, 0) is to the right),
    so the robot of fixture rotate-os-m1 at [0, 0] facing 0 shows as ``P1→`` in the middle row."""
    rules, s_arr = position("rotate-os-m1")
    lines = render.render_state(rules, s_arr[0]).splitlines()
    row = next(line for line in lines if "-2,0" in line)  # the coordinate map's r = 0 row
    assert "P1→" in row
    assert row.index("P1→") < row.index("-2,0")


# ---------------------------------------------------------------- actions


def test_describe_rotation_os_m1() -> None:
    """Fixture rotate-os-m1: ОСЬ М1 turns 2 sectors clockwise, facing 0 -> 4, and every legal
    rotation is offered in the menu under the module."""
    rules, s_arr = position("rotate-os-m1")
    legal = legal_of(rules, s_arr)
    texts = {render.describe_action(rules, s_arr[0], a): a for a in legal}
    assert any("G1-R-OS-M1 (Axis M1)" in t and "rotate 2 clockwise (facing 0 -> 4)" in t for t in texts)
    menu = render.action_menu(rules, s_arr[0], legal)
    assert sorted(leaves(menu)) == sorted(legal)
    assert any(label.startswith("G1-R-OS-M1 (Axis M1, printed ОСЬ М1)") for label, _ in menu)
    assert any(label == "cool all modules" for label, _ in menu)


def test_describe_moves_open_field() -> None:
    """Fixture move-diagram-open-field: СКОРОХОД М1 reaches [0, 0] and [1, 0], КРАБ [0, -1] and
    [-1, 1], БЛОХА [1, 0]; the descriptions name those destination cells."""
    rules, s_arr = position("move-diagram-open-field")
    texts = [render.describe_action(rules, s_arr[0], a) for a in legal_of(rules, s_arr)]
    want = {"-SKOROKHOD-M1": ["[0, 0]", "[1, 0]"], "-KRAB": ["[0, -1]", "[-1, 1]"], "-BLOKHA": ["[1, 0]"]}
    for name, cells in want.items():  # tiles by their tile_id, as reports and tiles.csv name them
        mine = [t for t in texts if t.startswith("activate G") and f"{name} (" in t]
        for cell in cells:
            assert any(f"to {cell}" in t for t in mine), (name, cell, mine)


def test_describe_attack_target_robot() -> None:
    """Fixture defence-nezabudka-front: НЕЗАБУДКА's shot at the robot in front names that robot
    and its cell (the first cell of the line of fire)."""
    fx = EXAMPLES["defence-nezabudka-front"]
    rules, s_arr = position("defence-nezabudka-front")
    texts = [render.describe_action(rules, s_arr[0], a) for a in legal_of(rules, s_arr)]
    target = next(rb for rb in fx["robots"] if rb["id"] != "P1")
    at = f"{target['id']} at [{target['pos'][0]}, {target['pos'][1]}]"
    assert any("G2-A-NEZABUDKA (Forget-me-not)" in t and at in t for t in texts), texts


# ---------------------------------------------------------------- random games and the trace


def play_random(n: int, seed: int, options: dict | None = None):
    """A whole random game; returns rules, final state, log, the log row count after each decision,
    and the state copies at every turn start (keyed by the turn_start row)."""
    rules = default_ruleset(n, options)
    s = new_state()
    log = sa_rules.new_log(60000)
    legal = np.zeros(MAX_ACTIONS, dtype=np.int64)
    k = sa_rules.py_setup(s, seed, n, *rules.args, log, legal)
    rng = np.random.default_rng(seed)
    bounds = [int(log[0, 0])]
    at_turn_start: dict[int, np.ndarray] = {}
    described = 0
    while k > 0:
        acts = [int(a) for a in legal[:k]]
        for a in acts:
            text = render.describe_action(rules, s[0], a)
            assert isinstance(text, str) and text
            described += 1
        assert sorted(leaves(render.action_menu(rules, s[0], acts))) == sorted(acts)
        before = int(log[0, 0])
        k = sa_rules.py_step(s, acts[int(rng.integers(k))], *rules.args, log, legal)
        for row in range(before + 1, int(log[0, 0]) + 1):
            if int(log[row, 0]) == EV_TURN_START:
                at_turn_start[row] = s.copy()
        bounds.append(int(log[0, 0]))
    assert not log[0, 1], "test log too small"
    assert described > 0
    return rules, s, log, bounds, at_turn_start


GAMES = [(2, 11, None), (3, 12, None), (4, 13, None), (4, 14, {"team": True}), (3, 15, {"mode": "expert"})]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}p-seed{g[1]}-{g[2]}")
def game(request):
    n, seed, options = request.param
    return play_random(n, seed, options)


def test_trace_fields_and_json(game) -> None:
    """Every event carries event, type, seq, turn and active (NOTES "What a trace must carry");
    seq runs 1, 2, ... over the log; turns never go back; the whole trace is JSON."""
    rules, s, log, _bounds, _starts = game
    events = render.log_to_events(rules, log)
    start = render.start_event(rules, s[0], ["random"] * rules.n_players, 0)
    final = render.final_event(rules, s[0])
    for e in [start, *events, final]:
        for key in ("event", "type", "seq", "turn", "active"):
            assert key in e, (key, e)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    turns = [e["turn"] for e in events]
    assert all(b >= a for a, b in itertools.pairwise(turns))
    assert all(e["turn"] is not None for e in events)
    json.loads(json.dumps([start, *events, final]))
    assert events[0]["event"] == "setup"
    assert any(e["event"] == "game_end" for e in events)
    assert final["winners"] == [p for p in range(rules.n_players) if s[0]["winner"][p]]


def test_setup_event_is_complete(game) -> None:
    """The setup event (NOTES header, set-up part) lists every field cell with its tile and face, the
    gen-3 stack of 7 per player in draw order, 4 starters per robot and the first player."""
    rules, _s, log, _bounds, _starts = game
    setup = render.log_to_events(rules, log)[0]
    n = rules.n_players
    assert len(setup["field"]) == len(rules.cells)
    assert {tuple(f["cell"]) for f in setup["field"]} == {tuple(int(x) for x in c[:2]) for c in rules.cells}
    assert len(setup["gen3_stack"]) == 7 * n
    assert len(setup["starters"]) == n and all(len(v) == 4 for v in setup["starters"].values())
    assert setup["first_player"] in range(n)
    face_up_terrain = [f["face_up"] for f in setup["field"] if f["tile_type"] == "terrain"]
    assert all(face_up_terrain)


def test_turn_start_snapshot_matches_state(game) -> None:
    """Each turn_start snapshot agrees with the state record at that moment: robots' cells, facings,
    sides and modules, the field, the stack size (NOTES "What a trace must carry" 3)."""
    rules, _s, log, _bounds, starts = game
    events = render.log_to_events(rules, log)
    snaps = [e for e in events if e["event"] == "turn_start"]
    assert len(snaps) == len(starts) > 0
    names = render._instance_names(rules)
    for e, (_row, st) in zip(snaps, sorted(starts.items()), strict=True):
        rec = st[0]
        snap = e["snapshot"]
        assert e["turn"] == int(rec["turn"]) and e["active"] == int(rec["active"])
        for rb in snap["robots"]:
            p = rb["seat"]
            cell = int(rec["cell"][p])
            assert rb["cell"] == (None if cell < 0 else list(rules.cell_qr(cell)))
            assert rb["facing"] == int(rec["facing"][p])
            assert rb["side"] == "AB"[int(rec["side"][p])]
            assert [m["module"] for m in rb["modules"]] == [names[int(i)] for i in rec["mods"][p, : rec["n_mods"][p]]]
        field = {tuple(f["cell"]): f["tile"] for f in snap["field"]}
        for c in range(len(rules.cells)):
            inst = int(rec["cell_tile"][c])
            assert field.get(rules.cell_qr(c)) == (None if inst < 0 else names[inst])
        assert snap["stack_size"] == int(rec["stack_n"])


def test_hit_reductions_add_up(game) -> None:
    """A robot hit's reductions (EV_REDUCE rows before its EV_HIT) account for the damage and heat it
    did not take: D + H - (D after + H after) = the sum of the reduction amounts (NOTES I.10.6)."""
    rules, _s, log, _bounds, _starts = game
    hits = [e for e in render.log_to_events(rules, log) if e["event"] == "hit" and e["target_kind"] == "robot"]
    for h in hits:
        taken = h["damage"] + h["heat"] - h["damage_after"] - h["heat_after"]
        assert sum(r["amount"] for r in h["reductions"]) == taken, h


def test_activation_params_match_outcome(game) -> None:
    """Decoded parameters agree with what follows: a rotation's facing_after is the rotate event's,
    a move's destination is the mover's last step (default options: blocked moves are illegal)."""
    rules, _s, log, _bounds, _starts = game
    events = render.log_to_events(rules, log)
    checked = 0
    for i, e in enumerate(events):
        if e["event"] != "activate":
            continue
        rest = events[i + 1 : next(j for j in range(i + 1, len(events)) if events[j]["event"] == "activate_end")]
        if e["property"] == "rotate":
            rot = [x for x in rest if x["event"] == "rotate" and x["seat"] == e["seat"]]
            assert rot and rot[0]["facing_after"] == e["params"]["facing_after"]
            checked += 1
        elif e["property"] == "move":
            steps = [x for x in rest if x["event"] == "step" and x["seat"] == e["seat"] and x["cause"] == "move"]
            assert steps and steps[-1]["to"] == e["params"]["to"], (e, steps)
            checked += 1
    assert checked > 0


def test_streamed_parts_give_the_same_events(game) -> None:
    """The log handed over decision by decision (as ``simlab play`` streams it) gives the same events
    in the same order as the whole log."""
    rules, _s, log, bounds, _starts = game
    whole = [e["event"] for e in render.log_to_events(rules, log)]
    parts: list[str] = []
    for a, b in itertools.pairwise(bounds):
        if b <= a:
            continue
        part = log[a : b + 1].copy()
        part[0, :] = 0
        part[0, 0] = b - a
        parts.extend(e["event"] for e in render.log_to_events(rules, part))
    first = log[: bounds[0] + 1].copy()
    head = [e["event"] for e in render.log_to_events(rules, first)]
    assert head + parts == whole


def test_log_lines_read_the_trace(game) -> None:
    """The readable log has a line per turn and per activation, and the final table last."""
    rules, s, log, _bounds, _starts = game
    events = render.log_to_events(rules, log)
    trace = [render.start_event(rules, s[0], ["random"] * rules.n_players, 0), *events,
             render.final_event(rules, s[0])]
    lines = render.log_lines(trace)
    assert "=== Final ===" in lines
    n_turns = sum(1 for e in events if e["event"] == "turn_start")
    assert sum(1 for line in lines if line.startswith("--- turn ")) == n_turns
    assert sum(1 for line in lines if " activates " in line) == sum(1 for e in events if e["event"] == "activate")


def test_basic_log_hides_picked_modules() -> None:
    """In basic mode the readable log names a picked-up module only by its type (NOTES I.16: face-down
    tiles show their colour), while the trace names the instance."""
    rules, s, log, _bounds, _starts = play_random(2, 21)
    events = render.log_to_events(rules, log)
    picks = [e for e in events if e["event"] == "pickup" and e["tile"] not in ("terrain", "empty")]
    assert picks
    lines = render.log_lines([render.start_event(rules, s[0], ["a", "b"], 0), *events])
    pick_lines = [line for line in lines if " picks up " in line]
    assert len(pick_lines) == len(picks)
    for e, line in zip(picks, pick_lines, strict=True):
        assert render.tile_name(rules.data.tile(e["tile"].split("#")[0])) not in line
        assert f"{e['tile_type']} module" in line


def test_decode_action_roundtrip() -> None:
    """Action codes (codes.py): A_ACT + (slot * 2 + wear) * 256 + param decodes back to its parts."""
    for slot in (0, 5, 13, 15):
        for wear in (0, 1):
            for param in (0, 7, 255):
                d = render.decode_action(A_ACT + (slot * 2 + wear) * PARAM_SPAN + param)
                assert (d["slot"], d["wear"], d["param"]) == (slot, wear, param)


def test_fixture_robot_ids_are_seats() -> None:
    """Robots P1..P4 are seats 0..3 in text and trace (NOTES identities)."""
    assert [render.robot_name(seat_of(f"P{k}")) for k in range(1, 5)] == ["P1", "P2", "P3", "P4"]
    rules, s_arr = position("rotate-os-m1")
    assert tile_id_of(rules, int(s_arr[0]["mods"][0, 0])) == "G1-A-PUSHKA-M1"


def test_menu_groups_attack_by_target() -> None:
    """Fixture attack-whirl-exposes-rear: СМЕРЧ's many whirl choices sit under one entry per target
    (``shoot P2 at [0, 0]``), then sectors, sense and order (NOTES I.9.5: the attacker chooses
    whirl amount, direction and damage before/after); every legal action is reachable once."""
    rules, s_arr = position("attack-whirl-exposes-rear")
    legal = legal_of(rules, s_arr)
    menu = render.action_menu(rules, s_arr[0], legal)
    assert sorted(leaves(menu)) == sorted(legal)
    smerch = next(choice for label, choice in menu if label.startswith("G3-A-SMERCH (Tornado"))
    target = next(choice for label, choice in smerch if label.endswith("P2 at [0, 0]"))
    assert isinstance(target, list) and any("effect before damage" in label for label, _ in target)
