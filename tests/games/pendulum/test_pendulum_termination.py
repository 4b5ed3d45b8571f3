"""Every Pendulum game ends: a seeded sweep over every option value and the built-in players' mixes.

Issue 21: with ``allow_delayed_flips`` (NOTES I.13.2.7, II.3) seats that never flip purple and keep flipping
black stalled a round for ever (``simlab play pendulum --players producer,producer,voter,voter -o
allow_delayed_flips=true``, game 545 of seed 2027). The simulator's safeguard ``max_flip_delay_s`` (a timer
run out that long ago flips by itself, flipper ``overdue``) bounds every round; ``step_action_limit`` bounds the
actions of a step. The sweep plays, for each allowed value of each option (the others at their defaults), one
game with a seeded player count (1-5) and a seeded mix of the fast built-in players, plus the delayed-flip
combinations with the producer / voter mixes that stalled, and asserts that each game ends within a decision
budget far above what a game takes (a few thousand decisions). Games are driven by a small Python loop so that
a game that would not end fails instead of hanging.
(The file is not named test_termination.py: the test tree has no packages and other games may use that name.)
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.rng import game_seed
from simlab.games.pendulum.codes import EV_COUNCIL_CALLED, MAX_ACTIONS
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.players import BUILTIN_PLAYERS, DEFAULT_PARAMS, choose_action
from simlab.games.pendulum.rules import apply_action, legal_actions, new_log, setup
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE

DATA = load_data()
FAST = ("random", "track_balancer", "producer", "voter")  # the search player is too slow for a sweep
MAX_DECISIONS = 30_000


def _cases() -> list[tuple[str, int, dict, list[str]]]:
    """(id, game seed, options, players) for every non-default allowed value of every option."""
    rng = np.random.default_rng(2021)
    out = []
    for name, opt in sorted(DATA.options.items()):
        for value in opt.allowed:
            if value == opt.default:
                continue
            n = int(rng.integers(1, 6))
            players = [FAST[int(rng.integers(len(FAST)))] for _ in range(n)]
            out.append((f"{name}={value}", int(rng.integers(1 << 30)), {name: value}, players))
    for tm in ("schedule", "timed"):
        for mix in (["producer", "producer", "voter", "voter"], ["voter", "voter"], ["producer"],
                    ["voter", "producer", "voter", "producer", "voter"]):
            for k in range(2):
                opts = {"allow_delayed_flips": True, "time_model": tm}
                out.append((f"delayed-{tm}-{'-'.join(mix)}-{k}", int(rng.integers(1 << 30)), opts, mix))
    return out


def play_to_end(opts: dict, seed: int, players: list[str]) -> tuple[np.void, np.ndarray, int]:
    """One game by the built-in players; (final state, log, decisions). Fails after MAX_DECISIONS."""
    rules = build_ruleset(len(players), DATA, opts)
    tables = rules.tables
    t = tables[0]
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(1 << 16)
    setup(s, np.uint64(seed), rules.n_players, t, log)
    kinds = [BUILTIN_PLAYERS[p].kind for p in players]
    params = [DEFAULT_PARAMS[k] for k in kinds]
    decisions = 0
    while not s["over"]:
        p = int(s["actor"])
        n = legal_actions(s, t, legal)
        apply_action(s, t, int(choose_action(kinds[p], params[p], s_arr, legal, n, tables)), log)
        decisions += 1
        assert decisions < MAX_DECISIONS, f"the game does not end (t = {float(s['now']):.0f} s, round {s['round']})"
    return s, log, decisions


@pytest.mark.parametrize(("seed", "opts", "players"), [c[1:] for c in _cases()], ids=[c[0] for c in _cases()])
def test_every_game_ends(seed: int, opts: dict, players: list[str]) -> None:
    s, log, _ = play_to_end(opts, seed, players)
    assert s["over"] == 1 and s["round"] == 4
    rows = log[1: log[0, 0] + 1]
    if log[0, 1] == 0:  # the log was not truncated: four councils were called
        assert (rows[:, 0] == EV_COUNCIL_CALLED).sum() == 4


def test_issue_21_game_545_of_seed_2027_ends() -> None:
    """The reported game: producer, producer, voter, voter with delayed flips, game 545 of seed 2027."""
    s, _log, _ = play_to_end({"allow_delayed_flips": True}, int(game_seed(2027, 545)),
                             ["producer", "producer", "voter", "voter"])
    assert s["over"] == 1
