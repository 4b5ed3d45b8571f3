"""Where a replay comes from: a stored run's game (played again from the run's plan) or a trace file.

A trace (``simlab play --trace``, ``simlab replay --trace``) names its game, seed, players and options in its
``game_start`` event; the game is played again from them and must give the trace's events exactly, or the page is
refused (a trace of a data variant or of a Python player the replay cannot rebuild says so in one line).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.trace import read_trace
from simlab.replay.steps import Replay, record_replay
from simlab.runner.replay import StoredGame, stored_game


def stored_replay(run: str | Path, game_index: int, variant: str = "base", root: str | Path = "results",
                  trust: bool = False, announce: Callable[[str], None] | None = None) -> tuple[StoredGame, Replay]:
    """Game ``game_index`` of a stored run (what it takes to play it) and its replay, step by step."""
    g = stored_game(run, game_index, variant, root, trust, announce)
    where = f"run {g.run.name}" + (f", variant {variant}" if variant != "base" else "")
    return g, record_replay(g.game, g.rules, g.players, g.seed, g.seats, g.game_index, f"{where}, game {game_index}")


def replay_from_run(run: str | Path, game_index: int, variant: str = "base", root: str | Path = "results",
                    trust: bool = False, announce: Callable[[str], None] | None = None) -> Replay:
    """Game ``game_index`` of a stored run, step by step (the arguments are ``simlab replay``'s)."""
    return stored_replay(run, game_index, variant, root, trust, announce)[1]


def _comparable(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as JSON gives them back (tuples become lists), for comparing a replay with a trace file."""
    import json

    return json.loads(json.dumps(events))


def replay_from_trace(path: str | Path) -> Replay:
    """The game a trace file records, played again from its ``game_start`` and checked against the file."""
    path = Path(path)
    try:
        events = read_trace(path)
    except (OSError, ValueError) as exc:
        raise SimlabError(f"{path}: not a readable trace ({exc})") from exc
    if not events or events[0].get("event") != "game_start":
        raise SimlabError(f"{path}: line 1 is not a game_start event: not a simlab trace")
    start = events[0]
    name = start.get("simlab_game")
    if not name:
        raise SimlabError(f"{path}: its game_start names no game (a trace written before simlab 0.1.0's replay "
                          f"page): write it again with `simlab replay RUN --game N --trace FILE`")
    for key in ("seed", "players"):
        if key not in start:
            raise SimlabError(f"{path}: its game_start has no '{key}'")
    game = get_game(name)
    players = resolve_players(game, list(start["players"]))
    options = start.get("options") if isinstance(start.get("options"), dict) else None
    rules = game.ruleset(len(players), options)
    replay = record_replay(game, rules, players, int(start["seed"]), list(start["players"]), int(start.get("game", 0)),
                           f"trace {path.name}")
    if _comparable(replay.events) != events:
        raise SimlabError(f"{path}: playing game seed {start['seed']} again does not give the trace's events (a data "
                          f"variant or a changed player?): use `simlab replay RUN --game N --html FILE` on the run")
    return replay
