"""A Steel Arena ruleset: the data, the resolved options and the arrays every kernel reads.

Kernels take the ruleset's arrays in this order (``RULE_ARGS``):

    tiles      int32 [designs, TILE_FIELDS]  one row per tile design (data.T_* columns)
    pool       int32 [n_tiles]               design row of every physical tile (instance id = index)
    robots     int32 [4, 2, ROBOT_FIELDS]    central module per robot (seat) and side (0 = A, 1 = B)
    setup_tab  int32 [5, 8]                  per player count: gen-2 total, attack, move, rotate,
                                             defence, terrain, random, gen-3 stack size
    cells      int32 [n_cells, 4]            q, r, s, is_edge of every field cell, in refill order
                                             (ascending r, then q): cell index = row
    nbr        int32 [n_cells, 6]            neighbour cell in direction d (NOTES I.17.2), -1 off field
    opts       int64 [N_OPTS]                options and fixed numbers (codes.OPT_*)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.errors import DataError
from simlab.games.steel_arena.codes import option_array
from simlab.games.steel_arena.data import (
    DELIVERIES,
    HEX_DIRECTIONS,
    T_DELIVERY,
    T_PUSH,
    T_WHIRL,
    TILE_TYPES,
    SteelArenaData,
)
from simlab.games.steel_arena.state import MAX_CELLS, MAX_STACK, MAX_TILES

RULE_ARGS = ("tiles", "pool", "robots", "setup_tab", "cells", "nbr", "opts")


@dataclass
class SteelArenaRules:
    """A ruleset for one player count: data, options and the kernels' arrays (``RULE_ARGS``)."""

    n_players: int
    data: SteelArenaData
    options: dict[str, Any]
    tiles: np.ndarray
    pool: np.ndarray
    robots: np.ndarray
    setup_tab: np.ndarray
    cells: np.ndarray
    nbr: np.ndarray
    opts: np.ndarray

    @property
    def args(self) -> tuple[np.ndarray, ...]:
        """The kernel arguments, in ``RULE_ARGS`` order."""
        return tuple(getattr(self, name) for name in RULE_ARGS)

    def cell_index(self, q: int, r: int) -> int:
        """The cell index of axial ``(q, r)``; ValueError when it is not a field cell."""
        hits = np.nonzero((self.cells[:, 0] == q) & (self.cells[:, 1] == r))[0]
        if len(hits) == 0:
            raise ValueError(f"[{q}, {r}] is not a cell of this field")
        return int(hits[0])

    def cell_qr(self, cell: int) -> tuple[int, int]:
        """Axial ``(q, r)`` of a cell index."""
        return int(self.cells[cell, 0]), int(self.cells[cell, 1])

    def design(self, instance: int) -> Any:
        """The :class:`~simlab.games.steel_arena.data.Tile` design of a tile instance."""
        return self.data.tiles[int(self.pool[instance])]

    def instance_name(self, instance: int) -> str:
        """A tile instance's trace name, ``DESIGN#k`` (k counts copies of the design from 1)."""
        d = int(self.pool[instance])
        k = int(np.sum(self.pool[:instance] == d)) + 1
        return f"{self.data.tiles[d].tile_id}#{k}"


def field_arrays(layout_cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cells`` sorted into refill order (ascending r, then q) and their neighbour table."""
    order = np.lexsort((layout_cells[:, 0], layout_cells[:, 1]))
    cells = np.ascontiguousarray(layout_cells[order]).astype(np.int32)
    where = {(int(q), int(r)): i for i, (q, r) in enumerate(cells[:, :2])}
    nbr = np.full((len(cells), 6), -1, dtype=np.int32)
    for i, (q, r) in enumerate(cells[:, :2]):
        for d, (dq, dr) in enumerate(HEX_DIRECTIONS):
            nbr[i, d] = where.get((int(q) + dq, int(r) + dr), -1)
    return cells, nbr


def build_ruleset(n_players: int, data: SteelArenaData, options: dict[str, Any]) -> SteelArenaRules:
    """The ruleset for ``n_players`` from validated data and resolved options (one-line errors)."""
    opt_file = data.files.get("options", "options.toml")
    layout_id = options[f"layout_{n_players}p"]
    if layout_id not in data.layouts:
        raise DataError(opt_file, None, f"options.layout_{n_players}p", f"no layout '{layout_id}' in arena_layouts")
    cells, nbr = field_arrays(data.layout_cells[layout_id])
    if len(cells) > MAX_CELLS:
        raise DataError(data.files.get("arena_layouts", "arena_layouts.csv"), None, "layout_id",
                        f"layout '{layout_id}' has {len(cells)} cells; at most {MAX_CELLS} are supported")
    gen2_total = int(data.setup_array[n_players, 0])
    if gen2_total != len(cells):
        raise DataError(data.files.get("setup", "setup.csv"), None, "gen2_total",
                        f"{n_players} players take {gen2_total} generation-2 tiles but layout '{layout_id}' "
                        f"has {len(cells)} cells")
    if options["team"] and n_players != 4:
        raise DataError(opt_file, None, "options.team", f"team mode needs 4 players, not {n_players}")
    pool = data.tile_pool.astype(np.int32)
    if len(pool) > MAX_TILES:
        raise DataError(data.files.get("tiles", "tiles.csv"), None, "count",
                        f"{len(pool)} physical tiles; at most {MAX_TILES} are supported")
    if int(data.setup_array[n_players, 7]) > MAX_STACK:
        raise DataError(data.files.get("setup", "setup.csv"), None, "gen3_stack",
                        f"a generation-3 stack of {int(data.setup_array[n_players, 7])}; at most {MAX_STACK}")
    for i, t in enumerate(data.tiles):
        row = data.tile_array[i]
        if (row[T_PUSH] > 0 or row[T_WHIRL] > 0) and DELIVERIES[row[T_DELIVERY]] not in ("direct", "arc", "melee"):
            raise DataError(data.files.get("tiles", "tiles.csv"), None, "push",
                            f"{t.tile_id}: push and whirl need a single-target delivery (direct, arc, melee), "
                            f"not {DELIVERIES[row[T_DELIVERY]]}")
    _check_tiles_in_play(n_players, data)
    robots = np.zeros((4, 2, data.robot_array.shape[2]), dtype=np.int32)
    for p in range(4):
        robots[p] = data.robot_array[p % len(data.robot_array)]
    return SteelArenaRules(
        n_players=n_players,
        data=data,
        options=options,
        tiles=np.ascontiguousarray(data.tile_array, dtype=np.int32),
        pool=np.ascontiguousarray(pool),
        robots=robots,
        setup_tab=np.ascontiguousarray(data.setup_array, dtype=np.int32),
        cells=cells,
        nbr=nbr,
        opts=option_array(options, data.config, len(cells)),
    )


def _check_tiles_in_play(n_players: int, data: SteelArenaData) -> None:
    """Enough tiles in play for the setup table (a design out of play, ``in_play = false``, is skipped)."""
    file = data.files.get("tiles", "tiles.csv")
    setup = data.setup_array[n_players]
    gen2 = [t for t in data.tiles if t.generation == 2 and t.in_play]
    for k, ttype in enumerate(TILE_TYPES):
        have = sum(t.count for t in gen2 if t.type == ttype)
        if have < setup[1 + k]:
            raise DataError(file, None, "in_play", f"{n_players} players take {setup[1 + k]} generation-2 {ttype} "
                                                   f"tiles but only {have} are in play")
    if sum(t.count for t in gen2) < setup[0]:
        raise DataError(file, None, "in_play", f"{n_players} players need {setup[0]} generation-2 tiles in play")
    gen3 = sum(t.count for t in data.tiles if t.generation == 3 and t.in_play)
    if gen3 < setup[7]:
        raise DataError(file, None, "in_play", f"{n_players} players need a generation-3 stack of {setup[7]}; "
                                               f"only {gen3} tiles are in play")


def default_ruleset(n_players: int, options: dict[str, Any] | None = None,
                    data: SteelArenaData | None = None) -> SteelArenaRules:
    """The ruleset for ``n_players`` with the default data and ``options`` over the defaults."""
    from simlab.core.options import resolve_options
    from simlab.games.steel_arena.data import load_data

    data = data if data is not None else load_data()
    return build_ruleset(n_players, data, resolve_options(data.options, options))
