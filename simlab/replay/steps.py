"""One game, step by step: the position after every decision, drawn from the referee's and each seat's view.

Step 0 is the position after set-up; step *i* the position after decision *i*. Each step keeps who decided, what
they chose (in words, described in the position they chose it in), the lines of the game's log that decision
produced, and the board as SVG (``Game.render_svg``) seen by the referee and by each seat (``Game.hide`` first, so a
seat's board lacks what the seat may not know). The game is played again from its seed through the Python driver:
the same game, decision for decision, as the stored or traced one (the caller checks the events when it has them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.core.driver import play_game
from simlab.core.game import Game
from simlab.core.player import ResolvedPlayer
from simlab.core.trace import game_trace


@dataclass
class Step:
    """One step of a replay: the decision that led here (none at step 0) and the position it left."""

    index: int
    seat: int | None
    action: int | None
    decision: str
    log: list[str]
    boards: list[str]  # [referee, seat 0, seat 1, ...] as SVG
    to_act: int | None  # the seat to act next (None once the game is over)
    before: np.ndarray | None = None  # the position the decision was made in (None at step 0)


@dataclass
class Replay:
    """A whole game, step by step, with what a page needs to title it."""

    game: str
    seed: int
    game_index: int
    seats: list[str]
    steps: list[Step]
    events: list[dict[str, Any]]
    result: list[dict[str, Any]] = field(default_factory=list)
    source: str = ""

    @property
    def n_seats(self) -> int:
        """The number of seats."""
        return len(self.seats)


def _log_per_chunk(game: Game, start: dict[str, Any], chunks: list[list[dict[str, Any]]],
                   final: dict[str, Any]) -> list[list[str]]:
    """The game's log lines split by the chunks of events that produced them (the last chunk takes the final event's).

    A game's log may word a line with what a later event told (a line may add the rotation it led to), so the lines
    are taken from the whole log and only their count per chunk from the growing prefix of events."""
    whole = game.log_lines([start, *(e for c in chunks for e in c), final])
    out, seen, prefix = [], 0, [start]
    for i, chunk in enumerate(chunks):
        prefix = prefix + chunk
        n = len(whole) if i == len(chunks) - 1 else min(len(game.log_lines(prefix)), len(whole))
        n = max(n, seen)
        out.append(whole[seen:n])
        seen = n
    return out


def record_replay(game: Game, rules: Any, players: Sequence[ResolvedPlayer], seed: int, seats: Sequence[str],
                  game_index: int = 0, source: str = "") -> Replay:
    """Play the game of ``seed`` again and keep every step's decision, log lines and boards (all views)."""
    states = []
    decisions: list[tuple[int, int, str, np.ndarray]] = []
    chunks: list[list[dict[str, Any]]] = []
    before: dict[str, Any] = {}

    def on_events(events: list[dict[str, Any]]) -> None:
        while len(chunks) < len(decisions) + 1:
            chunks.append([])
        chunks[len(decisions)].extend(events)

    def on_step(state: np.ndarray, seat: int, action: int) -> None:
        decisions.append((seat, action, game.describe_action(rules, before["state"], action), before["state"]))
        states.append(state.copy())
        before["state"] = state.copy()

    # the position before the first decision: replay the set-up alone (same seed, same state)
    log = game.new_log(0)
    first, _legal = game.new_game(rules, seed, log)
    before["state"] = first.copy()
    record = play_game(game, rules, players, seed, record_events=True, on_step=on_step, on_events=on_events)
    while len(chunks) < len(decisions) + 1:
        chunks.append([])
    events = game_trace(game, rules, record, list(seats), game_index)
    # the events as the whole log decodes them (a game may word an event with what its neighbours say), cut where
    # the decisions fell
    body, cut = events[1:-1], 0
    whole_chunks = []
    for chunk in chunks:
        whole_chunks.append(body[cut:cut + len(chunk)])
        cut += len(chunk)
    lines = _log_per_chunk(game, events[0], whole_chunks, events[-1])
    positions = [first, *states]
    steps = []
    for i, state in enumerate(positions):
        over = game.is_over(state)
        boards = [game.render_svg(rules, state)]
        boards += [game.render_svg(rules, game.hide(state, s), s) for s in range(len(seats))]
        seat, action, words, was = decisions[i - 1] if i else (None, None, "set-up", None)
        steps.append(Step(i, seat, action, words, lines[i], boards, None if over else game.current_player(state),
                          was))
    return Replay(game.name, seed, game_index, list(seats), steps, events, record.seats, source)
