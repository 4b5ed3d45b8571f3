"""Planning arrangements (simlab/games/smartphone/arrangements.py; NOTES S11-S12, S17, O1, O2, 1.20)."""

from __future__ import annotations

import collections
import csv
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.games.smartphone.arrangements import (
    BOTH,
    EMPTY,
    LOWER,
    UPPER,
    arrangement_table,
    arrangements,
    describe,
    locate,
)
from simlab.games.smartphone.data import DATA_DIR, NO_SYMBOL, SYMBOL_INDEX, SYMBOLS, load_data

EXAMPLES = tomllib.loads((Path(__file__).parent / "examples.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def data():
    return load_data()


@pytest.fixture(scope="module")
def aset(data):
    return arrangements(data)


# ---------------------------------------------------------------- independent brute force


def _board_key(sym: np.ndarray, lay: np.ndarray) -> tuple:
    """Crop to the occupied box, then take the smallest of the four np.rot90 turns (shape + bytes)."""
    rows, cols = np.nonzero(lay)
    sym = sym[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    lay = lay[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    return min((np.rot90(sym, k).shape, np.rot90(sym, k).tobytes(), np.rot90(lay, k).tobytes()) for k in range(4))


def brute_force(grid: np.ndarray, board: int = 12):
    """Lay the lower tablet in the middle of a big board in each orientation and the other tablet at every board
    position in each orientation; keep overlaps of 1-4 cells. Returns (placements by lower turns and hidden cells,
    {canonical picture: (visible counts, hidden)})."""
    by_hidden: collections.Counter = collections.Counter()
    pictures: dict[tuple, tuple[tuple[int, ...], int]] = {}
    for tl in range(grid.shape[0]):
        for sl in range(grid.shape[1]):
            for ql in range(4):
                low = np.rot90(grid[tl, sl], -ql)
                for tu in range(grid.shape[0]):
                    if tu == tl:
                        continue
                    for su in range(grid.shape[1]):
                        for qu in range(4):
                            up = np.rot90(grid[tu, su], -qu)  # np.rot90 with k=-1 turns clockwise
                            for y in range(board - up.shape[0] + 1):
                                for x in range(board - up.shape[1] + 1):
                                    sym = np.full((board, board), NO_SYMBOL, dtype=np.int8)
                                    lay = np.zeros((board, board), dtype=np.int8)
                                    sym[4:4 + low.shape[0], 4:4 + low.shape[1]] = low
                                    lay[4:4 + low.shape[0], 4:4 + low.shape[1]] = LOWER
                                    window = lay[y:y + up.shape[0], x:x + up.shape[1]]
                                    hidden = int((window == LOWER).sum())
                                    if not 1 <= hidden <= 4:
                                        continue
                                    lay[y:y + up.shape[0], x:x + up.shape[1]] = np.where(window == LOWER, BOTH, UPPER)
                                    sym[y:y + up.shape[0], x:x + up.shape[1]] = up
                                    by_hidden[(ql, hidden)] += 1
                                    counts = tuple(int(n) for n in np.bincount(sym[sym >= 0], minlength=len(SYMBOLS)))
                                    pictures[_board_key(sym, lay)] = (counts, hidden)
    return by_hidden, pictures


def _stored_key(a) -> tuple:
    return _board_key(np.array(a.grid, dtype=np.int8), np.array(a.layers, dtype=np.int8))


@pytest.fixture(scope="module")
def brute(data):
    return brute_force(data.tablet_grid)


def test_counts_match_notes(aset):
    """NOTES 1.20: 480 placements with the lower tablet's orientation fixed, by hidden cells 128/224/32/96;
    1920 over the lower tablet's four turns; with the bundled tablets no two are identical in effect."""
    assert aset.raw_placements == 1920
    assert aset.physical == 480
    assert len(aset.arrangements) == 480
    assert collections.Counter(a.hidden for a in aset.arrangements) == {1: 128, 2: 224, 3: 32, 4: 96}
    assert sum(a.n_placements for a in aset.arrangements) == 1920
    assert all(a.n_placements == 4 for a in aset.arrangements)


def test_agrees_with_brute_force(aset, brute):
    """The enumeration equals an independent brute force: same placement counts, same set of canonical pictures
    (footprint, layers and symbols), same visible counts and hidden cells per picture."""
    by_hidden, pictures = brute
    assert sum(by_hidden.values()) == aset.raw_placements
    assert {h: n for (q, h), n in by_hidden.items() if q == 0} == {1: 128, 2: 224, 3: 32, 4: 96}
    assert len(pictures) == len(aset.arrangements)
    mine = {_stored_key(a): (a.counts, a.hidden) for a in aset.arrangements}
    assert mine == pictures


def test_blank_tablets_merge_by_footprint(tmp_path):
    """With all-blank tablets only footprints and layers differ, so identical-in-effect placements merge;
    the brute force agrees on the number of distinct pictures. Blank tablets look the same turned by 180 degrees,
    so even the physical count drops: 480 / 2 (lower turned) / 2 (upper turned) = 120."""
    src = DATA_DIR / "tablets.csv"
    with src.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        fields, rows = list(reader.fieldnames or []), list(reader)
    for r in rows:
        r["symbol"] = "blank"
    path = tmp_path / "tablets.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    blank = load_data(tablets=path)
    aset = arrangements(blank)
    _, pictures = brute_force(blank.tablet_grid)
    assert aset.physical == 120
    assert len(aset.arrangements) == len(pictures) < 120
    assert sum(a.n_placements for a in aset.arrangements) == 1920
    assert len({a.footprint for a in aset.arrangements}) <= len(aset.arrangements)


# ---------------------------------------------------------------- invariants


def test_every_arrangement_accounts_for_twelve_cells(aset):
    """S11, O2: 1-4 hidden cells; visible + hidden = 12; grid and layers agree with counts and hidden;
    never the same tablet type on both layers; the upper tablet is never wholly over the lower one."""
    for a in aset.arrangements:
        g, lay = np.array(a.grid), np.array(a.layers)
        assert 1 <= a.hidden <= 4
        assert a.visible_cells + a.hidden == 12
        assert int((lay == BOTH).sum()) == a.hidden
        assert int((lay != EMPTY).sum()) == a.visible_cells
        assert int((lay == LOWER).sum()) == 6 - a.hidden
        assert int((lay == UPPER).sum()) + a.hidden == 6
        assert ((g == NO_SYMBOL) == (lay == EMPTY)).all()
        assert tuple(np.bincount(g[g >= 0], minlength=len(SYMBOLS))) == a.counts
        assert a.lower.tablet != a.upper.tablet
        assert a.lower.rotation == 0


def test_keys_and_indices_are_unique(aset):
    """Each arrangement has its own canonical picture and index."""
    assert len({a.key for a in aset.arrangements}) == len(aset.arrangements)
    assert [a.index for a in aset.arrangements] == list(range(len(aset.arrangements)))
    assert all(aset.index_of[a.key] == a.index for a in aset.arrangements)


def test_equal_counts_different_footprints_are_kept(aset):
    """Arrangements with equal symbol counts and hidden cells but different pictures stay apart."""
    by_effect = collections.Counter((a.counts, a.hidden) for a in aset.arrangements)
    assert len(by_effect) < len(aset.arrangements)


def test_locate_is_rotation_and_translation_invariant(data, aset):
    """locate() finds the representative itself, and the pair turned as a whole maps to the same arrangement."""
    for a in aset.arrangements[::37]:
        lo, up = a.lower, a.upper
        dy, dx = up.row - lo.row, up.col - lo.col
        assert locate(data, (lo.tablet, lo.side), (up.tablet, up.side), 90 * up.rotation, dy, dx) == a.index
    with pytest.raises(ValueError):
        locate(data, ("A", 1), ("B", 1), 0, 5, 5)  # no overlap
    with pytest.raises(ValueError):
        locate(data, ("A", 1), ("B", 1), 0, 0, 0)  # covers the whole lower tablet
    with pytest.raises(ValueError):
        locate(data, ("A", 1), ("A", 2), 0, 1, 0)  # one tablet of each type


# ---------------------------------------------------------------- rulebook examples


def _arrangement(data, aset, ex):
    b, t = ex["bottom"], ex["top"]
    return aset.arrangements[locate(data, (b["tablet"], b["side"]), (t["tablet"], t["side"]), t["rotation"], t["dy"],
                                    t["dx"])]


def test_price_example(data, aset):
    """Phase 2 example: two active -$ and no +$ give price 3."""
    ex = EXAMPLES["price_example"]
    a = _arrangement(data, aset, ex)
    assert a.hidden == ex["expected_hidden"]
    assert 5 - a.count("price_down") + a.count("price_up") == ex["expected_price"]


def test_production_example(data, aset):
    """Phase 3 example: 4 hidden cells and 3 active goods produce 7; 5 active symbols in all."""
    ex = EXAMPLES["production_example"]
    a = _arrangement(data, aset, ex)
    assert a.hidden == ex["expected_hidden"]
    assert a.count("goods") == ex["expected_active_goods_symbols"]
    assert a.visible_cells - a.count("blank") == ex["expected_active_symbols"]
    assert a.hidden + a.count("goods") == ex["expected_production"]


def test_research_example(data, aset):
    """Phase 5 example: 3 active gears."""
    ex = EXAMPLES["research_example"]
    a = _arrangement(data, aset, ex)
    assert a.hidden == ex["expected_hidden"]
    assert a.count("research") == ex["expected_research"]


def test_describe_price_example(data, aset):
    """describe() draws lower cells in parentheses, upper cells in capitals, hidden-cell positions in brackets."""
    a = _arrangement(data, aset, EXAMPLES["price_example"])
    assert describe(a) == "\n".join([
        "lower A2, upper B1; 3 hidden cells",
        "visible: goods 2, price_down 2, upgrade 1, research 2, logistics 1",
        "(up)(rs)(-$)",
        "[GD][-$][LG]",
        " ..  RS  GD",
    ])
    turned = next(x for x in aset.arrangements if x.upper.rotation == 1)
    assert "turned 90°" in describe(turned)


# ---------------------------------------------------------------- kernel arrays


def test_arrangement_table(data, aset):
    """arrangement_table(): one row per arrangement, consistent with the records; 4x5 frame."""
    t = arrangement_table(data)
    n = len(aset.arrangements)
    assert t.placement.shape == (n, 10)
    assert t.grid.shape == t.layers.shape == (n, 4, 5)
    assert t.counts.shape == (n, len(SYMBOLS))
    assert t.hidden.tolist() == [a.hidden for a in aset.arrangements]
    assert (t.counts.sum(axis=1) + t.hidden == 12).all()
    assert ((t.layers == BOTH).sum(axis=(1, 2)) == t.hidden).all()
    goods = SYMBOL_INDEX["goods"]
    assert ((t.grid == goods).sum(axis=(1, 2)) == t.counts[:, goods]).all()
    a = aset.arrangements[7]
    h, w = len(a.grid), len(a.grid[0])
    assert t.grid[7, :h, :w].tolist() == [list(r) for r in a.grid]
    assert (t.grid[7, h:, :] == NO_SYMBOL).all() and (t.grid[7, :, w:] == NO_SYMBOL).all()
    assert t.mirror_of.shape == (n,)


def test_enumeration_is_cached(data):
    """The enumeration runs once per tablet data set."""
    assert arrangements(data) is arrangements(load_data())
