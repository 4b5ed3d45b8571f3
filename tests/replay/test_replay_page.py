"""The replay page and where replays come from: a stored run's game or a trace file, refused in one line when the
trace cannot be played again; the page is one self-contained file (no network), the same game gives the same page.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import sys

import pytest
from typer.testing import CliRunner

from simlab.cli import app, main
from simlab.core.driver import play_game
from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.trace import game_trace, read_trace, write_trace
from simlab.replay.page import decode_boards, replay_html
from simlab.replay.sources import replay_from_run, replay_from_trace
from simlab.replay.steps import record_replay
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


def _payload(page: str) -> dict:
    packed = re.search(r'<script id="replay-data" type="application/octet-stream">([^<]*)</script>', page).group(1)
    return json.loads(gzip.decompress(base64.b64decode(packed)))


@pytest.fixture(scope="module")
def sentient_replay():
    game = get_game("sentient")
    rules = game.ruleset(3)
    players = resolve_players(game, ["greedy", "random", "investor"])
    return game, rules, players, record_replay(game, rules, players, game.game_seed(2, 7), ["greedy", "random",
                                                                                           "investor"], 7)


def test_steps_follow_the_game(sentient_replay):
    game, rules, players, replay = sentient_replay
    record = play_game(game, rules, players, game.game_seed(2, 7), record_events=True)
    assert len(replay.steps) == record.decisions + 1 and replay.steps[0].decision == "set-up"
    assert replay.events == game_trace(game, rules, record, ["greedy", "random", "investor"], 7)
    assert [line for s in replay.steps for line in s.log] == game.log_lines(replay.events)
    assert all(len(s.boards) == 4 for s in replay.steps)  # the referee and each seat
    assert replay.steps[-1].to_act is None and replay.steps[0].to_act == game.current_player(
        game.new_game(rules, game.game_seed(2, 7), game.new_log(0))[0])
    assert all(s.seat is not None and s.decision for s in replay.steps[1:])


def test_the_page_is_self_contained_and_reproducible(sentient_replay):
    *_, replay = sentient_replay
    page = replay_html(replay)
    assert page == replay_html(replay)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing from the network
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    data = _payload(page)
    assert len(data["steps"]) == len(replay.steps) and data["seats"] == replay.seats
    boards = decode_boards(data)
    assert all(boards[v] == b for s, step in zip(data["steps"], replay.steps, strict=True)
               for v, b in zip(s["views"], step.boards, strict=True))  # every step's every view, as drawn
    assert len(boards) == len(set(boards))  # each board once
    assert len(page) < 0.25 * sum(len(b) for b in boards)  # stored as changes: far smaller than the boards
    assert "Result: seat" in page and "(won)" in page


def test_a_trace_is_played_again_and_checked(tmp_path):
    game = get_game("sentient")
    rules = game.ruleset(2)
    players = resolve_players(game, ["greedy", "random"])
    record = play_game(game, rules, players, game.game_seed(9, 0), record_events=True)
    path = tmp_path / "game.jsonl"
    write_trace(path, game_trace(game, rules, record, ["greedy", "random"], 0))
    replay = replay_from_trace(path)
    assert len(replay.steps) == record.decisions + 1 and replay.source == "trace game.jsonl"
    events = read_trace(path)
    events[0]["seed"] += 1  # another game: its events are not the trace's
    write_trace(tmp_path / "other.jsonl", events)
    with pytest.raises(SimlabError, match=r"other\.jsonl: playing game seed \d+ again does not give the trace's"):
        replay_from_trace(tmp_path / "other.jsonl")
    del events[0]["simlab_game"]
    write_trace(tmp_path / "old.jsonl", events)
    with pytest.raises(SimlabError, match=r"old\.jsonl: its game_start names no game"):
        replay_from_trace(tmp_path / "old.jsonl")
    (tmp_path / "notes.jsonl").write_text('{"event": "take"}\n')
    with pytest.raises(SimlabError, match=r"notes\.jsonl: line 1 is not a game_start event"):
        replay_from_trace(tmp_path / "notes.jsonl")
    (tmp_path / "broken.jsonl").write_text("{not json\n")
    with pytest.raises(SimlabError, match=r"broken\.jsonl: not a readable trace"):
        replay_from_trace(tmp_path / "broken.jsonl")


def test_replay_and_view_commands_write_pages(tmp_path, monkeypatch, capsys):
    spec = parse_spec({"name": "tiny", "game": "sentient", "seed": 3, "games": 6, "workers": 1,
                       "players": {"seats": ["greedy", "investor"]}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    page, trace = tmp_path / "pages" / "game4.html", tmp_path / "game4.jsonl"
    result = CliRunner().invoke(app, ["replay", str(run), "--game", "4", "--html", str(page), "--trace", str(trace)])
    assert result.exit_code == 0, result.output
    assert page.is_file() and "replay page written to" in result.output and "=== Round 1 ===" in result.output
    from_run = replay_from_run(run, 4)
    assert _payload(page.read_text())["steps"][-1]["log"] == from_run.steps[-1].log
    viewed = CliRunner().invoke(app, ["view", str(trace)])
    assert viewed.exit_code == 0, viewed.output
    assert _payload(trace.with_suffix(".html").read_text())["boards"] == _payload(page.read_text())["boards"]
    monkeypatch.setattr(sys, "argv", ["simlab", "view", str(tmp_path / "missing.jsonl")])
    with pytest.raises(SystemExit) as stopped:
        main()
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "missing.jsonl: not a readable trace" in err and "Traceback" not in err
