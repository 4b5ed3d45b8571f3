"""Pendulum's actions: the codes of a ruleset, their fields, a one-line description of each, and the
menu of choices a person picks from (workers first, then where they go or what they do)."""

from __future__ import annotations

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
    AREA_NAMES,
    DEST_MAT,
    N_DEST,
    PD_ADJACENT,
    PD_ALT,
    PD_CONQUER,
    PD_GLORY,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_TIMED_PLACE,
    PD_VP_ANY,
    PD_WILD_PAY,
    PH_PENDING,
    PH_REPLACE,
    PH_START,
    PH_STEP5,
    RESOURCE_NAMES,
    ROW_NAMES,
    SLOT_NAMES,
    T_PURPLE,
    TIMER_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.render.names import _plural, _tables, council_id, space_id, strat_name
from simlab.games.pendulum.render.words import (
    achievement_words,
    alt_words,
    council_words,
    effect_words,
    province_words,
    space_short,
    space_words,
    strat_words,
    worker_words,
)
from simlab.games.pendulum.tables import (
    SP_AREA,
    SP_COST,
    SP_NALT,
    SP_REWARD0,
)


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
    ``resource gold``, ``W2`` (a seat's workers W1..W4, as the board and the log call them), ``council card F3``,
    ``conquer display1 -> red``, ``yes``..."""
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
        return f"{'lift ' if k == A_LIFT else ''}W{d['worker'] + 1}"
    if k == A_MOVE:
        return f"move W{d['worker'] + 1} -> {space_id(rules, d['dest'])}"
    if k == A_ACTION:
        return f"W{d['worker'] + 1} acts (alternative {d['alt']})"
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
