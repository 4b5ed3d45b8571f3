"""The analysis of a game's decisions (``simlab analyse``): each alternative valued by the shared search from the
deciding seat's view, the loss of the move played, the turning points by the stated rule; reproducible, cached
beside the run, and right where the answer is known.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.core.game import get_game
from simlab.core.player import resolve_player, resolve_players
from simlab.core.search import root_children, root_stats_size
from simlab.replay.analysis import TURNED, TURNED_LOSS, _legal_before, analyse_decision, analyse_replay
from simlab.replay.page import replay_html
from simlab.replay.steps import record_replay
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


@pytest.fixture(scope="module")
def sentient_game():
    game = get_game("sentient")
    rules = game.ruleset(2)
    replay = record_replay(game, rules, resolve_players(game, ["random", "greedy"]), game.game_seed(1, 0),
                           ["random", "greedy"])
    return game, rules, replay


def test_every_alternative_is_valued_and_the_loss_is_against_the_searchs_choice(sentient_game):
    game, rules, replay = sentient_game
    analysis = analyse_replay(game, rules, replay, seat=0, budget=120)
    assert analysis.decisions and all(d.seat == 0 for d in analysis.decisions)
    legal = _legal_before(game, rules, replay)
    for d in analysis.decisions:
        actions = sorted(a.action for a in d.alternatives)
        assert actions == sorted(legal[d.step - 1].tolist())  # every legal move, once
        assert sum(a.played for a in d.alternatives) == 1 and sum(a.chosen_by_search for a in d.alternatives) == 1
        assert next(a for a in d.alternatives if a.played).action == replay.steps[d.step].action
        assert sum(a.visits for a in d.alternatives) == 120  # every iteration went through one root child
        for a in d.alternatives:
            if a.lo is not None:
                assert 0.0 <= a.lo <= a.value <= a.hi <= 1.0
        choice = next(a for a in d.alternatives if a.chosen_by_search)
        mine = next(a for a in d.alternatives if a.played)
        if mine.value is not None:
            assert d.loss == pytest.approx(max(0.0, choice.value - mine.value))
    losses = sorted((d.loss for d in analysis.decisions if d.loss is not None and d.loss >= TURNED_LOSS),
                    reverse=True)[:TURNED]
    assert sorted(d.loss for d in analysis.decisions if d.step in analysis.turned) == sorted(losses)
    again = analyse_replay(game, rules, replay, seat=0, budget=120)
    assert again.to_json() == analysis.to_json()  # the same game, seat and budget: the same values


def test_the_search_writes_its_root_only_when_asked(sentient_game):
    game, rules, replay = sentient_game
    k = game.kernels
    step = replay.steps[3]
    legal = _legal_before(game, rules, replay)[2]
    params = resolve_player(game, "ismcts(iterations=64)").params
    buf = np.empty(k.max_actions, dtype=np.int64)
    buf[:len(legal)] = legal
    plain = k.search_profile(params, step.before.copy(), buf.copy(), len(legal), *game.kernel_args(rules),
                             np.zeros(5))
    stats = np.zeros(root_stats_size(k.max_actions))
    rooted = k.search_profile(params, step.before.copy(), buf.copy(), len(legal), *game.kernel_args(rules), stats)
    assert plain == rooted  # asking for the root changes no decision
    children = root_children(stats)
    assert sum(n for _a, n, _m, _s in children) == 64
    assert max(children, key=lambda c: c[1])[0] == rooted  # the search plays its most visited child


@pytest.mark.parametrize("name", ["sentient", "smartphone"])
def test_a_decision_that_decides_the_winner_ranks_a_winning_move_first(name):
    """The last decision of a game where some moves win and the others lose (found by scanning random games;
    after it the game is over, so each move's outcome is known): the search values a winning move highest."""
    game = get_game(name)
    rules = game.ruleset(2)
    cols = game.batch_columns(rules)["seats"]
    for seed in range(30):
        replay = record_replay(game, rules, resolve_players(game, ["random", "random"]), game.game_seed(seed, 0),
                               ["random", "random"])
        last = replay.steps[-1]
        legal = _legal_before(game, rules, replay)[last.index - 1]
        wins = {}
        for a in legal.tolist():
            state = last.before.copy()
            if len(game.step(rules, state, a, game.new_log(0))):
                break
            wins[a] = int(game.result_arrays(rules, state)["seats"][last.seat, cols.index("winner")])
        if len(wins) == len(legal) > 1 and len(set(wins.values())) == 2:
            break
    else:
        pytest.fail(f"no deciding last move in 30 {name} games")
    params = resolve_player(game, "ismcts(iterations=300)").params
    alternatives = analyse_decision(game, rules, last.before, legal, last.action, params)
    assert wins[alternatives[0].action] == 1
    best_losing = max(a.value for a in alternatives if not wins[a.action] and a.value is not None)
    assert all(a.value > best_losing for a in alternatives if wins[a.action] and a.visits >= 5)


def test_simlab_analyse_caches_beside_the_run_and_writes_the_page(tmp_path):
    spec = parse_spec({"name": "tiny", "game": "sentient", "seed": 3, "games": 4, "workers": 1,
                       "players": {"seats": ["greedy", "random"]}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    page = tmp_path / "game2.html"
    args = ["analyse", str(run), "--game", "2", "--seat", "1", "--budget", "40", "--html", str(page)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    cache = run / "analysis" / "game-2-base-seat-1-budget-40.json"
    assert cache.is_file() and "the game turned at step" in first.output
    second = CliRunner().invoke(app, [*args[:-2], "--json"])
    assert second.exit_code == 0 and "reusing the analysis" in second.output
    stored = json.loads(cache.read_text())
    assert stored["budget"] == 40 and stored["seat"] == 1 and stored["decisions"]
    assert "win share" in page.read_text() and 'id="analysis"' in page.read_text()


def test_the_page_carries_the_analysis(sentient_game):
    game, rules, replay = sentient_game
    analysis = analyse_replay(game, rules, replay, seat=1, budget=30)
    page = replay_html(replay, analysis=analysis.for_page())
    assert 'id="analysis"' in page and analysis.method in json.dumps(analysis.for_page())
