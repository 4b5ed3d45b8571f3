"""A small report notebook for the page tests: it reads a stored run, writes a takeaway, headlines and a
caution, shows a great_tables table, a checked figure, an inline matplotlib figure, Markdown with headings and
hostile names, and carries the wiring cells a page must hide."""

from __future__ import annotations

from pathlib import Path

import nbformat

HOSTILE = ["<script>alert(3)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))"]

CELLS = [
    ("code", "run_dir = None\nreport_dir = '.'", ["parameters"]),
    ("markdown", "Parameters: `run_dir` (a stored run; None plays its own).", ["remove-cell"]),
    ("markdown", "## The players\n\nWho won.", []),
    ("code", """\
import polars as pl
import matplotlib.pyplot as plt
from IPython.display import Markdown, HTML, display
import simlab
from simlab.analysis.headlines import Headlines
from simlab.report import figures
from simlab.report.tables import estimate_table

seats = simlab.results.load(run_dir)["seats"].collect()
rates = (seats.group_by("player").agg(pl.col("win_share").mean().alias("win_rate"), pl.len().alias("games"))
         .sort("player"))
estimate_table(rates, title="Win rate by player")""", []),
    ("markdown", "### A figure", []),
    ("code", """\
fig, ax = plt.subplots(figsize=(5, 3))
ax.bar(rates["player"].to_list(), rates["win_rate"].to_list())
ax.set_xlabel("player")
ax.set_ylabel("win rate")
figures.show(fig, "Win rate by player.", "bar chart of win rates")""", []),
    ("code", """\
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot([0, 1], [0, 1])
ax.set_xlabel("games")
ax.set_ylabel("share")
plt.show()""", []),
    ("code", f"hostile = {HOSTILE!r}\n" + """\
display(Markdown("## Names\\n\\n" + "\\n".join(f"- player {h}" for h in hostile)))
display(HTML("<p>label " + hostile[1] + "</p><script>alert(4)</script>"))""", []),
    ("code", """\
h = Headlines()
h.say("The greedy player wins most often in this tiny run.")
h.estimate("greedy: win rate (a number with its interval)")
h.caution("A caution written by the notebook.")
h.write(report_dir)""", ["remove-cell"]),
]


def write_notebook(path: Path, extra: list[tuple[str, str, list[str]]] = ()) -> Path:
    """Write the page-test notebook (with ``extra`` cells appended) to ``path``."""
    nb = nbformat.v4.new_notebook()
    for kind, source, tags in [*CELLS, *extra]:
        cell = nbformat.v4.new_code_cell(source) if kind == "code" else nbformat.v4.new_markdown_cell(source)
        cell.metadata["tags"] = list(tags)
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path
