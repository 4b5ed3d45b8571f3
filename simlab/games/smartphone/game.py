"""Smartphone Inc.'s Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from simlab.core.errors import SimlabError
from simlab.core.game import BuiltinPlayer, Game
from simlab.core.options import resolve_options
from simlab.games.smartphone import batch as batch_mod
from simlab.games.smartphone import render
from simlab.games.smartphone.columns import GAME_COLUMNS, SEAT_COLUMNS
from simlab.games.smartphone.data import SmartphoneData, load_data
from simlab.games.smartphone.players import BUILTIN_PLAYERS, py_choose
from simlab.games.smartphone.rules import N_ACTIONS, new_log, py_setup, py_step
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


class SmartphoneObservation:
    """What a Python player sees on its turn.

    Attributes: ``seat``, ``round``, ``phase``, ``decision`` (name of the pending decision),
    ``legal`` (action codes), ``state`` (a copy of the state record with other seats' plans for
    this round and the upgrade deck order hidden), ``rules``. Helpers: ``describe(a)``,
    ``render()``, ``menu()`` (the legal actions as a tree of choices; arrangements are listed
    sorted by the symbols they yield).
    """

    def __init__(self, game: SmartphoneGame, rules: SmartphoneRules, state: np.ndarray, legal: list[int]) -> None:
        self._game = game
        self.rules = rules
        self._state = state
        self.legal = legal

    @property
    def seat(self) -> int:
        """The seat to act (this player's)."""
        return int(self._state[0]["actor"])

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

    @property
    def state(self) -> np.void:
        """A copy of the state record as this seat may see it."""
        return hide(self._state, self.seat)[0]

    def describe(self, action: int) -> str:
        """A one-line description of an action."""
        return self._game.describe_action(self.rules, self._state, action)

    def render(self) -> str:
        """The position as text, from this seat's view."""
        return self._game.render(self.rules, self._state, self.seat)

    def menu(self) -> list[tuple[str, Any]]:
        """The legal actions as ``(label, choice)`` entries (a choice is an action code or a submenu)."""
        return render.action_menu(self.rules, self._state[0], self.legal)


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


class SmartphoneGame(Game):
    """Smartphone Inc. (Ludonova/Cosmodrome, 2018): plan with two tablets, price, produce, research, expand, sell."""

    name = "smartphone"
    title = "Smartphone Inc."
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    max_actions = N_ACTIONS
    summary = "tablet planning, price war, research, offices and sales on a world map (2-5 players, 5 rounds)"

    # ---- content and rules
    def load_default_data(self) -> SmartphoneData:
        return load_data()

    def default_data(self) -> SmartphoneData:
        """The bundled data set (loaded once)."""
        return super().default_data()

    def option_table(self) -> dict[str, Any]:
        return self.default_data().options

    def ruleset(self, n_players: int, options: dict[str, Any] | None = None, data: Any = None) -> SmartphoneRules:
        data = data or self.default_data()
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise SimlabError(f"smartphone is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {n_players}")
        values = resolve_options(data.options, options)
        return SmartphoneRules(n_players, data, values, build_tables(data, values))

    # ---- one game, step by step
    def new_game(self, rules: SmartphoneRules, seed: int, log: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        state = np.zeros(1, dtype=STATE_DTYPE)
        legal = np.empty(N_ACTIONS, dtype=np.int64)
        n = py_setup(state, np.uint64(seed), rules.n_players, rules.tables, log, legal)
        return state, legal[:n]

    def step(self, rules: SmartphoneRules, state: np.ndarray, action: int, log: np.ndarray,
             out: np.ndarray | None = None) -> np.ndarray:
        legal = np.empty(N_ACTIONS, dtype=np.int64) if out is None else out
        n = py_step(state, int(action), rules.tables, log, legal)
        return legal[:n]

    def current_player(self, state: np.ndarray) -> int:
        return int(state[0]["actor"])

    def is_over(self, state: np.ndarray) -> bool:
        return bool(state[0]["over"])

    def new_log(self, capacity: int) -> np.ndarray:
        return new_log(capacity)

    # ---- results
    def result_arrays(self, rules: SmartphoneRules, state: np.ndarray, record: tuple[str, ...] = ()) -> dict:
        n = rules.n_players
        out = {
            "games": np.zeros((1, len(GAME_COLUMNS)), dtype=np.int32),
            "seats": np.zeros((n, len(SEAT_COLUMNS)), dtype=np.int32),
        }
        batch_mod.write_results(state[0], rules.tables[0], 0, out["games"], out["seats"])
        return out

    def categorical_columns(self) -> dict[str, dict[str, list[str]]]:
        data = self.default_data()
        return {"seats": {"colour": data.colours, "start_region": [r.id for r in data.regions]}}

    # ---- players
    def builtin_players(self) -> dict[str, BuiltinPlayer]:
        return BUILTIN_PLAYERS

    def compiled_action(self, rules: SmartphoneRules, state: np.ndarray, kind: int, params: np.ndarray,
                        legal: np.ndarray) -> int:
        buf = np.empty(N_ACTIONS, dtype=np.int64)
        buf[: len(legal)] = legal
        return int(py_choose(kind, np.ascontiguousarray(params, dtype=np.float64), state, rules.tables, buf,
                             len(legal)))

    def observation(self, rules: SmartphoneRules, state: np.ndarray, legal: list[int]) -> SmartphoneObservation:
        return SmartphoneObservation(self, rules, state, legal)

    def play_batch(self, rules: SmartphoneRules, seeds: np.ndarray, kinds: np.ndarray, params: np.ndarray,
                   lineup: np.ndarray, record: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
        if record:
            raise SimlabError(f"smartphone records no event table '{record[0]}' (it has none yet)")
        n = len(seeds)
        out = {
            "games": np.zeros((n, len(GAME_COLUMNS)), dtype=np.int32),
            "seats": np.zeros((n * rules.n_players, len(SEAT_COLUMNS)), dtype=np.int32),
        }
        batch_mod.play_games(
            np.ascontiguousarray(seeds, dtype=np.uint64),
            rules.n_players,
            np.ascontiguousarray(kinds, dtype=np.int64),
            np.ascontiguousarray(params, dtype=np.float64),
            np.ascontiguousarray(lineup, dtype=np.int64),
            rules.tables,
            out["games"],
            out["seats"],
        )
        return out

    def batch_columns(self, rules: SmartphoneRules) -> dict[str, list[str]]:
        return {"games": GAME_COLUMNS, "seats": SEAT_COLUMNS}

    # ---- text
    def describe_action(self, rules: SmartphoneRules, state: np.ndarray, action: int) -> str:
        return render.describe_action(rules, state[0], action)

    def render(self, rules: SmartphoneRules, state: np.ndarray, seat: int | None = None) -> str:
        return render.render_state(rules, state[0], seat)

    def trace_events(self, rules: SmartphoneRules, log: np.ndarray) -> list[dict[str, Any]]:
        return render.log_to_events(rules, log)

    def start_event(self, rules: SmartphoneRules, state: np.ndarray, players: list[str], game_index: int) -> dict:
        return render.start_event(rules, state[0], players, game_index)

    def final_event(self, rules: SmartphoneRules, state: np.ndarray) -> dict[str, Any]:
        return render.final_event(rules, state[0])

    def describe_turn(self, rules: SmartphoneRules, state: np.ndarray) -> str:
        rec = state[0]
        return (f"round {int(rec['round'])}, phase {int(rec['phase'])}, seat {int(rec['actor'])} "
                f"({DECISION_NAMES[int(rec['pending'])]})")

    def log_lines(self, events: list[dict[str, Any]]) -> list[str]:
        return render.log_lines(events)
