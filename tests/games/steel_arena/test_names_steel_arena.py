"""Names and numbers in Steel Arena's log, board and menus (issue 23, "Names and numbers people copy").

Modules are named as the reports and ``tiles.csv`` name them, ``G2-A-OGNEMYOT (Flamethrower)`` (the
``tile_id`` a data variant or an ablation takes, and the English name), with the printed Russian name beside
it where a person holding the game needs it (board, menus); teams are numbered 0 and 1 with 0-based seats,
as the seats' ``team`` result column and the report number them (team 0 = seats 0 and 2).
"""

from __future__ import annotations

import re

import numpy as np

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.rng import game_seed
from simlab.core.trace import game_trace
from simlab.games.steel_arena import render

CYRILLIC = re.compile("[\u0400-\u04ff]")


def _game(players: list[str], options: dict, seed: int = 7):
    g = get_game("steel_arena")
    res = resolve_players(g, players)
    rules = g.ruleset(len(res), options, None)
    states = []
    record = play_game(g, rules, res, int(game_seed(seed, 0)), record_events=True,
                       on_step=lambda state, _seat, _action: states.append(state.copy()))
    events = game_trace(g, rules, record, [p.label for p in res], 0)
    return g, rules, events, g.log_lines(events), states


def test_log_names_modules_as_the_reports_do():
    """Every module the log names (activations, armour, trophies) is ``tile_id (English name)``, the report's
    module and name columns; no printed Russian name is left in the log (expert mode names every module)."""
    _g, rules, _events, lines, _states = _game(["brawler", "sniper"], {"mode": "expert"})
    text = "\n".join(lines)
    assert not CYRILLIC.search(text)
    named = [t for t in rules.data.tiles if f"{t.tile_id} ({t.name_en})" in text]
    assert named, "the game activated no module"
    assert render.tile_name(named[0]) == f"{named[0].tile_id} ({named[0].name_en})"


def test_board_and_menu_give_the_printed_name_beside():
    """The board's module lists and field list, and the menu's module entries, show ``tile_id (English,
    printed РУССКОЕ)``; the map's short codes are the first letters of the tile_id's name (A:PUS)."""
    g, rules, _events, _lines, states = _game(["brawler", "sniper"], {"mode": "expert"})
    board = render.render_state(rules, states[len(states) // 2][0], None)
    printed = [t for t in rules.data.tiles if render.tile_name_printed(t) in board]
    assert printed
    map_codes = re.findall(r"\b[AMRDTamrdt]:(\S{3})", board)
    assert map_codes and not any(CYRILLIC.search(c) for c in map_codes)
    state, legal = g.new_game(rules, int(game_seed(7, 0)), g.new_log(0))
    rng = np.random.default_rng(0)
    modules: list[str] = []
    for _ in range(400):  # random play until a menu offers a module tile
        labels = [label for label, _ in render.action_menu(rules, state[0], [int(a) for a in legal])]
        modules = [label for label in labels if label.startswith("G") and ", printed " in label]
        if modules or not len(legal):
            break
        legal = g.step(rules, state, int(rng.choice(legal)), g.new_log(0))
    assert modules and CYRILLIC.search(modules[0].split(", printed ", 1)[1])


def test_teams_numbered_as_the_result_column():
    """Team mode: the board says team 0 and team 1 (seats 0+2 and 1+3), never team A/B or 1-based seats, and the
    log's team totals name the same teams."""
    _g, rules, _events, lines, states = _game(["brawler", "sniper", "brawler", "sniper"], {"team": True})
    board = render.render_state(rules, states[0][0], None)
    assert "team 0 (seats 0+2" in board and ", team 1:" in board and ", team 0:" in board
    assert "team A" not in board and "team B" not in board
    assert any("team 0 (seats 0+2), team 1 (seats 1+3)" in line for line in lines)
