"""The Python driver loop: one game, any mix of Python and compiled players.

Each decision goes to the seat's player: compiled players are asked through the game's
compiled dispatch, Python players get an observation and the legal actions. Every action a
Python player returns is checked; an illegal one stops the game with an error naming the
player, the seat, the game seed and the action.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.core.errors import IllegalActionError, PlayerError, SimlabError
from simlab.core.game import Game
from simlab.core.player import ResolvedPlayer
from simlab.core.rng import derive_key

TRACE_CAPACITY = 4096


@dataclass
class GameRecord:
    """A finished game: its final state, result rows (as the batch loop lays them out) and events."""

    seed: int
    state: np.ndarray
    arrays: dict[str, np.ndarray]
    seats: list[dict[str, Any]]
    game: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    decisions: int = 0


def _rows(game: Game, rules: Any, table: str, arr: np.ndarray) -> list[dict[str, Any]]:
    """Array rows as dicts, integer codes named as in the stored tables."""
    cols = game.batch_columns(rules)[table]
    cats = game.categorical_columns().get(table, {})
    out = []
    for row in arr.tolist():
        d = dict(zip(cols, row, strict=True))
        for name, names in cats.items():
            d[name] = names[d[name]]
        out.append(d)
    return out


def play_game(
    game: Game,
    rules: Any,
    players: Sequence[ResolvedPlayer],
    seed: int,
    *,
    record_events: bool = False,
    record: tuple[str, ...] = (),
    instances: Sequence[Any] | None = None,
    on_step: Callable[[np.ndarray, int, int], None] | None = None,
    on_events: Callable[[list[dict[str, Any]]], None] | None = None,
) -> GameRecord:
    """Play one game from its 64-bit game seed through the Python driver.

    ``record`` names event tables to fill (as the batch loop does), ``instances`` reuses
    Python player objects (one per seat, None for compiled seats);
    ``on_step(state, seat, action)`` is called after every action (used by tests);
    ``on_events(events)`` receives the trace events as they happen (with ``record_events``).
    """
    n = len(players)
    log = game.new_log(TRACE_CAPACITY if record_events else 0)
    state, legal = game.new_game(rules, seed, log)
    if instances is None:
        instances = [None if p.compiled else p.make() for p in players]
    for seat, inst in enumerate(instances):
        if inst is not None and hasattr(inst, "start_game"):
            seat_seed = int(derive_key(np.uint64(seed), np.uint64(1000 + seat)))
            inst.start_game(seat, n, seat_seed)
    decisions = 0
    buffer = np.empty(game.max_actions, dtype=np.int64)
    seen = _emit_new_events(game, rules, log, 0, on_events)
    while len(legal):
        seat = game.current_player(state)
        player = players[seat]
        if player.compiled:
            action = game.compiled_action(rules, state, player.kind, player.params, legal)
            if not _is_member(legal.tolist(), action):
                raise IllegalActionError(
                    f"built-in player {player.label} (seat {seat}) chose illegal action {action} in game seed "
                    f"{seed} ({game.describe_turn(rules, state)}): a simlab bug, please report it"
                )
        else:
            action = _ask(game, rules, state, legal, player, instances[seat], seat, seed)
        legal = game.step(rules, state, action, log, buffer)
        decisions += 1
        if on_step is not None:
            on_step(state, seat, action)
        seen = _emit_new_events(game, rules, log, seen, on_events)
    events = game.trace_events(rules, log) if record_events else []
    arrays = game.result_arrays(rules, state, tuple(record))
    seats = _rows(game, rules, "seats", arrays["seats"])
    return GameRecord(seed, state, arrays, seats, _rows(game, rules, "games", arrays["games"])[0], events, decisions)


def _emit_new_events(game: Game, rules: Any, log: np.ndarray, seen: int,
                     on_events: Callable[[list[dict[str, Any]]], None] | None) -> int:
    """Hand the events logged since ``seen`` to ``on_events``; returns the new count."""
    n = int(log[0, 0])
    if on_events is None or n <= seen:
        return n
    part = log[seen : n + 1].copy()
    part[0, :] = 0
    part[0, 0] = n - seen
    on_events(game.trace_events(rules, part))
    return n


def _ask(game: Game, rules: Any, state: np.ndarray, legal: np.ndarray, player: ResolvedPlayer, inst: Any,
         seat: int, seed: int) -> int:
    legal_list = legal.tolist()
    obs = game.observation(rules, state, legal_list)
    try:
        action = inst.choose(obs, legal_list)
    except SimlabError:
        raise
    except Exception as exc:
        raise PlayerError(
            f"player {player.label} (seat {seat}) raised {type(exc).__name__}: {exc} in game seed {seed}"
        ) from exc
    if isinstance(action, np.integer):
        action = int(action)
    if not isinstance(action, int) or isinstance(action, bool) or not _is_member(legal_list, action):
        raise IllegalActionError(
            f"player {player.label} (seat {seat}) returned illegal action {action!r} in game seed {seed} "
            f"(turn {game.describe_turn(rules, state)}; {len(legal_list)} legal actions)"
        )
    return action


def _is_member(sorted_actions: list[int], action: int) -> bool:
    """Whether ``action`` is in the ascending list of legal actions."""
    i = bisect_left(sorted_actions, action)
    return i < len(sorted_actions) and sorted_actions[i] == action
