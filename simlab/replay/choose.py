"""Which stored games a report shows, by stated rules (never picked by hand).

*A typical game*: among the run's games of one variant, the game whose winning margin (the winner's score minus the
best other seat's) is the median margin. *The most lopsided game*: the game with the largest winning margin (in a
start-position study, the game its seat or colour decided most plainly). Ties go to the lowest game number. A page
that links a replay says which rule chose it.
"""

from __future__ import annotations

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
