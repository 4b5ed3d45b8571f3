"""Issue 23, "`simlab tune`": the tune spends its budget on new candidates and says what it found.

- the space of allowed candidates is counted exactly and listed (checked against brute force);
- a knob that can never be used within the change budget is refused when the spec is read, one
  that can be partly used gives a warning (docs/tune.md, "The change budget");
- a space no larger than the budget is searched exhaustively and the search says when it is
  exhausted ("all 3 allowed candidates ... were tried"), in the terminal and in tune.json;
- when the best candidate does not confirm an improvement, the answer is "no change recommended"
  (tune.json, the terminal) and no variant.toml is written;
- ``simlab tune --dashboard`` serves the study in optuna-dashboard, or says in one line that it is
  not installed.
"""

from __future__ import annotations

import copy
import itertools

import numpy as np
import polars as pl
import pytest
from tune_helpers import HEAD, trials, write_spec
from typer.testing import CliRunner

from simlab.cli import app
from simlab.core.errors import SimlabError
from simlab.runner.spec import SpecError
from simlab.tune import run as tune_run
from simlab.tune.knobs import candidate_cost
from simlab.tune.run import read_manifest, run_tune
from simlab.tune.search import candidate_key
from simlab.tune.space import Space
from simlab.tune.spec import load_spec, parse_spec  # the spec with its [tune] section read

RAW = {
    "name": "budget", "game": "smartphone", "seed": 1, "games": 10, "players": {"seats": ["greedy", "greedy"]},
    "tune": {"objective": "max_position_deviation", "max_changes": 3, "max_distance": 6, "knobs": [
        {"file": "buyers", "where": {"region_id": "INDIA", "position": 0}, "field": "price_cap", "range": [1, 6]},
        {"name": "tech", "file": "buyers", "where": {"region_id": "INDIA", "position": 3},
         "field": "technology", "values": ["GAMEPAD", "GPS", "NFC"]},
        {"name": "seasia_red", "file": "buyers", "where": {"region_id": "SEASIA", "kind": "red"},
         "field": "price_cap", "add": [-1, 2]},
    ]},
}


def _parse(**tune):
    raw = copy.deepcopy(RAW)
    raw["tune"].update(tune)
    return parse_spec(raw, "budget.toml").tune


def _brute_force(tune) -> set[str]:
    """Every allowed candidate's key, by trying every combination of every knob's values."""
    axes = [[None, *k.choices] for k in tune.knobs]
    out = set()
    for combo in itertools.product(*axes):
        candidate = {k.name: v for k, v in zip(tune.knobs, combo, strict=True) if v is not None}
        cells, distance = candidate_cost(tune.knobs, candidate)
        if cells <= tune.max_changes and (tune.max_distance is None or distance <= tune.max_distance):
            out.add(candidate_key(tune, candidate))
    return out


@pytest.mark.parametrize("budget", [{"max_changes": 3, "max_distance": 6}, {"max_changes": 4, "max_distance": 20},
                                    {"max_changes": 5, "max_distance": 3}])
def test_the_space_is_counted_and_listed_exactly(budget):
    tune = _parse(**budget)
    space = Space(tune.knobs, tune.max_changes, tune.max_distance)
    expected = _brute_force(tune)
    listed = [candidate_key(tune, c) for c in space.listing()]
    assert space.size == len(expected) == len(listed) == len(set(listed))
    assert set(listed) == expected
    assert listed[0] == "{}"  # the printed data first


def test_an_untried_candidate_is_a_neighbour_first_and_none_when_the_space_is_exhausted():
    tune = _parse()
    space = Space(tune.knobs, tune.max_changes, tune.max_distance)
    india = tune.knobs[0].name

    def key(c):
        return candidate_key(tune, c)

    rng = np.random.default_rng(1)
    proposal = {india: 4}
    near = {key(c) for c in space.neighbours(proposal)}
    found = space.untried(proposal, {key(proposal)}, key, rng)
    assert key(found) in near and space.allowed(found)
    every = {key(c) for c in space.listing()}
    assert space.untried(proposal, every - {key({india: 2})}, key, rng) == {india: 2}  # the one left
    assert space.untried(proposal, every, key, rng) is None


# ---------------------------------------------------------------- a knob that can never be used


def test_a_knob_that_changes_more_rows_than_max_changes_is_refused():
    """The issue's case: a knob matching 3 rows with max_changes = 2 only burned trials as infeasible."""
    with pytest.raises(SpecError) as info:
        _parse(max_changes=2)
    message = str(info.value)
    assert message == ("budget.toml: tune.knobs[2]: knob 'seasia_red' (buyers, 3 rows) can never be used: it "
                       "changes 3 rows > max_changes 2; raise the budget, or narrow its where or its values")


def test_a_knob_over_max_distance_whatever_its_value_is_refused_and_one_partly_over_warned():
    with pytest.raises(SpecError, match=r"tune.knobs\[2\]: knob 'seasia_red' .* can never be used: distance 3 or "
                                        r"more > max_distance 2"):
        _parse(max_distance=2)
    tune = _parse(max_distance=4)  # India's cap 3 -> 1..6: distances 2, 1, 1, 2, 3 fit; seasia +-1 fits (3)
    assert tune.warnings == ["tune.knobs[2]: knob 'seasia_red': values 2 can never be played: distance 6 or more "
                             "> max_distance 4"]
    assert _parse().warnings == []


# ---------------------------------------------------------------- exhaustive search, no change recommended

# the printed buyers (no plant); CANADA's buyers are not in play at 2 players: no change can improve
DECOY_SPEC = HEAD.format(name="tune_decoy", seed=3, games=60,
                         plant='{ file = "buyers", where = { region_id = "USA", position = 1 }, '
                               'set = { price_cap = 5 } }') + """
[tune]
objective = "max_position_deviation"
position = "colour"
max_changes = 1
trials = 10

[tune.confirm]
candidates = 1
games = 60

[[tune.knobs]]
file = "buyers"
where = { region_id = "CANADA", position = 0 }
field = "price_cap"
values = [5, 7]
"""


@pytest.fixture(scope="module")
def decoy(fast_root):
    """(spec file, tune folder) of a tune whose 3 allowed candidates are fewer than its 10 trials."""
    from tune_helpers import fresh

    folder = fresh(fast_root, "decoy")
    spec_file = write_spec(folder, "tune_decoy", DECOY_SPEC)
    return spec_file, run_tune(load_spec(spec_file), folder / "tune", show_progress=False).path


def test_a_space_smaller_than_the_budget_is_searched_exhaustively(decoy):
    _, path = decoy
    rows = trials(path)
    assert [r["changes"] for r in rows] == ["(printed data)", "buyers (region_id = CANADA, position = 0): price_cap "
                                            "6 → 5", "buyers (region_id = CANADA, position = 0): price_cap 6 → 7"]
    table = pl.read_parquet(path / "trials.parquet")
    assert table["origin"].to_list() == ["printed", "listing", "listing"]
    search = read_manifest(path)["search"]
    assert search["stopped_by"] == "the space is exhausted: all 3 allowed candidates (the printed data included) " \
                                   "were tried"
    assert search["allowed"] == 3 and search["exhaustive"] and search["exhausted"] and search["trials"] == 3


def test_no_change_is_recommended_when_the_improvement_is_not_confirmed(decoy):
    _, path = decoy
    answer = read_manifest(path)["answer"]
    assert answer["recommended"] is False
    assert answer["recommendation"].startswith("no change recommended: the best candidate of the search (trial ")
    assert not (path / "variant.toml").exists()
    result = CliRunner().invoke(app, ["results", "show", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "recommendation: no change recommended" in result.output
    assert "paste into a spec" not in result.output
    assert "the space is exhausted: all 3 allowed candidates" in result.output


# ---------------------------------------------------------------- the dashboard


def test_dashboard_opens_the_study_or_says_it_is_not_installed(decoy, monkeypatch):
    spec_file, path = decoy
    spec = load_spec(spec_file)
    monkeypatch.setattr(tune_run, "dashboard_command", lambda url: None)
    with pytest.raises(SimlabError, match=r"^optuna-dashboard is not installed: pip install optuna-dashboard"):
        tune_run.open_dashboard(spec, path)
    calls, lines = [], []
    monkeypatch.setattr(tune_run, "dashboard_command", lambda url: ["optuna-dashboard", url])
    status = tune_run.open_dashboard(spec, path, announce=lines.append, call=lambda c: calls.append(c) or 0)
    url = f"sqlite:///{(path / 'study.db').resolve()}"
    assert status == 0 and calls == [["optuna-dashboard", url]]
    assert lines == [f"optuna-dashboard {url}  (the study is named 'tune'; Ctrl-C stops the dashboard)"]
    with pytest.raises(SimlabError, match=r"^no tune in "):
        tune_run.open_dashboard(spec, path.parent / "none")


def test_dashboard_command_finds_the_console_script_on_the_path(tmp_path, monkeypatch):
    exe = tmp_path / "optuna-dashboard"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert tune_run.dashboard_command("sqlite:///x.db") == [str(exe), "sqlite:///x.db"]
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    monkeypatch.setattr("sys.executable", str(tmp_path / "nothing" / "python"))
    assert tune_run.dashboard_command("sqlite:///x.db") is None


def test_a_tune_prints_plain_progress_lines_when_the_output_is_not_a_terminal(fast_root):
    """Issue 23: in CI or a log file a tune prints plain lines (trials done, best so far), not a live bar."""
    import io

    from rich.console import Console
    from tune_helpers import fresh

    folder = fresh(fast_root, "plain_progress")
    spec_file = write_spec(folder, "tune_plain", DECOY_SPEC)
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=200)
    run_tune(load_spec(spec_file), folder / "tune", console=console, show_progress=True)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("tune ") and " trials, best " in line]
    assert lines, out.getvalue()
    assert "trials, best" in lines[-1]
    assert "\r" not in out.getvalue() and "\x1b[" not in out.getvalue()
