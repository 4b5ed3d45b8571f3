"""The report page (issue 23, "Reports"): it opens with the answer (cautions, takeaway, five headlines, what
was run), has a table of contents, hides the notebook's wiring, renders hostile names inert through nbconvert's
sanitiser, is byte-identical when rendered again, checks every figure in the kernel, and prints plain progress
lines (and no kernel warning) when its output is not a terminal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from simlab.core.errors import SimlabError
from simlab.report import build

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_notebook import write_notebook

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SPEC = """
description = "a page test"
game = "sentient"
seed = 3
games = 90
shard_size = 90
workers = 1
report = "page.ipynb"

[players]
pool = ["random", "greedy"]
n_players = [2]
rotation = "cyclic"
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``simlab report`` run as a user would from a script (stdout and stderr not a terminal) on a small spec
    whose report notebook is tests/report/page_notebook.py's."""
    project = tmp_path_factory.mktemp("page")
    (project / "experiments").mkdir()
    (project / "experiments" / "page.toml").write_text(SPEC)
    write_notebook(project / "experiments" / "page.ipynb")
    simlab = Path(sys.executable).parent / "simlab"
    done = subprocess.run([str(simlab), "report", "experiments/page.toml"], cwd=project, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    run_dir = next((project / "results" / "page").iterdir())
    index = run_dir / "report" / "index.html"
    return {"project": project, "run": run_dir, "index": index, "page": index.read_text(encoding="utf-8"),
            "stdout": done.stdout, "stderr": done.stderr}


def test_the_page_opens_with_the_answer_then_what_was_run(built):
    page = built["page"]
    marks = ['<h1>simlab report: page</h1>', 'class="simlab-cautions"', "A caution written by the notebook.",
             '<h2 id="in-short">In short</h2>', "The greedy player wins most often in this tiny run.",
             '<h2 id="headline-findings">', "greedy: win rate (a number with its interval)",
             '<h2 id="what-was-run">', '<nav id="simlab-toc"', "<main"]
    at = [page.find(m) for m in marks]
    assert all(i >= 0 for i in at) and at == sorted(at), dict(zip(marks, at, strict=True))
    # unambiguous counts: the run's stored games in deals, not "N stored" beside a page that rests on fewer
    assert "games stored in the run</th><td>90 games: 45 deals of 2 games each" in page
    assert "executed in" not in page  # no timing on the page: the same results give the same bytes
    # the notebook wrote its own caution, so the automatic one (45 deals < 100) is not added
    assert "fewer than 100" not in page


def test_the_table_of_contents_links_every_heading(built):
    page = built["page"]
    nav = re.search(r'<nav id="simlab-toc".*?</nav>', page, re.DOTALL).group(0)
    targets = re.findall(r'href="#([^"]+)"', nav)
    assert targets[:3] == ["in-short", "headline-findings", "what-was-run"]
    for heading in ("The-players", "A-figure", "Names"):
        assert heading in targets
    for target in targets:
        assert page.count(f'id="{target}"') == 1, target
    assert re.search(r'<li><a href="#The-players">The players</a><ol><li><a href="#A-figure">', nav)  # h3 nested


def test_the_wiring_is_not_on_the_page(built):
    page = built["page"]
    assert "Parameters: " not in page and "run_dir" not in page  # the remove-cell Markdown, the parameters
    assert "_simlab_figures" not in page and "Headlines()" not in page
    nb = nbformat.read(built["run"] / "report" / "notebook.ipynb", as_version=4)
    assert any("injected-parameters" in c.metadata.get("tags", []) for c in nb.cells)  # it ran, it is hidden


def test_hostile_names_are_inert_and_figures_and_tables_still_show(built):
    page = built["page"]
    lower = page.lower()
    assert "<script" not in lower and not re.search(r"\sonerror\s*=", lower) and "javascript:" not in lower
    assert not re.search(r"<img\b(?![^>]*\ssrc=)", page)  # the stripped <img onerror> is gone, not a broken image
    assert re.search(r"<li>player\s*<a>x</a>", page)  # the Markdown link kept as text, without its target
    assert len(re.findall(r'<img[^>]+src="data:image/png;base64,', page)) >= 2  # figures.show and plt.show
    assert '<div id="gt1"' in page and "Win rate by player" in page and "#gt1 table" in page


def test_progress_lines_and_no_kernel_warning_when_not_a_terminal(built):
    out = built["stdout"]
    assert re.search(r"page: playing 90/90 games \(100%\), \d+ s", out), out
    assert re.search(r"report page: executing the notebook, cell 1/\d+, \d+ s", out), out
    assert "without encryption" not in built["stderr"] + out
    assert "in short" in out and "The greedy player wins most often" in out


def test_rendering_the_same_executed_notebook_twice_gives_the_same_bytes(built):
    nb = nbformat.read(built["run"] / "report" / "notebook.ipynb", as_version=4)
    first, second = build.render_html(nb), build.render_html(nb)
    assert first == second
    assert "gt1" in first and not re.search(r'<div id="[a-z]{10}"', first)


@pytest.mark.parametrize("show", ["plt.show()", "None  # the inline backend shows the open figure after the cell"])
def test_a_figure_that_fails_the_check_fails_the_report(built, tmp_path, show):
    """However the notebook shows it (plt.show, or a figure left open at the end of a cell, which IPython renders
    after the cell has finished), an unlabelled axis stops the report."""
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("run_dir = None\nreport_dir = '.'")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(f"import matplotlib.pyplot as plt\nplt.plot([0, 1], [0, 1])\n{show}")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "unlabelled.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(SimlabError, match=r"unlabelled\.ipynb.*(FigureCheckError|fails the figure check): "
                                          r"figure .*x axis has tick labels but no label"):
        build.report_run(built["run"], tmp_path / "report", notebook=path)


# ------------------------------------------------------------------ the parts, without a kernel


def test_a_page_without_a_takeaway_opens_with_its_headlines():
    top = build.page_top("t", {"takeaway": [], "headlines": ["h1 <b>", *[f"h{i}" for i in range(2, 8)]],
                               "more": [], "cautions": []}, [("games", "9")], "note")
    assert "In short" not in top and "class=\"simlab-cautions\"" not in top
    assert top.count("<li>") == 5 and "h1 &lt;b&gt;" in top  # five at most, escaped


def test_few_deals_give_an_automatic_caution():
    man = {"plan": {"games": 900, "deals": 100}, "games_done": 360, "variants": ["base"]}
    assert build.stored_deals(man) == 40
    assert build.stored_deals({"plan": {}, "games_done": 5}) is None
    caution = build.deals_caution(40)
    assert "40 deals" in caution and "fewer than 100" in caution and "about 160 deals would halve them" in caution


def test_headings_get_ids_and_a_nested_table_of_contents():
    page, nav = build.table_of_contents('<h2 id="a">A<a class="anchor-link" href="#a">¶</a></h2><h3>B &amp; c</h3>'
                                        "<h3>B &amp; c</h3><h2>D</h2>")
    assert '<h3 id="b-c">' in page and '<h3 id="b-c-2">' in page and '<h2 id="d">' in page
    assert nav.endswith('<ol><li><a href="#a">A</a><ol><li><a href="#b-c">B &amp; c</a></li>'
                        '<li><a href="#b-c-2">B &amp; c</a></li></ol></li><li><a href="#d">D</a></li></ol></nav>')


def test_random_table_ids_are_renumbered_in_page_order():
    page = ('<div id="qwertyuiop"><style>#qwertyuiop table {}</style></div><div id="asdfghjklz">'
            "<style>#asdfghjklz p {}</style></div><table id=\"T_1a2b3\"></table><div id=\"notatable\"></div>")
    assert build.stable_ids(page) == ('<div id="gt1"><style>#gt1 table {}</style></div><div id="gt2">'
                                      '<style>#gt2 p {}</style></div><table id="T_s1"></table>'
                                      '<div id="notatable"></div>')


def test_unsafe_urls_are_removed():
    page = ('<a href="javascript:alert(1)">x</a><a href=" jav&#x61;script:x">y</a><a href="#a">z</a>'
            '<img src="data:image/png;base64,AA"><a href="data:text/html,x">v</a><a href="b.html">r</a>'
            '<img alt="x"/><img src="javascript:x">')
    assert build.safe_urls(page) == ('<a>x</a><a>y</a><a href="#a">z</a><img src="data:image/png;base64,AA">'
                                     '<a>v</a><a href="b.html">r</a>')


def test_cell_progress_prints_at_most_every_few_seconds():
    import io

    from rich.console import Console

    now = [0.0]
    out = io.StringIO()
    progress = build.CellProgress("x", 10, Console(file=out, width=200), every=5.0, clock=lambda: now[0])
    for i, t in enumerate([0.0, 1.0, 4.0, 5.5, 6.0, 12.0]):
        now[0] = t
        progress.cell_start(cell_index=i)
    assert out.getvalue().splitlines() == ["report x: executing the notebook, cell 1/10, 0 s",
                                           "report x: executing the notebook, cell 4/10, 6 s",
                                           "report x: executing the notebook, cell 6/10, 12 s"]
