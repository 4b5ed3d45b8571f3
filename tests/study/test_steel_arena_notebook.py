"""The Steel Arena balance notebook on a small real run: modules in win share, replication, team mode.

Issue 22 parts 3 and 4: a never-held design (terrain, G2-T-VODA) is not a row and is counted as
untested; module values are ranked by win share with trophies beside; the report carries a
second seed with Cochran's Q; team mode headlines the first player's team and ties between
teams, with seats numbered from 0 as in specs and ``simlab play`` (team 0 = seats 0 and 2,
docs/steel_arena.md, Team mode; NOTES I.15.2); the most common end is named per player count.

Issue 23: the page opens with a takeaway of at most three sentences and five headlines ranked by importance
(findings.json), the causal module ranking names the module with the largest value; variant names carrying
markup (``<script>``, ``<img onerror>``, a ``javascript:`` link) stay text in every Markdown and HTML output;
no notebook wiring and no empty section ("No team games in this run") is shown.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from study_helpers import live_markup_in

from simlab.analysis.headlines import read_findings
from simlab.report.build import NOTEBOOKS
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NOTEBOOK = NOTEBOOKS / "steel_arena_balance.ipynb"
HOSTILE = ["<script>alert(3)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))"]
PLAYERS = {"pool": ["brawler", "sniper", "collector"], "n_players": [4], "repeat": True, "rotation": "cyclic"}


def _run(path: Path, **raw) -> Path:
    spec = parse_spec({"game": "steel_arena", "workers": 1, "players": PLAYERS, **raw}, "test")
    return run_experiment(spec, path, show_progress=False).path


def test_notebook_on_a_small_run_with_modules_teams_and_a_replication(tmp_path):
    import papermill

    run = _run(tmp_path / "run", seed=13, games=96, record=["pickups"],
               variants=[{"name": "teams", "options": {"team": True}},
                         {"name": "<script>alert(3)", "options": {"team": True}},  # a variant name holds no '/'
                         {"name": HOSTILE[1]}, {"name": HOSTILE[2]}],
               ablation={"tiles": ["G3-A-RELSOTRON", "G2-T-VODA"], "change": "remove"})
    replicate = _run(tmp_path / "replicate", seed=113, games=96)
    out = tmp_path / "report"
    parameters = {"run_dir": str(run), "report_dir": str(out), "replicate_dir": str(replicate)}
    papermill.execute_notebook(str(NOTEBOOK), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False,
                               parameters=parameters, cwd=str(tmp_path))
    findings = read_findings(out)
    text = "\n".join(findings["headlines"] + findings["more"])
    assert 1 <= len(findings["takeaway"]) <= 3 and len(findings["headlines"]) == 5
    assert findings["takeaway"][0].startswith("The first player has")
    assert "team mode" in findings["takeaway"][1] and "seats 0 and 2" in findings["takeaway"][1]
    assert "of 1 tested modules change their holder's win share" in text
    assert "never held, so not tested: G2-T-VODA" in text
    assert "replication on a second seed (13 and 113)" in text and "Cochran's Q" in text
    assert "the first player's team wins" in text and "team 0 (seats 0 and 2)" in text
    assert "ties between the teams" in text and "seats 1 and 3 (team 0)" not in text
    assert "most games end" not in text and "the most common end" in text
    page = json.loads((tmp_path / "out.ipynb").read_text())
    outputs = json.dumps([c.get("outputs", []) for c in page["cells"]])
    assert "value (win share)" in outputs and "value (trophies)" in outputs
    assert "G3-A-RELSOTRON</td>" in outputs and "G2-T-VODA</td>" not in outputs  # a row only when tested
    assert "Team 0 = seats 0 and 2, team 1 = seats 1 and 3" in outputs
    # the hostile variant names are shown as text, never run or rendered as markup
    assert live_markup_in([o for c in page["cells"] for o in c.get("outputs", [])]) == []
    assert "&lt;script&gt;alert(3)" in outputs
    shown = "".join("".join(c["source"]) for c in page["cells"]
                    if not {"remove-cell", "parameters"} & set(c["metadata"].get("tags", [])))
    assert "Parameters: `run_dir`" not in shown and "No team games" not in outputs


