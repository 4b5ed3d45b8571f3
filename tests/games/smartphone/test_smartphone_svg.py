"""The Smartphone Inc. SVG board (``SmartphoneGame.render_svg``, ``simlab/games/smartphone/svg.py``).

The steps of a few random games (2 and 5 players) are drawn for the referee and for each seat: the SVG parses as
XML, is one self-contained ``<svg>`` with a viewBox, and the pieces it marks (``data-piece``) match the state record
one for one: regions, offices, buyers and the phones sold to them, retailers, logistics and research markers,
patents, the upgrade display, each seat's plan (tablet cells, upgrades laid) and upgrades owned. A seat's view is
drawn from ``hide(state, seat)``: during phase 1 it shows no other seat's plan.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import numpy as np
import pytest

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players

GAME = get_game("smartphone")
SVG_NS = "{http://www.w3.org/2000/svg}"
PLAN_PIECES = ("plan", "tablet-cell", "upgrade")


def _states(n_players: int, seed: int) -> tuple[Any, list[np.ndarray]]:
    """The ruleset and the states of one random game: the set-up, then after every action (the last is over)."""
    rules = GAME.ruleset(n_players)
    players = resolve_players(GAME, ["random"] * n_players)
    first, _ = GAME.new_game(rules, GAME.game_seed(seed, 0), GAME.new_log(0))
    states: list[np.ndarray] = [first.copy()]
    play_game(GAME, rules, players, GAME.game_seed(seed, 0), on_step=lambda st, seat, a: states.append(st.copy()))
    return rules, states


def _pieces(svg: str) -> list[dict[str, str]]:
    """Parse ``svg`` (checking it is one self-contained ``<svg>`` with a viewBox) and return its pieces' attributes."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    box = root.get("viewBox", "").split()
    assert len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0
    for bad in ("<script", "<image", "href=", "url(", "@import", "<foreignObject"):
        assert bad not in svg, bad
    return [dict(el.attrib) for el in root.iter() if "data-piece" in el.attrib]


def _check_counts(rules: Any, rec: np.void, pieces: list[dict[str, str]]) -> None:
    """The drawn pieces match the state record ``rec``."""
    n = int(rec["n_players"])
    data, T = rules.data, rules.T
    n_reg = len(data.regions)
    kinds = Counter(p["data-piece"] for p in pieces)
    offices = rec["office"][:n_reg]
    assert kinds["region"] == n_reg
    assert kinds["office"] == int((offices >= 0).sum())
    assert kinds["office"] + kinds["free-place"] == int(rec["places"][:n_reg].sum())
    assert kinds["retailer"] == int((rec["retailer"][:n_reg] >= 0).sum())
    open_regions = [r for r in range(n_reg) if rec["retailer"][r] < 0]
    assert kinds["buyer"] == sum(int(T.region[r, 6]) for r in open_regions)
    assert kinds["sale"] == int((rec["buyer_owner"] >= 0).sum())
    assert kinds["technology"] == len(T.tech)
    assert kinds["patent"] == int((rec["patent_owner"] >= 0).sum())
    assert kinds["display-upgrade"] == int((rec["display"] >= 0).sum())
    assert kinds["price-marker"] == kinds["vp-marker"] == n
    by_seat = Counter((x["data-piece"], x.get("data-seat")) for x in pieces)
    counted: dict[tuple[str, str | None], int] = Counter()
    values: dict[tuple[str, str | None], list[int]] = {}
    for x in pieces:
        key = (x["data-piece"], x.get("data-seat"))
        counted[key] += int(x.get("data-count", 0))
        for field in ("data-vp", "data-price", "data-arrangement"):
            if field in x:
                values.setdefault(key, []).append(int(x[field]))
    for p in range(n):
        s = str(p)
        assert by_seat["office", s] == int((offices == p).sum())
        assert by_seat["sale", s] == int((rec["buyer_owner"] == p).sum())
        assert counted["logistics-progress", s] == int(rec["reg_progress"][p].sum())
        assert by_seat["researched", s] == int(rec["researched"][p].sum())
        assert counted["research-progress", s] == int(rec["progress"][p][rec["researched"][p] == 0].sum())
        assert by_seat["patent", s] == int((rec["patent_owner"] == p).sum())
        assert by_seat["hand-upgrade", s] == int(rec["hand_n"][p])
        assert values.get(("vp-marker", s)) == [int(rec["vp"][p])]
        assert values.get(("price-marker", s)) == [int(rec["price"][p])]
        arr = int(rec["plan_arr"][p])
        assert values.get(("plan", s), []) == ([arr] if arr >= 0 else [])
        cells = int(np.count_nonzero(T.arr_layers[arr])) if arr >= 0 else 0
        assert by_seat["tablet-cell", s] == cells
        assert by_seat["upgrade", s] == (int(rec["plan_n"][p]) if arr >= 0 else 0)


@pytest.mark.parametrize(("n_players", "seed"), [(2, 1), (2, 2), (5, 1)])
def test_board_matches_state_every_step(n_players: int, seed: int) -> None:
    """Referee and seat views parse, count the state's pieces, and show no secret plan.

    The referee's view is checked at every step; the seats' views at every phase-1 step (where plans are secret)
    and, to keep the test short, at every third step of the other phases in 5-player games.
    """
    rules, states = _states(n_players, seed)
    assert states
    stride = 1 if n_players <= 3 else 3
    secrets_seen = 0  # phase-1 positions where the referee sees a plan a seat's view must not show
    for i, state in enumerate(states):
        rec = state[0]
        svg = GAME.render_svg(rules, state)
        pieces = _pieces(svg)
        _check_counts(rules, rec, pieces)
        assert 'data-view="referee"' in svg
        if int(rec["phase"]) != 1 and i % stride:
            continue
        for seat in range(n_players):
            hidden = GAME.hide(state, seat)
            seen = GAME.render_svg(rules, hidden, seat)
            assert f'data-view="seat" data-seat="{seat}"' in seen
            assert f"Seat {seat}’s view" in seen
            seen_pieces = _pieces(seen)
            _check_counts(rules, hidden[0], seen_pieces)
            if int(rec["phase"]) == 1:
                others = [x for x in seen_pieces if x["data-piece"] in PLAN_PIECES and x["data-seat"] != str(seat)]
                assert not others
                secrets_seen += any(int(rec["plan_arr"][p]) >= 0 for p in range(n_players) if p != seat)
    assert secrets_seen > 0


def test_final_position_shows_scores() -> None:
    """The last position says the game is over and shows every seat's final total and the winner."""
    rules, states = _states(5, 1)
    rec = states[-1][0]
    assert rec["over"]
    svg = GAME.render_svg(rules, states[-1])
    _pieces(svg)
    assert "Game over" in svg
    for p in range(5):
        assert f'data-total="{int(rec["total"][p])}"' in svg
    assert svg.count("★ winner") == int(rec["winner"][:5].sum()) >= 1
