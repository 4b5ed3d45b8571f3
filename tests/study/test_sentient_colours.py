"""One colour meaning across the reports (issue 23): in the Sentient head-to-head heat map, blue is good
for the row's player (it finishes ahead more often), red is bad."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import polars as pl

from simlab.analysis import matchup_heatmap


def test_matchup_heatmap_paints_a_row_ahead_in_blue():
    pw = pl.DataFrame({"player": ["a", "b"], "opponent": ["b", "a"], "win_rate": [0.9, 0.1],
                       "lo": [0.85, 0.05], "hi": [0.95, 0.15]})
    fig = matchup_heatmap(pw)
    mesh = fig.axes[0].collections[0]
    colours = mesh.to_rgba(mesh.get_array())  # rows a, b by columns a, b (the diagonal masked)
    ahead = colours[0][1]  # row a, column b: a finishes ahead of b in 0.9 of games
    behind = colours[1][0]  # row b, column a
    assert ahead[2] > ahead[0] and behind[0] > behind[2]
    import matplotlib.pyplot as plt

    plt.close(fig)
