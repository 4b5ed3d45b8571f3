"""Steel Arena's SVG board (simlab/games/steel_arena/svg.py, ``SteelArenaGame.render_svg``).

Random games at 2 and 4 players are played with the rules kernels; at every step (every step of one whole game,
a sample of the others) the referee's view and each seat's view (``game.hide`` first) must be one self-contained,
well-formed ``<svg>`` whose pieces (``data-piece``) match the state: the arena's cells, the robots on the field,
the tiles on the arena, module slots, overheat tokens, trophies and pending damage. A seat's view never names a
face-down tile (NOTES I.16: only its back, the type colour, shows), nor another robot's unrevealed module.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pytest

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.games.steel_arena.data import TILE_TYPES

NS = "{http://www.w3.org/2000/svg}"
GAME = get_game("steel_arena")


@cache
def _game_states(n_players: int, seed: int) -> tuple[Any, list[np.ndarray]]:
    """The ruleset and every state met (before each action) of one random game."""
    rules = GAME.ruleset(n_players)
    players = resolve_players(GAME, ["random"] * n_players)
    states: list[np.ndarray] = []
    play_game(GAME, rules, players, GAME.game_seed(seed, 0), on_step=lambda st, seat, a: states.append(st.copy()))
    return rules, states


def _pieces(root: ET.Element) -> Counter[str]:
    return Counter(el.get("data-piece") for el in root.iter() if el.get("data-piece"))


def _all_text(el: ET.Element) -> str:
    """Every text and attribute value under ``el`` (what a person or a script could read)."""
    parts = [" ".join(el.itertext())]
    parts.extend(v for node in el.iter() for v in node.attrib.values())
    return " ".join(parts)


def _design_names(rules: Any) -> re.Pattern[str]:
    """A pattern matching any design's id or name (English or printed Russian) as whole words."""
    names = sorted({n for t in rules.data.tiles for n in (t.tile_id, t.name_en, t.name_ru)}, key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(n) for n in names)})(?!\w)")


def _expected(rules: Any, rec: np.void) -> Counter[str]:
    """The piece counts the true state calls for."""
    n = int(rec["n_players"])
    on_field = [p for p in range(n) if rec["placed"][p] and not rec["destroyed"][p] and int(rec["cell"][p]) >= 0]
    n_mods = [int(rec["n_mods"][p]) for p in range(n)]
    heat = sum(int(np.count_nonzero(rec["heat"][p, : n_mods[p]])) for p in range(n))
    heat += int(np.count_nonzero(rec["central_heat"][:n]))
    counts = Counter({
        "cell": len(rules.cells),
        "robot": len(on_field),
        "tile": int(np.count_nonzero(rec["cell_tile"][: len(rules.cells)] != -1)),
        "central": n,
        "module": sum(n_mods),
        "heat": heat,
        "trophy": int(rec["n_trophies"][:n].sum()),
        "damage": int(rec["pending_dmg"][:n].sum()),
    })
    return +counts  # drop the zero counts


def _check_document(svg: str) -> ET.Element:
    """One well-formed, self-contained ``<svg>`` with a viewBox."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert re.fullmatch(r"0 0 \d+(\.\d+)? \d+(\.\d+)?", root.get("viewBox", ""))
    for el in root.iter():
        assert el.tag not in (f"{NS}image", f"{NS}script", f"{NS}foreignObject"), el.tag
        assert not any("href" in k for k in el.attrib), el.attrib
    assert "url(" not in svg and "@import" not in svg
    return root


def _check_view(rules: Any, state: np.ndarray, seat: int | None, names: re.Pattern[str]) -> None:
    """The board of ``state`` from ``seat``'s view (None: the referee's) against the true state."""
    rec = state[0]
    shown = state if seat is None else GAME.hide(state, seat)
    root = _check_document(GAME.render_svg(rules, shown, seat))
    assert _pieces(root) == _expected(rules, rec)
    n_cells = len(rules.cells)
    tiles = {int(el.get("data-cell")): el for el in root.iter() if el.get("data-piece") == "tile"}
    assert sorted(tiles) == [c for c in range(n_cells) if int(rec["cell_tile"][c]) != -1]
    for c, el in tiles.items():
        inst = int(rec["cell_tile"][c])
        assert el.get("data-type") == TILE_TYPES[int(rec["cell_type"][c])]  # the type (colour) is public
        up = bool(rec["cell_up"][c])
        assert el.get("data-face") == ("up" if up else "down")
        if up or seat is None:  # face up, or the referee: named, the face-down ones marked as such
            assert el.get("data-design") == rules.design(inst).tile_id
        else:  # a seat sees only the back
            assert el.get("data-design") is None
            text = _all_text(el)
            assert not names.search(text), text
    caption = " ".join(" ".join(el.itertext()) for el in root.iter() if el.get("data-caption") == "view")
    if seat is None:
        assert "Referee" in caption
        return
    assert f"Seat {seat + 1}'s view" in caption
    for el in root.iter():
        if el.get("data-piece") != "module":
            continue
        p, k = int(el.get("data-seat")), int(el.get("data-slot"))
        if p != seat and not rec["revealed"][p, k] and not rec["expert"]:
            assert el.get("data-design") is None
            text = _all_text(el)
            assert not names.search(text), text
        else:
            assert el.get("data-design") == rules.design(int(rec["mods"][p, k])).tile_id
    if rec["placed"][seat] and not rec["destroyed"][seat] and int(rec["cell"][seat]) >= 0:
        own = [el for el in root.iter() if el.get("data-piece") == "robot" and el.get("data-seat") == str(seat)]
        assert len(own) == 1 and "you" in _all_text(own[0])


@pytest.mark.parametrize(("n_players", "seed", "every"), [(2, 1, 1), (4, 1, 4), (2, 2, 9), (4, 2, 9)])
def test_every_view_matches_the_state(n_players: int, seed: int, every: int) -> None:
    """Referee and seat views of a game's steps (all of them for the first game, a sample for the others)."""
    rules, states = _game_states(n_players, seed)
    names = _design_names(rules)
    picked = [*states[::every], states[-1]]
    for state in picked:
        for seat in (None, *range(n_players)):
            _check_view(rules, state, seat, names)


def test_face_down_tiles_and_robots_drawn() -> None:
    """A mid-game position shows face-down tiles as backs to a seat and by name to the referee."""
    rules, states = _game_states(4, 1)
    n_cells = len(rules.cells)

    def face_down(rec: np.void) -> list[int]:
        return [c for c in range(n_cells) if int(rec["cell_tile"][c]) >= 0 and not rec["cell_up"][c]]

    state = next(s for s in states[len(states) // 2 :] if face_down(s[0]))
    rec = state[0]
    down = face_down(rec)
    referee = GAME.render_svg(rules, state)
    seen = GAME.render_svg(rules, GAME.hide(state, 0), 0)
    for c in down:
        name = rules.design(int(rec["cell_tile"][c])).name_en
        assert f'data-cell="{c}"' in referee and name in referee
    assert "face down" in referee
    seen_root = ET.fromstring(seen)
    backs = [el for el in seen_root.iter() if el.get("data-piece") == "tile" and el.get("data-face") == "down"]
    assert len(backs) == len(down) and all(el.get("data-design") is None for el in backs)
    assert "Seat 1&#x27;s view" in seen or "Seat 1's view" in seen
    facings = {int(el.get("data-facing")) for el in ET.fromstring(referee).iter() if el.get("data-piece") == "robot"}
    assert facings <= set(range(6))
