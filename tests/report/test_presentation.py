"""Reports read as reports: code hidden unless asked for, tables as text with intervals, figures with alt text.

Each notebook's page on a small run (a tiny Sentient run, a small ablation run, a fabricated Smartphone Inc.
run: ``tests/small_reports.py``, built once per session) is checked, and rendered with its code shown; the table
and figure helpers are unit-tested on their own.
"""

from __future__ import annotations

import re

import nbformat
import polars as pl
import pytest

from simlab.report.build import render_html
from simlab.report.figures import named_colour, palette
from simlab.report.tables import digits_for, estimate_cell, formatted, pvalue, rests_on_text, wide_estimates

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module", params=["sentient_strategies", "sentient_card_ev", "smartphone_start_position"])
def rendered(request, small_report):
    """(notebook name, executed notebook, page with hidden code) for each report notebook on a small run."""
    report = small_report(request.param)
    return request.param, nbformat.read(report / "notebook.ipynb", as_version=4), (report / "index.html").read_text()


def _body(page: str) -> str:
    """The page without its style sheets and scripts (their CSS names classes the page does not use)."""
    return re.sub(r"<(style|script)\b.*?</\1>", "", page, flags=re.S)


def test_code_is_hidden_by_default_and_shown_on_request(rendered):
    _name, nb, page = rendered
    body = _body(page)
    assert "jp-CodeMirrorEditor" not in body and "jp-InputPrompt" not in body and "In&nbsp;[" not in body
    assert "tempfile" not in body
    shown = _body(render_html(nb, show_code=True))
    assert "jp-CodeMirrorEditor" in shown and "tempfile" in shown
    assert "jp-InputPrompt" not in shown  # prompts stay hidden either way


def test_tables_are_formatted_not_dumped(rendered):
    name, _nb, page = rendered
    body = _body(page)
    for dump in ("dtype", "shape:", "…", "&hellip;", "<td>str</td>", "<td>f64</td>", "<td>u32</td>",
                 "&quot;base&quot;"):
        assert dump not in body, f"{name}: {dump!r} in the page"
    assert re.search(r"\d\.\d+ \[[−\d]", body), f"{name}: no 'x [lo, hi]' cell"
    assert "95% CI]" in body


def test_every_figure_has_alt_text_and_a_caption(rendered):
    name, _nb, page = rendered
    images = re.findall(r"<img\b[^>]*>", _body(page))
    assert images, name
    for img in images:
        alt = re.search(r'alt="([^"]*)"', img)
        assert alt and len(alt.group(1)) > 20, f"{name}: an image without alt text"
    assert page.count("<figcaption") == len(images)


def test_no_warnings_or_errors_in_outputs(rendered):
    name, nb, _page = rendered
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("name") != "stderr", f"{name}: stderr output {out.get('text', '')[:200]}"
            assert out.get("output_type") != "error"
            text = out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
            assert "Warning" not in text, f"{name}: {text[:200]}"


def test_the_page_says_what_it_rests_on(rendered):
    name, _nb, page = rendered
    assert len(re.findall(r"This page rests on [\d,]+ games in [\d,]+ deals", page)) == 1, name
    assert "cdnjs.cloudflare.com/ajax/libs/require" not in page and "mathjax/2.7.7" not in page


# ------------------------------------------------------------------ helpers


def test_estimate_cell_and_rounding():
    assert estimate_cell(0.52134, 0.51712, 0.52488, 3) == "0.521 [0.517, 0.525]"
    assert estimate_cell(0.014, 0.008, 0.02, 3, signed=True) == "+0.014 [+0.008, +0.020]"
    assert estimate_cell(-931.2, -981.0, -902.4, 0) == "−931 [−981, −902]"
    assert estimate_cell(float("nan"), 0, 1) == "–"
    assert estimate_cell(0.0001, -0.0001, 0.0003, 3, signed=True) == "0.000 [0.000, 0.000]"  # no signed zeros
    assert digits_for([0.517], [0.525]) == 3       # half-width 0.004
    assert digits_for([0.53], [0.59]) == 2         # 0.03
    assert digits_for([0.0], [0.22]) == 2          # 0.11: two digits when the first is a 1
    assert digits_for([379.0], [405.0]) == 0       # 13
    assert digits_for([0.5, 0.1, 0.0], [0.5, 0.5, 2.0]) == 1  # the narrowest interval with a width decides
    assert digits_for([1.0], [1.0]) is None
    assert pvalue(5e-142) == "< 0.001" and pvalue(0.0487) == "0.049"


def test_formatted_turns_triples_into_cells_with_readable_headers():
    df = pl.DataFrame({"variant": ["base", "base"], "n_players": [2, 3], "player": ["greedy", "random"],
                       "games": [20000, 1500], "win_rate": [0.5213, 0.33], "win_rate_lo": [0.5171, 0.32],
                       "win_rate_hi": [0.5249, 0.34], "p_holm": [1e-9, 0.5], "excludes_fair": [True, False]})
    out = formatted(df)
    assert out.columns == ["players", "player", "games", "win rate [95% CI]", "p (Holm)", "excludes 1/n"]
    assert out.row(0) == ("2", "greedy", "20,000", "0.521 [0.517, 0.525]", "< 0.001", "yes")
    assert out.row(1)[3] == "0.330 [0.320, 0.340]"
    assert all(dtype == pl.Utf8 for dtype in out.dtypes)
    assert "variant" in formatted(df, keep_single_variant=True).columns
    pairs = pl.DataFrame({"player": ["a"], "opponent": ["b"], "win_rate": [0.56], "lo": [0.53], "hi": [0.59]})
    assert formatted(pairs, labels={"win_rate": "ahead"}).row(0) == ("a", "b", "0.56 [0.53, 0.59]")
    with pytest.raises(ValueError, match="no column elo_lo"):
        formatted(pl.DataFrame({"elo": [1.0]}), ["elo"])


def test_wide_estimates_puts_measures_in_rows():
    df = pl.DataFrame({"n_players": [2, 3], "games": [100, 200], "turns": [60.0, 61.0], "turns_lo": [59.5, 60.2],
                       "turns_hi": [60.5, 61.8], "seat_fairness_p": [0.7, 0.0001]})
    out = wide_estimates(df, extra=["games"], tail=["seat_fairness_p"])
    assert out.columns == ["measure", "2 players", "3 players"]
    assert out["measure"].to_list() == ["games", "turns [95% CI]", "seat fairness p"]
    assert out.row(1) == ("turns [95% CI]", "60.0 [59.5, 60.5]", "61.0 [60.2, 61.8]")
    assert out.row(2)[2] == "< 0.001"


def test_rests_on_counts_games_and_deals():
    games = pl.DataFrame({"variant": ["base"] * 4 + ["v"] * 4, "deal": [0, 0, 1, 1] * 2, "n_players": [2, 2, 3, 3] * 2})
    assert rests_on_text(games.filter(pl.col("variant") == "base")) == \
        "**This page rests on 4 games in 2 deals** (2, 3 players)."


def test_palette_is_colour_blind_safe_and_never_clashes_with_named_colours():
    shades = palette(["base", "usa_even"], avoid=["blue", "yellow", "green", "red", "white"])
    assert shades["base"] != named_colour("blue") and len(set(shades.values())) == 2
    blues = {"#0072B2", "#56B4E9"}
    assert not blues & set(shades.values())
    mixed = palette(["blue", "base"])
    assert mixed["blue"] == named_colour("blue") and mixed["base"] not in blues
    assert len(set(palette([f"p{i}" for i in range(8)]).values())) == 8
