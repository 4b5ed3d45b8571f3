"""Steel Arena's Python face: the Game contract over the compiled kernels, and the observation helpers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, EventTable, Kernels, Observation
from simlab.core.datavariants import Ablation, DataFiles
from simlab.games.steel_arena import render, variants
from simlab.games.steel_arena.batch import play_games, py_results
from simlab.games.steel_arena.codes import (
    A_ACT,
    LOG_WIDTH,
    MAX_ACTIONS,
    SLOT_C_ATTACK,
    SLOT_C_MOVE,
    SLOT_C_ROTATE,
)
from simlab.games.steel_arena.columns import (
    BOOL_COLUMNS,
    GAME_COLUMNS,
    PICKUP_COLUMNS,
    PICKUPS_PER_SEAT,
    SEAT_COLUMNS,
)
from simlab.games.steel_arena.data import (
    DELIVERIES,
    HEX_DIRECTIONS,
    T_DELIVERY,
    T_TYPE,
    TILE_TYPES,
    SteelArenaData,
    load_data,
)
from simlab.games.steel_arena.dispatch import choose_action
from simlab.games.steel_arena.players import BUILTIN_PLAYERS
from simlab.games.steel_arena.rules import py_setup, py_step
from simlab.games.steel_arena.ruleset import RULE_ARGS, SteelArenaRules, build_ruleset
from simlab.games.steel_arena.search_hooks import SEARCH_PLAYER, search_action
from simlab.games.steel_arena.state import (
    END_REASONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PH_ACTIVE,
    PH_CONTINUE,
    STATE_DTYPE,
    STREAM_SEAT0,
)

HIDDEN = -2  # an instance id the seat may not know (its type stays visible)


@dataclass(frozen=True)
class CellView:
    """One field cell as a seat sees it: ``tile`` is a design id, or None (empty or hidden);
    ``type`` the tile's type (visible even face down); ``robot`` the seat standing there, or None."""

    q: int
    r: int
    tile: str | None
    type: str | None
    face_up: bool
    robot: int | None


class SteelArenaObservation(Observation):
    """What a Python player sees: ``seat``, ``legal``, ``state``, ``rules``, plus the arena helpers.

    Helpers (all from this seat's view; hidden tiles show only their type):
    ``cell(q, r)`` and ``arena_around(radius, seat)`` (the cells near a robot), ``robot(seat)``
    (cell, facing, side, modules, tokens, trophies), ``line_of_fire(seat)`` (the cells a robot's
    shots travel along), ``targets(action)`` (the cells an attack action would strike), and
    ``preview(action)`` (where every robot stands and faces after a move, rotation or push).
    """

    rules: SteelArenaRules

    def _view(self) -> np.void:
        return self.state

    def cell(self, q: int, r: int) -> CellView:
        """The field cell at axial ``(q, r)`` (ValueError off the field)."""
        c = self.rules.cell_index(q, r)
        rec = self._view()
        inst = int(rec["cell_tile"][c])
        t = int(rec["cell_type"][c])
        robot = next((p for p in range(int(rec["n_players"])) if rec["placed"][p] and not rec["destroyed"][p]
                      and int(rec["cell"][p]) == c), None)
        return CellView(q, r, None if inst < 0 else self.rules.design(inst).tile_id,
                        None if t < 0 else TILE_TYPES[t], bool(rec["cell_up"][c]), robot)

    def robot(self, seat: int | None = None) -> dict[str, Any]:
        """A robot as this seat sees it: cell, facing, side, modules (design id or None when hidden,
        with type and token), central token, trophies and pending damage."""
        rec = self._view()
        p = self.seat if seat is None else int(seat)
        mods = []
        for k in range(int(rec["n_mods"][p])):
            inst = int(rec["mods"][p, k])
            mods.append({"module": None if inst < 0 else self.rules.design(inst).tile_id,
                         "type": TILE_TYPES[int(rec["mod_type"][p, k])], "overheated": bool(rec["heat"][p, k]),
                         "used_this_turn": bool(rec["used"][p, k])})
        cell = int(rec["cell"][p])
        return {
            "cell": None if cell < 0 else list(self.rules.cell_qr(cell)),
            "facing": int(rec["facing"][p]),
            "side": "AB"[int(rec["side"][p])],
            "modules": mods,
            "central_overheated": bool(rec["central_heat"][p]),
            "trophies": int(rec["n_trophies"][p]),
            "pending_damage": int(rec["pending_dmg"][p]),
        }

    def arena_around(self, radius: int = 1, seat: int | None = None) -> list[CellView]:
        """Every field cell within ``radius`` steps of a robot (this seat's by default), nearest first."""
        rec = self._view()
        p = self.seat if seat is None else int(seat)
        c0 = int(rec["cell"][p])
        if c0 < 0:
            return []
        q0, r0 = self.rules.cell_qr(c0)
        out = []
        for c in range(len(self.rules.cells)):
            q, r = self.rules.cell_qr(c)
            d = (abs(q - q0) + abs(r - r0) + abs(q + r - q0 - r0)) // 2
            if d <= radius:
                out.append((d, c, self.cell(q, r)))
        return [v for _, _, v in sorted(out, key=lambda x: (x[0], x[1]))]

    def line_of_fire(self, seat: int | None = None) -> list[tuple[int, int]]:
        """The cells from a robot (this seat's by default) straight ahead up to the arena's edge."""
        rec = self._view()
        p = self.seat if seat is None else int(seat)
        c = int(rec["cell"][p])
        f = int(rec["facing"][p])
        cells = []
        while c >= 0:
            c = int(self.rules.nbr[c, f])
            if c >= 0:
                cells.append(self.rules.cell_qr(c))
        return cells

    def targets(self, action: int) -> list[tuple[int, int]]:
        """The cells an attack action would strike from here (empty for other actions).

        Direct, arc and melee strike their one chosen cell; a beam the whole line of fire; a
        sweep the front cell and its two neighbours beside the robot (splash adds the cells
        around the struck one, not listed here).
        """
        if action < A_ACT:
            return []
        code = render.decode_action(action)
        slot, param = code["slot"], code["param"]
        rec = self._view()
        p = self.seat
        if slot == SLOT_C_ATTACK:
            delivery = DELIVERIES[int(self.rules.robots[p, int(rec["side"][p]), 0])]
        elif slot in (SLOT_C_MOVE, SLOT_C_ROTATE):
            return []
        else:
            inst = int(self._state[0]["mods"][p, slot])  # own module: the seat knows it
            row = self.rules.tiles[self.rules.pool[inst]]
            if TILE_TYPES[int(row[T_TYPE])] != "attack":
                return []
            delivery = DELIVERIES[int(row[T_DELIVERY])]
        line = self.line_of_fire()
        if delivery == "beam":
            return line
        if delivery == "sweep":
            c, f = int(rec["cell"][p]), int(rec["facing"][p])
            return [self.rules.cell_qr(int(self.rules.nbr[c, d])) for d in (f, (f + 1) % 6, (f + 5) % 6)
                    if self.rules.nbr[c, d] >= 0]
        t = param // 32
        return [line[t]] if t < len(line) else []

    def preview(self, action: int) -> dict[int, dict[str, Any]]:
        """Every robot's cell and facing after ``action`` (moves, rotations, pushes, whirls).

        Computed by the game's own step kernel on a copy of the true position; only public
        consequences are returned (where robots stand and face), never hidden tiles.
        """
        copy = self._state.copy()
        self._game.step(self.rules, copy, int(action), self._game.new_log(0))
        rec = copy[0]
        return {p: {"cell": None if rec["cell"][p] < 0 else list(self.rules.cell_qr(int(rec["cell"][p]))),
                    "facing": int(rec["facing"][p])} for p in range(int(rec["n_players"]))}

    @property
    def my_turn_phase(self) -> str:
        """``active`` (first choice of the turn), ``continue`` (after a speed module) or ``decision``
        (heat, water, discards, module limit)."""
        ph = int(self._state[0]["phase"])
        return "active" if ph == PH_ACTIVE else "continue" if ph == PH_CONTINUE else "decision"


class SteelArenaGame(CompiledGame):
    """Steel Arena (GaGa Games, 2016): robots on a hex arena grow by picking up modules and knock
    modules off each other; trophies win."""

    name = "steel_arena"
    title = "Steel Arena"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = "robot combat on a hex arena: modules, overheat, collisions, trophies (2-4 players, 2 v 2 teams)"
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=MAX_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=RULE_ARGS,
        setup=py_setup,
        step=py_step,
        choose=choose_action,
        search_profile=search_action,
        batch=play_games,
        results=py_results,
        game_columns=GAME_COLUMNS,
        seat_columns=SEAT_COLUMNS,
        events=(
            EventTable("pickups", "one row per module picked up in the end phase: seat, turn, design, type, "
                                  "generation, kept (still on the robot at the end); design 'none' rows are "
                                  "unused slots", PICKUP_COLUMNS, PICKUPS_PER_SEAT),
        ),
    )
    renderer = render
    players = {**BUILTIN_PLAYERS, SEARCH_PLAYER.name: SEARCH_PLAYER}  # noqa: RUF012 - a class-level declaration
    observation_class = SteelArenaObservation
    bench_mixes = (
        ("brawler", "brawler"), ("random", "random"), ("sniper", "sniper"), ("collector", "collector"),
        ("brawler", "sniper", "collector"), ("brawler",) * 4, ("search", "brawler"), ("ismcts", "brawler"),
        ("brawler_v1", "brawler_v1"),  # the brawler before issue 24: its speed beside the brawler's
    )
    ladder_players = ("random", "collector", "sniper", "brawler", "search", "ismcts")
    report_notebook = "steel_arena_balance.ipynb"
    bool_columns = BOOL_COLUMNS
    trace_capacity = 1 << 16  # a snapshot at every turn start: about 80 log rows a turn
    position_columns = ()  # robots choose their start cells: no dealt start positions
    standard_columns = {"first_player": "first_player", "turns": "turns"}  # noqa: RUF012

    # ---- content and rules
    def load_default_data(self) -> SteelArenaData:
        return load_data()

    def data_files(self) -> DataFiles:
        return variants.DATA

    def ablation(self) -> Ablation | None:
        return variants.ABLATION

    def build_rules(self, n_players: int, data: SteelArenaData, options: dict[str, Any]) -> SteelArenaRules:
        return build_ruleset(n_players, data, options)

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy with what ``seat`` may not know replaced by ``HIDDEN`` (-2), types kept.

        Basic mode hides face-down field tiles and other robots' modules not yet used (NOTES
        I.16); both modes hide the generation-3 stack's order and contents, the box, and every
        random stream but the seat's own.
        """
        copy = state.copy()
        rec = copy[0]
        n_cells = int(rec["n_cells"])
        for c in range(n_cells):
            if rec["cell_tile"][c] >= 0 and not rec["cell_up"][c]:
                rec["cell_tile"][c] = HIDDEN
        for p in range(int(rec["n_players"])):
            if p == seat:
                continue
            for k in range(int(rec["n_mods"][p])):
                if not rec["revealed"][p, k]:
                    rec["mods"][p, k] = HIDDEN
        rec["stack"][: int(rec["stack_n"])] = HIDDEN
        rec["box"][: int(rec["box_n"])] = HIDDEN
        own_key = state[0]["rng_key"][STREAM_SEAT0 + seat]
        own_ctr = state[0]["rng_ctr"][STREAM_SEAT0 + seat]
        rec["rng_key"][:] = 0
        rec["rng_ctr"][:] = 0
        rec["rng_key"][STREAM_SEAT0 + seat] = own_key
        rec["rng_ctr"][STREAM_SEAT0 + seat] = own_ctr
        return copy

    def render_svg(self, rules: SteelArenaRules, state: np.ndarray, seat: int | None = None) -> str:
        """The position as an SVG board (see simlab/games/steel_arena/svg.py)."""
        from simlab.games.steel_arena.svg import board_svg
        return board_svg(rules, state[0], seat)

    def categorical_columns(self, rules: SteelArenaRules | None = None) -> dict[str, dict[str, list[str]]]:
        data = rules.data if rules is not None else self.default_data()
        designs = ["none", *[t.tile_id for t in data.tiles]]
        return {
            "games": {"end_reason": list(END_REASONS)},
            "pickups": {"design": designs, "type": ["none", *TILE_TYPES]},
        }

    def describe_turn(self, rules: SteelArenaRules, state: np.ndarray) -> str:
        rec = state[0]
        if int(rec["turn"]) == 0:
            return "placing robots"
        return f"turn {int(rec['turn'])}, P{int(rec['active']) + 1} active"


assert MAX_PLAYERS == 4 and len(HEX_DIRECTIONS) == 6
