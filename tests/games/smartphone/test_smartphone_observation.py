"""Smartphone Inc.'s observation helpers against the kernels: the map, the arrangements' yields, plan previews
(price, goods, symbols, priority) and the hidden view."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simlab.core.game import get_game
from simlab.games.smartphone.arrangements import arrangements
from simlab.games.smartphone.data import SYMBOLS, TECHNOLOGIES
from simlab.games.smartphone.game import PlanPreview, SmartphoneObservation, priority_before
from simlab.games.smartphone.rules import A_ARR, A_DONE, A_PICK, A_PLACE
from simlab.games.smartphone.state import STREAM_SEAT0

GAME = get_game("smartphone")


def _random_game(n_players: int, seed: int, options=None, planning_bias: float = 0.0):
    """Every decision of a random game: (rules, observation on a copy of the state, action, state after, log).

    ``planning_bias``: the chance of laying an upgrade rather than a uniform pick while placing (so that plans
    with upgrades are common)."""
    rules = GAME.ruleset(n_players, options)
    state, legal = GAME.new_game(rules, seed, GAME.new_log(0))
    rng = np.random.default_rng(seed)
    while len(legal):
        before = state.copy()
        obs = GAME.observation(rules, before, legal.tolist())
        places = [a for a in legal.tolist() if A_PLACE <= a < A_PICK]
        if places and rng.random() < planning_bias:
            action = int(places[rng.integers(len(places))])
        else:
            action = int(legal[rng.integers(len(legal))])
        log = GAME.new_log(256)
        legal = GAME.step(rules, state, action, log)
        yield rules, obs, action, state.copy(), log


def test_arrangement_yields_are_the_enumerated_arrangements():
    rules = GAME.ruleset(2)
    state, legal = GAME.new_game(rules, 3, GAME.new_log(0))
    obs = GAME.observation(rules, state, legal.tolist())
    aset = arrangements(rules.data).arrangements
    assert len(aset) == len(obs.legal)
    for a in aset:
        y = obs.arrangement(a.index)
        assert (y.goods, y.price_down, y.price_up, y.upgrade, y.research, y.logistics) == tuple(
            a.count(s) for s in ("goods", "price_down", "price_up", "upgrade", "research", "logistics"))
        assert y.hidden == a.hidden and y.price_change == y.price_up - y.price_down
    groups = obs.arrangement_groups()
    assert sorted(a for acts in groups.values() for a in acts) == obs.legal
    for (goods, price, research, logistics, upgrade), acts in groups.items():
        for a in acts:
            y = obs.arrangement(a - A_ARR)
            assert (y.goods + y.hidden, y.price_change, y.research, y.logistics, y.upgrade > 0) == (
                goods, price, research, logistics, upgrade)


def test_map_regions_and_buyers_follow_data_and_state():
    for rules, obs, _, _, _ in _random_game(4, 8):
        rec = obs.state
        T = rules.T
        buyers = obs.buyers()
        assert len(buyers) == len(rules.data.buyer_array)
        for b in buyers:
            reg, pos, kind, cap, tech = (int(x) for x in rules.data.buyer_array[b.row])
            assert (b.region_index, b.index, b.kind) == (reg, pos, ("red", "purple")[kind])
            assert b.region == rules.data.regions[reg].id
            assert b.cap == (cap if kind == 0 else None) and b.technology == (TECHNOLOGIES[tech] if kind else None)
            assert b.owner == int(rec["buyer_owner"][b.row])
        for r in obs.regions():
            assert r.id == rules.data.regions[r.index].id
            assert r.offices == [int(x) for x in rec["office"][r.index][: int(rec["office_n"][r.index])]]
            assert r.places == int(rec["places"][r.index])
            assert [b.row for b in r.buyers] == [b.row for b in buyers if b.region_index == r.index]
            k = min(int(rec["office_n"][r.index]), int(T.region[r.index, 4]) - 1)
            assert r.entry_cost == int(T.place_cost[r.index, k])
            assert (r.retailer is None) == (int(rec["retailer"][r.index]) < 0)


OPTION_SETS = [
    None,
    {"component_limits": True, "upgrades_taken_per_round": "one_per_symbol"},
    {"symbol_effects_include_upgrades": False, "technology_sides": "back"},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "limits", "back"])
@pytest.mark.parametrize("n_players", [2, 5])
def test_plan_preview_is_what_phases_2_and_3_give(n_players, options):
    """Each seat's preview of its last planning action gives the price and goods phases 2 and 3 then set, the
    active symbols the plan event logs, and a priority key the kernel's phase-4 order respects."""
    checked = 0
    for seed in range(2):
        last: dict[int, PlanPreview] = {}
        for _, obs, action, after, log in _random_game(n_players, seed, options, planning_bias=0.8):
            if obs.phase == 1:
                last[obs.seat] = obs.plan_preview(action)
            rec = after[0]
            events = GAME.trace_events(obs.rules, log)
            for e in events:
                if e["event"] == "plan":
                    pv = last[e["seat"]]
                    assert pv.arrangement == e["arrangement"]
                    assert pv.symbols == {k: e["active"][k] for k in pv.symbols}
            if obs.phase == 1 and int(rec["phase"]) != 1:  # this step closed the planning phase
                assert sorted(last) == list(range(n_players))
                for p, pv in last.items():
                    assert pv.price == int(rec["price"][p])
                    assert pv.goods == int(rec["produced"][p])
                    assert pv.key == (int(rec["price"][p]), int(rec["vp"][p]), int(rec["produced"][p]),
                                      int(rec["n_techs"][p]), int(rec["n_patents"][p]))
                order = [int(x) for x in rec["order"][:n_players]]
                for a, b in itertools.pairwise(order):
                    assert last[a].before(last[b].key) in (True, None)
                    assert last[b].before(last[a].key) in (False, None)
                checked += 1
                last.clear()
    assert checked == 2 * 5


def test_plan_preview_of_done_and_none_is_the_plan_laid():
    for _, obs, _action, _, _ in _random_game(3, 4, planning_bias=0.5):
        if obs.decision == "place_upgrade":
            assert obs.plan_preview(A_DONE) == obs.plan_preview()
            place = next(a for a in obs.legal if a != A_DONE)
            assert obs.plan_preview(place).unused_upgrades == obs.plan_preview().unused_upgrades - 1
            return
        if obs.phase != 1:
            with pytest.raises(ValueError):
                obs.plan_preview()
    raise AssertionError("no upgrade placement met")


def test_priority_keys_and_comparisons():
    assert priority_before((3, 9, 9, 0, 0), (4, 0, 0, 5, 5)) is True  # lower price first
    assert priority_before((4, 2, 9, 0, 0), (4, 3, 0, 0, 0)) is True  # then lower VP
    assert priority_before((4, 2, 5, 0, 0), (4, 2, 4, 0, 0)) is False  # then fewer goods
    assert priority_before((4, 2, 5, 2, 0), (4, 2, 5, 1, 3)) is True  # then more technologies
    assert priority_before((4, 2, 5, 1, 1), (4, 2, 5, 1, 0)) is True  # then more patents
    assert priority_before((4, 2, 5, 1, 1), (4, 2, 5, 1, 1)) is None  # chance decides
    assert priority_before((4, 2, 5, 1, 1), (None, 2, None, 1, 1)) is None  # unknown price
    for _, obs, _, _, _ in _random_game(3, 6):
        rec = obs.state
        for q in range(3):
            key = obs.priority_key(q)
            if obs.phase == 1:
                assert key[0] is None and key[2] is None
            else:
                assert key == (int(rec["price"][q]), int(rec["vp"][q]), int(rec["produced"][q]),
                               int(rec["n_techs"][q]), int(rec["n_patents"][q]))


def test_hidden_view_blanks_other_plans_in_phase_1_sorts_the_deck_and_keeps_only_the_own_stream():
    plan_fields = ("plan_arr", "plan_n", "pl_low", "pl_top", "vis_tab", "vis_upg")
    for n_players in (2, 4):
        rules = GAME.ruleset(n_players)
        state, legal = GAME.new_game(rules, 12, GAME.new_log(0))
        rng = np.random.default_rng(0)
        while len(legal):
            obs: SmartphoneObservation = GAME.observation(rules, state, legal.tolist())
            p, seen, true = obs.seat, obs.state, state[0]
            n = int(true["deck_n"])
            assert seen["deck"][:n].tolist() == sorted(true["deck"][:n].tolist())
            assert [i for i, k in enumerate(seen["rng_key"]) if k] == ([STREAM_SEAT0 + p] if true["rng_key"][
                STREAM_SEAT0 + p] else [])
            assert not seen["rng_ctr"].any()
            for q in range(n_players):
                if obs.phase == 1 and q != p:  # plans are secret while they are being made
                    assert int(seen["plan_arr"][q]) == -1 and int(seen["plan_n"][q]) == 0
                    assert not seen["vis_tab"][q].any() and not seen["vis_upg"][q].any()
                    assert (seen["pl_low"][q] == -1).all() and (seen["pl_top"][q] == -1).all()
                else:
                    for f in plan_fields:
                        assert np.array_equal(seen[f][q], true[f][q]), f
            for f in true.dtype.names:
                if f not in (*plan_fields, "deck", "rng_key", "rng_ctr"):
                    assert np.array_equal(seen[f], true[f]), f
            legal = GAME.step(rules, state, int(legal[rng.integers(len(legal))]), GAME.new_log(0))


def test_symbol_names_cover_the_preview():
    rules = GAME.ruleset(2)
    state, legal = GAME.new_game(rules, 3, GAME.new_log(0))
    obs = GAME.observation(rules, state, legal.tolist())
    assert set(obs.plan_preview(legal[0]).symbols) == set(SYMBOLS) - {"blank"}
