"""Steel Arena: properties of random games driven through the rules kernels (rules.py, endphase.py).

Games pick uniformly among the legal actions with ``numpy.random.default_rng(seed)``. After every
action: every tile instance is in exactly one place (field + stack + box + robots' modules +
trophies; NOTES I.1, I.11, I.13), the overheat token count matches the tokens on the robots (and
stays within the 40-token supply when ``overheat_token_limit = 40``, NOTES II.24), no robot stands on
an obstacle or off the field and no two robots share a cell (NOTES I.7.4-5), and module slots stay
packed. Every game ends (NOTES I.14) with winners; the same seed and actions give the same record;
the setup depends only on the seed (common random numbers).
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.steel_arena.codes import MAX_ACTIONS
from simlab.games.steel_arena.data import T_OBSTACLE
from simlab.games.steel_arena.rules import new_log, py_setup, py_step
from simlab.games.steel_arena.ruleset import default_ruleset
from simlab.games.steel_arena.state import PH_OVER, STATE_DTYPE

MAX_STEPS = 4000
CONFIGS = {
    "2p": (2, None),
    "3p": (3, None),
    "4p": (4, None),
    "team": (4, {"team": True}),
    "4p-limit40": (4, {"overheat_token_limit": 40}),
    "3p-expert-options": (3, {"mode": "expert", "discard_timing": "after_pickup", "single_value": "up_to",
                              "blocked_move": "stop_short", "only_cool_modules_absorb": False,
                              "autocool_scope": "active_robot_only", "start_placement_triggers_terrain": True,
                              "batch_discards_then_check_end": False, "destruction_check": "immediate"}),
    "3p-issue21-options": (3, {"passive_trigger": "defender_chooses", "cell_under_robot_target": "terrain_only",
                               "require_cell_in_line": False}),
}


def check_invariants(rules, s, token_limit: int) -> None:
    n = int(s["n_players"])
    parts = [s["cell_tile"][: s["n_cells"]], s["stack"][: s["stack_n"]], s["box"][: s["box_n"]]]
    for p in range(n):
        k = int(s["n_mods"][p])
        parts.append(s["mods"][p, :k])
        assert (s["mods"][p, k:] == -1).all() and (s["heat"][p, k:] == 0).all()
        parts.append(s["trophies"][p, : s["n_trophies"][p]])
    tiles = np.concatenate(parts)
    tiles = np.sort(tiles[tiles >= 0])
    assert np.array_equal(tiles, np.arange(len(rules.pool))), "tiles not conserved"
    tokens = int(s["heat"][:n].sum()) + int(s["central_heat"][:n].sum())
    assert int(s["tokens"]) == tokens
    if token_limit:
        assert tokens <= token_limit
    cells = [int(s["cell"][p]) for p in range(n) if s["placed"][p]]
    assert len(set(cells)) == len(cells)
    for c in cells:
        assert 0 <= c < s["n_cells"]
        inst = int(s["cell_tile"][c])
        if inst >= 0 and s["cell_type"][c] == 4:
            assert not rules.tiles[rules.pool[inst], T_OBSTACLE], "robot on an obstacle"
    assert (s["pending_heat"][:n] == 0).all() or s["phase"] == 3  # heat is settled outside PH_HEAT


def play_game(rules, n: int, seed: int, check: bool = True, log_capacity: int = 0):
    """A uniformly random game; returns (state array, actions taken, log)."""
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    log = new_log(log_capacity)
    buf = np.zeros(MAX_ACTIONS, dtype=np.int64)
    rng = np.random.default_rng(seed)
    k = py_setup(s_arr, np.uint64(seed), n, *rules.args, log, buf)
    limit = int(rules.opts[3])  # OPT_TOKEN_LIMIT
    actions = []
    if check:
        check_invariants(rules, s_arr[0], limit)
    while k > 0 and len(actions) < MAX_STEPS:
        assert len(set(buf[:k].tolist())) == k, "duplicate legal actions"
        a = int(buf[rng.integers(k)])
        actions.append(a)
        k = py_step(s_arr, a, *rules.args, log, buf)
        if check:
            check_invariants(rules, s_arr[0], limit)
    return s_arr, actions, log


@pytest.mark.parametrize("name", list(CONFIGS))
def test_random_games(name):
    """Random games keep every invariant after every action and end with winners (NOTES I.14)."""
    n, options = CONFIGS[name]
    rules = default_ruleset(n, options)
    reasons = set()
    for seed in range(25):
        s_arr, actions, _ = play_game(rules, n, 1000 * n + seed)
        s = s_arr[0]
        assert s["over"] == 1 and s["phase"] == PH_OVER, f"seed {seed}: no end after {len(actions)} actions"
        assert s["winner"][:n].sum() >= 1 and (s["rank"][:n] >= 1).all()
        assert s["end_reason"] > 0
        if options and options.get("team"):
            assert s["winner"][0] == s["winner"][2] and s["winner"][1] == s["winner"][3]
        reasons.add(int(s["end_reason"]))
    assert reasons >= {2, 3}  # destroyed robots and an exhausted stack both happen in random play


def test_many_games_end():
    """More seeds without the per-action checks: every game ends, turns advance (NOTES I.4, I.14)."""
    for n in (2, 3, 4):
        rules = default_ruleset(n)
        for seed in range(20):
            s_arr, actions, _ = play_game(rules, n, 77 + seed, check=False)
            s = s_arr[0]
            assert s["over"] == 1 and len(actions) < MAX_STEPS
            assert s["turn"] >= 1 and s["st_turns"][:n].sum() == s["turn"]


def test_determinism():
    """The same seed and the same actions give identical records and event logs."""
    rules = default_ruleset(3)
    a, acts_a, log_a = play_game(rules, 3, 5, check=False, log_capacity=50000)
    b, acts_b, log_b = play_game(rules, 3, 5, check=False, log_capacity=50000)
    assert acts_a == acts_b
    assert a.tobytes() == b.tobytes()
    assert np.array_equal(log_a, log_b) and log_a[0, 1] == 0


def test_setup_depends_only_on_seed():
    """Common random numbers: field, gen-3 stack, box and starters depend only on the seed, not on options that
    do not change the setup."""
    fields = ("cell_tile", "cell_up", "stack", "stack_n", "box", "box_n", "mods", "n_mods", "first_player")
    for seed in range(4):
        base = None
        for options in (None, {"overheat_token_limit": 40}, {"cool_always_legal": False},
                        {"discard_timing": "after_pickup"}):
            rules = default_ruleset(4, options)
            s_arr = np.zeros(1, dtype=STATE_DTYPE)
            py_setup(s_arr, np.uint64(seed), 4, *rules.args, new_log(0), np.zeros(MAX_ACTIONS, dtype=np.int64))
            got = tuple(s_arr[0][f].tobytes() for f in fields)
            if base is None:
                base = got
            assert got == base
        rules = default_ruleset(4)
        other = np.zeros(1, dtype=STATE_DTYPE)
        py_setup(other, np.uint64(seed + 100), 4, *rules.args, new_log(0), np.zeros(MAX_ACTIONS, dtype=np.int64))
        assert other[0]["cell_tile"].tobytes() != base[0]
