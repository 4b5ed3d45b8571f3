"""The Sentient SVG board (``SentientGame.render_svg``, ``simlab/games/sentient/svg.py``).

Every step of a few random games (2 and 4 players) is drawn for the referee and for each seat: the SVG parses as
XML, is self-contained, and the pieces it marks (``data-piece``) match the state record one for one. A seat's view
is drawn from ``hide(state, seat)`` and must come out the same whatever hiding removed (the deck order, the random
keys): it cannot show what the seat does not know.
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
from simlab.games.sentient.state import AGENTS, ASSISTANTS, N_DICE, N_INVESTORS, N_TYPES

GAME = get_game("sentient")
SVG_NS = "{http://www.w3.org/2000/svg}"


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


def _count(pieces: list[dict[str, str]], kind: str, seat: int | None = None) -> int:
    """How many pieces of ``kind`` (of ``seat``'s, when given) are drawn."""
    return sum(1 for p in pieces if p["data-piece"] == kind and (seat is None or p.get("data-seat") == str(seat)))


def _check_counts(rules: Any, rec: np.void, pieces: list[dict[str, str]]) -> None:
    """The drawn pieces match the state record ``rec``."""
    n = int(rec["n_players"])
    ids = rules.card_ids
    kinds = Counter(p["data-piece"] for p in pieces)
    factory = [int(c) for c in rec["factory"] if c >= 0]
    assert kinds["factory-card"] == len(factory)
    assert sorted(int(p["data-card"]) for p in pieces if p["data-piece"] == "factory-card") == sorted(
        int(ids[c]) for c in factory)
    assert kinds["investor"] == N_INVESTORS
    assert kinds["die"] == n * N_DICE
    assert kinds["network-card"] == int((rec["slot_card"][:n] >= 0).sum())
    for p in range(n):
        dice = sorted((int(d["data-index"]), int(d["data-value"])) for d in pieces
                      if d["data-piece"] == "die" and d["data-seat"] == str(p))
        assert dice == [(k, int(rec["dice"][p, k])) for k in range(N_DICE)]
        slots = sorted((int(c["data-slot"]), int(c["data-card"])) for c in pieces
                       if c["data-piece"] == "network-card" and c["data-seat"] == str(p))
        assert slots == [(k, int(ids[c])) for k, c in enumerate(rec["slot_card"][p]) if c >= 0]
        blocks = sum(bin(int(b)).count("1") for b in rec["slot_block"][p])
        assert _count(pieces, "agent", p) == int(rec["col_agents"][p].sum())
        assert _count(pieces, "assistant", p) == int(rec["col_assistants"][p].sum())
        assert _count(pieces, "agent-left", p) == int(rec["agents"][p])
        assert _count(pieces, "assistant-left", p) == int(rec["assistants"][p])
        # Every piece of the round is somewhere on the board.
        assert _count(pieces, "agent", p) + _count(pieces, "agent-left", p) == AGENTS
        assert _count(pieces, "assistant", p) + _count(pieces, "assistant-left", p) + blocks == ASSISTANTS
        won = [w for w in pieces if w["data-piece"] == "investor-won" and w["data-seat"] == str(p)]
        assert sum(int(w["data-count"]) for w in won) == int(rec["investors_held"][p, :N_TYPES].sum())
    assert kinds["block"] == sum(bin(int(b)).count("1") for b in rec["slot_block"][:n].ravel())


@pytest.mark.parametrize(("n_players", "seed"), [(2, 1), (2, 2), (4, 1), (4, 3)])
def test_board_matches_state_every_step(n_players: int, seed: int) -> None:
    """Referee and seat views of every step parse, count the state's pieces, and show nothing hidden."""
    rules, states = _states(n_players, seed)
    assert states
    for state in states:
        rec = state[0]
        svg = GAME.render_svg(rules, state)
        pieces = _pieces(svg)
        _check_counts(rules, rec, pieces)
        assert 'data-view="referee"' in svg
        for seat in range(n_players):
            hidden = GAME.hide(state, seat)
            seen = GAME.render_svg(rules, hidden, seat)
            # Drawn from what the seat may know only: the same picture whatever the deck order and random keys.
            assert seen == GAME.render_svg(rules, state, seat)
            assert f'data-view="seat" data-seat="{seat}"' in seen
            assert f"Seat {seat}’s view" in seen
            seen_pieces = _pieces(seen)
            _check_counts(rules, hidden[0], seen_pieces)
            assert Counter(p["data-piece"] for p in seen_pieces) == Counter(p["data-piece"] for p in pieces)


def test_deck_order_is_not_drawn() -> None:
    """Shuffling the deck (what ``hide`` sorts away) changes nothing on the board; its size is shown."""
    rules, states = _states(2, 1)
    state = states[len(states) // 2].copy()
    rec = state[0]
    before = GAME.render_svg(rules, state, 0)
    n = int(rec["deck_n"])
    assert n > 1
    rec["deck"][:n] = rec["deck"][:n][::-1]
    rec["rng_key"][:] = 12345
    assert GAME.render_svg(rules, state, 0) == before
    assert f"deck: {n} cards" in before


def test_final_position_shows_scores() -> None:
    """The last position of a game says it is over and shows every seat's total and the winner."""
    rules, states = _states(4, 1)
    rec = states[-1][0]
    assert rec["over"]
    svg = GAME.render_svg(rules, states[-1])
    _pieces(svg)
    assert "Game over" in svg
    for p in range(4):
        assert f'data-vp="{int(rec["total"][p])}"' in svg
    assert svg.count('data-tag="★ winner"') == int(rec["winner"][:4].sum()) >= 1
