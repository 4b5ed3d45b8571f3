"""Solo Race's Python face: the Game contract over the compiled kernels (``CompiledGame``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, Kernels, Observation
from simlab.core.datavariants import Ablation, DataFiles
from simlab.core.errors import DataError
from simlab_solo_race import render, variants
from simlab_solo_race.batch import play_games, py_results
from simlab_solo_race.columns import BOOL_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from simlab_solo_race.data import RaceData, load_data
from simlab_solo_race.players import BUILTIN_PLAYERS, choose_action
from simlab_solo_race.rules import LOG_WIDTH, MOVE_NAMES, N_ACTIONS, option_array, py_setup, py_step
from simlab_solo_race.search_hooks import search_action
from simlab_solo_race.state import MAX_PLAYERS, MAX_TRACK, MIN_PLAYERS, STATE_DTYPE, STREAM_SEAT0


@dataclass
class RaceRules:
    """A ruleset: data, resolved options and the arrays the kernels read (``board``, ``opts``)."""

    n_players: int
    data: RaceData
    options: dict[str, Any]
    board: np.ndarray
    opts: np.ndarray


class RaceObservation(Observation):
    """What a Python player sees: ``seat``, ``legal``, ``state``, ``rules``, plus the race at a glance.

    Helpers: ``position`` (this seat's space), ``goal``, ``rivals`` (the other seats' spaces),
    ``automa_position`` (None without an Automa), ``lead`` (spaces the best rival is ahead).
    """

    rules: RaceRules

    @property
    def position(self) -> int:
        """This seat's space."""
        return int(self._state[0]["pos"][self.seat])

    @property
    def goal(self) -> int:
        """The space that ends the race."""
        return int(self.rules.options["goal"])

    @property
    def rivals(self) -> list[int]:
        """The other seats' spaces, by seat."""
        rec = self._state[0]
        return [int(rec["pos"][p]) for p in range(int(rec["n_players"])) if p != self.seat]

    @property
    def automa_position(self) -> int | None:
        """The Automa's space (None when no Automa races)."""
        rec = self._state[0]
        return int(rec["automa_pos"]) if rec["automa"] else None

    @property
    def lead(self) -> int:
        """How far the best rival (the Automa included) is ahead of this seat (negative: behind it)."""
        others = [*self.rivals, *([] if self.automa_position is None else [self.automa_position])]
        return max(others) - self.position if others else 0


class SoloRaceGame(CompiledGame):
    """Solo Race: a 1-3 player dice race; one seat races a rules-driven Automa (docs/adding_a_game.md)."""

    name = "solo_race"
    title = "Solo Race (example)"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = "the worked example of docs/adding_a_game.md: a dice race, solo against an Automa (1-3 players)"
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=N_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=("board", "opts"),
        setup=py_setup,
        step=py_step,
        choose=choose_action,
        search_profile=search_action,
        batch=play_games,
        results=py_results,
        game_columns=GAME_COLUMNS,
        seat_columns=SEAT_COLUMNS,
    )
    renderer = render
    players = BUILTIN_PLAYERS
    observation_class = RaceObservation
    # what the shared layers read from the game
    bench_mixes = (("racer",), ("racer", "random", "random"), ("random",), ("ismcts",))
    ladder_players = ("random", "racer", "ismcts")
    report_notebook = None
    bool_columns = BOOL_COLUMNS
    position_columns = ()  # no start positions: ``favourite`` is categorical but an outcome

    # ---- content and rules
    def load_default_data(self) -> RaceData:
        return load_data()

    def data_files(self) -> DataFiles:
        return variants.DATA

    def ablation(self) -> Ablation:
        return variants.ABLATION

    def build_rules(self, n_players: int, data: RaceData, options: dict[str, Any]) -> RaceRules:
        goal = int(options["goal"])
        if goal > MAX_TRACK:
            raise DataError(data.files.get("options", "options.toml"), None, "options.goal",
                            f"{goal} is longer than the longest track ({MAX_TRACK})")
        return RaceRules(n_players, data, options, data.board(goal), option_array(options))

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy with every random stream hidden but the seat's own player stream (the dice and the
        Automa's die are chance: nobody may know them in advance)."""
        copy = state.copy()
        rec = copy[0]
        rec["rng_key"][:] = 0
        rec["rng_ctr"][:] = 0
        rec["rng_key"][STREAM_SEAT0 + seat] = state[0]["rng_key"][STREAM_SEAT0 + seat]
        rec["rng_ctr"][STREAM_SEAT0 + seat] = state[0]["rng_ctr"][STREAM_SEAT0 + seat]
        return copy

    def categorical_columns(self, rules: Any = None) -> dict[str, dict[str, list[str]]]:
        return {"seats": {"favourite": list(MOVE_NAMES)}}

    def describe_turn(self, rules: RaceRules, state: np.ndarray) -> str:
        rec = state[0]
        return f"round {int(rec['round'])}, seat {int(rec['actor'])}"
