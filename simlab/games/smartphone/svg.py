"""Smartphone Inc. as an SVG board: the world map, the technologies and tracks, and each seat's tablets.

:func:`board_svg` draws one state record (``state[0]``) for the replay page (``SmartphoneGame.render_svg``):

* a header: the round, the eight phases with the current one lit, who is to act and what they decide, the
  priority order, and whose view it is (the referee's, or one seat's: that seat's panel is outlined);
* the world map: the regions as boxes placed roughly where they lie (thin lines join neighbours), each with
  its office places (a seat's colour where it has an office, the free place's logistics cost otherwise), its
  buyers (red: pays a price up to the number; purple: needs the technology) with the phone sold there this
  round, each seat's logistics markers in it, or the retailer tile covering it;
* the technologies (cost, effect in words, patent, each seat's research markers and researched marks), the
  upgrade display and deck, the price track and the VP track;
* one panel per seat: VP, price, goods, tokens, the plan (the two tablets as laid, upgrade tiles on them,
  hidden cells marked), the upgrades the seat owns, and at the end the final score;
* a legend of the symbols.

Every piece carries a ``data-piece`` attribute naming its kind (``region``, ``office``, ``free-place``,
``buyer``, ``sale``, ``logistics-progress`` with ``data-count``, ``retailer``, ``technology``, ``researched``,
``research-progress`` with ``data-count``, ``patent``, ``display-upgrade``, ``price-marker``, ``vp-marker``,
``plan``, ``tablet-cell``, ``upgrade`` (an upgrade laid on a plan), ``hand-upgrade``) and, where it belongs to a
seat, ``data-seat``, so tests can count them against the state. Only what the (hidden) state holds is drawn: in a
seat's view during phase 1 the other seats' plans are absent from the state and drawn as "secret".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.core.svg import esc, svg_document
from simlab.games.smartphone.arrangements import arrangements
from simlab.games.smartphone.data import EFFECTS, SYMBOLS, TECHNOLOGIES
from simlab.games.smartphone.render import EFFECT_WORDS, PHASES
from simlab.games.smartphone.state import DECISION_NAMES, MAX_PLACES, N_ROUNDS, PAD_N

INK = "#222"
MUTED = "#666"
PAPER = "#fbfaf7"
PANEL = "#ffffff"
EDGE = "#c9c4b8"
WIDTH = 1400
MARGIN = 16
PAD_COLS = 7
PAD_ROWS = PAD_N // PAD_COLS
EMPTY, LOWER, UPPER, BOTH = 0, 1, 2, 3  # arrangement layer codes (arrangements.py)

# The game's player colours: fill, and the ink that reads on it.
COLOUR_FILL = {"blue": "#2c6fce", "yellow": "#f0c419", "green": "#35a150", "red": "#d8382c", "white": "#ffffff",
               "black": "#333333", "purple": "#7b4fb5", "orange": "#ee8a1c"}
COLOUR_INK = {"yellow": INK, "white": INK}
COLOUR_TINT = {"blue": "#e6eefa", "yellow": "#fdf6d8", "green": "#e3f3e6", "red": "#fbe3e1", "white": "#f3f3f3"}

# Tablet / upgrade symbols: short label and fill.
SYM_LABEL = {"goods": "good", "price_down": "−$", "price_up": "+$", "upgrade": "upg", "research": "res",
             "logistics": "log", "blank": ""}
SYM_FILL = {"goods": "#e9c99a", "price_down": "#f7c0b9", "price_up": "#c4e7bb", "upgrade": "#dccff2",
            "research": "#bcd7f5", "logistics": "#bfe8e2", "blank": "#f1f0ec"}
SYM_WORDS = {"goods": "good: makes 1 phone (phase 3)", "price_down": "−$ / +$: price −1 / +1 (phase 2)",
             "upgrade": "upg: take an upgrade tile (phase 4)", "research": "res: 1 research marker (phase 5)",
             "logistics": "log: 1 logistics marker (phase 6)", "blank": "empty cell"}
TECH_SHORT = {"GPS": "GPS", "WIFI": "WiFi", "GAMEPAD": "Pad", "LIION": "Li", "NFC": "NFC", "4G": "4G"}
TECH_NAME = {"GPS": "GPS", "WIFI": "WI-FI", "GAMEPAD": "GAMEPAD", "LIION": "LI-ION", "NFC": "NFC", "4G": "4G"}
BONUS_SHORT = {"NONE": "no bonus", "GOODS": "+{n} goods", "RESEARCH": "+{n} research",
               "PRICE_PLUS_OR_MINUS_1": "price +1 or −1", "SECOND_OFFICE": "a second office",
               "MOVE_OFFICE": "move one office"}
BUYER_RED, BUYER_PURPLE = "#d8463a", "#7b4fb5"
PHASE_SHORT = ("", "plan", "price", "produce", "upgrade", "research", "logistics", "sales", "income")
DECISION_WORDS = {
    "none": "", "arrange": "choose how to lay the two tablets (secret plan)",
    "place_upgrade": "lay upgrade tiles on the plan", "pick_upgrade": "take an upgrade from the display",
    "research": "place research markers", "logistics": "place logistics markers",
    "wifi_office": "WI-FI: open a second office", "gamepad_office": "GAMEPAD: open an office in a small region",
    "nfc_sale": "NFC: sell phones directly", "sell": "sell phones to buyers",
    "retailer_research": "retailer bonus: place a research marker", "retailer_price": "retailer bonus: price ±1",
    "retailer_second_office": "retailer bonus: open a second office",
    "move_office_from": "retailer bonus: choose an office to move",
    "move_office_to": "retailer bonus: choose where the office goes",
}

# The map: each region's box corner (schematic, roughly geographic); unknown ids fall back to a grid.
MAP_X, MAP_Y = MARGIN, 92
MAP_W, MAP_H = 900, 560
REG_W, REG_H = 166, 120
REGION_AT = {
    "CANADA": (10, 8), "USA": (10, 140), "CARIBBEAN": (70, 272), "LATAM": (110, 404),
    "EUROPE": (250, 40), "NAFRICA": (290, 210), "RSA": (320, 404), "RUSSIA": (440, 8),
    "MIDEAST": (470, 178), "CHINA": (640, 70), "INDIA": (560, 318), "SEASIA": (726, 420),
}
RIGHT_X = MAP_X + MAP_W + 12
RIGHT_W = WIDTH - MARGIN - RIGHT_X
CELL = 26  # a tablet cell in the seat panels
HCELL = 16  # an upgrade half in a hand


def _fill(colour: str) -> str:
    return COLOUR_FILL.get(colour, "#888888")


def _ink(colour: str) -> str:
    return COLOUR_INK.get(colour, "#ffffff")


def _text(x: float, y: float, s: object, size: float = 12, anchor: str = "start", weight: str = "normal",
          fill: str = INK, extra: str = "") -> str:
    w = f' font-weight="{weight}"' if weight != "normal" else ""
    a = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{a}{w} fill="{fill}"{extra}>{esc(s)}</text>'


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "none", sw: float = 1, rx: float = 0,
          extra: str = "") -> str:
    s = f' stroke="{stroke}" stroke-width="{sw:g}"' if stroke != "none" else ""
    r = f' rx="{rx:g}"' if rx else ""
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{r} fill="{fill}"{s}{extra}/>'


def _symbol(x: float, y: float, size: float, sym: str, extra: str = "", stroke: str = "#8a8578") -> str:
    """One tablet or upgrade cell showing ``sym``."""
    out = [_rect(x, y, size, size, SYM_FILL[sym], stroke, 0.8, 2, extra)]
    if SYM_LABEL[sym]:
        out.append(_text(x + size / 2, y + size / 2 + size * 0.14, SYM_LABEL[sym], round(size * 0.38, 1), "middle",
                         "bold" if sym in ("price_down", "price_up") else "normal"))
    return "".join(out)


class _Board:
    """Builds the picture of one state record piece by piece into ``out``."""

    def __init__(self, rules: Any, rec: np.void, seat: int | None) -> None:
        self.rules = rules
        self.data = rules.data
        self.T = rules.T
        self.rec = rec
        self.seat = seat
        self.n = int(rec["n_players"])
        self.phase = int(rec["phase"])
        self.colours = [self.data.colours[int(rec["colour"][p])] for p in range(self.n)]
        self.out: list[str] = []

    def name(self, p: int) -> str:
        return f"Seat {p} ({self.colours[p]})"

    def chip(self, x: float, y: float, p: int, r: float = 6, label: str = "", extra: str = "") -> str:
        """A seat-coloured disc centred at (x, y), with an optional label inside."""
        c = self.colours[p]
        out = f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{_fill(c)}" stroke="{INK}" stroke-width="0.8"{extra}/>'
        if label:
            out += _text(x, y + r * 0.4, label, r * 1.1, "middle", "bold", _ink(c))
        return out

    # ------------------------------------------------------------ header
    def header(self) -> None:
        rec, o = self.rec, self.out
        o.append(_text(MARGIN, 30, "Smartphone Inc.", 22, weight="bold"))
        rnd = int(rec["round"])
        o.append(_text(MARGIN + 218, 30, f"Round {rnd} of {N_ROUNDS}", 16, weight="bold"))
        # The phase strip.
        x0 = MARGIN + 345
        for ph in range(1, 9):
            cur = ph == self.phase and not rec["over"]
            x = x0 + (ph - 1) * 74
            o.append(_rect(x, 12, 70, 24, "#2b2b2b" if cur else "#ece9e1", EDGE, 1, 5))
            o.append(_text(x + 35, 28, f"{ph} {PHASE_SHORT[ph]}", 11, "middle", "bold" if cur else "normal",
                           "#fff" if cur else MUTED))
        if rec["over"]:
            winners = [self.name(p) for p in range(self.n) if rec["winner"][p]]
            line = "Game over. Winner: " + (", ".join(winners) or "none")
        else:
            a = int(rec["actor"])
            d = DECISION_NAMES[int(rec["pending"])]
            line = f"Phase {self.phase} ({PHASES[self.phase]}): {self.name(a)} to act: {DECISION_WORDS.get(d, d)}"
            if d in ("research", "logistics"):
                line += f" ({int(rec['markers'])} marker(s) left)"
            elif d == "pick_upgrade":
                line += f" ({int(rec['takes'])} to take)"
        o.append(_text(MARGIN, 60, line, 14, weight="bold"))
        if 4 <= self.phase <= 7 and not rec["over"]:
            order = [int(s) for s in rec["order"][: self.n]]
            x = MARGIN + 700
            o.append(_text(x, 60, "Priority order:", 12, fill=MUTED))
            x += 92
            for i, s in enumerate(order):
                o.append(self.chip(x + 8, 56, s, 8, str(s)))
                if i < len(order) - 1:
                    o.append(_text(x + 22, 60, "›", 13, fill=MUTED))
                x += 30
        # Whose view.
        bx = WIDTH - MARGIN - 230
        if self.seat is None:
            o.append(f'<g data-view="referee">{_rect(bx, 8, 230, 30, "#444", rx=15)}'
                     f'{_text(bx + 115, 28, "Referee’s view (everything)", 13, "middle", "bold", "#fff")}</g>')
        else:
            c = self.colours[self.seat]
            o.append(f'<g data-view="seat" data-seat="{self.seat}">'
                     f'{_rect(bx, 8, 230, 30, _fill(c), INK, 1, 15)}'
                     f'{_text(bx + 115, 28, f"Seat {self.seat}’s view ({c})", 13, "middle", "bold", _ink(c))}</g>')

    # ------------------------------------------------------------ map
    def region_pos(self, r: int) -> tuple[float, float]:
        rid = self.data.regions[r].id
        if rid in REGION_AT:
            x, y = REGION_AT[rid]
        else:
            x, y = 10 + (r % 5) * (REG_W + 10), 8 + (r // 5) * (REG_H + 12)
        return MAP_X + x, MAP_Y + 24 + y

    def world(self) -> float:
        rec, o, T = self.rec, self.out, self.T
        o.append(_rect(MAP_X, MAP_Y, MAP_W, MAP_H, "#e8f1f7", EDGE, 1, 8))
        o.append(_text(MAP_X + 10, MAP_Y + 18, "World map", 14, weight="bold"))
        o.append(_text(MAP_X + 100, MAP_Y + 18, "(regions, offices, buyers; thin lines join neighbouring regions)",
                       11, fill=MUTED))
        regions = self.data.regions
        adj = self.T.adjacency
        for a in range(len(regions)):
            for b in range(a + 1, len(regions)):
                if adj[a, b]:
                    xa, ya = self.region_pos(a)
                    xb, yb = self.region_pos(b)
                    o.append(f'<line x1="{xa + REG_W / 2:g}" y1="{ya + REG_H / 2:g}" x2="{xb + REG_W / 2:g}" '
                             f'y2="{yb + REG_H / 2:g}" stroke="#9fb6c6" stroke-width="2" stroke-dasharray="4 3"/>')
        for r, reg in enumerate(regions):
            x, y = self.region_pos(r)
            ret = int(rec["retailer"][r])
            o.append(f'<g data-piece="region" data-region="{esc(reg.id)}">')
            o.append(_rect(x, y, REG_W, REG_H, "#fffdf6" if ret < 0 else "#f1ece0", "#7d7666", 1.2, 6))
            o.append(_text(x + 7, y + 16, reg.name, 12.5, weight="bold"))
            o.append(_text(x + REG_W - 7, y + 16, f"{reg.size}", 10, "end", fill=MUTED))
            # Office places.
            places = int(rec["places"][r])
            o.append(_text(x + 7, y + 35, "offices", 9, fill=MUTED))
            for k in range(MAX_PLACES):
                owner = int(rec["office"][r, k])
                if k >= places and owner < 0:
                    continue
                px, py = x + 46 + k * 23, y + 23
                if owner >= 0:
                    c = self.colours[owner]
                    o.append(_rect(px, py, 19, 17, _fill(c), INK, 1, 3,
                                   f' data-piece="office" data-seat="{owner}" data-place="{k}"'))
                    o.append(_text(px + 9.5, py + 12.5, owner, 10, "middle", "bold", _ink(c)))
                else:
                    o.append(_rect(px, py, 19, 17, "#fff", "#9a9385", 1, 3,
                                   ' stroke-dasharray="3 2" data-piece="free-place"'))
                    if ret < 0:
                        o.append(_text(px + 9.5, py + 12.5, int(T.place_cost[r, k]), 9.5, "middle", fill=MUTED))
            if ret >= 0:
                side = self.data.retailers[ret][int(rec["retailer_side"][r])]
                bonus = BONUS_SHORT.get(side.bonus, side.bonus).format(n=side.bonus_amount)
                o.append(f'<g data-piece="retailer" data-retailer="{esc(side.id)}{esc(side.side)}">')
                o.append(_rect(x + 6, y + 46, REG_W - 12, 46, "#e2d6bd", "#a08f6a", 1, 4))
                o.append(_text(x + 12, y + 60, f"Retailer {side.id}{side.side} (no buyers)", 10, weight="bold"))
                o.append(_text(x + 12, y + 73, f"office bonus: {bonus}", 10))
                vp = "/".join(str(v) for v in side.place_vp)
                o.append(_text(x + 12, y + 86, f"office VP: {vp}", 10, fill=MUTED))
                o.append("</g>")
            else:
                first, count = int(T.region[r, 5]), int(T.region[r, 6])
                for i, b in enumerate(range(first, first + count)):
                    _, _, kind, cap, tech = (int(v) for v in T.buyers[b])
                    bx, by = x + 7 + i * 22, y + 47
                    fill = BUYER_RED if kind == 0 else BUYER_PURPLE
                    label = f"≤{cap}" if kind == 0 else TECH_SHORT.get(TECHNOLOGIES[tech], TECHNOLOGIES[tech])
                    what = f"pays up to {cap}" if kind == 0 else f"needs {TECHNOLOGIES[tech]}"
                    o.append(f'<g data-piece="buyer" data-buyer="{b}" data-kind="{("red", "purple")[kind]}">'
                             f'<title>{esc(f"buyer: {what}")}</title>')
                    o.append(_rect(bx, by, 20, 36, fill, INK, 0.8, 3))
                    o.append(_text(bx + 10, by + 11, label, 8.5 if len(label) < 4 else 7.5, "middle", "bold", "#fff"))
                    owner = int(rec["buyer_owner"][b])
                    if owner >= 0:
                        c = self.colours[owner]
                        o.append(_rect(bx + 3, by + 15, 14, 18, _fill(c), INK, 1.2, 2,
                                       f' data-piece="sale" data-seat="{owner}"'))
                        o.append(_text(bx + 10, by + 28, owner, 8.5, "middle", "bold", _ink(c)))
                    else:
                        o.append(_rect(bx + 3, by + 15, 14, 18, "#fff", "none", 1, 2, ' opacity="0.4"'))
                    o.append("</g>")
            # Logistics markers in this region.
            lx = x + 7
            prog = [(p, int(rec["reg_progress"][p, r])) for p in range(self.n) if int(rec["reg_progress"][p, r]) > 0]
            if prog:
                o.append(_text(lx, y + REG_H - 8, "logistics", 9, fill=MUTED))
                lx += 48
                for p, v in prog:
                    o.append(self.chip(lx + 6, y + REG_H - 11, p, 6.5, str(v),
                                       f' data-piece="logistics-progress" data-seat="{p}" data-count="{v}"'))
                    lx += 17
            o.append("</g>")
        return MAP_Y + MAP_H

    # ------------------------------------------------------------ right column
    def technologies(self, y: float) -> float:
        rec, o, T = self.rec, self.out, self.T
        h = 30 + 52 * len(TECHNOLOGIES)
        o.append(_rect(RIGHT_X, y, RIGHT_W, h, PANEL, EDGE, 1, 8))
        o.append(_text(RIGHT_X + 10, y + 19, "Technologies", 14, weight="bold"))
        o.append(_text(RIGHT_X + 118, y + 19, "(research markers; the first to finish takes the patent)", 10.5,
                       fill=MUTED))
        for t, tid in enumerate(TECHNOLOGIES):
            ty = y + 28 + 52 * t
            owner = int(rec["patent_owner"][t])
            o.append(f'<g data-piece="technology" data-tech="{tid}">')
            o.append(_rect(RIGHT_X + 6, ty, RIGHT_W - 12, 48, "#f7f6f2", "#dedad0", 1, 5))
            o.append(_text(RIGHT_X + 14, ty + 16, TECH_NAME.get(tid, tid), 12.5, weight="bold"))
            base, pcost, pvp = int(T.tech[t, 1]), int(T.tech[t, 2]), int(T.tech[t, 3])
            o.append(_text(RIGHT_X + 82, ty + 16, f"costs {base} markers ({pcost} while the patent is here)", 10.5,
                           fill=MUTED))
            eff = EFFECTS[int(T.tech_effect[t, int(rec["tech_side"][t])])]
            o.append(_text(RIGHT_X + 14, ty + 30, EFFECT_WORDS.get(eff, eff), 10.5))
            px = RIGHT_X + RIGHT_W - 12
            if owner >= 0:
                c = self.colours[owner]
                o.append(_rect(px - 96, ty + 4, 90, 16, _fill(c), INK, 0.8, 8,
                               f' data-piece="patent" data-seat="{owner}"'))
                o.append(_text(px - 51, ty + 15.5, f"patent: seat {owner}", 9.5, "middle", "bold", _ink(c)))
            else:
                o.append(_rect(px - 96, ty + 4, 90, 16, "#fff", "#b8b2a4", 0.8, 8, ' stroke-dasharray="3 2"'))
                o.append(_text(px - 51, ty + 15.5, f"patent free: {pvp} VP", 9.5, "middle", fill=MUTED))
            cx = RIGHT_X + 14
            for p in range(self.n):
                if rec["researched"][p, t]:
                    o.append(self.chip(cx + 7, ty + 40, p, 6.5, "✓", f' data-piece="researched" data-seat="{p}"'))
                    cx += 20
                elif int(rec["progress"][p, t]) > 0:
                    v = int(rec["progress"][p, t])
                    o.append(self.chip(cx + 7, ty + 40, p, 6.5, str(v),
                                       f' data-piece="research-progress" data-seat="{p}" data-count="{v}"'))
                    cx += 20
            o.append("</g>")
        return y + h

    def display(self, y: float) -> float:
        rec, o = self.rec, self.out
        h = 70
        o.append(_rect(RIGHT_X, y, RIGHT_W, h, PANEL, EDGE, 1, 8))
        o.append(_text(RIGHT_X + 10, y + 19, "Upgrade display", 14, weight="bold"))
        deck = int(rec["deck_n"])
        o.append(_text(RIGHT_X + 140, y + 19, f"(taken in phase 4) · deck: {deck} face down · goods tokens left: "
                       f"{int(rec['tokens_left'])}", 10.5, fill=MUTED))
        x = RIGHT_X + 12
        for u in rec["display"]:
            if u < 0:
                continue
            o.append(self.domino(x, y + 30, int(u), 22, "display-upgrade"))
            x += 2 * 22 + 40
        return y + h

    def domino(self, x: float, y: float, u: int, size: float, piece: str, seat: int | None = None,
               laid: bool = False) -> str:
        """Upgrade ``u`` as a two-cell tile at (x, y) with its id under it (``laid``: on this round's plan)."""
        up = self.data.upgrades[u]
        attrs = f' data-piece="{piece}" data-upgrade="{esc(up.id)}"' + (f' data-seat="{seat}"' if seat is not None
                                                                         else "")
        out = [f"<g{attrs}>", _symbol(x, y, size, up.halves[0]), _symbol(x + size, y, size, up.halves[1]),
               _rect(x, y, 2 * size, size, "none", INK, 1.6, 3)]
        label = up.id + (" ✓" if laid else "")
        out.append(_text(x + size, y + size + 10, label, 8.5, "middle", "bold" if laid else "normal",
                         INK if laid else MUTED))
        out.append("</g>")
        return "".join(out)

    def tracks(self, y: float) -> float:
        rec, o = self.rec, self.out
        lo, hi = (int(v) for v in self.rules.options["price_track"])
        h = 84 + 16 * self.n
        o.append(_rect(RIGHT_X, y, RIGHT_W, h, PANEL, EDGE, 1, 8))
        o.append(_text(RIGHT_X + 10, y + 19, "Price track", 14, weight="bold"))
        o.append(_text(RIGHT_X + 104, y + 19, "(VP per phone sold; the lower price acts first)", 10.5, fill=MUTED))
        span = hi - lo + 1
        w = (RIGHT_W - 20) / span
        for i in range(span):
            cx = RIGHT_X + 10 + i * w
            o.append(_rect(cx, y + 26, w - 2, 26, "#f3f1ea", "#d6d1c4", 0.8, 3))
            o.append(_text(cx + 4, y + 36, lo + i, 9, fill=MUTED))
        stack: dict[int, int] = {}
        for p in range(self.n):
            price = int(rec["price"][p])
            i = min(max(price, lo), hi) - lo
            k = stack.get(i, 0)
            stack[i] = k + 1
            cx = RIGHT_X + 10 + i * w + 16 + (k % 3) * 9
            cy = y + 38 + (k // 3) * 9 - (3 if k < 3 else 0)
            o.append(self.chip(cx, cy, p, 5.5, "", f' data-piece="price-marker" data-seat="{p}" data-price="{price}"'))
        ty = y + 70
        o.append(_text(RIGHT_X + 10, ty, "VP track", 14, weight="bold"))
        top = max(50, *(int(rec["vp"][p]) for p in range(self.n)))
        for p in range(self.n):
            by = ty + 8 + 16 * p
            vp = int(rec["vp"][p])
            bw = (RIGHT_W - 110) * vp / top
            o.append(_text(RIGHT_X + 10, by + 10, f"seat {p}", 10))
            o.append(_rect(RIGHT_X + 52, by + 1, RIGHT_W - 110, 11, "#f3f1ea", "#d6d1c4", 0.6, 2))
            o.append(_rect(RIGHT_X + 52, by + 1, max(bw, 2), 11, _fill(self.colours[p]), INK, 0.6, 2,
                           f' data-piece="vp-marker" data-seat="{p}" data-vp="{vp}"'))
            o.append(_text(RIGHT_X + RIGHT_W - 52, by + 10, f"{vp} VP", 10, weight="bold"))
        return y + h

    # ------------------------------------------------------------ seats
    def seat_panel(self, p: int, x: float, y: float, w: float, h: float) -> None:
        rec, o = self.rec, self.out
        c = self.colours[p]
        me = self.seat == p
        acting = not rec["over"] and int(rec["actor"]) == p
        o.append(f'<g data-seat-panel="{p}">')
        o.append(_rect(x, y, w, h, COLOUR_TINT.get(c, "#f4f4f4"), INK if me else EDGE, 3 if me else 1, 8))
        o.append(_rect(x, y, w, 26, _fill(c), INK, 1, 8))
        o.append(_text(x + 10, y + 18, f"Seat {p} · {c}" + (" · you" if me else ""), 13.5, weight="bold",
                       fill=_ink(c)))
        if acting:
            o.append(_rect(x + w - 66, y + 5, 58, 16, "#222", "#fff", 1, 8))
            o.append(_text(x + w - 37, y + 16.5, "to act", 10, "middle", "bold", "#fff"))
        ty = y + 44
        o.append(_text(x + 10, ty, f"VP {int(rec['vp'][p])} · price {int(rec['price'][p])} · goods to sell "
                       f"{int(rec['goods'][p])}", 12, weight="bold"))
        offices = int(rec["own_offices"][p].sum())
        o.append(_text(x + 10, ty + 16, f"made this round {int(rec['produced'][p])} · goods tokens "
                       f"{int(rec['tokens'][p])} · offices {offices}", 10.5, fill=MUTED))
        self.plan(p, x, ty + 26, w)
        hy = ty + 26 + 20 + PAD_ROWS * CELL + 26
        hand = [int(rec["hand"][p, k]) for k in range(int(rec["hand_n"][p]))]
        o.append(_text(x + 10, hy, f"Upgrades owned ({len(hand)}) · ✓ laid this round", 10.5, weight="bold"))
        laid = {int(rec["plan_hand"][p, i]) for i in range(int(rec["plan_n"][p]))}
        per_row = max(1, int((w - 16) // (2 * HCELL + 28)))
        for k, u in enumerate(hand):
            hx = x + 10 + (k % per_row) * (2 * HCELL + 28)
            hy2 = hy + 6 + (k // per_row) * (HCELL + 16)
            o.append(self.domino(hx, hy2, u, HCELL, "hand-upgrade", p, k in laid))
        if rec["over"]:
            fy = y + h - 12
            tag = " ★ winner" if rec["winner"][p] else ""
            o.append(_text(x + 10, fy, f"Final {int(rec['total'][p])} VP (rank {int(rec['rank'][p])}){tag}", 12.5,
                           weight="bold", extra=f' data-total="{int(rec["total"][p])}"'))
        o.append("</g>")

    def plan(self, p: int, x: float, y: float, w: float) -> None:
        """Seat ``p``'s plan: the two tablets as laid with the upgrades on them (or why there is none)."""
        rec, o, T = self.rec, self.out, self.T
        arr = int(rec["plan_arr"][p])
        if arr < 0:
            secret = self.seat is not None and self.seat != p and self.phase == 1
            msg = ("plan: secret until every seat has planned" if secret else "plan: not made yet")
            o.append(_text(x + 10, y + 12, msg, 11, fill=MUTED))
            o.append(_rect(x + 10, y + 20, w - 20, PAD_ROWS * CELL, "none", "#b8b2a4", 1, 6,
                           ' stroke-dasharray="5 4"'))
            return
        a = arrangements(self.data).arrangements[arr]
        lo, up = a.lower, a.upper
        o.append(_text(x + 10, y + 12, f"plan: lower tablet {lo.tablet}{lo.side}, upper {up.tablet}{up.side}"
                       + (f" turned {90 * up.rotation}°" if up.rotation else ""), 10.5, weight="bold"))
        grid, layers = T.arr_grid[arr], T.arr_layers[arr]
        low, top = rec["pl_low"][p], rec["pl_top"][p]
        used = [divmod(i, PAD_COLS) for i in range(PAD_N) if int(layers[i]) or int(top[i]) >= 0]
        r0, r1 = min(r for r, _ in used), max(r for r, _ in used)
        c0, c1 = min(c for _, c in used), max(c for _, c in used)
        gx = x + (w - (c1 + c0 + 1) * CELL) / 2  # the used cells centred in the panel
        gy = y + 20 + (PAD_ROWS - (r1 + r0 + 1)) * CELL / 2
        o.append(f'<g data-piece="plan" data-seat="{p}" data-arrangement="{arr}">')

        def box(kinds: tuple[int, ...]) -> tuple[float, float, float, float] | None:
            pos = [divmod(i, PAD_COLS) for i in range(PAD_N) if int(layers[i]) in kinds]
            if not pos:
                return None
            r0, r1 = min(r for r, _ in pos), max(r for r, _ in pos)
            c0, c1 = min(c for _, c in pos), max(c for _, c in pos)
            return gx + c0 * CELL, gy + r0 * CELL, (c1 - c0 + 1) * CELL, (r1 - r0 + 1) * CELL

        lower_box, upper_box = box((LOWER, BOTH)), box((UPPER, BOTH))
        if lower_box:
            bx, by, bw, bh = lower_box
            o.append(_rect(bx - 3, by - 3, bw + 6, bh + 6, "#8d8a84", INK, 0.8, 4))
        if upper_box:
            bx, by, bw, bh = upper_box
            o.append(_rect(bx - 1, by + 1, bw + 6, bh + 6, "#00000033", rx=4))
            o.append(_rect(bx - 3, by - 3, bw + 6, bh + 6, "#3b3a37", INK, 0.8, 4))
        for i in range(PAD_N):
            layer = int(layers[i])
            sym = int(grid[i]) if layer else -1
            if int(top[i]) >= 0:
                sym = int(top[i])
            elif int(low[i]) >= 0 and layer == LOWER:
                sym = int(low[i])
            if sym < 0:
                continue
            r, c = divmod(i, PAD_COLS)
            cx, cy = gx + c * CELL + 1, gy + r * CELL + 1
            attrs = f' data-piece="tablet-cell" data-seat="{p}"' if layer else ""
            o.append(_symbol(cx, cy, CELL - 2, SYMBOLS[sym], attrs))
            if layer == BOTH:
                o.append(f'<path d="M{cx + CELL - 2:g},{cy + CELL - 11:g} l0,9 l-9,0 z" fill="{INK}"/>')
        # The upgrade tiles laid on the plan (dashed: under the upper tablet).
        for i in range(int(rec["plan_n"][p])):
            h = int(rec["plan_hand"][p, i])
            u = int(rec["hand"][p, h])
            slot = T.slots[arr, int(rec["plan_slot"][p, i])]
            (ra, ca), (rb, cb) = divmod(int(slot[0]), PAD_COLS), divmod(int(slot[1]), PAD_COLS)
            r0, c0 = min(ra, rb), min(ca, cb)
            bw, bh = (abs(cb - ca) + 1) * CELL, (abs(rb - ra) + 1) * CELL
            dash = ' stroke-dasharray="4 2"' if int(slot[2]) else ""
            uid = self.data.upgrades[u].id if u >= 0 else "?"
            o.append(_rect(gx + c0 * CELL + 1, gy + r0 * CELL + 1, bw - 2, bh - 2, "none", "#111", 2.4, 4,
                           f'{dash} data-piece="upgrade" data-seat="{p}" data-upgrade="{esc(uid)}"'))
        o.append("</g>")
        counts = [int(rec["vis_tab"][p, k]) + int(rec["vis_upg"][p, k]) for k in range(len(SYMBOLS))]
        sc = dict(zip(SYMBOLS, counts, strict=False))
        hidden = int(T.arr_hidden[arr])
        o.append(_text(x + 10, y + 20 + PAD_ROWS * CELL + 14,
                       f"shows: good {sc['goods']} (+{hidden} hidden) −$ {sc['price_down']} +$ {sc['price_up']} "
                       f"res {sc['research']} log {sc['logistics']} upg {sc['upgrade']}", 9.5, fill=MUTED))

    def seats(self, y: float) -> float:
        gap = 10
        w = (WIDTH - 2 * MARGIN - (self.n - 1) * gap) / self.n
        per_row = max(1, int((w - 16) // (2 * HCELL + 28)))
        most = max([int(self.rec["hand_n"][p]) for p in range(self.n)] + [1])
        h = 70 + 20 + PAD_ROWS * CELL + 26 + 10 + (-(-most // per_row)) * (HCELL + 16) + 26
        for p in range(self.n):
            self.seat_panel(p, MARGIN + p * (w + gap), y, w, h)
        return y + h

    # ------------------------------------------------------------ legend
    def legend(self, y: float) -> float:
        o = self.out
        o.append(_rect(MARGIN, y, WIDTH - 2 * MARGIN, 112, PANEL, EDGE, 1, 8))
        o.append(_text(MARGIN + 10, y + 19, "Legend", 14, weight="bold"))
        x, ly = MARGIN + 14, y + 32
        for i, sym in enumerate(("goods", "price_down", "upgrade", "research", "logistics", "blank")):
            lx = x + (i % 3) * 300
            yy = ly + (i // 3) * 26
            o.append(_symbol(lx, yy, 20, sym))
            if sym == "price_down":
                o.append(_symbol(lx + 22, yy, 20, "price_up"))
            o.append(_text(lx + (48 if sym == "price_down" else 26), yy + 14, SYM_WORDS[sym], 11))
        lx = x + 900
        o.append(_rect(lx, ly, 40, 20, "none", "#111", 2.4, 4))
        o.append(_text(lx + 46, ly + 14, "upgrade tile laid (dashed: under the upper tablet)", 11))
        o.append(_rect(lx, ly + 26, 20, 20, SYM_FILL["blank"], "#8a8578", 0.8, 2))
        o.append(f'<path d="M{lx + 20},{ly + 35} l0,9 l-9,0 z" fill="{INK}"/>')
        o.append(_text(lx + 26, ly + 40, "covers a lower-tablet cell: +1 good", 11))
        ky = ly + 58
        o.append(_rect(x, ky, 19, 17, "#fff", "#9a9385", 1, 3, ' stroke-dasharray="3 2"'))
        o.append(_text(x + 9.5, ky + 12.5, "3", 9.5, "middle", fill=MUTED))
        o.append(_text(x + 24, ky + 13, "free office place (logistics markers to open it); coloured: a seat's office",
                       11))
        bx = x + 440
        o.append(_rect(bx, ky - 8, 20, 30, BUYER_RED, INK, 0.8, 3))
        o.append(_text(bx + 10, ky + 3, "≤5", 8.5, "middle", "bold", "#fff"))
        o.append(_rect(bx + 24, ky - 8, 20, 30, BUYER_PURPLE, INK, 0.8, 3))
        o.append(_text(bx + 34, ky + 3, "GPS", 8.5, "middle", "bold", "#fff"))
        o.append(_text(bx + 50, ky + 5, "buyers: red buys at a price up to its number, purple needs that technology "
                       "(Pad = GAMEPAD, Li = LI-ION); a coloured phone on it: sold this round", 11))
        return y + 112


def board_svg(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The position ``rec`` (a state record) as one self-contained SVG board; ``seat``: draw it as that seat's view
    (the caller has already hidden what the seat may not know: other seats' plans in phase 1)."""
    b = _Board(rules, rec, seat)
    b.header()
    bottom = b.world()
    ry = b.technologies(MAP_Y)
    ry = b.display(ry + 8)
    ry = b.tracks(ry + 8)
    y = b.seats(max(bottom, ry) + 12)
    y = b.legend(y + 12) + MARGIN
    view = "referee's view" if seat is None else f"seat {seat}'s view"
    body = _rect(0, 0, WIDTH, y, PAPER) + "".join(b.out)
    return svg_document(WIDTH, y, body, f"Smartphone Inc., round {int(rec['round'])}, phase {int(rec['phase'])}: "
                        f"{view}")
