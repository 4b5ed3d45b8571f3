"""Pendulum's SVG board (simlab/games/pendulum/svg.py, ``PendulumGame.render_svg``).

Random games (solo against the Automas, 2 and 3 players) are played with the built-in ``random`` player; the
board of every step of the solo game and of sampled steps of the others (the referee's view and each seat's view)
must parse as XML, carry a viewBox, and show as many pieces of each kind (``data-piece``) as the state holds. A
seat's view draws the unseen council cards as card backs, and no drawing depends on a deck's order.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import numpy as np
import pytest

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.games.pendulum.codes import W_MAT, W_RESERVE
from simlab.games.pendulum.tables import SP_NEUTRAL

SVG_NS = "{http://www.w3.org/2000/svg}"
HIDDEN = -2


@cache
def _game(n: int) -> tuple[Any, Any, list[np.ndarray]]:
    """The game, its ruleset and every state of one random ``n``-player game (solo for 1)."""
    g = get_game("pendulum")
    rules = g.ruleset(n)
    players = resolve_players(g, ["random"] * n)
    states: list[np.ndarray] = []
    play_game(g, rules, players, g.game_seed(1, 0), on_step=lambda st, seat, a: states.append(st.copy()))
    return g, rules, states


def _steps(states: list[np.ndarray], every: int) -> list[int]:
    """Every ``every``-th step index and the last one."""
    return sorted({*range(0, len(states), every), len(states) - 1})


def _pieces(svg: str) -> tuple[ET.Element, dict[str, list[ET.Element]]]:
    """The parsed SVG and its elements by ``data-piece``."""
    root = ET.fromstring(svg)
    out: dict[str, list[ET.Element]] = {}
    for el in root.iter():
        kind = el.get("data-piece")
        if kind:
            out.setdefault(kind, []).append(el)
    return root, out


def _check(g: Any, rules: Any, state: np.ndarray, seat: int | None) -> None:
    """The board of ``state`` (already hidden for ``seat``) against the state record."""
    rec = state[0]
    svg = g.render_svg(rules, state, seat)
    root, pieces = _pieces(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert "<script" not in svg and "href=" not in svg
    n = int(rec["n_players"])
    t = rules.t

    def count(kind: str, **attrs: str) -> int:
        return sum(all(el.get(f"data-{k}") == v for k, v in attrs.items()) for el in pieces.get(kind, []))

    assert count("space") == int(t["n_spaces"])
    assert count("timer") == 3
    on_board = int((rec["w_place"][:n] >= 0).sum())
    if rec["solo"]:
        on_board += int((rec["a_work"] >= 0).sum())
    if n == 2:
        on_board += int((t["sp"][: int(t["n_spaces"]), SP_NEUTRAL] != 0).sum())
    assert count("worker") == on_board
    off = rec["w_place"][:n]
    assert count("idle-worker") == int(((off == W_MAT) | (off == W_RESERVE)).sum())
    assert count("track-marker") == 4 * n
    for p in range(n):
        for k, name in enumerate(("power", "prestige", "popularity")):
            (marker,) = [el for el in pieces["track-marker"] if el.get("data-seat") == str(p)
                         and el.get("data-track") == name]
            assert int(marker.get("data-value")) == int(rec["track"][p, k])
    assert count("resource") == 3 * n
    assert count("council-card") == int((rec["offer"] >= 0).sum()) + 2
    assert count("card-back", deck="council") == int(rec["cdeck_n"])
    assert count("province", where="display") == int((rec["display"] >= 0).sum())
    assert count("province", where="seat") == int(rec["prov_n"][:n].sum())
    assert count("privilege") == int(rec["n_priv"])
    assert count("round-marker") == 1
    assert count("achievement") == int(int(rec["ach_card"]) >= 0)
    assert count("time-marker", where="purple") == int(rec["markers_left"])
    if rec["solo"]:
        assert count("automa-score") == 2
        assert count("automa-card") == int(rec["a_ncards"].sum())
        assert count("time-marker", where="automa") == int(rec["markers_automa"])
    else:
        assert not pieces.get("automa-score") and not pieces.get("automa-card")
    if seat is None:
        assert "Referee" in svg
        assert not pieces.get("view")
    else:
        assert f"Seat {seat}&#x27;s view" in svg or f"Seat {seat}'s view" in svg
        (panel,) = [el for el in pieces["seat"] if el.get("data-viewer") == "1"]
        assert panel.get("data-seat") == str(seat)
        # the unseen council cards: backs only, every one hidden
        backs = [el for el in pieces.get("card-back", []) if el.get("data-deck") == "council"]
        assert all(el.get("data-hidden") == "1" for el in backs)
        assert all(el.get("data-card") is None for el in backs)
        # other seats' stratagems face down
        for el in pieces.get("stratagem", []):
            assert (el.get("data-face") == "down") == (el.get("data-seat") != str(seat))


@pytest.mark.parametrize(("n", "every"), [(1, 1), (2, 9), (3, 6)])
def test_board_matches_the_state(n: int, every: int) -> None:
    """Every sampled step, from the referee's and each seat's view, draws the pieces the state holds."""
    g, rules, states = _game(n)
    assert states
    for i in _steps(states, every):
        _check(g, rules, states[i], None)
        for seat in range(n):
            _check(g, rules, g.hide(states[i], seat), seat)


@pytest.mark.parametrize("n", [1, 3])
def test_no_deck_order(n: int) -> None:
    """Shuffling the hidden deck orders (provinces, achievements, council, Automa) changes no drawing."""
    g, rules, states = _game(n)
    rng = np.random.default_rng(0)
    for i in _steps(states, max(1, len(states) // 8)):
        state = states[i]
        shuffled = state.copy()
        rec = shuffled[0]
        for field, size in (("pdeck", "pdeck_n"), ("adeck", "adeck_n"), ("cdeck", "cdeck_n"), ("a_deck", "a_deck_n")):
            k = int(rec[size])
            rec[field][:k] = rng.permutation(rec[field][:k])
        assert g.render_svg(rules, state) == g.render_svg(rules, shuffled)
        assert g.render_svg(rules, g.hide(state, 0), 0) == g.render_svg(rules, g.hide(shuffled, 0), 0)


def test_seat_view_hides_council_deck() -> None:
    """The seat's view gets the council deck as HIDDEN entries and draws one back for each."""
    g, rules, states = _game(3)
    state = next(s for s in states if int(s[0]["cdeck_n"]) > 0)
    hidden = g.hide(state, 1)
    assert (hidden[0]["cdeck"][: int(hidden[0]["cdeck_n"])] == HIDDEN).all()
    _, pieces = _pieces(g.render_svg(rules, hidden, 1))
    backs = [el for el in pieces["card-back"] if el.get("data-deck") == "council"]
    assert len(backs) == int(state[0]["cdeck_n"]) and all(el.get("data-hidden") == "1" for el in backs)
