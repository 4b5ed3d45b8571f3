"""Sentient as an SVG board: the factory row with its investors, then each seat's dice network.

:func:`board_svg` draws one state record (``state[0]``) for the replay page (``Game.render_svg``):

* a header: the round, whose turn it is, the turn order, the deck's and the discard pile's sizes, and whose
  view it is (the referee's, or one seat's: then that seat's panel is outlined and captioned);
* the factory row: the four cards on offer (type, scoring condition in words, VP, and the calibration arrows
  on either side), the five investors between and beside them with each seat's influence there, and under
  each column the agents and assistants the seats placed on it;
* one panel per seat: VP, pieces left, passed or not, investors won, robots bought, and the network: five
  dice with the cards bought this round in the four slots between them (what each scores now, which arrows
  an assistant blocked);
* a legend of the symbols.

Every piece carries a ``data-piece`` attribute naming its kind (``factory-card``, ``investor``, ``agent``,
``assistant``, ``die``, ``network-card``, ``block``, ``agent-left``, ``assistant-left``, ``investor-won``
with ``data-count``) and, where it belongs to a seat, ``data-seat``, so tests can count them against the
state. Only what the hidden state (``Game.hide``) keeps is drawn: the deck's size, never its order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.core.svg import esc, svg_document
from simlab.games.sentient.data import TYPES
from simlab.games.sentient.rules import OPT_AGENT_TIEBREAK_SKIP, PTS0
from simlab.games.sentient.state import N_COLUMNS, N_DICE, N_INVESTORS, N_ROUNDS, N_SLOTS, N_TYPES

# Okabe-Ito colours (colour-blind safe), one per seat, with a light tint for the seat's panel.
SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
SEAT_TINTS = ("#e5f0f8", "#fbeadf", "#e0f3ee", "#f8ebf3")
# Robot / investor types: a pale fill and a darker edge each (the type's name is always written too).
TYPE_FILLS = {"information": "#fff4c2", "service": "#dcecfa", "transport": "#ececec",
              "defense": "#fadbd2", "industrial": "#dff2e4"}
TYPE_EDGES = {"information": "#b59a00", "service": "#3d7ab8", "transport": "#6b6b6b",
              "defense": "#b5523a", "industrial": "#3f8a57"}
TYPE_SHORT = {"information": "info", "service": "serv", "transport": "trans", "defense": "def", "industrial": "ind"}
INK = "#222"
MUTED = "#666"
PAPER = "#fbfaf7"

# Each scoring condition in words: L = the die left of the card, R = the die right of it.
CONDITION_WORDS = {
    "INF_TARGET": "a {t} on one die: 2 VP; on both dice: 7 VP",
    "SVC_8_MINUS_SUM": "VP = 8 − (left + right)",
    "SVC_5_MINUS_MIN": "VP = 5 − the lower die",
    "SVC_7_MINUS_MAX": "VP = 7 − the higher die",
    "SVC_SUM_MINUS_6": "VP = left + right − 6",
    "SVC_MAX_MINUS_2": "VP = the higher die − 2",
    "SVC_MIN_MINUS_1": "VP = the lower die − 1",
    "TRN_LT": "if left die < right die",
    "TRN_LE": "if left die ≤ right die",
    "TRN_EQ": "if left die = right die",
    "TRN_GT": "if left die > right die",
    "TRN_GE": "if left die ≥ right die",
    "DEF_SUM_LE4_OR_GE10": "if left + right ≤ 4 or ≥ 10",
    "DEF_SUM_EQ7": "if left + right = 7",
    "DEF_DIFF_EQ1": "if the dice differ by exactly 1",
    "DEF_DIFF_EQ2": "if the dice differ by exactly 2",
    "DEF_SUM_LE5": "if left + right ≤ 5",
    "DEF_SUM_GE9": "if left + right ≥ 9",
    "IND_LEVEN_RODD": "if left die even, right die odd",
    "IND_LODD_REVEN": "if left die odd, right die even",
    "IND_SUM_ODD": "if left + right is odd",
    "IND_BOTH_ODD": "if both dice are odd",
}
DIAL_TEXT = {"+": "+1", "-": "−1", "=": "0"}

# Layout (user units).
WIDTH = 1280
MARGIN = 18
INV_W = 92  # an investor position's width in the factory row
COL_W = 196  # a factory column's width
FCARD_W, FCARD_H = 176, 118
NCARD_W, NCARD_H = 148, 104
DIE = 44
PANEL_H = 178
NET_X = 320  # where a seat's network starts inside its panel

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _text(x: float, y: float, text: object, size: float = 12, anchor: str = "start", weight: str = "normal",
          fill: str = INK, extra: str = "") -> str:
    """One ``<text>`` element (escaped)."""
    bold = f' font-weight="{weight}"' if weight != "normal" else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" fill="{fill}"{bold}{extra}>'
            f'{esc(text)}</text>')


def _wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters (at spaces)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def seat_name(seat: int) -> str:
    """How the board names a seat."""
    return f"Seat {seat}"


def _card_vp_text(rules: Any, index: int) -> str:
    """The VP a card can score: the printed VP, "2 / 7 VP" (information) or the formula's range (service)."""
    card = rules.data.cards[index]
    if card.vp_kind == "info_2_7":
        return "2 / 7 VP"
    if card.printed_vp is not None:
        return f"{card.printed_vp} VP"
    table = [int(rules.cards[index, PTS0 + left * 7 + right]) for left in range(1, 7) for right in range(1, 7)]
    lo, hi = min(table), max(table)
    return f"{lo}–{hi} VP" if lo != hi else f"{lo} VP"


def _dial(x: float, y: float, symbol: str, side: str) -> str:
    """A calibration badge centred at (x, y), its arrow pointing to the die on ``side`` that it turns."""
    sign = -1 if side == "left" else 1
    arrow = (f'<polygon points="{x + sign * 12:g},{y - 5:g} {x + sign * 18:g},{y:g} {x + sign * 12:g},{y + 5:g}" '
             f'fill="{INK}"/>') if symbol != "=" else ""
    return (f'<g class="dial" data-dial="{side}" data-symbol="{esc(symbol)}">'
            f'<rect x="{x - 12:g}" y="{y - 9:g}" width="24" height="18" rx="9" fill="#fff" stroke="{INK}"/>'
            f'{arrow}{_text(x, y + 4.5, DIAL_TEXT[symbol], 11.5, "middle", "bold")}</g>')


def _card(rules: Any, index: int, x: float, y: float, w: float, h: float, attrs: str,
          blocked: tuple[bool, bool] = (False, False), seat_colour: str = INK) -> str:
    """A robot card at (x, y): type band and id, condition in words, VP, and calibration badges in the bottom
    corners (an assistant in ``seat_colour`` sits on a badge that ``blocked`` marks)."""
    card = rules.data.cards[index]
    fill, edge = TYPE_FILLS[card.type], TYPE_EDGES[card.type]
    words = CONDITION_WORDS[card.condition].format(t=card.param)
    vp = _card_vp_text(rules, index)
    size = 12 if w >= 170 else 11.5
    wrap = _wrap(words, int((w - 12) / (size * 0.53)))
    out = [f'<g {attrs} data-card="{card.id}" data-type="{card.type}">',
           f'<title>{esc(f"#{card.id} {card.type} robot: {words}; {vp}")}</title>',
           f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="{fill}" stroke="{edge}" '
           f'stroke-width="2"/>',
           f'<path d="M{x:g},{y + 8:g} a8,8 0 0 1 8,-8 h{w - 16:g} a8,8 0 0 1 8,8 v14 h{-w:g} z" fill="{edge}"/>',
           _text(x + 9, y + 16, card.type.upper(), 11, weight="bold", fill="#fff", extra=' letter-spacing="0.5"'),
           _text(x + w - 8, y + 16, f"#{card.id}", 11, "end", fill="#fff")]
    line_y = y + 40 if len(wrap) < 3 else y + 37
    for i, line in enumerate(wrap[:3]):
        out.append(_text(x + w / 2, line_y + (size + 3) * i, line, size, "middle"))
    out.append(_text(x + w / 2, y + h - 10, vp, 15, "middle", "bold"))
    for side, symbol, bx, is_blocked in (("left", card.left, x + 26, blocked[0]),
                                         ("right", card.right, x + w - 26, blocked[1])):
        out.append(_dial(bx, y + h - 15, symbol, side))
        if is_blocked:  # an assistant on the badge: its die is left alone
            sx = bx - 17 if side == "left" else bx + 5
            out.append(f'<line x1="{bx - 10:g}" y1="{y + h - 8:g}" x2="{bx + 10:g}" y2="{y + h - 22:g}" '
                       f'stroke="{INK}" stroke-width="2"/>'
                       f'<rect data-piece="block" data-side="{side}" x="{sx:g}" y="{y + h - 33:g}" '
                       f'width="12" height="12" rx="2" fill="{seat_colour}" stroke="{INK}" stroke-width="1">'
                       f'<title>assistant blocking the {side} arrow</title></rect>')
    out.append("</g>")
    return "".join(out)


def _empty_slot(x: float, y: float, w: float, h: float, label: str, attrs: str = "") -> str:
    """A dashed outline where no card lies."""
    return (f'<g {attrs}><rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="8" fill="none" stroke="#bbb" '
            f'stroke-dasharray="6 4" stroke-width="1.5"/>'
            f'{_text(x + w / 2, y + h / 2 + 4, label, 12, "middle", fill="#999")}'
            f'</g>')


def _die(x: float, y: float, value: int, colour: str, attrs: str) -> str:
    """A die (pips) with its top-left corner at (x, y)."""
    cx, cy, step = x + DIE / 2, y + DIE / 2, DIE * 0.26
    pips = "".join(f'<circle cx="{cx + dx * step:g}" cy="{cy + dy * step:g}" r="4.2" fill="{INK}"/>'
                   for dx, dy in _PIPS.get(value, []))
    return (f'<g {attrs} data-value="{value}"><title>die showing {value}</title>'
            f'<rect x="{x:g}" y="{y:g}" width="{DIE}" height="{DIE}" rx="8" fill="#fff" stroke="{colour}" '
            f'stroke-width="3"/>{pips}</g>')


def _agent(cx: float, cy: float, colour: str, attrs: str, r: float = 7) -> str:
    """An agent: a disc in the seat's colour."""
    return f'<circle {attrs} cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{colour}" stroke="{INK}" stroke-width="1"/>'


def _assistant(cx: float, cy: float, colour: str, attrs: str, s: float = 11) -> str:
    """An assistant: a small square in the seat's colour."""
    return (f'<rect {attrs} x="{cx - s / 2:g}" y="{cy - s / 2:g}" width="{s:g}" height="{s:g}" rx="2" '
            f'fill="{colour}" stroke="{INK}" stroke-width="1"/>')


def _network_points(rules: Any, rec: np.void, seat: int) -> list[int | None]:
    """What each of ``seat``'s slotted cards scores against its dice now (None for an empty slot)."""
    out: list[int | None] = []
    for k in range(N_SLOTS):
        c = int(rec["slot_card"][seat, k])
        left, right = int(rec["dice"][seat, k]), int(rec["dice"][seat, k + 1])
        out.append(int(rules.cards[c, PTS0 + left * 7 + right]) if c >= 0 else None)
    return out


def influence(rec: np.void, seat: int) -> list[int]:
    """``seat``'s influence at each investor position I0-I4: its pieces in the one or two columns beside it."""
    per_col = rec["col_agents"][seat].astype(int) + rec["col_assistants"][seat].astype(int)
    return [int(per_col[max(i - 1, 0): min(i, N_COLUMNS - 1) + 1].sum()) for i in range(N_INVESTORS)]


def _leaders(rules: Any, rec: np.void) -> list[int]:
    """The seat that would win each investor if the round ended now (-1: nobody has influence there).

    Most influence; ties by agents beside the investor (unless the option skips that), then turn order."""
    n = int(rec["n_players"])
    skip_agents = bool(rules.opts[OPT_AGENT_TIEBREAK_SKIP])
    infl = [influence(rec, p) for p in range(n)]
    out = []
    for pos in range(N_INVESTORS):
        lo, hi = max(pos - 1, 0), min(pos, N_COLUMNS - 1)
        best, key = -1, (0, 0)
        for t in range(n):
            p = int(rec["order"][t])
            agents = 0 if skip_agents else int(rec["col_agents"][p, lo: hi + 1].sum())
            k = (infl[p][pos], agents)
            if infl[p][pos] >= 1 and (best < 0 or k > key):
                best, key = p, k
        out.append(best)
    return out


def _header(rec: np.void, seat: int | None) -> str:
    """Title line, turn order and deck sizes, and the view caption."""
    n = int(rec["n_players"])
    order = [int(x) for x in rec["order"][:n]]
    out = []
    if rec["over"]:
        status = "Game over — final scores"
    else:
        to_play = order[int(rec["turn"])]
        status = f"Round {int(rec['round'])} of {N_ROUNDS} · {seat_name(to_play)} to play"
    out.append(_text(MARGIN, 32, f"Sentient — {status}", 22, weight="bold"))
    label = "next round's turn order" if rec["over"] else "turn order"
    parts = [f"{label}: " + " › ".join(seat_name(p) + (" (passed)" if rec["passed"][p] and not rec["over"] else "")
                                          for p in order),
             f"deck: {int(rec['deck_n'])} cards (order hidden)", f"discard pile: {int(rec['discard_n'])} cards"]
    out.append(_text(MARGIN, 54, "   ·   ".join(parts), 13, fill=MUTED))
    if seat is None:
        out.append(f'<g data-view="referee"><rect x="{WIDTH - MARGIN - 220}" y="14" width="220" height="30" rx="15" '
                   f'fill="#eee" stroke="#999"/>'
                   f'{_text(WIDTH - MARGIN - 110, 34, "Referee view (all open)", 14, "middle")}'
                   f'</g>')
    else:
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        out.append(f'<g data-view="seat" data-seat="{seat}"><rect x="{WIDTH - MARGIN - 220}" y="14" width="220" '
                   f'height="30" rx="15" fill="{colour}"/>'
                   f'{_text(WIDTH - MARGIN - 110, 34, f"{seat_name(seat)}’s view", 15, "middle", "bold", "#fff")}</g>')
    return "".join(out)


def _factory(rules: Any, rec: np.void, top: float) -> tuple[str, float]:
    """The factory row (cards, investors, influence, pieces on the columns) from ``top``; returns (svg, height)."""
    n = int(rec["n_players"])
    out = [_text(MARGIN, top + 14, "FACTORY", 14, weight="bold", extra=' letter-spacing="1"'),
           _text(MARGIN + 80, top + 14, "cards on offer: a seat takes one into its network and puts an agent on "
                 "its column; investors sit between the columns", 12.5, fill=MUTED)]
    y0 = top + 26
    rows = max(n, 2)
    height = 26 + FCARD_H + 14 + rows * 20 + 8
    out.append(f'<rect x="{MARGIN - 8}" y="{y0 - 4:g}" width="{WIDTH - 2 * MARGIN + 16}" '
               f'height="{height - 22:g}" rx="10" fill="#f1efe8" stroke="#d8d4c8"/>')
    infl = [influence(rec, p) for p in range(n)]
    leaders = _leaders(rules, rec)
    x = MARGIN
    for pos in range(N_INVESTORS):
        t = TYPES[int(rec["investors"][pos])]
        cx = x + INV_W / 2
        out.append(f'<g data-piece="investor" data-position="{pos}" data-type="{t}">'
                   f'<title>investor I{pos}: {t}</title>'
                   f'<polygon points="{cx - 40:g},{y0 + 26:g} {cx - 30:g},{y0 + 6:g} {cx + 30:g},{y0 + 6:g} '
                   f'{cx + 40:g},{y0 + 26:g} {cx + 30:g},{y0 + 46:g} {cx - 30:g},{y0 + 46:g}" '
                   f'fill="{TYPE_FILLS[t]}" stroke="{TYPE_EDGES[t]}" stroke-width="2"/>'
                   f'{_text(cx, y0 + 22, f"investor I{pos}", 10, "middle", fill=MUTED)}'
                   f'{_text(cx, y0 + 37, t, 12 if len(t) < 11 else 11, "middle", "bold")}</g>')
        out.append(_text(cx, y0 + 64, "influence", 10.5, "middle", fill=MUTED))
        for p in range(n):
            colour = SEAT_COLOURS[p]
            yy = y0 + 80 + 16 * p
            lead = leaders[pos] == p
            mark = " ★" if lead else ""
            out.append(f'<g data-influence="{infl[p][pos]}" data-seat="{p}" data-position="{pos}">'
                       f'<circle cx="{cx - 24:g}" cy="{yy - 4:g}" r="5" fill="{colour}"/>'
                       f'{_text(cx - 14, yy, f"S{p}: {infl[p][pos]}{mark}", 12, weight="bold" if lead else "normal")}'
                       f'</g>')
        x += INV_W
        if pos == N_COLUMNS:
            break
        col = pos
        card = int(rec["factory"][col])
        cxl = x + (COL_W - FCARD_W) / 2
        if card >= 0:
            out.append(_card(rules, card, cxl, y0, FCARD_W, FCARD_H, f'data-piece="factory-card" data-column="{col}"'))
        else:
            out.append(_empty_slot(cxl, y0, FCARD_W, FCARD_H, "empty", f'data-empty-column="{col}"'))
        out.append(_text(x + COL_W / 2, y0 + FCARD_H + 15, f"column C{col}", 11, "middle", fill=MUTED))
        row = 0
        for p in range(n):
            colour = SEAT_COLOURS[p]
            agents, assistants = int(rec["col_agents"][p, col]), int(rec["col_assistants"][p, col])
            if not agents + assistants:
                continue
            yy = y0 + FCARD_H + 32 + 20 * row
            row += 1
            out.append(_text(cxl + 4, yy + 4, f"S{p}", 11.5, weight="bold", fill=colour))
            px = cxl + 26
            for _ in range(agents):
                out.append(_agent(px + 7, yy, colour, f'data-piece="agent" data-seat="{p}" data-column="{col}"'))
                px += 18
            for _ in range(assistants):
                out.append(_assistant(px + 6, yy, colour,
                                      f'data-piece="assistant" data-seat="{p}" data-column="{col}"'))
                px += 15
        x += COL_W
    return "".join(out), height


def _panel(rules: Any, rec: np.void, p: int, top: float, seat: int | None) -> str:
    """Seat ``p``'s panel from ``top``: status, pieces, investors, robots, and its dice network."""
    colour, tint = SEAT_COLOURS[p], SEAT_TINTS[p]
    over = bool(rec["over"])
    to_play = not over and int(rec["order"][int(rec["turn"])]) == p
    viewer = seat == p
    stroke = 4 if (to_play or viewer) else 1.5
    out = [f'<g data-seat-panel="{p}">',
           f'<rect x="{MARGIN - 8}" y="{top:g}" width="{WIDTH - 2 * MARGIN + 16}" height="{PANEL_H - 10}" rx="10" '
           f'fill="{tint}" stroke="{colour}" stroke-width="{stroke}"/>',
           f'<rect x="{MARGIN + 4}" y="{top + 12:g}" width="18" height="18" rx="4" fill="{colour}"/>',
           _text(MARGIN + 30, top + 27, seat_name(p), 18, weight="bold")]
    tags = []
    if viewer:
        tags.append(("this view", colour, "#fff"))
    if to_play:
        tags.append(("▶ to play", INK, "#fff"))
    if rec["passed"][p] and not over:
        tags.append(("passed", "#999", "#fff"))
    if over and rec["winner"][p]:
        tags.append(("★ winner", "#b58900", "#fff"))
    tx = MARGIN + 104
    for label, bg, fg in tags:
        w = 10 + 7.4 * len(label)
        out.append(f'<g data-tag="{esc(label)}"><rect x="{tx:g}" y="{top + 12:g}" width="{w:g}" height="20" rx="10" '
                   f'fill="{bg}"/>{_text(tx + w / 2, top + 26.5, label, 12, "middle", "bold", fg)}</g>')
        tx += w + 6
    card_vp, second = int(rec["card_vp"][p]), int(rec["second_vp"][p])
    if over:
        total = int(rec["total"][p])
        vp_line = f"{total} VP  (rank {int(rec['rank'][p])})"
        detail = f"cards {card_vp} + runner-up {second} + investors {int(rec['investor_vp'][p])}"
    else:
        vp_line = f"{card_vp + second} VP"
        detail = f"cards {card_vp} + runner-up {second} (investors count at game end)"
    out.append(f'<g data-vp="{card_vp + second if not over else int(rec["total"][p])}">'
               f'{_text(MARGIN + 4, top + 56, vp_line, 20, weight="bold")}</g>')
    out.append(_text(MARGIN + 4, top + 73, detail, 11, fill=MUTED))
    # Pieces left this round.
    out.append(_text(MARGIN + 4, top + 96, "agents left", 12))
    for i in range(int(rec["agents"][p])):
        out.append(_agent(MARGIN + 98 + 18 * i, top + 92, colour, f'data-piece="agent-left" data-seat="{p}"'))
    out.append(_text(MARGIN + 4, top + 117, "assistants left", 12))
    for i in range(int(rec["assistants"][p])):
        out.append(_assistant(MARGIN + 98 + 16 * i, top + 113, colour, f'data-piece="assistant-left" data-seat="{p}"'))
    # Investors won (a token per type, with a count) and robots bought (what the investors multiply).
    out.append(_text(MARGIN + 4, top + 140, "investors won", 12))
    ix = MARGIN + 96
    held_any = False
    for t in range(N_TYPES):
        k = int(rec["investors_held"][p, t])
        if not k:
            continue
        held_any = True
        name = TYPES[t]
        label = f"{TYPE_SHORT[name]} ×{k}" if k > 1 else TYPE_SHORT[name]
        w = 12 + 7 * len(label)
        out.append(f'<g data-piece="investor-won" data-seat="{p}" data-type="{name}" data-count="{k}">'
                   f'<title>{k} {name} investor{"s" if k > 1 else ""}</title>'
                   f'<rect x="{ix:g}" y="{top + 128:g}" width="{w:g}" height="18" rx="9" fill="{TYPE_FILLS[name]}" '
                   f'stroke="{TYPE_EDGES[name]}" stroke-width="1.5"/>'
                   f'{_text(ix + w / 2, top + 141, label, 11.5, "middle")}</g>')
        ix += w + 5
    if not held_any:
        out.append(_text(ix, top + 141, "none", 12, fill=MUTED))
    robots = " · ".join(f"{TYPE_SHORT[TYPES[t]]} {int(rec['type_count'][p, t])}" for t in range(N_TYPES))
    out.append(_text(MARGIN + 4, top + 160, f"robots bought: {robots}", 11.5, fill=MUTED))
    # The network: dice and the slots between them.
    points = _network_points(rules, rec, p)
    gap = (WIDTH - MARGIN - 14 - NET_X - N_DICE * DIE - N_SLOTS * NCARD_W) / (2 * N_SLOTS)
    ny = top + 26
    x = float(NET_X)
    now = sum(v for v in points if v is not None)
    out.append(_text(NET_X, top + 18, "network: this round's cards score against the dice either side of them "
                     "at the round's end", 11.5, fill=MUTED))
    label = "network scored" if over else "network scores now"
    out.append(f'<g data-network-points="{now}">'
               f'{_text(WIDTH - MARGIN - 8, top + 18, f"{label}: {now} VP", 13, "end", "bold")}</g>')
    for k in range(N_DICE):
        out.append(_die(x, ny + NCARD_H / 2 - DIE / 2 + 4, int(rec["dice"][p, k]), colour,
                        f'data-piece="die" data-seat="{p}" data-index="{k}"'))
        x += DIE + gap
        if k == N_SLOTS:
            break
        c = int(rec["slot_card"][p, k])
        if c >= 0:
            block = int(rec["slot_block"][p, k])
            out.append(_card(rules, c, x, ny + 4, NCARD_W, NCARD_H,
                             f'data-piece="network-card" data-seat="{p}" data-slot="{k}"',
                             (bool(block & 1), bool(block & 2)), colour))
            verb = "scored" if over else "scores now"
            out.append(_text(x + NCARD_W / 2, ny + NCARD_H + 22, f"{verb}: {points[k]} VP", 12, "middle", "bold"))
        else:
            out.append(_empty_slot(x, ny + 4, NCARD_W, NCARD_H, f"slot {k}: empty"))
        x += NCARD_W + gap
    out.append("</g>")
    return "".join(out)


def _legend(top: float) -> tuple[str, float]:
    """The symbols explained, from ``top``; returns (svg, height)."""
    c = "#777"
    items = [
        (_agent(0, 0, c, 'class="legend"'), "agent (4 a round): goes on the column of the card a seat takes"),
        (_assistant(0, 0, c, 'class="legend"'),
         "assistant (5 a round): on a column adds influence; on a card's arrow (struck through) "
         "stops that die turning"),
        (_dial(0, 0, "+", "right"), "arrow: taking the card turns that side's die +1 / −1 (6→1, 1→6); 0 leaves it"),
        ('<polygon points="-14,0 -9,-9 9,-9 14,0 9,9 -9,9" fill="#eee" stroke="#777"/>',
         "investor: at round end the most influence (pieces in the columns beside it) wins it, "
         "★ = leading (would win now);"
         " the runner-up gets 1 VP. At game end an investor scores 1 VP per robot of its type bought"),
        (f'<rect x="-12" y="-12" width="24" height="24" rx="5" fill="#fff" stroke="{c}" stroke-width="2.5"/>'
         f'<circle r="3.5" fill="{INK}"/>',
         "die: a card in a network slot scores against the dice on its left and right; "
         "\"scores now\" = what it would score if the round ended now"),
    ]
    out = [_text(MARGIN, top + 14, "LEGEND", 13, weight="bold", extra=' letter-spacing="1"')]
    y = top + 36
    half = (WIDTH - 2 * MARGIN) / 2
    for row in ((0, 1), (2, 4), (3,)):
        tallest = 1
        for col, i in enumerate(row):
            icon, words = items[i]
            x = MARGIN + 20 + col * half
            out.append(f'<g transform="translate({x:g},{y - 4:g})">{icon}</g>')
            lines = _wrap(words, 86 if len(row) > 1 else 175)
            for j, line in enumerate(lines):
                out.append(_text(x + 28, y + 15 * j, line, 12))
            tallest = max(tallest, len(lines))
        y += 15 * tallest + 12
    return "".join(out), y - top


def board_svg(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The position in state record ``rec`` as one ``<svg>`` (``seat``: whose view it is, its panel marked).

    With ``seat`` given the caller passes the seat's hidden state (``Game.hide``); nothing drawn here depends
    on what hiding removes (the deck's order, the random streams), so both views show the same board."""
    n = int(rec["n_players"])
    body = [f'<rect width="100%" height="100%" fill="{PAPER}"/>', _header(rec, seat)]
    factory, fh = _factory(rules, rec, 70)
    body.append(factory)
    y = 70 + fh + 6
    body.append(_text(MARGIN, y + 14, "PLAYERS", 14, weight="bold", extra=' letter-spacing="1"'))
    y += 24
    for p in range(n):
        body.append(_panel(rules, rec, p, y, seat))
        y += PANEL_H
    legend, lh = _legend(y)
    body.append(legend)
    y += lh + 8
    if seat is None:
        title = "Sentient: the position (referee view)"
    else:
        title = f"Sentient: the position as {seat_name(seat)} sees it"
    return svg_document(WIDTH, y, "".join(body), title)
