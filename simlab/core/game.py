"""The contract every game implements, and the registry of games.

A game is a :class:`Game` subclass registered under its short name. Its rules live in
compiled kernels over a state record (one-element numpy structured array); this class is
the thin Python face the driver, the batch runner, the CLI and the renderers use.

Games register themselves: the built-in ones are the subpackages of ``simlab.games``, others
come from the ``simlab.games`` entry-point group (see :func:`discover_games`); this module
never imports a game. Kernel-based games build on :class:`simlab.core.compiled.CompiledGame`.

A *ruleset* is what a set of games shares: the loaded data, the resolved options and the
arrays the kernels read. It is built once by :meth:`Game.ruleset` and passed to every call.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import warnings
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from simlab.core.errors import SimlabError

if TYPE_CHECKING:
    from simlab.core.datavariants import Ablation, DataFiles


@dataclass(frozen=True)
class BuiltinPlayer:
    """A built-in compiled player: kind number, parameters with defaults, description."""

    name: str
    kind: int
    params: dict[str, float]
    description: str
    param_help: dict[str, str] = field(default_factory=dict)
    slow: bool = False  # a search player: ``simlab ladder`` and ``simlab bench`` give its pairs fewer games


@dataclass(frozen=True)
class RetiredPlayer:
    """A built-in player a game no longer has: what to use instead and why, for the error a spec naming it gets."""

    replacement: str  # the built-in player to use instead
    reason: str  # why, in a few words (with where it was measured), e.g. "as strong at equal time per decision"
    since: str = ""  # where it was retired: an issue, a version


class Game(ABC):
    """One game's rules and everything the toolkit needs to play, log and store it."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    max_actions: int = 1  # size of a legal-action buffer
    summary: str = ""
    # What the shared layers need from a game, declared by the game (none of them names a game):
    bench_mixes: tuple[tuple[str, ...], ...] = ()  # line-ups ``simlab bench`` times, headline first
    ladder_players: tuple[str, ...] = ()  # ``simlab ladder``'s default players, weakest first
    report_notebook: str | None = None  # the notebook ``simlab report`` executes on the game's runs
    bool_columns: frozenset[str] = frozenset()  # integer result columns stored as booleans
    trace_capacity: int = 4096  # event-log rows one recorded game may need (``play --trace``, ``replay``)
    position_columns: tuple[str, ...] | None = None  # seat columns naming what a seat is dealt (a start
    # position, a colour, a character): each value's fair win share is 1/n (None: the categorical columns)
    # Columns the game metrics read, by standard name: "first_player" (a boolean seat column: the
    # seat that moved first), "turns" (a games column: the game's length), "round_vp" (seat
    # columns of VP scored per round, in order). A game declares those it has.
    standard_columns: dict[str, Any] = {}  # noqa: RUF012 - a class-level declaration, never mutated
    automa_option: str | None = None  # the rule option ``--automa LEVEL`` sets (games with a solo Automa)
    # Built-in players the game no longer has (name -> RetiredPlayer): a spec naming one is refused with
    # the replacement and the reason, not only "unknown player".
    retired_players: dict[str, RetiredPlayer] = {}  # noqa: RUF012 - a class-level declaration, never mutated

    # ---- content and rules
    def load_default_data(self) -> Any:
        """Load the game's bundled data set (``default_data`` caches it)."""
        return None

    def default_data(self) -> Any:
        """The bundled data set, loaded once per game object."""
        cached = self.__dict__.get("_default_data")
        if cached is None:
            cached = self.__dict__["_default_data"] = self.load_default_data()
        return cached

    def data_files(self) -> DataFiles | None:
        """The game's data files, which specs may replace and edit (None: no data variants)."""
        return None

    def ablation(self) -> Ablation | None:
        """The components an ablation may remove or change, and how (None: the game has no ablation)."""
        return None

    def game_seed(self, experiment_seed: int, game_index: int) -> int:
        """The 64-bit seed of one game of an experiment."""
        from simlab.core.rng import game_seed

        return int(game_seed(experiment_seed, game_index))

    @abstractmethod
    def ruleset(self, n_players: int, options: dict[str, Any] | None = None, data: Any = None) -> Any:
        """Everything the kernels need for games of ``n_players`` with these options and data."""

    @abstractmethod
    def option_table(self) -> dict[str, Any]:
        """The game's rule options (name -> ``Option``)."""

    # ---- one game, step by step (the Python driver)
    @abstractmethod
    def new_game(self, rules: Any, seed: int, log: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Set up a game from its 64-bit game seed; returns (state array, legal actions)."""

    @abstractmethod
    def step(self, rules: Any, state: np.ndarray, action: int, log: np.ndarray,
             out: np.ndarray | None = None) -> np.ndarray:
        """Apply ``action`` for the current player; returns the next legal actions (empty at the end).

        ``out`` (int64, length ``max_actions``) is reused for the result when given.
        """

    @abstractmethod
    def current_player(self, state: np.ndarray) -> int:
        """The seat to act."""

    @abstractmethod
    def is_over(self, state: np.ndarray) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def new_log(self, capacity: int) -> np.ndarray:
        """An event log for ``capacity`` events (0 records nothing)."""

    # ---- results
    @abstractmethod
    def result_arrays(self, rules: Any, state: np.ndarray, record: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
        """A finished game's rows, laid out as the batch loop lays them out (see ``play_batch``)."""

    def event_tables(self) -> dict[str, str]:
        """Event tables the game can record, with a one-line description each."""
        return {}

    def categorical_columns(self, rules: Any = None) -> dict[str, dict[str, list[str]]]:
        """Integer-coded columns to store as names: table -> column -> names by code.

        With ``rules``, the names come from that ruleset's data (a variant may rename them).
        """
        return {}

    # ---- players
    @abstractmethod
    def builtin_players(self) -> dict[str, BuiltinPlayer]:
        """The built-in compiled players by name."""

    @abstractmethod
    def compiled_action(self, rules: Any, state: np.ndarray, kind: int, params: np.ndarray, legal: np.ndarray) -> int:
        """The action a built-in compiled player picks in this position."""

    @abstractmethod
    def observation(self, rules: Any, state: np.ndarray, legal: list[int]) -> Any:
        """What a Python player sees: the position from the current seat's view."""

    @abstractmethod
    def play_batch(
        self,
        rules: Any,
        seeds: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        lineup: np.ndarray,
        record: tuple[str, ...] = (),
    ) -> dict[str, np.ndarray]:
        """Compiled batch loop over these seeds; ``lineup[i]`` picks the row of kinds/params of game i.

        Returns int32 arrays: ``games`` (a row per game), ``seats`` (a row per game and seat,
        game-major) and one per recorded event table (rows grouped by game, each with a
        ``seat`` column first); column names come from :meth:`batch_columns`.
        """

    @abstractmethod
    def batch_columns(self, rules: Any) -> dict[str, list[str]]:
        """Column names of every array ``play_batch`` can return, by table name."""

    # ---- text
    @abstractmethod
    def describe_action(self, rules: Any, state: np.ndarray, action: int) -> str:
        """A one-line human description of ``action`` in this position."""

    @abstractmethod
    def render(self, rules: Any, state: np.ndarray, seat: int | None = None) -> str:
        """The position as text (from ``seat``'s view when given)."""

    def render_svg(self, rules: Any, state: np.ndarray, seat: int | None = None) -> str:
        """The position drawn as one self-contained ``<svg>`` element (from ``seat``'s view when given; the caller
        passes ``hide(state, seat)`` then, so what the seat may not know is already gone).

        The replay page (``simlab replay --html``, ``simlab view``) shows it at every step. A built-in game
        draws its board (``simlab/games/<game>/svg.py``); the default is the text rendering set as SVG."""
        from simlab.core.svg import text_board

        return text_board(self.render(rules, state, seat), f"{self.name}: the position")

    @abstractmethod
    def trace_events(self, rules: Any, log: np.ndarray) -> list[dict[str, Any]]:
        """The event log as trace dicts (each with an ``"event"`` key)."""

    @abstractmethod
    def start_event(self, rules: Any, state: np.ndarray, players: list[str], game_index: int) -> dict[str, Any]:
        """The trace's ``game_start`` event (the state may be from any point of the game)."""

    @abstractmethod
    def final_event(self, rules: Any, state: np.ndarray) -> dict[str, Any]:
        """The trace's ``final`` event of a finished game."""

    @abstractmethod
    def describe_turn(self, rules: Any, state: np.ndarray) -> str:
        """Where the game stands, in a few words (used in error messages)."""

    @abstractmethod
    def log_lines(self, events: list[dict[str, Any]]) -> list[str]:
        """The readable game log for these trace events."""


_REGISTRY: dict[str, Game] = {}
_DISCOVERED = False
GAMES_PACKAGE = "simlab.games"  # built-in games: one subpackage each
ENTRY_POINT_GROUP = "simlab.games"  # other packages' games


def register(game: Game) -> Game:
    """Add a game to the registry under ``game.name`` (registering the same object again is a no-op).

    Raises SimlabError when another game already has the name.
    """
    known = _REGISTRY.get(game.name)
    if known is not None and known is not game:
        raise SimlabError(f"two games are called '{game.name}': {type(known).__module__}.{type(known).__name__} "
                          f"and {type(game).__module__}.{type(game).__name__}")
    _REGISTRY[game.name] = game
    return game


def get_game(name: str | Game) -> Game:
    """The registered game called ``name`` (a Game passes through)."""
    if isinstance(name, Game):
        return name
    if name not in _REGISTRY and not _DISCOVERED:
        _import_builtin(name)  # only the game asked for: the others' imports cost seconds (issue 24)
    if name not in _REGISTRY:
        discover_games()
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise SimlabError(f"unknown game '{name}' (known: {known})")
    return _REGISTRY[name]


def _import_builtin(name: str) -> None:
    """Import the built-in game package ``simlab.games.<name>`` (which registers its game), if there is one.

    A name that is no built-in package is left to :func:`discover_games`, and so is a package that
    registers another name: a game is found the same way, only without importing every other game."""
    if not name.isidentifier() or name.startswith("_"):
        return
    module = f"{GAMES_PACKAGE}.{name}"
    if importlib.util.find_spec(module) is not None:
        register_object(importlib.import_module(module), module)


def all_games() -> list[Game]:
    """Every registered game, by name."""
    discover_games()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def register_object(obj: Any, source: str) -> None:
    """Register what a game module or entry point provides.

    ``obj`` is a :class:`Game` instance, a ``Game`` subclass (instantiated without
    arguments), or a module, which either registered its game on import or has a ``GAME``
    attribute holding one. ``source`` names where it came from, for error messages.
    """
    if isinstance(obj, Game):
        register(obj)
    elif isinstance(obj, type) and issubclass(obj, Game):
        existing = [g for g in _REGISTRY.values() if type(g) is obj]
        if not existing:
            register(obj())
    elif isinstance(obj, ModuleType):
        game = getattr(obj, "GAME", None)
        if isinstance(game, Game):
            register(game)
    else:
        raise SimlabError(f"{source} is not a game: {obj!r} (expected a Game, a Game class or a module)")


def discover_games() -> None:
    """Register the built-in games (each subpackage of ``simlab.games``) and the entry-point group ``simlab.games``.

    Runs once; a built-in package registers itself on import or holds its game in ``GAME``.
    An entry point that fails to load is skipped with a warning, so one broken package
    does not take every command down.
    """
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    package = importlib.import_module(GAMES_PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.ispkg and not info.name.startswith("_"):
            name = f"{GAMES_PACKAGE}.{info.name}"
            register_object(importlib.import_module(name), name)
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        source = f"entry point '{ep.name}' ({ep.value}) of group {ENTRY_POINT_GROUP}"
        try:
            obj = ep.load()
        except Exception as exc:  # a third-party package's import error must not stop the others
            warnings.warn(f"{source} failed to load: {exc}", stacklevel=2)
            continue
        register_object(obj, source)
