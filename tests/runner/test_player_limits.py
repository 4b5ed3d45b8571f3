"""A Python player that never returns, or calls sys.exit(), in a run: the run fails with one line
naming the player, the seat, the game seed and the replay command (decision_timeout)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from runner_helpers import small_spec

from simlab.runner.plan import Plan
from simlab.runner.run import run_experiment
from simlab.runner.shard import ShardError
from simlab.runner.spec import parse_spec

PLAYERS = '''
import sys
import time

from simlab import Player


class Stuck(Player):
    """Never returns in game seed {seed}."""

    def choose(self, obs, legal):
        if int(obs.state["seed"]) == {seed}:
            time.sleep(3600)
        return legal[0]


class Quitter(Player):
    """Calls sys.exit() in game seed {seed}."""

    def choose(self, obs, legal):
        if int(obs.state["seed"]) == {seed}:
            sys.exit("bye")
        return legal[0]
'''


@pytest.mark.parametrize(("cls", "what"), [("Stuck", "took more than 0.5 s in choose (decision_timeout)"),
                                           ("Quitter", "raised SystemExit: bye")])
def test_stuck_or_exiting_player_stops_the_run_with_one_line(tmp_path, cls, what):
    over = {"games": 20, "shard_size": 10, "record": [], "players": {"seats": ["greedy", "random"],
                                                                     "rotation": "none"}}
    bad_game = 13
    seed = int(Plan(parse_spec(small_spec(**over))).seeds(np.array([bad_game]))[0])
    path = tmp_path / "players.py"
    path.write_text(PLAYERS.replace("{seed}", str(seed)))
    over["players"] = {"seats": ["greedy", f"{path}:{cls}"], "rotation": "none"}
    spec = parse_spec(small_spec(**over, decision_timeout=0.5))
    run_dir = tmp_path / "run"
    with pytest.raises(ShardError) as info:
        run_experiment(spec, run_dir, show_progress=False)
    message = str(info.value)
    assert "\n" not in message
    assert f"game {bad_game}: player {cls} ({path}:{cls}, seat 1) {what} in game seed {seed}" in message
    assert f"replay: simlab replay {run_dir} --game {bad_game}" in message
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "failed"
