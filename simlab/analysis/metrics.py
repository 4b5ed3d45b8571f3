"""Game-level balance metrics: length, score spread, margin, ties, first-player edge, seat imbalance, lead changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis._common import (
    Frame,
    add_t_interval,
    as_str,
    clustered_mean,
    clustered_rate,
    collect,
    game_keys,
    position_covariance,
    require,
    unique_keys,
    variant_key,
    with_deal,
)
from simlab.analysis.intervals import max_t_quantile


def standard_columns(games: pl.DataFrame, seats: pl.DataFrame, game: Any = None) -> Mapping[str, Any]:
    """The game's standard columns (``Game.standard_columns``: ``first_player``, ``turns``, ``round_vp``).

    ``game`` is a game or its name; without one, the registered game whose declared columns
    are all in these tables (when exactly one is) gives them, else none are used.
    """
    from simlab.core.game import all_games, get_game

    if game is not None:
        return get_game(game).standard_columns
    present = set(games.columns) | set(seats.columns)
    found = []
    for g in all_games():
        names = [n for v in g.standard_columns.values() for n in ((v,) if isinstance(v, str) else v)]
        if names and set(names) <= present:
            found.append(g.standard_columns)
    return found[0] if len(found) == 1 else {}


def _per_game(s: pl.DataFrame, keys: list[str], columns: Mapping[str, Any]) -> pl.DataFrame:
    """One row per game from the seats: spread, margin, winners, first player's win share, lead changes."""
    aggs = [
        pl.col("score").cast(pl.Float64).std(ddof=0).alias("score_spread"),
        (pl.col("score").sort(descending=True).get(0) - pl.col("score").sort(descending=True).get(1))
        .cast(pl.Float64).alias("margin"),
        pl.col("win_share").gt(0).sum().alias("_winners"),
        pl.len().alias("_seats"),
    ]
    if "team" in s.columns:  # a team game: its seats' ``team`` column takes more than one value
        teams = pl.col("team").cast(pl.Int64)
        aggs.append(pl.when(teams.n_unique() > 1).then(teams.filter(pl.col("win_share") > 0).n_unique())
                    .alias("_winning_teams"))
    first = columns.get("first_player")
    if first in s.columns:
        aggs += [pl.col("win_share").filter(pl.col(first)).sum().alias("_first_share"),
                 pl.col(first).sum().alias("_firsts")]
    round_vp = tuple(columns.get("round_vp") or ())
    if len(round_vp) >= 2 and all(c in s.columns for c in round_vp):
        cum = [pl.sum_horizontal(round_vp[: r + 1]) for r in range(len(round_vp))]
        s = s.with_columns((c == c.max().over(keys)).alias(f"_lead{i}") for i, c in enumerate(cum))
        changes = [(~(pl.col(f"_lead{r}") & pl.col(f"_lead{r + 1}")).any()).cast(pl.Int32)
                   for r in range(len(round_vp) - 1)]
        aggs.append(pl.sum_horizontal(changes).cast(pl.Float64).alias("lead_changes"))
    return s.group_by(keys).agg(aggs)


def seat_deviation_interval(deal: np.ndarray, seat: np.ndarray, win_share: np.ndarray, fair: float,
                            level: float = 0.95, seed: int = 0) -> tuple[float, float, float]:
    """Largest seat deviation from the fair share, ``D = max_s |rate_s − fair|``, with a simultaneous interval.

    ``seat`` may be any position (a start colour): a position need not be in every deal. The
    position rates and their deal-clustered covariance come from ``position_covariance``, each
    position's variance with its own small-sample factor ``G_s/(G_s−1)`` (``G_s`` the deals it
    is in). Simultaneous intervals ``rate_s ± c·se_s`` hold for every position at once with
    probability ``level``: ``c`` is the max-t critical value of the correlated rates
    (``max_t_quantile``) on ``min_s G_s − 1`` degrees of freedom. Position ``s``'s studentised
    rate has about ``G_s − 1`` degrees of freedom (its variance is estimated from ``G_s`` deals)
    and the max-t quantile falls as the degrees of freedom rise, so the smallest count is the
    choice that is never too narrow for any position: exact when every position is in every
    deal (seats, ``G_s = G``), slightly conservative for the better-sampled positions otherwise.
    Using all ``G`` deals for a colour in 40% of them under-covered (87.5% at 30 deals; see the
    coverage table in docs/analysis.md). On that event ``D`` lies between
    ``max_s dist(fair, [lo_s, hi_s])`` (0 when every interval contains the fair share) and
    ``max_s max(|lo_s − fair|, |hi_s − fair|)``, which is the returned interval: it covers the
    true ``D`` with probability at least ``level``, including ``D = 0`` in a fair game. The
    point estimate is biased upward (noise alone spreads the rates). Returns ``(D, lo, hi)``;
    NaN bounds when a position is in fewer than two deals.
    """
    _, rates, cov, _, g_pos, _ = position_covariance(deal, seat, win_share)
    point = float(np.max(np.abs(rates - fair)))
    dof = int(g_pos.min()) - 1
    if dof < 1:
        return point, float("nan"), float("nan")
    c = max_t_quantile(cov, dof, level, seed=seed)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    lo_s, hi_s = rates - c * se, rates + c * se
    lo = float(np.max(np.maximum(0.0, np.maximum(lo_s - fair, fair - hi_s))))
    hi = float(np.max(np.maximum(np.abs(lo_s - fair), np.abs(hi_s - fair))))
    return point, lo, hi


def game_metrics(games: Frame, seats: Frame, by: Sequence[str] = ("n_players",), n_boot: int = 200,
                 seed: int = 0, game: Any = None) -> pl.DataFrame:
    """One row per group (``variant``, ``by``, ``n_players``) of game-level metrics with 95% intervals.

    How each number is measured (games are the rows of ``games``). **The deal is the unit**:
    the seatings of a deal share its seed, so every standard error is clustered by deal (the
    games table's ``deal`` column, else the plan layout; without rotations every game is its
    own deal):

    The game's standard columns (``Game.standard_columns``, found from ``game`` or the tables,
    see :func:`standard_columns`) name its first player, its length and its per-round VP.

    - ``turns``: mean game length in turns (the game's ``turns`` column), t-interval.
    - ``score_spread``: mean over games of the standard deviation (population, ddof 0) of the
      seats' final scores in the game, t-interval.
    - ``margin``: mean over games of winner's score minus runner-up's score (0 on a shared
      win), t-interval.
    - ``tie_rate``: share of games won by more than one side, deal-clustered Wilson interval
      (Wilson on the effective number of games, see ``seat_win_rates``). A side is a seat, or
      in a team game a team: when the seats table has a ``team`` column that takes more than
      one value in a game, its tie is a win shared by more than one team (a team's win, with
      its team-mates all winners, is no tie); otherwise a tie is more than one winner.
    - ``first_player_advantage``: the effect first. The mean ``win_share`` of the seat that
      moved first (the game's ``first_player`` column; ``first_player_win_rate``, deal-clustered
      Wilson interval) minus the fair share ``1 / n_players``, same interval shifted;
      ``first_player_p_value`` is the score test of no advantage that the interval inverts
      (p < 0.05 exactly when it excludes 0).
    - ``max_seat_deviation``: the seat imbalance, ``D = max_s |win rate of seat s − 1/n|`` (0 in
      a fair game), with a simultaneous 95% interval: max-t intervals over the seats' rates
      (deal-clustered covariance) and the range of ``D`` they allow, which covers the true
      ``D`` (0 included) at least 95% of the time. The point estimate is biased upward by noise;
      read the interval, and ``seat_fairness_p`` (the deal-clustered Wald test of equal seat
      win rates, ``seat_fairness_test``) for whether any seat differs. This replaces the former
      ``balance = 1 − (max − min)`` whose bootstrap interval never covered a fair game's 1.
    - ``lead_changes``: the game's per-round VP columns (``round_vp``; e.g. card VP only, when
      other VP come at the end), cumulated over rounds; the leaders are the seats with the most
      cumulative VP after each round, and a lead change between two rounds is counted when no
      leader of the first round leads after the next. Mean count per game (0 to rounds − 1),
      t-interval.

    ``seed`` seeds the max-t simulation; ``n_boot`` is no longer used (kept for callers).
    Metrics whose columns are missing (other games) are left out. Columns: the group keys,
    ``games``, ``deals``, then each metric with ``_lo`` and ``_hi``, ``first_player_p_value``
    and ``seat_fairness_p``.
    """
    from simlab.analysis.seats import cluster_wald_equal

    g = as_str(collect(games), "variant")
    s = as_str(collect(seats), "variant", "player")
    require(g, ["game", "n_players"], "games")
    require(s, ["game", "seat", "score", "win_share"], "seats")
    gkeys = game_keys(g)
    keys = unique_keys(variant_key(g), by, ["n_players"])
    require(g, keys, "games")
    g = with_deal(g)
    columns = standard_columns(g, s, game)
    turns = columns.get("turns")
    if turns and turns != "turns" and turns in g.columns:
        g = g.with_columns(pl.col(turns).alias("turns"))
    per = _per_game(s, game_keys(s), columns).join(g, on=gkeys, how="inner", suffix="_games")
    if not per.height:
        raise ValueError("no game of the seats table is in the games table")
    seat_rows = s.select([*game_keys(s), "seat", "win_share"]).join(
        g.select([*gkeys, *[k for k in keys if k not in gkeys], "deal"]), on=gkeys, how="inner")

    out = per.group_by(keys).agg(pl.len().alias("games"), pl.col("deal").n_unique().alias("deals")).sort(keys)
    means = [m for m in ("score_spread", "margin", "lead_changes") if m in per.columns]
    if turns in g.columns:
        means.insert(0, "turns")
    for m in means:
        cm = clustered_mean(per.with_columns(pl.col(m).cast(pl.Float64)), keys, m, "deal")
        cm = add_t_interval(cm, m).select([*keys, m, f"{m}_lo", f"{m}_hi"])
        out = out.join(cm, on=keys, how="left")

    winners = pl.col("n_winners") if "n_winners" in per.columns else pl.col("_winners")
    if "_winning_teams" in per.columns:  # between teams: a team's win has as many winners as team-mates
        winners = pl.coalesce(pl.col("_winning_teams"), winners)
    per = per.with_columns((winners > 1).cast(pl.Float64).alias("_tie"))
    ties = clustered_rate(per, keys, "_tie", "deal")
    out = out.join(ties.select([*keys, pl.col("mean").alias("tie_rate"), pl.col("lo").alias("tie_rate_lo"),
                                pl.col("hi").alias("tie_rate_hi")]), on=keys, how="left")
    if "_first_share" in per.columns:
        per = per.with_columns((1.0 / pl.col("n_players").cast(pl.Float64)).alias("_fair"))
        first = clustered_rate(per.filter(pl.col("_firsts") > 0), keys, "_first_share", "deal", den="_firsts",
                               null="_fair")
        fair = 1.0 / pl.col("n_players").cast(pl.Float64)
        out = out.join(first.select(
            *keys, pl.col("mean").alias("first_player_win_rate"), pl.col("lo").alias("first_player_win_rate_lo"),
            pl.col("hi").alias("first_player_win_rate_hi"), pl.col("p_value").alias("first_player_p_value")),
            on=keys, how="left").with_columns(
            (pl.col("first_player_win_rate") - fair).alias("first_player_advantage"),
            (pl.col("first_player_win_rate_lo") - fair).alias("first_player_advantage_lo"),
            (pl.col("first_player_win_rate_hi") - fair).alias("first_player_advantage_hi"))

    dev, fair_p = [], []
    for i, row in enumerate(out.select(keys).iter_rows(named=True)):
        part = seat_rows.filter(pl.all_horizontal(pl.col(k) == v for k, v in row.items()))
        deal, seat, win = part["deal"].to_numpy(), part["seat"].to_numpy(), part["win_share"].to_numpy()
        dev.append(seat_deviation_interval(deal, seat, win, 1.0 / float(row["n_players"]), seed=seed + i))
        fair_p.append(cluster_wald_equal(deal, seat, win)[3])
    arr = np.array(dev, dtype=np.float64).reshape(-1, 3)
    out = out.with_columns(pl.Series("max_seat_deviation", arr[:, 0]), pl.Series("max_seat_deviation_lo", arr[:, 1]),
                           pl.Series("max_seat_deviation_hi", arr[:, 2]),
                           pl.Series("seat_fairness_p", np.array(fair_p, dtype=np.float64)))
    order = ["turns", "score_spread", "margin", "tie_rate", "first_player_win_rate", "first_player_advantage",
             "max_seat_deviation", "lead_changes"]
    metric_cols = [c for m in order if m in out.columns for c in (m, f"{m}_lo", f"{m}_hi")]
    tests = [c for c in ("first_player_p_value", "seat_fairness_p") if c in out.columns]
    return out.select([*keys, "games", "deals", *metric_cols, *tests])
