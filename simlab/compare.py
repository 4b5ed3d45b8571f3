"""``simlab compare RUN_A RUN_B``: the difference (B − A) of two stored runs' headline measures, with intervals.

The measures, each where both runs have it (rows of only one run are left out and counted):

- ``win rate`` of each player (shared wins split), of each seat and of each start position (a
  game's position columns, e.g. a colour), per player count for seats and positions;
- ``mean score`` of each player;
- per player count: ``game length`` (the game's ``turns`` standard column), ``first player win
  rate`` (its ``first_player`` column) and ``tie rate`` (games won by more than one side: seat,
  or team in a team game).

Every measure is a ratio of per-deal sums (:mod:`simlab.analysis.paired`), so the comparison is
the deal bootstrap of the tune's confirmation. **Deals are identified by their seed** (all the
seatings of a deal share it): two runs of the same game whose deals share seeds (the same
experiment seed, e.g. a rule option or data file changed) are **paired by deal**, both resampled
with the same deal weights over the union of their deals, so the luck of a deal cancels; runs
with no deal seed in common are compared as **independent** samples (each resampled on its own
deals). Each row has a two-sided 95% interval of B − A (the union of the basic and the percentile
bootstrap intervals) and the p-value that interval inverts; over the table's rows, **Holm's
procedure** at 5% says which differences hold (``holm_p``, ``differs``): the family is every row
shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.multiple import adjust_pvalues
from simlab.analysis.paired import DealSums, deal_weights, ratios, simultaneous_differences, two_sided_p
from simlab.core.errors import SimlabError
from simlab.results import DEFAULT_ROOT, load, manifest, position_columns, resolve_run

DRAWS = 2000  # bootstrap resamples
LEVEL = 0.95
CHUNK_CELLS = 5_000_000  # weights held at once (draws x deals), to bound memory on large runs


@dataclass
class Comparison:
    """The table of differences and how it was computed.

    ``table``: one row per measure (``measure``, ``of``, ``a``, ``b``, ``diff`` = b − a,
    ``diff_lo``, ``diff_hi``, ``p``, ``holm_p``, ``differs``); ``paired``: whether the runs share
    deals; ``shared``/``deals_a``/``deals_b``: deal counts; ``left_out``: measures of only one run.
    """

    table: pl.DataFrame
    paired: bool
    shared: int
    deals_a: int
    deals_b: int
    left_out: int
    game: str
    draws: int

    def method(self) -> str:
        """How the rows were compared, in one sentence."""
        how = (f"paired by deal ({self.shared:,} shared deal seeds; {self.deals_a:,} deals in A, {self.deals_b:,} in B)"
               if self.paired else f"independent runs (no deal seed in common; {self.deals_a:,} deals in A, "
               f"{self.deals_b:,} in B)")
        return (f"B − A, {how}; deal bootstrap ({self.draws:,} resamples), 95% intervals per row; "
                f"Holm over the {self.table.height} rows at 5% ('differs')")


def seat_frame(run: Path, variant: str | None, label: str) -> tuple[pl.DataFrame, pl.DataFrame, str]:
    """The run's seats (joined with their game's deal seed and player count) and games, of one variant."""
    man = manifest(run)
    variants = [str(v) for v in man.get("variants") or []]
    if variant is None:
        if len(variants) != 1:
            raise SimlabError(f"run {label} ({run}) has variants {', '.join(variants)}: pick one with "
                              f"--variant-{label.lower()}")
        variant = variants[0]
    elif variant not in variants:
        raise SimlabError(f"run {label} ({run}) has no variant {variant!r} (it has {', '.join(variants)})")
    tables = load(run)
    games = tables["games"].with_columns(pl.col("variant").cast(pl.Utf8)).filter(pl.col("variant") == variant)
    seats = tables["seats"].with_columns(pl.col("variant").cast(pl.Utf8)).filter(pl.col("variant") == variant)
    games = games.collect()
    seats = seats.collect().join(games.select("game", "seed", "n_players"), on="game", how="inner")
    return seats, games, str(man.get("game"))


def measures(seats: pl.DataFrame, games: pl.DataFrame, game: str) -> pl.DataFrame:
    """Per deal (its seed) and measure: the sums ``num`` and ``den`` whose ratio over deals is the measure.

    Columns ``seed``, ``measure``, ``of``, ``num``, ``den`` (see the module docstring for the measures).
    """
    from simlab.core.game import get_game

    seats = seats.with_columns(pl.col("player").cast(pl.Utf8), pl.col("win_share").cast(pl.Float64),
                               pl.col("score").cast(pl.Float64), pl.lit(1.0).alias("_one"))
    parts = [
        seats.select("seed", pl.lit("win rate").alias("measure"), ("player " + pl.col("player")).alias("of"),
                     pl.col("win_share").alias("num"), pl.col("_one").alias("den")),
        seats.select("seed", pl.lit("win rate").alias("measure"),
                     pl.format("seat {} ({} players)", "seat", "n_players").alias("of"),
                     pl.col("win_share").alias("num"), pl.col("_one").alias("den")),
        seats.select("seed", pl.lit("mean score").alias("measure"), ("player " + pl.col("player")).alias("of"),
                     pl.col("score").alias("num"), pl.col("_one").alias("den")),
    ]
    for col in position_columns(game, seats.columns):
        parts.append(seats.select("seed", pl.lit("win rate").alias("measure"),
                                  pl.format("{} {} ({} players)", pl.lit(col), pl.col(col).cast(pl.Utf8),
                                            "n_players").alias("of"),
                                  pl.col("win_share").alias("num"), pl.col("_one").alias("den")))
    try:
        standard = get_game(game).standard_columns
    except Exception:  # a game no longer registered: only the seat and player measures
        standard = {}
    per_count = pl.format("{} players", "n_players").alias("of")
    turns = standard.get("turns")
    if isinstance(turns, str) and turns in games.columns:
        parts.append(games.select("seed", pl.lit("game length").alias("measure"), per_count,
                                  pl.col(turns).cast(pl.Float64).alias("num"), pl.lit(1.0).alias("den")))
    first = standard.get("first_player")
    if isinstance(first, str) and first in seats.columns:
        parts.append(seats.filter(pl.col(first).cast(pl.Boolean))
                     .select("seed", pl.lit("first player win rate").alias("measure"), per_count,
                             pl.col("win_share").alias("num"), pl.col("_one").alias("den")))
    side = pl.col("team") if "team" in seats.columns else pl.col("seat")
    ties = (seats.group_by("game").agg(pl.first("seed"), pl.first("n_players"),
                                       side.filter(pl.col("win_share") > 0).n_unique().alias("_sides"))
            .select("seed", pl.lit("tie rate").alias("measure"), per_count,
                    (pl.col("_sides") > 1).cast(pl.Float64).alias("num"), pl.lit(1.0).alias("den")))
    parts.append(ties)
    return pl.concat([p.with_columns(pl.col("seed").cast(pl.UInt64)) for p in parts], how="vertical")


def deal_sums_of(long: pl.DataFrame, keys: list[tuple[str, str]]) -> DealSums:
    """The per-deal sums of ``keys`` (measure, of) as a :class:`DealSums` (deals = seeds, sorted)."""
    index = pl.DataFrame({"measure": [k[0] for k in keys], "of": [k[1] for k in keys],
                          "_k": np.arange(len(keys), dtype=np.int64)})
    per = (long.join(index, on=["measure", "of"], how="inner")
           .group_by("seed", "_k").agg(pl.col("num").sum(), pl.col("den").sum()))
    deals = np.sort(long["seed"].unique().to_numpy())
    row = np.searchsorted(deals, per["seed"].to_numpy())
    num = np.zeros((deals.size, len(keys)))
    den = np.zeros((deals.size, len(keys)))
    np.add.at(num, (row, per["_k"].to_numpy()), per["num"].to_numpy())
    np.add.at(den, (row, per["_k"].to_numpy()), per["den"].to_numpy())
    return DealSums(deals, num, den)


def resampled(sums: DealSums, draws: int, seed: int) -> np.ndarray:
    """The ratio estimates on ``draws`` deal-bootstrap resamples (draws x K), weights made in bounded chunks."""
    n = sums.deals.size
    chunk = max(1, min(draws, CHUNK_CELLS // max(n, 1)))
    out = [ratios(sums, deal_weights(n, min(chunk, draws - start), seed + 7919 * i))
           for i, start in enumerate(range(0, draws, chunk))]
    return np.vstack(out)


def paired_replicates(sa: DealSums, sb: DealSums, draws: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Bootstrap replicates (draws x K) of two runs' ratio estimates and how many deal seeds they share: with the
    same deal weights over the union of their deals when they share any (paired), independent weights otherwise."""
    shared = np.intersect1d(sa.deals, sb.deals)
    if shared.size:
        union = np.union1d(sa.deals, sb.deals)
        return resampled(sa.on(union), draws, seed), resampled(sb.on(union), draws, seed), int(shared.size)
    return resampled(sa, draws, seed), resampled(sb, draws, seed + 1), 0


def compare_tables(a: pl.DataFrame, b: pl.DataFrame, draws: int = DRAWS, seed: int = 0) -> dict[str, Any]:
    """Compare two runs' per-deal measure sums (:func:`measures`): the rows B − A and how they were paired.

    Paired (the same weights over the union of both runs' deal seeds) when they share a deal
    seed, independent otherwise. Returns ``table``, ``paired``, ``shared``, ``deals_a``, ``deals_b``, ``left_out``.
    """
    keys_a = set(a.select("measure", "of").unique().iter_rows())
    keys_b = set(b.select("measure", "of").unique().iter_rows())
    order = {"win rate": 0, "mean score": 1, "first player win rate": 2, "game length": 3, "tie rate": 4}
    keys = sorted(keys_a & keys_b, key=lambda k: (order.get(k[0], 9), k[1]))
    if not keys:
        raise SimlabError("cannot compare: the runs have no measure in common (no player, seat or player count "
                          "in both)")
    sa, sb = deal_sums_of(a, keys), deal_sums_of(b, keys)
    point_a, point_b = ratios(sa), ratios(sb)
    reps_a, reps_b, shared = paired_replicates(sa, sb, draws, seed)
    rows = []
    for k, (measure, of) in enumerate(keys):
        diff, lo, hi = simultaneous_differences(point_b[k:k + 1], point_a[k:k + 1], reps_b[:, k:k + 1],
                                                reps_a[:, k:k + 1], LEVEL)[0]
        rows.append({"measure": measure, "of": of, "a": float(point_a[k]), "b": float(point_b[k]), "diff": diff,
                     "diff_lo": lo, "diff_hi": hi, "p": two_sided_p(diff, reps_b[:, k] - reps_a[:, k])})
    table = pl.DataFrame(rows, schema={"measure": pl.Utf8, "of": pl.Utf8, "a": pl.Float64, "b": pl.Float64,
                                       "diff": pl.Float64, "diff_lo": pl.Float64, "diff_hi": pl.Float64,
                                       "p": pl.Float64})
    p = table["p"].fill_null(np.nan).to_numpy()
    holm = adjust_pvalues(p, "holm") if np.isfinite(p).any() else p
    table = table.with_columns(pl.Series("holm_p", holm), pl.Series("differs", np.nan_to_num(holm, nan=1.0) <= 0.05))
    return {"table": table, "paired": bool(shared), "shared": shared, "deals_a": int(sa.deals.size),
            "deals_b": int(sb.deals.size), "left_out": len(keys_a ^ keys_b)}


def compare_runs(run_a: str | Path, run_b: str | Path, variant_a: str | None = None, variant_b: str | None = None,
                 root: str | Path = DEFAULT_ROOT, draws: int = DRAWS, seed: int = 0) -> Comparison:
    """Compare two stored runs (paths, ``experiment/run`` or run names): see the module docstring."""
    path_a, path_b = resolve_run(run_a, root), resolve_run(run_b, root)
    if draws < 100:
        raise SimlabError(f"--draws: at least 100 bootstrap resamples (not {draws})")
    seats_a, games_a, game_a = seat_frame(path_a, variant_a, "A")
    seats_b, games_b, game_b = seat_frame(path_b, variant_b, "B")
    if game_a != game_b:
        raise SimlabError(f"cannot compare: run A ({path_a}) is a {game_a} run and run B ({path_b}) a {game_b} run")
    result = compare_tables(measures(seats_a, games_a, game_a), measures(seats_b, games_b, game_b), draws, seed)
    return Comparison(game=game_a, draws=draws, **result)
