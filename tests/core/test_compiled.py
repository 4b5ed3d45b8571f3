"""The compiled-game base (simlab/core/compiled.py) and the shared kernel helpers (simlab/core/kernels.py)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simlab.core import kernels
from simlab.core.compiled import CompiledGame, Observation
from simlab.core.errors import SimlabError
from simlab.core.game import all_games, get_game, register
from simlab.core.player import resolve_players
from simlab.core.rng import below, game_seeds, stream_keys, u64_at

STREAM_DTYPE = np.dtype([("rng_key", np.uint64, 3), ("rng_ctr", np.uint64, 3)])


def _streams(seed: int) -> np.ndarray:
    s = np.zeros(1, dtype=STREAM_DTYPE)
    s[0]["rng_key"] = stream_keys(np.uint64(seed), 3)
    return s


@njit(cache=True)
def _draws(s_arr, stream: int, n: int) -> np.ndarray:
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = kernels.next_u64(s_arr[0], stream)
    return out


@njit(cache=True)
def _shuffled(s_arr, stream: int, a) -> None:
    kernels.shuffle(s_arr[0], stream, a, a.shape[0])


@njit(cache=True)
def _fill_log(log, n: int) -> None:
    for k in range(n):
        r = kernels.log_event(log, 7)
        if r >= 0:
            log[r, 1] = k


@njit(cache=True)
def _mask(winner, n: int) -> tuple[int, int]:
    return kernels.winner_mask(winner, n)


def test_next_u64_walks_one_stream_and_leaves_the_others():
    s = _streams(5)
    keys = s[0]["rng_key"].copy()
    got = _draws(s, 1, 4)
    assert [int(x) for x in got] == [int(u64_at(keys[1], np.uint64(c))) for c in range(4)]
    assert list(s[0]["rng_ctr"]) == [0, 4, 0]


def test_shuffle_is_fisher_yates_from_the_stream():
    s = _streams(9)
    a = np.arange(10, dtype=np.int64)
    _shuffled(s, 2, a)
    # the reference: the same draws in the same order, top down
    ref = list(range(10))
    key = _streams(9)[0]["rng_key"][2]
    for c, i in enumerate(range(9, 0, -1)):
        j = below(np.uint64(u64_at(key, np.uint64(c))), i + 1)
        ref[i], ref[j] = ref[j], ref[i]
    assert a.tolist() == ref
    assert int(s[0]["rng_ctr"][2]) == 9


def test_event_log_counts_rows_and_flags_a_full_log():
    log = kernels.new_log(3, 5)
    assert log.shape == (4, 5) and log.dtype == np.int32
    _fill_log(log, 5)
    assert log[0, 0] == 3 and log[0, 1] == 1
    assert log[1:, 0].tolist() == [7, 7, 7] and log[1:, 1].tolist() == [0, 1, 2]
    empty = kernels.new_log(0, 5)
    _fill_log(empty, 2)
    assert empty.tolist() == [[0] * 5]  # records nothing, flags nothing


def test_rank_seats_compares_keys_in_order_and_shares_ties():
    keys = np.array([[10, 1], [12, 0], [10, 1], [10, 2]], dtype=np.int64)
    rank = np.zeros(4, dtype=np.int8)
    winner = np.zeros(4, dtype=np.int8)
    kernels.rank_seats(keys, 4, rank, winner)
    assert rank.tolist() == [3, 1, 3, 2] and winner.tolist() == [0, 1, 0, 0]
    keys[1, 0] = 10
    keys[3, 1] = 1
    kernels.rank_seats(keys, 4, rank, winner)
    assert rank.tolist() == [1, 4, 1, 1] and winner.tolist() == [1, 0, 1, 1]
    assert _mask(winner, 4) == (3, 0b1101)


COMPILED = [g for g in all_games() if isinstance(g, CompiledGame)]


@pytest.fixture(params=COMPILED, ids=[g.name for g in COMPILED])
def game(request) -> CompiledGame:
    return request.param


def test_bundle_declares_the_contract(game):
    k = game.kernels
    assert game.max_actions == k.max_actions
    rules = game.ruleset(game.min_players)
    assert len(game.kernel_args(rules)) == len(k.rule_args)
    cols = game.batch_columns(rules)
    assert set(cols) == {"games", "seats", *game.event_tables()}
    assert game.new_log(4).shape == (5, k.log_width)


def test_batch_rows_equal_driven_rows(game):
    """The batch kernel and the step kernels through ``result_arrays`` give the same rows."""
    from simlab.core.driver import play_game

    n = game.min_players
    rules = game.ruleset(n)
    players = resolve_players(game, ["random"] * n)
    seeds = game_seeds(3, 0, 3)
    record = tuple(game.event_tables())
    kinds = np.array([[p.kind for p in players]], dtype=np.int64)
    params = np.stack([np.stack([p.params for p in players])])
    out = game.play_batch(rules, seeds, kinds, params, np.zeros(3, np.int64), record)
    for i, seed in enumerate(seeds):
        rec = play_game(game, rules, players, int(seed), record=record)
        for name, arr in rec.arrays.items():
            per_game = len(arr)
            assert np.array_equal(out[name][i * per_game:(i + 1) * per_game], arr), name


def test_unknown_event_table_is_refused(game):
    rules = game.ruleset(game.min_players)
    with pytest.raises(SimlabError, match="records no event table 'nope'"):
        game.play_batch(rules, game_seeds(0, 0, 1), np.zeros((1, 2), np.int64), np.zeros((1, 2, 8)),
                        np.zeros(1, np.int64), ("nope",))


def test_player_count_is_checked(game):
    with pytest.raises(SimlabError, match=f"{game.name} is for"):
        game.ruleset(game.max_players + 1)


def test_observation_state_is_the_games_hide(game):
    n = game.min_players
    rules = game.ruleset(n)
    state, legal = game.new_game(rules, 42, game.new_log(0))
    obs = game.observation(rules, state, legal.tolist())
    assert isinstance(obs, Observation)
    assert obs.seat == game.current_player(state)
    assert obs.state.tobytes() == game.hide(state, obs.seat)[0].tobytes()
    assert obs.legal == legal.tolist()
    assert isinstance(obs.describe(int(legal[0])), str) and isinstance(obs.render(), str) and obs.menu()


def test_register_refuses_a_second_game_of_the_same_name():
    game = get_game("sentient")
    assert register(game) is game  # the same object again: no-op
    with pytest.raises(SimlabError, match="two games are called 'sentient'"):
        register(type(game)())
