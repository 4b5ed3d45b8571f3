"""Issue 9, case 5: resume refuses any change to an input's contents (data, player code, notebook), naming it;
a change of description, workers or backend does not block a resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner_helpers import small_spec

import simlab.runner.inputs as inputs
from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec, parse_spec

PLAYER = '''
from simlab import Player


class First(Player):
    """Plays the first legal action."""

    def choose(self, obs, legal):
        return legal[0]
'''


def _spec_file(tmp_path: Path, extra: str = "", seats: str = '["greedy", "random"]') -> Path:
    spec = tmp_path / "exp.toml"
    spec.write_text(f'name = "exp"\ngame = "sentient"\nseed = 2\ngames = 40\nshard_size = 20\nworkers = 1\n{extra}\n'
                    f'[players]\nseats = {seats}\nrotation = "none"\n')
    return spec


def test_edited_player_file_blocks_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "first.py").write_text(PLAYER)
    spec_file = _spec_file(tmp_path, seats='["greedy", "first.py:First"]')
    run = run_experiment(load_spec(spec_file), tmp_path / "run", show_progress=False)
    entry = run.manifest["inputs"][str(tmp_path / "first.py")]
    assert entry["kind"] == "player file"
    (tmp_path / "first.py").write_text(PLAYER.replace("legal[0]", "legal[-1]"))
    with pytest.raises(SimlabError, match=r"^resume refused: player file first\.py changed since the run started "
                                          r"\(hash [0-9a-f]{8} -> [0-9a-f]{8}"):
        run_experiment(load_spec(spec_file), tmp_path / "run", resume=True, show_progress=False)


def test_edited_data_file_blocks_resume_and_description_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bundled = inputs.game_data_dir(get_game("sentient"))
    assert bundled is not None and (bundled / "cards.csv").is_file()
    cards = tmp_path / "my_cards.csv"
    cards.write_text((bundled / "cards.csv").read_text())
    spec_file = _spec_file(tmp_path, 'description = "first words"\n[data]\ncards = "my_cards.csv"\n')
    run = run_experiment(load_spec(spec_file), tmp_path / "run", show_progress=False)
    kinds = {Path(p).name: e["kind"] for p, e in run.manifest["inputs"].items()}
    assert kinds["my_cards.csv"] == "data file" and kinds["cards.csv"] == "game data file"
    # only the description changes: the resume goes through
    spec_file.write_text(spec_file.read_text().replace("first words", "second thoughts"))
    again = run_experiment(load_spec(spec_file), tmp_path / "run", resume=True, show_progress=False)
    assert again.manifest["timings"][-1]["games"] == 0 and again.manifest["description"] == "second thoughts"
    lines = cards.read_text().splitlines()
    lines[1] = lines[1] + "edited note"  # the notes column: the file still loads, its contents differ
    cards.write_text("\n".join(lines) + "\n")
    with pytest.raises(SimlabError, match=r"^resume refused: data file my_cards\.csv changed since the run started"):
        run_experiment(load_spec(spec_file), tmp_path / "run", resume=True, show_progress=False)


def test_edited_bundled_game_data_blocks_resume(tmp_path, monkeypatch):
    """The game's own data folder is hashed file by file (here a stand-in folder, to leave the package alone)."""
    data = tmp_path / "gamedata"
    data.mkdir()
    (data / "rules.toml").write_text("x = 1\n")
    monkeypatch.setattr(inputs, "game_data_dir", lambda game: data)
    spec = parse_spec(small_spec(games=40, shard_size=20, record=[]))
    run_experiment(spec, tmp_path / "run", show_progress=False)
    (data / "rules.toml").write_text("x = 2\n")
    with pytest.raises(SimlabError, match=r"resume refused: game data file rules\.toml changed"):
        run_experiment(spec, tmp_path / "run", resume=True, show_progress=False)
    (data / "rules.toml").write_text("x = 1\n")
    (data / "extra.csv").write_text("a\n")
    with pytest.raises(SimlabError, match=r"resume refused: game data file .*extra\.csv is not an input of the stored"):
        run_experiment(spec, tmp_path / "run", resume=True, show_progress=False)


def test_edited_report_notebook_blocks_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.ipynb").write_text('{"cells": []}')
    spec_file = _spec_file(tmp_path, 'report = "mine.ipynb"\n')
    run = run_experiment(load_spec(spec_file), tmp_path / "run", show_progress=False)
    assert run.manifest["inputs"][str(tmp_path / "mine.ipynb")]["kind"] == "report notebook"
    (tmp_path / "mine.ipynb").write_text('{"cells": [], "metadata": {}}')
    with pytest.raises(SimlabError, match=r"resume refused: report notebook mine\.ipynb changed"):
        run_experiment(load_spec(spec_file), tmp_path / "run", resume=True, show_progress=False)


def test_player_file_resolved_from_another_folder_blocks_resume(tmp_path, monkeypatch):
    """A relative player path that now names another file (resumed from another folder) is refused."""
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        folder.mkdir()
        (folder / "first.py").write_text(PLAYER)
    monkeypatch.chdir(a)
    spec_file = _spec_file(tmp_path, seats='["greedy", "first.py:First"]')
    run_experiment(load_spec(spec_file), tmp_path / "run", show_progress=False)
    monkeypatch.chdir(b)
    with pytest.raises(SimlabError, match=r"resume refused: player file .*a/first\.py was an input of the run"):
        run_experiment(load_spec(spec_file), tmp_path / "run", resume=True, show_progress=False)


def test_manifest_without_input_hashes_is_not_resumed(tmp_path):
    import json

    spec = parse_spec(small_spec(games=40, shard_size=20, record=[]))
    run_dir = run_experiment(spec, tmp_path / "run", show_progress=False).path
    man = json.loads((run_dir / "manifest.json").read_text())
    del man["inputs"]
    (run_dir / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(SimlabError, match="stored without input hashes"):
        run_experiment(spec, run_dir, resume=True, show_progress=False)
