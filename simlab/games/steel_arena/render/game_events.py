"""The trace's two whole-game events: the ``game_start`` header (data, options, layout, designs, robots)
and the ``final`` event (trophies, modules, ranks, teams)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.version import __version__
from simlab.games.steel_arena.data import (
    HEX_DIRECTIONS,
)
from simlab.games.steel_arena.render.names import (
    _cell,
    _instance_names,
    _robot_or_none,
    _seat_or_none,
    central_side,
    robot_name,
)
from simlab.games.steel_arena.state import (
    END_GEN3,
    END_REASONS,
)


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
