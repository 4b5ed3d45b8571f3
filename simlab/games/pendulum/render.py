"""Pendulum as text: action descriptions, the board, menus, trace events and the readable log.

Identities used everywhere (docs/trace.md, "Pendulum events"):

* agents: ``"P1"``..``"P5"`` for seats 0..4 (``"human"`` for the seat of a solo game),
  ``"neutral"`` (the 2-player neutral), ``"automa1"``, ``"automa2"``, and ``"system"`` as an
  event's actor when nobody acts (setup, schedule steps, council bookkeeping);
* an action space by its ``action_spaces.csv`` id (``"1-3p:green:top:1"``); -1 is ``"mat"``,
  -2 ``"reserve"``, -3 ``"gone"``;
* council cards by their printed id (``"7"``, ``"F3"``, ``"GRANDE"``, ``"DEFAULT"``), provinces
  by card number, Automa cards by card id, stratagems by name, effects by their token text
  (NOTES V.1), tracks ``power``/``prestige``/``popularity``, resources
  ``military``/``culture``/``gold``, mat slots ``brown``/``red``/``blue``/``yellow``, timers
  ``purple``/``green``/``black``, rows ``top``/``bottom``;
* a worker ``w`` of a seat as ``W1``..``W4`` (slot w + 1), grande or common.

The trace is built generically: each rules module declares ``EVENT_FIELDS`` (the names of its
events' columns, eventlog.py), and :func:`decode_field` turns a column into a JSON value by
the name's suffix (the shared brief's conventions). ``EV_DECK_ORDER`` rows are merged into one
``deck_order`` event per list.
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simlab.games.pendulum.codes import (
    A_ACTION,
    A_CLAIM,
    A_CONQUER,
    A_COUNCIL,
    A_FLIP,
    A_LIFT,
    A_MOVE,
    A_NO,
    A_PASS,
    A_PICKUP,
    A_REFILL,
    A_RES,
    A_RETURN,
    A_SPACE,
    A_STRAT,
    A_SWAPVP,
    A_TRACK,
    A_TRIM,
    A_WORKER,
    A_YES,
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    AREA_NAMES,
    COUNCIL_SLOT_NAMES,
    COUNCIL_TIEBREAK_NAMES,
    DECIDED_BY_NAMES,
    DECK_NAMES,
    DEST_MAT,
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
    N_DEST,
    OPT_AUTOMA_PARCHMENT_FIRST,
    OPT_LEVEL,
    OPT_PARCHMENT_BEYOND_ENTRY,
    OPT_PARCHMENT_FIRST,
    OPT_READ_ORDER0,
    OPT_RES_CAP,
    OPT_TIME_MODEL,
    OPT_TRACK_LAST,
    PD_ADJACENT,
    PD_ALT,
    PD_CONQUER,
    PD_GLORY,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_TIMED_PLACE,
    PD_VP_ANY,
    PD_WILD_PAY,
    PENDING_NAMES,
    PH_COUNCIL,
    PH_OVER,
    PH_PENDING,
    PH_REAL,
    PH_REPLACE,
    PH_START,
    PH_STEP5,
    PH_TRIM,
    PHASE_NAMES,
    RESOURCE_NAMES,
    ROW_NAMES,
    SLOT_NAMES,
    T_PURPLE,
    TIME_MODELS,
    TIMER_NAMES,
    TRACK_NAMES,
    TRIGGER_NAMES,
    W_GONE,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.eventlog import FIELD0, N_FIELDS
from simlab.games.pendulum.state import STREAM_NAMES
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
    C_DEFAULT,
    C_GRANDE,
    CH_ADVANCED,
    CH_PROD0,
    CH_START_RES0,
    CH_START_TRACK0,
    CH_START_VOTES,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    COUNCIL_KINDS,
    EF_CONQUER,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VOTES,
    EF_VP_ANY,
    EF_WILD,
    FLIP_NAMES,
    FRAME_NAMES,
    LEVELS,
    SP_AREA,
    SP_AUTOMA_LARGE,
    SP_COMMON_BLOCKED,
    SP_COST,
    SP_FRAME,
    SP_NALT,
    SP_NEUTRAL,
    SP_POS,
    SP_REWARD0,
    SP_ROW,
    SPECIAL_NAMES,
    ST_COST,
    ST_EFFECT,
    TR_DIST,
    TR_GIDX,
    TR_KIND,
    TR_LABEL,
    TR_PIDX,
    TRACK_KINDS,
)

# the rules modules whose EVENT_FIELDS name the log's columns (shared brief, "EVENT_FIELDS")
RULES_MODULES = ("effects", "workers", "automa", "timers", "realtime", "rules", "council", "endgame")
PART_NAMES = ("top_frame", "bottom_box")
PHASE_TEXT = {
    PH_START: "start of play: place your grande, then your common worker, on a bottom-row space",
    PH_REAL: "real-time phase",
    PH_PENDING: "a decision to finish",
    PH_REPLACE: "place the lifted worker again (the Automa has acted)",
    PH_COUNCIL: "council step 2: take a council reward",
    PH_TRIM: "council step 3: remove provinces over the limit",
    PH_STEP5: "council step 5: place and move workers (no other actions)",
    PH_OVER: "game over",
}
TRACE_PHASES = ("setup", "real_time", "council_called", "council")  # the trace's ``phase`` values


# ---------------------------------------------------------------- names


def agent_name(a: int, solo: bool) -> str | None:
    """``P1``.. for a seat (``human`` in solo), ``neutral``, ``automa1``, ``automa2``; None for -1."""
    a = int(a)
    if a == AG_NEUTRAL:
        return "neutral"
    if a == AG_AUTOMA1:
        return "automa1"
    if a == AG_AUTOMA2:
        return "automa2"
    if 0 <= a < 5:
        return "human" if solo else f"P{a + 1}"
    return None


def actor_name(a: int, solo: bool) -> str:
    """An event's ``actor``: an agent name, or ``system``."""
    return agent_name(a, solo) or "system"


def seat_tag(p: int) -> str:
    """``P1``.. (the board's short name of a seat, also in solo)."""
    return f"P{int(p) + 1}"


def _tables(rules: Any) -> np.void:
    return rules.tables[0]


def _helper(rules: Any, name: str, i: int, fallback: str) -> Any:
    fn = getattr(rules, name, None)
    if fn is None:
        return fallback
    try:
        return fn(int(i))
    except (IndexError, KeyError, ValueError):
        return fallback


def space_id(rules: Any, d: int) -> str | None:
    """A space's id (``1-3p:green:top:1``), ``mat`` (-1), ``reserve`` (-2), ``gone`` (-3)."""
    d = int(d)
    if d in (W_MAT, DEST_MAT):
        return "mat"
    if d == W_RESERVE:
        return "reserve"
    if d == W_GONE:
        return "gone"
    if d < 0 or d >= int(_tables(rules)["n_spaces"]):
        return None
    return _helper(rules, "space_id", d, f"space{d}")


def council_id(rules: Any, c: int) -> str | None:
    """A council card's printed id (``7``, ``F3``, ``GRANDE``, ``DEFAULT``); None for -1."""
    c = int(c)
    if c < 0:
        return None
    fallback = "GRANDE" if c == C_GRANDE else "DEFAULT" if c == C_DEFAULT else f"F{c - 24}" if c >= 25 else str(c + 1)
    return str(_helper(rules, "council_id", c, fallback))


def province_id(rules: Any, i: int) -> Any:
    """A province card's number; None for -1."""
    i = int(i)
    return None if i < 0 else _helper(rules, "province_id", i, i + 1)


def acard_id(rules: Any, i: int) -> Any:
    """An Automa card's id; None for -1."""
    i = int(i)
    return None if i < 0 else _helper(rules, "acard_id", i, i + 1)


def strat_name(rules: Any, i: int) -> str | None:
    """A stratagem's name; None for -1."""
    i = int(i)
    return None if i < 0 else str(_helper(rules, "strat_name", i, f"stratagem {i}"))


def character_name(rules: Any, row: int) -> str | None:
    """A character row's persona (``Bolk, The Champion``); None for -1."""
    row = int(row)
    return None if row < 0 else str(_helper(rules, "character_name", row, f"character {row}"))


def achievement_id(rules: Any, i: int) -> Any:
    """An achievement card's number; None for -1."""
    i = int(i)
    if i < 0:
        return None
    fn = getattr(rules, "achievement_id", None) or getattr(rules, "ach_id", None)
    try:
        return fn(i) if fn is not None else i + 1
    except (IndexError, KeyError, ValueError):
        return i + 1


def symbol_name(rules: Any, i: int) -> Any:
    """An Automa reward symbol's name; None for -1."""
    i = int(i)
    if i < 0:
        return None
    fn = getattr(rules, "symbol_name", None)
    if fn is not None:
        try:
            return fn(i)
        except (IndexError, KeyError, ValueError):
            return i
    syms = getattr(getattr(rules, "data", None), "symbols", None)
    try:
        row = syms[i]
        return getattr(row, "symbol", row if isinstance(row, str) else i)
    except (TypeError, IndexError, KeyError):
        return i


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def alt_words(t: np.void, e: int, alt: int, cost: bool = False) -> str:
    """One alternative of effect ``e`` in words (``+2 military, +1 power VP``; a cost without the ``+``)."""
    row = t["eff"][int(e), int(alt)]
    sign = "" if cost else "+"
    parts: list[str] = []
    for r, name in enumerate(RESOURCE_NAMES):
        if row[r]:
            parts.append(f"{sign}{int(row[r])} {name}")
    if row[EF_WILD]:
        parts.append(f"{sign}{int(row[EF_WILD])} wild")
    if row[EF_VOTES]:
        parts.append(f"{sign}{_plural(int(row[EF_VOTES]), 'vote')}")
    for k, name in enumerate(TRACK_NAMES):
        if row[5 + k]:
            parts.append(f"{sign}{int(row[5 + k])} {name} VP")
    if row[EF_VP_ANY]:
        parts.append(f"{sign}{int(row[EF_VP_ANY])} VP of your choice")
    if row[EF_LEGENDARY]:
        parts.append("the legendary VP")
    if row[EF_PROD]:
        slots = [SLOT_NAMES[m] for m in range(4) if int(row[EF_PROD]) >> m & 1]
        parts.append(" + ".join(f"{m} production" for m in slots))
    if row[EF_CONQUER]:
        parts.append(f"conquer {int(row[EF_CONQUER])}")
    if row[EF_RETRIEVE]:
        parts.append(f"retrieve {int(row[EF_RETRIEVE])} worker")
    if row[EF_RECRUIT]:
        parts.append(f"recruit {int(row[EF_RECRUIT])} worker")
    sp = int(row[EF_SPECIAL])
    if sp:
        parts.append(SPECIAL_NAMES[sp] if 0 <= sp < len(SPECIAL_NAMES) else f"special {sp}")
    return ", ".join(parts) if parts else ("free" if cost else "nothing")


def effect_words(rules: Any, e: int, cost: bool = False) -> str:
    """Effect ``e`` in words: every alternative, joined by `` | ``."""
    e = int(e)
    t = _tables(rules)
    if e <= 0:
        return "free" if cost else "nothing"
    n = max(1, int(t["eff_nalt"][e]))
    return " | ".join(alt_words(t, e, a, cost) for a in range(n))


def effect_text(rules: Any, e: int) -> str | None:
    """Effect ``e`` as token text (NOTES V.1), from the ruleset; None for -1."""
    e = int(e)
    if e < 0:
        return None
    return str(_helper(rules, "effect_text", e, effect_words(rules, e)))


def space_words(rules: Any, d: int, with_cost: bool = True) -> str:
    """``green top 1 (double): +1 power VP, +2 votes | +2 popularity VP [cost 2 gold]``."""
    d = int(d)
    if d in (W_MAT, DEST_MAT):
        return "the mat"
    if d < 0:
        return space_id(rules, d) or "nowhere"
    t = _tables(rules)
    if d >= int(t["n_spaces"]):
        raise IndexError(f"space {d} is not on this board side")
    sp = t["sp"][d]
    frame = int(sp[SP_FRAME])
    head = f"{AREA_NAMES[int(sp[SP_AREA])]} {ROW_NAMES[int(sp[SP_ROW])]} {int(sp[SP_POS])} ({FRAME_NAMES[frame]})"
    rewards = " | ".join(effect_words(rules, int(sp[SP_REWARD0 + k])) for k in range(max(1, int(sp[SP_NALT]))))
    text = f"{head}: {rewards}"
    cost = int(sp[SP_COST])
    if with_cost and cost > 0:
        text += f" [cost {effect_words(rules, cost, cost=True)}]"
    return text


def space_short(rules: Any, d: int) -> str:
    """``green top 1``; ``the mat``."""
    d = int(d)
    if d in (W_MAT, DEST_MAT):
        return "the mat"
    if d < 0:
        return space_id(rules, d) or "nowhere"
    sp = _tables(rules)["sp"][d]
    return f"{AREA_NAMES[int(sp[SP_AREA])]} {ROW_NAMES[int(sp[SP_ROW])]} {int(sp[SP_POS])}"


def strat_words(rules: Any, i: int) -> str:
    """``Bolk, The Champion #2 (+1 wild)``: a stratagem's name, effect and cost."""
    t = _tables(rules)
    if not 0 <= int(i) < int(t["n_strats"]):
        raise IndexError(f"stratagem {i} is not in this ruleset")
    st = t["st"][int(i)]
    text = f"{strat_name(rules, i)} ({effect_words(rules, int(st[ST_EFFECT]))}"
    if int(st[ST_COST]) > 0:
        text += f"; cost {effect_words(rules, int(st[ST_COST]), cost=True)}"
    return text + ")"


def council_words(rules: Any, c: int) -> str:
    """``council card 7 (immediate): conquer 1 [cost 2 gold]``."""
    t = _tables(rules)
    co = t["co"][int(c)]
    kind = int(co[CO_KIND])
    text = f"council card {council_id(rules, c)} ({COUNCIL_KINDS[kind] if 0 <= kind < len(COUNCIL_KINDS) else kind}): "
    text += effect_words(rules, int(co[CO_EFFECT]))
    if int(co[CO_COST]) > 0:
        text += f" [cost {effect_words(rules, int(co[CO_COST]), cost=True)}]"
    return text


def province_words(rules: Any, card: int) -> str:
    """``province 12 (brown: +1 power VP; red: +2 military; blue: +3 culture; yellow: +1 gold)``."""
    card = int(card)
    if card < 0:
        return "empty"
    t = _tables(rules)
    edges = "; ".join(f"{SLOT_NAMES[m]}: {effect_words(rules, int(t['prov'][card, m]))}" for m in range(4))
    return f"province {province_id(rules, card)} ({edges})"


def acard_words(rules: Any, i: int) -> str:
    """An Automa card in words: its left side (move, flip, discard) and right side (VP, votes, symbol)."""
    t = _tables(rules)
    ac = t["acard"][int(i)]
    left = []
    if int(ac[AC_MOVE]) >= 0:
        left.append(f"move in {AREA_NAMES[int(ac[AC_MOVE])]}")
    if int(ac[AC_FLIP]):
        left.append(f"flip {FLIP_NAMES[int(ac[AC_FLIP])]}")
    if int(ac[AC_DISCARD]):
        left.append(f"discard province #{int(ac[AC_DISCARD])}")
    return (f"Automa card {acard_id(rules, i)} ({', '.join(left) or 'blank'}; {int(ac[AC_VP])} VP, "
            f"{int(ac[AC_VOTES]):+d} votes, symbol {symbol_name(rules, int(ac[AC_SYMBOL]))})")


def achievement_words(rules: Any, i: int) -> str:
    t = _tables(rules)
    i = int(i)
    if i < 0:
        return "none"
    return (f"achievement {achievement_id(rules, i)} (hold {effect_words(rules, int(t['ach'][i, 0]), cost=True)}; "
            f"ribbon {effect_words(rules, int(t['ach'][i, 1]))})")


def worker_words(rules: Any, rec: np.void, p: int, w: int) -> str:
    """``W2 (common, on green top 1, bottom box)``."""
    if not (0 <= w < rec["w_place"].shape[1] and 0 <= p < rec["w_place"].shape[0]):
        return f"W{w + 1}"
    place = int(rec["w_place"][p, w])
    kind = "grande" if rec["w_grande"][p, w] else "common"
    if place == W_MAT:
        where = "on the mat"
    elif place == W_RESERVE:
        where = "in reserve"
    elif place == W_GONE:
        where = "out of the game"
    else:
        where = f"on {space_short(rules, place)}, {PART_NAMES[int(rec['w_part'][p, w])].replace('_', ' ')}"
    return f"W{w + 1} ({kind}, {where})"


def _actor_seat(rec: np.void) -> int:
    if int(rec["phase"]) == PH_PENDING and 0 <= int(rec["pend_seat"]) < 5:
        return int(rec["pend_seat"])
    return int(rec["actor"])


def _pending(rec: np.void) -> tuple[int, int, int]:
    """The top pending decision: (kind, units left, argument); kind PD_NONE when there is none."""
    k = int(rec["n_pend"])
    if k <= 0:
        return 0, 0, 0
    return int(rec["pend_kind"][k - 1]), int(rec["pend_n"][k - 1]), int(rec["pend_arg"][k - 1])


def _has_run_out(rec: np.void, timer: int) -> bool:
    return float(rec["now"]) >= float(rec["runs_out"][timer])


# ---------------------------------------------------------------- actions


def action_codes(rules: Any) -> list[int]:
    """Every action code that can be legal with this ruleset (codes.py), ascending."""
    t = _tables(rules)
    ns, nst = int(t["n_spaces"]), int(t["n_strats"])
    out = [A_PASS, *(A_FLIP + k for k in range(3)), A_PICKUP, A_REFILL, A_CLAIM, A_CLAIM + 1, A_NO, A_YES,
           *(A_RES + k for k in range(3)), *(A_TRACK + k for k in range(3)), *(A_LIFT + w for w in range(4))]
    out += [A_MOVE + w * N_DEST + d for w in range(4) for d in (*range(ns), DEST_MAT)]
    out += [A_ACTION + k for k in range(8)] + [A_STRAT + i for i in range(nst)]
    out += [A_CONQUER + k for k in range(20)] + [A_COUNCIL + c for c in range(32)]
    out += [A_WORKER + w for w in range(4)] + [A_TRIM + k for k in range(32)]
    out += [A_RETURN + i for i in range(nst)] + [A_SWAPVP + k for k in range(9)]
    out += [A_SPACE + d for d in range(ns)]
    return sorted(out)


def decode_action(action: int) -> dict[str, int]:
    """The fields of an action code (codes.py): ``kind`` (the base code) and its numbers."""
    a = int(action)
    if a >= A_SPACE:
        return {"kind": A_SPACE, "space": a - A_SPACE}
    if a >= A_SWAPVP:
        f, to = divmod(a - A_SWAPVP, 3)
        return {"kind": A_SWAPVP, "from": f, "to": to}
    if a >= A_RETURN:
        return {"kind": A_RETURN, "strat": a - A_RETURN}
    if a >= A_TRIM:
        m, i = divmod(a - A_TRIM, 8)
        return {"kind": A_TRIM, "slot": m, "index": i}
    if a >= A_WORKER:
        return {"kind": A_WORKER, "worker": a - A_WORKER}
    if a >= A_COUNCIL:
        return {"kind": A_COUNCIL, "card": a - A_COUNCIL}
    if a >= A_CONQUER:
        src, m = divmod(a - A_CONQUER, 4)
        return {"kind": A_CONQUER, "source": src, "slot": m}
    if a >= A_STRAT:
        return {"kind": A_STRAT, "strat": a - A_STRAT}
    if a >= A_ACTION:
        w, alt = divmod(a - A_ACTION, 2)
        return {"kind": A_ACTION, "worker": w, "alt": alt}
    if a >= A_MOVE:
        w, d = divmod(a - A_MOVE, N_DEST)
        return {"kind": A_MOVE, "worker": w, "dest": d}
    if a >= A_LIFT:
        return {"kind": A_LIFT, "worker": a - A_LIFT}
    if a >= A_TRACK:
        return {"kind": A_TRACK, "track": a - A_TRACK}
    if a >= A_RES:
        return {"kind": A_RES, "resource": a - A_RES}
    if a >= A_CLAIM and a < A_CLAIM + 2:
        return {"kind": A_CLAIM, "choice": a - A_CLAIM}
    if a >= A_FLIP and a < A_FLIP + 3:
        return {"kind": A_FLIP, "timer": a - A_FLIP}
    return {"kind": a}


def action_name(rules: Any, action: int) -> str:
    """An action code in a few words without a position (trace ``choice.action_name``): ``track power``,
    ``resource gold``, ``worker 2``, ``council card F3``, ``conquer display1 -> red``, ``yes``..."""
    d = decode_action(action)
    k = d["kind"]
    simple = {A_PASS: "pass", A_PICKUP: "pick up", A_REFILL: "refill", A_NO: "no", A_YES: "yes"}
    if k in simple:
        return simple[k]
    if k == A_FLIP:
        return f"flip {TIMER_NAMES[d['timer']]}"
    if k == A_CLAIM:
        return "claim legendary" if d["choice"] == 0 else "claim ribbon"
    if k == A_RES:
        return f"resource {RESOURCE_NAMES[d['resource']]} (or alternative {d['resource']})"
    if k == A_TRACK:
        return f"track {TRACK_NAMES[d['track']]}"
    if k in (A_LIFT, A_WORKER):
        return f"{'lift ' if k == A_LIFT else ''}worker {d['worker']}"
    if k == A_MOVE:
        return f"move worker {d['worker']} -> {space_id(rules, d['dest'])}"
    if k == A_ACTION:
        return f"worker {d['worker']} acts (alternative {d['alt']})"
    if k in (A_STRAT, A_RETURN):
        return f"{'return ' if k == A_RETURN else ''}{strat_name(rules, d['strat'])}"
    if k == A_CONQUER:
        src = f"display{d['source'] + 1}" if d["source"] < 4 else "deck_top"
        return f"conquer {src} -> {SLOT_NAMES[d['slot']]}"
    if k == A_COUNCIL:
        return f"council card {council_id(rules, d['card'])}"
    if k == A_TRIM:
        return f"remove province {d['index']} under {SLOT_NAMES[d['slot']]}"
    if k == A_SWAPVP:
        return f"vp {TRACK_NAMES[d['from']]} -> {TRACK_NAMES[d['to']]}"
    if k == A_SPACE:
        return f"space {space_id(rules, d['space'])}"
    return str(int(action))


def describe_action(rules: Any, rec: np.void, action: int) -> str:
    """A one-line description of ``action`` for the seat to act in ``rec`` (its own view)."""
    try:
        return _describe(rules, rec, action)
    except IndexError:  # a code outside this ruleset's tables (never legal)
        return f"action {int(action)} ({decode_action(action)})"


def _describe(rules: Any, rec: np.void, action: int) -> str:
    t = _tables(rules)
    a = decode_action(action)
    kind = a["kind"]
    p = _actor_seat(rec)
    phase = int(rec["phase"])
    pk, pn, parg = _pending(rec)
    solo = bool(rec["solo"])
    if kind == A_PASS:
        if phase == PH_STEP5:
            return "pass (done placing for this council)"
        if rec["council_called"]:
            return "pass (done: council runs when every seat has passed)"
        return "pass (done for now: the step ends when every seat has passed in a row)"
    if kind == A_FLIP:
        tm = a["timer"]
        row = int(rec["timer_row"][tm])
        text = f"flip the {TIMER_NAMES[tm]} timer ({ROW_NAMES[row]} -> {ROW_NAMES[1 - row]} row)"
        if tm == T_PURPLE:
            text += f" [purple flip {int(rec['purple_flips']) + 1}"
            text += ": calls council]" if int(rec["markers_left"]) <= 1 else "]"
        elif solo and _has_run_out(rec, T_PURPLE):
            text += " [purple has run out: the Automa acts (trigger 2)]"
        return text
    if kind == A_PICKUP:
        n = int(np.sum(rec["strat"][p] == 2))
        return f"pick up stratagems (pay 5 culture; {_plural(n, 'discarded card')} back to hand)"
    if kind == A_REFILL:
        empty = int(np.sum(rec["display"] < 0))
        return f"refill the province display ({_plural(empty, 'empty slot')}; {int(rec['pdeck_n'])} in the deck)"
    if kind == A_CLAIM:
        ach = int(rec["ach_card"])
        what = "take the legendary token (the legendary VP)" if a["choice"] == 0 else (
            f"take the ribbon reward: {effect_words(rules, int(t['ach'][ach, 1])) if ach >= 0 else '?'}")
        return f"claim {achievement_words(rules, ach)}: {what}"
    if kind in (A_YES, A_NO):
        yes = kind == A_YES
        if pk == PD_GLORY:
            track = TRACK_NAMES[parg] if 0 <= parg < 3 else parg
            return (f"take 1 glory on {track} (a {track} VP past the track's end; lowers a resource cap by 1)"
                    if yes else f"lose the {track} VP past the track's end (no glory)")
        if pk == PD_ADJACENT:
            return "take the adjacent action too" if yes else "no adjacent action"
        if pk == PD_CONQUER:
            return "conquer" if yes else "do not conquer"
        return "yes" if yes else "no"
    if kind == A_RES:
        r = a["resource"]
        if pk == PD_ALT:
            return f"choose {alt_words(t, parg, r)} (of {effect_words(rules, parg)})"
        name = RESOURCE_NAMES[r] if 0 <= r < 3 else f"resource {r}"
        if pk == PD_WILD_PAY:
            return f"pay 1 {name} (wild cost; {pn} left to pay)"
        return f"gain 1 {name} (wild; {pn} left to choose)"
    if kind == A_TRACK:
        k = a["track"]
        name = TRACK_NAMES[k] if 0 <= k < 3 else f"track {k}"
        return f"+1 {name} VP ({'VP of your choice; ' if pk == PD_VP_ANY else ''}{pn} left)"
    if kind == A_LIFT:
        w = a["worker"]
        return (f"lift {worker_words(rules, rec, p, w)} out of its bottom box: the Automa acts first (trigger 1),"
                f" then you place it")
    if kind == A_MOVE:
        w, d = a["worker"], a["dest"]
        to = "the mat" if d == DEST_MAT else space_words(rules, d)
        if phase == PH_START:
            return f"place {worker_words(rules, rec, p, w)} on {to}"
        if phase == PH_REPLACE:
            return f"put the lifted worker W{w + 1} on {to}"
        return f"move {worker_words(rules, rec, p, w)} to {to}"
    if kind == A_ACTION:
        w, alt = a["worker"], a["alt"]
        d = int(rec["w_place"][p, w])
        if d < 0:
            return f"W{w + 1} takes an action (not on a space)"
        sp = t["sp"][d]
        reward = effect_words(rules, int(sp[SP_REWARD0 + alt]))
        cost = int(sp[SP_COST])
        how = ""
        if rec["free_action"][p] and int(sp[SP_AREA]) != 2:  # the free action waives green/purple gold only
            how = "; free (stratagem)"
        elif cost > 0:
            how = f"; pay {effect_words(rules, cost, cost=True)}"
        if rec["double_action"][p]:
            how += "; twice (stratagem)"
        pick = f" (choice {alt + 1} of 2)" if int(sp[SP_NALT]) > 1 else ""
        return f"W{w + 1} acts on {space_short(rules, d)}{pick}: {reward}{how}"
    if kind == A_STRAT:
        return f"play stratagem {strat_words(rules, a['strat'])}"
    if kind == A_CONQUER:
        src, m = a["source"], a["slot"]
        if src < 4:
            card = int(rec["display"][src])
            what = f"{province_words(rules, card)} from display slot {src + 1}"
            edge = f" (adds {effect_words(rules, int(t['prov'][card, m]))})" if card >= 0 else ""
        else:
            what = "the top card of the province deck (unseen)"
            edge = ""
        return f"conquer {what}; tuck it under your {SLOT_NAMES[m]} slot{edge}"
    if kind == A_COUNCIL:
        return f"take {council_words(rules, a['card'])}"
    if kind == A_WORKER:
        w = a["worker"]
        if pk == PD_RETRIEVE:
            return f"retrieve {worker_words(rules, rec, p, w)} to the mat"
        if pk == PD_GRANDE_SWAP:
            return f"swap {worker_words(rules, rec, p, w)} for your second grande (the common leaves the game)"
        if pk == PD_TIMED_PLACE:
            return f"choose {worker_words(rules, rec, p, w)} to place on a timed row"
        return f"choose {worker_words(rules, rec, p, w)}"
    if kind == A_TRIM:
        m, i = a["slot"], a["index"]
        card = int(rec["prov"][p, m, i]) if i < int(rec["prov_n"][p, m]) else -1
        return f"remove {province_words(rules, card)} from under your {SLOT_NAMES[m]} slot"
    if kind == A_RETURN:
        return f"return {strat_words(rules, a['strat'])} from your discard to your hand"
    if kind == A_SWAPVP:
        f, to = a["from"], a["to"]
        return f"move 1 VP from {TRACK_NAMES[f]} to {TRACK_NAMES[to]}"
    if kind == A_SPACE:
        d = a["space"]
        if d >= int(t["n_spaces"]):
            raise IndexError(d)
        if pk == PD_ADJACENT:
            return f"also take the action of {space_words(rules, d)}"
        if pk == PD_TIMED_PLACE:
            return f"place it on {space_words(rules, d)} and act"
        return f"space {space_words(rules, d)}"
    return f"action {int(action)}"


def _sub_label(text: str) -> str:
    return text.split(": ", 1)[1] if ": " in text else text


def action_menu(rules: Any, rec: np.void, legal: list[int]) -> list[tuple[str, Any]]:
    """The legal actions as nested choices: a worker, then where it goes or what it does; stratagems;
    council cards; conquests by province, then mat slot; the rest one by one (pass last).

    Every legal action appears exactly once among the leaves.
    """
    p = _actor_seat(rec)
    t = _tables(rules)
    top: list[tuple[str, Any]] = []
    workers: dict[int, list[int]] = {}
    groups: dict[str, list[tuple[str, int]]] = {}
    conquer: dict[int, list[int]] = {}
    trim: dict[int, list[int]] = {}
    last: list[tuple[str, int]] = []
    for a in legal:
        a = int(a)
        d = decode_action(a)
        kind = d["kind"]
        if kind in (A_MOVE, A_LIFT, A_ACTION):
            workers.setdefault(d["worker"], []).append(a)
        elif kind == A_STRAT:
            groups.setdefault("play a stratagem", []).append((strat_words(rules, d["strat"]), a))
        elif kind == A_COUNCIL:
            groups.setdefault("take a council card", []).append((council_words(rules, d["card"]), a))
        elif kind == A_FLIP:
            groups.setdefault("flip a timer", []).append((describe_action(rules, rec, a), a))
        elif kind == A_CONQUER:
            conquer.setdefault(d["source"], []).append(a)
        elif kind == A_TRIM:
            trim.setdefault(d["slot"], []).append(a)
        elif kind == A_PASS:
            last.append((describe_action(rules, rec, a), a))
        else:
            top.append((describe_action(rules, rec, a), a))
    for w in sorted(workers):
        items: list[tuple[str, Any]] = []
        moves: dict[int, list[tuple[str, int]]] = {}
        for a in workers[w]:
            d = decode_action(a)
            if d["kind"] == A_MOVE:
                dest = d["dest"]
                area = -1 if dest == DEST_MAT else int(t["sp"][dest, SP_AREA])
                label = "the mat" if dest == DEST_MAT else space_words(rules, dest)
                moves.setdefault(area, []).append((f"to {label}", a))
            elif d["kind"] == A_LIFT:
                items.append(("lift it out of its bottom box (the Automa acts first), then place it", a))
            else:
                items.append((f"act: {_sub_label(describe_action(rules, rec, a))}", a))
        n_moves = sum(len(v) for v in moves.values())
        if n_moves > 8 and len(moves) > 1:
            for area in sorted(moves):
                sub = moves[area]
                name = "the mat" if area < 0 else f"to the {AREA_NAMES[area]} area"
                items.append(sub[0] if len(sub) == 1 else (name, sub))
        else:
            for area in sorted(moves):
                items.extend(moves[area])
        label = f"worker {worker_words(rules, rec, p, w)}"
        top.append((f"{label}: {items[0][0]}", items[0][1]) if len(items) == 1 else (label, items))
    for src in sorted(conquer):
        acts = conquer[src]
        if src < 4:
            card = int(rec["display"][src])
            label = f"conquer {province_words(rules, card)} (display slot {src + 1})"
            sub = [(f"under the {SLOT_NAMES[decode_action(a)['slot']]} slot"
                    + (f" (adds {effect_words(rules, int(t['prov'][card, decode_action(a)['slot']]))})"
                       if card >= 0 else ""), a) for a in acts]
        else:
            label = "conquer the top card of the province deck (unseen)"
            sub = [(f"under the {SLOT_NAMES[decode_action(a)['slot']]} slot", a) for a in acts]
        top.append((f"{label}: {sub[0][0]}", sub[0][1]) if len(sub) == 1 else (label, sub))
    for m in sorted(trim):
        sub = [(describe_action(rules, rec, a), a) for a in trim[m]]
        label = f"remove a province from under your {SLOT_NAMES[m]} slot"
        top.append(sub[0] if len(sub) == 1 else (label, sub))
    for name, sub in groups.items():
        if len(sub) == 1:
            top.append((f"{name}: {sub[0][0]}", sub[0][1]))
        elif len(groups) == 1 and not top and not workers:
            top.extend(sub)
        else:
            top.append((name, list(sub)))
    return top + last


# ---------------------------------------------------------------- the position


def _worker_code(rec: np.void, p: int, w: int) -> str:
    return f"{seat_tag(p)}{'G' if rec['w_grande'][p, w] else 'c'}{w + 1}"


def _space_occupants(rules: Any, rec: np.void, d: int) -> tuple[list[str], list[str]]:
    """Who stands in a space's top frame and bottom box (codes: P1G1 grande, P1c2 common, AUT, NEU)."""
    n = int(rec["n_players"])
    top: list[str] = []
    bottom: list[str] = []
    for p in range(n):
        for w in range(rec["w_place"].shape[1]):
            if int(rec["w_place"][p, w]) == d:
                (bottom if int(rec["w_part"][p, w]) == 1 else top).append(_worker_code(rec, p, w))
    if rec["solo"]:
        for k in range(rec["a_work"].shape[0]):
            if int(rec["a_work"][k]) == d:
                top.append("AUT")
    t = _tables(rules)
    if n == 2 and int(t["sp"][d, SP_NEUTRAL]):
        top.append("NEU")
    return top, bottom


def _timer_line(rules: Any, rec: np.void, tm: int) -> str:
    row = int(rec["timer_row"][tm])
    out = float(rec["runs_out"][tm])
    state = "run out" if _has_run_out(rec, tm) else f"runs out at {out:.0f} s"
    return f"{TIMER_NAMES[tm]} timer on the {ROW_NAMES[row]} row ({state})"


def _track_text(rules: Any, rec: np.void, p: int) -> str:
    t = _tables(rules)
    pf = int(t["opts"][OPT_PARCHMENT_FIRST])
    last = int(t["opts"][OPT_TRACK_LAST])
    parts = []
    for k, name in enumerate(TRACK_NAMES):
        v = int(rec["track"][p, k])
        mark = "*" if v >= pf else ""
        end = "!" if v >= last else ""
        g = int(rec["glory"][p, k])
        parts.append(f"{name} {v}{mark}{end}" + (f" +{g} glory" if g else ""))
    return ", ".join(parts)


def _caps(rules: Any, rec: np.void, p: int) -> list[int]:
    t = _tables(rules)
    cap = int(t["opts"][OPT_RES_CAP]) or 10
    return [cap - int(rec["glory"][p, k]) for k in range(3)]


def render_state(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The board and every player from ``seat``'s view (None: the referee's, everything).

    A seat sees its own stratagems; other seats' hands show as counts. Deck orders are never
    shown (sizes only).
    """
    t = _tables(rules)
    n = int(rec["n_players"])
    solo = bool(rec["solo"])
    phase = int(rec["phase"])
    lines: list[str] = []
    view = "referee view" if seat is None else f"view of {seat_tag(seat)}"
    mode = "solo against two Automas" if solo else f"{n} players"
    tm = int(t["opts"][OPT_TIME_MODEL])
    lines.append(f"Pendulum · {mode} · {TIME_MODELS[tm] if 0 <= tm < 2 else tm} time · {view}")
    if rec["over"] or phase == PH_OVER:
        lines.append(f"Game over after round {int(rec['round'])}")
    else:
        step = int(rec["sched_step"])
        when = f"schedule step {step}/{int(t['n_sched']) - 1}, t = {float(rec['now']):.1f} s" if step >= 0 else \
            f"t = {float(rec['now']):.1f} s"
        actor = int(rec["actor"])
        pk, pn, _parg = _pending(rec)
        todo = PHASE_TEXT.get(phase, PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else phase)
        if phase == PH_PENDING and pk:
            todo = f"decision: {PENDING_NAMES[pk] if pk < len(PENDING_NAMES) else pk} ({pn} left)"
        called = " · COUNCIL CALLED" if rec["council_called"] else ""
        lines.append(f"Round {int(rec['round'])} · {when}{called} · to act: {seat_tag(actor)} ({todo})")
    if int(rec["sched_step"]) >= 0 and int(rec["sched_step"]) < int(t["n_sched"]):
        due = int(t["sched"][int(rec["sched_step"]), 1])
        names = [TIMER_NAMES[k] for k in range(3) if due >> k & 1]
        if names:
            lines.append(f"  due at this step: {', '.join(names)}")
    if int(rec["sched_step"]) < 0 and not rec["over"]:
        ready = [f"{seat_tag(p)} {float(rec['ready_at'][p]):.1f} s" + (" (waiting for a timer)" if rec["waiting"][p]
                                                                      else "") for p in range(n)]
        lines.append(f"  next actions: {', '.join(ready)}")
    on_board = f", on the Automa board {int(rec['markers_automa'])}" if solo else ""
    lines.append(f"  purple flips this round {int(rec['purple_flips'])}; time markers in the purple area "
                 f"{int(rec['markers_left'])}{on_board}")
    lines.append("")
    # the board
    for area in range(3):
        lines.append(f"{AREA_NAMES[area].upper()} · {_timer_line(rules, rec, area)}")
        for row in range(2):
            spaces = [d for d in range(int(t["n_spaces"])) if int(t["sp"][d, SP_AREA]) == area
                      and int(t["sp"][d, SP_ROW]) == row]
            spaces.sort(key=lambda d: int(t["sp"][d, SP_POS]))
            mark = "⧗" if int(rec["timer_row"][area]) == row else " "
            lines.append(f"  {mark} {ROW_NAMES[row]} row" + (" (timed: actions here; no moves)" if mark != " " else
                                                          " (untimed: moves here; no actions)"))
            for d in spaces:
                topw, bottomw = _space_occupants(rules, rec, d)
                occ = f"[{' '.join(topw) or '·'}] box [{' '.join(bottomw) or '·'}]"
                extra = ""
                if int(t["sp"][d, SP_COMMON_BLOCKED]) == 0 and int(t["sp"][d, SP_AREA]) != 2:
                    extra = " (never blocks)"
                lines.append(f"      {occ:<26} {space_words(rules, d)}{extra}")
    lines.append("")
    # cards on the table
    disp = [province_words(rules, int(c)) if int(c) >= 0 else "empty" for c in rec["display"]]
    lines.append("Province display (slot 1 = top):")
    for k, text in enumerate(disp):
        lines.append(f"  {k + 1}. {text}")
    lines.append(f"  province deck {int(rec['pdeck_n'])} cards; out of the game {int(rec['removed_n'])}")
    ach = int(rec["ach_card"])
    token = "on the card" if rec["legendary_on_card"] else (
        "on the council deck (from the first council)" if rec["legendary_on_council"] else "not available")
    lines.append(f"Achievement: {achievement_words(rules, ach)}; legendary token {token}; "
                 f"deck {int(rec['adeck_n'])}")
    offer = [council_words(rules, int(c)) for c in rec["offer"] if int(c) >= 0]
    lines.append("Council board: " + ("; ".join(offer) if offer else "no cards left"))
    lines.append(f"  GRANDE card {'up' if rec['grande_up'] else 'turned down'}; DEFAULT (+1 VP of your choice) "
                 f"always; council deck {int(rec['cdeck_n'])} standard cards")
    order = [actor_name(int(a), False) if int(a) >= 5 else seat_tag(int(a)) for a in rec["priv"][: int(rec["n_priv"])]]
    lines.append(f"Privilege order: {' > '.join(order)}")
    lines.append("")
    for p in range(n):
        lines.extend(_seat_lines(rules, rec, p, seat))
    if solo:
        lines.extend(_automa_lines(rules, rec))
    return "\n".join(lines)


def _seat_lines(rules: Any, rec: np.void, p: int, seat: int | None) -> list[str]:
    t = _tables(rules)
    you = " (you)" if seat == p else ""
    adv = " · advanced variant" if rec["advanced"][p] else ""
    caps = _caps(rules, rec, p)
    res = ", ".join(f"{RESOURCE_NAMES[r]} {int(rec['res'][p, r])}/{caps[r]}" for r in range(3))
    out = [f"{seat_tag(p)}{you} {character_name(rules, int(rec['char'][p]))}{adv}"]
    out.append(f"    {res} · votes {int(rec['votes'][p])}")
    leg = "yes" if rec["legendary"][p] else "no"
    out.append(f"    tracks: {_track_text(rules, rec, p)} · legendary VP {leg} "
               f"(* = in the parchment, from {int(t['opts'][OPT_PARCHMENT_FIRST])}; ! = at the end)")
    ws = [worker_words(rules, rec, p, w) for w in range(rec["w_place"].shape[1]) if int(rec["w_place"][p, w]) != W_GONE]
    out.append(f"    workers: {'; '.join(ws)}")
    provs = []
    for m in range(4):
        k = int(rec["prov_n"][p, m])
        cards = ", ".join(str(province_id(rules, int(c))) for c in rec["prov"][p, m, :k])
        prod = effect_words(rules, int(t["ch"][int(rec["char"][p]), 10 + m]))
        provs.append(f"{SLOT_NAMES[m]} ({prod}){': ' + cards if cards else ''}")
    out.append(f"    mat slots: {'; '.join(provs)}" + (" · Max-3" if rec["max3"][p] else ""))
    hand = [i for i in range(rec["strat"].shape[1]) if int(rec["strat"][p, i]) == 1]
    disc = [i for i in range(rec["strat"].shape[1]) if int(rec["strat"][p, i]) == 2]
    if seat is None or seat == p:
        out.append(f"    hand: {'; '.join(strat_words(rules, i) for i in hand) or 'empty'}")
        if disc:
            out.append(f"    discarded: {'; '.join(str(strat_name(rules, i)) for i in disc)}")
    else:
        out.append(f"    hand: {len(hand)} stratagems; discarded {len(disc)}")
    flags = [x for x, f in (("free action armed", rec["free_action"][p]), ("double action armed",
                                                                          rec["double_action"][p]),
                            ("adjacent action armed", rec["adjacent_action"][p]),
                            ("may claim twice", rec["claim_twice"][p])) if f]
    claims = int(rec["ach_claims"][p])
    out.append(f"    achievement claims this round {claims}" + (f" · {', '.join(flags)}" if flags else ""))
    return out


def _automa_space_text(rules: Any, space: int) -> str:
    t = _tables(rules)
    if space < 0 or space >= int(t["n_track"]):
        return f"space {space}"
    row = t["trk"][space]
    kind = TRACK_KINDS[int(row[TR_KIND])] if 0 <= int(row[TR_KIND]) < len(TRACK_KINDS) else int(row[TR_KIND])
    text = f"space {space} ({kind}"
    if int(row[TR_LABEL]):
        text += f", label {int(row[TR_LABEL])}"
    if kind == "parchment":
        text += f", parchment #{int(row[TR_PIDX])}"
    if kind == "glory":
        text += f", glory #{int(row[TR_GIDX])}"
    return text + ")"


def _automa_lines(rules: Any, rec: np.void) -> list[str]:
    t = _tables(rules)
    lvl = int(t["opts"][OPT_LEVEL])
    out = [f"Automas (level {LEVELS[lvl] if 0 <= lvl < 6 else lvl}): deck {int(rec['a_deck_n'])} cards, "
           f"discard {int(rec['a_disc_n'])}; time markers on the Automa board {int(rec['markers_automa'])}"]
    for a in range(2):
        cards = [acard_words(rules, int(c)) for c in rec["a_cards"][a, : int(rec["a_ncards"][a])]]
        out.append(f"    automa{a + 1}: score {_automa_space_text(rules, int(rec['a_score'][a]))}"
                   + (" · grande in its slot" if rec["a_grande"][a] else "")
                   + (f" · cards {'; '.join(cards)}" if cards else ""))
    where = [space_short(rules, int(d)) for d in rec["a_work"]]
    out.append(f"    Automa workers (top frames): {', '.join(where)}")
    return out


LEGEND = """\
How to read the board (shown once; type h to see it again):
  Areas        purple, green, black; each has a top and a bottom row. ⧗ marks the row its timer is on:
               workers there may act (rule 2) but not move; workers in the other row may move (rule 1).
  [P1G1 AUT]   who stands in a space's top frame: P1G1 = seat P1's worker W1, a grande (c = common);
               AUT an Automa worker (solo); NEU the 2-player neutral. box [...] = the bottom box
               (workers that have acted: stuck until the timer leaves the row).
  Spaces       area row position (frame): reward | other reward of a double frame [cost].
  Tracks       power / prestige / popularity positions on the normalised 0..21 track; * = inside the
               parchment, ! = at the track's end; glory cubes lower the matching resource's cap.
  Choices      a worker first, then where it goes or what it does; stratagems, council cards and
               conquests are grouped; pass is always last."""


def legend(rules: Any) -> str:
    """The notation of the board and the menu, for a person (``human`` shows it at the first decision)."""
    return LEGEND


# ---------------------------------------------------------------- trace events


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


def _names(table: tuple[str, ...], v: int) -> Any:
    return table[v] if 0 <= v < len(table) else (None if v < 0 else v)


def _bits(mask: int) -> list[int]:
    return [k for k in range(31) if mask >> k & 1]


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


def _data_sources(rules: Any) -> list[dict[str, Any]]:
    files = getattr(getattr(rules, "data", None), "files", None) or {}
    out = []
    for stem, path in sorted(files.items()):
        entry: dict[str, Any] = {"file": stem, "name": Path(path).name}
        try:
            entry["sha256"] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            entry["sha256"] = None
        out.append(entry)
    return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if is_dataclass(v) and not isinstance(v, type):
        return _jsonable(asdict(v))
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def _board_table(rules: Any) -> list[dict[str, Any]]:
    t = _tables(rules)
    out = []
    for d in range(int(t["n_spaces"])):
        sp = t["sp"][d]
        large = int(sp[SP_AUTOMA_LARGE])
        out.append({
            "space": space_id(rules, d), "index": d, "area": AREA_NAMES[int(sp[SP_AREA])],
            "row": ROW_NAMES[int(sp[SP_ROW])], "pos_lr": int(sp[SP_POS]), "frame": FRAME_NAMES[int(sp[SP_FRAME])],
            "rewards": [effect_text(rules, int(sp[SP_REWARD0 + k])) for k in range(max(1, int(sp[SP_NALT])))],
            "cost": effect_text(rules, int(sp[SP_COST])), "common_blocked": bool(sp[SP_COMMON_BLOCKED]),
            "automa_space_size": None if large < 0 else ("large" if large else "small"),
            "neutral_2p": bool(sp[SP_NEUTRAL]),
        })
    return out


def start_event(rules: Any, rec: np.void, players: list[str], game_index: int) -> dict[str, Any]:
    """The ``game_start`` trace event (type ``header``): what a checker needs before the first row.

    It holds what the ruleset knows (data files with hashes, every resolved option, the board
    side's spaces, the level and its scoring rows, the schedule) and what the record knows from
    the start (the seed, each random stream's key, the seats' characters and advanced flags).
    What the set-up drew (deck orders, the initial privilege order, the Automa workers) is in
    the log's ``setup``, ``deck_order`` and ``automa_setup`` events, since this event may be
    built from a state of any later point of the game.
    """
    import simlab

    t = _tables(rules)
    n = int(rules.n_players)
    solo = n == 1
    lvl = int(t["opts"][OPT_LEVEL])
    tm = int(t["opts"][OPT_TIME_MODEL])
    seats = []
    for p in range(n):
        seats.append({"seat": p, "player": agent_name(p, solo), "spec": players[p] if p < len(players) else None,
                      "character": character_name(rules, int(rec["char"][p])),
                      "advanced_rules": bool(rec["advanced"][p])})
    ev: dict[str, Any] = {
        "event": "game_start", "type": "header", "seq": 0, "round": 1, "phase": "setup", "state_phase": "start",
        "schedule_step": None, "t": 0.0, "actor": "system", "cause_seq": None,
        "game": game_index, "seed": int(rec["seed"]), "players": list(players), "n_players": n, "solo": solo,
        "rules": {"game": "pendulum", "package_version": simlab.__version__,
                  "rulebook": "rules/pendulum-automa.ru.txt (Automa); Pendulum base rulebook r18",
                  "digest": "research/pendulum/NOTES.md", "data": _data_sources(rules)},
        "options": _jsonable(dict(getattr(rules, "options", {}) or {})),
        "time_model": TIME_MODELS[tm] if 0 <= tm < 2 else tm,
        "streams": {STREAM_NAMES[k]: int(rec["rng_key"][k]) for k in range(len(STREAM_NAMES))},
        "seats": seats,
        "timer_seconds": {TIMER_NAMES[k]: int(t["timer_s"][k]) for k in range(3)},
        "schedule": [{"step": k, "t": int(t["sched"][k, 0]),
                      "due_timers": [TIMER_NAMES[b] for b in range(3) if int(t["sched"][k, 1]) >> b & 1],
                      "purple_flip_no": int(t["sched"][k, 2]) or None} for k in range(int(t["n_sched"]))],
        "council_bonus_vp": [int(x) for x in t["priv_bonus"][: max(1, min(5, n if not solo else 3))]],
        "reading_order": [COUNCIL_SLOT_NAMES[int(x)] if 0 <= int(x) < 7 else int(x)
                          for x in t["opts"][OPT_READ_ORDER0: OPT_READ_ORDER0 + 7]],
        "board": _board_table(rules),
    }
    if solo:
        ev["level"] = LEVELS[lvl] if 0 <= lvl < 6 else lvl
        ev["scoring"] = [{"round": r + 1, "vp_bonus": int(t["scoring"][lvl, r, 0]),
                          "votes_bonus": int(t["scoring"][lvl, r, 1])} for r in range(4)] if 0 <= lvl < 6 else []
        ev["advanced_rules"] = bool(t["lvl_adv"][lvl]) if 0 <= lvl < 6 else None
        ev["automa_cards"] = _automa_cards(rules)
        ev["automa_track"] = _automa_track(rules)
        ev["reward_symbols"] = {str(symbol_name(rules, k)): [council_id(rules, c) for c in range(32)
                                                            if int(t["sym_match"][k, c])]
                                for k in range(int(t["n_sym"]))}
    ev["cards"] = _card_tables(rules)
    return ev


def _automa_cards(rules: Any) -> list[dict[str, Any]]:
    t = _tables(rules)
    out = []
    for i in range(32):
        ac = t["acard"][i]
        out.append({"acard": acard_id(rules, i), "move_area": _names(AREA_NAMES, int(ac[AC_MOVE])),
                    "flip_combo": _names(FLIP_NAMES, int(ac[AC_FLIP])), "discard_pos": int(ac[AC_DISCARD]),
                    "vp": int(ac[AC_VP]), "votes": int(ac[AC_VOTES]), "symbol": symbol_name(rules, int(ac[AC_SYMBOL]))})
    return out


def _automa_track(rules: Any) -> list[dict[str, Any]]:
    t = _tables(rules)
    return [{"space": k, "kind": _names(TRACK_KINDS, int(t["trk"][k, TR_KIND])),
             "distance_label": int(t["trk"][k, TR_LABEL]) or None, "distance_to_parchment": int(t["trk"][k, TR_DIST]),
             "parchment_index": int(t["trk"][k, TR_PIDX]), "glory_index": int(t["trk"][k, TR_GIDX])}
            for k in range(int(t["n_track"]))]


def _card_tables(rules: Any) -> dict[str, Any]:
    """The ruleset's cards as the checker needs them: council cards, stratagems, achievements, provinces and
    characters, each named as the trace names it, costs and effects in token text (NOTES V.1)."""
    t = _tables(rules)
    council = [{"card": council_id(rules, c), "kind": _names(COUNCIL_KINDS, int(t["co"][c, CO_KIND])),
                "cost": effect_text(rules, int(t["co"][c, CO_COST])),
                "effect": effect_text(rules, int(t["co"][c, CO_EFFECT]))} for c in range(32)]
    strats = [{"strat": strat_name(rules, i), "cost": effect_text(rules, int(t["st"][i, ST_COST])),
               "effect": effect_text(rules, int(t["st"][i, ST_EFFECT]))} for i in range(int(t["n_strats"]))]
    ach = [{"achievement": achievement_id(rules, i), "requirement": effect_text(rules, int(t["ach"][i, 0])),
            "ribbon": effect_text(rules, int(t["ach"][i, 1]))} for i in range(int(t["n_ach"]))]
    prov = [{"province": province_id(rules, i),
             "edges": {SLOT_NAMES[m]: effect_text(rules, int(t["prov"][i, m])) for m in range(4)}}
            for i in range(int(t["n_prov"]))]
    chars = []
    for i in range(int(t["n_chars"])):
        ch = t["ch"][i]
        chars.append({"character": character_name(rules, i), "advanced": bool(ch[CH_ADVANCED]),
                      "start_tracks": {TRACK_NAMES[k]: int(ch[CH_START_TRACK0 + k]) for k in range(3)},
                      "start_resources": {RESOURCE_NAMES[r]: int(ch[CH_START_RES0 + r]) for r in range(3)},
                      "start_votes": int(ch[CH_START_VOTES]),
                      "production": {SLOT_NAMES[m]: effect_text(rules, int(ch[CH_PROD0 + m])) for m in range(4)},
                      "stratagems": [strat_name(rules, j) for j in range(int(t["n_strats"]))
                                     if int(t["st"][j, 0]) == i]})
    return {"council": council, "stratagems": strats, "achievements": ach, "provinces": prov, "characters": chars}


def _seat_final(rules: Any, rec: np.void, p: int, solo: bool) -> dict[str, Any]:
    t = _tables(rules)
    pf = int(t["opts"][OPT_PARCHMENT_FIRST])
    beyond = bool(t["opts"][OPT_PARCHMENT_BEYOND_ENTRY])
    tracks = {TRACK_NAMES[k]: int(rec["track"][p, k]) for k in range(3)}
    inside = {k: v >= pf for k, v in tracks.items()}
    spaces = {k: (max(0, v - pf) if beyond else max(0, v - pf + 1)) for k, v in tracks.items()}
    dist = {k: max(0, pf - v) for k, v in tracks.items()}
    return {
        "seat": p, "player": agent_name(p, solo), "character": character_name(rules, int(rec["char"][p])),
        "tracks": tracks, "glory": {TRACK_NAMES[k]: int(rec["glory"][p, k]) for k in range(3)},
        "legendary": bool(rec["legendary"][p]), "in_parchment": inside, "reached_parchment": all(inside.values()),
        "parchment_spaces": spaces, "parchment_total": sum(spaces.values()),
        "distance_to_parchment": dist, "worst_track_distance": max(dist.values()),
        "resources": {RESOURCE_NAMES[r]: int(rec["res"][p, r]) for r in range(3)},
        "provinces": {SLOT_NAMES[m]: [province_id(rules, int(c)) for c in rec["prov"][p, m, : int(rec["prov_n"][p, m])]]
                      for m in range(4)},
        "rank": int(rec["rank"][p]), "winner": bool(rec["winner"][p]),
    }


def _automa_final(rules: Any, rec: np.void, a: int) -> dict[str, Any]:
    t = _tables(rules)
    space = int(rec["a_score"][a])
    ok = 0 <= space < int(t["n_track"])
    row = t["trk"][space] if ok else None
    label_space = space
    if ok and not int(t["trk"][space, TR_LABEL]) and space > 0:
        label_space = space - 1
    first = int(t["opts"][OPT_AUTOMA_PARCHMENT_FIRST])
    kind = int(row[TR_KIND]) if row is not None else -1
    return {
        "automa": f"automa{a + 1}", "space": space, "kind": _names(TRACK_KINDS, kind),
        "reached_parchment": space >= first,
        "parchment_index": int(row[TR_PIDX]) if row is not None else None,
        "glory_index": int(row[TR_GIDX]) if row is not None else None,
        "distance_label_read": int(t["trk"][label_space, TR_LABEL]) if ok and space < first else None,
        "distance_label_space": label_space if ok and space < first else None,
        "distance_to_parchment": int(row[TR_DIST]) if row is not None else None,
        "grande": bool(rec["a_grande"][a]), "rank": int(rec["rank"][AG_AUTOMA1 + a]),
    }


def final_event(rules: Any, rec: np.void) -> dict[str, Any]:
    """The ``final`` trace event of a finished game: each seat's tracks, parchment spaces, glory, legendary,
    rank and winner; the rule branch applied; in solo each Automa's score space, whether it reached its
    parchment, the distance label read, and which Automa won."""
    n = int(rec["n_players"])
    solo = bool(rec["solo"])
    seats = [_seat_final(rules, rec, p, solo) for p in range(n)]
    br = int(rec["end_branch"])
    ev: dict[str, Any] = {
        "event": "final", "type": "final", "seq": None, "round": int(rec["round"]), "phase": "council",
        "state_phase": _names(PHASE_NAMES, int(rec["phase"])),
        "schedule_step": None if int(rec["sched_step"]) < 0 else int(rec["sched_step"]),
        "t": round(float(rec["now"]), 1), "actor": "system", "cause_seq": None,
        "end_branch": _names(END_BRANCHES, br), "seats": seats,
        "winners": [p for p in range(n) if rec["winner"][p]],  # seats (the contract's convention)
        "privilege_order": [agent_name(int(a), solo) for a in rec["priv"][: int(rec["n_priv"])]],
    }
    if solo:
        ev["automas"] = [_automa_final(rules, rec, a) for a in range(2)]
        won = int(rec["automa_won"])
        ev["automa_won"] = None if won <= 0 else f"automa{won}"
        ev["human_won"] = bool(rec["winner"][0])
    ev["no_winner"] = not ev["winners"] and not (solo and int(rec["automa_won"]) > 0)
    return ev


# ---------------------------------------------------------------- the readable log

_SKIP = {"deck_order", "clock"}
_HEADER_KEYS = {"event", "type", "seq", "round", "phase", "state_phase", "schedule_step", "t", "actor",
                "cause_seq"}


def _fields_text(e: dict[str, Any]) -> str:
    parts = []
    for k, v in e.items():
        if k in _HEADER_KEYS or v is None:
            continue
        if isinstance(v, bool):
            if v:
                parts.append(k)
            continue
        if isinstance(v, list):
            v = "[" + ", ".join(str(x) for x in v) + "]"
        parts.append(f"{k} {v}")
    return ", ".join(parts)


def _w(e: dict[str, Any]) -> str:
    return f"W{int(e.get('worker', -1)) + 1}{' (grande)' if e.get('is_grande') else ''}"


def _delta(e: dict[str, Any]) -> str:
    parts = []
    for r in (*RESOURCE_NAMES, "votes"):
        b, a = e.get(f"{r}_before"), e.get(f"{r}_after")
        if isinstance(b, int) and isinstance(a, int) and a != b:
            parts.append(f"{r} {b}->{a}")
    return ", ".join(parts) or "resources and votes unchanged"


def _sentence(e: dict[str, Any]) -> str | None:
    """The common events in words; None for the rest (written field by field)."""
    k = e["event"]
    if k == "worker_move":
        frm = e.get("from_space") or "mat"
        part = f" ({e['from_part'].replace('_', ' ')})" if e.get("from_part") else ""
        return f"moves {_w(e)} {frm}{part} -> {e.get('to_space')}"
    if k == "human_setup":
        return f"places {_w(e)} on {e.get('space')}"
    if k == "worker_lift":
        return f"lifts {_w(e)} out of the bottom box of {e.get('from_space')}: the Automa acts ({e.get('trigger')})"
    if k == "worker_place":
        return f"places the lifted {_w(e)} on {e.get('to_space')}"
    if k == "worker_action":
        times = " twice" if e.get("times", 1) > 1 else ""
        mods = f" [{', '.join(e['modifier_mask'])}]" if e.get("modifier_mask") else ""
        return (f"{_w(e)} acts{times} on {e.get('space')}: {e.get('reward_effect')} "
                f"(cost {e.get('cost_effect')}){mods}")
    if k == "timer_flip":
        extra = []
        if e.get("timer") == "purple":
            extra.append(f"purple flip {e.get('purple_flip_no')}, markers left {e.get('markers_left')}")
        if e.get("is_marker_to_automa"):
            extra.append(f"marker to the Automa board ({e.get('markers_automa')} there)")
        if e.get("is_legendary_removed"):
            extra.append("legendary token removed")
        if e.get("is_council_called"):
            extra.append("COUNCIL CALLED")
        tail = f"; {'; '.join(extra)}" if extra else ""
        return (f"flips {e.get('timer')} ({e.get('flipper')}) {e.get('before_row')} -> {e.get('after_row')}, "
                f"runs out at {e.get('runs_out_s')} s{tail}")
    if k == "schedule_step":
        auto = f"; auto-flipped before: {', '.join(e['auto_flip_mask'])}" if e.get("auto_flip_mask") else ""
        return f"schedule step {e.get('step')}: due {', '.join(e.get('sched_due_mask') or []) or 'nothing'}{auto}"
    if k == "pass":
        return f"passes ({e.get('passes')} of {e.get('n_seats')} in a row)"
    if k == "stratagem_played":
        return f"plays {e.get('strat')}: {e.get('effect')} (cost {e.get('cost_effect')})"
    if k in ("gain", "pay"):
        lost = f", {e['lost']} lost to the cap" if e.get("lost") else ""
        return f"{'gains' if k == 'gain' else 'pays'} {e.get('effect')}: {_delta(e)}{lost}"
    if k == "track":
        lost = f", {e['lost']} lost" if e.get("lost") else ""
        glory = f", glory {e.get('glory_before')}->{e.get('glory_after')}" \
            if e.get("glory_after") != e.get("glory_before") else ""
        return f"{e.get('player')} {e.get('track')} {e.get('before')} -> {e.get('after')}{lost}{glory}"
    if k == "automa_draw":
        kept = f", kept by {e['player']}" if e.get("player") else ""
        shuffled = " (deck reshuffled)" if e.get("is_reshuffled") else ""
        return (f"Automa card {e.get('acard')} drawn ({e.get('trigger')}){shuffled}: "
                f"move {e.get('move_timer') or 'none'}, flip {e.get('flip_combo')}, discard #{e.get('discard_pos')}, "
                f"{e.get('vp')} VP, {e.get('votes')} votes, symbol {e.get('symbol')}{kept}")
    if k == "automa_move":
        return f"Automa worker {e.get('from_space')} -> {e.get('to_space')}"
    if k == "automa_flip":
        return f"Automa flip {e.get('flip_combo')}: {e.get('flipped_timer') or 'nothing'} ({e.get('reason')})"
    if k == "council_votes":
        tied = ", tied" if e.get("is_tied") else ""
        return (f"{e.get('player')} bids {e.get('votes')} votes: privilege place {e.get('pos_before')} -> "
                f"{e.get('pos_after')}{tied}")
    if k == "council_reward":
        card = e.get("card") or f"no card ({e.get('automa_how')})"
        return f"{e.get('seat')} (rank {e.get('rank')}, +{e.get('bonus_vp')} VP) takes council card {card}"
    if k == "game_end":
        return (f"{e.get('seat')}: rank {e.get('rank')}{', WINNER' if e.get('is_winner') else ''} "
                f"({e.get('end_branch')})")
    return None


def event_line(e: dict[str, Any]) -> str:
    """One event in words: ``  [t=45.0s step 1] human: moves W2 mat -> 1-3p:green:top:1`` (the common events
    as a sentence, the others field by field)."""
    who = e.get("actor") or "system"
    when = f"t={e['t']:.1f}s" if isinstance(e.get("t"), (int, float)) else ""
    step = e.get("schedule_step")
    where = f"{when} step {step}" if step is not None else when
    text = _sentence(e)
    if text is None:
        body = _fields_text(e)
        text = e["event"].replace("_", " ") + (f" ({body})" if body else "")
    return f"  [{where}] {who}: {text}"


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log: one line per event (deck orders and clock bookkeeping skipped), a heading at the
    set-up, each round's start, council called and the council, and the final table. The headings come from
    the events themselves, so a log built part by part (``simlab play`` with a person playing) shows each once."""
    out: list[str] = []
    prev: dict[str, Any] | None = None
    for e in events:
        kind = e.get("event")
        if kind == "game_start":
            solo = e.get("solo")
            what = "solo against two Automas, level " + str(e.get("level")) if solo else f"{e['n_players']} players"
            out.append(f"Pendulum - game {e['game']} (game seed {e['seed']}), {what}, {e.get('time_model')} time")
            for s in e.get("seats", []):
                adv = ", advanced" if s.get("advanced_rules") else ""
                out.append(f"  {s['player']} (seat {s['seat']}): {s.get('spec')} - {s.get('character')}{adv}")
            continue
        if kind == "final":
            out.append("")
            out.append("=== Final ===")
            out.append(f"  end rule: {e.get('end_branch')}")
            out.append("  player   tracks (power/prestige/popularity)  glory  legendary  parchment  rank")
            for s in e["seats"]:
                tr = "/".join(str(s["tracks"][k]) for k in TRACK_NAMES)
                gl = "/".join(str(s["glory"][k]) for k in TRACK_NAMES)
                parch = s["parchment_total"] if s["reached_parchment"] else f"-{s['worst_track_distance']}"
                out.append(f"  {s['player']:<7}  {tr:<35}  {gl:<5}  {'yes' if s['legendary'] else 'no':<9}  "
                           f"{parch!s:<9}  {s['rank']}")
            for a in e.get("automas", []):
                out.append(f"  {a['automa']:<7}  score space {a['space']} ({a['kind']}), reached parchment "
                           f"{'yes' if a['reached_parchment'] else 'no'}, label {a['distance_label_read']}, "
                           f"rank {a['rank']}")
            names = [agent_name(w, bool(e.get("automas"))) for w in e["winners"]]
            if e.get("automa_won"):
                names.append(e["automa_won"])
            out.append("  winner: " + (", ".join(names) if names else "nobody"))
            continue
        if kind in _SKIP:
            continue
        heading = None
        if kind == "setup":
            heading = "set-up"
        elif kind == "timer_flip" and e.get("flipper") == "round_start" and not (
                prev is not None and prev.get("event") == "timer_flip" and prev.get("flipper") == "round_start"):
            heading = f"round {e.get('round')}: real time"
        elif kind == "council_called":
            heading = f"round {e.get('round')}: council called"
        elif kind in ("council_automa_vp", "council_votes") and prev is not None and prev.get("phase") != "council":
            heading = f"round {e.get('round')}: council"
        if heading:
            out.append("")
            out.append(f"--- {heading} ---")
        prev = e
        out.append(event_line(e))
    return out
