"""Sentient rules on hand-made positions (NOTES.md rule ids R1-R43, open points O1-O10)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sentient_helpers import (
    GAME,
    N_CARDS,
    TYPES,
    buy,
    card_multiset,
    clear_log,
    clear_round,
    decoded_buys,
    events,
    find_card,
    find_cards,
    finish_round,
    legal,
    new_state,
    put_on_move,
    rk,
    ruleset,
    seat_to_move,
    step,
)

from simlab.core.driver import play_game
from simlab.core.errors import DataError
from simlab.core.player import resolve_players
from simlab.games.sentient.data import CONDITIONS, SYMBOLS

# ---------------------------------------------------------------- scoring conditions (R36-R41)

# The predicate or formula of every condition code, written from conditions.csv. ``vp`` is the
# card's printed VP; service formulas return the raw (unfloored) value.
REFERENCE = {
    "SVC_8_MINUS_SUM": lambda L, R, vp: 8 - (L + R),
    "SVC_5_MINUS_MIN": lambda L, R, vp: 5 - min(L, R),
    "SVC_7_MINUS_MAX": lambda L, R, vp: 7 - max(L, R),
    "SVC_SUM_MINUS_6": lambda L, R, vp: max(0, L + R - 6),
    "SVC_MAX_MINUS_2": lambda L, R, vp: max(L, R) - 2,
    "SVC_MIN_MINUS_1": lambda L, R, vp: min(L, R) - 1,
    "TRN_LT": lambda L, R, vp: vp if L < R else 0,
    "TRN_LE": lambda L, R, vp: vp if L <= R else 0,
    "TRN_EQ": lambda L, R, vp: vp if L == R else 0,
    "TRN_GT": lambda L, R, vp: vp if L > R else 0,
    "TRN_GE": lambda L, R, vp: vp if L >= R else 0,
    "DEF_SUM_LE4_OR_GE10": lambda L, R, vp: vp if (L + R <= 4 or L + R >= 10) else 0,
    "DEF_SUM_EQ7": lambda L, R, vp: vp if L + R == 7 else 0,
    "DEF_DIFF_EQ1": lambda L, R, vp: vp if abs(L - R) == 1 else 0,
    "DEF_DIFF_EQ2": lambda L, R, vp: vp if abs(L - R) == 2 else 0,
    "DEF_SUM_LE5": lambda L, R, vp: vp if L + R <= 5 else 0,
    "DEF_SUM_GE9": lambda L, R, vp: vp if L + R >= 9 else 0,
    "IND_LEVEN_RODD": lambda L, R, vp: vp if (L % 2 == 0 and R % 2 == 1) else 0,
    "IND_LODD_REVEN": lambda L, R, vp: vp if (L % 2 == 1 and R % 2 == 0) else 0,
    "IND_SUM_ODD": lambda L, R, vp: vp if (L + R) % 2 == 1 else 0,
    "IND_BOTH_ODD": lambda L, R, vp: vp if (L % 2 == 1 and R % 2 == 1) else 0,
}

# Hand-picked (L, R, scores?) cases per fixed-VP condition: True = printed VP, False = 0.
FIXED_CASES = {
    "TRN_LT": [(2, 3, True), (1, 6, True), (3, 3, False), (4, 3, False)],
    "TRN_LE": [(2, 3, True), (3, 3, True), (4, 3, False), (6, 1, False)],
    "TRN_EQ": [(3, 3, True), (6, 6, True), (3, 4, False), (4, 3, False)],
    "TRN_GT": [(4, 3, True), (6, 1, True), (3, 3, False), (2, 3, False)],
    "TRN_GE": [(4, 3, True), (3, 3, True), (2, 3, False), (1, 6, False)],
    "DEF_SUM_LE4_OR_GE10": [(1, 3, True), (2, 2, True), (4, 6, True), (6, 6, True), (2, 3, False), (4, 5, False)],
    "DEF_SUM_EQ7": [(1, 6, True), (3, 4, True), (3, 3, False), (4, 4, False)],
    "DEF_DIFF_EQ1": [(3, 4, True), (4, 3, True), (3, 3, False), (3, 5, False)],
    "DEF_DIFF_EQ2": [(3, 5, True), (5, 3, True), (3, 4, False), (1, 4, False)],
    "DEF_SUM_LE5": [(1, 4, True), (2, 3, True), (3, 3, False), (6, 6, False)],
    "DEF_SUM_GE9": [(4, 5, True), (6, 6, True), (4, 4, False), (1, 1, False)],
    "IND_LEVEN_RODD": [(2, 3, True), (6, 1, True), (3, 2, False), (2, 2, False), (3, 3, False)],
    "IND_LODD_REVEN": [(3, 2, True), (1, 6, True), (2, 3, False), (1, 1, False), (4, 6, False)],
    "IND_SUM_ODD": [(2, 3, True), (3, 2, True), (3, 3, False), (2, 4, False)],
    "IND_BOTH_ODD": [(1, 3, True), (5, 5, True), (1, 2, False), (2, 1, False), (2, 4, False)],
}

# (L, R, points with every formula floored, points with only sum-6 floored) per service formula.
SERVICE_CASES = {
    "SVC_8_MINUS_SUM": [(1, 2, 5, 5), (3, 5, 0, 0), (6, 6, 0, -4), (4, 5, 0, -1)],
    "SVC_5_MINUS_MIN": [(1, 6, 4, 4), (5, 5, 0, 0), (6, 6, 0, -1)],
    "SVC_7_MINUS_MAX": [(1, 1, 6, 6), (6, 2, 1, 1), (6, 6, 1, 1)],
    "SVC_SUM_MINUS_6": [(6, 5, 5, 5), (3, 3, 0, 0), (1, 1, 0, 0), (6, 6, 6, 6)],
    "SVC_MAX_MINUS_2": [(6, 1, 4, 4), (2, 2, 0, 0), (1, 1, 0, -1)],
    "SVC_MIN_MINUS_1": [(3, 6, 2, 2), (1, 6, 0, 0), (6, 6, 5, 5)],
}


def _both_ways(rules, floor_all: bool, c: int, L: int, R: int) -> int:
    """Points from the formula kernel and from the ruleset's lookup table (they must agree)."""
    a = rk.card_points(rules.data.card_array, c, L, R, floor_all)
    b = rk.points(rules.cards, c, L, R)
    assert a == b, (c, L, R, a, b)
    return int(a)


def test_all_22_condition_codes_exist():
    """R41: the kernels implement exactly the 22 condition codes of conditions.csv, all used by the deck."""
    codes = [code for code, _, _ in CONDITIONS]
    assert len(codes) == 22 == len(set(codes))
    assert set(codes) == set(REFERENCE) | {"INF_TARGET"}
    assert {c.condition for c in ruleset(3).data.cards} == set(codes)


@pytest.mark.parametrize("code", sorted(FIXED_CASES))
def test_fixed_vp_condition(code):
    """R37-R39 (transport, defense, industrial): the printed VP when the condition holds, else 0."""
    rules = ruleset(3)
    for c in find_cards(rules, code):
        vp = rules.data.cards[c].printed_vp
        assert vp is not None and vp > 0
        for L, R, holds in FIXED_CASES[code]:
            assert _both_ways(rules, True, c, L, R) == (vp if holds else 0), (code, L, R)


@pytest.mark.parametrize("t", range(1, 7))
def test_information_two_or_seven(t):
    """R36: information scores 2 if one adjacent die shows its number, 7 (not 9) if both do, else 0."""
    rules = ruleset(3)
    other = 1 if t != 1 else 2
    for c in find_cards(rules, "INF_TARGET", param=t):
        assert _both_ways(rules, True, c, t, t) == 7
        assert _both_ways(rules, True, c, t, other) == 2
        assert _both_ways(rules, True, c, other, t) == 2
        assert _both_ways(rules, True, c, other, other) == 0


@pytest.mark.parametrize("code", sorted(SERVICE_CASES))
def test_service_formula_and_floor(code):
    """R40 / O3: service cards score their formula; 'all' floors every formula at 0, 'sum_minus_6_only'
    floors only (L+R)-6 (the floor the rulebook prints)."""
    floored = ruleset(3, service_floor="all")
    raw = ruleset(3, service_floor="sum_minus_6_only")
    for c in find_cards(floored, code):
        for L, R, want_all, want_raw in SERVICE_CASES[code]:
            assert _both_ways(floored, True, c, L, R) == want_all, (code, L, R)
            assert _both_ways(raw, False, c, L, R) == want_raw, (code, L, R)


@pytest.mark.parametrize("floor", ["all", "sum_minus_6_only"])
def test_every_card_every_dice_pair_matches_reference(floor):
    """R36-R41: every card of the deck, for all 36 pairs of final dice, scores as conditions.csv says."""
    rules = ruleset(3, service_floor=floor)
    floor_all = floor == "all"
    for c, card in enumerate(rules.data.cards):
        for L, R in itertools.product(range(1, 7), repeat=2):
            if card.condition == "INF_TARGET":
                m = (card.param == L) + (card.param == R)
                want = 7 if m == 2 else 2 if m == 1 else 0
            else:
                want = REFERENCE[card.condition](L, R, card.printed_vp)
                if floor_all and card.type == "service":
                    want = max(0, want)
            assert _both_ways(rules, floor_all, c, L, R) == want, (card, L, R)


def test_scores_never_negative_with_default_floor():
    """O3 default ('all'): no card scores below 0 on any dice."""
    rules = ruleset(3)
    assert rules.cards[:, rk.PTS0 :].min() >= 0


# ---------------------------------------------------------------- positions


def _position(n_players=3, seed=21, **options):
    """A game just set up, with a clean round and the log emptied; returns (rules, state, log, seat to move)."""
    rules = ruleset(n_players, **options)
    state, log = new_state(rules, seed=seed)
    clear_round(state)
    clear_log(log)
    return rules, state, log, seat_to_move(state)


def _deck_top(state, k):
    """The next k cards the deck deals, in draw order."""
    s = state[0]
    n = int(s["deck_n"])
    return [int(s["deck"][n - 1 - i]) for i in range(k)]


# ---------------------------------------------------------------- setup (R6-R13)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    """R6-R13: shuffled deck minus a factory of 4, 5 investors (one per type), 5 dice of 1-6 per player,
    4 agents and 5 assistants each, one distinct starting investor each, a random first turn order."""
    rules = ruleset(n)
    state, _ = new_state(rules, seed=99 + n)
    s = state[0]
    assert s["round"] == 1 and s["over"] == 0
    assert int(s["deck_n"]) == N_CARDS - 4 and int(s["discard_n"]) == 0
    assert sorted(card_multiset(state)) == list(range(N_CARDS))
    assert sorted(s["investors"].tolist()) == list(range(5))
    assert sorted(s["order"][:n].tolist()) == list(range(n))
    assert s["first_seat"] == s["order"][0]
    starts = s["start_investor"][:n].tolist()
    assert len(set(starts)) == n
    for p in range(n):
        assert all(1 <= v <= 6 for v in s["dice"][p])
        assert s["agents"][p] == 4 and s["assistants"][p] == 5
        held = s["investors_held"][p].tolist()
        assert sum(held) == 1 and held[starts[p]] == 1
    for p in range(n, 4):
        assert all(v == 0 for v in s["dice"][p])


# ---------------------------------------------------------------- calibration (R22, R24)


def test_wrap_die():
    """R22 rule (б): raising a 6 gives 1, lowering a 1 gives 6; other values are unchanged."""
    assert rk.wrap_die(7) == 1
    assert rk.wrap_die(0) == 6
    for v in range(1, 7):
        assert rk.wrap_die(v) == v


@pytest.mark.parametrize(("side", "symbol", "start", "end"), [
    ("left", "+", 6, 1), ("right", "+", 6, 1), ("left", "-", 1, 6), ("right", "-", 1, 6),
])
def test_calibration_wraps(side, symbol, start, end):
    """R22: a '+' corner on a 6 gives 1, a '-' corner on a 1 gives 6 (through a real buy)."""
    rules, state, log, p = _position()
    c = find_card(rules, **{side: symbol})
    s = state[0]
    s["factory"][2] = c
    s["dice"][p] = [start] * 5
    step(rules, state, buy(2, 1), log)
    d = 1 if side == "left" else 2
    assert int(s["dice"][p, d]) == end


def test_calibration_every_card():
    """R22: each card's left symbol acts on the die left of its slot and its right symbol on the die to
    the right ('+' +1, '-' -1, '=' nothing); the other dice do not move."""
    rules, state, log, p = _position(n_players=2)
    s = state[0]
    for c, card in enumerate(rules.data.cards):
        clear_round(state)
        put_on_move(state, p)
        s["factory"][0] = c
        s["dice"][p] = [3, 3, 3, 3, 3]
        step(rules, state, buy(0, 2), log)
        assert s["dice"][p].tolist() == [3, 3, 3 + SYMBOLS[card.left], 3 + SYMBOLS[card.right], 3], card
        assert int(s["slot_card"][p, 2]) == c


def test_calibration_changes_add_up():
    """R24: a die between two slots is changed by both cards, in the order they are connected (with wrap)."""
    rules, state, log, p = _position()
    s = state[0]
    c1 = find_card(rules, right="+")
    c2 = find_card(rules, left="+")
    s["dice"][p] = [3, 5, 3, 3, 3]
    s["factory"][0] = c1
    step(rules, state, buy(0, 0), log)
    assert int(s["dice"][p, 1]) == 6
    put_on_move(state, p)
    s["factory"][1] = c2
    step(rules, state, buy(1, 1), log)
    assert int(s["dice"][p, 1]) == 1


# ---------------------------------------------------------------- blocking (R23, R25)


@pytest.mark.parametrize(("bl", "br"), [(1, 0), (0, 1), (1, 1)])
def test_blocked_corner_leaves_die_unchanged(bl, br):
    """R23: an assistant on a '+'/'-' corner cancels that symbol only; it is spent for the round (R25)."""
    rules, state, log, p = _position()
    s = state[0]
    c = find_card(rules, left="+", right="-")
    s["factory"][1] = c
    s["dice"][p] = [4, 4, 4, 4, 4]
    step(rules, state, buy(1, 0, bl, br), log)
    assert int(s["dice"][p, 0]) == (4 if bl else 5)
    assert int(s["dice"][p, 1]) == (4 if br else 3)
    assert int(s["assistants"][p]) == 5 - bl - br
    assert int(s["slot_block"][p, 0]) == bl | (br << 1)
    take = events(rules, log, "take")[-1]
    assert take["blocked"] == [bool(bl), bool(br)]
    assert take["dice_before"] == [4, 4]


def test_equals_corner_cannot_be_blocked():
    """R23: no assistant can go on an '=' corner: no legal action blocks one."""
    rules, state, _, _ = _position()
    s = state[0]
    s["factory"][:] = [
        find_card(rules, left="=", right="+"),
        find_card(rules, left="+", right="="),
        find_card(rules, left="=", right="-"),
        find_card(rules, left="-", right="+"),
    ]
    buys = decoded_buys(legal(rules, state))
    assert buys
    for col, _slot, bl, br, _infl in buys:
        card = rules.data.cards[int(s["factory"][col])]
        if bl:
            assert card.left != "="
        if br:
            assert card.right != "="
    # and the active corners can be blocked
    assert any(col == 0 and br for col, _, bl, br, _ in buys)
    assert any(col == 1 and bl for col, _, bl, br, _ in buys)
    assert any(col == 3 and bl and br for col, _, bl, br, _ in buys)


def _reference_buys(rules, s, p, same_column=True):
    """Every legal buy by R19-R25 (and O8): empty slot, free agent, blocks on +/- corners only,
    blocks plus influence assistants at most the assistants in hand."""
    out = set()
    if s["agents"][p] == 0:
        return out
    a = int(s["assistants"][p])
    for col in range(4):
        c = int(s["factory"][col])
        if c < 0 or (not same_column and s["col_agents"][p, col] > 0):
            continue
        card = rules.data.cards[c]
        for slot in range(4):
            if s["slot_card"][p, slot] >= 0:
                continue
            for bl in range(2 if card.left != "=" else 1):
                for br in range(2 if card.right != "=" else 1):
                    for infl in range(a - bl - br + 1):
                        out.add((col, slot, bl, br, infl))
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("assistants", [0, 1, 2, 5])
def test_legal_buys_exact(seed, assistants):
    """R19-R25: the legal buys are exactly the (column, empty slot, blocks on active corners, influence)
    combinations using at most the assistants in hand; no action appears twice."""
    rules, state, _, p = _position(seed=seed)
    s = state[0]
    s["assistants"][p] = assistants
    s["agents"][p] = 2
    s["slot_card"][p, seed % 4] = int(s["deck"][0])
    acts = legal(rules, state)
    assert len(acts) == len(set(acts.tolist()))
    assert decoded_buys(acts) == _reference_buys(rules, s, p)
    assert rk.ACT_PASS in acts.tolist()
    for col, _slot, bl, br, infl in decoded_buys(acts):
        assert bl + br + infl <= assistants
        assert col in range(4)


@pytest.mark.parametrize(("infl", "bl"), [(0, 0), (3, 0), (2, 1), (5, 0)])
def test_influence_assistants(infl, bl):
    """R19, R25: the agent and the influence assistants go to the chosen column and leave the player's hand;
    blocking assistants come from the same 5."""
    rules, state, log, p = _position()
    s = state[0]
    s["factory"][3] = find_card(rules, left="+", right="-")
    step(rules, state, buy(3, 2, bl, 0, infl), log)
    assert int(s["agents"][p]) == 3
    assert int(s["assistants"][p]) == 5 - infl - bl
    assert s["col_agents"][p].tolist() == [0, 0, 0, 1]
    assert s["col_assistants"][p].tolist() == [0, 0, 0, infl]


def test_buy_takes_card_and_refills_at_once():
    """R20, R21: the bought card goes to the chosen slot and the owner's cards, and its column is refilled
    at once from the top of the deck."""
    rules, state, log, p = _position()
    s = state[0]
    old = int(s["factory"][1])
    top = _deck_top(state, 1)[0]
    n = int(s["deck_n"])
    step(rules, state, buy(1, 3), log)
    assert int(s["slot_card"][p, 3]) == old
    assert int(s["factory"][1]) == top
    assert int(s["deck_n"]) == n - 1
    assert s["owned"][p, : s["owned_n"][p]].tolist() == [old]
    assert int(s["type_count"][p, TYPES.index(rules.data.cards[old].type)]) == 1
    assert events(rules, log, "take")[-1]["refill"] == rules.data.cards[top].id


# ---------------------------------------------------------------- passing (R16-R18, R26-R30)


@pytest.mark.parametrize("sweep", ["mandatory", "optional"])
def test_forced_pass(sweep):
    """R17, R28: a player with no agent left who still holds the marker can only pass; that pass does not
    sweep the factory, but the marker still moves (the player joins the passing order)."""
    rules, state, log, p = _position(sweep_on_voluntary_pass=sweep)
    s = state[0]
    s["agents"][p] = 0
    assert legal(rules, state).tolist() == [rk.ACT_PASS]
    factory = s["factory"].tolist()
    deck_n, discard_n, sweeps = int(s["deck_n"]), int(s["discard_n"]), int(s["n_sweeps"])
    step(rules, state, rk.ACT_PASS, log)
    assert s["factory"].tolist() == factory
    assert (int(s["deck_n"]), int(s["discard_n"]), int(s["n_sweeps"])) == (deck_n, discard_n, sweeps)
    assert s["passed"][p] == 1
    assert int(s["n_passed"]) == 1 and int(s["pass_seq"][0]) == p
    ev = events(rules, log, "pass")[-1]
    assert ev["seat"] == p and ev["swept"] is False


def test_voluntary_pass_sweeps():
    """R26, R27, O6 default: a pass with agents left discards the 4 factory cards, then deals 4 new ones;
    agents, assistants and investors in the factory stay."""
    rules, state, log, p = _position()
    s = state[0]
    q = int(s["order"][(int(s["turn"]) + 1) % 3])
    s["col_agents"][q, 2] = 1
    s["col_assistants"][q, 2] = 2
    old = s["factory"].tolist()
    new = _deck_top(state, 4)
    investors = s["investors"].tolist()
    deck_n, discard_n = int(s["deck_n"]), int(s["discard_n"])
    step(rules, state, rk.ACT_PASS, log)
    assert s["factory"].tolist() == new
    assert s["discard"][discard_n : discard_n + 4].tolist() == old
    assert int(s["discard_n"]) == discard_n + 4
    assert int(s["deck_n"]) == deck_n - 4
    assert s["investors"].tolist() == investors
    assert int(s["col_agents"][q, 2]) == 1 and int(s["col_assistants"][q, 2]) == 2
    assert s["passed"][p] == 1 and int(s["agents"][p]) == 4 and int(s["assistants"][p]) == 5
    assert int(s["n_sweeps"]) == 1
    ev = events(rules, log, "pass")[-1]
    assert ev["swept"] is True
    assert ev["factory"] == [rules.data.cards[c].id for c in new]


def _short_deck(state):
    """Leave 2 cards in the deck and 3 in the discard pile (from the old deck); return (deck, discard)."""
    s = state[0]
    cards = s["deck"][: int(s["deck_n"])].tolist()
    deck, discard = cards[:2], cards[2:5]
    s["deck"][:2] = deck
    s["deck_n"] = 2
    s["discard"][:3] = discard
    s["discard_n"] = 3
    return deck, discard


def test_sweep_discard_then_draw_can_redraw_swept_cards():
    """O6 default (discard, then draw) with O7 default: the swept cards are in the discard pile when the
    deck runs out during the refill, so they are reshuffled into the new deck."""
    rules, state, log, _ = _position(sweep_order="discard_then_draw")
    s = state[0]
    deck, discard = _short_deck(state)
    old = s["factory"].tolist()
    step(rules, state, rk.ACT_PASS, log)
    new = s["factory"].tolist()
    assert new[:2] == [deck[1], deck[0]]
    assert int(s["discard_n"]) == 0 and int(s["deck_n"]) == 5
    assert sorted(new[2:] + s["deck"][:5].tolist()) == sorted(discard + old)
    assert int(s["n_reshuffles"]) == 1
    assert events(rules, log, "reshuffle")[-1]["deck_size"] == 7


def test_sweep_draw_then_discard():
    """O6 'draw_then_discard': the 4 new cards are drawn before the swept ones reach the discard pile, so a
    reshuffle during the refill cannot bring the swept cards back."""
    rules, state, log, _ = _position(sweep_order="draw_then_discard")
    s = state[0]
    deck, discard = _short_deck(state)
    old = s["factory"].tolist()
    step(rules, state, rk.ACT_PASS, log)
    new = s["factory"].tolist()
    assert new[:2] == [deck[1], deck[0]]
    assert set(new[2:]) <= set(discard)
    assert not set(new) & set(old)
    assert s["discard"][: int(s["discard_n"])].tolist() == old
    assert int(s["deck_n"]) == 1 and int(s["deck"][0]) in discard
    assert events(rules, log, "reshuffle")[-1]["deck_size"] == 3


def test_passed_player_with_agents_must_buy():
    """R16, R18: a player may pass only once per round; after passing, every turn must be a buy."""
    for sweep in ("mandatory", "optional"):
        rules, state, _, p = _position(sweep_on_voluntary_pass=sweep)
        s = state[0]
        s["passed"][p] = 1
        s["agents"][p] = 2
        acts = legal(rules, state).tolist()
        assert acts
        assert rk.ACT_PASS not in acts and rk.ACT_PASS_NO_SWEEP not in acts
        assert all(a >= rk.ACT_BUY0 for a in acts)


def test_finished_player_is_skipped():
    """R15, R17: play goes down the stack and wraps; a player who has passed with no agents has no turns."""
    rules, state, log, _ = _position(n_players=3)
    s = state[0]
    s["order"][:3] = [2, 0, 1]
    s["turn"] = 0
    s["passed"][0] = 1
    s["agents"][0] = 0
    step(rules, state, buy(0, 0), log)  # seat 2 buys; seat 0 is done, so seat 1 is next
    assert seat_to_move(state) == 1
    step(rules, state, buy(0, 0), log)
    assert seat_to_move(state) == 2


@pytest.mark.parametrize("sweep", ["mandatory", "optional"])
def test_sweep_optional_variant(sweep):
    """O10: ACT_PASS_NO_SWEEP is legal only under the optional-sweep variant and only for a voluntary pass;
    it leaves the factory alone, while ACT_PASS still sweeps."""
    rules, state, log, p = _position(sweep_on_voluntary_pass=sweep)
    s = state[0]
    acts = legal(rules, state).tolist()
    assert rk.ACT_PASS in acts
    assert (rk.ACT_PASS_NO_SWEEP in acts) == (sweep == "optional")
    if sweep == "optional":
        factory = s["factory"].tolist()
        step(rules, state, rk.ACT_PASS_NO_SWEEP, log)
        assert s["factory"].tolist() == factory and s["passed"][p] == 1
        assert events(rules, log, "pass")[-1]["swept"] is False
        q = seat_to_move(state)
        new = _deck_top(state, 4)
        step(rules, state, rk.ACT_PASS, log)
        assert s["factory"].tolist() == new and s["passed"][q] == 1


# ---------------------------------------------------------------- turn order across rounds (R29)


@pytest.mark.parametrize("pass_order", [[2, 0, 1], [0, 1, 2], [1, 2, 0]])
def test_next_round_order_reverses_passing_order(pass_order):
    """R29, R33: the next round's stack is built in passing order with each marker on top, so the last to
    pass starts the next round and the first to pass goes last."""
    rules, state, log, _ = _position()
    finish_round(state, pass_order)
    rk.end_round(state[0], rules.cards, rules.inv, rules.opts, log)
    want = pass_order[::-1]
    assert state[0]["order"][:3].tolist() == want
    assert events(rules, log, "round_end")[-1]["next_turn_order"] == want
    start = events(rules, log, "round_start")[-1]
    assert start["round"] == 2 and start["turn_order"] == want
    assert seat_to_move(state) == want[0]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_order_reverses_in_played_games(n):
    """R29: in played games, each round's turn order is the reverse of the previous round's passing order."""
    rules = ruleset(n)
    players = resolve_players(GAME, ["random"] * n)
    for seed in range(3):
        evs = play_game(GAME, rules, players, 1000 + seed, record_events=True).events
        for rnd in (1, 2):
            passes = [e["seat"] for e in evs if e["event"] == "pass" and e["round"] == rnd]
            assert sorted(passes) == list(range(n))
            nxt = next(e for e in evs if e["event"] == "round_start" and e["round"] == rnd + 1)
            assert nxt["turn_order"] == passes[::-1]


def test_investor_ties_use_current_round_order():
    """R32 (b): turn-order ties at the investors use the finished round's stack, not the next round's."""
    rules, state, log, _ = _position()
    s = state[0]
    s["order"][:3] = [0, 1, 2]
    s["col_agents"][0, 0] = 1
    s["col_agents"][2, 0] = 1
    finish_round(state, [0, 1, 2])  # next order would put seat 2 first
    s["investors_held"][:] = 0
    rk.end_round(s, rules.cards, rules.inv, rules.opts, log)
    first = events(rules, log, "investor")[0]
    assert first["position"] == 0
    assert first["winner"] == 0 and first["second"] == 2


# ---------------------------------------------------------------- round end and the deck (R20, R33, O5, O7)


@pytest.mark.parametrize("timing", ["when_drawing_from_empty_deck", "as_soon_as_deck_empty"])
def test_reshuffle_timing(timing):
    """R20 / O7: the discard pile is shuffled into a new deck when a card must be drawn from an empty deck
    (default), or at once when the deck runs out ('as_soon_as_deck_empty')."""
    rules, state, log, _ = _position(reshuffle_timing=timing)
    s = state[0]
    cards = s["deck"][: int(s["deck_n"])].tolist()
    last, discard = cards[0], cards[1:6]
    s["deck_n"] = 1
    s["discard"][:5] = discard
    s["discard_n"] = 5
    step(rules, state, buy(0, 0), log)  # draws the last card
    assert int(s["factory"][0]) == last
    if timing == "as_soon_as_deck_empty":
        assert (int(s["deck_n"]), int(s["discard_n"]), int(s["n_reshuffles"])) == (5, 0, 1)
    else:
        assert (int(s["deck_n"]), int(s["discard_n"]), int(s["n_reshuffles"])) == (0, 5, 0)
        assert not events(rules, log, "reshuffle")
    step(rules, state, buy(1, 0), log)  # the next draw
    assert int(s["factory"][1]) in discard
    assert (int(s["deck_n"]), int(s["discard_n"]), int(s["n_reshuffles"])) == (4, 0, 1)
    assert sorted([*s["deck"][:4].tolist(), int(s["factory"][1])]) == sorted(discard)
    assert events(rules, log, "reshuffle")[0]["deck_size"] == 5


@pytest.mark.parametrize("leftovers", ["discard", "remove_from_game"])
def test_leftovers_at_round_end(leftovers):
    """R33 / O5: the factory cards left at the end of rounds 1 and 2 go to the discard pile (default) or
    leave the game; either way every card is accounted for."""
    rules, state, log, _ = _position(n_players=4, factory_leftovers=leftovers)
    s = state[0]
    old = s["factory"].tolist()
    discard_n = int(s["discard_n"])
    finish_round(state)
    rk.end_round(s, rules.cards, rules.inv, rules.opts, log)
    assert s["round"] == 2
    if leftovers == "discard":
        assert s["discard"][discard_n : discard_n + 4].tolist() == old
        assert int(s["removed_n"]) == 0
    else:
        assert int(s["discard_n"]) == discard_n
        assert int(s["removed_n"]) == 4
        assert not set(card_multiset(state)) & set(old)
    assert len(card_multiset(state)) + int(s["removed_n"]) == N_CARDS
    assert len(set(card_multiset(state))) == len(card_multiset(state))


def test_new_round_setup():
    """R10-R13, R33: after round 1 every piece comes back, the networks are empty, a new factory of 4 is
    dealt, the round-2 investors are laid out and every player rolls 5 new dice."""
    rules, state, log, _ = _position()
    s = state[0]
    s["col_agents"][0, 0] = 3
    s["col_assistants"][1, 2] = 4
    s["slot_card"][2, 1] = int(s["deck"][0])
    s["investors_held"][:] = 0
    finish_round(state)
    top = _deck_top(state, 4)  # the round-1 factory goes to the discard; the next 4 cards are dealt
    rk.end_round(s, rules.cards, rules.inv, rules.opts, log)
    assert s["round"] == 2 and s["turn"] == 0 and s["n_passed"] == 0
    assert s["factory"].tolist() == top
    assert sorted(s["investors"].tolist()) == list(range(5))
    for p in range(3):
        assert s["agents"][p] == 4 and s["assistants"][p] == 5 and s["passed"][p] == 0
        assert not s["col_agents"][p].any() and not s["col_assistants"][p].any()
        assert s["slot_card"][p].tolist() == [-1] * 4 and not s["slot_block"][p].any()
        assert all(1 <= v <= 6 for v in s["dice"][p])
        assert s["round_dice"][p].tolist() == s["dice"][p].tolist()


def test_investor_layout_type_order():
    """O4 'type_order_face_up': the five investors lie in type order every round; the default shuffles."""
    rules = ruleset(3, investor_layout="type_order_face_up")
    players = resolve_players(GAME, ["random"] * 3)
    evs = play_game(GAME, rules, players, 77, record_events=True).events
    layouts = [e["investors"] for e in evs if e["event"] == "round_start"]
    assert layouts == [list(TYPES)] * 3
    shuffled = set()
    for seed in range(10):
        evs = play_game(GAME, ruleset(3), players, seed, record_events=True).events
        shuffled |= {tuple(e["investors"]) for e in evs if e["event"] == "round_start"}
    assert len(shuffled) > 3


# ---------------------------------------------------------------- same column (O8)


@pytest.mark.parametrize("same", [True, False])
def test_same_column_option(same):
    """O8: by default a player may send a second agent to a column where they already have one; with the
    option off no legal action uses that column."""
    rules, state, _, p = _position(same_column_multiple_agents=same)
    s = state[0]
    s["col_agents"][p, 1] = 1
    s["agents"][p] = 3
    cols = {col for col, *_ in decoded_buys(legal(rules, state))}
    assert (1 in cols) == same
    assert {0, 2, 3} <= cols
    assert decoded_buys(legal(rules, state)) == _reference_buys(rules, s, p, same_column=same)


# ---------------------------------------------------------------- investors (R32, O1, O2)


def _award(order, agents, assistants, n=3, investors=(0, 1, 2, 3, 4), **options):
    """Award the investors of a hand-made factory; returns (state, 'investor' events).

    ``agents``/``assistants``: seat -> pieces per column [C1..C4]."""
    rules, state, log, _ = _position(n_players=n, **options)
    s = state[0]
    s["order"][:n] = order
    s["investors"][:] = investors
    for p, cols in agents.items():
        s["col_agents"][p, :] = cols
    for p, cols in assistants.items():
        s["col_assistants"][p, :] = cols
    s["investors_held"][:] = 0
    s["second_vp"][:] = 0
    rk.award_investors(s, rules.opts, log)
    return state, events(rules, log, "investor")


def test_investor_most_influence_wins():
    """R32: the most influence (agents plus assistants) takes the token, whatever the turn order; the next
    gets 1 VP."""
    state, evs = _award([0, 1, 2], {0: [1, 0, 0, 0], 2: [1, 0, 0, 0]}, {2: [2, 0, 0, 0], 0: [1, 0, 0, 0]})
    assert evs[0]["influence"] == [2, 0, 3]
    assert (evs[0]["winner"], evs[0]["second"]) == (2, 0)
    s = state[0]
    assert s["investors_held"][2].tolist() == [1, 1, 0, 0, 0]  # I0 and I1 (types 0 and 1)
    assert s["second_vp"][:3].tolist() == [2, 0, 0]
    # I1 counts C1 and C2: same standings there; I2-I4 have nobody
    assert (evs[1]["winner"], evs[1]["second"]) == (2, 0)
    for e in evs[2:]:
        assert e["winner"] is None and e["second"] is None


def test_end_investors_count_one_column():
    """R32: I0 counts C1 only and I4 counts C4 only; inner investor Ik counts Ck and Ck+1."""
    _, evs = _award([0, 1, 2], {0: [0, 2, 0, 0], 1: [1, 0, 0, 0], 2: [0, 0, 1, 1]}, {})
    assert evs[0]["influence"] == [0, 1, 0]
    assert evs[1]["influence"] == [2, 1, 0]
    assert evs[2]["influence"] == [2, 0, 1]
    assert evs[3]["influence"] == [0, 0, 2]
    assert evs[4]["influence"] == [0, 0, 1]
    assert [e["winner"] for e in evs] == [1, 0, 0, 2, 2]


@pytest.mark.parametrize("scope", ["adjacent_columns_total", "skip"])
def test_agent_tiebreak_sums_adjacent_columns(scope):
    """R32 (a) / O1: equal influence goes to more agents, summed over both columns of an inner investor
    (seat 2: one agent in C1 and one in C2 beats seat 0: one agent and one assistant in C1, although seat 0
    is first in turn order). 'skip' goes straight to turn order."""
    _, evs = _award([0, 1, 2], {0: [1, 0, 0, 0], 2: [1, 1, 0, 0]}, {0: [1, 0, 0, 0]},
                        agent_tiebreak_scope=scope)
    inner = evs[1]
    assert inner["influence"] == [2, 0, 2] and inner["agents"] == [1, 0, 2]
    if scope == "skip":
        assert (inner["winner"], inner["second"]) == (0, 2)
    else:
        assert (inner["winner"], inner["second"]) == (2, 0)
    # at I0 (C1 only) seat 0 has 2 influence, seat 2 has 1
    assert (evs[0]["winner"], evs[0]["second"]) == (0, 2)


def test_agent_tiebreak_for_runner_up():
    """R32: the tie-breaks also decide the runner-up's 1 VP."""
    _, evs = _award([2, 0, 1], {1: [2, 0, 0, 0], 0: [1, 0, 0, 0], 2: [0, 0, 0, 0]},
                        {1: [2, 0, 0, 0], 0: [1, 0, 0, 0], 2: [2, 0, 0, 0]})
    assert evs[0]["influence"] == [2, 4, 2]
    assert (evs[0]["winner"], evs[0]["second"]) == (1, 0)


@pytest.mark.parametrize("order", [[0, 1, 2], [2, 0, 1], [1, 2, 0]])
def test_turn_order_tiebreak(order):
    """R32 (b): equal influence and agents: the marker higher in the current stack wins, the next in the
    stack is runner-up (turn order, not seat number)."""
    _, evs = _award(order, {p: [1, 0, 0, 0] for p in range(3)}, {p: [1, 0, 0, 0] for p in range(3)})
    assert (evs[0]["winner"], evs[0]["second"]) == (order[0], order[1])


@pytest.mark.parametrize("minimum", [1, 0])
def test_runner_up_needs_influence(minimum):
    """O2: by default the runner-up needs at least 1 influence, so a lone player leaves the 1 VP unclaimed;
    with runner_up_min_influence = 0 the next player in turn order takes it."""
    state, evs = _award([2, 0, 1], {1: [1, 0, 0, 0]}, {}, runner_up_min_influence=minimum)
    assert evs[0]["winner"] == 1
    s = state[0]
    if minimum == 1:
        assert evs[0]["second"] is None
        assert s["second_vp"][:3].tolist() == [0, 0, 0]
    else:
        assert evs[0]["second"] == 2
        assert int(s["second_vp"][2]) >= 1


@pytest.mark.parametrize("minimum", [1, 0])
def test_no_winner_without_influence(minimum):
    """O2 / R32: nobody takes an investor nobody has influence at, and then nobody takes its 1 VP."""
    state, evs = _award([0, 1, 2], {}, {}, runner_up_min_influence=minimum)
    s = state[0]
    for e in evs:
        assert e["winner"] is None and e["second"] is None
    assert not s["investors_held"].any()
    assert not s["second_vp"].any()


def test_investor_token_type():
    """R32: the winner takes the token of the position's type (counted for the end game, R42)."""
    state, evs = _award([0, 1, 2], {0: [0, 0, 0, 1]}, {}, investors=(4, 3, 2, 1, 0))
    s = state[0]
    assert [e["type"] for e in evs] == [TYPES[t] for t in (4, 3, 2, 1, 0)]
    assert s["investors_held"][0].tolist() == [1, 1, 0, 0, 0]  # I3 (service) and I4 (information)


# ---------------------------------------------------------------- end of game (R42, R43)


def _final(totals, investor_counts, n=3):
    _, state, _, _ = _position(n_players=n)
    s = state[0]
    s["type_count"][:] = 0
    s["investors_held"][:] = 0
    s["second_vp"][:] = 0
    for p in range(n):
        s["card_vp"][p] = totals[p]
        s["investors_held"][p, 0] = investor_counts[p]
    rk.final_scoring(s)
    return s


def test_final_highest_total_wins():
    """R43: the highest total wins; ranks follow totals."""
    s = _final([10, 30, 20], [1, 1, 3])
    assert s["total"][:3].tolist() == [10, 30, 20]
    assert s["winner"][:3].tolist() == [0, 1, 0]
    assert s["rank"][:3].tolist() == [3, 1, 2]
    assert s["over"] == 1 and s["round"] == 4


def test_final_tie_broken_by_investors():
    """R43: on equal totals the player with more investors wins."""
    s = _final([25, 25, 10], [2, 3, 5])
    assert s["winner"][:3].tolist() == [0, 1, 0]
    assert s["rank"][:3].tolist() == [2, 1, 3]


def test_final_shared_win():
    """R43: equal totals and equal investor counts: a shared win, tied players share the rank."""
    s = _final([25, 25, 10, 25], [2, 2, 5, 1], n=4)
    assert s["winner"][:4].tolist() == [1, 1, 0, 0]
    assert s["rank"][:4].tolist() == [1, 1, 4, 3]
    s = _final([7, 7], [1, 1], n=2)
    assert s["winner"][:2].tolist() == [1, 1]
    assert s["rank"][:2].tolist() == [1, 1]


def test_final_total_is_sum_of_parts():
    """R31, R32, R42: total = card VP + runner-up VP + investor VP (1 VP per owned card per held investor of
    its type, the starting investor included)."""
    _, state, _, _ = _position()
    s = state[0]
    s["card_vp"][:3] = [11, 12, 13]
    s["second_vp"][:3] = [1, 2, 0]
    s["investors_held"][:] = 0
    s["type_count"][:] = 0
    s["investors_held"][0, :] = [2, 0, 1, 0, 0]
    s["type_count"][0, :] = [3, 4, 5, 0, 0]
    s["investors_held"][1, 4] = 4
    s["type_count"][1, 4] = 12
    rk.final_scoring(s)
    assert s["investor_vp"][:3].tolist() == [11, 48, 0]
    assert s["total"][:3].tolist() == [23, 62, 13]
    assert s["winner"][:3].tolist() == [0, 1, 0]


def test_end_round_three_ends_game():
    """R34, R30: after scoring round 3 the game ends: no round 4, the factory is not refilled."""
    rules, state, log, _ = _position()
    s = state[0]
    s["round"] = 3
    finish_round(state)
    factory = s["factory"].tolist()
    rk.end_round(s, rules.cards, rules.inv, rules.opts, log)
    assert s["over"] == 1 and s["round"] == 4
    assert s["factory"].tolist() == factory
    assert not events(rules, log, "round_start")
    assert np.all(s["total"][:3] == s["card_vp"][:3] + s["second_vp"][:3] + s["investor_vp"][:3])


# ---------------------------------------------------------------- option combinations that must still finish

STALL_OPTIONS = {
    "factory_leftovers": "remove_from_game",
    "sweep_order": "draw_then_discard",
    "same_column_multiple_agents": False,
}


def test_ruleset_refuses_a_deck_that_can_run_dry():
    """NOTES 1.12 with O5 'remove_from_game' + O6 'draw_then_discard': 4 players could empty deck and discard
    pile during a round-3 sweep (12*4 owned + 8 removed + 8 in hand during the sweep > 60), so the ruleset
    is refused with a clear error instead of a game that stalls."""
    with pytest.raises(DataError, match="4 players with these options need 64"):
        ruleset(4, **STALL_OPTIONS)


def test_factory_always_full_when_the_deck_suffices():
    """R10, R27 with O5 'remove_from_game' + O6 'draw_then_discard' at 3 players (enough cards): a sweep
    always deals 4 cards and every game ends with 12 cards each."""
    rules = ruleset(3, factory_leftovers="remove_from_game", sweep_order="draw_then_discard",
                    same_column_multiple_agents=False)
    players = resolve_players(GAME, ["greedy"] * 3)
    empty = []

    def on_step(state, seat, action):
        if not state[0]["over"]:
            empty.extend(c for c in state[0]["factory"].tolist() if c < 0)

    for i in range(20):
        rec = play_game(GAME, rules, players, GAME.game_seed(1, i), on_step=on_step)
        assert rec.state[0]["owned_n"][:3].tolist() == [12] * 3
    assert not empty
