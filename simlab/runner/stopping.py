"""Stopping rules evaluated at checkpoints on the completed prefix of a run.

Each finished shard is reduced to per-segment sums (a segment is ``check_every`` games); a
checkpoint ``c`` is decided only once every game below ``c`` is in, so the stopping point
is the same whatever the number of workers, the backend or the shard size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.intervals import wilson_interval
from simlab.analysis.sequential import sprt
from simlab.runner.spec import StopRule


def segment_sums(rule: StopRule, seats: pl.DataFrame, check_every: int) -> dict[int, np.ndarray]:
    """Per segment: (n, sum, sum of squares) of the rule's statistic in these seat rows."""
    seg = (pl.col("game") // check_every).alias("segment")
    if rule.rule == "ci":
        rows = seats.filter(pl.col("player") == rule.player) if rule.player is not None else \
            seats.filter(pl.col("seat") == rule.seat)
        agg = rows.group_by(seg).agg(
            pl.len().alias("n"), pl.col("win_share").sum().alias("s"), (pl.col("win_share") ** 2).sum().alias("s2"))
    else:
        a = seats.filter(pl.col("player") == rule.player_a).select("game", pl.col("rank").alias("ra"))
        b = seats.filter(pl.col("player") == rule.player_b).select("game", pl.col("rank").alias("rb"))
        pairs = a.join(b, on="game").with_columns(
            pl.when(pl.col("ra") < pl.col("rb")).then(1.0).when(pl.col("ra") == pl.col("rb")).then(0.5)
            .otherwise(0.0).alias("x"))
        per_game = pairs.group_by("game").agg(pl.col("x").mean())
        agg = per_game.group_by(seg).agg(
            pl.len().alias("n"), pl.col("x").sum().alias("s"), (pl.col("x") ** 2).sum().alias("s2"))
    return {int(r["segment"]): np.array([r["n"], r["s"], r["s2"]], dtype=np.float64)
            for r in agg.iter_rows(named=True)}


@dataclass
class StopTracker:
    """Accumulates segment sums of one variant and decides at each checkpoint."""

    rule: StopRule
    check_every: int
    checkpoints: list[int]
    pending: dict[int, np.ndarray] = field(default_factory=dict)
    done_games: set[tuple[int, int]] = field(default_factory=set)
    next_checkpoint: int = 0
    totals: np.ndarray = field(default_factory=lambda: np.zeros(3))
    stop_at: int | None = None
    decision: dict[str, Any] = field(default_factory=dict)

    def add(self, lo: int, hi: int, sums: dict[int, np.ndarray]) -> None:
        """Add a finished shard (games lo..hi-1) by its segment sums (see :func:`segment_sums`)."""
        for k, v in sums.items():
            self.pending[k] = self.pending.get(k, np.zeros(3)) + v
        self.done_games.add((lo, hi))

    def _covered(self) -> int:
        """Games in the contiguous finished prefix."""
        end = 0
        for lo, hi in sorted(self.done_games):
            if lo > end:
                break
            end = max(end, hi)
        return end

    def evaluate(self) -> bool:
        """Decide every checkpoint the finished prefix reaches; True once the run should stop."""
        covered = self._covered()
        while self.stop_at is None and self.next_checkpoint < len(self.checkpoints):
            c = self.checkpoints[self.next_checkpoint]
            if c > covered:
                break
            first_seg = (self.checkpoints[self.next_checkpoint - 1] if self.next_checkpoint else 0) // self.check_every
            for k in range(first_seg, (c + self.check_every - 1) // self.check_every):
                self.totals += self.pending.pop(k, np.zeros(3))
            self.next_checkpoint += 1
            verdict = self._decide(c)
            if verdict is not None:
                self.stop_at = c
                self.decision = verdict
        return self.stop_at is not None

    def _decide(self, games: int) -> dict[str, Any] | None:
        n, s, s2 = self.totals
        last = games == self.checkpoints[-1]
        if self.rule.rule == "ci":
            lo, hi = wilson_interval(np.array([s]), np.array([n]))
            half = float(hi[0] - lo[0]) / 2
            info = {"rule": "ci", "games": games, "n": int(n), "rate": s / n if n else None,
                    "half_width": half, "target": self.rule.half_width}
            if n > 0 and half <= self.rule.half_width:
                return {**info, "decision": "target reached"}
            return {**info, "decision": "maximum games reached"} if last else None
        r = sprt(int(n), s, s2, self.rule.elo0, self.rule.elo1, self.rule.alpha, self.rule.beta)
        info = {"rule": "sprt", "games": games, "pairs": int(n), "score": r.mean, "llr": r.llr,
                "bounds": [r.lower, r.upper]}
        if r.decision != "continue":
            return {**info, "decision": r.decision}
        return {**info, "decision": "maximum games reached"} if last else None
