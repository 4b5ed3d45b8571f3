"""Steel Arena's actions: their codes' fields, a one-line description of each, and the menu a person
picks from (the module first, then what it does)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.steel_arena.codes import (
    A_ACT,
    A_COOL,
    A_NONE,
    A_PICK,
    A_PLACE,
    A_STOP,
    PARAM_SPAN,
    SLOT_C_ATTACK,
    SLOT_C_MOVE,
    SLOT_C_ROTATE,
    SLOT_CENTRAL,
)
from simlab.games.steel_arena.data import (
    COLOUR_OF_TYPE,
    TILE_TYPES,
)
from simlab.games.steel_arena.render.names import (
    _axial_step,
    _cell,
    _cell_text,
    _design,
    _facing_text,
    _line_of_fire,
    _robot_at,
    _robot_or_none,
    _seat_or_none,
    _whirl_of,
    central_side,
    central_summary,
    robot_name,
    tile_name,
    tile_name_printed,
    tile_summary,
)
from simlab.games.steel_arena.state import (
    PH_HEAT,
    PH_LIMIT,
    PH_WATER,
)


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
