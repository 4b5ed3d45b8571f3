"""Knobs: the values a knob may take, what a candidate costs against the change budget, the row edits it
becomes, and how the search's parameters map to candidates. No game is played here."""

from __future__ import annotations

import csv
import io

import optuna
import pytest

from simlab.core.datavariants import data_texts
from simlab.core.game import get_game
from simlab.tune.knobs import KnobError, candidate_cost, candidate_edits, describe_candidate, parse_knob
from simlab.tune.search import candidate_from_params, candidate_key, slots, suggest
from simlab.tune.spec import parse_spec

FILES = get_game("smartphone").data_files()
TEXTS = data_texts(FILES)


def _knob(**item):
    return parse_knob({"file": "buyers", **item}, "tune.knobs[0]", TEXTS, FILES.stems)


def _caps(edits, region: str) -> list[str]:
    """The price caps of ``region``'s buyers after ``edits``."""
    rows = csv.DictReader(io.StringIO(data_texts(FILES, None, edits)["buyers"]))
    return [r["price_cap"] for r in rows if r["region_id"] == region]


def test_range_with_a_step_and_the_printed_values():
    knob = _knob(where={"region_id": "INDIA", "position": 0}, field="price_cap", range=[2, 8], step=2)
    assert knob.choices == (2, 4, 6, 8) and knob.mode == "set" and knob.integer
    assert knob.printed == ({"price_cap": "3"},) and knob.rows == 1
    assert knob.name == "buyers[region_id=INDIA,position=0].price_cap"
    assert knob.cost(3) == (0, 0.0)  # the printed value is no change
    assert knob.cost(6) == (1, 3.0)
    assert knob.describe(6) == "buyers (region_id = INDIA, position = 0): price_cap 3 → 6"
    assert knob.edit(6).as_dict() == {"file": "buyers", "where": {"region_id": "INDIA", "position": 0},
                                      "set": {"price_cap": 6}}


def test_add_always_offers_no_change_and_moves_every_matched_row():
    knob = _knob(name="seasia_red", where={"region_id": "SEASIA", "kind": "red"}, field="price_cap", add=[1, 3])
    assert knob.choices == (0, 1, 2, 3) and knob.mode == "add" and knob.rows == 3
    assert [r["price_cap"] for r in knob.printed] == ["3", "4", "7"]
    assert knob.cost(0) == (0, 0.0)
    assert knob.cost(2) == (3, 6.0)  # three rows, each moved by 2
    assert knob.describe(2) == "buyers (region_id = SEASIA, kind = red): price_cap +2 (printed 3/4/7, 3 rows)"
    assert _caps([knob.edit(2)], "SEASIA") == ["5", "6", "9", "", ""]


def test_set_on_several_rows_counts_only_the_rows_that_change():
    knob = _knob(where={"region_id": "USA", "kind": "red"}, field="price_cap", range=[3, 6])
    assert [r["price_cap"] for r in knob.printed] == ["4", "5", "5"]
    assert knob.cost(5) == (1, 1.0)
    assert knob.cost(4) == (2, 2.0)
    assert knob.cost(6) == (3, 4.0)
    assert knob.describe(6) == "buyers (region_id = USA, kind = red): price_cap 4/5 → 6 (3 rows)"
    assert _caps([knob.edit(6)], "USA") == ["6", "6", "6", "", ""]


def test_tables_of_values_change_several_fields_of_a_row_at_once():
    red = {"kind": "red", "price_cap": 4, "technology": ""}
    purple = {"kind": "purple", "price_cap": "", "technology": "GAMEPAD"}
    knob = _knob(where={"region_id": "INDIA", "position": 3}, values=[purple, red])
    assert knob.fields == ("kind", "price_cap", "technology") and not knob.integer
    assert knob.printed == ({"kind": "purple", "price_cap": "", "technology": "GAMEPAD"},)
    assert knob.cost(purple) == (0, 0.0)
    assert knob.cost(red) == (1, 3.0)  # one row; three fields, none of them an integer change
    assert knob.describe(red) == ("buyers (region_id = INDIA, position = 3): kind purple → red, "
                                  "price_cap (empty) → 4, technology GAMEPAD → (empty)")
    assert knob.label(red) == "kind=red,price_cap=4,technology="


def test_string_values():
    knob = _knob(where={"region_id": "INDIA", "position": 3}, field="technology", values=["GAMEPAD", "GPS"])
    assert knob.cost("GAMEPAD") == (0, 0.0)
    assert knob.cost("GPS") == (1, 1.0)
    with pytest.raises(KnobError, match=r"^tune.knobs\[0\].values: lists a value twice$"):
        _knob(where={"region_id": "INDIA", "position": 3}, field="technology", values=["GPS", "GPS"])
    with pytest.raises(KnobError, match=r"^tune.knobs\[0\].add: buyers: '' in column price_cap is not an integer$"):
        _knob(where={"region_id": "INDIA", "position": 3}, field="price_cap", add=[0, 1])


def test_a_candidate_edits_only_the_knobs_it_changes():
    india = _knob(where={"region_id": "INDIA", "position": 0}, field="price_cap", range=[1, 6])
    seasia = _knob(name="seasia_red", where={"region_id": "SEASIA", "kind": "red"}, field="price_cap", add=[-1, 2])
    knobs = [india, seasia]
    candidate = {india.name: 3, "seasia_red": -1}  # India at its printed cap: no change
    assert [e.as_dict() for e in candidate_edits(knobs, candidate)] == [
        {"file": "buyers", "where": {"region_id": "SEASIA", "kind": "red"}, "add": {"price_cap": -1}}]
    assert candidate_cost(knobs, candidate) == (3, 3.0)
    assert describe_candidate(knobs, candidate) == [
        "buyers (region_id = SEASIA, kind = red): price_cap −1 (printed 3/4/7, 3 rows)"]
    assert candidate_cost(knobs, {india.name: 5, "seasia_red": 2}) == (4, 8.0)
    assert candidate_edits(knobs, {}) == [] and candidate_cost(knobs, {}) == (0, 0.0)


# ---------------------------------------------------------------- the search's parameters


def _tune(max_changes: int = 2):
    raw = {
        "name": "knobs", "game": "smartphone", "seed": 1, "games": 10, "players": {"seats": ["greedy", "greedy"]},
        "tune": {"objective": "max_position_deviation", "max_changes": max_changes, "knobs": [
            {"file": "buyers", "where": {"region_id": "INDIA", "position": 0}, "field": "price_cap",
             "range": [1, 6]},
            {"name": "tech", "file": "buyers", "where": {"region_id": "INDIA", "position": 3},
             "field": "technology", "values": ["GAMEPAD", "GPS", "NFC"]},
        ]},
    }
    if max_changes >= 3:  # a knob of 3 rows: refused under a smaller budget (it could never be used)
        raw["tune"]["knobs"].append({"name": "seasia_red", "file": "buyers", "where": {"region_id": "SEASIA",
                                     "kind": "red"}, "field": "price_cap", "add": [-1, 2]})
    return parse_spec(raw, "knobs.toml").tune


def test_slots_are_the_budget_or_the_knobs():
    assert slots(_tune(1)) == 1
    assert slots(_tune(10)) == 3


def test_sampled_parameters_give_back_the_candidate():
    """What the sampler proposes, stored as a trial's parameters, reads back as the same candidate; every
    value is one of its knob's."""
    tune = _tune(3)
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=3))
    seen = set()
    for _ in range(40):
        trial = study.ask()
        candidate = suggest(trial, tune)
        assert candidate_from_params(trial.params, tune) == candidate
        for knob in tune.knobs:
            if knob.name in candidate:
                assert candidate[knob.name] in knob.choices
        seen.add(candidate_key(tune, candidate))
        study.tell(trial, 0.0)
    assert len(seen) > 10


def test_the_key_ignores_knobs_at_their_printed_value():
    tune = _tune(3)
    india = tune.knobs[0].name
    assert candidate_key(tune, {}) == candidate_key(tune, {india: 3, "tech": "GAMEPAD", "seasia_red": 0}) == "{}"
    assert candidate_key(tune, {india: 4}) == candidate_key(tune, {india: 4, "seasia_red": 0})
    assert candidate_key(tune, {india: 4}) != candidate_key(tune, {india: 5})
