"""Issue 9, limits: reading a damaged run, odd names, full or read-only disks and --out on a file give one
line (no traceback), and the run stays resumable."""

from __future__ import annotations

import errno

import pytest
from runner_helpers import assert_same_tables, small_spec, tables
from typer.testing import CliRunner

import simlab.results as results
from simlab.cli import app
from simlab.core.errors import SimlabError
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec
from simlab.runner.store import RunStore


def _one_line(exc: BaseException | None) -> str:
    assert isinstance(exc, SimlabError), repr(exc)
    assert "\n" not in str(exc)
    return str(exc)


def test_truncated_shard_is_one_line_naming_the_file(tmp_path):
    run_dir = run_experiment(parse_spec(small_spec(games=200, shard_size=100)), tmp_path / "r",
                             show_progress=False).path
    shard = run_dir / "seats" / "base" / "shard-000001.parquet"
    shard.write_bytes(shard.read_bytes()[:300])
    with pytest.raises(SimlabError) as info:
        results.load(run_dir)
    assert _one_line(info.value).startswith(f"{shard}: unreadable shard")
    shown = CliRunner().invoke(app, ["results", "show", str(run_dir)])
    assert shown.exit_code != 0 and str(shard) in _one_line(shown.exception)
    # resuming redoes the shard, and the run reads again
    run_experiment(parse_spec(small_spec(games=200, shard_size=100)), run_dir, resume=True, show_progress=False)
    assert results.load(run_dir)["seats"].collect().height == 3 * 201  # 200 games rounded up to whole deals


def test_missing_shard_named_by_the_manifest(tmp_path):
    run_dir = run_experiment(parse_spec(small_spec(games=200, shard_size=100)), tmp_path / "r",
                             show_progress=False).path
    shard = run_dir / "games" / "base" / "shard-000000.parquet"
    shard.unlink()
    with pytest.raises(SimlabError, match="shard named by the manifest is missing") as info:
        results.load(run_dir)
    assert str(shard) in _one_line(info.value)


@pytest.mark.parametrize("text", ["", "{not json", "[1, 2]"])
def test_empty_or_broken_manifest(tmp_path, text):
    run_dir = tmp_path / "r"
    run_dir.mkdir()
    (run_dir / "manifest.json").write_text(text)
    with pytest.raises(SimlabError) as info:
        results.load(run_dir)
    assert _one_line(info.value).startswith(f"{run_dir / 'manifest.json'}: unreadable manifest")
    shown = CliRunner().invoke(app, ["results", "show", str(run_dir)])
    assert shown.exit_code != 0 and "unreadable manifest" in _one_line(shown.exception)


def test_names_with_markup_are_printed_as_they_are(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "odd.toml"
    spec.write_text('name = "[bold]odd[x]"\ndescription = "[/red] not markup [link=x]"\ngame = "sentient"\n'
                    'games = 40\nshard_size = 20\nworkers = 1\n[players]\nseats = ["greedy", "random"]\n')
    runner = CliRunner()
    ran = runner.invoke(app, ["run", str(spec), "-q"])
    assert ran.exit_code == 0, ran.output
    listing = runner.invoke(app, ["results"])
    assert listing.exit_code == 0 and "[bold]odd[x]" in listing.output
    run_dir = next((tmp_path / "results" / "[bold]odd[x]").iterdir())
    shown = runner.invoke(app, ["results", "show", str(run_dir)])
    assert shown.exit_code == 0, shown.output
    assert "[bold]odd[x]" in shown.output and "[/red] not markup [link=x]" in shown.output
    with_progress = run_experiment(parse_spec(small_spec(name="[/x]".replace("/", ""), games=40, shard_size=20)),
                                   tmp_path / "p", show_progress=True)
    assert with_progress.manifest["status"] == "complete"


def _full_disk_after(monkeypatch, n_ok: int, code: int = errno.ENOSPC) -> None:
    real = RunStore.write_shard
    calls = {"n": 0}

    def write_shard(self, variant, shard, frames):
        calls["n"] += 1
        if calls["n"] > n_ok:
            raise OSError(code, errno.errorcode[code] and {errno.ENOSPC: "No space left on device",
                                                          errno.EROFS: "Read-only file system"}[code],
                          str(self.shard_path("games", variant, shard)))
        return real(self, variant, shard, frames)

    monkeypatch.setattr(RunStore, "write_shard", write_shard)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_full_or_read_only_disk_is_one_line_and_the_run_resumes(tmp_path, monkeypatch, code):
    spec = parse_spec(small_spec(games=600, shard_size=100))
    reference = tables(run_experiment(spec, tmp_path / "ref", show_progress=False).path)
    run_dir = tmp_path / "r"
    _full_disk_after(monkeypatch, 2, code)
    with pytest.raises(SimlabError) as info:
        run_experiment(spec, run_dir, show_progress=False)
    message = _one_line(info.value)
    assert message.startswith(f"cannot write {run_dir / 'games' / 'base' / 'shard-000002.parquet'}: ")
    assert ("No space left on device" if code == errno.ENOSPC else "Read-only file system") in message
    assert f"the run stays resumable: simlab run <spec> --out {run_dir} --resume" in message
    assert not (run_dir / ".simlab.lock").exists()
    monkeypatch.undo()
    resumed = run_experiment(spec, run_dir, resume=True, show_progress=False)
    assert resumed.manifest["timings"][-1]["games"] == 400
    assert_same_tables(reference, tables(run_dir))


def test_manifest_write_failing_keeps_the_old_manifest(tmp_path, monkeypatch):
    spec = parse_spec(small_spec(games=300, shard_size=100))
    run_dir = tmp_path / "r"
    run_experiment(spec, run_dir, show_progress=False)
    before = (run_dir / "manifest.json").read_text()
    import simlab.runner.store as store

    def fail(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(store, "atomic_write_text", fail)
    with pytest.raises(SimlabError, match="No space left on device"):
        run_experiment(spec, run_dir, resume=True, show_progress=False)
    assert (run_dir / "manifest.json").read_text() == before


def test_cli_full_disk_exits_with_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "t.toml"
    spec.write_text('game = "sentient"\ngames = 60\nshard_size = 20\nworkers = 1\n'
                    '[players]\nseats = ["greedy", "random"]\n')
    _full_disk_after(monkeypatch, 1)
    out = CliRunner().invoke(app, ["run", str(spec), "--out", str(tmp_path / "r"), "-q"])
    assert out.exit_code != 0
    assert f"simlab run {spec} --out {tmp_path / 'r'} --resume" in _one_line(out.exception)


def test_out_pointing_at_a_file(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    with pytest.raises(SimlabError, match="is a file, not a folder") as info:
        run_experiment(parse_spec(small_spec(games=40, shard_size=20)), target, show_progress=False)
    _one_line(info.value)
    assert target.read_text() == "x"
