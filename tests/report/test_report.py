"""Reports: each notebook executes on a small run, and `simlab report` writes a complete HTML page."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.analysis.headlines import read_findings
from simlab.cli import app
from simlab.report import build, report_run
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = """
description = "a tiny report test"
game = "sentient"
seed = 4
games = 400
shard_size = 200
workers = 1
report = "sentient_strategies.ipynb"

[players]
pool = ["random", "greedy", "investor"]
n_players = [2, 3]
rotation = "cyclic"
"""


def test_simlab_report_writes_a_complete_page(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "experiments" / "tiny.toml"
    spec.parent.mkdir()
    spec.write_text(TINY)
    result = CliRunner().invoke(app, ["report", str(spec), "-q", "--report-dir", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "index.html").read_text()
    assert page.count('id="simlab-summary"') == 1
    assert "a tiny report test" in page and "Headline findings" in page
    assert "405 games: 45 deals of 9 games each" in page  # 400 rounded up to whole deals of 9 seatings
    assert page.count("data:image/png;base64") >= 3  # ladder, heat map, seats
    for section in ("The ladder", "Matchups", "Seat advantage", "Game metrics"):
        assert section in page
    found = read_findings(tmp_path / "out")
    findings = found["headlines"] + found["more"]
    assert any("strongest" in f for f in findings) and all("CI" in f or "p =" in f for f in findings)
    # The two reports below check which run the command finds; the notebook's execution was checked above, so
    # they get the first page's body and findings back (each execution is a new kernel, about 7 s).
    run_dir = next((tmp_path / "results" / "tiny").iterdir())
    executed: list[Path] = []

    def execute_again(nb_path, run, out_dir, *args, **kwargs):
        executed.append(Path(run).resolve())
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        return "<p>the notebook's body</p>", {key: list(value) for key, value in found.items()}

    monkeypatch.setattr(build, "_execute", execute_again)
    # a second report reuses the stored run instead of playing it again
    again = CliRunner().invoke(app, ["report", str(spec), "-q", "--report-dir", str(tmp_path / "out2")])
    assert again.exit_code == 0 and "reusing the stored run" in again.output
    # and a stored run can be reported directly
    direct = CliRunner().invoke(app, ["report", str(run_dir), "--report-dir", str(tmp_path / "out3")])
    assert direct.exit_code == 0, direct.output
    assert (tmp_path / "out3" / "index.html").is_file()
    assert executed == [run_dir.resolve()] * 2 and len(list((tmp_path / "results" / "tiny").iterdir())) == 1


def test_card_ev_notebook_on_a_small_ablation_run(small_report):
    report = small_report("sentient_card_ev")  # investor/specialist at 2-3 players, cards 30, 40, 59 removed
    page = (report / "index.html").read_text()
    for section in ("Causal value", "Observational value", "By robot type", "player count", "Regression"):
        assert section in page
    found = read_findings(report)
    findings = found["headlines"] + found["more"]
    assert any("causal, paired ablation" in f for f in findings)
    assert any("correlational" in f for f in findings)


def test_failing_notebook_is_one_clear_error(tmp_path):
    import nbformat

    from simlab.core.errors import SimlabError

    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("run_dir = None\nreport_dir = '.'")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell("raise ValueError('no data here')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "bad.ipynb"
    nbformat.write(nb, path)
    spec = parse_spec({"name": "t", "game": "sentient", "games": 20, "workers": 1,
                       "players": {"seats": ["greedy", "random"]}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    with pytest.raises(SimlabError, match=r"bad\.ipynb failed in cell .*ValueError: no data here"):
        report_run(run, tmp_path / "report", notebook=path)


@pytest.mark.parametrize("name", ["sentient_strategies.ipynb", "sentient_card_ev.ipynb", "strong_play.ipynb"])
def test_notebooks_run_top_to_bottom_with_their_default_run(tmp_path, name):
    """With no run given, a notebook plays its own small default experiment (as on a fresh machine)."""
    import papermill

    from simlab.report.build import NOTEBOOKS

    papermill.execute_notebook(str(NOTEBOOKS / name), str(tmp_path / name), parameters={"report_dir": str(tmp_path)},
                               kernel_name="python3", progress_bar=False, cwd=str(tmp_path))
    found = read_findings(tmp_path)
    assert len(found["headlines"] + found["more"]) >= 3
