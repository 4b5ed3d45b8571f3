"""The replay page: one self-contained HTML file to step through a game (no server, no network, opens from disk).

The board of every step (SVG, from the referee's and from each seat's view), a step slider with buttons, keyboard
navigation (← →, Home, End; V changes the view), the readable log beside the board with the current step
highlighted (a click on a log line jumps to its step), and the decision that led to the step in words. When an
analysis is attached (``simlab analyse``), each analysed decision shows its alternatives' values and the loss of
the move played, and the decisions where the most was lost are marked on the slider and in the log.

The steps travel inside the page as gzip-compressed JSON (boards of consecutive steps differ little, so a long
game's page stays a few hundred kilobytes), unpacked by the browser's own ``DecompressionStream``. Nothing here
names a game: the boards come from ``Game.render_svg``.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from html import escape
from pathlib import Path
from typing import Any

from simlab.replay.steps import Replay

_TAG_BOUNDARY = re.compile(r"(?<=>)(?=<)")


def _delta(prev: list[int], cur: list[int]) -> list[Any]:
    """``cur`` as [kept prefix, kept suffix, the ids between] against ``prev`` (both lists of fragment ids)."""
    n = min(len(prev), len(cur))
    head = 0
    while head < n and prev[head] == cur[head]:
        head += 1
    tail = 0
    while tail < n - head and prev[len(prev) - 1 - tail] == cur[len(cur) - 1 - tail]:
        tail += 1
    return [head, tail, cur[head:len(cur) - tail]]


def decode_boards(data: dict[str, Any]) -> list[str]:
    """The boards of a page's data, as the page's script rebuilds them (for tests and tools)."""
    frags, out, prev = data["fragments"], [], []
    for head, tail, middle in data["boards"]:
        prev = prev[:head] + middle + (prev[len(prev) - tail:] if tail else [])
        out.append("".join(frags[i] for i in prev))
    return out


def _payload(replay: Replay, analysis: dict[str, Any] | None) -> dict[str, Any]:
    """The page's data: per step its decision, log lines and board per view; the boards, each once, as pieces.

    A board is cut into its SVG elements (at every ``><``); each distinct piece is stored once, and each board as
    the change from the board before it (the pieces kept at the start and at the end, the pieces between), so
    a long game with a board per seat stays small: consecutive boards differ in a few pieces."""
    fragments: list[str] = []
    frag_id: dict[str, int] = {}
    boards: list[list[Any]] = []
    board_id: dict[str, int] = {}
    prev: list[int] = []

    def add(svg: str) -> int:
        nonlocal prev
        if svg not in board_id:
            ids = []
            for piece in _TAG_BOUNDARY.split(svg):
                if piece not in frag_id:
                    frag_id[piece] = len(fragments)
                    fragments.append(piece)
                ids.append(frag_id[piece])
            boards.append(_delta(prev, ids))
            board_id[svg] = len(boards) - 1
            prev = ids
        return board_id[svg]

    steps = [{"seat": s.seat, "decision": s.decision, "log": s.log, "views": [add(b) for b in s.boards],
              "to_act": s.to_act} for s in replay.steps]
    return {"game": replay.game, "seats": replay.seats, "fragments": fragments, "boards": boards, "steps": steps,
            "analysis": analysis or {}}


def _packed(data: dict[str, Any]) -> str:
    """``data`` as base64 of gzip-compressed JSON (fixed mtime: the same game gives the same page)."""
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def _result_text(replay: Replay) -> str:
    """The final standing in words: each seat's player, score and rank (winners first)."""
    if not replay.result:
        return ""
    rows = sorted(enumerate(replay.result), key=lambda kv: (kv[1].get("rank", 99), kv[0]))
    parts = []
    for seat, row in rows:
        mark = " (won)" if row.get("winner") else ""
        score = f", {row['score']} points" if "score" in row else ""
        parts.append(f"seat {seat} {replay.seats[seat]}{score}{mark}")
    return "Result: " + "; ".join(parts) + "."


ASSETS = Path(__file__).resolve().parent / "assets"


def _asset(name: str) -> str:
    """A file of the page's style or script (``simlab/replay/assets``), read as text."""
    return (ASSETS / name).read_text(encoding="utf-8")


def replay_html(replay: Replay, title: str | None = None, analysis: dict[str, Any] | None = None) -> str:
    """The self-contained replay page of ``replay`` (``analysis``: per-decision values from ``simlab analyse``)."""
    from simlab.core.game import get_game

    heading = title or f"{get_game(replay.game).title or replay.game}: game {replay.game_index}"
    seats = ", ".join(f"seat {i} {name}" for i, name in enumerate(replay.seats))
    source = f" · {escape(replay.source)}" if replay.source else ""
    panel = '<div id="analysis" class="analysis" aria-live="polite"></div>' if analysis else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(heading)}</title><style>{_asset('replay.css')}</style></head>
<body data-ready="false">
<header><h1>{escape(heading)}</h1>
<p>{escape(seats)} · game seed {replay.seed}{source}</p>
<p>{escape(_result_text(replay))}</p></header>
<main>
<section class="board-col" aria-label="board">
<div class="controls">
<button id="first" title="first step (Home)">|◀</button><button id="prev" title="previous step (←)">◀</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<button id="next" title="next step (→)">▶</button><button id="end" title="last step (End)">▶|</button>
<span id="counter" aria-live="polite"></span></div>
<div id="marks" aria-hidden="true"></div>
<div class="views" id="views"><span>View:</span></div>
<p id="decision" aria-live="polite"></p>
<div id="board"></div>
{panel}
<p class="help">← → step · Home / End first and last · V next view · a click on the log jumps to its step.
A seat's view shows only what that seat could know.</p>
<noscript>The replay needs JavaScript to step through the game.</noscript><p id="error"></p>
</section>
<aside class="log-col" aria-label="game log"><ol id="log"></ol></aside>
</main>
<script id="replay-data" type="application/octet-stream">{_packed(_payload(replay, analysis))}</script>
<script>{_asset('replay.js')}</script>
</body></html>
"""
