"""Suite-wide set-up for running the tests on several processes (pytest-xdist, ``-n 2`` in ``pyproject.toml``).

Work units (``--dist loadgroup``, with the scheduler below). Each test file goes to one worker as
a whole (its module fixtures are built once), except where files share expensive work, which then
stays on one worker (:func:`work_unit`):

- a game's tests, ``tests/games/<game>/`` and that game's cases of ``tests/contract/test_contract.py``:
  the first of them compiles the game's numba kernels (minutes on a cold cache); the others find
  them in the cache instead of compiling them a second time on the other worker at the same time;
- ``tests/analysis/`` and ``tests/tune/``: their session fixtures (stored runs, the tiny tune).

The units are formed from the test ids in the main process, not from ``xdist_group`` marks added at
collection: pytest-xdist 3.8 passes those to the main process by editing the test ids, which
pytest 9.2 no longer allows (pytest-xdist issue 1386), so such marks are silently ignored there.
Units with more tests start first (xdist's order), which puts the games first.

Hypothesis runs without its per-example deadline (profile ``simlab``; ``--hypothesis-profile``
picks another): numba compiles a kernel, or loads it from its cache, on its first call in each
process, and which example of which test makes that call depends on what ran before in that
worker; under load the first example of ``test_step_k_cells`` took 390 ms against the 200 ms
default, then 0.02 ms, and Hypothesis failed it as flaky. The properties checked are the same.

The ``exclusive`` marker, for a test whose check leans on timing (processes racing for a lock
within a couple of seconds, say): while it runs, including its set-up and tear-down, no other test
runs in any worker. The workers share a fair reader-writer lock on two files in pytest's temporary
folder for the session: every test holds the lock shared, an exclusive test holds it alone, and
a waiting exclusive test first takes the "turnstile" so that new tests queue behind it instead of
keeping the lock shared forever. In one process (``-n0``) there is nothing to lock.
"""

from __future__ import annotations

import compileall
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings
from small_reports import small_report as _small_report

# The suite compiles every game's kernels from cold in a fresh clone (most of its time). It compiles them with
# LLVM at -O1 instead of numba's default -O3 (16% less compile CPU for Sentient's players, the same run time:
# 20,000 greedy games in 0.35 s either way), into a cache of its own, so that a test run never leaves -O1
# machine code where `simlab` and `simlab bench` look for theirs. Set before numba is imported; subprocesses
# (the CLI, the runner's workers) inherit both.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("NUMBA_OPT", "1")
os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(_ROOT, ".numba_test_cache"))

# The suite starts about 150 Python processes that import simlab (the CLI, the runner's loky workers, notebook
# kernels, the pytest workers). Where PYTHONDONTWRITEBYTECODE is set (this machine sets it), none of them writes
# simlab's bytecode, so each compiled simlab's sources anew: 0.25-0.5 s a process. The main process writes it once
# (0.4 s; py_compile writes whatever that variable says, and an edited source is compiled again, as ever).
if not os.environ.get("PYTEST_XDIST_WORKER"):
    compileall.compile_dir(os.path.join(_ROOT, "simlab"), quiet=2)  # only a speed-up: silent where it cannot write

settings.register_profile("simlab", deadline=None)
settings.load_profile("simlab")

SHARED_SESSION_FIXTURES = ("analysis", "tune")  # folders whose files share session fixtures: one unit each


def work_unit(nodeid: str) -> str:
    """The work unit of the test ``nodeid`` (relative to the repository): its game, its folder, or its file."""
    path = nodeid.split("::")[0]
    parts = path.split("/")
    if parts[0] != "tests" or len(parts) < 3:
        return path
    if parts[1] == "games" and len(parts) > 3:
        return f"game:{parts[2]}"
    if path == "tests/contract/test_contract.py" and nodeid.endswith("]"):  # parametrized by the game's name
        return "game:" + nodeid[nodeid.rindex("[") + 1:-1].split("-")[0]
    if parts[1] in SHARED_SESSION_FIXTURES:
        return parts[1]
    return path


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook, run in the main process
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class GameScheduling(LoadGroupScheduling):
        """``--dist loadgroup`` whose tests without an ``xdist_group`` go in the units of :func:`work_unit`."""

        def _split_scope(self, nodeid: str) -> str:
            if nodeid.rfind("@") > nodeid.rfind("]"):  # an explicit xdist_group (xdist writes it after an "@")
                return super()._split_scope(nodeid)
            return work_unit(nodeid)

    return GameScheduling(config, log)


@pytest.fixture(scope="session")
def small_report(request: pytest.FixtureRequest):
    """``small_report(name)``: the report folder of a small page built once per session (``tests/small_reports.py``)."""
    return lambda name: _small_report(request.config, name)


_LOCKS: dict[str, int] = {}


def _lock_fd(config: pytest.Config, name: str) -> int:
    """An open descriptor on ``name`` in the folder shared by the session's workers (not inherited by children)."""
    if name not in _LOCKS:
        base = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
        # under xdist each worker's basetemp is <session folder>/popen-gwN: the parent is shared by the workers
        _LOCKS[name] = os.open(Path(base).parent / f"simlab-{name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    return _LOCKS[name]


@contextmanager
def _machine(config: pytest.Config, exclusive: bool) -> Iterator[None]:
    """Hold the session's reader-writer lock: alone when ``exclusive``, shared with the other tests otherwise."""
    turnstile, lock = _lock_fd(config, "turnstile"), _lock_fd(config, "exclusive")
    fcntl.flock(turnstile, fcntl.LOCK_EX)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
    finally:
        if not exclusive:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
    try:
        yield
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        if exclusive:
            fcntl.flock(turnstile, fcntl.LOCK_UN)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "exclusive: no other test runs (in any xdist worker) while this one does: for checks that lean "
                   "on timing")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return (yield)
    with _machine(item.config, item.get_closest_marker("exclusive") is not None):
        return (yield)


def pytest_unconfigure(config: pytest.Config) -> None:
    for fd in _LOCKS.values():
        os.close(fd)
    _LOCKS.clear()
