"""The plan: game index -> deal (seed) -> line-up and rotation, and the shards.

Every (line-up, rotation) pair is a *table*. Games run deal by deal: game ``g`` is table
``g % T`` of deal ``g // T`` (``T`` tables in all), and every table of a deal plays the same
seed, so rotations of a line-up (and line-ups of different sizes) see the same deck and dice:
the duplicate format, which gives common random numbers. Shards are ranges of game indices.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

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
        lo = int(deals.min())
        table = game_seeds(self.spec.seed, lo, int(deals.max()) - lo + 1)
        return table[deals - lo]

    def shards(self) -> list[tuple[int, int]]:
        """Game ranges [lo, hi) of every shard."""
        size = self.spec.shard_size
        return [(lo, min(lo + size, self.total_games)) for lo in range(0, self.total_games, size)]

    def checkpoints(self) -> list[int]:
        """Game counts at which a stopping rule is checked (multiples of whole deals)."""
        return [*range(self.check_every, self.total_games, self.check_every), self.total_games]
