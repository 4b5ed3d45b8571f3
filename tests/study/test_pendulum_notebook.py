"""The Pendulum report notebook on a tiny 3-player run whose names carry markup (issue 23, "Safety" and "Reports").

A player from a file, shown by its spec ``tag.py:P(tag='<script>alert(3)</script>')``, and variants named
``<img src=x onerror=alert(1)>`` and ``[x](javascript:alert(1))`` reach the page only as text: every
Markdown output the notebook writes, rendered as Jupyter renders it (HTML allowed), holds no live
``<script``, ``<img`` or ``javascript:`` link, and the HTML outputs (tables, figures) escape them too. The
page opens with a takeaway of at most three sentences and five headlines; no notebook wiring and no
empty section is shown.
"""

from __future__ import annotations

import json

import pytest
from study_helpers import live_markup_in

from simlab.analysis.headlines import read_findings
from simlab.report.build import NOTEBOOKS
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NOTEBOOK = NOTEBOOKS / "pendulum_automa_levels.ipynb"
HOSTILE = ["<script>alert(3)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))"]
PLAYER = '''from simlab import Player


class P(Player):
    """A random player with a tag (only its name matters here)."""

    def __init__(self, tag: str = "") -> None:
        super().__init__()
        self.tag = tag

    def choose(self, obs, legal):
        return legal[int(self.rng.integers(len(legal)))]
'''


def test_hostile_names_stay_text_and_the_page_opens_with_a_takeaway(tmp_path):
    import papermill

    (tmp_path / "tag.py").write_text(PLAYER)
    player = f"{tmp_path / 'tag.py'}:P(tag='{HOSTILE[0]}')"
    spec = parse_spec({"game": "pendulum", "seed": 3, "games": 12, "workers": 1,
                       "players": {"pool": ["voter", player], "n_players": [3], "repeat": True},
                       "variants": [{"name": HOSTILE[1]}, {"name": HOSTILE[2]}]}, "test")
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    out = tmp_path / "report"
    papermill.execute_notebook(str(NOTEBOOK), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False,
                               parameters={"run_dir": str(run), "report_dir": str(out)}, cwd=str(tmp_path))
    page = json.loads((tmp_path / "out.ipynb").read_text())
    outputs = [o for c in page["cells"] for o in c.get("outputs", [])]
    assert live_markup_in(outputs) == []
    text = json.dumps(outputs)
    assert "&lt;script&gt;alert(3)" in text or "\\\\<script\\\\>" in text  # the names are shown, as text
    # the page opens with at most three takeaway sentences and five headlines; the rest stay in the notebook
    findings = read_findings(out)
    assert 1 <= len(findings["takeaway"]) <= 3 and 1 <= len(findings["headlines"]) <= 5
    assert findings["takeaway"][0].startswith("The start privilege")
    # no wiring, no empty section: the parameters text is in a hidden cell; no solo section here
    shown = [c for c in page["cells"] if "remove-cell" not in c["metadata"].get("tags", [])
             and "parameters" not in c["metadata"].get("tags", [])]
    assert not any("Parameters: `run_dir`" in "".join(c["source"]) for c in shown)
    assert "## Multi-player" in text and "## Solo" not in text and "This run has no level B" not in text
    assert "–" not in json.dumps(findings)  # no bare dash for a number without an interval
