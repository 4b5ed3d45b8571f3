"""Sentient's Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, EventTable, Kernels, Observation
from simlab.core.errors import DataError
from simlab.games.sentient import render
from simlab.games.sentient.batch import play_games, py_results
from simlab.games.sentient.columns import GAME_COLUMNS, SEAT_COLUMNS, TAKE_COLUMNS, TAKES_PER_SEAT
from simlab.games.sentient.data import TYPES, SentientData, load_data
from simlab.games.sentient.players import BUILTIN_PLAYERS, py_choose
from simlab.games.sentient.rules import (
    ACT_PASS,
    ACT_PASS_NO_SWEEP,
    LOG_WIDTH,
    N_ACTIONS,
    card_table,
    decode_buy,
    option_array,
    py_setup,
    py_step,
)
from simlab.games.sentient.state import MAX_PLAYERS, MIN_PLAYERS, N_ROUNDS, STATE_DTYPE, STREAM_SEAT0


def cards_needed(n_players: int, options: dict[str, Any]) -> int:
    """Fewest cards with which a draw can never find both deck and discard pile empty.

    Players own 12 each at the end; the factory holds 3 cards while the 4th is refilled; with
    ``remove_from_game`` the 4 leftovers of rounds 1 and 2 leave the game; with
    ``draw_then_discard`` a sweep holds the 4 old cards while drawing 4 new ones.
    """
    needed = 12 * n_players + 4
    if options["factory_leftovers"] == "remove_from_game":
        needed += 8
    if options["sweep_order"] == "draw_then_discard":
        needed += 4
    return needed


@dataclass
class SentientRules:
    """A ruleset: data, resolved options and the arrays the kernels read."""

    n_players: int
    data: SentientData
    options: dict[str, Any]
    opts: np.ndarray
    cards: np.ndarray
    inv: np.ndarray

    @property
    def card_ids(self) -> np.ndarray:
        """Printed card id of each card index."""
        return self.cards[:, 0]


@dataclass(frozen=True)
class Buy:
    """A decoded buy: factory column, network slot, blocked corners, influence assistants."""

    column: int
    slot: int
    block_left: bool
    block_right: bool
    influence: int
    is_pass: bool = False
    sweep: bool = False


def decode_action(action: int) -> Buy:
    """The parts of an action code (a pass comes back with ``is_pass`` set)."""
    if action in (ACT_PASS, ACT_PASS_NO_SWEEP):
        return Buy(-1, -1, False, False, 0, is_pass=True, sweep=action == ACT_PASS)
    col, slot, bl, br, infl = decode_buy(action)
    return Buy(col, slot, bool(bl), bool(br), infl)


class SentientObservation(Observation):
    """What a Python player sees on its turn.

    Attributes: ``seat``, ``round``, ``legal`` (action codes), ``state`` (a copy of the state
    record with the deck order hidden), ``rules``. Helpers: ``decode(a)``, ``describe(a)``,
    ``render()``, ``menu()`` (the legal actions as a tree of choices: pass, or a card, then a
    slot, then blocks, then influence), ``card(index)`` (the printed card of a card index),
    ``dice``, ``factory``.
    """

    rules: SentientRules

    @property
    def round(self) -> int:
        """The round, 1-3."""
        return int(self._state[0]["round"])

    @property
    def dice(self) -> list[int]:
        """This seat's five dice, left to right."""
        return [int(x) for x in self._state[0]["dice"][self.seat]]

    @property
    def factory(self) -> list[int]:
        """Card index in each factory column (-1 if empty)."""
        return [int(x) for x in self._state[0]["factory"]]

    def card(self, index: int) -> Any:
        """The printed card (data.Card) of a card index."""
        return self.rules.data.cards[index]

    def decode(self, action: int) -> Buy:
        """The parts of an action code."""
        return decode_action(action)


class SentientGame(CompiledGame):
    """Sentient (Renegade, 2017): robots calibrate dice networks; investors reward majorities."""

    name = "sentient"
    title = "Sentient"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = "dice networks calibrated by robot cards; investor majorities (2-4 players, 3 rounds)"
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=N_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=("cards", "inv", "opts"),
        setup=py_setup,
        step=py_step,
        choose=py_choose,
        batch=play_games,
        results=py_results,
        game_columns=GAME_COLUMNS,
        seat_columns=SEAT_COLUMNS,
        events=(
            EventTable("takes", "one row per card bought: seat, round, turn, card, type, column, slot, blocks, "
                                "influence assistants, points it scored", TAKE_COLUMNS, TAKES_PER_SEAT),
        ),
    )
    renderer = render
    players = BUILTIN_PLAYERS
    observation_class = SentientObservation

    # ---- content and rules
    def load_default_data(self) -> SentientData:
        return load_data()

    def default_data(self) -> SentientData:
        """The bundled data set (loaded once)."""
        return super().default_data()

    def build_rules(self, n_players: int, data: SentientData, options: dict[str, Any]) -> SentientRules:
        opts = option_array(options)
        cards = card_table(data.card_array, opts)
        inv = -np.ones((4, 8), dtype=np.int8)
        inv[:3, :5] = data.round_investor_array
        start = data.starting_investor_array[:8]
        inv[3, : len(start)] = start
        needed = cards_needed(n_players, options)
        if data.deck_size < needed:
            raise DataError(
                data.cards_file, None, None,
                f"{data.deck_size} cards; {n_players} players with these options need {needed} "
                "(or the factory could run dry)",
            )
        return SentientRules(n_players, data, options, opts, cards, inv)

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy of the state with the deck order and the random streams' keys hidden."""
        copy = state.copy()
        rec = copy[0]
        n = int(rec["deck_n"])
        rec["deck"][:n] = np.sort(rec["deck"][:n])
        rec["rng_key"][:] = 0
        return copy

    def current_player(self, state: np.ndarray) -> int:
        rec = state[0]
        return int(rec["order"][rec["turn"]])

    def categorical_columns(self) -> dict[str, dict[str, list[str]]]:
        return {"seats": {"start_investor": list(TYPES)}, "takes": {"type": list(TYPES)}}

    def describe_turn(self, rules: SentientRules, state: np.ndarray) -> str:
        rec = state[0]
        return f"round {int(rec['round'])}, turn {int(rec['n_turns']) + 1}"


assert N_ROUNDS == 3 and len(TYPES) == 5 and STREAM_SEAT0 == 4
