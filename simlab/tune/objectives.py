"""What a tune minimises: built-in balance objectives, or a user function over the result tables.

Every objective is a non-negative number, 0 when the game is balanced in its sense, computed
from one candidate's tables (``games``, ``seats`` and any recorded event table, polars
DataFrames with a ``variant`` column; the candidate's own games are variant ``base``, an
ablation's are its other variants). Each gives a point value for the search
(:meth:`Objective.value`) and, for the confirmation, the value per player count with an
interval that holds for every row at once (:meth:`Objective.confirm`, Bonferroni over the
player counts; the overall value is the largest row, and its interval the rows' largest bounds):

- ``max_position_deviation``: the largest deviation of any position's win rate (a seat, or a
  start colour: ``position``) from the fair share ``1/n``, worst over the player counts. Its
  interval is the simultaneous max-t one of :func:`simlab.analysis.metrics.seat_deviation_interval`
  (deal-clustered).
- ``first_player_advantage``: ``|win rate of the first player − 1/n|``, worst over the player
  counts; deal-clustered t-interval of the rate, folded.
- ``card_value_band``: how far the cards' causal values (paired ablation, the spec's
  ``[ablation]``; in the holder's score, VP) lie outside ``band = [low, high]``, summed over the
  cards: 0 exactly when every card's value is inside. A sum, not the worst card, so that fixing
  one card of several outliers already counts (the worst card alone gives the search nothing to
  follow until every outlier is fixed at once); the confirmation also reports the worst card and
  its distance. Per-card intervals are Bonferroni-widened over the cards.
- ``file.py:function``: ``function(tables) -> float`` (lower is better); its confirmation
  interval is a percentile bootstrap over deals.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from simlab.analysis._common import as_str, clustered_ratio, with_deal, with_n_players
from simlab.analysis.metrics import seat_deviation_interval
from simlab.core.errors import SimlabError
from simlab.tune.paired import DealSums, deal_sums

BUILTINS = ("max_position_deviation", "first_player_advantage", "card_value_band")
LEVEL = 0.95
Tables = Mapping[str, pl.DataFrame]


def _base(frame: pl.DataFrame) -> pl.DataFrame:
    if "variant" in frame.columns:
        frame = as_str(frame, "variant").filter(pl.col("variant") == "base")
    if "seat" in frame.columns and "game" in frame.columns:
        frame = with_n_players(frame)
    return frame


def _counts(seats: pl.DataFrame) -> list[int]:
    return sorted(int(n) for n in seats["n_players"].unique().to_list())


def _row(scope: str, n: int | None, value: float, lo: float, hi: float, **extra: Any) -> dict[str, Any]:
    return {"scope": scope, "n_players": n, "value": float(value), "lo": float(lo), "hi": float(hi), **extra}


def _frame(rows: list[dict[str, Any]], level: float) -> pl.DataFrame:
    out = pl.DataFrame(rows, schema_overrides={"n_players": pl.Int64, "value": pl.Float64, "lo": pl.Float64,
                                               "hi": pl.Float64})
    return out.with_columns(pl.lit(level).alias("level"))


@dataclass
class Objective:
    """A balance objective (lower is better); see the module docstring for each built-in."""

    name: str
    position: str = "seat"
    band: tuple[float, float] | None = None
    function: Callable[[Tables], float] | None = None
    needs_ablation: bool = False
    game: str | None = None  # the game's name (its standard columns name the first player)

    @property
    def unit(self) -> str:
        """What the value measures, for tables and reports."""
        return {"max_position_deviation": f"largest |win rate − 1/n| of any {self.position}",
                "first_player_advantage": "|first player's win rate − 1/n|",
                "card_value_band": (f"VP of causal card value outside the band [{self.band[0]:g}, "
                                    f"{self.band[1]:g}], summed over the cards") if self.band else "",
                }.get(self.name, f"{self.name} (user objective)")

    # ---------------------------------------------------------------- search
    def value(self, tables: Tables) -> float:
        """The point value of one candidate's tables (what the search minimises)."""
        if self.name == "max_position_deviation":
            s = _base(tables["seats"])
            rates = s.group_by("n_players", self.position).agg(pl.col("win_share").cast(pl.Float64).mean()
                                                               .alias("r"))
            return float(rates.select((pl.col("r") - 1.0 / pl.col("n_players")).abs().max()).item())
        if self.name == "first_player_advantage":
            return max(abs(v) for _, v, _, _ in self._first_player(tables, 0.5))
        if self.name == "card_value_band":
            values = self._card_values(tables)
            return float(np.sum(self._excess(values["value"].to_numpy(), values["value"].to_numpy())))
        assert self.function is not None
        return _call_user(self.function, tables, self.name)

    # ---------------------------------------------------------------- confirmation
    def confirm(self, tables: Tables, level: float = LEVEL, seed: int = 0) -> pl.DataFrame:
        """The value per player count (and ``scope = "all"``, the worst) with intervals that hold
        together at ``level``: ``scope``, ``n_players``, ``value``, ``lo``, ``hi``, ``level``."""
        if self.name == "max_position_deviation":
            s = with_deal(_base(tables["seats"]), _base(tables["games"]) if "games" in tables else None)
            counts = _counts(s)
            each = 1 - (1 - level) / len(counts)
            rows = []
            for i, n in enumerate(counts):
                part = s.filter(pl.col("n_players") == n)
                d, lo, hi = seat_deviation_interval(part["deal"].to_numpy(), part[self.position].cast(pl.Utf8)
                                                    .to_numpy(), part["win_share"].to_numpy(), 1.0 / n,
                                                    level=each, seed=seed + i)
                top = 1.0 - 1.0 / n  # no win rate lies further than this from 1/n
                rows.append(_row(f"{n} players", n, d, min(lo, top), min(hi, top)))
            return _with_overall(rows, level)
        if self.name == "first_player_advantage":
            counts = self._first_player(tables, level)
            rows = []
            for n, v, lo, hi in counts:
                inside = lo <= 0 <= hi
                rows.append(_row(f"{n} players", n, abs(v), 0.0 if inside else min(abs(lo), abs(hi)),
                                 max(abs(lo), abs(hi)), signed=v))
            return _with_overall(rows, level)
        if self.name == "card_value_band":
            values = self._card_values(tables)
            m = values.height
            widen = stats.norm.ppf(1 - (1 - level) / (2 * m)) / stats.norm.ppf(1 - (1 - LEVEL) / 2)
            v = values["value"].to_numpy()
            half_lo = (v - values["value_lo"].to_numpy()) * widen
            half_hi = (values["value_hi"].to_numpy() - v) * widen
            assert self.band is not None
            lo, hi = excess_interval(v - half_lo, v + half_hi, self.band, total=True)
            worst_lo, worst_hi = excess_interval(v - half_lo, v + half_hi, self.band)
            excess = self._excess(v, v)
            worst = int(np.argmax(excess))
            return _frame([_row("all", None, float(np.sum(excess)), lo, hi, worst_card=int(values["card"][worst]),
                                worst_excess=float(excess[worst]), worst_lo=worst_lo, worst_hi=worst_hi,
                                cards_outside=int(np.sum(excess > 0)))], level)
        return self._bootstrap(tables, level, seed)

    # ---------------------------------------------------------------- the paired comparison
    def deal_sums(self, tables: Tables) -> tuple[DealSums, Callable[[np.ndarray], np.ndarray], list[str]] | None:
        """A built-in objective as per-deal sums of its ratio estimates, the statistic that makes the objective
        of them (``ratios (B × K) -> (B × m)``: column 0 the objective, then one per player count) and the
        columns' scopes (``all``, ``2 players``, ... as in :meth:`confirm`); None for a user objective. The
        statistic of the point ratios is :meth:`value` (the search's value)."""
        if self.name == "max_position_deviation":
            s = with_deal(_base(tables["seats"]), _base(tables["games"]) if "games" in tables else None)
            s = s.with_columns(pl.col(self.position).cast(pl.Utf8).alias("_pos"))
            cells = sorted({(int(n), str(p)) for n, p in s.select("n_players", "_pos").unique().iter_rows()})
            s = s.with_columns(pl.concat_str(pl.col("n_players").cast(pl.Utf8), pl.lit("\x1f"), "_pos").alias("_cell"))
            sums = deal_sums(s, "_cell", "win_share", None, [f"{n}\x1f{p}" for n, p in cells])
            counts = sorted({n for n, _ in cells})
            return sums, _group_max([n for n, _ in cells]), ["all", *(f"{n} players" for n in counts)]
        if self.name == "first_player_advantage":
            first = self._first_rows(tables)
            counts = sorted(int(n) for n in first["n_players"].unique().to_list())
            return (deal_sums(first, "n_players", "win_share", None, counts), _group_max(counts),
                    ["all", *(f"{n} players" for n in counts)])
        if self.name == "card_value_band":
            return self._card_sums(tables), self._band_statistic, ["all"]
        return None

    def _band_statistic(self, r: np.ndarray) -> np.ndarray:
        assert self.band is not None
        excess = np.maximum(0.0, np.maximum(self.band[0] - r, r - self.band[1]))
        return np.nansum(excess, axis=1, keepdims=True)

    def _card_sums(self, tables: Tables) -> DealSums:
        """Per deal and card, the holder's paired score change signed as ``card_values_causal``'s ``value``
        (games held summed, one column per card), computed as :func:`simlab.analysis.cards.card_value_ablation`
        computes it."""
        from simlab.analysis.cards import _holders

        values = self._card_values(tables).sort("card")
        seats = as_str(tables["seats"], "variant")
        takes = as_str(tables["takes"], "variant")
        deals = with_deal(_base(tables["games"])).select(pl.col("game").cast(pl.Int64), "deal").unique(subset="game")
        cast = [pl.col("game").cast(pl.Int64), pl.col("seat").cast(pl.Int8), pl.col("score").cast(pl.Float64)]
        base = seats.filter(pl.col("variant") == "base").select("game", "seat", "score").with_columns(cast)
        takes_base = takes.filter(pl.col("variant") == "base")
        parts = []
        for variant, card, change in values.select("variant", "card", "change").iter_rows():
            var = seats.filter(pl.col("variant") == variant).select("game", "seat", "score").with_columns(cast)
            held_v = _holders(takes.filter(pl.col("variant") == variant), card)
            held_b = _holders(takes_base, card).join(held_v.select("game").unique(), on="game", how="anti")
            sign = -1.0 if change == "removed" else 1.0
            rows = pl.concat([held_v, held_b]).join(base, on=["game", "seat"]).join(
                var, on=["game", "seat"], suffix="_v").group_by("game").agg(
                ((pl.col("score_v") - pl.col("score")) * sign).mean().alias("_v"))
            parts.append(rows.join(deals, on="game").select("deal", "_v", pl.lit(int(card)).alias("_card")))
        frame = pl.concat(parts)
        return deal_sums(frame, "_card", "_v", None, [int(c) for c in values["card"].to_list()])

    def user_tables(self, tables: Tables) -> dict[str, pl.DataFrame]:
        """Every table (of every variant) with the ``deal`` of its game, for resampling by deals."""
        games = with_deal(as_str(tables["games"], "variant") if "variant" in tables["games"].columns
                          else tables["games"])
        frames = {}
        for k, v in tables.items():
            v = as_str(v, "variant") if "variant" in v.columns else v
            frames[k] = with_deal(v, games) if "game" in v.columns and k != "games" else (
                games if k == "games" else v)
        return frames

    def card_values(self, tables: Tables) -> pl.DataFrame:
        """Every card's causal value (``card_values_causal``) with its distance outside the band."""
        values = self._card_values(tables)
        v = values["value"].to_numpy()
        return values.with_columns(pl.Series("outside_band", self._excess(v, v)))

    # ---------------------------------------------------------------- helpers
    def _first_rows(self, tables: Tables) -> pl.DataFrame:
        """The seat that played first in every base game, with its ``deal`` and ``n_players``."""
        from simlab.analysis.metrics import standard_columns

        games = with_deal(_base(tables["games"]))
        seats = _base(tables["seats"])
        col = standard_columns(games, seats, self.game).get("first_player")
        keys = [k for k in ("variant", "game") if k in games.columns and k in seats.columns]
        if col and col in seats.columns:  # the games declare it as a seat flag: this seat played first
            first = seats.join(games.select(*keys, "deal"), on=keys).filter(pl.col(col).cast(pl.Boolean))
        elif col and col in games.columns:  # a games column holding the first player's seat
            first = seats.join(games.select(*keys, "deal", pl.col(col).alias("_first")), on=keys).filter(
                pl.col("seat") == pl.col("_first"))
        else:
            raise SimlabError("tune.objective: first_player_advantage needs the game's first_player column "
                              "(Game.standard_columns)")
        return first

    def _first_player(self, tables: Tables, level: float) -> list[tuple[int, float, float, float]]:
        first = self._first_rows(tables)
        rate = clustered_ratio(first, ["n_players"], "win_share", None, "deal").sort("n_players")
        counts = rate.height
        out = []
        for r in rate.iter_rows(named=True):
            q = stats.t.ppf(1 - (1 - level) / (2 * counts), max(r["dof"], 1)) if r["se"] is not None else math.nan
            se = r["se"] if r["se"] is not None else math.nan
            fair = 1.0 / r["n_players"]
            out.append((int(r["n_players"]), r["mean"] - fair, r["mean"] - fair - q * se, r["mean"] - fair + q * se))
        return out

    def _card_values(self, tables: Tables) -> pl.DataFrame:
        from simlab.analysis.cards import card_values_causal

        try:
            return card_values_causal(tables)
        except ValueError as exc:
            raise SimlabError(f"tune.objective: card_value_band: {exc}") from None

    def _excess(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        assert self.band is not None
        return np.maximum(0.0, np.maximum(self.band[0] - np.asarray(hi), np.asarray(lo) - self.band[1]))

    def _bootstrap(self, tables: Tables, level: float, seed: int, draws: int = 200) -> pl.DataFrame:
        """Percentile bootstrap over deals: every table (every variant) resampled by the same deals."""
        assert self.function is not None
        point = _call_user(self.function, tables, self.name)
        frames = self.user_tables(tables)
        deals = np.unique(frames["games"]["deal"].to_numpy())
        rng = np.random.default_rng(seed)
        values = []
        for _ in range(draws):
            pick = pl.DataFrame({"deal": rng.choice(deals, deals.size, replace=True)})
            sample = {k: pick.join(v, on="deal", how="inner") if "deal" in v.columns else v for k, v in frames.items()}
            values.append(_call_user(self.function, sample, self.name))
        lo, hi = np.quantile(values, [(1 - level) / 2, 1 - (1 - level) / 2])
        return _frame([_row("all", None, point, float(lo), float(hi))], level)


def _group_max(groups: list[int]) -> Callable[[np.ndarray], np.ndarray]:
    """The statistic ``max_k |r_k − 1/n_k|`` per player count ``n`` (columns' ``groups``) and their worst."""
    g = np.asarray(groups)
    counts = sorted(set(groups))
    fair = 1.0 / g

    def statistic(r: np.ndarray) -> np.ndarray:
        dev = np.abs(r - fair)
        per = []
        for n in counts:
            block = dev[:, g == n]
            ok = np.isfinite(block).any(axis=1)
            per.append(np.where(ok, np.nanmax(np.where(np.isfinite(block), block, -np.inf), axis=1), np.nan))
        per_n = np.stack(per, axis=1)
        return np.concatenate([np.nanmax(per_n, axis=1, keepdims=True), per_n], axis=1)

    return statistic


def excess_interval(lo: np.ndarray, hi: np.ndarray, band: tuple[float, float],
                    total: bool = False) -> tuple[float, float]:
    """Interval of ``max_c dist(value_c, band)`` (``total``: of ``Σ_c dist(value_c, band)``) from simultaneous
    intervals ``[lo_c, hi_c]`` of the values.

    On the event that every interval holds, each card's distance outside the band lies between
    the distance of its interval's nearest point (0 when the interval meets the band) and of its
    farthest point; the largest (or the sum) of those bounds bound the largest (or the sum), so
    the returned interval holds at least as often as the per-value intervals hold together.
    """
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    low = np.maximum(0.0, np.maximum(band[0] - hi, lo - band[1]))
    high = np.maximum(0.0, np.maximum(band[0] - lo, hi - band[1]))
    if total:
        return float(np.sum(low)), float(np.sum(high))
    return float(np.max(low)), float(np.max(high))


def _with_overall(rows: list[dict[str, Any]], level: float) -> pl.DataFrame:
    worst = max(rows, key=lambda r: r["value"])
    overall = _row("all", None, worst["value"], max(r["lo"] for r in rows), max(r["hi"] for r in rows),
                   **{k: v for k, v in worst.items() if k not in ("scope", "n_players", "value", "lo", "hi")})
    return _frame([*rows, overall], level)


def _call_user(fn: Callable[[Tables], float], tables: Tables, name: str) -> float:
    try:
        value = fn(dict(tables))
    except Exception as exc:
        raise SimlabError(f"tune.objective {name} raised {type(exc).__name__}: {exc}") from exc
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer) \
            or not math.isfinite(float(value)):
        raise SimlabError(f"tune.objective {name} returned {value!r}; it must return a finite number")
    return float(value)


def load_user_function(text: str, base: Path, field: str) -> Callable[[Tables], float]:
    """``file.py:function`` (the file relative to ``base``, the spec's folder) as a callable."""
    from simlab.core.errors import SimlabError as _Error

    file, _, name = text.rpartition(":")
    path = Path(file) if Path(file).is_absolute() else base / file
    if not path.is_file():
        raise _Error(f"{field}: {path}: file not found")
    spec = importlib.util.spec_from_file_location(f"simlab_tune_objective_{abs(hash(str(path)))}", path)
    if spec is None or spec.loader is None:
        raise _Error(f"{field}: {path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise _Error(f"{field}: {path} raised {type(exc).__name__} on import: {exc}") from None
    fn = getattr(module, name, None)
    if not callable(fn):
        raise _Error(f"{field}: {path} has no function '{name}'")
    return fn
