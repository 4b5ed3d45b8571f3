"""The Python driver loop: one game, any mix of Python and compiled players.

Each decision goes to the seat's player: compiled players are asked through the game's
compiled dispatch, Python players get an observation and the legal actions. Every action a
Python player returns is checked; an illegal one stops the game with an error naming the
player, the seat, the game seed and the action.

A Python player may be given a time limit per decision (:func:`decision_timeout`, the spec's
``decision_timeout``, ``--decision-timeout``): a ``choose`` (or ``start_game``) that runs
longer stops the game with a :class:`DecisionTimeoutError` naming the player, seat and seed.
Interactive players (``human``) are never limited. In the main thread the limit is a
SIGALRM timer, which also interrupts a player blocked in ``time.sleep`` or I/O; in other
threads (a Dask worker runs tasks in one) a watchdog thread raises the timeout inside the
player's thread, which stops Python code but not a call blocked in C.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.core.errors import DecisionTimeoutError, IllegalActionError, PlayerError, SimlabError
from simlab.core.game import Game
from simlab.core.player import ResolvedPlayer
from simlab.core.rng import derive_key

_LIMIT = threading.local()  # .seconds: the decision time limit set by decision_timeout()


@contextmanager
def decision_timeout(seconds: float | None) -> Iterator[None]:
    """Within the block (in this thread), each Python player's decision may take at most ``seconds``.

    ``None`` or 0 means no limit. :func:`play_game` calls inside the block use it unless they
    are given their own ``decision_timeout``.
    """
    old = getattr(_LIMIT, "seconds", None)
    _LIMIT.seconds = float(seconds) if seconds else None
    try:
        yield
    finally:
        _LIMIT.seconds = old


def current_decision_timeout() -> float | None:
    """The limit set by the innermost :func:`decision_timeout` block of this thread (None: none)."""
    return getattr(_LIMIT, "seconds", None)


class _TimedOut(BaseException):
    """Raised inside a player's call when its time is up (a BaseException: a player's own
    ``except Exception`` does not swallow it)."""


class _ThreadWatchdog:
    """One daemon thread per process that raises :class:`_TimedOut` in threads past their deadline."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._deadlines: dict[int, float] = {}
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float) -> None:
        tid = threading.get_ident()
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="simlab-decision-watchdog", daemon=True)
                self._thread.start()
            self._deadlines[tid] = time.monotonic() + seconds
            self._cond.notify()

    def disarm(self) -> None:
        tid = threading.get_ident()
        with self._cond:
            fired = self._deadlines.pop(tid, None) is None
        if fired:  # the watchdog fired as the call returned: drop the pending exception, report the timeout
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), None)
            raise _TimedOut

    def _run(self) -> None:
        with self._cond:
            while True:
                if not self._deadlines:
                    self._cond.wait()
                    continue
                now = time.monotonic()
                for tid, deadline in list(self._deadlines.items()):
                    if deadline <= now:
                        del self._deadlines[tid]
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(_TimedOut))
                if self._deadlines:
                    self._cond.wait(max(0.0, min(self._deadlines.values()) - now))


_WATCHDOG = _ThreadWatchdog()


def _raise_timed_out(signum: int, frame: Any) -> None:
    raise _TimedOut


class _Limiter:
    """Times each call of a Python player within one game (see the module docstring)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds or None
        self.use_alarm = False
        self._old_handler: Any = None

    def __enter__(self) -> _Limiter:
        if (self.seconds and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
                and signal.getitimer(signal.ITIMER_REAL)[0] == 0):
            self._old_handler = signal.signal(signal.SIGALRM, _raise_timed_out)
            self.use_alarm = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self.use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old_handler)
            self.use_alarm = False

    @contextmanager
    def call(self, interactive: bool) -> Iterator[None]:
        """The block is one call of a player: raises _TimedOut when it runs past the limit."""
        if not self.seconds or interactive:
            yield
        elif self.use_alarm:
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        else:
            _WATCHDOG.arm(self.seconds)
            try:
                yield
            except _TimedOut:
                with _WATCHDOG._cond:
                    _WATCHDOG._deadlines.pop(threading.get_ident(), None)
                raise
            _WATCHDOG.disarm()


@dataclass
class GameRecord:
    """A finished game: its final state, result rows (as the batch loop lays them out) and events."""

    seed: int
    state: np.ndarray
    arrays: dict[str, np.ndarray]
    seats: list[dict[str, Any]]
    game: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    decisions: int = 0


def _rows(game: Game, rules: Any, table: str, arr: np.ndarray) -> list[dict[str, Any]]:
    """Array rows as dicts, integer codes named as in the stored tables."""
    cols = game.batch_columns(rules)[table]
    cats = game.categorical_columns(rules).get(table, {})
    out = []
    for row in arr.tolist():
        d = dict(zip(cols, row, strict=True))
        for name, names in cats.items():
            d[name] = names[d[name]]
        out.append(d)
    return out


def play_game(
    game: Game,
    rules: Any,
    players: Sequence[ResolvedPlayer],
    seed: int,
    *,
    record_events: bool = False,
    record: tuple[str, ...] = (),
    instances: Sequence[Any] | None = None,
    on_step: Callable[[np.ndarray, int, int], None] | None = None,
    on_events: Callable[[list[dict[str, Any]]], None] | None = None,
    decision_timeout: float | None = None,
) -> GameRecord:
    """Play one game from its 64-bit game seed through the Python driver.

    ``record`` names event tables to fill (as the batch loop does), ``instances`` reuses
    Python player objects (one per seat, None for compiled seats);
    ``on_step(state, seat, action)`` is called after every action (used by tests);
    ``on_events(events)`` receives the trace events as they happen (with ``record_events``);
    ``decision_timeout`` limits each Python player's decision to so many seconds (None: the
    limit of the enclosing :func:`decision_timeout` block; 0: no limit).
    """
    limit = current_decision_timeout() if decision_timeout is None else decision_timeout
    with _Limiter(limit) as limiter:
        return _play(game, rules, players, seed, record_events, record, instances, on_step, on_events, limiter)


def _play(game: Game, rules: Any, players: Sequence[ResolvedPlayer], seed: int, record_events: bool,
          record: tuple[str, ...], instances: Sequence[Any] | None,
          on_step: Callable[[np.ndarray, int, int], None] | None,
          on_events: Callable[[list[dict[str, Any]]], None] | None, limiter: _Limiter) -> GameRecord:
    n = len(players)
    log = game.new_log(game.trace_capacity if record_events else 0)
    state, legal = game.new_game(rules, seed, log)
    if instances is None:
        instances = [None if p.compiled else _make(p, seat, seed) for seat, p in enumerate(players)]
    for seat, inst in enumerate(instances):
        if inst is not None and hasattr(inst, "start_game"):
            seat_seed = int(derive_key(np.uint64(seed), np.uint64(1000 + seat)))
            with _player_call(players[seat], seat, seed, "start_game", limiter):
                inst.start_game(seat, n, seat_seed)
    decisions = 0
    buffer = np.empty(game.max_actions, dtype=np.int64)
    seen = _emit_new_events(game, rules, log, 0, on_events)
    while len(legal):
        seat = game.current_player(state)
        player = players[seat]
        if player.compiled:
            legal_list = legal.tolist()  # before the kernel, which may use the buffer behind ``legal``
            action = game.compiled_action(rules, state, player.kind, player.params, legal)
            if not _is_member(legal_list, action):
                raise IllegalActionError(
                    f"built-in player {_who(player, seat)} chose illegal action {action} in game seed "
                    f"{seed} ({game.describe_turn(rules, state)}): a simlab bug, please report it"
                )
        else:
            action = _ask(game, rules, state, legal, player, instances[seat], seat, seed, limiter)
        legal = game.step(rules, state, action, log, buffer)
        decisions += 1
        if on_step is not None:
            on_step(state, seat, action)
        seen = _emit_new_events(game, rules, log, seen, on_events)
    events = game.trace_events(rules, log) if record_events else []
    arrays = game.result_arrays(rules, state, tuple(record))
    seats = _rows(game, rules, "seats", arrays["seats"])
    return GameRecord(seed, state, arrays, seats, _rows(game, rules, "games", arrays["games"])[0], events, decisions)


def _emit_new_events(game: Game, rules: Any, log: np.ndarray, seen: int,
                     on_events: Callable[[list[dict[str, Any]]], None] | None) -> int:
    """Hand the events logged since ``seen`` to ``on_events``; returns the new count."""
    n = int(log[0, 0])
    if on_events is None or n <= seen:
        return n
    part = log[seen : n + 1].copy()
    part[0, :] = 0
    part[0, 0] = n - seen
    on_events(game.trace_events(rules, part))
    return n


def _make(player: ResolvedPlayer, seat: int, seed: int) -> Any:
    """A new instance of a Python player; its constructor failing is a player error."""
    try:
        return player.make()
    except SimlabError:
        raise
    except (Exception, SystemExit) as exc:
        raise PlayerError(f"player {_who(player, seat)} raised {_what(exc)} when created, "
                          f"in game seed {seed}") from exc


def _what(exc: BaseException) -> str:
    """``Type: message`` of an exception, on one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@contextmanager
def _player_call(player: ResolvedPlayer, seat: int, seed: int, method: str, limiter: _Limiter) -> Iterator[None]:
    """One call of a Python player: its exceptions (SystemExit included) and a timeout become
    PlayerErrors naming the player, the seat and the game seed. Ctrl-C still interrupts."""
    try:
        with limiter.call(player.interactive):
            yield
    except SimlabError:
        raise
    except _TimedOut:
        raise DecisionTimeoutError(
            f"player {_who(player, seat)} took more than {limiter.seconds:g} s in {method} "
            f"(decision_timeout) in game seed {seed}"
        ) from None
    except (Exception, SystemExit) as exc:
        where = "" if method == "choose" else f" in {method}"
        raise PlayerError(f"player {_who(player, seat)} raised {_what(exc)}{where} "
                          f"in game seed {seed}") from exc


def _who(player: ResolvedPlayer, seat: int) -> str:
    """A player as error messages name it: its label, the spec it came from when that says more (a file player's
    ``path:Class``, so the code can be found), and its seat."""
    if player.spec and player.spec != player.label:
        return f"{player.label} ({player.spec}, seat {seat})"
    return f"{player.label} (seat {seat})"


def _ask(game: Game, rules: Any, state: np.ndarray, legal: np.ndarray, player: ResolvedPlayer, inst: Any,
         seat: int, seed: int, limiter: _Limiter) -> int:
    legal_list = legal.tolist()
    obs = game.observation(rules, state, legal_list)
    if limiter.seconds is None or player.interactive:  # no clock to set: skip the context managers
        try:
            action = inst.choose(obs, legal_list)
        except SimlabError:
            raise
        except (Exception, SystemExit) as exc:
            raise PlayerError(f"player {_who(player, seat)} raised {_what(exc)} in game seed {seed}") from exc
    else:
        with _player_call(player, seat, seed, "choose", limiter):
            action = inst.choose(obs, legal_list)
    if isinstance(action, np.integer):
        action = int(action)
    if not isinstance(action, int) or isinstance(action, bool) or not _is_member(legal_list, action):
        raise IllegalActionError(
            f"player {_who(player, seat)} returned illegal action {action!r} in game seed {seed} "
            f"(turn {game.describe_turn(rules, state)}; {len(legal_list)} legal actions)"
        )
    return action


def _is_member(sorted_actions: list[int], action: int) -> bool:
    """Whether ``action`` is in the ascending list of legal actions."""
    i = bisect_left(sorted_actions, action)
    return i < len(sorted_actions) and sorted_actions[i] == action
