"""Issue 23, "Safety of what a report shows": the two Sentient notebooks on tiny runs whose player labels and
variant names carry markup (``<script>``, ``<img onerror>``, a Markdown ``javascript:`` link). Every name they
write into Markdown or HTML goes through ``escape_md``/``escape_html``: the executed notebook shows the names
as text and no live markup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from study_helpers import IMG, LINK, SCRIPT, live_markup, rename_in_run

from simlab.analysis.headlines import read_findings
from simlab.report import report_run
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _shown(notebook: Path) -> str:
    """Everything the executed notebook shows (its outputs), as one string."""
    return json.dumps([c.get("outputs", []) for c in json.loads(notebook.read_text())["cells"]])


def test_strategies_notebook_shows_marked_up_player_labels_as_text(tmp_path):
    spec = parse_spec({"name": "tiny", "game": "sentient", "seed": 4, "games": 240, "shard_size": 240, "workers": 1,
                       "players": {"pool": ["random", "greedy", "investor"], "n_players": [2, 3],
                                   "rotation": "cyclic"}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    bad = rename_in_run(run, tmp_path / "bad", players={"greedy": SCRIPT, "investor": IMG, "random": LINK})
    report_run(bad, tmp_path / "report")
    notebook = tmp_path / "report" / "notebook.ipynb"
    assert "alert(3)" in _shown(notebook) and "onerror" in _shown(notebook)  # the names are on the page ...
    assert live_markup(notebook) == []  # ... as text


def test_card_ev_notebook_shows_marked_up_names_as_text(tmp_path):
    spec = parse_spec({"name": "tiny_ablation", "game": "sentient", "seed": 2, "games": 200, "shard_size": 200,
                       "workers": 1, "record": ["takes"], "report": "sentient_card_ev.ipynb",
                       "players": {"pool": ["investor", "specialist"], "repeat": True, "n_players": [2, 3],
                                   "rotation": "cyclic"},
                       "ablation": {"cards": [30, 40], "change": "remove"}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    bad = rename_in_run(run, tmp_path / "bad", players={"investor": SCRIPT},
                        variants={"card30_removed": IMG, "card40_removed": LINK})
    report_run(bad, tmp_path / "report")
    # the page names cards, not the ablation's variants or the players: nothing they carry may show as markup
    assert live_markup(tmp_path / "report" / "notebook.ipynb") == []
    cautions = read_findings(tmp_path / "report")["cautions"]
    assert cautions and cautions[0].startswith("This page rests on 25 deals")  # few deals: said at the top
