"""The plan: game index -> deal (seed) -> line-up and rotation, and the shards.

Every (line-up, rotation) pair is a *table*. Games run deal by deal: game ``g`` is table
``g % T`` of deal ``g // T`` (``T`` tables in all), and every table of a deal plays the same
seed, so rotations of a line-up (and line-ups of different sizes) see the same deck and dice:
the duplicate format, which gives common random numbers. Shards are ranges of game indices.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from simlab.core.errors import SimlabError
from simlab.core.rng import game_seeds
from simlab.runner.spec import ExperimentSpec


@dataclass(frozen=True)
class Table:
    """One seating: the player spec of each seat, from line-up ``lineup`` rotated by ``rotation``."""

    index: int
    n_players: int
    seats: tuple[str, ...]
    lineup: int
    rotation: int


def lineups(spec: ExperimentSpec) -> list[tuple[str, ...]]:
    """The line-ups the spec asks for, in a fixed order."""
    if spec.seats is not None:
        return [tuple(spec.seats)]
    assert spec.pool is not None
    out: list[tuple[str, ...]] = []
    for n in spec.n_players:
        if spec.match == "self":  # each player against copies of itself
            out.extend((player,) * n for player in spec.pool)
            continue
        if spec.repeat:
            combos = [c for c in itertools.combinations_with_replacement(spec.pool, n) if len(set(c)) > 1]
        else:
            combos = list(itertools.combinations(spec.pool, n))
        if spec.match == "focus":
            combos = [c for c in combos if spec.focus in c]
        out.extend(combos)
    return out


def seatings(lineup: tuple[str, ...], rotation: str) -> list[tuple[str, ...]]:
    """Distinct seatings of a line-up under the rotation scheme (duplicates dropped)."""
    n = len(lineup)
    if rotation == "none":
        perms = [tuple(range(n))]
    elif rotation == "cyclic":
        perms = [tuple((s + r) % n for s in range(n)) for r in range(n)]
    else:
        perms = list(itertools.permutations(range(n)))
    seen: set[tuple[str, ...]] = set()
    out = []
    for perm in perms:
        seating = tuple(lineup[i] for i in perm)
        if seating not in seen:
            seen.add(seating)
            out.append(seating)
    return out


class Shards(Sequence[tuple[int, int]]):
    """The game ranges ``[lo, hi)`` of a plan's shards, computed on demand (like ``range``):
    ``len``, indexing, slicing and iteration, without a list of every shard."""

    def __init__(self, total_games: int, shard_size: int) -> None:
        self.total_games = total_games
        self.shard_size = shard_size

    def __len__(self) -> int:
        return -(-self.total_games // self.shard_size)

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"shard {i} out of range (0..{n - 1})")
        lo = i * self.shard_size
        return lo, min(lo + self.shard_size, self.total_games)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for lo in range(0, self.total_games, self.shard_size):
            yield lo, min(lo + self.shard_size, self.total_games)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Shards):
            return (self.total_games, self.shard_size) == (other.total_games, other.shard_size)
        if isinstance(other, list | tuple):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.total_games, self.shard_size))

    def __repr__(self) -> str:
        return f"Shards(total_games={self.total_games}, shard_size={self.shard_size})"


MAX_GAME_INDEX = 2**62  # game indices are int64 in every table; far above any spec's limit


class Plan:
    """The deterministic map from game index to seed and seating, and the shard ranges."""

    def __init__(self, spec: ExperimentSpec) -> None:
        self.spec = spec
        tables: list[Table] = []
        for li, lineup in enumerate(lineups(spec)):
            for ri, seating in enumerate(seatings(lineup, spec.rotation)):
                tables.append(Table(len(tables), len(seating), seating, li, ri))
        self.tables = tables
        self.n_tables = len(tables)
        self.deals = math.ceil(spec.games / self.n_tables)
        self.total_games = self.deals * self.n_tables
        if self.total_games >= MAX_GAME_INDEX:
            raise SimlabError(f"{spec.source}: games: {spec.games:,} games is too many (game indices are 64-bit)")
        check = spec.stop.check_every if spec.stop else self.total_games
        self.check_every = math.ceil(check / self.n_tables) * self.n_tables

    def deal_of(self, games: np.ndarray) -> np.ndarray:
        """Deal (seed index) of each game index."""
        return games // self.n_tables

    def table_of(self, games: np.ndarray) -> np.ndarray:
        """Table of each game index."""
        return games % self.n_tables

    def seeds(self, games: np.ndarray) -> np.ndarray:
        """The 64-bit seed of each game index."""
        deals = self.deal_of(games)
        if len(deals) == 0:
            return np.zeros(0, dtype=np.uint64)
        lo, hi = int(deals.min()), int(deals.max())
        if hi - lo < 4 * len(deals) + 1024:  # a shard: one contiguous range of deals
            return game_seeds(self.spec.seed, lo, hi - lo + 1)[deals - lo]
        unique, inverse = np.unique(deals, return_inverse=True)  # scattered games: seed each deal alone
        seeds = np.array([game_seeds(self.spec.seed, int(d), 1)[0] for d in unique], dtype=np.uint64)
        return seeds[inverse.reshape(deals.shape)]

    def shards(self) -> Shards:
        """Game ranges [lo, hi) of every shard: a lazy sequence (no list of every shard is built)."""
        return Shards(self.total_games, self.spec.shard_size)

    def checkpoints(self) -> Sequence[int]:
        """Game counts at which a stopping rule is checked (multiples of whole deals), a lazy sequence."""
        return _Checkpoints(self.check_every, self.total_games)


class _Checkpoints(Sequence[int]):
    """``check_every, 2 * check_every, ...`` below ``total``, then ``total``, computed on demand."""

    def __init__(self, every: int, total: int) -> None:
        self.every, self.total = every, total

    def __len__(self) -> int:
        return len(range(self.every, self.total, self.every)) + 1

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"checkpoint {i} out of range")
        return self.total if i == n - 1 else self.every * (i + 1)

    def __iter__(self) -> Iterator[int]:
        yield from range(self.every, self.total, self.every)
        yield self.total

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
