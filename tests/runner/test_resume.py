"""Interrupted runs resume to exactly the uninterrupted result; damaged shards are redone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runner_helpers import assert_same_tables, small_spec, tables

from simlab.core.errors import SimlabError
from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec, parse_spec

SPEC_TOML = """
name = "killme"
game = "sentient"
seed = 5
games = 6000
shard_size = 100
workers = 1
record = ["takes"]

[players]
seats = ["investor", "specialist", "greedy", "random"]
rotation = "none"
"""


def _done_shards(run_dir: Path) -> int:
    return len(list((run_dir / "games" / "base").glob("shard-*.parquet"))) if run_dir.exists() else 0


def test_sigkill_then_resume_matches_uninterrupted(tmp_path):
    """A real subprocess killed with SIGKILL mid-run, then resumed: no game missing, none twice."""
    spec_file = tmp_path / "killme.toml"
    spec_file.write_text(SPEC_TOML)
    reference = run_experiment(load_spec(spec_file), tmp_path / "ref", show_progress=False).path
    run_dir = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "simlab.cli", "run", str(spec_file), "--out", str(run_dir), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while _done_shards(run_dir) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = _done_shards(run_dir)
    assert 3 <= done < 60
    resumed = run_experiment(load_spec(spec_file), run_dir, resume=True, show_progress=False)
    assert resumed.manifest["status"] == "complete"
    assert resumed.manifest["timings"][-1]["games"] == 6000 - 100 * done
    assert_same_tables(tables(reference), tables(run_dir))


def test_corrupt_and_missing_shard_files_are_redone(tmp_path):
    """A truncated seats file, a missing takes file and a stray temporary file: resume repairs all."""
    spec = parse_spec(small_spec())
    reference = tables(run_experiment(spec, tmp_path / "ref", show_progress=False).path)
    run_dir = tmp_path / "damaged"
    run_experiment(spec, run_dir, show_progress=False)
    seats = run_dir / "seats" / "base" / "shard-000002.parquet"
    seats.write_bytes(seats.read_bytes()[:200])
    (run_dir / "takes" / "base" / "shard-000004.parquet").unlink()
    (run_dir / "games" / "base" / ".shard-000001.parquet.tmp-999").write_bytes(b"partial")
    result = run_experiment(spec, run_dir, resume=True, show_progress=False)
    assert result.manifest["timings"][-1]["games"] == 200
    assert not list(run_dir.rglob(".*.tmp-*"))
    assert_same_tables(reference, tables(run_dir))


def test_existing_run_needs_resume_and_same_spec(tmp_path):
    """Refuses to overwrite a run, and refuses to resume a run of another spec."""
    run_dir = tmp_path / "r"
    run_experiment(parse_spec(small_spec(games=60)), run_dir, show_progress=False)
    with pytest.raises(SimlabError, match="already holds a run"):
        run_experiment(parse_spec(small_spec(games=60)), run_dir, show_progress=False)
    with pytest.raises(SimlabError, match="different spec"):
        run_experiment(parse_spec(small_spec(games=60, seed=3)), run_dir, resume=True, show_progress=False)
    again = run_experiment(parse_spec(small_spec(games=60, workers=2)), run_dir, resume=True, show_progress=False)
    assert again.manifest["timings"][-1]["games"] == 0
