"""The Pendulum position as text (the board a person plays from) and the legend of its notation."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.pendulum.codes import (
    AREA_NAMES,
    OPT_LEVEL,
    OPT_PARCHMENT_FIRST,
    OPT_RES_CAP,
    OPT_TIME_MODEL,
    OPT_TRACK_LAST,
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
    TIME_MODELS,
    TIMER_NAMES,
    TRACK_NAMES,
    W_GONE,
)
from simlab.games.pendulum.render.actions import _has_run_out, _pending
from simlab.games.pendulum.render.names import _tables, actor_name, character_name, province_id, seat_tag, strat_name
from simlab.games.pendulum.render.words import (
    acard_words,
    achievement_words,
    council_words,
    effect_words,
    province_words,
    space_short,
    space_words,
    strat_words,
    worker_words,
)
from simlab.games.pendulum.tables import (
    LEVELS,
    SP_AREA,
    SP_COMMON_BLOCKED,
    SP_NEUTRAL,
    SP_POS,
    SP_ROW,
    TR_GIDX,
    TR_KIND,
    TR_LABEL,
    TR_PIDX,
    TRACK_KINDS,
)

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



def _worker_code(rec: np.void, p: int, w: int) -> str:
    return f"{seat_tag(p)}{'G' if rec['w_grande'][p, w] else 'c'}{w + 1}"


def _space_occupants(rules: Any, rec: np.void, d: int) -> tuple[list[str], list[str]]:
    """Who stands in a space's top frame and bottom box (codes: s0G1 grande, s0c2 common, AUT, NEU)."""
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
    view = "referee view" if seat is None else f"view of seat {seat}"
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
        lines.append(f"Round {int(rec['round'])} · {when}{called} · to act: seat {actor} ({todo})")
    if int(rec["sched_step"]) >= 0 and int(rec["sched_step"]) < int(t["n_sched"]):
        due = int(t["sched"][int(rec["sched_step"]), 1])
        names = [TIMER_NAMES[k] for k in range(3) if due >> k & 1]
        if names:
            lines.append(f"  due at this step: {', '.join(names)}")
    if int(rec["sched_step"]) < 0 and not rec["over"]:
        ready = [f"seat {p} {float(rec['ready_at'][p]):.1f} s" + (" (waiting for a timer)" if rec["waiting"][p]
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
    order = [actor_name(int(a), False) if int(a) >= 5 else f"seat {int(a)}" for a in rec["priv"][: int(rec["n_priv"])]]
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
    out = [f"seat {p}{you} {character_name(rules, int(rec['char'][p]))}{adv}"]
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
  [s0G1 AUT]   who stands in a space's top frame: s0G1 = seat 0's worker W1, a grande (c = common);
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
