"""Smartphone Inc. data files (simlab/games/smartphone/data.py; research NOTES.md sections 0, 3 and 4)."""

from __future__ import annotations

import collections
import csv
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from simlab.core.errors import DataError
from simlab.games.smartphone.data import (
    BUY_KIND,
    DATA_DIR,
    FILE_NAMES,
    REG_N_BUYERS,
    REG_N_PLACES,
    SYMBOL_INDEX,
    SYMBOLS,
    TECHNOLOGIES,
    load_data,
)

RESEARCH = Path(__file__).resolve().parents[4] / "shared" / "research" / "smartphone-inc"


@pytest.fixture(scope="module")
def data():
    return load_data()


# ---------------------------------------------------------------- the bundled data


def test_bundled_files_are_unchanged_copies():
    """The data/ files are the research files, byte for byte; options.toml only appends the simulator's
    own options (colour_assignment, technology_side_list) after the research ones."""
    if not RESEARCH.exists():
        pytest.skip("research folder not available")
    for name in FILE_NAMES.values():
        ours, theirs = (DATA_DIR / name).read_bytes(), (RESEARCH / name).read_bytes()
        if name == "options.toml":
            assert ours.startswith(theirs), name
        else:
            assert ours == theirs, name


def test_bundled_tablets(data):
    """NOTES 4.1: two types x two sides x 2x3 cells; over the 24 cells 5 goods, 5 research, 5 logistics,
    2 -$, 2 +$, 2 upgrade, 3 blank; the grid array matches tablets.csv."""
    assert data.tablet_grid.shape == (2, 2, 2, 3)
    counts = collections.Counter(SYMBOLS[v] for v in data.tablet_grid.ravel())
    assert counts == {"goods": 5, "research": 5, "logistics": 5, "price_down": 2, "price_up": 2, "upgrade": 2,
                      "blank": 3}
    assert data.tablets[("A", 2)] == (("upgrade", "research", "price_down"), ("research", "price_up", "logistics"))
    assert data.tablet_grid[1, 0].tolist() == [[SYMBOL_INDEX[s] for s in row] for row in data.tablets[("B", 1)]]


def test_bundled_map(data):
    """NOTES 4.2-4.3: 12 regions (4 small, 6 medium, 2 large); office places 3/4/5, buyers 4/5/7 by size,
    60 buyers of which 27 purple; entry cost = size number; Europe's red caps 4, 5, 6, 7."""
    assert len(data.regions) == 12
    assert collections.Counter(r.size for r in data.regions) == {"small": 4, "medium": 6, "large": 2}
    for r in data.regions:
        assert len(r.entry_costs) == {"small": 3, "medium": 4, "large": 5}[r.size]
        assert len(r.buyers) == {"small": 4, "medium": 5, "large": 7}[r.size]
        assert set(r.entry_costs) == {r.size_number}
    assert data.office_place_array.shape == (46, 4)
    assert data.buyer_array.shape == (60, 5)
    assert int((data.buyer_array[:, BUY_KIND] == 1).sum()) == 27
    assert [cap for kind, cap, _ in data.region("EUROPE").buyers if kind == "red"] == [4, 5, 6, 7]
    assert data.region_array[:, REG_N_PLACES].sum() == 46
    assert data.region_array[:, REG_N_BUYERS].sum() == 60
    assert data.region("USA").control_vp == (2, 4, 5, 6)
    assert data.adjacency_array.sum() == 2 * 18


def test_bundled_players_upgrades_technologies_retailers(data):
    """NOTES 4.4-4.7 and components: 5 colours with start regions and upgrades; 5 starting + 22 regular upgrades;
    6 technologies with face and back; 7 retailers with two sides; placement rules for 2-5 players."""
    assert data.start_positions["blue"] == ("USA", "SU-BLUE")
    assert {reg for reg, _ in data.start_positions.values()} == {"USA", "LATAM", "INDIA", "RUSSIA", "SEASIA"}
    assert collections.Counter(u.kind for u in data.upgrades) == {"starting": 5, "regular": 22}
    assert data.upgrade_array.shape == (27, 4)
    assert [t.id for t in data.technologies] == list(TECHNOLOGIES)
    tech = {t.id: t for t in data.technologies}
    assert (tech["4G"].patent_cost, tech["4G"].patent_vp) == (6, 6)
    assert tech["GPS"].face == "GPS_DOUBLE_GOODS_SYMBOL"
    assert data.tech_effect_array.tolist() == [[2 * i, 2 * i + 1] for i in range(6)]
    assert len(data.retailers) == 7
    assert collections.Counter(a.size for a, _ in data.retailers) == {"small": 2, "medium": 4, "large": 1}
    assert data.retailer_vp_array.shape == (7, 2, 4)
    assert sorted(data.retailer_placement) == [2, 3, 4, 5]
    assert data.retailer_placement[5] == [("none", None)]


def test_bundled_options(data):
    """options.toml: 26 research options (O1-O27 less O3, which is not an option) plus the simulator's
    colour_assignment and technology_side_list; price_track has no allowed list."""
    assert len(data.options) == 28
    assert data.options["price_track"].default == [1, 10]
    assert data.options["control_tie"].default == "nobody"
    assert data.options["nfc_direct_sale"].allowed == ([1, 3], [0, 3])


def test_start_array_references(data):
    """start_array rows (colour order) point at the start region and the colour's starting upgrade."""
    for i, colour in enumerate(data.colours):
        reg, upg = data.start_array[i]
        assert data.regions[reg].start_colour == colour
        assert data.upgrades[upg].colour == colour


# ---------------------------------------------------------------- broken files


def _copy(tmp_path: Path) -> Path:
    out = tmp_path / "data"
    shutil.copytree(DATA_DIR, out)
    return out


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def _write(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def _set(match: dict[str, str], column: str, value: str) -> Callable[[list[dict[str, str]]], int]:
    """Mutation: set ``column`` on the first row matching ``match``; returns the row's index."""
    def mutate(rows):
        i = next(k for k, r in enumerate(rows) if all(r[c] == v for c, v in match.items()))
        rows[i][column] = value
        return i
    return mutate


BROKEN = {
    "unknown symbol": ("tablets", _set({"tablet": "A", "side": "1", "row": "0", "col": "2"}, "symbol", "wifi"),
                       "symbol"),
    "unknown tablet type": ("tablets", _set({"tablet": "B", "side": "2", "row": "1", "col": "0"}, "tablet", "C"),
                            "tablet"),
    "row out of range": ("tablets", _set({"tablet": "A", "side": "2", "row": "1", "col": "1"}, "row", "2"), "row"),
    "unknown side": ("tablets", _set({"tablet": "A", "side": "2", "row": "1", "col": "1"}, "side", "3"), "side"),
    "duplicate cell": ("tablets", _set({"tablet": "A", "side": "1", "row": "1", "col": "2"}, "col", "1"), "col"),
    "unknown size": ("regions", _set({"region_id": "CHINA"}, "size", "huge"), "size"),
    "size number mismatch": ("regions", _set({"region_id": "RSA"}, "size_number", "3"), "size_number"),
    "unknown colour": ("regions", _set({"region_id": "USA"}, "start_colour", "purple"), "start_colour"),
    "duplicate region": ("regions", _set({"region_id": "RSA"}, "region_id", "CANADA"), "region_id"),
    "office place in unknown region": ("office_places", _set({"region_id": "RSA", "place": "1"}, "region_id",
                                                             "ATLANTIS"), "region_id"),
    "office place gap": ("office_places", _set({"region_id": "USA", "place": "3"}, "place", "5"), "place"),
    "non-integer entry cost": ("office_places", _set({"region_id": "USA", "place": "1"}, "entry_cost", "x"),
                               "entry_cost"),
    "buyer in unknown region": ("buyers", _set({"region_id": "INDIA", "position": "2"}, "region_id", "ATLANTIS"),
                                "region_id"),
    "unknown technology on a buyer": ("buyers", _set({"region_id": "USA", "position": "4"}, "technology", "5G"),
                                      "technology"),
    "red buyer with a technology": ("buyers", _set({"region_id": "USA", "position": "0"}, "technology", "GPS"),
                                    "technology"),
    "purple buyer with a cap": ("buyers", _set({"region_id": "USA", "position": "3"}, "price_cap", "4"), "price_cap"),
    "unknown buyer kind": ("buyers", _set({"region_id": "CHINA", "position": "1"}, "kind", "blue"), "kind"),
    "duplicate buyer position": ("buyers", _set({"region_id": "CHINA", "position": "1"}, "position", "0"),
                                 "position"),
    "start in unknown region": ("start_positions", _set({"colour": "green"}, "start_region", "ATLANTIS"),
                                "start_region"),
    "start in another colour's region": ("start_positions", _set({"colour": "green"}, "start_region", "USA"),
                                         "start_region"),
    "unknown starting upgrade": ("start_positions", _set({"colour": "red"}, "starting_upgrade", "U99"),
                                 "starting_upgrade"),
    "another colour's starting upgrade": ("start_positions", _set({"colour": "red"}, "starting_upgrade", "SU-BLUE"),
                                          "starting_upgrade"),
    "regular upgrade as starting": ("start_positions", _set({"colour": "white"}, "starting_upgrade", "U01"),
                                    "starting_upgrade"),
    "upgrade with one symbol": ("upgrades", _set({"upgrade_id": "U07"}, "half_2", ""), "half_2"),
    "upgrade with unknown symbol": ("upgrades", _set({"upgrade_id": "U12"}, "half_1", "laser"), "half_1"),
    "upgrade with a blank half": ("upgrades", _set({"upgrade_id": "U12"}, "half_1", "blank"), "half_1"),
    "duplicate upgrade id": ("upgrades", _set({"upgrade_id": "U12"}, "upgrade_id", "U11"), "upgrade_id"),
    "regular upgrade with colour": ("upgrades", _set({"upgrade_id": "U03"}, "colour", "red"), "colour"),
    "unknown technology": ("technologies", _set({"tech_id": "NFC"}, "tech_id", "5G"), "tech_id"),
    "patent cost not base + 1": ("technologies", _set({"tech_id": "NFC"}, "patent_cost", "7"), "patent_cost"),
    "effect of another technology": ("technology_sides", _set({"tech_id": "LIION", "side": "back"}, "effect_code",
                                                              "GPS_GAIN_5_GOODS"), "effect_code"),
    "unknown effect": ("technology_sides", _set({"tech_id": "LIION", "side": "back"}, "effect_code", "TELEPORT"),
                       "effect_code"),
    "unknown technology side": ("technology_sides", _set({"tech_id": "4G", "side": "back"}, "side", "edge"), "side"),
    "place VP count": ("retailers", _set({"retailer_id": "R4", "side": "b"}, "place_vp", "4;2"), "place_vp"),
    "place VP increasing": ("retailers", _set({"retailer_id": "R4", "side": "b"}, "place_vp", "1;2;4"), "place_vp"),
    "unknown bonus": ("retailers", _set({"retailer_id": "R6", "side": "a"}, "bonus", "FREE_LUNCH"), "bonus"),
    "bonus amount missing": ("retailers", _set({"retailer_id": "R6", "side": "b"}, "bonus_amount", ""),
                             "bonus_amount"),
    "sides of two sizes": ("retailers", _set({"retailer_id": "R3", "side": "b"}, "size", "small"), "size_number"),
    "placement in unknown region": ("retailer_placement", _set({"players": "3", "region_id": "RSA"}, "region_id",
                                                               "ATLANTIS"), "region_id"),
    "placement rule unknown": ("retailer_placement", _set({"players": "5"}, "rule", "all"), "rule"),
    "adjacency unknown region": ("adjacency", _set({"region_a": "INDIA", "region_b": "CHINA"}, "region_b",
                                                   "ATLANTIS"), "region_b"),
    "adjacency to itself": ("adjacency", _set({"region_a": "INDIA", "region_b": "CHINA"}, "region_b", "INDIA"),
                            "region_b"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_row(tmp_path, case):
    """A broken row raises DataError reading '<file>:<line>: <column>: what is wrong' (header = line 1)."""
    stem, mutate, column = BROKEN[case]
    folder = _copy(tmp_path)
    path = folder / FILE_NAMES[stem]
    fields, rows = _rows(path)
    line = 2 + mutate(rows)
    _write(path, fields, rows)
    with pytest.raises(DataError) as err:
        load_data(folder)
    assert str(err.value).startswith(f"{path}:{line}: {column}: "), str(err.value)
    assert (err.value.file, err.value.row, err.value.column) == (str(path), line, column)


def test_broken_file_given_by_keyword(tmp_path):
    """load_data(tablets=...) reads that one file from elsewhere and reports errors against it."""
    path = tmp_path / "my_tablets.csv"
    fields, rows = _rows(DATA_DIR / "tablets.csv")
    _write(path, fields, rows)
    assert np.array_equal(load_data(tablets=path).tablet_grid, load_data().tablet_grid)
    rows[9]["symbol"] = "?"
    _write(path, fields, rows)
    with pytest.raises(DataError, match=rf"^{path}:11: symbol: "):
        load_data(tablets=path)
    with pytest.raises(TypeError, match="tablet"):
        load_data(tablet=path)


def test_missing_tablet_cell(tmp_path):
    """A tablet side with fewer than 2x3 cells is reported on that side's first line."""
    folder = _copy(tmp_path)
    path = folder / "tablets.csv"
    fields, rows = _rows(path)
    del rows[10]  # A side 2, cell (1, 1); A side 2 starts on line 8
    _write(path, fields, rows)
    with pytest.raises(DataError) as err:
        load_data(folder)
    assert str(err.value).startswith(f"{path}:8: side: tablet A side 2 has 5 cells"), str(err.value)
    assert "missing (1, 1)" in str(err.value)


@pytest.mark.parametrize(("stem", "column"), [
    ("tablets", "symbol"), ("regions", "size"), ("office_places", "entry_cost"), ("buyers", "technology"),
    ("start_positions", "starting_upgrade"), ("upgrades", "half_2"), ("technologies", "patent_vp"),
    ("technology_sides", "effect_code"), ("retailers", "place_vp"), ("retailer_placement", "rule"),
    ("adjacency", "region_a"),
])
def test_missing_column(tmp_path, stem, column):
    """A required column missing from the header is reported on line 1."""
    folder = _copy(tmp_path)
    path = folder / FILE_NAMES[stem]
    fields, rows = _rows(path)
    _write(path, [f for f in fields if f != column], rows)
    with pytest.raises(DataError) as err:
        load_data(folder)
    assert str(err.value) == f"{path}:1: {column}: required column is missing from the header"


def test_unknown_column(tmp_path):
    """An unexpected column (a typo of a real one, say) is reported on line 1."""
    folder = _copy(tmp_path)
    path = folder / "buyers.csv"
    fields, rows = _rows(path)
    _write(path, [*fields, "price_cpa"], rows)
    with pytest.raises(DataError, match=rf"^{path}:1: price_cpa: unknown column$"):
        load_data(folder)


@pytest.mark.parametrize(("stem", "drop", "column", "what"), [
    ("upgrades", {"upgrade_id": "U22"}, "kind", "21 regular upgrades; constants.toml says 22"),
    ("start_positions", {"colour": "white"}, "colour", "no start position for white"),
    ("technologies", {"tech_id": "4G"}, "tech_id", "missing technologies 4G"),
    ("technology_sides", {"tech_id": "WIFI", "side": "back"}, "side", "WIFI has no back row"),
    ("retailer_placement", {"players": "5"}, "players", "no rule for 5 players"),
])
def test_wrong_counts(tmp_path, stem, drop, column, what):
    """A missing row that belongs to no line is reported with the file and column only."""
    folder = _copy(tmp_path)
    path = folder / FILE_NAMES[stem]
    fields, rows = _rows(path)
    rows = [r for r in rows if not all(r[c] == v for c, v in drop.items())]
    _write(path, fields, rows)
    with pytest.raises(DataError) as err:
        load_data(folder)
    assert str(err.value) == f"{path}: {column}: {what}"


def test_region_without_buyers(tmp_path):
    """buyers.csv must give every region at least one buyer."""
    folder = _copy(tmp_path)
    path = folder / "buyers.csv"
    fields, rows = _rows(path)
    _write(path, fields, [r for r in rows if r["region_id"] != "RSA"])
    with pytest.raises(DataError, match=rf"^{path}: region_id: region RSA \(regions.csv line 8\) has no buyer$"):
        load_data(folder)


def test_constants_symbol_order(tmp_path):
    """constants.toml [symbols] must list the kernel's symbol codes in order."""
    folder = _copy(tmp_path)
    path = folder / "constants.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('blank = "empty cell"', 'empty = "empty cell"'), encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{path}: symbols: "):
        load_data(folder)


def test_constants_missing_key(tmp_path):
    """A key the simulator reads missing from constants.toml names section.key."""
    folder = _copy(tmp_path)
    path = folder / "constants.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("overlap_max = 4", ""), encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{path}: tablets.overlap_max: key is missing$"):
        load_data(folder)


def test_option_without_allowed_list(tmp_path):
    """options.toml: only a [lo, hi] range may omit 'allowed'."""
    folder = _copy(tmp_path)
    path = folder / "options.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('allowed = ["nobody", "leftmost_office", "all_tied"]\n', ""), encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{path}: options.control_tie: missing key 'allowed'$"):
        load_data(folder)
