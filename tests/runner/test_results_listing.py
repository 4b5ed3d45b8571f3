"""Issue 23, "Command line": ``simlab results`` lists tunes too, ``results show TUNE_DIR`` shows a tune, every
path is printed whole (it can be copied), and ``--json`` gives the list and one entry machine-readable."""

from __future__ import annotations

import json
from pathlib import Path

from runner_helpers import small_spec
from typer.testing import CliRunner

import simlab.results as results
from simlab.cli import app
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

IMPROVEMENT = "confirmed: 0.3548 -> 0.2387, paired difference -0.1161"


def _tune_folder(root: Path, status: str = "complete") -> Path:
    """A tune folder as ``simlab tune`` leaves it (tune.json and candidates.csv; the study itself is not read)."""
    path = root / "colours" / "20260101-000000-abcdef12-tune"
    path.mkdir(parents=True)
    man = {"kind": "tune", "experiment": "colours", "run": path.name, "source": "experiments/colours.toml",
           "status": status, "created": "2026-01-01T00:00:00", "description": "even out the colours",
           "objective": {"name": "max_position_deviation", "unit": "largest |win rate - 1/n|", "target": 0.03},
           "knobs": [{"name": "usa0_cap"}], "budget": {"max_changes": 2, "trials": 40},
           "search": {"trials": 40, "games": 123_000, "seconds": 10, "stopped_by": "trials (40)"}}
    if status == "complete":
        man["answer"] = {"improvement": IMPROVEMENT, "target": "not met: 0.239 > 0.03"}
        (path / "candidates.csv").write_text(
            "rank,candidate,trial,search_value,confirmed,confirmed_lo,confirmed_hi,cells,distance,changes\n"
            "0,printed,,0.36,0.3548,0.33,0.37,0,0,(printed data)\n"
            "1,trial20,20,0.22,0.2387,0.21,0.25,1,1,buyers: cap 4 -> 6\n")
    (path / "tune.json").write_text(json.dumps(man))
    return path


def _run(root: Path, name: str = "small") -> Path:
    return run_experiment(parse_spec(small_spec(name=name, games=60, shard_size=30, record=[])),
                          root / name / "20260101-000000-run", show_progress=False).path


def test_list_runs_has_runs_and_tunes(tmp_path):
    run, tune = _run(tmp_path), _tune_folder(tmp_path)
    listed = results.list_runs(tmp_path)
    assert listed["kind"].to_list() == ["tune", "run"]  # sorted by path: colours/..., small/...
    assert listed["path"].to_list() == [str(tune), str(run)]
    row = listed.row(0, named=True)
    assert (row["status"], row["trials"], row["games"], row["result"]) == ("complete", 40, 123_000, IMPROVEMENT)
    assert listed.row(1, named=True)["games"] == 60 and listed.row(1, named=True)["trials"] is None


def test_cli_results_lists_tunes_with_whole_paths(tmp_path):
    deep = tmp_path / ("a_long_folder_name_" * 6) / "results"  # a path longer than any terminal's table cell
    run, tune = _run(deep), _tune_folder(deep)
    out = CliRunner().invoke(app, ["results", "--root", str(deep)])
    assert out.exit_code == 0, out.output
    lines = [line.strip() for line in out.output.splitlines()]
    assert str(run) in lines and str(tune) in lines  # each path whole, on its own line
    assert f"result: {IMPROVEMENT}" in lines
    assert any(line.startswith("colours") and " tune " in line and "40 trials" in line for line in lines)


def test_cli_results_json(tmp_path):
    run, tune = _run(tmp_path), _tune_folder(tmp_path)
    out = CliRunner().invoke(app, ["results", "--root", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    listed = json.loads(out.output)
    assert [(e["kind"], e["path"]) for e in listed] == [("tune", str(tune)), ("run", str(run))]
    shown = json.loads(CliRunner().invoke(app, ["results", "show", str(run), "--json"]).output)
    assert shown["kind"] == "run" and shown["manifest"]["games_done"] == 60
    assert {r["player"] for r in shown["summary"]["players"]} == {"greedy", "investor", "random"}
    shown = json.loads(CliRunner().invoke(app, ["results", "show", str(tune), "--json"]).output)
    assert shown["kind"] == "tune" and shown["manifest"]["answer"]["improvement"] == IMPROVEMENT
    assert [r["candidate"] for r in shown["candidates"]] == ["printed", "trial20"]


def test_cli_results_show_a_tune(tmp_path):
    tune = _tune_folder(tmp_path)
    for name in (str(tune), tune.name, f"colours/{tune.name}"):
        out = CliRunner().invoke(app, ["results", "show", name, "--root", str(tmp_path)])
        assert out.exit_code == 0, out.output
        assert "no stored run" not in out.output
        assert "(tune, complete)" in out.output and str(tune) in out.output.splitlines()
        assert "trial20" in out.output and f"improvement: {IMPROVEMENT}" in out.output


def test_cli_results_show_an_unfinished_tune(tmp_path):
    tune = _tune_folder(tmp_path, status="searching")
    out = CliRunner().invoke(app, ["results", "show", str(tune)])
    assert out.exit_code == 0, out.output
    assert "(tune, searching)" in out.output
    assert f"result: search not finished; continue it with simlab tune experiments/colours.toml --out {tune} " \
           "--resume" in out.output.replace("\n", " ")


def test_a_tune_that_recommends_nothing_says_so_in_one_line():
    """Issue 23: a tune whose paired test did not confirm a change reads "no change recommended"."""
    from simlab.results import tune_result

    confirmed = {"answer": {"recommended": True, "improvement": "confirmed: 0.35 -> 0.25"}}
    refused = {"answer": {"recommended": False, "improvement": "not confirmed: 0.35 -> 0.34"}}
    assert tune_result(confirmed) == "confirmed: 0.35 -> 0.25"
    assert tune_result(refused).startswith("no change recommended")
    assert tune_result({"status": "searching"}) == "search not finished"
