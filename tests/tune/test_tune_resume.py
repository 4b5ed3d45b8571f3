"""Stopping a real ``simlab tune`` subprocess: SIGKILL in the middle of a trial, then ``--resume``, gives trial
for trial the uninterrupted tune (none lost, none repeated); Ctrl-C (SIGINT) and SIGTERM exit 130 / 143 with
one line giving the resume command. And, placed exactly: a tune
stopped between two parameters of a trial's proposal resumes it as the uninterrupted tune proposed it."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from pathlib import Path

import optuna
import polars as pl
import pytest
from tune_helpers import cli, finished_trials, fresh, run_tiny, start_cli, trials, write_spec

from simlab.tune.run import run_tune
from simlab.tune.spec import load_spec  # the spec with its [tune] section read


def _running(path: Path) -> int:
    """How many trials of the study are being played (state RUNNING)."""
    try:
        con = sqlite3.connect(f"file:{path / 'study.db'}?mode=ro", uri=True, timeout=1.0)
        try:
            return int(con.execute("SELECT COUNT(*) FROM trials WHERE state = 'RUNNING'").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _stop_mid_trial(spec_file: Path, out: Path, at_least: int, sig: int) -> tuple[int, str]:
    """Start ``simlab tune`` into ``out``; once ``at_least`` trials are finished and the next is being played,
    send ``sig``. Returns (exit status, stderr)."""
    proc = start_cli("tune", str(spec_file), "--out", str(out), "-q")
    deadline = time.time() + 180
    try:
        while time.time() < deadline and proc.poll() is None:
            if finished_trials(out) >= at_least and _running(out):
                break
            time.sleep(0.005)
        assert proc.poll() is None, f"the tune ended before it could be stopped: {proc.communicate()[1]}"
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err


def test_sigkill_mid_trial_then_resume_gives_the_uninterrupted_tune(tiny_spec_file, tiny_reference, fast_path):
    out = fast_path / "killed"
    code, _ = _stop_mid_trial(tiny_spec_file, out, at_least=8, sig=signal.SIGKILL)
    assert code == -signal.SIGKILL
    done = finished_trials(out)
    reference = trials(tiny_reference)
    assert 8 <= done < len(reference)
    assert _running(out) >= 1  # the trial being played stays RUNNING in the study
    assert json.loads((out / "tune.json").read_text())["status"] == "searching"
    assert not (out / "trials.parquet").exists()
    result = cli("tune", str(tiny_spec_file), "--resume", "--out", str(out), "-q")
    assert result.returncode == 0, result.stderr
    assert _running(out) == 0
    assert trials(out) == reference  # same numbers, parameters, statuses and values: none lost or repeated
    assert pl.read_csv(out / "candidates.csv").equals(pl.read_csv(tiny_reference / "candidates.csv"))
    man = json.loads((out / "tune.json").read_text())
    assert man["status"] == "complete" and len(man["sessions"]) == 2


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_prints_the_resume_command(tiny_spec_file, fast_path, sig, code):
    out = fast_path / "stopped"
    status, err = _stop_mid_trial(tiny_spec_file, out, at_least=1, sig=sig)
    assert status == code, err
    assert err.strip().splitlines() == [
        f"interrupted: the finished trials are stored; resume: simlab tune {tiny_spec_file} --resume --out {out}"]
    man = json.loads((out / "tune.json").read_text())
    assert man["status"] == "searching"
    assert man["sessions"][-1]["ended"] == "interrupted"


@pytest.fixture(scope="module")
def batch_reference(tiny_spec_file, fast_root):
    """The tiny tune with ``batch = 2`` (two candidates asked, then both played), uninterrupted: (spec, folder)."""
    text = tiny_spec_file.read_text().replace("stages = 2\n", "stages = 2\nbatch = 2\n")
    spec_file = write_spec(fresh(fast_root, "batch"), "tune_tiny_batch", text)
    return spec_file, run_tiny(spec_file, spec_file.parent / "reference")


@pytest.mark.parametrize("batch", [1, 2])
def test_a_trial_stopped_between_two_of_its_parameters_resumes_as_proposed(batch, tiny_spec_file, tiny_reference,
                                                                          batch_reference, fast_path, monkeypatch):
    """The study stores a trial's parameters one by one; a stop after the first leaves the others to the
    resume, which must give them as the uninterrupted tune did (the proposal, enqueued before the trial is
    asked, or for a tune older than that, the sampler's own draws proposed again). With ``batch = 2`` the
    stop is in the first trial of a batch, so the
    resume must also ask the batch's second trial before playing either."""
    spec_file, reference_dir = (tiny_spec_file, tiny_reference) if batch == 1 else batch_reference
    reference = trials(reference_dir)
    number = next(r["trial"] for r in reference if r["trial"] >= 4 and r["trial"] % batch == 0
                  and len(json.loads(r["params"])) >= 3)
    calls = []

    def cut(method):
        def suggest(self, name, *args, **kwargs):
            if self.number == number and self.study.study_name == "tune":  # the stored study, not a proposal's copy
                calls.append(name)
                if len(calls) == 2:
                    raise KeyboardInterrupt
            return method(self, name, *args, **kwargs)
        return suggest

    for name in ("suggest_categorical", "suggest_int"):
        monkeypatch.setattr(optuna.trial.Trial, name, cut(getattr(optuna.trial.Trial, name)))
    spec = load_spec(spec_file)
    assert spec.tune.batch == batch
    out = fast_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_tune(spec, out, show_progress=False)
    monkeypatch.undo()
    study = optuna.load_study(study_name="tune", storage=f"sqlite:///{out / 'study.db'}")
    assert len(study.trials) == number + 1
    stopped = study.trials[number]
    assert stopped.state == optuna.trial.TrialState.RUNNING and len(stopped.params) == 1
    run_tune(spec, out, resume=True, show_progress=False)
    assert trials(out) == reference
