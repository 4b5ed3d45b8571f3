"""Helpers for the tune tests: small tune specs, running them, and reading their trials.

The specs play Smartphone Inc. at 2 players with ``colour_assignment = "seat_order"``: every game
is blue (USA) against yellow (LATAM), the three players rotated over both seats. With the printed
buyers the two colours win about equally often (``max_position_deviation`` on ``colour`` near 0),
and the game is very sensitive to USA's buyers, which makes a planted imbalance with a known
answer: the base ``[data] edit`` caps USA's second red buyer (printed price cap 5) at 1, and blue
then wins about 30% of its games, a deviation of about 0.18. Caps 4, 5 and 6 on that buyer all
bring the colours back within about 0.03; CANADA's and EUROPE's buyers are not in play at 2
players (decoys: they change nothing).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from simlab.tune.run import run_tune
from simlab.tune.spec import load_spec

PLANT = '{ file = "buyers", where = { region_id = "USA", position = 1 }, set = { price_cap = 1 } }'

HEAD = """
name = "{name}"
game = "smartphone"
seed = {seed}
games = {games}
workers = 1

[options]
colour_assignment = "seat_order"

[players]
pool = ["greedy", "price_cutter", "tech_rusher"]
n_players = [2]
rotation = "cyclic"

[data]
edit = [{plant}]
"""

# the planted imbalance and two decoys; every candidate is feasible or over max_distance
PLANTED_SPEC = HEAD.format(name="tune_planted", seed=5, games=600, plant=PLANT) + """
[tune]
objective = "max_position_deviation"
position = "colour"
max_changes = 2
max_distance = 8
trials = 12

[tune.confirm]
candidates = 1
games = 1200

[[tune.knobs]]
file = "buyers"
where = { region_id = "USA", position = 1 }
field = "price_cap"
range = [1, 6]

[[tune.knobs]]
file = "buyers"
where = { region_id = "CANADA", position = 0 }
field = "price_cap"
range = [4, 8]

[[tune.knobs]]
file = "buyers"
where = { region_id = "EUROPE", position = 3 }
field = "price_cap"
range = [5, 9]
"""

# few games, two stages (the median rule prunes), a knob with an invalid value (a price cap of 0),
# one that matches 3 rows (over max_changes with any other change) and a tight max_distance
TINY_SPEC = HEAD.format(name="tune_tiny", seed=2, games=120, plant=PLANT) + """
[tune]
objective = "max_position_deviation"
max_changes = 3
max_distance = 5
trials = 10
stages = 2

[tune.confirm]
candidates = 1
games = 120

[[tune.knobs]]
file = "buyers"
where = { region_id = "USA", position = 1 }
field = "price_cap"
range = [0, 6]

[[tune.knobs]]
name = "seasia_red"
file = "buyers"
where = { region_id = "SEASIA", kind = "red" }
field = "price_cap"
add = [0, 1]

[[tune.knobs]]
file = "buyers"
where = { region_id = "CANADA", position = 0 }
field = "price_cap"
values = [5, 7]
"""

# what a trial is, without its timing
TRIAL_COLUMNS = ("trial", "status", "value", "last_stage_value", "stages", "games", "cells", "distance", "changes",
                 "key", "repeat_of", "reason", "params")


def fresh(root: Path, name: str) -> Path:
    """A new empty folder under ``root``."""
    return Path(tempfile.mkdtemp(prefix=f"{name[:40]}-", dir=root))


def write_spec(folder: Path, name: str, text: str) -> Path:
    """``text`` as ``folder/name.toml``."""
    path = Path(folder) / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run_tiny(spec_file: Path, out: Path, workers: int | None = None, trials: int | None = None) -> Path:
    """Tune ``spec_file`` into ``out`` in this process (``workers`` and ``trials`` override the spec's, as
    ``simlab tune -w N --trials N`` do); the folder."""
    spec = load_spec(spec_file, {"workers": workers})
    if trials is not None:
        spec.tune.trials = trials
    return run_tune(spec, out, show_progress=False).path


def trials(path: Path) -> list[dict[str, Any]]:
    """A tune's trials (``trials.parquet``) without timings, in trial order."""
    return pl.read_parquet(Path(path) / "trials.parquet").select(TRIAL_COLUMNS).sort("trial").to_dicts()


def finished_trials(path: Path) -> int:
    """How many trials of the study in ``path/study.db`` are finished (read with sqlite3, as another process)."""
    db = Path(path) / "study.db"
    if not db.is_file():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0)
        try:
            return int(con.execute("SELECT COUNT(*) FROM trials WHERE state IN ('COMPLETE', 'PRUNED', 'FAIL')")
                       .fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:  # not created yet, or locked for a moment
        return 0


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``simlab ARGS`` in a subprocess (as a person runs it)."""
    return subprocess.run([sys.executable, "-m", "simlab.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def start_cli(*args: str) -> subprocess.Popen:
    """``simlab ARGS`` started in a subprocess."""
    return subprocess.Popen([sys.executable, "-m", "simlab.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
