"""The strong-play companion: a spec's [companion] section, the verdict rule, and, by simulation, that the
side-by-side tests hold their level (no verdict of a change where both plays have the same rates) and that
a real change is found (paired by deal)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab.core.errors import SimlabError
from simlab.runner.spec import SpecError, parse_companion, parse_spec
from simlab.strong_play import (
    CHANGES,
    HOLDS,
    HOLDS_NO_EDGE,
    NEW,
    NOT_CONFIRMED,
    SAME,
    _variant_rows,
    describe,
    fair_share,
    verdict,
)


def test_a_companion_section_is_validated_naming_its_field():
    spec = parse_spec({"game": "sentient", "players": {"seats": ["greedy", "greedy"]},
                       "companion": {"study": "sentient_strategies", "players": {"greedy": "ismcts"}}})
    assert spec.companion.study == "sentient_strategies" and spec.companion.players == {"greedy": "ismcts"}
    with pytest.raises(SpecError, match=r"x\.toml: companion\.study: the name of the heuristic study"):
        parse_companion({"players": {}}, "x.toml")
    with pytest.raises(SpecError, match=r"x\.toml: companion\.sutdy: unknown key"):
        parse_companion({"study": "s", "sutdy": 1}, "x.toml")
    with pytest.raises(SpecError, match=r"x\.toml: companion\.players: a table of names to names"):
        parse_companion({"study": "s", "players": {"voter": 3}}, "x.toml")


def test_fair_shares_come_from_the_player_count():
    assert fair_share("seat 0 (2 players)") == 0.5
    assert fair_share("colour 3 (4 players)") == 0.25
    assert fair_share("3 players") == pytest.approx(1 / 3)
    assert fair_share("player voter") is None
    assert fair_share("1 players") is None  # a solo game has no fair share


@pytest.mark.parametrize(("args", "expected"), [
    ((True, True, True, True, False), HOLDS),
    ((True, True, True, False, False), CHANGES),  # edges on opposite sides
    ((True, False, False, False, False), HOLDS_NO_EDGE),
    ((True, True, False, True, False), NOT_CONFIRMED),
    ((True, False, True, True, False), NEW),
    ((True, True, True, True, True), CHANGES),
    ((False, False, False, False, False), SAME),
    ((False, False, False, False, True), CHANGES),
])
def test_the_verdict_rule(args, expected):
    assert verdict(*args) == expected


def _frame(deals: np.ndarray, wins0: np.ndarray) -> pl.DataFrame:
    rows_seed = np.concatenate([deals, deals])
    of = ["seat 0 (2 players)"] * deals.size + ["seat 1 (2 players)"] * deals.size
    num = np.concatenate([wins0, 1.0 - wins0])
    return pl.DataFrame({"seed": rows_seed.astype(np.uint64), "measure": ["win rate"] * rows_seed.size, "of": of,
                         "num": num, "den": np.ones(rows_seed.size)})


def _pair(rng: np.random.Generator, deals: int, rate_a: float, rate_b: float) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two runs on the same deals: a deal's luck (a shift of seat 0's chance) is shared by both."""
    seeds = np.arange(1, deals + 1, dtype=np.uint64)
    luck = rng.normal(0.0, 0.25, deals)
    p_a, p_b = np.clip(rate_a + luck, 0.01, 0.99), np.clip(rate_b + luck, 0.01, 0.99)
    wins_a, wins_b = (rng.random(deals) < p_a).astype(float), (rng.random(deals) < p_b).astype(float)
    return _frame(seeds, wins_a), _frame(seeds, wins_b)


def test_no_change_is_called_where_both_plays_have_the_same_rates():
    """The paired difference's level, by simulation: 300 pairs of runs with the same rates (an edge of 0.1 for
    seat 0 under both, deal luck shared): its 95% interval covers the true difference 0 in at least 92% of them."""
    rng = np.random.default_rng(11)
    covered = 0
    sims = 300
    for i in range(sims):
        a, b = _pair(rng, 150, 0.6, 0.6)
        rows = _variant_rows(a, b, {}, "base", draws=400, seed=i)
        seat0 = next(r for r in rows if r["of"] == "seat 0 (2 players)")
        covered += seat0["diff_lo"] <= 0.0 <= seat0["diff_hi"]
    assert covered / sims >= 0.92


def test_a_real_change_is_found_and_the_estimates_cover_their_truth():
    """Seat 0 wins 0.6 under the heuristics and 0.4 under strong play (400 shared deals): the difference is
    found, and each estimate's interval covers its truth in at least 92% of 200 simulated pairs."""
    rng = np.random.default_rng(12)
    found = cover_a = cover_b = 0
    sims = 200
    truth_a = np.mean(np.clip(0.6 + rng.normal(0, 0.25, 400_000), 0.01, 0.99))  # the clipped means
    truth_b = np.mean(np.clip(0.4 + rng.normal(0, 0.25, 400_000), 0.01, 0.99))
    for i in range(sims):
        a, b = _pair(rng, 400, 0.6, 0.4)
        seat0 = next(r for r in _variant_rows(a, b, {}, "base", draws=400, seed=i) if r["of"].startswith("seat 0"))
        found += seat0["diff_hi"] < 0.0
        cover_a += seat0["heuristic_lo"] <= truth_a <= seat0["heuristic_hi"]
        cover_b += seat0["strong_lo"] <= truth_b <= seat0["strong_hi"]
        assert seat0["paired"] and seat0["shared_deals"] == 400
    assert found / sims >= 0.95
    assert cover_a / sims >= 0.92 and cover_b / sims >= 0.92


def test_a_mapped_player_is_compared_with_its_replacement():
    seeds = np.arange(1, 51, dtype=np.uint64)
    a = pl.DataFrame({"seed": seeds, "measure": ["win rate"] * 50, "of": ["player voter"] * 50,
                      "num": (np.arange(50) % 10 == 0).astype(float), "den": np.ones(50)})
    b = a.with_columns(pl.lit("player search").alias("of"), (pl.col("seed") % 4 == 0).cast(pl.Float64).alias("num"))
    (row,) = _variant_rows(a, b, {"voter": "search"}, "B", draws=400, seed=0)
    assert row["of"] == "player voter → search" and row["fair"] is None
    assert row["heuristic"] == pytest.approx(0.1) and row["strong"] == pytest.approx(12 / 50)


def test_a_solo_games_seat_is_no_balance_question():
    seeds = np.arange(1, 41, dtype=np.uint64)
    wins = (np.arange(40) % 5 == 0).astype(float)
    rows = []
    for of in ("seat 0 (1 players)", "1 players", "player voter"):
        rows.append(pl.DataFrame({"seed": seeds, "measure": ["first player win rate" if of == "1 players" else
                                                             "win rate"] * 40, "of": [of] * 40, "num": wins,
                                  "den": np.ones(40)}))
    a = pl.concat(rows)
    b = a.with_columns(pl.col("of").replace("player voter", "player search"))
    assert [r["of"] for r in _variant_rows(a, b, {"voter": "search"}, "B", draws=200, seed=0)] == [
        "player voter → search"]


def test_component_values_agree_with_the_ablation_analysis_and_pair_by_deal(tmp_path):
    """A card's value to its holder (issue 25's card-value companion) is the analysis package's paired ablation
    value; a run compared with itself differs by exactly 0; only the player counts both runs played count."""
    from simlab.analysis import card_values_causal
    from simlab.results import load
    from simlab.runner.run import run_experiment
    from simlab.strong_play import component_values_side_by_side

    common = {"game": "sentient", "seed": 2, "shard_size": 60, "record": ["takes"], "workers": 1,
              "ablation": {"cards": [46, 58], "change": "remove"}}
    study = run_experiment(parse_spec({**common, "name": "study", "games": 60,
                                       "players": {"seats": ["investor", "specialist"]}}),
                           tmp_path / "study", show_progress=False).path
    both = component_values_side_by_side(study, study, draws=300)
    causal = card_values_causal(load(study))
    for card in (46, 58):
        row = both.filter(pl.col("component") == str(card)).row(0, named=True)
        ref = causal.filter(pl.col("card") == card).row(0, named=True)
        assert row["win_heuristic"] == pytest.approx(ref["win_value"])
        assert row["score_heuristic"] == pytest.approx(ref["value"])
        assert row["win_diff"] == 0 and row["win_diff_lo"] == 0 and row["win_diff_hi"] == 0
        assert row["paired"] and row["games_heuristic"] == ref["games_held"]
    three = run_experiment(parse_spec({**common, "name": "three", "games": 30,
                                       "players": {"seats": ["investor", "specialist", "greedy"]}}),
                           tmp_path / "three", show_progress=False).path
    with pytest.raises(SimlabError, match=r"has no game at 3 players where a seat held an ablated component"):
        component_values_side_by_side(study, three, draws=300)


def _solo(deals: np.ndarray, wins: np.ndarray, player: str) -> pl.DataFrame:
    return pl.DataFrame({"seed": deals.astype(np.uint64), "measure": ["win rate"] * deals.size,
                         "of": [f"player {player}"] * deals.size, "num": wins, "den": np.ones(deals.size)})


def test_a_rare_win_rate_keeps_its_interval_when_no_game_is_won():
    """A rate of 0.001 on 600 deals is never seen in about 55% of runs, and every bootstrap resample of such a run
    is 0: the percentile interval [0, 0] would cover the truth only when a win happens to be seen. With the exact
    deal-clustered bound for a share never seen, the estimate and the paired difference cover their truth in at
    least 93% of 300 simulated pairs (heuristic 0.001, strong 0.002)."""
    rng = np.random.default_rng(5)
    deals = np.arange(1, 601)
    cover_a = cover_b = cover_d = 0
    sims = 300
    for i in range(sims):
        a = _solo(deals, (rng.random(600) < 0.001).astype(float), "voter")
        b = _solo(deals, (rng.random(600) < 0.002).astype(float), "search")
        (row,) = _variant_rows(a, b, {"voter": "search"}, "F", draws=300, seed=i)
        cover_a += row["heuristic_lo"] <= 0.001 <= row["heuristic_hi"]
        cover_b += row["strong_lo"] <= 0.002 <= row["strong_hi"]
        cover_d += row["diff_lo"] <= 0.001 <= row["diff_hi"]
    assert min(cover_a, cover_b, cover_d) / sims >= 0.93


def test_a_share_never_seen_is_described_with_its_bound():
    deals = np.arange(1, 3001)
    a = _solo(deals, np.zeros(3000), "voter")
    b = _solo(deals, (deals % 1000 == 0).astype(float), "search")
    (row,) = _variant_rows(a, b, {"voter": "search"}, "E", draws=300, seed=0)
    assert row["heuristic_hi"] == pytest.approx(1 - 0.025 ** (1 / 3000))
    text = describe({**row, "variant_label": "", "diff_p_holm": 1.0, "verdict": "no detectable change"})
    assert "0.0000 [0.0000, 0.0012] under the heuristics" in text and "0.0010 [" in text
