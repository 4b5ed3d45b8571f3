"""Upgrade placement (simlab/games/smartphone/upgrades.py; NOTES S17, S23-S28, O2, 4G face)."""

from __future__ import annotations

import contextlib
import itertools

import numpy as np
import pytest

from simlab.games.smartphone.arrangements import BOTH, EMPTY, LOWER, UPPER, arrangements
from simlab.games.smartphone.data import NO_SYMBOL, SYMBOL_INDEX, SYMBOLS, load_data
from simlab.games.smartphone.upgrades import (
    PA_COLS,
    TOP,
    UNDER,
    Step,
    apply_stack,
    best_effects,
    effects,
    placement_array,
    placements_for,
    slot_table,
)

GD, RS, LG = SYMBOL_INDEX["goods"], SYMBOL_INDEX["research"], SYMBOL_INDEX["logistics"]


@pytest.fixture(scope="module")
def data():
    return load_data()


@pytest.fixture(scope="module")
def arrs(data):
    return arrangements(data).arrangements


@pytest.fixture(scope="module")
def picked(arrs):
    """The first arrangement with 1, 2, 3 and 4 hidden cells, plus one with the upper tablet turned."""
    out = [next(a for a in arrs if a.hidden == h) for h in (1, 2, 3, 4)]
    out.append(next(a for a in arrs if a.upper.rotation % 2 == 1))
    return out


def _layer(a, r, c):
    """Layer code of frame position (r, c); EMPTY outside the frame (no negative-index wrap-around)."""
    return a.layers[r][c] if 0 <= r < len(a.layers) and 0 <= c < len(a.layers[0]) else EMPTY


# ---------------------------------------------------------------- independent brute force (single placements)

def brute_single(a, tile, overhang):
    """Walk every cell of the frame grown by one, every one of the 4 directions, both symbol orders and both
    heights ('top' / 'under'); keep what the rules allow; identify physical duplicates by the set of
    (cell, symbol) pairs and the height. Returns {identity: counts after placing}."""
    grid = np.array(a.grid)
    lay = np.array(a.layers)
    h, w = grid.shape

    def layer(r, c):
        return int(lay[r, c]) if 0 <= r < h and 0 <= c < w else EMPTY

    out = {}
    for r in range(-1, h + 1):
        for c in range(-1, w + 1):
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                cells = ((r, c), (r + dr, c + dc))
                layers = [layer(*cell) for cell in cells]
                outside = layers.count(EMPTY)
                if outside == 2 or outside > int(overhang):
                    continue
                for syms in (tile, tile[::-1]):
                    for height in ("top", "under"):
                        if height == "under":
                            on = [x for x in layers if x != EMPTY]
                            if any(x == UPPER for x in on) or BOTH not in on:
                                continue
                        vis = {}
                        for rr in range(h):
                            for cc in range(w):
                                if lay[rr, cc] != EMPTY:
                                    vis[(rr, cc)] = int(grid[rr, cc])
                        for cell, x, s in zip(cells, layers, syms, strict=True):
                            if height == "top" or x in (LOWER, EMPTY):
                                vis[cell] = s
                        counts = tuple(sum(1 for v in vis.values() if v == k) for k in range(len(SYMBOLS)))
                        ident = (frozenset(zip(cells, syms, strict=True)), height)
                        out[ident] = counts
    return out


def mine_single(a, tile, overhang):
    out = {}
    for p in placements_for(a, tile, overhang):
        ident = (frozenset(zip(p.cells, p.symbols, strict=True)), "top" if p.level == TOP else "under")
        assert ident not in out
        out[ident] = tuple(x + d for x, d in zip(a.counts, p.delta, strict=True))
    return out


@pytest.mark.parametrize("overhang", [False, True])
@pytest.mark.parametrize("tile", [(GD, RS), (LG, LG)])
def test_single_placements_match_brute_force(picked, tile, overhang):
    for a in picked:
        mine = mine_single(a, tile, overhang)
        assert mine == brute_single(a, tile, overhang)
        assert len(mine) == len(placements_for(a, tile, overhang))


def test_single_placement_counts_all_arrangements(arrs):
    """Without 4G a two-symbol tile has 32-34 placements per arrangement, a double-symbol tile half of that."""
    n = [len(placements_for(a, (GD, RS))) for a in arrs]
    assert (min(n), max(n)) == (32, 34)
    assert [len(placements_for(a, (GD, GD))) for a in arrs] == [x // 2 for x in n]


# ---------------------------------------------------------------- rules

def test_s25_fully_covered_upgrade_rejected(picked):
    a = picked[3]
    top = next(p for p in placements_for(a, (GD, RS)) if p.level == TOP and not p.flex)
    first = Step(0, top.cells, top.symbols, TOP)
    second = Step(1, top.cells, (LG, LG), TOP)
    with pytest.raises(ValueError, match="S25"):
        apply_stack(a, [first, second])
    # half overlap is fine, and the later upgrade shows on the shared position
    (r0, c0), (r1, c1) = top.cells
    shifted = next(p for p in placements_for(a, (LG, LG)) if p.level == TOP and p.cells[0] == (r1, c1)
                   and p.cells[1] != (r0, c0))
    counts, covered = apply_stack(a, [first, Step(1, shifted.cells, (LG, LG), TOP)])
    assert sum(counts) == sum(a.counts) and covered == 3
    # no effect of two upgrades is reached through a full cover
    res = effects(a, [(GD, RS), (LG, LG)])
    for steps in res.witness:
        assert len({frozenset(s.cells) for s in steps}) == len(steps)
        apply_stack(a, steps)


def test_s26_under_upper_tablet(picked):
    """Wholly under the upper tablet: legal, contributes nothing, counts as placed (-1 goods from S27)."""
    a = picked[3]  # 4 hidden cells: a 2x2 block of lower cells under the upper tablet
    res = placements_for(a, (GD, RS))
    wholly = [p for p in res if p.level == UNDER and all(a.layers[r][c] == BOTH for r, c in p.cells)]
    assert wholly
    for p in wholly:
        assert p.delta == (0,) * len(SYMBOLS) and p.covered == 0 and not p.contributes
    partly = [p for p in res if p.level == UNDER and not all(a.layers[r][c] == BOTH for r, c in p.cells)]
    assert partly
    for p in partly:
        (r, c), = [cell for cell in p.cells if a.layers[cell[0]][cell[1]] == LOWER]
        s = p.symbols[p.cells.index((r, c))]
        expect = [0] * len(SYMBOLS)
        expect[a.grid[r][c]] -= 1
        expect[s] += 1
        assert list(p.delta) == expect and p.covered == 1
    e = effects(a, [(GD, RS)])
    rows = {(tuple(c), int(p), int(n)) for c, p, n in zip(e.counts, e.production, e.n_placed, strict=True)}
    assert (a.counts, a.hidden + 1, 0) in rows
    assert (a.counts, a.hidden, 1) in rows  # the pointless wholly-under placement


def test_overhang_flag(picked, arrs):
    for a in picked:
        plain = placements_for(a, (GD, RS))
        over = placements_for(a, (GD, RS), allow_overhang=True)
        assert not any(p.overhang for p in plain)
        assert {p.positions + p.symbols + (p.level,) for p in plain} <= {p.positions + p.symbols + (p.level,)
                                                                         for p in over}
        for p in over:
            outside = [(r, c) for r, c in p.cells if _layer(a, r, c) == EMPTY]
            assert len(outside) == int(p.overhang)
            if p.overhang:
                assert sum(p.delta) == 1  # the outside half adds a visible position
    # one half of ONE upgrade per round
    a = picked[0]
    e = effects(a, [(GD, RS), (LG, LG)], allow_overhang=True)
    assert not e.truncated
    for steps in e.witness:
        apply_stack(a, steps, allow_overhang=True)
    o1, o2 = [p for p in placements_for(a, (GD, GD), True) if p.overhang][:2]
    with pytest.raises(ValueError, match="4G"):
        apply_stack(a, [Step(0, o1.cells, o1.symbols, o1.level), Step(1, o2.cells, o2.symbols, o2.level)], True)
    with pytest.raises(ValueError, match="illegal slot"):
        apply_stack(a, [Step(0, o1.cells, o1.symbols, o1.level)])


def test_symbol_accounting(picked):
    """Every position shows one symbol: the counts always sum to (12 - hidden) + overhanging halves; covered
    cells are the tablet positions an upgrade made inactive; hidden cells never change (O2)."""
    for a in picked:
        for p in placements_for(a, (GD, RS), allow_overhang=True):
            assert sum(p.delta) == int(p.overhang)
            visible_halves = sum(1 for r, c in p.cells if p.level == TOP or _layer(a, r, c) != BOTH)
            assert p.covered == visible_halves - int(p.overhang)
        e = effects(a, [(GD, RS), (LG, RS)], allow_overhang=True)
        for counts, steps in zip(e.counts, e.witness, strict=True):
            assert counts.sum() in (12 - a.hidden, 12 - a.hidden + 1)
            c2, covered = apply_stack(a, steps, allow_overhang=True)
            assert c2 == tuple(int(x) for x in counts)
            assert 0 <= covered <= 2 * len(steps)


def test_no_upgrade_gives_arrangement_counts(data, arrs):
    for a in arrs[:40]:
        for tiles in ([], [(GD, RS)], [(GD, RS), (LG, LG), (RS, RS)]):
            e = effects(a, tiles, max_placed=0)
            assert len(e.counts) == 1 and tuple(e.counts[0]) == a.counts
            assert e.production[0] == a.hidden + len(tiles) and e.n_placed[0] == 0
    e = best_effects(data, 0, ["SU-BLUE", "U01"])
    assert tuple(e.counts[0]) == arrs[0].counts and e.production[0] == arrs[0].hidden + 2


def test_two_upgrade_effects_match_pairwise_brute_force(picked):
    """The effect set of two tiles equals replaying every ordered pair of single placements (and FLEX slots at
    both heights) that apply_stack accepts, plus the 0- and 1-upgrade effects."""
    tiles = [(GD, RS), (LG, GD)]
    for a in picked[:3]:
        singles = []
        for t, tile in enumerate(tiles):
            for p in placements_for(a, tile):
                singles.append(Step(t, p.cells, p.symbols, p.level))
                if p.flex:
                    singles.append(Step(t, p.cells, p.symbols, UNDER))
        expect = {(a.counts, a.hidden + 2)}
        for s in singles:
            expect.add((apply_stack(a, [s])[0], a.hidden + 1))
        for s1, s2 in itertools.permutations(singles, 2):
            if s1.tile == s2.tile:
                continue
            with contextlib.suppress(ValueError):  # S25 / illegal pair
                expect.add((apply_stack(a, [s1, s2])[0], a.hidden))
        e = effects(a, tiles)
        got = {(tuple(int(x) for x in c), int(p)) for c, p in zip(e.counts, e.production, strict=True)}
        assert got == expect
        assert len(got) == len(e.counts)


def test_drop_dominated_and_cap(picked):
    a = picked[1]
    tiles = [(GD, RS), (LG, GD)]
    full = effects(a, tiles)
    pruned = effects(a, tiles, drop_dominated=True)
    assert len(pruned.counts) < len(full.counts)
    assert {tuple(c) for c in pruned.counts} == {tuple(c) for c in full.counts}
    capped = effects(a, tiles, max_states=10)
    assert capped.truncated and capped.states == 10 and len(capped.counts) <= len(full.counts)


def test_arrays(data, arrs):
    t = slot_table(data)
    n = t.grid.shape[0]
    assert n == len(arrs) and t.layers.shape == t.grid.shape
    assert (t.grid[:, 0, :] == NO_SYMBOL).all() and (t.layers[:, :, -1] == EMPTY).all()
    a = arrs[5]
    pa = placement_array(a, (GD, RS))
    assert pa.shape == (len(placements_for(a, (GD, RS))), PA_COLS)
    assert 2 * t.n_slots[5] == len(pa)
    assert (t.slots[5, t.n_slots[5]:] == -1).all()
    t_over = slot_table(data, allow_overhang=True)
    assert (t_over.n_slots > t.n_slots).all()
