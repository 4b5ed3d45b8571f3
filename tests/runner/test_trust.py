"""Issue 9, what runs: `simlab replay` and `simlab report` resolve a run's player files and notebook in the
run's project (not the current folder), say what they execute, and refuse files outside it without --trust."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.cli import app
from simlab.report.build import TrustError, notebook_for, report_run
from simlab.results import manifest
from simlab.runner.replay import replay_game
from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec

PLAYER = '''
from simlab import Player


class First(Player):
    """Plays the first legal action."""

    def choose(self, obs, legal):
        return legal[0]
'''

EVIL = '''
from pathlib import Path
Path({marker!r}).write_text("ran")
''' + PLAYER


def _project_run(tmp_path: Path, monkeypatch, seats: str, extra: str = "") -> Path:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    monkeypatch.chdir(project)
    spec = project / "exp.toml"
    spec.write_text(f'name = "exp"\ngame = "sentient"\nseed = 2\ngames = 10\nshard_size = 10\nworkers = 1\n{extra}\n'
                    f'[players]\nseats = {seats}\nrotation = "none"\n')
    return run_experiment(load_spec(spec), project / "results" / "exp" / "run1", show_progress=False).path


def test_replay_loads_player_files_from_the_runs_project_not_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "project" / "players").mkdir(parents=True)
    (tmp_path / "project" / "players" / "first.py").write_text(PLAYER)
    run_dir = _project_run(tmp_path, monkeypatch, '["greedy", "players/first.py:First"]')
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "players").mkdir(parents=True)
    marker = tmp_path / "evil-ran"
    (elsewhere / "players" / "first.py").write_text(EVIL.format(marker=str(marker)))
    monkeypatch.chdir(elsewhere)
    said: list[str] = []
    events, _ = replay_game(run_dir, 3, announce=said.append)
    assert not marker.exists()
    assert said == [f"loading player file {tmp_path / 'project' / 'players' / 'first.py'} (players/first.py:First)"]
    assert events[0]["players"] == ["greedy", "First"]  # the stored player column's names (class, not path)
    out = CliRunner().invoke(app, ["replay", str(run_dir), "--game", "3"])
    assert out.exit_code == 0, out.output
    assert "loading player file" in out.output and not marker.exists()


def test_replay_refuses_player_files_outside_the_project_without_trust(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "first.py").write_text(PLAYER)
    run_dir = _project_run(tmp_path, monkeypatch, f'["greedy", "{outside / "first.py"}:First"]')
    with pytest.raises(TrustError, match=rf"the run names player file {outside / 'first.py'}, outside its project "
                                         rf"{tmp_path / 'project'}: read it, then pass --trust"):
        replay_game(run_dir, 0)
    refused = CliRunner().invoke(app, ["replay", str(run_dir), "--game", "0"])
    assert refused.exit_code != 0 and isinstance(refused.exception, TrustError)
    events, _ = replay_game(run_dir, 0, trust=True)
    assert events


def test_report_resolves_the_notebook_in_the_runs_project(tmp_path, monkeypatch):
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "mine.ipynb").write_text('{"cells": []}')
    run_dir = _project_run(tmp_path, monkeypatch, '["greedy", "random"]', 'report = "mine.ipynb"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "mine.ipynb").write_text('{"cells": []}')
    monkeypatch.chdir(elsewhere)
    assert notebook_for(manifest(run_dir), run_dir) == tmp_path / "project" / "mine.ipynb"


def test_moved_project_still_resolves_its_own_files(tmp_path, monkeypatch):
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "mine.ipynb").write_text('{"cells": []}')
    _project_run(tmp_path, monkeypatch, '["greedy", "random"]', 'report = "mine.ipynb"\n')
    monkeypatch.chdir(tmp_path)
    (tmp_path / "project").rename(tmp_path / "moved")
    run_dir = tmp_path / "moved" / "results" / "exp" / "run1"
    assert notebook_for(manifest(run_dir), run_dir) == tmp_path / "moved" / "mine.ipynb"


def test_report_refuses_a_notebook_outside_the_project_without_trust(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    notebook = outside / "evil.ipynb"
    notebook.write_text('{"cells": []}')
    run_dir = _project_run(tmp_path, monkeypatch, '["greedy", "random"]', f'report = "{notebook}"\n')
    with pytest.raises(TrustError, match=rf"the run names report notebook {notebook}, outside its project"):
        report_run(run_dir, tmp_path / "report")
    assert not (tmp_path / "report").exists()
    refused = CliRunner().invoke(app, ["report", str(run_dir), "--report-dir", str(tmp_path / "report")])
    assert refused.exit_code != 0 and isinstance(refused.exception, TrustError)
