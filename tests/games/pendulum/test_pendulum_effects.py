"""Pendulum economy (simlab/games/pendulum/effects.py) on hand-made states with the real ruleset tables:
caps, votes, tracks and glory, costs (wild splits), every gain kind, production with provinces, the pending
stack, stratagems (persona specials and council cards), Pick Up Stratagems, achievements, provinces."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.games.pendulum import effects as fx
from simlab.games.pendulum.codes import (
    A_CONQUER,
    A_NO,
    A_REFILL,
    A_RES,
    A_RETURN,
    A_SPACE,
    A_STRAT,
    A_SWAPVP,
    A_TRACK,
    A_WORKER,
    A_YES,
    EV_ACHIEVEMENT,
    EV_CHOICE,
    EV_CONQUER,
    EV_GAIN,
    EV_PAY,
    EV_PICKUP,
    EV_PRODUCTION,
    EV_REFILL,
    EV_STRATAGEM,
    EV_TRACK,
    K_POPULARITY,
    K_POWER,
    K_PRESTIGE,
    LOG_WIDTH,
    M_BLUE,
    M_BROWN,
    M_RED,
    M_YELLOW,
    MAX_ACTIONS,
    PART_BOTTOM,
    PART_TOP,
    PD_ALT,
    PD_CONQUER,
    PD_GLORY,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_RETURN_STRAT,
    PD_SWAP_VP,
    PD_TIMED_PLACE,
    PD_VP_ANY,
    PD_WILD_GAIN,
    PD_WILD_PAY,
    PH_COUNCIL,
    PH_PENDING,
    PH_REAL,
    R_CULTURE,
    R_GOLD,
    R_MILITARY,
    ROW_BOTTOM,
    ROW_TOP,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE
from simlab.games.pendulum.tables import C_DEFAULT, C_GRANDE, CH_PROD0, CO_EFFECT

# ---------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def data():
    return load_data()


@pytest.fixture(scope="module")
def rules(data):
    return build_ruleset(3, data, {})


@pytest.fixture(scope="module")
def rules_convert(data):
    return build_ruleset(3, data, {"warmonger_exchange": "convert_any_1to1"})


def persona(rules, name):
    return rules.character_row(name)


def strat(rules, name):
    return rules.strat_index(name)


def eff(rules, text):
    return rules.effect_index(text)


def fresh(rules, char="Bolk, The Champion", advanced=0):
    """A seat-0 state in PH_REAL of a 3-player game: start of a round, 1 grande + 1 common on the mat."""
    st = np.zeros(1, STATE_DTYPE)
    s = st[0]
    s["n_players"] = 3
    s["phase"] = PH_REAL
    s["round"] = 2
    s["cause"] = -1
    s["actor"] = 0
    s["char"][0] = persona(rules, char)
    s["advanced"][0] = advanced
    s["w_place"][:, :] = W_RESERVE
    s["w_place"][:, 0] = W_MAT
    s["w_place"][:, 1] = W_MAT
    s["w_grande"][:, 0] = 1
    s["display"][:] = -1
    s["ach_card"] = -1
    s["timer_row"][:] = ROW_TOP
    s["lifted_seat"] = -1
    s["lifted_worker"] = -1
    return st


def log_new():
    return new_log(400, LOG_WIDTH)


def events(log, kind):
    """Rows of event ``kind`` as dicts named by effects.EVENT_FIELDS."""
    names = fx.EVENT_FIELDS[kind]
    out = []
    for i in range(1, int(log[0, 0]) + 1):
        if log[i, 0] == kind:
            out.append({n: int(log[i, FIELD0 + j]) for j, n in enumerate(names)} | {"_actor": int(log[i, 6])})
    return out


def legal(st, rules):
    buf = np.zeros(MAX_ACTIONS, np.int32)
    n = fx.pending_legal(st[0], rules.t, buf)
    return [int(x) for x in buf[:n]]


def apply(st, rules, a, log):
    assert a in legal(st, rules), (a, legal(st, rules))
    fx.pending_apply(st[0], rules.t, a, log)


def top(st):
    s = st[0]
    if s["n_pend"] == 0:
        return None
    i = s["n_pend"] - 1
    return int(s["pend_kind"][i]), int(s["pend_n"][i]), int(s["pend_arg"][i])


def space(rules, sid):
    return rules.space_index(sid)


# ---------------------------------------------------------------- caps, votes, tracks, glory


def test_resource_cap_is_ten_minus_glory_of_that_colour(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["glory"][0] = (2, 0, 1)
    assert [fx.res_cap(s, t, 0, r) for r in range(3)] == [8, 10, 9]
    s["res"][0] = (7, 9, 0)
    log = log_new()
    assert fx.add_resource(s, t, 0, R_MILITARY, 3, log) == 2
    assert s["res"][0, R_MILITARY] == 8
    assert fx.add_resource(s, t, 0, R_CULTURE, 3, log) == 2
    assert s["res"][0, R_CULTURE] == 10
    assert s["st_lost"][0] == 4
    assert fx.add_resource(s, t, 0, R_GOLD, -5, log) == 0
    assert s["res"][0, R_GOLD] == 0
    g = events(log, EV_GAIN)[0]
    assert (g["military_before"], g["military_after"], g["lost"]) == (7, 8, 2)


def test_votes_have_no_cap_and_never_go_negative(rules):
    st = fresh(rules)
    s = st[0]
    log = log_new()
    fx.add_votes(s, 0, 25, log)
    assert s["votes"][0] == 25
    fx.add_votes(s, 0, -30, log)
    assert s["votes"][0] == 0


def test_vp_past_the_track_end_is_lost_for_a_basic_seat(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["track"][0, K_POWER] = 20
    log = log_new()
    assert fx.add_vp(s, t, 0, K_POWER, 3, log) == 2
    assert s["track"][0, K_POWER] == 21
    assert s["st_lost"][0] == 2
    assert s["n_pend"] == 0
    tr = events(log, EV_TRACK)[0]
    # gain = the change applied, requested = what the effect asked for (issue 21: one meaning for all agents)
    assert (tr["player"], tr["track"], tr["before"], tr["after"], tr["gain"], tr["lost"], tr["glory_pending"],
            tr["requested"]) == (0, K_POWER, 20, 21, 1, 2, 0, 3)


def test_advanced_seat_decides_glory_per_vp_past_the_end(rules):
    st = fresh(rules, advanced=1)
    s, t = st[0], rules.t
    s["track"][0, K_PRESTIGE] = 21
    s["res"][0, R_CULTURE] = 9
    log = log_new()
    assert fx.add_vp(s, t, 0, K_PRESTIGE, 2, log) == 0
    assert top(st) == (PD_GLORY, 2, K_PRESTIGE)
    assert legal(st, rules) == [A_NO, A_YES]
    apply(st, rules, A_YES, log)
    assert s["glory"][0, K_PRESTIGE] == 1
    assert fx.res_cap(s, t, 0, R_CULTURE) == 9
    # culture 9 + glory 1 = 10: no cube left in the bank, the second VP is lost without asking
    assert s["n_pend"] == 0
    assert s["glory"][0, K_PRESTIGE] == 1
    assert s["st_lost"][0] == 1
    choices = events(log, EV_CHOICE)
    assert [(c["action"], c["is_auto"], c["lost"]) for c in choices] == [(A_YES, 0, 0), (A_NO, 1, 1)]
    rows = events(log, EV_TRACK)
    assert rows[1]["glory_before"] == 0 and rows[1]["glory_after"] == 1
    assert rows[2]["lost"] == 1


def test_declined_glory_is_lost(rules):
    st = fresh(rules, advanced=1)
    s, t = st[0], rules.t
    s["track"][0, K_POWER] = 21
    log = log_new()
    fx.add_vp(s, t, 0, K_POWER, 1, log)
    apply(st, rules, A_NO, log)
    assert s["glory"][0, K_POWER] == 0 and s["st_lost"][0] == 1 and s["n_pend"] == 0


# ---------------------------------------------------------------- costs


def test_can_pay_named_votes_vp_and_wild(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["res"][0] = (4, 0, 4)
    assert fx.can_pay(s, t, 0, eff(rules, "military:4+gold:4"), 1)
    assert not fx.can_pay(s, t, 0, eff(rules, "military:4+gold:4"), 2)
    assert not fx.can_pay(s, t, 0, eff(rules, "military:7"), 1)
    assert fx.can_pay(s, t, 0, eff(rules, "wild:8"), 1)
    assert not fx.can_pay(s, t, 0, eff(rules, "wild:10"), 1)
    s["votes"][0] = 1
    assert not fx.can_pay(s, t, 0, eff(rules, "culture:4+votes:2"), 1)
    s["track"][0, K_POWER] = 1
    assert not fx.can_pay(s, t, 0, eff(rules, "vp:power:2"), 1)
    s["track"][0, K_POWER] = 2
    s["glory"][0, K_POWER] = 3  # glory never pays VP
    assert fx.can_pay(s, t, 0, eff(rules, "vp:power:2"), 1)
    assert fx.can_pay(s, t, 0, 0, 1)


def test_pay_named_amounts_and_vp_costs(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["res"][0] = (5, 1, 6)
    s["track"][0, K_POWER] = 3
    log = log_new()
    assert fx.pay(s, t, 0, eff(rules, "military:4+gold:4"), 1, log) == 0
    assert list(s["res"][0]) == [1, 1, 2]
    fx.pay(s, t, 0, eff(rules, "vp:power:2"), 1, log)
    assert s["track"][0, K_POWER] == 1
    p = events(log, EV_PAY)[0]
    assert (p["military_before"], p["gold_before"], p["military_after"], p["gold_after"]) == (5, 6, 1, 2)
    tr = events(log, EV_TRACK)[0]
    assert (tr["before"], tr["after"], tr["gain"]) == (3, 1, -2)
    fx.pay(s, t, 0, eff(rules, "gold:2"), 1, log)
    assert s["res"][0, R_GOLD] == 0


@pytest.mark.parametrize(("held", "after"), [((3, 0, 5), (0, 0, 0)), ((0, 9, 0), (0, 1, 0)), ((0, 0, 8), (0, 0, 0))])
def test_forced_wild_split_is_paid_at_once(rules, held, after):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["res"][0] = held
    log = log_new()
    assert fx.pay(s, t, 0, eff(rules, "wild:8"), 1, log) == 0
    assert tuple(s["res"][0]) == after
    assert s["n_pend"] == 0


def test_wild_cost_with_a_choice_waits_for_decisions_and_the_gain_waits_too(rules):
    st = fresh(rules, char="Licinia, The Alchemist")
    s, t = st[0], rules.t
    i = strat(rules, "Licinia, The Alchemist #1")  # wild:2 -> choice of +2 VP on one track
    s["strat"][0, i] = 1
    s["res"][0] = (2, 2, 0)
    log = log_new()
    assert fx.strat_playable(s, t, 0, i)
    fx.play_strat(s, t, 0, i, log)
    assert s["strat"][0, i] == 2
    assert top(st) == (PD_WILD_PAY, 2, eff(rules, "choice:vp:power:2|vp:prestige:2|vp:popularity:2") * 4 + 0)
    assert legal(st, rules) == [A_RES + R_MILITARY, A_RES + R_CULTURE]
    assert list(s["track"][0]) == [0, 0, 0]  # nothing gained before the cost is paid
    apply(st, rules, A_RES + R_MILITARY, log)
    assert top(st)[0] == PD_WILD_PAY and top(st)[1] == 1
    apply(st, rules, A_RES + R_CULTURE, log)
    assert list(s["res"][0]) == [1, 1, 0]
    assert top(st) == (PD_ALT, 1, eff(rules, "choice:vp:power:2|vp:prestige:2|vp:popularity:2"))
    assert legal(st, rules) == [A_RES + 0, A_RES + 1, A_RES + 2]
    apply(st, rules, A_RES + 2, log)
    assert list(s["track"][0]) == [0, 0, 2]
    assert s["n_pend"] == 0


def test_wild_pay_remainder_becomes_forced(rules):
    st = fresh(rules, char="Licinia, The Alchemist")
    s, t = st[0], rules.t
    s["res"][0] = (2, 1, 0)
    log = log_new()
    assert fx.pay(s, t, 0, eff(rules, "wild:2"), 1, log) == 1
    apply(st, rules, A_RES + R_CULTURE, log)  # the last cube can only be military: paid by the rules
    assert list(s["res"][0]) == [1, 0, 0]
    assert s["n_pend"] == 0
    assert [c["is_auto"] for c in events(log, EV_CHOICE)] == [0, 1]


# ---------------------------------------------------------------- gains


def test_gain_resources_votes_vp_and_legendary(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["res"][0] = (9, 0, 0)
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "military:2+culture:2+gold:2"), 0, log)
    assert list(s["res"][0]) == [10, 2, 2] and s["st_lost"][0] == 1
    fx.gain(s, t, 0, eff(rules, "vp:popularity:1+vp:prestige:1+votes:1"), 0, log)
    assert list(s["track"][0]) == [0, 1, 1] and s["votes"][0] == 1
    fx.gain(s, t, 0, eff(rules, "legendary:1"), 0, log)
    assert s["legendary"][0] == 1 and s["st_legendary_round"][0] == 2
    g = events(log, EV_GAIN)
    assert g[0]["lost"] == 1 and g[0]["military_after"] == 10
    assert g[2]["has_legendary"] == 1


def test_gain_vp_any_is_one_track_decision_per_vp(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    log = log_new()
    fx.push_pending(s, 0, PD_VP_ANY, 2, 0)
    assert s["resume_phase"] == PH_REAL
    assert legal(st, rules) == [A_TRACK + 0, A_TRACK + 1, A_TRACK + 2]
    apply(st, rules, A_TRACK + K_POPULARITY, log)
    apply(st, rules, A_TRACK + K_POWER, log)
    assert list(s["track"][0]) == [1, 0, 1] and s["n_pend"] == 0
    fx.gain(s, t, 0, int(t["co"][C_DEFAULT, CO_EFFECT]), 0, log)  # the DEFAULT council card: +1 VP of choice
    assert top(st) == (PD_VP_ANY, 1, 0)


def test_wild_gain_decisions_and_forced_splits(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "wild:3"), 0, log)
    assert top(st) == (PD_WILD_GAIN, 3, 0)
    apply(st, rules, A_RES + R_GOLD, log)
    apply(st, rules, A_RES + R_GOLD, log)
    apply(st, rules, A_RES + R_CULTURE, log)
    assert list(s["res"][0]) == [0, 1, 2] and s["n_pend"] == 0
    # one colour with room: taken at once, the rest lost
    s["res"][0] = (10, 10, 8)
    fx.gain(s, t, 0, eff(rules, "wild:3"), 0, log)
    fx.pending_settle(s, t, log)
    assert list(s["res"][0]) == [10, 10, 10] and s["n_pend"] == 0 and s["st_lost"][0] == 1
    # all the room fits in the gain: filled at once
    s["res"][0] = (9, 9, 8)
    fx.gain(s, t, 0, eff(rules, "wild:4"), 0, log)
    fx.pending_settle(s, t, log)
    assert list(s["res"][0]) == [10, 10, 10] and s["st_lost"][0] == 1


def test_wild_gain_skips_a_full_colour(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["res"][0] = (0, 10, 0)
    fx.gain(s, t, 0, eff(rules, "wild:1"), 0, log_new())
    assert legal(st, rules) == [A_RES + R_MILITARY, A_RES + R_GOLD]


def test_production_is_mat_yield_plus_each_tucked_province_edge(rules):
    st = fresh(rules)  # Bolk the Champion: blue slot culture:5, brown vp:power:1
    s, t = st[0], rules.t
    std = next(i for i in range(t["n_prov"]) if rules.province_id(i) == 1)  # std card: blue edge culture:3
    red = next(i for i in range(t["n_prov"]) if rules.province_id(i) == 5)  # red card: blue edge military:3
    assert t["prov"][std, M_BLUE] == eff(rules, "culture:3")
    assert t["prov"][red, M_BLUE] == eff(rules, "military:3")
    assert t["prov"][std, M_BROWN] == eff(rules, "vp:power:1")
    s["prov"][0, M_BLUE, :2] = (std, red)
    s["prov_n"][0, M_BLUE] = 2
    s["prov"][0, M_BROWN, 0] = std
    s["prov_n"][0, M_BROWN] = 1
    s["res"][0] = (0, 1, 0)
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "prod:blue"), 0, log)
    assert list(s["res"][0]) == [3, 9, 0]  # culture 1 + 5 (mat) + 3 (std), military 3 (red card)
    fx.gain(s, t, 0, eff(rules, "prod:blue"), 0, log)
    assert list(s["res"][0]) == [6, 10, 0] and s["st_lost"][0] == 7  # 1 + 8 - 10 + ... capped
    fx.gain(s, t, 0, eff(rules, "prod:brown"), 0, log)
    assert s["track"][0, K_POWER] == 2  # mat vp:power:1 + the card's brown edge
    pr = events(log, EV_PRODUCTION)
    assert (pr[0]["slot"], pr[0]["mat_effect"], pr[0]["n_provinces"]) == (M_BLUE, eff(rules, "culture:5"), 2)
    assert (pr[0]["p0_province"], pr[0]["p0_effect"], pr[0]["p1_province"], pr[0]["p1_effect"]) == (
        std, eff(rules, "culture:3"), red, eff(rules, "military:3"))
    assert pr[0]["p2_province"] == -1
    gains = events(log, EV_GAIN)
    assert (gains[1]["culture_before"], gains[1]["culture_after"], gains[1]["lost"]) == (9, 10, 7)


def test_production_of_many_provinces_spans_rows(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["prov"][0, M_YELLOW, :8] = np.arange(8)
    s["prov_n"][0, M_YELLOW] = 8
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "prod:yellow"), 0, log)
    pr = events(log, EV_PRODUCTION)
    assert [(r["first"], r["n_provinces"]) for r in pr] == [(0, 8), (6, 8)]
    assert pr[1]["mat_effect"] == 0 and pr[1]["p1_province"] == 7 and pr[1]["p2_province"] == -1
    expect = 2 + sum(int(t["eff"][t["prov"][c, M_YELLOW], 0, R_GOLD]) for c in range(8))
    assert s["res"][0, R_GOLD] == min(10, expect)


def test_advanced_mat_yields_conquer_retrieve_and_wild(rules):
    st = fresh(rules, char="Mesoat, The Pacifist")  # red slot: conquer:1
    s, t = st[0], rules.t
    s["pdeck"][:3] = (10, 11, 12)
    s["pdeck_n"] = 3
    fx.gain(s, t, 0, eff(rules, "prod:red"), 0, log_new())
    assert top(st) == (PD_CONQUER, 1, 0)
    st = fresh(rules, char="Licinia, The Alchemist")  # blue slot: wild:5
    fx.gain(st[0], t, 0, eff(rules, "prod:blue"), 0, log_new())
    assert top(st) == (PD_WILD_GAIN, 5, 0)


def test_recruit_brings_a_reserve_common_to_the_mat(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    fx.gain(s, t, 0, eff(rules, "recruit:1"), 0, log_new())
    assert list(s["w_place"][0]) == [W_MAT, W_MAT, W_MAT, W_RESERVE]
    assert s["w_grande"][0, 2] == 0


def test_gain_of_several_alternatives_without_alt_asks(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    e = eff(rules, "choice:vp:power:2|vp:prestige:2|vp:popularity:2")
    fx.gain(s, t, 0, e, 1, log_new())
    assert list(s["track"][0]) == [0, 2, 0] and s["n_pend"] == 0
    fx.gain(s, t, 0, e, -1, log_new())
    assert top(st) == (PD_ALT, 1, e)


# ---------------------------------------------------------------- provinces


def test_conquer_from_display_or_deck_and_refill(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["pdeck"][:3] = (20, 21, 22)
    s["pdeck_n"] = 3
    s["display"][:] = (5, -1, 7, -1)
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "conquer:1"), 0, log)
    acts = legal(st, rules)
    assert acts[0] == A_REFILL
    assert A_CONQUER + 0 * 4 + M_RED in acts and A_CONQUER + 1 * 4 + M_RED not in acts
    assert A_CONQUER + 4 * 4 + M_BLUE in acts
    apply(st, rules, A_REFILL, log)
    assert list(s["display"]) == [5, 22, 7, 21] and s["pdeck_n"] == 1
    assert top(st) == (PD_CONQUER, 1, 0)
    apply(st, rules, A_CONQUER + 2 * 4 + M_RED, log)
    assert s["display"][2] == -1 and list(s["prov"][0, M_RED, :1]) == [7] and s["prov_n"][0, M_RED] == 1
    assert s["st_provinces"][0] == 1 and s["n_pend"] == 0
    fx.push_pending(s, 0, PD_CONQUER, 1, 0)
    apply(st, rules, A_CONQUER + 4 * 4 + M_YELLOW, log)
    assert list(s["prov"][0, M_YELLOW, :1]) == [20] and s["pdeck_n"] == 0
    rf = events(log, EV_REFILL)
    assert [(r["display_pos"], r["province"]) for r in rf] == [(1, 22), (3, 21)]
    cq = events(log, EV_CONQUER)
    assert (cq[0]["source"], cq[0]["province"], cq[0]["mat_slot"], cq[0]["edge_effect"]) == (
        2, 7, M_RED, int(t["prov"][7, M_RED]))
    assert cq[1]["source"] == 4
    # the conquered edge now produces
    gold = int(s["res"][0, R_GOLD])
    fx.gain(s, t, 0, eff(rules, "prod:yellow"), 0, log)
    yellow_mat = int(t["eff"][t["ch"][s["char"][0], CH_PROD0 + M_YELLOW], 0, R_GOLD])
    assert s["res"][0, R_GOLD] == gold + yellow_mat + int(t["eff"][t["prov"][20, M_YELLOW], 0, R_GOLD])


def test_conquer_with_no_province_left_is_dropped(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "conquer:1"), 0, log)
    assert legal(st, rules) == [A_NO]  # nothing to take: the only way on is to drop it
    fx.pending_settle(s, t, log)
    assert s["n_pend"] == 0
    assert events(log, EV_CHOICE)[0]["action"] == fx.FORFEIT


def test_full_slot_is_not_offered(rules):
    st = fresh(rules)
    s = st[0]
    s["display"][0] = 3
    s["prov_n"][0, M_BROWN] = 8
    buf = np.zeros(64, np.int32)
    n = fx.conquer_legal(s, rules.t, 0, buf, 0)
    assert list(buf[:n]) == [A_CONQUER + M_RED, A_CONQUER + M_BLUE, A_CONQUER + M_YELLOW]


def test_refill_legal(rules):
    st = fresh(rules)
    s = st[0]
    s["display"][:] = (1, 2, 3, 4)
    s["pdeck_n"] = 5
    assert not fx.refill_legal(s)
    s["display"][1] = -1
    assert fx.refill_legal(s)
    s["pdeck_n"] = 0
    assert not fx.refill_legal(s)


# ---------------------------------------------------------------- stratagems


def hand(rules, st, names):
    for n in names:
        st[0]["strat"][0, strat(rules, n)] = 1


def strat_actions(st, rules):
    buf = np.zeros(MAX_ACTIONS, np.int32)
    n = fx.strat_legal(st[0], rules.t, 0, buf, 0)
    return [int(x) - A_STRAT for x in buf[:n]]


def test_basic_persona_stratagems_and_their_needs(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    names = [f"Bolk, The Champion #{k}" for k in (1, 2, 3, 4)]
    hand(rules, st, names)
    ids = [strat(rules, n) for n in names]
    s["res"][0, R_MILITARY] = 6
    # retrieve needs a worker on a row with a timer; recruit needs 7 military
    assert strat_actions(st, rules) == ids[:2]
    s["res"][0, R_MILITARY] = 7
    s["w_place"][0, 1] = space(rules, "1-3p:black:top:1")
    s["w_part"][0, 1] = PART_BOTTOM
    assert strat_actions(st, rules) == ids
    log = log_new()
    fx.play_strat(s, t, 0, ids[0], log)
    assert s["track"][0, K_PRESTIGE] == 1 and s["strat"][0, ids[0]] == 2 and s["st_strats"][0] == 1
    fx.play_strat(s, t, 0, ids[2], log)  # the only retrievable worker: retrieved at once
    assert s["w_place"][0, 1] == W_MAT and s["n_pend"] == 0
    fx.play_strat(s, t, 0, ids[3], log)
    assert s["res"][0, R_MILITARY] == 0 and s["w_place"][0, 2] == W_MAT
    sr = events(log, EV_STRATAGEM)
    assert [(r["strat"], r["cost_effect"], r["effect"]) for r in sr] == [
        (ids[0], 0, eff(rules, "vp:prestige:1")), (ids[2], 0, eff(rules, "retrieve:1")),
        (ids[3], eff(rules, "military:7"), eff(rules, "recruit:1"))]
    # 4 workers in play: recruit is no longer playable even when back in hand
    s["w_place"][0, 3] = W_MAT
    s["strat"][0, ids[3]] = 1
    s["res"][0, R_MILITARY] = 10
    assert ids[3] not in strat_actions(st, rules)


def test_retrieve_with_two_workers_asks_which(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    i = strat(rules, "Bolk, The Champion #3")
    hand(rules, st, ["Bolk, The Champion #3"])
    s["w_place"][0, 0] = space(rules, "1-3p:green:top:0")
    s["w_place"][0, 1] = space(rules, "1-3p:black:top:2")
    s["w_place"][0, 2] = space(rules, "1-3p:black:bottom:2")  # its row has no timer: not retrievable
    s["w_part"][0, 2] = PART_TOP
    log = log_new()
    fx.play_strat(s, t, 0, i, log)
    assert top(st) == (PD_RETRIEVE, 1, 0)
    assert legal(st, rules) == [A_WORKER + 0, A_WORKER + 1]
    apply(st, rules, A_WORKER + 1, log)
    assert s["w_place"][0, 1] == W_MAT and s["w_place"][0, 0] == space(rules, "1-3p:green:top:0")


def test_council_stratagems_go_to_the_discard_and_pick_up_returns_them(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    c11 = strat(rules, "council 11")
    c24 = strat(rules, "council 24")
    p1 = strat(rules, "Bolk, The Champion #1")
    hand(rules, st, ["council 11", "council 24", "Bolk, The Champion #1"])
    log = log_new()
    for i in (c11, c24, p1):
        fx.play_strat(s, t, 0, i, log)
    assert s["votes"][0] == 1 and s["res"][0, R_GOLD] == 1
    assert [s["strat"][0, i] for i in (c11, c24, p1)] == [2, 2, 2]
    assert strat_actions(st, rules) == []
    s["res"][0, R_CULTURE] = 4
    assert not fx.pickup_legal(s, t, 0)
    s["res"][0, R_CULTURE] = 6
    assert fx.pickup_legal(s, t, 0)
    fx.pickup(s, t, 0, log)
    assert s["res"][0, R_CULTURE] == 1
    assert [s["strat"][0, i] for i in (c11, c24, p1)] == [1, 1, 1]
    pk = events(log, EV_PICKUP)[0]
    assert (pk["culture_paid"], pk["culture_before"], pk["culture_after"], pk["n_returned"]) == (5, 6, 1, 3)
    assert sorted([pk["ret0_strat"], pk["ret1_strat"], pk["ret2_strat"]]) == sorted([c11, c24, p1])
    assert pk["ret3_strat"] == -1
    assert not fx.pickup_legal(s, t, 0)  # nothing discarded any more


def test_council_card_7_picks_up_for_free(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    p1 = strat(rules, "Bolk, The Champion #1")
    s["strat"][0, p1] = 2
    s["res"][0, R_CULTURE] = 3
    fx.gain(s, t, 0, eff(rules, "special:pickup_stratagems"), 0, log_new())
    assert s["strat"][0, p1] == 1 and s["res"][0, R_CULTURE] == 3


def test_warmonger_exchange_swaps_the_amounts_within_caps(rules):
    st = fresh(rules, char="Bolk, The Warmonger", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Bolk, The Warmonger #2")
    hand(rules, st, ["Bolk, The Warmonger #2"])
    s["res"][0] = (10, 3, 0)
    s["glory"][0, K_PRESTIGE] = 2  # culture cap 8
    log = log_new()
    fx.play_strat(s, t, 0, i, log)
    assert list(s["res"][0]) == [3, 8, 0] and s["st_lost"][0] == 2
    g = events(log, EV_GAIN)[0]
    assert (g["military_before"], g["culture_before"], g["military_after"], g["culture_after"], g["lost"]) == (
        10, 3, 3, 8, 2)


def test_warmonger_exchange_convert_option_one_cube_at_a_time(rules_convert):
    rules = rules_convert
    st = fresh(rules, char="Bolk, The Warmonger", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Bolk, The Warmonger #2")
    hand(rules, st, ["Bolk, The Warmonger #2"])
    s["res"][0] = (4, 2, 0)
    log = log_new()
    fx.play_strat(s, t, 0, i, log)
    assert top(st) == (PD_ALT, 1, fx.ALT_EXCHANGE)
    assert legal(st, rules) == [A_NO, A_RES + R_MILITARY, A_RES + R_CULTURE]
    apply(st, rules, A_RES + R_CULTURE, log)  # military -> culture; the direction is now fixed
    assert list(s["res"][0]) == [3, 3, 0]
    assert legal(st, rules) == [A_NO, A_RES + R_CULTURE]
    apply(st, rules, A_RES + R_CULTURE, log)
    apply(st, rules, A_NO, log)
    assert list(s["res"][0]) == [2, 4, 0] and s["n_pend"] == 0


def test_worker_action_modifiers_are_armed_and_need_an_action(rules):
    st = fresh(rules, char="Bolk, The Warmonger", advanced=1)
    s, t = st[0], rules.t
    adj = strat(rules, "Bolk, The Warmonger #3")
    free = strat(rules, "council 19")
    hand(rules, st, ["Bolk, The Warmonger #3", "council 19"])
    assert strat_actions(st, rules) == []  # no worker can act: both wait
    s["w_place"][0, 1] = space(rules, "1-3p:black:top:0")  # a timed top frame, but black
    s["w_part"][0, 1] = PART_TOP
    assert strat_actions(st, rules) == [adj]  # the free action is for green/purple only
    s["w_place"][0, 0] = space(rules, "1-3p:green:top:1")
    assert strat_actions(st, rules) == [adj, free]
    log = log_new()
    fx.play_strat(s, t, 0, adj, log)
    fx.play_strat(s, t, 0, free, log)
    assert s["adjacent_action"][0] == 1 and s["free_action"][0] == 1
    s["strat"][0, free] = 1
    assert free not in strat_actions(st, rules)  # already armed


def test_pacifist_double_action_is_armed(rules):
    st = fresh(rules, char="Mesoat, The Pacifist", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Mesoat, The Pacifist #3")
    hand(rules, st, ["Mesoat, The Pacifist #3"])
    s["w_place"][0, 0] = space(rules, "1-3p:purple:top:1")
    fx.play_strat(s, t, 0, i, log_new())
    assert s["double_action"][0] == 1 and s["strat"][0, i] == 2


def test_adjacent_decision_runs_through_workers(rules):
    st = fresh(rules, char="Bolk, The Warmonger", advanced=1)
    s = st[0]
    d = space(rules, "1-3p:black:top:1")
    s["res"][0] = (3, 0, 0)
    fx.push_pending(s, 0, fx.PD_ADJACENT, 1, d)
    acts = legal(st, rules)
    # black:top:0 (yellow production) and black:top:2 (conquer, 4 military: not payable)
    assert acts == [A_NO, A_SPACE + space(rules, "1-3p:black:top:0")]
    log = log_new()
    apply(st, rules, A_SPACE + space(rules, "1-3p:black:top:0"), log)
    assert s["res"][0, R_GOLD] == 2 and s["n_pend"] == 0  # Warmonger's yellow slot: gold:2


def test_adjacent_double_frame_asks_for_the_reward(rules):
    st = fresh(rules, char="Bolk, The Warmonger", advanced=1)
    s = st[0]
    d = space(rules, "1-3p:green:top:1")
    d2 = space(rules, "1-3p:green:top:0")  # double frame: vp:power:1+votes:2 | vp:popularity:2, cost gold:2
    s["res"][0] = (0, 0, 2)
    fx.push_pending(s, 0, fx.PD_ADJACENT, 1, d)
    log = log_new()
    apply(st, rules, A_SPACE + d2, log)
    assert legal(st, rules) == [A_NO, A_RES + 0, A_RES + 1]
    apply(st, rules, A_RES + 1, log)
    assert s["res"][0, R_GOLD] == 0 and s["track"][0, K_POPULARITY] == 2 and s["n_pend"] == 0


def test_claim_twice_allows_a_second_claim_this_round(rules):
    st = fresh(rules, char="Dhrenkir, The Tyrant", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Dhrenkir, The Tyrant #3")
    hand(rules, st, ["Dhrenkir, The Tyrant #3"])
    s["ach_card"] = 3  # card 4: military:8+votes:3 -> gold:5
    s["res"][0] = (8, 0, 0)
    s["votes"][0] = 3
    log = log_new()
    assert fx.claim_legal(s, t, 0, 1)
    fx.claim(s, t, 0, 1, log)
    assert s["res"][0, R_GOLD] == 5 and s["ach_claims"][0] == 1
    assert not fx.claim_legal(s, t, 0, 1)  # once per round
    fx.play_strat(s, t, 0, i, log)
    assert s["claim_twice"][0] == 1
    assert fx.claim_legal(s, t, 0, 1)
    fx.claim(s, t, 0, 1, log)
    assert s["res"][0, R_GOLD] == 10 and s["ach_claims"][0] == 2 and s["claim_twice"][0] == 0
    assert not fx.claim_legal(s, t, 0, 1)
    assert [r["claim_no"] for r in events(log, EV_ACHIEVEMENT)] == [1, 2]


def test_pacifist_claims_without_the_requirement(rules):
    st = fresh(rules, char="Mesoat, The Pacifist", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Mesoat, The Pacifist #2")  # culture:4+votes:2 -> claim the achievement
    hand(rules, st, ["Mesoat, The Pacifist #2"])
    s["ach_card"] = 1  # card 2: military:2+culture:6+votes:3 -> votes:5
    s["res"][0] = (0, 4, 0)
    s["votes"][0] = 2
    s["legendary_on_card"] = 1
    assert not fx.claim_legal(s, t, 0, 1)
    assert i in strat_actions(st, rules)
    log = log_new()
    fx.play_strat(s, t, 0, i, log)
    assert list(s["res"][0]) == [0, 0, 0] and s["votes"][0] == 0
    assert top(st) == (PD_ALT, 1, fx.ALT_CLAIM)
    assert legal(st, rules) == [A_RES + 0, A_RES + 1]
    apply(st, rules, A_RES + 0, log)
    assert s["legendary"][0] == 1 and s["legendary_on_card"] == 0 and s["votes"][0] == 0
    a = events(log, EV_ACHIEVEMENT)[0]
    assert (a["is_legendary"], a["is_waived"], a["achievement_row"]) == (1, 1, 1)
    # a claim left no more: the stratagem is not playable
    s["strat"][0, i] = 1
    s["res"][0] = (0, 4, 0)
    s["votes"][0] = 2
    assert i not in strat_actions(st, rules)


def test_pacifist_claim_takes_the_ribbon_when_the_legendary_is_gone(rules):
    st = fresh(rules, char="Mesoat, The Pacifist", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Mesoat, The Pacifist #2")
    hand(rules, st, ["Mesoat, The Pacifist #2"])
    s["ach_card"] = 1
    s["res"][0] = (0, 4, 0)
    s["votes"][0] = 2
    fx.play_strat(s, t, 0, i, log_new())
    assert s["votes"][0] == 5 and s["n_pend"] == 0 and s["legendary"][0] == 0


def test_alchemist_returns_another_discarded_stratagem(rules):
    st = fresh(rules, char="Licinia, The Alchemist", advanced=1)
    s, t = st[0], rules.t
    ret = strat(rules, "Licinia, The Alchemist #2")
    one = strat(rules, "Licinia, The Alchemist #1")
    three = strat(rules, "Licinia, The Alchemist #3")
    hand(rules, st, ["Licinia, The Alchemist #2"])
    s["res"][0] = (2, 0, 0)  # wild:2 forced
    assert strat_actions(st, rules) == []  # nothing else in the discard
    s["strat"][0, one] = 2
    s["strat"][0, three] = 2
    assert strat_actions(st, rules) == [ret]
    log = log_new()
    fx.play_strat(s, t, 0, ret, log)
    assert s["res"][0, R_MILITARY] == 0
    assert top(st) == (PD_RETURN_STRAT, 1, ret)
    assert legal(st, rules) == [A_RETURN + one, A_RETURN + three]  # never the card just played
    apply(st, rules, A_RETURN + three, log)
    assert s["strat"][0, three] == 1 and s["strat"][0, ret] == 2 and s["strat"][0, one] == 2


def test_insurgent_places_on_a_timed_row_and_acts(rules):
    st = fresh(rules, char="Gambal, The Insurgent", advanced=1)
    s, t = st[0], rules.t
    i = strat(rules, "Gambal, The Insurgent #3")
    hand(rules, st, ["Gambal, The Insurgent #3"])
    s["w_place"][0, 0] = space(rules, "1-3p:green:top:1")  # grande on a timed top frame: not free
    s["timer_row"][T_BLACK] = ROW_TOP
    s["timer_row"][T_GREEN] = ROW_TOP
    s["timer_row"][T_PURPLE] = ROW_BOTTOM
    log = log_new()
    fx.play_strat(s, t, 0, i, log)
    # the common on the mat is the only free worker: chosen at once; now its target space
    assert top(st) == (PD_TIMED_PLACE, 1, 1)
    acts = legal(st, rules)
    # timed rows: green top (gold:2 unpaid -> no), black top (no production: votes, conquer needs 4 military,
    # wild); purple bottom: both have production -> excluded
    assert acts == [A_SPACE + space(rules, "1-3p:black:top:1"), A_SPACE + space(rules, "1-3p:black:top:3")]
    apply(st, rules, A_SPACE + space(rules, "1-3p:black:top:1"), log)
    assert s["w_place"][0, 1] == space(rules, "1-3p:black:top:1") and s["w_part"][0, 1] == PART_BOTTOM
    assert s["votes"][0] == 1 and s["n_pend"] == 0


def test_swap_vp_moves_one_vp(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    i = strat(rules, "council 13")
    hand(rules, st, ["council 13"])
    assert strat_actions(st, rules) == []  # no VP to move
    s["track"][0, K_POWER] = 2
    assert strat_actions(st, rules) == [i]
    log = log_new()
    fx.play_strat(s, t, 0, i, log)
    assert top(st)[0] == PD_SWAP_VP
    assert legal(st, rules) == [A_SWAPVP + 0 * 3 + 1, A_SWAPVP + 0 * 3 + 2]
    apply(st, rules, A_SWAPVP + 0 * 3 + K_POPULARITY, log)
    assert list(s["track"][0]) == [1, 0, 1]


def test_grande_card_swaps_a_common(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["phase"] = PH_COUNCIL
    s["w_place"][0, 2] = space(rules, "1-3p:black:top:1")
    log = log_new()
    fx.gain(s, t, 0, int(t["co"][C_GRANDE, CO_EFFECT]), 0, log)
    assert top(st) == (PD_GRANDE_SWAP, 1, 0) and s["resume_phase"] == PH_COUNCIL
    assert legal(st, rules) == [A_WORKER + 1, A_WORKER + 2]
    apply(st, rules, A_WORKER + 2, log)
    assert s["w_grande"][0, 2] == 1 and s["w_place"][0, 2] == space(rules, "1-3p:black:top:1")


def test_max3_and_legendary_from_effects(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    fx.gain(s, t, 0, eff(rules, "special:max3"), 0, log_new())
    assert s["max3"][0] == 1


# ---------------------------------------------------------------- achievements


def test_achievement_requirement_is_held_not_paid(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["ach_card"] = 2  # card 3: wild:12+votes:3 -> prod:blue
    s["res"][0] = (4, 4, 3)
    s["votes"][0] = 3
    assert not fx.claim_legal(s, t, 0, 1)
    s["res"][0, R_GOLD] = 4
    assert fx.claim_legal(s, t, 0, 1)
    assert not fx.claim_legal(s, t, 0, 0)  # no legendary token on the card
    log = log_new()
    fx.claim(s, t, 0, 1, log)
    assert list(s["res"][0]) == [4, 9, 4] and s["votes"][0] == 3  # nothing paid; blue production gained
    a = events(log, EV_ACHIEVEMENT)[0]
    assert (a["achievement_row"], a["military"], a["culture"], a["gold"], a["votes"], a["is_legendary"]) == (
        2, 4, 4, 4, 3, 0)
    assert a["requirement_effect"] == eff(rules, "wild:12+votes:3") and a["ribbon_effect"] == eff(rules, "prod:blue")


def test_legendary_or_ribbon_not_both(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["ach_card"] = 3  # military:8+votes:3 -> gold:5
    s["res"][0] = (8, 0, 0)
    s["votes"][0] = 3
    s["legendary_on_card"] = 1
    assert fx.claim_legal(s, t, 0, 0) and fx.claim_legal(s, t, 0, 1)
    log = log_new()
    fx.claim(s, t, 0, 0, log)
    assert s["legendary"][0] == 1 and s["legendary_on_card"] == 0 and s["res"][0, R_GOLD] == 0
    assert s["st_legendary_round"][0] == 2 and s["st_claims"][0] == 1
    assert not fx.claim_legal(s, t, 0, 1)  # one claim per round
    # another seat: the token is gone, the ribbon remains
    s["char"][1] = s["char"][0]
    s["res"][1] = (8, 0, 0)
    s["votes"][1] = 3
    assert not fx.claim_legal(s, t, 1, 0) and fx.claim_legal(s, t, 1, 1)


def test_a_seat_that_had_its_legendary_cannot_take_the_token_again(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["ach_card"] = 3
    s["res"][0] = (8, 0, 0)
    s["votes"][0] = 3
    s["legendary_on_card"] = 1
    s["legendary"][0] = 1
    assert not fx.claim_legal(s, t, 0, 0) and fx.claim_legal(s, t, 0, 1)
    s["ach_card"] = -1
    assert not fx.claim_legal(s, t, 0, 1)


def test_ribbon_conquer_leaves_a_decision(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["ach_card"] = 4  # culture:8+votes:3 -> conquer:1
    s["res"][0] = (0, 8, 0)
    s["votes"][0] = 3
    s["display"][:] = (1, 2, -1, -1)
    fx.claim(s, t, 0, 1, log_new())
    assert top(st) == (PD_CONQUER, 1, 0)


# ---------------------------------------------------------------- the pending stack


def test_push_pending_remembers_the_phase_and_stacks(rules):
    st = fresh(rules)
    s = st[0]
    fx.push_pending(s, 0, PD_VP_ANY, 1, 0)
    s["phase"] = PH_PENDING
    fx.push_pending(s, 0, PD_GLORY, 1, K_POWER)
    assert s["resume_phase"] == PH_REAL and s["n_pend"] == 2 and top(st) == (PD_GLORY, 1, K_POWER)


def test_a_top_without_option_offers_a_no_and_is_dropped(rules):
    st = fresh(rules)
    s = st[0]
    fx.push_pending(s, 0, PD_RETRIEVE, 1, 0)  # nobody on a timed row
    assert legal(st, rules) == [A_NO]
    log = log_new()
    apply(st, rules, A_NO, log)
    assert s["n_pend"] == 0
    c = events(log, EV_CHOICE)[0]
    assert (c["pending"], c["action"], c["is_auto"]) == (PD_RETRIEVE, fx.FORFEIT, 0)


def test_wild_gain_choice_logs_before_and_after(rules):
    st = fresh(rules)
    s, t = st[0], rules.t
    s["res"][0] = (1, 2, 3)
    log = log_new()
    fx.gain(s, t, 0, eff(rules, "wild:1"), 0, log)
    apply(st, rules, A_RES + R_CULTURE, log)
    c = events(log, EV_CHOICE)[0]
    assert (c["pending"], c["action"], c["before"], c["after"], c["n_left"]) == (PD_WILD_GAIN, A_RES + 1, 2, 3, 0)


def test_event_fields_fit_the_log():
    for kind, names in fx.EVENT_FIELDS.items():
        assert len(names) <= LOG_WIDTH - FIELD0, kind
        assert len(set(names)) == len(names), kind
