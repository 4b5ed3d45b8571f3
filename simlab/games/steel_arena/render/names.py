"""How Steel Arena's things are named and put in words: robots (``P1``..), cells ``[q, r]``, facings,
tiles (``G2-A-OGNEMYOT (Flamethrower)``, as the reports and ``tiles.csv`` name them), central modules, and the
hex geometry the descriptions need."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.steel_arena.data import (
    ARMOUR_ARCS,
    DELIVERIES,
    HEX_DIRECTIONS,
    MOVE_KINDS,
    R_ARMOUR_ARC,
    R_ARMOUR_VALUE,
    R_DAMAGE,
    R_DELIVERY,
    R_MOVE_KIND,
    R_MOVE_MAX,
    R_MOVE_MIN,
    R_ROTATE_MAX,
    R_ROTATE_MIN,
)

ARROWS = "→↗↖←↙↘"  # facings 0..5
TYPE_LETTER = {"attack": "A", "move": "M", "rotate": "R", "defence": "D", "terrain": "T"}
COLOUR_LETTER = {"red": "r", "green": "g", "yellow": "y", "blue": "b", "grey": "s"}
SECTORS = ("front", "front_side", "rear_side", "rear", "rear_side", "front_side")  # by relative sector 0..5
HIDDEN = -2  # game.hide's instance id for a tile the seat may not know




def robot_name(seat: int) -> str:
    """``P1``.. for seat 0..; the name every text and trace field ``robot`` uses."""
    return f"P{int(seat) + 1}"


def _seat_or_none(v: int) -> int | None:
    return None if v < 0 else int(v)


def _robot_or_none(v: int) -> str | None:
    return None if v < 0 else robot_name(v)


def _instance_names(rules: Any) -> list[str]:
    """Every instance's trace name (``rules.instance_name`` for all instances at once)."""
    seen: dict[int, int] = {}
    names = []
    for d in rules.pool:
        d = int(d)
        seen[d] = seen.get(d, 0) + 1
        names.append(f"{rules.data.tiles[d].tile_id}#{seen[d]}")
    return names


def _cell(rules: Any, c: int) -> list[int] | None:
    """``[q, r]`` of a cell index, None for -1 (off the field / none)."""
    if c < 0 or c >= len(rules.cells):
        return None
    q, r = rules.cell_qr(int(c))
    return [q, r]


def _cell_text(cell: list[int] | None) -> str:
    return "off the field" if cell is None else f"[{cell[0]}, {cell[1]}]"


def _facing_text(f: int) -> str:
    return f"{int(f)} ({ARROWS[int(f) % 6]})"


def _design(rules: Any, inst: int) -> Any:
    return rules.data.tiles[int(rules.pool[int(inst)])]


def tile_summary(t: Any) -> str:
    """A design's printed properties in a few words: ``direct 2, push 1, speed``."""
    parts: list[str] = []
    if t.type == "attack":
        parts.append(f"{t.attack_delivery} {t.damage}" if t.damage else t.attack_delivery)
        for what in ("splash", "push", "whirl", "heat"):
            if getattr(t, what):
                parts.append(f"{'explosion' if what == 'splash' else what} {getattr(t, what)}")
    elif t.type == "move":
        span = f"{t.move_min}" if t.move_min == t.move_max else f"{t.move_min}-{t.move_max}"
        parts.append(f"{t.move_kind.replace('_', '-')} {span}")
    elif t.type == "rotate":
        span = f"{t.rotate_min}" if t.rotate_min == t.rotate_max else f"{t.rotate_min}-{t.rotate_max}"
        parts.append(f"rotate {span}")
    elif t.type == "defence":
        arc = {"front": "front", "side": "side", "all": "all-round"}.get(t.armour_arc or "", t.armour_arc)
        parts.append(f"{arc} armour {t.armour_value}")
        if t.needs_activation:
            parts.append("activated on a hit")
    else:
        if t.obstacle:
            parts.append("obstacle")
        if t.interference:
            parts.append("interference")
        if t.explosive_on_tile:
            parts.append(f"explosive {t.explosive_on_tile}/{t.explosive_adjacent}")
        if t.cover:
            parts.append("cover")
        if t.water_cool:
            parts.append(f"water {t.water_cool}")
    for flag, word in (("speed", "speed"), ("autocool", "auto-cool"), ("oneshot", "one-shot")):
        if getattr(t, flag):
            parts.append(word)
    return ", ".join(parts)


def tile_name(t: Any) -> str:
    """A design as the reports and ``tiles.csv`` name it: ``G2-A-OGNEMYOT (Flamethrower)`` (its ``tile_id``, the
    name a data variant or an ablation takes, and its English name)."""
    return f"{t.tile_id} ({t.name_en})"


def tile_name_printed(t: Any) -> str:
    """:func:`tile_name` with the name printed on the tile beside it: ``G2-A-OGNEMYOT (Flamethrower, printed
    ОГНЕМЁТ)``, for a person who holds the physical game."""
    return f"{t.tile_id} ({t.name_en}, printed {t.name_ru})"


def module_label(rules: Any, inst: int) -> str:
    """``G1-A-PUSHKA-M1 (Cannon M1): direct 1``."""
    t = _design(rules, inst)
    return f"{tile_name(t)}: {tile_summary(t)}"


def central_side(rules: Any, seat: int, side: int) -> dict[str, Any]:
    """One side of a robot's central module as a dict (trace ``game_start.robots``)."""
    row = rules.robots[int(seat), int(side)]
    arc = int(row[R_ARMOUR_ARC])
    return {
        "attack_delivery": DELIVERIES[int(row[R_DELIVERY])],
        "attack_damage": int(row[R_DAMAGE]),
        "move_kind": MOVE_KINDS[int(row[R_MOVE_KIND])],
        "move_min": int(row[R_MOVE_MIN]),
        "move_max": int(row[R_MOVE_MAX]),
        "rotate_min": int(row[R_ROTATE_MIN]),
        "rotate_max": int(row[R_ROTATE_MAX]),
        "armour_arc": None if arc < 0 else ARMOUR_ARCS[arc],
        "armour_value": int(row[R_ARMOUR_VALUE]),
    }


def central_summary(rules: Any, seat: int, side: int) -> str:
    """``melee 1 · forward 1 · rotate 1`` (+ ``· all-round armour 1`` on side B)."""
    c = central_side(rules, seat, side)
    mv = c["move_kind"].replace("_", "-")
    span = lambda a, b: f"{a}" if a == b else f"{a}-{b}"  # noqa: E731
    text = (f"{c['attack_delivery']} {c['attack_damage']} · {mv} {span(c['move_min'], c['move_max'])} · "
            f"rotate {span(c['rotate_min'], c['rotate_max'])}")
    if c["armour_arc"] and c["armour_value"]:
        text += f" · {c['armour_arc'].replace('all', 'all-round')} armour {c['armour_value']}"
    return text


def _robot_at(rec: np.void, cell: int) -> int:
    """Seat of the robot standing on ``cell`` or -1."""
    for p in range(int(rec["n_players"])):
        if rec["placed"][p] and int(rec["cell"][p]) == cell and cell >= 0:
            return p
    return -1


def _line_of_fire(rules: Any, cell: int, facing: int) -> list[int]:
    out = []
    c = int(cell)
    while c >= 0:
        c = int(rules.nbr[c, facing % 6])
        if c >= 0:
            out.append(c)
    return out


def _axial_step(qr: list[int], d: int, n: int) -> list[int]:
    dq, dr = HEX_DIRECTIONS[d % 6]
    return [qr[0] + dq * n, qr[1] + dr * n]


def _whirl_of(e: int) -> tuple[int, str]:
    """Whirl code e (1..3 counter-clockwise k, 4..6 clockwise k) as (k, sense)."""
    return (e, "counter-clockwise") if e <= 3 else (e - 3, "clockwise")
