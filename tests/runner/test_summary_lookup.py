"""The run summary attaches each seat's deal and player count by a lookup on the game number instead of a
join (issue 24: the runner's speed; a second of the summary of a million games): the same frame, row for
row, wherever a lookup can stand in for the left join, and the join itself wherever it cannot."""

from __future__ import annotations

import polars as pl
import pytest

from simlab.results import with_game_columns


def _frames(games_of: dict[str, list[int]], seats_per_game: int = 3) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A games table (deal = game // 3, n_players) and a seats table, variants as categoricals."""
    rows = [(v, g) for v, gs in games_of.items() for g in gs]
    games = pl.DataFrame({
        "variant": pl.Series([v for v, _ in rows], dtype=pl.Categorical),
        "game": pl.Series([g for _, g in rows], dtype=pl.Int64),
        "deal": pl.Series([g // 3 for _, g in rows], dtype=pl.Int64),
        "n_players": pl.Series([2 + g % 3 for _, g in rows], dtype=pl.Int8),
    })
    seat_rows = [(v, g, k) for v, g in rows for k in range(seats_per_game)]
    seats = pl.DataFrame({
        "variant": pl.Series([v for v, _, _ in seat_rows], dtype=pl.Categorical),
        "game": pl.Series([g for _, g, _ in seat_rows], dtype=pl.Int64),
        "seat": pl.Series([k for _, _, k in seat_rows], dtype=pl.Int8),
    })
    return games, seats


def _joined(seats: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    return seats.join(games, on=["variant", "game"], how="left", maintain_order="left")


@pytest.mark.parametrize("games_of", [
    {"base": list(range(30))},                                    # one variant, games 0..29
    {"base": list(range(12)), "v2": list(range(12))},             # two variants, the same game numbers
    {"base": [5, 3, 4, 9, 8], "v2": [20, 21, 22]},                # shuffled, offset, gaps
    {"base": list(range(0, 10)), "v2": [2_000_000_000]},          # far apart across variants
])
def test_the_lookup_gives_the_join(games_of):
    games, seats = _frames(games_of)
    seats = seats.sample(fraction=1.0, shuffle=True, seed=3)  # seat rows in any order
    out = with_game_columns(seats, games, ["deal", "n_players"])
    assert out.equals(_joined(seats, games))
    assert out.schema["deal"] == pl.Int64 and out.schema["n_players"] == pl.Int8


def test_where_a_lookup_cannot_stand_in_the_join_is_used():
    games, seats = _frames({"base": list(range(10))})
    cases = {
        "a seat's game is missing": games.filter(pl.col("game") != 4),
        "a game listed twice": pl.concat([games, games.head(1)]),
        "sparse game numbers": games.with_columns(pl.col("game") * 10_000),
        "a null deal": games.with_columns(pl.when(pl.col("game") == 2).then(None).otherwise(pl.col("deal"))
                                          .alias("deal")),
    }
    for what, table in cases.items():
        expected = _joined(seats, table)
        assert with_game_columns(seats, table, ["deal", "n_players"]).equals(expected), what
    other = seats.with_columns(pl.lit("other").cast(pl.Categorical).alias("variant"))  # no games of its variant
    assert with_game_columns(other, games, ["deal"]).equals(_joined(other, games.drop("n_players")))
