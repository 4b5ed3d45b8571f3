"""Pendulum's clock (timers.py, realtime.py): flips, markers, council called, the schedule and the timed model.

NOTES sections are those of ../shared/research/pendulum/NOTES.md: I.5 (timers and rows), I.8.1 (council called),
I.10.1 (the timer track), I.12.4 (trigger 2), I.12.7 (Automa flips: markers), I.12.9 (legendary cut-off),
I.12.13 (Omen), I.13.1-I.13.4 (the simulator's clock), II.2-II.4, VI.3, VI.11, VI.12. Whole games are played
with a random policy in Python; positions are taken from such games or from ``rules.setup`` and edited.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.pendulum import clock, rules, timers
from simlab.games.pendulum.codes import (
    A_FLIP,
    A_PASS,
    EV_AUTOMA_DRAW,
    EV_CONFLICT,
    EV_COUNCIL_CALLED,
    EV_LEGENDARY,
    EV_PASS,
    EV_SCHEDULE_STEP,
    EV_TIMER_FLIP,
    FL_AUTO,
    FL_AUTOMA,
    FL_HUMAN,
    FL_OVERDUE,
    FL_ROUND_START,
    MAX_ACTIONS,
    PH_PENDING,
    PH_REAL,
    PH_REPLACE,
    PH_STEP5,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TR_HUMAN_FLIP,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE, STREAM_CLOCK
from simlab.games.pendulum.tables import SC_DUE, SC_PURPLE_NO, SC_TIME

DATA = load_data()
_RULES: dict = {}
LOG_CAP = 1 << 17


def ruleset(n: int, **opts):
    """The ruleset for ``n`` players with these options (cached)."""
    key = (n, tuple(sorted(opts.items())))
    if key not in _RULES:
        _RULES[key] = build_ruleset(n, DATA, opts)
    return _RULES[key]


def random_policy(seed: int, pass_p: float = 0.3):
    """Uniform among the legal actions, except that a pass (when legal) is taken with probability ``pass_p``."""
    rng = np.random.default_rng(seed)

    def choose(s, legal):
        if legal[0] == A_PASS and rng.random() < pass_p:
            return A_PASS
        return int(legal[rng.integers(len(legal))])
    return choose


def pass_policy(s, legal):
    """Always pass in the real-time phase and step 5; the first legal action elsewhere."""
    return A_PASS if legal[0] == A_PASS else int(legal[0])


def play(ru, seed: int, policy, cap: int = LOG_CAP, on_step=None, max_steps: int = 400_000):
    """A whole game; returns (state array, log). ``on_step(s)`` is called after every action."""
    st = np.zeros(1, STATE_DTYPE)
    legal = np.empty(MAX_ACTIONS, np.int64)
    log = rules.new_log(cap)
    k = rules.py_setup(st, np.uint64(seed), ru.n_players, ru.tables, log, legal)
    steps = 0
    while k > 0:
        lg = legal[:k].copy()
        assert np.all(np.diff(lg) > 0)
        k = rules.py_step(st, policy(st[0], lg), ru.tables, log, legal)
        if on_step is not None:
            on_step(st[0])
        steps += 1
        assert steps < max_steps
    assert log[0, 1] == 0, "log truncated"
    return st, log


def rows(log, code=None):
    """The log's event rows (optionally of one event code)."""
    r = log[1: log[0, 0] + 1]
    return r if code is None else r[r[:, 0] == code]


def field(module, code: int, name: str) -> int:
    """The column of field ``name`` of event ``code`` (the module's EVENT_FIELDS)."""
    return FIELD0 + module.EVENT_FIELDS[code].index(name)


F_TIMER = field(timers, EV_TIMER_FLIP, "timer")
F_FLIPPER = field(timers, EV_TIMER_FLIP, "flipper")
F_SEAT = field(timers, EV_TIMER_FLIP, "seat")
F_BEFORE_OUT = field(timers, EV_TIMER_FLIP, "before_runs_out_ds")
F_PURPLE_NO = field(timers, EV_TIMER_FLIP, "purple_flip_no")
F_MARKERS = field(timers, EV_TIMER_FLIP, "markers_left")
F_TO_AUTOMA = field(timers, EV_TIMER_FLIP, "is_marker_to_automa")
F_CALLED = field(timers, EV_TIMER_FLIP, "is_council_called")
F_STEP = field(timers, EV_SCHEDULE_STEP, "step")
F_DUE = field(timers, EV_SCHEDULE_STEP, "due_mask")
COL_ROUND, COL_STEP, COL_TIME, COL_ACTOR = 2, 4, 5, 6


def to_real(ru, seed: int):
    """A state array right after the start of play (PH_REAL, round 1, step 0), placing the first legal worker."""
    st = np.zeros(1, STATE_DTYPE)
    legal = np.empty(MAX_ACTIONS, np.int64)
    log = rules.new_log(4096)
    k = rules.py_setup(st, np.uint64(seed), ru.n_players, ru.tables, log, legal)
    while st[0]["phase"] != PH_REAL:
        k = rules.py_step(st, int(legal[0]), ru.tables, log, legal)
    assert k > 0
    return st, log


def flip_rows_by_round(log):
    """EV_TIMER_FLIP rows grouped by round."""
    fl = rows(log, EV_TIMER_FLIP)
    return {r: fl[fl[:, COL_ROUND] == r] for r in np.unique(fl[:, COL_ROUND])}


# ---------------------------------------------------------------- the schedule model


@pytest.mark.parametrize("n", [1, 3])
def test_schedule_steps_times_and_due_timers(n):
    """Every round runs steps 0..10 at the schedule's times; at each step k >= 1 exactly the schedule's due
    timers have run out, and every flip in a step is of a timer whose sand had run out (I.10.1, I.13.2)."""
    ru = ruleset(n)
    t = ru.tables[0]
    st, log = play(ru, 11, random_policy(1))
    steps = rows(log, EV_SCHEDULE_STEP)
    for rnd in range(1, 5):
        s_r = steps[steps[:, COL_ROUND] == rnd]
        assert list(s_r[:, F_STEP]) == list(range(11))
        for row in s_r:
            k = row[F_STEP]
            assert row[COL_TIME] == 10 * t["sched"][k, SC_TIME]
            if k >= 1:
                assert row[F_DUE] == t["sched"][k, SC_DUE], (rnd, k)
    for rnd, fl in flip_rows_by_round(log).items():
        for row in fl:
            if row[F_FLIPPER] != FL_ROUND_START:
                assert row[F_BEFORE_OUT] <= row[COL_TIME], row  # its sand had run out
                k = row[COL_STEP]
                assert (t["sched"][k, SC_DUE] >> row[F_TIMER]) & 1, (rnd, k, row[F_TIMER])
        purple = fl[fl[:, F_TIMER] == T_PURPLE]
        # purple flips 1, 2, 3 at the steps the schedule names (0, 5, 10)
        assert list(purple[:, F_PURPLE_NO]) == [1, 2, 3]
        for row in purple:
            assert t["sched"][row[COL_STEP], SC_PURPLE_NO] == row[F_PURPLE_NO]
    assert st[0]["rng_ctr"][STREAM_CLOCK] == 0  # the schedule draws no reaction times


def test_round_robin_in_privilege_order_and_step_end():
    """Seats act one atomic action at a time in privilege order; a non-pass action resets the passes; when all
    pass in a row the next step begins with the first seat (I.13.4, II.5)."""
    ru = ruleset(3)
    st, log = to_real(ru, 5)
    s = st[0]
    t = ru.tables[0]
    seats = [int(a) for a in s["priv"][: s["n_priv"]]]
    legal = np.empty(MAX_ACTIONS, np.int64)
    assert s["actor"] == seats[0] and s["sched_step"] == 0 and s["now"] == 0.0
    rules.py_step(st, A_PASS, ru.tables, log, legal)
    assert s["actor"] == seats[1]
    n = rules.py_legal(st, ru.tables, legal)
    other = [int(a) for a in legal[:n] if a != A_PASS]
    rules.py_step(st, other[0], ru.tables, log, legal)  # resets the count
    while s["phase"] != PH_REAL:  # a decision the action left
        rules.py_step(st, int(legal[0]), ru.tables, log, legal)
    assert s["actor"] == seats[2] and s["passes"] == 0
    rules.py_step(st, A_PASS, ru.tables, log, legal)
    rules.py_step(st, A_PASS, ru.tables, log, legal)
    assert s["sched_step"] == 0 and s["actor"] == seats[1]  # two passes in a row are not enough
    rules.py_step(st, A_PASS, ru.tables, log, legal)
    assert s["sched_step"] == 1 and s["now"] == t["sched"][1, SC_TIME]
    assert s["actor"] == seats[0] and s["passes"] == 0
    assert timers.due_mask(s) == 1 << T_BLACK


@pytest.mark.parametrize("n", [1, 3])
def test_round_start_flip_is_purple_flip_1(n):
    """Each round begins with the three round-start flips; purple's is flip 1, knocks a marker, sends none to
    the Automa board and is nobody's flip (I.5.5, I.13.2)."""
    ru = ruleset(n)
    _st, log = play(ru, 3, random_policy(3))
    for fl in flip_rows_by_round(log).values():
        first = fl[:3]
        assert set(first[:, F_FLIPPER]) == {FL_ROUND_START}
        assert sorted(first[:, F_TIMER]) == [T_PURPLE, T_GREEN, T_BLACK]
        assert (first[:, F_SEAT] == -1).all() and (first[:, COL_TIME] == 0).all()
        p = first[first[:, F_TIMER] == T_PURPLE][0]
        assert p[F_PURPLE_NO] == 1 and p[F_MARKERS] == 2 and p[F_TO_AUTOMA] == 0
        assert (fl[3:, F_FLIPPER] != FL_ROUND_START).all()


@pytest.mark.parametrize("n,opts", [(1, {}), (3, {}), (1, {"time_model": "timed"}), (2, {"time_model": "timed"})])
def test_council_called_at_purple_flip_3_and_no_flip_after(n, opts):
    """Council is called exactly when purple flip 3 knocks the last marker, once per round, four times a game;
    no timer flips after that until the next round's start (I.5.5, I.8.1, VI.3)."""
    ru = ruleset(n, **opts)
    st, log = play(ru, 21, random_policy(21))
    called = rows(log, EV_COUNCIL_CALLED)
    assert len(called) == 4 and list(called[:, COL_ROUND]) == [1, 2, 3, 4]
    assert (called[:, FIELD0] == 3).all()
    r = rows(log)
    idx_called = np.nonzero(r[:, 0] == EV_COUNCIL_CALLED)[0]
    for i in idx_called:
        prev = r[i - 1]
        assert prev[0] == EV_TIMER_FLIP and prev[F_TIMER] == T_PURPLE and prev[F_PURPLE_NO] == 3
        assert prev[F_CALLED] == 1 and prev[F_MARKERS] == 0
        later = r[i + 1:]
        later_flips = later[later[:, 0] == EV_TIMER_FLIP]
        if len(later_flips):
            assert later_flips[0][F_FLIPPER] == FL_ROUND_START  # the next flip is the next round's start
            assert later_flips[0][COL_ROUND] == r[i][COL_ROUND] + 1
    assert st[0]["over"] == 1


def test_no_flip_legal_after_council_called():
    """flip_legal offers nothing and flip_timer refuses once council is called (VI.3)."""
    ru = ruleset(3)
    st, log = to_real(ru, 2)
    s = st[0]
    t = ru.tables[0]
    s["now"] = 360.0
    for tm in range(3):
        s["runs_out"][tm] = 360.0
    out = np.zeros(8, np.int64)
    assert timers.flip_legal(s, t, 0, out, 0) == 3
    assert list(out[:3]) == [A_FLIP + T_PURPLE, A_FLIP + T_GREEN, A_FLIP + T_BLACK]
    s["purple_flips"] = 2
    s["markers_left"] = 1
    clock.human_flip(s, t, int(s["actor"]), T_PURPLE, log)
    assert s["council_called"] == 1 and s["markers_left"] == 0 and s["purple_flips"] == 3
    assert timers.flip_legal(s, t, 0, out, 0) == 0
    row_before = int(s["timer_row"][T_GREEN])
    assert not timers.flip_timer(s, t, T_GREEN, FL_HUMAN, log, 0)
    assert s["timer_row"][T_GREEN] == row_before


@pytest.mark.parametrize("order", ["green,black,purple", "black,purple,green"])
def test_auto_flips_in_order_attributed_to_nobody(order):
    """A seat that always passes: every flip but the round start is automatic, in auto_flip_order, by nobody:
    no trigger 2, no Automa draw in real time, no marker to the Automa board (I.13.2.4, II.2, VI.11-12)."""
    ru = ruleset(1, auto_flip_order=order)
    names = ("purple", "green", "black")
    want = [names.index(x) for x in order.split(",")]
    st, log = play(ru, 7, pass_policy)
    s = st[0]
    fl = rows(log, EV_TIMER_FLIP)
    auto = fl[fl[:, F_FLIPPER] != FL_ROUND_START]
    assert (auto[:, F_FLIPPER] == FL_AUTO).all() and (auto[:, F_SEAT] == -1).all()
    assert (auto[:, F_TO_AUTOMA] == 0).all()
    for rnd in range(1, 5):
        at10 = auto[(auto[:, COL_ROUND] == rnd) & (auto[:, COL_STEP] == 10)]
        got = list(at10[:, F_TIMER])
        # purple (flip 3) calls council: nothing flips after it
        expect = want[: want.index(T_PURPLE) + 1]
        assert got == expect, (rnd, got)
    assert s["st_triggers"][TR_HUMAN_FLIP] == 0 and s["st_automa_flips"] == 0 and s["st_automa_purple"] == 0
    draws = rows(log, EV_AUTOMA_DRAW)
    assert not (draws[:, 3] == PH_REAL).any()  # no Automa card in the real-time phases


def test_auto_flips_can_count_as_human_flips():
    """With auto_flips_count_as_human_flips an automatic green/black flip while purple has run out fires
    trigger 2 (II.2); without it, never."""
    ru = ruleset(1, auto_flips_count_as_human_flips=True)
    st, log = play(ru, 7, pass_policy)
    assert st[0]["st_triggers"][TR_HUMAN_FLIP] > 0
    fl = rows(log, EV_TIMER_FLIP)
    late = fl[fl[:, F_FLIPPER] != FL_ROUND_START][:, F_FLIPPER]
    assert not (late == FL_AUTO).any() and (late == FL_HUMAN).sum() > 0  # (the Automa's cards may flip too)


# ---------------------------------------------------------------- flips, markers, trigger 2, legendary


def test_flip_switches_row_and_restarts_the_sand():
    """A flip moves the timer to the other row and restarts its sand: runs_out = now + duration (I.13.1)."""
    ru = ruleset(3)
    st, log = to_real(ru, 4)
    s = st[0]
    t = ru.tables[0]
    assert list(t["timer_s"]) == [180, 120, 45]
    s["now"] = 45.0
    assert timers.has_run_out(s, T_BLACK) and not timers.has_run_out(s, T_GREEN)
    row = int(s["timer_row"][T_BLACK])
    clock.human_flip(s, t, int(s["actor"]), T_BLACK, log)
    assert s["timer_row"][T_BLACK] == 1 - row and s["runs_out"][T_BLACK] == 90.0
    assert not timers.has_run_out(s, T_BLACK)
    assert s["purple_flips"] == 1 and s["markers_left"] == 2  # only purple counts


@pytest.mark.parametrize("flippers,to_board", [
    ((FL_AUTOMA, FL_AUTOMA), 2),
    ((FL_HUMAN, FL_AUTOMA), 1),
    ((FL_AUTOMA, FL_AUTO), 1),
    ((FL_HUMAN, FL_AUTO), 0),
])
def test_marker_to_automa_board_only_for_automa_flips_2_and_3(flippers, to_board):
    """Purple flips 2 and 3 knock the last markers; only an Automa card's flip sends its marker to the Automa
    board (I.12.7, VI.12)."""
    ru = ruleset(1)
    st, log = to_real(ru, 6)
    s = st[0]
    t = ru.tables[0]
    assert s["purple_flips"] == 1 and s["markers_left"] == 2 and s["markers_automa"] == 0
    for i, fl in enumerate(flippers):
        s["now"] = 180.0 * (i + 1)
        timers.flip_timer(s, t, T_PURPLE, fl, log, 0 if fl == FL_HUMAN else -1)
    assert s["purple_flips"] == 3 and s["markers_left"] == 0 and s["council_called"] == 1
    assert s["markers_automa"] == to_board


@pytest.mark.parametrize("n,removed", [(1, True), (3, False), (4, False)])
def test_legendary_leaves_at_purple_flip_2_in_solo(n, removed):
    """Solo: the 2nd purple flip of a round, whoever makes it, removes the legendary token (EV_LEGENDARY);
    multi-player games keep it (I.12.9, I.13.8)."""
    ru = ruleset(n)
    st, log = to_real(ru, 8)
    s = st[0]
    t = ru.tables[0]
    s["legendary_on_card"] = 1  # as in rounds 2-4
    s["now"] = 180.0
    clock.human_flip(s, t, int(s["actor"]), T_BLACK, log)
    assert s["legendary_on_card"] == 1
    timers.flip_timer(s, t, T_PURPLE, FL_AUTO, log, -1)
    assert s["purple_flips"] == 2
    assert s["legendary_on_card"] == (0 if removed else 1)
    assert len(rows(log, EV_LEGENDARY)) == (1 if removed else 0)


def _trigger2_state(n: int = 1, **opts):
    ru = ruleset(n, **opts)
    st, log = to_real(ru, 9)
    s = st[0]
    s["now"] = 180.0  # purple and black have run out (step 5)
    s["runs_out"][T_GREEN] = 180.0  # and green too, for the test
    return ru, st, log


def test_trigger2_seat_flips_green_or_black_while_purple_run_out():
    """Solo trigger 2: the seat's own green/black flip while purple has run out draws one Automa card
    (I.12.4.2)."""
    for tm in (T_GREEN, T_BLACK):
        ru, st, log = _trigger2_state()
        s = st[0]
        draws = s["st_triggers"][TR_HUMAN_FLIP]
        clock.human_flip(s, ru.tables[0], 0, tm, log)
        assert s["st_triggers"][TR_HUMAN_FLIP] == draws + 1
        d = rows(log, EV_AUTOMA_DRAW)
        assert d[-1, FIELD0] == TR_HUMAN_FLIP


@pytest.mark.parametrize("case", ["purple_not_out", "purple_flip", "auto", "automa", "multi", "called"])
def test_trigger2_does_not_fire(case):
    """No trigger 2 for: purple still running, a purple flip, an automatic flip, an Automa card's flip, a
    multi-player game, or after council was called (I.12.4, VI.11)."""
    ru, st, log = _trigger2_state(3 if case == "multi" else 1)
    s = st[0]
    t = ru.tables[0]
    if case == "purple_not_out":
        s["runs_out"][T_PURPLE] = 200.0
        clock.human_flip(s, t, 0, T_GREEN, log)
    elif case == "purple_flip":
        clock.human_flip(s, t, 0, T_PURPLE, log)
    elif case == "auto":
        clock.auto_flip(s, t, T_GREEN, log)
    elif case == "automa":
        timers.flip_timer(s, t, T_GREEN, FL_AUTOMA, log, -1)
    elif case == "multi":
        clock.human_flip(s, t, int(s["actor"]), T_GREEN, log)
    else:
        s["council_called"] = 1
        clock.human_flip(s, t, 0, T_GREEN, log)
    assert s["st_triggers"][TR_HUMAN_FLIP] == 0
    assert len(rows(log, EV_AUTOMA_DRAW)) == 0


def test_omen_cards_drawn_before_every_purple_flip():
    """Omen: one card per Automa before every purple flip, the round start included, logged before the flip
    (I.12.13)."""
    ru = ruleset(1, omen_variant=True)
    st, log = to_real(ru, 10)
    s = st[0]
    t = ru.tables[0]
    assert list(s["a_ncards"]) == [1, 1]
    r = rows(log)
    i_flip = np.nonzero((r[:, 0] == EV_TIMER_FLIP) & (r[:, F_TIMER] == T_PURPLE))[0][0]
    assert (r[:i_flip, 0] == EV_AUTOMA_DRAW).sum() == 2
    for k in (2, 3):
        s["now"] = 180.0 * (k - 1)
        timers.flip_timer(s, t, T_PURPLE, FL_AUTO, log, -1)
        assert list(s["a_ncards"]) == [k, k]
    assert s["st_triggers"][TR_HUMAN_FLIP] == 0
    ru0 = ruleset(1)
    st0, _ = to_real(ru0, 10)
    assert list(st0[0]["a_ncards"]) == [0, 0]


# ---------------------------------------------------------------- delayed flips, the timed model


def test_delayed_flips_let_a_due_timer_wait():
    """allow_delayed_flips: a due timer nobody flips stays run out past its step (the step becomes the next
    run-out); only when no sand runs any more do the timers flip by themselves (I.13.2.7, II.3)."""
    ru = ruleset(1, allow_delayed_flips=True)
    st, log = play(ru, 12, pass_policy)
    fl = rows(log, EV_TIMER_FLIP)
    r1 = fl[(fl[:, COL_ROUND] == 1) & (fl[:, F_FLIPPER] != FL_ROUND_START)]
    black = r1[r1[:, F_TIMER] == T_BLACK][0]
    assert black[F_BEFORE_OUT] == 450 and black[COL_TIME] == 1800  # ran out at 45 s, flipped at 180 s
    steps = rows(log, EV_SCHEDULE_STEP)
    s1 = steps[steps[:, COL_ROUND] == 1]
    assert list(s1[:4, COL_TIME]) == [0, 450, 1200, 1800]  # the next run-outs, not the schedule's times
    assert st[0]["over"] == 1


def black_flipper_policy(s, legal):
    """Flip black (else green) whenever it has run out, never purple, pass otherwise: the seats of issue 21's
    endless game (purple held back for ever while black keeps its sand running)."""
    for tm in (T_BLACK, T_GREEN):
        if A_FLIP + tm in legal:
            return A_FLIP + tm
    return A_PASS if legal[0] == A_PASS else int(legal[0])


@pytest.mark.parametrize("time_model", ["schedule", "timed"])
def test_overdue_flip_ends_a_stalled_round(time_model):
    """allow_delayed_flips lets purple be held back (I.13.2.7), but not for ever: a timer whose sand ran out
    ``max_flip_delay_s`` ago flips by itself (flipper overdue, nobody's: no trigger, no marker to the Automa
    board), so purple flips 2 and 3 come at most 180 s after their run-outs and every round reaches council.
    Without the safeguard seats that flip only black never end the round (issue 21, 2027/545)."""
    ru = ruleset(3, allow_delayed_flips=True, time_model=time_model)
    st, log = play(ru, 21, black_flipper_policy, max_steps=20_000)
    assert st[0]["over"] == 1
    fl = rows(log, EV_TIMER_FLIP)
    purple = fl[(fl[:, F_TIMER] == T_PURPLE) & (fl[:, F_FLIPPER] != FL_ROUND_START)]
    assert len(purple) == 8  # flips 2 and 3 of each of the 4 rounds
    assert set(purple[:, F_FLIPPER]) == {FL_OVERDUE}
    assert np.all(np.abs(purple[:, COL_TIME] - purple[:, F_BEFORE_OUT] - 1800) <= 1)  # 180 s late (tenths)
    assert purple[:, F_TO_AUTOMA].sum() == 0
    assert len(rows(log, EV_COUNCIL_CALLED)) == 4
    assert (fl[:, F_FLIPPER] == FL_HUMAN).sum() > 8  # the seats did keep flipping black


def test_max_flip_delay_option():
    """The safeguard's delay is the option ``max_flip_delay_s`` (simulator, not a rule); without delayed flips
    it never acts (the schedule flips every due timer at the end of its step)."""
    ru = ruleset(3, allow_delayed_flips=True, max_flip_delay_s=45.0)
    _st, log = play(ru, 21, black_flipper_policy, max_steps=20_000)
    fl = rows(log, EV_TIMER_FLIP)
    purple = fl[(fl[:, F_TIMER] == T_PURPLE) & (fl[:, F_FLIPPER] == FL_OVERDUE)]
    assert len(purple) == 8 and np.all(purple[:, COL_TIME] == purple[:, F_BEFORE_OUT] + 450)
    _st, log = play(ruleset(3), 21, black_flipper_policy, max_steps=20_000)
    assert (rows(log, EV_TIMER_FLIP)[:, F_FLIPPER] == FL_OVERDUE).sum() == 0


@pytest.mark.parametrize("n", [1, 3])
def test_timed_model_plays_whole_games_clock_moves_forward(n):
    """The timed model: whole games; within a round the clock never goes back; no schedule step; flips only of
    run-out timers; automatic flips at run-out + flip-delay median + simultaneity window (I.13.3, II.4)."""
    ru = ruleset(n, time_model="timed")
    t = ru.tables[0]
    seen = {"round": 1, "now": 0.0, "max": 0.0}

    def on_step(s):
        if s["phase"] not in (PH_REAL, PH_PENDING, PH_REPLACE):
            return  # council step 5 of the next round still shows the last time
        if s["round"] == seen["round"]:
            assert s["now"] >= seen["now"] - 1e-9, (s["round"], s["now"], seen["now"])
        seen["round"] = int(s["round"])
        seen["now"] = float(s["now"])
        seen["max"] = max(seen["max"], seen["now"])
        if s["phase"] == PH_REAL:
            assert s["sched_step"] == -1

    st, log = play(ru, 31, random_policy(31), on_step=on_step)
    s = st[0]
    assert s["over"] == 1 and s["rng_ctr"][STREAM_CLOCK] > 0
    assert seen["max"] >= 360.0  # a round lasts at least the three purple run-outs
    fl = rows(log, EV_TIMER_FLIP)
    assert (fl[:, COL_STEP] == -1).all()
    late = fl[fl[:, F_FLIPPER] != FL_ROUND_START]
    assert (late[:, F_BEFORE_OUT] <= late[:, COL_TIME]).all()
    dead = (t["opts"][timers.OPT_FLIP_MS] + t["opts"][timers.OPT_SIMUL_MS]) // 100  # in tenths of a second
    auto = late[late[:, F_FLIPPER] == FL_AUTO]
    assert len(auto) > 0
    assert (np.abs(auto[:, COL_TIME] - (auto[:, F_BEFORE_OUT] + dead)) <= 1).all()
    assert len(rows(log, EV_COUNCIL_CALLED)) == 4


def _timed_three():
    ru = ruleset(3, time_model="timed")
    st, log = to_real(ru, 13)
    s = st[0]
    seats = [int(a) for a in s["priv"][: s["n_priv"]]]
    return ru, st, log, s, seats


def test_timed_privilege_settles_near_simultaneous_actions():
    """Timed model: the seat ready first acts, unless a seat higher in privilege order is ready within the
    simultaneity window (EV_CONFLICT; I.7.7, I.13.3.5)."""
    ru, _st, log, s, seats = _timed_three()
    t = ru.tables[0]
    now = float(s["now"])
    s["waiting"][:] = 0
    s["ready_at"][seats[2]] = now + 1.0
    s["ready_at"][seats[0]] = now + 1.6
    s["ready_at"][seats[1]] = now + 9.0
    assert clock.timed_pick(s, t, log)
    assert s["actor"] == seats[0] and abs(s["now"] - (now + 1.6)) < 1e-9
    c = rows(log, EV_CONFLICT)
    assert len(c) == 1 and c[0, FIELD0] == seats[0] and c[0, FIELD0 + 1] == seats[2]
    s["ready_at"][seats[0]] = now + 2.8  # more than the window after seats[2]'s 1.0
    s["now"] = now
    assert clock.timed_pick(s, t, log)
    assert s["actor"] == seats[2]


def test_timed_pass_waits_for_the_next_run_out():
    """Timed model: a pass waits for the timers to change; the next sand run-out wakes the seat after a flip
    delay (I.13.3, II.4)."""
    ru = ruleset(1, time_model="timed")
    st, log = to_real(ru, 14)
    s = st[0]
    t = ru.tables[0]
    assert s["actor"] == 0 and s["now"] < 45.0
    legal = np.empty(MAX_ACTIONS, np.int64)
    rules.py_step(st, A_PASS, ru.tables, log, legal)
    assert s["phase"] == PH_REAL and s["actor"] == 0
    assert s["now"] >= 45.0 and s["ready_at"][0] >= 45.0  # woken by black's run-out, not before
    p = rows(log, EV_PASS)
    assert len(p) == 1 and p[0, COL_TIME] < 450
    n = rules.py_legal(st, ru.tables, legal)
    if s["runs_out"][T_BLACK] <= s["now"]:  # black not yet flipped automatically: the seat may flip it
        assert A_FLIP + T_BLACK in legal[:n]
    else:  # flipped by nobody at its deadline, 45 + 2.5 s
        fl = rows(log, EV_TIMER_FLIP)
        assert fl[-1, F_TIMER] == T_BLACK and fl[-1, F_FLIPPER] == FL_AUTO and fl[-1, COL_TIME] == 475
    assert t["opts"][timers.OPT_FLIP_MS] == 1500


def test_step5_offers_pass():
    """Council step 5 offers the placement moves and a pass (I.8.6)."""
    ru = ruleset(2)
    found = []

    def on_step(s):
        if s["phase"] == PH_STEP5 and not found:
            legal = np.empty(MAX_ACTIONS, np.int64)
            arr = np.zeros(1, STATE_DTYPE)
            arr[0] = s
            n = rules.py_legal(arr, ru.tables, legal)
            found.append(list(legal[:n]))

    play(ru, 15, random_policy(15), cap=0, on_step=on_step)
    assert found and found[0][0] == A_PASS
