"""Which stored game a report shows, by a stated rule (never picked by hand).

*A typical game*: among the run's games of one variant, the game whose winning margin (the winner's score minus the
best other seat's) is the median margin; ties go to the lowest game number. A page that links the replay says so.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simlab.results import load

TYPICAL_RULE = ("the game whose winning margin (the winner's score minus the best other seat's) is the median of "
                "the run's games; ties to the lowest game number")


def typical_game(run: str | Path, variant: str | None = None) -> tuple[int, str]:
    """(game number, variant) of the run's typical game (see :data:`TYPICAL_RULE`); ``variant`` defaults to the
    run's first."""
    seats = load(run)["seats"].select("game", "variant", "score", "rank").collect()
    seats = seats.with_columns(pl.col("variant").cast(pl.Utf8))
    chosen = variant or seats["variant"][0]
    mine = seats.filter(pl.col("variant") == chosen)
    margins = (mine.sort("game", "rank", descending=[False, False])
               .group_by("game", maintain_order=True)
               .agg((pl.col("score").first() - pl.col("score").slice(1, 1).first().fill_null(0)).alias("margin")))
    median = margins["margin"].sort()[(len(margins) - 1) // 2]
    game = margins.filter(pl.col("margin") == median)["game"].min()
    return int(game), str(chosen)
