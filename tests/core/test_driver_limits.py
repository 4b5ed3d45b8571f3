"""The Python driver's guards: a per-decision time limit, and a player's SystemExit or failing
start_game reported as a player error naming the player, the seat and the seed."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest

from simlab.core.driver import decision_timeout, play_game
from simlab.core.errors import DecisionTimeoutError, PlayerError
from simlab.core.game import get_game
from simlab.core.player import Player, ResolvedPlayer, resolve_player


class Sleeper(Player):
    """Never answers in time: sleeps (a blocking call) on its third decision."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, obs, legal):
        self.calls += 1
        if self.calls == 3:
            time.sleep(30)
        return legal[0]


class Spinner(Player):
    """Never returns: a pure-Python endless loop that swallows every Exception."""

    def choose(self, obs, legal):
        while True:
            with contextlib.suppress(Exception):  # a hostile player swallows every Exception
                sum(range(1000))


class Exiter(Player):
    def choose(self, obs, legal):
        raise SystemExit(3)


class BadStart(Player):
    def start_game(self, seat, n_players, seed):
        raise ValueError("no table for me")

    def choose(self, obs, legal):
        return legal[0]


def _players(cls, label="mine"):
    game = get_game("sentient")
    return game, [resolve_player(game, "greedy"), ResolvedPlayer(label, False, factory=cls)]


def _play(cls, **kw):
    game, players = _players(cls)
    rules = game.ruleset(2)
    return play_game(game, rules, players, 1234, **kw)


def test_decision_timeout_in_the_main_thread_interrupts_a_sleeping_player():
    start = time.perf_counter()
    with pytest.raises(DecisionTimeoutError) as info:
        _play(Sleeper, decision_timeout=0.3)
    assert time.perf_counter() - start < 5
    message = str(info.value)
    assert "player mine (seat 1)" in message and "game seed 1234" in message and "0.3 s" in message
    assert "\n" not in message


def test_decision_timeout_from_the_context_and_in_a_worker_thread():
    """A thread (as in a Dask worker) uses the watchdog thread: it stops a pure-Python endless loop."""
    caught: list[BaseException] = []

    def work() -> None:
        try:
            with decision_timeout(0.3):
                _play(Spinner)
        except BaseException as exc:
            caught.append(exc)

    t = threading.Thread(target=work)
    t.start()
    t.join(10)
    assert not t.is_alive()
    assert len(caught) == 1 and isinstance(caught[0], DecisionTimeoutError)
    assert "seat 1" in str(caught[0])


def test_no_limit_by_default_and_the_alarm_is_restored():
    import signal

    before = signal.getsignal(signal.SIGALRM)
    record = _play(_First, decision_timeout=5)
    assert record.decisions > 0
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


class _First(Player):
    def choose(self, obs, legal):
        return legal[0]


def test_system_exit_and_start_game_failures_are_player_errors():
    with pytest.raises(PlayerError, match=r"player mine \(seat 1\) raised SystemExit: 3 in game seed 1234"):
        _play(Exiter)
    with pytest.raises(PlayerError, match=r"raised ValueError: no table for me in start_game in game seed 1234"):
        _play(BadStart)


def test_interactive_players_are_never_limited():
    game, players = _players(_First)
    players[1].interactive = True
    record = play_game(game, game.ruleset(2), players, 1234, decision_timeout=1e-6)
    assert record.decisions > 0
