"""Load and validate Smartphone Inc.'s data files into the arrays the compiled kernels read.

The designer's files live in ``data/`` (copies of ``research/smartphone-inc``; NOTES.md section 0
describes each one). Every problem is reported as ``file:line: column: what is wrong``; problems
that belong to no single line (a missing row, a wrong total) name the file and the column only,
or the line of the first row concerned.

Codes the rules implement are fixed here, in kernel order: the tablet symbols (``SYMBOLS``, the
key order of ``constants.toml [symbols]``, which is checked), the technologies, their twelve
effects and the retailer bonuses. Everything else (colours, sizes, tablet types and sides, counts)
comes from ``constants.toml``.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.datafiles import data_file_paths, int_field, read_csv_rows, read_text_file
from simlab.core.errors import DataError
from simlab.core.options import Option, load_options

DATA_DIR = Path(__file__).parent / "data"

# Symbol codes (constants.toml [symbols], in that order).
SYMBOLS: tuple[str, ...] = ("goods", "price_down", "price_up", "upgrade", "research", "logistics", "blank")
SYMBOL_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
GOODS, PRICE_DOWN, PRICE_UP, UPGRADE, RESEARCH, LOGISTICS, BLANK = range(len(SYMBOLS))
NO_SYMBOL = -1  # a grid position no piece covers

TECHNOLOGIES: tuple[str, ...] = ("GPS", "WIFI", "GAMEPAD", "LIION", "NFC", "4G")
TECH_INDEX = {t: i for i, t in enumerate(TECHNOLOGIES)}
TECH_SIDES = ("face", "back")

# The twelve technology effects, index = 2 * technology + rulebook listing order (0 first, 1 second).
EFFECTS: tuple[str, ...] = (
    "GPS_DOUBLE_GOODS_SYMBOL", "GPS_GAIN_5_GOODS",
    "WIFI_SECOND_OFFICE", "WIFI_KEEP_UNSOLD",
    "GAMEPAD_TECH_DISCOUNT", "GAMEPAD_SMALL_REGION_OFFICE",
    "LIION_PRICE_UP_IS_LOGISTICS", "LIION_GOODS_PER_TWO_TECHS",
    "NFC_DIRECT_SALE", "NFC_PRICE_PLUS_ONE",
    "4G_UPGRADE_OVERHANG", "4G_SELL_OUTSIDE",
)
EFFECT_INDEX = {e: i for i, e in enumerate(EFFECTS)}
DURATIONS = ("permanent", "one_time")

BONUSES: tuple[str, ...] = ("NONE", "GOODS", "RESEARCH", "PRICE_PLUS_OR_MINUS_1", "SECOND_OFFICE", "MOVE_OFFICE")
BONUS_INDEX = {b: i for i, b in enumerate(BONUSES)}
BONUSES_WITH_AMOUNT = frozenset({"GOODS", "RESEARCH", "PRICE_PLUS_OR_MINUS_1"})
RETAILER_SIDES = ("a", "b")

BUYER_KINDS = ("red", "purple")
UPGRADE_KINDS = ("starting", "regular")
PLACEMENT_RULES = ("region", "all_unoccupied_medium", "one_unoccupied_medium", "none")

# Column layouts of the kernel arrays.
REG_SIZE, REG_SIZE_NUMBER, REG_START_COLOUR, REG_FIRST_PLACE, REG_N_PLACES, REG_FIRST_BUYER, REG_N_BUYERS = range(7)
PLACE_REGION, PLACE_INDEX, PLACE_ENTRY_COST, PLACE_CONTROL_VP = range(4)
BUY_REGION, BUY_POSITION, BUY_KIND, BUY_PRICE_CAP, BUY_TECH = range(5)
UPG_KIND, UPG_COLOUR, UPG_HALF_1, UPG_HALF_2 = range(4)
TECH_SECTOR, TECH_BASE_COST, TECH_PATENT_COST, TECH_PATENT_VP = range(4)
EFF_TECH, EFF_SIDE, EFF_PHASE, EFF_ONE_TIME, EFF_IMMEDIATE = range(5)
RET_SIZE, RET_SIZE_NUMBER, RET_N_PLACES, RET_BONUS, RET_BONUS_AMOUNT = range(5)
RULE_PLAYERS, RULE_KIND, RULE_REGION = range(3)

FILES: tuple[str, ...] = (
    "constants", "options", "tablets", "regions", "office_places", "buyers", "start_positions", "upgrades",
    "technologies", "technology_sides", "retailers", "retailer_placement", "adjacency",
)
FILE_NAMES = {name: f"{name}.toml" if name in ("constants", "options") else f"{name}.csv" for name in FILES}

COLUMNS: dict[str, tuple[str, ...]] = {
    "tablets": ("tablet", "side", "row", "col", "symbol"),
    "regions": ("region_id", "name", "size", "size_number", "start_colour"),
    "office_places": ("region_id", "place", "entry_cost", "control_vp"),
    "buyers": ("region_id", "position", "kind", "price_cap", "technology"),
    "start_positions": ("colour", "start_region", "starting_upgrade"),
    "upgrades": ("upgrade_id", "kind", "colour", "half_1", "half_2"),
    "technologies": ("tech_id", "name", "board_sector", "base_cost", "patent_cost", "patent_vp"),
    "technology_sides": ("tech_id", "side", "listed_order", "effect_code", "phase", "duration", "immediate"),
    "retailers": ("retailer_id", "side", "size", "size_number", "office_places", "place_vp", "bonus", "bonus_amount"),
    "retailer_placement": ("players", "rule", "region_id"),
    "adjacency": ("region_a", "region_b"),
}
# Columns a CSV may carry besides the required ones (any ``*_source`` column is allowed too).
OPTIONAL_COLUMNS = ("source", "notes", "effect_text_en")


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class Region:
    """One map region (regions.csv) with its office places and buyers."""

    id: str
    name: str
    size: str
    size_number: int
    start_colour: str | None
    entry_costs: tuple[int, ...]  # per office place, left to right (office_places.csv)
    control_vp: tuple[int, ...]  # per office place, left to right
    buyers: tuple[tuple[str, int | None, str | None], ...]  # (kind, price cap, technology) by position


@dataclass(frozen=True)
class Upgrade:
    """A 2-cell upgrade tile (upgrades.csv); starting upgrades carry their colour."""

    id: str
    kind: str
    colour: str | None
    halves: tuple[str, str]


@dataclass(frozen=True)
class Technology:
    """A technology (technologies.csv) and the effect codes of its face and back."""

    id: str
    name: str
    board_sector: int
    base_cost: int
    patent_cost: int
    patent_vp: int
    face: str
    back: str


@dataclass(frozen=True)
class RetailerSide:
    """One side of a retailer tile (retailers.csv)."""

    id: str
    side: str
    size: str
    size_number: int
    place_vp: tuple[int, ...]
    bonus: str
    bonus_amount: int


@dataclass
class SmartphoneData:
    """Validated content of one Smartphone Inc. data set, plus the compact arrays for the kernels.

    ``tablet_grid[type, side, row, col]`` is the symbol code of a tablet cell, with ``type`` indexing
    ``tablet_types`` and ``side`` indexing ``tablet_sides``. The other arrays follow the column
    constants of this module (``REG_*``, ``PLACE_*``, ``BUY_*`` ...); ``-1`` marks "none".
    """

    constants: dict[str, Any]
    tablets: dict[tuple[str, int], tuple[tuple[str, ...], ...]]  # (type, side) -> rows of symbol names
    regions: list[Region]
    start_positions: dict[str, tuple[str, str]]  # colour -> (start region id, starting upgrade id)
    upgrades: list[Upgrade]
    technologies: list[Technology]
    effects: dict[str, dict[str, Any]]  # effect code -> tech, side, listed_order, phase, duration, immediate
    retailers: list[tuple[RetailerSide, RetailerSide]]  # per tile: (side a, side b)
    retailer_placement: dict[int, list[tuple[str, str | None]]]  # players -> [(rule, region id)]
    adjacency: frozenset[frozenset[str]]
    options: dict[str, Option]
    files: dict[str, str] = field(default_factory=dict)  # which path each file was read from

    tablet_grid: np.ndarray = field(init=False, repr=False)
    region_array: np.ndarray = field(init=False, repr=False)
    office_place_array: np.ndarray = field(init=False, repr=False)
    buyer_array: np.ndarray = field(init=False, repr=False)
    start_array: np.ndarray = field(init=False, repr=False)
    upgrade_array: np.ndarray = field(init=False, repr=False)
    technology_array: np.ndarray = field(init=False, repr=False)
    tech_effect_array: np.ndarray = field(init=False, repr=False)
    effect_array: np.ndarray = field(init=False, repr=False)
    retailer_array: np.ndarray = field(init=False, repr=False)
    retailer_vp_array: np.ndarray = field(init=False, repr=False)
    placement_array: np.ndarray = field(init=False, repr=False)
    adjacency_array: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        types, sides = self.tablet_types, self.tablet_sides
        rows, cols = self.constants["tablets"]["rows"], self.constants["tablets"]["cols"]
        grid = np.full((len(types), len(sides), rows, cols), NO_SYMBOL, dtype=np.int8)
        for (t, s), cells in self.tablets.items():
            for r, line in enumerate(cells):
                for c, sym in enumerate(line):
                    grid[types.index(t), sides.index(s), r, c] = SYMBOL_INDEX[sym]
        self.tablet_grid = grid

        colours, sizes = self.colours, self.sizes
        reg_index = self.region_index
        self.region_array = np.zeros((len(self.regions), 7), dtype=np.int16)
        places, buyers = [], []
        for i, reg in enumerate(self.regions):
            self.region_array[i] = (
                sizes.index(reg.size), reg.size_number,
                colours.index(reg.start_colour) if reg.start_colour else -1,
                len(places), len(reg.entry_costs), len(buyers), len(reg.buyers),
            )
            places += [(i, k, cost, vp) for k, (cost, vp) in enumerate(zip(reg.entry_costs, reg.control_vp,
                                                                              strict=True))]
            buyers += [(i, k, BUYER_KINDS.index(kind), cap or 0, TECH_INDEX[tech] if tech else -1)
                       for k, (kind, cap, tech) in enumerate(reg.buyers)]
        self.office_place_array = np.array(places, dtype=np.int16).reshape(-1, 4)
        self.buyer_array = np.array(buyers, dtype=np.int16).reshape(-1, 5)

        upg_index = {u.id: i for i, u in enumerate(self.upgrades)}
        self.start_array = np.array(
            [(reg_index[self.start_positions[c][0]], upg_index[self.start_positions[c][1]]) for c in colours],
            dtype=np.int16,
        ).reshape(-1, 2)
        self.upgrade_array = np.array(
            [(UPGRADE_KINDS.index(u.kind), colours.index(u.colour) if u.colour else -1,
              SYMBOL_INDEX[u.halves[0]], SYMBOL_INDEX[u.halves[1]]) for u in self.upgrades],
            dtype=np.int8,
        ).reshape(-1, 4)

        self.technology_array = np.array(
            [(t.board_sector, t.base_cost, t.patent_cost, t.patent_vp) for t in self.technologies], dtype=np.int16
        )
        self.tech_effect_array = np.array(
            [(EFFECT_INDEX[t.face], EFFECT_INDEX[t.back]) for t in self.technologies], dtype=np.int8
        )
        eff = np.zeros((len(EFFECTS), 5), dtype=np.int8)
        for code, e in self.effects.items():
            eff[EFFECT_INDEX[code]] = (TECH_INDEX[e["tech"]], TECH_SIDES.index(e["side"]), e["phase"] or 0,
                                       e["duration"] == "one_time", e["immediate"])
        self.effect_array = eff

        max_places = max((len(s.place_vp) for pair in self.retailers for s in pair), default=0)
        self.retailer_array = np.zeros((len(self.retailers), 2, 5), dtype=np.int16)
        self.retailer_vp_array = np.zeros((len(self.retailers), 2, max_places), dtype=np.int16)
        for i, pair in enumerate(self.retailers):
            for j, s in enumerate(pair):
                self.retailer_array[i, j] = (sizes.index(s.size), s.size_number, len(s.place_vp),
                                             BONUS_INDEX[s.bonus], s.bonus_amount)
                self.retailer_vp_array[i, j, : len(s.place_vp)] = s.place_vp
        self.placement_array = np.array(
            [(n, PLACEMENT_RULES.index(rule), reg_index[reg] if reg else -1)
             for n, rules in sorted(self.retailer_placement.items()) for rule, reg in rules],
            dtype=np.int16,
        ).reshape(-1, 3)
        adj = np.zeros((len(self.regions), len(self.regions)), dtype=np.bool_)
        for pair in self.adjacency:
            a, b = sorted(pair)
            adj[reg_index[a], reg_index[b]] = adj[reg_index[b], reg_index[a]] = True
        self.adjacency_array = adj

    @property
    def colours(self) -> list[str]:
        """Player colours in constants.toml order (colour index = position)."""
        return list(self.constants["game"]["colours"])

    @property
    def sizes(self) -> list[str]:
        """Region and retailer sizes in constants.toml order."""
        return list(self.constants["retailers"]["sizes"])

    @property
    def tablet_types(self) -> list[str]:
        """Tablet types in constants.toml order (e.g. ["A", "B"])."""
        return list(self.constants["tablets"]["types"])

    @property
    def tablet_sides(self) -> list[int]:
        """Tablet side numbers in constants.toml order (e.g. [1, 2])."""
        return list(self.constants["tablets"]["sides"])

    @property
    def region_index(self) -> dict[str, int]:
        """Region id -> row of ``region_array`` (file order)."""
        return {r.id: i for i, r in enumerate(self.regions)}

    def region(self, region_id: str) -> Region:
        """The region with this id."""
        return self.regions[self.region_index[region_id]]


# ---------------------------------------------------------------- reading helpers


def _read_csv(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Rows of a data file; besides the required columns only notes, sources and *_source are allowed."""
    return read_csv_rows(path, required, lambda col: col in OPTIONAL_COLUMNS or col.endswith("_source"))


def _int(file: str, line: int, row: dict[str, str], col: str, lo: int = 0, hi: int = 999,
         optional: bool = False) -> int | None:
    return int_field(file, line, row, col, lo, hi, optional)


def _choice(file: str, line: int, row: dict[str, str], col: str, allowed: list[str] | tuple[str, ...],
            what: str, optional: bool = False) -> str | None:
    value = row.get(col, "")
    if value == "" and optional:
        return None
    if value not in allowed:
        shown = "empty value" if value == "" else f"'{value}'"
        raise DataError(file, line, col, f"{shown} is not a known {what} ({', '.join(str(a) for a in allowed)})")
    return value


def _empty(file: str, line: int, row: dict[str, str], col: str, why: str) -> None:
    if row.get(col, "") != "":
        raise DataError(file, line, col, f"must be empty {why}")


def _check_sequence(file: str, items: list[tuple[int, str, int]], col: str) -> dict[str, int]:
    """Positions per key must be 0..n-1, each once; returns n per key. items: (line, key, position)."""
    seen: dict[str, set[int]] = {}
    for line, key, pos in items:
        if pos in seen.setdefault(key, set()):
            raise DataError(file, line, col, f"{key}: {col} {pos} appears twice")
        seen[key].add(pos)
    counts = {key: len(s) for key, s in seen.items()}
    for line, key, pos in items:
        if pos >= counts[key]:
            raise DataError(file, line, col, f"{key}: {col} {pos} leaves a gap (expected 0..{counts[key] - 1})")
    return counts


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text_file(path))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(path), None, None, f"not valid TOML: {exc}") from exc


# ---------------------------------------------------------------- constants and options

_CONSTANT_KEYS: dict[str, tuple[tuple[str, type], ...]] = {
    "game": (("rounds", int), ("players_min", int), ("players_max", int), ("colours", list)),
    "price": (("start", int), ("track_min", int), ("track_max", int)),
    "tablets": (("per_player", int), ("types", list), ("rows", int), ("cols", int), ("sides", list),
                ("overlap_min", int), ("overlap_max", int)),
    "upgrades": (("regular", int), ("starting_per_player", int), ("cells", int), ("display", int)),
    "technologies": (("count", int), ("patents", int), ("patent_cost_premium", int)),
    "retailers": (("count", int), ("sizes", list)),
}


def load_constants(path: Path) -> dict[str, Any]:
    """Read constants.toml and check the keys the simulator uses and the symbol list."""
    name = str(path)
    raw = _toml(path)
    for section, keys in _CONSTANT_KEYS.items():
        table = raw.get(section)
        if not isinstance(table, dict):
            raise DataError(name, None, section, "section is missing")
        for key, kind in keys:
            if key not in table:
                raise DataError(name, None, f"{section}.{key}", "key is missing")
            value = table[key]
            if not isinstance(value, kind) or isinstance(value, bool):
                raise DataError(name, None, f"{section}.{key}", f"{value!r} is not a {kind.__name__}")
    symbols = tuple(raw.get("symbols", {}))
    if symbols != SYMBOLS:
        raise DataError(name, None, "symbols", f"symbols must be {', '.join(SYMBOLS)} in this order (the kernel "
                                               f"codes); found {', '.join(symbols) or 'none'}")
    if raw["tablets"]["per_player"] != len(raw["tablets"]["types"]):
        raise DataError(name, None, "tablets.per_player", "each player must get one tablet of each type")
    if not 1 <= raw["tablets"]["overlap_min"] <= raw["tablets"]["overlap_max"]:
        raise DataError(name, None, "tablets.overlap_min", "must be at least 1 and at most overlap_max")
    if raw["upgrades"]["cells"] != 2:
        raise DataError(name, None, "upgrades.cells", "upgrades are 2-cell tiles")
    if raw["technologies"]["count"] != len(TECHNOLOGIES):
        raise DataError(name, None, "technologies.count", f"the rules implement {len(TECHNOLOGIES)} technologies")
    return raw


# ---------------------------------------------------------------- the CSV files


def load_tablets(path: Path, constants: dict[str, Any]) -> dict[tuple[str, int], tuple[tuple[str, ...], ...]]:
    """tablets.csv: every (type, side) of constants.toml is a complete rows x cols grid of symbols."""
    name = str(path)
    tc = constants["tablets"]
    types, sides, rows, cols = tc["types"], tc["sides"], tc["rows"], tc["cols"]
    cells: dict[tuple[str, int], dict[tuple[int, int], str]] = {}
    first_line: dict[tuple[str, int], int] = {}
    for line, row in _read_csv(path, COLUMNS["tablets"]):
        t = _choice(name, line, row, "tablet", types, "tablet type")
        s = _int(name, line, row, "side", -999)
        if s not in sides:
            raise DataError(name, line, "side", f"{s} is not a tablet side ({', '.join(map(str, sides))})")
        r = _int(name, line, row, "row", 0, rows - 1)
        c = _int(name, line, row, "col", 0, cols - 1)
        sym = _choice(name, line, row, "symbol", SYMBOLS, "symbol")
        key = (t, s)
        first_line.setdefault(key, line)
        if (r, c) in cells.setdefault(key, {}):
            raise DataError(name, line, "col", f"tablet {t} side {s}: cell ({r}, {c}) appears twice")
        cells[key][(r, c)] = sym
    out = {}
    for t in types:
        for s in sides:
            got = cells.get((t, s), {})
            if len(got) != rows * cols:
                missing = [f"({r}, {c})" for r in range(rows) for c in range(cols) if (r, c) not in got]
                raise DataError(name, first_line.get((t, s)), "side",
                                f"tablet {t} side {s} has {len(got)} cells, {rows}x{cols} = {rows * cols} needed "
                                f"(missing {', '.join(missing)})")
            out[(t, s)] = tuple(tuple(got[(r, c)] for c in range(cols)) for r in range(rows))
    return out


def load_map(regions_path: Path, places_path: Path, buyers_path: Path, constants: dict[str, Any],
             technologies: list[str]) -> list[Region]:
    """regions.csv, office_places.csv and buyers.csv, cross-checked."""
    name = str(regions_path)
    colours, sizes = constants["game"]["colours"], constants["retailers"]["sizes"]
    base: list[tuple[int, dict[str, Any]]] = []
    size_numbers: dict[str, int] = {}
    start_of: dict[str, int] = {}
    for line, row in _read_csv(regions_path, COLUMNS["regions"]):
        rid = row["region_id"]
        if rid == "":
            raise DataError(name, line, "region_id", "value is empty")
        if any(b["id"] == rid for _, b in base):
            raise DataError(name, line, "region_id", f"duplicate region id {rid}")
        size = _choice(name, line, row, "size", sizes, "size")
        number = _int(name, line, row, "size_number", 1, 99)
        if size_numbers.setdefault(size, number) != number:
            raise DataError(name, line, "size_number",
                            f"{size} regions have size number {size_numbers[size]}, not {number}")
        colour = _choice(name, line, row, "start_colour", colours, "colour", optional=True)
        if colour in start_of:
            raise DataError(name, line, "start_colour", f"{colour} already starts in another region")
        if colour:
            start_of[colour] = line
        base.append((line, {"id": rid, "name": row["name"], "size": size, "size_number": number,
                            "start_colour": colour}))
    if not base:
        raise DataError(name, None, None, "no regions")
    ids = [b["id"] for _, b in base]

    pname = str(places_path)
    places: dict[str, dict[int, tuple[int, int]]] = {}
    items = []
    for line, row in _read_csv(places_path, COLUMNS["office_places"]):
        rid = _choice(pname, line, row, "region_id", ids, "region")
        place = _int(pname, line, row, "place", 0, 99)
        cost = _int(pname, line, row, "entry_cost", 1, 99)
        vp = _int(pname, line, row, "control_vp", 0, 99)
        items.append((line, rid, place))
        places.setdefault(rid, {})[place] = (cost, vp)
    _check_sequence(pname, items, "place")

    bname = str(buyers_path)
    buyers: dict[str, dict[int, tuple[str, int | None, str | None]]] = {}
    items = []
    for line, row in _read_csv(buyers_path, COLUMNS["buyers"]):
        rid = _choice(bname, line, row, "region_id", ids, "region")
        pos = _int(bname, line, row, "position", 0, 99)
        kind = _choice(bname, line, row, "kind", BUYER_KINDS, "buyer kind")
        if kind == "red":
            cap = _int(bname, line, row, "price_cap", 1, 99)
            _empty(bname, line, row, "technology", "for a red buyer")
            tech = None
        else:
            _empty(bname, line, row, "price_cap", "for a purple buyer")
            cap = None
            tech = _choice(bname, line, row, "technology", technologies, "technology")
        items.append((line, rid, pos))
        buyers.setdefault(rid, {})[pos] = (kind, cap, tech)
    _check_sequence(bname, items, "position")

    regions = []
    for line, b in base:
        if b["id"] not in places:
            raise DataError(pname, None, "region_id", f"region {b['id']} (regions.csv line {line}) has no office place")
        if b["id"] not in buyers:
            raise DataError(bname, None, "region_id", f"region {b['id']} (regions.csv line {line}) has no buyer")
        pl = places[b["id"]]
        regions.append(Region(
            b["id"], b["name"], b["size"], b["size_number"], b["start_colour"],
            tuple(pl[k][0] for k in range(len(pl))), tuple(pl[k][1] for k in range(len(pl))),
            tuple(buyers[b["id"]][k] for k in range(len(buyers[b["id"]]))),
        ))
    return regions


def load_upgrades(path: Path, constants: dict[str, Any]) -> list[Upgrade]:
    """upgrades.csv: unique ids, two symbols each, one starting upgrade per colour, the regular count."""
    name = str(path)
    colours = constants["game"]["colours"]
    upgrades: list[Upgrade] = []
    starting_line: dict[str, int] = {}
    for line, row in _read_csv(path, COLUMNS["upgrades"]):
        uid = row["upgrade_id"]
        if uid == "":
            raise DataError(name, line, "upgrade_id", "value is empty")
        if any(u.id == uid for u in upgrades):
            raise DataError(name, line, "upgrade_id", f"duplicate upgrade id {uid}")
        kind = _choice(name, line, row, "kind", UPGRADE_KINDS, "upgrade kind")
        if kind == "starting":
            colour = _choice(name, line, row, "colour", colours, "colour")
            if colour in starting_line:
                raise DataError(name, line, "colour", f"{colour} already has a starting upgrade "
                                                      f"(line {starting_line[colour]})")
            starting_line[colour] = line
        else:
            _empty(name, line, row, "colour", "for a regular upgrade")
            colour = None
        halves = []
        for col in ("half_1", "half_2"):
            sym = _choice(name, line, row, col, SYMBOLS, "symbol")
            if sym == "blank":
                raise DataError(name, line, col, "an upgrade half carries a symbol, not blank")
            halves.append(sym)
        upgrades.append(Upgrade(uid, kind, colour, (halves[0], halves[1])))
    regular = sum(u.kind == "regular" for u in upgrades)
    if regular != constants["upgrades"]["regular"]:
        raise DataError(name, None, "kind", f"{regular} regular upgrades; constants.toml says "
                                            f"{constants['upgrades']['regular']}")
    return upgrades


def load_start_positions(path: Path, constants: dict[str, Any], regions: list[Region],
                         upgrades: list[Upgrade]) -> dict[str, tuple[str, str]]:
    """start_positions.csv: each colour once, naming its start region and its own starting upgrade."""
    name = str(path)
    colours = constants["game"]["colours"]
    by_region = {r.id: r for r in regions}
    by_upgrade = {u.id: u for u in upgrades}
    out: dict[str, tuple[str, str]] = {}
    for line, row in _read_csv(path, COLUMNS["start_positions"]):
        colour = _choice(name, line, row, "colour", colours, "colour")
        if colour in out:
            raise DataError(name, line, "colour", f"duplicate colour {colour}")
        rid = _choice(name, line, row, "start_region", list(by_region), "region")
        if by_region[rid].start_colour != colour:
            raise DataError(name, line, "start_region",
                            f"regions.csv gives {rid} the start colour {by_region[rid].start_colour or 'none'}, "
                            f"not {colour}")
        uid = _choice(name, line, row, "starting_upgrade", list(by_upgrade), "upgrade")
        if by_upgrade[uid].kind != "starting" or by_upgrade[uid].colour != colour:
            raise DataError(name, line, "starting_upgrade", f"{uid} is not the starting upgrade of {colour}")
        out[colour] = (rid, uid)
    missing = [c for c in colours if c not in out]
    if missing:
        raise DataError(name, None, "colour", f"no start position for {', '.join(missing)}")
    return out


def load_technologies(tech_path: Path, sides_path: Path,
                      constants: dict[str, Any]) -> tuple[list[Technology], dict[str, dict[str, Any]]]:
    """technologies.csv and technology_sides.csv: the six technologies, each with a face and a back effect."""
    name = str(tech_path)
    premium = constants["technologies"]["patent_cost_premium"]
    rows: dict[str, dict[str, Any]] = {}
    for line, row in _read_csv(tech_path, COLUMNS["technologies"]):
        tid = _choice(name, line, row, "tech_id", TECHNOLOGIES, "technology")
        if tid in rows:
            raise DataError(name, line, "tech_id", f"duplicate technology {tid}")
        base = _int(name, line, row, "base_cost", 1, 99)
        patent = _int(name, line, row, "patent_cost", 1, 99)
        if patent != base + premium:
            raise DataError(name, line, "patent_cost", f"{patent} is not base_cost {base} + {premium} "
                                                       "(constants.toml patent_cost_premium)")
        rows[tid] = {"name": row["name"], "sector": _int(name, line, row, "board_sector", 1, 99),
                     "base": base, "patent": patent, "vp": _int(name, line, row, "patent_vp", 0, 99)}
    missing = [t for t in TECHNOLOGIES if t not in rows]
    if missing:
        raise DataError(name, None, "tech_id", f"missing technologies {', '.join(missing)}")

    sname = str(sides_path)
    effects: dict[str, dict[str, Any]] = {}
    side_of: dict[tuple[str, str], str] = {}
    for line, row in _read_csv(sides_path, COLUMNS["technology_sides"]):
        tid = _choice(sname, line, row, "tech_id", TECHNOLOGIES, "technology")
        side = _choice(sname, line, row, "side", TECH_SIDES, "technology side")
        if (tid, side) in side_of:
            raise DataError(sname, line, "side", f"{tid} {side} appears twice")
        order = _int(sname, line, row, "listed_order", 1, 2)
        code = _choice(sname, line, row, "effect_code", EFFECTS, "effect code")
        if EFFECTS.index(code) // 2 != TECH_INDEX[tid]:
            raise DataError(sname, line, "effect_code", f"{code} is not an effect of {tid}")
        if code in effects:
            raise DataError(sname, line, "effect_code", f"{code} is on two sides")
        if EFFECTS.index(code) % 2 != order - 1:
            raise DataError(sname, line, "listed_order", f"the rulebook lists {code} "
                                                         f"{'first' if EFFECTS.index(code) % 2 == 0 else 'second'}")
        immediate = _choice(sname, line, row, "immediate", ("yes", "no"), "yes/no value")
        effects[code] = {"tech": tid, "side": side, "listed_order": order,
                         "phase": _int(sname, line, row, "phase", 1, 8, optional=True),
                         "duration": _choice(sname, line, row, "duration", DURATIONS, "duration"),
                         "immediate": immediate == "yes"}
        side_of[(tid, side)] = code
    for tid in TECHNOLOGIES:
        for side in TECH_SIDES:
            if (tid, side) not in side_of:
                raise DataError(sname, None, "side", f"{tid} has no {side} row")
    techs = [Technology(t, rows[t]["name"], rows[t]["sector"], rows[t]["base"], rows[t]["patent"], rows[t]["vp"],
                        side_of[(t, "face")], side_of[(t, "back")]) for t in TECHNOLOGIES]
    return techs, effects


def load_retailers(path: Path, constants: dict[str, Any],
                   regions: list[Region]) -> list[tuple[RetailerSide, RetailerSide]]:
    """retailers.csv: each tile has sides a and b of one size; place VP listed per office place."""
    name = str(path)
    sizes = constants["retailers"]["sizes"]
    size_numbers = {r.size: r.size_number for r in regions}
    tiles: dict[str, dict[str, RetailerSide]] = {}
    first_line: dict[str, int] = {}
    for line, row in _read_csv(path, COLUMNS["retailers"]):
        rid = row["retailer_id"]
        if rid == "":
            raise DataError(name, line, "retailer_id", "value is empty")
        side = _choice(name, line, row, "side", RETAILER_SIDES, "retailer side")
        if side in tiles.setdefault(rid, {}):
            raise DataError(name, line, "side", f"{rid} side {side} appears twice")
        first_line.setdefault(rid, line)
        size = _choice(name, line, row, "size", sizes, "size")
        number = _int(name, line, row, "size_number", 1, 99)
        if size in size_numbers and size_numbers[size] != number:
            raise DataError(name, line, "size_number", f"{size} regions have size number {size_numbers[size]}, "
                                                       f"not {number}")
        n_places = _int(name, line, row, "office_places", 1, 99)
        try:
            vps = tuple(int(v) for v in row["place_vp"].split(";"))
        except ValueError:
            raise DataError(name, line, "place_vp", f"'{row['place_vp']}' is not a ';'-separated list of "
                                                    "integers") from None
        if len(vps) != n_places:
            raise DataError(name, line, "place_vp", f"{len(vps)} values for {n_places} office places")
        if any(a < b for a, b in itertools.pairwise(vps)):
            raise DataError(name, line, "place_vp", "VP must not increase from left to right")
        bonus = _choice(name, line, row, "bonus", BONUSES, "retailer bonus")
        if bonus in BONUSES_WITH_AMOUNT:
            amount = _int(name, line, row, "bonus_amount", 1, 9)
        else:
            _empty(name, line, row, "bonus_amount", f"for bonus {bonus}")
            amount = 0
        other = next(iter(tiles[rid].values()), None)
        if other is not None and other.size != size:
            raise DataError(name, line, "size", f"{rid} side {other.side} is {other.size}, this side is {size}")
        tiles[rid][side] = RetailerSide(rid, side, size, number, vps, bonus, amount)
    for rid, sides in tiles.items():
        for side in RETAILER_SIDES:
            if side not in sides:
                raise DataError(name, first_line[rid], "side", f"{rid} has no side {side}")
    if len(tiles) != constants["retailers"]["count"]:
        raise DataError(name, None, "retailer_id", f"{len(tiles)} retailers; constants.toml says "
                                                   f"{constants['retailers']['count']}")
    return [(sides["a"], sides["b"]) for sides in tiles.values()]


def load_retailer_placement(path: Path, constants: dict[str, Any],
                            regions: list[Region]) -> dict[int, list[tuple[str, str | None]]]:
    """retailer_placement.csv: the rules for every player count; 'region' rows name an existing region."""
    name = str(path)
    lo, hi = constants["game"]["players_min"], constants["game"]["players_max"]
    ids = [r.id for r in regions]
    out: dict[int, list[tuple[str, str | None]]] = {}
    for line, row in _read_csv(path, COLUMNS["retailer_placement"]):
        n = _int(name, line, row, "players", lo, hi)
        rule = _choice(name, line, row, "rule", PLACEMENT_RULES, "placement rule")
        if rule == "region":
            reg = _choice(name, line, row, "region_id", ids, "region")
            if (rule, reg) in out.get(n, []):
                raise DataError(name, line, "region_id", f"{reg} is listed twice for {n} players")
        else:
            _empty(name, line, row, "region_id", f"for rule {rule}")
            reg = None
        out.setdefault(n, []).append((rule, reg))
    missing = [str(n) for n in range(lo, hi + 1) if n not in out]
    if missing:
        raise DataError(name, None, "players", f"no rule for {', '.join(missing)} players")
    return out


def load_adjacency(path: Path, regions: list[Region]) -> frozenset[frozenset[str]]:
    """adjacency.csv: unordered pairs of two different existing regions, each pair once."""
    name = str(path)
    ids = [r.id for r in regions]
    pairs: set[frozenset[str]] = set()
    for line, row in _read_csv(path, COLUMNS["adjacency"]):
        a = _choice(name, line, row, "region_a", ids, "region")
        b = _choice(name, line, row, "region_b", ids, "region")
        if a == b:
            raise DataError(name, line, "region_b", f"{a} cannot neighbour itself")
        if frozenset((a, b)) in pairs:
            raise DataError(name, line, "region_b", f"{a}-{b} is listed twice")
        pairs.add(frozenset((a, b)))
    return frozenset(pairs)


# ---------------------------------------------------------------- entry point


def load_data(data_dir: str | Path | None = None, **files: str | Path) -> SmartphoneData:
    """Load and validate a data set.

    ``data_dir`` holds the files (the bundled ``data/`` by default); any file can be replaced by
    passing its stem as a keyword, e.g. ``load_data(tablets="my_tablets.csv")``.
    """
    paths = data_file_paths(DATA_DIR, {stem: FILE_NAMES[stem] for stem in FILES}, data_dir, files)

    constants = load_constants(paths["constants"])
    options = load_options(paths["options"])
    tablets = load_tablets(paths["tablets"], constants)
    technologies, effects = load_technologies(paths["technologies"], paths["technology_sides"], constants)
    regions = load_map(paths["regions"], paths["office_places"], paths["buyers"], constants, list(TECHNOLOGIES))
    upgrades = load_upgrades(paths["upgrades"], constants)
    starts = load_start_positions(paths["start_positions"], constants, regions, upgrades)
    retailers = load_retailers(paths["retailers"], constants, regions)
    placement = load_retailer_placement(paths["retailer_placement"], constants, regions)
    adjacency = load_adjacency(paths["adjacency"], regions)
    return SmartphoneData(constants, tablets, regions, starts, upgrades, technologies, effects, retailers,
                          placement, adjacency, options, {k: str(v) for k, v in paths.items()})

