"""Kernel event-log rows as Steel Arena trace events (docs/trace.md, "Steel Arena events")."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.steel_arena.codes import (
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
    TILE_TYPES,
)
from simlab.games.steel_arena.render.actions import decode_params
from simlab.games.steel_arena.render.names import (
    SECTORS,
    _cell,
    _design,
    _instance_names,
    _robot_or_none,
    _seat_or_none,
    robot_name,
)
from simlab.games.steel_arena.state import (
    END_GEN3,
    END_REASONS,
)


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
