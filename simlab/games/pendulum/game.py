"""Pendulum's Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, Kernels
from simlab.core.datavariants import DataFiles
from simlab.games.pendulum import render, variants
from simlab.games.pendulum.batch import play_games, py_results
from simlab.games.pendulum.codes import LOG_WIDTH, MAX_ACTIONS, PHASE_NAMES
from simlab.games.pendulum.columns import (
    AUTOMA_WON_NAMES,
    BOOL_COLUMNS,
    END_BRANCH_NAMES,
    GAME_COLUMNS,
    LEVEL_NAMES,
    SEAT_COLUMNS,
    TIME_MODEL_NAMES,
)
from simlab.games.pendulum.data import PendulumData, load_data
from simlab.games.pendulum.dispatch import choose_action
from simlab.games.pendulum.observation import PendulumObservation
from simlab.games.pendulum.players import BUILTIN_PLAYERS
from simlab.games.pendulum.rules import py_setup, py_step
from simlab.games.pendulum.ruleset import RULE_ARGS, PendulumRules, build_ruleset
from simlab.games.pendulum.search_hooks import SEARCH_PLAYER, search_action
from simlab.games.pendulum.state import MAX_PLAYERS, MIN_PLAYERS, STATE_DTYPE, STREAM_SEAT0

HIDDEN = -2  # a card the seat may not know


class PendulumGame(CompiledGame):
    """Pendulum (Stonemaier Games, 2020): real-time worker placement on three sand timers, four councils,
    and the solo Automa module (one seat against two Automas)."""

    name = "pendulum"
    title = "Pendulum"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = ("real-time worker placement on three sand timers, four councils (1-5 players; solo = one seat "
               "against the two Automas, levels A-F)")
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=MAX_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=RULE_ARGS,
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
    players = {**BUILTIN_PLAYERS, SEARCH_PLAYER.name: SEARCH_PLAYER}  # noqa: RUF012 - a class-level declaration
    observation_class = PendulumObservation
    bench_mixes = (
        ("producer",), ("random",), ("track_balancer",), ("voter",),
        ("producer", "voter", "track_balancer"), ("producer",) * 5, ("search",), ("ismcts",),
        ("producer_v1",), ("track_balancer_v1",), ("voter_v1",),  # before issue 24: their speed beside the new
    )
    ladder_players = ("random", "voter", "track_balancer", "producer", "search", "ismcts")
    report_notebook = "pendulum_automa_levels.ipynb"
    bool_columns = BOOL_COLUMNS
    trace_capacity = 1 << 16
    position_columns = ("start_privilege", "character")  # dealt to each seat: fair share 1/n each
    standard_columns = {"first_player": "first_privilege", "turns": "decisions"}  # noqa: RUF012
    automa_option = "automa_level"

    # ---- content and rules
    def load_default_data(self) -> PendulumData:
        return load_data()

    def data_files(self) -> DataFiles:
        return variants.DATA

    def build_rules(self, n_players: int, data: PendulumData, options: dict[str, Any]) -> PendulumRules:
        return build_ruleset(n_players, data, options)

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy with what ``seat`` may not know removed.

        The order of the province, achievement and Automa decks is hidden (their contents follow
        from what is public and stay, sorted); which standard council cards wait in the council
        deck is hidden too (10 of the unseen cards were removed unseen at setup), so those entries
        become ``HIDDEN`` (-2); every random stream but the seat's own is zeroed.
        """
        copy = state.copy()
        rec = copy[0]
        for field, n in (("pdeck", "pdeck_n"), ("adeck", "adeck_n"), ("a_deck", "a_deck_n")):
            k = int(rec[n])
            rec[field][:k] = np.sort(rec[field][:k])
        rec["cdeck"][: int(rec["cdeck_n"])] = HIDDEN
        own_key = state[0]["rng_key"][STREAM_SEAT0 + seat]
        own_ctr = state[0]["rng_ctr"][STREAM_SEAT0 + seat]
        rec["rng_key"][:] = 0
        rec["rng_ctr"][:] = 0
        rec["rng_key"][STREAM_SEAT0 + seat] = own_key
        rec["rng_ctr"][STREAM_SEAT0 + seat] = own_ctr
        return copy

    def categorical_columns(self, rules: PendulumRules | None = None) -> dict[str, dict[str, list[str]]]:
        data = rules.data if rules is not None else self.default_data()
        return {
            "games": {"level": list(LEVEL_NAMES), "time_model": list(TIME_MODEL_NAMES),
                      "end_branch": list(END_BRANCH_NAMES), "automa_won": list(AUTOMA_WON_NAMES)},
            "seats": {"character": data.character_names()},
        }

    def render_svg(self, rules: PendulumRules, state: np.ndarray, seat: int | None = None) -> str:
        """The position as an SVG board (see simlab/games/pendulum/svg.py)."""
        from simlab.games.pendulum.svg import board_svg
        return board_svg(rules, state[0], seat)

    def describe_turn(self, rules: PendulumRules, state: np.ndarray) -> str:
        rec = state[0]
        phase = PHASE_NAMES[int(rec["phase"])]
        step = int(rec["sched_step"])
        where = f"step {step}" if step >= 0 else f"t = {float(rec['now']):.0f} s"
        return f"round {int(rec['round'])}, {phase}, {where}, seat {int(rec['actor'])} to act"
