"""Load and validate Steel Arena's data files into the records and arrays the kernels will read.

The designer's files live in ``data/`` (copied from the research folder, NOTES.md Part V):

- ``tiles.csv``: one row per tile design (generation, type, colour, copies, every property);
- ``robots.csv``: the central module of every robot, side A (normal) and side B (boosted);
- ``setup.csv``: the rulebook's setup table per player count (generation-2 tiles by type);
- ``arena_layouts.csv``: the field cells per layout in axial coordinates (NOTES I.17);
- ``config.toml``: the rulebook's fixed parameters (limits, thresholds, the setup table again);
- ``options.toml``: every open point of NOTES Part II as a rule option.

Every problem is one line, ``file:row: column: what is wrong``; the kernels trust the arrays
built here (``tile_array``, ``robot_array``, ``setup_array``, ``layout_cells``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.datafiles import data_file_paths, int_field, read_csv_rows, read_text_file
from simlab.core.errors import DataError
from simlab.core.options import Option, load_options

DATA_DIR = Path(__file__).parent / "data"

FILES = ("tiles", "robots", "setup", "arena_layouts", "config", "options")
FILE_NAMES = {stem: f"{stem}.toml" if stem in ("config", "options") else f"{stem}.csv" for stem in FILES}

# ---------------------------------------------------------------- enumerations (kernel order)

TILE_TYPES = ("attack", "move", "rotate", "defence", "terrain")
MODULE_TYPES = TILE_TYPES[:4]  # the four starter (generation-1) module types
COLOUR_OF_TYPE = {"attack": "red", "move": "green", "rotate": "yellow", "defence": "blue", "terrain": "grey"}
COLOURS = tuple(COLOUR_OF_TYPE.values())
DELIVERIES = ("direct", "arc", "beam", "melee", "sweep")
MOVE_KINDS = ("forward", "side_forward", "jump")
ARMOUR_ARCS = ("front", "side", "all")
SIDES = ("A", "B")
SOURCES = ("rulebook", "public-source", "reconstructed")
BOOLEANS = {"true": True, "false": False}
GENERATIONS = (1, 2, 3)
SETUP_TYPES = ("attack", "move", "rotate", "defence", "terrain", "random")  # setup.csv gen2_<type>
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # NOTES I.17.2

# Columns of ``tile_array`` (one row per design; -1 for an enumeration that does not apply, 0 for a blank number).
(T_GENERATION, T_TYPE, T_COUNT, T_DELIVERY, T_DAMAGE, T_SPLASH, T_PUSH, T_WHIRL, T_HEAT, T_MOVE_KIND, T_MOVE_MIN,
 T_MOVE_MAX, T_ROTATE_MIN, T_ROTATE_MAX, T_ARMOUR_ARC, T_ARMOUR_VALUE, T_NEEDS_ACTIVATION, T_AUTOCOOL, T_SPEED,
 T_ONESHOT, T_PASSIVE, T_OBSTACLE, T_INTERFERENCE, T_EXPLOSIVE_ON_TILE, T_EXPLOSIVE_ADJACENT, T_COVER,
 T_WATER_COOL, T_IN_PLAY) = range(28)
TILE_FIELDS = 28

# Columns of ``robot_array`` (robot, side, field).
(R_DELIVERY, R_DAMAGE, R_MOVE_KIND, R_MOVE_MIN, R_MOVE_MAX, R_ROTATE_MIN, R_ROTATE_MAX, R_ARMOUR_ARC,
 R_ARMOUR_VALUE) = range(9)
ROBOT_FIELDS = 9

# Columns of a layout's cell array.
C_Q, C_R, C_S, C_EDGE = range(4)
CELL_FIELDS = 4

TILE_COLUMNS = (
    "tile_id", "generation", "type", "colour", "name_ru", "name_translit", "name_en", "count", "value_printed",
    "attack_delivery", "damage", "splash", "push", "whirl", "heat", "move_kind", "move_min", "move_max",
    "rotate_min", "rotate_max", "armour_arc", "armour_value", "needs_activation", "autocool", "speed", "oneshot",
    "passive", "obstacle", "interference", "explosive_on_tile", "explosive_adjacent", "cover", "water_cool",
    "source",
)
ROBOT_COLUMNS = (
    "robot_id", "name_ru", "name_translit", "name_en", "side", "mode", "attack_delivery", "attack_damage",
    "move_kind", "move_min", "move_max", "rotate_min", "rotate_max", "armour_arc", "armour_value", "source",
)
SETUP_COLUMNS = (
    "players", *(f"gen2_{t}" for t in ("total", *SETUP_TYPES)), "gen3_per_player", "gen3_stack", "gen1_per_player",
    "board_side_at_start", "recommended_layout", "source",
)
LAYOUT_COLUMNS = ("layout_id", "players", "q", "r", "s", "in_field_neighbours", "is_edge", "source")
OPTIONAL_COLUMNS = ("notes", "rulebook_fields", "in_play")

ATTACK_NUMBERS = ("damage", "splash", "push", "whirl", "heat")
TILE_FLAGS = ("needs_activation", "autocool", "speed", "oneshot", "passive", "obstacle", "interference", "cover")
TERRAIN_FLAGS = ("obstacle", "interference", "cover")
MAX_VALUE = 20  # upper bound of any printed number


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class Tile:
    """One tile design as printed (``count`` physical copies)."""

    tile_id: str
    generation: int
    type: str
    colour: str
    name_ru: str
    name_en: str
    count: int
    value_printed: str
    attack_delivery: str | None
    damage: int
    splash: int
    push: int
    whirl: int
    heat: int
    move_kind: str | None
    move_min: int
    move_max: int
    rotate_min: int
    rotate_max: int
    armour_arc: str | None
    armour_value: int
    needs_activation: bool
    autocool: bool
    speed: bool
    oneshot: bool
    passive: bool
    obstacle: bool
    interference: bool
    explosive_on_tile: int
    explosive_adjacent: int
    cover: bool
    water_cool: int
    source: str
    in_play: bool = True  # optional column: false keeps the tile in the shuffles but out of play (ablation)

    @property
    def explosive(self) -> bool:
        """Whether the terrain goes off (ЛОВУШКА, СЮРПРИЗ, ГОРЯЩЕЕ ТОПЛИВО)."""
        return self.explosive_on_tile > 0


@dataclass(frozen=True)
class RobotSide:
    """One side of a robot's central module: one activation uses exactly one of attack, move, rotate."""

    robot_id: str
    side: str
    name_ru: str
    name_en: str
    mode: str
    attack_delivery: str
    attack_damage: int
    move_kind: str
    move_min: int
    move_max: int
    rotate_min: int
    rotate_max: int
    armour_arc: str | None
    armour_value: int
    source: str


@dataclass(frozen=True)
class Robot:
    """A robot with both sides of its central module (A: 6+ modules, B: boosted, 5 or fewer)."""

    robot_id: str
    a: RobotSide
    b: RobotSide


@dataclass(frozen=True)
class SetupRow:
    """The setup table for one player count (NOTES I.3)."""

    players: int
    gen2_total: int
    gen2_counts: dict[str, int]  # SETUP_TYPES -> tiles of that type (random: any type)
    gen3_per_player: int
    gen3_stack: int
    gen1_per_player: int
    board_side_at_start: str
    recommended_layout: str
    source: str
    line: int = field(default=0, compare=False)  # its line in setup.csv, for later messages


@dataclass(frozen=True)
class Cell:
    """One field cell in axial coordinates (q + r + s = 0)."""

    q: int
    r: int
    s: int
    in_field_neighbours: int
    is_edge: bool


@dataclass(frozen=True)
class Layout:
    """A field shape: its cells in file order."""

    layout_id: str
    players: int
    cells: tuple[Cell, ...]
    line: int = field(default=0, compare=False)  # its first line in arena_layouts.csv


@dataclass(frozen=True)
class Config:
    """The rulebook's fixed parameters (``config.toml``)."""

    players_min: int
    players_max: int
    robots: int
    gen1_tiles: int
    gen2_tiles: int
    gen3_tiles: int
    overheat_tokens: int
    starter_modules_per_player: int
    gen3_tiles_per_player: int
    robot_board_start_side: str
    directions: int
    trophies_to_end: int
    team_trophies_to_end: int
    module_limit_excluding_central: int
    normal_side_min_modules_incl_central: int
    boosted_side_max_modules_incl_central: int
    activations_per_module_per_turn: int
    defence_uses_per_module_per_turn: int
    cover_value: int
    water_cools_modules: int
    tie_break: tuple[str, ...]
    setup_gen2: dict[int, tuple[int, ...]]  # players -> counts in SETUP_TYPES order
    field: dict[str, bool]
    central_module: dict[str, Any]


@dataclass
class SteelArenaData:
    """Validated content of one Steel Arena data set, with the arrays the kernels read."""

    config: Config
    tiles: list[Tile]
    robots: list[Robot]
    setup: dict[int, SetupRow]
    layouts: dict[str, Layout]
    options: dict[str, Option]
    files: dict[str, str] = field(default_factory=dict)  # stem -> file label for later messages
    tile_array: np.ndarray = field(init=False, repr=False)
    tile_pool: np.ndarray = field(init=False, repr=False)
    robot_array: np.ndarray = field(init=False, repr=False)
    setup_array: np.ndarray = field(init=False, repr=False)
    layout_cells: dict[str, np.ndarray] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        arr = np.zeros((len(self.tiles), TILE_FIELDS), dtype=np.int32)
        for i, t in enumerate(self.tiles):
            arr[i] = (
                t.generation, TILE_TYPES.index(t.type), t.count, _code(DELIVERIES, t.attack_delivery),
                t.damage, t.splash, t.push, t.whirl, t.heat, _code(MOVE_KINDS, t.move_kind), t.move_min,
                t.move_max, t.rotate_min, t.rotate_max, _code(ARMOUR_ARCS, t.armour_arc), t.armour_value,
                t.needs_activation, t.autocool, t.speed, t.oneshot, t.passive, t.obstacle, t.interference,
                t.explosive_on_tile, t.explosive_adjacent, t.cover, t.water_cool, t.in_play,
            )
        self.tile_array = arr
        # One entry per physical tile: the design's row in tile_array (designs in file order).
        self.tile_pool = np.repeat(np.arange(len(self.tiles), dtype=np.int32),
                                   [t.count for t in self.tiles]).astype(np.int32)
        robots = np.zeros((len(self.robots), 2, ROBOT_FIELDS), dtype=np.int32)
        for i, robot in enumerate(self.robots):
            for j, s in enumerate((robot.a, robot.b)):
                robots[i, j] = (
                    DELIVERIES.index(s.attack_delivery), s.attack_damage, MOVE_KINDS.index(s.move_kind),
                    s.move_min, s.move_max, s.rotate_min, s.rotate_max, _code(ARMOUR_ARCS, s.armour_arc),
                    s.armour_value,
                )
        self.robot_array = robots
        # setup_array[players] = (gen2_total, attack, move, rotate, defence, terrain, random, gen3_stack)
        setup = np.zeros((self.config.players_max + 1, 8), dtype=np.int32)
        for n, row in self.setup.items():
            setup[n] = (row.gen2_total, *(row.gen2_counts[t] for t in SETUP_TYPES), row.gen3_stack)
        self.setup_array = setup
        self.layout_cells = {
            lid: np.array([(c.q, c.r, c.s, c.is_edge) for c in lay.cells], dtype=np.int32).reshape(-1, CELL_FIELDS)
            for lid, lay in self.layouts.items()
        }

    def tile(self, tile_id: str) -> Tile:
        """The design called ``tile_id``."""
        for t in self.tiles:
            if t.tile_id == tile_id:
                return t
        raise KeyError(tile_id)

    def layout_for(self, players: int) -> Layout:
        """The layout the options choose for ``players`` (option ``layout_<n>p``)."""
        return self.layouts[self.options[f"layout_{players}p"].default]


def _code(names: tuple[str, ...], value: str | None) -> int:
    return -1 if value is None else names.index(value)


# ---------------------------------------------------------------- field helpers


def _rows(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    return read_csv_rows(path, required, lambda col: col in OPTIONAL_COLUMNS)


def _enum(file: str, line: int, row: dict[str, str], col: str, allowed: tuple[str, ...],
          optional: bool = False) -> str | None:
    text = row[col]
    if text == "":
        if optional:
            return None
        raise DataError(file, line, col, f"value is empty (allowed: {', '.join(allowed)})")
    if text not in allowed:
        raise DataError(file, line, col, f"'{text}' is not allowed (allowed: {', '.join(allowed)})")
    return text


def _bool(file: str, line: int, row: dict[str, str], col: str) -> bool:
    text = row[col]
    if text not in BOOLEANS:
        raise DataError(file, line, col, f"'{text}' is not a flag (allowed: true, false)")
    return BOOLEANS[text]


def _text(file: str, line: int, row: dict[str, str], col: str) -> str:
    if row[col] == "":
        raise DataError(file, line, col, "value is empty")
    return row[col]


def _blank(file: str, line: int, row: dict[str, str], cols: tuple[str, ...], why: str) -> None:
    for col in cols:
        if row[col] != "":
            raise DataError(file, line, col, f"must be blank {why} (found '{row[col]}')")


def _range(file: str, line: int, row: dict[str, str], lo_col: str, hi_col: str, lo: int, hi: int) -> tuple[int, int]:
    a = int_field(file, line, row, lo_col, lo, hi)
    b = int_field(file, line, row, hi_col, lo, hi)
    assert a is not None and b is not None
    if a > b:
        raise DataError(file, line, hi_col, f"{b} is below {lo_col} {a}")
    return a, b


# ---------------------------------------------------------------- tiles.csv


def _parse_tile(file: str, line: int, row: dict[str, str], header: tuple[str, ...]) -> Tile:
    tile_id = _text(file, line, row, "tile_id")
    generation = int_field(file, line, row, "generation", 1, 3)
    ttype = _enum(file, line, row, "type", TILE_TYPES)
    assert generation is not None and ttype is not None
    colour = _enum(file, line, row, "colour", COLOURS)
    if colour != COLOUR_OF_TYPE[ttype]:
        raise DataError(file, line, "colour",
                        f"'{colour}' does not match type {ttype} (expected {COLOUR_OF_TYPE[ttype]})")
    count = int_field(file, line, row, "count", 1, 40)
    flags = {col: _bool(file, line, row, col) for col in TILE_FLAGS}
    source = _enum(file, line, row, "source", SOURCES)
    for name in row.get("rulebook_fields", "").split(";"):
        if name.strip() and name.strip() != "name" and name.strip() not in header:
            raise DataError(file, line, "rulebook_fields", f"'{name.strip()}' is not a column of the file (nor 'name')")

    delivery, numbers = None, dict.fromkeys(ATTACK_NUMBERS, 0)
    attack_cols = ("attack_delivery", *ATTACK_NUMBERS)
    if ttype == "attack":
        delivery = _enum(file, line, row, "attack_delivery", DELIVERIES)
        for col in ATTACK_NUMBERS:
            numbers[col] = int_field(file, line, row, col, 0, MAX_VALUE)
        if not any(numbers[c] for c in ("damage", "push", "whirl", "heat")):
            raise DataError(file, line, "damage", "an attack needs damage, push, whirl or heat above 0")
        if numbers["splash"] and not numbers["damage"]:
            raise DataError(file, line, "splash", "splash needs damage above 0")
    else:
        _blank(file, line, row, attack_cols, f"for a {ttype} tile")

    kind, move = None, (0, 0)
    move_cols = ("move_kind", "move_min", "move_max")
    if ttype == "move":
        kind = _enum(file, line, row, "move_kind", MOVE_KINDS)
        move = _range(file, line, row, "move_min", "move_max", 1, 10)
        if kind == "jump" and move[0] < 2:
            raise DataError(file, line, "move_min", f"a jump lands at least 2 cells away (found {move[0]})")
    else:
        _blank(file, line, row, move_cols, f"for a {ttype} tile")

    rotate = (0, 0)
    if ttype == "rotate":
        rotate = _range(file, line, row, "rotate_min", "rotate_max", 1, 3)
    else:
        _blank(file, line, row, ("rotate_min", "rotate_max"), f"for a {ttype} tile")

    arc, armour = None, 0
    if ttype == "defence":
        arc = _enum(file, line, row, "armour_arc", ARMOUR_ARCS)
        armour = int_field(file, line, row, "armour_value", 1, MAX_VALUE)
        if flags["needs_activation"] == flags["passive"]:
            raise DataError(file, line, "passive",
                            "a defence module is either passive or needs_activation (exactly one true)")
    else:
        _blank(file, line, row, ("armour_arc", "armour_value"), f"for a {ttype} tile")
        if flags["needs_activation"]:
            raise DataError(file, line, "needs_activation", f"only defence modules need activation, not a {ttype} tile")

    on_tile = adjacent = water = 0
    if ttype == "terrain":
        for col in ("autocool", "speed", "oneshot", "passive"):
            if flags[col]:
                raise DataError(file, line, col, "terrain is not a module and has no module properties")
        on_tile = int_field(file, line, row, "explosive_on_tile", 1, MAX_VALUE, optional=True) or 0
        adjacent = int_field(file, line, row, "explosive_adjacent", 0, MAX_VALUE, optional=True)
        if (adjacent is None) != (on_tile == 0):
            col = "explosive_adjacent" if on_tile else "explosive_on_tile"
            raise DataError(file, line, col,
                            "explosive_on_tile and explosive_adjacent are given together or not at all")
        water = int_field(file, line, row, "water_cool", 1, MAX_VALUE, optional=True) or 0
        if flags["obstacle"] + flags["cover"] + (on_tile > 0) + (water > 0) > 1:
            raise DataError(file, line, "obstacle", "terrain has at most one of obstacle, explosive, cover, water")
        if not (flags["obstacle"] or flags["interference"] or flags["cover"] or on_tile or water):
            raise DataError(file, line, "obstacle",
                            "terrain needs a property (obstacle, interference, explosive, cover, water)")
        adjacent = adjacent or 0
    else:
        for col in TERRAIN_FLAGS:
            if flags[col]:
                raise DataError(file, line, col, f"only terrain has this property, not a {ttype} tile")
        _blank(file, line, row, ("explosive_on_tile", "explosive_adjacent", "water_cool"), f"for a {ttype} tile")

    return Tile(
        tile_id, generation, ttype, colour or "", row["name_ru"], row["name_en"], count or 0, row["value_printed"],
        delivery, numbers["damage"], numbers["splash"], numbers["push"], numbers["whirl"], numbers["heat"],
        kind, move[0], move[1], rotate[0], rotate[1], arc, armour or 0, flags["needs_activation"],
        flags["autocool"], flags["speed"], flags["oneshot"], flags["passive"], flags["obstacle"],
        flags["interference"], on_tile, adjacent, flags["cover"], water, source or "",
        _in_play(file, line, row, generation),
    )


def _in_play(file: str, line: int, row: dict[str, str], generation: int) -> bool:
    """The optional ``in_play`` flag (blank: true); generation-1 starters always play."""
    if row.get("in_play", "") == "":
        return True
    value = _bool(file, line, row, "in_play")
    if not value and generation == 1:
        raise DataError(file, line, "in_play", "generation-1 starter modules cannot be taken out of play")
    return value


def load_tiles(path: Path, config: Config) -> list[Tile]:
    """Read ``tiles.csv``: typed designs; unique ids; copies per generation as the rulebook counts them."""
    file = str(path)
    rows = _rows(path, TILE_COLUMNS)
    header = tuple(rows[0][1]) if rows else TILE_COLUMNS
    tiles, seen = [], {}
    for line, row in rows:
        t = _parse_tile(file, line, row, header)
        if t.tile_id in seen:
            raise DataError(file, line, "tile_id", f"'{t.tile_id}' repeats line {seen[t.tile_id]}")
        seen[t.tile_id] = line
        tiles.append(t)
    if not tiles:
        raise DataError(file, None, None, "no tiles")
    last = rows[-1][0]
    expected = {1: config.gen1_tiles, 2: config.gen2_tiles, 3: config.gen3_tiles}
    for gen in GENERATIONS:
        n = sum(t.count for t in tiles if t.generation == gen)
        if n != expected[gen]:
            raise DataError(file, last, "count", f"generation {gen} has {n} tiles; config.toml says {expected[gen]}")
    for mtype in MODULE_TYPES:
        n = sum(t.count for t in tiles if t.generation == 1 and t.type == mtype)
        if n != config.players_max:
            raise DataError(file, last, "count", f"generation 1 has {n} {mtype} tiles; each of the "
                            f"{config.players_max} starter sets needs one")
    return tiles


# ---------------------------------------------------------------- robots.csv


def load_robots(path: Path, config: Config) -> list[Robot]:
    """Read ``robots.csv``: every robot has side A and side B exactly once."""
    file = str(path)
    sides: dict[str, dict[str, RobotSide]] = {}
    lines: dict[tuple[str, str], int] = {}
    last = 1
    for line, row in _rows(path, ROBOT_COLUMNS):
        last = line
        rid = _text(file, line, row, "robot_id")
        side = _enum(file, line, row, "side", SIDES)
        assert side is not None
        if (rid, side) in lines:
            raise DataError(file, line, "side", f"robot {rid} side {side} repeats line {lines[rid, side]}")
        lines[rid, side] = line
        delivery = _enum(file, line, row, "attack_delivery", DELIVERIES)
        damage = int_field(file, line, row, "attack_damage", 1, MAX_VALUE)
        kind = _enum(file, line, row, "move_kind", MOVE_KINDS)
        move = _range(file, line, row, "move_min", "move_max", 1, 10)
        rotate = _range(file, line, row, "rotate_min", "rotate_max", 1, 3)
        arc = _enum(file, line, row, "armour_arc", ARMOUR_ARCS, optional=True)
        armour = int_field(file, line, row, "armour_value", 0, MAX_VALUE)
        if (arc is None) != (armour == 0):
            raise DataError(file, line, "armour_value",
                            "an armour arc needs a value above 0, and a value above 0 needs an arc")
        source = _enum(file, line, row, "source", SOURCES)
        sides.setdefault(rid, {})[side] = RobotSide(
            rid, side, row["name_ru"], row["name_en"], row["mode"], delivery or "", damage or 0, kind or "",
            move[0], move[1], rotate[0], rotate[1], arc, armour or 0, source or "")
    robots = []
    for rid, both in sides.items():
        for side in SIDES:
            if side not in both:
                raise DataError(file, last, "side", f"robot {rid} has no side {side}")
        robots.append(Robot(rid, both["A"], both["B"]))
    if len(robots) != config.robots:
        raise DataError(file, last, "robot_id", f"{len(robots)} robots; config.toml says {config.robots}")
    return robots


# ---------------------------------------------------------------- setup.csv


def load_setup(path: Path, config: Config) -> dict[int, SetupRow]:
    """Read ``setup.csv``: one row per player count; per-type counts add up to gen2_total."""
    file = str(path)
    setup: dict[int, SetupRow] = {}
    lines: dict[int, int] = {}
    last = 1
    for line, row in _rows(path, SETUP_COLUMNS):
        last = line
        n = int_field(file, line, row, "players", config.players_min, config.players_max)
        assert n is not None
        if n in lines:
            raise DataError(file, line, "players", f"{n} players repeats line {lines[n]}")
        lines[n] = line
        total = int_field(file, line, row, "gen2_total", 1, config.gen2_tiles) or 0
        counts = {t: int_field(file, line, row, f"gen2_{t}", 0, config.gen2_tiles) or 0 for t in SETUP_TYPES}
        if sum(counts.values()) != total:
            raise DataError(file, line, "gen2_total",
                            f"{total} is not the sum of the per-type counts ({sum(counts.values())})")
        per_player = int_field(file, line, row, "gen3_per_player", 1, config.gen3_tiles) or 0
        if per_player != config.gen3_tiles_per_player:
            raise DataError(file, line, "gen3_per_player",
                            f"{per_player}; config.toml says {config.gen3_tiles_per_player}")
        stack = int_field(file, line, row, "gen3_stack", 1, config.gen3_tiles) or 0
        if stack != per_player * n:
            raise DataError(file, line, "gen3_stack", f"{stack} is not gen3_per_player x players ({per_player * n})")
        gen1 = int_field(file, line, row, "gen1_per_player", 1, config.gen1_tiles) or 0
        if gen1 != config.starter_modules_per_player:
            raise DataError(file, line, "gen1_per_player",
                            f"{gen1}; config.toml says {config.starter_modules_per_player}")
        side = _enum(file, line, row, "board_side_at_start", SIDES) or ""
        if side != config.robot_board_start_side:
            raise DataError(file, line, "board_side_at_start",
                            f"'{side}'; config.toml says '{config.robot_board_start_side}'")
        printed = config.setup_gen2.get(n)
        if printed is not None and printed != tuple(counts[t] for t in SETUP_TYPES):
            raise DataError(file, line, "gen2_attack",
                            f"per-type counts differ from config.toml setup_gen2.{n} {list(printed)}")
        setup[n] = SetupRow(n, total, counts, per_player, stack, gen1, side,
                            _text(file, line, row, "recommended_layout"),
                            _enum(file, line, row, "source", SOURCES) or "", line)
    for n in range(config.players_min, config.players_max + 1):
        if n not in setup:
            raise DataError(file, last, "players", f"no row for {n} players")
    return setup


def _check_setup_against_tiles(file: str, setup: dict[int, SetupRow], tiles: list[Tile]) -> None:
    """Enough generation-2 tiles of every type, and generation-3 tiles, for every player count
    (errors name the setup.csv row that asks for more than tiles.csv holds)."""
    for n, row in setup.items():
        for t in TILE_TYPES:
            have = sum(x.count for x in tiles if x.generation == 2 and x.type == t)
            if have < row.gen2_counts[t]:
                raise DataError(file, row.line, f"gen2_{t}",
                                f"{n} players need {row.gen2_counts[t]} generation-2 {t} tiles; tiles.csv has {have}")
        gen2 = sum(x.count for x in tiles if x.generation == 2)
        if gen2 < row.gen2_total:
            raise DataError(file, row.line, "gen2_total",
                            f"{n} players need {row.gen2_total} generation-2 tiles; tiles.csv has {gen2}")
        gen3 = sum(x.count for x in tiles if x.generation == 3)
        if gen3 < row.gen3_stack:
            raise DataError(file, row.line, "gen3_stack",
                            f"{n} players need {row.gen3_stack} generation-3 tiles; tiles.csv has {gen3}")


# ---------------------------------------------------------------- arena_layouts.csv


def load_layouts(path: Path, config: Config) -> dict[str, Layout]:
    """Read ``arena_layouts.csv``: axial cells with q + r + s = 0, no duplicates, neighbour and edge
    columns agreeing with the cells of the same layout."""
    file = str(path)
    cells: dict[str, list[tuple[int, Cell]]] = {}
    players: dict[str, int] = {}
    seen: dict[tuple[str, int, int], int] = {}
    lim = 99
    for line, row in _rows(path, LAYOUT_COLUMNS):
        lid = _text(file, line, row, "layout_id")
        n = int_field(file, line, row, "players", config.players_min, config.players_max)
        assert n is not None
        if players.setdefault(lid, n) != n:
            raise DataError(file, line, "players", f"layout {lid} is for {players[lid]} players, not {n}")
        q = int_field(file, line, row, "q", -lim, lim) or 0
        r = int_field(file, line, row, "r", -lim, lim) or 0
        s = int_field(file, line, row, "s", -lim, lim) or 0
        if q + r + s != 0:
            raise DataError(file, line, "s", f"q + r + s must be 0 (q={q}, r={r}, s={s})")
        if (lid, q, r) in seen:
            raise DataError(file, line, "q", f"cell ({q}, {r}) of layout {lid} repeats line {seen[lid, q, r]}")
        seen[lid, q, r] = line
        nb = int_field(file, line, row, "in_field_neighbours", 0, 6) or 0
        edge = _bool(file, line, row, "is_edge")
        _enum(file, line, row, "source", SOURCES)
        cells.setdefault(lid, []).append((line, Cell(q, r, s, nb, edge)))
    layouts = {}
    for lid, rows in cells.items():
        inside = {(c.q, c.r) for _, c in rows}
        for line, c in rows:
            nb = sum((c.q + dq, c.r + dr) in inside for dq, dr in HEX_DIRECTIONS)
            if nb != c.in_field_neighbours:
                raise DataError(file, line, "in_field_neighbours",
                                f"{c.in_field_neighbours}, but cell ({c.q}, {c.r}) has {nb} neighbours in layout {lid}")
            if c.is_edge != (nb < 6):
                raise DataError(file, line, "is_edge", f"{str(c.is_edge).lower()}, but cell ({c.q}, {c.r}) has {nb} "
                                f"neighbours in layout {lid} (edge: fewer than 6)")
        layouts[lid] = Layout(lid, players[lid], tuple(c for _, c in rows), rows[0][0])
    return layouts


def _check_layouts(layout_file: str, setup_file: str, layouts: dict[str, Layout], setup: dict[int, SetupRow]) -> None:
    for lid, lay in layouts.items():
        row = setup.get(lay.players)
        if row is not None and len(lay.cells) != row.gen2_total:
            raise DataError(layout_file, lay.line, "layout_id", f"layout {lid} has {len(lay.cells)} cells; "
                            f"setup.csv lays {row.gen2_total} generation-2 tiles for {lay.players} players")
    for n, row in setup.items():
        lay = layouts.get(row.recommended_layout)
        if lay is None:
            raise DataError(setup_file, row.line, "recommended_layout",
                            f"'{row.recommended_layout}' ({n} players) is not a layout_id of arena_layouts.csv")
        if lay.players != n:
            raise DataError(setup_file, row.line, "recommended_layout",
                            f"layout {lay.layout_id} is for {lay.players} players, not {n}")


# ---------------------------------------------------------------- config.toml


def load_config(path: Path) -> Config:
    """Read ``config.toml``: the fixed parameters the rules use, each checked for type and range."""
    file = str(path)
    try:
        raw = tomllib.loads(read_text_file(path))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, None, None, f"not valid TOML: {exc}") from None

    def table(name: str) -> dict[str, Any]:
        value = raw.get(name)
        if not isinstance(value, dict):
            raise DataError(file, None, name, "table is missing")
        return value

    game = table("game")

    def num(key: str, lo: int, hi: int) -> int:
        value = game.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise DataError(file, None, f"game.{key}",
                            f"{value!r} is not an integer" if key in game else "key is missing")
        if not lo <= value <= hi:
            raise DataError(file, None, f"game.{key}", f"{value} is outside {lo}..{hi}")
        return value

    players_min, players_max = num("players_min", 2, 4), num("players_max", 2, 4)
    if players_min > players_max:
        raise DataError(file, None, "game.players_max", f"{players_max} is below players_min {players_min}")
    side = game.get("robot_board_start_side")
    if side not in SIDES:
        raise DataError(file, None, "game.robot_board_start_side", f"{side!r} is not allowed (allowed: A, B)")
    tie_break = game.get("tie_break")
    if not isinstance(tie_break, list) or not all(isinstance(x, str) for x in tie_break):
        raise DataError(file, None, "game.tie_break", "must be a list of names")
    if game.get("directions") != 6:
        raise DataError(file, None, "game.directions", f"{game.get('directions')!r}: a hex has 6 directions")
    setup_gen2: dict[int, tuple[int, ...]] = {}
    for key, counts in table("setup_gen2").items():
        if key == "source":
            continue
        if not key.isdigit() or not players_min <= int(key) <= players_max:
            raise DataError(file, None, f"setup_gen2.{key}", f"not a player count {players_min}..{players_max}")
        if (not isinstance(counts, list) or len(counts) != len(SETUP_TYPES)
                or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)):
            raise DataError(file, None, f"setup_gen2.{key}",
                            f"must be {len(SETUP_TYPES)} counts ({', '.join(SETUP_TYPES)})")
        setup_gen2[int(key)] = tuple(counts)
    field_table = {k: v for k, v in table("field").items() if k != "source"}
    for key, value in field_table.items():
        if not isinstance(value, bool):
            raise DataError(file, None, f"field.{key}", f"{value!r} is not true or false")
    normal = num("normal_side_min_modules_incl_central", 1, 20)
    boosted = num("boosted_side_max_modules_incl_central", 0, 20)
    if boosted + 1 != normal:
        raise DataError(file, None, "game.boosted_side_max_modules_incl_central",
                        f"{boosted} must be one below normal_side_min_modules_incl_central ({normal})")
    return Config(
        players_min, players_max, num("robots", players_max, 99), num("gen1_tiles", 1, 999),
        num("gen2_tiles", 1, 999), num("gen3_tiles", 1, 999), num("overheat_tokens", 1, 999),
        num("starter_modules_per_player", 1, 20), num("gen3_tiles_per_player", 1, 99), side,
        6, num("trophies_to_end", 1, 99), num("team_trophies_to_end", 1, 99),
        num("module_limit_excluding_central", 1, 99), normal, boosted,
        num("activations_per_module_per_turn", 1, 9), num("defence_uses_per_module_per_turn", 1, 9),
        num("cover_value", 0, MAX_VALUE), num("water_cools_modules", 0, MAX_VALUE), tuple(tie_break),
        setup_gen2, field_table, {k: v for k, v in raw.get("central_module", {}).items()},
    )


# ---------------------------------------------------------------- options.toml


def _check_options(file: str, options: dict[str, Option], layouts: dict[str, Layout], config: Config) -> None:
    for n in range(config.players_min, config.players_max + 1):
        name = f"layout_{n}p"
        if name not in options:
            raise DataError(file, None, f"options.{name}", "option is missing (the field shape for this player count)")
        for lid in options[name].allowed:
            if lid not in layouts:
                raise DataError(file, None, f"options.{name}", f"'{lid}' is not a layout_id of arena_layouts.csv")
            if layouts[lid].players != n:
                raise DataError(file, None, f"options.{name}",
                                f"layout {lid} is for {layouts[lid].players} players, not {n}")


# ---------------------------------------------------------------- entry point


def load_data(data_dir: str | Path | None = None, **files: str | Path) -> SteelArenaData:
    """Load and validate a data set.

    ``data_dir`` holds the files (the bundled ``data/`` by default); any file can be replaced by
    passing its stem as a keyword, e.g. ``load_data(tiles="my_tiles.csv")``.
    """
    paths = data_file_paths(DATA_DIR, {stem: FILE_NAMES[stem] for stem in FILES}, data_dir, files)

    config = load_config(paths["config"])
    options = load_options(paths["options"])
    tiles = load_tiles(paths["tiles"], config)
    robots = load_robots(paths["robots"], config)
    setup = load_setup(paths["setup"], config)
    _check_setup_against_tiles(str(paths["setup"]), setup, tiles)
    layouts = load_layouts(paths["arena_layouts"], config)
    _check_layouts(str(paths["arena_layouts"]), str(paths["setup"]), layouts, setup)
    _check_options(str(paths["options"]), options, layouts, config)
    return SteelArenaData(config, tiles, robots, setup, layouts, options, {k: str(v) for k, v in paths.items()})
