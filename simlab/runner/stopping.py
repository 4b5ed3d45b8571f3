"""Stopping rules evaluated at checkpoints on the completed prefix of a run.

Each finished shard is reduced to per-segment data (a segment is ``check_every`` games, a
whole number of deals); a checkpoint ``c`` is decided only once every game below ``c`` is
in, so the stopping point is the same whatever the number of workers, the backend or the
shard size.

The SPRT is paired by deal (fishtest's pentanomial model): every seating of a deal is
played on the deal's seed, so the games of a deal are not independent. A shard may end in
the middle of a deal, so it sends one row per game (its head-to-head score of A against B);
the tracker groups the games of the deals below each checkpoint (all whole) into one score
per deal, the mean over the deal's games, and the test counts deals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.intervals import wilson_interval
from simlab.analysis.sequential import sprt
from simlab.runner.spec import StopRule

_TABLE_SHIFT = 1 << 20  # table code = lineup * _TABLE_SHIFT + rotation


def segment_sums(rule: StopRule, seats: pl.DataFrame, check_every: int) -> dict[int, np.ndarray]:
    """Per segment of ``check_every`` games, what the tracker needs from these seat rows.

    - ``ci``: the array (n, sum, sum of squares) of the player's (or seat's) win shares;
    - ``sprt``: one row per game, ``(game, deal, table, x)``: ``x`` is A's head-to-head score
      against B (1 ahead, 1/2 level, 0 behind; the mean over their seat pairs; NaN when the
      game does not have both), ``deal`` comes from a ``deal`` column (-1 without one) and
      ``table`` codes the game's (lineup, rotation) (-1 without them), from which the tracker
      infers deals when the rows carry none.
    """
    seg = (pl.col("game") // check_every).alias("segment")
    if rule.rule == "ci":
        rows = seats.filter(pl.col("player") == rule.player) if rule.player is not None else \
            seats.filter(pl.col("seat") == rule.seat)
        agg = rows.group_by(seg).agg(
            pl.len().alias("n"), pl.col("win_share").sum().alias("s"), (pl.col("win_share") ** 2).sum().alias("s2"))
        return {int(r["segment"]): np.array([r["n"], r["s"], r["s2"]], dtype=np.float64)
                for r in agg.iter_rows(named=True)}
    player = pl.col("player").cast(pl.Utf8)
    a = seats.filter(player == rule.player_a).select("game", pl.col("rank").alias("ra"))
    b = seats.filter(player == rule.player_b).select("game", pl.col("rank").alias("rb"))
    x = a.join(b, on="game").with_columns(
        pl.when(pl.col("ra") < pl.col("rb")).then(1.0).when(pl.col("ra") == pl.col("rb")).then(0.5)
        .otherwise(0.0).alias("x")).group_by("game").agg(pl.col("x").mean())
    deal = pl.col("deal").cast(pl.Int64) if "deal" in seats.columns else pl.lit(-1, pl.Int64)
    table = (pl.col("lineup").cast(pl.Int64) * _TABLE_SHIFT + pl.col("rotation").cast(pl.Int64)
             if "lineup" in seats.columns and "rotation" in seats.columns else pl.lit(-1, pl.Int64))
    games = seats.group_by("game").agg(deal.first().alias("deal"), table.first().alias("table")).join(
        x, on="game", how="left").with_columns(seg).sort("game")
    out: dict[int, np.ndarray] = {}
    for (k,), part in games.group_by("segment"):
        out[int(k)] = part.select(pl.col("game").cast(pl.Float64), pl.col("deal").cast(pl.Float64),
                                  pl.col("table").cast(pl.Float64), pl.col("x").fill_null(np.nan)).to_numpy()
    return out


def _deal_scores(rows: np.ndarray, games_per_deal: int) -> np.ndarray:
    """One score per deal (mean of ``x`` over its games that have both players) from per-game rows."""
    game, deal, x = rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64), rows[:, 3]
    deal = np.where(deal >= 0, deal, game // games_per_deal)
    ok = ~np.isnan(x)
    if not ok.any():
        return np.zeros(0)
    _, inv = np.unique(deal[ok], return_inverse=True)
    return np.bincount(inv, weights=x[ok]) / np.bincount(inv)


@dataclass
class StopTracker:
    """Accumulates per-segment data of one variant and decides at each checkpoint.

    ``totals`` holds (n, sum, sum of squares) of the units tested: seat-games for ``ci``,
    deal scores for ``sprt``.
    """

    rule: StopRule
    check_every: int
    checkpoints: list[int]
    pending: dict[int, Any] = field(default_factory=dict)
    done_games: set[tuple[int, int]] = field(default_factory=set)
    next_checkpoint: int = 0
    totals: np.ndarray = field(default_factory=lambda: np.zeros(3))
    games_compared: int = 0
    games_per_deal: int | None = None
    stop_at: int | None = None
    decision: dict[str, Any] = field(default_factory=dict)

    def add(self, lo: int, hi: int, sums: dict[int, np.ndarray]) -> None:
        """Add a finished shard (games lo..hi-1) by its segment data (see :func:`segment_sums`)."""
        for k, v in sums.items():
            if self.rule.rule == "ci":
                self.pending[k] = self.pending.get(k, np.zeros(3)) + v
            else:
                self.pending.setdefault(k, []).append(np.asarray(v, dtype=np.float64).reshape(-1, 4))
        self.done_games.add((lo, hi))

    def _covered(self) -> int:
        """Games in the contiguous finished prefix."""
        end = 0
        for lo, hi in sorted(self.done_games):
            if lo > end:
                break
            end = max(end, hi)
        return end

    def _infer_games_per_deal(self, rows: np.ndarray) -> int:
        """Games per deal from the first whole segment: its number of distinct (lineup, rotation) tables.

        Every deal plays every table, and game ``g`` is table ``g % T`` of deal ``g // T``;
        the layout is checked. Without table codes every game is its own deal.
        """
        tables = rows[:, 2].astype(np.int64)
        if (tables < 0).any():
            return 1
        n_tables = int(np.unique(tables).size)
        game = rows[:, 0].astype(np.int64)
        pairs = np.unique(np.stack([game % n_tables, tables], axis=1), axis=0)
        if pairs.shape[0] != n_tables or self.check_every % n_tables:
            raise ValueError("stopping rule: cannot infer the deals of the games (the seats carry no deal column)")
        return n_tables

    def evaluate(self) -> bool:
        """Decide every checkpoint the finished prefix reaches; True once the run should stop."""
        covered = self._covered()
        while self.stop_at is None and self.next_checkpoint < len(self.checkpoints):
            c = self.checkpoints[self.next_checkpoint]
            if c > covered:
                break
            first_seg = (self.checkpoints[self.next_checkpoint - 1] if self.next_checkpoint else 0) // self.check_every
            segments = range(first_seg, (c + self.check_every - 1) // self.check_every)
            if self.rule.rule == "ci":
                for k in segments:
                    self.totals += self.pending.pop(k, np.zeros(3))
            else:
                parts = [a for k in segments for a in self.pending.pop(k, [])]
                rows = np.concatenate(parts) if parts else np.zeros((0, 4))
                if rows.shape[0]:
                    if self.games_per_deal is None:
                        self.games_per_deal = self._infer_games_per_deal(rows)
                    scores = _deal_scores(rows, self.games_per_deal)
                    self.totals += np.array([scores.size, scores.sum(), (scores * scores).sum()])
                    self.games_compared += int((~np.isnan(rows[:, 3])).sum())
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
        info = {"rule": "sprt", "games": games, "unit": "deal", "deals": int(n), "pairs": int(n),
                "games_compared": self.games_compared, "score": r.mean, "llr": r.llr,
                "bounds": [r.lower, r.upper]}
        if r.decision != "continue":
            return {**info, "decision": r.decision}
        return {**info, "decision": "maximum games reached"} if last else None
