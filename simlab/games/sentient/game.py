"""Sentient's Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.errors import DataError, SimlabError
from simlab.core.game import BuiltinPlayer, Game
from simlab.core.options import resolve_options
from simlab.games.sentient import batch as batch_mod
from simlab.games.sentient import render
from simlab.games.sentient.data import TYPES, SentientData, load_data
from simlab.games.sentient.players import BUILTIN_PLAYERS, SCRATCH, choose_action
from simlab.games.sentient.rules import (
    ACT_PASS,
    ACT_PASS_NO_SWEEP,
    N_ACTIONS,
    card_table,
    decode_buy,
    new_log,
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


class SentientObservation:
    """What a Python player sees on its turn.

    Attributes: ``seat``, ``round``, ``legal`` (action codes), ``state`` (a copy of the state
    record with the deck order hidden), ``rules``. Helpers: ``decode(a)``, ``describe(a)``,
    ``render()``, ``card(index)`` (the printed card of a card index), ``dice``, ``factory``.
    """

    def __init__(self, game: SentientGame, rules: SentientRules, state: np.ndarray, legal: list[int]) -> None:
        self._game = game
        self.rules = rules
        self._state = state
        self.legal = legal

    @property
    def seat(self) -> int:
        """The seat to act (this player's)."""
        rec = self._state[0]
        return int(rec["order"][rec["turn"]])

    @property
    def round(self) -> int:
        """The round, 1-3."""
        return int(self._state[0]["round"])

    @property
    def state(self) -> np.void:
        """A copy of the state record; the deck is sorted so its order is not revealed."""
        copy = self._state.copy()[0]
        n = int(copy["deck_n"])
        copy["deck"][:n] = np.sort(copy["deck"][:n])
        copy["rng_key"][:] = 0
        return copy

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

    def describe(self, action: int) -> str:
        """A one-line description of an action."""
        return self._game.describe_action(self.rules, self._state, action)

    def render(self) -> str:
        """The position as text, from this seat's view."""
        return self._game.render(self.rules, self._state, self.seat)

    def menu(self) -> list[tuple[str, Any]]:
        """The legal actions as a tree of choices: pass, or a card, then a slot, then blocks, then influence.

        Each entry is ``(label, choice)``; a choice is an action code or a further menu.
        """
        return render.action_menu(self.rules, self._state[0], self.legal)


class SentientGame(Game):
    """Sentient (Renegade, 2017): robots calibrate dice networks; investors reward majorities."""

    name = "sentient"
    title = "Sentient"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    max_actions = N_ACTIONS
    summary = "dice networks calibrated by robot cards; investor majorities (2-4 players, 3 rounds)"

    # ---- content and rules
    def load_default_data(self) -> SentientData:
        return load_data()

    def default_data(self) -> SentientData:
        """The bundled data set (loaded once)."""
        return super().default_data()

    def option_table(self) -> dict[str, Any]:
        return self.default_data().options

    def ruleset(self, n_players: int, options: dict[str, Any] | None = None, data: Any = None) -> SentientRules:
        data = data or self.default_data()
        values = resolve_options(data.options, options)
        opts = option_array(values)
        cards = card_table(data.card_array, opts)
        inv = -np.ones((4, 8), dtype=np.int8)
        inv[:3, :5] = data.round_investor_array
        start = data.starting_investor_array[:8]
        inv[3, : len(start)] = start
        needed = cards_needed(n_players, values)
        if data.deck_size < needed:
            raise DataError(
                data.cards_file, None, None,
                f"{data.deck_size} cards; {n_players} players with these options need {needed} "
                "(or the factory could run dry)",
            )
        return SentientRules(n_players, data, values, opts, cards, inv)

    # ---- one game, step by step
    def new_game(self, rules: SentientRules, seed: int, log: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        state = np.zeros(1, dtype=STATE_DTYPE)
        legal = np.empty(N_ACTIONS, dtype=np.int64)
        n = py_setup(state, np.uint64(seed), rules.n_players, rules.cards, rules.inv, rules.opts, log, legal)
        return state, legal[:n]

    def step(self, rules: SentientRules, state: np.ndarray, action: int, log: np.ndarray,
             out: np.ndarray | None = None) -> np.ndarray:
        legal = np.empty(N_ACTIONS, dtype=np.int64) if out is None else out
        n = py_step(state, int(action), rules.cards, rules.inv, rules.opts, log, legal)
        return legal[:n]

    def current_player(self, state: np.ndarray) -> int:
        rec = state[0]
        return int(rec["order"][rec["turn"]])

    def is_over(self, state: np.ndarray) -> bool:
        return bool(state[0]["over"])

    def new_log(self, capacity: int) -> np.ndarray:
        return new_log(capacity)

    # ---- results
    def result_arrays(self, rules: SentientRules, state: np.ndarray, record: tuple[str, ...] = ()) -> dict:
        cols = self.batch_columns(rules)
        n = rules.n_players
        out = {
            "games": np.zeros((1, len(cols["games"])), dtype=np.int32),
            "seats": np.zeros((n, len(cols["seats"])), dtype=np.int32),
        }
        batch_mod.write_results(state[0], 0, out["games"], out["seats"])
        if "takes" in record:
            out["takes"] = np.zeros((n * batch_mod.TAKES_PER_SEAT, len(cols["takes"])), dtype=np.int32)
            batch_mod.write_takes(state[0], 0, rules.cards, out["takes"])
        return out

    def event_tables(self) -> dict[str, str]:
        return {"takes": "one row per card bought: seat, round, turn, card, type, column, slot, blocks, "
                         "influence assistants, points it scored"}

    def categorical_columns(self) -> dict[str, dict[str, list[str]]]:
        return {"seats": {"start_investor": list(TYPES)}, "takes": {"type": list(TYPES)}}

    # ---- players
    def builtin_players(self) -> dict[str, BuiltinPlayer]:
        return BUILTIN_PLAYERS

    def compiled_action(self, rules: SentientRules, state: np.ndarray, kind: int, params: np.ndarray,
                        legal: np.ndarray) -> int:
        scratch = np.empty(SCRATCH)
        return int(choose_action(kind, params, state, legal, len(legal), rules.cards, rules.inv, rules.opts, scratch))

    def observation(self, rules: SentientRules, state: np.ndarray, legal: list[int]) -> SentientObservation:
        return SentientObservation(self, rules, state, legal)

    def play_batch(self, rules: SentientRules, seeds: np.ndarray, kinds: np.ndarray, params: np.ndarray,
                   lineup: np.ndarray, record: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
        unknown = set(record) - set(self.event_tables())
        if unknown:
            raise SimlabError(f"sentient records no event table '{sorted(unknown)[0]}' (tables: takes)")
        cols = self.batch_columns(rules)
        n = len(seeds)
        out = {
            "games": np.zeros((n, len(cols["games"])), dtype=np.int32),
            "seats": np.zeros((n * rules.n_players, len(cols["seats"])), dtype=np.int32),
        }
        n_takes = n * rules.n_players * batch_mod.TAKES_PER_SEAT if "takes" in record else 0
        takes = np.zeros((n_takes, len(cols["takes"])), dtype=np.int32)
        batch_mod.play_games(
            np.ascontiguousarray(seeds, dtype=np.uint64),
            rules.n_players,
            np.ascontiguousarray(kinds, dtype=np.int64),
            np.ascontiguousarray(params, dtype=np.float64),
            np.ascontiguousarray(lineup, dtype=np.int64),
            rules.cards,
            rules.inv,
            rules.opts,
            out["games"],
            out["seats"],
            takes,
        )
        if "takes" in record:
            out["takes"] = takes
        return out

    def batch_columns(self, rules: SentientRules) -> dict[str, list[str]]:
        return {"games": batch_mod.GAME_COLUMNS, "seats": batch_mod.SEAT_COLUMNS, "takes": batch_mod.TAKE_COLUMNS}

    # ---- text
    def describe_action(self, rules: SentientRules, state: np.ndarray, action: int) -> str:
        return render.describe_action(rules, state[0], action)

    def render(self, rules: SentientRules, state: np.ndarray, seat: int | None = None) -> str:
        return render.render_state(rules, state[0], seat)

    def trace_events(self, rules: SentientRules, log: np.ndarray) -> list[dict[str, Any]]:
        return render.log_to_events(rules, log)

    def start_event(self, rules: SentientRules, state: np.ndarray, players: list[str], game_index: int) -> dict:
        return render.start_event(rules, state[0], players, game_index)

    def final_event(self, rules: SentientRules, state: np.ndarray) -> dict[str, Any]:
        return render.final_event(rules, state[0])

    def describe_turn(self, rules: SentientRules, state: np.ndarray) -> str:
        rec = state[0]
        return f"round {int(rec['round'])}, turn {int(rec['n_turns']) + 1}"

    def log_lines(self, events: list[dict[str, Any]]) -> list[str]:
        return render.log_lines(events)


assert N_ROUNDS == 3 and len(TYPES) == 5 and STREAM_SEAT0 == 4
