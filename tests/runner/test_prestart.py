"""``simlab run`` starts its local workers before it reads the spec (issue 24: the runner's speed), so their
start-up overlaps the main process's; the warm-ups run on the very pool the shards then use, change no
result, and nothing is started where no local pool would be (DESIGN.md principle 6: local first)."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner_helpers import assert_same_tables, tables

from simlab.runner import backends
from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec

SPEC = """
name = "prestart"
game = "sentient"
seed = 5
games = 400
shard_size = 100
workers = {workers}
{extra}
[players]
seats = ["greedy", "investor", "random"]
rotation = "cyclic"
"""

NO_OVERRIDES = {"games": None, "seed": None, "workers": None, "shard_size": None, "backend": None,
                "scheduler": None, "decision_timeout": None}


def _spec(tmp_path: Path, workers: int, extra: str = "") -> Path:
    path = tmp_path / f"prestart_{workers}.toml"
    path.write_text(SPEC.format(workers=workers, extra=extra))
    return path


def _pool_pids() -> set[int]:
    """The worker processes of loky's reusable pool (the one joblib's loky backend uses)."""
    from joblib.externals.loky import reusable_executor

    executor = reusable_executor._executor
    return set(executor._processes) if executor is not None else set()


def test_warm_workers_play_the_shards_and_change_nothing(tmp_path):
    path = _spec(tmp_path, 2)
    assert backends.prestart_local(path, NO_OVERRIDES)
    warmed = _pool_pids()
    assert len(warmed) == 2
    run = run_experiment(load_spec(path), tmp_path / "warm", show_progress=False)
    assert _pool_pids() == warmed  # the shards ran on the warmed workers, not on a new pool
    assert not backends._warming
    one = run_experiment(load_spec(path, {"workers": 1}), tmp_path / "one", show_progress=False)
    assert_same_tables(tables(run.path), tables(one.path))


@pytest.mark.parametrize(("workers", "extra", "overrides"), [
    (1, "", {}),                                      # one worker plays in this process
    (2, 'backend = "dask"', {}),                      # a Dask run has its own workers
    (2, "", {"workers": 1}),                          # the command line says one worker
    (2, "", {"scheduler": "tcp://127.0.0.1:8786"}),   # a remote scheduler
    (2, 'workers = 3', {}),                           # not TOML (a key given twice): the run reports it
    (2, "", {"seed": -1}),                            # run fields the spec's validation refuses: refused at
    (2, "", {"games": 0}),                            # once, with no worker started to be stopped
    (2, 'decision_timeout = "soon"', {}),
])
def test_nothing_is_started_where_no_local_pool_would_run(tmp_path, workers, extra, overrides):
    path = _spec(tmp_path, workers, extra)
    assert not backends.prestart_local(path, {**NO_OVERRIDES, **overrides})
    assert not backends.prestart_local(tmp_path / "missing.toml", NO_OVERRIDES)
    assert not backends._warming


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (Linux: /proc)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_run_refused_before_playing_stops_its_warm_workers_at_once(tmp_path, monkeypatch):
    """A refused run returns at once (issue 24): its warm workers are killed, not waited for while they
    start up, with no joblib warning and no traceback from loky's manager thread; the next run's pool
    plays as before."""
    import threading
    import warnings

    failures: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(f"{args.thread}: {args.exc_value!r}"))
    for workers in (2, 3):  # a new pool, then a bigger one after the first was killed
        assert backends.prestart_local(_spec(tmp_path, workers), NO_OVERRIDES)
        warmed = _pool_pids()
        assert len(warmed) == workers
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            backends.discard_warmups()
        assert not backends._warming
        assert not [w for w in caught if "cancelled" in str(w.message)], [str(w.message) for w in caught]
        assert not [pid for pid in warmed if _running(pid)], "a warm worker outlived the refused run"
    assert not failures, failures
    run = run_experiment(load_spec(_spec(tmp_path, 2)), tmp_path / "after", show_progress=False)
    assert run.manifest["status"] == "complete" and run.manifest["games_done"] == run.manifest["plan"]["games"]
