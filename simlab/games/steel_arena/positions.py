"""Hand-made positions: a state record from a position described in the fixtures' notation.

The notation is the one of ``examples.toml`` (the research notes' test fixtures, NOTES I.17):

    layout   "2p" / "3p" / "4p" (the ruleset must be for that layout's player count)
    field    [{cell = [q, r], tile = "TILE_ID"}, ...]; unlisted cells are empty, unless
             unlisted_cells = "module tiles" (face-down gen-3 modules that play no part)
    robots   [{id = "P1", pos = [q, r], facing = f, side = "A", modules = [...], overheated = [...]}]
             ids P1..P4 are seats 0..3; "CENTRAL" in ``overheated`` puts a token on the central
             module; a seat without ``pos`` is not on the field (it does not take part)
    active   "P1" (default), the seat whose turn it is
    trophies_before  {P1 = 9, ...}: that many trophies already won (any spare tiles)

Tile instances are taken from the ruleset's pool in order (the first unused copy of a design);
every tile not placed goes to the generation-3 stack (gen-3 designs not used, in pool order)
or the box, so tiles are conserved. The state is ready for the active seat's first decision of
its turn (phase PH_ACTIVE).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from simlab.core.rng import derive_key
from simlab.games.steel_arena.data import T_GENERATION, T_TYPE, TILE_TYPES
from simlab.games.steel_arena.ruleset import SteelArenaRules
from simlab.games.steel_arena.state import (
    MAX_PLAYERS,
    N_STREAMS,
    PH_ACTIVE,
    STATE_DTYPE,
)

TERRAIN = TILE_TYPES.index("terrain")


class _Allocator:
    """Hands out unused tile instances of a design, first copy first."""

    def __init__(self, rules: SteelArenaRules) -> None:
        self.rules = rules
        self.free = np.ones(len(rules.pool), dtype=bool)

    def take(self, tile_id: str) -> int:
        d = next((i for i, t in enumerate(self.rules.data.tiles) if t.tile_id == tile_id), None)
        if d is None:
            raise ValueError(f"unknown tile '{tile_id}'")
        for inst in np.nonzero((self.rules.pool == d) & self.free)[0]:
            self.free[inst] = False
            return int(inst)
        # more copies than the box holds: the position's ruleset gets a spare copy of the design
        self.rules.pool = np.append(self.rules.pool, np.int32(d)).astype(np.int32)
        self.free = np.append(self.free, False)
        return len(self.rules.pool) - 1

    def take_any(self, generation: int | None = None, module: bool = True) -> int:
        for inst in np.nonzero(self.free)[0]:
            row = self.rules.tiles[self.rules.pool[inst]]
            if generation is not None and row[T_GENERATION] != generation:
                continue
            if module and row[T_TYPE] == TERRAIN:
                continue
            self.free[inst] = False
            return int(inst)
        raise ValueError("no spare tile left for this position")


def seat_of(robot_id: str) -> int:
    """Seat index of a fixture robot id (``P1`` -> 0)."""
    return int(robot_id[1:]) - 1


def fixture_position(rules: SteelArenaRules, fixture: dict[str, Any],
                     seed: int = 0) -> tuple[SteelArenaRules, np.ndarray]:
    """``(ruleset, state)`` for the position ``fixture`` describes (module docstring).

    The ruleset is ``rules`` itself, or a copy whose pool has spare copies of a design when the
    position needs more copies than the tile set has (fixtures give many robots the same filler).
    """
    rules = dataclasses.replace(rules, pool=rules.pool.copy())
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    alloc = _Allocator(rules)
    n_cells = len(rules.cells)
    s["seed"] = seed
    s["n_players"] = rules.n_players
    s["n_cells"] = n_cells
    s["n_tiles"] = len(rules.pool)
    expert = rules.options["mode"] == "expert"
    s["expert"] = expert
    s["team"] = bool(rules.options["team"])
    for p in range(MAX_PLAYERS):
        s["team_of"][p] = p % 2 if s["team"] else 0
    for k in range(N_STREAMS):
        s["rng_key"][k] = derive_key(np.uint64(seed), np.uint64(k))
    s["cell_tile"][:] = -1
    s["cell_type"][:] = -1
    s["cell"][:] = -1
    s["mods"][:] = -1
    s["mod_type"][:] = -1
    listed = set()
    for entry in fixture.get("field", []):
        listed.add(rules.cell_index(*entry["cell"]))
        if not entry.get("tile"):
            continue  # listed as empty
        c = rules.cell_index(*entry["cell"])
        inst = alloc.take(entry["tile"])
        _lay(rules, s, c, inst, expert)
    robots = fixture.get("robots", [])
    for rb in robots:
        p = seat_of(rb["id"])
        for tile_id in rb.get("modules", []):
            slot = int(s["n_mods"][p])
            inst = alloc.take(tile_id)
            s["mods"][p, slot] = inst
            s["mod_type"][p, slot] = rules.tiles[rules.pool[inst], T_TYPE]
            s["revealed"][p, slot] = expert
            s["n_mods"][p] = slot + 1
        if "pos" in rb:
            s["cell"][p] = rules.cell_index(*rb["pos"])
            s["facing"][p] = rb.get("facing", 0)
            s["placed"][p] = 1
        s["side"][p] = 1 if rb.get("side", "A") == "B" else 0
        mods = [int(m) for m in s["mods"][p, : s["n_mods"][p]]]
        for tile_id in rb.get("overheated", []):
            if tile_id == "CENTRAL":
                s["central_heat"][p] = 1
            else:
                slot = next(k for k, m in enumerate(mods)
                            if rules.data.tiles[rules.pool[m]].tile_id == tile_id and not s["heat"][p, k])
                s["heat"][p, slot] = 1
            s["tokens"] += 1
    if fixture.get("unlisted_cells") == "module tiles":
        for c in range(n_cells):
            if c not in listed and c not in [int(x) for x in s["cell"][: rules.n_players]]:
                _lay(rules, s, c, alloc.take_any(3), expert)
    for rid, count in fixture.get("trophies_before", {}).items():
        p = seat_of(rid)
        for _ in range(int(count)):
            s["trophies"][p, s["n_trophies"][p]] = alloc.take_any(None, module=True)
            s["n_trophies"][p] += 1
    stack = [int(i) for i in np.nonzero(alloc.free)[0] if rules.tiles[rules.pool[i], T_GENERATION] == 3]
    stack_n = min(len(stack), int(fixture.get("gen3_stack", len(stack))))
    for k, inst in enumerate(reversed(stack[:stack_n])):  # first unused copy drawn first
        s["stack"][k] = inst
        alloc.free[inst] = False
    s["stack_n"] = stack_n
    for inst in np.nonzero(alloc.free)[0]:
        s["box"][s["box_n"]] = inst
        s["box_n"] += 1
    active = seat_of(fixture.get("active", "P1"))
    s["active"] = active
    s["actor"] = active
    s["phase"] = PH_ACTIVE
    s["turn"] = 1
    s["n_placed"] = rules.n_players
    s["last_module"] = -1
    s["discard_seat"] = -1
    s["end_trigger"] = -1
    s["n_tiles"] = len(rules.pool)
    return rules, s_arr


def _lay(rules: SteelArenaRules, s: np.void, cell: int, inst: int, expert: bool) -> None:
    t = rules.tiles[rules.pool[inst], T_TYPE]
    s["cell_tile"][cell] = inst
    s["cell_type"][cell] = t
    s["cell_up"][cell] = 1 if (expert or t == TERRAIN) else 0


def tile_id_of(rules: SteelArenaRules, inst: int) -> str:
    """The design id of a tile instance."""
    return rules.data.tiles[int(rules.pool[inst])].tile_id


def robot_modules(rules: SteelArenaRules, s_arr: np.ndarray, seat: int) -> list[str]:
    """The design ids of a robot's modules, slot order."""
    s = s_arr[0]
    return [tile_id_of(rules, int(m)) for m in s["mods"][seat, : s["n_mods"][seat]]]
