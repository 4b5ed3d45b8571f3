"""The readable Pendulum log: one sentence per trace event, a heading per phase, the final table."""

from __future__ import annotations

from typing import Any

from simlab.games.pendulum.codes import (
    RESOURCE_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.render.names import agent_name

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
