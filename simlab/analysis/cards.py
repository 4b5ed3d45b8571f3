"""What a card is worth: observational summaries, paired ablations (causal), a score regression.

Inputs are the stored tables as polars DataFrames or LazyFrames: ``seats`` (one row per game
and seat) and the ``takes`` event table (one row per card taken: ``game``, ``seat``, ``card``,
``points``, ...). Games are keyed by (``variant``, ``game``); observational results are
per ``variant``.

Two kinds of number, labelled in a ``kind`` column (design principle 5):

- *observational (correlational)*: how seats that took a card fared. A card that strong
  players take, or that comes with a good position, looks valuable without causing anything.
- *causal (paired ablation)*: the same seeds played with the card changed (its VP raised,
  or the card removed) in a variant; the per-game difference against the base game is the
  card's effect, because everything else (deck order, dice, players) is held equal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl
from scipy import linalg, sparse, stats

from simlab.analysis._common import (
    LEVEL,
    Frame,
    add_t_interval,
    as_str,
    clustered_mean,
    collect,
    game_keys,
    require,
    variant_key,
    with_deal,
)
from simlab.analysis.intervals import wilson_interval
from simlab.analysis.multiple import adjust_pvalues

__all__ = [
    "adjust_pvalues",
    "card_score_regression",
    "card_value_ablation",
    "card_value_observational",
    "card_values_causal",
]

OBSERVATIONAL = "observational (correlational)"
CAUSAL = "causal (paired ablation)"
REGRESSION = "observational (regression)"


# ------------------------------------------------------------------ observational


def card_value_observational(takes: Frame, seats: Frame, games: Frame | None = None) -> pl.DataFrame:
    """Per card (and variant): how often it is taken and how its takers fared. Correlational.

    - ``times_taken``: rows of ``takes`` for the card; ``games_taken``: games where someone
      took it; ``take_rate = games_taken / games`` with a Wilson interval.
    - ``mean_points``: mean VP the card scored in the round it was taken (``points``), with a
      t-interval over takes.
    - ``win_rate_taker``: mean ``win_share`` of the seats that took it; ``win_rate_others``:
      of the other seats of the same games; each with a Wilson interval.
    - ``win_diff``: per game, (mean win share of its takers) − (mean win share of the other
      seats), averaged over the games where it was taken. The takers and the others of one
      game are not independent samples (the win shares of a game sum to 1), so instead of a
      Newcombe interval for two independent proportions the interval is a Wald (t) interval
      of this per-game paired difference, clustered by deal (the seat rotations of a deal
      share a seed; see ``with_deal``), with ``win_diff_p`` testing a zero difference.

    Strong players and good positions take good cards, so none of this is the card's causal
    value (see :func:`card_values_causal`). Column ``kind`` says so.
    """
    t = as_str(collect(takes), "variant", "player")
    s = as_str(collect(seats), "variant", "player")
    require(t, ["game", "seat", "card", "points"], "takes")
    t = t.with_columns(pl.col("card").cast(pl.Int64))
    require(s, ["game", "seat", "win_share"], "seats")
    keys = game_keys(s)
    vk = variant_key(s)
    s = with_deal(s, games)
    per_game = s.group_by(keys).agg(
        pl.col("win_share").sum().alias("_W"), pl.len().alias("_n"), pl.col("deal").first())
    n_games = per_game.group_by(vk).agg(pl.len().alias("games")) if vk else per_game.select(pl.len().alias("games"))
    counts = t.group_by([*vk, "card"]).agg(
        pl.len().alias("times_taken"),
        pl.col("points").cast(pl.Float64).mean().alias("mean_points"),
        (pl.col("points").cast(pl.Float64).std() / pl.len().sqrt()).alias("_se"),
        (pl.len() - 1).alias("_dof"),
    )
    per = (  # one row per game and card taken: the takers' win shares and the game's totals
        t.lazy().select([*keys, "card", "seat"]).unique()
        .join(s.lazy().select([*keys, "seat", "win_share"]), on=[*keys, "seat"], how="left")
        .group_by([*keys, "card"]).agg(pl.col("win_share").sum().alias("_S"), pl.len().alias("_k"))
        .join(per_game.lazy(), on=keys, how="left")
        .with_columns((pl.col("_S") / pl.col("_k")
                       - (pl.col("_W") - pl.col("_S")) / (pl.col("_n") - pl.col("_k"))).alias("_d"))
        .collect()
    )
    rates = per.group_by([*vk, "card"]).agg(
        pl.len().alias("games_taken"),
        pl.col("_S").sum().alias("_St"), pl.col("_k").sum().alias("_Kt"),
        (pl.col("_W") - pl.col("_S")).sum().alias("_So"), (pl.col("_n") - pl.col("_k")).sum().alias("_Ko"),
    )
    diff = clustered_mean(per.filter(pl.col("_n") > pl.col("_k")), [*vk, "card"], "_d", "deal")
    diff = add_t_interval(diff, "win_diff", p_name="win_diff_p").select(
        [*vk, "card", "win_diff", "win_diff_lo", "win_diff_hi", "win_diff_p"])
    out = counts.join(rates, on=[*vk, "card"], how="left").join(diff, on=[*vk, "card"], how="left")
    out = (out.join(n_games, on=vk, how="left") if vk else out.with_columns(pl.lit(n_games["games"][0]).alias("games")))
    out = add_t_interval(out.rename({"mean_points": "_mp"}), "mean_points", mean="_mp", se="_se", dof="_dof")
    out = out.sort([*vk, "card"])
    take_lo, take_hi = wilson_interval(out["games_taken"].to_numpy(), out["games"].to_numpy())
    tk_lo, tk_hi = wilson_interval(out["_St"].to_numpy(), out["_Kt"].to_numpy())
    ot_lo, ot_hi = wilson_interval(out["_So"].to_numpy(), out["_Ko"].to_numpy())
    out = out.with_columns(
        (pl.col("games_taken") / pl.col("games")).alias("take_rate"),
        pl.Series("take_rate_lo", take_lo), pl.Series("take_rate_hi", take_hi),
        (pl.col("_St") / pl.col("_Kt")).alias("win_rate_taker"),
        pl.Series("win_rate_taker_lo", tk_lo), pl.Series("win_rate_taker_hi", tk_hi),
        (pl.col("_So") / pl.col("_Ko")).alias("win_rate_others"),
        pl.Series("win_rate_others_lo", ot_lo), pl.Series("win_rate_others_hi", ot_hi),
        pl.lit(OBSERVATIONAL).alias("kind"),
    )
    return out.select(
        [*vk, "card", "games", "times_taken", "games_taken", "take_rate", "take_rate_lo", "take_rate_hi",
         "mean_points", "mean_points_lo", "mean_points_hi",
         "win_rate_taker", "win_rate_taker_lo", "win_rate_taker_hi",
         "win_rate_others", "win_rate_others_lo", "win_rate_others_hi",
         "win_diff", "win_diff_lo", "win_diff_hi", "win_diff_p", "kind"])


# ------------------------------------------------------------------ causal (paired ablation)


def _holders(takes: pl.DataFrame | None, card: int) -> pl.DataFrame:
    if takes is None:
        return pl.DataFrame(schema={"game": pl.Int64, "seat": pl.Int8})
    require(takes, ["game", "seat", "card"], "takes")
    return takes.filter(pl.col("card") == card).select(
        pl.col("game").cast(pl.Int64), pl.col("seat").cast(pl.Int8)).unique()


def card_value_ablation(seats_base: Frame, seats_variant: Frame, takes_base: Frame, card: int,
                        takes_variant: Frame | None = None, games: Frame | None = None) -> pl.DataFrame:
    """The paired effect of a change to ``card`` on the seat that holds it (variant − base).

    ``seats_base`` and ``seats_variant`` are the seats of one variant each, played on the same
    seeds: game ``g`` of the variant is paired with game ``g`` of the base (the runner gives
    every variant the same seeds; with removed cards the other cards keep their order).

    Which seat: the card's *holder*, i.e. the seat that took it in the variant game when
    ``takes_variant`` is given and someone took it there, else the seat that took it in the
    base game. So a raised VP is credited to whoever ends up with the card (the change may
    move it to another seat), and a removed card is charged to the seat that had it in the
    base game. Games where nobody took it in either game are left out (``games_held`` counts
    the games used, ``games`` all paired games): there the card's change has no holder.

    Per game used, ``win_diff = win_share(variant) − win_share(base)`` and
    ``score_diff = score(variant) − score(base)`` for the holder's seat, averaged over the
    games, with 95% t-intervals and p-values of a zero mean. Games are independent units
    unless seats are rotated within deals (the rotations share a seed), in which case they
    are clustered by deal (``deal`` from ``games`` or the plan layout, see ``with_deal``).
    For a removal the card's value is the negative of the difference.

    Returns one row: ``card``, ``games``, ``games_held``, ``win_diff`` (+ ``_lo``, ``_hi``,
    ``win_p``), ``score_diff`` (+ ``_lo``, ``_hi``, ``score_p``), ``kind``.
    """
    base = as_str(collect(seats_base), "variant", "player")
    var = as_str(collect(seats_variant), "variant", "player")
    for frame, name in ((base, "seats_base"), (var, "seats_variant")):
        require(frame, ["game", "seat", "score", "win_share"], name)
    tb = collect(takes_base)
    tv = collect(takes_variant) if takes_variant is not None else None
    held_v = _holders(tv, card)
    held_b = _holders(tb, card).join(held_v.select("game").unique(), on="game", how="anti")
    holders = pl.concat([held_v, held_b])
    pick = ["game", "seat", "score", "win_share"]
    deal_src = with_deal(base.drop("variant") if "variant" in base.columns else base,
                         None if games is None else as_str(collect(games), "variant").drop("variant", strict=False))
    cast = [pl.col("game").cast(pl.Int64), pl.col("seat").cast(pl.Int8),
            pl.col("score").cast(pl.Float64), pl.col("win_share").cast(pl.Float64)]
    b = base.select(pick).with_columns(cast)
    v = var.select(pick).with_columns(cast)
    paired_games = b.select("game").unique().join(v.select("game").unique(), on="game", how="inner").height
    rows = holders.join(b, on=["game", "seat"], how="inner").join(
        v, on=["game", "seat"], how="inner", suffix="_v").join(
        deal_src.select(pl.col("game").cast(pl.Int64), "deal").unique(subset="game"), on="game", how="left"
    ).with_columns(
        (pl.col("win_share_v") - pl.col("win_share")).alias("_dw"),
        (pl.col("score_v") - pl.col("score")).alias("_ds"),
        pl.lit(int(card)).alias("card"),
    )
    rows = rows.group_by("game").agg(pl.col("_dw", "_ds").mean(), pl.col("deal", "card").first())
    win = add_t_interval(clustered_mean(rows, ["card"], "_dw", "deal"), "win_diff", p_name="win_p")
    score = add_t_interval(clustered_mean(rows, ["card"], "_ds", "deal"), "score_diff", p_name="score_p")
    if not rows.height:
        empty = {c: [None] for c in ("win_diff", "win_diff_lo", "win_diff_hi", "win_p",
                                     "score_diff", "score_diff_lo", "score_diff_hi", "score_p")}
        out = pl.DataFrame({"card": [int(card)], "games_held": [0], **empty},
                           schema_overrides={c: pl.Float64 for c in empty})
    else:
        out = win.select("card", pl.col("n").alias("games_held"), "win_diff", "win_diff_lo", "win_diff_hi",
                         "win_p").join(
            score.select("card", "score_diff", "score_diff_lo", "score_diff_hi", "score_p"), on="card")
    return out.with_columns(
        pl.col("card").cast(pl.Int64), pl.col("games_held").cast(pl.Int64),
        pl.lit(paired_games, pl.Int64).alias("games"), pl.lit(CAUSAL).alias("kind"),
    ).select("card", "games", "games_held", "win_diff", "win_diff_lo", "win_diff_hi", "win_p",
             "score_diff", "score_diff_lo", "score_diff_hi", "score_p", "kind")


_CARD_NAME = re.compile(r"^card(\d+)(?:_|$)")


def _variant_cards(variants: Sequence[str], base: str,
                   cards: Mapping[str, Any] | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in variants:
        if name == base:
            continue
        if cards is not None:
            if name not in cards:
                continue
            value = cards[name]
            if isinstance(value, Mapping):  # a manifest entry: its ablation names the card
                ablation = value.get("ablation") or {}
                value = ablation.get("id", value.get("card"))
            if value is None:
                continue
            out[name] = int(value)
        else:
            m = _CARD_NAME.match(name)
            if m:
                out[name] = int(m.group(1))
    return out


def _variant_change(name: str, card: int, cards: Mapping[str, Any] | None) -> str:
    """``removed`` or ``vp`` (a printed-VP change) for an ablation variant, from its manifest entry or its name."""
    entry = cards.get(name) if cards is not None else None
    if isinstance(entry, Mapping):
        change = (entry.get("ablation") or {}).get("change")
        if change in ("remove", "vp"):
            return "removed" if change == "remove" else "vp"
        if card in [int(c) for c in entry.get("remove") or []]:
            return "removed"
        if any(int(c.get("card", -1)) == card and c.get("field") == "printed_vp" for c in entry.get("set") or []):
            return "vp"
    if name.endswith("_removed"):
        return "removed"
    if re.match(r"^card\d+_vp", name):
        return "vp"
    return "changed"


def card_values_causal(tables: Mapping[str, Frame], base: str = "base",
                       cards: Mapping[str, Any] | None = None) -> pl.DataFrame:
    """Causal value of every card from a run with one variant per card (paired ablation).

    ``tables`` is what ``simlab.results.load(run)`` returns (``seats`` and ``takes`` needed;
    ``games``, if present, checks that the paired games share their seeds and gives the
    deals). Each variant other than ``base`` is matched to its card by ``cards`` (variant name
    -> card id, or the manifest's ``data`` section, whose entries carry a ``card``) or, by
    default, by its name (``card32_vp7``, ``card32_removed``). Variants with no card are
    skipped. For each, :func:`card_value_ablation` gives the holder's paired difference
    (variant − base) in win share and score with t-intervals; the p-values are then adjusted
    across all the cards of the table, by Holm (family-wise error) and Benjamini–Hochberg
    (false discovery rate): ``win_p_holm``, ``win_p_bh``, ``score_p_holm``, ``score_p_bh``.

    The raw differences ``score_diff`` and ``win_diff`` are variant − base. What they mean
    depends on the change, named in ``change``: ``removed`` (the card taken out of the deck)
    or ``vp`` (its printed VP changed, e.g. ``card32_vp7``: set to 7). ``value`` (with
    ``value_lo``, ``value_hi``) is the holder's score that the card, or the change, is worth,
    signed so that positive means it helps its holder: for a removal ``value = −score_diff``
    (the VP its holder loses without it, i.e. what the card is worth), for a VP change
    ``value = score_diff`` (the VP the change adds to its holder's score: "+3 VP is worth
    +2.1 VP to its holder"). ``win_value`` (``_lo``, ``_hi``) is the same for the win share.
    The intervals are those of the differences (paired by game, clustered by deal), flipped
    for removals.

    Rows are sorted by ``value``, largest first. Columns: ``variant``, ``card``, ``change``,
    ``value``, ``value_lo``, ``value_hi``, ``win_value``, ``win_value_lo``, ``win_value_hi``,
    then those of :func:`card_value_ablation`, and the adjusted p-values.
    """
    if "seats" not in tables or "takes" not in tables:
        raise ValueError("card_values_causal needs the seats and takes tables (record = [\"takes\"])")
    seats = as_str(collect(tables["seats"]), "variant", "player")
    takes = as_str(collect(tables["takes"]), "variant", "player")
    require(seats, ["variant"], "seats")
    games = as_str(collect(tables["games"]), "variant") if "games" in tables else None
    names = sorted(seats["variant"].unique().to_list())
    if base not in names:
        raise ValueError(f"no variant {base!r} in the seats table (variants: {', '.join(names)})")
    mapping = _variant_cards(names, base, cards)
    if not mapping:
        raise ValueError("no variant is matched to a card: name them like 'card32_vp7' or pass cards={variant: id}")
    base_games = None
    if games is not None:
        base_games = games.filter(pl.col("variant") == base)
    seats_base = seats.filter(pl.col("variant") == base)
    takes_base = takes.filter(pl.col("variant") == base)
    rows = []
    for name, card in sorted(mapping.items(), key=lambda kv: (kv[1], kv[0])):
        if games is not None and base_games is not None:
            g = games.filter(pl.col("variant") == name).select("game", "seed").join(
                base_games.select("game", "seed"), on="game", suffix="_base")
            if (g["seed"] != g["seed_base"]).any():
                raise ValueError(f"variant {name!r}: games are not paired with {base!r} (their seeds differ)")
        row = card_value_ablation(seats_base, seats.filter(pl.col("variant") == name), takes_base, card,
                                  takes_variant=takes.filter(pl.col("variant") == name), games=base_games)
        rows.append(row.with_columns(pl.lit(name).alias("variant")))
    out = pl.concat(rows)
    adjusted = []
    for stat in ("win", "score"):
        p = out[f"{stat}_p"].to_numpy().astype(np.float64)
        adjusted += [pl.Series(f"{stat}_p_holm", adjust_pvalues(p, "holm")),
                     pl.Series(f"{stat}_p_bh", adjust_pvalues(p, "bh"))]
    out = out.with_columns(adjusted).with_columns(
        pl.Series("change", [_variant_change(v, c, cards) for v, c in zip(out["variant"].to_list(),
                                                                         out["card"].to_list(), strict=True)],
                  dtype=pl.Utf8))
    sign = pl.when(pl.col("change") == "removed").then(-1.0).otherwise(1.0)
    flip = pl.col("change") == "removed"
    out = out.with_columns(
        (sign * pl.col("score_diff")).alias("value"),
        pl.when(flip).then(-pl.col("score_diff_hi")).otherwise(pl.col("score_diff_lo")).alias("value_lo"),
        pl.when(flip).then(-pl.col("score_diff_lo")).otherwise(pl.col("score_diff_hi")).alias("value_hi"),
        (sign * pl.col("win_diff")).alias("win_value"),
        pl.when(flip).then(-pl.col("win_diff_hi")).otherwise(pl.col("win_diff_lo")).alias("win_value_lo"),
        pl.when(flip).then(-pl.col("win_diff_lo")).otherwise(pl.col("win_diff_hi")).alias("win_value_hi"),
    )
    return out.sort("value", descending=True, nulls_last=True).select(
        "variant", "card", "change", "value", "value_lo", "value_hi", "win_value", "win_value_lo", "win_value_hi",
        "games", "games_held",
        "win_diff", "win_diff_lo", "win_diff_hi", "win_p", "win_p_holm", "win_p_bh",
        "score_diff", "score_diff_lo", "score_diff_hi", "score_p", "score_p_holm", "score_p_bh", "kind")


# ------------------------------------------------------------------ regression


def _ols_cluster(X: sparse.csr_matrix, y: np.ndarray, cluster: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, int]:
    """OLS coefficients and CR1 cluster-robust standard errors; returns (beta, se, clusters)."""
    n, k = X.shape
    xtx = (X.T @ X).toarray()
    xty = X.T @ y
    bread = linalg.inv(xtx)
    beta = bread @ xty
    resid = y - X @ beta
    _, cl = np.unique(cluster, return_inverse=True)
    g = int(cl.max()) + 1
    groups = sparse.csr_matrix((np.ones(n), (cl.ravel(), np.arange(n))), shape=(g, n))
    scores = groups @ X.multiply(resid[:, None]).tocsr()  # per-cluster X_g' u_g, g x k
    scores = scores.toarray() if sparse.issparse(scores) else np.asarray(scores)
    meat = scores.T @ scores
    factor = g / (g - 1) * (n - 1) / (n - k) if g > 1 and n > k else np.nan
    cov = factor * bread @ meat @ bread
    return beta, np.sqrt(np.clip(np.diag(cov), 0, None)), g


def _independent_columns(X: sparse.csr_matrix) -> np.ndarray:
    """Indices of a maximal set of linearly independent columns, earlier columns first."""
    xtx = (X.T @ X).toarray()
    scale = np.sqrt(np.maximum(np.diag(xtx), 1e-300))
    gram = xtx / np.outer(scale, scale)
    keep: list[int] = []
    for j in range(gram.shape[0]):
        trial = [*keep, j]
        sub = gram[np.ix_(trial, trial)]
        if np.linalg.eigvalsh(sub).min() > 1e-9 * len(trial):
            keep.append(j)
    return np.array(keep, dtype=np.int64)


def card_score_regression(takes: Frame, seats: Frame, cluster: str = "deal",
                          games: Frame | None = None) -> pl.DataFrame:
    """OLS of a seat's final score on the number of copies of each card it took. Correlational.

    One row per game and seat: ``score ~ intercept + Σ_c β_c · count_c`` over the cards that
    were taken at least once (per variant). Standard errors are cluster-robust (CR1 sandwich,
    ``(X'X)⁻¹ (Σ_g X_g'u_g u_g'X_g) (X'X)⁻¹ · G/(G−1) · (N−1)/(N−K)``), clustered by deal by
    default (``cluster="deal"``: every seating of a deal is played on its seed, so the seats
    of all its games share its luck; the deal comes from a ``deal`` column, else ``games``,
    else the plan layout, and without seat rotations every game is its own deal, i.e. the
    same as clustering by game), or by game (``cluster="game"``, only valid when games do
    not share deals); 95% t-intervals with ``G − 1`` degrees of freedom and two-sided
    p-values of ``β = 0``.

    Identification: when every seat takes the same number of cards (e.g. 12 each), the
    card counts of a row sum to a constant, so they are collinear with the intercept. The
    intercept is then dropped and each ``β_c`` is the mean final score a seat has per card
    slot filled with card ``c`` (differences between cards are the interpretable part). Any
    further collinear card columns are dropped (lower card ids kept). The intercept, when
    estimable, is a row with ``term = "intercept"`` and a null ``card``.

    This is observational: good cards are taken by strong positions and players (``kind``).
    Columns: ``variant`` (if present), ``term``, ``card``, ``coef``, ``se``, ``lo``, ``hi``,
    ``p``, ``n`` (rows), ``clusters``, ``kind``.
    """
    if cluster not in ("game", "deal"):
        raise ValueError(f"cluster must be 'game' or 'deal', not {cluster!r}")
    t = as_str(collect(takes), "variant", "player")
    s = as_str(collect(seats), "variant", "player")
    require(t, ["game", "seat", "card"], "takes")
    require(s, ["game", "seat", "score"], "seats")
    keys = game_keys(s)
    vk = variant_key(s)
    if cluster == "deal":
        s = with_deal(s, games)
    parts = []
    groups = s.group_by(vk, maintain_order=True) if vk else [((), s)]
    for key, part in groups:
        tk = t.filter(pl.col("variant") == key[0]) if vk else t
        rows = part.select([*keys, "seat", "score", *(["deal"] if cluster == "deal" else [])]).with_row_index("_row")
        counts = tk.group_by([*keys, "seat", "card"]).len().join(
            rows.select([*keys, "seat", "_row"]), on=[*keys, "seat"], how="inner")
        card_ids = np.sort(counts["card"].unique().to_numpy())
        if card_ids.size == 0:
            continue
        col = np.searchsorted(card_ids, counts["card"].to_numpy())
        n = rows.height
        X_cards = sparse.csr_matrix((counts["len"].to_numpy().astype(np.float64),
                                     (counts["_row"].to_numpy(), col)), shape=(n, card_ids.size))
        # cards first, intercept last: when they are collinear the intercept is what is dropped
        X = sparse.hstack([X_cards, sparse.csr_matrix(np.ones((n, 1)))]).tocsr()
        keep = _independent_columns(X)
        y = rows["score"].to_numpy().astype(np.float64)
        if cluster == "deal":
            cl = rows["deal"].to_numpy()
        else:
            cl = rows.select(pl.struct(keys).rank("dense")).to_series().to_numpy()
        beta, se, g = _ols_cluster(X[:, keep], y, cl)
        q = stats.t.ppf(0.5 + LEVEL / 2, max(g - 1, 1))
        with np.errstate(divide="ignore", invalid="ignore"):
            p = 2 * stats.t.sf(np.abs(beta / se), max(g - 1, 1))
        names = np.concatenate([card_ids, [0]])[keep]
        frame = pl.DataFrame({
            "term": ["intercept" if c == 0 else f"card{c}" for c in names],
            "card": [None if c == 0 else int(c) for c in names],
            "coef": beta, "se": se, "lo": beta - q * se, "hi": beta + q * se, "p": p,
        }, schema_overrides={"card": pl.Int64}).with_columns(
            pl.lit(n, pl.Int64).alias("n"), pl.lit(g, pl.Int64).alias("clusters"), pl.lit(REGRESSION).alias("kind")
        ).sort(pl.col("card").fill_null(0))
        if vk:
            frame = frame.with_columns(pl.lit(key[0]).alias("variant"))
        parts.append(frame)
    cols = [*vk, "term", "card", "coef", "se", "lo", "hi", "p", "n", "clusters", "kind"]
    if not parts:
        return pl.DataFrame(schema={c: (pl.Utf8 if c in ("variant", "term", "kind") else
                                        pl.Int64 if c in ("card", "n", "clusters") else pl.Float64) for c in cols})
    return pl.concat(parts).select(cols)
