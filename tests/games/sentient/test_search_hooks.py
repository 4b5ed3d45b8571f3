"""The shared search's Sentient hooks: the prior reads only what the seat to act knows.

Sentient registers its prior with ``observable_prior=True`` (simlab/games/sentient/search_hooks.py),
so the search computes the root's prior once per decision instead of in every determinisation. That is
exact only if the prior and the legal actions of the seat to act are the same in every determinisation
of its position; this test checks both at every decision of whole games.
"""

from __future__ import annotations

import numpy as np
import pytest
from sentient_helpers import clear_log, legal, new_state, ruleset, step

from simlab.core.rng import derive_key
from simlab.games.sentient import search_hooks as sh
from simlab.games.sentient.players import DEFAULT_PARAMS, SCRATCH
from simlab.games.sentient.rules import N_ACTIONS, new_log


def _args(rules):
    return (rules.cards, rules.inv, rules.opts, new_log(0), np.empty(SCRATCH), 1, DEFAULT_PARAMS[1].copy(),
            np.empty(N_ACTIONS, dtype=np.int64))


def _root_view(rules, state, seat, key, args):
    """The legal actions and the prior of the seat to act in one determinisation of ``state``."""
    g = state.copy()
    sh.determinise(g, seat, np.uint64(key), args)
    out = np.empty(N_ACTIONS, dtype=np.int64)
    n = sh.legal(g, out, args)
    prior = np.empty(N_ACTIONS)
    sh.prior(g, out, n, prior, args)
    return out[:n].copy(), prior[:n].copy()


@pytest.mark.parametrize("n_players", [2, 4])
def test_the_prior_and_the_legal_actions_are_the_same_in_every_determinisation(n_players):
    rules = ruleset(n_players)
    args = _args(rules)
    rng = np.random.default_rng(n_players)
    checked = 0
    for seed in range(3):
        state, log = new_state(rules, seed=seed)
        while not state[0]["over"]:
            actions = legal(rules, state)
            seat = int(state[0]["order"][state[0]["turn"]])
            base_legal, base_prior = _root_view(rules, state, seat, derive_key(np.uint64(seed), np.uint64(1)), args)
            assert base_legal.tolist() == actions.tolist()
            for k in range(2, 5):
                other_legal, other_prior = _root_view(rules, state, seat, derive_key(np.uint64(seed), np.uint64(k)),
                                                      args)
                assert other_legal.tolist() == base_legal.tolist()
                assert np.array_equal(other_prior, base_prior)
            checked += 1
            step(rules, state, int(actions[rng.integers(len(actions))]), log, check_legal=False)
            clear_log(log)
    assert checked > 30
