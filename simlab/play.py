"""``play_batch``: many seeded games in one call, returned as tidy polars tables with a summary.

Game ``i`` of a batch seeded ``seed`` has the 64-bit seed ``rng.game_seed(seed, i)``: the
same game comes out of the compiled loop, the Python driver, ``simlab play --seed`` (game 0)
and any worker or shard of an experiment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simlab.core.batch import play_games
from simlab.core.game import Game, get_game
from simlab.core.player import ResolvedPlayer, resolve_players
from simlab.core.rng import game_seeds
from simlab.core.schema import GameMeta, build_frames


@dataclass
class BatchResult:
    """Tables of a batch: ``games`` (one row per game) and ``seats`` (one per game and seat).

    ``rotated`` says whether every deal was played by every cyclic rotation of the line-up
    (``play_batch(..., rotate=True)``); the games table's ``deal`` column then names each game's deal.
    """

    games: pl.DataFrame
    seats: pl.DataFrame
    seconds: float
    compiled: bool
    events: dict[str, pl.DataFrame] = field(default_factory=dict)
    rotated: bool = False

    def summary(self, by: Sequence[str] = ("player", "seat")) -> pl.DataFrame:
        """Win rate (shared wins split), mean score and games per group (default: player label and seat).

        A rotated batch's intervals are clustered by deal (the rotations of a deal share its seed);
        otherwise games are independent and the intervals are plain Wilson intervals.
        """
        from simlab.analysis.summary import summary_table

        return summary_table(self.seats_with_deals() if self.rotated else self.seats, by)

    def seats_with_deals(self) -> pl.DataFrame:
        """The seats table with each game's ``deal``."""
        if "deal" in self.seats.columns:
            return self.seats
        return self.seats.join(self.games.select("game", "deal"), on="game", how="left")


def play_batch(
    game: str | Game,
    players: Sequence[str | ResolvedPlayer],
    games: int = 1000,
    seed: int = 0,
    *,
    options: dict[str, Any] | None = None,
    data: Any = None,
    first_game: int = 0,
    record: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    rotate: bool = False,
) -> BatchResult:
    """Play ``games`` games of ``game`` between ``players`` (one spec per seat).

    All-compiled line-ups run in the compiled batch loop; any Python player sends every game
    through the Python driver (same seeds, same games, slower). ``record`` names event
    tables to keep (Sentient: ``takes``). ``progress(n)`` is called with the number of
    games finished (the compiled loop then plays in chunks of ``PROGRESS_CHUNK`` games, so a
    progress bar moves; the games are the same).

    ``rotate`` plays every deal once per distinct cyclic rotation of the line-up, on the deal's
    seed, as an experiment spec's ``rotation = "cyclic"`` does: game ``g`` is seating ``g % T``
    of deal ``g // T`` (``T`` seatings), and ``games`` is rounded up to whole deals.
    """
    g = get_game(game)
    resolved = resolve_players(g, players)
    rules = g.ruleset(len(resolved), options, data)
    if rotate:
        from simlab.runner.plan import seatings

        tables, seen = [], set()
        for seating in seatings(tuple(range(len(resolved))), "cyclic"):  # the runner's rotations
            key = tuple(resolved[i].label for i in seating)
            if key not in seen:  # a line-up with a player twice repeats some seatings: drop them
                seen.add(key)
                tables.append([resolved[i] for i in seating])
    else:
        tables = [list(resolved)]
    n_tables = len(tables)
    if rotate:
        games = -(-games // n_tables) * n_tables
    indices = np.arange(first_game, first_game + games, dtype=np.int64)
    deals = indices // n_tables
    table_of_game = indices % n_tables
    first_deal = int(deals[0]) if games else 0
    seeds = game_seeds(seed, first_deal, int(deals[-1]) - first_deal + 1 if games else 0)[deals - first_deal]
    start = time.perf_counter()
    arrays = _play_chunked(g, rules, tables, seeds, table_of_game, tuple(record), progress, indices)
    seconds = time.perf_counter() - start
    meta = GameMeta(indices, deals, seeds, table_of_game, [[p.label for p in t] for t in tables],
                    [0] * n_tables, list(range(n_tables)), experiment_seed=seed)
    frames = build_frames(g, rules, len(resolved), arrays, meta)
    return BatchResult(frames["games"], frames["seats"], seconds, all(p.compiled for p in resolved),
                       {k: v for k, v in frames.items() if k not in ("games", "seats")}, rotated=rotate)


PROGRESS_CHUNK = 2_000  # games per compiled call when a progress bar is shown


def _play_chunked(g: Game, rules: Any, tables: Sequence[Sequence[ResolvedPlayer]], seeds: np.ndarray,
                  table_of_game: np.ndarray, record: tuple[str, ...],
                  progress: Callable[[int], None] | None, indices: np.ndarray) -> dict[str, np.ndarray]:
    """``play_games`` over ``seeds``, in chunks that report progress when the line-ups are all compiled."""
    n = len(seeds)
    compiled = all(p.compiled for t in tables for p in t)
    if progress is None or not compiled or n <= PROGRESS_CHUNK:
        return play_games(g, rules, tables, seeds, table_of_game, record, progress, indices)
    parts: list[dict[str, np.ndarray]] = []
    for lo in range(0, n, PROGRESS_CHUNK):
        hi = min(n, lo + PROGRESS_CHUNK)
        parts.append(play_games(g, rules, tables, seeds[lo:hi], table_of_game[lo:hi], record, None, indices[lo:hi]))
        progress(hi)
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}


# ---------------------------------------------------------------- first use: compiling the rules


def _dispatchers(game: Game, driver: bool) -> list[Any]:
    """The numba entry points a command will call: the batch loop, or the driver's kernels
    (``setup``, ``step``, ``choose``, ``results``) for line-ups with a Python player. A game that
    declares no ``kernels`` bundle has none we can inspect."""
    kernels = getattr(game, "kernels", None)
    names = ("setup", "step", "choose", "results") if driver else ("batch",)
    return [k for k in (getattr(kernels, n, None) for n in names) if hasattr(k, "_cache")]


def kernel_cached(dispatcher: Any) -> bool:
    """Whether calling this numba function loads machine code (compiled in this process, or in numba's
    on-disk cache for this source, this CPU and this numba) instead of compiling it."""
    if getattr(dispatcher, "overloads", None):
        return True  # compiled (or loaded) in this process already
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:
        return False  # cache=False: compiled in every process
    try:
        index = cache_file._load_index()  # {} when missing or stale (the source changed)
        if not index:
            return False
        wanted = cache._index_key(None, dispatcher.targetctx.codegen())[1:]
    except Exception:  # numba internals moved: say nothing rather than something wrong
        return True
    return any(tuple(key[1:]) == tuple(wanted) for key in index)


def needs_compiling(game: str | Game, driver: bool = False) -> bool:
    """True when the game's kernels for this path (batch loop, or ``driver``) are not in numba's cache:
    the first call compiles them, which takes about a minute."""
    return not all(kernel_cached(d) for d in _dispatchers(get_game(game), driver))


def compile_notice(game: str | Game) -> str:
    """The line shown before the rules compile: ``compiling the Sentient rules (first run, about a minute)``."""
    g = get_game(game)
    return f"compiling the {g.title or g.name} rules (first run, about a minute)"


def warm_up(game: str | Game, players: Sequence[str | ResolvedPlayer], *, options: dict[str, Any] | None = None,
            data: Any = None, record: Sequence[str] = (), announce: Callable[[str], None] | None = None) -> bool:
    """Compile (or load from numba's cache) the kernels a batch of ``players`` will call, so that no
    timing that follows counts compile time; says so first through ``announce`` when the cache is cold.

    One game with the batch's own options, data and recorded tables (the same argument types,
    so the same compiled code); a line-up with a Python player warms the driver's kernels with
    the game's first built-in player in every seat instead of playing the Python player.
    Returns whether compiling was announced.
    """
    g = get_game(game)
    resolved = resolve_players(g, players)
    driver = not all(p.compiled for p in resolved)
    cold = needs_compiling(g, driver)
    if cold and announce is not None:
        announce(compile_notice(g))
    rules = g.ruleset(len(resolved), options, data)
    seeds = game_seeds(0, 0, 1)
    if not driver:
        play_games(g, rules, resolved, seeds, np.zeros(1, dtype=np.int64), tuple(record))
        return cold
    names = list(g.builtin_players())
    builtin = "random" if "random" in names else next(iter(names), None)
    if builtin is not None:
        from simlab.core.driver import play_game

        stand_ins = resolve_players(g, [builtin] * len(resolved))
        play_game(g, rules, stand_ins, int(seeds[0]), record=tuple(record))
    return cold

