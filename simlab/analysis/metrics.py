"""Game-level balance metrics: length, score spread, margin, ties, first-player edge, seat balance, lead changes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from simlab.analysis._common import (
    Frame,
    add_t_interval,
    as_str,
    clustered_mean,
    collect,
    game_keys,
    require,
    unique_keys,
    variant_key,
    with_deal,
)
from simlab.analysis.intervals import wilson_interval

_ROUND_VP = ("round1_card_vp", "round2_card_vp", "round3_card_vp")


def _per_game(s: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """One row per game from the seats: spread, margin, winners, first player's win share, lead changes."""
    aggs = [
        pl.col("score").cast(pl.Float64).std(ddof=0).alias("score_spread"),
        (pl.col("score").sort(descending=True).get(0) - pl.col("score").sort(descending=True).get(1))
        .cast(pl.Float64).alias("margin"),
        pl.col("win_share").gt(0).sum().alias("_winners"),
        pl.len().alias("_seats"),
    ]
    if "first_in_round1" in s.columns:
        aggs += [pl.col("win_share").filter(pl.col("first_in_round1")).sum().alias("_first_share"),
                 pl.col("first_in_round1").sum().alias("_firsts")]
    if all(c in s.columns for c in _ROUND_VP):
        cum = [pl.col(_ROUND_VP[0]), pl.col(_ROUND_VP[0]) + pl.col(_ROUND_VP[1]),
               pl.col(_ROUND_VP[0]) + pl.col(_ROUND_VP[1]) + pl.col(_ROUND_VP[2])]
        s = s.with_columns((c == c.max().over(keys)).alias(f"_lead{i}") for i, c in enumerate(cum))
        aggs.append(((~(pl.col("_lead0") & pl.col("_lead1")).any()).cast(pl.Int32)
                     + (~(pl.col("_lead1") & pl.col("_lead2")).any()).cast(pl.Int32))
                    .cast(pl.Float64).alias("lead_changes_card_vp"))
    return s.group_by(keys).agg(aggs)


def _balance_boot(part: pl.DataFrame, n_boot: int, rng: np.random.Generator) -> tuple[float, float, float]:
    """Balance ``1 − (max − min seat win rate)`` and its percentile bootstrap interval over deals."""
    per = part.group_by("deal", "seat").agg(pl.col("win_share").sum().alias("w"), pl.len().alias("n"))
    deals = np.unique(per["deal"].to_numpy())
    seats = np.unique(per["seat"].to_numpy())
    di = np.searchsorted(deals, per["deal"].to_numpy())
    si = np.searchsorted(seats, per["seat"].to_numpy())
    wins = np.zeros((deals.size, seats.size))
    games = np.zeros((deals.size, seats.size))
    np.add.at(wins, (di, si), per["w"].to_numpy())
    np.add.at(games, (di, si), per["n"].to_numpy())

    def balance(weights: np.ndarray) -> float:
        with np.errstate(invalid="ignore", divide="ignore"):
            rates = (weights @ wins) / (weights @ games)
        return float(1.0 - (np.nanmax(rates) - np.nanmin(rates)))

    point = balance(np.ones(deals.size))
    if n_boot < 2 or deals.size < 2:
        return point, float("nan"), float("nan")
    boot = np.array([balance(np.bincount(rng.integers(0, deals.size, deals.size), minlength=deals.size)
                              .astype(np.float64)) for _ in range(n_boot)])
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return point, float(lo), float(hi)


def game_metrics(games: Frame, seats: Frame, by: Sequence[str] = ("n_players",), n_boot: int = 200,
                 seed: int = 0) -> pl.DataFrame:
    """One row per group (``variant``, ``by``, ``n_players``) of game-level metrics with 95% intervals.

    How each number is measured (games are the rows of ``games``; means are over games, with a
    t-interval whose standard error is clustered by deal, since the seat rotations of a deal
    share a seed; without rotations every game is its own deal):

    - ``turns``: mean game length in turns (``games.turns``), t-interval.
    - ``score_spread``: mean over games of the standard deviation (population, ddof 0) of the
      seats' final scores in the game, t-interval.
    - ``margin``: mean over games of winner's score minus runner-up's score (0 on a shared
      win), t-interval.
    - ``tie_rate``: share of games with more than one winner, Wilson interval.
    - ``first_player_win_rate``: mean ``win_share`` of the seat that was first in round 1,
      Wilson interval; ``first_player_advantage`` is that rate minus the fair share
      ``1 / n_players`` (same interval, shifted).
    - ``balance``: ``1 − (max − min)`` of the per-seat win rates (1 = every seat wins equally
      often), with a percentile bootstrap interval resampling deals (``n_boot`` resamples,
      ``seed``). Noise alone spreads the seat rates, so with few games balance reads low.
    - ``lead_changes_card_vp``: card VP only (investor and runner-up VP come at the end),
      cumulated over rounds (``round1_card_vp``, then + ``round2_card_vp``, then
      + ``round3_card_vp``); the leaders are the seats with the most cumulative card VP after
      each round, and a lead change between two rounds is counted when no leader of the first
      round leads after the next. Mean count per game (0 to 2), t-interval.

    Metrics whose columns are missing (other games) are left out. Columns: the group keys,
    ``games``, then each metric with ``_lo`` and ``_hi``.
    """
    g = as_str(collect(games), "variant")
    s = as_str(collect(seats), "variant", "player")
    require(g, ["game", "n_players"], "games")
    require(s, ["game", "seat", "score", "win_share"], "seats")
    gkeys = game_keys(g)
    keys = unique_keys(variant_key(g), by, ["n_players"])
    require(g, keys, "games")
    g = with_deal(g)
    per = _per_game(s, game_keys(s)).join(g, on=gkeys, how="inner", suffix="_games")
    if not per.height:
        raise ValueError("no game of the seats table is in the games table")
    seat_rows = s.select([*game_keys(s), "seat", "win_share"]).join(
        g.select([*gkeys, *[k for k in keys if k not in gkeys], "deal"]), on=gkeys, how="inner")

    out = per.group_by(keys).agg(pl.len().alias("games")).sort(keys)
    means = [m for m in ("turns", "score_spread", "margin", "lead_changes_card_vp") if m in per.columns]
    for m in means:
        cm = clustered_mean(per.with_columns(pl.col(m).cast(pl.Float64)), keys, m, "deal")
        cm = add_t_interval(cm, m).select([*keys, m, f"{m}_lo", f"{m}_hi"])
        out = out.join(cm, on=keys, how="left")

    rates = per.group_by(keys).agg(
        pl.len().alias("_n"),
        (pl.col("n_winners") > 1).sum().alias("_ties") if "n_winners" in per.columns
        else (pl.col("_winners") > 1).sum().alias("_ties"),
        *([pl.col("_first_share").sum(), pl.col("_firsts").sum()] if "_first_share" in per.columns else []),
    )
    out = out.join(rates, on=keys, how="left")
    lo, hi = wilson_interval(out["_ties"].to_numpy(), out["_n"].to_numpy())
    cols = [(pl.col("_ties") / pl.col("_n")).alias("tie_rate"), pl.Series("tie_rate_lo", lo),
            pl.Series("tie_rate_hi", hi)]
    if "_first_share" in out.columns:
        lo, hi = wilson_interval(out["_first_share"].to_numpy(), out["_firsts"].to_numpy())
        fair = 1.0 / out["n_players"].cast(pl.Float64).to_numpy()
        rate = (out["_first_share"] / out["_firsts"]).to_numpy()
        cols += [pl.Series("first_player_win_rate", rate), pl.Series("first_player_win_rate_lo", lo),
                 pl.Series("first_player_win_rate_hi", hi),
                 pl.Series("first_player_advantage", rate - fair),
                 pl.Series("first_player_advantage_lo", lo - fair),
                 pl.Series("first_player_advantage_hi", hi - fair)]
    out = out.with_columns(cols)

    rng = np.random.default_rng(seed)
    bal = []
    for row in out.select(keys).iter_rows(named=True):
        part = seat_rows.filter(pl.all_horizontal(pl.col(k) == v for k, v in row.items()))
        bal.append(_balance_boot(part, n_boot, rng))
    arr = np.array(bal, dtype=np.float64).reshape(-1, 3)
    out = out.with_columns(pl.Series("balance", arr[:, 0]), pl.Series("balance_lo", arr[:, 1]),
                           pl.Series("balance_hi", arr[:, 2]))
    order = ["turns", "score_spread", "margin", "tie_rate", "first_player_win_rate", "first_player_advantage",
             "balance", "lead_changes_card_vp"]
    metric_cols = [c for m in order if m in out.columns for c in (m, f"{m}_lo", f"{m}_hi")]
    return out.select([*keys, "games", *metric_cols])
