"""The Pendulum position as an SVG board (``PendulumGame.render_svg``).

The picture, top to bottom:

* a header: the round (with the four councils), the phase and who acts, the view (referee or a seat's), the
  privilege order and the time markers;
* the three worker areas (purple, green, black), each with its sand timer drawn beside the row it stands on
  (the *timed* row: workers there may act; workers in the other row may move) and the sand left; every action
  space shows its reward, its cost, its top frame (workers placed there) and its bottom box (workers that acted);
* the council board (the offered cards, GRANDE, DEFAULT and the face-down deck), the province display and the
  achievement card;
* one panel per seat: the power / prestige / popularity tracks and the votes track, the three resources with their
  caps, workers off the board, provinces under each mat slot, stratagems and armed effects;
* in solo games the Automas' board: both score tracks, their grandes, the revealed Automa cards and the deck.

Every piece carries a ``data-piece`` attribute (``space``, ``timer``, ``worker``, ``idle-worker``,
``track-marker``, ``council-card``, ``card-back``, ``province``, ``achievement``, ``legendary-token``,
``privilege``, ``round-marker``, ``time-marker``, ``stratagem``, ``automa-card``, ``automa-score``) so tests can
count them against the state. Deck orders are never drawn (decks show as sizes; the council deck as card backs).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.core.svg import esc, svg_document
from simlab.games.pendulum.codes import (
    AREA_NAMES,
    OPT_AUTOMA_GLORY_LAST,
    OPT_AUTOMA_PARCHMENT_FIRST,
    OPT_AUTOMA_PARCHMENT_LAST,
    OPT_LEVEL,
    OPT_PARCHMENT_FIRST,
    OPT_RES_CAP,
    OPT_TRACK_LAST,
    OPT_VOTES_CAP,
    PENDING_NAMES,
    PH_OVER,
    PH_PENDING,
    PHASE_NAMES,
    RESOURCE_NAMES,
    SLOT_NAMES,
    TRACK_NAMES,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.render.actions import _pending
from simlab.games.pendulum.render.board import PHASE_TEXT
from simlab.games.pendulum.render.names import (
    _tables,
    acard_id,
    achievement_id,
    character_name,
    council_id,
    province_id,
    strat_name,
    symbol_name,
)
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
    C_DEFAULT,
    C_GRANDE,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    COUNCIL_KINDS,
    EF_CONQUER,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VOTES,
    EF_VP_ANY,
    EF_WILD,
    FLIP_NAMES,
    LEVELS,
    SP_AREA,
    SP_COST,
    SP_FRAME,
    SP_NALT,
    SP_NEUTRAL,
    SP_POS,
    SP_REWARD0,
    SP_ROW,
    SPECIAL_NAMES,
)

HIDDEN = -2  # a council card the seat may not know (PendulumGame.hide)

WIDTH = 1400
MARGIN = 20
# Okabe-Ito colours for the seats (colour-blind safe); every worker also carries its seat number
SEAT_COLOURS = ("#E69F00", "#0072B2", "#CC79A7", "#56B4E9", "#F0E442")
SEAT_TEXT = ("#000", "#fff", "#000", "#000", "#000")
AUTOMA_COLOUR = "#3a3a3a"
NEUTRAL_COLOUR = "#ffffff"
AREA_FILL = ("#efe6f7", "#e3f1e6", "#e4e4e4")
AREA_EDGE = ("#6a3d9a", "#2e7d32", "#222222")
SLOT_COLOURS = ("#8d6e63", "#d84343", "#3f7fd1", "#e0b000")
RES_COLOURS = ("#b5443b", "#3f7fd1", "#d4a017")
PARCHMENT = "#f3e3b5"
GLORY = "#d9c3f0"
INK = "#222"
MUTED = "#666"
PAPER = "#fbfaf7"

TRACK_SHORT = ("power", "prestige", "popularity")
SPECIAL_TEXT = {
    "max3": "Max-3 (provinces)", "pickup_stratagems": "pick up stratagems", "swap_vp": "move 1 VP between tracks",
    "free_action": "free action", "grande": "gain a grande", "exchange_military_culture": "swap military/culture",
    "adjacent_action": "adjacent action", "claim_achievement_twice": "claim achievement twice",
    "place_on_timed_row": "place on a timed row", "return_one_stratagem": "return 1 stratagem",
    "claim_achievement": "claim achievement", "double_action": "double action",
}


# ---------------------------------------------------------------- small drawing helpers

def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, s: object, size: float = 12, anchor: str = "start", weight: str = "normal",
          fill: str = INK, extra: str = "") -> str:
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{extra}>{esc(s)}</text>')


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "none", sw: float = 1, rx: float = 0,
          extra: str = "") -> str:
    return (f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" rx="{_f(rx)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{_f(sw)}"{extra}/>')


def _wrap(text: str, width_px: float, size: float) -> list[str]:
    """``text`` broken into lines of about ``width_px`` at font ``size`` (a rough glyph width of 0.56 em)."""
    limit = max(4, int(width_px / (size * 0.6)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def _lines(x: float, y: float, text: str, width_px: float, size: float, max_lines: int = 3, fill: str = INK,
           anchor: str = "start", weight: str = "normal") -> tuple[str, float]:
    """Wrapped text from baseline ``y``; returns the elements and the baseline after the last line."""
    lines = _wrap(text, width_px, size)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: max(1, len(lines[-1]) - 1)] + "…"
    out = "".join(_text(x, y + i * size * 1.2, line, size, anchor, weight, fill) for i, line in enumerate(lines))
    return out, y + len(lines) * size * 1.2


def _seat_label(p: int) -> str:
    return f"Seat {p}"


def _agent_label(a: int) -> str:
    return {5: "Neutral", 6: "Automa 1", 7: "Automa 2"}.get(int(a), _seat_label(int(a)))


def _agent_colour(a: int) -> tuple[str, str]:
    a = int(a)
    if 0 <= a < 5:
        return SEAT_COLOURS[a], SEAT_TEXT[a]
    if a == 5:
        return NEUTRAL_COLOUR, INK
    return AUTOMA_COLOUR, "#fff"


def _worker(x: float, y: float, owner: int, grande: bool, label: str, tip: str, piece: str = "worker",
            extra: str = "") -> str:
    """A worker token: a circle (common) or a larger diamond (grande) in the owner's colour, with a label."""
    fill, ink = _agent_colour(owner)
    kind = "grande" if grande else "common"
    if grande:
        r = 10.5
        shape = (f'<polygon points="{_f(x)},{_f(y - r)} {_f(x + r)},{_f(y)} {_f(x)},{_f(y + r)} {_f(x - r)},{_f(y)}" '
                 f'fill="{fill}" stroke="{INK}" stroke-width="2"/>')
    else:
        shape = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="8.5" fill="{fill}" stroke="{INK}" stroke-width="1"/>'
    return (f'<g data-piece="{piece}" data-owner="{esc(owner)}" data-kind="{kind}"{extra}><title>{esc(tip)}</title>'
            f'{shape}{_text(x, y + 3.5, label, 10, "middle", "bold", ink)}</g>')


# ---------------------------------------------------------------- effects in few words

def _alt_short(t: np.void, e: int, alt: int) -> str:
    row = t["eff"][int(e), int(alt)]
    parts: list[str] = []
    for r, name in enumerate(RESOURCE_NAMES):
        if row[r]:
            parts.append(f"{int(row[r])} {name}")
    if row[EF_WILD]:
        parts.append(f"{int(row[EF_WILD])} any resource")
    if row[EF_VOTES]:
        parts.append(f"{int(row[EF_VOTES])} vote{'s' if int(row[EF_VOTES]) != 1 else ''}")
    for k, name in enumerate(TRACK_SHORT):
        if row[5 + k]:
            parts.append(f"{int(row[5 + k])} {name} VP")
    if row[EF_VP_ANY]:
        parts.append(f"{int(row[EF_VP_ANY])} VP any track")
    if row[EF_LEGENDARY]:
        parts.append("legendary VP")
    if row[EF_PROD]:
        slots = [SLOT_NAMES[m] for m in range(4) if int(row[EF_PROD]) >> m & 1]
        parts.append(" + ".join(slots) + " production")
    if row[EF_CONQUER]:
        parts.append(f"conquer {int(row[EF_CONQUER])}")
    if row[EF_RETRIEVE]:
        parts.append(f"retrieve {int(row[EF_RETRIEVE])} worker")
    if row[EF_RECRUIT]:
        parts.append(f"recruit {int(row[EF_RECRUIT])} worker")
    sp = int(row[EF_SPECIAL])
    if 0 < sp < len(SPECIAL_NAMES):
        parts.append(SPECIAL_TEXT.get(SPECIAL_NAMES[sp], SPECIAL_NAMES[sp]))
    return ", ".join(parts)


def _eff(t: np.void, e: int, sign: str = "+") -> str:
    """Effect ``e`` in few words (alternatives joined by `` or ``); empty for none."""
    e = int(e)
    if e <= 0:
        return ""
    alts = [_alt_short(t, e, a) for a in range(max(1, int(t["eff_nalt"][e])))]
    alts = [f"{sign}{a}" if a and a[0].isdigit() else a for a in alts]
    return " or ".join(a for a in alts if a)


# ---------------------------------------------------------------- the parts of the board

class _Board:
    """Collects the SVG elements of one position."""

    def __init__(self, rules: Any, rec: np.void, seat: int | None) -> None:
        self.rules = rules
        self.t = _tables(rules)
        self.rec = rec
        self.seat = seat
        self.n = int(rec["n_players"])
        self.solo = bool(rec["solo"])
        self.out: list[str] = []

    def add(self, *parts: str) -> None:
        self.out.extend(parts)

    # ---- header
    def header(self, y: float) -> float:
        rec, t = self.rec, self.t
        over = bool(rec["over"]) or int(rec["phase"]) == PH_OVER
        mode = "solo against two Automas" if self.solo else f"{self.n} players"
        self.add(_text(MARGIN, y + 22, f"Pendulum · {mode}", 22, weight="bold"))
        view = "Referee's view (everything)" if self.seat is None else f"{_seat_label(self.seat)}'s view"
        if self.seat is None:
            self.add(_text(WIDTH - MARGIN, y + 22, view, 16, "end", "bold", MUTED))
        else:
            fill, ink = _agent_colour(self.seat)
            self.add(f'<g data-piece="view">{_rect(WIDTH - MARGIN - 190, y + 3, 190, 28, fill, INK, 1.5, 6)}'
                     f'{_text(WIDTH - MARGIN - 95, y + 23, view, 16, "middle", "bold", ink)}</g>')
        # status line
        if over:
            winners = [_seat_label(p) for p in range(self.n) if rec["winner"][p]]
            if self.solo and int(rec["automa_won"]) > 0:
                winners.append(f"Automa {int(rec['automa_won'])}")
            status = f"Game over after round {int(rec['round'])} · winner: {', '.join(winners) or 'nobody'}"
        else:
            phase = int(rec["phase"])
            todo = PHASE_TEXT.get(phase, PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else str(phase))
            pk, pn, _ = _pending(rec)
            if phase == PH_PENDING and pk:
                todo = f"decision: {PENDING_NAMES[pk].replace('_', ' ') if pk < len(PENDING_NAMES) else pk}"
                todo += f" ({pn} left)"
            step = int(rec["sched_step"])
            when = f"schedule step {step}/{int(t['n_sched']) - 1}, " if step >= 0 else ""
            status = (f"{when}t = {float(rec['now']):.0f} s · to act: {_seat_label(int(rec['actor']))} — {todo}"
                      + (" · COUNCIL CALLED" if rec["council_called"] else ""))
        self.add(_text(MARGIN, y + 46, status, 14))
        # round track with the councils
        y2 = y + 58
        self.add(_text(MARGIN, y2 + 17, "Round", 13, weight="bold"))
        rnd = int(rec["round"])
        for r in range(1, 5):
            x = MARGIN + 70 + (r - 1) * 64
            cur = r == rnd
            self.add(_rect(x, y2 + 2, 26, 22, "#333" if cur else "#fff", INK, 1, 4),
                     _text(x + 13, y2 + 18, r, 13, "middle", "bold", "#fff" if cur else INK))
            self.add(_text(x + 30, y2 + 17, "→C" if r < 4 else "→C end", 11, fill=MUTED))
        x = MARGIN + 70 + (rnd - 1) * 64
        self.add(f'<g data-piece="round-marker" data-round="{rnd}">'
                 f'<polygon points="{_f(x + 7)},{_f(y2 + 32)} {_f(x + 19)},{_f(y2 + 32)} {_f(x + 13)},{_f(y2 + 25)}" '
                 f'fill="{INK}"/></g>')
        # privilege order
        x0 = MARGIN + 370
        self.add(_text(x0, y2 + 17, "Privilege order:", 13, weight="bold"))
        x = x0 + 124
        for i, a in enumerate(rec["priv"][: int(rec["n_priv"])]):
            a = int(a)
            fill, ink = _agent_colour(a)
            label = f"{i + 1}. {_agent_label(a)}"
            w = 14 + 7 * len(label)
            self.add(f'<g data-piece="privilege" data-agent="{a}" data-rank="{i + 1}">'
                     f'{_rect(x, y2 + 3, w, 20, fill, INK, 1, 10)}'
                     f'{_text(x + w / 2, y2 + 17, label, 12, "middle", "bold", ink)}'
                     f'</g>')
            x += w + 6
        # time markers
        x0 = MARGIN + 900
        self.add(_text(x0, y2 + 17, "Time markers in purple:", 13, weight="bold"))
        for i in range(int(rec["markers_left"])):
            self.add(f'<g data-piece="time-marker" data-where="purple">'
                     f'<circle cx="{_f(x0 + 180 + i * 18)}" cy="{_f(y2 + 13)}" r="7" fill="#6a3d9a" stroke="{INK}"/>'
                     f'</g>')
        self.add(_text(x0 + 240, y2 + 17, f"purple flips this round: {int(rec['purple_flips'])}", 12, fill=MUTED))
        return y2 + 40

    # ---- the three areas
    def areas(self, y: float) -> float:
        t, rec = self.t, self.rec
        ns = int(t["n_spaces"])
        cols = [max([int(t["sp"][d, SP_POS]) + 1 for d in range(ns) if int(t["sp"][d, SP_AREA]) == a] or [1])
                for a in range(3)]
        gutter, gap, sgap = 56, 14, 6
        sw = (WIDTH - 2 * MARGIN - 3 * gutter - 2 * gap - sum(cols) * sgap) / sum(cols)
        sh = 118
        head = 30
        x = MARGIN
        for a in range(3):
            pw = gutter + cols[a] * (sw + sgap)
            self.add(_rect(x, y, pw, head + 2 * (sh + 10) + 6, AREA_FILL[a], AREA_EDGE[a], 2.5, 10))
            self.add(_text(x + 10, y + 21, f"{AREA_NAMES[a].upper()} AREA", 15, weight="bold", fill=AREA_EDGE[a]))
            self.add(self._timer(a, x + gutter / 2 + 6, y + head, sh, pw))
            for row in range(2):
                ry = y + head + row * (sh + 10)
                timed = int(rec["timer_row"][a]) == row
                label = "top row" if row == 0 else "bottom row"
                lx, ly = x + 13, ry + sh / 2
                self.add(_text(lx, ly, label + (" · timed" if timed else ""), 10, "middle", fill=MUTED,
                               extra=f' transform="rotate(-90 {_f(lx)} {_f(ly)})"'))
                for d in range(ns):
                    sp = t["sp"][d]
                    if int(sp[SP_AREA]) != a or int(sp[SP_ROW]) != row:
                        continue
                    sx = x + gutter + int(sp[SP_POS]) * (sw + sgap)
                    self.add(self._space(d, sx, ry, sw, sh, timed))
            x += pw + gap
        return y + head + 2 * (sh + 10) + 16

    def _timer(self, a: int, cx: float, y: float, sh: float, pw: float) -> str:
        rec, t = self.rec, self.t
        row = int(rec["timer_row"][a])
        now, out = float(rec["now"]), float(rec["runs_out"][a])
        run_out = now >= out
        total = max(1.0, float(t["timer_s"][a]))
        left = 0.0 if run_out else min(1.0, (out - now) / total)
        cy = y + row * (sh + 10) + sh / 2
        h, w = 34, 22
        top, bot = cy - h / 2, cy + h / 2
        # sand: the upper bulb holds what is left, the lower what has run
        up_h = (h / 2 - 3) * left
        lo_h = (h / 2 - 3) * (1 - left)
        sand = "#d4a017"
        parts = [f'<g data-piece="timer" data-timer="{AREA_NAMES[a]}" data-row="{"top" if row == 0 else "bottom"}" '
                 f'data-run-out="{int(run_out)}">',
                 f'<title>{esc(AREA_NAMES[a])} timer on the {"top" if row == 0 else "bottom"} row: '
                 f'{"sand has run out (may be flipped)" if run_out else f"runs out at {out:.0f} s"}</title>']
        if up_h > 0.2:
            k = up_h / (h / 2)
            parts.append(f'<polygon points="{_f(cx - w / 2 * k)},{_f(cy - up_h)} {_f(cx + w / 2 * k)},{_f(cy - up_h)} '
                         f'{_f(cx)},{_f(cy)}" fill="{sand}"/>')
        if lo_h > 0.2:
            parts.append(f'<polygon points="{_f(cx - w / 2 + 1)},{_f(bot - 2)} {_f(cx + w / 2 - 1)},{_f(bot - 2)} '
                         f'{_f(cx)},{_f(bot - 2 - lo_h)}" fill="{sand}"/>')
        parts.append(f'<path d="M{_f(cx - w / 2)},{_f(top)} h{_f(w)} L{_f(cx)},{_f(cy)} L{_f(cx + w / 2)},{_f(bot)} '
                     f'h{_f(-w)} L{_f(cx)},{_f(cy)} Z" fill="none" stroke="{INK}" stroke-width="1.8"/>')
        parts.append(_rect(cx - w / 2 - 3, top - 3, w + 6, 3, INK) + _rect(cx - w / 2 - 3, bot, w + 6, 3, INK))
        label = "RUN OUT" if run_out else f"{out - now:.0f} s"
        parts.append(_text(cx - 2, bot + 16, label, 9, "middle", "bold", "#b00020" if run_out else INK))
        parts.append("</g>")
        return "".join(parts)

    def _space(self, d: int, x: float, y: float, w: float, h: float, timed: bool) -> str:
        t = self.t
        sp = t["sp"][d]
        a = int(sp[SP_AREA])
        frame = ("single", "double", "open")[int(sp[SP_FRAME])] if 0 <= int(sp[SP_FRAME]) < 3 else "?"
        rewards = [_eff(t, int(sp[SP_REWARD0 + k])) or "nothing" for k in range(max(1, int(sp[SP_NALT])))]
        reward = " OR ".join(rewards)
        cost = _eff(t, int(sp[SP_COST]), sign="")
        parts = [f'<g data-piece="space" data-space="{d}" data-area="{AREA_NAMES[a]}" '
                 f'data-row="{"top" if int(sp[SP_ROW]) == 0 else "bottom"}" data-timed="{int(timed)}">',
                 f'<title>{esc(self.rules.space_id(d) if hasattr(self.rules, "space_id") else d)} ({frame} frame)'
                 f'</title>',
                 _rect(x, y, w, h, "#fff", AREA_EDGE[a], 2.2 if timed else 1, 6,
                       "" if timed else ' stroke-dasharray="4 3"')]
        txt, yy = _lines(x + 6, y + 14, reward, w - 10, 10.5, 3, weight="bold")
        parts.append(txt)
        if cost:
            parts.append(_text(x + 6, yy, f"cost: {cost}", 9.5, fill=MUTED))
        # top frame and bottom box
        fy, by = y + h - 56, y + h - 27
        parts.append(_rect(x + 4, fy, w - 8, 25, "#f7f7f7", "#999", 1, 4))
        parts.append(_rect(x + 4, by, w - 8, 23, "#d9d9d9", "#777", 1, 3))
        parts.append(_text(x + w - 7, fy + 9, "frame", 7.5, "end", fill=MUTED))
        parts.append(_text(x + w - 7, by + 9, "box", 7.5, "end", fill=MUTED))
        top, bottom = self._occupants(d)
        for i, (owner, grande, label, tip) in enumerate(top):
            parts.append(_worker(x + 16 + i * 23, fy + 13, owner, grande, label, tip, extra=' data-part="frame"'))
        for i, (owner, grande, label, tip) in enumerate(bottom):
            parts.append(_worker(x + 16 + i * 23, by + 12, owner, grande, label, tip, extra=' data-part="box"'))
        parts.append("</g>")
        return "".join(parts)

    def _occupants(self, d: int) -> tuple[list[tuple[int, bool, str, str]], list[tuple[int, bool, str, str]]]:
        rec, t = self.rec, self.t
        top: list[tuple[int, bool, str, str]] = []
        bottom: list[tuple[int, bool, str, str]] = []
        for p in range(self.n):
            for w in range(rec["w_place"].shape[1]):
                if int(rec["w_place"][p, w]) == d:
                    grande = bool(rec["w_grande"][p, w])
                    part = int(rec["w_part"][p, w])
                    tip = (f"{_seat_label(p)}, worker {w + 1} ({'grande' if grande else 'common'}) "
                           f"in the {'bottom box' if part == 1 else 'top frame'}")
                    (bottom if part == 1 else top).append((p, grande, str(p), tip))
        if self.solo:
            for k in range(rec["a_work"].shape[0]):
                if int(rec["a_work"][k]) == d:
                    top.append((6, False, "A", f"Automa worker {k + 1}"))
        if self.n == 2 and int(t["sp"][d, SP_NEUTRAL]):
            top.append((5, False, "N", "the 2-player neutral worker"))
        return top, bottom

    # ---- council board, provinces, achievement
    def middle(self, y: float) -> float:
        h = 150
        self.add(self._council(MARGIN, y, 800, h))
        self.add(self._provinces(MARGIN + 812, y, 376, h))
        self.add(self._achievement(MARGIN + 1200, y, WIDTH - 2 * MARGIN - 1200, h))
        return y + h + 12

    def _panel(self, x: float, y: float, w: float, h: float, title: str) -> str:
        return _rect(x, y, w, h, "#fff", "#888", 1.2, 8) + _text(x + 10, y + 18, title, 14, weight="bold")

    def _card(self, x: float, y: float, w: float, h: float, head: str, body: str, foot: str, piece: str,
              attrs: str, fill: str = "#fffdf4", edge: str = "#8a6d1f", dim: bool = False, cost: str = "") -> str:
        op = ' opacity="0.45"' if dim else ""
        txt, _ = _lines(x + 5, y + 30, body, w - 8, 9.5, 4)
        if cost:
            txt += _lines(x + 5, y + h - 29, f"cost: {cost}", w - 8, 9, 2, fill="#8a2a1f")[0]
        return (f'<g data-piece="{piece}"{attrs}{op}>{_rect(x, y, w, h, fill, edge, 1.4, 5)}'
                f'{_rect(x, y, w, 17, edge, "none", 0, 5)}'
                f'{_text(x + w / 2, y + 13, head, 10.5, "middle", "bold", "#fff")}'
                f'{txt}{_text(x + 5, y + h - 6, foot, 9, fill=MUTED)}</g>')

    def _council(self, x: float, y: float, w: float, h: float) -> str:
        rec, t = self.rec, self.t
        parts = [self._panel(x, y, w, h, "Council board")]
        cw, ch, cy = 88, 108, y + 30
        cx = x + 10
        for i in range(5):
            c = int(rec["offer"][i])
            if c < 0:
                parts.append(_rect(cx, cy, cw, ch, "none", "#bbb", 1, 5, ' stroke-dasharray="4 3"'))
                parts.append(_text(cx + cw / 2, cy + ch / 2, "taken", 10, "middle", fill=MUTED))
            else:
                co = t["co"][c]
                kind = COUNCIL_KINDS[int(co[CO_KIND])] if 0 <= int(co[CO_KIND]) < len(COUNCIL_KINDS) else "?"
                cost = _eff(t, int(co[CO_COST]), sign="")
                parts.append(self._card(cx, cy, cw, ch, f"Card {council_id(self.rules, c)}",
                                        _eff(t, int(co[CO_EFFECT])) or "-", kind,
                                        "council-card", f' data-card="{c}" data-slot="{i + 1}"', cost=cost))
            cx += cw + 6
        for c, up in ((C_GRANDE, bool(rec["grande_up"])), (C_DEFAULT, True)):
            co = t["co"][c]
            cost = _eff(t, int(co[CO_COST]), sign="")
            body = _eff(t, int(co[CO_EFFECT])) or ("a grande worker" if c == C_GRANDE else "+1 VP any track")
            parts.append(self._card(cx, cy, cw, ch, council_id(self.rules, c), body,
                                    "always" if c == C_DEFAULT else ("available" if up else "turned down"),
                                    "council-card", f' data-card="{c}" data-slot="{council_id(self.rules, c)}"',
                                    fill="#f4f4ff", edge="#4b4b8f", dim=not up, cost=cost))
            cx += cw + 6
        # the deck: one back per card, no faces, no order
        n = int(rec["cdeck_n"])
        dx = cx + 8
        for k in range(n):
            hidden = int(rec["cdeck"][k]) == HIDDEN
            parts.append(f'<g data-piece="card-back" data-deck="council" data-hidden="{int(hidden)}">'
                         f'{_rect(dx + k * 2.2, cy + 10 - k * 1.2, 56, 80, "#4b4b8f", "#fff", 1, 5)}</g>')
        label = f"deck: {n}" if n else "deck empty"
        parts.append(_text(dx + 30, cy + ch - 2, label, 11, "middle", "bold"))
        return "".join(parts)

    def _province_card(self, x: float, y: float, w: float, card: int, attrs: str, h: float = 108) -> str:
        t = self.t
        parts = [f'<g data-piece="province"{attrs}>', _rect(x, y, w, h, "#fff", "#555", 1.2, 5),
                 _text(x + w / 2, y + 13, f"Province {province_id(self.rules, card)}", 10, "middle", "bold")]
        bh = (h - 20) / 4
        for m in range(4):
            by = y + 18 + m * bh
            parts.append(_rect(x + 3, by, 5, bh - 2, SLOT_COLOURS[m]))
            txt, _ = _lines(x + 11, by + 9, _eff(t, int(t["prov"][card, m])) or "-", w - 14, 8.5, 2)
            parts.append(txt)
        parts.append("</g>")
        return "".join(parts)

    def _provinces(self, x: float, y: float, w: float, h: float) -> str:
        rec = self.rec
        parts = [self._panel(x, y, w, h, "Province display")]
        cw = 74
        for i in range(4):
            c = int(rec["display"][i])
            cx = x + 8 + i * (cw + 4)
            if c < 0:
                parts.append(_rect(cx, y + 30, cw, 108, "none", "#bbb", 1, 5, ' stroke-dasharray="4 3"'))
                parts.append(_text(cx + cw / 2, y + 84, "empty", 10, "middle", fill=MUTED))
            else:
                parts.append(self._province_card(cx, y + 30, cw, c, f' data-where="display" data-card="{c}" '
                                                                    f'data-slot="{i + 1}"'))
        dx = x + 8 + 4 * (cw + 4)
        parts.append(_rect(dx, y + 40, 52, 72, "#6d5a3a", "#fff", 1, 5))
        parts.append(_text(dx + 26, y + 80, str(int(rec["pdeck_n"])), 16, "middle", "bold", "#fff"))
        parts.append(_text(dx + 26, y + 126, "deck", 10, "middle", fill=MUTED))
        parts.append(_text(dx + 26, y + 138, f"out: {int(rec['removed_n'])}", 9, "middle", fill=MUTED))
        return "".join(parts)

    def _achievement(self, x: float, y: float, w: float, h: float) -> str:
        rec, t = self.rec, self.t
        parts = [self._panel(x, y, w, h, "Achievement")]
        a = int(rec["ach_card"])
        if a >= 0:
            need = _eff(t, int(t["ach"][a, 0]), sign="")
            ribbon = _eff(t, int(t["ach"][a, 1]))
            parts.append(self._card(x + 8, y + 28, w - 16, 88, f"Achievement {achievement_id(self.rules, a)}",
                                    f"hold {need}; ribbon: {ribbon}", "claim once per round", "achievement",
                                    f' data-card="{a}"', fill="#f5fbff", edge="#2c6e8f"))
        token = "on the card" if rec["legendary_on_card"] else (
            "waits on the council deck" if rec["legendary_on_council"] else "")
        if token:
            where = "card" if rec["legendary_on_card"] else "council"
            parts.append(f'<g data-piece="legendary-token" data-where="{where}">'
                         f'<title>the legendary VP token</title><circle cx="{_f(x + 16)}" cy="{_f(y + 131)}" r="7" '
                         f'fill="#c9a227" stroke="{INK}"/>{_text(x + 16, y + 134.5, "L", 9, "middle", "bold")}</g>')
            parts.append(_lines(x + 28, y + 131, f"legendary VP {token}", w - 34, 9, 2)[0])
        parts.append(_text(x + w - 8, y + 18, f"deck {int(rec['adeck_n'])}", 10, "end", fill=MUTED))
        return "".join(parts)

    # ---- players
    def players(self, y: float) -> float:
        n = self.n
        cols = 1 if n == 1 else min(n, 3)
        gap = 12
        pw = (WIDTH - 2 * MARGIN - (cols - 1) * gap) / cols if n > 1 else 560
        ph = 312
        for p in range(n):
            r, c = divmod(p, cols)
            self.add(self._seat(p, MARGIN + c * (pw + gap), y + r * (ph + gap), pw, ph))
        rows = (n + cols - 1) // cols
        if self.solo:
            self.add(self._automa(MARGIN + pw + gap, y, WIDTH - 2 * MARGIN - pw - gap, ph))
        return y + rows * (ph + gap)

    def _seat(self, p: int, x: float, y: float, w: float, h: float) -> str:
        rec, t = self.rec, self.t
        fill, ink = SEAT_COLOURS[p], SEAT_TEXT[p]
        me = self.seat == p
        acting = not rec["over"] and int(rec["actor"]) == p
        viewer = ' data-viewer="1"' if me else ""
        parts = [f'<g data-piece="seat" data-seat="{p}"{viewer}>',
                 _rect(x, y, w, h, "#fff", INK if me else "#888", 4 if me else 1.2, 8),
                 _rect(x, y, w, 26, fill, "none", 0, 8), _rect(x, y + 16, w, 10, fill)]
        name = character_name(self.rules, int(rec["char"][p])) or ""
        title = f"{_seat_label(p)}{' (you)' if me else ''} · {name}" + (" · advanced" if rec["advanced"][p] else "")
        parts.append(_text(x + 10, y + 18, title, 13.5, weight="bold", fill=ink))
        if acting:
            parts.append(_text(x + w - 10, y + 18, "▶ to act", 12, "end", "bold", ink))
        # tracks
        last = int(t["opts"][OPT_TRACK_LAST])
        pf = int(t["opts"][OPT_PARCHMENT_FIRST])
        vcap = int(t["opts"][OPT_VOTES_CAP]) or 20
        lx, cx0 = x + 10, x + 82
        cw = (w - 82 - 62) / (max(last, vcap) + 1)
        ty = y + 36
        for k in range(4):
            yy = ty + k * 22
            if k < 3:
                v, top_v, label = int(rec["track"][p, k]), last, TRACK_NAMES[k]
            else:
                v, top_v, label = int(rec["votes"][p]), vcap, "votes"
            parts.append(_text(lx, yy + 12, label, 11, weight="bold"))
            for i in range(top_v + 1):
                shade = PARCHMENT if (k < 3 and i >= pf) else ("#eef3fb" if k == 3 else "#f6f6f6")
                parts.append(_rect(cx0 + i * cw, yy, cw - 1, 16, shade, "#ccc", 0.6))
                if i % 5 == 0:
                    parts.append(_text(cx0 + i * cw + cw / 2, yy + 11.5, i, 7, "middle", fill="#999"))
            vv = min(max(v, 0), top_v)
            mx = cx0 + vv * cw + cw / 2
            parts.append(f'<g data-piece="track-marker" data-track="{label}" data-seat="{p}" data-value="{v}">'
                         f'<circle cx="{_f(mx)}" cy="{_f(yy + 8)}" r="{_f(min(7.5, cw / 2 + 1.5))}" fill="{fill}" '
                         f'stroke="{INK}" stroke-width="1.4"/></g>')
            extra = f"{v}"
            if k < 3 and int(rec["glory"][p, k]):
                extra += f" +{int(rec['glory'][p, k])}★"
            parts.append(_text(cx0 + (top_v + 1) * cw + 6, yy + 12, extra, 11, weight="bold"))
        yy = ty + 4 * 22 + 4
        leg = "yes" if rec["legendary"][p] else "no"
        parts.append(_text(lx, yy + 8, f"tan = parchment (from {pf}); ★ = glory; legendary VP: {leg}", 9.5,
                           fill=MUTED))
        # resources
        yy += 18
        cap = int(t["opts"][OPT_RES_CAP]) or 10
        for r in range(3):
            rx = lx + r * 112
            c = cap - int(rec["glory"][p, r])
            have = int(rec["res"][p, r])
            parts.append(f'<g data-piece="resource" data-resource="{RESOURCE_NAMES[r]}" data-seat="{p}" '
                         f'data-value="{have}">{_rect(rx, yy, 14, 14, RES_COLOURS[r], INK, 0.8, 3)}'
                         f'{_text(rx + 19, yy + 12, f"{RESOURCE_NAMES[r]} {have}/{c}", 11.5)}</g>')
        # workers off the board
        yy += 22
        parts.append(_text(lx, yy + 13, "off board:", 11, weight="bold"))
        wx = lx + 76
        for wk in range(rec["w_place"].shape[1]):
            place = int(rec["w_place"][p, wk])
            if place not in (W_MAT, W_RESERVE):
                continue
            where = "mat" if place == W_MAT else "reserve"
            grande = bool(rec["w_grande"][p, wk])
            tip = (f"{_seat_label(p)}, worker {wk + 1} ({'grande' if grande else 'common'}) "
                   f"{'on the mat' if where == 'mat' else 'in reserve'}")
            if where == "reserve":
                token = _worker(wx, yy + 9, p, grande, str(p), tip, "idle-worker", ' data-where="reserve"')
                parts.append(f'<g opacity="0.45">{token}</g>')
            else:
                parts.append(_worker(wx, yy + 9, p, grande, str(p), tip, "idle-worker", ' data-where="mat"'))
            wx += 24
        parts.append(_text(wx + 4, yy + 13, "(faded = reserve, not yet recruited)", 9.5, fill=MUTED))
        # provinces under the mat slots
        yy += 26
        parts.append(_text(lx, yy + 12, "provinces", 11, weight="bold"))
        parts.append(_text(lx, yy + 25, "by mat slot", 9, fill=MUTED))
        parts.append(_text(lx, yy + 36, "(its production)", 9, fill=MUTED))
        sw = (w - 96) / 4
        for m in range(4):
            sx = lx + 76 + m * sw
            prod = _eff(t, int(t["ch"][int(rec["char"][p]), 10 + m]))
            parts.append(f'<g><title>{esc(SLOT_NAMES[m])} mat slot: produces {esc(prod or "nothing")}</title>'
                         f'{_rect(sx, yy, sw - 6, 48, "#fafafa", SLOT_COLOURS[m], 1.6, 4)}</g>')
            ptxt, _ = _lines(sx + 4, yy + 10, prod or "-", sw - 12, 8, 2, fill=MUTED)
            parts.append(ptxt)
            k = int(rec["prov_n"][p, m])
            step = min(19.0, (sw - 30) / max(1, k - 1)) if k > 1 else 19.0
            for i in range(k):
                card = int(rec["prov"][p, m, i])
                px = sx + 4 + i * step
                parts.append(f'<g data-piece="province" data-where="seat" data-seat="{p}" data-slot="{SLOT_NAMES[m]}" '
                             f'data-card="{card}"><title>province {province_id(self.rules, card)}</title>'
                             f'{_rect(px, yy + 26, 16, 18, "#fff", SLOT_COLOURS[m], 1.4, 2)}'
                             f'{_text(px + 8, yy + 39, province_id(self.rules, card), 8, "middle")}</g>')
        if rec["max3"][p]:
            parts.append(_text(x + w - 10, yy - 3, "Max-3", 9.5, "end", "bold"))
        # stratagems
        yy += 58
        hand = [i for i in range(int(t["n_strats"])) if int(rec["strat"][p, i]) == 1]
        disc = [i for i in range(int(t["n_strats"])) if int(rec["strat"][p, i]) == 2]
        parts.append(_text(lx, yy + 10, f"stratagems: {len(hand)} in hand, {len(disc)} discarded", 11, weight="bold"))
        show = self.seat is None or self.seat == p
        sx = lx
        for i in hand + disc:
            used = i in disc
            face = "" if show else ' data-face="down"'
            bg, edge = ("#eee", "#999") if used else ("#fff8e1", "#8a6d1f")
            label = self._strat_label(i) if show else "?"
            cw2 = 8 + 5.6 * len(label)
            if sx + cw2 > x + w - 8:
                break
            parts.append(f'<g data-piece="stratagem" data-seat="{p}" data-state="{"discarded" if used else "hand"}"'
                         f'{face}><title>{esc(strat_name(self.rules, i) if show else "a stratagem")}</title>'
                         f'{_rect(sx, yy + 15, cw2, 16, bg, edge, 1, 3)}'
                         f'{_text(sx + 4, yy + 27, label, 9.5, fill=MUTED if used else INK)}</g>')
            sx += cw2 + 4
        # flags
        yy += 44
        flags = [txt for txt, on in (("free action armed", rec["free_action"][p]),
                                     ("double action armed", rec["double_action"][p]),
                                     ("adjacent action armed", rec["adjacent_action"][p]),
                                     ("may claim twice", rec["claim_twice"][p])) if on]
        flags.insert(0, f"achievement claims this round: {int(rec['ach_claims'][p])}")
        parts.append(_text(lx, y + h - 9, " · ".join(flags), 10, fill=MUTED))
        parts.append("</g>")
        return "".join(parts)

    def _strat_label(self, i: int) -> str:
        name = strat_name(self.rules, i) or ""
        return name.split(",")[0] + (" #" + name.rsplit("#", 1)[1] if "#" in name else "") if "," in name else name

    # ---- the Automas (solo)
    def _automa(self, x: float, y: float, w: float, h: float) -> str:
        rec, t = self.rec, self.t
        lvl = int(t["opts"][OPT_LEVEL])
        parts = ['<g data-piece="automa-board">', _rect(x, y, w, h, "#fff", "#888", 1.2, 8),
                 _rect(x, y, w, 26, AUTOMA_COLOUR, "none", 0, 8), _rect(x, y + 16, w, 10, AUTOMA_COLOUR),
                 _text(x + 10, y + 18, f"Automas' board · level {LEVELS[lvl] if 0 <= lvl < 6 else lvl}", 13.5,
                       weight="bold", fill="#fff"),
                 _text(x + w - 10, y + 18, f"Automa deck {int(rec['a_deck_n'])} · discard {int(rec['a_disc_n'])}",
                       11.5, "end", fill="#fff")]
        ntr = int(t["n_track"])
        pf, pl = int(t["opts"][OPT_AUTOMA_PARCHMENT_FIRST]), int(t["opts"][OPT_AUTOMA_PARCHMENT_LAST])
        gl = int(t["opts"][OPT_AUTOMA_GLORY_LAST])
        cx0 = x + 80
        cw = (w - 90 - 40) / max(1, ntr)
        for a in range(2):
            yy = y + 38 + a * 128
            score = int(rec["a_score"][a])
            parts.append(_text(x + 10, yy + 12, f"Automa {a + 1}", 12, weight="bold"))
            for i in range(ntr):
                shade = PARCHMENT if pf <= i <= pl else (GLORY if pl < i <= gl else "#f3f3f3")
                parts.append(_rect(cx0 + i * cw, yy, cw - 0.6, 16, shade, "none"))
                if i % 10 == 0:
                    parts.append(_text(cx0 + i * cw, yy + 26, i, 7.5, "middle", fill="#999"))
            mx = cx0 + min(max(score, 0), ntr - 1) * cw + cw / 2
            parts.append(f'<g data-piece="automa-score" data-automa="{a + 1}" data-value="{score}">'
                         f'<polygon points="{_f(mx)},{_f(yy + 16)} {_f(mx - 6)},{_f(yy - 4)} '
                         f'{_f(mx + 6)},{_f(yy - 4)}" '
                         f'fill="{AUTOMA_COLOUR}" stroke="#fff"/></g>')
            parts.append(_text(cx0 + ntr * cw + 6, yy + 12, str(score), 11, weight="bold"))
            info = "grande in its slot" if rec["a_grande"][a] else "no grande"
            if int(rec["a_fallback"][a]):
                info += f" · fallback {int(rec['a_fallback'][a])} VP"
            parts.append(_text(x + 10, yy + 40, info, 10, fill=MUTED))
            for j in range(int(rec["a_ncards"][a])):
                c = int(rec["a_cards"][a, j])
                ac = t["acard"][c]
                left = []
                if int(ac[AC_MOVE]) >= 0:
                    left.append(f"move {AREA_NAMES[int(ac[AC_MOVE])]}")
                if int(ac[AC_FLIP]):
                    left.append(f"flip {FLIP_NAMES[int(ac[AC_FLIP])]}")
                if int(ac[AC_DISCARD]):
                    left.append(f"discard province #{int(ac[AC_DISCARD])}")
                body = (f"{', '.join(left) or 'blank'}; {int(ac[AC_VP])} VP, {int(ac[AC_VOTES]):+d} votes, "
                        f"symbol {symbol_name(self.rules, int(ac[AC_SYMBOL]))}")
                parts.append(self._card(x + 140 + j * 124, yy + 30, 118, 84, f"Automa card {acard_id(self.rules, c)}",
                                        body, "revealed", "automa-card", f' data-automa="{a + 1}" data-card="{c}"',
                                        fill="#f2f2f2", edge=AUTOMA_COLOUR))
        yy = y + h - 14
        parts.append(_text(x + w - 10, yy, "score track: tan = parchment zone, lilac = glory zone", 9.5, "end",
                           fill=MUTED))
        parts.append(_text(x + 10, yy, "Time markers on the Automa board:", 11, weight="bold"))
        for i in range(int(rec["markers_automa"])):
            parts.append(f'<g data-piece="time-marker" data-where="automa"><circle cx="{_f(x + 225 + i * 18)}" '
                         f'cy="{_f(yy - 4)}" r="7" fill="#6a3d9a" stroke="{INK}"/></g>')
        parts.append("</g>")
        return "".join(parts)

    # ---- legend
    def legend(self, y: float) -> float:
        parts = [_rect(MARGIN, y, WIDTH - 2 * MARGIN, 64, "#fff", "#bbb", 1, 8),
                 _text(MARGIN + 10, y + 18, "Legend", 13, weight="bold")]
        x = MARGIN + 80
        parts.append(f'<circle cx="{x}" cy="{_f(y + 14)}" r="8.5" fill="{SEAT_COLOURS[0]}" stroke="{INK}"/>')
        parts.append(_text(x + 14, y + 18, "common worker (number = seat)", 11))
        x += 210
        r = 10
        parts.append(f'<polygon points="{x},{_f(y + 14 - r)} {x + r},{_f(y + 14)} {x},{_f(y + 14 + r)} '
                     f'{x - r},{_f(y + 14)}" fill="{SEAT_COLOURS[1]}" stroke="{INK}" stroke-width="2"/>')
        parts.append(_text(x + 16, y + 18, "grande worker (never blocked)", 11))
        x += 210
        parts.append(f'<circle cx="{x}" cy="{_f(y + 14)}" r="8.5" fill="{AUTOMA_COLOUR}" stroke="{INK}"/>')
        parts.append(_text(x + 14, y + 18, "A = Automa worker, N = 2-player neutral", 11))
        x += 260
        parts.append(f'<path d="M{x - 8},{_f(y + 4)} h16 L{x},{_f(y + 14)} L{x + 8},{_f(y + 24)} h-16 '
                     f'L{x},{_f(y + 14)} Z" fill="none" stroke="{INK}" stroke-width="1.6"/>')
        parts.append(_text(x + 14, y + 18, "sand timer beside its timed row (sand left above)", 11))
        line2 = ("Solid-edged row = the timer's row: workers in a top frame there may take the space's action "
                 "(then drop to the bottom box); dashed row = untimed: workers may move. Workers in a bottom box "
                 "stay until the timer flips. Council is called after the purple timer's last flip of a round.")
        txt, _ = _lines(MARGIN + 10, y + 40, line2, WIDTH - 2 * MARGIN - 20, 11, 2, fill=MUTED)
        parts.append(txt)
        self.add(*parts)
        return y + 64 + 12


def board_svg(rules: Any, rec: np.void, seat: int | None = None) -> str:
    """The position ``rec`` (a state record) as one self-contained SVG board; ``seat``: draw it as that seat's view
    (the caller has already hidden what the seat may not know)."""
    b = _Board(rules, rec, seat)
    y = b.header(12)
    y = b.areas(y + 4)
    y = b.middle(y)
    y = b.players(y)
    y = b.legend(y)
    view = "referee's view" if seat is None else f"{_seat_label(seat)}'s view"
    body = _rect(0, 0, WIDTH, y, PAPER) + "".join(b.out)
    return svg_document(WIDTH, y, body, f"Pendulum, round {int(rec['round'])}: {view}")
