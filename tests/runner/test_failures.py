"""A player crashing in a worker: the error names the game, its seed and how to replay it, and the shards
already written stay valid."""

from __future__ import annotations

import polars as pl
import pytest
from runner_helpers import small_spec

from simlab.results import load
from simlab.runner.run import run_experiment
from simlab.runner.shard import ShardError
from simlab.runner.spec import parse_spec

CRASHER = '''
from simlab import Player


class Crasher(Player):
    """Plays the first legal action, and fails in round 3 of game seed {seed}."""

    def choose(self, obs, legal):
        if obs.round == 3 and int(obs.state["seed"]) == {seed}:
            raise RuntimeError("boom")
        return legal[0]
'''


@pytest.mark.parametrize("workers", [1, 2])
def test_player_crash_names_game_seed_and_replay(tmp_path, workers):
    spec0 = parse_spec(small_spec(games=40, shard_size=10, record=[],
                                  players={"seats": ["greedy", "random"], "rotation": "none"}))
    import numpy as np

    from simlab.runner.plan import Plan

    bad_game = 23
    seed = int(Plan(spec0).seeds(np.array([bad_game]))[0])
    path = tmp_path / "crasher.py"
    path.write_text(CRASHER.replace("{seed}", str(seed)))
    spec = parse_spec(small_spec(games=40, shard_size=10, record=[], workers=workers,
                                 players={"seats": ["greedy", f"{path}:Crasher"], "rotation": "none"}))
    run_dir = tmp_path / f"run{workers}"
    with pytest.raises(ShardError) as info:
        run_experiment(spec, run_dir, show_progress=False)
    message = str(info.value)
    assert f"game {bad_game}:" in message
    assert f"game seed {seed}" in message
    assert "seat 1" in message and "RuntimeError: boom" in message
    assert f"simlab replay {run_dir} --game {bad_game}" in message
    man = __import__("json").loads((run_dir / "manifest.json").read_text())
    assert man["status"] == "failed"
    games = load(run_dir)["games"].collect()
    assert games.height in (10, 20, 30)  # the shards written before the crash
    assert not games.filter(pl.col("game") >= 20).filter(pl.col("game") < 30).height
