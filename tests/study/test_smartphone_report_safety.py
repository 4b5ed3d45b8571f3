"""Issue 23, "Safety of what a report shows": the start-position notebook on a tiny fabricated run whose player
types and data variants carry markup (``<script>``, ``<img onerror>``, a Markdown ``javascript:`` link). The
names reach the page's Markdown (the variant findings) and HTML (tables, figure captions) only escaped."""

from __future__ import annotations

import json

import pytest
from study_helpers import IMG, LINK, SCRIPT, fabricate_run, live_markup, rename_in_run

from simlab.report import report_run

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_start_position_notebook_shows_marked_up_names_as_text(tmp_path):
    run = fabricate_run(tmp_path / "run", deals=3, bonus=4.0, variants={"even": 0.0, "odd": 1.0})
    bad = rename_in_run(run, tmp_path / "bad", players={"greedy": SCRIPT, "tech_rusher": LINK},
                        variants={"even": IMG, "odd": LINK})
    report_run(bad, tmp_path / "report")
    notebook = tmp_path / "report" / "notebook.ipynb"
    shown = json.dumps([c.get("outputs", []) for c in json.loads(notebook.read_text())["cells"]])
    assert "alert(3)" in shown and "onerror" in shown  # the names are on the page ...
    assert live_markup(notebook) == []  # ... as text
