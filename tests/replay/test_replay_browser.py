"""Each game's replay page in a real browser (headless Chromium): it loads with no console error, every step shows
its board as SVG with the pieces the step's board has, the slider, buttons and keys move the step, and the view
toggle shows a seat's board. A screenshot of each game's page (mid-game, referee's view) is kept under
``test-artifacts/replay/`` (the README's pictures are taken from there by hand: docs/replay.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))
from browser import find_chromium, inspect_page

from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.replay.page import replay_html
from simlab.replay.steps import record_replay

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="no Chromium on PATH: install Debian's chromium "
                                "package (apt-get install chromium; .ci/run does) to run the browser checks")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "replay"
GAMES = ("sentient", "smartphone", "steel_arena", "pendulum")

READY = ("new Promise(r => { const t = () => document.body.dataset.ready === 'true' ? r(true) : setTimeout(t, 50); "
         "t(); })")
STEP = "Number(document.body.dataset.step)"
# every step through the slider: the board's SVG and its pieces
WALK = """(() => { const slider = document.getElementById('slider'); const out = [];
  for (let i = 0; i <= Number(slider.max); i++) {
    slider.value = String(i); slider.dispatchEvent(new Event('input'));
    const svg = document.querySelector('#board svg');
    out.push(svg ? svg.querySelectorAll('[data-piece]').length : -1);
  }
  return out; })()"""
BOARD = "document.getElementById('board').innerHTML.length"
GO_MIDDLE = ("(() => { const s = document.getElementById('slider'); s.value = String(Math.floor(Number(s.max) / 2)); "
             "s.dispatchEvent(new Event('input')); return Number(s.value); })()")


@pytest.mark.parametrize("name", GAMES)
def test_replay_page_in_a_browser(name, tmp_path):
    game = get_game(name)
    rules = game.ruleset(2)
    replay = record_replay(game, rules, resolve_players(game, ["random", "random"]), game.game_seed(5, 0),
                           ["random", "random"])
    page = tmp_path / f"{name}.html"
    page.write_text(replay_html(replay), encoding="utf-8")
    last = len(replay.steps) - 1
    actions = [("eval", READY), ("eval", STEP), ("key", "ArrowRight"), ("key", "ArrowRight"), ("eval", STEP),
               ("key", "ArrowLeft"), ("eval", STEP), ("key", "End"), ("eval", STEP), ("key", "Home"), ("eval", STEP),
               ("eval", "document.getElementById('next').click(); " + STEP), ("eval", WALK),
               ("eval", GO_MIDDLE), ("eval", BOARD), ("key", "v"), ("eval", "Number(document.body.dataset.view)"),
               ("eval", BOARD), ("eval", "document.querySelectorAll('#log li.current').length"),
               ("key", "v"), ("key", "v")]
    if len(replay.seats) > 2:
        actions += [("key", "v")] * (len(replay.seats) - 2)
    actions.append(("eval", "Number(document.body.dataset.view)"))
    report = inspect_page(page, screenshot=ARTIFACTS / f"{name}.png", actions=actions)
    assert not report.console_errors, report.console_errors
    ready, s0, s2, s1, s_end, s_home, s_next, pieces, middle, referee_len, view, seat_len, current, view_back = \
        report.results
    assert ready is True and (s0, s2, s1, s_end, s_home, s_next) == (0, 2, 1, last, 0, 1)
    expected = [s.boards[0].count("data-piece=") for s in replay.steps]
    assert pieces == expected  # every step shows its own board (-1 would be a step without an SVG)
    assert middle == last // 2 and view == 1 and view_back == 0  # V steps through the views and back
    mid = replay.steps[last // 2]
    assert (referee_len != seat_len) == (mid.boards[0] != mid.boards[1])  # the seat's own board when it differs
    assert current >= 1  # the step's lines are highlighted in the log
    assert json.dumps(replay.seats) and report.screenshot is not None


def test_the_analysis_panel_in_a_browser(tmp_path):
    """With an analysis attached, an analysed step shows its alternatives (the move played marked, the loss in
    words), the turning points are marked on the slider, and a step of the other seat shows no table."""
    from simlab.replay.analysis import SHOWN, analyse_replay

    game = get_game("sentient")
    rules = game.ruleset(2)
    replay = record_replay(game, rules, resolve_players(game, ["random", "greedy"]), game.game_seed(1, 0),
                           ["random", "greedy"])
    analysis = analyse_replay(game, rules, replay, seat=0, budget=60)
    page = tmp_path / "analysed.html"
    page.write_text(replay_html(replay, analysis=analysis.for_page()), encoding="utf-8")
    first = analysis.decisions[0]
    other = next(s.index for s in replay.steps[1:] if s.seat == 1)
    go = ("(() => {{ const s = document.getElementById('slider'); s.value = '{}'; s.dispatchEvent(new Event('input')); "
          "const p = document.getElementById('analysis'); return [p.querySelectorAll('tbody tr').length, "
          "p.querySelectorAll('tr.played').length, p.textContent]; }})()")
    report = inspect_page(page, screenshot=ARTIFACTS / "analysis.png", actions=[
        ("eval", READY), ("eval", go.format(other)), ("eval", "document.querySelectorAll('#marks span').length"),
        ("eval", go.format(first.step))])  # the screenshot shows the analysed step
    assert not report.console_errors, report.console_errors
    _ready, (other_rows, _p, _t), marks, (rows, played, text) = report.results
    assert rows == min(len(first.alternatives), SHOWN + (not any(a.played for a in first.alternatives[:SHOWN])))
    assert played == 1 and "Seat 0's decision" in text
    assert ("win share against the search's choice" in text) == (first.loss is not None)
    assert marks == len(analysis.turned) and other_rows == 0
