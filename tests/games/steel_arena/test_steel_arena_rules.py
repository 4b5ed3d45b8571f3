"""Steel Arena's rules driver and end phase (rules.py, endphase.py) on the fixtures of examples.toml.

Each test drives the kernels' ``legal_actions`` / ``apply_action`` (through ``py_legal`` /
``py_step``) from a position built by ``positions.fixture_position`` and cites the fixture id and
the NOTES section it checks.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.games.steel_arena.codes import (
    A_ACT,
    A_COOL,
    A_NONE,
    A_PICK,
    A_PLACE,
    A_STOP,
    EV_DISCARD,
    EV_END_STEP,
    EV_GEN2_TAKEN,
    EV_LIMIT_DISCARD,
    EV_PICKUP,
    EV_REFILL,
    EV_SIDE_SWITCH,
    EV_STACK_EXHAUSTED,
    MAX_ACTIONS,
    PARAM_SPAN,
    SLOT_C_ATTACK,
    SLOT_C_MOVE,
    SLOT_C_ROTATE,
    SLOT_CENTRAL,
)
from simlab.games.steel_arena.data import T_GENERATION, T_TYPE
from simlab.games.steel_arena.positions import fixture_position, robot_modules, tile_id_of
from simlab.games.steel_arena.rules import new_log, py_legal, py_setup, py_step
from simlab.games.steel_arena.ruleset import default_ruleset
from simlab.games.steel_arena.state import (
    END_DESTROYED,
    END_GEN3,
    END_TEAM_TROPHIES,
    END_TROPHIES,
    PH_ACTIVE,
    PH_CONTINUE,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_OVER,
    PH_PLACE,
    STATE_DTYPE,
)

EXAMPLES = tomllib.loads((Path(__file__).parent / "examples.toml").read_text(encoding="utf-8"))["example"]
BY_ID = {e["id"]: e for e in EXAMPLES}
PLAYERS = {"2p": 2, "3p": 3, "4p": 4}
DECISIONS = (3, 4, 5, 6)  # PH_HEAT, PH_WATER, PH_DISCARD, PH_LIMIT


def act(slot: int, param: int, wear: int = 0) -> int:
    """The action code of activating ``slot`` with ``param`` (codes.py)."""
    return A_ACT + (slot * 2 + wear) * PARAM_SPAN + param


def rot(k: int, clockwise: bool = True) -> int:
    """Rotation param: sense * 4 + k (sense 0 = clockwise)."""
    return (0 if clockwise else 1) * 4 + k


def mv(n: int, variant: int = 0) -> int:
    """Move param: variant * 8 + n."""
    return variant * 8 + n


def atk(t: int, which: int = 0, e: int = 0, order: int = 0) -> int:
    """Attack param: ((t * 2 + which) * 8 + e) * 2 + order."""
    return ((t * 2 + which) * 8 + e) * 2 + order


class Play:
    """A fixture position and the kernels driving it."""

    def __init__(self, fixture: dict | str, options: dict | None = None, players: int | None = None) -> None:
        fx = BY_ID[fixture] if isinstance(fixture, str) else fixture
        n = players or PLAYERS[fx.get("layout", "3p")]
        self.rules, self.s_arr = fixture_position(default_ruleset(n, options), fx)
        s = self.s_arr[0]
        for entry in fx.get("field", []):  # a listed empty cell stays empty even with unlisted module tiles
            c = self.rules.cell_index(*entry["cell"])
            if not entry.get("tile") and s["cell_tile"][c] >= 0:
                s["box"][s["box_n"]] = s["cell_tile"][c]
                s["box_n"] += 1
                s["cell_tile"][c] = -1
                s["cell_type"][c] = -1
                s["cell_up"][c] = 0
        self.log = new_log(20000)
        self.buf = np.zeros(MAX_ACTIONS, dtype=np.int64)

    @property
    def s(self):
        return self.s_arr[0]

    def legal(self) -> list[int]:
        n = py_legal(self.s_arr, *self.rules.args, self.buf)
        return [int(a) for a in self.buf[:n]]

    def do(self, action: int) -> None:
        assert action in self.legal(), f"action {action} not legal in phase {self.s['phase']}"
        py_step(self.s_arr, action, *self.rules.args, self.log, self.buf)

    def slot(self, seat: int, tile_id: str) -> int:
        return robot_modules(self.rules, self.s_arr, seat).index(tile_id)

    def activate(self, seat: int, tile_id: str, param: int, wear: int = 0) -> None:
        self.do(act(self.slot(seat, tile_id), param, wear))

    def cell(self, qr) -> int:
        return self.rules.cell_index(*qr)

    def pos(self, seat: int) -> list[int]:
        return list(self.rules.cell_qr(int(self.s["cell"][seat])))

    def mods(self, seat: int) -> list[str]:
        return robot_modules(self.rules, self.s_arr, seat)

    def overheated(self, seat: int) -> list[str]:
        names = [m for k, m in enumerate(self.mods(seat)) if self.s["heat"][seat, k]]
        return [*names, "CENTRAL"] if self.s["central_heat"][seat] else names

    def box(self) -> list[str]:
        return [tile_id_of(self.rules, int(i)) for i in self.s["box"][: self.s["box_n"]]]

    def trophies(self, seat: int) -> int:
        return int(self.s["n_trophies"][seat])

    def rows(self, kind: int) -> np.ndarray:
        n = int(self.log[0, 0])
        body = self.log[1 : n + 1]
        return body[body[:, 0] == kind]

    def decide(self, prefer: dict | None = None) -> None:
        """Settle every pending owner decision: the preferred tile ids first (per seat), else the first pick."""
        prefer = prefer or {}
        while self.s["phase"] in DECISIONS and not self.s["over"]:
            seat = int(self.s["actor"])
            legal = self.legal()
            picks = [a for a in legal if a >= A_PICK and a < A_ACT]
            choice = picks[0] if picks else legal[0]
            mods = self.mods(seat)
            for tile_id in prefer.get(seat, []):
                if tile_id in mods and A_PICK + mods.index(tile_id) in picks:
                    choice = A_PICK + mods.index(tile_id)
                    break
            self.do(choice)


def slots_in(legal: list[int]) -> set[tuple[int, int]]:
    """(slot, wear) of every activation code in ``legal``."""
    return {((a - A_ACT) // PARAM_SPAN // 2, (a - A_ACT) // PARAM_SPAN % 2) for a in legal if a >= A_ACT}


# ---------------------------------------------------------------- setup


def new_game(n: int, seed: int, options: dict | None = None):
    rules = default_ruleset(n, options)
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    log = new_log(5000)
    buf = np.zeros(MAX_ACTIONS, dtype=np.int64)
    k = py_setup(s_arr, np.uint64(seed), n, *rules.args, log, buf)
    return rules, s_arr, log, [int(a) for a in buf[:k]]


@pytest.mark.parametrize("case", BY_ID["setup-gen2-table"]["cases"], ids=lambda c: f"{c['players']}p")
def test_setup_gen2_table(case):
    """setup-gen2-table (NOTES I.3.1-5): gen-2 tiles taken per type and at random, field size, gen-3 stack,
    4 starters per seat (one per module type), modules face down and terrain face up, side A."""
    n = case["players"]
    types = ("attack", "move", "rotate", "defence", "terrain")
    for seed in range(5):
        rules, s_arr, log, legal = new_game(n, seed)
        s = s_arr[0]
        body = log[1 : log[0, 0] + 1]
        taken = body[body[:, 0] == EV_GEN2_TAKEN]
        for k, name in enumerate(types):
            assert int(np.sum(taken[:, 1] == k)) == case[name]
        assert int(np.sum(taken[:, 1] == 5)) == case["random"]
        on_field = [int(i) for i in s["cell_tile"][: s["n_cells"]]]
        assert len(on_field) == case["field_tiles"] and min(on_field) >= 0
        assert sorted(on_field) == sorted(int(i) for i in taken[:, 2])
        assert all(rules.tiles[rules.pool[i], T_GENERATION] == 2 for i in on_field)
        for c, inst in enumerate(on_field):
            terrain = rules.tiles[rules.pool[inst], T_TYPE] == 4
            assert s["cell_up"][c] == (1 if terrain else 0)
            assert s["cell_type"][c] == rules.tiles[rules.pool[inst], T_TYPE]
        assert s["stack_n"] == case["gen3_stack"]
        assert all(rules.tiles[rules.pool[i], T_GENERATION] == 3 for i in s["stack"][: s["stack_n"]])
        for p in range(n):
            assert s["n_mods"][p] == case["gen1_per_player"]
            assert sorted(int(t) for t in s["mod_type"][p, :4]) == [0, 1, 2, 3]
            assert s["revealed"][p, :4].sum() == 0 and s["side"][p] == 0 and not s["placed"][p]
        # every tile exactly once: field + stack + box + starters
        everything = on_field + list(s["stack"][: s["stack_n"]]) + list(s["box"][: s["box_n"]])
        everything += [int(m) for p in range(n) for m in s["mods"][p, : s["n_mods"][p]]]
        assert sorted(int(i) for i in everything) == list(range(len(rules.pool)))
        assert s["phase"] == PH_PLACE and s["actor"] == s["first_player"] < n
        assert legal and all(A_PLACE <= a < A_PICK for a in legal)


def test_setup_first_player_option_and_seed():
    """NOTES II.28: the first player is random from its own stream; ``first_player = seat0`` fixes seat 0;
    the same seed deals the same game (common random numbers)."""
    firsts = {int(new_game(4, seed)[1][0]["first_player"]) for seed in range(20)}
    assert len(firsts) > 1
    for seed in range(5):
        assert new_game(4, seed, {"first_player": "seat0"})[1][0]["first_player"] == 0
        a, b = new_game(3, seed)[1], new_game(3, seed)[1]
        assert a.tobytes() == b.tobytes()


def placement_play(fid: str) -> Play:
    """The fixture's robots taken off the field again: placement (PH_PLACE) from P1."""
    play = Play(fid)
    s = play.s
    for p in range(play.rules.n_players):
        s["placed"][p] = 0
        s["cell"][p] = -1
    s["phase"] = PH_PLACE
    s["actor"] = s["active"] = s["first_player"] = 0
    s["turn"] = 0
    s["n_placed"] = 0
    return play


def test_setup_place_and_take():
    """setup-place-and-take (NOTES I.3.7-8, II.16): edge cells only, any facing, in turn order; each robot takes
    the module tile under it; the emptied cells are not refilled before the first end phase."""
    fx = BY_ID["setup-place-and-take"]
    play = placement_play("setup-place-and-take")
    legal = play.legal()
    centre = play.cell([0, 0])
    assert all(A_PLACE + centre * 6 + f not in legal for f in range(6))
    edges = {(a - A_PLACE) // 6 for a in legal}
    assert edges == {c for c in range(len(play.rules.cells)) if play.rules.cells[c, 3]}
    for pl in fx["action"]["placements"]:
        seat = int(pl["id"][1:]) - 1
        assert play.s["actor"] == seat and play.s["phase"] == PH_PLACE
        play.do(A_PLACE + play.cell(pl["pos"]) * 6 + pl["facing"])
        assert play.s["facing"][seat] == pl["facing"]
    for seat in range(3):
        assert play.s["n_mods"][seat] == fx["expected"]["modules_after"][f"P{seat + 1}"]
        assert play.s["revealed"][seat].sum() == 0 and play.s["side"][seat] == 0
    for qr in fx["expected"]["cells_emptied"]:
        assert play.s["cell_tile"][play.cell(qr)] == -1
    assert play.s["phase"] == PH_ACTIVE and play.s["active"] == 0 and play.s["turn"] == 1
    # the occupied cell is no start cell for the next robot (checked on a fresh placement)
    play2 = placement_play("setup-place-and-take")
    play2.do(A_PLACE + play2.cell([-2, 0]) * 6)
    assert all((a - A_PLACE) // 6 != play2.cell([-2, 0]) for a in play2.legal())


def test_setup_start_on_terrain():
    """setup-start-on-terrain (NOTES I.3.8, II.16, I.11.4 E5): a robot placed on terrain takes nothing (4 modules,
    the terrain stays) and turns to side B at the end of its first turn."""
    play = placement_play("setup-start-on-terrain")
    play.s["n_placed"] = 2  # P2 and P3 of the 3-player layout take no part in this fixture
    c = play.cell([-2, 0])
    play.do(A_PLACE + c * 6)
    assert play.s["n_mods"][0] == 4 and play.rules.design(int(play.s["cell_tile"][c])).tile_id == "G2-T-UKRYTIE"
    assert play.s["phase"] == PH_ACTIVE and play.s["side"][0] == 0
    play.do(A_COOL)
    assert play.s["side"][0] == 1
    assert play.rules.design(int(play.s["cell_tile"][c])).tile_id == "G2-T-UKRYTIE"


def test_terrain_start_option():
    """NOTES II.16: with ``allow_terrain_start_cell = false`` a terrain edge cell is no start cell; an obstacle
    never is."""
    fx = dict(BY_ID["setup-start-on-terrain"])
    fx["field"] = [{"cell": [-2, 0], "tile": "G2-T-UKRYTIE"}, {"cell": [2, 0], "tile": "G2-T-METALLOLOM"}]
    for allow in (True, False):
        play = Play(fx, {"allow_terrain_start_cell": allow})
        play.s["placed"][0] = 0
        play.s["cell"][0] = -1
        play.s["phase"] = PH_PLACE
        cells = {(a - A_PLACE) // 6 for a in play.legal()}
        assert (play.cell([-2, 0]) in cells) == allow
        assert play.cell([2, 0]) not in cells


# ---------------------------------------------------------------- activation, speed, cooling, wear


def test_activate_and_cool():
    """activate-and-cool (NOTES I.4, I.5): overheated modules and the overheated central module cannot be
    activated; cooling removes every token, the central one included, and ends the active phase."""
    play = Play("activate-and-cool")
    legal = play.legal()
    assert A_COOL in legal
    slots = {sl for sl, _ in slots_in(legal)}
    assert play.slot(0, "G1-A-PUSHKA-M1") not in slots and play.slot(0, "G2-A-MORTIRA") not in slots
    assert not slots & {SLOT_C_ATTACK, SLOT_C_MOVE, SLOT_C_ROTATE}
    assert play.s["tokens"] == 3
    play.do(A_COOL)
    assert play.overheated(0) == [] and play.s["tokens"] == 0 and play.s["st_cools"][0] == 1
    assert play.s["st_activations"][0] == 0
    assert play.s["turn"] == 2 and play.s["phase"] == PH_ACTIVE  # P1 alone on the field: its next turn


def test_cool_needs_a_token_unless_option():
    """NOTES II.30: cool-all is legal with nothing overheated by default; with ``cool_always_legal = false`` only
    when something is overheated."""
    play = Play("central-module-one-property")
    assert A_COOL in play.legal()
    play = Play("central-module-one-property", {"cool_always_legal": False})
    assert A_COOL not in play.legal() and play.legal()


def test_speed_chain():
    """speed-chain (NOTES I.6, II.29): after a speed module one more activation (no cooling); a module never
    twice; a non-speed module ends the active phase."""
    play = Play("speed-chain")
    play.activate(0, "G2-R-SHARNIR", rot(1))
    assert play.s["phase"] == PH_CONTINUE and play.s["facing"][0] == 0
    legal = play.legal()
    assert A_STOP in legal and A_COOL not in legal
    assert play.slot(0, "G2-R-SHARNIR") not in {sl for sl, _ in slots_in(legal)}
    play.activate(0, "G2-M-RYVOK", mv(1))
    assert play.s["phase"] == PH_CONTINUE and play.pos(0) == [-1, 0]
    assert play.slot(0, "G2-R-SHARNIR") not in {sl for sl, _ in slots_in(play.legal())}
    play.activate(0, "G1-A-PUSHKA-M1", atk(1, which=1))  # the empty cell [1, 0]
    assert play.s["phase"] != PH_CONTINUE and play.s["turn"] == 2  # the turn ended
    assert sorted(play.overheated(0)) == sorted(["G2-R-SHARNIR", "G2-M-RYVOK", "G1-A-PUSHKA-M1"])
    assert play.s["st_activations"][0] == 3


def test_stop_after_speed():
    """NOTES I.6: the further activation after a speed module is optional (A_STOP ends the active phase)."""
    play = Play("speed-chain")
    play.activate(0, "G2-R-SHARNIR", rot(1))
    play.do(A_STOP)
    assert play.s["turn"] == 2 and play.overheated(0) == ["G2-R-SHARNIR"]


@pytest.mark.parametrize("variant", [None, "variant_without_front_m1"])
def test_oneshot_and_autocool(variant):
    """oneshot-and-autocool (NOTES I.6, I.11.4 E2/E3/E5), as written: an auto-cool module sheds its token in the
    end phase; a one-shot module goes to the box right after use (no trophy). 5 tiles + central = 6 keep side A;
    the variant without ФРОНТ М1 has 4 + 1 = 5 afterwards and turns to side B."""
    fx = BY_ID["oneshot-and-autocool"]
    ex = fx["expected"]
    if variant:
        v = ex[variant]
        fx = dict(fx, robots=[dict(fx["robots"][0], modules=v["p1_modules"])])
        after = v["after_turn_2"]
    else:
        after = ex["after_turn_2"]
    play = Play(fx)
    play.activate(0, "G2-M-SHAGOKHOD", mv(2))
    assert play.pos(0) == ex["after_turn_1_end_phase"]["pos"] and play.s["turn"] == 2
    assert play.overheated(0) == ex["after_turn_1_end_phase"]["overheated"]
    box0 = len(play.box())
    play.activate(0, "G3-A-RAKETA", atk(1, which=1))  # the cell [2, 0]
    assert play.box()[box0:] == after["to_box"] and "G3-A-RAKETA" not in play.mods(0)
    assert play.trophies(0) == 0
    assert play.s["n_mods"][0] == after["modules"] and play.s["n_mods"][0] + 1 == after["count_incl_central"]
    assert "AB"[play.s["side"][0]] == after["side_after_end_phase"]


def test_central_module_one_property():
    """central-module-one-property (NOTES I.5.4): the central module moves (one property), gets the token in its
    slot, and allows nothing further this activation or turn."""
    play = Play("central-module-one-property")
    legal = play.legal()
    assert {SLOT_C_ATTACK, SLOT_C_MOVE, SLOT_C_ROTATE} <= {sl for sl, _ in slots_in(legal)}
    assert not {(sl, 1) for sl in (SLOT_C_ATTACK, SLOT_C_MOVE, SLOT_C_ROTATE)} & slots_in(legal)
    play.do(act(SLOT_C_MOVE, mv(1)))
    assert play.pos(0) == [-1, 0] and play.s["facing"][0] == 0
    assert play.overheated(0) == ["CENTRAL"] and play.s["tokens"] == 1
    assert play.s["turn"] == 2  # no further activation after the central module
    assert not {SLOT_C_ATTACK, SLOT_C_MOVE, SLOT_C_ROTATE} & {sl for sl, _ in slots_in(play.legal())}


def test_central_once_per_turn_after_speed():
    """NOTES I.5.2/I.5.4: after a speed module the central module may follow, but only one property once."""
    play = Play("speed-chain")
    play.activate(0, "G2-R-SHARNIR", rot(1))
    play.do(act(SLOT_C_ROTATE, rot(1)))
    assert play.s["central_heat"][0] == 1 and play.s["turn"] == 2


def test_wear_overheated_move():
    """wear-overheated-move (NOTES I.8 a): an overheated movement module may be activated and is destroyed
    (box, no trophy); an overheated attack module and the central module may not; side B at the end."""
    fx = BY_ID["wear-overheated-move"]
    play = Play(fx)
    legal = play.legal()
    sk = play.slot(0, "G1-M-SKOROKHOD-M1")
    pairs = slots_in(legal)
    assert (sk, 1) in pairs and (sk, 0) not in pairs
    assert play.slot(0, "G1-A-PUSHKA-M1") not in {sl for sl, _ in pairs}
    assert not {SLOT_C_ATTACK, SLOT_C_MOVE, SLOT_C_ROTATE} & {sl for sl, _ in pairs}
    tokens = int(play.s["tokens"])
    boxed = int(play.s["box_n"])
    play.do(act(sk, mv(1), wear=1))
    assert play.pos(0) == [-1, 0]
    assert play.box()[boxed:] == ["G1-M-SKOROKHOD-M1"] and "G1-M-SKOROKHOD-M1" not in play.mods(0)
    assert play.s["n_mods"][0] == fx["expected"]["modules_after"] and play.trophies(0) == 0
    assert play.s["side"][0] == 1 and play.s["st_wear"][0] == 1
    assert play.s["tokens"] == tokens - 1  # the worn module's token left with it


def test_wear_first_activation_option():
    """NOTES II.36: with ``wear_on_first_activation = false`` wear (a) is not the turn's first activation."""
    play = Play("wear-overheated-move", {"wear_on_first_activation": False})
    assert play.slot(0, "G1-M-SKOROKHOD-M1") not in {sl for sl, _ in slots_in(play.legal())}


def test_wear_not_twice():
    """wear-not-twice (NOTES I.8 note): a module activated earlier this turn cannot come back by wear."""
    play = Play("wear-not-twice")
    sh = play.slot(0, "G2-R-SHARNIR")
    play.activate(0, "G2-R-SHARNIR", rot(1))
    assert play.s["phase"] == PH_CONTINUE
    assert (sh, 1) not in slots_in(play.legal()) and (sh, 0) not in slots_in(play.legal())


def test_wear_autocool_as_speed():
    """wear-autocool-as-speed (NOTES I.8 b): an auto-cool rotation module used as speed, then destroyed; the
    next attack's damage is P1's trophy."""
    fx = BY_ID["wear-autocool-as-speed"]
    play = Play(fx)
    vs = play.slot(0, "G2-R-VERTUSHKA")
    assert (vs, 1) in slots_in(play.legal())
    play.do(act(vs, rot(1), wear=1))
    assert play.s["phase"] == PH_CONTINUE and play.s["facing"][0] == 0
    assert "G2-R-VERTUSHKA" in play.box() and "G2-R-VERTUSHKA" not in play.mods(0)
    play.activate(0, "G1-A-PUSHKA-M1", atk(1))  # P2 on [0, 0]
    assert play.s["pending_dmg"][1] == 1 and play.s["phase"] == PH_DISCARD and play.s["actor"] == 1
    play.decide()
    assert play.trophies(0) == 1 and play.s["n_mods"][1] == 4
    # without wear the active phase ends after ВЕРТУШКА and its token is shed in E3
    play = Play(fx)
    play.do(act(vs, rot(1)))
    assert play.s["turn"] == 2 and "G2-R-VERTUSHKA" in play.mods(0) and play.overheated(0) == []


# ---------------------------------------------------------------- heat and water decisions


def _lazer_then_f451(play: Play) -> None:
    """attack-heat-f451's sequence: ЛАЗЕР М2 (beam, speed) spends P2's side-B central armour, then F451."""
    play.activate(0, "G3-A-LAZER-M2", 0)
    assert play.s["phase"] == PH_CONTINUE and play.s["pending_dmg"][1] == 0 and play.s["central_def_used"][1] == 1
    play.activate(0, "G3-A-F451", atk(1))


def test_attack_heat_f451():
    """attack-heat-f451 (NOTES I.9.5 heat, I.10.6 step 3, II.9, II.10), as written: after the beam has spent the
    central armour, F451's 6 heat arrive; the owner overheats its 4 modules and the central one, the passive
    ФРОНТ М1 sheds its token at once, the unit left is 1 damage (1 trophy); P2 stays on side B."""
    fx = BY_ID["attack-heat-f451"]
    ex = fx["expected"]
    play = Play(fx)
    _lazer_then_f451(play)
    assert play.s["phase"] == PH_HEAT and play.s["actor"] == 1 and play.s["pending_heat"][1] == ex["heat_after_armour"]
    legal = play.legal()
    assert A_NONE in legal and A_PICK + SLOT_CENTRAL in legal
    for tile_id in fx["action"]["sequence"][1]["defender_overheats"]:
        slot = SLOT_CENTRAL if tile_id == "CENTRAL" else play.mods(1).index(tile_id)
        play.do(A_PICK + slot)
    # nothing token-free is left: the last unit became damage without asking
    assert play.s["pending_heat"][1] == 0
    assert sorted(play.overheated(1)) == sorted(ex["overheated_after"]["P2"])
    assert sorted(play.overheated(0)) == sorted(ex["overheated_after"]["P1"])
    assert play.s["phase"] == PH_DISCARD and play.s["pending_dmg"][1] == ex["damage"]["P2"]
    play.decide()
    assert play.trophies(0) == ex["trophies"]["P1"] and play.s["n_mods"][1] == ex["modules_after_end_phase"]["P2"]
    assert "AB"[play.s["side"][1]] == ex["side_after_end_phase"]["P2"]


def test_attack_heat_f451_refuse():
    """attack-heat-f451 variant_refuse (NOTES I.9.5 'не может или не хочет'): refusing leaves 2 damage."""
    fx = BY_ID["attack-heat-f451"]
    v = fx["expected"]["variant_refuse"]
    play = Play(fx)
    _lazer_then_f451(play)
    for tile_id in v["defender_overheats"]:
        play.do(A_PICK + play.mods(1).index(tile_id))
    assert play.s["phase"] == PH_HEAT  # the central module could still take one
    play.do(A_NONE)
    assert play.s["pending_dmg"][1] == v["damage"]["P2"] and play.s["central_heat"][1] == 0
    play.decide()
    assert play.trophies(0) == v["trophies"]["P1"]


def test_attack_heat_f451_alone():
    """attack-heat-f451 variant_f451_alone (NOTES I.10.6 step 3): the side-B central armour takes 1 of the 6;
    5 heat, all absorbed, no damage; each module absorbs at most one unit."""
    v = BY_ID["attack-heat-f451"]["expected"]["variant_f451_alone"]
    play = Play("attack-heat-f451")
    play.activate(0, "G3-A-F451", atk(1))
    assert play.s["pending_heat"][1] == v["heat_after_armour"]
    n = 0
    while play.s["phase"] == PH_HEAT:
        picks = [a for a in play.legal() if a >= A_PICK]
        assert len(picks) == len(set(picks))
        play.do(picks[0])
        n += 1
    assert n == v["overheated_by_heat"] and play.s["pending_dmg"][1] == v["damage"]["P2"]
    assert play.s["tokens"] == 1 + 4  # F451 + 3 modules + central (the passive ФРОНТ М1 sheds its token)


def test_water_decision():
    """terrain-water (NOTES I.12.2, II.5): the owner cools one overheated module of its choice (PH_WATER)."""
    play = Play("terrain-water")
    play.activate(0, "G1-M-SKOROKHOD-M1", mv(1))
    assert play.s["phase"] == 4 and play.s["actor"] == 0  # PH_WATER
    legal = play.legal()
    assert A_NONE in legal and A_PICK + play.slot(0, "G2-A-MORTIRA") in legal
    play.do(A_PICK + play.slot(0, "G2-A-MORTIRA"))
    assert sorted(play.overheated(0)) == sorted(["G1-A-PUSHKA-M1", "G1-M-SKOROKHOD-M1"])


# ---------------------------------------------------------------- pickups, timing, collisions


def test_defence_new_module_timing():
    """defence-new-module-timing (NOTES I.11.4 E1): a picked-up module is not usable in the rest of the turn; a
    picked-up defence module already works in the next player's turn."""
    fx = BY_ID["defence-new-module-timing"]
    play = Play(fx)
    play.do(A_COOL)
    assert "G2-D-FRONT-M2" in play.mods(0) and play.s["active"] == 1
    slot = play.slot(0, "G2-D-FRONT-M2")
    assert play.s["def_used"][0, slot] == 0 and play.s["used"][0, slot] == 0
    play.activate(1, "G2-A-NEZABUDKA", atk(1))
    assert play.s["pending_dmg"][0] == fx["expected"]["turn_2_damage"]["P1"]
    assert play.s["def_used"][0, slot] == 1
    play.decide()
    assert play.trophies(1) == fx["expected"]["trophies"]["P2"]


def test_pickup_marks_used_this_turn():
    """end-phase-pickup-and-refill (NOTES I.11.4 E1, I.16.2): the picked tile joins face down; the pickup is
    logged and counted by type."""
    play = Play("end-phase-pickup-and-refill")
    play.activate(0, "G1-M-SKOROKHOD-M1", mv(1))
    picked = play.rows(EV_PICKUP)
    assert len(picked) == 1 and tile_id_of(play.rules, int(picked[0, 3])) == "G2-A-MORTIRA"
    assert play.s["st_picked"][0, 0] == 1 and play.s["n_picks"][0] == 1
    slot = play.slot(0, "G2-A-MORTIRA")
    assert play.s["revealed"][0, slot] == 0


def test_collision_no_pickup():
    """collision-no-pickup (NOTES I.7.5, I.13.1): a robot shoved onto a module tile does not take it; it takes it
    at the end of its own turn if it is still there."""
    play = Play("collision-no-pickup")
    play.activate(0, "G1-M-SKOROKHOD-M1", mv(1))
    assert play.pos(0) == [-1, 0] and play.pos(1) == [0, 0]
    assert play.s["n_mods"][1] == 5 and play.s["n_mods"][0] == 5
    c = play.cell([0, 0])
    assert tile_id_of(play.rules, int(play.s["cell_tile"][c])) == "G2-A-MORTIRA"
    assert play.s["active"] == 1
    play.do(A_COOL)
    assert "G2-A-MORTIRA" in play.mods(1) and play.s["cell_tile"][c] == -1  # no refill under a robot


# ---------------------------------------------------------------- end phase


def test_end_phase_pickup_and_refill():
    """end-phase-pickup-and-refill (NOTES I.11.4 E1, E4, VI.2): the active robot takes its tile; every empty cell
    without a robot is refilled in cell order, face down."""
    fx = BY_ID["end-phase-pickup-and-refill"]
    play = Play(fx)
    play.activate(0, "G1-M-SKOROKHOD-M1", mv(1))
    assert play.pos(0) == [1, -1] and play.s["n_mods"][0] == fx["expected"]["modules_after"]["P1"]
    refills = play.rows(EV_REFILL)
    assert [list(play.rules.cell_qr(int(c))) for c in refills[:, 1]] == fx["expected"]["refilled_cells"]
    assert (refills[:, 3] == 0).all()
    for qr in fx["expected"]["not_refilled"]:
        assert play.s["cell_tile"][play.cell(qr)] == -1
    assert play.s["stack_n"] == fx["expected"]["gen3_stack_after"]
    steps = play.rows(EV_END_STEP)
    assert list(steps[:, 1]) == [0, 1, 2, 3, 4, 5]


def test_end_phase_module_limit():
    """end-phase-module-limit (NOTES I.13.2, II.25): a 13th module forces a discard, which becomes the player's
    own trophy; the new tile may itself be the discard."""
    fx = BY_ID["end-phase-module-limit"]
    play = Play(fx)
    play.do(A_COOL)
    assert play.s["phase"] == PH_LIMIT and play.s["actor"] == 0 and play.s["n_mods"][0] == 13
    assert play.legal() == [A_PICK + k for k in range(13)]
    play.do(A_PICK + play.slot(0, "G2-D-BORT"))
    assert play.s["n_mods"][0] == fx["expected"]["modules_after"]["P1"] and play.trophies(0) == 1
    assert tile_id_of(play.rules, int(play.s["trophies"][0, 0])) == "G2-D-BORT"
    assert len(play.rows(EV_LIMIT_DISCARD)) == 1 and play.s["turn"] == 2


def test_module_limit_new_not_discardable_option():
    """NOTES II.25 alternative: with ``module_limit_may_discard_new = false`` the new tile cannot be the discard."""
    play = Play("end-phase-module-limit", {"module_limit_may_discard_new": False})
    play.do(A_COOL)
    assert play.legal() == [A_PICK + k for k in range(12)]


def test_mode_switch():
    """mode-switch (NOTES I.11.4 E2/E5, I.11.5): a robot falling to 5 incl. central turns to side B at the end of
    that (opponent's) turn, and back to side A at the end of the turn in which it has 6 again."""
    fx = BY_ID["mode-switch"]
    play = Play(fx)
    play.activate(0, "G1-A-PUSHKA-M1", atk(1))
    assert play.s["phase"] == PH_DISCARD and play.s["actor"] == 1
    play.decide({1: ["G2-A-MORTIRA"]})
    assert play.s["n_mods"][1] == 4 and play.s["side"][1] == 1 and play.trophies(0) == 1
    assert play.s["active"] == 1
    play.activate(1, "G1-M-SKOROKHOD-M1", mv(1))
    assert "G2-A-TOPOR" in play.mods(1) and play.s["side"][1] == 0
    switches = play.rows(EV_SIDE_SWITCH)
    assert [(int(r[1]), int(r[2]), int(r[5])) for r in switches] == [(1, 5, 1), (1, 2, 0)]


def test_discard_after_pickup_option():
    """NOTES II.12 alternative ``discard_timing = after_pickup``: the discards come after E1, so the counts of
    E2 see them (the end steps still run in the order 1, 0, 2, ...)."""
    play = Play("mode-switch", {"discard_timing": "after_pickup"})
    play.activate(0, "G1-A-PUSHKA-M1", atk(1))
    assert play.s["phase"] == PH_DISCARD
    assert list(play.rows(EV_END_STEP)[:, 1]) == [1, 0]
    play.decide()
    assert play.s["side"][1] == 1


# ---------------------------------------------------------------- end of the game


def test_end_ten_trophies():
    """end-ten-trophies (NOTES I.14.1, II.12, II.13): 10 trophies end the game after the E0 discards; no pickup
    or refill follows."""
    fx = BY_ID["end-ten-trophies"]
    play = Play(fx)
    stack = int(play.s["stack_n"])
    play.activate(0, "G2-A-MORTIRA", atk(1))
    play.decide()
    assert play.s["over"] == 1 and play.s["phase"] == PH_OVER and play.s["end_reason"] == END_TROPHIES
    assert [play.trophies(p) for p in (0, 1)] == [10, 3]
    assert list(play.s["winner"][:3]) == [1, 0, 0] and play.s["rank"][0] == 1
    assert len(play.rows(EV_PICKUP)) == 0 and len(play.rows(EV_REFILL)) == 0 and play.s["stack_n"] == stack
    assert play.legal() == []


def test_end_robot_destroyed():
    """end-robot-destroyed (NOTES I.10.6 step 3, I.11.3, I.14, II.22), as written: ГАУБИЦА 3 - P2's side-B
    central armour 1 = 2 damage; P2 discards its only tile, then must discard the central module: destroyed, the
    game ends; the central module is no trophy; the destroyed robot's owner still wins on trophies."""
    fx = BY_ID["end-robot-destroyed"]
    ex = fx["expected"]
    play = Play(fx)
    play.activate(0, "G3-A-GAUBITSA", atk(1))
    assert play.s["central_def_used"][1] == 1 and ex["absorbed"] == {"CENTRAL": 1}
    assert play.s["over"] == 1 and play.s["end_reason"] == END_DESTROYED and play.s["end_trigger"] == 1
    assert play.s["destroyed"][1] == 1 and play.s["n_mods"][1] == 0
    assert [play.trophies(p) for p in (0, 1)] == [ex["trophies_after"]["P1"], ex["trophies_after"]["P2"]]
    assert list(play.s["winner"][:2]) == [0, 1] and play.s["final_modules"][1] == 0
    discards = play.rows(EV_DISCARD)
    assert [tile_id_of(play.rules, int(r[2])) for r in discards] == ex["discarded"]["P2"]  # not the central module


def test_end_robot_not_destroyed_with_central_armour():
    """end-robot-destroyed's note: МОРТИРА's 2 - 1 central armour = 1 damage = P2's 1 module, discarded without
    asking; the robot survives on its central module alone (NOTES I.11.3)."""
    fx = BY_ID["end-robot-destroyed"]
    p1 = dict(fx["robots"][0], modules=[*fx["robots"][0]["modules"][:4], "G2-A-MORTIRA"])
    play = Play(dict(fx, robots=[p1, fx["robots"][1]]))
    play.activate(0, "G2-A-MORTIRA", atk(1))
    assert play.s["over"] == 0 and play.s["n_mods"][1] == 0 and play.s["destroyed"][1] == 0
    assert play.trophies(0) == 3


def test_destroy_immediate_option():
    """NOTES II.22 ``destruction_check = immediate``: no further activation after the hit that destroys (the speed
    chain is cut and the end phase runs at once). ЛАЗЕР М2 (speed) spends P2's central armour, ПУШКА М2 (speed)
    then deals 2 to P2's single module."""
    fx = dict(BY_ID["end-robot-destroyed"])
    p1 = dict(fx["robots"][0], modules=[*fx["robots"][0]["modules"][:4], "G3-A-LAZER-M2", "G2-A-PUSHKA-M2"])
    fx["robots"] = [p1, fx["robots"][1]]
    for immediate in (False, True):
        play = Play(fx, {"destruction_check": "immediate" if immediate else "end_of_turn"})
        play.activate(0, "G3-A-LAZER-M2", 0)
        play.activate(0, "G2-A-PUSHKA-M2", atk(1))
        assert (play.s["over"] == 1) == immediate
        if immediate:
            assert play.s["destroyed"][1] == 1 and play.s["end_reason"] == END_DESTROYED
        else:
            assert play.s["phase"] == PH_CONTINUE and play.s["pending_dmg"][1] == 2


def test_end_gen3_exhausted():
    """end-gen3-exhausted (NOTES I.14.1, II.15): the game ends when a cell needs a gen-3 tile and the stack is
    empty; an empty stack alone does not end it."""
    fx = BY_ID["end-gen3-exhausted"]
    play = Play(fx)
    play.do(A_COOL)
    refills = play.rows(EV_REFILL)
    assert [list(play.rules.cell_qr(int(c))) for c in refills[:, 1]] == fx["expected"]["refilled_cells"]
    assert play.s["stack_n"] == 0 and play.s["over"] == 1 and play.s["end_reason"] == END_GEN3
    ex = play.rows(EV_STACK_EXHAUSTED)
    assert len(ex) == 1 and list(play.rules.cell_qr(int(ex[0, 1]))) == [-1, 2]
    assert play.s["end_trigger"] == play.cell([-1, 2])
    fx2 = dict(fx, field=[f for f in fx["field"] if f["cell"] != [-1, 2]])
    fx2["field"].append({"cell": [-1, 2], "tile": "G2-A-MORTIRA"})
    play = Play(fx2)
    play.do(A_COOL)
    assert play.s["over"] == 0 and play.s["stack_n"] == 0


def tie_position(trophies: dict, remaining: dict, destroyed=(), options=None) -> Play:
    """A 3-player position whose next end phase ends the game (empty stack, empty cells)."""
    seats = sorted(remaining)
    layout_cells = {"P1": [-2, 0], "P2": [0, 0], "P3": [2, 0]}
    robots = []
    for rid in seats:
        n_tiles = max(remaining[rid] - 1, 0)
        robots.append({"id": rid, "pos": layout_cells[rid], "facing": 0, "side": "A",
                       "modules": ["G1-A-PUSHKA-M1"] * n_tiles})
    fx = {"layout": "3p", "robots": robots, "trophies_before": trophies, "gen3_stack": 0}
    play = Play(fx, options)
    for rid in destroyed:
        play.s["destroyed"][int(rid[1:]) - 1] = 1
    return play


@pytest.mark.parametrize("case", BY_ID["end-winner-tie-breaks"]["cases"], ids=range(4))
def test_end_winner_tie_breaks(case):
    """end-winner-tie-breaks (NOTES I.14.2, II.38): most trophies; then most remaining modules (tiles + central,
    a destroyed robot 0); then a draw."""
    play = tie_position(case["trophies"], case["remaining"], case.get("destroyed", ()))
    play.do(A_COOL)
    assert play.s["over"] == 1
    n = len(case["remaining"])
    winners = [f"P{p + 1}" for p in range(n) if play.s["winner"][p]]
    if case["winner"] == "draw":
        assert len(winners) > 1
    else:
        assert winners == [case["winner"]]
    for p in range(n):
        rid = f"P{p + 1}"
        expect = 0 if rid in case.get("destroyed", ()) else case["remaining"][rid]
        assert play.s["final_modules"][p] == expect


def test_tie_break_without_central_option():
    """NOTES II.38 alternative: ``tie_break_count_includes_central = false`` counts module tiles only."""
    play = tie_position({"P1": 1, "P2": 1}, {"P1": 3, "P2": 2}, options={"tie_break_count_includes_central": False})
    play.do(A_COOL)
    assert list(play.s["final_modules"][:2]) == [2, 1] and list(play.s["winner"][:2]) == [1, 0]


def test_team_mode():
    """team-mode (NOTES I.15.2, II.23): damage to a team-mate is no trophy (box); 15 team trophies end the game,
    a single player's 10 do not; both team-mates win."""
    fx = BY_ID["team-mode"]
    play = Play(fx, {"team": True})
    assert list(play.s["team_of"]) == [0, 1, 0, 1]
    play.activate(0, "G3-A-RAKETA", atk(1))
    assert list(play.s["pending_dmg"]) == [0, 3, 1, 0]
    play.decide()
    exp = fx["expected"]
    assert [play.trophies(p) for p in range(4)] == [exp["trophies_after"][f"P{p + 1}"] for p in range(4)]
    assert play.s["over"] == 1 and play.s["end_reason"] == END_TEAM_TROPHIES
    assert list(play.s["winner"]) == [1, 0, 1, 0] and list(play.s["rank"]) == [1, 2, 1, 2]
    reasons = play.rows(EV_DISCARD)
    p3 = reasons[reasons[:, 1] == 2]
    assert len(p3) == 1 and p3[0, 3] == -1 and p3[0, 4] == 2  # box, DR_TEAM_MATE
    assert "G3-A-RAKETA" in play.box()


def test_team_individual_trophies():
    """NOTES II.23: in team mode a player's 10 trophies end the game only with
    ``team_individual_trophies_end_game``."""
    fx = dict(BY_ID["team-mode"], trophies_before={"P1": 9, "P2": 0, "P3": 0, "P4": 0})
    for individual in (False, True):
        play = Play(fx, {"team": True, "team_individual_trophies_end_game": individual})
        play.activate(0, "G3-A-RAKETA", atk(1))
        play.decide()
        assert play.trophies(0) == 12
        assert play.s["over"] == int(individual)
        if individual:
            assert play.s["end_reason"] == END_TROPHIES


def test_team_tie_break_team_modules():
    """NOTES II.23: team trophies tie -> team remaining modules decide, for both team-mates."""
    robots = []
    cells = {"P1": [-2, 0], "P2": [0, 0], "P3": [2, 0], "P4": [0, 2]}
    counts = {"P1": 2, "P2": 4, "P3": 5, "P4": 1}
    for rid, k in counts.items():
        robots.append({"id": rid, "pos": cells[rid], "facing": 0, "modules": ["G1-A-PUSHKA-M1"] * k})
    fx = {"layout": "4p", "robots": robots, "trophies_before": {"P1": 3, "P2": 1, "P3": 0, "P4": 2},
          "gen3_stack": 0}
    play = Play(fx, {"team": True})
    play.do(A_COOL)
    assert play.s["over"] == 1 and play.s["end_reason"] == END_GEN3
    assert list(play.s["winner"]) == [1, 0, 1, 0]  # 3 + 0 vs 1 + 2 trophies; 2+5 (+2) vs 4+1 (+2) modules


def test_team_gen3_option():
    """NOTES II.23: with ``team_gen3_exhaustion_ends_game = false`` an empty stack does not end a team game."""
    robots = [{"id": f"P{k + 1}", "pos": qr, "facing": 0, "modules": ["G1-A-PUSHKA-M1"] * 5}
              for k, qr in enumerate(([-2, 0], [0, 0], [2, 0], [0, 2]))]
    fx = {"layout": "4p", "robots": robots, "gen3_stack": 0}
    play = Play(fx, {"team": True, "team_gen3_exhaustion_ends_game": False})
    play.do(A_COOL)
    assert play.s["over"] == 0 and len(play.rows(EV_STACK_EXHAUSTED)) == 1 and play.s["active"] == 1


def test_expert_mode():
    """expert-mode (NOTES I.15.1): every tile is laid face up, gen-3 refills too, and robots' modules are kept
    face up."""
    s_arr = new_game(3, 7, {"mode": "expert"})[1]
    s = s_arr[0]
    assert (s["cell_up"][: s["n_cells"]] == 1).all()
    assert (s["revealed"][:3, :4] == 1).all()
    play = Play("end-phase-pickup-and-refill", {"mode": "expert"})
    play.activate(0, "G1-M-SKOROKHOD-M1", mv(1))
    assert (play.rows(EV_REFILL)[:, 3] == 1).all()
    assert play.s["revealed"][0, play.slot(0, "G2-A-MORTIRA")] == 1


def test_token_limit_option():
    """NOTES II.24: with ``overheat_token_limit = 40`` no activation is legal once 40 tokens are out; cooling is."""
    play = Play("central-module-one-property", {"overheat_token_limit": 40})
    play.s["tokens"] = 40
    assert play.legal() == [A_COOL]


def test_discard_is_owner_choice_and_forced_when_all():
    """NOTES I.11.1/I.11.3: the owner picks each discard (PH_DISCARD); when the damage equals its module count
    every module goes without asking."""
    play = Play("defence-nezabudka-front")
    play.activate(0, "G2-A-NEZABUDKA", atk(1))
    assert play.s["phase"] == PH_DISCARD and play.s["discard_seat"] == 1
    assert play.legal() == [A_PICK + k for k in range(5)]
    play.do(A_PICK + 4)
    play.do(A_PICK + 0)
    assert play.trophies(0) == 2 and play.s["side"][1] == 1
    trophies = [tile_id_of(play.rules, int(i)) for i in play.s["trophies"][0, :2]]
    assert trophies == ["G2-A-LAZER", "G1-A-PUSHKA-M1"]
    assert play.s["phase"] == PH_ACTIVE and play.s["active"] == 1


def test_placement_triggers_terrain_option():
    """NOTES II.16: placement sets nothing off by default; with ``start_placement_triggers_terrain = true`` a robot
    placed on ЛОВУШКА sets it off: its own losses go to the box, an adjacent robot's are the placer's trophies."""
    starters = ["G1-A-PUSHKA-M1", "G1-M-SKOROKHOD-M1", "G1-R-OS-M1", "G1-D-FRONT-M1"]
    fx = {"layout": "3p", "field": [{"cell": [-2, 0], "tile": "G2-T-LOVUSHKA"}],
          "robots": [{"id": "P1", "modules": starters},
                     {"id": "P2", "pos": [-1, 0], "facing": 0, "modules": [*starters, "G2-A-LAZER"]}]}
    for trigger in (False, True):
        play = Play(fx, {"start_placement_triggers_terrain": trigger})
        s = play.s
        s["phase"] = PH_PLACE
        s["actor"] = s["active"] = s["first_player"] = 0
        s["turn"] = 0
        s["n_placed"] = 2  # P2 is placed; P3 takes no part
        play.do(A_PLACE + play.cell([-2, 0]) * 6)
        if not trigger:
            assert s["phase"] == PH_ACTIVE and s["turn"] == 1 and s["cell_tile"][play.cell([-2, 0])] >= 0
            continue
        assert s["cell_tile"][play.cell([-2, 0])] == -1 and "G2-T-LOVUSHKA" in play.box()
        assert s["phase"] == PH_DISCARD and s["actor"] == 0 and list(s["pending_dmg"][:2]) == [2, 1]
        play.decide()
        assert s["n_mods"][0] == 2 and s["n_mods"][1] == 4 and play.trophies(0) == 1
        assert s["phase"] == PH_ACTIVE and s["turn"] == 1 and s["active"] == 0
