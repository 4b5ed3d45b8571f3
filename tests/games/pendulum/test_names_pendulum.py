"""Names and numbers in Pendulum's readable log, board and menus (issue 23, "Names and numbers people copy").

What the log shows is what a spec takes: a seat is called by its player's label (a bot in the solo seat is not
"human"), seats count from 0 as in specs and result tables, workers are W1..W4 everywhere, and every event
kind of docs/trace.md ("Pendulum events") is written in words, never as a dump of its fields.
"""

from __future__ import annotations

import re

import pytest

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.rng import game_seed
from simlab.core.trace import game_trace
from simlab.games.pendulum import codes as pc
from simlab.games.pendulum import render
from simlab.games.pendulum.render.log import WRITERS

# A field dump reads "name (key value, key value, ...)": a snake_case key followed by its value.
DUMP = re.compile(r"\b[a-z]+_[a-z0-9_]+ (-?\d|\[|None|[A-Z])")

MIXES = [  # (players, options): solo at several levels and options, 2 players (neutral), 3 timed, 5 with delays
    (["producer"], {}),
    (["voter"], {"automa_level": "F", "omen_variant": True, "character_side": "advanced"}),
    (["random"], {"automa_level": "A", "time_model": "timed"}),
    (["random", "producer"], {}),
    (["voter", "track_balancer", "producer"], {"time_model": "timed"}),
    (["random", "random", "random", "random", "random"], {"allow_delayed_flips": True, "advanced_variant": "all"}),
]


def _log(players: list[str], options: dict, seed: int = 3) -> tuple[list[dict], list[str]]:
    g = get_game("pendulum")
    res = resolve_players(g, players)
    rules = g.ruleset(len(res), options, None)
    record = play_game(g, rules, res, int(game_seed(seed, 0)), record_events=True)
    events = game_trace(g, rules, record, [p.label for p in res], 0)
    return events, g.log_lines(events)


def test_every_event_kind_has_words():
    """Each event of codes.EVENT_NAMES (docs/trace.md's table) has a writer; deck orders and the clock are
    bookkeeping the log skips, and game_start is the header."""
    missing = set(pc.EVENT_NAMES) - {"deck_order", "clock", "game_start"} - set(WRITERS)
    assert not missing


@pytest.mark.parametrize(("players", "options"), MIXES)
def test_log_has_no_field_dump(players, options):
    """A seeded game of every player mix and option writes every line in words (no ``seed_w0 14982``,
    ``pending wild_gain, action 10, n_left 0``), and names no seat ``human`` when no person plays."""
    events, lines = _log(players, options)
    kinds = {e["event"] for e in events}
    assert {"worker_action", "track", "council_reward", "game_end"} <= kinds
    dumps = [line for line in lines if DUMP.search(re.sub("|".join(players), "LABEL", line))]  # labels may have _
    assert not dumps, dumps[:5]
    assert not [line for line in lines if re.search(r"\bhuman\b", line)]


def test_solo_seat_is_called_by_its_label():
    """A bot in the solo seat is called by its label (LABEL=SPEC) in the header, every line and the final
    table; the header numbers the seat from 0."""
    _events, lines = _log(["bot=producer"], {})
    assert "  seat 0: bot - " in lines[1]
    assert any(line.startswith("  [") and "] bot: " in line for line in lines)
    final = lines[lines.index("=== Final ===") :]
    assert any(line.startswith("  bot ") for line in final)


def test_shared_label_gets_its_seat_number():
    """Two seats with the same player are told apart by their 0-based seat numbers."""
    _events, lines = _log(["random", "random"], {})
    body = "\n".join(lines)
    assert "] random (seat 0): " in body and "] random (seat 1): " in body


def test_log_is_deterministic():
    """The same seed gives the same log, line for line."""
    assert _log(["producer", "voter"], {}, seed=11)[1] == _log(["producer", "voter"], {}, seed=11)[1]


def test_workers_and_seats_numbered_as_everywhere():
    """Workers are W1..W4 in the trace's action_name as on the board and in the log; the board's worker codes
    and headings count seats from 0 (s0G1 = seat 0's W1, a grande)."""
    g = get_game("pendulum")
    rules = g.ruleset(3, {}, None)
    assert render.action_name(rules, pc.A_WORKER + 0) == "W1"
    assert render.action_name(rules, pc.A_ACTION + 1 * 2 + 0).startswith("W2 acts")
    state, _ = g.new_game(rules, 5, g.new_log(0))
    board = render.render_state(rules, state[0], 0)
    assert "view of seat 0" in board and "seat 0 (you)" in board and "P1" not in board
    assert "s0G1 = seat 0's worker W1" in render.legend(rules)
