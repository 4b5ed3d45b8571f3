"""Seeds, reproducibility and common random numbers (simlab.core.rng, simlab.core.batch; state.py streams)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from sentient_helpers import GAME, new_state, ruleset

import simlab
from simlab.core.driver import play_game
from simlab.core.player import resolve_players

LINEUP4 = ["greedy", "investor", "random", "specialist"]


def _play(lineup, seed, options=None, **kw):
    rules = ruleset(len(lineup), **(options or {}))
    return play_game(GAME, rules, resolve_players(GAME, lineup), seed, record_events=True, **kw)


def test_same_seed_same_setup():
    """R7-R12: a game's setup (deck order, starting investors, first turn order, dice) depends only on its seed."""
    rules = ruleset(4)
    a, _ = new_state(rules, seed=12345)
    b, _ = new_state(rules, seed=12345)
    c, _ = new_state(rules, seed=12346)
    assert a.tobytes() == b.tobytes()
    assert a[0]["deck"].tolist() != c[0]["deck"].tolist()


@pytest.mark.parametrize("lineup", [LINEUP4, ["random", "greedy"], ["investor", "random", "random"]])
def test_same_seed_same_game(lineup):
    """Determinism: the same game seed and players give the identical trace, final state and results."""
    seed = GAME.game_seed(99, 4)
    a = _play(lineup, seed)
    b = _play(lineup, seed)
    assert a.events == b.events
    assert a.events and a.events[-1]["event"] == "round_end"
    assert a.state.tobytes() == b.state.tobytes()
    assert a.seats == b.seats and a.game == b.game
    other = _play(lineup, GAME.game_seed(99, 5))
    assert other.events != a.events


@pytest.mark.parametrize(
    ("lineup", "options"),
    [
        (LINEUP4, {}),
        (["random", "greedy", "investor"], {"sweep_on_voluntary_pass": "optional", "reshuffle_timing":
                                             "as_soon_as_deck_empty", "service_floor": "sum_minus_6_only"}),
        (["specialist", "random"], {"same_column_multiple_agents": False, "agent_tiebreak_scope": "skip"}),
    ],
)
def test_batch_equals_driver(lineup, options):
    """simlab.core.batch: game i of play_batch (seed S) is the driver's game with seed game_seed(S, i), row for
    row in the seats and games tables."""
    n_games, seed = 50, 2024
    res = simlab.play_batch("sentient", players=lineup, games=n_games, seed=seed, options=options)
    assert res.compiled
    rules = ruleset(len(lineup), **options)
    players = resolve_players(GAME, lineup)
    cols = GAME.batch_columns(rules)
    game_cols, seat_cols = cols["games"], cols["seats"]
    seats = res.seats.sort(["game", "seat"])
    games = res.games.sort("game")
    assert games["seed"].to_list() == [GAME.game_seed(seed, i) for i in range(n_games)]
    for i in range(n_games):
        rec = play_game(GAME, rules, players, GAME.game_seed(seed, i))
        assert rec.state[0]["over"] == 1
        rows = seats.filter(pl.col("game") == i)
        assert rows["player"].to_list() == [p.label for p in players]
        for col in seat_cols:
            want = [row[col] for row in rec.seats]
            got = rows[col].to_list()
            assert got == want, (i, col)
        grow = games.row(i, named=True)
        for col in game_cols:
            assert int(grow[col]) == int(rec.game[col]), (i, col)


def test_batch_same_seed_identical():
    """play_batch twice with the same seed gives identical tables; another seed does not."""
    a = simlab.play_batch("sentient", players=LINEUP4, games=60, seed=5)
    b = simlab.play_batch("sentient", players=LINEUP4, games=60, seed=5)
    c = simlab.play_batch("sentient", players=LINEUP4, games=60, seed=6)
    assert a.games.equals(b.games)
    assert a.seats.equals(b.seats)
    assert not a.seats["score"].equals(c.seats["score"])


def test_batch_first_game_offset():
    """simlab.core.batch: a batch starting at first_game = k reproduces rows k.. of a larger batch."""
    full = simlab.play_batch("sentient", players=["greedy", "random", "investor"], games=30, seed=3)
    part = simlab.play_batch("sentient", players=["greedy", "random", "investor"], games=20, seed=3, first_game=10)
    assert part.games["game"].to_list() == list(range(10, 30))
    assert part.games.equals(full.games.filter(pl.col("game") >= 10))
    assert part.seats.equals(full.seats.filter(pl.col("game") >= 10))


def test_common_random_numbers(monkeypatch):
    """state.py streams: changing one seat's player (greedy -> random) leaves the initial deck order, the
    starting investors, the first turn order, every round's dice rolls and investor layout unchanged."""
    setups: list[np.ndarray] = []
    original = GAME.new_game

    def recording_new_game(rules, seed, log):
        state, legal = original(rules, seed, log)
        setups.append(state.copy())
        return state, legal

    monkeypatch.setattr(GAME, "new_game", recording_new_game)
    differing = 0
    for i in range(12):
        seed = GAME.game_seed(31, i)
        setups.clear()
        a = _play(["greedy", "greedy", "greedy"], seed)
        b = _play(["greedy", "random", "greedy"], seed)
        sa, sb = setups
        assert sa[0]["deck"].tolist() == sb[0]["deck"].tolist()
        assert sa[0]["deck_n"] == sb[0]["deck_n"]
        for field in ("start_investor", "order", "factory", "investors", "dice"):
            assert sa[0][field].tolist() == sb[0][field].tolist(), field
        starts_a = [e for e in a.events if e["event"] == "round_start"]
        starts_b = [e for e in b.events if e["event"] == "round_start"]
        assert [e["round"] for e in starts_a] == [1, 2, 3] == [e["round"] for e in starts_b]
        for ea, eb in zip(starts_a, starts_b, strict=True):
            assert ea["dice"] == eb["dice"]
            assert ea["investors"] == eb["investors"]
        assert starts_a[0]["turn_order"] == starts_b[0]["turn_order"]
        differing += a.events != b.events
    assert differing >= 10  # the line-ups do play differently


def test_common_random_numbers_in_batch():
    """The same, through play_batch: starting investors and first player per game match across line-ups."""
    a = simlab.play_batch("sentient", players=["greedy", "greedy", "greedy", "greedy"], games=100, seed=8)
    b = simlab.play_batch("sentient", players=["greedy", "random", "greedy", "greedy"], games=100, seed=8)
    for col in ("start_investor", "first_in_round1"):
        assert a.seats[col].equals(b.seats[col])
    assert a.games["seed"].equals(b.games["seed"])
    assert not a.seats["score"].equals(b.seats["score"])
