"""Smartphone Inc. as text: action descriptions, the position, trace events, the readable log, menus."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.smartphone.arrangements import ABBREV, arrangements
from simlab.games.smartphone.data import BONUSES, EFFECTS, SYMBOLS, TECHNOLOGIES
from simlab.games.smartphone.rules import (
    A_ARR,
    A_DONE,
    A_GAMEPAD,
    A_LOGISTICS,
    A_MOVE_FROM,
    A_MOVE_TO,
    A_NFC,
    A_PICK,
    A_PLACE,
    A_RB_PRICE,
    A_RB_RESEARCH,
    A_RB_SECOND,
    A_RESEARCH,
    A_SELL,
    A_WIFI,
    ALLOW_LOGISTICS,
    ALLOW_RESEARCH,
    ALLOW_UPGRADES,
    E_WIFI_KEEP,
    EV_ALLOWANCE,
    EV_BONUS,
    EV_CONTROL,
    EV_FINAL,
    EV_GOODS,
    EV_INCOME,
    EV_LOST,
    EV_LPROGRESS,
    EV_MARKERS_LOST,
    EV_MOVE,
    EV_NFC,
    EV_OFFICE,
    EV_ORDER,
    EV_PICK,
    EV_PLACE,
    EV_PLAN,
    EV_PLAN_SYMBOLS,
    EV_PRICE,
    EV_PRICE_CHANGE,
    EV_PRIORITY_KEY,
    EV_PRODUCE,
    EV_RESEARCHED,
    EV_RETAILER,
    EV_ROUND,
    EV_RPROGRESS,
    EV_SALE,
    EV_SEAT,
    EV_TECH_SIDE,
    EV_TOKEN,
    EV_TURN_END,
    EV_TURN_START,
    MAX_SLOTS,
)
from simlab.games.smartphone.state import DECISION_NAMES, PAD_N

PHASES = ("", "planning", "pricing", "production", "upgrade", "research", "logistics", "sales", "income")
OFFICE_SOURCES = ("logistics", "WI-FI", "GAMEPAD", "retailer second office", "move")
PAD_COLS = 7
SHOWN = ("goods", "price_down", "price_up", "upgrade", "research", "logistics")
COUNTED = (*SHOWN, "blank")  # EV_PLAN_SYMBOLS argument order
ALLOWANCES = {ALLOW_UPGRADES: "upgrades", ALLOW_RESEARCH: "research", ALLOW_LOGISTICS: "logistics"}
UNLIMITED = 1000  # progress_supply without component limits


def _region(rules: Any, r: int) -> str:
    return rules.data.regions[r].id


def _upgrade(rules: Any, u: int) -> str:
    up = rules.data.upgrades[u]
    return f"{up.id}[{ABBREV[up.halves[0]]}|{ABBREV[up.halves[1]]}]"


def _buyer(rules: Any, b: int) -> str:
    reg, pos, kind, cap, tech = (int(x) for x in rules.data.buyer_array[b])
    what = f"red <= {cap}" if kind == 0 else f"purple {TECHNOLOGIES[tech]}"
    return f"{_region(rules, reg)} buyer position {pos} ({what})"  # buyers.csv's position, from 0


def buyer_fields(rules: Any, b: int) -> dict[str, Any]:
    """Buyer row b as trace fields: region, index (0-based, left to right), kind, cap (red) or technology."""
    reg, pos, kind, cap, tech = (int(x) for x in rules.data.buyer_array[b])
    return {"region": _region(rules, reg), "index": pos, "kind": ("red", "purple")[kind],
            "cap": cap if kind == 0 else None, "technology": TECHNOLOGIES[tech] if kind == 1 else None}


def _placement(p: Any) -> dict[str, Any]:
    return {"tablet": p.tablet, "side": p.side, "rotation": p.rotation, "row": p.row, "col": p.col}


def _cell(pos: int) -> list[int]:
    """A padded frame position as [row, col] of the arrangement frame (-1 or the frame size: overhang)."""
    r, c = divmod(pos, PAD_COLS)
    return [r - 1, c - 1]


def _tie_value(hi: int, lo: int) -> int:
    return ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)


def arrangement_counts(rules: Any, i: int) -> dict[str, int]:
    """Active symbols and hidden cells of arrangement i with no upgrade laid."""
    T = rules.T
    counts = {SYMBOLS[k]: int(T.arr_counts[i, k]) for k in range(len(SYMBOLS)) if SYMBOLS[k] != "blank"}
    counts["hidden"] = int(T.arr_hidden[i])
    return counts


def arrangement_label(rules: Any, i: int) -> str:
    """e.g. ``#12 goods 3 + hidden 4, price -2, research 1, logistics 0, upgrade``."""
    c = arrangement_counts(rules, i)
    price = c["price_up"] - c["price_down"]
    parts = [f"goods {c['goods']}+{c['hidden']} hidden", f"price {price:+d}", f"research {c['research']}",
             f"logistics {c['logistics']}"]
    if c["upgrade"]:
        parts.append(f"upgrade x{c['upgrade']}")
    return f"arrangement {i}: " + ", ".join(parts)


def arrangement_grid(rules: Any, i: int, low: np.ndarray | None = None, top: np.ndarray | None = None) -> list[str]:
    """The visible grid of arrangement i (upgrade halves shown in capitals), one string per row."""
    T = rules.T
    grid = T.arr_grid[i]
    layers = T.arr_layers[i]
    rows = []
    for r in range(PAD_N // PAD_COLS):
        line = []
        for c in range(PAD_COLS):
            x = r * PAD_COLS + c
            sym = int(grid[x]) if layers[x] else -1
            up = False
            if top is not None and top[x] >= 0:
                sym, up = int(top[x]), True
            elif low is not None and low[x] >= 0 and layers[x] == 1:
                sym, up = int(low[x]), True
            if sym < 0:
                line.append("  ")
            else:
                s = ABBREV[SYMBOLS[sym]]
                line.append(s.upper() if up else s)
        rows.append(" ".join(line).rstrip())
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return rows


def describe_action(rules: Any, rec: np.void, action: int) -> str:
    """A one-line description of an action in this position."""
    a = int(action)
    d = DECISION_NAMES[int(rec["pending"])]
    p = int(rec["actor"])
    if a == A_DONE:
        return {"place_upgrade": "done laying upgrades", "research": "stop researching (markers lost)",
                "logistics": "stop logistics (markers lost)", "sell": "stop selling"}.get(d, "done")
    if A_ARR <= a < A_PLACE:
        return arrangement_label(rules, a - A_ARR)
    if A_PLACE <= a < A_PICK:
        x = a - A_PLACE
        o = x % 2
        x //= 2
        h, k = divmod(x, MAX_SLOTS)
        u = int(rec["hand"][p, h])
        arr = int(rec["plan_arr"][p])
        slot = rules.T.slots[arr, k]
        pa, pb = int(slot[0]), int(slot[1])
        up = rules.data.upgrades[u]
        halves = up.halves if o == 0 else up.halves[::-1]
        level = "on top" if int(slot[2]) == 0 else "under the upper tablet"
        over = ", overhanging (4G)" if int(slot[3]) else ""
        return (f"lay {up.id} {ABBREV[halves[0]]} at {_rc(pa)} and {ABBREV[halves[1]]} at {_rc(pb)} "
                f"{level}{over}")
    if A_PICK <= a < A_RESEARCH:
        return f"take upgrade {_upgrade(rules, int(rec['display'][a - A_PICK]))}"
    if A_RESEARCH <= a < A_LOGISTICS:
        return f"research marker on {TECHNOLOGIES[a - A_RESEARCH]}"
    if A_LOGISTICS <= a < A_WIFI:
        return f"logistics marker on {_region(rules, a - A_LOGISTICS)}"
    if A_WIFI <= a < A_GAMEPAD:
        return f"WI-FI: second office in {_region(rules, a - A_WIFI)}"
    if A_GAMEPAD <= a < A_NFC:
        return f"GAMEPAD: office in {_region(rules, a - A_GAMEPAD)}"
    if A_NFC <= a < A_SELL:
        return f"NFC: sell {a - A_NFC} goods directly"
    if A_SELL <= a < A_RB_RESEARCH:
        return f"sell to {_buyer(rules, a - A_SELL)}"
    if A_RB_RESEARCH <= a < A_RB_PRICE:
        return f"retailer bonus: research marker on {TECHNOLOGIES[a - A_RB_RESEARCH]}"
    if A_RB_PRICE <= a < A_RB_SECOND:
        return "retailer bonus: raise price by 1" if a - A_RB_PRICE else "retailer bonus: lower price by 1"
    if A_RB_SECOND <= a < A_MOVE_FROM:
        return f"retailer bonus: second office in {_region(rules, a - A_RB_SECOND)}"
    if A_MOVE_FROM <= a < A_MOVE_TO:
        return f"retailer bonus: move an office from {_region(rules, a - A_MOVE_FROM)}"
    return f"retailer bonus: move the office to {_region(rules, a - A_MOVE_TO)}"


def _rc(pos: int) -> str:
    r, c = divmod(pos, PAD_COLS)
    return f"({r - 1},{c - 1})"


EFFECT_WORDS = {
    "GPS_DOUBLE_GOODS_SYMBOL": "each goods symbol makes 2 goods (phase 3)",
    "GPS_GAIN_5_GOODS": "gain 5 goods at once (once)",
    "WIFI_SECOND_OFFICE": "a second office in a region where you have one (phase 6)",
    "WIFI_KEEP_UNSOLD": "goods you cannot sell are kept for the next round",
    "GAMEPAD_TECH_DISCOUNT": "technologies cost you 1 marker less",
    "GAMEPAD_SMALL_REGION_OFFICE": "an office in a small region where you have none (phase 6)",
    "LIION_PRICE_UP_IS_LOGISTICS": "each +$ symbol also counts as a logistics symbol (phase 6)",
    "LIION_GOODS_PER_TWO_TECHS": "1 good per 2 technologies you have (phase 3)",
    "NFC_DIRECT_SALE": "sell 1-3 goods directly at your price (phase 6)",
    "NFC_PRICE_PLUS_ONE": "your price +1, now and every phase 2",
    "4G_UPGRADE_OVERHANG": "one half of an upgrade may stick out beyond the tablets (phase 1)",
    "4G_SELL_OUTSIDE": "sell 1 good in a region where you have no office (phase 7)",
}

BONUS_WORDS = {
    "NONE": "no bonus",
    "GOODS": "gain {n} goods",
    "RESEARCH": "{n} research marker(s)",
    "PRICE_PLUS_OR_MINUS_1": "price +1 or -1",
    "SECOND_OFFICE": "a second office in a region where you have one",
    "MOVE_OFFICE": "move one of your offices",
}


def _effect_words(effect: str) -> str:
    return EFFECT_WORDS.get(effect, effect)


def _bonus_words(bonus: str, amount: int) -> str:
    return BONUS_WORDS.get(bonus, bonus).format(n=amount)


def labelled_grid(rules: Any, i: int, low: np.ndarray | None = None, top: np.ndarray | None = None) -> list[str]:
    """The visible grid of arrangement i with row and column numbers (upgrade halves in capitals).

    The numbers are the ``(row,col)`` of the menus' upgrade placements; a row or column beyond the
    tablets (-1, or past the last) shows only when something lies there (4G's overhang).
    """
    T = rules.T
    grid = T.arr_grid[i]
    layers = T.arr_layers[i]
    cells: dict[tuple[int, int], str] = {}
    for x in range(PAD_N):
        sym = int(grid[x]) if layers[x] else -1
        up = False
        if top is not None and top[x] >= 0:
            sym, up = int(top[x]), True
        elif low is not None and low[x] >= 0 and layers[x] == 1:
            sym, up = int(low[x]), True
        if sym >= 0:
            r, c = divmod(x, PAD_COLS)
            text = ABBREV[SYMBOLS[sym]]
            cells[(r - 1, c - 1)] = text.upper() if up else text
    if not cells:
        return []
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    out = ["row\\col  " + " ".join(f"{c:<2}" for c in cols).rstrip()]
    for r in rows:
        out.append(f"{r:>7}  " + " ".join(cells.get((r, c), "  ") for c in cols).rstrip())
    return out


def _done_loss(rules: Any, rec: np.void) -> str | None:
    """What ``A_DONE`` throws away in this position (None: nothing)."""
    d = DECISION_NAMES[int(rec["pending"])]
    p = int(rec["actor"])
    markers = int(rec["markers"])
    if d in ("research", "logistics") and markers > 0:
        return f"lose {markers} unplaced {d} marker{'s' if markers > 1 else ''}"
    if d == "sell" and int(rec["goods"][p]) > 0:
        T = rules.T
        t = int(T.effect_tech[E_WIFI_KEEP])
        if rec["researched"][p, t] and int(T.tech_effect[t, int(rec["tech_side"][t])]) == E_WIFI_KEEP:
            return None  # WI-FI keeps them
        goods = int(rec["goods"][p])
        return f"lose {goods} unsold good{'s' if goods > 1 else ''}"
    return None


def action_menu(rules: Any, rec: np.void, legal: list[int]) -> list[tuple[str, Any]]:
    """The legal actions as a menu. Arrangements are grouped by the symbols they yield, best goods first;
    upgrade placements by upgrade; other decisions list their actions. A stop that throws something away
    (research or logistics markers, unsold goods) comes last and asks for confirmation (a one-entry menu)."""
    legal = [int(a) for a in legal]
    if legal and A_ARR <= legal[0] < A_PLACE:
        groups: dict[tuple, list[int]] = {}
        for a in legal:
            c = arrangement_counts(rules, a - A_ARR)
            key = (c["goods"] + c["hidden"], c["price_up"] - c["price_down"], c["research"], c["logistics"],
                   c["upgrade"] > 0)
            groups.setdefault(key, []).append(a)
        menu = []
        for key in sorted(groups, key=lambda k: (-k[0], k[1], -k[2], -k[3], -k[4])):
            goods, price, res, logi, upg = key
            label = (f"goods {goods}, price {price:+d}, research {res}, logistics {logi}"
                     + (", upgrade" if upg else "") + f"  ({len(groups[key])} layouts)")
            sub = [(describe_action(rules, rec, a) + "\n        " + "\n        ".join(labelled_grid(rules, a - A_ARR)),
                    a) for a in groups[key]]
            menu.append((label, sub if len(sub) > 1 else sub[0][1]))
        return menu
    if any(A_PLACE <= a < A_PICK for a in legal):
        p = int(rec["actor"])
        arr = int(rec["plan_arr"][p])
        plan = "\n        ".join(["your plan now:", *labelled_grid(rules, arr, rec["pl_low"][p], rec["pl_top"][p])])
        by_upgrade: dict[int, list[int]] = {}
        for a in legal:
            if A_PLACE <= a < A_PICK:
                h = ((a - A_PLACE) // 2) // MAX_SLOTS
                by_upgrade.setdefault(h, []).append(a)
        menu = []
        for h, acts in by_upgrade.items():
            menu.append((f"lay {_upgrade(rules, int(rec['hand'][p, h]))}; {plan}",
                         [(describe_action(rules, rec, a), a) for a in acts]))
        if A_DONE in legal:
            menu.append((describe_action(rules, rec, A_DONE) + " (unused upgrades make 1 good each)", A_DONE))
        return menu
    menu = [(describe_action(rules, rec, a), a) for a in legal if a != A_DONE]
    if A_DONE in legal:
        loss = _done_loss(rules, rec)
        stop = describe_action(rules, rec, A_DONE).split(" (")[0]
        if loss is None or not menu:
            menu.append((stop + (f": {loss}" if loss else ""), A_DONE))
        else:
            menu.append((f"{stop}: {loss} (asks to confirm)",
                         [(f"yes, {stop} and {loss} (b: no, go back)", A_DONE)]))
    return menu


def render_state(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The position as text (other seats' plans hidden during phase 1 when ``seat`` is given)."""
    n = int(rec["n_players"])
    data = rules.data
    T = rules.T
    colours = [data.colours[int(rec["colour"][p])] for p in range(n)]
    lines = [f"Round {int(rec['round'])}, phase {int(rec['phase'])} ({PHASES[int(rec['phase'])]})"
             + ("" if rec["over"] else f"; seat {int(rec['actor'])} to act: {DECISION_NAMES[int(rec['pending'])]}")]
    disp = [_upgrade(rules, int(u)) for u in rec["display"] if u >= 0]
    lines.append("Upgrade display: " + (", ".join(disp) if disp else "(empty)"))
    lines.append("Technologies (cost in research markers; the first to research one takes its patent):")
    for t, name in enumerate(TECHNOLOGIES):
        owner = int(rec["patent_owner"][t])
        eff = EFFECTS[int(T.tech_effect[t, int(rec["tech_side"][t])])]
        has = [f"s{p}" for p in range(n) if rec["researched"][p, t]]
        lines.append(f"  {name:8s} {_effect_words(eff)}; patent {'seat ' + str(owner) if owner >= 0 else 'free'}"
                     + (f"; researched by {', '.join(has)}" if has else ""))
    for p in range(n):
        mark = "you, " if seat == p else ""
        techs_p = [TECHNOLOGIES[t] for t in range(len(TECHNOLOGIES)) if rec["researched"][p, t]]
        hand = [_upgrade(rules, int(rec["hand"][p, h])) for h in range(int(rec["hand_n"][p]))]
        lines.append(
            f"Seat {p} ({mark}{colours[p]}): VP {int(rec['vp'][p])}, price {int(rec['price'][p])}, "
            f"goods {int(rec['goods'][p])}, tokens {int(rec['tokens'][p])}, "
            f"technologies {', '.join(techs_p) or '-'}, hand {', '.join(hand) or '-'}")
        if int(rec["plan_arr"][p]) >= 0 and (seat is None or seat == p or int(rec["phase"]) != 1):
            grid = labelled_grid(rules, int(rec["plan_arr"][p]), rec["pl_low"][p], rec["pl_top"][p])
            lines += ["    " + g for g in grid]
    lines.append("Map (s0 = seat 0; buyers: red<=4 pays a price up to 4, purple GPS needs GPS; [--] free, "
                 "[s1] seat 1's phone on it):")
    for r, reg in enumerate(data.regions):
        n_off = int(rec["office_n"][r])
        offices = [f"s{int(x)}" for x in rec["office"][r][:n_off]]
        k = min(n_off, int(T.region[r, 4]) - 1)
        head = (f"  {reg.id} ({reg.size}): offices {' '.join(offices) or '-'} ({n_off} of {int(rec['places'][r])}"
                f" places")
        if rec["retailer"][r] >= 0:
            side = data.retailers[int(rec["retailer"][r])][int(rec["retailer_side"][r])]
            lines.append(head + f"); retailer {side.id}{side.side}: {_bonus_words(side.bonus, side.bonus_amount)}"
                         f" for its office, no sales here")
            continue
        lines.append(head + f", next costs {int(T.place_cost[r, k])} logistics)")
        first, count = int(T.region[r, 5]), int(T.region[r, 6])
        cells = []
        for b in range(first, first + count):
            _, pos, kind, cap, tech = (int(x) for x in data.buyer_array[b])
            what = f"red<={cap}" if kind == 0 else f"purple {TECHNOLOGIES[tech]}"
            owner = int(rec["buyer_owner"][b])
            cells.append(f"{pos}:{what} [{'s' + str(owner) if owner >= 0 else '--'}]")
        lines.append("      buyers " + "  ".join(cells))
    return "\n".join(lines)


LEGEND = """\
How to read the board and the choices (shown once; type h to see it again):
  symbols     gd goods, -$ price down, +$ price up, up upgrade, rs research, lg logistics, .. blank;
              CAPITALS: a symbol on an upgrade you laid. "hidden": cells of the lower tablet the upper
              tablet covers (1 good each).
  grid        your two tablets as laid: row numbers down the side, column numbers on top; "(0,1)" in a
              choice is row 0, column 1.
  U14[gd|-$]  upgrade U14 with its two halves; SU-...: a starting upgrade.
  price       what each phone sells for (VP per sale) and your place in the priority order (lower first).
  goods       phones made this round, to sell in phase 7; tokens: goods tokens (1 good each in phase 3).
  map         offices: s0 = seat 0's office; "1 of 3 places" and the logistics markers the next one costs.
              buyers "0:red<=4": buyers.csv's position 0 (from 0, as specs take it) buys a phone priced 4
              or less, "1:purple GPS" needs GPS researched; offices take places 0, 1, ... (office_places.csv);
              [s1] = seat 1's phone lies on it this round, [--] = free. A retailer region has no buyers.
  techs       each technology's effect is shown in words; the patent goes to the first to research it.
  (asks to confirm)  a choice that throws something away: its number again confirms, b goes back."""


def legend(rules: Any) -> str:
    """The notation of the board and the menus, for a person (``human`` shows it at the first decision)."""
    return LEGEND


def log_to_events(rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
    """The kernel's event log as trace dicts."""
    n_events = int(log[0, 0])
    events: list[dict[str, Any]] = []
    data = rules.data
    arrs = arrangements(data).arrangements
    laid: dict[int, list[dict[str, Any]]] = {}  # upgrade_laid events of the plan being made, per seat
    keys: list[dict[str, Any]] = []  # priority keys waiting for their priority event
    for row in log[1: n_events + 1]:
        kind, rnd, phase, seat = (int(x) for x in row[:4])
        a = [int(x) for x in row[4:]]
        base = {"round": rnd, "phase": phase}
        if kind == EV_SEAT:
            e = {"event": "seat", "seat": seat, "colour": data.colours[a[0]], "start_region": _region(rules, a[1]),
                 "starting_upgrade": data.upgrades[a[2]].id}
        elif kind == EV_RETAILER:
            tile = data.retailers[a[1]][a[2]]
            e = {"event": "retailer", "region": _region(rules, a[0]), "tile": tile.id, "side": tile.side,
                 "bonus": tile.bonus, "amount": tile.bonus_amount}
        elif kind == EV_TECH_SIDE:
            e = {"event": "technology_side", "technology": TECHNOLOGIES[a[0]], "side": ("face", "back")[a[1]],
                 "effect": EFFECTS[a[2]]}
        elif kind == EV_ROUND:
            e = {"event": "round_start", **base, "display": [data.upgrades[u].id for u in a[:5] if u >= 0]}
        elif kind == EV_PLAN:
            arr = arrs[a[0]]
            e = {"event": "plan", **base, "seat": seat, "arrangement": a[0], "lower": _placement(arr.lower),
                 "upper": _placement(arr.upper), "hidden": a[2], "upgrades_laid": a[1],
                 "upgrades": [{k: v for k, v in u.items() if k in ("upgrade", "symbols", "cells", "level",
                                                                    "overhang")} for u in laid.pop(seat, [])],
                 "active": {"goods": a[3], "price_down": a[4], "price_up": a[5], "upgrade": a[6],
                            "research": a[7] // 100, "logistics": a[7] % 100}}
        elif kind == EV_PLAN_SYMBOLS:
            if events and events[-1]["event"] == "plan" and events[-1]["seat"] == seat:
                name = ("tablet_symbols", "upgrade_symbols")[a[0]]
                events[-1][name] = {sym: a[1 + i] for i, sym in enumerate(COUNTED)}
            continue
        elif kind == EV_PLACE:
            up = data.upgrades[a[0]]
            halves = list(up.halves if a[2] == 0 else up.halves[::-1])
            e = {"event": "upgrade_laid", **base, "seat": seat, "upgrade": up.id, "slot": a[1],
                 "reversed": bool(a[2]), "symbols": halves, "cells": [_cell(a[3]), _cell(a[4])],
                 "level": ("top", "under")[a[5]], "overhang": bool(a[6])}
            laid.setdefault(seat, []).append(e)
        elif kind == EV_PRICE:
            e = {"event": "price", **base, "seat": seat, "price": a[0]}
        elif kind == EV_PRODUCE:
            e = {"event": "production", **base, "seat": seat, "goods": a[0], "symbols": a[1], "hidden": a[2],
                 "unused_upgrades": a[3], "tokens": a[4], "technology": a[5], "in_organiser": a[6]}
        elif kind == EV_PRIORITY_KEY:
            keys.append({"seat": seat, "price": a[2], "vp": a[3], "produced": a[4], "technologies": a[5],
                         "patents": a[6], "tiebreak": _tie_value(a[0], a[1])})
            continue
        elif kind == EV_ORDER:
            e = {"event": "priority", **base, "order": a[: a[5]], "recomputed": bool(keys), "keys": keys or None}
            keys = []
        elif kind == EV_TURN_START:
            e = {"event": "turn_start", **base, "seat": seat, "turn": a[0]}
        elif kind == EV_TURN_END:
            e = {"event": "turn_end", **base, "seat": seat, "goods": a[0], "vp": a[1], "price": a[2]}
        elif kind == EV_ALLOWANCE:
            e = {"event": "allowance", **base, "seat": seat, "kind": ALLOWANCES[a[0]], "count": a[1],
                 "symbols": a[2], "li_ion": a[3], "supply": None if a[0] == ALLOW_UPGRADES or a[4] >= UNLIMITED
                 else a[4]}
        elif kind == EV_PICK:
            e = {"event": "upgrade_taken", **base, "seat": seat, "upgrade": data.upgrades[a[0]].id, "position": a[1]}
        elif kind == EV_TOKEN:
            e = {"event": "goods_token", **base, "seat": seat, "received": bool(a[0])}
        elif kind == EV_RPROGRESS:
            e = {"event": "research_progress", **base, "seat": seat, "technology": TECHNOLOGIES[a[0]],
                 "progress": a[1], "cost": a[2], "source": ("research", "retailer")[a[3]]}
        elif kind == EV_RESEARCHED:
            e = {"event": "researched", **base, "seat": seat, "technology": TECHNOLOGIES[a[0]], "patent": bool(a[1]),
                 "effect": EFFECTS[a[2]]}
        elif kind == EV_LPROGRESS:
            e = {"event": "logistics_progress", **base, "seat": seat, "region": _region(rules, a[0]),
                 "progress": a[1], "cost": a[2]}
        elif kind == EV_OFFICE:
            e = {"event": "office", **base, "seat": seat, "region": _region(rules, a[0]), "place": a[1],
                 "source": OFFICE_SOURCES[a[2]]}
        elif kind == EV_BONUS:
            e = {"event": "retailer_bonus", **base, "seat": seat, "region": _region(rules, a[0]),
                 "bonus": BONUSES[a[1]], "amount": a[2]}
        elif kind == EV_PRICE_CHANGE:
            e = {"event": "price_change", **base, "seat": seat, "source": ("NFC", "retailer")[a[1]],
                 "change": a[2], "before": a[3], "price": a[0]}
        elif kind == EV_NFC:
            e = {"event": "nfc_sale", **base, "seat": seat, "goods": a[0], "price": a[2], "vp": a[1]}
        elif kind == EV_SALE:
            e = {"event": "sale", **base, "seat": seat, "buyer": buyer_fields(rules, a[0]), "buyer_row": a[0],
                 "region": _region(rules, a[1]), "outside": bool(a[2]), "text": _buyer(rules, a[0])}
        elif kind == EV_LOST:
            e = {"event": "unsold", **base, "seat": seat, "goods": a[0], "kept": bool(a[1])}
        elif kind == EV_INCOME:
            e = {"event": "income", **base, "seat": seat, "goods_on_board": a[0], "price": a[1], "vp": a[2]}
        elif kind == EV_CONTROL:
            e = {"event": "control", **base, "seat": seat if seat >= 0 else None, "region": _region(rules, a[0]),
                 "vp": a[1], "goods": a[2], "tied": a[3] if a[3] > 1 else 0}
        elif kind == EV_GOODS:
            e = {"event": "goods_gained", **base, "seat": seat, "goods": a[0], "source": ("GPS", "retailer")[a[1]]}
        elif kind == EV_MOVE:
            e = {"event": "office_moved", **base, "seat": seat, "from": _region(rules, a[0]), "from_place": a[2],
                 "to": _region(rules, a[1])}
        elif kind == EV_FINAL:
            e = {"event": "score", "seat": seat, "total": a[0], "vp_track": a[1], "patents": a[2], "retailers": a[3],
                 "rank": a[4], "winner": bool(a[5])}
        elif kind == EV_MARKERS_LOST:
            e = {"event": "markers_lost", **base, "seat": seat, "markers": a[0],
                 "kind": ("research", "logistics", "retailer research")[a[1]]}
        else:
            e = {"event": f"unknown_{kind}", **base, "seat": seat, "args": a}
        events.append(e)
    if log[0, 1]:
        events.append({"event": "log_truncated"})
    return events


def start_event(rules: Any, rec: np.void, players: list[str], game_index: int) -> dict[str, Any]:
    """The ``game_start`` trace event."""
    n = int(rec["n_players"])
    return {
        "event": "game_start",
        "game": game_index,
        "seed": int(rec["seed"]),
        "players": list(players),
        "options": dict(rules.options),
        "colours": [rules.data.colours[int(c)] for c in rec["colour"][:n]],
        "start_regions": [_region(rules, int(r)) for r in rec["start_region"][:n]],
        **components(rules),
    }


def components(rules: Any) -> dict[str, Any]:
    """The printed components a reader needs to check a trace: tablets, upgrades, technologies, the map."""
    data = rules.data
    return {
        "tablets": [{"tablet": t, "side": side, "cells": [list(row) for row in cells]}
                    for (t, side), cells in data.tablets.items()],
        "upgrades": [{"upgrade": u.id, "kind": u.kind, "colour": u.colour, "symbols": list(u.halves)}
                     for u in data.upgrades],
        "technologies": [{"technology": t.id, "cost": t.base_cost, "patent_cost": t.patent_cost,
                          "patent_vp": t.patent_vp} for t in data.technologies],
        "regions": [{"region": r.id, "size": r.size, "entry_costs": list(r.entry_costs),
                     "control_vp": list(r.control_vp),
                     "buyers": [buyer_fields(rules, b) for b in range(len(data.buyer_array))
                                if int(data.buyer_array[b][0]) == i]}
                    for i, r in enumerate(data.regions)],
    }


def final_event(rules: Any, rec: np.void) -> dict[str, Any]:
    """The ``final`` trace event of a finished game."""
    n = int(rec["n_players"])
    seats = []
    for p in range(n):
        seats.append({
            "seat": p,
            "colour": rules.data.colours[int(rec["colour"][p])],
            "total": int(rec["total"][p]),
            "vp_track": int(rec["vp"][p]),
            "sales_vp": int(rec["sales_vp"][p]),
            "nfc_vp": int(rec["nfc_vp"][p]),
            "control_vp": int(rec["control_vp"][p]),
            "patent_vp": int(rec["patent_vp"][p]),
            "retailer_vp": int(rec["retailer_vp"][p]),
            "technologies": int(rec["n_techs"][p]),
            "patents": int(rec["n_patents"][p]),
            "rank": int(rec["rank"][p]),
        })
    return {"event": "final", "seats": seats, "winners": [p for p in range(n) if rec["winner"][p]]}


def _tied(keys: list[dict[str, Any]], q: dict[str, Any]) -> bool:
    """Whether another seat shares q's priority key up to the tie-break."""
    fields = ("price", "vp", "produced", "technologies", "patents")
    return any(o is not q and all(o[f] == q[f] for f in fields) for o in keys)


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log: set-up, each round's plans, then each phase's effects in priority order."""
    out: list[str] = []
    colour: dict[int, str] = {}
    laid: list[str] = []  # upgrade lines wait for their seat's plan line
    for e in events:
        k = e["event"]
        who = f"seat {e.get('seat')}" + (f" ({colour[e['seat']]})" if e.get("seat") in colour else "")
        if k == "game_start":
            out.append(f"Game {e['game']} (seed {e['seed']}): " + ", ".join(
                f"seat {i} {p} as {c} in {r}" for i, (p, c, r) in enumerate(
                    zip(e["players"], e["colours"], e["start_regions"], strict=False))))
            colour = dict(enumerate(e["colours"]))
        elif k == "seat":
            colour[e["seat"]] = e["colour"]
        elif k == "retailer":
            out.append(f"Retailer {e['tile']}{e['side']} covers {e['region']} (bonus {e['bonus']} {e['amount']})")
        elif k == "technology_side":
            out.append(f"{e['technology']} shows its {e['side']}: {e['effect']}")
        elif k == "round_start":
            out.append(f"=== Round {e['round']} === display: {', '.join(e['display']) or '(empty)'}")
        elif k == "plan":
            act = e["active"]
            lo, up = e["lower"], e["upper"]
            out.append(f"  {who} plans arrangement {e['arrangement']} (lower {lo['tablet']}{lo['side']}, upper "
                       f"{up['tablet']}{up['side']} turned {90 * up['rotation']} at ({up['row']},{up['col']})) "
                       f"with {e['upgrades_laid']} upgrade(s): {act['goods']} goods symbols, {e['hidden']} hidden, "
                       f"-$ x{act['price_down']}, +$ x{act['price_up']}, research {act['research']}, "
                       f"logistics {act['logistics']}, upgrade x{act['upgrade']}")
            if "upgrade_symbols" in e and any(e["upgrade_symbols"][x] for x in SHOWN):
                out.append("    of which on upgrades: " + ", ".join(
                    f"{x} {e['upgrade_symbols'][x]}" for x in SHOWN))
            out += laid
            laid = []
        elif k == "upgrade_laid":
            (r0, c0), (r1, c1) = e["cells"]
            laid.append(f"    lays {e['upgrade']} {e['symbols'][0]} at ({r0},{c0}), {e['symbols'][1]} at ({r1},{c1}) "
                        f"({e['level']}" + (", overhang" if e["overhang"] else "") + ")")
        elif k == "price":
            out.append(f"  {who} price {e['price']}")
        elif k == "production":
            out.append(f"  {who} produces {e['goods']} (symbols {e['symbols']}, hidden {e['hidden']}, unused "
                       f"upgrades {e['unused_upgrades']}, tokens {e['tokens']}, technology {e['technology']})")
        elif k == "priority":
            out.append(f" Phase {e['phase']} ({PHASES[e['phase']]}), priority: "
                       + " > ".join(f"seat {s}" for s in e["order"]))
            if e["keys"]:
                out.append("   keys (price, VP, produced, techs, patents): " + ", ".join(
                    f"seat {q['seat']} ({q['price']}, {q['vp']}, {q['produced']}, {q['technologies']}, "
                    f"{q['patents']})" + (f" tie-break {q['tiebreak']:#018x}" if _tied(e["keys"], q) else "")
                    for q in e["keys"]))
        elif k == "allowance":
            if e["kind"] == "upgrades":
                if e["count"]:
                    out.append(f"  {who} takes {e['count']} upgrade(s) ({e['symbols']} upgrade symbol(s))")
            else:
                extra = f" + {e['li_ion']} LI-ION +$" if e["li_ion"] else ""
                supply = f", {e['supply']} markers in supply" if e["supply"] is not None else ""
                out.append(f"  {who} has {e['count']} {e['kind']} marker(s) ({e['symbols']} symbol(s){extra}{supply})")
        elif k == "upgrade_taken":
            out.append(f"  {who} takes upgrade {e['upgrade']}")
        elif k == "goods_token":
            out.append(f"  {who} takes a goods token" if e["received"] else f"  {who}: no goods token left")
        elif k == "research_progress":
            out.append(f"  {who} research {e['technology']} {e['progress']}/{e['cost']}"
                       + (" (retailer)" if e["source"] == "retailer" else ""))
        elif k == "researched":
            out.append(f"  {who} researches {e['technology']}" + (" and takes the patent" if e["patent"] else "")
                       + f": {e['effect']}")
        elif k == "logistics_progress":
            out.append(f"  {who} logistics {e['region']} {e['progress']}/{e['cost']}")
        elif k == "office":
            out.append(f"  {who} opens an office in {e['region']} (place {e['place']}, {e['source']})")
        elif k == "retailer_bonus":
            out.append(f"  {who} retailer bonus {e['bonus']} {e['amount']}")
        elif k == "price_change":
            out.append(f"  {who} price {e['before']} -> {e['price']} ({e['source']}, {e['change']:+d})")
        elif k == "nfc_sale":
            out.append(f"  {who} NFC: sells {e['goods']} directly at {e['price']} for {e['vp']} VP")
        elif k == "sale":
            out.append(f"  {who} sells to {e['text']}" + (" (4G, no office)" if e["outside"] else ""))
        elif k == "unsold":
            if e["goods"]:
                out.append(f"  {who} {'keeps' if e['kept'] else 'loses'} {e['goods']} unsold goods")
        elif k == "income":
            out.append(f"  {who} income {e['goods_on_board']} x {e['price']} = {e['vp']} VP")
        elif k == "control":
            if e["seat"] is None:
                out.append(f"  {e['region']}: control tied at {e['goods']} goods, nobody scores")
            else:
                tie = f" (tied by {e['tied']} seats)" if e["tied"] else ""
                out.append(f"  {who} controls {e['region']} with {e['goods']} goods{tie}: {e['vp']} VP")
        elif k == "goods_gained":
            out.append(f"  {who} gains {e['goods']} goods ({e['source']})")
        elif k == "office_moved":
            out.append(f"  {who} moves an office from {e['from']} (place {e['from_place']}) to {e['to']}")
        elif k == "markers_lost":
            out.append(f"  {who} loses {e['markers']} unplaced {e['kind']} marker(s)")
        elif k == "score":
            out.append(f"Final {who}: {e['total']} = {e['vp_track']} track + {e['patents']} patents + "
                       f"{e['retailers']} retailers, rank {e['rank']}" + (" WINNER" if e["winner"] else ""))
        elif k == "final":
            out.append("Winners: " + ", ".join(f"seat {w}" for w in e["winners"]))
        elif k == "log_truncated":
            out.append("(log truncated)")
    return out
