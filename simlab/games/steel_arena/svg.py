"""Steel Arena drawn as one SVG board: the hex arena, the robots with their modules, and whose turn it is.

:func:`board_svg` is what ``SteelArenaGame.render_svg`` returns. The picture has three parts:

* a header: the mode, whose view it is (the referee's, or one seat's), the turn, the active robot, who decides
  now and what, the refill stack and the box;
* the arena (left): the field cells (pointy-top hexes at their axial ``[q, r]``, NOTES I.17; r grows downwards,
  facing 0 points east), each tile on its cell coloured by type (a face-up tile named; a face-down one named only
  in the referee's view, drawn with a dashed border; in a seat's view only its back, whose colour shows the type,
  NOTES I.1.4 / I.16), each robot as a coloured token with an arrow for its facing, and a legend below;
* one panel per robot (right): its central module (side A or B), every module slot (type colour, name or, where
  the viewer may not know it, only the type), overheat tokens, modules used this turn, trophies and the damage,
  heat and water it still owes.

Every piece carries a ``data-piece`` attribute (``cell``, ``tile``, ``robot``, ``central``, ``module``, ``heat``,
``trophy``, ``damage``) so that tests can count them against the state; tiles and modules also carry ``data-type``,
``data-face`` (tiles) and, only where the viewer knows it, ``data-design`` (the design's ``tile_id``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simlab.core.svg import esc, svg_document
from simlab.games.steel_arena.data import TILE_TYPES
from simlab.games.steel_arena.render.board import PHASE_TEXT
from simlab.games.steel_arena.render.names import central_summary, robot_name, tile_summary
from simlab.games.steel_arena.state import END_REASONS, PH_OVER

SQRT3 = math.sqrt(3.0)
HEX = 56.0  # hex radius (centre to corner)
ARROW_GLYPHS = "→↗↖←↙↘"  # facings 0..5 (NOTES I.17.2, r drawn downwards)

# Okabe-Ito colours: the tile types keep the game's own hues (red attack, green move, yellow rotate, blue defence,
# grey terrain); the robots take the remaining ones.
TYPE_COLOUR = {"attack": "#D55E00", "move": "#009E73", "rotate": "#F0E442", "defence": "#0072B2",
               "terrain": "#8C8C8C"}
TYPE_TINT = {"attack": "#F6D2BC", "move": "#BFE6D9", "rotate": "#FBF7C4", "defence": "#BCD7EA", "terrain": "#DDDDDD"}
TYPE_INK = {"attack": "#FFFFFF", "move": "#FFFFFF", "rotate": "#222222", "defence": "#FFFFFF", "terrain": "#FFFFFF"}
ROBOT_COLOUR = ("#E69F00", "#56B4E9", "#CC79A7", "#222222")
ROBOT_TINT = ("#FBE7BF", "#D8EEFA", "#F3DDE9", "#D6D6D6")
ROBOT_INK = ("#222222", "#222222", "#222222", "#FFFFFF")
HEAT_FILL = "#A50F15"
TROPHY_FILL = "#F5C518"
DAMAGE_FILL = "#222222"
BG = "#FBFAF7"
EMPTY_CELL = "#F1EDE4"
INK = "#222222"
MUTED = "#666666"

# panel geometry
BOX_W = 158.0
BOX_H = 44.0
GAP = 6.0
COLS = 4
PANEL_W = COLS * BOX_W + (COLS - 1) * GAP + 20
MARGIN = 20.0
HEADER_H = 70.0


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A rough width of ``text`` at font ``size`` (proportional sans-serif)."""
    return len(text) * size * (0.62 if bold else 0.56)


def _text(x: float, y: float, text: str, size: float = 12, *, anchor: str = "start", weight: str = "normal",
          fill: str = INK, max_w: float | None = None, extra: str = "") -> str:
    """One ``<text>`` element; squeezed to ``max_w`` when the estimate says it would not fit."""
    fit = ""
    if max_w is not None and _text_width(text, size, weight == "bold") > max_w:
        fit = f' textLength="{max_w:.1f}" lengthAdjust="spacingAndGlyphs"'
    bold = f' font-weight="{weight}"' if weight != "normal" else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" fill="{fill}"{bold}{fit}'
            f'{extra}>{esc(text)}</text>')


def _hex_points(cx: float, cy: float, radius: float) -> str:
    """The corners of a pointy-top hex."""
    pts = []
    for k in range(6):
        a = math.radians(60 * k + 30)
        pts.append(f"{cx + radius * math.cos(a):.1f},{cy + radius * math.sin(a):.1f}")
    return " ".join(pts)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in at most two lines of about ``width`` characters (the second squeezed later if longer)."""
    words = text.split()
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width and len(lines) == 0:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return lines


def _design(rules: Any, inst: int) -> Any:
    return rules.data.tiles[int(rules.pool[int(inst)])]


def _type_of(code: int) -> str:
    return TILE_TYPES[int(code)] if 0 <= int(code) < len(TILE_TYPES) else "terrain"


def _robot_cell(rec: np.void, p: int) -> int:
    """The cell a robot stands on, or -1 (not placed yet, or destroyed)."""
    if not rec["placed"][p] or rec["destroyed"][p]:
        return -1
    return int(rec["cell"][p])


# ---------------------------------------------------------------------------- the arena


def _cell_centres(rules: Any) -> list[tuple[float, float]]:
    """Pixel centres of the field cells (origin at the arena's top left corner)."""
    raw = [(HEX * SQRT3 * (int(q) + int(r) / 2), HEX * 1.5 * int(r)) for q, r in rules.cells[:, :2]]
    xmin = min(x for x, _ in raw) - HEX * SQRT3 / 2
    ymin = min(y for _, y in raw) - HEX
    return [(x - xmin, y - ymin) for x, y in raw]


def _arena_size(centres: list[tuple[float, float]]) -> tuple[float, float]:
    return (max(x for x, _ in centres) + HEX * SQRT3 / 2, max(y for _, y in centres) + HEX)


def _tile(rules: Any, rec: np.void, c: int, cx: float, cy: float, seat: int | None, robot_here: bool) -> str:
    """The tile lying on cell ``c`` (face up, face down named for the referee, or its back for a seat)."""
    inst = int(rec["cell_tile"][c])
    ttype = _type_of(int(rec["cell_type"][c]))
    up = bool(rec["cell_up"][c])
    known = inst >= 0 and (up or seat is None)
    face = "up" if up else "down"
    parts: list[str] = []
    if not known:  # the back of a face-down tile: its colour shows the type, nothing more
        title = f"A face-down {ttype} tile: which module it is, no one knows until it is picked up"
        parts.append(f'<polygon points="{_hex_points(cx, cy, HEX - 5)}" fill="{TYPE_COLOUR[ttype]}" '
                     f'stroke="#FFFFFF" stroke-width="2"/>')
        parts.append(f'<polygon points="{_hex_points(cx, cy, HEX - 15)}" fill="none" stroke="#FFFFFF" '
                     f'stroke-width="1.2" stroke-dasharray="3 3"/>')
        ink = TYPE_INK[ttype]
        if robot_here:
            parts.append(_text(cx, cy + 37, f"on {ttype} ?", 8.5, anchor="middle", fill=ink, max_w=58))
        else:
            parts.append(_text(cx, cy + 6, "?", 26, anchor="middle", weight="bold", fill=ink))
            parts.append(_text(cx, cy + 24, ttype, 10, anchor="middle", fill=ink))
        return (f'<g data-piece="tile" data-face="down" data-type="{ttype}" data-cell="{c}">'
                f'<title>{esc(title)}</title>{"".join(parts)}</g>')
    t = _design(rules, inst)
    dashed = "" if up else ' stroke-dasharray="5 3"'
    parts.append(f'<polygon points="{_hex_points(cx, cy, HEX - 5)}" fill="{TYPE_TINT[ttype]}" '
                 f'stroke="{TYPE_COLOUR[ttype] if up else INK}" stroke-width="{2.5 if up else 1.8}"{dashed}/>')
    title = f"{t.name_en} ({t.tile_id}, printed {t.name_ru}): {t.type}, {tile_summary(t)}"
    if not up:
        title += ". Face down: only the referee sees it; players see its back (the type colour)"
    if robot_here:
        parts.append(_text(cx, cy + 37, f"on {t.name_en}", 8.5, anchor="middle", max_w=58))
    else:
        head = ttype if up else f"{ttype} · face down"
        parts.append(_text(cx, cy - 17, head, 9, anchor="middle", fill=MUTED, max_w=80,
                           extra=' font-style="italic"' if not up else ""))
        lines = _wrap(t.name_en, 11)
        y0 = cy + (3 if len(lines) == 1 else -1)
        for i, line in enumerate(lines):
            parts.append(_text(cx, y0 + 12.5 * i, line, 11.5, anchor="middle", weight="bold", max_w=84))
        parts.append(_text(cx, cy + 28, tile_summary(t), 8.5, anchor="middle", fill=MUTED, max_w=84))
    return (f'<g data-piece="tile" data-face="{face}" data-type="{ttype}" data-design="{esc(t.tile_id)}" '
            f'data-cell="{c}"><title>{esc(title)}</title>{"".join(parts)}</g>')


def _robot_token(rec: np.void, p: int, cx: float, cy: float, seat: int | None) -> str:
    """A robot on its cell: a token in its colour with an arrow towards its facing."""
    f = int(rec["facing"][p]) % 6
    colour, ink = ROBOT_COLOUR[p], ROBOT_INK[p]
    parts: list[str] = []
    if seat == p:  # the viewer's own robot: a halo
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="29" fill="#FFFFFF" fill-opacity="0.85" '
                     f'stroke="{INK}" stroke-width="2.5" stroke-dasharray="6 3"/>')
    # the arrow: drawn pointing east, turned to the facing (-60 degrees per facing step, r drawn downwards)
    parts.append(f'<g transform="translate({cx:.1f},{cy:.1f}) rotate({-60 * f})">'
                 f'<polygon points="14,-10 36,0 14,10" fill="{colour}" stroke="{INK}" stroke-width="2" '
                 f'stroke-linejoin="round"/></g>')
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="20" fill="{colour}" stroke="{INK}" stroke-width="2.5"/>')
    parts.append(_text(cx, cy + 5, robot_name(p), 14, anchor="middle", weight="bold", fill=ink))
    title = f"{robot_name(p)} facing {f} ({ARROW_GLYPHS[f]})" + (" — you" if seat == p else "")
    return (f'<g data-piece="robot" data-seat="{p}" data-facing="{f}"><title>{esc(title)}</title>'
            f'{"".join(parts)}</g>')


def _arena(rules: Any, rec: np.void, seat: int | None, ox: float, oy: float) -> str:
    """The field: cells, tiles, robots (offset to ``ox, oy``)."""
    centres = _cell_centres(rules)
    n_cells = len(rules.cells)
    robots = {_robot_cell(rec, p): p for p in range(int(rec["n_players"])) if _robot_cell(rec, p) >= 0}
    active = int(rec["active"]) if int(rec["turn"]) > 0 and not rec["over"] else -1
    out: list[str] = [f'<g transform="translate({ox:.1f},{oy:.1f})">']
    for c in range(n_cells):
        cx, cy = centres[c]
        q, r = int(rules.cells[c, 0]), int(rules.cells[c, 1])
        out.append(f'<g data-piece="cell" data-q="{q}" data-r="{r}"><title>cell [{q}, {r}]</title>'
                   f'<polygon points="{_hex_points(cx, cy, HEX - 1)}" fill="{EMPTY_CELL}" stroke="#B9B2A3" '
                   f'stroke-width="2"/></g>')
    for c in range(n_cells):
        if int(rec["cell_tile"][c]) != -1:
            cx, cy = centres[c]
            out.append(_tile(rules, rec, c, cx, cy, seat, c in robots))
    for c in range(n_cells):  # the axial coordinates, on top of the tiles
        cx, cy = centres[c]
        q, r = int(rules.cells[c, 0]), int(rules.cells[c, 1])
        ink = "#8A8378"
        if int(rec["cell_tile"][c]) != -1:
            back = int(rec["cell_tile"][c]) < 0 or (seat is not None and not rec["cell_up"][c])
            ink = TYPE_INK[_type_of(int(rec["cell_type"][c]))] if back else MUTED
        out.append(_text(cx, cy - 31, f"{q},{r}", 8.5, anchor="middle", fill=ink))
    for c, p in sorted(robots.items(), key=lambda kv: kv[1]):
        cx, cy = centres[c]
        if p == active:
            out.append(f'<polygon points="{_hex_points(cx, cy, HEX - 3)}" fill="none" stroke="{ROBOT_COLOUR[p]}" '
                       f'stroke-width="5"/><polygon points="{_hex_points(cx, cy, HEX - 0.5)}" fill="none" '
                       f'stroke="{INK}" stroke-width="1"/>')
        lift = 4 if int(rec["cell_tile"][c]) != -1 else 0  # room for the "on <tile>" label below
        out.append(_robot_token(rec, p, cx, cy - lift, seat))
    out.append("</g>")
    return "".join(out)


def _heat_token(x: float, y: float, what: str) -> str:
    return (f'<g data-piece="heat"><title>{esc(what)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="7.5" '
            f'fill="{HEAT_FILL}" stroke="#FFFFFF" stroke-width="1.5"/>'
            f'{_text(x, y + 3.5, "H", 9.5, anchor="middle", weight="bold", fill="#FFFFFF")}</g>')


def _star(x: float, y: float, r: float) -> str:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append(f"{x + rad * math.cos(a):.1f},{y + rad * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="{TROPHY_FILL}" stroke="{INK}" stroke-width="1"/>'


def _damage_mark(x: float, y: float) -> str:
    return (f'<g data-piece="damage"><title>1 pending damage: a module to discard at the end of the turn</title>'
            f'<rect x="{x - 7:.1f}" y="{y - 7:.1f}" width="14" height="14" rx="2" fill="{DAMAGE_FILL}"/>'
            f'<path d="M{x - 4:.1f},{y - 4:.1f} L{x + 4:.1f},{y + 4:.1f} M{x + 4:.1f},{y - 4:.1f} '
            f'L{x - 4:.1f},{y + 4:.1f}" stroke="#FFFFFF" stroke-width="2"/></g>')


def _legend(x: float, y: float, width: float, seat: int | None) -> tuple[str, float]:
    """The key to the symbols; returns the markup and its height."""
    out = [_text(x, y + 14, "Legend", 13, weight="bold")]
    # tile types
    yy = y + 32
    xx = x
    for ttype in TILE_TYPES:
        out.append(f'<rect x="{xx:.1f}" y="{yy - 10:.1f}" width="14" height="14" rx="2" fill="{TYPE_TINT[ttype]}" '
                   f'stroke="{TYPE_COLOUR[ttype]}" stroke-width="2.5"/>')
        out.append(_text(xx + 19, yy + 1, ttype, 11))
        xx += 28 + _text_width(ttype, 11) + 10
    out.append(_text(xx, yy + 1, "(tile and module colours by type)", 10.5, fill=MUTED))
    rows = [
        (f'<rect x="{x:.1f}" y="{{y0}}" width="16" height="14" rx="2" fill="{TYPE_COLOUR["attack"]}" '
         f'stroke="#FFFFFF"/>', "face-down tile: only its back, whose colour shows the type (no one knows which "
                                "module until it is picked up)"),
        (f'<rect x="{x:.1f}" y="{{y0}}" width="16" height="14" rx="2" fill="{TYPE_TINT["move"]}" stroke="{INK}" '
         f'stroke-dasharray="4 2"/>',
         "dashed border: face down / not yet revealed, shown here only because this is the referee's view"
         if seat is None else "dashed border: your module, not yet revealed to the other players"),
    ]
    lines: list[str] = []
    yy += 22
    for shape, words in rows:
        lines.append(shape.replace("{y0}", f"{yy - 11:.1f}"))
        lines.append(_text(x + 24, yy + 1, words, 10.5, max_w=width - 24))
        yy += 20
    # robot, heat, trophy, damage
    lines.append(f'<g transform="translate({x + 8:.1f},{yy - 4:.1f}) scale(0.45)">'
                 f'<polygon points="14,-10 36,0 14,10" fill="{ROBOT_COLOUR[0]}" stroke="{INK}" stroke-width="3"/>'
                 f'<circle r="20" fill="{ROBOT_COLOUR[0]}" stroke="{INK}" stroke-width="3"/></g>')
    lines.append(_text(x + 30, yy + 1, "robot and the way it faces (its line of fire); the active robot's cell has "
                                       "a thick border in its colour", 10.5, max_w=width - 30))
    yy += 22
    lines.append(f'<circle cx="{x + 8:.1f}" cy="{yy - 4:.1f}" r="7.5" fill="{HEAT_FILL}"/>')
    lines.append(_text(x + 8, yy - 0.5, "H", 9.5, anchor="middle", weight="bold", fill="#FFFFFF"))
    lines.append(_text(x + 24, yy + 1, "overheat token (the module can't be activated until cooled)", 10.5,
                       max_w=width - 24))
    yy += 20
    lines.append(_star(x + 8, yy - 4, 8))
    lines.append(_text(x + 24, yy + 1, "trophy (a module knocked off another robot, or one's own over the module "
                                       "limit)", 10.5, max_w=width - 24))
    yy += 20
    lines.append(f'<rect x="{x + 1:.1f}" y="{yy - 11:.1f}" width="14" height="14" rx="2" fill="{DAMAGE_FILL}"/>')
    lines.append(_text(x + 24, yy + 1, "pending damage: one module to discard per point at the end of the turn",
                       10.5, max_w=width - 24))
    yy += 20
    lines.append(_text(x, yy + 1, "USED", 8.5, weight="bold", fill=MUTED))
    lines.append(_text(x + 32, yy + 1, "module activated this turn · cell labels are axial q,r", 10.5,
                       max_w=width - 32))
    yy += 12
    out.extend(lines)
    return "".join(out), yy - y


# ---------------------------------------------------------------------------- robot panels


def _module_box(rules: Any, rec: np.void, p: int, k: int, x: float, y: float, seat: int | None) -> str:
    """Module slot ``k`` of robot ``p``: type colour, name (if the viewer knows it), heat and use marks."""
    inst = int(rec["mods"][p, k])
    ttype = _type_of(int(rec["mod_type"][p, k]))
    revealed = bool(rec["revealed"][p, k]) or bool(rec["expert"])
    known = inst >= 0 and (seat is None or seat == p or revealed)
    hot = bool(rec["heat"][p, k])
    used = bool(rec["used"][p, k])
    defended = bool(rec["def_used"][p, k])
    dashed = ' stroke-dasharray="5 3"' if known and not revealed else ""
    fill = TYPE_TINT[ttype] if known else TYPE_COLOUR[ttype]  # unknown: the tile's back, in the type colour
    parts = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{BOX_W:g}" height="{BOX_H:g}" rx="4" fill="{fill}" '
             f'stroke="{TYPE_COLOUR[ttype] if not dashed else INK}" stroke-width="1.5"{dashed}/>',
             f'<rect x="{x:.1f}" y="{y:.1f}" width="7" height="{BOX_H:g}" rx="2" fill="{TYPE_COLOUR[ttype]}"/>']
    right = 24 if hot else 6
    if known:
        t = _design(rules, inst)
        parts.append(_text(x + 12, y + 17, t.name_en, 11.5, weight="bold", max_w=BOX_W - 12 - right))
        parts.append(_text(x + 12, y + 34, tile_summary(t), 9.5, fill=MUTED, max_w=BOX_W - 16 - (28 if used else 0)))
        title = f"{t.name_en} ({t.tile_id}, printed {t.name_ru}): {t.type}, {tile_summary(t)}"
        if not revealed:
            title += " (not yet revealed to the other players)"
        design = f' data-design="{esc(t.tile_id)}"'
    else:
        ink = TYPE_INK[ttype]
        parts.append(_text(x + 12, y + 17, f"? {ttype} module", 11.5, weight="bold", fill=ink,
                           max_w=BOX_W - 12 - right))
        parts.append(_text(x + 12, y + 34, "hidden until first used", 9.5, fill=ink, extra=' font-style="italic"'))
        title = f"A {ttype} module you cannot see: it is revealed when first used"
        design = ""
    marks = []
    if used:
        marks.append("used this turn")
        parts.append(_text(x + BOX_W - 5, y + 39, "USED", 8.5, anchor="end", weight="bold", fill=MUTED))
    if defended:
        marks.append("its armour was used this turn")
    if hot:
        marks.append("overheated")
        parts.append(_heat_token(x + BOX_W - 12, y + 12, f"overheat token on {robot_name(p)}'s module {k + 1}"))
    if marks:
        title += " — " + ", ".join(marks)
    return (f'<g data-piece="module" data-seat="{p}" data-slot="{k}" data-type="{ttype}"{design}>'
            f'<title>{esc(title)}</title>{"".join(parts)}</g>')


def _central_box(rules: Any, rec: np.void, p: int, x: float, y: float) -> str:
    """The robot's board: its central module on side A (normal) or B (boosted)."""
    side = int(rec["side"][p])
    w = 2 * BOX_W + GAP
    summary = central_summary(rules, p, side)
    parts = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:g}" height="{BOX_H:g}" rx="4" fill="#EEEEEE" stroke="{INK}" '
             f'stroke-width="1.5"/>',
             f'<rect x="{x:.1f}" y="{y:.1f}" width="7" height="{BOX_H:g}" rx="2" fill="{ROBOT_COLOUR[p]}"/>']
    label = f"Central module · side {'AB'[side]} ({'normal' if side == 0 else 'boosted'})"
    parts.append(_text(x + 12, y + 17, label, 11.5, weight="bold", max_w=w - 40))
    parts.append(_text(x + 12, y + 34, summary, 9.5, fill=MUTED, max_w=w - 50))
    if rec["central_used"][p]:
        parts.append(_text(x + w - 5, y + 39, "USED", 8.5, anchor="end", weight="bold", fill=MUTED))
    if rec["central_heat"][p]:
        parts.append(_heat_token(x + w - 12, y + 12, f"overheat token on {robot_name(p)}'s central module"))
    title = f"{robot_name(p)}'s central module, side {'AB'[side]}: {summary}"
    return (f'<g data-piece="central" data-seat="{p}" data-side="{"AB"[side]}"><title>{esc(title)}</title>'
            f'{"".join(parts)}</g>')


def _panel_height(rec: np.void, p: int) -> float:
    slots = int(rec["n_mods"][p]) + 2  # the central module takes two
    rows = max(1, math.ceil(slots / COLS))
    return 56 + rows * (BOX_H + GAP) + 4


def _panel(rules: Any, rec: np.void, p: int, x: float, y: float, seat: int | None) -> str:
    """One robot's panel: name, where it stands, trophies, what it owes, its modules."""
    h = _panel_height(rec, p)
    colour, tint, ink = ROBOT_COLOUR[p], ROBOT_TINT[p], ROBOT_INK[p]
    over = bool(rec["over"]) or int(rec["phase"]) == PH_OVER
    turn = int(rec["turn"])
    active = turn > 0 and not over and int(rec["active"]) == p
    actor = not over and int(rec["actor"]) == p
    out = [f'<g data-panel="{p}">',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{PANEL_W:g}" height="{h - 8:.1f}" rx="6" fill="#FFFFFF" '
           f'stroke="{colour if active else "#C8C2B6"}" stroke-width="{4 if active else 1.2}"/>',
           f'<path d="M{x:.1f},{y + 28:.1f} V{y + 6:.1f} Q{x:.1f},{y:.1f} {x + 6:.1f},{y:.1f} '
           f'H{x + PANEL_W - 6:.1f} Q{x + PANEL_W:.1f},{y:.1f} {x + PANEL_W:.1f},{y + 6:.1f} V{y + 28:.1f} Z" '
           f'fill="{tint}"/>',
           f'<circle cx="{x + 16:.1f}" cy="{y + 14:.1f}" r="10" fill="{colour}" stroke="{INK}" stroke-width="1.5"/>',
           _text(x + 16, y + 18, str(p + 1), 11, anchor="middle", weight="bold", fill=ink)]
    robot_id = rules.data.robots[p % len(rules.data.robots)].a.name_en
    you = " (you)" if seat == p else ""
    team = f" · team {int(rec['team_of'][p]) + 1}" if rec["team"] else ""
    if rec["destroyed"][p]:
        where = "destroyed"
    elif not rec["placed"][p] or int(rec["cell"][p]) < 0:
        where = "not on the arena yet"
    else:
        c = int(rec["cell"][p])
        f = int(rec["facing"][p]) % 6
        where = f"at [{int(rules.cells[c, 0])}, {int(rules.cells[c, 1])}] facing {ARROW_GLYPHS[f]}"
    out.append(_text(x + 32, y + 19, f"{robot_name(p)}{you} · {robot_id}{team} · {where}", 13, weight="bold",
                     max_w=PANEL_W - 170))
    badges = []
    if active:
        badges.append(("ACTIVE", colour, ink))
    if actor:
        badges.append(("TO DECIDE", INK, "#FFFFFF"))
    if over and int(rec["winner"][p]):
        badges.append(("WINNER", TROPHY_FILL, INK))
    bx = x + PANEL_W - 8
    for label, fill, fg in badges:
        w = _text_width(label, 10, True) + 16
        bx -= w
        out.append(f'<rect x="{bx:.1f}" y="{y + 6:.1f}" width="{w:.1f}" height="17" rx="8.5" fill="{fill}" '
                   f'stroke="{INK}" stroke-width="1"/>')
        out.append(_text(bx + w / 2, y + 18.5, label, 10, anchor="middle", weight="bold", fill=fg))
        bx -= 6
    # status line: trophies, then what the robot still owes
    sy = y + 44
    nt = int(rec["n_trophies"][p])
    out.append(_text(x + 10, sy, f"Trophies {nt}", 11.5, weight="bold"))
    tx = x + 98
    names = []
    if seat is None or seat == p:
        names = [_design(rules, int(i)).name_en for i in rec["trophies"][p, :nt]]
    for i in range(nt):
        what = f"trophy {i + 1}" + (f": {names[i]}" if i < len(names) and int(rec["trophies"][p, i]) >= 0 else "")
        out.append(f'<g data-piece="trophy" data-seat="{p}"><title>{esc(what)}</title>{_star(tx, sy - 4, 8)}</g>')
        tx += 18
    owes = []
    dmg = int(rec["pending_dmg"][p])
    if dmg:
        owes.append(f"pending damage {dmg}")
    if int(rec["pending_heat"][p]):
        owes.append(f"heat to absorb {int(rec['pending_heat'][p])}")
    if int(rec["pending_water"][p]):
        owes.append(f"water coolings {int(rec['pending_water'][p])}")
    n_mods = int(rec["n_mods"][p])
    info = f"{n_mods + 1} modules incl. central"
    tx = max(tx + 10, x + 200)
    out.append(_text(tx, sy, info, 11, fill=MUTED))
    tx += _text_width(info, 11) + 14
    for i in range(dmg):
        out.append(_damage_mark(tx + 8 + 17 * i, sy - 4))
    if dmg:
        tx += 17 * dmg + 6
    if owes:
        out.append(_text(tx, sy, " · ".join(owes), 11, weight="bold", fill="#A50F15", max_w=x + PANEL_W - tx - 8))
    # module grid: the central module (two slots wide), then slots 1..n
    gx, gy = x + 10, y + 56
    out.append(_central_box(rules, rec, p, gx, gy))
    for k in range(n_mods):
        pos = k + 2
        mx = gx + (pos % COLS) * (BOX_W + GAP)
        my = gy + (pos // COLS) * (BOX_H + GAP)
        out.append(_module_box(rules, rec, p, k, mx, my, seat))
    out.append("</g>")
    return "".join(out)


# ---------------------------------------------------------------------------- the whole board


def _status(rec: np.void) -> str:
    """The second header line: turn, active robot, who decides what (or the result)."""
    phase = int(rec["phase"])
    turn = int(rec["turn"])
    if rec["over"] or phase == PH_OVER:
        reason = END_REASONS[int(rec["end_reason"])] if 0 <= int(rec["end_reason"]) < len(END_REASONS) else "?"
        winners = [robot_name(p) for p in range(int(rec["n_players"])) if int(rec["winner"][p])]
        return (f"Game over after turn {turn} · ended by: {reason.replace('_', ' ')} · "
                f"winner: {', '.join(winners) or 'none'}")
    doing = PHASE_TEXT.get(phase, str(phase))
    if turn == 0:
        return f"Setup · {robot_name(int(rec['actor']))} to decide: {doing}"
    text = (f"Turn {turn} · {robot_name(int(rec['active']))}'s turn (activations so far: "
            f"{int(rec['n_activations'])}) · {robot_name(int(rec['actor']))} to decide: {doing}")
    return text


def board_svg(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The position ``rec`` (a state record, ``state[0]``) as one self-contained SVG board.

    ``seat`` None draws the referee's view: face-down tiles are named (dashed border, "face down"). With a seat
    (the caller has already applied ``game.hide``) the board is that seat's view: face-down tiles show only
    their backs (the type colour), other robots' unrevealed modules only their type, and the seat's own robot
    is highlighted.
    """
    n = int(rec["n_players"])
    centres = _cell_centres(rules)
    aw, ah = _arena_size(centres)
    left_w = max(aw, 560.0)
    arena_x = MARGIN + (left_w - aw) / 2
    arena_y = HEADER_H + 10
    legend, legend_h = _legend(MARGIN, arena_y + ah + 24, left_w, seat)
    left_h = arena_y + ah + 24 + legend_h
    px = MARGIN + left_w + 24
    heights = [_panel_height(rec, p) for p in range(n)]
    right_h = HEADER_H + 10 + sum(heights)
    width = px + PANEL_W + MARGIN
    height = max(left_h, right_h) + MARGIN
    expert = bool(rec["expert"])
    view = "Referee's view (everything shown)" if seat is None else f"Seat {seat + 1}'s view (robot {robot_name(seat)})"
    mode = "expert mode (all tiles face up)" if expert else "basic mode"
    teams = " · teams: P1 + P3 v P2 + P4" if rec["team"] else ""
    body = [f'<rect width="{width:.1f}" height="{height:.1f}" fill="{BG}"/>',
            _text(MARGIN, 30, "Steel Arena", 22, weight="bold"),
            _text(MARGIN + 150, 30, f"{mode}{teams}", 13, fill=MUTED),
            f'<g data-caption="view">{_text(width - MARGIN, 30, view, 15, anchor="end", weight="bold")}</g>',
            _text(MARGIN, 54, _status(rec), 14, max_w=width - 2 * MARGIN - 330),
            _text(width - MARGIN, 54, f"refill stack: {int(rec['stack_n'])} tiles · box: {int(rec['box_n'])} · "
                                      f"overheat tokens on robots: {int(rec['tokens'])}", 11.5, anchor="end",
                  fill=MUTED),
            f'<line x1="{MARGIN}" y1="{HEADER_H - 4}" x2="{width - MARGIN:.1f}" y2="{HEADER_H - 4}" '
            f'stroke="#D8D2C6" stroke-width="1"/>',
            _arena(rules, rec, seat, arena_x, arena_y),
            legend]
    y = HEADER_H + 10
    for p in range(n):
        body.append(_panel(rules, rec, p, px, y, seat))
        y += heights[p]
    title = f"Steel Arena, turn {int(rec['turn'])}: " + ("referee's view" if seat is None else
                                                         f"seat {seat + 1}'s view")
    return svg_document(round(width), round(height), "".join(body), title)
