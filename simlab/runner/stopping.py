"""Stopping rules evaluated at checkpoints on the completed prefix of a run.

Each finished shard is reduced to per-segment data (a segment is ``check_every`` games, a
whole number of deals); a checkpoint ``c`` is decided only once every game below ``c`` is
in, so the stopping point is the same whatever the number of workers, the backend or the
shard size.

Both rules count deals (design principle 5: the deal is the unit): every seating of a deal
is played on the deal's seed, so the games of a deal are not independent. A shard may end
in the middle of a deal, so it sends one row per game; the tracker groups the games of the
deals below each checkpoint (all whole) by deal:

- the SPRT is paired by deal (fishtest's pentanomial model): one score per deal, the mean of
  A's head-to-head scores over the deal's games, and the test counts deals;
- ``ci`` estimates the player's (or seat's) win rate as a ratio over deals,
  ``Σ_d win shares / Σ_d seat-games``, with the deal-clustered Wilson interval of the analysis
  layer (:func:`simlab.analysis._common.clustered_rate`: the CR1 standard error of the ratio,
  Wilson on the effective sample size, t quantile on deals − 1 degrees of freedom); the
  tracker keeps only the sums over deals that this interval needs, so its memory does not
  grow with the run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.intervals import clustered_wilson
from simlab.analysis.sequential import sprt
from simlab.runner.spec import StopRule

_TABLE_SHIFT = 1 << 20  # table code = lineup * _TABLE_SHIFT + rotation


def _game_codes(seats: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game``, ``deal`` (from a ``deal`` column, else -1) and ``table``.

    ``table`` codes the game's (lineup, rotation) (-1 without them), from which the tracker
    infers deals when the rows carry none.
    """
    deal = pl.col("deal").cast(pl.Int64) if "deal" in seats.columns else pl.lit(-1, pl.Int64)
    table = (pl.col("lineup").cast(pl.Int64) * _TABLE_SHIFT + pl.col("rotation").cast(pl.Int64)
             if "lineup" in seats.columns and "rotation" in seats.columns else pl.lit(-1, pl.Int64))
    return seats.group_by("game").agg(deal.first().alias("deal"), table.first().alias("table"))


def _per_segment(games: pl.DataFrame, check_every: int, values: list[pl.Expr]) -> dict[int, np.ndarray]:
    """``(game, deal, table, *values)`` rows of every game, split by segment of ``check_every`` games."""
    games = games.with_columns((pl.col("game") // check_every).alias("segment")).sort("game")
    out: dict[int, np.ndarray] = {}
    for (k,), part in games.group_by("segment"):
        out[int(k)] = part.select(pl.col("game").cast(pl.Float64), pl.col("deal").cast(pl.Float64),
                                  pl.col("table").cast(pl.Float64), *values).to_numpy()
    return out


def segment_sums(rule: StopRule, seats: pl.DataFrame, check_every: int) -> dict[int, np.ndarray]:
    """Per segment of ``check_every`` games, what the tracker needs from these seat rows: one row per game.

    Every row starts ``(game, deal, table)``: ``deal`` comes from a ``deal`` column (-1 without
    one) and ``table`` codes the game's (lineup, rotation) (-1 without them), from which the
    tracker infers deals when the rows carry none. Then:

    - ``ci``: ``(n, s)``, the number of the player's (or seat's) seat-games in the game and the
      sum of their win shares (0 and 0 when the player does not play it: every game is sent,
      so that the tracker sees every table);
    - ``sprt``: ``x``, A's head-to-head score against B (1 ahead, 1/2 level, 0 behind; the mean
      over their seat pairs; NaN when the game does not have both).
    """
    codes = _game_codes(seats)
    if rule.rule == "ci":
        mine = pl.col("player").cast(pl.Utf8) == rule.player if rule.player is not None else \
            pl.col("seat") == rule.seat
        per = seats.group_by("game").agg(mine.sum().cast(pl.Float64).alias("n"),
                                         pl.col("win_share").filter(mine).sum().cast(pl.Float64).alias("s"))
        return _per_segment(codes.join(per, on="game"), check_every, [pl.col("n"), pl.col("s")])
    player = pl.col("player").cast(pl.Utf8)
    a = seats.filter(player == rule.player_a).select("game", pl.col("rank").alias("ra"))
    b = seats.filter(player == rule.player_b).select("game", pl.col("rank").alias("rb"))
    x = a.join(b, on="game").with_columns(
        pl.when(pl.col("ra") < pl.col("rb")).then(1.0).when(pl.col("ra") == pl.col("rb")).then(0.5)
        .otherwise(0.0).alias("x")).group_by("game").agg(pl.col("x").mean())
    return _per_segment(codes.join(x, on="game", how="left"), check_every, [pl.col("x").fill_null(np.nan)])


def _deal_index(rows: np.ndarray, games_per_deal: int) -> np.ndarray:
    """The deal of each per-game row: its ``deal`` entry, else ``game // games_per_deal``."""
    game, deal = rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64)
    return np.where(deal >= 0, deal, game // games_per_deal)


def _deal_scores(rows: np.ndarray, games_per_deal: int) -> np.ndarray:
    """One score per deal (mean of ``x`` over its games that have both players) from per-game rows."""
    deal, x = _deal_index(rows, games_per_deal), rows[:, 3]
    ok = ~np.isnan(x)
    if not ok.any():
        return np.zeros(0)
    _, inv = np.unique(deal[ok], return_inverse=True)
    return np.bincount(inv, weights=x[ok]) / np.bincount(inv)


def _deal_sums(rows: np.ndarray, games_per_deal: int) -> np.ndarray:
    """``ci``'s sums over the deals of whole-deal ``(game, deal, table, n, s)`` rows.

    Per deal ``d`` with ``n_d > 0`` seat-games of the player and win shares ``s_d``: returns
    ``(deals, Σ n_d, Σ s_d, Σ s_d², Σ s_d n_d, Σ n_d²)``, the sufficient statistics of the
    ratio and its deal-clustered standard error (:func:`ci_interval`).
    """
    if not rows.shape[0]:
        return np.zeros(6)
    _, inv = np.unique(_deal_index(rows, games_per_deal), return_inverse=True)
    n, s = np.bincount(inv, weights=rows[:, 3]), np.bincount(inv, weights=rows[:, 4])
    n, s = n[n > 0], s[n > 0]
    return np.array([n.size, n.sum(), s.sum(), (s * s).sum(), (s * n).sum(), (n * n).sum()])


def ci_interval(sums: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, ...]:
    """The ``ci`` rule's estimate and deal-clustered Wilson interval from the sums of :func:`_deal_sums`.

    ``sums`` is ``(..., 6)``: deals ``G``, seat-games ``N``, ``S = Σ s_d``, ``Σ s_d²``,
    ``Σ s_d n_d``, ``Σ n_d²`` (vectorised over leading axes). The estimate is the ratio
    ``S / N``; its standard error is the CR1 linearisation of
    :func:`simlab.analysis._common.clustered_ratio`,
    ``se² = G/(G−1) · Σ_d (s_d − rate · n_d)² / N²`` expanded into the sums, and the interval is
    :func:`simlab.analysis.intervals.clustered_wilson` (Wilson on the effective sample size,
    t quantile on ``G − 1`` degrees of freedom), so it equals the ``lo``/``hi`` of
    ``clustered_rate(seats, [], "win_share", "deal")`` on the same rows. Returns ``rate``,
    ``lo``, ``hi``, ``se`` and ``n_eff`` (NaN interval with fewer than two deals).
    """
    sums = np.asarray(sums, dtype=np.float64)
    g, n, s, s2, sn, n2 = np.moveaxis(sums, -1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n > 0, s / np.where(n > 0, n, 1.0), np.nan)
        resid = np.clip(s2 - 2 * rate * sn + rate * rate * n2, 0.0, None)
        se = np.where(g > 1, np.sqrt(g / np.where(g > 1, g - 1, 1.0) * resid) / n, np.nan)
    lo, hi, n_eff, _ = clustered_wilson(rate, se, n, g, level)
    return rate, lo, hi, se, n_eff


@dataclass
class StopTracker:
    """Accumulates per-segment data of one variant and decides at each checkpoint.

    ``totals`` holds the sums over the deals tested: for ``ci`` those of :func:`_deal_sums`
    (deals, seat-games, win shares, and the cross sums of the clustered standard error), for
    ``sprt`` (n, sum, sum of squares) of the deal scores.
    """

    rule: StopRule
    check_every: int
    checkpoints: list[int]
    pending: dict[int, Any] = field(default_factory=dict)
    done_games: set[tuple[int, int]] = field(default_factory=set)
    next_checkpoint: int = 0
    totals: np.ndarray = field(init=False)
    games_compared: int = 0
    games_per_deal: int | None = None
    stop_at: int | None = None
    decision: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.totals = np.zeros(6 if self.rule.rule == "ci" else 3)

    def add(self, lo: int, hi: int, sums: dict[int, np.ndarray]) -> None:
        """Add a finished shard (games lo..hi-1) by its segment data (see :func:`segment_sums`)."""
        width = 5 if self.rule.rule == "ci" else 4
        for k, v in sums.items():
            self.pending.setdefault(k, []).append(np.asarray(v, dtype=np.float64).reshape(-1, width))
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
            width = 5 if self.rule.rule == "ci" else 4
            parts = [a for k in segments for a in self.pending.pop(k, [])]
            rows = np.concatenate(parts) if parts else np.zeros((0, width))
            if rows.shape[0]:
                if self.games_per_deal is None:
                    self.games_per_deal = self._infer_games_per_deal(rows)
                if self.rule.rule == "ci":
                    self.totals += _deal_sums(rows, self.games_per_deal)
                    self.games_compared += int((rows[:, 3] > 0).sum())
                else:
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
        last = games == self.checkpoints[-1]
        if self.rule.rule == "ci":
            return self._decide_ci(games, last)
        n, s, s2 = self.totals
        r = sprt(int(n), s, s2, self.rule.elo0, self.rule.elo1, self.rule.alpha, self.rule.beta)
        info = {"rule": "sprt", "games": games, "unit": "deal", "deals": int(n), "pairs": int(n),
                "games_compared": self.games_compared, "score": r.mean, "llr": r.llr,
                "bounds": [r.lower, r.upper]}
        if r.decision != "continue":
            return {**info, "decision": r.decision}
        return {**info, "decision": "maximum games reached"} if last else None

    def _decide_ci(self, games: int, last: bool) -> dict[str, Any] | None:
        """Stop once the deal-clustered 95% interval's half-width is at most the target."""
        deals, n = int(self.totals[0]), int(self.totals[1])
        rate, lo, hi, se, n_eff = (float(v) for v in ci_interval(self.totals))
        ok = deals > 1 and np.isfinite(lo) and np.isfinite(hi)
        half = (hi - lo) / 2 if ok else None
        info = {"rule": "ci", "games": games, "unit": "deal", "deals": deals, "n": n,
                "games_compared": self.games_compared, "estimate": rate if n else None,
                "rate": rate if n else None, "lo": lo if ok else None, "hi": hi if ok else None,
                "half_width": half, "se": se if ok else None, "n_eff": n_eff if ok else None,
                "target": self.rule.half_width}
        if half is not None and half <= self.rule.half_width:
            return {**info, "decision": "target reached"}
        return {**info, "decision": "maximum games reached"} if last else None
