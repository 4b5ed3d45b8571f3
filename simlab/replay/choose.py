"""Which stored games a report shows, by stated rules (never picked by hand).

*A typical game*: among the run's games of one variant, the game whose winning margin (the winner's score minus the
best other seat's) is the median margin. *The most lopsided game*: the game with the largest winning margin (in a
start-position study, the game its seat or colour decided most plainly). Ties go to the lowest game number. A page
that links a replay says which rule chose it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simlab.results import load

TYPICAL_RULE = ("the game whose winning margin (the winner's score minus the best other seat's) is the median of "
                "the run's games; ties to the lowest game number")
LOPSIDED_RULE = "the game with the largest winning margin; ties to the lowest game number"


def _margins(run: str | Path, variant: str | None) -> tuple[pl.DataFrame, str]:
    """Per game of the variant (default: the run's first), the winning margin; and the variant."""
    seats = load(run)["seats"].select("game", "variant", "score", "rank").collect()
    seats = seats.with_columns(pl.col("variant").cast(pl.Utf8))
    chosen = variant or seats["variant"][0]
    mine = seats.filter(pl.col("variant") == chosen)
    margins = (mine.sort("game", "rank", descending=[False, False])
               .group_by("game", maintain_order=True)
               .agg((pl.col("score").first() - pl.col("score").slice(1, 1).first().fill_null(0)).alias("margin")))
    return margins, str(chosen)


def typical_game(run: str | Path, variant: str | None = None) -> tuple[int, str]:
    """(game number, variant) of the run's typical game (see :data:`TYPICAL_RULE`); ``variant`` defaults to the
    run's first."""
    margins, chosen = _margins(run, variant)
    median = margins["margin"].sort()[(len(margins) - 1) // 2]
    return int(margins.filter(pl.col("margin") == median)["game"].min()), chosen


def lopsided_game(run: str | Path, variant: str | None = None) -> tuple[int, str]:
    """(game number, variant) of the run's most lopsided game (see :data:`LOPSIDED_RULE`)."""
    margins, chosen = _margins(run, variant)
    top = margins["margin"].max()
    return int(margins.filter(pl.col("margin") == top)["game"].min()), chosen


MATTERED_RULE = ("the component of the run's ablation variants worth most to the seat that held it (its mean "
                 "win share with the printed data minus without, over the games where a seat held it), and the game "
                 "where it helped its holder most against the same deal without it (the largest change in win "
                 "share, then in score); ties to the lowest component and game number")


@dataclass(frozen=True)
class Mattered:
    """The pair of games where the run's most valuable component mattered most (see :data:`MATTERED_RULE`): the
    same deal (game number) played with the printed data (``variant`` "base") and with the component changed
    (``changed``); ``label`` names the component as a person knows it."""

    game: int
    changed: str
    component: str
    label: str
    change: str
    seat: int
    win_share_with: float
    win_share_changed: float
    score_with: float
    score_changed: float


def mattered_most(run: str | Path) -> Mattered | None:
    """The game of an ablation run where one component mattered most to its holder (:data:`MATTERED_RULE`); None
    for a run with no ablation variant or a game that records no holder (``Ablation.holders``)."""
    from simlab.core.game import get_game
    from simlab.results import manifest

    man = manifest(run)
    variants = {name: entry["ablation"] for name, entry in (man.get("data") or {}).items()
                if isinstance(entry, dict) and entry.get("ablation")}
    game = get_game(str(man.get("game")))
    ablation = game.ablation() if variants else None
    if ablation is None or ablation.holders is None:
        return None
    table, column = ablation.holders
    tables = load(run)
    if table not in tables:
        return None
    seats = tables["seats"].select(pl.col("variant").cast(pl.Utf8), "game", pl.col("seat").cast(pl.Int64),
                                   pl.col("win_share").cast(pl.Float64), pl.col("score").cast(pl.Float64))
    held = (tables[table].select(pl.col("variant").cast(pl.Utf8), "game", pl.col("seat").cast(pl.Int64),
                                 pl.col(column).cast(pl.Utf8).alias("component"))
            .filter(pl.col("variant") == "base").drop("variant").unique())
    changed = pl.DataFrame({"changed": list(variants), "component": [str(v["id"]) for v in variants.values()],
                            "change": [str(v.get("change", "remove")) for v in variants.values()]}).lazy()
    base = seats.filter(pl.col("variant") == "base").drop("variant")
    other = seats.filter(pl.col("variant") != "base").rename({"variant": "changed"})
    sign = pl.when(pl.col("change") == "remove").then(1.0).otherwise(-1.0)
    values = (held.join(changed, on="component").join(base, on=["game", "seat"])
              .join(other, on=["changed", "game", "seat"], suffix="_changed")
              .with_columns((sign * (pl.col("win_share") - pl.col("win_share_changed"))).alias("_w"),
                            (sign * (pl.col("score") - pl.col("score_changed"))).alias("_s"))
              .collect())
    if not values.height:
        return None
    worth = values.group_by("changed").agg(pl.col("_w").mean().alias("worth"), pl.first("component"))
    top = worth.sort(["worth", "component"], descending=[True, False])["changed"][0]
    swings = (values.filter(pl.col("changed") == top)
              .sort(["_w", "_s", "game", "seat"], descending=[True, True, False, False]).head(1))
    if not swings.height:
        return None
    r = swings.row(0, named=True)
    label = ablation.describe(game.default_data(), r["component"])
    return Mattered(int(r["game"]), str(r["changed"]), str(r["component"]), label, str(r["change"]),
                    int(r["seat"]), float(r["win_share"]), float(r["win_share_changed"]), float(r["score"]),
                    float(r["score_changed"]))
