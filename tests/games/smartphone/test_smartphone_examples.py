"""The rulebook's worked examples (examples.toml, NOTES 1.19) played through the real kernels."""

from __future__ import annotations

import tomllib
from pathlib import Path

from smartphone_helpers import (
    DATA,
    REGION,
    TECH,
    add_office,
    buyers_of,
    clear_offices,
    do,
    enter_phase,
    events,
    new,
    plan_all,
    play_until,
    remove_retailers,
    tab,
)

from simlab.games.smartphone import rules as sr
from simlab.games.smartphone.arrangements import locate
from simlab.games.smartphone.data import SYMBOL_INDEX

EX = tomllib.loads((Path(__file__).parent / "examples.toml").read_text(encoding="utf-8"))


def _arr(ex: dict) -> int:
    b, t = ex["bottom"], ex["top"]
    return locate(DATA, (b["tablet"], b["side"]), (t["tablet"], t["side"]), t["rotation"], t["dy"], t["dx"])


def _planned(ex: dict, n: int = 2, **opts):
    """A game where seat 0 lays the example's arrangement with an empty hand; stops after phase 3."""
    rules, state, log, legal = new(n, seed=11, **opts)
    state[0]["hand_n"][:] = 0  # no upgrades: nothing placed, no unused upgrade producing goods
    arr = _arr(ex)
    legal = plan_all(rules, state, log, legal, {0: arr})
    return rules, state, log, legal, arr


def test_price_example():
    ex = EX["price_example"]
    rules, state, _log, _legal, arr = _planned(ex)
    s = state[0]
    assert s["phase"] == 4
    assert tab(rules)["arr_hidden"][arr] == ex["expected_hidden"]
    assert s["vis_tab"][0, SYMBOL_INDEX["price_down"]] - s["vis_tab"][0, SYMBOL_INDEX["price_up"]] == 2
    assert s["price"][0] == ex["expected_price"] == 3


def test_production_example():
    ex = EX["production_example"]
    rules, state, log, _legal, arr = _planned(ex)
    s = state[0]
    assert tab(rules)["arr_hidden"][arr] == ex["expected_hidden"]
    counts = s["vis_tab"][0]
    assert counts[SYMBOL_INDEX["goods"]] == ex["expected_active_goods_symbols"]
    assert sum(int(counts[k]) for k in range(len(counts)) if k != SYMBOL_INDEX["blank"]) == \
        ex["expected_active_symbols"]
    assert s["produced"][0] == ex["expected_production"] == 7
    ev = [e for e in events(rules, log, sr.EV_PRODUCE) if e[3] == 0][-1]
    # got, goods symbols, hidden cells, unused upgrades, tokens, technologies
    assert list(ev[4:10]) == [7, 3, 4, 0, 0, 0]
    assert s["goods"][0] == 7


def test_production_example_unused_starting_upgrade_adds_one():
    """The same plan with the starting upgrade kept in hand (not placed) produces 8 (S27)."""
    ex = EX["production_example"]
    rules, state, log, legal = new(2, seed=11)
    legal = plan_all(rules, state, log, legal, {0: _arr(ex)}, place=False)
    assert state[0]["plan_n"][0] == 0 and state[0]["hand_n"][0] == 1
    assert state[0]["produced"][0] == 8


def test_research_example():
    ex = EX["research_example"]
    rules, state, log, legal, arr = _planned(ex)
    s = state[0]
    g4 = TECH[ex["technology"]]
    assert tab(rules)["arr_hidden"][arr] == ex["expected_hidden"]
    assert sr.sym_count(s, tab(rules), 0, SYMBOL_INDEX["research"]) == ex["expected_research"]
    assert sr.tech_cost(s, tab(rules), 0, g4) == ex["cost_while_patent_on_it"]

    def choose(st, lg):
        q = st[0]
        if q["phase"] == 5 and q["actor"] == 0 and sr.A_RESEARCH + g4 in lg:
            return sr.A_RESEARCH + g4
        return int(lg[0])

    play_until(rules, state, log, legal, lambda q: q["phase"] > 5, choose)
    assert s["progress"][0, g4] == ex["progress_after_round"]
    assert sr.tech_cost(s, tab(rules), 0, g4) - s["progress"][0, g4] == ex["progress_still_needed"]
    assert s["researched"][0, g4] == 0
    # progress stays across rounds (S32)
    play_until(rules, state, log, legal, lambda q: q["round"] == 2)
    assert s["progress"][0, g4] == 3


def test_sales_example():
    ex = EX["sales_example"]
    rules, state, log, legal = new(5, seed=3)
    s = state[0]
    clear_offices(state)
    remove_retailers(state, rules)
    region = REGION[ex["region"]]
    add_office(state, 0, region)
    s["price"][0] = ex["price"]
    s["goods"][:] = 0
    s["goods"][0] = ex["goods"]
    for t in ex["technologies"]:
        s["researched"][0, TECH[t]] = 1
    s["n_techs"][0] = len(ex["technologies"])
    legal = enter_phase(rules, state, log, 7)
    assert s["pending"] == sr.D_SELL and s["actor"] == 0
    sold = 0
    while s["pending"] == sr.D_SELL and s["actor"] == 0:
        sells = [a for a in legal.tolist() if a >= sr.A_SELL]
        assert sells
        legal = do(rules, state, log, sells[0])
        sold += 1
    assert sold == ex["expected_sold"]
    assert s["sold"][0] == 3 and s["lost"][0] == ex["expected_unsold_lost"]
    sold_on = sorted(int(e[4]) for e in events(rules, log, sr.EV_SALE) if e[3] == 0)
    assert sold_on == buyers_of(ex["region"])[:3]  # red 6, GAMEPAD, 4G; the NFC buyer stays free
    assert s["buyer_owner"].max() == -1  # goods go back at the end of the round
    # phase 8 ran after the others' (empty) turns
    assert s["round"] == 2
    assert s["sales_vp"][0] == ex["expected_sales_vp"] == 9


def test_control_example():
    ex = EX["control_example"]
    rules, state, log, _legal = new(5, seed=3)
    s = state[0]
    clear_offices(state)
    remove_retailers(state, rules)
    usa = REGION[ex["region"]]
    blue, yellow = 0, 1
    add_office(state, blue, usa)
    add_office(state, yellow, usa)
    s["price"][:] = 1
    b = buyers_of(ex["region"])
    for k in range(ex["goods_sold"]["blue"]):
        s["buyer_owner"][b[k]] = blue
    s["buyer_owner"][b[3]] = yellow
    sr.income(s, tab(rules), log)
    assert s["control_vp"][blue] == ex["expected_control_vp"] == 4
    assert s["control_vp"][yellow] == 0
    assert s["sales_vp"][blue] == 3 and s["sales_vp"][yellow] == 1
    assert s["vp"][blue] == 7


def test_patent_example():
    ex = EX["patent_example"]
    rules, state, log, _legal = new(3, seed=5)
    s = state[0]
    g4 = TECH[ex["technology"]]
    T = tab(rules)
    assert sr.tech_cost(s, T, 0, g4) == sr.tech_cost(s, T, 1, g4) == ex["cost_before_patent_taken"]
    s["progress"][0, g4] = ex["cost_before_patent_taken"]
    s["phase"] = 5
    sr.complete_research(s, T, 0, log)
    assert s["researched"][0, g4] == 1 and s["patent_owner"][g4] == 0 and s["n_patents"][0] == 1
    assert s["progress"][0, g4] == 0
    assert sr.tech_cost(s, T, 1, g4) == sr.tech_cost(s, T, 2, g4) == ex["cost_after_patent_taken"]
    # the patent cannot be taken by anyone else
    s["progress"][1, g4] = 5
    sr.complete_research(s, T, 1, log)
    assert s["researched"][1, g4] == 1 and s["patent_owner"][g4] == 0 and s["n_patents"][1] == 0
    sr.final_scoring(s, T, log)
    assert s["patent_vp"][0] == ex["patent_vp"] == 6 and s["patent_vp"][1] == 0
