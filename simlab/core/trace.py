"""Whole-game traces: the ``game_start`` event, the kernel's events, the ``final`` event."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simlab.core.driver import GameRecord
from simlab.core.game import Game


def game_trace(game: Game, rules: Any, record: GameRecord, players: Sequence[str], game_index: int) -> list[dict]:
    """Every event of a recorded game, ``game_start`` first and ``final`` last.

    ``game_start`` also names the game (``simlab_game``), so a trace alone can be played again (``simlab view``)."""
    start = {**game.start_event(rules, record.state, list(players), game_index), "simlab_game": game.name}
    return [start, *record.events, game.final_event(rules, record.state)]


def write_trace(path: str | Path, events: Sequence[dict[str, Any]]) -> None:
    """Write events as JSON lines (one object per line)."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for event in events:
            fh.write(json.dumps(event, separators=(",", ":")) + "\n")


def read_trace(path: str | Path) -> list[dict[str, Any]]:
    """Read a JSON-lines trace."""
    with Path(path).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
