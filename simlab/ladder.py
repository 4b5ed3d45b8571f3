"""Head-to-head matches in duplicate format: every seed is played with the seats swapped.

For players A and B and n seeds, game i is played as (A, B) and as (B, A) with the same
seed, so both see the same deck and dice (common random numbers). A's score for seed i is
the mean of its two win shares; the interval is the normal interval over those paired
scores, which is what makes it tighter than two independent win rates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.intervals import Z95, wilson_interval
from simlab.play import play_batch


@dataclass
class MatchResult:
    """A's paired win rate against B with its 95% interval."""

    a: str
    b: str
    games: int
    win_rate: float
    lo: float
    hi: float
    score_diff: float


def paired_scores(game: Any, a: Any, b: Any, games: int, seed: int = 0, first_game: int = 0,
                  progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Play seeds ``first_game .. first_game + games - 1`` twice (A first, then B first).

    Returns, per seed in order, A's paired win share (the mean of its two) and A's score minus B's
    (the mean over both seatings). A game's seed depends on its number only, so contiguous ranges
    played apart give the same arrays as one call over the whole range."""
    first = play_batch(game, [a, b], games, seed, first_game=first_game, progress=progress).seats
    second = play_batch(game, [b, a], games, seed, first_game=first_game,
                        progress=None if progress is None else (lambda n: progress(games + n))).seats
    a1 = first.filter(pl.col("seat") == 0).sort("game")
    a2 = second.filter(pl.col("seat") == 1).sort("game")
    b1 = first.filter(pl.col("seat") == 1).sort("game")
    b2 = second.filter(pl.col("seat") == 0).sort("game")
    paired = (a1["win_share"].to_numpy() + a2["win_share"].to_numpy()) / 2
    diff = (a1["score"].to_numpy() - b1["score"].to_numpy() + a2["score"].to_numpy() - b2["score"].to_numpy()) / 2
    return paired, diff


def match_result(a: str, b: str, paired: np.ndarray, diff: np.ndarray) -> MatchResult:
    """A's paired win rate over the seeds' ``paired`` shares, with the normal interval over seeds
    (the Wilson interval over the games when every seed scored the same)."""
    seeds = len(paired)
    mean = float(paired.mean())
    sd = float(paired.std(ddof=1)) if seeds > 1 else 0.0
    if sd > 0:
        half = Z95 * sd / np.sqrt(seeds)
        lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    else:  # every pair scored the same: fall back to the Wilson interval over the games
        w_lo, w_hi = wilson_interval(np.array([mean * 2 * seeds]), np.array([2 * seeds]))
        lo, hi = float(w_lo[0]), float(w_hi[0])
    return MatchResult(a, b, 2 * seeds, mean, lo, hi, float(diff.mean()))


def head_to_head(game: Any, a: Any, b: Any, games: int, seed: int = 0,
                 progress: Callable[[int], None] | None = None) -> MatchResult:
    """Play ``games`` seeds twice (A first, then B first) and return A's paired win rate.

    ``a`` and ``b`` are player specs (or resolved players); ``progress(n)`` gets the games played
    so far (of ``2 * games``)."""
    paired, diff = paired_scores(game, a, b, games, seed, progress=progress)
    return match_result(getattr(a, "label", a), getattr(b, "label", b), paired, diff)
