"""Smartphone Inc.'s Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, Kernels, Observation
from simlab.games.smartphone import render
from simlab.games.smartphone.batch import play_games, py_results
from simlab.games.smartphone.columns import GAME_COLUMNS, SEAT_COLUMNS
from simlab.games.smartphone.data import SmartphoneData, load_data
from simlab.games.smartphone.players import BUILTIN_PLAYERS, py_choose
from simlab.games.smartphone.rules import LOG_WIDTH, N_ACTIONS, py_setup, py_step
from simlab.games.smartphone.state import (
    DECISION_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAD_N,
    STATE_DTYPE,
    STREAM_SEAT0,
)
from simlab.games.smartphone.tables import build_tables


@dataclass
class SmartphoneRules:
    """A ruleset: data, resolved options and the table record the kernels read."""

    n_players: int
    data: SmartphoneData
    options: dict[str, Any]
    tables: np.ndarray  # one-element structured array (tables.build_tables)
    _fields: SimpleNamespace | None = field(default=None, repr=False)

    @property
    def T(self) -> SimpleNamespace:  # noqa: N802 - the kernels' name for the tables
        """The tables' fields as attributes (numpy arrays), for Python code such as the renderers."""
        if self._fields is None:
            rec = self.tables[0]
            self._fields = SimpleNamespace(**{name: rec[name] for name in rec.dtype.names})
        return self._fields


class SmartphoneObservation(Observation):
    """What a Python player sees on its turn.

    Attributes: ``seat``, ``round``, ``phase``, ``decision`` (name of the pending decision),
    ``legal`` (action codes), ``state`` (a copy of the state record with other seats' plans for
    this round and the upgrade deck order hidden), ``rules``. Helpers: ``describe(a)``,
    ``render()``, ``menu()`` (the legal actions as a tree of choices; arrangements are listed
    sorted by the symbols they yield).
    """

    rules: SmartphoneRules

    @property
    def round(self) -> int:
        """The round, 1-5."""
        return int(self._state[0]["round"])

    @property
    def phase(self) -> int:
        """The phase, 1-8."""
        return int(self._state[0]["phase"])

    @property
    def decision(self) -> str:
        """The pending decision's name (state.DECISION_NAMES)."""
        return DECISION_NAMES[int(self._state[0]["pending"])]


def hide(state: np.ndarray, seat: int) -> np.ndarray:
    """A copy of the state with what ``seat`` may not know removed.

    In phase 1 other seats' plans for the round are secret (S11); the order of the face-down
    upgrade deck is never known; nor are the other seats' or the chance streams' positions.
    """
    copy = state.copy()
    rec = copy[0]
    if int(rec["phase"]) == 1:
        for p in range(int(rec["n_players"])):
            if p != seat:
                rec["plan_arr"][p] = -1
                rec["plan_n"][p] = 0
                rec["pl_low"][p, :PAD_N] = -1
                rec["pl_top"][p, :PAD_N] = -1
                rec["vis_tab"][p] = 0
                rec["vis_upg"][p] = 0
    n = int(rec["deck_n"])
    rec["deck"][:n] = np.sort(rec["deck"][:n])
    rec["rng_key"][:] = 0
    rec["rng_ctr"][:] = 0
    rec["rng_key"][STREAM_SEAT0 + seat] = state[0]["rng_key"][STREAM_SEAT0 + seat]
    return copy


class SmartphoneGame(CompiledGame):
    """Smartphone Inc. (Ludonova/Cosmodrome, 2018): plan with two tablets, price, produce, research, expand, sell."""

    name = "smartphone"
    title = "Smartphone Inc."
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = "tablet planning, price war, research, offices and sales on a world map (2-5 players, 5 rounds)"
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=N_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=("tables",),
        setup=py_setup,
        step=py_step,
        choose=py_choose,
        batch=play_games,
        results=py_results,
        game_columns=GAME_COLUMNS,
        seat_columns=SEAT_COLUMNS,
    )
    renderer = render
    players = BUILTIN_PLAYERS
    observation_class = SmartphoneObservation

    # ---- content and rules
    def load_default_data(self) -> SmartphoneData:
        return load_data()

    def default_data(self) -> SmartphoneData:
        """The bundled data set (loaded once)."""
        return super().default_data()

    def build_rules(self, n_players: int, data: SmartphoneData, options: dict[str, Any]) -> SmartphoneRules:
        return SmartphoneRules(n_players, data, options, build_tables(data, options))

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy of the state with what ``seat`` may not know removed (see :func:`hide`)."""
        return hide(state, seat)

    def categorical_columns(self) -> dict[str, dict[str, list[str]]]:
        data = self.default_data()
        return {"seats": {"colour": data.colours, "start_region": [r.id for r in data.regions]}}

    def describe_turn(self, rules: SmartphoneRules, state: np.ndarray) -> str:
        rec = state[0]
        return (f"round {int(rec['round'])}, phase {int(rec['phase'])}, seat {int(rec['actor'])} "
                f"({DECISION_NAMES[int(rec['pending'])]})")
