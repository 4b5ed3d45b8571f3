"""Steel Arena as text: action descriptions, the arena map, trace events and the readable log.

Identities used everywhere (docs/trace.md, "Steel Arena events"): a physical tile is named by
its instance name ``DESIGN#k`` (``rules.instance_name``: the k-th copy of the design, e.g.
``G1-A-PUSHKA-M1#3``); a robot by ``P1``..``P4`` (seat + 1; trace fields ``seat`` keep the
0-based seat); a cell by ``[q, r]`` (axial, NOTES I.17); a facing by 0..5 (directions
(+1,0) east, (+1,-1) north-east, (0,-1) north-west, (-1,0) west, (-1,+1) south-west,
(0,+1) south-east, drawn as the arrows of ``ARROWS``).

Every trace event carries ``event`` (its name, as in other games), ``type`` (the name of
NOTES.md "What a trace must carry"), ``seq`` (a running number: 0 for ``game_start``, then
1, 2, ... over the events of the log handed to :func:`log_to_events`), ``turn`` (0 = setup)
and ``active`` (the seat whose turn it is, null before the first player is known).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.version import __version__
from simlab.games.steel_arena.codes import (
    A_ACT,
    A_COOL,
    A_NONE,
    A_PICK,
    A_PLACE,
    A_STOP,
    DISCARD_REASONS,
    EV_ACT_END,
    EV_ACTIVATE,
    EV_AUTOCOOL,
    EV_COOL_ALL,
    EV_COOL_TOKEN,
    EV_DESTROYED,
    EV_DISCARD,
    EV_END_CHECK,
    EV_END_STEP,
    EV_EXPLOSION,
    EV_FIRST_PLAYER,
    EV_GAME_END,
    EV_GEN2_RETURNED,
    EV_GEN2_TAKEN,
    EV_HEAT_ABSORB,
    EV_HEAT_DAMAGE,
    EV_HIT,
    EV_JUMP_OVER,
    EV_LIMIT_DISCARD,
    EV_NAMES,
    EV_PICKUP,
    EV_PLACE,
    EV_PUSH_EFFECT,
    EV_REDUCE,
    EV_REFILL,
    EV_ROTATE,
    EV_SETUP_CELL,
    EV_SHED,
    EV_SIDE_SWITCH,
    EV_SNAP_BOX,
    EV_SNAP_CELL,
    EV_SNAP_MISC,
    EV_SNAP_MOD,
    EV_SNAP_ROBOT,
    EV_SNAP_TROPHY,
    EV_STACK,
    EV_STACK_EXHAUSTED,
    EV_STARTER,
    EV_STEP,
    EV_STOPPED_SHORT,
    EV_TAKE_START,
    EV_TURN_END,
    EV_TURN_START,
    EV_WATER_COOL,
    EV_WATER_DESTROYED,
    EV_WHIRL_EFFECT,
    EXPLOSION_CAUSES,
    HIT_KINDS,
    PARAM_SPAN,
    REDUCTION_KINDS,
    SLOT_C_ATTACK,
    SLOT_C_MOVE,
    SLOT_C_ROTATE,
    SLOT_CENTRAL,
    STEP_CAUSES,
    TARGET_KINDS,
    VIA_NAMES,
)
from simlab.games.steel_arena.data import (
    ARMOUR_ARCS,
    COLOUR_OF_TYPE,
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
    TILE_TYPES,
)
from simlab.games.steel_arena.state import (
    END_GEN3,
    END_REASONS,
    PH_ACTIVE,
    PH_CONTINUE,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_OVER,
    PH_PLACE,
    PH_WATER,
)

ARROWS = "→↗↖←↙↘"  # facings 0..5
TYPE_LETTER = {"attack": "A", "move": "M", "rotate": "R", "defence": "D", "terrain": "T"}
COLOUR_LETTER = {"red": "r", "green": "g", "yellow": "y", "blue": "b", "grey": "s"}
SECTORS = ("front", "front_side", "rear_side", "rear", "rear_side", "front_side")  # by relative sector 0..5
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
HIDDEN = -2  # game.hide's instance id for a tile the seat may not know


# ---------------------------------------------------------------- small helpers


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


# ---------------------------------------------------------------- actions


def decode_action(action: int) -> dict[str, int]:
    """The fields of an action code (codes.py): ``kind`` and its numbers."""
    a = int(action)
    if a < A_PLACE:
        return {"kind": a}
    if a < A_PICK:
        c, f = divmod(a - A_PLACE, 6)
        return {"kind": A_PLACE, "cell": c, "facing": f}
    if a < A_ACT:
        return {"kind": A_PICK, "slot": a - A_PICK}
    sw, param = divmod(a - A_ACT, PARAM_SPAN)
    slot, wear = divmod(sw, 2)
    return {"kind": A_ACT, "slot": slot, "wear": wear, "param": param}


def _slot_kind(rules: Any, rec: np.void, seat: int, slot: int) -> tuple[str, Any]:
    """What an A_ACT slot activates: (``attack``/``move``/``rotate``/``defence``, design or None for central)."""
    if slot == SLOT_C_ATTACK:
        return "attack", None
    if slot == SLOT_C_MOVE:
        return "move", None
    if slot == SLOT_C_ROTATE:
        return "rotate", None
    inst = int(rec["mods"][seat, slot])
    t = _design(rules, inst)
    return t.type, t


def decode_params(rules: Any, kind: str, t: Any, seat: int, side: int, param: int, cell: int | None,
                  facing: int | None, robot_at: Any = None) -> dict[str, Any]:
    """An activation's parameters in words (trace ``activate.params``).

    ``t`` is the design (None: the central module of ``seat`` on ``side``); ``cell`` and
    ``facing`` the robot's position when it activates (None when unknown: a partial log).
    ``robot_at(cell)`` gives the seat on a cell or -1 (for the attack's target robot).
    """
    known = cell is not None and cell >= 0 and facing is not None
    out: dict[str, Any] = {}
    if kind == "rotate":
        sense, k = divmod(param, 4)
        out = {"sectors": k, "sense": "clockwise" if sense == 0 else "counter-clockwise"}
        if known:
            out["facing_before"] = int(facing)
            out["facing_after"] = (int(facing) - k) % 6 if sense == 0 else (int(facing) + k) % 6
    elif kind == "move":
        variant, n = divmod(param, 8)
        mk = t.move_kind if t is not None else central_side(rules, seat, side)["move_kind"]
        out = {"move_kind": mk, "variant": ("straight", "left", "right")[variant] if variant < 3 else variant,
               "distance": n}
        if facing is not None:
            d = (int(facing) + (0, 1, -1)[variant]) % 6 if variant < 3 else None
            out["direction"] = d
            if known and d is not None:
                out["from"] = _cell(rules, int(cell))
                out["to"] = _axial_step(out["from"], d, n)
    elif kind == "attack":
        order = param % 2
        e = (param // 2) % 8
        which = (param // 16) % 2
        ti = param // 32
        if t is not None:
            delivery, dmg, splash, push, whirl, heat = (t.attack_delivery, t.damage, t.splash, t.push, t.whirl,
                                                        t.heat)
        else:
            c = central_side(rules, seat, side)
            delivery, dmg, splash, push, whirl, heat = c["attack_delivery"], c["attack_damage"], 0, 0, 0, 0
        out = {"delivery": delivery, "damage": dmg, "splash": splash, "heat": heat, "target_index": ti,
               "target": "robot" if which == 0 else "cell"}
        if push:
            out["push"] = e
        if whirl:
            k, sense = _whirl_of(e) if e else (0, None)
            out["whirl"] = {"sectors": k, "sense": sense}
        if push or whirl:
            out["effect_order"] = "effect_first" if order else "damage_first"
        if known:
            line = _line_of_fire(rules, int(cell), int(facing))
            out["line_of_fire"] = [_cell(rules, c) for c in line]
            if delivery == "sweep":
                f = int(facing)
                cells = [int(rules.nbr[int(cell), d]) for d in (f, (f + 1) % 6, (f + 5) % 6)]
                out["cells"] = [_cell(rules, c) for c in cells if c >= 0]
            elif delivery == "beam":
                out["cells"] = [_cell(rules, c) for c in line]
            else:
                tc = line[ti] if ti < len(line) else -1
                out["target_cell"] = _cell(rules, tc)
                p = robot_at(tc) if (robot_at is not None and tc >= 0 and which == 0) else -1
                out["target_seat"] = _seat_or_none(p)
                out["target_robot"] = _robot_or_none(p)
    return out


def _attack_text(rules: Any, rec: np.void, seat: int, pr: dict[str, Any], viewer: int | None) -> str:
    delivery = pr["delivery"]
    bits = []
    if delivery == "beam":
        cells = pr.get("cells", [])
        who = [robot_name(_robot_at(rec, rules.cell_index(*c))) for c in cells
               if _robot_at(rec, rules.cell_index(*c)) >= 0]
        text = "beam along " + (", ".join(_cell_text(c) for c in cells) or "the line of fire")
        if who:
            text += f" (hits {', '.join(who)})"
        bits.append(text)
    elif delivery == "sweep":
        cells = pr.get("cells", [])
        who = [robot_name(_robot_at(rec, rules.cell_index(*c))) for c in cells
               if _robot_at(rec, rules.cell_index(*c)) >= 0]
        text = "sweep " + ", ".join(_cell_text(c) for c in cells)
        if who:
            text += f" (hits {', '.join(who)})"
        bits.append(text)
    else:
        verb = {"direct": "shoot", "arc": "lob at", "melee": "strike"}.get(delivery, delivery)
        cell = pr.get("target_cell")
        if pr["target"] == "robot":
            who = pr.get("target_robot") or "the robot"
            bits.append(f"{verb} {who} at {_cell_text(cell)}")
        else:
            c = rules.cell_index(*cell) if cell is not None else -1
            bits.append(f"{verb} {_field_tile_words(rules, rec, c, viewer)} at {_cell_text(cell)}")
    if "push" in pr:
        bits.append(f"push {pr['push']}")
    if "whirl" in pr:
        w = pr["whirl"]
        bits.append(f"whirl {w['sectors']} {w['sense']}" if w["sectors"] else "whirl 0")
    if "effect_order" in pr and (pr.get("push") or (pr.get("whirl") or {}).get("sectors")):
        bits.append("effect before damage" if pr["effect_order"] == "effect_first" else "damage before effect")
    return ", ".join(bits)


def _field_tile_words(rules: Any, rec: np.void, c: int, viewer: int | None) -> str:
    """What lies on a cell, in words, as ``viewer`` sees it (None: everything)."""
    if c < 0:
        return "the edge"
    inst = int(rec["cell_tile"][c])
    if inst == -1:
        return "the empty cell"
    t_idx = int(rec["cell_type"][c])
    ttype = TILE_TYPES[t_idx] if t_idx >= 0 else "?"
    up = bool(rec["cell_up"][c])
    if inst < 0 or (not up and viewer is not None and not rec["expert"]):
        return f"the face-down {COLOUR_OF_TYPE.get(ttype, '?')} ({ttype}) tile"
    t = _design(rules, inst)
    return f"{'terrain' if t.type == 'terrain' else 'the module tile'} {tile_name(t)}"


def _module_name(rules: Any, rec: np.void, seat: int, slot: int) -> str:
    if slot == SLOT_CENTRAL:
        return "the central module"
    inst = int(rec["mods"][seat, slot])
    if inst < 0:
        return f"a {TILE_TYPES[int(rec['mod_type'][seat, slot])]} module"
    return tile_name(_design(rules, inst))


def describe_action(rules: Any, rec: np.void, action: int) -> str:
    """A one-line description of ``action`` for the seat to act in ``rec`` (its own view)."""
    a = decode_action(action)
    seat = int(rec["actor"])
    phase = int(rec["phase"])
    kind = a["kind"]
    if kind == A_COOL:
        return "cool all modules"
    if kind == A_STOP:
        return "stop (no further activation)"
    if kind == A_NONE:
        if phase == PH_HEAT:
            left = int(rec["pending_heat"][seat])
            return f"refuse the remaining heat ({left} left: 1 damage each)"
        if phase == PH_WATER:
            return "cool nothing (water)"
        return "none"
    if kind == A_PLACE:
        return f"place at {_cell_text(_cell(rules, a['cell']))} facing {_facing_text(a['facing'])}"
    if kind == A_PICK:
        slot = a["slot"]
        name = _module_name(rules, rec, seat, slot)
        if phase == PH_HEAT:
            return f"absorb heat with {name}"
        if phase == PH_WATER:
            return f"cool {name} (water)"
        if phase == PH_LIMIT:
            return f"discard {name} (module limit: your own trophy)"
        if slot == SLOT_CENTRAL:
            return "discard the central module (the robot is destroyed)"
        active = int(rec["active"])
        if seat == active:
            dest = "to the box: own turn"
        elif rec["team"] and rec["team_of"][seat] == rec["team_of"][active]:
            dest = "to the box: team-mate"
        else:
            dest = f"trophy for {robot_name(active)}"
        return f"discard {name} ({dest})"
    # activation
    slot, wear, param = a["slot"], a["wear"], a["param"]
    side = int(rec["side"][seat])
    mkind, t = _slot_kind(rules, rec, seat, slot)
    cell, facing = int(rec["cell"][seat]), int(rec["facing"][seat])
    pr = decode_params(rules, mkind, t, seat, side, param, cell, facing, lambda c: _robot_at(rec, c))
    if t is None:
        head = f"activate the central module ({mkind}, side {'AB'[side]})"
    else:
        head = f"activate {tile_name(t)}: {tile_summary(t)}"
    if mkind == "rotate":
        body = f"rotate {pr['sectors']} {pr['sense']} (facing {facing} -> {pr['facing_after']})"
    elif mkind == "move":
        where = f" to {_cell_text(pr['to'])}" if "to" in pr else ""
        mk = pr["move_kind"]
        if mk == "side_forward":
            body = f"side-forward {pr['variant']} {pr['distance']}{where}"
        else:
            body = f"{mk} {pr['distance']}{where}"
        if "to" in pr and mk != "jump":
            pushed = []
            for k in range(1, pr["distance"] + 1):
                q, r = _axial_step(pr["from"], pr["direction"], k)
                try:
                    p = _robot_at(rec, rules.cell_index(q, r))
                except ValueError:
                    p = -1
                if p >= 0:
                    pushed.append(robot_name(p))
            if pushed:
                body += f" (pushing {', '.join(pushed)})"
    elif mkind == "attack":
        body = _attack_text(rules, rec, seat, pr, seat)
    else:
        body = "activate"
    text = f"{head}: {body}"
    if wear:
        hot = slot < SLOT_C_ATTACK and bool(rec["heat"][seat, slot])
        text += (" [wear rule a: overheated, destroyed after use]" if hot
                 else " [wear rule b: as if it had speed, destroyed after use]")
    return text


def action_menu(rules: Any, rec: np.void, legal: list[int]) -> list[tuple[str, Any]]:
    """The legal actions as nested choices: module (or cell) first, then its parameter choices."""
    seat = int(rec["actor"])
    top: list[tuple[str, Any]] = []
    groups: dict[tuple, list[int]] = {}
    order: list[tuple] = []
    for a in legal:
        d = decode_action(a)
        if d["kind"] == A_PLACE:
            key: tuple = ("place", d["cell"])
        elif d["kind"] == A_ACT:
            key = ("act", d["slot"], d["wear"])
        else:
            top.append((describe_action(rules, rec, a), a))
            continue
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(a)
    for key in order:
        actions = groups[key]
        if key[0] == "place":
            label = f"place at {_cell_text(_cell(rules, key[1]))} ({_field_tile_words(rules, rec, key[1], seat)})"
            sub = [(f"facing {_facing_text(decode_action(a)['facing'])}", a) for a in actions]
        else:
            slot, wear = key[1], key[2]
            mkind, t = _slot_kind(rules, rec, seat, slot)
            side = int(rec["side"][seat])
            if t is None:
                label = f"central module: {mkind} (side {'AB'[side]}: {central_summary(rules, seat, side)})"
            else:
                label = f"{tile_name_printed(t)}: {tile_summary(t)}"
            if wear:
                label += " by the wear rule (destroyed after use)"
            sub = []
            for a in actions:
                text = describe_action(rules, rec, a)
                sub.append((text.split(": ", 1)[1] if ": " in text else text, a))
            if mkind == "attack" and len(sub) > 8:
                sub = _group_attack(sub)
        if len(sub) == 1 and not isinstance(sub[0][1], list):
            top.append((f"{label}: {sub[0][0]}", sub[0][1]))
        else:
            top.append((label, sub))
    return top


def _group_attack(sub: list[tuple[str, int]]) -> list[tuple[str, Any]]:
    """Attack choices grouped by target (cell index on the line and robot-or-cell), then effect and order."""
    by: dict[int, list[tuple[str, int]]] = {}
    heads: dict[int, str] = {}
    for text, a in sub:
        key = decode_action(a)["param"] // 16
        head, sep, rest = text.partition("], ")
        heads.setdefault(key, head + ("]" if sep else ""))
        by.setdefault(key, []).append((rest if sep else "no effect", a))
    out: list[tuple[str, Any]] = []
    for key, items in by.items():
        out.append((heads[key], items) if len(items) > 1 else (f"{heads[key]}: {items[0][0]}", items[0][1]))
    return out


# ---------------------------------------------------------------- the position


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


# ---------------------------------------------------------------- trace events


class _Tracker:
    """Where robots stand and face, what lies on each cell, as the log tells it (for decoding)."""

    def __init__(self, rules: Any) -> None:
        self.cell: dict[int, int] = {}
        self.facing: dict[int, int] = {}
        self.side: dict[int, int] = {}
        self.tile: dict[int, int] = {}
        self.exploded: dict[int, int] = {}  # cell -> instance that went off there (for terrain hit sources)
        self.turn: int | None = 0
        self.active: int | None = None
        self.rules = rules

    def robot_at(self, cell: int) -> int:
        for p, c in self.cell.items():
            if c == cell and cell >= 0:
                return p
        return -1


def _base(name: str, tr: _Tracker, kind: str | None = None) -> dict[str, Any]:
    return {"event": name, "type": kind or name, "seq": 0, "turn": tr.turn, "active": tr.active}


def log_to_events(rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
    """Trace events from a kernel event log (rows as ``codes.py`` documents them).

    Rows that belong together become one event: the ``EV_SNAP_*`` rows after ``EV_TURN_START``
    are its ``snapshot``; the ``EV_REDUCE`` rows before an ``EV_HIT`` on the same robot are the
    hit's ``reductions``; ``EV_COOL_TOKEN`` rows join their ``cool_all``; ``EV_JUMP_OVER`` rows
    join the jump's ``step``; consecutive ``EV_AUTOCOOL`` and ``EV_REFILL`` rows are one event
    each; the set-up rows before the first placement are one ``setup`` event.

    A log handed over in parts (``simlab play`` streams each decision's rows) numbers ``seq`` from
    1 in every part and cannot know ``turn``/``active`` before the part's first ``turn_start``
    (they are null then); a whole game's log gives every event both. ``heat_absorb``, ``shed`` and
    ``heat_damage`` carry ``cause_seq``, the ``seq`` of the ``hit`` whose heat the robot owes (null
    when that hit is in an earlier part).
    """
    names = _instance_names(rules)

    def nm(i: int) -> str | None:
        i = int(i)
        return names[i] if 0 <= i < len(names) else None

    def ttype(i: int) -> str | None:
        i = int(i)
        return _design(rules, i).type if 0 <= i < len(names) else None

    tr = _Tracker(rules)
    events: list[dict[str, Any]] = []
    setup: dict[str, Any] | None = None
    snap: dict[str, Any] | None = None
    reductions: dict[int, list[dict[str, Any]]] = {}
    jump_over: dict[int, list[list[int] | None]] = {}
    cool_tokens: dict[int, list[dict[str, Any]]] = {}
    heat_cause: dict[int, dict[str, Any]] = {}  # seat -> the hit event whose heat it still owes
    n_rows = int(log[0, 0])
    setup_kinds = (EV_SETUP_CELL, EV_GEN2_TAKEN, EV_GEN2_RETURNED, EV_STACK, EV_STARTER, EV_FIRST_PLAYER)

    def emit(ev: dict[str, Any]) -> dict[str, Any]:
        nonlocal setup
        if setup is not None and ev is not setup:
            events.append(setup)
            setup = None
        events.append(ev)
        return ev

    for row in log[1 : n_rows + 1]:
        code = int(row[0])
        v = [int(x) for x in row]
        if code in setup_kinds:
            if setup is None:
                setup = _base("setup", tr)
                setup.update({"gen2_taken": [], "gen2_returned": [], "field": [], "gen3_stack": [],
                              "starters": {}, "first_player": None, "first_player_reason": None})
            if code == EV_SETUP_CELL:
                setup["field"].append({"cell": _cell(rules, v[1]), "tile": nm(v[2]), "tile_type": ttype(v[2]),
                                       "face_up": bool(v[3])})
                tr.tile[v[1]] = v[2]
            elif code == EV_GEN2_TAKEN:
                setup["gen2_taken"].append({"order": v[3], "as": (*TILE_TYPES, "random")[v[1]] if 0 <= v[1] <= 5
                                            else v[1], "tile": nm(v[2]), "tile_type": ttype(v[2])})
            elif code == EV_GEN2_RETURNED:
                setup["gen2_returned"].append(nm(v[1]))
            elif code == EV_STACK:
                setup["gen3_stack"].append({"position": v[1], "tile": nm(v[2])})
            elif code == EV_STARTER:
                setup["starters"].setdefault(robot_name(v[1]), []).append(nm(v[2]))
            elif code == EV_FIRST_PLAYER:
                setup["first_player"] = v[1]
                setup["first_player_robot"] = robot_name(v[1])
                setup["first_player_reason"] = ("random", "seat0 option")[v[2]] if v[2] in (0, 1) else v[2]
                tr.active = v[1]
                setup["active"] = v[1]
            continue
        if code in (EV_SNAP_ROBOT, EV_SNAP_MOD, EV_SNAP_CELL, EV_SNAP_TROPHY, EV_SNAP_MISC, EV_SNAP_BOX):
            if snap is None:
                continue
            s = snap["snapshot"]
            if code == EV_SNAP_ROBOT:
                p = v[1]
                s["robots"].append({"seat": p, "robot": robot_name(p), "cell": _cell(rules, v[2]), "facing": v[3],
                                    "side": "AB"[v[4]] if v[4] in (0, 1) else v[4], "n_modules": v[5],
                                    "central_overheated": bool(v[6]), "destroyed": bool(v[7]),
                                    "pending_damage": v[8], "n_trophies": v[9], "modules": []})
                if v[2] >= 0:
                    tr.cell[p] = v[2]
                else:
                    tr.cell.pop(p, None)
                tr.facing[p] = v[3]
                tr.side[p] = v[4]
            elif code == EV_SNAP_MOD:
                rb = next((x for x in s["robots"] if x["seat"] == v[1]), None)
                entry = {"slot": v[2], "module": nm(v[3]), "tile_type": ttype(v[3]), "overheated": bool(v[4]),
                         "revealed": bool(v[5]), "used": bool(v[6]), "defence_used": bool(v[7])}
                if rb is not None:
                    rb["modules"].append(entry)
            elif code == EV_SNAP_CELL:
                s["field"].append({"cell": _cell(rules, v[1]), "tile": nm(v[2]),
                                   "tile_type": ttype(v[2]), "face_up": bool(v[3])})
                tr.tile[v[1]] = v[2]
            elif code == EV_SNAP_TROPHY:
                s["trophies"].setdefault(robot_name(v[1]), []).append(nm(v[2]))
            elif code == EV_SNAP_BOX:
                s["box"].extend(nm(x) for x in v[2 : 2 + v[1]])
            else:
                s["stack_size"] = v[1]
                s["box_size"] = v[2]
                s["tokens"] = v[3]
            continue
        snap = None
        if code == EV_PLACE:
            tr.active = v[1]
            ev = _base("place_robot", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "cell": _cell(rules, v[2]), "facing": v[3]})
            tr.cell[v[1]] = v[2]
            tr.facing[v[1]] = v[3]
            tr.side[v[1]] = 0
            emit(ev)
        elif code == EV_TAKE_START:
            ev = _base("take_start_tile", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "cell": _cell(rules, v[2]), "tile": nm(v[3]),
                       "tile_type": ttype(v[3])})
            if v[3] >= 0:
                tr.tile[v[2]] = -1
            emit(ev)
        elif code == EV_TURN_START:
            tr.turn, tr.active = v[1], v[2]
            ev = _base("turn_start", tr)
            ev.update({"seat": v[2], "robot": robot_name(v[2]),
                       "snapshot": {"robots": [], "trophies": {}, "field": [], "stack_size": None,
                                    "box_size": None, "box": [], "tokens": None}})
            snap = emit(ev)
        elif code == EV_COOL_ALL:
            ev = _base("cool_all", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "tokens_removed": v[2],
                       "tokens": cool_tokens.pop(v[1], [])})
            emit(ev)
        elif code == EV_COOL_TOKEN:
            tok = {"slot": v[2], "module": "CENTRAL" if v[2] == SLOT_CENTRAL else nm(v[3])}
            last = events[-1] if events else None
            if last is not None and last["event"] == "cool_all" and last["seat"] == v[1]:
                last["tokens"].append(tok)
            else:
                cool_tokens.setdefault(v[1], []).append(tok)
        elif code == EV_ACTIVATE:
            seat, slot, inst = v[1], v[2], v[3]
            side = v[10]
            central = slot >= SLOT_C_ATTACK
            if central:
                mkind = {SLOT_C_ATTACK: "attack", SLOT_C_MOVE: "move", SLOT_C_ROTATE: "rotate"}.get(slot, "?")
                t = None
            else:
                t = _design(rules, inst) if 0 <= inst < len(names) else None
                mkind = t.type if t is not None else "?"
            ev = _base("activate", tr)
            ev.update({
                "seat": seat, "robot": robot_name(seat), "slot": slot,
                "module": "CENTRAL" if central else nm(inst),
                "property": mkind, "central_side": ("AB"[side] if side in (0, 1) else side) if central else None,
                "via": VIA_NAMES[v[4]] if 0 <= v[4] < len(VIA_NAMES) else v[4],
                "after": "CENTRAL" if v[5] == -2 else nm(v[5]),
                "overheated_before": bool(v[6]), "token_placed": not v[6], "already_activated": bool(v[7]),
                "wear": bool(v[9]),
                "action": v[11], "param": v[8],
                "params": decode_params(rules, mkind, t, seat, side if side in (0, 1) else 0, v[8],
                                        tr.cell.get(seat), tr.facing.get(seat), tr.robot_at)
                if mkind in ("attack", "move", "rotate") else {},
            })
            emit(ev)
        elif code == EV_ACT_END:
            ev = _base("activate_end", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "slot": v[2],
                       "module": "CENTRAL" if v[2] >= SLOT_C_ATTACK else nm(v[3]),
                       "destroyed_by_wear": bool(v[4]), "oneshot_to_box": bool(v[5]), "may_continue": bool(v[6])})
            emit(ev)
        elif code == EV_ROTATE:
            ev = _base("rotate", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "facing_before": v[2], "facing_after": v[3],
                       "cause": ("module", "whirl")[v[4]] if v[4] in (0, 1) else v[4], "by": _seat_or_none(v[5])})
            tr.facing[v[1]] = v[3]
            emit(ev)
        elif code == EV_STEP:
            ev = _base("step", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "from": _cell(rules, v[2]), "to": _cell(rules, v[3]),
                       "direction": v[4], "cause": STEP_CAUSES[v[5]] if 0 <= v[5] < 3 else v[5],
                       "by": _seat_or_none(v[6]), "jump": bool(v[7])})
            if v[7]:
                ev["passed_over"] = jump_over.pop(v[1], [])
            tr.cell[v[1]] = v[3]
            emit(ev)
        elif code == EV_JUMP_OVER:
            last = events[-1] if events else None
            if last is not None and last["event"] == "step" and last["jump"] and last["seat"] == v[1]:
                last["passed_over"].append(_cell(rules, v[2]))
            else:
                jump_over.setdefault(v[1], []).append(_cell(rules, v[2]))
        elif code == EV_STOPPED_SHORT:
            ev = _base("stopped_short", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "refused_cell": _cell(rules, v[2]),
                       "blocking_cell": _cell(rules, v[3])})
            emit(ev)
        elif code == EV_PUSH_EFFECT:
            ev = _base("push_effect", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "requested": v[2], "done": v[3]})
            emit(ev)
        elif code == EV_WHIRL_EFFECT:
            ev = _base("whirl_effect", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "sectors": abs(v[2]),
                       "sense": "counter-clockwise" if v[2] > 0 else "clockwise" if v[2] < 0 else None,
                       "signed_sectors": v[2]})
            emit(ev)
        elif code == EV_REDUCE:
            slot = v[2]
            reductions.setdefault(v[1], []).append({
                "slot": None if slot < 0 else slot, "module": "CENTRAL" if slot == SLOT_CENTRAL else nm(v[3]),
                "amount": v[4], "kind": REDUCTION_KINDS[v[5]] if 0 <= v[5] < len(REDUCTION_KINDS) else v[5]})
        elif code == EV_HIT:
            src, seat = v[1], v[5]
            ev = _base("hit", tr)
            if src <= -2:
                cell = -2 - src
                source: dict[str, Any] = {"kind": "terrain", "cell": _cell(rules, cell),
                                          "tile": nm(tr.exploded.get(cell, -1))}
            elif src == -1:
                source = {"kind": "central", "robot": robot_name(tr.active) if tr.active is not None else None,
                          "tile": "CENTRAL"}
            else:
                source = {"kind": "module", "tile": nm(src)}
            rel = v[9]
            ev.update({
                "source": source, "hit_kind": HIT_KINDS[v[2]] if 0 <= v[2] < len(HIT_KINDS) else v[2],
                "target_kind": TARGET_KINDS[v[3]] if 0 <= v[3] < len(TARGET_KINDS) else v[3],
                "cell": _cell(rules, v[4]), "seat": _seat_or_none(seat), "robot": _robot_or_none(seat),
                "damage": v[6], "heat": v[7], "incoming_direction": None if v[8] < 0 else v[8],
                "relative_sector": None if rel < 0 else rel, "sector": None if rel < 0 else SECTORS[rel % 6],
                "reductions": reductions.pop(seat, []) if seat >= 0 else [],
                "damage_after": v[10], "heat_after": v[11], "pending_damage_after": v[12] if seat >= 0 else None,
            })
            emit(ev)
            if seat >= 0 and v[11] > 0:
                heat_cause[seat] = ev
        elif code == EV_HEAT_ABSORB:
            ev = _base("heat_absorb", tr)
            ev["cause_seq"] = heat_cause.get(v[1])
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "slot": v[2],
                       "module": "CENTRAL" if v[2] == SLOT_CENTRAL else nm(v[3]), "shed": bool(v[4])})
            emit(ev)
        elif code == EV_SHED:
            ev = _base("shed", tr)
            ev["cause_seq"] = heat_cause.get(v[1])
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "slot": v[2],
                       "module": "CENTRAL" if v[2] == SLOT_CENTRAL else nm(v[3])})
            emit(ev)
        elif code == EV_HEAT_DAMAGE:
            ev = _base("heat_damage", tr)
            ev["cause_seq"] = heat_cause.get(v[1])
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "units": v[2], "pending_damage_after": v[3]})
            emit(ev)
        elif code == EV_EXPLOSION:
            ev = _base("explosion", tr)
            ev.update({"tile": nm(v[1]), "cell": _cell(rules, v[2]),
                       "cause": EXPLOSION_CAUSES[v[3]] if 0 <= v[3] < len(EXPLOSION_CAUSES) else v[3],
                       "set_off_by": _seat_or_none(v[4]), "set_off_by_robot": _robot_or_none(v[4])})
            tr.exploded[v[2]] = v[1]
            tr.tile[v[2]] = -1
            emit(ev)
        elif code == EV_WATER_DESTROYED:
            ev = _base("water_destroyed", tr)
            ev.update({"tile": nm(v[1]), "cell": _cell(rules, v[2]), "cause": "heat"})
            tr.tile[v[2]] = -1
            emit(ev)
        elif code == EV_WATER_COOL:
            ev = _base("water_cool", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "slot": None if v[2] < 0 else v[2],
                       "module": None if v[2] < 0 else "CENTRAL" if v[2] == SLOT_CENTRAL else nm(v[3])})
            emit(ev)
        elif code == EV_DISCARD:
            ev = _base("discard", tr, "discards")
            reason = DISCARD_REASONS[v[4]] if 0 <= v[4] < len(DISCARD_REASONS) else v[4]
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "module": nm(v[2]) if v[2] >= 0 else "CENTRAL",
                       "tile_type": ttype(v[2]), "destination": robot_name(v[3]) if v[3] >= 0 else "box",
                       "destination_seat": _seat_or_none(v[3]), "reason": reason, "pending_left": v[5]})
            emit(ev)
        elif code == EV_DESTROYED:
            ev = _base("destroyed", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1])})
            emit(ev)
        elif code == EV_END_CHECK:
            ev = _base("end_check", tr)
            n = rules.n_players
            ev.update({"result": END_REASONS[v[1]] if 0 <= v[1] < len(END_REASONS) else v[1],
                       "trophies": v[2 : 2 + n]})
            if rules.options.get("team"):
                ev["team_totals"] = v[6:8]
            emit(ev)
        elif code == EV_PICKUP:
            ev = _base("pickup", tr)
            inst = v[3]
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "cell": _cell(rules, v[2]),
                       "tile": nm(inst) if inst >= 0 else ("terrain" if inst == -1 else "empty"),
                       "tile_type": ttype(inst)})
            if inst >= 0:
                tr.tile[v[2]] = -1
            emit(ev)
        elif code == EV_LIMIT_DISCARD:
            ev = _base("module_limit_discard", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "module": nm(v[2]), "tile_type": ttype(v[2]),
                       "destination": robot_name(v[1])})
            emit(ev)
        elif code == EV_SIDE_SWITCH:
            ev = _base("side_switch", tr)
            ev.update({"seat": v[1], "robot": robot_name(v[1]), "step": f"E{v[2]}", "modules_incl_central": v[3],
                       "side_before": "AB"[v[4]] if v[4] in (0, 1) else v[4],
                       "side_after": "AB"[v[5]] if v[5] in (0, 1) else v[5]})
            tr.side[v[1]] = v[5]
            emit(ev)
        elif code == EV_AUTOCOOL:
            tok = {"seat": v[1], "robot": robot_name(v[1]), "slot": v[2],
                   "module": "CENTRAL" if v[2] == SLOT_CENTRAL else nm(v[3])}
            last = events[-1] if events else None
            if last is not None and last["event"] == "autocool":
                last["tokens"].append(tok)
            else:
                ev = _base("autocool", tr)
                ev["tokens"] = [tok]
                emit(ev)
        elif code == EV_REFILL:
            entry = {"cell": _cell(rules, v[1]), "tile": nm(v[2]), "tile_type": ttype(v[2]), "face_up": bool(v[3]),
                     "stack_after": v[4]}
            tr.tile[v[1]] = v[2]
            last = events[-1] if events else None
            if last is not None and last["event"] == "refill":
                last["cells"].append(entry)
                last["stack_after"] = v[4]
            else:
                ev = _base("refill", tr)
                ev.update({"cells": [entry], "stack_after": v[4]})
                emit(ev)
        elif code == EV_STACK_EXHAUSTED:
            ev = _base("stack_exhausted", tr)
            ev["cell"] = _cell(rules, v[1])
            emit(ev)
        elif code == EV_END_STEP:
            ev = _base("end_step", tr)
            ev.update({"step": f"E{v[1]}", "seat": v[2]})
            emit(ev)
        elif code == EV_TURN_END:
            ev = _base("turn_end", tr)
            ev.update({"seat": v[2], "robot": robot_name(v[2]), "turn_ended": v[1]})
            emit(ev)
        elif code == EV_GAME_END:
            ev = _base("game_end", tr)
            reason = v[1]
            ev.update({"reason": END_REASONS[reason] if 0 <= reason < len(END_REASONS) else reason,
                       "winners": [p for p in range(rules.n_players) if (v[3] >> p) & 1], "n_winners": v[4]})
            if reason == END_GEN3:
                ev["trigger"] = {"cell": _cell(rules, v[2])}
            else:
                ev["trigger"] = {"seat": _seat_or_none(v[2]), "robot": _robot_or_none(v[2])}
            emit(ev)
        else:
            ev = _base(EV_NAMES.get(code, f"code_{code}"), tr)
            ev["row"] = v[1:]
            emit(ev)
    if setup is not None:
        events.append(setup)
    if log[0, 1]:
        events.append(_base("log_truncated", tr))
    for k, ev in enumerate(events):
        ev["seq"] = k + 1
    for ev in events:  # heat events point at the hit that caused them (null when it is in another part)
        if "cause_seq" in ev and ev["cause_seq"] is not None:
            ev["cause_seq"] = ev["cause_seq"]["seq"]
    return events


def _data_sources(rules: Any) -> list[dict[str, Any]]:
    out = []
    for stem, path in sorted(rules.data.files.items()):
        entry: dict[str, Any] = {"file": stem, "name": Path(path).name}
        try:
            entry["sha256"] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            entry["sha256"] = None
        out.append(entry)
    return out


def start_event(rules: Any, rec: np.void, players: list[str], game_index: int) -> dict[str, Any]:
    """The ``game_start`` trace event (NOTES' ``header``): what a checker needs before the first row.

    It holds what the ruleset knows (data files, options, mode, teams, seat order, layout, every
    tile design and instance, each robot's board on both sides) and the record's seed and first
    player. What the set-up drew (the generation-2 selection and its random draws, the tiles
    returned to the box, the tile laid on each cell with its face, the generation-3 stack in draw
    order, the starters) is in the log's ``setup`` event, since this event may be built from a
    state of any later point of the game.
    """
    n = int(rec["n_players"])
    team = bool(rules.options.get("team"))
    fp = int(rec["first_player"])
    robots = []
    for p in range(n):
        robot = rules.data.robots[p % len(rules.data.robots)]
        robots.append({"seat": p, "robot": robot_name(p), "robot_id": robot.robot_id, "name_ru": robot.a.name_ru,
                       "name_en": robot.a.name_en, "sides": {"A": central_side(rules, p, 0),
                                                             "B": central_side(rules, p, 1)}})
    return {
        "event": "game_start",
        "type": "header",
        "seq": 0,
        "turn": 0,
        "active": None,
        "game": game_index,
        "seed": int(rec["seed"]),
        "players": list(players),
        "rules": {"game": "steel_arena", "package_version": __version__,
                  "rulebook": "rules/steel-arena.ru.txt", "digest": "research/steel-arena/NOTES.md",
                  "data": _data_sources(rules)},
        "options": dict(rules.options),
        "mode": rules.options.get("mode"),
        "team": team,
        "teams": [[p for p in range(n) if p % 2 == k] for k in (0, 1)] if team else None,
        "seat_order": list(range(n)),
        "first_player": fp if 0 <= fp < n else None,
        "first_player_reason": rules.options.get("first_player"),
        "layout": {"id": rules.options.get(f"layout_{n}p"),
                   "cells": [{"cell": [int(q), int(r)], "index": c, "is_edge": bool(e)}
                             for c, (q, r, _s, e) in enumerate(rules.cells)]},
        "directions": [list(d) for d in HEX_DIRECTIONS],
        "designs": [asdict(t) for t in rules.data.tiles],
        "instances": _instance_names(rules),
        "robots": robots,
    }


def _team_totals(rec: np.void, values: list[int]) -> list[int]:
    n = int(rec["n_players"])
    return [sum(values[p] for p in range(n) if int(rec["team_of"][p]) == k) for k in (0, 1)]


def final_event(rules: Any, rec: np.void) -> dict[str, Any]:
    """The ``final`` trace event of a finished game: reason, trophies, modules left, tie-breaks, winners, ranks."""
    n = int(rec["n_players"])
    names = _instance_names(rules)
    seats = []
    trophies = [int(rec["n_trophies"][p]) for p in range(n)]
    modules = [int(rec["final_modules"][p]) for p in range(n)]
    for p in range(n):
        nm = int(rec["n_mods"][p])
        seats.append({
            "seat": p, "robot": robot_name(p), "trophies": trophies[p],
            "trophy_tiles": [names[int(i)] for i in rec["trophies"][p, : trophies[p]] if 0 <= int(i) < len(names)],
            "modules_left": modules[p], "modules": [names[int(i)] for i in rec["mods"][p, :nm]
                                                    if 0 <= int(i) < len(names)],
            "side": "AB"[int(rec["side"][p])], "destroyed": bool(rec["destroyed"][p]),
            "rank": int(rec["rank"][p]), "winner": bool(rec["winner"][p]),
        })
    winners = [p for p in range(n) if rec["winner"][p]]
    team = bool(rec["team"])
    if team:
        keys = list(zip(_team_totals(rec, trophies), _team_totals(rec, modules), strict=True))
    else:
        keys = list(zip(trophies, modules, strict=True))
    top_t = max(k[0] for k in keys)
    tied_t = [i for i, k in enumerate(keys) if k[0] == top_t]
    steps = ["trophies"]
    if len(tied_t) > 1:
        steps.append("modules")
        top_m = max(keys[i][1] for i in tied_t)
        if sum(1 for i in tied_t if keys[i][1] == top_m) > 1:
            steps.append("draw")
    reason = int(rec["end_reason"])
    trig = int(rec["end_trigger"])
    ev = {
        "event": "final", "type": "final", "seq": None, "turn": int(rec["turn"]), "active": int(rec["active"]),
        "reason": END_REASONS[reason] if 0 <= reason < len(END_REASONS) else reason,
        "trigger": ({"cell": _cell(rules, trig)} if reason == END_GEN3 else
                    {"seat": _seat_or_none(trig), "robot": _robot_or_none(trig)}),
        "turns": int(rec["turn"]),
        "seats": seats,
        "tie_break": steps,
        "winners": winners,
        "draw": len(winners) != 1 if not team else len({int(rec["team_of"][w]) for w in winners}) != 1,
    }
    if team:
        ev["team_totals"] = {"trophies": _team_totals(rec, trophies), "modules": _team_totals(rec, modules)}
    return ev


# ---------------------------------------------------------------- the readable log


def _designs(events: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], bool]:
    for e in events:
        if e.get("event") == "game_start":
            return {d["tile_id"]: d for d in e.get("designs", [])}, e.get("mode") == "expert"
    return {}, False


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log: one line per meaningful event (snapshots and bookkeeping skipped).

    In basic mode it names hidden tiles only by type (picked-up, refilled, discarded and
    heat-absorbing modules), since a person may be playing while it scrolls; modules are named
    when they act (activation, armour). The JSON trace names everything.
    """
    designs, expert = _designs(events)

    def name(inst: str | None) -> str:
        if inst is None:
            return "nothing"
        if inst == "CENTRAL":
            return "the central module"
        d = designs.get(inst.split("#")[0])
        return f"{d['tile_id']} ({d['name_en']})" if d else inst

    def hidden(inst: str | None, kind: str | None = None) -> str:
        if expert or inst in (None, "CENTRAL"):
            return name(inst)
        d = designs.get(inst.split("#")[0]) if inst else None
        t = (d or {}).get("type", kind or "?")
        return f"a{'n' if t[0] in 'aeiou' else ''} {t} module"

    out: list[str] = []
    players: list[str] = []
    for e in events:
        kind = e.get("event")
        who = e.get("robot") or ""
        if kind == "game_start":
            players = e["players"]
            out.append(f"Steel Arena - game {e['game']} (game seed {e['seed']}), {len(players)} players, "
                       f"{e['mode']} mode{', teams ' + str(e['teams']) if e['team'] else ''}")
            for p, pl in enumerate(players):
                out.append(f"  {robot_name(p)} (seat {p}): {pl}")
        elif kind == "setup":
            fp = e.get("first_player")
            out.append(f"  field laid: {len(e['field'])} tiles; generation-3 stack: {len(e['gen3_stack'])} tiles"
                       + (f"; first player {robot_name(fp)} ({e['first_player_reason']})" if fp is not None else ""))
        elif kind == "place_robot":
            out.append(f"  {who} places its robot at {_cell_text(e['cell'])} facing {_facing_text(e['facing'])}")
        elif kind == "take_start_tile":
            got = hidden(e["tile"]) if e["tile"] else "nothing (no module there)"
            out.append(f"  {who} takes {got} from its start cell")
        elif kind == "turn_start":
            rb = next((r for r in e["snapshot"]["robots"] if r["seat"] == e["seat"]), None)
            pos = f" at {_cell_text(rb['cell'])} facing {_facing_text(rb['facing'])}, side {rb['side']}" if rb else ""
            out.append("")
            out.append(f"--- turn {e['turn']}: {who}{pos} ---")
        elif kind == "cool_all":
            out.append(f"  {who} cools all modules ({e['tokens_removed']} token(s) removed)")
        elif kind == "activate":
            mod = name(e["module"]) if e["module"] != "CENTRAL" else f"the central module ({e['property']})"
            via = {"first": "", "speed": " after a speed module", "wear_a": " by the wear rule (a)",
                   "wear_b": " by the wear rule (b)"}.get(e["via"], f" via {e['via']}")
            out.append(f"  {who} activates {mod}{via}: {_params_text(e['property'], e['params'])}")
        elif kind == "activate_end":
            extra = [x for x, f in (("destroyed by wear", e["destroyed_by_wear"]),
                                    ("one-shot: to the box", e["oneshot_to_box"])) if f]
            if extra:
                out.append(f"    {name(e['module'])}: {', '.join(extra)}")
        elif kind == "rotate":
            why = "" if e["cause"] == "module" else f" (whirled by {robot_name(e['by'])})" if e["by"] is not None \
                else " (whirled)"
            out.append(f"    {who} turns {_facing_text(e['facing_before'])} -> {_facing_text(e['facing_after'])}{why}")
        elif kind == "step":
            how = {"move": "moves", "shove": "is shoved", "push": "is pushed"}.get(e["cause"], e["cause"])
            if e["jump"]:
                how = "jumps"
            out.append(f"    {who} {how} {_cell_text(e['from'])} -> {_cell_text(e['to'])}")
        elif kind == "stopped_short":
            out.append(f"    {who} stops short (blocked at {_cell_text(e['blocking_cell'])})")
        elif kind == "hit":
            out.append("    " + _hit_text(e, name))
        elif kind == "explosion":
            out.append(f"    {name(e['tile'])} at {_cell_text(e['cell'])} explodes ({e['cause']})")
        elif kind == "water_destroyed":
            out.append(f"    water at {_cell_text(e['cell'])} evaporates")
        elif kind == "water_cool":
            out.append(f"    {who} cools {hidden(e['module']) if e['module'] else 'nothing'} (water)")
        elif kind == "heat_absorb":
            out.append(f"    {who} absorbs 1 heat with {hidden(e['module'])}" + (" (token shed)" if e["shed"] else ""))
        elif kind == "heat_damage":
            out.append(f"    {who} takes {e['units']} damage from heat not absorbed "
                       f"(pending {e['pending_damage_after']})")
        elif kind == "discard":
            dest = f"trophy for {e['destination']}" if e["destination"] != "box" else f"to the box ({e['reason']})"
            mod = "its central module" if e["module"] == "CENTRAL" else hidden(e["module"], e.get("tile_type"))
            out.append(f"  {who} discards {mod} -> {dest}")
        elif kind == "destroyed":
            out.append(f"  {who} is destroyed")
        elif kind == "pickup":
            if e["tile"] not in ("terrain", "empty"):
                out.append(f"  {who} picks up {hidden(e['tile'])} at {_cell_text(e['cell'])}")
        elif kind == "module_limit_discard":
            out.append(f"  {who} discards {hidden(e['module'])} for the module limit (own trophy)")
        elif kind == "side_switch":
            out.append(f"  {who} turns to side {e['side_after']} ({e['modules_incl_central']} modules incl. central)")
        elif kind == "refill":
            out.append(f"  refill: {', '.join(_cell_text(c['cell']) for c in e['cells'])}; "
                       f"stack {e['stack_after']} left")
        elif kind == "stack_exhausted":
            out.append(f"  the generation-3 stack is empty: {_cell_text(e['cell'])} cannot be filled")
        elif kind == "game_end":
            out.append(f"  game over: {e['reason']}")
        elif kind == "log_truncated":
            out.append("  (the event log was full: later events are missing)")
        elif kind == "final":
            out.append("")
            out.append("=== Final ===")
            out.append(f"  reason: {e['reason']} after {e['turns']} turns; "
                       f"tie-break steps: {' > '.join(e['tie_break'])}")
            out.append("  robot  player                    trophies  modules  side  rank")
            for s in e["seats"]:
                pl = players[s["seat"]] if s["seat"] < len(players) else ""
                mods = s["modules_left"]
                out.append(f"  {s['robot']:<5}  {pl[:24]:<24}  {s['trophies']:>8}  {mods:>7}  {s['side']:>4}  "
                           f"{s['rank']:>4}" + ("  destroyed" if s["destroyed"] else ""))
            if "team_totals" in e:
                out.append(f"  team 0 (seats 0+2), team 1 (seats 1+3): trophies {e['team_totals']['trophies']}, "
                           f"modules {e['team_totals']['modules']}")
            w = e["winners"]
            out.append(("  draw between " if e["draw"] else "  winner: ") + ", ".join(robot_name(p) for p in w))
    return out


def _params_text(prop: str, pr: dict[str, Any]) -> str:
    if prop == "rotate":
        text = f"rotate {pr['sectors']} {pr['sense']}"
        if "facing_after" in pr:
            text += f" ({pr['facing_before']} -> {pr['facing_after']})"
        return text
    if prop == "move":
        text = f"{pr['move_kind'].replace('_', '-')} {pr['distance']}"
        if pr["move_kind"] == "side_forward":
            text += f" {pr['variant']}"
        if "to" in pr:
            text += f" to {_cell_text(pr['to'])}"
        return text
    if prop == "attack":
        d = pr["delivery"]
        if d in ("beam", "sweep"):
            text = f"{d} " + ", ".join(_cell_text(c) for c in pr.get("cells", []))
        elif "target_cell" in pr:
            tgt = pr.get("target_robot") if pr["target"] == "robot" else "the cell"
            text = f"{d} at {tgt or 'the cell'} on {_cell_text(pr['target_cell'])}"
        else:
            text = f"{d} at target {pr['target_index']}"
        if pr.get("push"):
            text += f", push {pr['push']}"
        if pr.get("whirl") and pr["whirl"]["sectors"]:
            text += f", whirl {pr['whirl']['sectors']} {pr['whirl']['sense']}"
        if pr.get("effect_order") == "effect_first" and (pr.get("push") or (pr.get("whirl") or {}).get("sectors")):
            text += " (effect first)"
        return text
    return ""


def _hit_text(e: dict[str, Any], name: Any) -> str:
    tk = e["target_kind"]
    target = e["robot"] if tk == "robot" else {"terrain": "terrain", "module_tile": "a module tile",
                                               "empty": "the empty cell"}.get(tk, tk)
    src = e["source"]
    by = f" ({e['hit_kind']})" if e["hit_kind"] != "primary" else ""
    if src["kind"] == "terrain":
        by = f" ({e['hit_kind']}: explosion at {_cell_text(src['cell'])})"
    what = []
    if e["damage"]:
        what.append(f"{e['damage']} damage")
    if e["heat"]:
        what.append(f"{e['heat']} heat")
    text = f"hit {target} at {_cell_text(e['cell'])}{by}: {' + '.join(what) or 'nothing'}"
    if tk == "robot":
        reds = [f"{name(r['module']) if r['module'] else 'cover'} -{r['amount']}" for r in e["reductions"]]
        if reds:
            text += f" ({', '.join(reds)})"
        text += f" -> {e['damage_after']} damage"
        if e["heat"]:
            text += f", {e['heat_after']} heat"
        if e.get("sector"):
            text += f" [from the {e['sector'].replace('_', ' ')}]"
        text += f"; pending {e['pending_damage_after']}"
    return text
