"""Pendulum's rules driver (rules.py): setup, the phase machine, and properties of whole random games.

NOTES sections are those of ../shared/research/pendulum/NOTES.md: I.2 (global setup), I.3 (player setup and
start of play), I.8 (council), I.12.2 (Automa setup), I.13.6 (random streams). Whole games are played with a
random policy in Python (a pass is favoured so that games with many seats end in reasonable time).
(The file is not named test_rules.py: tests/games/sentient/test_rules.py has that name and the test tree has no
packages, so pytest would refuse the second one.)
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.pendulum import rules
from simlab.games.pendulum.codes import (
    A_PASS,
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    DECK_COUNCIL,
    DECK_COUNCIL_REMOVED,
    DECK_PROVINCES,
    EV_AUTOMA_SETUP,
    EV_COUNCIL_CALLED,
    EV_COUNCIL_VOTES,
    EV_DECK_ORDER,
    EV_GAME_START,
    EV_HUMAN_SETUP,
    EV_ROUND_SETUP,
    MAX_ACTIONS,
    PH_REAL,
    PH_START,
    PH_STEP5,
    ROW_BOTTOM,
    ROW_TOP,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import N_STREAMS, STATE_DTYPE, STREAM_CLOCK, STREAM_SEAT0
from simlab.games.pendulum.tables import (
    C_F1,
    CH_ADVANCED,
    CH_GROUP,
    CH_START_RES0,
    CH_START_TRACK0,
    CO_DECK,
    SP_ROW,
    ST_OWNER,
)

DATA = load_data()
_RULES: dict = {}
LOG_CAP = 1 << 18


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


def new_game(ru, seed: int, cap: int = LOG_CAP):
    """(state array, log, legal buffer, number of legal actions) right after setup."""
    st = np.zeros(1, STATE_DTYPE)
    legal = np.empty(MAX_ACTIONS, np.int64)
    log = rules.new_log(cap)
    k = rules.py_setup(st, np.uint64(seed), ru.n_players, ru.tables, log, legal)
    return st, log, legal, k


def play(ru, seed: int, policy, cap: int = LOG_CAP, on_step=None, max_steps: int = 400_000):
    """A whole game (legal lists checked strictly ascending); returns (state array, log, decisions)."""
    st, log, legal, k = new_game(ru, seed, cap)
    steps = 0
    while k > 0:
        lg = legal[:k].copy()
        assert np.all(np.diff(lg) > 0), lg
        if st[0]["phase"] in (PH_REAL, PH_STEP5):
            assert lg[0] == A_PASS
        k = rules.py_step(st, policy(st[0], lg), ru.tables, log, legal)
        if on_step is not None:
            on_step(st[0])
        steps += 1
        assert steps < max_steps
    assert cap == 0 or log[0, 1] == 0, "log truncated"
    return st, log, steps


def rows(log, code=None):
    """The log's event rows (optionally of one event code)."""
    r = log[1: log[0, 0] + 1]
    return r if code is None else r[r[:, 0] == code]


def deck_list(log, deck: int) -> list[int]:
    """The values of the first EV_DECK_ORDER list of ``deck`` in the log."""
    out: list[int] = []
    for r in rows(log, EV_DECK_ORDER):
        if r[FIELD0] != deck:
            continue
        start, n = int(r[FIELD0 + 1]), int(r[FIELD0 + 2])  # n: values in this row
        if start != len(out):
            break
        out.extend(int(v) for v in r[FIELD0 + 3: FIELD0 + 3 + min(14, n)])
        if n < 14:
            break
    return out


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_setup_facts(n):
    """I.2 / I.3: board side, timers on the top row, 3 markers, 4 provinces, council deck 10 + 5 offered (10
    removed), legendary on the council deck for 1-3 players, on the card for 4-5; distinct characters, their
    stratagems, resources and tracks; one grande and one common in play; PH_START."""
    ru = ruleset(n)
    t = ru.tables[0]
    st, log, _legal, _k = new_game(ru, 100 + n)
    s = st[0]
    assert ru.board_side == ("1-3p" if n <= 3 else "4-5p") and t["n_spaces"] == (16 if n <= 3 else 20)
    assert list(s["timer_row"]) == [ROW_TOP] * 3 and s["markers_left"] == 3 and s["purple_flips"] == 0
    assert s["round"] == 1 and s["phase"] == PH_START and s["over"] == 0
    # provinces
    disp = [int(x) for x in s["display"]]
    assert len(set(disp)) == 4 and min(disp) >= 0 and s["pdeck_n"] == t["n_prov"] - 4
    assert not set(disp) & {int(x) for x in s["pdeck"][: s["pdeck_n"]]}
    # council deck: 5 offered, 10 kept, 10 removed, all standard and distinct; the finals apart
    offer = [int(x) for x in s["offer"]]
    kept = [int(x) for x in s["cdeck"][: s["cdeck_n"]]]
    removed = deck_list(log, DECK_COUNCIL_REMOVED)
    assert len(offer) == 5 and len(kept) == 10 and len(removed) == 10
    assert sorted(offer + kept + removed) == list(range(25))
    assert all(t["co"][c, CO_DECK] == 0 for c in offer + kept)
    assert s["grande_up"] == 1
    assert sorted(deck_list(log, DECK_COUNCIL)) == list(range(25))
    # achievements and the legendary token
    assert 0 <= s["ach_card"] < t["n_ach"] and s["adeck_n"] == t["n_ach"] - 1
    if n <= 3:
        assert s["legendary_on_council"] == 1 and s["legendary_on_card"] == 0
    else:
        assert s["legendary_on_council"] == 0 and s["legendary_on_card"] == 1
    # seats
    chars = [int(c) for c in s["char"][:n]]
    groups = [int(t["ch"][c, CH_GROUP]) for c in chars]
    assert len(set(groups)) == n
    for p in range(n):
        c = chars[p]
        assert t["ch"][c, CH_ADVANCED] == 0  # character_side = basic
        assert list(s["res"][p]) == list(t["ch"][c, CH_START_RES0: CH_START_RES0 + 3])
        assert list(s["track"][p]) == list(t["ch"][c, CH_START_TRACK0: CH_START_TRACK0 + 3])
        hand = [i for i in range(t["n_strats"]) if s["strat"][p, i] == 1]
        assert len(hand) == 4 and all(t["st"][i, ST_OWNER] == c for i in hand)
        assert s["w_grande"][p, 0] == 1 and s["w_grande"][p, 1:].sum() == 0
        assert s["w_place"][p, 0] == W_MAT and s["w_place"][p, 1] == W_MAT
        assert list(s["w_place"][p, 2:]) == [W_RESERVE, W_RESERVE]
    # privilege track
    priv = [int(a) for a in s["priv"][: s["n_priv"]]]
    if n == 1:
        assert sorted(priv) == [0, AG_AUTOMA1, AG_AUTOMA2]
        assert len(set(int(x) for x in s["a_work"])) == 6 and s["a_deck_n"] == 32
    elif n == 2:
        assert priv[-1] == AG_NEUTRAL and sorted(priv[:2]) == [0, 1]
    else:
        assert sorted(priv) == list(range(n))
    for j, a in enumerate(priv):
        if a < n:
            assert s["start_priv"][a] == j + 1
    assert s["actor"] == next(a for a in priv if a < n)
    # the log starts with EV_GAME_START and names every shuffled deck
    r = rows(log)
    assert r[0, 0] == EV_GAME_START and r[0, FIELD0 + 4] == n
    assert sorted(deck_list(log, DECK_PROVINCES)) == list(range(t["n_prov"]))
    assert (len(rows(log, EV_AUTOMA_SETUP)) == 1) == (n == 1)


def test_privilege_order_is_random():
    """The initial privilege order is random: over seeds every seat starts first (I.3.5; solo: the seat and
    both Automas at random, I.12.2.1)."""
    for n, places in ((3, 3), (1, 3), (2, 2)):
        ru = ruleset(n)
        firsts = set()
        seat_place = set()
        for seed in range(40):
            st, *_ = new_game(ru, seed, cap=0)
            s = st[0]
            firsts.add(int(s["priv"][0]))
            seat_place.add(int(s["start_priv"][0]))
        assert len(firsts) == places and len(seat_place) == places


@pytest.mark.parametrize("side,expect", [("basic", {0}), ("advanced", {1}), ("random", {0, 1})])
def test_character_side_option(side, expect):
    """character_side: basic, advanced, or random per seat; characters stay distinct."""
    ru = ruleset(5, character_side=side)
    t = ru.tables[0]
    seen = set()
    for seed in range(8):
        st, *_ = new_game(ru, seed, cap=0)
        s = st[0]
        rows_ = [int(c) for c in s["char"][:5]]
        seen |= {int(t["ch"][c, CH_ADVANCED]) for c in rows_}
        assert len({int(t["ch"][c, CH_GROUP]) for c in rows_}) == 5
    assert seen == expect


@pytest.mark.parametrize("n,opts,adv", [(1, {"automa_level": "B"}, 0), (1, {"automa_level": "D"}, 1),
                                        (1, {"automa_level": "F"}, 1), (3, {}, 0),
                                        (3, {"advanced_variant": "all"}, 1)])
def test_advanced_variant_per_seat(n, opts, adv):
    """The advanced variant: per advanced_variant, imposed on the solo seat by levels D-F (I.10.3, I.12.12)."""
    ru = ruleset(n, **opts)
    st, *_ = new_game(ru, 1, cap=0)
    assert list(st[0]["advanced"][:n]) == [adv] * n


def test_setup_is_deterministic_and_resets_a_used_record():
    """Same seed, same record bytes, whatever the record held before (the batch loop reuses one)."""
    ru = ruleset(3)
    a, *_ = new_game(ru, 77, cap=0)
    b = np.frombuffer(np.random.default_rng(0).bytes(STATE_DTYPE.itemsize), dtype=STATE_DTYPE).copy()
    legal = np.empty(MAX_ACTIONS, np.int64)
    rules.py_setup(b, np.uint64(77), 3, ru.tables, rules.new_log(0), legal)
    assert a.tobytes() == b.tobytes()
    c, *_ = new_game(ru, 78, cap=0)
    assert a.tobytes() != c.tobytes()
    keys = a[0]["rng_key"]
    assert len(set(int(x) for x in keys)) == N_STREAMS


def test_start_of_play_grandes_then_commons_in_privilege_order():
    """I.3.7: in privilege order every seat places its grande on a bottom-row space, then every seat its common;
    then the round-start flips (the timers go to the bottom row)."""
    ru = ruleset(4)
    t = ru.tables[0]
    st, log, legal, k = new_game(ru, 5, cap=1 << 12)
    s = st[0]
    for _ in range(8):
        assert s["phase"] == PH_START
        rules.py_step(st, int(legal[k - 1]), ru.tables, log, legal)
    priv = [int(a) for a in s["priv"][:4]]
    hs = rows(log, EV_HUMAN_SETUP)
    assert [int(x) for x in hs[:, FIELD0]] == priv + priv
    assert list(hs[:, FIELD0 + 2]) == [1] * 4 + [0] * 4  # grandes first
    assert all(t["sp"][d, SP_ROW] == ROW_BOTTOM for d in hs[:, FIELD0 + 3])
    assert s["phase"] == PH_REAL and list(s["timer_row"]) == [ROW_BOTTOM] * 3
    assert s["actor"] == priv[0] and s["purple_flips"] == 1


def test_final_cards_at_council_4():
    """The 4th council offers the five final cards (I.2.5, I.8.3)."""
    ru = ruleset(2)
    seen = {}

    def on_step(s):
        if s["round"] == 4 and "offer" not in seen:
            seen["offer"] = [int(x) for x in s["offer"]]

    play(ru, 9, random_policy(9), cap=0, on_step=on_step)
    assert seen["offer"] == [C_F1 + i for i in range(5)]


# ---------------------------------------------------------------- whole games


def _invariants(ru):
    t = ru.tables[0]
    n = ru.n_players

    def check(s):
        for p in range(n):
            assert (s["w_place"][p] >= W_MAT).sum() <= 4
            for r in range(3):
                assert 0 <= s["res"][p, r] <= 10 - s["glory"][p, r], (p, r)
            assert s["track"][p].min() >= 0 and s["track"][p].max() <= 21
            assert s["votes"][p] >= 0
        for tm in range(3):
            assert s["timer_row"][tm] in (ROW_TOP, ROW_BOTTOM)
        assert s["markers_left"] + s["purple_flips"] == 3 or s["phase"] == PH_START
        assert 0 <= s["markers_automa"] <= max(0, s["purple_flips"] - 1)
        assert s["n_pend"] >= 0
        if s["solo"]:
            for area in (0, 1):  # 3 Automa workers in each of purple and green, at most one per space
                ws = [int(d) for d in s["a_work"] if t["sp"][d, 0] == area]
                assert len(ws) == 3 and len(set(ws)) == 3
    return check


GAMES = [
    (1, {"automa_level": "A"}), (1, {"automa_level": "B"}), (1, {"automa_level": "D"}),
    (1, {"automa_level": "F", "omen_variant": True}), (1, {"automa_level": "E", "character_side": "advanced"}),
    (2, {}), (3, {"character_side": "random"}), (4, {}), (5, {"advanced_variant": "all"}),
]


@pytest.mark.parametrize("n,opts", GAMES)
def test_random_games_properties(n, opts):
    """Whole random games: never more than 4 workers in play, resources within their caps, tracks within 0..21,
    the markers and purple flips consistent, exactly 4 councils, then the end."""
    ru = ruleset(n, **opts)
    pass_p = 0.3 if n <= 3 else 0.5
    for seed in range(2):
        st, log, _ = play(ru, 1000 * n + seed, random_policy(seed, pass_p), on_step=_invariants(ru))
        s = st[0]
        assert s["over"] == 1 and s["round"] == 4
        assert len(rows(log, EV_COUNCIL_CALLED)) == 4
        assert len(rows(log, EV_ROUND_SETUP)) == 3
        votes = rows(log, EV_COUNCIL_VOTES)
        assert len(np.unique(votes[:, 2])) == 4  # council votes in each of the 4 rounds
        assert all(1 <= int(x) <= 3 for x in s["rank"][:n]) if n == 1 else all(int(x) >= 1 for x in s["rank"][:n])
        assert s["st_decisions"][:n].sum() > 0


def test_determinism_same_seed_same_game():
    """Same seed and same choices: identical state bytes and identical logs."""
    for n, opts in ((1, {}), (3, {}), (2, {"time_model": "timed"})):
        ru = ruleset(n, **opts)
        a, la, _ = play(ru, 42, random_policy(7))
        b, lb, _ = play(ru, 42, random_policy(7))
        assert a.tobytes() == b.tobytes()
        assert np.array_equal(rows(la), rows(lb))


@pytest.mark.parametrize("n,opts", [(1, {}), (3, {}), (1, {"time_model": "timed"})])
def test_common_random_numbers(n, opts):
    """The chance streams do not depend on the seats' choices (I.13.6): with one seed and two different random
    policies the set-up (province deck order, Automa set-up, characters, privilege) is the same, and the rules
    never draw from the seats' own streams (nor from the clock stream in the schedule model)."""
    ru = ruleset(n, **opts)
    a, la, _ = play(ru, 5, random_policy(1))
    b, lb, _ = play(ru, 5, random_policy(2))
    assert rows(la).shape != rows(lb).shape or not np.array_equal(rows(la), rows(lb))  # the games differ
    assert deck_list(la, DECK_PROVINCES) == deck_list(lb, DECK_PROVINCES)
    assert np.array_equal(rows(la, EV_AUTOMA_SETUP), rows(lb, EV_AUTOMA_SETUP))
    assert np.array_equal(rows(la, EV_GAME_START), rows(lb, EV_GAME_START))
    for x in (a, b):
        s = x[0]
        for p in range(n):
            assert s["rng_ctr"][STREAM_SEAT0 + p] == 0
        if opts.get("time_model") != "timed":
            assert s["rng_ctr"][STREAM_CLOCK] == 0
    for key in ("char", "start_priv", "rng_key"):
        assert np.array_equal(a[0][key], b[0][key])
