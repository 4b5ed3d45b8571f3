"""Pendulum's council (NOTES I.8, I.2.5-I.2.6, I.10.2, I.12.10, II.15): votes and privilege, rank bonus VP,
the council cards, the province limit, the round setup and council step 5 — on hand-made states with the
real tables, driven through the rules driver where a seat decides."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from numba import njit

from simlab.games.pendulum import automa, council, endgame, rules
from simlab.games.pendulum.codes import (
    A_COUNCIL,
    A_PASS,
    A_TRACK,
    A_TRIM,
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    DECK_COUNCIL_OFFER,
    DECK_COUNCIL_REMOVED,
    DECK_DISPLAY,
    EB_NO_WINNER,
    EV_COUNCIL_REWARD,
    EV_COUNCIL_VOTES,
    EV_DECK_ORDER,
    EV_GAME_END,
    EV_PROVINCE_LIMIT,
    EV_ROUND_SETUP,
    K_POWER,
    K_PRESTIGE,
    M_BLUE,
    M_BROWN,
    M_RED,
    MAX_ACTIONS,
    PD_GRANDE_SWAP,
    PD_VP_ANY,
    PH_COUNCIL,
    PH_OVER,
    PH_PENDING,
    PH_REAL,
    PH_STEP5,
    PH_TRIM,
    R_MILITARY,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0, N_FIELDS
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE
from simlab.games.pendulum.tables import C_DEFAULT, C_F1, C_F5, C_GRANDE, CO_STRAT

DATA = load_data()

# council card indices (card id - 1 for the standard cards)
C_PROD_BLUE, C_MAX3_A, C_MAX3_B, C_CARD6, C_MILITARY5, C_VOTE_STRAT, C_CONQUER_STRAT = 0, 3, 4, 5, 7, 10, 16
C_F2, C_F3 = C_F1 + 1, C_F1 + 2


@functools.cache
def ruleset(n: int, **options):
    return build_ruleset(n, DATA, dict(options))


# ---------------------------------------------------------------- kernel wrappers


@njit(cache=True)
def _begin(s_arr, tables, log):
    council.council_begin(s_arr[0], tables[0], log)


@njit(cache=True)
def _council_legal(s_arr, tables, out):
    return council.council_legal(s_arr[0], tables[0], out)


@njit(cache=True)
def _trim_begin(s_arr, tables, log):
    council.trim_begin(s_arr[0], tables[0], log)


@njit(cache=True)
def _step4(s_arr, tables, log):
    council.council_step4(s_arr[0], tables[0], log)


@njit(cache=True)
def _rules_legal(s_arr, tables, out):
    return rules.legal_actions(s_arr[0], tables[0], out)


@njit(cache=True)
def _reorder(priv, votes, n, out):
    council.reorder_privilege(priv, votes, n, out)


@njit(cache=True)
def _automa_votes(s_arr, tables, a):
    return automa.automa_votes(s_arr[0], tables[0], a)


# ---------------------------------------------------------------- hand-made states


def make_state(n: int, rnd: int = 1, votes=None) -> np.ndarray:
    """A council-ready state: council called, every agent passed; seats with a grande and a common on the mat
    and two reserve commons; offer "8", "11", "4", "6", "17"; 10 standard cards in the deck; 3 display cards."""
    st = np.zeros(1, STATE_DTYPE)
    s = st[0]
    s["n_players"] = n
    s["solo"] = int(n == 1)
    s["round"] = rnd
    agents = [*range(n), AG_NEUTRAL] if n == 2 else list(range(n))
    s["priv"][:] = -1
    s["priv"][: len(agents)] = agents
    s["n_priv"] = len(agents)
    s["phase"] = PH_REAL
    s["resume_phase"] = PH_REAL
    s["actor"] = 0
    s["cause"] = -1
    s["sched_step"] = 10
    s["council_called"] = 1
    s["markers_left"] = 0
    s["purple_flips"] = 3
    s["lifted_seat"] = -1
    s["lifted_worker"] = -1
    s["trim_seat"] = -1
    for p in range(n):
        s["char"][p] = 0
        s["w_place"][p] = (W_MAT, W_MAT, W_RESERVE, W_RESERVE)
        s["w_grande"][p] = (1, 0, 0, 0)
        s["res"][p] = (3, 3, 3)
        if votes is not None:
            s["votes"][p] = votes[p]
    s["offer"][:] = (C_MILITARY5, C_VOTE_STRAT, C_MAX3_A, C_CARD6, C_CONQUER_STRAT)
    s["cdeck"][:] = -1
    s["cdeck"][:10] = (0, 1, 2, 6, 8, 9, 11, 12, 13, 14)
    s["cdeck_n"] = 10
    s["grande_up"] = 1
    s["pdeck"][:] = -1
    s["pdeck"][:40] = np.arange(10, 50)
    s["pdeck_n"] = 40
    s["display"][:] = (0, 1, 2, -1)
    s["adeck"][:] = -1
    s["adeck"][:5] = (5, 6, 7, 8, 9)
    s["adeck_n"] = 5
    s["ach_card"] = 4
    s["ach_claims"][:n] = 1
    s["legendary_on_council"] = 1 if n <= 3 else 0
    s["legendary_on_card"] = 0 if n <= 3 else 1
    return st


class Game:
    """A state, its tables and a log, stepped through the rules driver."""

    def __init__(self, st, R):
        self.st, self.R = st, R
        self.log = rules.new_log(4000)
        self.buf = np.zeros(MAX_ACTIONS, dtype=np.int64)

    @property
    def s(self):
        return self.st[0]

    def legal(self) -> list[int]:
        k = _rules_legal(self.st, self.R.tables, self.buf)
        return [int(a) for a in self.buf[:k]]

    def council_legal(self) -> list[int]:
        k = _council_legal(self.st, self.R.tables, self.buf)
        return [int(a) for a in self.buf[:k]]

    def step(self, a: int) -> None:
        assert a in self.legal(), (a, self.legal())
        rules.py_step(self.st, np.int64(a), self.R.tables, self.log, self.buf)

    def begin(self) -> None:
        _begin(self.st, self.R.tables, self.log)

    def settle_vp(self, k: int = K_POWER) -> int:
        """Resolve the PD_VP_ANY decisions on top of the stack with track k, while they are the same seat's;
        returns the VP placed."""
        n = 0
        seat = int(self.s["pend_seat"])
        while (self.s["phase"] == PH_PENDING and self.s["pend_seat"] == seat
               and self.s["pend_kind"][self.s["n_pend"] - 1] == PD_VP_ANY):
            self.step(A_TRACK + k)
            n += 1
        return n

    def rows(self, ev: int) -> np.ndarray:
        body = self.log[1 : self.log[0, 0] + 1]
        return body[body[:, 0] == ev]


def top_pending(s) -> tuple[int, int]:
    i = int(s["n_pend"]) - 1
    return (int(s["pend_kind"][i]), int(s["pend_n"][i])) if i >= 0 else (0, 0)


# ---------------------------------------------------------------- step 1: votes and privilege


def test_reorder_privilege_most_votes_first_ties_reversed():
    """I.8.2: most votes first; equal votes go in REVERSE of the current order (the lower-placed agent moves
    ahead)."""
    out = np.zeros(8, dtype=np.int32)
    priv = np.array([0, 1, 2, 3, 0, 0, 0, 0], dtype=np.int32)
    _reorder(priv, np.array([5, 3, 5, 3, 0, 0, 0, 0], dtype=np.int64), 4, out)
    assert list(out[:4]) == [2, 0, 3, 1]
    _reorder(priv, np.zeros(8, dtype=np.int64), 4, out)
    assert list(out[:4]) == [3, 2, 1, 0]
    _reorder(priv, np.array([1, 2, 3, 4, 0, 0, 0, 0], dtype=np.int64), 4, out)
    assert list(out[:4]) == [3, 2, 1, 0]
    _reorder(priv, np.array([9, 2, 2, 1, 0, 0, 0, 0], dtype=np.int64), 4, out)
    assert list(out[:4]) == [0, 2, 1, 3]


def test_council_begin_reorders_discards_votes_and_logs():
    """Step 1 on a 3-player state: order by votes with the reverse-order tie, every seat's votes discarded,
    one EV_COUNCIL_VOTES row per agent (before / after places); the first seat gets its +2 bonus decision."""
    g = Game(make_state(3, votes=(2, 7, 7)), ruleset(3))
    g.begin()
    s = g.s
    assert list(s["priv"][:3]) == [2, 1, 0]
    assert list(s["votes"][:3]) == [0, 0, 0]
    rows = g.rows(EV_COUNCIL_VOTES)
    assert len(rows) == 3
    got = {int(r[FIELD0]): (int(r[FIELD0 + 1]), int(r[FIELD0 + 2]), int(r[FIELD0 + 3]), int(r[FIELD0 + 4]))
           for r in rows}
    assert got == {2: (7, 2, 0, 1), 1: (7, 1, 1, 1), 0: (2, 0, 2, 0)}
    assert s["phase"] == PH_PENDING and s["actor"] == 2 and s["pend_seat"] == 2
    assert top_pending(s) == (PD_VP_ANY, 2)
    assert s["resume_phase"] == PH_COUNCIL


@pytest.mark.parametrize(("votes", "order"), [((3, 2), [AG_NEUTRAL, 0, 1]), ((2, 1), [AG_NEUTRAL, 0, 1]),
                                              ((4, 3), [0, AG_NEUTRAL, 1]), ((5, 1), [0, AG_NEUTRAL, 1])])
def test_two_players_neutral_bids_three(votes, order):
    """I.2.6: the 2-player neutral bids exactly 3 at every council (it starts last, so it wins a tie at 3)."""
    g = Game(make_state(2, votes=votes), ruleset(2))
    g.begin()
    assert list(g.s["priv"][:3]) == order
    neutral = [r for r in g.rows(EV_COUNCIL_VOTES) if r[FIELD0] == AG_NEUTRAL]
    assert len(neutral) == 1 and neutral[0][FIELD0 + 1] == 3


def test_neutral_takes_no_reward_and_its_bonus_is_lost():
    """With the neutral first (2 players), the first seat is 2nd: +1 VP; the other seat 3rd: nothing; the
    neutral takes no card."""
    g = Game(make_state(2, votes=(2, 1)), ruleset(2))
    g.begin()
    s = g.s
    assert s["actor"] == 0 and top_pending(s) == (PD_VP_ANY, 1)
    assert g.settle_vp() == 1
    assert s["phase"] == PH_COUNCIL and s["actor"] == 0
    g.step(A_COUNCIL + C_MILITARY5)
    assert s["phase"] == PH_COUNCIL and s["actor"] == 1 and s["n_pend"] == 0  # rank 2 (0-based): no bonus
    g.step(A_COUNCIL + C_VOTE_STRAT)
    rewards = g.rows(EV_COUNCIL_REWARD)
    assert [int(r[FIELD0]) for r in rewards] == [0, 1]
    assert s["phase"] == PH_STEP5


@pytest.mark.parametrize(("n", "bonus"), [(2, [2, 1]), (3, [2, 1, 0]), (4, [2, 1, 1, 0]), (5, [2, 1, 1, 0, 0])])
def test_rank_bonus_vp_by_player_count(n, bonus):
    """I.8.3 / I.10.2: 1st +2 VP, 2nd +1; 3rd +1 only with 4-5 players. Every seat takes the DEFAULT card
    (+1 VP of choice, always offered); the bonus is counted in st_council_vp."""
    votes = [10 - p for p in range(n)]
    g = Game(make_state(n, votes=votes), ruleset(n))
    g.begin()
    s = g.s
    seats = [int(a) for a in s["priv"][: s["n_priv"]] if a < n]
    assert seats == list(range(n))
    for p in seats:
        got = g.settle_vp()
        assert got == bonus[p], (p, got)
        assert s["phase"] == PH_COUNCIL and s["actor"] == p
        assert A_COUNCIL + C_DEFAULT in g.council_legal()
        g.step(A_COUNCIL + C_DEFAULT)
        assert g.settle_vp(K_PRESTIGE) == 1
    for p in range(n):
        assert s["track"][p, K_POWER] == bonus[p]
        assert s["track"][p, K_PRESTIGE] == 1
        assert s["st_council_vp"][p] == bonus[p]
    assert s["phase"] == PH_STEP5
    rewards = g.rows(EV_COUNCIL_REWARD)
    assert [int(r[FIELD0 + 2]) for r in rewards] == bonus
    assert all(r[FIELD0 + 9] == C_DEFAULT for r in rewards)


def test_solo_votes_order_with_the_automas():
    """Solo (I.12.10): the Automas reveal their council cards first, bid ``automa_votes``; the track is ordered
    with the seat's votes by the usual rule; Automas placed before the seat take their reward at once."""
    R = ruleset(1)
    for seed in range(6):
        st = np.zeros(1, STATE_DTYPE)
        log = rules.new_log(3000)
        buf = np.zeros(MAX_ACTIONS, dtype=np.int64)
        rules.py_setup(st, np.uint64(seed), 1, R.tables, log, buf)
        s = st[0]
        s["votes"][0] = seed % 4
        s["council_called"] = 1
        before = [int(a) for a in s["priv"][:3]]
        g = Game(st, R)
        g.begin()
        votes = {0: seed % 4, AG_AUTOMA1: int(_automa_votes(st, R.tables, 0)),
                 AG_AUTOMA2: int(_automa_votes(st, R.tables, 1))}
        expect = sorted(before, key=lambda a: (-votes[a], -before.index(a)))
        assert [int(a) for a in s["priv"][:3]] == expect
        assert s["votes"][0] == 0
        assert s["phase"] in (PH_PENDING, PH_COUNCIL) and s["actor"] == 0
        place = expect.index(0)
        assert [int(r[FIELD0]) for r in g.rows(EV_COUNCIL_REWARD)] == expect[:place]
        assert s["council_pos"] == place
        assert top_pending(s) == ((PD_VP_ANY, (2, 1)[place]) if place < 2 else (0, 0))


# ---------------------------------------------------------------- step 2: the cards


def test_council_legal_lists_offer_grande_and_default_ascending():
    g = Game(make_state(3), ruleset(3))
    g.s["phase"] = PH_COUNCIL
    got = g.council_legal()
    assert got == sorted(got)
    offered = [C_MAX3_A, C_CARD6, C_MILITARY5, C_VOTE_STRAT, C_CONQUER_STRAT]
    assert got == [A_COUNCIL + c for c in sorted(offered)] + [A_COUNCIL + C_GRANDE, A_COUNCIL + C_DEFAULT]
    # a taken card is no longer offered, the DEFAULT card always is
    g.s["offer"][:] = -1
    g.s["grande_up"] = 0
    assert g.council_legal() == [A_COUNCIL + C_DEFAULT]


def test_grande_card_conditions():
    """The grande card needs the card face up, a common worker in play, and the second grande unused."""
    g = Game(make_state(3), ruleset(3))
    s = g.s
    s["phase"] = PH_COUNCIL
    assert A_COUNCIL + C_GRANDE in g.council_legal()
    s["w_place"][0, 1] = W_RESERVE  # no common in play
    assert A_COUNCIL + C_GRANDE not in g.council_legal()
    s["w_place"][0, 1] = 3  # a common on a space
    assert A_COUNCIL + C_GRANDE in g.council_legal()
    s["w_grande"][0, 1] = 1  # already two grandes (and no common in play)
    s["w_place"][0, 2] = W_MAT
    assert A_COUNCIL + C_GRANDE not in g.council_legal()
    s["w_grande"][0, 1] = 0
    s["grande_up"] = 0  # turned down this council
    assert A_COUNCIL + C_GRANDE not in g.council_legal()


def test_grande_card_swaps_and_is_turned_down():
    """Taking the grande card swaps a common in play for the second grande (one common: no choice) and turns
    the card down for the later seats of this council; the next council has it up again."""
    g = Game(make_state(3, votes=(3, 2, 1)), ruleset(3))
    g.begin()
    s = g.s
    g.settle_vp()
    g.step(A_COUNCIL + C_GRANDE)
    assert s["grande_up"] == 0
    assert list(s["w_grande"][0]) == [1, 1, 0, 0] and s["w_place"][0, 1] == W_MAT
    g.settle_vp()
    assert s["actor"] == 1 and s["phase"] == PH_COUNCIL
    assert A_COUNCIL + C_GRANDE not in g.council_legal()
    g.step(A_COUNCIL + C_DEFAULT)
    g.settle_vp()
    g.step(A_COUNCIL + C_DEFAULT)
    g.settle_vp()
    assert s["phase"] == PH_STEP5 and s["grande_up"] == 1


def test_grande_card_with_two_commons_asks_which():
    g = Game(make_state(3, votes=(3, 2, 1)), ruleset(3))
    s = g.s
    s["w_place"][0, 2] = 5
    g.begin()
    g.settle_vp()
    g.step(A_COUNCIL + C_GRANDE)
    assert s["phase"] == PH_PENDING and top_pending(s)[0] == PD_GRANDE_SWAP and s["actor"] == 0
    assert s["grande_up"] == 0


def test_card_kinds_immediate_stratagem_permanent():
    """Red-border cards act at once (+5 military, capped at 10); stratagem cards join the hand; the Max-3 card
    is permanent and cannot be taken twice."""
    R = ruleset(3)
    g = Game(make_state(3, votes=(3, 2, 1)), R)
    s = g.s
    s["offer"][4] = C_MAX3_B
    g.begin()
    g.settle_vp()
    g.step(A_COUNCIL + C_MILITARY5)
    assert s["res"][0, R_MILITARY] == 8
    assert C_MILITARY5 not in list(s["offer"])
    g.settle_vp()
    votes_before = int(s["votes"][1])
    g.step(A_COUNCIL + C_VOTE_STRAT)
    st_i = int(R.t["co"][C_VOTE_STRAT, CO_STRAT])
    assert st_i >= 0 and s["strat"][1, st_i] == 1 and s["votes"][1] == votes_before
    s["max3"][2] = 0
    assert A_COUNCIL + C_MAX3_A in g.council_legal() and A_COUNCIL + C_MAX3_B in g.council_legal()
    g.step(A_COUNCIL + C_MAX3_A)
    assert s["max3"][2] == 1
    # a second Max-3 card is refused
    s2 = make_state(3)
    s2[0]["phase"] = PH_COUNCIL
    s2[0]["max3"][0] = 1
    s2[0]["offer"][4] = C_MAX3_B
    g2 = Game(s2, R)
    legal = g2.council_legal()
    assert A_COUNCIL + C_MAX3_A not in legal and A_COUNCIL + C_MAX3_B not in legal


@pytest.mark.parametrize("kind", ["stratagem", "immediate"])
def test_council_card_6_kind_option(kind):
    """II.15: card 6 (+1 power, prestige, popularity) is a stratagem for the hand by default, or immediate."""
    R = ruleset(3, council_card_6_kind=kind)
    g = Game(make_state(3, votes=(3, 2, 1)), R)
    s = g.s
    g.begin()
    g.settle_vp(K_POWER)
    before = s["track"][0].copy()
    g.step(A_COUNCIL + C_CARD6)
    gained = s["track"][0] - before
    if kind == "immediate":
        assert list(gained) == [1, 1, 1]
    else:
        assert list(gained) == [0, 0, 0]
        assert s["strat"][0, int(R.t["co"][C_CARD6, CO_STRAT])] == 1


def final_state(res=(3, 3, 3), legendary=0):
    st = make_state(3, rnd=4, votes=(3, 2, 1))
    s = st[0]
    s["offer"][:] = np.arange(C_F1, C_F1 + 5)
    s["cdeck_n"] = 0
    s["res"][0] = res
    s["legendary"][0] = legendary
    s["phase"] = PH_COUNCIL
    return st


def test_final_cards_printed_cost_and_f5():
    """Council 4: the final cards cost their printed cost (F2 5 gold, F3 5 military, F5 10 of any); F5 is
    refused to a seat that has its legendary VP."""
    R = ruleset(3)
    legal = Game(final_state((4, 4, 1)), R).council_legal()
    assert A_COUNCIL + C_F1 in legal  # free
    assert A_COUNCIL + C_F2 not in legal and A_COUNCIL + C_F3 not in legal
    assert A_COUNCIL + C_F5 not in legal  # 9 cubes
    legal = Game(final_state((5, 0, 5)), R).council_legal()
    assert A_COUNCIL + C_F2 in legal and A_COUNCIL + C_F3 in legal and A_COUNCIL + C_F5 in legal
    legal = Game(final_state((10, 10, 10), legendary=1), R).council_legal()
    assert A_COUNCIL + C_F5 not in legal and A_COUNCIL + C_F2 in legal


def test_final_card_pays_then_gains_and_game_ends():
    R = ruleset(3)
    st = final_state((6, 0, 0))
    st[0]["phase"] = PH_REAL
    g = Game(st, R)
    g.begin()
    s = g.s
    g.settle_vp(K_PRESTIGE)
    g.step(A_COUNCIL + C_F3)
    assert s["res"][0, R_MILITARY] == 1 and s["track"][0, K_POWER] == 3
    g.settle_vp()
    s["res"][1] = (10, 0, 0)  # F5's wild cost has one way to pay: taken at once
    g.step(A_COUNCIL + C_F5)
    assert s["legendary"][1] == 1 and list(s["res"][1]) == [0, 0, 0]
    g.step(A_COUNCIL + C_DEFAULT)
    g.settle_vp()
    assert s["over"] == 1 and s["phase"] == PH_OVER
    assert s["end_branch"] != 0 and len(g.rows(EV_GAME_END)) == 3
    assert len(g.rows(EV_ROUND_SETUP)) == 0


# ---------------------------------------------------------------- step 3: the province limit


def provinces_with_distinct_edges(R, m: int, k: int) -> list[int]:
    seen, out = set(), []
    for i in range(int(R.t["n_prov"])):
        e = int(R.t["prov"][i, m])
        if e not in seen:
            seen.add(e)
            out.append(i)
        if len(out) == k:
            return out
    raise AssertionError("not enough distinct province edges")


def provinces_with_same_edge(R, m: int, k: int) -> list[int]:
    groups: dict[int, list[int]] = {}
    for i in range(int(R.t["n_prov"])):
        groups.setdefault(int(R.t["prov"][i, m]), []).append(i)
        if len(groups[int(R.t["prov"][i, m])]) == k:
            return groups[int(R.t["prov"][i, m])]
    raise AssertionError("no group of equal edges")


def test_trim_chooses_and_automatic_when_no_choice():
    """Step 3: every slot down to 2 provinces (3 with Max-3), removed from the game. A seat chooses which one
    when their edges differ (only the first over-limit slot is offered at a time); provinces with the same edge
    for that slot are trimmed without asking."""
    R = ruleset(3)
    st = make_state(3)
    s = st[0]
    red = provinces_with_distinct_edges(R, M_RED, 4)
    same = provinces_with_same_edge(R, M_BROWN, 3)
    blue = provinces_with_distinct_edges(R, M_BLUE, 4)
    s["prov"][0, M_RED, :4] = red
    s["prov_n"][0, M_RED] = 4
    s["prov"][1, M_BROWN, :3] = same
    s["prov_n"][1, M_BROWN] = 3
    s["prov"][2, M_BLUE, :4] = blue
    s["prov_n"][2, M_BLUE] = 4
    s["max3"][2] = 1
    s["prov"][0, M_BROWN, :2] = same[:2]
    s["prov_n"][0, M_BROWN] = 2
    g = Game(st, R)
    _trim_begin(st, R.tables, g.log)
    assert s["phase"] == PH_TRIM and s["trim_seat"] == 0 and s["actor"] == 0
    legal = g.legal()
    assert legal == [A_TRIM + M_RED * 8 + i for i in range(4)]
    removed0 = int(s["removed_n"])
    g.step(A_TRIM + M_RED * 8 + 1)
    assert s["prov_n"][0, M_RED] == 3 and list(s["prov"][0, M_RED, :3]) == [red[0], red[2], red[3]]
    assert s["phase"] == PH_TRIM and s["trim_seat"] == 0
    g.step(A_TRIM + M_RED * 8 + 2)
    assert list(s["prov"][0, M_RED, :2]) == [red[0], red[2]]
    # seat 1 had no choice; seat 2 keeps 3 with Max-3
    assert s["phase"] == PH_TRIM and s["trim_seat"] == 2
    assert s["prov_n"][1, M_BROWN] == 2
    g.step(A_TRIM + M_BLUE * 8 + 0)
    assert list(s["prov"][2, M_BLUE, :3]) == blue[1:]
    assert s["prov_n"][0, M_BROWN] == 2
    assert s["removed_n"] - removed0 == 4 + 3  # 4 trimmed + the 3 display cards of the round setup
    assert s["phase"] == PH_STEP5
    rows = g.rows(EV_PROVINCE_LIMIT)
    assert len(rows) == 4
    assert [(int(r[FIELD0]), int(r[FIELD0 + 1]), int(r[FIELD0 + 2]), int(r[FIELD0 + 3]), int(r[FIELD0 + 4]),
             int(r[FIELD0 + 13])) for r in rows] == [(0, M_RED, 2, 4, 3, 0), (0, M_RED, 2, 3, 2, 0),
                                                    (1, M_BROWN, 2, 3, 2, 1), (2, M_BLUE, 3, 4, 3, 0)]
    assert rows[0][FIELD0 + 5] == red[1] and list(rows[0][FIELD0 + 6 : FIELD0 + 10]) == [red[0], red[2], red[3], -1]


def test_max3_taken_at_this_council_counts_for_its_trim():
    R = ruleset(3)
    st = make_state(3, votes=(3, 2, 1))
    s = st[0]
    red = provinces_with_distinct_edges(R, M_RED, 3)
    s["prov"][0, M_RED, :3] = red
    s["prov_n"][0, M_RED] = 3
    g = Game(st, R)
    g.begin()
    g.settle_vp()
    g.step(A_COUNCIL + C_MAX3_A)
    for _ in range(2):
        g.settle_vp()
        g.step(A_COUNCIL + C_DEFAULT)
        g.settle_vp()
    assert s["phase"] == PH_STEP5 and s["prov_n"][0, M_RED] == 3


# ---------------------------------------------------------------- step 4: round setup, step 5


def test_round_setup_after_council_1():
    """I.8.5 (2-3 players): grande card up, the unchosen standard cards out and 5 new from the deck top, the
    display replaced (the old cards leave the game), achievement markers back, a new achievement card with
    the legendary token (it waited on the council deck), the 3 time markers back; then step 5."""
    st = make_state(3)
    s = st[0]
    s["grande_up"] = 0
    s["offer"][1] = -1
    s["markers_automa"] = 0
    deck_top = [int(x) for x in s["cdeck"][:10][::-1][:5]]
    disp_top = [int(x) for x in s["pdeck"][:40][::-1][:4]]
    g = Game(st, ruleset(3))
    _step4(st, g.R.tables, g.log)
    assert s["round"] == 2 and s["grande_up"] == 1
    assert list(s["offer"]) == deck_top and s["cdeck_n"] == 5
    assert list(s["display"]) == disp_top and s["pdeck_n"] == 36
    assert s["removed_n"] == 3
    assert list(s["ach_claims"][:3]) == [0, 0, 0]
    assert s["ach_card"] == 9 and s["adeck_n"] == 4
    assert s["legendary_on_card"] == 1 and s["legendary_on_council"] == 0
    assert s["markers_left"] == 3 and s["markers_automa"] == 0
    assert s["phase"] == PH_STEP5 and s["actor"] == s["priv"][0] and s["passes"] == 0
    (row,) = g.rows(EV_ROUND_SETUP)
    assert list(row[FIELD0 : FIELD0 + 5]) == deck_top and list(row[FIELD0 + 5 : FIELD0 + 9]) == disp_top
    assert row[FIELD0 + 9] == 4 and row[FIELD0 + 10] == 9 and row[FIELD0 + 11] == 1
    decks = {int(r[FIELD0]): [int(v) for v in r[FIELD0 + 3 : FIELD0 + 3 + r[FIELD0 + 2]]]
             for r in g.rows(EV_DECK_ORDER)}
    assert decks[DECK_COUNCIL_REMOVED] == [C_MILITARY5, C_MAX3_A, C_CARD6, C_CONQUER_STRAT]
    assert decks[DECK_COUNCIL_OFFER] == deck_top and decks[DECK_DISPLAY] == disp_top


def test_round_setup_after_council_3_offers_the_finals():
    st = make_state(3, rnd=3)
    st[0]["cdeck_n"] = 0
    g = Game(st, ruleset(3))
    _step4(st, g.R.tables, g.log)
    assert st[0]["round"] == 4 and list(st[0]["offer"]) == list(range(C_F1, C_F1 + 5))


def test_game_ends_after_the_fourth_council():
    st = make_state(4, rnd=4)
    st[0]["track"][1] = (20, 20, 20)
    g = Game(st, ruleset(4))
    _step4(st, g.R.tables, g.log)
    s = st[0]
    assert s["over"] == 1 and s["phase"] == PH_OVER and s["round"] == 4
    assert s["winner"][1] == 1 and sum(s["winner"][:4]) == 1
    assert len(g.rows(EV_GAME_END)) == 4 and len(g.rows(EV_ROUND_SETUP)) == 0


def test_step5_round_robin_then_round_start():
    """Step 5: seats pass in privilege order; a move resets the count; when every seat passed in a row the
    next round's real-time phase starts (timers flipped: purple flip 1)."""
    st = make_state(3)
    s = st[0]
    s["priv"][:3] = (2, 0, 1)
    g = Game(st, ruleset(3))
    _step4(st, g.R.tables, g.log)
    assert s["phase"] == PH_STEP5 and s["actor"] == 2
    assert A_PASS in g.legal()
    g.step(A_PASS)
    assert s["actor"] == 0 and s["passes"] == 1
    moves = [a for a in g.legal() if a != A_PASS]
    assert moves
    g.step(moves[0])
    assert s["phase"] == PH_STEP5 and s["passes"] == 0 and s["actor"] == 1
    g.step(A_PASS)
    g.step(A_PASS)
    assert s["phase"] == PH_STEP5 and s["actor"] == 0
    g.step(A_PASS)
    assert s["phase"] == PH_REAL and s["round"] == 2 and s["purple_flips"] == 1 and s["council_called"] == 0


# ---------------------------------------------------------------- the log layout


def test_event_layouts_shared_with_the_automa_rows():
    """EV_COUNCIL_REWARD and EV_GAME_END are logged by council/endgame (seats) and automa (Automas) in one
    layout."""
    assert council.EVENT_FIELDS[EV_COUNCIL_REWARD] == automa.EVENT_FIELDS[EV_COUNCIL_REWARD]
    assert endgame.EVENT_FIELDS[EV_GAME_END] == automa.EVENT_FIELDS[EV_GAME_END]
    for fields in (*council.EVENT_FIELDS.values(), *endgame.EVENT_FIELDS.values()):
        assert len(fields) <= N_FIELDS


def test_whole_games_run_four_councils():
    """Random games through the driver (passing often): four councils with one reward per seat each, ranks a
    permutation at the end."""
    for n in (1, 2, 4):
        R = ruleset(n)
        for seed in range(2):
            st = np.zeros(1, STATE_DTYPE)
            log = rules.new_log(20000)
            buf = np.zeros(MAX_ACTIONS, dtype=np.int64)
            k = rules.py_setup(st, np.uint64(seed), n, R.tables, log, buf)
            rng = np.random.default_rng(seed)
            for _ in range(20000):
                if k == 0:
                    break
                a = int(buf[0]) if buf[0] == A_PASS and rng.random() < 0.6 else int(buf[rng.integers(k)])
                k = rules.py_step(st, np.int64(a), R.tables, log, buf)
            s = st[0]
            assert s["over"] == 1 and s["round"] == 4
            body = log[1 : log[0, 0] + 1]
            seat_rewards = body[(body[:, 0] == EV_COUNCIL_REWARD) & (body[:, 6] < n)]
            assert len(seat_rewards) == 4 * n
            assert len(body[body[:, 0] == EV_ROUND_SETUP]) == 3
            if n > 1:
                first = 2 if s["end_branch"] == EB_NO_WINNER else 1
                assert sorted(int(x) for x in s["rank"][:n]) == list(range(first, first + n))
