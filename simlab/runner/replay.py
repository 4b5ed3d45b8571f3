"""Replay any stored game from its seed (the plan says which seed, seating and variant).

A run's ``file.py:Class`` players are code: they are resolved relative to the run's project
(where the run was made, as its manifest records), never the current folder, announced, and
refused when they lie outside that project unless the caller trusts the run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.driver import play_game
from simlab.core.errors import SimlabError
from simlab.core.game import Game, get_game
from simlab.core.player import ResolvedPlayer, parse_player_spec, resolve_player, stored_name
from simlab.core.trace import game_trace
from simlab.runner.folders import manifest, resolve_run
from simlab.runner.plan import Plan
from simlab.runner.project import check_trusted, run_project
from simlab.runner.spec import parse_spec, variant_data


def player_files(man: dict[str, Any], run_dir: Path) -> dict[str, Path]:
    """Each ``file.py:Class`` player spec of the run -> the file it loads, resolved in the run's project."""
    project = run_project(run_dir, man)
    players = man.get("spec", {}).get("players", {})
    out = {}
    for text in [*(players.get("seats") or []), *(players.get("pool") or [])]:
        parsed = parse_player_spec(text)
        if parsed.source == "file" and parsed.path:
            path = Path(parsed.path)
            out[text] = path if path.is_absolute() else project / path
    return out


def _absolute_spec(text: str, path: Path) -> str:
    """The player spec with its file part replaced by an absolute path."""
    parsed = parse_player_spec(text)
    args = text.partition("(")[2]
    return f"{path}:{parsed.name}" + (f"({args}" if args else "")


@dataclasses.dataclass
class StoredGame:
    """What it takes to play one stored game again: the game, its ruleset, players, seed and seat labels."""

    game: Game
    rules: Any
    players: list[ResolvedPlayer]
    seed: int
    seats: list[str]
    game_index: int
    run: Path
    variant: str


def stored_game(run: str | Path, game_index: int, variant: str = "base", root: str | Path = "results",
                trust: bool = False, announce: Callable[[str], None] | None = None) -> StoredGame:
    """The game, ruleset, players and seed of game ``game_index`` of a stored run (variant ``variant``).

    ``announce`` is told each player file that will run; a file outside the run's project is
    refused (:class:`simlab.runner.project.TrustError`) unless ``trust``.
    """
    path = resolve_run(run, root)
    man = manifest(path)
    files = player_files(man, path)
    project = run_project(path, man)
    for text, file in files.items():
        check_trusted("player file", file, project, trust)
        if announce is not None:
            announce(f"loading player file {file} ({text})")
    raw = dict(man["spec"])
    players = dict(raw.get("players", {}))
    for key in ("seats", "pool", "focus"):
        value = players.get(key)
        if isinstance(value, list):
            players[key] = [_absolute_spec(s, files[s]) if s in files else s for s in value]
        elif isinstance(value, str) and value in files:
            players[key] = _absolute_spec(value, files[value])
    stop = dict(raw["stop"]) if isinstance(raw.get("stop"), dict) else None
    if stop is not None:
        for key in ("player", "player_a", "player_b"):
            if stop.get(key) in files:
                stop[key] = _absolute_spec(stop[key], files[stop[key]])
        raw["stop"] = stop
    raw["players"] = players
    labels = {_absolute_spec(s, f): stored_name(s) for s, f in files.items()}  # the stored player column's names
    spec = parse_spec(raw, man.get("source", str(path)))
    plan = Plan(spec)
    if not 0 <= game_index < plan.total_games:
        raise SimlabError(f"game {game_index} is not in the run (games 0-{plan.total_games - 1})")
    names = [v.name for v in spec.variants]
    if variant not in names:
        raise SimlabError(f"no variant '{variant}' (variants: {', '.join(names)})")
    v = spec.variants[names.index(variant)]
    games = np.array([game_index], dtype=np.int64)
    table = plan.tables[int(plan.table_of(games)[0])]
    seed = int(plan.seeds(games)[0])
    game = get_game(spec.game)
    rules = game.ruleset(table.n_players, {**spec.options, **v.options}, variant_data(game, v))
    players_resolved = []
    for s in table.seats:
        player = resolve_player(game, s)
        if s in labels:
            player = dataclasses.replace(player, label=labels[s])
        players_resolved.append(player)
    seats = [labels.get(s, s) for s in table.seats]
    return StoredGame(game, rules, players_resolved, seed, seats, game_index, path, variant)


def replay_game(run: str | Path, game_index: int, variant: str = "base", root: str | Path = "results",
                trust: bool = False, announce: Callable[[str], None] | None = None,
                ) -> tuple[list[dict[str, Any]], list[str]]:
    """The trace events and the readable log of one stored game (see :func:`stored_game` for the arguments)."""
    g = stored_game(run, game_index, variant, root, trust, announce)
    record = play_game(g.game, g.rules, g.players, g.seed, record_events=True)
    events = game_trace(g.game, g.rules, record, g.seats, g.game_index)
    return events, g.game.log_lines(events)
