"""Solo Race as text: action descriptions, the position, the trace events and the readable log."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab_solo_race.rules import EV_AUTOMA, EV_MOVE, EV_ROUND, MOVE_NAMES, WALK_STEPS
from simlab_solo_race.state import N_MOVES

_MOVE_TEXT = {
    "walk": f"walk {WALK_STEPS} spaces",
    "roll": "roll: move the first die",
    "gamble": "gamble: move both dice, nothing if a 1 shows",
}


def describe_action(rules: Any, rec: np.void, action: int) -> str:
    """A one-line description of a move."""
    return _MOVE_TEXT[MOVE_NAMES[action]]


def action_menu(rules: Any, rec: np.void, legal: list[int]) -> list[tuple[str, Any]]:
    """The legal moves as ``(label, action)`` entries (no sub-menus)."""
    return [(describe_action(rules, rec, a), a) for a in legal]


def render_state(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The track: every racer's space, the special spaces, whose turn it is."""
    n = int(rec["n_players"])
    goal = int(rules.options["goal"])
    lines = [f"round {int(rec['round'])}, goal {goal}" + ("" if rec["over"] else f", seat {int(rec['actor'])} to move")]
    for p in range(n):
        you = " (you)" if seat == p else ""
        lines.append(f"  seat {p}{you}: space {int(rec['pos'][p])}")
    if rec["automa"]:
        lines.append(f"  Automa: space {int(rec['automa_pos'])}")
    specials = ", ".join(f"{s.space}:{s.shift:+d}" for s in rules.data.spaces if s.space < goal)
    lines.append(f"  special spaces: {specials or 'none'}")
    return "\n".join(lines)


def log_to_events(rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
    """The event log as trace events (see docs/trace.md, "Solo Race events")."""
    events: list[dict[str, Any]] = []
    r = 0
    for k in range(1, int(log[0, 0]) + 1):
        row = log[k]
        kind = int(row[0])
        if kind == EV_ROUND:
            r = int(row[1])
            events.append({"event": "round_start", "round": r})
        elif kind == EV_MOVE:
            events.append({"event": "move", "round": r, "seat": int(row[1]), "move": MOVE_NAMES[int(row[2])],
                           "dice": [int(row[3]), int(row[4])], "from": int(row[5]), "landed": int(row[6]),
                           "to": int(row[7])})
        elif kind == EV_AUTOMA:
            events.append({"event": "automa_move", "round": r, "die": int(row[1]), "steps": int(row[2]),
                           "from": int(row[3]), "landed": int(row[4]), "to": int(row[5])})
    if log[0, 1]:
        events.append({"event": "log_truncated"})
    return events


def start_event(rules: Any, rec: np.void, players: list[str], game_index: int) -> dict[str, Any]:
    """The ``game_start`` trace event: players, options, the special spaces, whether an Automa races."""
    return {
        "event": "game_start",
        "game": game_index,
        "seed": int(rec["seed"]),
        "players": list(players),
        "options": dict(rules.options),
        "spaces": [{"space": s.space, "shift": s.shift, "name": s.name} for s in rules.data.spaces],
        "automa": bool(rec["automa"]),
    }


def final_event(rules: Any, rec: np.void) -> dict[str, Any]:
    """The ``final`` trace event: per seat its space, moves and rank; the winners; the Automa's result."""
    n = int(rec["n_players"])
    seats = [{"seat": p, "score": int(rec["score"][p]), "rank": int(rec["rank"][p]),
              "moves": {MOVE_NAMES[m]: int(rec["moves"][p, m]) for m in range(N_MOVES)},
              "busts": int(rec["busts"][p])} for p in range(n)]
    event: dict[str, Any] = {"event": "final", "seats": seats, "winners": [p for p in range(n) if rec["winner"][p]]}
    if rec["automa"]:
        event["automa"] = {"score": int(rec["automa_pos"]), "rank": int(rec["automa_rank"]),
                           "won": bool(rec["automa_won"])}
    return event


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log for these trace events."""
    out: list[str] = []
    for e in events:
        kind = e["event"]
        if kind == "game_start":
            vs = " against the Automa" if e["automa"] else ""
            out.append(f"Solo Race, seed {e['seed']}: {', '.join(e['players'])}{vs}; goal {e['options']['goal']}")
        elif kind == "round_start":
            out.append(f"-- round {e['round']}")
        elif kind == "move":
            shift = f", shifted to {e['to']}" if e["to"] != e["landed"] else ""
            out.append(f"seat {e['seat']} {e['move']}s (dice {e['dice'][0]} {e['dice'][1]}): "
                       f"{e['from']} -> {e['landed']}{shift}")
        elif kind == "automa_move":
            shift = f", shifted to {e['to']}" if e["to"] != e["landed"] else ""
            out.append(f"Automa rolls {e['die']}, moves {e['steps']}: {e['from']} -> {e['landed']}{shift}")
        elif kind == "final":
            for s in e["seats"]:
                out.append(f"seat {s['seat']}: space {s['score']}, rank {s['rank']}")
            if "automa" in e:
                a = e["automa"]
                out.append(f"Automa: space {a['score']}, rank {a['rank']}" + (" (wins)" if a["won"] else ""))
            out.append("winners: " + (", ".join(f"seat {p}" for p in e["winners"]) or "the Automa"))
        elif kind == "log_truncated":
            out.append("(log truncated)")
    return out
