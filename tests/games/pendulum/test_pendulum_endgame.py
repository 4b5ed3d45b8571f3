"""Pendulum's multi-player game end (NOTES I.9, I.10.3, II.11): the parchment winner, the legendary holders'
worst-track comparison, no winner — with every tie-break, on hand-made states with the real tables."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from numba import njit

from simlab.games.pendulum import endgame, rules
from simlab.games.pendulum.codes import (
    AG_NEUTRAL,
    EB_MULTI_LEGENDARY,
    EB_MULTI_PARCHMENT,
    EB_NO_WINNER,
    EV_GAME_END,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE

DATA = load_data()
COL = {name: i for i, name in enumerate(endgame.EVENT_FIELDS[EV_GAME_END])}


@functools.cache
def ruleset(n: int, **options):
    return build_ruleset(n, DATA, dict(options))


@njit(cache=True)
def _multi_end(s_arr, tables, log):
    endgame.multi_end(s_arr[0], tables[0], log)


def finish(tracks, legendary=None, glory=None, priv=None, **options):
    """End a game whose seats hold ``tracks`` (power, prestige, popularity per seat); returns (state, log rows)."""
    n = len(tracks)
    R = ruleset(n, **options)
    st = np.zeros(1, STATE_DTYPE)
    s = st[0]
    s["n_players"] = n
    s["round"] = 4
    agents = list(priv) if priv is not None else list(range(n))
    if n == 2 and AG_NEUTRAL not in agents:
        agents.append(AG_NEUTRAL)
    s["priv"][: len(agents)] = agents
    s["n_priv"] = len(agents)
    for p in range(n):
        s["track"][p] = tracks[p]
        if legendary is not None:
            s["legendary"][p] = legendary[p]
        if glory is not None:
            s["glory"][p] = glory[p]
            s["advanced"][p] = 1
    log = rules.new_log(100)
    _multi_end(st, R.tables, log)
    body = log[1 : log[0, 0] + 1]
    return s, body[body[:, 0] == EV_GAME_END]


def winners(s) -> list[int]:
    return [p for p in range(int(s["n_players"])) if s["winner"][p]]


def ranks(s) -> list[int]:
    return [int(x) for x in s["rank"][: s["n_players"]]]


def test_parchment_winner_most_vp_inside():
    """I.9.1: all three tracks in the parchment (14+) compete; most VP inside wins (occupied counting: the first
    parchment space counts 1). A legendary holder outside the parchment cannot beat them."""
    s, rows = finish([(14, 14, 14), (21, 14, 15), (21, 21, 13)], legendary=(0, 0, 1))
    assert s["end_branch"] == EB_MULTI_PARCHMENT
    assert winners(s) == [1] and ranks(s) == [2, 1, 3]
    vp = {int(r[FIELD0 + COL["seat"]]): int(r[FIELD0 + COL["parchment_vp"]]) for r in rows}
    assert vp == {0: 3, 1: 8 + 1 + 2, 2: 0}
    assert [int(r[FIELD0 + COL["is_parchment"]]) for r in rows] == [1, 1, 0]


def test_parchment_counting_beyond_entry():
    """II.11: ``beyond_entry`` counts the first parchment space as 0."""
    s, rows = finish([(14, 14, 14), (21, 14, 15)], parchment_counting="beyond_entry")
    vp = [int(r[FIELD0 + COL["parchment_vp"]]) for r in rows]
    assert vp == [0, 7 + 0 + 1]
    assert winners(s) == [1]


def test_parchment_tie_glory_then_privilege():
    """I.9.1 / I.10.3: equal VP inside the parchment: glory first, then privilege order (higher place wins)."""
    s, _ = finish([(15, 15, 15), (16, 15, 14), (14, 14, 14)], glory=((1, 0, 0), (0, 0, 0), (0, 0, 0)),
                  priv=(1, 2, 0))
    assert winners(s) == [0] and ranks(s) == [1, 2, 3]
    s, _ = finish([(15, 15, 15), (16, 15, 14), (14, 14, 14)], priv=(1, 2, 0))
    assert winners(s) == [1] and ranks(s) == [2, 1, 3]
    s, _ = finish([(15, 15, 15), (16, 15, 14), (14, 14, 14)], priv=(2, 0, 1))
    assert winners(s) == [0] and ranks(s) == [1, 2, 3]


def test_glory_does_not_beat_more_parchment_vp():
    s, _ = finish([(15, 15, 15), (16, 15, 15)], glory=((3, 3, 3), (0, 0, 0)))
    assert winners(s) == [1]


def test_legendary_holders_worst_track_then_next_then_privilege():
    """I.9.2: nobody in the parchment: only legendary holders can win; the worst track's distance to the
    parchment decides (closest wins), then the next track, then privilege order."""
    # seat 0 is closest but has no legendary; seat 2 beats seat 1 on the second track (2 vs 4 away)
    s, rows = finish([(13, 13, 13), (10, 10, 10), (12, 12, 10)], legendary=(0, 1, 1))
    assert s["end_branch"] == EB_MULTI_LEGENDARY
    assert winners(s) == [2] and ranks(s) == [3, 2, 1]
    d = [[int(r[FIELD0 + COL[k]]) for k in ("worst_dist", "second_dist", "third_dist")] for r in rows]
    assert d == [[1, 1, 1], [4, 4, 4], [4, 2, 2]]
    # worst track first: (10, 13, 13) is 4 away, (11, 11, 11) only 3
    s, _ = finish([(10, 13, 13), (11, 11, 11)], legendary=(1, 1))
    assert winners(s) == [1]
    # the second track decides before the third (4, 2, 2 away beats 4, 3, 0 away), even against privilege
    s, _ = finish([(10, 12, 12), (10, 11, 14)], legendary=(1, 1), priv=(1, 0))
    assert winners(s) == [0]
    # third track decides
    s, _ = finish([(10, 12, 12), (12, 13, 10)], legendary=(1, 1))
    assert winners(s) == [1]
    # all equal: privilege order
    s, _ = finish([(10, 12, 13), (13, 12, 10), (12, 10, 13)], legendary=(1, 1, 1), priv=(2, 1, 0))
    assert winners(s) == [2] and ranks(s) == [3, 2, 1]


def test_no_parchment_no_legendary_no_winner():
    """I.9.3: nobody in the parchment and nobody with the legendary: no winner (ranks still a total order)."""
    s, rows = finish([(13, 13, 13), (10, 10, 10), (12, 12, 10), (0, 0, 0)])
    assert s["end_branch"] == EB_NO_WINNER
    assert winners(s) == []
    assert ranks(s) == [2, 4, 3, 5]  # "no winner" ranks ahead of every seat
    assert all(r[FIELD0 + COL["end_branch"]] == EB_NO_WINNER and r[FIELD0 + COL["is_winner"]] == 0 for r in rows)


def test_two_players_privilege_counts_the_neutral_place():
    s, rows = finish([(10, 10, 10), (10, 10, 10)], legendary=(1, 1), priv=(AG_NEUTRAL, 1, 0))
    assert winners(s) == [1]
    assert [int(r[FIELD0 + COL["priv_pos"]]) for r in rows] == [2, 1]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_ends_rank_is_a_permutation_and_winner_consistent(n):
    rng = np.random.default_rng(n)
    for _ in range(60):
        tracks = [tuple(int(x) for x in rng.integers(8, 22, size=3)) for _ in range(n)]
        leg = tuple(int(x) for x in rng.integers(0, 2, size=n))
        glory = [tuple(int(x) for x in rng.integers(0, 2, size=3)) for _ in range(n)]
        priv = tuple(int(x) for x in rng.permutation(n))
        s, rows = finish(tracks, legendary=leg, glory=glory, priv=priv)
        first = 2 if s["end_branch"] == EB_NO_WINNER else 1  # "no winner" ranks ahead of every seat
        assert sorted(ranks(s)) == list(range(first, first + n))
        parch = [all(v >= 14 for v in tr) for tr in tracks]
        if any(parch):
            assert s["end_branch"] == EB_MULTI_PARCHMENT
            (w,) = winners(s)
            assert parch[w]
            best = max(sum(v - 13 for v in tracks[p]) for p in range(n) if parch[p])
            assert sum(v - 13 for v in tracks[w]) == best
        elif any(leg):
            assert s["end_branch"] == EB_MULTI_LEGENDARY
            (w,) = winners(s)
            assert leg[w]
            worst = min(max(14 - v for v in tracks[p]) for p in range(n) if leg[p])
            assert max(14 - v for v in tracks[w]) == worst
        else:
            assert winners(s) == []
        assert len(rows) == n
        assert [int(r[FIELD0 + COL["rank"]]) for r in rows] == ranks(s)
