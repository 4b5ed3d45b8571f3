"""Sentient's observation helpers against the kernels: points, network, investors, influence, score_change,
and the hidden view (what ``obs.state`` leaves out)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import ResolvedPlayer
from simlab.games.sentient.data import TYPES
from simlab.games.sentient.game import SentientObservation
from simlab.games.sentient.players import _take_delta
from simlab.games.sentient.rules import EV_INVESTOR, card_points, option_array

GAME = get_game("sentient")


def _random_positions(n_players: int, seed: int, options=None):
    """Every decision of a random game: (rules, state before, observation, action taken, state after, log)."""
    rules = GAME.ruleset(n_players, options)
    state, legal = GAME.new_game(rules, seed, GAME.new_log(0))
    rng = np.random.default_rng(seed)
    while len(legal):
        before = state.copy()
        obs = GAME.observation(rules, before, legal.tolist())  # on a copy: the observation reads its state live
        action = int(legal[rng.integers(len(legal))])
        log = GAME.new_log(64)
        legal = GAME.step(rules, state, action, log)
        yield rules, before, obs, action, state.copy(), log


@pytest.mark.parametrize("floor", ["all", "formula_only"])
def test_points_is_the_kernels_card_points_for_every_card_and_dice_pair(floor):
    options = {"service_floor": floor} if floor == "all" else None
    rules = GAME.ruleset(2, options)
    state, legal = GAME.new_game(rules, 1, GAME.new_log(0))
    obs = GAME.observation(rules, state, legal.tolist())
    raw = rules.data.card_array
    floor_all = bool(option_array(rules.options)[2])
    for c in range(raw.shape[0]):
        for left in range(1, 7):
            for right in range(1, 7):
                assert obs.points(c, left, right) == card_points(raw, c, left, right, floor_all)
    with pytest.raises(ValueError):
        obs.points(0, 0, 3)


def test_points_hand_made_cards():
    rules = GAME.ruleset(2)
    state, legal = GAME.new_game(rules, 1, GAME.new_log(0))
    obs = GAME.observation(rules, state, legal.tolist())
    cards = rules.data.cards
    info = next(i for i, c in enumerate(cards) if c.condition == "INF_TARGET")
    t = cards[info].param
    other = t % 6 + 1
    assert obs.points(info, t, t) == 7 and obs.points(info, t, other) == 2 and obs.points(info, other, other) == 0
    seven = next(i for i, c in enumerate(cards) if c.condition == "DEF_SUM_EQ7")
    assert obs.points(seven, 3, 4) == cards[seven].printed_vp and obs.points(seven, 3, 3) == 0


def test_network_investors_influence_follow_the_state():
    for _, before, obs, _, _, _ in _random_positions(3, 7):
        rec = before[0]
        for q in range(3):
            net = obs.network(q)
            assert [s.card for s in net] == [int(c) for c in rec["slot_card"][q]]
            assert [s.left for s in net] + [net[-1].right] == [int(d) for d in rec["dice"][q]]
            for s in net:
                block = int(rec["slot_block"][q, s.slot])
                assert (s.blocked_left, s.blocked_right) == (bool(block & 1), bool(block & 2))
                assert s.points == (obs.points(s.card, s.left, s.right) if s.card >= 0 else 0)
            assert obs.network_points(q) == sum(s.points for s in net)
            assert list(obs.investors(q).values()) == [int(x) for x in rec["investors_held"][q]]
            assert list(obs.robots(q)) == list(TYPES)
        assert obs.network() == obs.network(obs.seat)
        assert obs.factory_investors == [TYPES[int(t)] for t in rec["investors"]]


def test_influence_is_what_the_investor_award_counts():
    """At the end of each round the kernel logs every seat's influence per investor position; the helper, read
    on the position before the round's last action (plus that action's own pieces), gives the same numbers."""
    checked = 0
    for seed in (3, 4):
        for _, _, obs, action, _, log in _random_positions(4, seed):
            rows = [log[1 + i] for i in range(int(log[0, 0])) if log[1 + i, 0] == EV_INVESTOR]
            if not rows:
                continue
            expect = [obs.influence(q) for q in range(4)]
            d = obs.decode(action)
            if not d.is_pass:  # the round's last action was a buy: its agent and assistants count too
                for pos in (d.column, d.column + 1):
                    expect[obs.seat][pos] += 1 + d.influence
            for row in rows:
                pos = int(row[2])
                assert [int(row[4 + q]) for q in range(4)] == [expect[q][pos] for q in range(4)]
                checked += 1
    assert checked == 2 * 3 * 5


def test_influence_sums_neighbouring_columns_hand_made():
    rules = GAME.ruleset(2)
    state, legal = GAME.new_game(rules, 5, GAME.new_log(0))
    rec = state[0]
    rec["col_agents"][:] = 0
    rec["col_assistants"][:] = 0
    rec["col_agents"][0, 1] = 1
    rec["col_assistants"][0, 1] = 2
    rec["col_agents"][0, 3] = 1
    obs = GAME.observation(rules, state, legal.tolist())
    assert obs.influence(0) == [0, 3, 3, 1, 1]
    assert obs.influence(1) == [0, 0, 0, 0, 0]


def test_score_change_is_the_kernels_take_delta_and_zero_for_a_pass():
    n = 0
    for rules, before, obs, _, _, _ in _random_positions(3, 11):
        p = obs.seat
        for a in obs.legal[:: max(1, len(obs.legal) // 25)]:
            d = obs.decode(a)
            if d.is_pass:
                assert obs.score_change(a) == 0
                continue
            c = int(before[0]["factory"][d.column])
            assert obs.score_change(a) == _take_delta(before[0], p, rules.cards, c, d.slot, int(d.block_left),
                                                      int(d.block_right))
            n += 1
    assert n > 100


@pytest.mark.parametrize("n_players", [2, 4])
def test_score_changes_add_up_to_the_round_vp_the_driver_scores(n_players):
    """Through the driver: the seat's score changes over a round add up to the card VP it scores that round,
    and each change is what the step really did to its network (or to its round VP when the round ends)."""
    seen: dict[tuple[int, int], int] = {}
    pending: list[tuple[int, int, int, int]] = []

    class Recorder:
        def __init__(self):
            self.rng = np.random.default_rng(0)

        def start_game(self, seat, n, seed):
            self.rng = np.random.default_rng(seed)

        def choose(self, obs: SentientObservation, legal):
            a = legal[int(self.rng.integers(len(legal)))]
            pending.append((obs.seat, obs.round, obs.network_points(), obs.score_change(a)))
            seen[(obs.seat, obs.round)] = seen.get((obs.seat, obs.round), 0) + obs.score_change(a)
            return a

    def on_step(state, seat, action):
        p, r, before, change = pending.pop()
        rec = state[0]
        if int(rec["round"]) == r:
            obs = GAME.observation(rules, state, [])
            assert obs.network_points(p) - before == change
        else:
            assert int(rec["round_vp"][p, r - 1]) - before == change

    players = [ResolvedPlayer(label="recorder", compiled=False, factory=Recorder) for _ in range(n_players)]
    for seed in range(3):
        rules = GAME.ruleset(n_players)
        seen.clear()
        rec = play_game(GAME, rules, players, GAME.game_seed(seed, 0), on_step=on_step)
        for (p, r), total in seen.items():
            assert int(rec.state[0]["round_vp"][p, r - 1]) == total


def test_hidden_view_sorts_the_deck_and_zeroes_the_streams_and_nothing_else():
    for _, before, obs, _, _, _ in _random_positions(3, 21):
        seen = obs.state
        true = before[0]
        n = int(true["deck_n"])
        assert sorted(true["deck"][:n].tolist()) == seen["deck"][:n].tolist()
        assert not seen["rng_key"].any()  # the counters stay: how many draws each stream made is no secret
        for name in true.dtype.names:
            if name in ("deck", "rng_key"):
                continue
            assert np.array_equal(seen[name], true[name]), name
