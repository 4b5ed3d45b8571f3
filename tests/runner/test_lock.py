"""Issue 9, case 4: one writer per run folder (a lock naming its holder; stale locks taken over safely)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time

import pytest
from runner_helpers import small_spec

import simlab.runner.lock as lockmod
from simlab.core.errors import SimlabError
from simlab.runner.lock import LOCK_NAME, LockError, RunLock
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

HOLDER = textwrap.dedent("""
    import sys, time
    from simlab.runner.lock import RunLock
    lock = RunLock(sys.argv[1]).acquire()
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    lock.release()
""")

RACER = textwrap.dedent("""
    import sys, time
    from simlab.runner.lock import LockError, RunLock
    while time.time() < float(sys.argv[2]):
        pass
    try:
        lock = RunLock(sys.argv[1]).acquire()
    except LockError:
        print("refused", flush=True)
        sys.exit(0)
    print("won", flush=True)
    time.sleep(2.0)
    lock.release()
""")


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _write_lock(folder, **holder) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    info = {"pid": _dead_pid(), "host": socket.gethostname(), "started": "2020-01-01T00:00:00", "token": "old"}
    info.update(holder)
    (folder / LOCK_NAME).write_text(json.dumps(info))


def test_second_run_is_refused_naming_the_holder(tmp_path):
    """A lock held by another live process: the run fails with one line naming pid, host and start time."""
    folder = tmp_path / "run"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), "30"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(LockError) as info:
            run_experiment(parse_spec(small_spec(games=60, shard_size=30)), folder, show_progress=False)
        message = str(info.value)
        assert "\n" not in message
        assert f"is in use by another run: pid {holder.pid} on {socket.gethostname()}, started " in message
        assert not (folder / "manifest.json").exists()
        assert (folder / LOCK_NAME).exists()  # the refused run leaves the holder's lock alone
    finally:
        holder.kill()
        holder.wait()


WAITER = """
import os
import time

from simlab import Player


class Waiter(Player):
    \"\"\"Plays the first legal action; waits while the file HOLD exists.\"\"\"

    def choose(self, obs, legal):
        while os.path.exists(HOLD):
            time.sleep(0.01)
        return legal[0]
"""


def test_two_real_runs_on_one_folder(tmp_path):
    """`simlab run` in a subprocess holds the folder; a second run at the same time is refused with one line
    naming the holder, and resumes cleanly once the first has finished (and the lock is gone)."""
    hold = tmp_path / "hold"
    hold.write_text("")
    (tmp_path / "waiter.py").write_text(WAITER.replace("HOLD", repr(str(hold))))
    spec_file = tmp_path / "busy.toml"
    waiter = tmp_path / "waiter.py"
    spec_file.write_text(f'game = "sentient"\nseed = 3\ngames = 40\nshard_size = 20\nworkers = 1\n'
                         f'[players]\nseats = ["greedy", "{waiter}:Waiter"]\nrotation = "none"\n')
    folder = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "simlab.cli", "run", str(spec_file), "--out", str(folder), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while not (folder / "manifest.json").exists() and time.time() < deadline:
            time.sleep(0.01)
        second = subprocess.run([sys.executable, "-m", "simlab.cli", "run", str(spec_file), "--out", str(folder),
                                 "-q", "--resume"], capture_output=True, text=True, timeout=120)
        assert proc.poll() is None
        assert second.returncode == 2, second.stdout + second.stderr
        err = second.stderr.strip()
        assert err.count("\n") == 0 and f"pid {proc.pid} on {socket.gethostname()}, started" in err
        hold.unlink()
        assert proc.wait(timeout=120) == 0
    finally:
        hold.unlink(missing_ok=True)
        proc.kill()
        proc.wait()
    assert not (folder / LOCK_NAME).exists()
    from simlab.runner.spec import load_spec

    again = run_experiment(load_spec(spec_file), folder, resume=True, show_progress=False)
    assert again.manifest["status"] == "complete" and again.manifest["timings"][-1]["games"] == 0


def test_stale_lock_of_a_dead_process_is_taken_over(tmp_path):
    folder = tmp_path / "run"
    _write_lock(folder)
    result = run_experiment(parse_spec(small_spec(games=60, shard_size=30)), folder, show_progress=False)
    assert result.manifest["status"] == "complete"
    assert not (folder / LOCK_NAME).exists()


def test_lock_of_a_reused_pid_is_stale(tmp_path):
    """The pid is alive but belongs to a process started after the lock was taken."""
    folder = tmp_path / "run"
    if lockmod.process_start(os.getpid()) is None:
        pytest.skip("no /proc process start times here")
    _write_lock(folder, pid=os.getppid(), pid_start="1")
    with RunLock(folder):
        pass


def test_lock_of_another_host_is_not_taken_over(tmp_path):
    folder = tmp_path / "run"
    _write_lock(folder, host="some-other-host", pid=12345)
    with pytest.raises(LockError, match="pid 12345 on some-other-host, started 2020-01-01T00:00:00"):
        RunLock(folder).acquire()


def test_half_written_lock_left_by_a_dead_writer_is_taken_over(tmp_path, monkeypatch):
    monkeypatch.setattr(lockmod, "PARTIAL_GRACE_S", 0.1)
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / LOCK_NAME).write_text("")
    with RunLock(folder) as lock:
        assert json.loads((folder / LOCK_NAME).read_text())["token"] == lock.token
    assert not (folder / LOCK_NAME).exists()


@pytest.mark.exclusive  # the six racers must start within the 2 s the winner holds the lock
def test_racing_processes_break_a_stale_lock_once(tmp_path):
    """Six processes find the same stale lock at the same moment: exactly one gets the folder."""
    folder = tmp_path / "run"
    _write_lock(folder)
    start = time.time() + 1.5
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(folder), str(start)], stdout=subprocess.PIPE,
                              text=True) for _ in range(6)]
    outcomes = sorted(p.communicate(timeout=60)[0].strip() for p in procs)
    assert outcomes == ["refused"] * 5 + ["won"], outcomes
    assert not (folder / LOCK_NAME).exists()


def test_lock_is_released_when_the_run_fails(tmp_path):
    folder = tmp_path / "run"
    with pytest.raises(SimlabError):  # the players are fine, but the variant name is not
        spec = parse_spec(small_spec(games=60, shard_size=30))
        spec.variants[0].name = "a/b"
        run_experiment(spec, folder, show_progress=False)
    crash = tmp_path / "crash.py"
    crash.write_text("from simlab import Player\n\nclass Crash(Player):\n    def choose(self, obs, legal):\n"
                     "        raise RuntimeError('boom')\n")
    spec = parse_spec(small_spec(games=20, shard_size=10, record=[],
                                 players={"seats": ["greedy", f"{crash}:Crash"], "rotation": "none"}))
    with pytest.raises(SimlabError, match="boom"):
        run_experiment(spec, folder, show_progress=False)
    assert (folder / "manifest.json").exists() and not (folder / LOCK_NAME).exists()


def test_release_leaves_a_lock_that_is_not_ours(tmp_path):
    folder = tmp_path / "run"
    lock = RunLock(folder).acquire()
    (folder / LOCK_NAME).write_text(json.dumps({"pid": os.getpid(), "host": "h", "token": "someone-else"}))
    lock.release()
    assert (folder / LOCK_NAME).exists()
