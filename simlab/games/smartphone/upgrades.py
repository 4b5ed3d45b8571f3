"""Upgrade placement on a planning arrangement (NOTES S13, S17, S23-S28, O2, O26; 4G face).

An upgrade is a 2-cell tile with a symbol on each half. In phase 1 a player may lay any of the upgrades
they hold on their tablets; every upgrade left unused gives 1 goods in phase 3 (S27).

Rules implemented (per upgrade)
-------------------------------
* Face up, covering exactly two orthogonally adjacent grid positions (aligned to the cells), any of the
  four orientations, i.e. both symbol orders on a horizontal or vertical domino (S23).
* Never beyond the tablets, except with ``allow_overhang`` (4G face): at most ONE half of ONE upgrade per
  round may lie on a position no tablet covers. The frame is padded by one position on every side for this.
* Two *levels* (S26, S28): an upgrade lies either on top (``TOP``: above the upper tablet and above every
  ``UNDER`` upgrade), or on the lower tablet with at least one half under the upper tablet (``UNDER``).
  An ``UNDER`` upgrade has both halves on lower-tablet positions (or one overhanging half, 4G), at least one
  of them under the upper tablet; its halves under the upper tablet are invisible. Wholly under the upper
  tablet is legal, counts as placed and contributes nothing (S26, FAQ). A ``TOP`` upgrade has at least one
  half on the upper tablet. An upgrade lying only on visible lower-tablet cells (``FLEX`` slot) is reported
  once, as ``TOP``; in combinations it may sit at either level (it can be slid under a partly-under
  upgrade, or lie over it). S28 alone would put it on top; allowing both is the physical reading (open point).
* S25 ("Полностью скрывать одно улучшение под другим нельзя"): no upgrade may be completely hidden under
  ONE other upgrade, i.e. no two placed upgrades may occupy the same two positions. Being hidden by two
  upgrades together, or by an upgrade plus the upper tablet, is not forbidden by the text (such an upgrade
  contributes nothing and is dominated by leaving it unused).
* Visibility (S28): bottom to top the layers are the lower tablet, ``UNDER`` upgrades (in their own order),
  the upper tablet, ``TOP`` upgrades (in their own order). The active symbol of a position is that of the
  topmost piece there. A tablet cell under an upgrade is inactive and produces nothing (S17, S24); hidden
  cells (goods in phase 3) are only lower-tablet cells under the upper tablet (O2), whatever lies between.

Coordinates
-----------
Positions are in the arrangement's frame (``FRAME_ROWS x FRAME_COLS`` of ``arrangement_table``) padded by one
row/column on every side: padded ``(r, c)`` is frame ``(r - 1, c - 1)``. Kernels use the flat index
``r * PAD_COLS + c``. ``UpgradePlacement.cells`` are given in *unpadded* frame coordinates (an overhanging
half may have row/col -1 or equal to the frame size).

Numpy / kernel representation
-----------------------------
``slot_table(data, allow_overhang)`` lists, per arrangement, the legal *slots* (domino position pairs and
their level), independent of the tile: ``slots[i, k] = (POS_A, POS_B, LEVEL, OVERHANG, FLEX)``; a tile is
placed on a slot in either symbol order. Together with the padded grid/layers this is all a kernel needs
to replay the visibility rule (see ``_apply``). ``placement_array`` gives one arrangement's single placements
of one tile with their count deltas (columns ``PA_*``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from simlab.games.smartphone.arrangements import (
    BOTH,
    EMPTY,
    LOWER,
    UPPER,
    Arrangement,
    arrangement_table,
    arrangements,
)
from simlab.games.smartphone.data import NO_SYMBOL, SYMBOL_INDEX, SYMBOLS, SmartphoneData

NSYM = len(SYMBOLS)
TOP, UNDER = 0, 1  # upgrade levels
LEVEL_NAMES = ("top", "under")

# slot columns
S_POS_A, S_POS_B, S_LEVEL, S_OVERHANG, S_FLEX = range(5)
# placement_array columns: slot columns, then the two symbols, then NSYM count deltas, then covered cells
PA_POS_A, PA_POS_B, PA_LEVEL, PA_OVERHANG, PA_FLEX, PA_SYM_A, PA_SYM_B = range(7)
PA_DELTA = 7
PA_COVERED = PA_DELTA + NSYM
PA_COLS = PA_COVERED + 1


@dataclass(frozen=True)
class Board:
    """An arrangement's padded frame, flattened (positions ``r * cols + c``)."""

    rows: int
    cols: int
    grid: tuple[int, ...]  # topmost tablet symbol, NO_SYMBOL where no tablet
    layers: tuple[int, ...]  # EMPTY / LOWER / UPPER / BOTH
    hidden: int

    def rc(self, pos: int) -> tuple[int, int]:
        """Unpadded frame coordinates of a flat padded position."""
        return pos // self.cols - 1, pos % self.cols - 1

    def base_counts(self) -> tuple[int, ...]:
        """Visible symbol counts with no upgrade placed."""
        counts = [0] * NSYM
        for s in self.grid:
            if s != NO_SYMBOL:
                counts[s] += 1
        return tuple(counts)


def board_of(arrangement: Arrangement | tuple[np.ndarray, np.ndarray]) -> Board:
    """Padded board of an ``Arrangement`` or of a ``(grid, layers)`` pair of frame arrays."""
    if isinstance(arrangement, Arrangement):
        grid = np.array(arrangement.grid, dtype=np.int8)
        layers = np.array(arrangement.layers, dtype=np.int8)
    else:
        grid, layers = (np.asarray(a, dtype=np.int8) for a in arrangement)
    rows, cols = grid.shape[0] + 2, grid.shape[1] + 2
    g = np.full((rows, cols), NO_SYMBOL, dtype=np.int8)
    lay = np.full((rows, cols), EMPTY, dtype=np.int8)
    g[1:-1, 1:-1] = grid
    lay[1:-1, 1:-1] = layers
    g[lay == EMPTY] = NO_SYMBOL
    return Board(rows, cols, tuple(int(v) for v in g.ravel()), tuple(int(v) for v in lay.ravel()),
                 int((lay == BOTH).sum()))


def _slots(board: Board, allow_overhang: bool) -> list[tuple[int, int, int, int, int]]:
    """Legal (pos_a, pos_b, level, overhang, flex) slots, pos_a < pos_b, one per physical slot and level."""
    out = []
    lay = board.layers
    for r in range(board.rows):
        for c in range(board.cols):
            a = r * board.cols + c
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr >= board.rows or c + dc >= board.cols:
                    continue
                b = (r + dr) * board.cols + c + dc
                la, lb = lay[a], lay[b]
                n_empty = (la == EMPTY) + (lb == EMPTY)
                if n_empty == 2 or (n_empty == 1 and not allow_overhang):
                    continue
                over = int(n_empty == 1)
                on_upper = {la, lb} & {UPPER, BOTH}
                if not on_upper:  # only visible lower-tablet cells (and maybe one overhanging half)
                    out.append((a, b, TOP, over, 1))
                    continue
                out.append((a, b, TOP, over, 0))
                # on the lower tablet, partly or wholly under the upper one
                if BOTH in (la, lb) and UPPER not in (la, lb):
                    out.append((a, b, UNDER, over, 0))
    return out


class State(NamedTuple):
    """Stacking state: topmost UNDER-level and TOP-level upgrade symbol per position (NO_SYMBOL if none)."""

    low: tuple[int, ...]
    top: tuple[int, ...]


def _visible(board: Board, low: Sequence[int], top: Sequence[int], p: int) -> int:
    if top[p] != NO_SYMBOL:
        return top[p]
    if board.layers[p] in (UPPER, BOTH):
        return board.grid[p]
    if low[p] != NO_SYMBOL:
        return low[p]
    return board.grid[p]  # LOWER tablet symbol or NO_SYMBOL


def _apply(board: Board, state: State, counts: list[int], a: int, b: int, level: int, sa: int,
           sb: int) -> State:
    """Lay symbols ``sa``/``sb`` on positions ``a``/``b`` on top of ``level``; updates ``counts`` in place."""
    low, top = list(state.low), list(state.top)
    for p, s in ((a, sa), (b, sb)):
        before = _visible(board, low, top, p)
        if level == TOP:
            top[p] = s
        else:
            low[p] = s
        after = _visible(board, low, top, p)
        if before != after:
            if before != NO_SYMBOL:
                counts[before] -= 1
            counts[after] += 1
    return State(tuple(low), tuple(top))


def _empty_state(board: Board) -> State:
    none = (NO_SYMBOL,) * (board.rows * board.cols)
    return State(none, none)


def _covered(board: Board, state: State) -> int:
    """Tablet positions whose active symbol is an upgrade's."""
    return sum(1 for p, lay in enumerate(board.layers)
               if lay != EMPTY and (state.top[p] != NO_SYMBOL or (lay == LOWER and state.low[p] != NO_SYMBOL)))


@dataclass(frozen=True)
class UpgradePlacement:
    """One legal placement of one tile on one arrangement."""

    cells: tuple[tuple[int, int], tuple[int, int]]  # unpadded frame (row, col) of the two halves
    symbols: tuple[int, int]  # symbol code on each half
    level: int  # TOP or UNDER
    overhang: bool  # one half beyond the tablets (4G face)
    flex: bool  # lies only on visible lower-tablet cells: may go at either level in a stack
    delta: tuple[int, ...]  # change of the active symbol counts (SYMBOLS order, blank included)
    covered: int  # tablet cells made inactive by it (they produce nothing, S24)
    positions: tuple[int, int]  # flat padded positions (kernel form)

    @property
    def contributes(self) -> bool:
        """False for a placement with no visible half (wholly under the upper tablet, S26)."""
        return any(self.delta)


def _symbols(tile: Sequence[int | str]) -> tuple[int, int]:
    a, b = (SYMBOL_INDEX[s] if isinstance(s, str) else int(s) for s in tile)
    return a, b


def placements_for(arrangement: Arrangement | tuple[np.ndarray, np.ndarray], tile_symbols: Sequence[int | str],
                   allow_overhang: bool = False) -> list[UpgradePlacement]:
    """Every distinct single placement of a tile with symbols ``tile_symbols`` (codes or names) on ``arrangement``.

    Distinct = physically distinct: positions, symbol on each position and level (a tile with two equal
    symbols has one symbol order per domino). The delta is relative to the arrangement with no upgrade;
    the hidden cells never change (O2). Wholly-under placements are included (legal, ``contributes`` False).
    """
    board = board_of(arrangement)
    sa, sb = _symbols(tile_symbols)
    base = list(board.base_counts())
    out = []
    for a, b, level, over, flex in _slots(board, allow_overhang):
        orders = [(sa, sb)] if sa == sb else [(sa, sb), (sb, sa)]
        for x, y in orders:
            counts = list(base)
            st = _apply(board, _empty_state(board), counts, a, b, level, x, y)
            out.append(UpgradePlacement((board.rc(a), board.rc(b)), (x, y), level, bool(over), bool(flex),
                                        tuple(n - m for n, m in zip(counts, base, strict=True)),
                                        _covered(board, st), (a, b)))
    return out


def placement_array(arrangement: Arrangement | tuple[np.ndarray, np.ndarray], tile_symbols: Sequence[int | str],
                    allow_overhang: bool = False) -> np.ndarray:
    """``placements_for`` as int8 [n, PA_COLS] (columns ``PA_*``)."""
    rows = [(*p.positions, p.level, int(p.overhang), int(p.flex), *p.symbols, *p.delta, p.covered)
            for p in placements_for(arrangement, tile_symbols, allow_overhang)]
    return np.array(rows, dtype=np.int8).reshape(-1, PA_COLS)


class SlotTable(NamedTuple):
    """Tile-independent upgrade slots of every arrangement, for kernels (row i = arrangement i)."""

    grid: np.ndarray  # int8 [N, PAD_ROWS, PAD_COLS] topmost tablet symbol, NO_SYMBOL outside
    layers: np.ndarray  # int8 [N, PAD_ROWS, PAD_COLS] layer codes
    slots: np.ndarray  # int16 [N, MAX_SLOTS, 5] columns S_*, rows past n_slots are -1
    n_slots: np.ndarray  # int16 [N]


def slot_table(data: SmartphoneData, allow_overhang: bool = False) -> SlotTable:
    """All arrangements' padded boards and legal slots as arrays (flat positions index the padded frame)."""
    table = arrangement_table(data)
    boards = [board_of((g, lay)) for g, lay in zip(table.grid, table.layers, strict=True)]
    slots = [_slots(b, allow_overhang) for b in boards]
    n, rows, cols = len(boards), boards[0].rows, boards[0].cols
    width = max(len(s) for s in slots)
    arr = np.full((n, width, 5), -1, dtype=np.int16)
    for i, s in enumerate(slots):
        arr[i, :len(s)] = s
    return SlotTable(
        np.array([b.grid for b in boards], dtype=np.int8).reshape(n, rows, cols),
        np.array([b.layers for b in boards], dtype=np.int8).reshape(n, rows, cols),
        arr, np.array([len(s) for s in slots], dtype=np.int16))


# ------------------------------------------------------------------------------------------- combinations

@dataclass(frozen=True)
class Step:
    """One upgrade of a witness stack, bottom to top within its level."""

    tile: int  # index into the ``tiles`` given to ``effects``
    cells: tuple[tuple[int, int], tuple[int, int]]  # unpadded frame coordinates
    symbols: tuple[int, int]
    level: int


@dataclass(frozen=True)
class EffectSet:
    """Distinct effects reachable on one arrangement with some of the held upgrades.

    ``counts[e]`` are the active symbol counts (SYMBOLS order, blank included; scale goods by 2 for GPS face
    etc. later, O26), ``production[e]`` the goods that do not come from symbols: hidden cells + unused
    upgrades. ``witness[e]`` is one way to reach it (steps in placement order; within a level later steps lie
    higher). Row 0 is always "place nothing".
    """

    counts: np.ndarray  # int8 [E, NSYM]
    production: np.ndarray  # int8 [E]
    n_placed: np.ndarray  # int8 [E]
    witness: tuple[tuple[Step, ...], ...]
    states: int  # distinct search states expanded
    truncated: bool  # True if ``max_states`` stopped the search (the effect list may be incomplete)


def effects(arrangement: Arrangement | tuple[np.ndarray, np.ndarray], tiles: Sequence[Sequence[int | str]],
            allow_overhang: bool = False, max_placed: int | None = None, max_states: int = 200_000,
            drop_dominated: bool = False) -> EffectSet:
    """Distinct effects (active counts, non-symbol production) of placing any subset of ``tiles``.

    Stacking order: the search lays upgrades one at a time, choosing at each step any remaining tile, any
    slot, either symbol order and (for a ``FLEX`` slot) either level; each new upgrade lies above all earlier
    ones of its level, and every ``TOP`` upgrade lies above every ``UNDER`` one (S28). Trying every next tile
    at every step therefore covers every stacking order of every subset. S25 is checked against all earlier
    upgrades of either level (same two positions = completely hidden under one other upgrade, illegal).

    Pruning / cap (so it stays fast):
    * search states are deduplicated on (layered symbol state, remaining tiles as a multiset of symbol pairs,
      occupied dominoes, overhang used), so commuting placements and identical tiles are expanded once;
    * effects are deduplicated on (counts, production); the first witness found is kept (fewest upgrades
      first, since the search is breadth-first);
    * ``max_placed`` limits how many upgrades are laid (default: all held), ``max_states`` caps the expanded
      states (``truncated`` reports a hit; with 2 held upgrades the search needs a few thousand states);
    * ``drop_dominated`` removes an effect when another has the same counts and more production. Off by
      default: fewer produced goods can win the priority tie-break (S19 step 3), so it is not always worse.
    """
    board = board_of(arrangement)
    syms = [_symbols(t) for t in tiles]
    n_tiles = len(syms)
    limit = n_tiles if max_placed is None else min(max_placed, n_tiles)
    slots = _slots(board, allow_overhang)
    # level choices: TOP/UNDER slots as listed, FLEX slots also at the UNDER level
    choices = [(a, b, lvl, over) for a, b, lvl, over, _ in slots]
    choices += [(a, b, UNDER, over) for a, b, _, over, flex in slots if flex]

    def pair_key(i: int) -> tuple[int, int]:
        return min(syms[i]), max(syms[i])

    found: dict[tuple, tuple[int, tuple[Step, ...]]] = {}
    start = (_empty_state(board), tuple(board.base_counts()), tuple(range(n_tiles)), frozenset(), 0, ())
    frontier = [start]
    seen: set[tuple] = set()
    states = 0
    truncated = False
    while frontier:
        nxt = []
        for state, counts, remaining, used, over_used, steps in frontier:
            key = (tuple(counts), n_tiles - len(steps) + board.hidden)
            if key not in found:
                found[key] = (len(steps), steps)
            if len(steps) >= limit:
                continue
            tried: set[tuple[int, int]] = set()
            for ti in remaining:
                pk = pair_key(ti)
                if pk in tried:
                    continue  # identical tile already tried at this step
                tried.add(pk)
                rest = tuple(t for t in remaining if t != ti)
                sa, sb = syms[ti]
                orders = [(sa, sb)] if sa == sb else [(sa, sb), (sb, sa)]
                for a, b, lvl, over in choices:
                    if (a, b) in used or (over and over_used):
                        continue
                    for x, y in orders:
                        c2 = list(counts)
                        st2 = _apply(board, state, c2, a, b, lvl, x, y)
                        used2 = used | {(a, b)}
                        skey = (st2, tuple(sorted(pair_key(t) for t in rest)), used2, over_used | over)
                        if skey in seen:
                            continue
                        if states >= max_states:
                            truncated = True
                            continue
                        seen.add(skey)
                        states += 1
                        step = Step(ti, (board.rc(a), board.rc(b)), (x, y), lvl)
                        nxt.append((st2, tuple(c2), rest, used2, over_used | over, (*steps, step)))
        frontier = nxt

    keys = list(found)
    if drop_dominated:
        best: dict[tuple, int] = {}
        for c, prod in keys:
            best[c] = max(best.get(c, prod), prod)
        keys = [k for k in keys if k[1] == best[k[0]]]
    return EffectSet(
        np.array([k[0] for k in keys], dtype=np.int8).reshape(-1, NSYM),
        np.array([k[1] for k in keys], dtype=np.int8),
        np.array([found[k][0] for k in keys], dtype=np.int8),
        tuple(found[k][1] for k in keys),
        states, truncated,
    )


def apply_stack(arrangement: Arrangement | tuple[np.ndarray, np.ndarray], steps: Sequence[Step],
                allow_overhang: bool = False) -> tuple[tuple[int, ...], int]:
    """Replay ``steps`` (placement order, as in ``EffectSet.witness``); return (active counts, covered cells).

    Raises ValueError if a step is not a legal slot/level, if two upgrades occupy the same two positions
    (S25) or if more than one half sticks out (4G face) or any does without ``allow_overhang``.
    """
    board = board_of(arrangement)
    legal = {}
    for a, b, lvl, over, flex in _slots(board, allow_overhang):
        legal[(a, b, lvl)] = over
        if flex:
            legal[(a, b, UNDER)] = over
    state, counts = _empty_state(board), list(board.base_counts())
    used: set[tuple[int, int]] = set()
    overhangs = 0
    for s in steps:
        (ra, ca), (rb, cb) = s.cells
        a, b = (ra + 1) * board.cols + ca + 1, (rb + 1) * board.cols + cb + 1
        x, y = s.symbols
        if a > b:
            a, b, x, y = b, a, y, x
        if (a, b, s.level) not in legal:
            raise ValueError(f"illegal slot {s.cells} at level {LEVEL_NAMES[s.level]}")
        if (a, b) in used:
            raise ValueError(f"upgrade at {s.cells} would completely hide another upgrade (S25)")
        used.add((a, b))
        overhangs += legal[(a, b, s.level)]
        if overhangs > 1:
            raise ValueError("only one half of one upgrade may stick out (4G face)")
        state = _apply(board, state, counts, a, b, s.level, x, y)
    return tuple(counts), _covered(board, state)


def best_effects(data: SmartphoneData, index: int, tile_ids: Sequence[str], allow_overhang: bool = False,
                 **kwargs) -> EffectSet:
    """``effects`` for arrangement ``index`` of ``data`` and the held upgrades named by id (upgrades.csv)."""
    by_id = {u.id: u for u in data.upgrades}
    tiles = [by_id[t].halves for t in tile_ids]
    return effects(arrangements(data).arrangements[index], tiles, allow_overhang, **kwargs)


__all__ = [
    "BOTH", "EMPTY", "LEVEL_NAMES", "LOWER", "PA_COLS", "PA_COVERED", "PA_DELTA", "TOP", "UNDER", "UPPER",
    "Board", "EffectSet", "SlotTable", "Step", "UpgradePlacement", "apply_stack", "best_effects", "board_of", "effects",
    "placement_array", "placements_for", "slot_table",
]
