"""The duplicate-format match: seeds played in ranges give the match one batch gives."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.ladder import head_to_head, match_result, paired_scores


def test_ranges_of_seeds_played_apart_give_the_whole_match() -> None:
    whole, whole_diff = paired_scores("sentient", "greedy", "investor", 6, seed=5)
    parts = [paired_scores("sentient", "greedy", "investor", n, seed=5, first_game=first)
             for first, n in ((0, 2), (2, 4))]
    assert np.array_equal(np.concatenate([p for p, _ in parts]), whole)
    assert np.array_equal(np.concatenate([d for _, d in parts]), whole_diff)
    joined = match_result("greedy", "investor", np.concatenate([p for p, _ in parts]),
                          np.concatenate([d for _, d in parts]))
    assert joined == head_to_head("sentient", "greedy", "investor", 6, seed=5)


def test_a_match_where_every_seed_scored_the_same_gets_the_wilson_interval() -> None:
    r = match_result("a", "b", np.ones(5), np.full(5, 3.0))
    assert r.games == 10 and r.win_rate == 1.0 and r.score_diff == 3.0
    assert 0.6 < r.lo < 1.0 and r.hi == pytest.approx(1.0)
