"""Kernel event-log rows as trace events: each rules module's ``EVENT_FIELDS`` names a row's columns
(eventlog.py), :func:`decode_field` turns a column into a JSON value by the name's suffix, and
``EV_DECK_ORDER`` rows are merged into one ``deck_order`` event per list."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AG_AUTOMA2,
    AREA_NAMES,
    COUNCIL_SLOT_NAMES,
    COUNCIL_TIEBREAK_NAMES,
    DECIDED_BY_NAMES,
    DECK_NAMES,
    END_BRANCHES,
    EV_AUTOMA_FLIP,
    EV_AUTOMA_MOVE,
    EV_AUTOMA_SYMBOL,
    EV_CHOICE,
    EV_CONFLICT,
    EV_CONQUER,
    EV_COUNCIL_AUTOMA_VP,
    EV_COUNCIL_CALLED,
    EV_COUNCIL_REWARD,
    EV_COUNCIL_VOTES,
    EV_DECK_ORDER,
    EV_GAME_END,
    EV_GAME_START,
    EV_PROVINCE_LIMIT,
    EV_ROUND_SETUP,
    EV_TIMER_FLIP,
    EV_TRACK,
    EVENT_NAMES,
    FINAL_PREF_NAMES,
    FL_ROUND_START,
    FLIPPER_NAMES,
    LOG_WIDTH,
    PENDING_NAMES,
    PH_COUNCIL,
    PH_OVER,
    PH_START,
    PH_STEP5,
    PH_TRIM,
    PHASE_NAMES,
    RESOURCE_NAMES,
    ROW_NAMES,
    SLOT_NAMES,
    TIME_MODELS,
    TIMER_NAMES,
    TRACK_NAMES,
    TRIGGER_NAMES,
)
from simlab.games.pendulum.eventlog import FIELD0, N_FIELDS
from simlab.games.pendulum.render.actions import action_name
from simlab.games.pendulum.render.names import (
    PART_NAMES,
    _bits,
    _names,
    acard_id,
    achievement_id,
    actor_name,
    agent_name,
    character_name,
    council_id,
    province_id,
    space_id,
    strat_name,
    symbol_name,
)
from simlab.games.pendulum.render.words import effect_text
from simlab.games.pendulum.tables import (
    COUNCIL_KINDS,
    FLIP_NAMES,
    LEVELS,
)

# the rules modules whose EVENT_FIELDS name the log's columns (shared brief, "EVENT_FIELDS")
RULES_MODULES = ("effects", "workers", "automa", "timers", "realtime", "rules", "council", "endgame")
TRACE_PHASES = ("setup", "real_time", "council_called", "council")  # the trace's ``phase`` values




def event_layouts() -> dict[int, list[tuple[str, tuple[str, ...]]]]:
    """Every rules module's ``EVENT_FIELDS``: event code -> [(module, field names)], in ``RULES_MODULES`` order."""
    out: dict[int, list[tuple[str, tuple[str, ...]]]] = {}
    for name in RULES_MODULES:
        try:
            mod = importlib.import_module(f"simlab.games.pendulum.{name}")
        except ImportError:
            continue
        for code, fields in getattr(mod, "EVENT_FIELDS", {}).items():
            out.setdefault(int(code), []).append((name, tuple(fields)))
    return out


def event_fields() -> dict[int, tuple[str, ...]]:
    """Every declared event's fields (the first module's layout where several declare one)."""
    return {code: layouts[0][1] for code, layouts in event_layouts().items()}


_COUNCIL_PHASES = (PH_COUNCIL, PH_TRIM, PH_STEP5, PH_OVER)


def choose_layout(layouts: list[tuple[str, tuple[str, ...]]], code: int, actor: int, phase: int,
                  solo: bool) -> tuple[str, tuple[str, ...]]:
    """The layout of one row where several modules declare its event (they log different rows of it).

    The Automa module's layout is used for the Automas' rows (actor ``automa1``/``automa2``) and for
    the solo ``game_end`` rows; the council module's for rows logged in a council phase; otherwise
    the first other module's.
    """
    if len(layouts) == 1:
        return layouts[0]
    by = dict(layouts)
    if "automa" in by and (actor in (AG_AUTOMA1, AG_AUTOMA2) or (solo and code == EV_GAME_END)):
        return "automa", by["automa"]
    others = [lay for lay in layouts if lay[0] != "automa"]
    if not others:
        return layouts[0]
    if phase in _COUNCIL_PHASES and "council" in by:
        return "council", by["council"]
    non_council = [lay for lay in others if lay[0] != "council"]
    if phase not in _COUNCIL_PHASES and non_council:
        return non_council[0]
    return others[0]


# Fields the suffix rules would misread or name too little, by field name, or by (event code, field name) where
# the name alone is too common. Kinds: ("names", module, attribute) a module's tuple of value names, ("table",
# tuple) value names, ("bits", module, ((attribute, name), ...)) a mask of named bits, "int", "spaces" (a mask of
# action spaces), "seats" (a mask of seats), "timers" (a mask of timers), "achievement", "conquer_source",
# "action", "seed_word".
FIELD_KINDS: dict[Any, Any] = {
    "label_space": "int",  # an Automa score-track space, not an action space
    "automa_score": "int",
    "achievement_row": "achievement",  # an achievement card, not a board row
    "time_model": ("table", TIME_MODELS),
    "character_side": ("table", ("basic", "advanced", "random")),
    "automa_how": ("names", "automa", "REWARD_HOW_NAMES"),
    "modifier_mask": ("bits", "workers", (("MOD_FREE", "free_action"), ("MOD_DOUBLE", "double_action"),
                                          ("MOD_ADJACENT", "adjacent_action"), ("MOD_TIMED_PLACE", "timed_place"))),
    (EV_AUTOMA_MOVE, "before_mask"): "spaces",  # bit d: an Automa worker on action space d
    (EV_AUTOMA_FLIP, "reason"): ("names", "automa", "FLIP_REASON_NAMES"),
    (EV_AUTOMA_SYMBOL, "result"): ("names", "automa", "SYMBOL_RESULT_NAMES"),
    (EV_CONQUER, "source"): "conquer_source",  # display position 0..3 or 4 = the deck top
    (EV_CHOICE, "action"): "action",  # an action code (-1: none, the decision was dropped)
    (EV_CONFLICT, "action"): "action",  # the action the overtaking seat took (the contested object)
    "decided_by": ("table", DECIDED_BY_NAMES),
    "tiebreak": ("table", COUNCIL_TIEBREAK_NAMES),
}


def _module_attr(module: str, attr: str) -> Any:
    try:
        return getattr(importlib.import_module(f"simlab.games.pendulum.{module}"), attr, None)
    except ImportError:
        return None


def decode_row(rules: Any, solo: bool, names: tuple[str, ...], code: int, values: list[int]) -> dict[str, Any]:
    """One log row's fields as JSON values (:func:`decode_field`, with the exceptions of ``FIELD_KINDS``)."""
    out: dict[str, Any] = {}
    for i, fname in enumerate(names[:N_FIELDS]):
        v = int(values[i])
        kind = FIELD_KINDS.get((code, fname), FIELD_KINDS.get(fname))
        if kind is None:
            key, val = decode_field(rules, solo, fname, v)
            out[key] = val
        elif kind == "int":
            out[fname] = v
        elif kind == "spaces":
            out[fname] = [space_id(rules, d) for d in _bits(v)]
        elif kind == "seats":
            out[fname] = [agent_name(p, solo) for p in _bits(v)]
        elif kind == "timers":
            out[fname] = [TIMER_NAMES[k] for k in _bits(v) if k < 3]
        elif kind == "achievement":
            out[fname] = achievement_id(rules, v)
        elif kind == "conquer_source":
            out[fname] = f"display{v + 1}" if 0 <= v < 4 else "deck_top" if v == 4 else None
        elif kind == "action":
            out[fname] = None if v < 0 else v
            out[f"{fname}_name"] = None if v < 0 else action_name(rules, v)
        elif kind[0] == "table":
            out[fname] = _names(kind[1], v)
        elif kind[0] == "names":
            table = _module_attr(kind[1], kind[2])
            out[fname] = _names(tuple(table), v) if table is not None else v
        else:  # bits
            out[fname] = [nm for attr, nm in kind[2] if v & int(_module_attr(kind[1], attr) or 0)]
    if code == EV_TRACK and out.get("track") == "legendary" and str(out.get("player", "")).startswith("automa"):
        out["track"] = "automa_score"
    if code == EV_GAME_START and "seed_w0" in out:
        out["seed"] = sum(int(out[f"seed_w{k}"]) << (16 * k) for k in range(4) if f"seed_w{k}" in out)
    return out



def decode_field(rules: Any, solo: bool, name: str, v: int) -> tuple[str, Any]:
    """A log column as ``(key, JSON value)``, by its name's suffix (the shared brief's conventions)."""
    v = int(v)
    if name.startswith(("is_", "has_", "triggers_")):
        return name, bool(v)
    if name.startswith("n_"):
        return name, v  # a count, whatever its suffix (n_under_slot)
    if name.endswith("_ds"):
        return name[:-3] + "_s", v / 10.0
    if name in ("seat", "player", "agent", "actor") or name.endswith(("_seat", "_player", "_agent")):
        return name, agent_name(v, solo)
    if name.endswith("mask"):
        bits = _bits(v)
        if "timer" in name or "due" in name or "flip" in name:
            return name, [TIMER_NAMES[k] for k in bits if k < 3]
        if "slot" in name:
            return name, [SLOT_NAMES[k] for k in bits if k < 4]
        if "seat" in name or "player" in name or "winner" in name:
            return name, [agent_name(k, solo) for k in bits]
        return name, bits
    if name.endswith("space"):
        return name, space_id(rules, v)
    if name.endswith("acard"):
        return name, acard_id(rules, v)
    if name.endswith("card") and ("ach" in name):
        return name, achievement_id(rules, v)
    if name.endswith("card"):
        return name, council_id(rules, v)
    if name.endswith("province"):
        return name, province_id(rules, v)
    if name.endswith("achievement"):
        return name, achievement_id(rules, v)
    if name.endswith("strat"):
        return name, strat_name(rules, v)
    if name.endswith("effect"):
        return name, effect_text(rules, v)
    if name.endswith("timer"):
        return name, _names(TIMER_NAMES, v)
    if name.endswith("row"):
        return name, _names(ROW_NAMES, v)
    if name.endswith("track"):
        return name, _names((*TRACK_NAMES, "legendary"), v)
    if name.endswith("resource"):
        return name, _names((*RESOURCE_NAMES, "votes"), v)
    if name.endswith("slot") and not any(x in name for x in ("display", "discard", "council", "reading")):
        return name, _names(SLOT_NAMES, v)
    if name.endswith("flipper"):
        return name, _names(FLIPPER_NAMES, v)
    if name.endswith("trigger"):
        return name, _names(TRIGGER_NAMES, v)
    if name.endswith("branch"):
        return name, _names(END_BRANCHES, v)
    if name.endswith("deck"):
        return name, _names(DECK_NAMES, v)
    if name.endswith("phase"):
        return name, _names(PHASE_NAMES, v)
    if name.endswith("level"):
        return name, _names(LEVELS, v)
    if name.endswith("part"):
        return name, _names(PART_NAMES, v)
    if name.endswith(("character", "char")):
        return name, character_name(rules, v)
    if name.endswith("area"):
        return name, _names(AREA_NAMES, v)
    if name.endswith("combo"):
        return name, _names(FLIP_NAMES, v)
    if name.endswith("symbol"):
        return name, symbol_name(rules, v)
    if name.endswith("pref"):
        return name, _names(FINAL_PREF_NAMES, v)
    if name in ("pending", "pending_kind"):
        return name, _names(PENDING_NAMES, v)
    if name.endswith("council_slot"):
        return name, _names(COUNCIL_SLOT_NAMES, v)
    if name.endswith("card_kind") or (name.endswith("kind") and "council" in name):
        return name, _names(COUNCIL_KINDS, v)
    return name, v


def deck_values(rules: Any, deck: int, values: list[int], solo: bool) -> list[Any]:
    """The entries of a ``deck_order`` list as names (province numbers, card ids, agents, spaces)."""
    if deck in (0, 8):  # provinces, display
        return [province_id(rules, v) for v in values]
    if deck == 1:
        return [achievement_id(rules, v) for v in values]
    if deck in (2, 3, 7):
        return [council_id(rules, v) for v in values]
    if deck in (4, 9):  # automa, automa_setup
        return [acard_id(rules, v) for v in values]
    if deck == 5:
        return [agent_name(v, solo) for v in values]
    if deck == 6:
        return [space_id(rules, v) for v in values]
    return list(values)


class _PhaseTracker:
    """The trace phase (setup, real_time, council_called, council) as the events tell it."""

    def __init__(self) -> None:
        self.mode = "setup"

    def phase_of(self, code: int, header_phase: int, fields: dict[str, Any]) -> str:
        if code == EV_TIMER_FLIP and fields.get("flipper") == FLIPPER_NAMES[FL_ROUND_START]:
            self.mode = "real_time"
        elif code == EV_COUNCIL_CALLED:
            self.mode = "council_called"
        elif code in (EV_COUNCIL_AUTOMA_VP, EV_COUNCIL_VOTES, EV_COUNCIL_REWARD, EV_PROVINCE_LIMIT,
                      EV_ROUND_SETUP):
            self.mode = "council"
        if header_phase == PH_START:
            return "setup"
        if header_phase in (PH_COUNCIL, PH_TRIM, PH_STEP5, PH_OVER) and self.mode != "setup":
            self.mode = "council"
        return self.mode


def _base(name: str, seq: int, row: Any, phase: str, solo: bool) -> dict[str, Any]:
    step = int(row[4])
    return {
        "event": name, "type": "game_start" if name == "setup" else name, "seq": seq,
        "round": int(row[2]), "phase": phase, "state_phase": _names(PHASE_NAMES, int(row[3])),
        "schedule_step": None if step < 0 else step, "t": int(row[5]) / 10.0,
        "actor": actor_name(int(row[6]), solo), "cause_seq": None,
    }


def log_to_events(rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
    """Trace events from a kernel event log (rows as eventlog.py documents them).

    Each row becomes one event named ``codes.EVENT_NAMES`` (the ``game_start`` row becomes
    ``setup``: the trace's ``game_start`` is the header :func:`start_event` builds), its fields
    decoded by name (:func:`decode_field`). Consecutive ``EV_DECK_ORDER`` rows of one list are
    one ``deck_order`` event with ``deck`` and ``cards``. ``seq`` runs 1, 2, … (``game_start`` is
    0); ``cause_seq`` is the seq of the event whose row the header's cause names (null for none).

    A log handed over in parts (``simlab play`` streams each decision's rows; a part is a log whose
    first row is not the set-up's ``EV_GAME_START``) numbers ``seq`` from 1 in every part, has
    ``cause_seq`` null (the rows' causes are rows of the whole log) and starts ``phase`` from the
    first row's kernel phase (``council_called`` is known only from its event); a whole game's log
    gives them all.
    """
    layouts = event_layouts()
    solo = int(rules.n_players) == 1
    n_rows = int(log[0, 0])
    events: list[dict[str, Any]] = []
    row_seq: dict[int, int] = {}
    tracker = _PhaseTracker()
    whole = n_rows == 0 or int(log[1, 0]) == EV_GAME_START  # else a part handed over by ``simlab play``
    if not whole:
        first = int(log[1, 3])
        tracker.mode = "setup" if first == PH_START else "council" if first in _COUNCIL_PHASES else "real_time"
    deck: dict[str, Any] | None = None
    for r in range(1, n_rows + 1):
        row = log[r]
        code = int(row[0])
        if code == EV_DECK_ORDER:
            d, start, k = int(row[FIELD0]), int(row[FIELD0 + 1]), int(row[FIELD0 + 2])
            vals = [int(x) for x in row[FIELD0 + 3: FIELD0 + 3 + max(0, min(k, N_FIELDS - 3))]]  # k: values in the row
            if deck is not None and deck["_deck"] == d and start == deck["_next"] and start > 0:
                deck["_raw"].extend(vals)
                deck["_next"] = start + len(vals)
                row_seq[r] = deck["seq"]
                continue
            deck = _base("deck_order", len(events) + 1, row, tracker.mode if int(row[3]) != PH_START else "setup",
                         solo)
            deck.update({"deck": _names(DECK_NAMES, d), "_deck": d, "_next": start + len(vals), "_raw": vals})
            cause = int(row[1])
            deck["cause_seq"] = row_seq.get(cause) if cause > 0 and whole else None
            row_seq[r] = deck["seq"]
            events.append(deck)
            continue
        deck = None
        name = EVENT_NAMES[code] if 0 <= code < len(EVENT_NAMES) else f"code_{code}"
        if code == EV_GAME_START:
            name = "setup"
        decoded: dict[str, Any] = {}
        values = [int(x) for x in row[FIELD0:LOG_WIDTH]]
        if code not in layouts:
            decoded["row"] = values
        else:
            _module, names = choose_layout(layouts[code], code, int(row[6]), int(row[3]), solo)
            decoded = decode_row(rules, solo, names, code, values)
        phase = tracker.phase_of(code, int(row[3]), decoded)
        ev = _base(name, len(events) + 1, row, phase, solo)
        cause = int(row[1])
        ev["cause_seq"] = row_seq.get(cause) if cause > 0 and whole else None
        for key, val in decoded.items():
            ev[f"field_{key}" if key in ev else key] = val
        row_seq[r] = ev["seq"]
        events.append(ev)
    for ev in events:
        if ev["event"] == "deck_order":
            ev["cards"] = deck_values(rules, ev["_deck"], ev.pop("_raw"), solo)
            ev["size"] = len(ev["cards"])
            del ev["_deck"], ev["_next"]
    if n_rows and int(log[0, 1]):
        last = events[-1] if events else None
        ev = {"event": "log_truncated", "type": "log_truncated", "seq": len(events) + 1,
              "round": last["round"] if last else None, "phase": last["phase"] if last else "setup",
              "state_phase": None, "schedule_step": None, "t": last["t"] if last else 0.0, "actor": "system",
              "cause_seq": None}
        events.append(ev)
    return events
