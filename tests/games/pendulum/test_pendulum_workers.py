"""Pendulum workers (workers.py): placement rows, blocking, the four worker states, worker actions and their
modifiers, retrieve, recruit, the grande swap, the Insurgent placement, the start of play and solo trigger 1.

NOTES sections are those of ../shared/research/pendulum/NOTES.md (I.3.7 start of play, I.5 rules 1 and 2,
I.6 workers, I.10.3 advanced placement, I.12.2 Automa workers, I.12.4 trigger 1). Positions are hand-made on
``np.zeros(1, STATE_DTYPE)`` with the real tables of ``ruleset.build_ruleset``; kernels are called directly
on the record ``arr[0]``.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.games.pendulum import automa, effects, workers
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_LIFT,
    A_MOVE,
    A_NO,
    A_RES,
    A_SPACE,
    A_WORKER,
    DEST_MAT,
    EV_AUTOMA_DRAW,
    EV_HUMAN_SETUP,
    EV_RECRUIT,
    EV_WORKER_ACTION,
    EV_WORKER_LIFT,
    EV_WORKER_MOVE,
    EV_WORKER_PLACE,
    K_POPULARITY,
    K_POWER,
    K_PRESTIGE,
    LOG_WIDTH,
    MAX_ACTIONS,
    N_DEST,
    OPT_MAX_WORKERS,
    PART_BOTTOM,
    PART_TOP,
    PD_ADJACENT,
    PD_CONQUER,
    PD_TIMED_PLACE,
    PH_PENDING,
    PH_REAL,
    PH_REPLACE,
    PH_STEP5,
    R_GOLD,
    R_MILITARY,
    ROW_BOTTOM,
    ROW_TOP,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TR_BOTTOM_BOX,
    TR_STEP5,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0, N_FIELDS
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import MAX_WORKERS, STATE_DTYPE
from simlab.games.pendulum.tables import AC_FLIP, FLIP_PURPLE_BLACK, SP_AREA, SP_HAS_PROD, SP_NEUTRAL, SP_ROW

DATA = load_data()
_RULES: dict[int, object] = {}

GRANDE, COMMON = 0, 1  # worker slots in play from the start


def rules(n: int):
    if n not in _RULES:
        _RULES[n] = build_ruleset(n, DATA, {})
    return _RULES[n]


class Pos:
    """A hand-made position: every seat has its grande (slot 0) and first common (slot 1) on the mat, commons
    2-3 in reserve, all timers on the top row and none run out (Automa cards never flip here)."""

    def __init__(self, n_players: int, solo: bool = False) -> None:
        self.rules = rules(1 if solo else n_players)
        self.t = self.rules.tables[0]
        self.arr = np.zeros(1, STATE_DTYPE)
        s = self.s = self.arr[0]
        s["n_players"] = n_players
        s["solo"] = 1 if solo else 0
        s["phase"] = PH_REAL
        s["round"] = 1
        s["cause"] = -1
        s["lifted_seat"] = -1
        s["lifted_worker"] = -1
        s["runs_out"][:] = 1e9
        s["timer_row"][:] = ROW_TOP
        s["w_place"][:] = W_RESERVE
        s["w_place"][:, :2] = W_MAT
        s["w_grande"][:, GRANDE] = 1
        s["a_work"][:] = -1
        self.log = new_log(400, LOG_WIDTH)
        self.out = np.zeros(MAX_ACTIONS, np.int64)
        if solo:
            automa.automa_setup(s, self.t, self.log)

    def d(self, space_id: str) -> int:
        return self.rules.space_index(space_id)

    def put(self, p: int, w: int, space_id: str, part: int = PART_TOP) -> int:
        d = self.d(space_id)
        self.s["w_place"][p, w] = d
        self.s["w_part"][p, w] = part
        return d

    def moves(self, p: int = 0) -> list[int]:
        n = workers.move_legal(self.s, self.t, p, self.out, 0)
        return [int(x) for x in self.out[:n]]

    def actions(self, p: int = 0) -> list[int]:
        n = workers.action_legal(self.s, self.t, p, self.out, 0)
        return [int(x) for x in self.out[:n]]

    def dests(self, p: int, w: int) -> set[int]:
        """Destinations offered to worker w by move_legal (space indices, DEST_MAT)."""
        return {(a - A_MOVE) % N_DEST for a in self.moves(p) if a >= A_MOVE and (a - A_MOVE) // N_DEST == w}

    def can(self, p: int, w: int, space_id: str) -> bool:
        return bool(workers.can_place(self.s, self.t, p, w, self.d(space_id)))

    def events(self, kind: int) -> list[np.ndarray]:
        n = int(self.log[0, 0])
        return [self.log[i] for i in range(1, n + 1) if self.log[i, 0] == kind]

    def spaces(self, area: int, row: int) -> set[int]:
        return {d for d in range(int(self.t["n_spaces"])) if self.t["sp"][d, SP_AREA] == area
                and self.t["sp"][d, SP_ROW] == row}


# ---------------------------------------------------------------- counts, rows (rule 1)


def test_counts_recruit_limit_of_four() -> None:
    """I.3.6: a seat starts with a grande and a common in play; recruit brings the 2 reserve commons to the
    mat, never past 4 workers in play (and never past OPT_MAX_WORKERS)."""
    g = Pos(3)
    s, t = g.s, g.t
    assert workers.worker_count_in_play(s, 0) == 2 and workers.grande_count(s, 0) == 1
    assert workers.recruit_legal(s, t, 0)
    assert workers.recruit(s, t, 0, g.log) == 2
    assert s["w_place"][0, 2] == W_MAT and workers.worker_count_in_play(s, 0) == 3
    assert workers.recruit(s, t, 0, g.log) == 3
    assert workers.worker_count_in_play(s, 0) == 4
    assert not workers.recruit_legal(s, t, 0)
    assert workers.recruit(s, t, 0, g.log) == -1
    assert workers.worker_count_in_play(s, 0) == 4
    assert len(g.events(EV_RECRUIT)) == 2
    assert workers.worker_count_in_play(s, 1) == 2  # other seats untouched
    # the limit is OPT_MAX_WORKERS, not the number of reserve commons
    h = Pos(3)
    tab = h.rules.tables.copy()
    tab[0]["opts"][OPT_MAX_WORKERS] = 3
    assert workers.recruit(h.s, tab[0], 0, h.log) == 2
    assert not workers.recruit_legal(h.s, tab[0], 0)
    assert workers.recruit(h.s, tab[0], 0, h.log) == -1


@pytest.mark.parametrize("area", [T_PURPLE, T_GREEN, T_BLACK])
def test_rule1_place_only_on_the_row_without_the_timer(area: int) -> None:
    """I.5.2: workers go on or off spaces only in the row the area's timer is NOT on."""
    g = Pos(3)
    top, bottom = g.spaces(area, ROW_TOP), g.spaces(area, ROW_BOTTOM)
    for w in (GRANDE, COMMON):
        for d in top:
            assert not workers.can_place(g.s, g.t, 0, w, d)
        for d in bottom:
            assert workers.can_place(g.s, g.t, 0, w, d)
    g.s["timer_row"][area] = ROW_BOTTOM
    for d in top:
        assert workers.can_place(g.s, g.t, 0, COMMON, d)
    for d in bottom:
        assert not workers.can_place(g.s, g.t, 0, COMMON, d)
    # the other areas do not move with this timer
    other = (area + 1) % 3
    assert all(workers.can_place(g.s, g.t, 0, COMMON, d) for d in g.spaces(other, ROW_BOTTOM))


def test_move_legal_from_the_mat_and_codes_ascending() -> None:
    """A free worker on the mat is offered every legal space (never the mat it stands on); codes ascend."""
    g = Pos(3)
    bottom = {d for d in range(int(g.t["n_spaces"])) if g.t["sp"][d, SP_ROW] == ROW_BOTTOM}
    assert g.dests(0, GRANDE) == bottom
    assert g.dests(0, COMMON) == bottom
    moves = g.moves()
    assert moves == sorted(set(moves))
    assert all(A_MOVE <= a < A_MOVE + MAX_WORKERS * N_DEST for a in moves)
    # reserve workers never move
    assert g.dests(0, 2) == set() and g.dests(0, 3) == set()


# ---------------------------------------------------------------- the four worker states (I.6.4)


@pytest.mark.parametrize(("timed", "part", "can_act", "can_move"), [
    (True, PART_TOP, True, False),  # timed row, top frame: can act
    (True, PART_BOTTOM, False, False),  # timed row, bottom box: stuck
    (False, PART_TOP, False, True),  # untimed row, top frame: free to move (or wait for the timer)
    (False, PART_BOTTOM, False, True),  # untimed row, bottom box: free to move
])
@pytest.mark.parametrize("space_id", ["1-3p:green:top:1", "1-3p:black:top:1", "1-3p:purple:top:0"])
def test_four_worker_states(space_id: str, timed: bool, part: int, can_act: bool, can_move: bool) -> None:
    g = Pos(3)
    g.s["res"][0, R_GOLD] = 5
    d = g.put(0, COMMON, space_id, part)
    area = int(g.t["sp"][d, SP_AREA])
    g.s["timer_row"][area] = ROW_TOP if timed else ROW_BOTTOM
    acts = [a for a in g.actions() if (a - A_ACTION) // 2 == COMMON]
    assert bool(acts) == can_act
    moves = g.dests(0, COMMON)
    assert bool(moves) == can_move
    if can_move:
        assert DEST_MAT in moves
        assert (d in moves) == (part == PART_BOTTOM)  # from the bottom box back up to the same top frame
    assert bool(workers.is_free(g.s, g.t, 0, COMMON)) == can_move
    # retrieve takes workers from a row that HAS its timer, top frame or bottom box (I.6.5)
    assert bool(workers.retrieve_legal_workers(g.s, g.t, 0) >> COMMON & 1) == timed


# ---------------------------------------------------------------- blocking (I.6.2, I.10.3)


@pytest.mark.parametrize("space_id", ["1-3p:green:bottom:0", "1-3p:green:bottom:1", "1-3p:purple:bottom:0",
                                      "1-3p:purple:bottom:1"])
@pytest.mark.parametrize("blocker", [GRANDE, COMMON])
def test_other_players_block_commons_in_green_and_purple(space_id: str, blocker: int) -> None:
    g = Pos(3)
    g.put(1, blocker, space_id)
    assert not g.can(0, COMMON, space_id)
    assert g.can(0, GRANDE, space_id)  # grandes are never blocked
    assert g.can(2, GRANDE, space_id)
    assert not g.can(2, COMMON, space_id)
    # a worker in the bottom box blocks nobody
    g.s["w_part"][1, blocker] = PART_BOTTOM
    assert g.can(0, COMMON, space_id)


@pytest.mark.parametrize("space_id", ["1-3p:black:bottom:0", "1-3p:black:bottom:2"])
def test_black_never_blocks(space_id: str) -> None:
    g = Pos(3)
    g.put(1, GRANDE, space_id)
    g.put(2, COMMON, space_id)
    assert g.can(0, COMMON, space_id) and g.can(0, GRANDE, space_id)


def test_black_never_blocks_4_5_board() -> None:
    g = Pos(4)
    for d in g.spaces(T_BLACK, ROW_BOTTOM):
        g.s["w_place"][1, GRANDE] = d
        g.s["w_part"][1, GRANDE] = PART_TOP
        assert workers.can_place(g.s, g.t, 0, COMMON, d)
    for d in g.spaces(T_GREEN, ROW_BOTTOM) | g.spaces(T_PURPLE, ROW_BOTTOM):
        g.s["w_place"][1, GRANDE] = d
        assert not workers.can_place(g.s, g.t, 0, COMMON, d)
        assert workers.can_place(g.s, g.t, 0, GRANDE, d)


@pytest.mark.parametrize("space_id", ["1-3p:green:bottom:1", "1-3p:purple:bottom:0"])
def test_a_common_is_blocked_by_anyone_else_never_by_its_own(space_id: str) -> None:
    """NOTES I.6.2 (clarified 2026-11-27): a common is blocked by a worker of anyone else (another seat's of
    either kind, the neutral's, an Automa's), never by its own under the basic rules: it may join its own
    common as well as its own grande."""
    g = Pos(3)
    g.s["w_place"][0, 2] = W_MAT  # a recruited second common
    g.put(0, COMMON, space_id)
    assert g.can(0, 2, space_id)  # its own common does not block it
    g.put(1, COMMON, space_id)
    assert not g.can(0, 2, space_id)  # another seat's common does
    g.s["w_place"][1, COMMON] = W_MAT
    g.put(1, GRANDE, space_id)
    assert not g.can(0, 2, space_id)  # and so does another seat's grande


@pytest.mark.parametrize("space_id", ["1-3p:green:bottom:1", "1-3p:black:bottom:3"])
def test_own_workers_basic_vs_advanced(space_id: str) -> None:
    """Basic: a seat may stack its own workers in one frame. Advanced: never two of its own in one top frame,
    whatever the type and the area; other blocking is unchanged."""
    g = Pos(3)
    g.put(0, GRANDE, space_id)
    assert g.can(0, COMMON, space_id)
    g.s["advanced"][0] = 1
    assert not g.can(0, COMMON, space_id)
    g.s["w_place"][0, GRANDE] = W_MAT
    g.put(0, COMMON, space_id)
    assert not g.can(0, GRANDE, space_id)
    # an own worker in the bottom box is not in the top frame
    g.s["w_part"][0, COMMON] = PART_BOTTOM
    assert g.can(0, GRANDE, space_id)
    # another seat's advanced flag does not restrict seat 0
    g.s["advanced"][0] = 0
    g.s["advanced"][1] = 1
    g.s["w_part"][0, COMMON] = PART_TOP
    assert g.can(0, GRANDE, space_id)


def test_neutral_blocks_commons_with_2_players_only() -> None:
    """I.2.6: the 2-player neutral sits on the 4 single green/purple spaces and blocks commons, not grandes."""
    g2, g3 = Pos(2), Pos(3)
    neutral = [d for d in range(int(g2.t["n_spaces"])) if g2.t["sp"][d, SP_NEUTRAL] != 0]
    assert sorted(g2.rules.space_id(d) for d in neutral) == sorted([
        "1-3p:green:top:1", "1-3p:green:bottom:0", "1-3p:purple:top:1", "1-3p:purple:bottom:0"])
    for d in neutral:
        assert workers.neutral_on_space(g2.s, g2.t, d)
        assert not workers.neutral_on_space(g3.s, g3.t, d)
    for d in neutral:
        row = int(g2.t["sp"][d, SP_ROW])
        g2.s["timer_row"][:] = 1 - row
        g3.s["timer_row"][:] = 1 - row
        assert not workers.can_place(g2.s, g2.t, 0, COMMON, d)
        assert workers.can_place(g2.s, g2.t, 0, GRANDE, d)
        assert workers.can_place(g3.s, g3.t, 0, COMMON, d)
    # the non-neutral spaces stay open to a 2-player common
    g2.s["timer_row"][:] = ROW_TOP
    assert g2.can(0, COMMON, "1-3p:green:bottom:1") and g2.can(0, COMMON, "1-3p:purple:bottom:1")


def test_automa_workers_block_commons_in_solo() -> None:
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    d = g.d("1-3p:green:bottom:1")
    s["a_work"][:] = -1
    s["a_work"][0] = d
    assert workers.automa_on_space(s, d)
    assert not workers.can_place(s, t, 0, COMMON, d)
    assert workers.can_place(s, t, 0, GRANDE, d)
    s["a_work"][0] = -1
    assert workers.can_place(s, t, 0, COMMON, d)
    # a_work means nothing outside solo
    h = Pos(3)
    h.s["a_work"][0] = d
    assert not workers.automa_on_space(h.s, d)
    assert workers.can_place(h.s, h.t, 0, COMMON, d)


# ---------------------------------------------------------------- start of play (I.3.7, I.12.2.8)


def test_start_of_play_solo_grande_then_common() -> None:
    """Solo: Automa workers fill every green/purple bottom space, so the grande may start on any bottom-row
    space but the common only in black; the grande is placed first."""
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    assert sorted(int(x) for x in s["a_work"]) == sorted(set(int(x) for x in s["a_work"]))
    s["actor"] = 0
    n = workers.start_legal(s, t, g.out)
    codes = [int(x) for x in g.out[:n]]
    bottom = {d for d in range(int(t["n_spaces"])) if t["sp"][d, SP_ROW] == ROW_BOTTOM}
    assert {(a - A_MOVE) // N_DEST for a in codes} == {GRANDE}
    assert {(a - A_MOVE) % N_DEST for a in codes} == bottom
    d0 = g.d("1-3p:green:bottom:1")
    workers.start_apply(s, t, A_MOVE + GRANDE * N_DEST + d0, g.log)
    assert s["w_place"][0, GRANDE] == d0 and s["w_part"][0, GRANDE] == PART_TOP
    (ev,) = g.events(EV_HUMAN_SETUP)
    assert list(ev[FIELD0:FIELD0 + 4]) == [0, GRANDE, 1, d0]
    n = workers.start_legal(s, t, g.out)
    codes = [int(x) for x in g.out[:n]]
    assert {(a - A_MOVE) // N_DEST for a in codes} == {COMMON}
    assert {(a - A_MOVE) % N_DEST for a in codes} == g.spaces(T_BLACK, ROW_BOTTOM)
    workers.start_apply(s, t, codes[0], g.log)
    assert workers.start_legal(s, t, g.out) == 0


def test_start_of_play_multi_player_blocking() -> None:
    g = Pos(3)
    g.s["actor"] = 1
    g.put(0, GRANDE, "1-3p:purple:bottom:0")
    g.s["w_place"][1, GRANDE] = W_MAT
    n = workers.start_legal(g.s, g.t, g.out)
    assert g.d("1-3p:purple:bottom:0") in {(int(a) - A_MOVE) % N_DEST for a in g.out[:n]}  # grande: not blocked
    g.s["w_place"][1, GRANDE] = g.d("1-3p:black:bottom:0")
    n = workers.start_legal(g.s, g.t, g.out)
    dests = {(int(a) - A_MOVE) % N_DEST for a in g.out[:n]}
    assert g.d("1-3p:purple:bottom:0") not in dests and g.d("1-3p:purple:bottom:1") in dests
    assert all(g.t["sp"][d, SP_ROW] == ROW_BOTTOM for d in dests)
    # the grande goes first whatever its slot
    h = Pos(3)
    h.s["w_grande"][0, :2] = [0, 1]
    assert workers.start_worker(h.s, 0) == 1
    h.s["w_place"][0, 1] = h.d("1-3p:black:bottom:0")
    assert workers.start_worker(h.s, 0) == 0
    h.s["w_place"][0, 0] = h.d("1-3p:black:bottom:1")
    assert workers.start_worker(h.s, 0) == -1


# ---------------------------------------------------------------- worker actions (rule 2, I.6.3)


def test_green_double_frame_offers_two_rewards_and_costs_2_gold() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    d = g.put(0, COMMON, "1-3p:green:top:0")  # +1 power +2 votes | +2 popularity, cost 2 gold
    s["res"][0, R_GOLD] = 1
    assert g.actions() == []
    s["res"][0, R_GOLD] = 3
    assert g.actions() == [A_ACTION + COMMON * 2, A_ACTION + COMMON * 2 + 1]
    workers.take_action(s, t, 0, COMMON, 0, g.log)
    assert s["res"][0, R_GOLD] == 1
    assert s["track"][0, K_POWER] == 1 and s["votes"][0] == 2 and s["track"][0, K_POPULARITY] == 0
    assert s["w_place"][0, COMMON] == d and s["w_part"][0, COMMON] == PART_BOTTOM
    assert g.actions() == []  # in the bottom box: stuck
    (ev,) = g.events(EV_WORKER_ACTION)
    assert list(ev[FIELD0:FIELD0 + 3]) == [COMMON, d, 0]
    assert ev[FIELD0 + 3] == t["sp"][d][7] and ev[FIELD0 + 5] == 1
    rows = [i for i in range(1, int(g.log[0, 0]) + 1) if g.log[i, 0] == EV_WORKER_ACTION]
    assert s["cause"] == rows[0]  # the primary event of the action
    # the second reward
    h = Pos(3)
    h.put(0, GRANDE, "1-3p:green:top:0")
    h.s["res"][0, R_GOLD] = 2
    workers.take_action(h.s, h.t, 0, GRANDE, 1, h.log)
    assert h.s["track"][0, K_POPULARITY] == 2 and h.s["votes"][0] == 0 and h.s["res"][0, R_GOLD] == 0


def test_purple_double_frame_on_the_bottom_row() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    g.put(0, GRANDE, "1-3p:purple:bottom:1")  # +1 popularity +1 prestige +1 vote | brown production
    s["res"][0, R_GOLD] = 2
    assert g.actions() == []  # rule 2: the purple timer is on the top row
    s["timer_row"][T_PURPLE] = ROW_BOTTOM
    assert g.actions() == [A_ACTION + 0, A_ACTION + 1]
    workers.take_action(s, t, 0, GRANDE, 0, g.log)
    assert s["track"][0, K_POPULARITY] == 1 and s["track"][0, K_PRESTIGE] == 1 and s["votes"][0] == 1
    assert s["res"][0, R_GOLD] == 0


def test_black_actions_votes_and_conquer() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    g.put(0, COMMON, "1-3p:black:top:1")  # +1 vote, no cost
    g.put(0, GRANDE, "1-3p:black:top:2")  # conquer, 4 military
    s["res"][0, R_MILITARY] = 3
    assert g.actions() == [A_ACTION + COMMON * 2]
    workers.take_action(s, t, 0, COMMON, 0, g.log)
    assert s["votes"][0] == 1 and s["res"][0, R_GOLD] == 0
    s["res"][0, R_MILITARY] = 4
    assert g.actions() == [A_ACTION + GRANDE * 2]
    s["pdeck_n"] = 1
    workers.take_action(s, t, 0, GRANDE, 0, g.log)
    assert s["res"][0, R_MILITARY] == 0
    assert s["n_pend"] == 1 and s["pend_kind"][0] == PD_CONQUER


def test_rule2_no_action_on_the_untimed_row() -> None:
    g = Pos(3)
    g.s["res"][0, R_GOLD] = 10
    g.put(0, GRANDE, "1-3p:green:bottom:1")
    g.put(0, COMMON, "1-3p:black:bottom:1")
    assert g.actions() == []
    g.s["timer_row"][T_BLACK] = ROW_BOTTOM
    assert g.actions() == [A_ACTION + COMMON * 2]
    g.s["timer_row"][T_GREEN] = ROW_BOTTOM
    assert g.actions() == [A_ACTION + 0, A_ACTION + 1, A_ACTION + COMMON * 2]


def test_free_action_waives_green_purple_gold_only() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    g.put(0, COMMON, "1-3p:green:top:0")
    g.put(0, GRANDE, "1-3p:black:top:2")
    s["res"][0, R_MILITARY] = 4
    assert g.actions() == [A_ACTION + GRANDE * 2]
    s["free_action"][0] = 1
    assert g.actions() == [A_ACTION + GRANDE * 2, A_ACTION + COMMON * 2, A_ACTION + COMMON * 2 + 1]
    # conquer is not waived and keeps the modifier armed
    s["pdeck_n"] = 1
    workers.take_action(s, t, 0, GRANDE, 0, g.log)
    assert s["res"][0, R_MILITARY] == 0 and s["free_action"][0] == 1
    workers.take_action(s, t, 0, COMMON, 1, g.log)
    assert s["res"][0, R_GOLD] == 0 and s["track"][0, K_POPULARITY] == 2 and s["free_action"][0] == 0
    ev = g.events(EV_WORKER_ACTION)[-1]
    assert ev[FIELD0 + 3] == 0 and ev[FIELD0 + 6] & workers.MOD_FREE


def test_double_action_pays_and_gains_twice() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    g.put(0, COMMON, "1-3p:green:top:0")
    s["res"][0, R_GOLD] = 3  # only one payment: single action, the modifier stays armed
    s["double_action"][0] = 1
    workers.take_action(s, t, 0, COMMON, 0, g.log)
    assert s["res"][0, R_GOLD] == 1 and s["votes"][0] == 2 and s["double_action"][0] == 1
    h = Pos(3)
    h.put(0, COMMON, "1-3p:green:top:0")
    h.s["res"][0, R_GOLD] = 5
    h.s["double_action"][0] = 1
    workers.take_action(h.s, h.t, 0, COMMON, 0, h.log)
    assert h.s["res"][0, R_GOLD] == 1 and h.s["votes"][0] == 4 and h.s["track"][0, K_POWER] == 2
    assert h.s["double_action"][0] == 0
    ev = h.events(EV_WORKER_ACTION)[-1]
    assert ev[FIELD0 + 5] == 2 and ev[FIELD0 + 6] & workers.MOD_DOUBLE


def test_adjacent_action_single_and_double_frames() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    d = g.put(0, COMMON, "1-3p:black:top:1")  # +1 vote; neighbours: black top 0 and top 2
    s["adjacent_action"][0] = 1
    workers.take_action(s, t, 0, COMMON, 0, g.log)
    assert s["adjacent_action"][0] == 0 and s["votes"][0] == 1
    assert s["n_pend"] == 1 and s["pend_kind"][0] == PD_ADJACENT and s["pend_arg"][0] == d
    n = effects.pending_legal(s, t, g.out)
    assert [int(x) for x in g.out[:n]] == [A_NO, A_SPACE + g.d("1-3p:black:top:0")]  # conquer: no military
    s["res"][0, R_MILITARY] = 4
    n = effects.pending_legal(s, t, g.out)
    assert [int(x) for x in g.out[:n]] == [A_NO, A_SPACE + g.d("1-3p:black:top:0"),
                                           A_SPACE + g.d("1-3p:black:top:2")]
    assert not workers.is_adjacent(t, d, g.d("1-3p:black:top:3"))
    assert not workers.is_adjacent(t, d, g.d("1-3p:black:bottom:1"))
    # a double frame next door: the reward is chosen in a second step, the cost paid once
    h = Pos(3)
    s, t = h.s, h.t
    h.put(0, COMMON, "1-3p:green:top:1")  # red production; neighbour: the double frame green top 0
    s["res"][0, R_GOLD] = 4
    s["adjacent_action"][0] = 1
    workers.take_action(s, t, 0, COMMON, 0, h.log)
    effects.pending_settle(s, t, h.log)
    top = int(s["n_pend"]) - 1
    assert s["pend_kind"][top] == PD_ADJACENT
    n = effects.pending_legal(s, t, h.out)
    assert [int(x) for x in h.out[:n]] == [A_NO, A_SPACE + h.d("1-3p:green:top:0")]
    gold = int(s["res"][0, R_GOLD])
    effects.pending_apply(s, t, A_SPACE + h.d("1-3p:green:top:0"), h.log)
    n = effects.pending_legal(s, t, h.out)
    assert [int(x) for x in h.out[:n]] == [A_NO, A_RES + 0, A_RES + 1]
    effects.pending_apply(s, t, A_RES + 1, h.log)
    assert s["track"][0, K_POPULARITY] == 2 and s["res"][0, R_GOLD] == gold - 2
    assert s["n_pend"] == 0
    # declining the reward leaves nothing behind and pays nothing
    k = Pos(3)
    k.put(0, COMMON, "1-3p:green:top:1")
    k.s["res"][0, R_GOLD] = 4
    k.s["adjacent_action"][0] = 1
    workers.take_action(k.s, k.t, 0, COMMON, 0, k.log)
    effects.pending_settle(k.s, k.t, k.log)
    gold = int(k.s["res"][0, R_GOLD])
    effects.pending_apply(k.s, k.t, A_SPACE + k.d("1-3p:green:top:0"), k.log)
    effects.pending_apply(k.s, k.t, A_NO, k.log)
    assert k.s["n_pend"] == 0 and k.s["res"][0, R_GOLD] == gold and k.s["track"][0, K_POPULARITY] == 0


# ---------------------------------------------------------------- retrieve, solo trigger 1


def test_retrieve_only_from_rows_with_their_timer() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    g.put(0, GRANDE, "1-3p:green:top:0", PART_BOTTOM)  # timed row, bottom box
    g.put(0, COMMON, "1-3p:black:bottom:0")  # untimed row
    workers.recruit(s, t, 0, g.log)  # slot 2 on the mat
    assert workers.retrieve_legal_workers(s, t, 0) == 1 << GRANDE
    s["timer_row"][T_BLACK] = ROW_BOTTOM
    assert workers.retrieve_legal_workers(s, t, 0) == (1 << GRANDE) | (1 << COMMON)
    workers.retrieve_worker(s, t, 0, GRANDE, g.log)
    assert s["w_place"][0, GRANDE] == W_MAT
    assert s["st_triggers"].sum() == 0  # not solo: no Automa


@pytest.mark.parametrize(("part", "fires"), [(PART_TOP, False), (PART_BOTTOM, True)])
def test_solo_retrieve_fires_trigger_1_only_from_a_bottom_box(part: int, fires: bool) -> None:
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    g.put(0, COMMON, "1-3p:black:top:3", part)  # black timer on the top row: retrievable
    assert workers.retrieve_legal_workers(s, t, 0) == 1 << COMMON
    disc = int(s["a_disc_n"])
    workers.retrieve_worker(s, t, 0, COMMON, g.log)
    assert s["w_place"][0, COMMON] == W_MAT
    assert s["st_triggers"][TR_BOTTOM_BOX] == (1 if fires else 0)
    assert s["st_triggers"].sum() == (1 if fires else 0)
    assert int(s["a_disc_n"]) == disc + (1 if fires else 0)


def test_solo_lift_replaces_the_move_of_a_bottom_box_worker() -> None:
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    d = g.put(0, COMMON, "1-3p:black:bottom:2", PART_BOTTOM)  # untimed bottom box: free
    g.put(0, GRANDE, "1-3p:black:bottom:1", PART_TOP)
    moves = g.moves()
    assert moves[0] == A_LIFT + COMMON and A_LIFT + GRANDE not in moves
    assert g.dests(0, COMMON) == set()  # no A_MOVE for the lifted worker
    assert DEST_MAT in g.dests(0, GRANDE)  # a top-frame worker moves normally
    # multi-player: the same worker simply moves
    h = Pos(3)
    h.put(0, COMMON, "1-3p:black:bottom:2", PART_BOTTOM)
    assert not any(A_LIFT <= a < A_MOVE for a in h.moves()) and DEST_MAT in h.dests(0, COMMON)
    # a bottom box on the timed row is stuck: no lift
    s["timer_row"][T_BLACK] = ROW_BOTTOM
    assert A_LIFT + COMMON not in g.moves()
    s["timer_row"][T_BLACK] = ROW_TOP
    # lift: the worker waits on the mat, the Automa acts (trigger 1), then the human re-chooses
    workers.lift_worker(s, t, 0, COMMON, g.log)
    assert s["w_place"][0, COMMON] == W_MAT
    assert s["lifted_seat"] == 0 and s["lifted_worker"] == COMMON
    assert s["st_triggers"][TR_BOTTOM_BOX] == 1
    (lift,) = g.events(EV_WORKER_LIFT)
    assert lift[FIELD0 + 2] == d and lift[FIELD0 + 3] == PART_BOTTOM and lift[FIELD0 + 7] == TR_BOTTOM_BOX
    s["phase"] = PH_REPLACE
    n = workers.replace_legal(s, t, g.out)
    codes = [int(x) for x in g.out[:n]]
    assert codes[-1] == A_MOVE + COMMON * N_DEST + DEST_MAT
    assert codes == sorted(codes)
    expected = {x for x in range(int(t["n_spaces"])) if workers.can_place(s, t, 0, COMMON, x)}
    assert {(a - A_MOVE) % N_DEST for a in codes[:-1]} == expected and expected
    target = (codes[0] - A_MOVE) % N_DEST
    workers.replace_apply(s, t, codes[0], g.log)
    assert s["w_place"][0, COMMON] == target and s["w_part"][0, COMMON] == PART_TOP
    assert s["lifted_seat"] == -1 and s["lifted_worker"] == -1
    (place,) = g.events(EV_WORKER_PLACE)
    assert place[FIELD0 + 2] == target
    assert g.events(EV_WORKER_MOVE) == []


def test_solo_lift_in_council_step5_uses_the_step5_trigger() -> None:
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    g.put(0, COMMON, "1-3p:black:bottom:0", PART_BOTTOM)
    s["phase"] = PH_STEP5
    n = workers.step5_legal(s, t, 0, g.out, 0)
    assert A_LIFT + COMMON in [int(x) for x in g.out[:n]]
    workers.lift_worker(s, t, 0, COMMON, g.log)
    assert s["st_triggers"][TR_STEP5] == 1 and s["st_triggers"][TR_BOTTOM_BOX] == 0


def test_move_event_fields() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    d = g.put(0, COMMON, "1-3p:black:bottom:0", PART_BOTTOM)
    s["timer_row"][T_GREEN] = ROW_BOTTOM
    d2 = g.d("1-3p:black:bottom:3")
    workers.move_worker(s, t, 0, COMMON, d2, g.log)
    (ev,) = g.events(EV_WORKER_MOVE)
    assert list(ev[FIELD0:FIELD0 + 9]) == [COMMON, 0, d, PART_BOTTOM, d2, ROW_TOP, ROW_BOTTOM, ROW_TOP, 0]
    assert s["cause"] >= 1
    workers.move_worker(s, t, 0, COMMON, DEST_MAT, g.log)
    ev = g.events(EV_WORKER_MOVE)[-1]
    assert ev[FIELD0 + 2] == d2 and ev[FIELD0 + 4] == -1 and s["w_place"][0, COMMON] == W_MAT
    for fields in workers.EVENT_FIELDS.values():
        assert len(fields) <= N_FIELDS and len(set(fields)) == len(fields)


# ---------------------------------------------------------------- grande swap


def test_grande_swap() -> None:
    """The second grande takes the place of a common in play (same spot); only one swap per game."""
    g = Pos(3)
    s, t = g.s, g.t
    d = g.put(0, COMMON, "1-3p:green:bottom:1", PART_BOTTOM)
    assert workers.grande_swap_legal_workers(s, t, 0) == 1 << COMMON  # reserve commons are not in play
    workers.recruit(s, t, 0, g.log)
    assert workers.grande_swap_legal_workers(s, t, 0) == (1 << COMMON) | (1 << 2)
    workers.grande_swap(s, t, 0, COMMON, g.log)
    assert s["w_grande"][0, COMMON] == 1 and s["w_place"][0, COMMON] == d and s["w_part"][0, COMMON] == PART_BOTTOM
    assert workers.grande_count(s, 0) == 2 and workers.worker_count_in_play(s, 0) == 3
    assert workers.grande_swap_legal_workers(s, t, 0) == 0
    # the new grande is no longer blocked
    s["w_place"][0, COMMON] = W_MAT
    g.put(1, GRANDE, "1-3p:green:bottom:0")
    assert g.can(0, COMMON, "1-3p:green:bottom:0")
    assert not g.can(0, 2, "1-3p:green:bottom:0")


# ---------------------------------------------------------------- Insurgent: place on a timed row


def test_insurgent_places_on_a_timed_row_and_acts() -> None:
    g = Pos(3)
    s, t = g.s, g.t
    s["res"][0, R_GOLD] = 2
    n = workers.timed_place_legal(s, t, 0, COMMON, g.out, 0)
    targets = {g.rules.space_id(int(a) - A_SPACE) for a in g.out[:n]}
    # all timers on the top row: no production spaces, no conquer without 4 military
    assert targets == {"1-3p:green:top:0", "1-3p:black:top:1", "1-3p:black:top:3"}
    for a in g.out[:n]:
        d = int(a) - A_SPACE
        assert g.t["sp"][d, SP_HAS_PROD] == 0 and workers.is_timed(s, t, d)
    assert workers.timed_place_workers(s, t, 0) == (1 << GRANDE) | (1 << COMMON)
    d = g.d("1-3p:black:top:1")
    workers.timed_place(s, t, 0, COMMON, d, g.log)
    assert s["w_place"][0, COMMON] == d and s["w_part"][0, COMMON] == PART_BOTTOM and s["votes"][0] == 1
    ev = g.events(EV_WORKER_ACTION)[-1]
    assert ev[FIELD0 + 6] & workers.MOD_TIMED_PLACE
    # a common cannot be placed where another seat blocks it; the grande can
    g.put(1, GRANDE, "1-3p:green:top:0")
    n = workers.timed_place_legal(s, t, 0, GRANDE, g.out, 0)
    assert A_SPACE + g.d("1-3p:green:top:0") in [int(x) for x in g.out[:n]]
    s["w_place"][0, COMMON] = W_MAT
    n = workers.timed_place_legal(s, t, 0, COMMON, g.out, 0)
    assert A_SPACE + g.d("1-3p:green:top:0") not in [int(x) for x in g.out[:n]]
    # on the double frame the grande waits in the top frame and acts with A_ACTION (choosing the reward)
    dd = g.d("1-3p:green:top:0")
    workers.timed_place(s, t, 0, GRANDE, dd, g.log)
    assert s["w_place"][0, GRANDE] == dd and s["w_part"][0, GRANDE] == PART_TOP and s["res"][0, R_GOLD] == 2
    assert g.actions() == [A_ACTION + 0, A_ACTION + 1]
    # a worker stuck on a timed row is not free to go
    s["w_place"][0, COMMON] = d
    s["w_part"][0, COMMON] = PART_BOTTOM
    assert not workers.timed_place_workers(s, t, 0) >> COMMON & 1


def _top_acard(g: Pos, combo: int) -> int:
    """Put an Automa card with flip combination ``combo`` on top of the Automa deck (the last index); its id."""
    s, t = g.s, g.t
    c = next(c for c in range(32) if int(t["acard"][c, AC_FLIP]) == combo)
    deck = [int(x) for x in s["a_deck"][: int(s["a_deck_n"])]]
    deck.remove(c)
    deck.append(c)
    s["a_deck"][: len(deck)] = deck
    return c


def test_solo_insurgent_from_a_bottom_box_draws_the_automa_card_before_placing() -> None:
    """NOTES I.12.4.1 and II.8, [A §Выполнение действий Автомы] ("перед тем, как поместите"): the Insurgent's
    worker chosen in a bottom box is lifted at once and the Automa card is drawn and resolved BEFORE the worker
    is placed; the human then chooses the space again. Here the card flips black (run out; purple is not) off
    the bottom row where the worker would have gone, so the new choice is among the black top-row spaces."""
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    s["now"] = 100.0
    s["timer_row"][T_BLACK] = ROW_BOTTOM
    s["runs_out"][T_BLACK] = 50.0  # black has run out: the Automa card can flip it to the top row
    g.put(0, COMMON, "1-3p:black:top:0", PART_BOTTOM)  # an untimed bottom box: free, and leaving it is trigger 1
    _top_acard(g, FLIP_PURPLE_BLACK)
    effects.push_pending(s, 0, PD_TIMED_PLACE, 1, -1)
    s["phase"] = PH_PENDING
    n = effects.pending_legal(s, t, g.out)
    assert A_WORKER + COMMON in [int(x) for x in g.out[:n]]
    before = {g.rules.space_id(d) for d in range(int(t["n_spaces"]))
              if workers.timed_place_space_ok(s, t, 0, COMMON, d)}
    assert before and all(":black:bottom:" in x for x in before if ":black:" in x)
    effects.pending_apply(s, t, A_WORKER + COMMON, g.log)
    # the worker left its box and the Automa acted: lift, draw, flip of black; no placement yet
    kinds = [int(g.log[i, 0]) for i in range(1, int(g.log[0, 0]) + 1)]
    i_lift = kinds.index(EV_WORKER_LIFT)
    assert EV_WORKER_PLACE not in kinds and EV_WORKER_MOVE not in kinds and EV_WORKER_ACTION not in kinds
    assert kinds.index(EV_AUTOMA_DRAW) > i_lift
    (lift,) = g.events(EV_WORKER_LIFT)
    assert lift[FIELD0 + 7] == TR_BOTTOM_BOX and lift[FIELD0 + 3] == PART_BOTTOM
    (draw,) = g.events(EV_AUTOMA_DRAW)
    assert draw[1] == i_lift + 1  # its cause is the lift
    assert s["st_triggers"][TR_BOTTOM_BOX] == 1
    assert s["timer_row"][T_BLACK] == ROW_TOP and s["w_place"][0, COMMON] == W_MAT
    # the human re-chooses among the targets left: the black spaces of the top row now
    assert s["n_pend"] == 1 and s["pend_kind"][0] == PD_TIMED_PLACE
    n = effects.pending_legal(s, t, g.out)
    after = {g.rules.space_id(int(a) - A_SPACE) for a in g.out[:n]}
    assert after and all(":top:" in x for x in after) and "1-3p:black:top:1" in after
    effects.pending_apply(s, t, A_SPACE + g.d("1-3p:black:top:1"), g.log)
    (place,) = g.events(EV_WORKER_PLACE)
    assert place[FIELD0 + 2] == g.d("1-3p:black:top:1")
    act = g.events(EV_WORKER_ACTION)[-1]  # the stratagem's immediate action happens
    assert act[FIELD0 + 1] == g.d("1-3p:black:top:1") and act[FIELD0 + 6] & workers.MOD_TIMED_PLACE
    assert s["votes"][0] == 1 and s["w_part"][0, COMMON] == PART_BOTTOM and s["n_pend"] == 0


def test_solo_insurgent_lift_with_no_target_left_keeps_the_worker_on_the_mat() -> None:
    """II.8 (the mat is always legal): when the Automa's card leaves no Insurgent target, the lifted worker stays
    on the mat (EV_WORKER_PLACE to the mat), the decision ends and no action is taken. Here the card flips black
    to the top row, where the seat (advanced variant, no gold, no military) has its own workers on the only
    black spaces it could take."""
    g = Pos(1, solo=True)
    s, t = g.s, g.t
    s["now"] = 100.0
    s["timer_row"][T_BLACK] = ROW_BOTTOM
    s["runs_out"][T_BLACK] = 50.0
    s["advanced"][0] = 1  # no two own workers in one top frame (I.10.3)
    g.put(0, COMMON, "1-3p:black:top:0", PART_BOTTOM)
    g.put(0, GRANDE, "1-3p:black:top:1")
    g.put(0, 2, "1-3p:black:top:3")
    _top_acard(g, FLIP_PURPLE_BLACK)
    effects.push_pending(s, 0, PD_TIMED_PLACE, 1, -1)
    s["phase"] = PH_PENDING
    n = effects.pending_legal(s, t, g.out)
    assert A_WORKER + COMMON in [int(x) for x in g.out[:n]]  # black:bottom targets exist before the card
    effects.pending_apply(s, t, A_WORKER + COMMON, g.log)
    assert s["timer_row"][T_BLACK] == ROW_TOP
    assert not any(workers.timed_place_space_ok(s, t, 0, COMMON, d) for d in range(int(t["n_spaces"])))
    (place,) = g.events(EV_WORKER_PLACE)
    assert place[FIELD0 + 2] == W_MAT and s["w_place"][0, COMMON] == W_MAT and s["n_pend"] == 0
    assert g.events(EV_WORKER_ACTION) == []
