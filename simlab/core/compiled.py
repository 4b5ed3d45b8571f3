"""The compiled-game base: the :class:`~simlab.core.game.Game` methods every kernel-based game shares.

A compiled game keeps its rules in numba kernels over a state record (a one-element numpy
structured array). It declares its kernels once, in a :class:`Kernels` bundle, and
:class:`CompiledGame` turns the bundle into the methods the driver, the batch runner, the
CLI and the reports call. What is left to the game itself is its own: how a ruleset is
built from data and options (:meth:`CompiledGame.build_rules`), what a seat may not see
(:meth:`CompiledGame.hide`), where the game stands in words (``describe_turn``) and, when
it has them, extra observation helpers (a :class:`Observation` subclass).

The calling conventions of the kernels (``*args`` are the rules' kernel arguments, named by
``Kernels.rule_args`` and read from the ruleset object in that order):

* ``setup(state, seed, n_players, *args, log, legal) -> n``: set up ``state[0]`` from the
  64-bit game seed, write the first legal actions to ``legal``, return how many;
* ``step(state, action, *args, log, legal) -> n``: apply ``action``, write the next legal
  actions, return how many (0 once the game is over);
* ``choose(kind, params, state, legal, n_legal, *args) -> action``: a built-in player's
  action (``legal`` has room for ``max_actions``);
* ``batch(seeds, n_players, kinds, params, lineup, *args, out_games, out_seats, *events)``:
  the compiled batch loop (``lineup[i]`` picks the row of ``kinds``/``params`` of game i);
  one int32 array per declared event table follows the seat rows, with no rows when the
  table is not recorded;
* ``results(state, *args, out_games, out_seats, *events)``: a finished game's rows into row
  0 of each array (event tables as in ``batch``).

The state record has an ``over`` flag and, unless the game overrides ``current_player``,
an ``actor`` field holding the seat to act. The renderer module (``CompiledGame.renderer``)
provides ``describe_action(rules, rec, action)``, ``render_state(rules, rec, seat)``,
``log_to_events(rules, log)``, ``start_event(rules, rec, players, game_index)``,
``final_event(rules, rec)``, ``log_lines(events)`` and ``action_menu(rules, rec, legal)``
(``rec`` is the state record ``state[0]``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from simlab.core import kernels as core_kernels
from simlab.core.errors import SimlabError
from simlab.core.game import BuiltinPlayer, Game
from simlab.core.options import resolve_options


@dataclass(frozen=True)
class EventTable:
    """An event table the batch loop can record: rows per seat and per game, and its columns."""

    name: str
    description: str
    columns: Sequence[str]
    rows_per_seat: int


@dataclass(frozen=True)
class Kernels:
    """A compiled game's kernel bundle (see the module docstring for the calling conventions)."""

    state_dtype: np.dtype
    max_actions: int  # size of a legal-action buffer
    log_width: int  # columns of an event-log row
    rule_args: tuple[str, ...]  # ruleset attributes passed to every kernel, in order
    setup: Callable[..., int]
    step: Callable[..., int]
    choose: Callable[..., int]
    batch: Callable[..., None]
    results: Callable[..., None]
    game_columns: Sequence[str]
    seat_columns: Sequence[str]
    events: tuple[EventTable, ...] = ()
    # The shared ISMCTS with profiling (see simlab.core.search): ``search_profile(params, s_arr, legal,
    # n_legal, *args, stats) -> action`` plays the search player ``search_player`` and adds its
    # counters to ``stats``; ``simlab bench`` reads them. None for a game without the search.
    search_profile: Callable[..., int] | None = None
    search_player: str = "ismcts"


class Observation:
    """What a Python player sees on its turn: the position from its seat's view.

    Attributes: ``seat`` (the seat to act, this player's), ``legal`` (action codes),
    ``rules`` (the ruleset), ``state`` (a copy of the state record with what the seat may not
    know removed by the game's ``hide``: the information a search player may determinise
    from, e.g. a deck's order, other seats' secret choices, the random streams' keys).
    Helpers: ``describe(a)``, ``render()``, ``menu()``. Games add their own helpers in a
    subclass (``CompiledGame.observation_class``); a helper reads ``self._state`` (the true
    state, for the game's own kernels) only for what the seat may know.

    An observation reads the live game: it is valid during the ``choose`` call it is given to.
    """

    def __init__(self, game: CompiledGame, rules: Any, state: np.ndarray, legal: list[int]) -> None:
        self._game = game
        self.rules = rules
        self._state = state
        self.legal = legal

    @property
    def seat(self) -> int:
        """The seat to act (this player's)."""
        return self._game.current_player(self._state)

    @property
    def state(self) -> np.void:
        """A copy of the state record as this seat may see it (the game's ``hide``)."""
        return self._game.hide(self._state, self.seat)[0]

    def describe(self, action: int) -> str:
        """A one-line description of an action."""
        return self._game.describe_action(self.rules, self._state, action)

    def render(self) -> str:
        """The position as text, from this seat's view."""
        return self._game.render(self.rules, self._state, self.seat)

    def menu(self) -> list[tuple[str, Any]]:
        """The legal actions as ``(label, choice)`` entries; a choice is an action code or a further menu."""
        return self._game.renderer.action_menu(self.rules, self._state[0], self.legal)


class CompiledGame(Game):
    """A game whose rules are numba kernels: the :class:`Game` contract built from a :class:`Kernels` bundle.

    A subclass sets ``kernels``, ``renderer`` (its render module), ``players`` (its
    built-in players), ``observation_class`` when it adds observation helpers, and writes
    :meth:`load_default_data`, :meth:`build_rules`, :meth:`hide` and :meth:`describe_turn`.
    The ruleset object :meth:`build_rules` returns has ``n_players`` and the attributes named
    in ``kernels.rule_args``.
    """

    kernels: ClassVar[Kernels]
    renderer: ClassVar[ModuleType]
    players: ClassVar[dict[str, BuiltinPlayer]] = {}
    observation_class: ClassVar[type[Observation]] = Observation

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bundle = cls.__dict__.get("kernels")
        if bundle is not None:
            cls.max_actions = bundle.max_actions

    # ---- game hooks
    @abstractmethod
    def build_rules(self, n_players: int, data: Any, options: dict[str, Any]) -> Any:
        """The ruleset for ``n_players`` from loaded data and resolved option values."""

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy of the state array with what ``seat`` may not know removed (default: nothing hidden)."""
        return state.copy()

    def kernel_args(self, rules: Any) -> tuple[Any, ...]:
        """The ruleset's arrays every kernel takes, in ``kernels.rule_args`` order (kept on the ruleset after
        the first call: the driver asks for them twice a decision)."""
        try:
            return rules._kernel_args
        except AttributeError:
            args = tuple(getattr(rules, name) for name in self.kernels.rule_args)
            if hasattr(rules, "__dict__"):
                rules.__dict__["_kernel_args"] = args
            return args

    # ---- content and rules
    def option_table(self) -> dict[str, Any]:
        """The game's rule options, from its bundled data."""
        return self.default_data().options

    def ruleset(self, n_players: int, options: dict[str, Any] | None = None, data: Any = None) -> Any:
        """Check the player count, resolve the options against the data's, and build the ruleset."""
        data = data or self.default_data()
        if not self.min_players <= n_players <= self.max_players:
            raise SimlabError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {n_players}")
        return self.build_rules(n_players, data, resolve_options(data.options, options))

    # ---- one game, step by step
    def new_game(self, rules: Any, seed: int, log: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Set up a game from its 64-bit game seed; returns (state array, legal actions)."""
        k = self.kernels
        state = np.zeros(1, dtype=k.state_dtype)
        legal = np.empty(k.max_actions, dtype=np.int64)
        n = k.setup(state, np.uint64(seed), rules.n_players, *self.kernel_args(rules), log, legal)
        return state, legal[:n]

    def step(self, rules: Any, state: np.ndarray, action: int, log: np.ndarray,
             out: np.ndarray | None = None) -> np.ndarray:
        """Apply ``action`` for the current player; returns the next legal actions (empty at the end)."""
        legal = np.empty(self.kernels.max_actions, dtype=np.int64) if out is None else out
        n = self.kernels.step(state, int(action), *self.kernel_args(rules), log, legal)
        return legal[:n]

    def current_player(self, state: np.ndarray) -> int:
        """The seat to act (the state's ``actor`` field)."""
        return int(state[0]["actor"])

    def is_over(self, state: np.ndarray) -> bool:
        """Whether the game has ended (the state's ``over`` flag)."""
        return bool(state[0]["over"])

    def new_log(self, capacity: int) -> np.ndarray:
        """An event log for ``capacity`` events (0 records nothing)."""
        return core_kernels.new_log(capacity, self.kernels.log_width)

    # ---- results
    def _result_buffers(self, rules: Any, n_games: int, record: Sequence[str]) -> tuple[dict, list[np.ndarray]]:
        """Zeroed result arrays for ``n_games`` games: games, seats, and every event table (empty unless recorded)."""
        k = self.kernels
        n = rules.n_players
        out = {
            "games": np.zeros((n_games, len(k.game_columns)), dtype=np.int32),
            "seats": np.zeros((n_games * n, len(k.seat_columns)), dtype=np.int32),
        }
        events = [np.zeros((n_games * n * t.rows_per_seat if t.name in record else 0, len(t.columns)),
                           dtype=np.int32) for t in k.events]
        return out, events

    def _with_events(self, out: dict[str, np.ndarray], events: list[np.ndarray],
                     record: Sequence[str]) -> dict[str, np.ndarray]:
        for table, arr in zip(self.kernels.events, events, strict=True):
            if table.name in record:
                out[table.name] = arr
        return out

    def result_arrays(self, rules: Any, state: np.ndarray, record: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
        """A finished game's rows, laid out as the batch loop lays them out."""
        out, events = self._result_buffers(rules, 1, record)
        self.kernels.results(state, *self.kernel_args(rules), out["games"], out["seats"], *events)
        return self._with_events(out, events, record)

    def event_tables(self) -> dict[str, str]:
        """Event tables the game can record, with a one-line description each."""
        return {t.name: t.description for t in self.kernels.events}

    def play_batch(self, rules: Any, seeds: np.ndarray, kinds: np.ndarray, params: np.ndarray,
                   lineup: np.ndarray, record: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
        """Compiled batch loop over these seeds (see :meth:`Game.play_batch`)."""
        unknown = set(record) - set(self.event_tables())
        if unknown:
            tables = ", ".join(self.event_tables()) or "none"
            raise SimlabError(f"{self.name} records no event table '{sorted(unknown)[0]}' (tables: {tables})")
        out, events = self._result_buffers(rules, len(seeds), record)
        self.kernels.batch(
            np.ascontiguousarray(seeds, dtype=np.uint64),
            rules.n_players,
            np.ascontiguousarray(kinds, dtype=np.int64),
            np.ascontiguousarray(params, dtype=np.float64),
            np.ascontiguousarray(lineup, dtype=np.int64),
            *self.kernel_args(rules),
            out["games"],
            out["seats"],
            *events,
        )
        return self._with_events(out, events, record)

    def batch_columns(self, rules: Any) -> dict[str, list[str]]:
        """Column names of every array ``play_batch`` can return, by table name."""
        k = self.kernels
        cols = {"games": list(k.game_columns), "seats": list(k.seat_columns)}
        cols.update({t.name: list(t.columns) for t in k.events})
        return cols

    # ---- players
    def builtin_players(self) -> dict[str, BuiltinPlayer]:
        """The built-in compiled players by name."""
        return self.players

    def compiled_action(self, rules: Any, state: np.ndarray, kind: int, params: np.ndarray, legal: np.ndarray) -> int:
        """The action a built-in compiled player picks in this position.

        The choose kernel may use its legal-action array as room up to ``max_actions``: a
        ``legal`` that is the prefix ``out[:n]`` of such an array (what ``step`` returns) hands the
        kernel ``out`` itself, so the caller must not read ``legal`` afterwards; any other is copied.
        """
        k = self.kernels
        n = len(legal)
        room = legal.base  # step's ``out`` buffer, whose prefix ``legal`` is (``out[:n]``)
        if room is None or room.shape != (k.max_actions,):
            room = np.empty(k.max_actions, dtype=np.int64)
            room[:n] = legal
        # ``params`` is the float64 vector resolve_player made; numba refuses anything else
        return int(k.choose(kind, params, state, room, n, *self.kernel_args(rules)))

    def observation(self, rules: Any, state: np.ndarray, legal: list[int]) -> Observation:
        """What a Python player sees: the position from the current seat's view."""
        return self.observation_class(self, rules, state, legal)

    # ---- text
    def describe_action(self, rules: Any, state: np.ndarray, action: int) -> str:
        """A one-line human description of ``action`` in this position."""
        return self.renderer.describe_action(rules, state[0], action)

    def render(self, rules: Any, state: np.ndarray, seat: int | None = None) -> str:
        """The position as text (from ``seat``'s view when given)."""
        return self.renderer.render_state(rules, state[0], seat)

    def trace_events(self, rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
        """The event log as trace dicts (each with an ``"event"`` key)."""
        return self.renderer.log_to_events(rules, log)

    def start_event(self, rules: Any, state: np.ndarray, players: list[str], game_index: int) -> dict[str, Any]:
        """The trace's ``game_start`` event."""
        return self.renderer.start_event(rules, state[0], players, game_index)

    def final_event(self, rules: Any, state: np.ndarray) -> dict[str, Any]:
        """The trace's ``final`` event of a finished game."""
        return self.renderer.final_event(rules, state[0])

    def log_lines(self, events: list[dict[str, Any]]) -> list[str]:
        """The readable game log for these trace events."""
        return self.renderer.log_lines(events)
