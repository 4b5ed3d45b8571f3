"""The rulebook's three worked examples (NOTES.md 1.10, fixtures in examples.toml)."""

from __future__ import annotations

import numpy as np
import pytest
from sentient_helpers import (
    EXAMPLES,
    TYPES,
    card_index,
    clear_log,
    clear_round,
    events,
    finish_round,
    new_state,
    rk,
    ruleset,
)

SCORING = EXAMPLES["scoring_example"]
INVESTOR = EXAMPLES["investor_example"]
ENDGAME = EXAMPLES["endgame_example"]


# ---------------------------------------------------------------- E1: round scoring


def _example_slots(rules):
    dice = SCORING["dice"]
    idx = [card_index(rules, cid) for cid in SCORING["cards_in_slots"]]
    return dice, idx


@pytest.mark.parametrize("floor", ["all", "sum_minus_6_only"])
def test_scoring_example_card_points(floor):
    """E1 / R31, R36-R40 (ЗАВЕРШЕНИЕ РАУНДА 1, Пример): each card scores on its two adjacent dice.

    Dice 6,5,3,4,2 with cards 19, 59, 7, 32 score 5, 3, 2, 4 = 14, under either service floor (O3).
    """
    rules = ruleset(3, service_floor=floor)
    dice, idx = _example_slots(rules)
    got = [rk.card_points(rules.data.card_array, c, dice[k], dice[k + 1], floor == "all") for k, c in enumerate(idx)]
    assert got == SCORING["expected_points"]
    table = [rk.points(rules.cards, c, dice[k], dice[k + 1]) for k, c in enumerate(idx)]
    assert table == SCORING["expected_points"]
    assert sum(got) == SCORING["expected_total"]


def test_scoring_example_cards_are_as_described():
    """E1: the example's cards are a sum-6 service card, a 3-VP both-odd industrial card, an information
    card with target 4 and a 4-VP L>R transport card (NOTES.md 1.10, cards.csv)."""
    rules = ruleset(3)
    c19, c59, c7, c32 = (rules.data.card_by_id(i) for i in SCORING["cards_in_slots"])
    assert (c19.type, c19.condition) == ("service", "SVC_SUM_MINUS_6")
    assert (c59.type, c59.condition, c59.printed_vp) == ("industrial", "IND_BOTH_ODD", 3)
    assert (c7.type, c7.condition, c7.param) == ("information", "INF_TARGET", 4)
    assert (c32.type, c32.condition, c32.printed_vp) == ("transport", "TRN_GT", 4)


@pytest.mark.parametrize("rnd", [1, 3])
def test_scoring_example_through_end_round(rnd):
    """E1 / R31: end_round scores the network built from the example: 5+3+2+4 = 14 VP for the seat,
    recorded per card in 'card_scored' events and in the round's VP."""
    rules = ruleset(3)
    state, log = new_state(rules, seed=11)
    s = state[0]
    s["round"] = rnd
    clear_round(state)
    dice, idx = _example_slots(rules)
    seat = 1
    s["dice"][seat] = dice
    for k, c in enumerate(idx):
        s["slot_card"][seat, k] = c
    finish_round(state)
    clear_log(log)
    rk.end_round(s, rules.cards, rules.inv, rules.opts, log)
    assert int(s["card_vp"][seat]) == SCORING["expected_total"]
    assert int(s["round_vp"][seat, rnd - 1]) == SCORING["expected_total"]
    for p in (0, 2):
        assert int(s["card_vp"][p]) == 0
    scored = [e for e in events(rules, log, "card_scored") if e["seat"] == seat]
    assert [e["card"] for e in scored] == SCORING["cards_in_slots"]
    assert [e["points"] for e in scored] == SCORING["expected_points"]
    assert [e["dice"] for e in scored] == [[dice[k], dice[k + 1]] for k in range(4)]
    if rnd == 3:
        assert s["over"] == 1
        assert int(s["total"][seat]) >= SCORING["expected_total"]


# ---------------------------------------------------------------- E2: investors

COLOURS = INVESTOR["turn_order"]  # red, white, yellow = seats 0, 1, 2, in that turn order


def _investor_position(opts_kw=None):
    rules = ruleset(3, **(opts_kw or {}))
    state, log = new_state(rules, seed=5)
    s = state[0]
    clear_round(state)
    s["order"][:3] = [0, 1, 2]
    s["investors"][:] = [TYPES.index(t) for t in INVESTOR["investors_left_to_right"]]
    for seat, colour in enumerate(COLOURS):
        s["col_agents"][seat, :] = INVESTOR[colour]["agents"]
        s["col_assistants"][seat, :] = INVESTOR[colour]["assistants"]
    s["investors_held"][:] = 0
    s["second_vp"][:] = 0
    clear_log(log)
    return rules, state, log


def test_investor_example_position_is_legal():
    """E2 fixture / R19, R25: every player has exactly 4 agents and at most 5 assistants on the factory."""
    for colour in COLOURS:
        assert sum(INVESTOR[colour]["agents"]) == 4
        assert sum(INVESTOR[colour]["assistants"]) <= 5


def test_investor_example_award_investors():
    """E2 / R32 (ЗАВЕРШЕНИЕ РАУНДА 2, Пример): winners take the tokens, runners-up 1 VP each, ties broken by
    agents in the adjacent columns and then by turn order (red, white, yellow)."""
    rules, state, log = _investor_position()
    s = state[0]
    rk.award_investors(s, rules.opts, log)
    expected_held = np.zeros((3, 5), dtype=int)
    expected_second = [0, 0, 0]
    for row in INVESTOR["expected"]:
        expected_held[COLOURS.index(row["winner"]), TYPES.index(row["investor"])] += 1
        expected_second[COLOURS.index(row["runner_up"])] += 1
    assert s["investors_held"][:3].tolist() == expected_held.tolist()
    assert s["second_vp"][:3].tolist() == expected_second


def test_investor_example_trace_events():
    """E2 / R32: the 'investor' trace events give, position by position, the stated winner and runner-up."""
    rules, state, log = _investor_position()
    rk.award_investors(state[0], rules.opts, log)
    evs = events(rules, log, "investor")
    assert [e["position"] for e in evs] == [0, 1, 2, 3, 4]
    for e, row in zip(evs, INVESTOR["expected"], strict=True):
        assert e["type"] == row["investor"]
        assert e["winner"] == COLOURS.index(row["winner"]), row
        assert e["second"] == COLOURS.index(row["runner_up"]), row


def test_investor_example_influence_counts():
    """E2 / R32: influence at I0 counts C1 only, I4 counts C4 only, inner investors count both columns."""
    rules, state, log = _investor_position()
    rk.award_investors(state[0], rules.opts, log)
    evs = events(rules, log, "investor")
    for pos, e in enumerate(evs):
        cols = [c for c in (pos - 1, pos) if 0 <= c < 4]
        for seat, colour in enumerate(COLOURS):
            a = INVESTOR[colour]["agents"]
            h = INVESTOR[colour]["assistants"]
            assert e["influence"][seat] == sum(a[c] + h[c] for c in cols)
            assert e["agents"][seat] == sum(a[c] for c in cols)


def test_investor_example_service_winner():
    """E2 item 4 / NOTES.md 1.11: the service investor goes to yellow; the rulebook's runner-up sentence
    (white) contradicts its own turn order, and the rule as written gives red the 1 VP."""
    rules, state, log = _investor_position()
    rk.award_investors(state[0], rules.opts, log)
    service = next(e for e in events(rules, log, "investor") if e["type"] == "service")
    assert service["winner"] == COLOURS.index("yellow")
    assert service["second"] == COLOURS.index("red")


# ---------------------------------------------------------------- E3: end of game


def _endgame_state(investors, cards):
    rules = ruleset(3)
    state, _ = new_state(rules, seed=3)
    s = state[0]
    s["investors_held"][:] = 0
    s["type_count"][:] = 0
    s["card_vp"][:] = 0
    s["second_vp"][:] = 0
    for t, name in enumerate(TYPES):
        s["investors_held"][0, t] = investors.get(name, 0)
        s["type_count"][0, t] = cards.get(name, 0)
    return state


def test_endgame_example_total():
    """E3 / R42 (КОНЕЦ ИГРЫ, Пример): 3 industrial x 4 + 1 information x 2 + service x 0 + defense x 3 = 17."""
    state = _endgame_state(ENDGAME["investors"], ENDGAME["cards"])
    rk.final_scoring(state[0])
    s = state[0]
    assert int(s["investor_vp"][0]) == ENDGAME["expected_total"]
    assert int(s["total"][0]) == ENDGAME["expected_total"]
    assert s["over"] == 1


@pytest.mark.parametrize("name", TYPES)
def test_endgame_example_per_type(name):
    """E3 / R42: each investor type scores 1 VP per owned card of its type, independently of the others."""
    state = _endgame_state({name: ENDGAME["investors"][name]}, ENDGAME["cards"])
    rk.final_scoring(state[0])
    assert int(state[0]["investor_vp"][0]) == ENDGAME["expected_investor_points"][name]
