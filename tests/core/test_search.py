"""The shared ISMCTS (simlab/core/search.py) on toy games whose answers are known (tests/core/search_toys.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.search import (
    N_STATS,
    ST_DECISIONS,
    ST_ITERATIONS,
    ST_NODES,
    ST_ROLLOUT_S,
    ST_TREE_S,
    ismcts_action,
    pool_bytes,
    register_search_hooks,
    search_player,
)
from tests.core import search_toys as toys


def params(iterations: int = 2000, exploration: float = 0.7, depth: int = -1, prior_weight: float = 0.0,
           widening: float = 0.0, expand_after: float = 1.0) -> np.ndarray:
    return np.array([iterations, exploration, depth, prior_weight, widening, expand_after], dtype=np.float64)


def act(state: np.ndarray, p: np.ndarray, key: int = 1, stats: np.ndarray | None = None, max_actions: int = 3) -> int:
    return int(ismcts_action(state, 0, 2, max_actions, (0,), p, np.uint64(key),
                             np.zeros(0) if stats is None else stats))


@pytest.mark.parametrize(("left", "best"), [(10, 2), (7, 3), (5, 1), (6, 2)])
def test_finds_the_winning_nim_move(left: int, best: int) -> None:
    assert act(toys.nim(left), params()) == best


def test_does_not_peek_at_hidden_information() -> None:
    # The coin shows heads in the true state: betting would win. From seat 0's information set the
    # bet is worth 0.5 against a sure 0.6, so the search must take the 0.6.
    assert act(toys.coin(heads=True), params(iterations=400), max_actions=2) == 0
    # and with a sure thing worse than the bet's 0.5 it would bet: the values, not a bias, decide
    # (see coin_apply: the sure action is worth 0.6)


def test_same_key_same_action_and_budget_in_iterations() -> None:
    p = params(iterations=300)
    stats = np.zeros(N_STATS)
    first = act(toys.nim(13), p, key=5, stats=stats)
    assert all(act(toys.nim(13), p, key=5) == first for _ in range(3))
    assert stats[ST_ITERATIONS] == 300 and stats[ST_DECISIONS] == 1
    assert 1 < stats[ST_NODES] <= 301  # the pool bound: one node per iteration at most, plus the root
    assert stats[ST_TREE_S] > 0 and stats[ST_ROLLOUT_S] > 0


def test_progressive_widening_limits_the_children() -> None:
    # With widening w a node visited v times has at most w * sqrt(v + 1) children: at the root of
    # Nim(30) (3 actions) and w = 0.1, only one child is made in 50 iterations (0.1 * sqrt(51) < 1).
    stats = np.zeros(N_STATS)
    act(toys.nim(30), params(iterations=50, widening=0.1), stats=stats)
    wide = np.zeros(N_STATS)
    act(toys.nim(30), params(iterations=50), stats=wide)
    assert stats[ST_NODES] < wide[ST_NODES]


def test_expand_after_keeps_rarely_visited_nodes_leaves() -> None:
    # A node below the root gets children only once it has been visited expand_after times. With a threshold
    # above the budget no node below the root ever gets one: the tree is the root and its 3 children, and the
    # search still finds the winning Nim move from the root's rollouts alone. From its second visit on (1, the
    # default) the tree grows one node an iteration.
    flat = np.zeros(N_STATS)
    assert act(toys.nim(10), params(iterations=2000, expand_after=5000), stats=flat) == 2
    assert flat[ST_NODES] == 4
    deep = np.zeros(N_STATS)
    act(toys.nim(10), params(iterations=2000), stats=deep)
    middle = np.zeros(N_STATS)
    act(toys.nim(10), params(iterations=2000, expand_after=8), stats=middle)
    assert flat[ST_NODES] < middle[ST_NODES] < deep[ST_NODES] <= 2001


def test_pool_bound_and_player_entry() -> None:
    assert pool_bytes(1000) == pool_bytes(0) * 1001
    entry = search_player("s", 9, {"iterations": 10.0, "exploration": 1.0, "rollout_depth": -1.0,
                                   "prior_weight": 0.0, "widening": 0.0, "expand_after": 1.0,
                                   "own": 2.0}, "d", {"own": "a game's own"})
    assert entry.slow and list(entry.params)[-1] == "own" and "iterations" in entry.param_help
    with pytest.raises(ValueError, match="first parameters"):
        search_player("s", 9, {"exploration": 1.0}, "d")
    # a game written before expand_after existed leaves it out and plays the search as it was
    older = search_player("s", 9, {"iterations": 10.0, "exploration": 1.0, "rollout_depth": -1.0,
                                   "prior_weight": 0.0, "widening": 0.0, "own": 2.0}, "d")
    assert list(older.params) == [*entry.params] and older.params["expand_after"] == 1.0
    with pytest.raises(ValueError, match="first parameters"):  # out of order
        search_player("s", 9, {"iterations": 10.0, "exploration": 1.0, "rollout_depth": -1.0, "widening": 0.0,
                               "prior_weight": 0.0}, "d")


def test_a_state_type_has_one_owner() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_search_hooks(toys.NIM_DTYPE, "another.module", determinise=None, legal_actions=None, apply=None,
                              actor=None, rollout=None, evaluate=None)
