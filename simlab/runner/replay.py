"""Replay any stored game from its seed (the plan says which seed, seating and variant)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.driver import play_game
from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.player import resolve_player
from simlab.core.trace import game_trace
from simlab.results import manifest, resolve_run
from simlab.runner.plan import Plan
from simlab.runner.spec import parse_spec, variant_data


def replay_game(run: str | Path, game_index: int, variant: str = "base",
                root: str | Path = "results") -> tuple[list[dict[str, Any]], list[str]]:
    """The trace events and the readable log of one stored game."""
    path = resolve_run(run, root)
    man = manifest(path)
    spec = parse_spec(man["spec"], man.get("source", str(path)))
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
    players = [resolve_player(game, s) for s in table.seats]
    record = play_game(game, rules, players, seed, record_events=True)
    events = game_trace(game, rules, record, list(table.seats), game_index)
    return events, game.log_lines(events)
