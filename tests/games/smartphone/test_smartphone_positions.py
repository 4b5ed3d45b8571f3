"""Hand-made Smartphone Inc. positions, phase by phase, through the real kernels (NOTES sections 1-2)."""

from __future__ import annotations

import pytest
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
    legal_now,
    new,
    plan_all,
    play_until,
    put_retailer,
    remove_retailers,
    research_tech,
    ruleset,
    set_syms,
    tab,
)

from simlab.games.smartphone import rules as sr
from simlab.games.smartphone.arrangements import locate

PROD_ARR = locate(DATA, ("B", 1), ("A", 1), 0, 0, 1)  # 4 hidden cells, 3 goods symbols (examples.toml)
PRICE_ARR = locate(DATA, ("A", 2), ("B", 1), 0, 1, 0)  # two -$: price 3
U_GG = next(i for i, u in enumerate(DATA.upgrades) if u.halves == ("goods", "goods"))
U_MIXED = next(i for i, u in enumerate(DATA.upgrades) if u.kind == "regular" and u.halves[0] != u.halves[1])
G4, GPS, WIFI, GAMEPAD, LIION, NFC = (TECH[t] for t in ("4G", "GPS", "WIFI", "GAMEPAD", "LIION", "NFC"))


def _sides(**back: bool) -> str:
    """A technology_side_list string: 'B' for the named technologies, 'F' elsewhere."""
    names = [t.id for t in DATA.technologies]
    return "".join("B" if back.get(t, False) else "F" for t in names)


def _list_opts(**back: bool) -> dict:
    return {"technology_sides": "list", "technology_side_list": _sides(**back)}


def _fresh(n=2, seed=7, **opts):
    """A fresh game with every seat's hand emptied."""
    rules, state, log, legal = new(n, seed=seed, **opts)
    state[0]["hand_n"][:] = 0
    return rules, state, log, legal


# ---------------------------------------------------------------- phase 1: planning (S11-S14, S23-S28)


def test_every_arrangement_is_legal_and_sorted():
    rules, state, _log, legal = new(3, seed=1)
    n_arr = tab(rules)["arr_hidden"].shape[0]
    assert state[0]["pending"] == sr.D_ARRANGE
    assert legal.tolist() == [sr.A_ARR + i for i in range(n_arr)]
    assert n_arr > 0


def _expected_places(rules, state, p, hand_left, overhang_ok):
    s = state[0]
    T = tab(rules)
    arr = int(s["plan_arr"][p])
    placed = {(int(T["slots"][arr, int(s["plan_slot"][p, i]), 0]), int(T["slots"][arr, int(s["plan_slot"][p, i]), 1]))
              for i in range(int(s["plan_n"][p]))}
    out = {sr.A_DONE}
    for h in hand_left:
        u = int(s["hand"][p, h])
        for k in range(int(T["n_slots"][arr])):
            ab = (int(T["slots"][arr, k, 0]), int(T["slots"][arr, k, 1]))
            if ab in placed:
                continue  # S25: never exactly on another upgrade
            if T["slots"][arr, k, 3] and not overhang_ok:
                continue
            for o in (0, 1):
                if o == 1 and T["upgrades"][u, 2] == T["upgrades"][u, 3]:
                    continue
                out.add(sr.encode_place(h, k, o))
    return out


@pytest.mark.parametrize("with_4g", [False, True])
def test_upgrade_placement_legality(with_4g):
    rules, state, log, legal = new(2, seed=3)
    s = state[0]
    s["hand"][0, 1] = U_MIXED
    s["hand_n"][0] = 2
    if with_4g:
        research_tech(state, 0, "4G")  # face: one overhanging half per round
    legal = do(rules, state, log, sr.A_ARR + PROD_ARR)
    assert s["pending"] == sr.D_PLACE
    assert set(legal.tolist()) == _expected_places(rules, state, 0, [0, 1], with_4g)
    T = tab(rules)
    over = [a for a in legal.tolist() if a != sr.A_DONE and T["slots"][PROD_ARR, ((a - sr.A_PLACE) // 2) % 32, 3]]
    assert bool(over) == with_4g
    # place the starting upgrade (on an overhanging slot when allowed)
    a = over[0] if with_4g else int(legal[1])
    legal = do(rules, state, log, a)
    assert s["plan_n"][0] == 1
    assert s["overhang_used"][0] == int(with_4g)
    # S25 for the second upgrade; the 4G overhang is used up for the round
    assert set(legal.tolist()) == _expected_places(rules, state, 0, [1], False)
    k = ((a - sr.A_PLACE) // 2) % 32
    for o in (0, 1):
        assert sr.encode_place(1, k, o) not in set(legal.tolist())


def test_placed_upgrade_symbols_become_active():
    rules, state, log, legal = new(2, seed=3)
    s = state[0]
    s["hand"][0, 0] = U_GG
    legal = do(rules, state, log, sr.A_ARR + PROD_ARR)
    before = s["vis_tab"][0].copy()
    T = tab(rules)
    # a TOP slot on two visible upper-tablet positions showing no goods symbol
    for a in legal.tolist()[1:]:
        k = ((a - sr.A_PLACE) // 2) % 32
        if T["slots"][PROD_ARR, k, 2] == sr.TOP:
            break
    do(rules, state, log, a)
    assert s["vis_upg"][0, sr.GOODS] == 2
    assert int(s["vis_tab"][0].sum()) == int(before.sum()) - 2  # two tablet cells covered


# ---------------------------------------------------------------- phase 2: pricing (S15, O8)


@pytest.mark.parametrize(("track", "expected"), [((1, 10), 3), ((4, 10), 4), ((1, 2), 2)])
def test_price_clamped_to_track(track, expected):
    rules, state, log, legal = _fresh(price_track=list(track))
    plan_all(rules, state, log, legal, {0: PRICE_ARR})
    assert state[0]["price"][0] == expected


def test_nfc_back_adds_one_in_phase_2():
    rules, state, log, legal = _fresh(**_list_opts(NFC=True))
    research_tech(state, 0, "NFC")
    plan_all(rules, state, log, legal, {0: PRICE_ARR, 1: PRICE_ARR})
    assert state[0]["price"].tolist()[:2] == [4, 3]


# ---------------------------------------------------------------- phase 3: production (S17, O2, O26)


def _produce(rules, state, log, legal, arr=PROD_ARR):
    plan_all(rules, state, log, legal, {0: arr})
    return int(state[0]["produced"][0])


def test_production_sources():
    rules, state, log, legal = _fresh()
    s = state[0]
    s["tokens"][0] = 2
    s["hand"][0, :3] = [U_GG, U_GG, U_MIXED]
    s["hand_n"][0] = 3  # all three kept unused
    assert _produce(rules, state, log, legal) == 7 + 2 + 3


def test_gps_face_doubles_goods_symbols():
    rules, state, log, legal = _fresh()
    research_tech(state, 0, "GPS")
    assert _produce(rules, state, log, legal) == 4 + 2 * 3


def test_gps_face_counts_upgrade_goods_symbols_too():
    rules, state, log, legal = new(2, seed=3)
    s = state[0]
    s["hand"][0, 0] = U_GG
    research_tech(state, 0, "GPS")

    def place_top(st, lg):
        q = st[0]
        if q["pending"] == sr.D_ARRANGE:
            return sr.A_ARR + PROD_ARR
        if q["actor"] == 0 and q["pending"] == sr.D_PLACE and q["plan_n"][0] == 0:
            return int(lg[1])
        return sr.A_DONE

    play_until(rules, state, log, legal, lambda q: q["phase"] != 1, place_top)
    goods_syms = int(s["vis_tab"][0, sr.GOODS] + s["vis_upg"][0, sr.GOODS])
    ev = [e for e in events(rules, log, sr.EV_PRODUCE) if e[3] == 0][-1]
    assert ev[5] == 2 * goods_syms
    assert s["produced"][0] == 2 * goods_syms + 4


def test_liion_back_goods_per_two_techs():
    rules, state, log, legal = _fresh(**_list_opts(LIION=True))
    for t in ("LIION", "GPS", "WIFI"):
        research_tech(state, 0, t)  # 3 technologies: +1 (GPS face also doubles)
    assert _produce(rules, state, log, legal) == 4 + 6 + 1


def test_component_limit_caps_goods():
    rules, state, log, legal = _fresh(component_limits=True)
    state[0]["goods"][0] = 15  # 18 goods markers
    assert _produce(rules, state, log, legal) == 3
    assert state[0]["goods"][0] == 18


# ---------------------------------------------------------------- phase 4: upgrade (S20-S22, O4-O6)


def _phase4(n_upgrade_syms: int, **opts):
    rules, state, log, legal = _fresh(**opts)
    set_syms(state, 0, upgrade=n_upgrade_syms)
    set_syms(state, 1, upgrade=0)
    legal = enter_phase(rules, state, log, 4)
    return rules, state, log, legal


def test_upgrade_symbol_takes_one_upgrade():
    rules, state, log, legal = _phase4(2)
    s = state[0]
    assert s["pending"] == sr.D_PICK and s["actor"] == 0
    assert legal.tolist() == [sr.A_PICK + j for j in range(5)]
    u = int(s["display"][2])
    do(rules, state, log, sr.A_PICK + 2)
    assert s["hand"][0, 0] == u and s["hand_n"][0] == 1 and s["hand_round"][0, 0] == 1
    assert [(int(e[3]), int(e[4]), int(e[5])) for e in events(rules, log, sr.EV_PICK)] == [(0, u, 2)]
    # one upgrade only (O4), then seat 1 without a symbol gets a token
    assert s["tokens"].tolist()[:2] == [0, 1]


def test_one_per_symbol_option():
    rules, state, log, _legal = _phase4(2, upgrades_taken_per_round="one_per_symbol")
    s = state[0]
    do(rules, state, log, sr.A_PICK + 0)
    assert s["pending"] == sr.D_PICK and s["actor"] == 0
    assert legal_now(rules, state).tolist() == [sr.A_PICK + j for j in range(1, 5)]
    do(rules, state, log, sr.A_PICK + 4)
    assert s["hand_n"][0] == 2 and s["upgrades_taken"][0] == 2


@pytest.mark.parametrize(("option", "tokens"), [("goods_token", 1), ("nothing", 0)])
def test_empty_display(option, tokens):
    rules, state, log, _legal = _fresh(empty_display=option)
    state[0]["display"][:] = -1
    set_syms(state, 0, upgrade=1)
    enter_phase(rules, state, log, 4)
    assert state[0]["tokens"][0] == tokens and state[0]["hand_n"][0] == 0


def test_limited_goods_tokens():
    rules, state, log, _legal = _fresh(goods_token_supply="limited")
    s = state[0]
    assert s["tokens_left"] == 12
    s["tokens_left"] = 1
    set_syms(state, 0)
    set_syms(state, 1)
    enter_phase(rules, state, log, 4)
    assert s["tokens"].tolist()[:2] == [1, 0] and s["tokens_left"] == 0


def test_unlimited_goods_tokens():
    rules, state, log, _legal = _fresh()
    state[0]["tokens_left"] = 0
    enter_phase(rules, state, log, 4)
    assert state[0]["tokens"].tolist()[:2] == [1, 1]


# ---------------------------------------------------------------- phase 5: research (S29-S36, O13)


def test_cost_one_cheaper_after_patent_and_gamepad_discount():
    rules, state, _log, _legal = _fresh()
    s = state[0]
    T = tab(rules)
    for t in range(6):
        base, patent = int(T["tech"][t, 1]), int(T["tech"][t, 2])
        assert patent == base + 1
        assert sr.tech_cost(s, T, 0, t) == patent
    s["patent_owner"][G4] = 1
    assert sr.tech_cost(s, T, 0, G4) == int(T["tech"][G4, 1])
    research_tech(state, 0, "GAMEPAD")  # face: 1 less on everything
    assert sr.tech_cost(s, T, 0, G4) == int(T["tech"][G4, 1]) - 1
    assert sr.tech_cost(s, T, 0, GPS) == int(T["tech"][GPS, 2]) - 1
    assert sr.tech_cost(s, T, 1, GPS) == int(T["tech"][GPS, 2])


def test_gamepad_back_gives_no_discount():
    rules, state, _log, _legal = _fresh(**_list_opts(GAMEPAD=True))
    research_tech(state, 0, "GAMEPAD")
    assert sr.tech_cost(state[0], tab(rules), 0, GPS) == int(tab(rules)["tech"][GPS, 2])


def test_research_markers_and_loss():
    rules, state, log, legal = _fresh()
    s = state[0]
    set_syms(state, 0, research=3)
    set_syms(state, 1)
    legal = enter_phase(rules, state, log, 5)
    assert s["pending"] == sr.D_RESEARCH and s["markers"] == 3
    assert legal.tolist() == [sr.A_DONE] + [sr.A_RESEARCH + t for t in range(6)]
    do(rules, state, log, sr.A_RESEARCH + GPS)
    do(rules, state, log, sr.A_DONE)
    assert s["progress"][0, GPS] == 1
    lost = [e for e in events(rules, log, sr.EV_MARKERS_LOST) if e[3] == 0]
    assert [int(e[4]) for e in lost] == [2]
    assert s["round"] == 2  # the rest of the round ran without decisions


def test_no_progress_past_cost():
    rules, state, log, legal = _fresh()
    s = state[0]
    s["researched"][0, :] = 1
    s["researched"][0, GAMEPAD] = 0
    s["progress"][0, GAMEPAD] = 3  # cost 4 while the patent is on it
    set_syms(state, 0, research=3)
    legal = enter_phase(rules, state, log, 5)
    assert legal.tolist() == [sr.A_DONE, sr.A_RESEARCH + GAMEPAD]
    do(rules, state, log, sr.A_RESEARCH + GAMEPAD)
    assert s["researched"][0, GAMEPAD] == 1 and s["patent_owner"][GAMEPAD] == 0
    # nothing left to research: the remaining markers are lost, turn over
    assert s["actor"] != 0 or s["phase"] != 5


def test_simultaneous_completion_in_priority_order():
    """S35: the first in priority takes the patent; the other completes at the start of its own turn."""
    rules, state, log, _legal = _fresh(n=3)
    s = state[0]
    s["progress"][0, G4] = 5
    s["progress"][2, G4] = 5  # 5 >= 5 once the patent is gone
    set_syms(state, 0, research=1)
    set_syms(state, 1)
    set_syms(state, 2)
    enter_phase(rules, state, log, 5, order=[0, 2, 1])
    do(rules, state, log, sr.A_RESEARCH + G4)
    assert s["patent_owner"][G4] == 0 and s["researched"][0, G4] == 1
    assert s["researched"][2, G4] == 1 and s["progress"][2, G4] == 0
    done = [(int(e[3]), int(e[5])) for e in events(rules, log, sr.EV_RESEARCHED)]
    assert done == [(0, 1), (2, 0)]


def test_completion_waits_for_own_turn_in_a_later_phase_5():
    rules, state, log, _legal = _fresh(n=3)
    s = state[0]
    s["progress"][0, G4] = 5
    s["progress"][2, G4] = 5
    set_syms(state, 0, research=1)
    set_syms(state, 1)
    set_syms(state, 2)
    enter_phase(rules, state, log, 5, order=[2, 1, 0])  # seat 2's turn is over before seat 0 completes
    do(rules, state, log, sr.A_RESEARCH + G4)
    assert s["researched"][0, G4] == 1
    assert s["researched"][2, G4] == 0 and s["progress"][2, G4] == 5
    assert s["round"] == 2  # the rest of the round ran without decisions
    enter_phase(rules, state, log, 5, order=[2, 1, 0])  # the next phase 5
    assert s["researched"][2, G4] == 1 and s["progress"][2, G4] == 0 and s["n_patents"][2] == 0


def test_surplus_returned_on_completion():
    """O13: a cost drop leaves more markers than needed; all go back on completion."""
    rules, state, log, _legal = _fresh(component_limits=True)
    s = state[0]
    T = tab(rules)
    s["progress"][1, GPS] = 4  # cost 5 with the patent on it
    s["patent_owner"][GPS] = 0
    research_tech(state, 1, "GAMEPAD")  # cost now 4 - 1 = 3 < 4
    before = sr.progress_supply(s, T, 1)
    set_syms(state, 0)
    set_syms(state, 1)
    enter_phase(rules, state, log, 5, order=[1, 0])
    assert s["researched"][1, GPS] == 1 and s["progress"][1, GPS] == 0
    assert sr.progress_supply(s, T, 1) == before + 4


# ---------------------------------------------------------------- phase 6: logistics (S37-S42, O11-O14)


def _phase6(n=2, logistics=0, offices=(("USA", 0),), **opts):
    """Offices only where given (no retailers), seat 0 with ``logistics`` trucks, others with nothing."""
    rules, state, log, _legal = _fresh(n=n, **opts)
    clear_offices(state)
    remove_retailers(state, rules)
    for region, p in offices:
        add_office(state, p, REGION[region])
    for p in range(n):
        set_syms(state, p)
    set_syms(state, 0, logistics=logistics)
    return rules, state, log


def _targets(legal, base) -> set[str]:
    return {DATA.regions[a - base].id for a in legal.tolist() if base <= a < base + 16}


def test_logistics_targets_and_leftmost_place():
    rules, state, log = _phase6(logistics=3, offices=(("CANADA", 0), ("USA", 1)))
    s = state[0]
    usa = REGION["USA"]
    legal = enter_phase(rules, state, log, 6)
    assert s["pending"] == sr.D_LOGISTICS and s["markers"] == 3
    assert legal[0] == sr.A_DONE
    assert _targets(legal, sr.A_LOGISTICS) == {r.id for r in DATA.regions} - {"CANADA"}  # S41: no second office
    for _ in range(3):
        do(rules, state, log, sr.A_LOGISTICS + usa)
    assert s["office"][usa, :3].tolist() == [1, 0, -1] and s["own_offices"][0, usa] == 1
    assert s["reg_progress"][0, usa] == 0
    offices = [(int(e[3]), int(e[4]), int(e[5]), int(e[6])) for e in events(rules, log, sr.EV_OFFICE)]
    assert offices == [(0, usa, 1, sr.OFF_LOGISTICS)]


def test_region_cost_is_that_of_the_leftmost_free_place():
    rules, state, _log = _phase6()
    s = state[0]
    T = tab(rules)
    for r, region in enumerate(DATA.regions):
        k = int(s["office_n"][r])
        assert sr.region_cost(s, T, r) == region.entry_costs[k]


def test_full_region_is_closed():
    rules, state, log = _phase6(n=5, logistics=2, offices=(("CANADA", 1), ("CANADA", 2), ("CANADA", 3)))
    legal = enter_phase(rules, state, log, 6)
    assert "CANADA" not in _targets(legal, sr.A_LOGISTICS)
    assert "CARIBBEAN" in _targets(legal, sr.A_LOGISTICS)


@pytest.mark.parametrize("persists", [True, False])
def test_logistics_progress_persists_option(persists):
    rules, state, log = _phase6(logistics=2, logistics_progress_persists=persists)
    s = state[0]
    eu = REGION["EUROPE"]  # cost 4
    enter_phase(rules, state, log, 6)
    do(rules, state, log, sr.A_LOGISTICS + eu)
    do(rules, state, log, sr.A_LOGISTICS + eu)
    assert s["actor"] != 0 or s["phase"] != 6
    assert s["reg_progress"][0, eu] == (2 if persists else 0)


def test_unplaced_logistics_markers_are_lost():
    rules, state, log = _phase6(logistics=3)
    enter_phase(rules, state, log, 6)
    do(rules, state, log, sr.A_LOGISTICS + REGION["EUROPE"])
    do(rules, state, log, sr.A_DONE)
    lost = [int(e[4]) for e in events(rules, log, sr.EV_MARKERS_LOST) if e[3] == 0 and e[5] == 1]
    assert lost == [2]


def test_adjacency_option():
    rules, state, log = _phase6(logistics=1, offices=(("USA", 0),), logistics_adjacency=True)
    legal = enter_phase(rules, state, log, 6)
    adj = tab(rules)["adjacency"]
    usa = REGION["USA"]
    expected = {DATA.regions[r].id for r in range(len(DATA.regions)) if adj[usa, r] and r != usa}
    assert expected and _targets(legal, sr.A_LOGISTICS) == expected
    rules2, state2, log2 = _phase6(logistics=1, offices=(("USA", 0),))
    assert len(_targets(enter_phase(rules2, state2, log2, 6), sr.A_LOGISTICS)) == len(DATA.regions) - 1


# ---------------------------------------------------------------- the 12 technology effects (S54-S56)


def _research_in_phase5(tech: str, back: bool, n=2, **fields):
    """Seat 0 completes ``tech`` with its one gear in phase 5 (the chosen side up)."""
    rules, state, log, _legal = _fresh(n=n, **_list_opts(**{tech: back}))
    s = state[0]
    t = TECH[tech]
    s["progress"][0, t] = int(tab(rules)["tech"][t, 2]) - 1
    for k, v in fields.items():
        s[k][0] = v
    for p in range(n):
        set_syms(state, p)
    set_syms(state, 0, research=1)
    enter_phase(rules, state, log, 5)
    assert s["pending"] == sr.D_RESEARCH and s["actor"] == 0
    return rules, state, log


def test_gps_back_gains_5_goods_at_once():
    rules, state, log = _research_in_phase5("GPS", True, goods=2)
    s = state[0]
    do(rules, state, log, sr.A_RESEARCH + GPS)
    assert s["researched"][0, GPS] == 1
    assert [(int(e[4]), int(e[5])) for e in events(rules, log, sr.EV_GOODS) if e[3] == 0] == [(5, 0)]
    assert s["produced_total"][0] == 5


def test_gps_face_has_no_immediate_effect():
    rules, state, log = _research_in_phase5("GPS", False, goods=2)
    do(rules, state, log, sr.A_RESEARCH + GPS)
    assert not events(rules, log, sr.EV_GOODS)


def test_nfc_back_raises_price_at_once():
    rules, state, log = _research_in_phase5("NFC", True, price=4)
    s = state[0]
    do(rules, state, log, sr.A_RESEARCH + NFC)
    changes = [(int(e[4]), int(e[5])) for e in events(rules, log, sr.EV_PRICE_CHANGE) if e[3] == 0]
    assert changes == [(5, 0)]
    assert s["researched"][0, NFC] == 1


def test_wifi_face_second_office():
    rules, state, log = _phase6(n=3, offices=(("CANADA", 0), ("USA", 0), ("EUROPE", 0), ("CHINA", 1)))
    s = state[0]
    research_tech(state, 0, "WIFI")
    put_retailer(rules, state, "EUROPE", sr.BONUS_GOODS)
    s["office"][REGION["EUROPE"], 0] = 0  # seat 0's office sits on the retailer
    legal = enter_phase(rules, state, log, 6)
    assert s["pending"] == sr.D_WIFI
    assert _targets(legal, sr.A_WIFI) == {"CANADA", "USA"} and sr.A_DONE not in legal  # mandatory, O17
    do(rules, state, log, sr.A_WIFI + REGION["USA"])
    assert s["own_offices"][0, REGION["USA"]] == 2
    assert s["office"][REGION["USA"], :2].tolist() == [0, 0]
    legal = enter_phase(rules, state, log, 6)  # a later phase 6: never a third office
    assert _targets(legal, sr.A_WIFI) == {"CANADA"}


@pytest.mark.parametrize(("back", "kept"), [(True, 5), (False, 0)])
def test_wifi_back_keeps_unsold_goods(back, kept):
    rules, state, log = _phase6(offices=(), **_list_opts(WIFI=back))
    s = state[0]
    research_tech(state, 0, "WIFI")
    s["goods"][0] = 5  # no office: nothing can be sold
    enter_phase(rules, state, log, 7)
    assert s["goods"][0] == kept and s["lost"][0] == 5 - kept


def test_gamepad_back_small_region_office():
    for on_retailer in (True, False):
        rules, state, log = _phase6(offices=(("CANADA", 0), ("RSA", 1)), gamepad_office_on_retailer=on_retailer,
                                    **_list_opts(GAMEPAD=True))
        s = state[0]
        research_tech(state, 0, "GAMEPAD")
        put_retailer(rules, state, "CARIBBEAN", sr.BONUS_GOODS)
        legal = enter_phase(rules, state, log, 6)
        assert s["pending"] == sr.D_GAMEPAD
        small = {r.id for r in DATA.regions if r.size == "small"} - {"CANADA"}
        if not on_retailer:
            small -= {"CARIBBEAN"}
        assert _targets(legal, sr.A_GAMEPAD) == small
    rules, state, log = _phase6(offices=(("CANADA", 0),))  # face up: no free office
    research_tech(state, 0, "GAMEPAD")
    enter_phase(rules, state, log, 6)
    assert state[0]["pending"] != sr.D_GAMEPAD or state[0]["actor"] != 0


def _wifi_face_gamepad_back(offices):
    """Seat 0 with WI-FI face and GAMEPAD back in phase 6, offices where given."""
    rules, state, log = _phase6(offices=offices, **_list_opts(GAMEPAD=True))
    research_tech(state, 0, "WIFI")
    research_tech(state, 0, "GAMEPAD")
    return rules, state, log


def test_gamepad_office_opens_the_only_wifi_target():
    """O17: the WI-FI office is mandatory; a GAMEPAD office that opens its only target must not forfeit it."""
    usa, canada = REGION["USA"], REGION["CANADA"]
    rules, state, log = _wifi_face_gamepad_back((("USA", 0), ("USA", 0)))  # two in USA: no WI-FI target
    s = state[0]
    legal = enter_phase(rules, state, log, 6)
    assert s["actor"] == 0 and s["pending"] == sr.D_GAMEPAD
    assert not _targets(legal, sr.A_WIFI)
    legal = do(rules, state, log, sr.A_GAMEPAD + canada)
    assert s["actor"] == 0 and s["pending"] == sr.D_WIFI
    assert _targets(legal, sr.A_WIFI) == {"CANADA"} and sr.A_DONE not in legal
    do(rules, state, log, sr.A_WIFI + canada)
    assert s["own_offices"][0, canada] == 2 and s["own_offices"][0, usa] == 2
    offices = [(int(e[3]), int(e[4]), int(e[6])) for e in events(rules, log, sr.EV_OFFICE)]
    assert offices == [(0, canada, sr.OFF_GAMEPAD), (0, canada, sr.OFF_WIFI)]
    assert s["actor"] != 0 or s["phase"] != 6  # one WI-FI office per phase 6


def test_wifi_office_first_when_it_has_a_target():
    """With a WI-FI target before the GAMEPAD office, the order is unchanged and WI-FI is used once."""
    usa, canada = REGION["USA"], REGION["CANADA"]
    rules, state, log = _wifi_face_gamepad_back((("USA", 0),))
    s = state[0]
    legal = enter_phase(rules, state, log, 6)
    assert s["pending"] == sr.D_WIFI and _targets(legal, sr.A_WIFI) == {"USA"}
    legal = do(rules, state, log, sr.A_WIFI + usa)
    assert s["pending"] == sr.D_GAMEPAD
    do(rules, state, log, sr.A_GAMEPAD + canada)
    assert s["actor"] != 0 or s["phase"] != 6  # CANADA now qualifies, but WI-FI was used this phase
    assert s["own_offices"][0, canada] == 1 and s["own_offices"][0, usa] == 2


def test_gamepad_back_office_on_retailer_gets_its_bonus():
    rules, state, log = _phase6(offices=(("USA", 0),), **_list_opts(GAMEPAD=True))
    s = state[0]
    research_tech(state, 0, "GAMEPAD")
    tile, side = put_retailer(rules, state, "CARIBBEAN", sr.BONUS_GOODS)
    enter_phase(rules, state, log, 6)
    do(rules, state, log, sr.A_GAMEPAD + REGION["CARIBBEAN"])
    assert s["goods"][0] == int(tab(rules)["retailer"][tile, side, 4])


@pytest.mark.parametrize("liion", [False, True])
def test_liion_face_price_up_counts_as_logistics(liion):
    rules, state, log = _phase6()
    set_syms(state, 0, logistics=1, price_up=2)
    if liion:
        research_tech(state, 0, "LIION")
    enter_phase(rules, state, log, 6)
    assert state[0]["markers"] == (3 if liion else 1)


@pytest.mark.parametrize(("goods", "nfc_opt", "expected"), [(5, [1, 3], [1, 2, 3]), (2, [1, 3], [1, 2]),
                                                            (5, [0, 3], [0, 1, 2, 3]), (0, [1, 3], None)])
def test_nfc_face_direct_sale(goods, nfc_opt, expected):
    rules, state, log = _phase6(nfc_direct_sale=nfc_opt)
    s = state[0]
    research_tech(state, 0, "NFC")
    s["goods"][0] = goods
    s["price"][0] = 4
    legal = enter_phase(rules, state, log, 6)
    if expected is None:
        assert not (s["pending"] == sr.D_NFC and s["actor"] == 0)
        return
    assert s["pending"] == sr.D_NFC
    assert legal.tolist() == [sr.A_NFC + k for k in expected]
    k = expected[-1]
    do(rules, state, log, sr.A_NFC + k)
    assert s["nfc_vp"][0] == 4 * k and s["vp"][0] == 4 * k and s["sold"][0] == k


def test_4g_back_sells_one_good_outside_and_o10():
    rules, state, log = _phase6(offices=(("CANADA", 0), ("USA", 1)), **_list_opts(**{"4G": True}))
    s = state[0]
    research_tech(state, 0, "4G")
    s["goods"][0] = 3
    s["price"][:2] = 3
    legal = enter_phase(rules, state, log, 7)
    usa_b = buyers_of("USA")  # red 4, 5, 5, purple NFC, 4G
    sellable = {a - sr.A_SELL for a in legal.tolist() if a >= sr.A_SELL}
    assert set(usa_b[:3]) | {usa_b[4]} <= sellable and usa_b[3] not in sellable
    legal = do(rules, state, log, sr.A_SELL + usa_b[0])
    assert s["used_outside"][0] == 1
    assert not [a for a in legal.tolist() if a >= sr.A_SELL and a - sr.A_SELL in usa_b]
    # seat 1 (office in USA) sells nothing; at phase 8 seat 0 has 1 good in USA without an office (O10)
    sr.income(s, tab(rules), log)
    assert s["control_vp"][0] == 0 and s["sales_vp"][0] == 3


# ---------------------------------------------------------------- retailers (S8-S10, S42, S57-S59)


def _retailer_entry(bonus: int, region="CANADA", offices=(("USA", 0),), n=2, **opts):
    """Seat 0 enters ``region`` (covered by a retailer with ``bonus``) with exactly its cost in trucks."""
    rules, state, log = _phase6(n=n, offices=offices, **opts)
    tile, side = put_retailer(rules, state, region, bonus)
    r = REGION[region]
    cost = int(sr.region_cost(state[0], tab(rules), r))
    set_syms(state, 0, logistics=cost)
    enter_phase(rules, state, log, 6)
    legal = None
    for _ in range(cost):
        legal = do(rules, state, log, sr.A_LOGISTICS + r)
    assert state[0]["office"][r, 0] == 0
    return rules, state, log, legal, tile, side


def test_retailer_goods_bonus():
    rules, state, _log, _legal, tile, side = _retailer_entry(sr.BONUS_GOODS)
    assert state[0]["goods"][0] == int(tab(rules)["retailer"][tile, side, 4]) > 0


def test_retailer_none_bonus():
    _rules, state, _log, _legal, _tile, _side = _retailer_entry(sr.BONUS_NONE)
    s = state[0]
    assert s["goods"][0] == 0 and s["rb_kind"] == sr.BONUS_NONE
    assert s["round"] == 2  # nothing else to decide this round


def test_retailer_research_bonus_completes_only_next_phase_5():
    rules, state, log = _phase6()
    s = state[0]
    s["progress"][0, GAMEPAD] = 3  # cost 4
    tile, side = put_retailer(rules, state, "CANADA", sr.BONUS_RESEARCH)
    amount = int(tab(rules)["retailer"][tile, side, 4])
    set_syms(state, 0, logistics=2)
    enter_phase(rules, state, log, 6)
    do(rules, state, log, sr.A_LOGISTICS + REGION["CANADA"])
    legal = do(rules, state, log, sr.A_LOGISTICS + REGION["CANADA"])
    assert s["pending"] == sr.D_RB_RESEARCH
    assert legal.tolist() == [sr.A_RB_RESEARCH + t for t in range(6)]
    do(rules, state, log, sr.A_RB_RESEARCH + GAMEPAD)
    assert s["progress"][0, GAMEPAD] == 4 and s["researched"][0, GAMEPAD] == 0
    if amount == 1:
        assert s["rb_kind"] == sr.BONUS_NONE
    set_syms(state, 0)
    enter_phase(rules, state, log, 5)
    assert s["researched"][0, GAMEPAD] == 1 and s["patent_owner"][GAMEPAD] == 0


@pytest.mark.parametrize(("choice", "delta"), [(0, -1), (1, 1)])
def test_retailer_price_bonus(choice, delta):
    rules, state, log = _phase6()
    s = state[0]
    s["price"][0] = 5
    put_retailer(rules, state, "CANADA", sr.BONUS_PRICE)
    set_syms(state, 0, logistics=2)
    enter_phase(rules, state, log, 6)
    do(rules, state, log, sr.A_LOGISTICS + REGION["CANADA"])
    legal = do(rules, state, log, sr.A_LOGISTICS + REGION["CANADA"])
    assert s["pending"] == sr.D_RB_PRICE and legal.tolist() == [sr.A_RB_PRICE, sr.A_RB_PRICE + 1]
    do(rules, state, log, sr.A_RB_PRICE + choice)
    assert [int(e[4]) for e in events(rules, log, sr.EV_PRICE_CHANGE)] == [5 + delta]


def test_retailer_second_office_bonus():
    rules, state, log, legal, _tile, _side = _retailer_entry(
        sr.BONUS_SECOND, region="MIDEAST", offices=(("USA", 0), ("CANADA", 0), ("INDIA", 1)))
    s = state[0]
    assert s["pending"] == sr.D_RB_SECOND
    assert _targets(legal, sr.A_RB_SECOND) == {"USA", "CANADA"}
    do(rules, state, log, sr.A_RB_SECOND + REGION["USA"])
    assert s["own_offices"][0, REGION["USA"]] == 2


def test_retailer_move_office_bonus():
    rules, state, log = _phase6(n=3, offices=(("USA", 0), ("USA", 1), ("INDIA", 2)))
    s = state[0]
    put_retailer(rules, state, "MIDEAST", sr.BONUS_MOVE)
    _tile_g, _side_g = put_retailer(rules, state, "CANADA", sr.BONUS_GOODS)
    set_syms(state, 0, logistics=3)
    enter_phase(rules, state, log, 6)
    for _ in range(3):
        legal = do(rules, state, log, sr.A_LOGISTICS + REGION["MIDEAST"])
    assert s["pending"] == sr.D_MOVE_FROM
    assert _targets(legal, sr.A_MOVE_FROM) == {"USA", "MIDEAST"}
    legal = do(rules, state, log, sr.A_MOVE_FROM + REGION["USA"])
    assert s["pending"] == sr.D_MOVE_TO
    assert "USA" not in _targets(legal, sr.A_MOVE_TO) and "MIDEAST" not in _targets(legal, sr.A_MOVE_TO)
    assert "INDIA" in _targets(legal, sr.A_MOVE_TO) and "CANADA" in _targets(legal, sr.A_MOVE_TO)
    do(rules, state, log, sr.A_MOVE_TO + REGION["CANADA"])
    usa = REGION["USA"]
    assert s["office"][usa, :2].tolist() == [1, -1] and s["office_n"][usa] == 1  # shifted left
    assert s["office"][REGION["CANADA"], 0] == 0
    assert s["goods"][0] == 0  # moving onto a retailer gives no bonus (O27)
    assert s["offices_built"][0] == 1


def test_retailer_vp_at_game_end():
    rules, state, log = _phase6(n=3, offices=(("USA", 2),))
    s = state[0]
    tile, side = put_retailer(rules, state, "MIDEAST", sr.BONUS_NONE)
    add_office(state, 1, REGION["MIDEAST"])
    add_office(state, 0, REGION["MIDEAST"])
    sr.final_scoring(s, tab(rules), log)
    vp = tab(rules)["retailer_vp"][tile, side]
    assert s["retailer_vp"][:3].tolist() == [int(vp[1]), int(vp[0]), 0]
    assert vp[0] > vp[1]


def test_no_sales_and_no_control_under_a_retailer():
    rules, state, log = _phase6(offices=(("USA", 0),))
    s = state[0]
    put_retailer(rules, state, "CANADA", sr.BONUS_NONE)
    add_office(state, 0, REGION["CANADA"])
    s["goods"][0] = 3
    s["price"][0] = 1
    legal = enter_phase(rules, state, log, 7)
    sellable = {int(a - sr.A_SELL) for a in legal.tolist() if a >= sr.A_SELL}
    assert not sellable & set(buyers_of("CANADA"))
    assert sellable & set(buyers_of("USA"))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_retailer_placement_per_player_count(n):
    rows = DATA.retailer_placement[n]
    named = {r for rule, r in rows if rule == "region"}
    rule_medium = {rule for rule, _ in rows} - {"region"}
    seen_medium = set()
    T = tab(ruleset(n))
    for seed in range(1, 25):
        _rules, state, _log, _legal = new(n, seed=seed)
        s = state[0]
        covered = {DATA.regions[r].id for r in range(len(DATA.regions)) if s["retailer"][r] >= 0}
        starts = {DATA.regions[int(s["start_region"][p])].id for p in range(n)}
        free_medium = {r.id for r in DATA.regions if r.size == "medium" and r.id not in starts}
        if n == 5:
            assert covered == set()
        elif "all_unoccupied_medium" in rule_medium:
            assert covered == named | free_medium
        else:
            assert named <= covered and len(covered - named) == 1 and (covered - named) <= free_medium
            seen_medium |= covered - named
        tiles = [int(s["retailer"][r]) for r in range(len(DATA.regions)) if s["retailer"][r] >= 0]
        assert len(set(tiles)) == len(tiles)
        for r in range(len(DATA.regions)):
            if s["retailer"][r] >= 0:
                tile, side = int(s["retailer"][r]), int(s["retailer_side"][r])
                assert T["retailer"][tile, side, 0] == T["region"][r, sr.RG_SIZE]
                assert s["places"][r] == T["retailer"][tile, side, 2]
                assert s["office_n"][r] == 0
    if n == 4:
        assert len(seen_medium) > 1  # O22: random among the free medium regions


# ---------------------------------------------------------------- priority (S19, O25)


@pytest.mark.parametrize(("field", "values", "expected"), [
    ("price", [5, 3, 4, 6], [1, 2, 0, 3]),
    ("vp", [10, 2, 7, 2], None),
    ("produced", [4, 9, 1, 6], [2, 0, 3, 1]),
    ("n_techs", [1, 3, 0, 2], [1, 3, 0, 2]),
    ("n_patents", [0, 2, 1, 3], [3, 1, 2, 0]),
])
def test_priority_tie_breaks(field, values, expected):
    chain = ["price", "vp", "produced", "n_techs", "n_patents"]
    rules, state, _log, _legal = _fresh(n=4)
    s = state[0]
    for f in chain:
        s[f][:4] = 0
    s["price"][:4] = 5
    # every earlier key tied; later keys set against the expected order
    s[field][:4] = values
    for f in chain[chain.index(field) + 1:]:
        s[f][:4] = [3, 2, 1, 0]
    if field == "vp":
        s["produced"][:4] = [0, 5, 0, 1]  # tie between seats 1 and 3 goes by goods produced
        expected = [3, 1, 2, 0]  # seat 3 produced fewer goods than seat 1
    sr.compute_order(s, tab(rules))
    assert s["order"][:4].tolist() == expected


def test_priority_last_tie_break_is_chance():
    orders = set()
    for seed in range(12):
        rules, state, _log, _legal = _fresh(n=3, seed=seed)
        s = state[0]
        for f in ("vp", "produced", "n_techs", "n_patents"):
            s[f][:3] = 0
        s["price"][:3] = 5
        sr.compute_order(s, tab(rules))
        order = tuple(s["order"][:3].tolist())
        assert sorted(order) == [0, 1, 2]
        orders.add(order)
    assert len(orders) > 2


# ---------------------------------------------------------------- income: control (S50, O9, O10)


@pytest.mark.parametrize(("tie", "expected"), [("nobody", [0, 0, 0]), ("leftmost_office", [5, 0, 0]),
                                               ("all_tied", [5, 5, 0])])
def test_control_ties(tie, expected):
    rules, state, log = _phase6(n=3, offices=(("USA", 0), ("USA", 1), ("USA", 2)), control_tie=tie)
    s = state[0]
    b = buyers_of("USA")
    s["buyer_owner"][b[0]] = 1
    s["buyer_owner"][b[1]] = 1
    s["buyer_owner"][b[2]] = 0
    s["buyer_owner"][b[3]] = 0
    s["buyer_owner"][b[4]] = 2
    sr.income(s, tab(rules), log)
    assert s["control_vp"][:3].tolist() == expected  # the value above place 3 (USA: 2, 4, 5, 6)
    # the control events: seats 0 and 1 tie on 2 goods, so every event says 2 seats were tied (docs/trace.md)
    rows = events(rules, log, sr.EV_CONTROL)
    scorers = [p for p in range(3) if expected[p]]
    assert [int(r[3]) for r in rows] == (scorers or [-1])
    assert all(int(r[4]) == REGION["USA"] and int(r[6]) == 2 and int(r[7]) == 2 for r in rows)


def test_control_sole_winner_event():
    """S50: a sole winner's control event names it with tied = 0 in the trace (docs/trace.md)."""
    rules, state, log = _phase6(n=2, offices=(("USA", 0), ("USA", 1)), control_tie="all_tied")
    s = state[0]
    b = buyers_of("USA")
    s["buyer_owner"][b[0]] = 1
    s["buyer_owner"][b[1]] = 1
    s["buyer_owner"][b[2]] = 0
    sr.income(s, tab(rules), log)
    rows = events(rules, log, sr.EV_CONTROL)
    assert [(int(r[3]), int(r[7])) for r in rows] == [(1, 1)]
    assert s["control_vp"][:2].tolist() == [0, 4]


@pytest.mark.parametrize(("requires_office", "controller"), [(True, 0), (False, 1)])
def test_control_requires_office_o10(requires_office, controller):
    rules, state, log = _phase6(offices=(("USA", 0),), control_requires_office=requires_office)
    s = state[0]
    b = buyers_of("USA")
    s["buyer_owner"][b[0]] = 0
    s["buyer_owner"][b[1]] = 1
    s["buyer_owner"][b[2]] = 1
    sr.income(s, tab(rules), log)
    assert s["control_vp"][controller] == 2 and s["control_vp"][1 - controller] == 0


# ---------------------------------------------------------------- preparing the next round (S51)


def test_next_round_resets_prices_to_start():
    """S51 ("Все ■ в блоке «Цена» верните на стартовое значение 5"): after phase 8 every price marker goes
    back to 5, so phase 1 of the next round shows 5, not last round's price; goods on buyers go back too."""
    rules, state, log = _phase6(n=3, offices=(("USA", 0),))
    s = state[0]
    s["phase"] = 7
    s["round"] = 2
    s["price"][:3] = [2, 8, 6]
    b = buyers_of("USA")
    s["buyer_owner"][b[0]] = 0
    sr.next_phase(s, tab(rules), log)  # phase 8 income, then the next round
    assert s["round"] == 3 and s["phase"] == 1 and s["pending"] == sr.D_ARRANGE
    assert s["vp"][0] == 2 + 2  # income at round 2's price 2, then control of USA (the value above place 1)
    assert s["price"][:3].tolist() == [5, 5, 5]
    assert (s["buyer_owner"] == -1).all()


# ---------------------------------------------------------------- end of the game (S52-S53)


@pytest.mark.parametrize(("techs", "patents", "ranks", "winners"), [
    ([1, 2], [0, 0], [2, 1], [0, 1]),
    ([2, 2], [1, 0], [1, 2], [1, 0]),
    ([2, 2], [1, 1], [1, 1], [1, 1]),
])
def test_end_game_tie_breaks(techs, patents, ranks, winners):
    rules, state, log = _phase6(n=3)
    s = state[0]
    s["vp"][:3] = [20, 20, 5]
    s["n_techs"][:2] = techs
    s["n_patents"][:2] = patents
    sr.final_scoring(s, tab(rules), log)
    assert s["total"][:3].tolist() == [20, 20, 5]
    assert s["rank"][:2].tolist() == ranks and s["rank"][2] == 3
    assert s["winner"][:3].tolist() == [*winners, 0]
    assert s["over"] == 1


# ---------------------------------------------------------------- phase 7: sales (S43-S47, O24)


def _sales(price, techs=(), withhold=True, taken=()):
    rules, state, log = _phase6(offices=(("CANADA", 0),), sales_may_withhold=withhold)
    s = state[0]
    s["goods"][0] = 4
    s["price"][0] = price
    for t in techs:
        research_tech(state, 0, t)
    for b in taken:
        s["buyer_owner"][b] = 1
    legal = enter_phase(rules, state, log, 7)
    return {int(a - sr.A_SELL) for a in legal.tolist() if a >= sr.A_SELL}, legal


def test_sales_rules():
    red, pad, _g4, nfc = buyers_of("CANADA")  # red cap 6, purple GAMEPAD / 4G / NFC
    assert _sales(6)[0] == {red}
    assert _sales(7)[0] == set()
    assert _sales(3, techs=("GAMEPAD", "NFC"))[0] == {red, pad, nfc}
    assert _sales(3, techs=("GAMEPAD",), taken=(red,))[0] == {pad}  # one good per buyer
    assert _sales(3)[1][0] == sr.A_DONE  # O24: may withhold
    sellable, legal = _sales(3, withhold=False)
    assert sellable == {red} and sr.A_DONE not in legal.tolist()


# ---------------------------------------------------------------- component limits (O7)


def test_retailer_research_bonus_respects_the_progress_marker_limit():
    """With component_limits, a seat with all 12 progress markers out has none to put on a technology."""
    rules, state, log = _phase6(offices=(("USA", 0),), component_limits=True, **_list_opts(GAMEPAD=True))
    s = state[0]
    T = tab(rules)
    research_tech(state, 0, "GAMEPAD")  # back: a free office in a small region every phase 6
    s["progress"][0, GPS] = 4  # costs 5, 6, 6: 4 + 5 + 3 = 12 markers out
    s["progress"][0, WIFI] = 5
    s["progress"][0, NFC] = 3
    assert sr.progress_supply(s, T, 0) == 0
    put_retailer(rules, state, "CANADA", sr.BONUS_RESEARCH)
    legal = enter_phase(rules, state, log, 6)
    assert s["pending"] == sr.D_GAMEPAD
    legal = do(rules, state, log, sr.A_GAMEPAD + REGION["CANADA"])
    while s["pending"] == sr.D_RB_RESEARCH and s["actor"] == 0:
        legal = do(rules, state, log, int(legal[0]))
    assert sr.progress_supply(s, T, 0) >= 0, "more than 12 progress markers in play"
