"""Hand-made Smartphone Inc. positions, phase by phase, through the real kernels (NOTES sections 1-2)."""

from __future__ import annotations

import pytest
from smartphone_helpers import (
    DATA,
    TECH,
    do,
    enter_phase,
    events,
    legal_now,
    new,
    plan_all,
    research_tech,
    set_syms,
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
    n_arr = rules.T["arr_hidden"].shape[0]
    assert state[0]["pending"] == sr.D_ARRANGE
    assert legal.tolist() == [sr.A_ARR + i for i in range(n_arr)]
    assert n_arr > 0


def _expected_places(rules, state, p, hand_left, overhang_ok):
    s = state[0]
    T = rules.T
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
    T = rules.T
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
    T = rules.T
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

    from smartphone_helpers import play_until
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
    T = rules.T
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
    assert sr.tech_cost(state[0], rules.T, 0, GPS) == int(rules.T["tech"][GPS, 2])


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
    T = rules.T
    s["progress"][1, GPS] = 4  # cost 5 with the patent on it
    s["patent_owner"][GPS] = 0
    research_tech(state, 1, "GAMEPAD")  # cost now 4 - 1 = 3 < 4
    before = sr.progress_supply(s, T, 1)
    set_syms(state, 0)
    set_syms(state, 1)
    enter_phase(rules, state, log, 5, order=[1, 0])
    assert s["researched"][1, GPS] == 1 and s["progress"][1, GPS] == 0
    assert sr.progress_supply(s, T, 1) == before + 4
