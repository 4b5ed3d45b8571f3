"""Which strategy beats which: paired head-to-head win rates, Plackett–Luce ratings, a heatmap.

All functions take the ``seats`` table (one row per game and seat: ``game``, ``seat``,
``player``, ``rank``; ``variant``, ``lineup``, ``rotation`` when present) as a polars
DataFrame or LazyFrame. Results are computed per ``variant`` when the column is present.

Why deals matter: the runner plays every seat rotation (and line-up) of a deal with the same
seed, so two players meet on the same decks and dice in every seat order. Within a deal,
the luck of the draw and the seat advantage are shared by the rotations and cancel out in
the deal's average; across deals the seeds are independent. The deal is therefore the
independent unit of a comparison (a paired design), not the game.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
from scipy import sparse

from simlab.analysis._common import (
    Frame,
    add_t_interval,
    as_str,
    collect,
    game_keys,
    require,
    variant_key,
    with_deal,
)
from simlab.analysis.multiple import adjust_pvalues

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

ELO_PER_LOGIT = 400.0 / math.log(10.0)


def pairwise_win_rates(seats: Frame, games: Frame | None = None) -> pl.DataFrame:
    """Head-to-head score of every ordered pair of players that met, paired by deal.

    In each game, for every seat of player A and every seat of another player B, A scores 1
    if it finishes ahead of B (lower ``rank``), 1/2 if level and 0 if behind; a game's score
    for (A, B) is the mean over such seat pairs. The scores of a deal's games (its seat
    rotations and line-ups, which share the seed) are averaged into one number per deal, and
    ``win_rate`` is the mean of these deal means, with a 95% t-interval over deals
    (``lo``, ``hi``, clipped to [0, 1]). Because the seat rotations of one deal are played on
    the same seed, the deal mean cancels the luck of the deal and the seat advantage: the
    comparison is paired, and deals (not games) are the independent units. Without rotations
    (``play_batch`` output) every game is its own deal.

    The deal comes from a ``deal`` column, else ``games``, else the plan layout. Two seats
    with the same player label are not compared with each other.

    Columns: ``variant`` (if present), ``player``, ``opponent``, ``deals``, ``games``,
    ``win_rate``, ``lo``, ``hi``, ``p_value`` (t-test of ``win_rate == 1/2``) and ``p_holm``
    (Holm-adjusted over the unordered pairs of the variant; A–B and B–A share one test).
    """
    s = as_str(collect(seats), "variant", "player")
    require(s, ["game", "seat", "player", "rank"], "seats")
    keys = game_keys(s)
    vk = variant_key(s)
    s = with_deal(s, games).select([*keys, "deal", "seat", "player", "rank"])
    pairs = s.join(s.drop("deal"), on=keys, suffix="_opp").filter(
        pl.col("player") != pl.col("player_opp")
    ).with_columns(
        pl.when(pl.col("rank") < pl.col("rank_opp")).then(1.0)
        .when(pl.col("rank") == pl.col("rank_opp")).then(0.5)
        .otherwise(0.0).alias("_score")
    ).rename({"player_opp": "opponent"})
    per_game = pairs.group_by([*keys, "deal", "player", "opponent"]).agg(pl.col("_score").mean())
    per_deal = per_game.group_by([*vk, "deal", "player", "opponent"]).agg(
        pl.col("_score").mean(), pl.len().alias("_games"))
    out = per_deal.group_by([*vk, "player", "opponent"]).agg(
        pl.len().alias("deals"),
        pl.col("_games").sum().alias("games"),
        pl.col("_score").mean().alias("mean"),
        (pl.col("_score").std() / pl.len().sqrt()).alias("se"),
        (pl.len() - 1).alias("dof"),
    ).sort([*vk, "player", "opponent"])
    out = add_t_interval(out, "win_rate", null=0.5, p_name="p_value")
    out = out.with_columns(pl.col("win_rate_lo").clip(0.0, 1.0).alias("lo"),
                           pl.col("win_rate_hi").clip(0.0, 1.0).alias("hi"))
    # Holm over unordered pairs: the A-B and B-A rows are one test.
    out = out.with_columns(
        pl.min_horizontal("player", "opponent").alias("_a"), pl.max_horizontal("player", "opponent").alias("_b"))
    tests = out.filter(pl.col("player") == pl.col("_a")).select([*vk, "_a", "_b", "p_value"])
    parts = []
    for _, part in (tests.group_by(vk, maintain_order=True) if vk else [((), tests)]):
        parts.append(part.with_columns(pl.Series("p_holm", adjust_pvalues(part["p_value"].to_numpy(), "holm"))))
    holm = pl.concat(parts).drop("p_value") if parts else tests.with_columns(pl.lit(None, pl.Float64).alias("p_holm"))
    out = out.join(holm, on=[*vk, "_a", "_b"], how="left")
    return out.select([*vk, "player", "opponent", "deals", "games", "win_rate", "lo", "hi", "p_value", "p_holm"])


# ------------------------------------------------------------------ Plackett–Luce ratings


class _Rankings:
    """Distinct finishing orders (item ids best first, -1 padded) and their counts per deal."""

    def __init__(self, orders: np.ndarray, deal_counts: sparse.csr_matrix, n_items: int):
        self.orders = orders
        self.deal_counts = deal_counts
        self.n_items = n_items
        self.valid = orders >= 0
        self.safe = np.where(self.valid, orders, 0)
        self.weights = np.asarray(deal_counts.sum(axis=0)).ravel()

    def objective(self, theta: np.ndarray, weights: np.ndarray, alpha: float, hessian: bool = False
                  ) -> tuple[float, np.ndarray, np.ndarray | None]:
        """Negative log-likelihood + ``alpha · Σθ²`` (choix's ``opt_rankings`` objective), gradient, Hessian."""
        n = self.n_items
        t = np.where(self.valid, theta[self.safe], -np.inf)
        value = alpha * float(theta @ theta)
        grad = 2 * alpha * theta
        hess = 2 * alpha * np.eye(n) if hessian else None
        width = self.orders.shape[1]
        for j in range(width - 1):
            stage = self.valid[:, j + 1]  # at least two items left to choose from
            if not stage.any():
                break
            w = weights * stage
            tail = t[:, j:]
            top = np.max(tail, axis=1, keepdims=True)
            top = np.where(np.isfinite(top), top, 0.0)
            e = np.exp(tail - top)
            z = np.maximum(e.sum(axis=1), 1e-300)
            lse = np.log(z) + top[:, 0]
            value += float(w @ np.where(stage, lse - np.where(self.valid[:, j], t[:, j], 0.0), 0.0))
            prob = e / z[:, None] * self.valid[:, j:]
            items = self.safe[:, j:]
            grad += np.bincount(items.ravel(), weights=(prob * w[:, None]).ravel(), minlength=n)
            grad -= np.bincount(self.safe[:, j], weights=w * self.valid[:, j], minlength=n)
            if hess is not None:
                hess[np.diag_indices(n)] += np.bincount(items.ravel(), weights=(prob * w[:, None]).ravel(),
                                                        minlength=n)
                m = items.shape[1]
                for a in range(m):
                    flat = items[:, a][:, None] * n + items
                    hess -= np.bincount(flat.ravel(), weights=(prob[:, a][:, None] * prob * w[:, None]).ravel(),
                                        minlength=n * n).reshape(n, n)
        return value, grad, hess

    def fit(self, weights: np.ndarray, alpha: float, start: np.ndarray | None = None) -> np.ndarray:
        """The penalised maximum-likelihood strengths for rankings counted ``weights`` times.

        Newton's method with a backtracking line search (the objective is strictly convex
        for ``alpha > 0``), stopped when the largest gradient entry is below ``1e-9`` per
        ranking counted.
        """
        theta = np.zeros(self.n_items) if start is None else np.array(start, dtype=np.float64)
        tol = 1e-9 * max(float(weights.sum()), 1.0)
        value, grad, hess = self.objective(theta, weights, alpha, hessian=True)
        for _ in range(200):
            if np.max(np.abs(grad)) < tol:
                break
            step = np.linalg.solve(hess, grad)
            slope = float(grad @ step)
            size = 1.0
            while True:
                trial = theta - size * step
                trial_value = self.objective(trial, weights, alpha)[0]
                if trial_value <= value - 1e-4 * size * slope or size < 1e-10:
                    break
                size /= 2
            if size < 1e-10:
                break
            theta = trial
            value, grad, hess = self.objective(theta, weights, alpha, hessian=True)
        return theta


class _TiedGames:
    """The games of a ranking table, split into those with and without tied ranks.

    Games without ties have one finishing order, counted once per deal (``fixed``); the
    orders of tied games are drawn afresh by :meth:`draw` (ties broken uniformly at random,
    each draw independent), so that the bootstrap re-breaks ties in every resample.
    """

    def __init__(self, s: pl.DataFrame, items: list[str]):
        keys = game_keys(s)
        code = {name: i for i, name in enumerate(items)}
        s = s.with_columns(pl.col("player").replace_strict(code, return_dtype=pl.Int64).alias("_item"))
        s = s.sort([*keys, "rank", "_item"]).with_columns(pl.int_range(pl.len()).over(keys).alias("_pos"))
        games = s.select([*keys, "deal"]).unique(subset=keys, maintain_order=True)
        s = s.join(games.with_row_index("_g").select([*keys, "_g"]), on=keys, how="left")
        width = int(s["_pos"].max()) + 1
        g, pos = s["_g"].to_numpy(), s["_pos"].to_numpy()
        items_mat = np.full((games.height, width), -1, dtype=np.int64)
        items_mat[g, pos] = s["_item"].to_numpy()
        rank_mat = np.full((games.height, width), np.inf)
        rank_mat[g, pos] = s["rank"].cast(pl.Float64).to_numpy()
        _, deal_index = np.unique(games["deal"].to_numpy(), return_inverse=True)
        deal_index = deal_index.ravel()
        self.n_items = len(items)
        self.n_deals = int(deal_index.max()) + 1
        finite = np.isfinite(rank_mat)
        tied = ((rank_mat[:, 1:] == rank_mat[:, :-1]) & finite[:, 1:]).any(axis=1)
        orders, inverse = np.unique(items_mat[~tied], axis=0, return_inverse=True)
        self.fixed_orders = orders
        self.fixed_counts = sparse.csr_matrix(
            (np.ones(int((~tied).sum())), (deal_index[~tied], inverse.ravel())),
            shape=(self.n_deals, orders.shape[0]))
        self.tied_items = items_mat[tied]
        self.tied_ranks = rank_mat[tied]
        self.tied_deal = deal_index[tied]

    def draw(self, rng: np.random.Generator, deal_weights: np.ndarray) -> tuple[_Rankings, np.ndarray]:
        """Rankings with the ties broken by a fresh random draw, and their weights given deal weights."""
        orders = [self.fixed_orders]
        weights = [self.fixed_counts.T @ deal_weights]
        if self.tied_items.shape[0]:
            ranks = np.where(np.isfinite(self.tied_ranks), self.tied_ranks, 1e18)
            key = ranks + 0.5 * rng.random(ranks.shape)  # within one rank only: ranks are whole numbers
            order = np.argsort(key, axis=1, kind="stable")
            broken = np.take_along_axis(self.tied_items, order, axis=1)
            uniq, inverse = np.unique(broken, axis=0, return_inverse=True)
            orders.append(uniq)
            weights.append(np.bincount(inverse.ravel(), weights=deal_weights[self.tied_deal], minlength=uniq.shape[0]))
        all_orders = np.concatenate(orders) if len(orders) > 1 else orders[0]
        w = np.concatenate(weights).astype(np.float64)
        counts = sparse.csr_matrix((w, (np.zeros(w.size, dtype=np.int64), np.arange(w.size))), shape=(1, w.size))
        return _Rankings(all_orders, counts, self.n_items), w


def _rankings(s: pl.DataFrame, items: list[str], rng: np.random.Generator) -> _Rankings:
    """Each game's finishing order, ties broken at random, counted per distinct order (weights)."""
    games = _TiedGames(s, items)
    return games.draw(rng, np.ones(games.n_deals))[0]


def ratings(seats: Frame, n_boot: int = 200, seed: int = 0, games: Frame | None = None,
            alpha: float = 0.01, anchor: str | None = None) -> pl.DataFrame:
    """Plackett–Luce strength of every player label, from each game's finishing order.

    Each game is one ranking of its seats (best first, by ``rank``). Under the Plackett–Luce
    model the chance that a player finishes first among those left is
    ``exp(θ_player) / Σ exp(θ_left)``; ``θ`` is the penalised maximum-likelihood estimate
    (the objective of ``choix.opt_rankings``: negative log-likelihood + ``alpha · Σθ²``; the
    small ridge keeps a player that always finishes last finite). The fit is a vectorised
    version of choix's that counts each distinct finishing order once with a weight, so that
    millions of games and the bootstrap stay fast (Newton's method on the same objective);
    the test suite checks it against ``choix.opt_rankings``. Seats with the same label count
    as separate entries of one strength.

    A player that (nearly) always finishes last has no finite maximum-likelihood strength:
    its rating is set by the ridge ``alpha``, and so, through the mean-0 normalisation, is
    the level of the others (their differences are not). Its bootstrap interval is wide;
    compare such players through :func:`pairwise_win_rates` instead.

    Ties (equal ``rank``) are broken uniformly at random (seeded by ``seed``), which favours
    no seat and no player, and broken afresh in every bootstrap resample, so that the
    intervals carry the tie-break's randomness too; the tie rate is small in the bundled games.
    Only differences between ratings are interpretable. The scale is anchored to a named
    reference player at 0 when ``anchor`` names one (e.g. ``"greedy"``: every rating, and its
    interval, is then the difference to that player, in every bootstrap resample; a variant
    without that player is an error), else normalised to mean 0 over the players of the
    variant (so a level depends on who else is in the pool). The ``reference`` column says
    which. Anchor to a player with a finite strength: one that (nearly) never finishes ahead of
    anyone is placed by the ridge ``alpha`` (see above), and so would every rating be.
    ``elo = rating · 400 / ln 10`` is the same number on the Elo scale (a 400-point gap
    is 10:1 odds of finishing ahead in a two-player ranking).

    The 95% intervals are percentile bootstrap intervals over ``n_boot`` resamples of deals
    (all games of a deal, its rotations and line-ups, are resampled together, since they
    share a seed). Columns: ``variant`` (if present), ``player``, ``games`` (seat-games played),
    ``rating``, ``rating_lo``, ``rating_hi``, ``elo``, ``elo_lo``, ``elo_hi``, ``reference``
    (``"<anchor> = 0"`` or ``"mean of the N players = 0"``); best first.
    """
    s = as_str(collect(seats), "variant", "player")
    require(s, ["game", "seat", "player", "rank"], "seats")
    s = with_deal(s, games)
    vk = variant_key(s)
    rng = np.random.default_rng(seed)
    parts = []
    groups = s.group_by(vk, maintain_order=True) if vk else [((), s)]
    for key, part in groups:
        items = sorted(part["player"].unique().to_list())
        if anchor is not None and anchor not in items:
            where = f" in variant {key[0]!r}" if vk else ""
            raise ValueError(f"ratings: the anchor {anchor!r} did not play{where} (players: {', '.join(items)})")
        ref = items.index(anchor) if anchor is not None else None

        def centre(t: np.ndarray, ref: int | None = ref) -> np.ndarray:
            return t - (t[ref] if ref is not None else t.mean())

        tied = _TiedGames(part, items)
        n_deals = tied.n_deals
        data, w = tied.draw(rng, np.ones(n_deals))
        theta = centre(data.fit(w, alpha))
        boot = np.empty((n_boot, len(items)))
        for b in range(n_boot):
            pick = np.bincount(rng.integers(0, n_deals, n_deals), minlength=n_deals).astype(np.float64)
            data_b, w_b = tied.draw(rng, pick)  # ties broken afresh in every resample
            tb = data_b.fit(w_b, alpha, start=theta)
            boot[b] = centre(tb)
        lo, hi = (np.percentile(boot, [2.5, 97.5], axis=0) if n_boot > 1
                  else (np.full(len(items), np.nan), np.full(len(items), np.nan)))
        counts = part.group_by("player").len()
        frame = pl.DataFrame({"player": items, "rating": theta, "rating_lo": lo, "rating_hi": hi}).join(
            counts.rename({"len": "games"}), on="player", how="left")
        reference = f"{anchor} = 0" if anchor is not None else f"mean of the {len(items)} players = 0"
        frame = frame.with_columns(pl.lit(reference).alias("reference"))
        if vk:
            frame = frame.with_columns(pl.lit(key[0]).alias("variant"))
        parts.append(frame)
    out = pl.concat(parts).with_columns(
        (pl.col(c) * ELO_PER_LOGIT).alias(c.replace("rating", "elo")) for c in ("rating", "rating_lo", "rating_hi"))
    return out.sort([*vk, "rating"], descending=[False] * len(vk) + [True]).select(
        [*vk, "player", "games", "rating", "rating_lo", "rating_hi", "elo", "elo_lo", "elo_hi", "reference"])


# ------------------------------------------------------------------ figure


def matchup_heatmap(pairwise: Frame, variant: str | None = None, ax: Axes | None = None) -> Figure:
    """A heat map of ``win_rate`` (row player against column opponent), each cell annotated with
    the estimate over its 95% interval ("0.56" over "[0.53, 0.59]").

    ``pairwise`` is the output of :func:`pairwise_win_rates` (its ``lo``/``hi`` columns are the
    interval; without them the cells show the estimate alone). With several variants, name one
    with ``variant``. Cells are coloured on a diverging scale centred on 1/2, in the reports' one colour
    meaning: blue, the row player finishes ahead more often (good for the row); red, less often; empty
    cells are pairs that never met. The figure grows with the number of players. Returns the matplotlib
    Figure (drawn into ``ax`` if given).
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import seaborn as sns

    pw = as_str(collect(pairwise), "variant", "player", "opponent")
    require(pw, ["player", "opponent", "win_rate"], "pairwise")
    if "variant" in pw.columns:
        names = pw["variant"].unique().to_list()
        if variant is None and len(names) > 1:
            raise ValueError(f"pairwise has several variants ({', '.join(sorted(names))}): pass variant=...")
        if variant is not None:
            pw = pw.filter(pl.col("variant") == variant)
    players = sorted(set(pw["player"].to_list()) | set(pw["opponent"].to_list()))
    frame = pw.to_pandas()

    def grid_of(column: str):
        return frame.pivot(index="player", columns="opponent", values=column).reindex(index=players, columns=players)

    grid = grid_of("win_rate")
    if "lo" in pw.columns and "hi" in pw.columns:
        lo, hi = grid_of("lo").to_numpy(), grid_of("hi").to_numpy()
        annot = np.array([[f"{v:.2f}\n[{a:.2f}, {b:.2f}]" if np.isfinite(v) else ""
                           for v, a, b in zip(vr, ar, br, strict=True)]
                          for vr, ar, br in zip(grid.to_numpy(), lo, hi, strict=True)])
    else:
        annot = np.array([[f"{v:.2f}" if np.isfinite(v) else "" for v in vr] for vr in grid.to_numpy()])
    if ax is None:
        size = 1.0 + 1.25 * len(players)
        fig, ax = plt.subplots(figsize=(size + 1.6, size))
    else:
        fig = ax.figure
    sns.heatmap(grid, ax=ax, annot=annot, fmt="", annot_kws={"fontsize": 8}, cmap="RdBu", vmin=0.0, vmax=1.0,
                square=True, linewidths=0.5, linecolor="white",
                cbar_kws={"label": "share of games finishing ahead", "shrink": 0.8})
    ax.set_xlabel("opponent")
    ax.set_ylabel("player")
    ax.tick_params(axis="y", rotation=0)
    ax.grid(False)
    ax.set_title("Head-to-head: row finishes ahead of column (95% CI)")
    return fig
