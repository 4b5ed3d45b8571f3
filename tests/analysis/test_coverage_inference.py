"""Proof by simulation: pairwise win rates, card values and the SPRT hold their nominal rates
when the seatings of a deal are correlated (design principle 5: the deal is the unit).

The data are synthetic tables in the project's own schema (``seats``, ``games``, ``takes``)
with the real dependence structure: two-player duplicate deals whose two seatings share a
strongly deal-dependent outcome (the deal suits one player's plan, in both seat orders), a
seat advantage, shared wins (draws), and card ablations played on the same deals as the base
game. Every truth is known. Seeds are fixed, so each assertion is deterministic; the bounds
are binomial tolerances (three standard errors) around the nominal rate. The figures these
tests measure are quoted in ``docs/analysis.md`` ("Coverage and error rates, proven by
simulation").
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simlab.analysis import card_values_causal, pairwise_win_rates
from simlab.analysis.sequential import elo_to_score, sprt
from simlab.runner.spec import StopRule
from simlab.runner.stopping import StopTracker, segment_sums


def _floor(rate: float, reps: int) -> float:
    """The lowest coverage compatible with ``rate`` at ``reps`` replicates (three binomial standard errors)."""
    return rate - 3 * math.sqrt(rate * (1 - rate) / reps)


def _ceiling(rate: float, reps: int) -> float:
    """The highest error rate compatible with ``rate`` at ``reps`` replicates."""
    return rate + 3 * math.sqrt(rate * (1 - rate) / reps)


def duplicate_scores(rng: np.random.Generator, reps: int, deals: int, score: float, spread: float = 0.38,
                     seat: float = 0.02, draw: float = 0.1) -> np.ndarray:
    """A's head-to-head score (1 win, 1/2 draw, 0 loss) in ``reps x deals x 2`` games.

    Deal ``d`` suits A or B (``±spread`` on A's win chance in both seatings of the deal);
    seating 0 puts A in seat 0 (``+seat``), seating 1 in seat 1 (``-seat``); a draw (a
    shared win) has chance ``draw``. A's expected score per game, and per deal, is ``score``.
    """
    suits = np.where(rng.random((reps, deals)) < 0.5, -spread, spread)
    x = np.empty((reps, deals, 2))
    for r in range(2):
        win = score + suits + (seat if r == 0 else -seat) - draw / 2
        u = rng.random((reps, deals))
        x[..., r] = np.where(u < win, 1.0, np.where(u < win + draw, 0.5, 0.0))
    return x


def seats_table(x: np.ndarray, with_deal: bool = True, variant: np.ndarray | None = None) -> pl.DataFrame:
    """The seats table of ``deals x 2`` duplicate games (A's scores ``x``), in the runner's layout.

    Game ``2 d + r`` is seating ``r`` of deal ``d``: A in seat ``r``. ``variant`` (one label
    per deal) stacks replicates into one table.
    """
    deals = x.shape[0]
    game = np.repeat(np.arange(2 * deals), 2)
    rot = game % 2
    seat = np.tile([0, 1], 2 * deals)
    is_a = seat == rot
    xa = np.repeat(x.ravel(), 2)
    mine = np.where(is_a, xa, 1 - xa)
    frame = pl.DataFrame({
        "game": game.astype(np.int64), "seat": seat.astype(np.int8),
        "player": np.where(is_a, "A", "B"),
        "variant": (np.repeat(variant, 4) if variant is not None else np.full(game.size, "base")).astype(str),
        "lineup": np.zeros(game.size, np.int32), "rotation": rot.astype(np.int32),
        "rank": np.where(mine >= 0.5, 1, 2).astype(np.int32),
        "win_share": np.where(mine == 1, 1.0, np.where(mine == 0.5, 0.5, 0.0)),
        "n_players": np.full(game.size, 2, np.int8),
    })
    return frame.with_columns((pl.col("game") // 2).alias("deal")) if with_deal else frame


# ---------------------------------------------------------------- pairwise win rates

PAIR_REPS = 400


def test_pairwise_win_rate_intervals_cover_on_correlated_duplicate_deals():
    """400 data sets of 60 duplicate deals, A's true score 0.56: the deal-paired 95% interval covers."""
    rng = np.random.default_rng(20261)
    truth = 0.56
    x = duplicate_scores(rng, PAIR_REPS, 60, truth)
    label = np.repeat(np.arange(PAIR_REPS), 60)
    frames = []
    for i in range(PAIR_REPS):  # game indices restart in every data set (the variant tells them apart)
        frames.append(seats_table(x[i], variant=label[label == i]))
    seats = pl.concat(frames)
    pw = pairwise_win_rates(seats).filter(pl.col("player") == "A")
    assert pw.height == PAIR_REPS and (pw["deals"] == 60).all() and (pw["games"] == 120).all()
    covered = ((pw["lo"] <= truth) & (truth <= pw["hi"])).mean()
    assert covered >= _floor(0.95, PAIR_REPS), covered
    # what the game-as-unit interval would give on the same data (documentation: it under-covers)
    games = x.reshape(PAIR_REPS, 120)
    half = 1.98 * games.std(axis=1, ddof=1) / math.sqrt(120)
    naive = (np.abs(games.mean(axis=1) - truth) <= half).mean()
    assert naive < _floor(0.95, PAIR_REPS) < covered


# ---------------------------------------------------------------- card value (paired ablation)

CARD_REPS = 300
CARD_DEALS = 80


def _ablation_tables(rng: np.random.Generator, vp_gain: float, removed_loss: float) -> dict[str, pl.DataFrame]:
    """Base, ``card7_vp9`` (+VP: the holder gains ``vp_gain`` on average) and ``card3_removed``
    (the holder loses ``removed_loss``) on the same 2-player duplicate deals.

    The change's effect on the holder depends strongly on the deal (shared by both seatings),
    so games of a deal are correlated; scores also carry a shared deal effect and game noise.
    """
    games = 2 * CARD_DEALS
    deal = np.arange(games) // 2
    base = 20 + np.repeat(rng.normal(0, 3, CARD_DEALS), 2)[:, None] + rng.normal(0, 2, (games, 2))
    holder = {7: rng.integers(0, 2, games), 3: rng.integers(0, 2, games)}
    seats, takes, rows = [], [], []
    effects = {"card7_vp9": (7, vp_gain), "card3_removed": (3, -removed_loss)}
    for variant in ("base", *effects):
        score = base.copy()
        if variant != "base":
            card, mean = effects[variant]
            by_deal = np.repeat(mean + rng.normal(0, 2.5, CARD_DEALS), 2)  # the deal decides how much it matters
            score[np.arange(games), holder[card]] += by_deal + rng.normal(0, 0.5, games)
            score += rng.normal(0, 0.3, (games, 2))
        win = np.where(score > score[:, ::-1], 1.0, np.where(score == score[:, ::-1], 0.5, 0.0))
        seats.append(pl.DataFrame({
            "game": np.repeat(np.arange(games), 2), "deal": np.repeat(deal, 2), "seat": np.tile([0, 1], games),
            "variant": variant, "score": score.ravel(), "win_share": win.ravel(),
            "rank": np.where(win.ravel() > 0, 1, 2)}))
        for card in (7, 3):
            if variant == "card3_removed" and card == 3:
                continue
            takes.append(pl.DataFrame({"game": np.arange(games), "seat": holder[card], "card": card,
                                       "points": 2, "variant": variant}))
        rows.append(pl.DataFrame({"game": np.arange(games), "deal": deal, "seed": deal * 7919 + 1,
                                  "variant": variant}))
    return {"seats": pl.concat(seats), "takes": pl.concat(takes), "games": pl.concat(rows)}


def test_card_value_intervals_cover_with_deal_dependent_effects():
    """300 ablation runs of 80 duplicate deals: the 95% intervals of ``value`` cover the planted values."""
    rng = np.random.default_rng(777)
    vp_gain, removed_loss = 1.5, 2.0
    hits = {"card7_vp9": 0, "card3_removed": 0}
    for _ in range(CARD_REPS):
        out = card_values_causal(_ablation_tables(rng, vp_gain, removed_loss))
        for row in out.iter_rows(named=True):
            truth = vp_gain if row["change"] == "vp" else removed_loss
            assert row["games_held"] == 2 * CARD_DEALS
            hits[row["variant"]] += row["value_lo"] <= truth <= row["value_hi"]
    for variant, n in hits.items():
        assert n / CARD_REPS >= _floor(0.95, CARD_REPS), (variant, n / CARD_REPS)


def test_card_value_sign_and_raw_difference():
    """``value`` is positive for a card that helps its holder (removed or raised); ``score_diff`` is variant − base."""
    out = card_values_causal(_ablation_tables(np.random.default_rng(5), 3.0, 3.0))
    removed = out.filter(pl.col("change") == "removed").row(0, named=True)
    raised = out.filter(pl.col("change") == "vp").row(0, named=True)
    assert removed["value"] > 0 and removed["score_diff"] == -removed["value"]
    assert removed["value_lo"] == -removed["score_diff_hi"] and removed["value_hi"] == -removed["score_diff_lo"]
    assert raised["value"] > 0 and raised["score_diff"] == raised["value"]
    assert raised["value_lo"] == raised["score_diff_lo"]


# ---------------------------------------------------------------- the SPRT

SPRT_REPS = 2000
SPRT_DEALS = 3000
EVERY = 20  # deals between checkpoints (40 games)
ELO0, ELO1, ALPHA, BETA = 0.0, 40.0, 0.05, 0.05


def _decisions(x: np.ndarray, by_deal: bool) -> np.ndarray:
    """The SPRT's decision (1 = H1, -1 = H0, 0 = none) at checkpoints every ``EVERY`` deals.

    ``by_deal``: the runner's test, one score per deal (the mean of its two games); else the
    old test, which counted every game as an independent score.
    """
    reps, deals, _ = x.shape
    unit = x.mean(axis=2) if by_deal else x.reshape(reps, 2 * deals)
    per_deal = 1 if by_deal else 2
    total, total_sq = np.cumsum(unit, axis=1), np.cumsum(unit**2, axis=1)
    decision = np.zeros(reps, dtype=np.int64)
    for d in range(EVERY, deals + 1, EVERY):
        n = d * per_deal
        for i in np.flatnonzero(decision == 0):
            r = sprt(n, total[i, n - 1], total_sq[i, n - 1], ELO0, ELO1, ALPHA, BETA)
            decision[i] = 1 if r.decision == "H1" else -1 if r.decision == "H0" else 0
    return decision


def test_sprt_by_deal_holds_alpha_and_beta_where_counting_games_does_not():
    """2000 runs under H0 (elo 0) and 2000 under H1 (elo 40), deals strongly correlated:
    the deal-paired SPRT accepts H1 under H0 at most alpha (+ tolerance) and H0 under H1 at most
    beta; the old game-counting SPRT exceeds alpha on the same data."""
    rng = np.random.default_rng(4242)
    h0 = duplicate_scores(rng, SPRT_REPS, SPRT_DEALS, elo_to_score(ELO0))
    h1 = duplicate_scores(rng, SPRT_REPS, SPRT_DEALS, elo_to_score(ELO1))
    new0, new1 = _decisions(h0, True), _decisions(h1, True)
    type1, type2 = (new0 == 1).mean(), (new1 == -1).mean()
    assert (new0 != 0).all() and (new1 != 0).all()  # every run decides well before the maximum
    assert type1 <= _ceiling(ALPHA, SPRT_REPS), type1
    assert type2 <= _ceiling(BETA, SPRT_REPS), type2
    old0 = _decisions(h0, False)
    assert (old0 == 1).mean() > _ceiling(ALPHA, SPRT_REPS) + 0.02  # the old test's false alarms: about 0.12


def test_the_runner_tracker_decides_by_deal_whatever_the_shards():
    """The stop tracker (segment sums per shard, checkpoints on the finished prefix) gives the same
    decisions as the per-deal SPRT above, for shards that cut deals in two, arriving in any order,
    with or without a ``deal`` column."""
    rng = np.random.default_rng(99)
    reps, deals = 24, 600
    x = duplicate_scores(rng, reps, deals, elo_to_score(20.0))
    expected = _decisions(x, True)
    rule = StopRule(rule="sprt", check_every=2 * EVERY, player_a="A", player_b="B", elo0=ELO0, elo1=ELO1,
                    alpha=ALPHA, beta=BETA)
    check = 2 * EVERY
    checkpoints = [*range(check, 2 * deals, check), 2 * deals]
    for i in range(reps):
        seats = seats_table(x[i], with_deal=bool(i % 2))
        cuts = np.sort(rng.choice(np.arange(1, 2 * deals), size=7, replace=False))
        bounds = list(zip([0, *cuts], [*cuts, 2 * deals], strict=True))  # odd cuts split a deal
        tracker = StopTracker(rule, check, checkpoints)
        for lo, hi in rng.permutation(np.array(bounds)):
            part = seats.filter((pl.col("game") >= lo) & (pl.col("game") < hi))
            tracker.add(int(lo), int(hi), segment_sums(rule, part, check))
            tracker.evaluate()
        decision = tracker.decision["decision"]
        got = 1 if decision == "H1" else -1 if decision == "H0" else 0
        assert got == expected[i]
        assert tracker.decision["deals"] == tracker.stop_at // 2
        assert tracker.decision["games_compared"] == tracker.stop_at
