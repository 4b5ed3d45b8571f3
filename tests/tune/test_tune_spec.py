"""Bad ``[tune]`` sections: each gives one line naming the spec file and the field, before anything is played
(through ``parse_spec`` / ``load_spec``, and once through the command line: exit status 2, one line on stderr)."""

from __future__ import annotations

import copy

import pytest
from tune_helpers import cli

from simlab.core.errors import SimlabError
from simlab.runner.spec import SpecError
from simlab.tune.spec import load_spec, parse_spec  # the spec with its [tune] section read

BASE = {
    "name": "tune_spec",
    "game": "smartphone",
    "seed": 5,
    "games": 60,
    "workers": 1,
    "options": {"colour_assignment": "seat_order"},
    "players": {"seats": ["greedy", "price_cutter"], "rotation": "cyclic"},
    "tune": {
        "objective": "max_position_deviation",
        "max_changes": 2,
        "knobs": [{"file": "buyers", "where": {"region_id": "INDIA", "position": 0}, "field": "price_cap",
                   "range": [1, 6]}],
    },
}

SENTIENT = {
    "name": "tune_cards",
    "game": "sentient",
    "seed": 5,
    "games": 60,
    "record": ["takes"],
    "players": {"seats": ["greedy", "investor", "random"]},
    "tune": {
        "objective": "card_value_band",
        "band": [-0.5, 1.5],
        "max_changes": 1,
        "knobs": [{"file": "cards", "where": {"id": 32}, "field": "printed_vp", "range": [1, 5]}],
    },
}


def _spec(base: dict = BASE, drop: tuple[str, ...] = (), knob: dict | None = None, **tune) -> dict:
    raw = copy.deepcopy(base)
    raw["tune"].update(tune)
    for key in drop:
        raw["tune"].pop(key)
    if knob is not None:
        raw["tune"]["knobs"][0].update(knob)
    return raw


def _error(raw: dict, source: str = "x.toml") -> str:
    with pytest.raises(SpecError) as info:
        parse_spec(raw, source)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{source}: ")
    return message


def test_the_base_spec_is_valid():
    """The specs below break one thing each of this valid one."""
    spec = parse_spec(_spec(), "x.toml")
    assert spec.tune.objective.position == "colour"  # Smartphone's first position column by default
    assert spec.tune.knobs[0].printed == ({"price_cap": "3"},)
    assert spec.tune.confirm.seed != spec.tune.seed


@pytest.mark.parametrize(("change", "expected"), [
    ({"positon": "colour"}, "x.toml: tune.positon: unknown key (allowed: objective, position"),
    ({"positon": "colour"}, "did you mean 'position'?"),
    ({"objective": "max_pos_deviation"}, "x.toml: tune.objective: 'max_pos_deviation' is not one of "
                                         "max_position_deviation, first_player_advantage, card_value_band"),
    ({"objective": "max_pos_deviation"}, "did you mean 'max_position_deviation'?"),
    ({"position": "color"}, "x.toml: tune.position: 'color' is not a position of smartphone"),
    ({"band": [0, 1]}, "x.toml: tune.band: only the card_value_band objective takes a band (not "
                       "max_position_deviation)"),
    ({"sampler": "grid"}, "x.toml: tune.sampler: 'grid' is not one of tpe, cmaes, random"),
    ({"pruner": "median"}, "x.toml: tune.pruner: pruning drops candidates between stages: set stages = 2 or more"),
    ({"wall_time": "soon"}, "x.toml: tune.wall_time: expected seconds or a duration like \"20m\", got 'soon'"),
    ({"trials": 0}, "x.toml: tune.trials: must be at least 1"),
    ({"confirm": {"seed": 5}}, "x.toml: tune.confirm.seed: must differ from the search seed 5 (fresh seeds)"),
    ({"seed": 9, "confirm": {"seed": 9}}, "x.toml: tune.confirm.seed: must differ from the search seed 9"),
    ({"confirm": {"games": 10, "seeds": 3}}, "x.toml: tune.confirm.seeds: unknown key"),
])
def test_tune_field_errors(change, expected):
    assert expected in _error(_spec(**change))


def test_a_confirmation_seed_equal_to_the_spec_seed_is_fresh_when_the_search_seed_differs():
    spec = parse_spec(_spec(seed=9, confirm={"seed": 5}), "x.toml")
    assert (spec.tune.seed, spec.tune.confirm.seed) == (9, 5)


def test_missing_change_budget():
    message = _error(_spec(drop=("max_changes",)))
    assert message.startswith("x.toml: tune: give a change budget: max_changes")
    assert "max_distance" in message
    # either budget alone is enough
    assert parse_spec(_spec(drop=("max_changes",), max_distance=3), "x.toml").tune.max_distance == 3


@pytest.mark.parametrize(("knob", "expected"), [
    ({"file": "buyer"}, "x.toml: tune.knobs[0].file: no data file 'buyer' (files: "),
    ({"file": "buyer"}, "did you mean 'buyers'?"),
    ({"field": "pricecap"}, "x.toml: tune.knobs[0].field: buyers: no column 'pricecap' (columns: region_id, "),
    ({"field": "pricecap"}, "did you mean 'price_cap'?"),
    ({"where": {"region": "INDIA"}}, "x.toml: tune.knobs[0].where.region: buyers: no column 'region'"),
    ({"where": {"region_id": "INDA", "position": 0}}, "x.toml: tune.knobs[0].where: buyers: no row with "
                                                      "region_id = INDA, position = 0"),
    ({"where": {"region_id": "INDIA", "position": 9}}, "x.toml: tune.knobs[0].where: buyers: no row with "
                                                       "region_id = INDIA, position = 9"),
    ({"range": [6, 1]}, "x.toml: tune.knobs[0].range: low 6 is above high 1"),
    ({"range": [3, 3]}, "x.toml: tune.knobs[0].range: [3, 3] leaves fewer than two values"),
    ({"values": [3, 4]}, "x.toml: tune.knobs[0]: give exactly one of 'range'"),
    ({"step": 0}, "x.toml: tune.knobs[0].step: expected a positive integer, got 0"),
    ({"feild": "price_cap"}, "x.toml: tune.knobs[0].feild: unknown key"),
    ({"field": "region_id"}, "x.toml: tune.knobs[0].field: 'region_id' also picks the rows in 'where'"),
])
def test_knob_errors(knob, expected):
    assert expected in _error(_spec(knob=knob))


def test_a_knob_reads_the_data_after_the_specs_edits():
    """The base ``[data] edit`` is the data the knobs start from (their printed values, their rows)."""
    raw = _spec()
    edit = {"file": "buyers", "where": {"region_id": "INDIA", "position": 0}, "set": {"price_cap": 2}}
    raw["data"] = {"edit": [edit]}
    assert parse_spec(raw, "x.toml").tune.knobs[0].printed == ({"price_cap": "2"},)
    raw["tune"]["knobs"][0]["where"] = {"region_id": "INDIA", "price_cap": 3}  # no row holds 3 any more
    assert "x.toml: tune.knobs[0].where: buyers: no row with region_id = INDIA, price_cap = 3" in _error(raw)


def test_a_knob_given_twice():
    raw = _spec()
    raw["tune"]["knobs"].append(copy.deepcopy(raw["tune"]["knobs"][0]))
    assert "x.toml: tune.knobs[1]: knob 'buyers[region_id=INDIA,position=0].price_cap' is given twice" in _error(raw)


def test_card_value_band_needs_an_ablation_and_takes():
    raw = _spec(SENTIENT)
    assert "x.toml: tune.objective: card_value_band measures every card by paired ablation: add an [ablation]" \
        in _error(raw)
    raw["ablation"] = {"cards": [32], "change": "remove"}
    raw["record"] = []
    assert "x.toml: tune.objective: card_value_band needs the cards' holders: record = [\"takes\"]" in _error(raw)
    raw["record"] = ["takes"]
    assert parse_spec(raw, "x.toml").tune.objective.band == (-0.5, 1.5)
    raw["tune"]["band"] = [2, 1]
    assert "x.toml: tune.band: low 2 must be below high 1" in _error(raw)


# ---------------------------------------------------------------- user objectives


def test_user_objective_file_and_function_must_exist(tmp_path):
    """The function file is relative to the spec's folder."""
    (tmp_path / "mine.py").write_text("def gap(tables):\n    return 0.0\n")
    spec_file = tmp_path / "user.toml"
    for objective, expected in [
        ("missing.py:gap", f"{spec_file}: tune.objective: {tmp_path / 'missing.py'}: file not found"),
        ("mine.py:nothing", f"{spec_file}: tune.objective: {tmp_path / 'mine.py'} has no function 'nothing'"),
        ("mine.txt:gap", f"{spec_file}: tune.objective: 'mine.txt:gap' is not one of"),
    ]:
        spec_file.write_text(_toml(_spec(objective=objective)))
        with pytest.raises(SpecError) as info:
            load_spec(spec_file)
        assert str(info.value).startswith(expected), str(info.value)
        assert "\n" not in str(info.value)
    spec_file.write_text(_toml(_spec(objective="mine.py:gap")))
    assert load_spec(spec_file).tune.objective.name == "mine.py:gap"


def test_user_objective_that_does_not_return_a_number_stops_the_tune(fast_path):
    from simlab.tune.run import run_tune

    (fast_path / "mine.py").write_text("def gap(tables):\n    return 'far'\n")
    spec_file = fast_path / "user.toml"
    spec_file.write_text(_toml(_spec(objective="mine.py:gap", trials=2)))
    with pytest.raises(SimlabError) as info:
        run_tune(load_spec(spec_file), fast_path / "tune", show_progress=False)
    assert str(info.value) == "tune.objective mine.py:gap returned 'far'; it must return a finite number"


def test_the_command_line_gives_one_line_and_status_2(tmp_path):
    spec_file = tmp_path / "bad.toml"
    spec_file.write_text(_toml(_spec(objective="max_pos_deviation")))
    result = cli("tune", str(spec_file), "--out", str(tmp_path / "tune"), "-q")
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"error: {spec_file}: tune.objective: 'max_pos_deviation' is not one of max_position_deviation, "
        "first_player_advantage, card_value_band and not \"file.py:function\"; did you mean "
        "'max_position_deviation'?"]
    assert not (tmp_path / "tune").exists()  # nothing was played or written


def _toml(raw: dict) -> str:
    """A spec dict as TOML (the few value types these specs use)."""

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"

    lines = [f"{k} = {value(v)}" for k, v in raw.items() if k != "tune"]
    lines.append("[tune]")
    lines += [f"{k} = {value(v)}" for k, v in raw["tune"].items()]
    return "\n".join(lines) + "\n"


def test_toml_writer_round_trips():
    import tomllib

    assert tomllib.loads(_toml(_spec())) == _spec()


def test_the_runner_keeps_the_tune_section_and_never_runs_its_code(tmp_path):
    """Issue 24 (layers): the runner keeps ``[tune]`` as a table it does not read, so a run's shards and a replay,
    which parse the stored spec, never load a user objective file; the tune layer reads the section (once, where
    a tune is run) and refuses a bad one with the field named; the runner only checks that it is a table."""
    from simlab.runner import spec as runner_spec
    from simlab.tune.spec import tune_of

    (tmp_path / "mine.py").write_text("raise RuntimeError('objective code ran')\n")
    raw = _spec(objective="mine.py:gap")
    source = str(tmp_path / "user.toml")
    spec = runner_spec.parse_spec(raw, source)
    assert spec.tune is None and spec.raw["tune"]["objective"] == "mine.py:gap"
    with pytest.raises(SpecError, match=r"user\.toml: tune\.objective: .*objective code ran"):
        tune_of(spec)  # the tune layer loads it (and says it failed)
    assert tune_of(runner_spec.parse_spec(BASE, "x.toml")).objective.name == "max_position_deviation"
    with pytest.raises(SpecError, match=r"^x\.toml: tune: expected a table, got 3$"):
        runner_spec.parse_spec({**BASE, "tune": 3}, "x.toml")
