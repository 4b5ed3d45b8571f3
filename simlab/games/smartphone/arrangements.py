"""Every legal planning arrangement of a player's two tablets (NOTES S11-S12, O1, O2).

A player lays one tablet (the *upper*) on the other (the *lower*): parallel or perpendicular,
aligned to whole cells (O1), the upper covering ``overlap_min..overlap_max`` (1-4) cells of the
lower one; never the whole lower tablet, never side by side without overlap. Either tablet may be
the lower one, each either side up, each in any of four rotations. Upgrades are not part of an
arrangement: they are placed later on top of its visible grid.

What an arrangement is (what is de-duplicated)
-----------------------------------------------
Every physical placement is drawn as a *layered picture*: for each occupied position, the symbol
of the topmost tablet there and its layer code (``LOWER`` lower tablet only, ``UPPER`` upper
tablet only, ``BOTH`` upper tablet lying over a lower-tablet cell, i.e. a hidden cell).

1. Translations of the whole pair are the same arrangement (pictures are normalised to their
   bounding box).
2. Rotations of the whole pair by 90/180/270 degrees are the same arrangement: the board's
   orientation has no effect. The canonical form is the smallest of the four rotated pictures.
3. Two placements with the same canonical picture are one arrangement even if they use different
   tablets or sides: the symbols under the upper tablet are inactive and every hidden cell yields
   1 goods whatever it shows (O2), so nothing in the rules can tell them apart. With the bundled
   tablets no such merge happens beyond the pair rotations (``ArrangementSet`` reports the counts).
4. Footprints are kept apart: two arrangements with equal symbol counts but different shapes or
   layer layouts stay distinct, because where upgrades can lie (on top, or on the lower tablet
   partly under the upper one, S26) depends on them.
5. Mirror images are NOT merged: a mirrored picture is in general not reachable with the same
   tablets (tablets cannot be flipped without changing side). ``mirror_of`` gives the index of the
   mirrored arrangement when it exists, for players that want to exploit the symmetry.

The representative placement of each arrangement has the lower tablet unrotated; grids are stored
in a frame of ``FRAME_ROWS x FRAME_COLS`` positions (row 0 on top), cells outside the pair are
``NO_SYMBOL`` / ``EMPTY``. Rotation is clockwise in quarter turns: turning a grid ``g`` of ``H``
rows gives ``g'[r][c] = g[H-1-c][r]`` (the convention of examples.toml).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from simlab.games.smartphone.data import NO_SYMBOL, SYMBOLS, SmartphoneData

# Layer codes of a frame position.
EMPTY, LOWER, UPPER, BOTH = 0, 1, 2, 3

# Placement columns of ArrangementTable.placement (sides and types are indices into the data's lists).
(P_LOWER_TYPE, P_LOWER_SIDE, P_LOWER_ROT, P_LOWER_ROW, P_LOWER_COL,
 P_UPPER_TYPE, P_UPPER_SIDE, P_UPPER_ROT, P_UPPER_ROW, P_UPPER_COL) = range(10)

ABBREV = {"goods": "gd", "price_down": "-$", "price_up": "+$", "upgrade": "up", "research": "rs",
          "logistics": "lg", "blank": ".."}


@dataclass(frozen=True)
class Placement:
    """One tablet's placement in the arrangement frame: top-left of its rotated grid at (row, col)."""

    tablet: str
    side: int
    rotation: int  # clockwise quarter turns, 0..3
    row: int
    col: int


@dataclass(frozen=True)
class Arrangement:
    """One legal planning arrangement (see the module docstring for what is identified)."""

    index: int
    lower: Placement
    upper: Placement
    grid: tuple[tuple[int, ...], ...]  # symbol code of the topmost tablet per frame position, NO_SYMBOL outside
    layers: tuple[tuple[int, ...], ...]  # EMPTY / LOWER / UPPER / BOTH per frame position
    counts: tuple[int, ...]  # visible symbols per code (SYMBOLS order, blank included)
    hidden: int  # lower-tablet cells under the upper tablet (goods in phase 3, O2)
    n_placements: int  # physical placements (lower tablet in any of 4 rotations, at the origin) merged here
    key: tuple[tuple[int, int, int, int], ...]  # canonical layered picture: sorted (row, col, symbol, layer)

    @property
    def visible_cells(self) -> int:
        """Positions showing a tablet cell (12 - hidden)."""
        return sum(self.counts)

    @property
    def footprint(self) -> frozenset[tuple[int, int]]:
        """Occupied positions in the canonical picture."""
        return frozenset((r, c) for r, c, _, _ in self.key)

    def count(self, symbol: str) -> int:
        """Visible cells showing ``symbol``."""
        return self.counts[SYMBOLS.index(symbol)]


@dataclass(frozen=True)
class ArrangementSet:
    """All arrangements of one data set and the enumeration counts."""

    arrangements: tuple[Arrangement, ...]
    raw_placements: int  # placements enumerated: lower tablet at the origin in each of its 4 rotations
    physical: int  # distinct up to translation and whole-pair rotation, tablets and sides told apart
    mirror_of: tuple[int, ...]  # index of the mirrored arrangement, -1 when the mirror is not legal/reachable
    index_of: dict[tuple[tuple[int, int, int, int], ...], int]


class ArrangementTable(NamedTuple):
    """Arrangements as arrays for the kernels (row i = arrangement i)."""

    placement: np.ndarray  # int8 [N, 10], columns P_*
    grid: np.ndarray  # int8 [N, FRAME_ROWS, FRAME_COLS] symbol codes, NO_SYMBOL outside
    layers: np.ndarray  # int8 [N, FRAME_ROWS, FRAME_COLS] layer codes
    counts: np.ndarray  # int8 [N, len(SYMBOLS)] visible symbols
    hidden: np.ndarray  # int8 [N]
    n_placements: np.ndarray  # int16 [N]
    mirror_of: np.ndarray  # int16 [N]


def rotate(grid: tuple[tuple[int, ...], ...], quarter_turns: int) -> tuple[tuple[int, ...], ...]:
    """``grid`` turned clockwise ``quarter_turns`` times (``g'[r][c] = g[H-1-c][r]`` per turn)."""
    g = grid
    for _ in range(quarter_turns % 4):
        h, w = len(g), len(g[0])
        g = tuple(tuple(g[h - 1 - c][r] for c in range(h)) for r in range(w))
    return g


def _normalise(cells: list[tuple[int, int, int, int]]) -> tuple[tuple[int, int, int, int], ...]:
    r0 = min(c[0] for c in cells)
    c0 = min(c[1] for c in cells)
    return tuple(sorted((r - r0, c - c0, s, layer) for r, c, s, layer in cells))


def canonical(cells: list[tuple[int, int, int, int]]) -> tuple[tuple[int, int, int, int], ...]:
    """Canonical form of a layered picture ``[(row, col, symbol, layer)]``: min over the 4 rotations."""
    best = None
    cur = list(cells)
    for _ in range(4):
        form = _normalise(cur)
        if best is None or form < best:
            best = form
        cur = [(c, -r, s, layer) for r, c, s, layer in cur]  # quarter turn clockwise, up to translation
    assert best is not None
    return best


def _picture(lower: tuple[tuple[int, ...], ...], upper: tuple[tuple[int, ...], ...], dy: int,
             dx: int) -> tuple[list[tuple[int, int, int, int]], int]:
    """Layered picture of ``upper`` laid at (dy, dx) on ``lower`` at (0, 0), and the overlap size."""
    pic: dict[tuple[int, int], tuple[int, int]] = {}
    for r, line in enumerate(lower):
        for c, sym in enumerate(line):
            pic[(r, c)] = (sym, LOWER)
    overlap = 0
    for r, line in enumerate(upper):
        for c, sym in enumerate(line):
            pos = (r + dy, c + dx)
            if pos in pic:
                overlap += 1
                pic[pos] = (sym, BOTH)
            else:
                pic[pos] = (sym, UPPER)
    return [(r, c, s, layer) for (r, c), (s, layer) in pic.items()], overlap


def _tablet(data: SmartphoneData, t: int, s: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in row) for row in data.tablet_grid[t, s])


_CACHE: dict[tuple[bytes, tuple[int, ...], int, int], ArrangementSet] = {}


def arrangements(data: SmartphoneData) -> ArrangementSet:
    """Enumerate (once per distinct tablet data) every legal arrangement of the two tablets."""
    tc = data.constants["tablets"]
    ov_min, ov_max = tc["overlap_min"], tc["overlap_max"]
    cache_key = (data.tablet_grid.tobytes(), data.tablet_grid.shape, ov_min, ov_max)
    if cache_key in _CACHE:
        return _CACHE[cache_key]
    n_types, n_sides, rows, cols = data.tablet_grid.shape
    cells_per_tablet = rows * cols
    types, sides = data.tablet_types, data.tablet_sides

    groups: dict[tuple, list] = {}
    physical: set[tuple] = set()
    raw = 0
    for q_low in range(4):
        for t_low in range(n_types):
            for s_low in range(n_sides):
                lower = rotate(_tablet(data, t_low, s_low), q_low)
                for t_up in range(n_types):
                    if t_up == t_low:
                        continue  # a player has one tablet of each type
                    for s_up in range(n_sides):
                        for q_up in range(4):
                            upper = rotate(_tablet(data, t_up, s_up), q_up)
                            h_low, w_low, h_up, w_up = len(lower), len(lower[0]), len(upper), len(upper[0])
                            for dy in range(-h_up + 1, h_low):
                                for dx in range(-w_up + 1, w_low):
                                    pic, overlap = _picture(lower, upper, dy, dx)
                                    if not ov_min <= overlap <= ov_max or overlap == cells_per_tablet:
                                        continue
                                    raw += 1
                                    key = canonical(pic)
                                    # physical identity: tablets, sides and the hidden symbols too
                                    under = [(r, c, lower[r][c], -1) for r in range(h_low) for c in range(w_low)]
                                    physical.add((t_low, s_low, t_up, s_up, canonical(pic + under)))
                                    groups.setdefault(key, []).append(
                                        (t_low, s_low, q_low, t_up, s_up, q_up, dy, dx, overlap))

    result = []
    index_of = {}
    for i, (key, members) in enumerate(groups.items()):
        t_low, s_low, q_low, t_up, s_up, q_up, dy, dx, overlap = members[0]
        assert q_low == 0  # the first member of every orbit has the lower tablet unrotated
        lr, lc = max(0, -dy), max(0, -dx)
        lower = _tablet(data, t_low, s_low)
        upper = rotate(_tablet(data, t_up, s_up), q_up)
        height = max(lr + len(lower), lr + dy + len(upper))
        width = max(lc + len(lower[0]), lc + dx + len(upper[0]))
        grid = [[NO_SYMBOL] * width for _ in range(height)]
        layers = [[EMPTY] * width for _ in range(height)]
        for r, line in enumerate(lower):
            for c, sym in enumerate(line):
                grid[lr + r][lc + c], layers[lr + r][lc + c] = sym, LOWER
        for r, line in enumerate(upper):
            for c, sym in enumerate(line):
                rr, cc = lr + dy + r, lc + dx + c
                layers[rr][cc] = BOTH if layers[rr][cc] == LOWER else UPPER
                grid[rr][cc] = sym
        counts = [0] * len(SYMBOLS)
        for line in grid:
            for sym in line:
                if sym != NO_SYMBOL:
                    counts[sym] += 1
        result.append(Arrangement(
            i,
            Placement(types[t_low], sides[s_low], 0, lr, lc),
            Placement(types[t_up], sides[s_up], q_up, lr + dy, lc + dx),
            tuple(map(tuple, grid)), tuple(map(tuple, layers)), tuple(counts), overlap, len(members), key,
        ))
        index_of[key] = i

    mirror = []
    for a in result:
        width = max(c for _, c, _, _ in a.key)
        mirrored = canonical([(r, width - c, s, layer) for r, c, s, layer in a.key])
        mirror.append(index_of.get(mirrored, -1))
    out = ArrangementSet(tuple(result), raw, len(physical), tuple(mirror), index_of)
    _CACHE[cache_key] = out
    return out


def locate(data: SmartphoneData, lower: tuple[str, int], upper: tuple[str, int], rotation: int = 0, dy: int = 0,
           dx: int = 0) -> int:
    """Index of the arrangement with ``upper`` (tablet, side) turned ``rotation`` degrees clockwise and laid
    with its top-left cell at (dy, dx) of the unrotated ``lower`` (tablet, side); ValueError if illegal."""
    if rotation % 90:
        raise ValueError(f"rotation {rotation} is not a multiple of 90 degrees")
    types, sides = data.tablet_types, data.tablet_sides
    low = _tablet(data, types.index(lower[0]), sides.index(lower[1]))
    up = rotate(_tablet(data, types.index(upper[0]), sides.index(upper[1])), rotation // 90)
    pic, _ = _picture(low, up, dy, dx)
    key = canonical(pic)
    found = arrangements(data).index_of.get(key)
    if found is None or lower[0] == upper[0]:
        raise ValueError(f"not a legal arrangement: {lower} under {upper} turned {rotation} at ({dy}, {dx})")
    return found


def arrangement_table(data: SmartphoneData) -> ArrangementTable:
    """The arrangements of ``data`` as compact arrays for numba kernels."""
    aset = arrangements(data)
    arr = aset.arrangements
    types, sides = data.tablet_types, data.tablet_sides
    n = len(arr)
    frame_rows = max(len(a.grid) for a in arr)
    frame_cols = max(len(a.grid[0]) for a in arr)
    placement = np.zeros((n, 10), dtype=np.int8)
    grid = np.full((n, frame_rows, frame_cols), NO_SYMBOL, dtype=np.int8)
    layers = np.zeros((n, frame_rows, frame_cols), dtype=np.int8)
    for i, a in enumerate(arr):
        lo, up = a.lower, a.upper
        placement[i] = (types.index(lo.tablet), sides.index(lo.side), lo.rotation, lo.row, lo.col,
                        types.index(up.tablet), sides.index(up.side), up.rotation, up.row, up.col)
        h, w = len(a.grid), len(a.grid[0])
        grid[i, :h, :w] = a.grid
        layers[i, :h, :w] = a.layers
    return ArrangementTable(
        placement, grid, layers,
        np.array([a.counts for a in arr], dtype=np.int8),
        np.array([a.hidden for a in arr], dtype=np.int8),
        np.array([a.n_placements for a in arr], dtype=np.int16),
        np.array(aset.mirror_of, dtype=np.int16),
    )


def describe(arrangement: Arrangement) -> str:
    """ASCII drawing of an arrangement's visible grid for the readable log.

    Lower-tablet cells are in lower case in parentheses, upper-tablet cells in upper case; an
    upper cell lying over a lower-tablet cell (a hidden cell below) is in square brackets.
    """
    a = arrangement
    turn = f" turned {90 * a.upper.rotation}°" if a.upper.rotation else ""
    lines = [f"lower {a.lower.tablet}{a.lower.side}, upper {a.upper.tablet}{a.upper.side}{turn}; "
             f"{a.hidden} hidden cell{'s' if a.hidden != 1 else ''}"]
    shown = [f"{name} {n}" for name, n in zip(SYMBOLS, a.counts, strict=True) if n and name != "blank"]
    lines.append("visible: " + (", ".join(shown) or "nothing"))
    for g_row, l_row in zip(a.grid, a.layers, strict=True):
        cells = []
        for sym, layer in zip(g_row, l_row, strict=True):
            text = ABBREV[SYMBOLS[sym]] if sym != NO_SYMBOL else ""
            if layer == LOWER:
                cells.append(f"({text})")
            elif layer == UPPER:
                cells.append(f" {text.upper()} ")
            elif layer == BOTH:
                cells.append(f"[{text.upper()}]")
            else:
                cells.append("    ")
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)
