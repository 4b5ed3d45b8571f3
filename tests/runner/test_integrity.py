"""Issue 9, silent wrong results 1-3: a run is exactly what its manifest says.

1. resume with another shard size is refused; a shard file holding other games (another
   plan, another seed) is redone whatever its row count;
2. readers read the shards the manifest names and nothing else found on disk;
3. a fresh run refuses a folder that holds anything (``--force`` empties it).
"""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from runner_helpers import assert_same_tables, small_spec, tables
from typer.testing import CliRunner

import simlab.results as results
from simlab.cli import app
from simlab.core.errors import SimlabError
from simlab.runner.run import run_experiment
from simlab.runner.spec import SpecError, parse_spec


def _run(tmp_path, name, **over):
    return run_experiment(parse_spec(small_spec(**over)), tmp_path / name, show_progress=False)


def test_resume_with_another_shard_size_is_refused(tmp_path):
    run_dir = _run(tmp_path, "r", games=600, shard_size=100).path
    with pytest.raises(SimlabError, match=r"resume refused: .* shard size 100; resume it with --shard-size 100 "
                                          r"\(not 250\)"):
        run_experiment(parse_spec(small_spec(games=600, shard_size=250)), run_dir, resume=True, show_progress=False)
    again = run_experiment(parse_spec(small_spec(games=600, shard_size=100)), run_dir, resume=True,
                           show_progress=False)
    assert again.manifest["timings"][-1]["games"] == 0


def test_a_fresh_run_with_another_shard_size_gives_the_same_tables(tmp_path):
    """shard_size stays out of the spec hash: determinism across shard sizes still holds."""
    a = _run(tmp_path, "a", games=600, shard_size=100)
    b = _run(tmp_path, "b", games=600, shard_size=250)
    assert a.manifest["spec_hash"] == b.manifest["spec_hash"]
    assert_same_tables(tables(a.path), tables(b.path))


def test_resume_redoes_shard_files_that_hold_other_games(tmp_path):
    """Same row count, wrong games: a shard of another seed, and another shard's file moved into place."""
    spec = parse_spec(small_spec(games=600, shard_size=100))
    reference = tables(run_experiment(spec, tmp_path / "ref", show_progress=False).path)
    other = _run(tmp_path, "other", games=600, shard_size=100, seed=12).path
    run_dir = tmp_path / "damaged"
    run_experiment(spec, run_dir, show_progress=False)
    for table in ("games", "seats", "takes"):  # shard 2 now holds seed-12 games; shard 4 holds shard 3's games
        folder = run_dir / table / "base"
        shutil.copy(other / table / "base" / "shard-000002.parquet", folder / "shard-000002.parquet")
        shutil.copy(folder / "shard-000003.parquet", folder / "shard-000004.parquet")
    result = run_experiment(spec, run_dir, resume=True, show_progress=False)
    assert result.manifest["timings"][-1]["games"] == 200
    assert_same_tables(reference, tables(run_dir))
    games = tables(run_dir)["games"]
    assert games["game"].n_unique() == games.height == 600


def test_readers_read_only_the_shards_the_manifest_names(tmp_path):
    run_dir = _run(tmp_path, "r", games=600, shard_size=100).path
    for table in ("games", "seats", "takes"):  # leftovers of another plan: shard files past this plan's end
        for extra in (6, 7):
            shutil.copy(run_dir / table / "base" / "shard-000000.parquet",
                        run_dir / table / "base" / f"shard-{extra:06d}.parquet")
    (run_dir / "games" / "stray").mkdir()
    shutil.copy(run_dir / "games" / "base" / "shard-000001.parquet", run_dir / "games" / "stray" / "shard-0.parquet")
    loaded = results.load(run_dir)
    assert loaded["games"].collect().height == 600
    assert loaded["seats"].collect().height == 1800
    assert set(results.summary(run_dir)["seats"]["games"].to_list()) == {600}  # every seat of every game, once
    # a resume keeps them out as well (and plays nothing)
    again = run_experiment(parse_spec(small_spec(games=600, shard_size=100)), run_dir, resume=True,
                           show_progress=False)
    assert again.manifest["timings"][-1]["games"] == 0
    assert results.load(run_dir)["games"].collect()["game"].n_unique() == 600


def test_a_shard_on_disk_but_not_in_the_manifest_is_not_read(tmp_path):
    run_dir = _run(tmp_path, "r", games=600, shard_size=100).path
    man = json.loads((run_dir / "manifest.json").read_text())
    man["shards_done"]["base"].remove(3)
    (run_dir / "manifest.json").write_text(json.dumps(man))
    games = results.load(run_dir)["games"].collect()
    assert games.height == 500 and not games.filter(pl.col("game").is_between(300, 399)).height


def test_fresh_run_refuses_a_folder_with_shards_but_no_manifest(tmp_path):
    old = _run(tmp_path, "old", games=600, shard_size=100, seed=1).path
    (old / "manifest.json").unlink()
    spec = parse_spec(small_spec(games=600, shard_size=100, seed=9))
    with pytest.raises(SimlabError, match=r"is not empty \(.*\) and holds no run: pass --force to empty it"):
        run_experiment(spec, old, show_progress=False)
    assert not (old / "manifest.json").exists()
    result = run_experiment(spec, old, force=True, show_progress=False)
    assert result.manifest["timings"][-1]["games"] == 600
    assert set(results.load(old)["games"].collect()["experiment_seed"].to_list()) == {9}


def test_fresh_run_refuses_any_file_and_force_replaces_a_run(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    spec = parse_spec(small_spec(games=60, shard_size=30))
    with pytest.raises(SimlabError, match=r"notes\.txt"):
        run_experiment(spec, folder, show_progress=False)
    assert (folder / "notes.txt").read_text() == "mine"
    with pytest.raises(SimlabError, match="--resume continues a run and --force replaces it"):
        run_experiment(spec, folder, resume=True, force=True, show_progress=False)
    run_experiment(spec, folder, force=True, show_progress=False)
    assert not (folder / "notes.txt").exists()
    with pytest.raises(SimlabError, match="already holds a run: pass --resume to continue it, --force to replace it"):
        run_experiment(spec, folder, show_progress=False)
    again = run_experiment(parse_spec(small_spec(games=60, shard_size=30, seed=2)), folder, force=True,
                           show_progress=False)
    assert set(results.load(folder)["games"].collect()["experiment_seed"].to_list()) == {2}
    assert again.manifest["status"] == "complete"


def test_force_will_not_empty_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "precious.txt").write_text("x")
    with pytest.raises(SimlabError, match="--force will not empty"):
        run_experiment(parse_spec(small_spec(games=60, shard_size=30)), tmp_path, force=True, show_progress=False)
    assert (tmp_path / "precious.txt").exists()


def test_cli_refuses_a_non_empty_out_and_force_empties_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "tiny.toml"
    spec.write_text('game = "sentient"\ngames = 60\nshard_size = 30\nworkers = 1\n'
                    '[players]\nseats = ["greedy", "random"]\n')
    out = tmp_path / "out"
    out.mkdir()
    (out / "junk").write_text("x")
    runner = CliRunner()
    refused = runner.invoke(app, ["run", str(spec), "--out", str(out), "-q"])
    assert refused.exit_code != 0
    assert "is not empty" in str(refused.exception) and "--force" in str(refused.exception)
    forced = runner.invoke(app, ["run", str(spec), "--out", str(out), "-q", "--force"])
    assert forced.exit_code == 0, forced.output
    assert not (out / "junk").exists()


@pytest.mark.parametrize("name", ["../escape", "/tmp/abs", "a/b", "a\\b", "..", ".", "", "x\ny"])
def test_spec_name_cannot_escape_results(name):
    with pytest.raises(SpecError, match=r"<spec>: name: "):
        parse_spec(small_spec(name=name))


def test_variant_name_cannot_escape_the_run_folder(tmp_path):
    spec = parse_spec(small_spec(games=60, shard_size=30))
    spec.variants[0].name = "../../evil"
    with pytest.raises(SimlabError, match=r"variant name '\.\./\.\./evil' cannot be a folder name"):
        run_experiment(spec, tmp_path / "r", show_progress=False)
    assert not (tmp_path / "r").exists() and not (tmp_path / "evil").exists()
