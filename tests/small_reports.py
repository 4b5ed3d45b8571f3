"""The small report pages several test files check, each built once per test session.

A report notebook executed on a small run takes 5-15 s. The browser checks (``tests/report/test_browser.py``), the
presentation checks (``tests/report/test_presentation.py``), the card-value sections (``tests/report/
test_report.py``) and the start-position notebook (``tests/study/test_study_notebook.py``) used to build the same
pages, each its own. :func:`small_report` builds each page once, in a folder shared by the session's pytest-xdist
workers, under a file lock: the first worker to ask builds it, the others wait and read it. The tests only read the
page (a screenshot goes elsewhere).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "study"))

SMALL_SPECS = {
    # the shape of each study, a few hundred games
    "sentient_strategies": {
        "name": "tiny_strategies", "game": "sentient", "seed": 4, "games": 400, "shard_size": 400, "workers": 1,
        "report": "sentient_strategies.ipynb",
        "players": {"pool": ["random", "greedy", "investor"], "n_players": [2, 3], "rotation": "cyclic"}},
    "sentient_card_ev": {
        "name": "tiny_ablation", "game": "sentient", "seed": 2, "games": 600, "shard_size": 600, "workers": 1,
        "record": ["takes"], "report": "sentient_card_ev.ipynb", "ablation": {"cards": [30, 40, 59]},
        "players": {"pool": ["investor", "specialist"], "repeat": True, "n_players": [2, 3], "rotation": "cyclic"}},
}
FABRICATED = {
    # a fabricated Smartphone Inc. run: 3 deals at 2-5 players, a +4 VP bonus for one colour, one data variant
    "smartphone_start_position": {"deals": 3, "bonus": 4.0, "variants": {"usa_even": 0.0}},
}
NAMES = (*SMALL_SPECS, *FABRICATED)


def _build(name: str, folder: Path) -> None:
    from study_helpers import fabricate_run

    from simlab.report import report_run
    from simlab.report.build import NOTEBOOKS
    from simlab.runner.run import run_experiment
    from simlab.runner.spec import parse_spec

    if name in SMALL_SPECS:
        run = run_experiment(parse_spec(SMALL_SPECS[name]), folder / "run", show_progress=False).path
    else:
        run = fabricate_run(folder / "run", **FABRICATED[name])
    before = {p.name: p.stat().st_mtime_ns for p in NOTEBOOKS.iterdir()}
    report_run(run, folder / "report")
    after = {p.name: p.stat().st_mtime_ns for p in NOTEBOOKS.iterdir()}
    assert after == before, "executing a report wrote into notebooks/"
    (folder / "done").write_text("")


def small_report(config: pytest.Config, name: str) -> Path:
    """The report folder (``index.html``, ``notebook.ipynb``, findings) of the small page ``name``, built once."""
    base = Path(config._tmp_path_factory.getbasetemp())  # type: ignore[attr-defined]
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # xdist: <session>/popen-gwN
    folder = shared / "small-reports" / name
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "done").exists():
            for part in ("run", "report"):  # what a build that failed half-way left
                shutil.rmtree(folder / part, ignore_errors=True)
            _build(name, folder)
    return folder / "report"
