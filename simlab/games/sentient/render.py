"""Sentient as text: action descriptions, the position, trace events and the readable log."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.sentient.data import TYPES
from simlab.games.sentient.rules import (
    ACT_PASS,
    ACT_PASS_NO_SWEEP,
    EV_CARD_SCORED,
    EV_INVESTOR,
    EV_PASS,
    EV_RESHUFFLE,
    EV_ROUND_END,
    EV_ROUND_START,
    EV_TAKE,
    PTS0,
    decode_buy,
    investor_count,
)
from simlab.games.sentient.state import N_DICE, N_TYPES

_CONDITION_TEXT = {
    "INF_TARGET": "{t} on a die: 2, both: 7",
    "SVC_8_MINUS_SUM": "8-(L+R)",
    "SVC_5_MINUS_MIN": "5-min",
    "SVC_7_MINUS_MAX": "7-max",
    "SVC_SUM_MINUS_6": "(L+R)-6",
    "SVC_MAX_MINUS_2": "max-2",
    "SVC_MIN_MINUS_1": "min-1",
    "TRN_LT": "L<R",
    "TRN_LE": "L<=R",
    "TRN_EQ": "L=R",
    "TRN_GT": "L>R",
    "TRN_GE": "L>=R",
    "DEF_SUM_LE4_OR_GE10": "L+R<=4 or >=10",
    "DEF_SUM_EQ7": "L+R=7",
    "DEF_DIFF_EQ1": "|L-R|=1",
    "DEF_DIFF_EQ2": "|L-R|=2",
    "DEF_SUM_LE5": "L+R<=5",
    "DEF_SUM_GE9": "L+R>=9",
    "IND_LEVEN_RODD": "L even, R odd",
    "IND_LODD_REVEN": "L odd, R even",
    "IND_SUM_ODD": "L+R odd",
    "IND_BOTH_ODD": "both odd",
}


def card_label(rules: Any, index: int) -> str:
    """A card as a short label: ``#32 transport L>R 4VP [-|+]``."""
    if index < 0:
        return "(empty)"
    c = rules.data.cards[index]
    cond = _CONDITION_TEXT[c.condition].format(t=c.param)
    vp = f" {c.printed_vp}VP" if c.printed_vp is not None else ""
    return f"#{c.id} {c.type} {cond}{vp} [{c.left}|{c.right}]"


def card_id(rules: Any, index: int) -> int | None:
    """Printed id of a card index (None for -1)."""
    return None if index < 0 else int(rules.cards[index, 0])


def describe_action(rules: Any, rec: np.void, action: int) -> str:
    """A one-line description of ``action`` for the player to move in ``rec``."""
    seat = int(rec["order"][rec["turn"]])
    if action == ACT_PASS:
        if rec["agents"][seat] == 0:
            return "pass (forced: no agents left; no sweep)"
        return "pass and sweep the factory"
    if action == ACT_PASS_NO_SWEEP:
        return "pass without sweeping"
    col, slot, bl, br, infl = decode_buy(action)
    card = int(rec["factory"][col])
    c = rules.data.cards[card]
    d = rec["dice"][seat]
    left, right = int(d[slot]), int(d[slot + 1])
    new_l = left if bl else _calibrated(left, c.left)
    new_r = right if br else _calibrated(right, c.right)
    parts = [f"take column {col} {card_label(rules, card)} into slot {slot}"]
    blocks = [name for name, b in (("left", bl), ("right", br)) if b]
    if blocks:
        parts.append("block " + " and ".join(blocks))
    if infl:
        parts.append(f"+{infl} assistant{'s' if infl > 1 else ''} for influence")
    parts.append(f"dice {left},{right} -> {new_l},{new_r}")
    return "; ".join(parts)


def action_menu(rules: Any, rec: np.void, legal: list[int]) -> list[tuple[str, Any]]:
    """Legal actions as nested choices: pass / card (column) -> slot -> blocks -> influence.

    Every label says what the choice changes in the seat's VP if the round ended now (its
    network's cards scored against its dice, as ``SentientObservation.score_change``): the
    exact change once the blocks are chosen, the best (and worst) change before.
    """
    seat = int(rec["order"][rec["turn"]])
    dice = [int(d) for d in rec["dice"][seat]]
    tree: dict[int, dict[int, dict[tuple[int, int], list[int]]]] = {}
    top: list[tuple[str, Any]] = []
    for a in legal:
        if a in (ACT_PASS, ACT_PASS_NO_SWEEP):
            top.append((f"{describe_action(rules, rec, a)}  (+0 VP now)", a))
            continue
        col, slot, bl, br, _ = decode_buy(a)
        tree.setdefault(col, {}).setdefault(slot, {}).setdefault((bl, br), []).append(a)
    for col, slots in sorted(tree.items()):
        card = int(rec["factory"][col])
        c = rules.data.cards[card]
        slot_menu: list[tuple[str, Any]] = []
        col_vp: list[int] = []
        for slot, blocks in sorted(slots.items()):
            left, right = dice[slot], dice[slot + 1]
            block_menu: list[tuple[str, Any]] = []
            slot_vp: list[int] = []
            for (bl, br), actions in sorted(blocks.items(), key=lambda kv: (sum(kv[0]), kv[0][1])):
                new_l = left if bl else _calibrated(left, c.left)
                new_r = right if br else _calibrated(right, c.right)
                vp = _score_change(rules, rec, actions[0])
                slot_vp.append(vp)
                what = {(0, 0): "no block", (1, 0): "block left", (0, 1): "block right", (1, 1): "block both"}[(bl, br)]
                label = f"{what}: dice {left},{right} -> {new_l},{new_r}  ({vp:+d} VP now)"
                infl_menu = [(f"send {decode_buy(a)[4]} assistant(s) for influence  ({vp:+d} VP now)", a)
                             for a in actions]
                block_menu.append((label, infl_menu if len(infl_menu) > 1 else actions[0]))
            col_vp += slot_vp
            slot_menu.append((f"into slot {slot} (between dice {left} and {right})  ({_vp_range(slot_vp)} VP now)",
                              block_menu))
        top.append((f"take column {col}: {card_label(rules, card)}  ({_vp_range(col_vp)} VP now)", slot_menu))
    return top


def _vp_range(values: list[int]) -> str:
    """``+3``, or ``-2 to +5`` for a choice whose VP change depends on the next steps."""
    hi, lo = max(values), min(values)
    return f"{hi:+d}" if hi == lo else f"{lo:+d} to {hi:+d}"


def _network_points(rules: Any, slot_card: Any, dice: list[int]) -> int:
    """What a network scores now: each card against the dice either side of its slot."""
    return sum(int(rules.cards[int(c), PTS0 + dice[k] * 7 + dice[k + 1]])
               for k, c in enumerate(slot_card) if int(c) >= 0)


def _score_change(rules: Any, rec: np.void, action: int) -> int:
    """The change in the acting seat's network score (round ending now) that ``action`` brings.

    Equal to ``SentientObservation.score_change`` (tests check it), without stepping a copy
    of the state: a buy puts its card in its slot and moves the two dice beside it.
    """
    if action in (ACT_PASS, ACT_PASS_NO_SWEEP):
        return 0
    seat = int(rec["order"][rec["turn"]])
    col, slot, bl, br, _ = decode_buy(action)
    card = int(rec["factory"][col])
    c = rules.data.cards[card]
    dice = [int(d) for d in rec["dice"][seat]]
    cards = [int(x) for x in rec["slot_card"][seat]]
    before = _network_points(rules, cards, dice)
    if not bl:
        dice[slot] = _calibrated(dice[slot], c.left)
    if not br:
        dice[slot + 1] = _calibrated(dice[slot + 1], c.right)
    cards[slot] = card
    return _network_points(rules, cards, dice) - before


def _calibrated(value: int, symbol: str) -> int:
    if symbol == "+":
        return value % 6 + 1
    if symbol == "-":
        return (value - 2) % 6 + 1
    return value


def render_state(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The position as text; ``seat`` marks whose view it is."""
    n = int(rec["n_players"])
    lines = []
    order = [int(x) for x in rec["order"][:n]]
    if rec["over"]:
        lines.append("Game over")
    else:
        turn_seat = order[int(rec["turn"])]
        lines.append(
            f"Round {int(rec['round'])} - to play: seat {turn_seat} - turn order: "
            + " > ".join(f"seat {p}" for p in order)
        )
    inv = [TYPES[int(t)] for t in rec["investors"]]
    lines.append("Factory (investors I0..I4 sit between and beside the columns):")
    for col in range(4):
        lines.append(f"  I{col} {inv[col]}")
        influence = ", ".join(
            f"s{p}:{int(rec['col_agents'][p, col])}a+{int(rec['col_assistants'][p, col])}h"
            for p in range(n)
            if rec["col_agents"][p, col] or rec["col_assistants"][p, col]
        )
        lines.append(f"    C{col} {card_label(rules, int(rec['factory'][col]))}   {influence}")
    lines.append(f"  I4 {inv[4]}")
    lines.append(f"Deck {int(rec['deck_n'])} cards, discard {int(rec['discard_n'])}")
    for p in range(n):
        mark = " (you)" if seat == p else ""
        held = ", ".join(f"{TYPES[t]} x{int(rec['investors_held'][p, t])}" for t in range(N_TYPES)
                         if rec["investors_held"][p, t])
        owned = ", ".join(f"{TYPES[t][:4]} {int(rec['type_count'][p, t])}" for t in range(N_TYPES))
        lines.append(
            f"Seat {p}{mark}: VP {int(rec['card_vp'][p]) + int(rec['second_vp'][p])}, agents {int(rec['agents'][p])}, "
            f"assistants {int(rec['assistants'][p])}, {'passed' if rec['passed'][p] else 'not passed'}; "
            f"investors: {held}; cards: {owned}"
        )
        cells = []
        for k in range(N_DICE):
            cells.append(f"[{int(rec['dice'][p, k])}]")
            if k < 4:
                c = int(rec["slot_card"][p, k])
                cells.append(f" slot{k}: {card_label(rules, c) if c >= 0 else '--'} ")
        dice = [int(d) for d in rec["dice"][p]]
        now = _network_points(rules, rec["slot_card"][p], dice)
        lines.append("   " + "".join(cells) + f"   network scores {now} VP now")
    return "\n".join(lines)


LEGEND = """\
How to read the board and the choices (shown once; type h to see it again):
  C0..C3        the factory's columns: the cards you can buy (take). I0..I4: the investors between and
                beside the columns; your agents and assistants in the two columns beside an investor
                are your influence there (most influence wins it at the end of the round).
  s1:2a+1h      seat 1 has 2 agents (a) and 1 assistant (h, helper) in that column.
  #47 defense L+R>=9 5VP [-|+]
                card #47, a defense robot: scores 5 VP at the end of the round if its left die (L) plus its
                right die (R) is 9 or more. Other conditions: L<R, L=R, |L-R|=1 (difference), max-2
                (the higher die minus 2), 8-(L+R), "2 on a die: 2, both: 7", and so on.
  [-|+]         calibration: what the card does to the die on its left | on its right when you take it:
                + raises it by 1 (6 becomes 1), - lowers it by 1 (1 becomes 6), = leaves it alone.
  [3] slot0 [4] your five dice in brackets, the four network slots between them (slot k lies between die k
                and die k+1); a card in a slot scores against the two dice beside it.
  block left    put an assistant on the card's left symbol so it leaves that die alone (right, both: alike).
  +N VP now     what the choice changes in your VP if the round ended now (all your slotted cards scored
                against your dice); "-2 to +5": it depends on the next steps.
  pass          once per round: your turn marker moves to the next round's order (last to pass starts it);
                with agents left the factory is swept (4 new cards)."""


def legend(rules: Any) -> str:
    """The notation of the board and the menu, for a person (``human`` shows it at the first decision)."""
    return LEGEND


def _seat_list(values: np.ndarray, n: int) -> list[int]:
    return [int(v) for v in values[:n]]


def _opt_seat(v: int) -> int | None:
    return None if v < 0 else int(v)


def log_to_events(rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
    """Trace events (dicts with an ``event`` key) from a kernel event log."""
    n = rules.n_players
    events: list[dict[str, Any]] = []
    for row in log[1 : int(log[0, 0]) + 1]:
        code = int(row[0])
        r = int(row[1])
        if code == EV_ROUND_START:
            events.append(
                {
                    "event": "round_start",
                    "round": r,
                    "turn_order": _seat_list(row[2:6], n),
                    "factory": [card_id(rules, int(c)) for c in row[6:10]],
                    "investors": [TYPES[int(t)] for t in row[10:15]],
                    "dice": [[int(v) for v in row[15 + p * N_DICE : 20 + p * N_DICE]] for p in range(n)],
                }
            )
        elif code == EV_TAKE:
            events.append(
                {
                    "event": "take",
                    "round": r,
                    "seat": int(row[2]),
                    "column": int(row[3]),
                    "card": card_id(rules, int(row[4])),
                    "slot": int(row[5]),
                    "blocked": [bool(row[6]), bool(row[7])],
                    "influence_assistants": int(row[8]),
                    "dice_before": [int(row[9]), int(row[10])],
                    "dice_after": [int(row[11]), int(row[12])],
                    "refill": card_id(rules, int(row[13])),
                }
            )
        elif code == EV_PASS:
            events.append(
                {
                    "event": "pass",
                    "round": r,
                    "seat": int(row[2]),
                    "swept": bool(row[3]),
                    "factory": [card_id(rules, int(c)) for c in row[4:8]],
                }
            )
        elif code == EV_RESHUFFLE:
            events.append({"event": "reshuffle", "round": r, "deck_size": int(row[2])})
        elif code == EV_CARD_SCORED:
            events.append(
                {
                    "event": "card_scored",
                    "round": r,
                    "seat": int(row[2]),
                    "slot": int(row[3]),
                    "card": card_id(rules, int(row[4])),
                    "dice": [int(row[5]), int(row[6])],
                    "points": int(row[7]),
                }
            )
        elif code == EV_INVESTOR:
            events.append(
                {
                    "event": "investor",
                    "round": r,
                    "position": int(row[2]),
                    "type": TYPES[int(row[3])],
                    "influence": _seat_list(row[4:8], n),
                    "agents": _seat_list(row[8:12], n),
                    "winner": _opt_seat(int(row[12])),
                    "second": _opt_seat(int(row[13])),
                }
            )
        elif code == EV_ROUND_END:
            events.append({"event": "round_end", "round": r, "next_turn_order": _seat_list(row[2:6], n)})
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
        "starting_investors": [TYPES[int(t)] for t in rec["start_investor"][:n]],
        "cards": rules.data.card_table(),
    }


def final_event(rules: Any, rec: np.void) -> dict[str, Any]:
    """The ``final`` trace event of a finished game."""
    n = int(rec["n_players"])
    seats = []
    for p in range(n):
        seats.append(
            {
                "seat": p,
                "card_vp": int(rec["card_vp"][p]),
                "second_place_vp": int(rec["second_vp"][p]),
                "investor_vp": int(rec["investor_vp"][p]),
                "total": int(rec["total"][p]),
                "investors": int(investor_count(rec, p)),
                "investors_by_type": {TYPES[t]: int(rec["investors_held"][p, t]) for t in range(N_TYPES)},
                "cards_by_type": {TYPES[t]: int(rec["type_count"][p, t]) for t in range(N_TYPES)},
                "rank": int(rec["rank"][p]),
            }
        )
    return {"event": "final", "seats": seats, "winners": [p for p in range(n) if rec["winner"][p]]}


def _cards_by_id(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    for e in events:
        if e["event"] == "game_start":
            return {c["id"]: c for c in e["cards"]}
    return {}


def _short(cards: dict[int, dict[str, Any]], cid: int | None) -> str:
    if cid is None:
        return "(none)"
    c = cards.get(cid)
    if c is None:
        return f"#{cid}"
    cond = _CONDITION_TEXT.get(c["condition"], c["condition"]).format(t=c["param"])
    vp = f" {c['vp']}VP" if c["vp"] is not None else ""
    return f"#{cid} {c['type']} {cond}{vp} [{c['left']}|{c['right']}]"


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log: rounds, takes and passes, scoring, investors, final table."""
    cards = _cards_by_id(events)
    names: list[str] = []
    out: list[str] = []
    for e in events:
        kind = e["event"]
        if kind == "game_start":
            names = e["players"]
            out.append(f"Sentient - game {e['game']} (game seed {e['seed']})")
            for p, name in enumerate(names):
                out.append(f"  seat {p}: {name} (starting investor: {e['starting_investors'][p]})")
        elif kind == "round_start":
            out.append("")
            out.append(f"=== Round {e['round']} === turn order: " + " > ".join(f"seat {p}" for p in e["turn_order"]))
            out.append("  investors: " + ", ".join(f"I{i} {t}" for i, t in enumerate(e["investors"])))
            for col, cid in enumerate(e["factory"]):
                out.append(f"  factory C{col}: {_short(cards, cid)}")
            for p, dice in enumerate(e["dice"]):
                out.append(f"  seat {p} rolls {' '.join(str(d) for d in dice)}")
        elif kind == "take":
            extra = []
            if any(e["blocked"]):
                extra.append("blocks " + "+".join(s for s, b in zip(("left", "right"), e["blocked"], strict=True) if b))
            if e["influence_assistants"]:
                extra.append(f"+{e['influence_assistants']} influence")
            b, a = e["dice_before"], e["dice_after"]
            out.append(
                f"  seat {e['seat']} takes C{e['column']} {_short(cards, e['card'])} -> slot {e['slot']}"
                f"{'; ' + ', '.join(extra) if extra else ''}; dice {b[0]},{b[1]} -> {a[0]},{a[1]}; "
                f"refill {_short(cards, e['refill'])}"
            )
        elif kind == "pass":
            how = "passes and sweeps; new factory: " + ", ".join(_short(cards, c) for c in e["factory"]) \
                if e["swept"] else "passes (no sweep)"
            out.append(f"  seat {e['seat']} {how}")
        elif kind == "reshuffle":
            out.append(f"  (discard pile reshuffled: deck now {e['deck_size']} cards)")
        elif kind == "card_scored":
            if e["slot"] == 0:
                out.append(f"  scoring seat {e['seat']}:")
            out.append(
                f"    slot {e['slot']} {_short(cards, e['card'])} on dice {e['dice'][0]},{e['dice'][1]}: "
                f"{e['points']} VP"
            )
        elif kind == "investor":
            pairs = zip(e["influence"], e["agents"], strict=True)
            infl = ", ".join(f"s{p} {v}({a}a)" for p, (v, a) in enumerate(pairs))
            won = "nobody" if e["winner"] is None else f"seat {e['winner']}"
            sec = "" if e["second"] is None else f", 1 VP to seat {e['second']}"
            out.append(f"  investor I{e['position']} {e['type']}: {won} wins{sec}   [influence {infl}]")
        elif kind == "round_end":
            out.append("  next round order: " + " > ".join(f"seat {p}" for p in e["next_turn_order"]))
        elif kind == "final":
            out.append("")
            out.append("=== Final ===")
            width = max([24, *(len(str(x)) for x in names)])  # a label is shown whole: it is what a spec takes
            out.append(f"  seat  {'player':<{width}}  cards  2nd  investors  total  inv.tokens  rank")
            for s in e["seats"]:
                name = names[s["seat"]] if s["seat"] < len(names) else ""
                out.append(
                    f"  {s['seat']:>4}  {name:<{width}}  {s['card_vp']:>5}  {s['second_place_vp']:>3}  "
                    f"{s['investor_vp']:>9}  {s['total']:>5}  {s['investors']:>10}  {s['rank']:>4}"
                )
            totals = [s["total"] for s in e["seats"]]
            top = max(totals)
            tied = [s["seat"] for s in e["seats"] if s["total"] == top]
            winners = e["winners"]
            if len(tied) > 1 and len(winners) == 1:
                out.append(f"  tie on {top} VP between seats {tied}: broken by investor count")
            elif len(winners) > 1:
                out.append(f"  tie on {top} VP and investor count: shared win")
            out.append("  winner" + ("s: " if len(winners) > 1 else ": ") + ", ".join(f"seat {w}" for w in winners))
    return out
