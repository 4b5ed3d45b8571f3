"""Steel Arena data files and their loader (simlab/games/steel_arena/data.py; NOTES.md Parts I.3, I.17, II, V)."""

from __future__ import annotations

import csv
import importlib
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.core.datavariants import variant_data
from simlab.core.errors import DataError
from simlab.core.game import all_games
from simlab.games.steel_arena.data import (
    C_EDGE,
    C_Q,
    C_R,
    C_S,
    DATA_DIR,
    FILE_NAMES,
    T_DELIVERY,
    T_GENERATION,
    T_HEAT,
    T_TYPE,
    TILE_FIELDS,
    TILE_TYPES,
    load_data,
)
from simlab.games.steel_arena.variants import DATA

RESEARCH = Path(__file__).resolve().parents[4] / "shared" / "research" / "steel-arena"
COPIED = ("tiles.csv", "robots.csv", "setup.csv", "arena_layouts.csv", "config.toml")


# ---------------------------------------------------------------- helpers


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    target.mkdir()
    for name in FILE_NAMES.values():
        shutil.copyfile(DATA_DIR / name, target / name)
    return target


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def _write(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def _line(name: str, col: str, value: str) -> int:
    """File line of the first bundled row whose ``col`` is ``value`` (header is line 1)."""
    _, rows = _read(DATA_DIR / name)
    return 2 + next(i for i, r in enumerate(rows) if r[col] == value)


def _edit(folder: Path, name: str, line: int, changes: dict[str, str]) -> None:
    fields, rows = _read(folder / name)
    rows[line - 2].update(changes)
    _write(folder / name, fields, rows)


def _replace(folder: Path, name: str, old: str, new: str) -> None:
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text, old
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")


def _error(folder: Path) -> DataError:
    with pytest.raises(DataError) as info:
        load_data(data_dir=folder)
    message = str(info.value)
    assert "\n" not in message
    return info.value


def _assert_at(exc: DataError, folder: Path, name: str, line: int | None, column: str, *words: str) -> None:
    where = f"{folder / name}:{line}" if line is not None else f"{folder / name}"
    assert str(exc).startswith(f"{where}: {column}: "), str(exc)
    for word in words:
        assert word in str(exc), (word, str(exc))


# ---------------------------------------------------------------- the bundled data


def test_bundled_data_loads():
    data = load_data()
    assert len(data.tiles) == 63
    assert sum(t.count for t in data.tiles) == 76
    for gen, n in ((1, 16), (2, 30), (3, 30)):
        assert sum(t.count for t in data.tiles if t.generation == gen) == n
    assert [r.robot_id for r in data.robots] == ["BATODO", "OBJECT113", "KSERKS", "TILDA"]
    assert all(r.a.side == "A" and r.b.side == "B" for r in data.robots)
    assert sorted(data.setup) == [2, 3, 4]
    assert sorted(data.layouts) == ["2p", "3p", "4p"]
    assert data.config.trophies_to_end == 10 and data.config.module_limit_excluding_central == 12
    assert set(data.files) == set(FILE_NAMES)


def test_tile_fields_are_typed():
    data = load_data()
    f451 = data.tile("G3-A-F451")
    assert (f451.type, f451.attack_delivery, f451.damage, f451.heat) == ("attack", "direct", 0, 6)
    blokha = data.tile("G3-M-BLOKHA")
    assert (blokha.move_kind, blokha.move_min, blokha.move_max) == ("jump", 2, 4)
    zont = data.tile("G2-D-ZONT")
    assert zont.needs_activation and not zont.passive and zont.armour_arc == "all"
    trap = data.tile("G2-T-LOVUSHKA")
    assert trap.explosive and (trap.explosive_on_tile, trap.explosive_adjacent) == (2, 1)
    assert data.tile("G2-T-VODA").water_cool == 1 and data.tile("G2-T-UKRYTIE").cover
    scrap = data.tile("G2-T-METALLOLOM")
    assert scrap.obstacle and scrap.interference and scrap.count == 2
    assert data.tile("G2-M-KRAB").attack_delivery is None
    with pytest.raises(KeyError):
        data.tile("NO-SUCH-TILE")


def test_kernel_arrays():
    data = load_data()
    assert data.tile_array.shape == (63, TILE_FIELDS) and data.tile_array.dtype == np.int32
    i = [t.tile_id for t in data.tiles].index("G3-A-F451")
    assert data.tile_array[i, T_GENERATION] == 3 and data.tile_array[i, T_HEAT] == 6
    assert data.tile_array[i, T_TYPE] == TILE_TYPES.index("attack")
    krab = [t.tile_id for t in data.tiles].index("G2-M-KRAB")
    assert data.tile_array[krab, T_DELIVERY] == -1
    assert data.tile_pool.shape == (76,)
    assert np.bincount(data.tile_pool).tolist() == [t.count for t in data.tiles]
    assert data.robot_array.shape == (4, 2, 9)
    assert data.setup_array[4].tolist() == [24, 6, 4, 4, 2, 4, 4, 28]
    for lid, cells in data.layout_cells.items():
        assert cells.dtype == np.int32
        assert (cells[:, C_Q] + cells[:, C_R] + cells[:, C_S] == 0).all()
        assert len({(q, r) for q, r in cells[:, [C_Q, C_R]].tolist()}) == len(cells), lid


@pytest.mark.parametrize(("players", "cells", "edges"), [(2, 12, 9), (3, 19, 12), (4, 24, 14)])
def test_setup_counts_and_layout_sizes_agree(players, cells, edges):
    """NOTES I.17.10 and VI.1: 12 / 19 / 24 cells, as many as the generation-2 tiles laid."""
    data = load_data()
    row = data.setup[players]
    assert row.gen2_total == cells == sum(row.gen2_counts.values())
    assert row.gen3_stack == 7 * players
    layout = data.layout_for(players)
    assert layout.layout_id == row.recommended_layout == f"{players}p"
    assert layout.players == players and len(layout.cells) == cells
    assert sum(c.is_edge for c in layout.cells) == edges
    assert int(data.layout_cells[layout.layout_id][:, C_EDGE].sum()) == edges


def test_data_variants_load_through_datafiles():
    assert DATA.stems == ("tiles", "robots", "setup", "arena_layouts", "config", "options")
    data = variant_data(DATA)
    assert len(data.tiles) == 63


def test_options_cover_every_open_point():
    data = load_data()
    # 44 open points of NOTES Part II, the cell under a robot as a target (II.21's extension, issue 21)
    # and the simulator's turn limit
    assert len(data.options) == 46
    for name, option in data.options.items():
        assert option.open_point, name
        assert "NOTES" in option.description or option.open_point == "simulator", name
        assert option.default in option.allowed, name


def test_the_package_is_registered():
    module = importlib.import_module("simlab.games.steel_arena")
    assert module.GAME.name == "steel_arena"
    assert "steel_arena" in [g.name for g in all_games()]


# ---------------------------------------------------------------- research copies


def _research() -> Path:
    if not RESEARCH.exists():
        pytest.skip("research folder not available")
    return RESEARCH


@pytest.mark.parametrize("name", COPIED)
def test_bundled_files_match_research_copy(name):
    """The bundled files are the research files; tiles.csv only adds the ``in_play`` column (all true),
    which the tile ablation switches off."""
    research = _research()
    if name != "tiles.csv":
        assert (DATA_DIR / name).read_bytes() == (research / name).read_bytes()
        return
    with open(DATA_DIR / name, encoding="utf-8", newline="") as ours, open(research / name, encoding="utf-8",
                                                                           newline="") as theirs:
        mine, orig = list(csv.DictReader(ours)), list(csv.DictReader(theirs))
    assert all(row.pop("in_play") == "true" for row in mine)
    assert mine == orig


def test_options_match_research_options():
    """Every research option is an option here with the same default (lists joined with ``_and_``,
    the per-player-count layout table split into ``layout_<n>p``, team options prefixed ``team_``)."""
    research = tomllib.loads((_research() / "options.toml").read_text(encoding="utf-8"))
    options = load_data().options
    expected: dict[str, object] = {}
    for section, table in research.items():
        for key, value in table.items():
            if key == "layout":
                expected.update({f"layout_{n}p": lid for n, lid in value.items()})
            elif isinstance(value, list):
                expected[key] = "_and_".join(value)
            else:
                expected[f"team_{key}" if section == "team" else key] = value
    # the simulator's safeguard and its reading of the cell under a robot (II.21's extension, docs/steel_arena.md)
    # are not research options
    assert set(expected) == set(options) - {"turn_limit", "cell_under_robot_target"}
    assert {k: options[k].default for k in expected} == expected


# ---------------------------------------------------------------- tiles.csv errors

TILE_CASES = [
    ("G1-A-PUSHKA-M1", {"generation": "4"}, "generation", "4 is outside 1..3"),
    ("G1-A-PUSHKA-M1", {"type": "weapon"}, "type", "allowed: attack, move, rotate, defence, terrain"),
    ("G1-A-PUSHKA-M1", {"colour": "green"}, "colour", "does not match type attack (expected red)"),
    ("G1-A-PUSHKA-M1", {"colour": "pink"}, "colour", "allowed: red, green, yellow, blue, grey"),
    ("G1-A-PUSHKA-M1", {"count": "x"}, "count", "'x' is not an integer"),
    ("G1-A-PUSHKA-M1", {"autocool": "yes"}, "autocool", "allowed: true, false"),
    ("G1-A-PUSHKA-M1", {"attack_delivery": "laser"}, "attack_delivery", "allowed: direct, arc, beam, melee, sweep"),
    ("G1-A-PUSHKA-M1", {"damage": ""}, "damage", "value is empty"),
    ("G1-A-PUSHKA-M1", {"damage": "0"}, "damage", "needs damage, push, whirl or heat above 0"),
    ("G2-A-GRANATOMYOT", {"damage": "0", "heat": "1"}, "splash", "splash needs damage"),
    ("G1-A-PUSHKA-M1", {"needs_activation": "true"}, "needs_activation", "only defence modules"),
    ("G1-A-PUSHKA-M1", {"obstacle": "true"}, "obstacle", "only terrain has this property"),
    ("G1-A-PUSHKA-M1", {"move_kind": "forward"}, "move_kind", "must be blank for a attack tile"),
    ("G1-A-PUSHKA-M1", {"water_cool": "1"}, "water_cool", "must be blank"),
    ("G1-M-SKOROKHOD-M1", {"move_kind": "teleport"}, "move_kind", "allowed: forward, side_forward, jump"),
    ("G1-M-SKOROKHOD-M1", {"move_min": "3"}, "move_max", "2 is below move_min 3"),
    ("G1-M-SKOROKHOD-M1", {"move_kind": "jump"}, "move_min", "a jump lands at least 2 cells away"),
    ("G1-M-SKOROKHOD-M1", {"damage": "1"}, "damage", "must be blank for a move tile"),
    ("G1-R-OS-M1", {"rotate_max": "4"}, "rotate_max", "4 is outside 1..3"),
    ("G1-D-FRONT-M1", {"armour_arc": "rear"}, "armour_arc", "allowed: front, side, all"),
    ("G1-D-FRONT-M1", {"armour_value": "0"}, "armour_value", "0 is outside 1..20"),
    ("G1-D-FRONT-M1", {"passive": "false"}, "passive", "either passive or needs_activation"),
    ("G2-T-LOVUSHKA", {"explosive_adjacent": ""}, "explosive_adjacent", "given together"),
    ("G2-T-LOVUSHKA", {"speed": "true"}, "speed", "terrain is not a module"),
    ("G2-T-METALLOLOM", {"obstacle": "false", "interference": "false"}, "obstacle", "terrain needs a property"),
    ("G2-T-VODA", {"cover": "true"}, "obstacle", "at most one of obstacle, explosive, cover, water"),
    ("G2-T-VODA", {"water_cool": "0"}, "water_cool", "0 is outside 1..20"),
    ("G1-A-PUSHKA-M1", {"source": "guess"}, "source", "allowed: rulebook, public-source, reconstructed"),
    ("G1-A-PUSHKA-M1", {"tile_id": ""}, "tile_id", "value is empty"),
    ("G1-M-SKOROKHOD-M1", {"rulebook_fields": "name;speeed"}, "rulebook_fields", "'speeed' is not a column"),
]


@pytest.mark.parametrize(("tile_id", "changes", "column", "what"), TILE_CASES)
def test_tile_errors(tmp_path, tile_id, changes, column, what):
    folder = _copy(tmp_path)
    line = _line("tiles.csv", "tile_id", tile_id)
    _edit(folder, "tiles.csv", line, changes)
    _assert_at(_error(folder), folder, "tiles.csv", line, column, what)


def test_duplicate_tile_id(tmp_path):
    folder = _copy(tmp_path)
    line = _line("tiles.csv", "tile_id", "G1-M-SKOROKHOD-M1")
    _edit(folder, "tiles.csv", line, {"tile_id": "G1-A-PUSHKA-M1"})
    _assert_at(_error(folder), folder, "tiles.csv", line, "tile_id", "repeats line 2")


def test_generation_totals_checked(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "tiles.csv", _line("tiles.csv", "tile_id", "G2-A-LAZER"), {"count": "2"})
    _, rows = _read(DATA_DIR / "tiles.csv")
    _assert_at(_error(folder), folder, "tiles.csv", len(rows) + 1, "count",
               "generation 2 has 31 tiles; config.toml says 30")


def test_starter_sets_checked(tmp_path):
    folder = _copy(tmp_path)
    # one starter cannon becomes a fifth starter axis: 16 generation-1 tiles still, but 3 attack modules
    _edit(folder, "tiles.csv", _line("tiles.csv", "tile_id", "G1-A-PUSHKA-M1"), {"count": "3"})
    _edit(folder, "tiles.csv", _line("tiles.csv", "tile_id", "G1-R-OS-M1"), {"count": "5"})
    _, rows = _read(DATA_DIR / "tiles.csv")
    _assert_at(_error(folder), folder, "tiles.csv", len(rows) + 1, "count", "generation 1 has 3 attack tiles")


def test_unknown_and_missing_columns(tmp_path):
    folder = _copy(tmp_path)
    fields, rows = _read(folder / "tiles.csv")
    _write(folder / "tiles.csv", [*fields, "colour_hex"], rows)
    _assert_at(_error(folder), folder, "tiles.csv", 1, "colour_hex", "unknown column")
    _write(folder / "tiles.csv", [f for f in fields if f != "heat"], rows)
    _assert_at(_error(folder), folder, "tiles.csv", 1, "heat", "required column is missing")


def test_setup_needs_more_tiles_than_the_box_holds(tmp_path):
    folder = _copy(tmp_path)
    line = _line("setup.csv", "players", "4")
    _edit(folder, "setup.csv", line, {"gen2_defence": "6", "gen2_random": "0"})
    _replace(folder, "config.toml", "4 = [6, 4, 4, 2, 4, 4]", "4 = [6, 4, 4, 6, 4, 0]")
    _assert_at(_error(folder), folder, "setup.csv", line, "gen2_defence",
               "4 players need 6 generation-2 defence tiles; tiles.csv has 4")


# ---------------------------------------------------------------- robots.csv errors

ROBOT_CASES = [
    (2, {"side": "C"}, "side", "allowed: A, B"),
    (3, {"side": "A"}, "side", "robot BATODO side A repeats line 2"),
    (2, {"attack_delivery": "kick"}, "attack_delivery", "allowed: direct, arc, beam, melee, sweep"),
    (2, {"attack_damage": "0"}, "attack_damage", "0 is outside 1..20"),
    (2, {"move_kind": "fly"}, "move_kind", "allowed: forward, side_forward, jump"),
    (3, {"move_max": "0"}, "move_max", "0 is outside 1..10"),
    (3, {"rotate_min": "3", "rotate_max": "2"}, "rotate_max", "2 is below rotate_min 3"),
    (3, {"armour_value": "0"}, "armour_value", "an armour arc needs a value above 0"),
    (2, {"armour_arc": "back"}, "armour_arc", "allowed: front, side, all"),
    (2, {"robot_id": ""}, "robot_id", "value is empty"),
]


@pytest.mark.parametrize(("line", "changes", "column", "what"), ROBOT_CASES)
def test_robot_errors(tmp_path, line, changes, column, what):
    folder = _copy(tmp_path)
    _edit(folder, "robots.csv", line, changes)
    _assert_at(_error(folder), folder, "robots.csv", line, column, what)


def test_robot_without_side_b(tmp_path):
    folder = _copy(tmp_path)
    fields, rows = _read(folder / "robots.csv")
    _write(folder / "robots.csv", fields, rows[:-1])
    _assert_at(_error(folder), folder, "robots.csv", len(rows), "side", "robot TILDA has no side B")


def test_robot_count_matches_config(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "config.toml", "robots = 4", "robots = 5")
    _assert_at(_error(folder), folder, "robots.csv", 9, "robot_id", "4 robots; config.toml says 5")


# ---------------------------------------------------------------- setup.csv errors

SETUP_CASES = [
    (2, {"gen2_total": "13"}, "gen2_total", "13 is not the sum of the per-type counts (12)"),
    (2, {"players": "5"}, "players", "5 is outside 2..4"),
    (3, {"players": "2"}, "players", "2 players repeats line 2"),
    (2, {"gen3_stack": "15"}, "gen3_stack", "15 is not gen3_per_player x players (14)"),
    (2, {"gen3_per_player": "8", "gen3_stack": "16"}, "gen3_per_player", "8; config.toml says 7"),
    (2, {"gen1_per_player": "5"}, "gen1_per_player", "5; config.toml says 4"),
    (2, {"board_side_at_start": "B"}, "board_side_at_start", "'B'; config.toml says 'A'"),
    (2, {"board_side_at_start": "C"}, "board_side_at_start", "allowed: A, B"),
    (2, {"gen2_attack": "2", "gen2_random": "3"}, "gen2_attack", "differ from config.toml setup_gen2.2"),
    (2, {"recommended_layout": "3p"}, "recommended_layout", "layout 3p is for 3 players, not 2"),
    (2, {"recommended_layout": "round"}, "recommended_layout", "'round' (2 players) is not a layout_id"),
    (2, {"source": ""}, "source", "value is empty"),
]


@pytest.mark.parametrize(("line", "changes", "column", "what"), SETUP_CASES)
def test_setup_errors(tmp_path, line, changes, column, what):
    folder = _copy(tmp_path)
    _edit(folder, "setup.csv", line, changes)
    _assert_at(_error(folder), folder, "setup.csv", line, column, what)


def test_setup_row_missing(tmp_path):
    folder = _copy(tmp_path)
    fields, rows = _read(folder / "setup.csv")
    _write(folder / "setup.csv", fields, rows[:-1])
    _assert_at(_error(folder), folder, "setup.csv", 3, "players", "no row for 4 players")


# ---------------------------------------------------------------- arena_layouts.csv errors


def test_layout_coordinates_must_sum_to_zero(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "arena_layouts.csv", 2, {"s": "2"})
    _assert_at(_error(folder), folder, "arena_layouts.csv", 2, "s", "q + r + s must be 0 (q=0, r=-1, s=2)")


def test_layout_duplicate_cell(tmp_path):
    folder = _copy(tmp_path)
    fields, rows = _read(folder / "arena_layouts.csv")
    rows.insert(3, dict(rows[0]))
    _write(folder / "arena_layouts.csv", fields, rows)
    _assert_at(_error(folder), folder, "arena_layouts.csv", 5, "q", "cell (0, -1) of layout 2p repeats line 2")


def test_layout_neighbours_and_edge_flags(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "arena_layouts.csv", 2, {"in_field_neighbours": "4"})
    _assert_at(_error(folder), folder, "arena_layouts.csv", 2, "in_field_neighbours",
               "4, but cell (0, -1) has 3 neighbours in layout 2p")
    (tmp_path / "b").mkdir()
    folder2 = _copy(tmp_path / "b")
    _edit(folder2, "arena_layouts.csv", 2, {"is_edge": "false"})
    _assert_at(_error(folder2), folder2, "arena_layouts.csv", 2, "is_edge", "has 3 neighbours in layout 2p")


def test_layout_removed_cell_breaks_the_neighbour_counts(tmp_path):
    """A cell taken out changes its neighbours' counts: the file can no longer be consistent."""
    folder = _copy(tmp_path)
    fields, rows = _read(folder / "arena_layouts.csv")
    kept = [r for r in rows if (r["layout_id"], r["q"], r["r"]) != ("2p", "0", "0")]
    _write(folder / "arena_layouts.csv", fields, kept)
    exc = _error(folder)
    assert "in_field_neighbours" in str(exc) and "layout 2p" in str(exc)


def test_layout_cell_count_must_match_setup(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "setup.csv", 2, {"gen2_total": "13", "gen2_random": "3"})
    _replace(folder, "config.toml", "2 = [3, 2, 2, 1, 2, 2]", "2 = [3, 2, 2, 1, 2, 3]")
    _assert_at(_error(folder), folder, "arena_layouts.csv", 2, "layout_id",
               "layout 2p has 12 cells; setup.csv lays 13 generation-2 tiles for 2 players")


@pytest.mark.parametrize(("changes", "column", "what"), [
    ({"players": "3"}, "players", "layout 2p is for 2 players, not 3"),
    ({"is_edge": "yes"}, "is_edge", "allowed: true, false"),
    ({"q": "a"}, "q", "'a' is not an integer"),
    ({"in_field_neighbours": "7"}, "in_field_neighbours", "7 is outside 0..6"),
    ({"layout_id": ""}, "layout_id", "value is empty"),
])
def test_layout_field_errors(tmp_path, changes, column, what):
    folder = _copy(tmp_path)
    _edit(folder, "arena_layouts.csv", 3, changes)
    _assert_at(_error(folder), folder, "arena_layouts.csv", 3, column, what)


# ---------------------------------------------------------------- config.toml and options.toml errors

CONFIG_CASES = [
    ("robots = 4\n", "", "game.robots", "key is missing"),
    ("trophies_to_end = 10", "trophies_to_end = \"ten\"", "game.trophies_to_end", "'ten' is not an integer"),
    ("players_max = 4", "players_max = 5", "game.players_max", "5 is outside 2..4"),
    ("directions = 6", "directions = 4", "game.directions", "a hex has 6 directions"),
    ('robot_board_start_side = "A"', 'robot_board_start_side = "C"', "game.robot_board_start_side", "allowed: A, B"),
    ("boosted_side_max_modules_incl_central = 5", "boosted_side_max_modules_incl_central = 4",
     "game.boosted_side_max_modules_incl_central", "must be one below"),
    ("2 = [3, 2, 2, 1, 2, 2]", "2 = [3, 2, 2, 1, 2]", "setup_gen2.2", "must be 6 counts"),
    ("2 = [3, 2, 2, 1, 2, 2]", "7 = [3, 2, 2, 1, 2, 2]", "setup_gen2.7", "not a player count 2..4"),
    ("terrain_face_up = true", "terrain_face_up = 1", "field.terrain_face_up", "1 is not true or false"),
]


@pytest.mark.parametrize(("old", "new", "column", "what"), CONFIG_CASES)
def test_config_errors(tmp_path, old, new, column, what):
    folder = _copy(tmp_path)
    _replace(folder, "config.toml", old, new)
    _assert_at(_error(folder), folder, "config.toml", None, column, what)


def test_config_not_toml(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "config.toml", "[game]", "[game")
    assert str(_error(folder)).startswith(f"{folder / 'config.toml'}: not valid TOML")


def test_options_layout_for_the_wrong_player_count(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "options.toml", 'default = "2p"\nallowed = ["2p"]', 'default = "3p"\nallowed = ["3p"]')
    _assert_at(_error(folder), folder, "options.toml", None, "options.layout_2p", "layout 3p is for 3 players, not 2")


def test_options_layout_unknown(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "options.toml", 'default = "4p"\nallowed = ["4p"]', 'default = "4p"\nallowed = ["4p", "big"]')
    _assert_at(_error(folder), folder, "options.toml", None, "options.layout_4p", "'big' is not a layout_id")


def test_options_layout_missing(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "options.toml", "[options.layout_3p]", "[options.layout_three]")
    _assert_at(_error(folder), folder, "options.toml", None, "options.layout_3p", "option is missing")


def test_load_data_rejects_unknown_files():
    with pytest.raises(TypeError, match="unknown data files cards"):
        load_data(cards="x.csv")
