"""A player crashing in a worker: the error names the game, its seed and how to replay it, and the shards
already written stay valid."""

from __future__ import annotations

import json

import pytest
from runner_helpers import small_spec

from simlab.core.errors import SimlabError
from simlab.results import load
from simlab.runner.run import run_experiment
from simlab.runner.shard import ShardError
from simlab.runner.spec import parse_spec

CRASHER = '''
import json
import time
from pathlib import Path

from simlab import Player


class Crasher(Player):
    """Plays the first legal action, and fails in round 3 of game seed {seed}: once the manifest at
    {manifest} lists the shards {wait_for} as stored (so which shards the failed run holds never depends on
    how the workers were scheduled; gives up waiting after two minutes)."""

    def choose(self, obs, legal):
        if obs.round == 3 and int(obs.state["seed"]) == {seed}:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    done = json.loads(Path({manifest!r}).read_text())["shards_done"]
                except (OSError, ValueError, KeyError):
                    done = {{}}
                if set({wait_for}) <= {{i for shards in done.values() for i in shards}}:
                    break
                time.sleep(0.05)
            raise RuntimeError("boom")
        return legal[0]
'''


def _crasher(tmp_path, bad_game: int, workers: int, wait_for: list[int]):
    """A 40-game run in 4 shards of 10 whose seat 1 crashes in game ``bad_game`` after ``wait_for`` are stored."""
    import numpy as np

    from simlab.runner.plan import Plan

    spec0 = parse_spec(small_spec(games=40, shard_size=10, record=[],
                                  players={"seats": ["greedy", "random"], "rotation": "none"}))
    seed = int(Plan(spec0).seeds(np.array([bad_game]))[0])
    run_dir = tmp_path / f"run{workers}"
    path = tmp_path / "crasher.py"
    path.write_text(CRASHER.format(seed=seed, manifest=str(run_dir / "manifest.json"), wait_for=wait_for))
    spec = parse_spec(small_spec(games=40, shard_size=10, record=[], workers=workers,
                                 players={"seats": ["greedy", f"{path}:Crasher"], "rotation": "none"}))
    return spec, seed, run_dir


@pytest.mark.parametrize("workers", [1, 2])
def test_player_crash_names_game_seed_and_replay(tmp_path, workers):
    """The crash is in the last shard and waits for the three others to be stored, so on any number of workers
    the failed run holds exactly games 0-29."""
    bad_game = 33
    spec, seed, run_dir = _crasher(tmp_path, bad_game, workers, wait_for=[0, 1, 2])
    with pytest.raises(ShardError) as info:
        run_experiment(spec, run_dir, show_progress=False)
    message = str(info.value)
    assert f"game {bad_game}:" in message
    assert f"game seed {seed}" in message
    assert "seat 1" in message and "RuntimeError: boom" in message
    assert f"simlab replay {run_dir} --game {bad_game}" in message
    man = json.loads((run_dir / "manifest.json").read_text())
    assert man["status"] == "failed"
    assert sorted(i for shards in man["shards_done"].values() for i in shards) == [0, 1, 2]
    games = load(run_dir)["games"].collect()
    assert sorted(games["game"].to_list()) == list(range(30))  # the shards written before the crash


def test_failed_run_with_no_stored_shard_loads_as_one_line(tmp_path):
    """A run that fails in its first shard (one worker: nothing else was played) stores no shard: loading it
    is a one-line SimlabError naming the run and saying so, not a KeyError on a missing table."""
    spec, _seed, run_dir = _crasher(tmp_path, 3, 1, wait_for=[])
    with pytest.raises(ShardError):
        run_experiment(spec, run_dir, show_progress=False)
    assert json.loads((run_dir / "manifest.json").read_text())["shards_done"] == {"base": []}
    with pytest.raises(SimlabError) as info:
        load(run_dir)
    message = str(info.value)
    assert "\n" not in message
    assert f"run {run_dir} (failed: " in message and "no shard was stored" in message
