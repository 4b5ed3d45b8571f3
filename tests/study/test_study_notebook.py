"""The start-position notebook and report: on a fabricated run, on its own default run, and from the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.analysis.headlines import read_findings
from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.report.build import NOTEBOOKS, notebook_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = NOTEBOOKS / "smartphone_start_position.ipynb"
SECTIONS = ("Win rate by start colour", "VP by start colour", "robust to how people play",
            "Where does the VP difference come from", "Data variants")


def _smartphone_registered() -> bool:
    from simlab.core.game import get_game

    try:
        get_game("smartphone")
    except SimlabError:
        return False
    return True


needs_engine = pytest.mark.skipif(not _smartphone_registered(), reason="the Smartphone Inc. engine is not registered")


def test_smartphone_reports_with_the_start_position_notebook():
    assert get_game("smartphone").report_notebook == NOTEBOOK.name and NOTEBOOK.is_file()
    assert notebook_for({"game": "smartphone", "spec": {}}) == NOTEBOOK


def test_notebook_on_a_fabricated_run_with_variants(small_report):
    report = small_report("smartphone_start_position")  # 3 fabricated deals, +4 VP for one colour, 'usa_even'
    page = (report / "index.html").read_text()
    for section in SECTIONS:
        assert section in page
    assert page.count("data:image/png;base64") >= 5
    assert "Parameters:" not in page and "No data variants" not in page  # no notebook wiring, no empty section
    read = read_findings(report)
    findings = read["headlines"] + read["more"]
    assert 1 <= len(read["takeaway"]) <= 3 and len(read["headlines"]) == 5  # issue 23: the answer at a glance
    assert findings and all("CI" in f or "p =" in f for f in findings)
    assert not any(re.search(r"\de-\d", f) for f in read["takeaway"] + findings)  # never 'p = 2.23e-124'
    assert read["cautions"] and "3 deals" in read["cautions"][0]  # a page on 3 deals says so
    assert any(f.startswith("5 players: best start blue (USA)") for f in findings)
    assert any("most even data is 'usa_even'" in f for f in findings)


@needs_engine
def test_notebook_runs_its_own_default_experiment(tmp_path):
    import papermill

    papermill.execute_notebook(str(NOTEBOOK), str(tmp_path / "out.ipynb"),
                               parameters={"run_dir": None, "report_dir": str(tmp_path)}, kernel_name="python3",
                               progress_bar=False, cwd=str(tmp_path))
    findings = read_findings(tmp_path)["headlines"]
    assert [f.split(":")[0] for f in findings[:4]] == ["2 players", "3 players", "4 players", "5 players"]
    cells = json.loads((tmp_path / "out.ipynb").read_text())["cells"]
    shown = json.dumps([c.get("outputs", []) for c in cells]) + json.dumps(
        [c["source"] for c in cells if c["cell_type"] == "markdown"])
    assert "Data variants" not in shown and "Parameters:" not in shown  # no empty section, no wiring (issue 23)


@needs_engine
def test_simlab_report_on_the_quickstart_spec(tmp_path, monkeypatch):
    from simlab.cli import app

    monkeypatch.chdir(tmp_path)
    spec = ROOT / "experiments" / "smartphone_quickstart.toml"
    result = CliRunner().invoke(app, ["report", str(spec), "-q", "--workers", "2"])
    assert result.exit_code == 0, result.output
    run_dir = next((tmp_path / "results" / "smartphone_quickstart").iterdir())
    assert not (tmp_path / "reports").exists()  # simlab report writes into the run's folder, never reports/
    page = (run_dir / "report" / "index.html").read_text()
    assert page.count('id="simlab-summary"') == 1 and "Headline findings" in page
    for section in SECTIONS[:-1]:
        assert section in page
    assert "Data variants" not in page  # the quick-start has none: the section is left out (issue 23)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["game"] == "smartphone" and manifest["data"]["base"]["data_hash"]
