"""The arena as text (the hex map, the robots, the stack) from a seat's view, and the legend of its notation."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.steel_arena.data import (
    COLOUR_OF_TYPE,
    TILE_TYPES,
)
from simlab.games.steel_arena.render.names import (
    ARROWS,
    COLOUR_LETTER,
    TYPE_LETTER,
    _cell,
    _cell_text,
    _design,
    _facing_text,
    _robot_at,
    central_summary,
    robot_name,
    tile_name,
    tile_name_printed,
    tile_summary,
)
from simlab.games.steel_arena.state import (
    PH_ACTIVE,
    PH_CONTINUE,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_OVER,
    PH_PLACE,
    PH_WATER,
)

PHASE_TEXT = {
    PH_PLACE: "placing robots",
    PH_ACTIVE: "active phase: activate a module or cool all",
    PH_CONTINUE: "may activate one more module (speed / wear) or stop",
    PH_HEAT: "absorbing heat",
    PH_WATER: "water: cooling one module",
    PH_DISCARD: "end phase: discarding modules for damage",
    PH_LIMIT: "end phase: module-limit discard",
    PH_OVER: "game over",
}




def _cell_code(rules: Any, rec: np.void, c: int, hide: bool) -> str:
    """Five-character code of a cell: robot, tile or empty (see :data:`LEGEND`)."""
    p = _robot_at(rec, c)
    if p >= 0:
        return f"{robot_name(p)}{ARROWS[int(rec['facing'][p]) % 6]}" + ("*" if int(rec["cell_tile"][c]) != -1 else "")
    inst = int(rec["cell_tile"][c])
    if inst == -1:
        return "·"
    t_idx = int(rec["cell_type"][c])
    ttype = TILE_TYPES[t_idx] if t_idx >= 0 else "terrain"
    up = bool(rec["cell_up"][c])
    if inst < 0 or (not up and hide):
        return f"{COLOUR_LETTER[COLOUR_OF_TYPE[ttype]]}?"
    t = _design(rules, inst)
    short = t.tile_id.split("-")[2][:3] if t.tile_id.count("-") >= 2 else t.tile_id[:3]  # G2-A-OGNEMYOT: OGN
    letter = TYPE_LETTER[t.type]
    return f"{letter if up else letter.lower()}:{short}"


def _hex_map(rules: Any, codes: list[str], width: int = 5) -> list[str]:
    """Rows of a hex map (axial r downwards; x = 2q + r), each cell ``width`` characters."""
    xs = [2 * int(q) + int(r) for q, r in rules.cells[:, :2]]
    rs = [int(r) for r in rules.cells[:, 1]]
    xmin = min(xs)
    half = (width + 1) // 2
    rows: dict[int, str] = {}
    for c, (x, r) in enumerate(zip(xs, rs, strict=True)):
        pos = (x - xmin) * half
        cur = rows.get(r, "").ljust(pos)
        rows[r] = cur[:pos] + codes[c].center(width)
    return [rows[r].rstrip() for r in sorted(rows)]


def render_state(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The arena map, the robots and the stack from ``seat``'s view (None: the referee's, everything).

    In basic mode a seat sees face-down field tiles only by colour and other robots' modules
    not yet used only by type (NOTES I.16); expert mode shows everything.
    """
    n = int(rec["n_players"])
    expert = bool(rec["expert"])
    hide = seat is not None and not expert
    lines: list[str] = []
    phase = int(rec["phase"])
    turn = int(rec["turn"])
    head = "Game over" if rec["over"] or phase == PH_OVER else (
        f"Turn {turn} · active {robot_name(int(rec['active']))} · to decide: {robot_name(int(rec['actor']))} "
        f"({PHASE_TEXT.get(phase, phase)})" if turn > 0 else f"Setup · {PHASE_TEXT.get(phase, phase)} · "
        f"to decide: {robot_name(int(rec['actor']))}")
    view = "referee view" if seat is None else f"view of {robot_name(seat)}"
    teams = " · team 0 (seats 0+2: P1, P3) v team 1 (seats 1+3: P2, P4)" if rec["team"] else ""
    lines.append(f"Steel Arena · {'expert' if expert else 'basic'} mode{teams} · {view}")
    lines.append(head)
    n_cells = len(rules.cells)
    codes = [_cell_code(rules, rec, c, hide) for c in range(n_cells)]
    coords = [f"{int(q)},{int(r)}" for q, r in rules.cells[:, :2]]
    left = _hex_map(rules, codes)
    right = _hex_map(rules, coords)
    w = max(len(x) for x in left) + 4
    lines.append("")
    for a, b in zip(left, right, strict=True):
        lines.append(f"  {a.ljust(w)}{b}")
    lines.append("")
    lines.extend("  " + x for x in LEGEND_SHORT)
    # tiles on the field, in words
    tiles = []
    for c in range(n_cells):
        if int(rec["cell_tile"][c]) == -1:
            continue
        tiles.append(f"{_cell_text(_cell(rules, c))} {_field_words_short(rules, rec, c, hide)}")
    if tiles:
        lines.append("Field:")
        for k in range(0, len(tiles), 3):
            lines.append("  " + "; ".join(tiles[k : k + 3]))
    lines.append(f"Generation-3 stack: {int(rec['stack_n'])} tiles · box: {int(rec['box_n'])} · "
                 f"overheat tokens on robots: {int(rec['tokens'])}")
    for p in range(n):
        lines.extend(_robot_lines(rules, rec, p, seat, hide))
    return "\n".join(lines)


def _field_words_short(rules: Any, rec: np.void, c: int, hide: bool) -> str:
    inst = int(rec["cell_tile"][c])
    t_idx = int(rec["cell_type"][c])
    ttype = TILE_TYPES[t_idx] if t_idx >= 0 else "?"
    up = bool(rec["cell_up"][c])
    if inst < 0 or (not up and hide):
        return f"face-down {COLOUR_OF_TYPE.get(ttype, '?')} ({ttype})"
    t = _design(rules, inst)
    return f"{tile_name_printed(t)}, {t.type}: {tile_summary(t)}{'' if up else '; face down'}"


def _robot_lines(rules: Any, rec: np.void, p: int, seat: int | None, hide: bool) -> list[str]:
    side = int(rec["side"][p])
    n_mods = int(rec["n_mods"][p])
    you = " (you)" if seat == p else ""
    team = f", team {int(rec['team_of'][p])}" if rec["team"] else ""
    if rec["destroyed"][p]:
        where = "destroyed"
    elif not rec["placed"][p] or int(rec["cell"][p]) < 0:
        where = "not on the field"
    else:
        c = int(rec["cell"][p])
        where = f"at {_cell_text(_cell(rules, c))} facing {_facing_text(int(rec['facing'][p]))}"
        if int(rec["cell_tile"][c]) != -1:
            where += f", standing on {_field_words_short(rules, rec, c, hide)}"
    robot_id = rules.data.robots[p % len(rules.data.robots)].robot_id
    out = [f"{robot_name(p)}{you} {robot_id}{team}: side {'AB'[side]} ({'normal' if side == 0 else 'boosted'}), "
           f"{where}; {n_mods + 1} modules incl. central"]
    marks = ("[hot]" if rec["central_heat"][p] else "") + ("[used]" if rec["central_used"][p] else "")
    out.append(f"    central: {central_summary(rules, p, side)} {marks}".rstrip())
    for k in range(n_mods):
        inst = int(rec["mods"][p, k])
        t_idx = int(rec["mod_type"][p, k])
        ttype = TILE_TYPES[t_idx] if t_idx >= 0 else "?"
        shown = bool(rec["revealed"][p, k]) or seat is None or seat == p or not hide
        marks = ("[hot]" if rec["heat"][p, k] else "") + ("[used]" if rec["used"][p, k] else "") + (
            "[defended]" if rec["def_used"][p, k] else "")
        if inst < 0 or not shown:
            text = f"{ttype} module (not yet used: hidden)"
        else:
            t = _design(rules, inst)
            text = f"{tile_name_printed(t)}, {t.type}: {tile_summary(t)}"
            if not rec["revealed"][p, k] and not expert_of(rec):
                text += " (unrevealed)"
        out.append(f"    {k + 1:>2}. {text} {marks}".rstrip())
    nt = int(rec["n_trophies"][p])
    if nt:
        if seat is None or seat == p:
            names = ", ".join(tile_name(_design(rules, int(i))) for i in rec["trophies"][p, :nt] if int(i) >= 0)
            out.append(f"    trophies {nt}: {names}")
        else:
            out.append(f"    trophies {nt}")
    else:
        out.append("    trophies 0")
    pend = [f"pending damage {int(rec['pending_dmg'][p])}" if rec["pending_dmg"][p] else "",
            f"heat to absorb {int(rec['pending_heat'][p])}" if rec["pending_heat"][p] else "",
            f"water coolings {int(rec['pending_water'][p])}" if rec["pending_water"][p] else ""]
    pend = [x for x in pend if x]
    if pend:
        out.append("    " + ", ".join(pend))
    return out


def expert_of(rec: np.void) -> bool:
    return bool(rec["expert"])


LEGEND_SHORT = (
    "P1→ robot P1 and its facing (* on a tile) · · empty · r? g? y? b? a red/green/yellow/blue tile lying face down",
    "A:NEZ tile (A attack, M move, R rotate, D defence, T terrain; its tile_id's first name letters; lower case a:NEZ:"
    " face down, referee view) · right: each cell's q,r",
)

LEGEND = """\
How to read the arena and the choices (shown once; type h to see it again):
  The map      hex cells in rows of equal r (axial [q, r], NOTES I.17); the map on the right gives each
               cell's q,r. Facings 0..5: 0 → east (+1,0), 1 ↗ (+1,-1), 2 ↖ (0,-1), 3 ← west, 4 ↙ (-1,+1),
               5 ↘ (0,+1). Clockwise = decreasing facing; counter-clockwise = increasing.
  P2↖          robot P2 (seat 1) facing 2; a * means it stands on a tile (terrain or a module tile).
  A:PUS        a face-up tile: type letter (A attack, M move, R rotate, D defence, T terrain) and the first
               letters of the name in its tile_id (G1-A-PUSHKA-M1); the "Field" list below the map names it
               in full: tile_id (English name, printed Russian name).
  r?           a face-down tile of that colour (r red = attack, g green = move, y yellow = rotate,
               b blue = defence); you learn which module it is when you pick it up.
  [hot] [used] an overheat token on the module / activated this turn ([defended]: its armour was used
               this turn). Other robots' modules not yet used show only their type in basic mode.
  Choices      first the module (or the central module's property), then what it does: rotation sectors
               and sense, move distance and direction, the attack's target (the t-th cell of the line of fire
               and the robot or the cell itself), push / whirl amount and whether damage comes first."""


def legend(rules: Any) -> str:
    """The notation of the map and the menu, for a person (``human`` shows it at the first decision)."""
    return LEGEND
