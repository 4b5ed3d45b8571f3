"""Signals on a real `simlab run` subprocess: Ctrl-C (SIGINT) and SIGTERM mark the run
interrupted, exit 130 / 143 with one line giving the resume command; SIGKILL leaves no worker
alive and writing; and each interrupted run resumes to exactly the uninterrupted tables."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runner_helpers import assert_same_tables, tables

from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec

SPEC_TOML = """
name = "signals"
game = "sentient"
seed = 7
games = {games}
shard_size = 100
workers = {workers}
record = ["takes"]

[players]
seats = ["investor", "specialist", "greedy", "random"]
rotation = "none"
"""


def _spec(tmp_path: Path, games: int, workers: int) -> Path:
    path = tmp_path / f"signals_{games}_{workers}.toml"
    path.write_text(SPEC_TOML.format(games=games, workers=workers))
    return path


def _shards(run_dir: Path) -> int:
    folder = run_dir / "games" / "base"
    return len(list(folder.glob("shard-*.parquet"))) if folder.is_dir() else 0


def _start(spec_file: Path, run_dir: Path, at_least: int = 3) -> subprocess.Popen:
    """`simlab run` in a subprocess, returned once it has stored ``at_least`` shards."""
    proc = subprocess.Popen([sys.executable, "-m", "simlab.cli", "run", str(spec_file), "--out", str(run_dir), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 180
    while _shards(run_dir) < at_least and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None, f"the run ended before it could be stopped: {proc.communicate()[1]}"
    return proc


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_marks_the_run_and_prints_the_resume_command(tmp_path, sig, code):
    spec_file = _spec(tmp_path, 6000, 1)
    reference = run_experiment(load_spec(spec_file), tmp_path / "ref", show_progress=False).path
    run_dir = tmp_path / "stopped"
    proc = _start(spec_file, run_dir)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    man = json.loads((run_dir / "manifest.json").read_text())
    assert man["status"] == "interrupted"
    stored = 100 * len(man["shards_done"]["base"])
    assert lines[0] == (f"interrupted: {stored:,} of 6,000 games stored; "
                        f"resume: simlab run {spec_file} --resume --out {run_dir}")
    # _start saw 3 games files, but the signal may come between a shard's files and the manifest listing it: such a
    # shard is either complete on disk (resume finds it and keeps it) or not (resume plays it again)
    assert 200 <= stored < 6000
    resumed = run_experiment(load_spec(spec_file), run_dir, resume=True, show_progress=False)
    assert resumed.manifest["status"] == "complete"
    assert 6000 - stored - 100 <= resumed.manifest["timings"][-1]["games"] <= 6000 - stored
    assert_same_tables(tables(reference), tables(run_dir))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_leaves_no_worker_behind_and_resumes(tmp_path):
    """Two loky workers: once the run is SIGKILLed they stop within seconds and write no more shards."""
    spec_file = _spec(tmp_path, 30_000, 2)
    run_dir = tmp_path / "killed"
    proc = _start(spec_file, run_dir, at_least=4)
    workers = _descendants(proc.pid)
    assert len(workers) >= 2
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 3
    while any(_alive(p) for p in workers) and time.time() < deadline:
        time.sleep(0.05)
    assert not [p for p in workers if _alive(p)], "workers outlived the run"
    done = _shards(run_dir)
    time.sleep(1.0)
    assert _shards(run_dir) == done
    assert done < 300
    reference = run_experiment(load_spec(spec_file), tmp_path / "ref", show_progress=False).path
    resumed = run_experiment(load_spec(spec_file), run_dir, resume=True, show_progress=False)
    assert resumed.manifest["status"] == "complete"
    assert resumed.manifest["timings"][-1]["games"] == 30_000 - 100 * done
    assert_same_tables(tables(reference), tables(run_dir))


class _SignalsInItsFinaliser:
    """An object whose finaliser sends this process a signal and runs on, so that Python raises the
    signal's exception inside the finaliser, where it is swallowed ("Exception ignored in ...")."""

    def __init__(self, sig: int) -> None:
        self.sig = sig

    def __del__(self) -> None:
        os.kill(os.getpid(), self.sig)
        for _ in range(1000):  # ordinary lines: the handler runs here, inside the finaliser
            pass


@pytest.mark.parametrize(("sig", "error"), [(signal.SIGTERM, "Terminated"), (signal.SIGINT, "KeyboardInterrupt")])
def test_a_signal_landing_in_a_finaliser_still_stops_the_run(sig, error):
    """The CI once lost a SIGTERM that landed in a garbage-collector callback of a library: the tune ran on
    and exited 0. Within ``interrupt_on_sigterm`` the swallowed interruption is delivered again."""
    from simlab.core.errors import Terminated
    from simlab.runner.processes import interrupt_on_sigterm

    expected = Terminated if error == "Terminated" else KeyboardInterrupt
    # Ctrl-C raises KeyboardInterrupt here whatever the test runner's worker set for SIGINT
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(expected), interrupt_on_sigterm():
            victim = _SignalsInItsFinaliser(sig)
            del victim  # the finaliser swallows the first delivery
            # the re-sent signal comes from a timer thread 10 ms later: ordinary lines until it lands (or 10 s,
            # a loaded machine's worst), not a fixed number of them, which a busy machine could run through first
            deadline = time.monotonic() + 10.0
            while time.monotonic() < deadline:
                time.sleep(0.001)
    finally:
        signal.signal(signal.SIGINT, previous_int)
    assert signal.getsignal(signal.SIGTERM) is not None


def test_an_interruption_a_library_logs_on_its_way_out_prints_no_traceback():
    """sqlalchemy's pool logs the Terminated it catches while resetting a connection (CI saw its traceback
    before a tune's resume line): within interrupt_on_sigterm the default stderr handler drops such a record, not a
    real error, and after the block it drops nothing."""
    import logging

    from simlab.core.errors import Terminated
    from simlab.runner.processes import interrupt_on_sigterm

    def record(exc: BaseException | None) -> logging.LogRecord:
        info = (type(exc), exc, None) if exc is not None else None
        return logging.makeLogRecord({"name": "sqlalchemy.pool.impl.QueuePool", "levelno": logging.ERROR,
                                      "msg": "Exception during reset or similar", "exc_info": info})

    stderr_handler = logging.lastResort
    with interrupt_on_sigterm():
        assert not stderr_handler.filter(record(Terminated("terminated (SIGTERM)")))
        assert not stderr_handler.filter(record(KeyboardInterrupt()))
        assert stderr_handler.filter(record(ValueError("a real error")))
        assert stderr_handler.filter(record(None))
    assert stderr_handler.filter(record(Terminated("terminated (SIGTERM)")))
