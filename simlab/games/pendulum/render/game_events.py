"""The trace's two whole-game events: the ``game_start`` header (ruleset, options, board, schedule, cards)
and the ``final`` event (tracks, parchment, ranks, the Automas' scores)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.version import __version__
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AREA_NAMES,
    COUNCIL_SLOT_NAMES,
    END_BRANCHES,
    OPT_AUTOMA_PARCHMENT_FIRST,
    OPT_LEVEL,
    OPT_PARCHMENT_BEYOND_ENTRY,
    OPT_PARCHMENT_FIRST,
    OPT_READ_ORDER0,
    OPT_TIME_MODEL,
    PHASE_NAMES,
    RESOURCE_NAMES,
    ROW_NAMES,
    SLOT_NAMES,
    TIME_MODELS,
    TIMER_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.render.names import (
    _names,
    _tables,
    acard_id,
    achievement_id,
    agent_name,
    character_name,
    council_id,
    province_id,
    space_id,
    strat_name,
    symbol_name,
)
from simlab.games.pendulum.render.words import effect_text
from simlab.games.pendulum.state import STREAM_NAMES
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
    CH_ADVANCED,
    CH_PROD0,
    CH_START_RES0,
    CH_START_TRACK0,
    CH_START_VOTES,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    COUNCIL_KINDS,
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
    ST_COST,
    ST_EFFECT,
    TR_DIST,
    TR_GIDX,
    TR_KIND,
    TR_LABEL,
    TR_PIDX,
    TRACK_KINDS,
)


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
        "rules": {"game": "pendulum", "package_version": __version__,
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
