"""Head-to-head matches in duplicate format: every seed is played with the seats swapped.

For players A and B and n seeds, game i is played as (A, B) and as (B, A) with the same
seed, so both see the same deck and dice (common random numbers). A's score for seed i is
the mean of its two win shares; the interval is the normal interval over those paired
scores, which is what makes it tighter than two independent win rates.
"""

from __future__ import annotations

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


def head_to_head(game: Any, a: str, b: str, games: int, seed: int = 0) -> MatchResult:
    """Play ``games`` seeds twice (A first, then B first) and return A's paired win rate."""
    first = play_batch(game, [a, b], games, seed).seats
    second = play_batch(game, [b, a], games, seed).seats
    a1 = first.filter(pl.col("seat") == 0).sort("game")
    a2 = second.filter(pl.col("seat") == 1).sort("game")
    b1 = first.filter(pl.col("seat") == 1).sort("game")
    b2 = second.filter(pl.col("seat") == 0).sort("game")
    paired = (a1["win_share"].to_numpy() + a2["win_share"].to_numpy()) / 2
    diff = (a1["score"].to_numpy() - b1["score"].to_numpy() + a2["score"].to_numpy() - b2["score"].to_numpy()) / 2
    mean = float(paired.mean())
    sd = float(paired.std(ddof=1)) if len(paired) > 1 else 0.0
    if sd > 0:
        half = Z95 * sd / np.sqrt(len(paired))
        lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    else:  # every pair scored the same: fall back to the Wilson interval over the games
        w_lo, w_hi = wilson_interval(np.array([mean * 2 * games]), np.array([2 * games]))
        lo, hi = float(w_lo[0]), float(w_hi[0])
    return MatchResult(a, b, 2 * games, mean, lo, hi, float(diff.mean()))
