"""The save-time figure check (issue 23, "Figures"): overlapping text and unlabelled axes fail a report."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from simlab.report import figures


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def labelled(fig_size=(6, 3)):
    fig, ax = plt.subplots(figsize=fig_size)
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("games")
    ax.set_ylabel("win rate")
    return fig, ax


def test_a_clean_figure_passes():
    fig, _ = labelled()
    figures.check_figure(fig)


def test_tick_labels_that_run_together_fail():
    # issue 23: the Steel Arena "how games end" x labels ran together ("2 players3 players4 players")
    fig, ax = plt.subplots(figsize=(2.5, 2))
    ax.bar(["2 players", "3 players", "4 players"], [1, 2, 3])
    ax.set_xlabel("player count")
    ax.set_ylabel("games")
    with pytest.raises(figures.FigureCheckError, match="x tick label '2 players' overlaps"):
        figures.check_figure(fig, "how games end")
    ax.tick_params(axis="x", labelrotation=90)
    figures.check_figure(fig)


def test_an_axis_with_ticks_and_no_label_fails():
    # issue 23: the card-value plot's right panel had no axis label
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))
    for ax in (left, right):
        ax.plot([0, 1], [0, 1])
        ax.set_xlabel("VP")
    left.set_ylabel("card")
    with pytest.raises(figures.FigureCheckError, match=r"axes 1: the y axis has tick labels but no label"):
        figures.check_figure(fig)
    right.set_ylabel("card")
    figures.check_figure(fig)


def test_shared_axis_with_hidden_tick_labels_needs_no_label():
    fig, (left, right) = plt.subplots(1, 2, sharey=True, figsize=(8, 3))
    for ax in (left, right):
        ax.plot([0, 1], [0, 1])
        ax.set_xlabel("VP")
    left.set_ylabel("card")
    figures.check_figure(fig)


def test_an_unlabelled_colour_bar_fails():
    fig, ax = labelled()
    image = ax.imshow(np.eye(2))
    fig.colorbar(image, ax=ax)
    with pytest.raises(figures.FigureCheckError, match="colour bar has tick labels but no label"):
        figures.check_figure(fig)


def test_overlapping_heat_map_cells_fail_and_the_opt_out_is_explicit():
    # issue 23: the Pendulum heat map's cell labels overlapped each other and the row labels
    values = np.full((6, 6), 0.5)
    fig, ax = plt.subplots(figsize=(3, 2.5))
    figures.interval_heatmap(ax, values, values - 0.1, values + 0.1, list("abcdef"), list("uvwxyz"),
                             cbar_label="win rate")
    figures.unlabelled_ok(ax, "xy", "player names on both axes")
    with pytest.raises(figures.FigureCheckError, match=r"y tick label 'u' overlaps axes 0 text '0\.50"):
        figures.check_figure(fig)
    fig.set_size_inches(9, 7)
    figures.check_figure(fig)
    with pytest.raises(ValueError, match="a reason"):
        figures.unlabelled_ok(ax, "x", " ")


def test_a_category_axis_still_needs_its_label_without_the_opt_out():
    fig, ax = plt.subplots(figsize=(9, 7))
    values = np.full((2, 2), 0.5)
    figures.interval_heatmap(ax, values, values, values, ["a", "b"], ["c", "d"], cbar_label="win rate")
    with pytest.raises(figures.FigureCheckError, match="x axis has tick labels but no label"):
        figures.check_figure(fig)


def test_figure_html_and_every_render_after_install_are_checked(tmp_path):
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.plot([0, 1], [0, 1])
    with pytest.raises(figures.FigureCheckError, match="figure 'the caption'"):
        figures.figure_html(fig, "the caption", "alt")
    figures.install()
    try:
        with pytest.raises(figures.FigureCheckError):
            fig.savefig(tmp_path / "f.png")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        fig.savefig(tmp_path / "f.png")
    finally:
        figures.uninstall()
    bad, _ = plt.subplots()
    bad.savefig(tmp_path / "g.png")  # unchecked again once uninstalled
    assert (tmp_path / "f.png").stat().st_size > 0
