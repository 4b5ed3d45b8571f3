"""Smartphone Inc.'s event log is written by one compiled ``emit`` (issue 24: cold compile). Its call sites
used to pass literal event kinds, int8/int16/int32 fields, bools and omitted defaults, and numba compiled
one version for each combination (51 in a cold run); ``emit`` now has one declared signature, every call
site passes all ten values, and numba converts them to int64 (docs/trace.md decodes the events)."""

from __future__ import annotations

import numpy as np
from numba import int64

from simlab.core.driver import play_game
from simlab.core.player import resolve_players
from simlab.games.smartphone.events import EMIT_SIGNATURE, EV_FINAL, emit, new_log
from simlab.games.smartphone.game import SmartphoneGame
from simlab.games.smartphone.state import STATE_DTYPE

GAME = SmartphoneGame()


def test_emit_is_compiled_once_for_every_call_site():
    rules = GAME.ruleset(3)
    record = play_game(GAME, rules, resolve_players(GAME, ["greedy", "expansionist", "tech_rusher"]), 7,
                       record_events=True)
    assert {"turn_start", "plan", "score"} <= {e["event"] for e in record.events}
    assert emit.signatures == [EMIT_SIGNATURE.args]
    assert EMIT_SIGNATURE.args[2:] == (int64,) * 10
    assert not emit._can_compile  # a call site passing other types is converted, never compiled apart


def test_emit_writes_the_values_it_is_given():
    """Any integer type (and a bool) lands in the log as its value; a one-row log records nothing."""
    state = np.zeros(1, dtype=STATE_DTYPE)
    state["round"] = 3
    state["phase"] = 6
    log = new_log(2)
    emit(log, state[0], EV_FINAL, np.int8(2), np.int16(-7), np.int32(40), True, 0, 1, 2, 3, -1)
    assert log[0, 0] == 1 and log[0, 1] == 0
    assert log[1].tolist() == [EV_FINAL, 3, 6, 2, -7, 40, 1, 0, 1, 2, 3, -1]
    emit(log, state[0], EV_FINAL, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    emit(log, state[0], EV_FINAL, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert log[0, 0] == 2 and log[0, 1] == 1  # full: the third event is dropped and the log says so
    silent = new_log(0)
    emit(silent, state[0], EV_FINAL, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert silent.tolist() == [[0] * 12]
