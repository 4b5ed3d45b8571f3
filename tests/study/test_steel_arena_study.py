"""The Steel Arena study's statistics: ties between teams, module values in wins first, replications.

Issue 22 parts 3 and 4: a team's win has two winners and is no tie (NOTES I.15.2: team-mates share
the team's rank); a module's value is headlined in win share beside trophies, with the sign
disagreements flagged and untested designs (never held) left out; a replication is checked
with Cochran's Q.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlab.analysis import game_metrics
from simlab.analysis.ablation import OPPOSITE, OPPOSITE_BOTH, ablation_values, cochran_q


def _team_games() -> tuple[pl.DataFrame, pl.DataFrame]:
    """Four 2 v 2 games (team 0 = seats 0 and 2): three team wins, one draw between the teams."""
    games = pl.DataFrame({"game": [0, 1, 2, 3], "deal": [0, 1, 2, 3], "variant": ["teams"] * 4,
                          "n_players": [4] * 4, "turns": [20] * 4, "n_winners": [2, 2, 2, 4]})
    team = [0, 1, 0, 1]
    win_team = [0, 1, 0, None]  # None: a draw, every seat a winner
    rows = []
    for g, w in enumerate(win_team):
        for s in range(4):
            share = 0.25 if w is None else (0.5 if team[s] == w else 0.0)
            rows.append({"game": g, "seat": s, "variant": "teams", "team": team[s], "score": 7,
                         "win_share": share, "first_player": s == 0})
    return games, pl.DataFrame(rows)


def test_team_wins_are_not_ties_only_draws_between_teams_are():
    games, seats = _team_games()
    m = game_metrics(games, seats).row(0, named=True)
    assert m["tie_rate"] == pytest.approx(0.25)  # the one draw; before the fix every game (1.0)
    # the same games free for all (no team column): two winners are a tie
    m_ffa = game_metrics(games, seats.drop("team")).row(0, named=True)
    assert m_ffa["tie_rate"] == pytest.approx(1.0)


def test_a_constant_team_column_is_free_for_all():
    # Steel Arena writes team 0 for every seat outside team mode: each seat is its own side
    games, seats = _team_games()
    seats = seats.with_columns(pl.lit(0).alias("team"))
    assert game_metrics(games, seats).row(0, named=True)["tie_rate"] == pytest.approx(1.0)
    solo = seats.with_columns(pl.when(pl.col("seat") == 0).then(1.0).otherwise(0.0).alias("win_share"))
    assert game_metrics(games.with_columns(pl.lit(1).alias("n_winners")), solo).row(0, named=True)["tie_rate"] == 0


def _ablation_rows() -> pl.DataFrame:
    """card_value_ablation rows (ablated − full): 1 helps both ways, 2 costs trophies but wins
    (both intervals exclude 0), 3 opposite signs inside the noise, 4 never held (a terrain design)."""
    return pl.DataFrame({
        "card": [1, 2, 3, 4], "games": [100] * 4, "games_held": [80, 60, 50, 0],
        "win_diff": [-0.10, -0.05, 0.01, None], "win_diff_lo": [-0.12, -0.07, -0.02, None],
        "win_diff_hi": [-0.08, -0.03, 0.04, None], "win_p": [1e-6, 1e-4, 0.6, None],
        "score_diff": [-1.0, 0.11, -0.05, None], "score_diff_lo": [-1.2, 0.04, -0.20, None],
        "score_diff_hi": [-0.8, 0.18, 0.10, None], "score_p": [1e-8, 0.002, 0.5, None],
    })


def test_module_values_rank_by_win_share_flag_sign_disagreements_and_drop_the_untested():
    out = ablation_values(_ablation_rows())
    assert out["card"].to_list() == [1, 2, 3]  # by win value, card 4 (never held) is not a row
    assert out["win_value"].to_list() == pytest.approx([0.10, 0.05, -0.01])
    assert out["win_value_lo"].to_list() == pytest.approx([0.08, 0.03, -0.04])
    assert out["score_value"].to_list() == pytest.approx([1.0, -0.11, 0.05])
    assert out["signs"].to_list() == ["", OPPOSITE_BOTH, OPPOSITE]
    # adjusted over the three tested modules only
    assert out["p_holm"].to_list() == pytest.approx([3e-6, 2e-4, 0.6])
    assert out["p_bh"][0] == pytest.approx(3e-6)


def test_module_values_name_missing_columns():
    with pytest.raises(ValueError, match="win_p"):
        ablation_values(_ablation_rows().drop("win_p"))


def test_cochran_q_on_the_issue_figures():
    # issue 22.3: the published 3-player first-player rate and four runs with other seeds, each
    # with the published interval's standard error (0.338 [0.325, 0.350])
    se = (0.350 - 0.325) / (2 * stats.norm.ppf(0.975))
    r = cochran_q([0.338, 0.373, 0.367, 0.356, 0.356], [se] * 5)
    assert r["df"] == 4 and r["pooled"] == pytest.approx(np.mean([0.338, 0.373, 0.367, 0.356, 0.356]))
    assert r["q"] == pytest.approx(np.sum((np.array([0.338, 0.373, 0.367, 0.356, 0.356]) - r["pooled"]) ** 2) / se**2)
    assert r["p_value"] < 0.05 and r["i2"] > 0.5  # the five disagree beyond their stated errors
    same = cochran_q([0.36, 0.36], [0.01, 0.02])
    assert same["q"] == 0 and same["p_value"] == 1 and same["pooled_se"] == pytest.approx(1 / np.sqrt(1e4 + 2500))


def test_cochran_q_holds_its_level():
    # k = 2 estimates of one value with their true standard errors: Q > chi2(1) 95% in ~5% of draws
    rng = np.random.default_rng(5)
    se = np.array([0.01, 0.02])
    p = np.array([cochran_q(0.3 + rng.normal(0, se), se)["p_value"] for _ in range(2000)])
    assert abs(np.mean(p < 0.05) - 0.05) < 0.015
    with pytest.raises(ValueError, match="at least two"):
        cochran_q([0.3], [0.01])
