"""The ``simlab`` command line: games, players, play, batch, bench, ladder and the one-line error path."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from simlab.cli import app, main
from simlab.core.game import get_game
from simlab.core.rng import game_seed
from simlab.core.trace import read_trace

runner = CliRunner()
GAME = get_game("sentient")


def invoke(*args: str, input: str | None = None):
    result = runner.invoke(app, list(args), input=input)
    return result


def run_main(monkeypatch, capsys, *args: str, stdin: str = "") -> tuple[int, str, str]:
    """``simlab ARGS`` through main() in this process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["simlab", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def _player_file(tmp_path: Path) -> Path:
    path = tmp_path / "cli_bot.py"
    path.write_text(
        textwrap.dedent(
            """\
            from simlab import Player


            class Cls(Player):
                def __init__(self, last=False):
                    self.last = last

                def choose(self, obs, legal):
                    return legal[-1] if self.last else legal[int(self.rng.integers(len(legal)))]
            """
        ),
        encoding="utf-8",
    )
    return path


# ---------------------------------------------------------------- games, players


def test_games_lists_sentient():
    res = invoke("games")
    assert res.exit_code == 0, res.output
    assert "sentient" in res.output
    assert "2-4" in res.output


def test_players_lists_builtins_with_parameters():
    res = invoke("players", "sentient")
    assert res.exit_code == 0, res.output
    for name in ("random", "greedy", "investor", "specialist", "ismcts", "human"):
        assert name in res.output, name
    for param in ("pass_below=1", "block=1", "card_weight=1", "iterations=330", "expand_after=4", "n_types=2"):
        assert param in res.output, param
    assert "FILE.py:Class" in res.output


def test_players_unknown_game(monkeypatch, capsys):
    code, _, err = run_main(monkeypatch, capsys, "players", "chess")
    assert code == 2
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith("error: unknown game 'chess' (known: ")
    assert all(name in err for name in ("pendulum", "sentient", "smartphone", "steel_arena"))


# ---------------------------------------------------------------- play


def test_play_prints_rounds_final_and_winner():
    res = invoke("play", "sentient", "--players", "greedy,investor,random,random", "--seed", "7")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert f"game seed {game_seed(7, 0)}" in lines[0]
    for r in (1, 2, 3):
        assert any(line.startswith(f"=== Round {r} ===") for line in lines), r
    assert "=== Final ===" in lines
    assert lines.index("=== Final ===") > max(i for i, line in enumerate(lines) if line.startswith("=== Round 3"))
    assert any(line.strip().startswith("winner") for line in lines)
    for seat, name in enumerate(["greedy", "investor", "random", "random"]):
        assert f"seat {seat}: {name}" in res.output


def test_play_quiet_prints_only_final_table():
    res = invoke("play", "sentient", "-p", "greedy,random", "--seed", "7", "--quiet")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "=== Final ==="
    assert not any("=== Round" in line for line in lines)
    assert any(line.strip().startswith("winner") for line in lines)


def test_play_trace(tmp_path):
    path = tmp_path / "game.jsonl"
    res = invoke("play", "sentient", "-p", "greedy,investor,random", "--seed", "7", "--trace", str(path))
    assert res.exit_code == 0, res.output
    assert "trace written" in res.output
    raw = path.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in raw]
    assert events == read_trace(path)
    assert events[0]["event"] == "game_start"
    assert events[-1]["event"] == "final"
    assert events[0]["seed"] == int(game_seed(7, 0))
    assert events[0]["players"] == ["greedy", "investor", "random"]
    assert f"({len(events)} events)" in res.output


def test_play_trace_same_seed_identical(tmp_path):
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, seed in ((a, "11"), (b, "11"), (c, "12")):
        res = invoke("play", "sentient", "-p", "random,random,greedy", "--seed", seed, "--trace", str(path))
        assert res.exit_code == 0, res.output
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


def test_play_game_index(tmp_path):
    path = tmp_path / "g2.jsonl"
    res = invoke("play", "sentient", "-p", "greedy,random", "--seed", "5", "--game", "2", "--trace", str(path))
    assert res.exit_code == 0, res.output
    start = read_trace(path)[0]
    assert start["game"] == 2
    assert start["seed"] == int(game_seed(5, 2))


def test_play_option(tmp_path):
    path = tmp_path / "opt.jsonl"
    res = invoke("play", "sentient", "-p", "greedy,random", "-o", "sweep_order=draw_then_discard",
                 "--trace", str(path))
    assert res.exit_code == 0, res.output
    assert read_trace(path)[0]["options"]["sweep_order"] == "draw_then_discard"


def test_play_python_player_file(tmp_path):
    path = _player_file(tmp_path)
    trace = tmp_path / "bot.jsonl"
    spec = f"{path}:Cls,greedy,{path}:Cls(last=True)"
    res = invoke("play", "sentient", "--players", spec, "--seed", "3", "--trace", str(trace))
    assert res.exit_code == 0, res.output
    assert "=== Final ===" in res.output
    events = read_trace(trace)
    assert events[0]["players"] == ["Cls", "greedy", "Cls(last=True)"]  # a file player is named by its class (issue 23)
    assert sum(e["event"] == "take" and e["seat"] == 0 for e in events) == 12


def test_play_matches_batch_game_zero(tmp_path):
    """`play --seed S` plays game 0 of `batch --seed S`."""
    trace = tmp_path / "g0.jsonl"
    out = tmp_path / "tables"
    res = invoke("play", "sentient", "-p", "greedy,investor,random", "--seed", "21", "--trace", str(trace))
    assert res.exit_code == 0, res.output
    res = invoke("batch", "sentient", "-p", "greedy,investor,random", "-n", "3", "--seed", "21", "--out", str(out))
    assert res.exit_code == 0, res.output
    seats = pl.read_parquet(out / "seats.parquet").filter(pl.col("game") == 0).sort("seat")
    final = read_trace(trace)[-1]
    assert seats["score"].to_list() == [s["total"] for s in final["seats"]]
    assert seats["rank"].to_list() == [s["rank"] for s in final["seats"]]


# ---------------------------------------------------------------- errors through main()


def test_unknown_player_one_line_error(monkeypatch, capsys):
    code, out, err = run_main(monkeypatch, capsys, "play", "sentient", "--players", "nobody,greedy")
    assert code == 2
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error: unknown player 'nobody' for sentient")


def test_retired_player_one_line_error_names_its_replacement(monkeypatch, capsys):
    """A retired built-in player (Sentient's ``mc``, issue 25) gets one line naming the player to use instead."""
    code, out, err = run_main(monkeypatch, capsys, "play", "sentient", "--players", "mc,greedy")
    assert code == 2
    assert "Traceback" not in out + err
    assert err.strip() == ("error: unknown player 'mc' for sentient: 'mc' was retired (issue 25): use 'ismcts', "
                           "as strong at equal time per decision (docs/players.md)")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("play", "sentient", "-p", "greedy"), "sentient takes 2-4 players; 1 were given"),
        (("play", "sentient", "-p", "greedy(speed=3),random"), "unknown parameter 'speed'"),
        (("play", "sentient", "-p", "greedy,random", "-o", "service_floor"), "expected name=value"),
        (("batch", "sentient", "-p", "greedy,random", "-n", "5", "-o", "service_floor=nope"), "is not allowed"),
        (("play", "nogame", "-p", "greedy,random"), "unknown game 'nogame'"),
        (("play", "sentient", "-p", "missing_file.py:Bot,random"), "not found"),
    ],
)
def test_simlab_errors_one_line(monkeypatch, capsys, args, fragment):
    code, out, err = run_main(monkeypatch, capsys, *args)
    assert code == 2
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert fragment in lines[0]


def test_long_error_stays_on_one_line(monkeypatch, capsys):
    code, _, err = run_main(monkeypatch, capsys, "play", "sentient", "-p", "greedy,random", "-o", "nope=1")
    assert code == 2
    assert err.startswith("error: unknown option 'nope'")
    assert len(err.strip().splitlines()) == 1, err


USAGE_BUG = (
    "bug: main() catches click.exceptions.ClickException, but the installed typer (0.29.2) raises its vendored "
    "typer._click exceptions (not subclasses of click's), so usage errors (missing --players, an unknown "
    "--flag, even a bare `simlab`) escape main() and print a traceback with exit status 1 instead of click's "
    "usage message and status 2"
)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("play", "sentient"), "players"),
        (("play", "sentient", "-p", "greedy,random", "--bogus"), "--bogus"),
        (("nocommand",), "nocommand"),
    ],
)
def test_usage_error_through_main(monkeypatch, capsys, args, fragment):
    """A usage error is click's: its message, exit code 2, no traceback."""
    code, out, err = run_main(monkeypatch, capsys, *args)
    assert code == 2
    assert "Traceback" not in out + err
    assert fragment in err


def test_no_arguments_shows_help(monkeypatch, capsys):
    code, out, err = run_main(monkeypatch, capsys)
    assert "Usage" in out + err
    assert "Traceback" not in out + err
    assert code in (0, 2)


def test_help_through_main(monkeypatch, capsys):
    code, out, _ = run_main(monkeypatch, capsys, "--help")
    assert code == 0
    for command in ("games", "players", "play", "batch", "ladder", "bench"):
        assert command in out


def test_malformed_spec_one_line_error(monkeypatch, capsys):
    try:
        code, _, err = run_main(monkeypatch, capsys, "play", "sentient", "--players", "greedy(a=1) + f(b=2),random")
    except AssertionError as exc:  # the bug: the parser's assert escapes main()
        pytest.fail(f"AssertionError escaped main(): {exc!r}")
    assert code == 2
    assert err.startswith("error: ")


def test_unknown_player_subprocess(tmp_path):
    """The real process: exit status 2 and one 'error:' line on stderr, nothing else."""
    proc = subprocess.run(
        [sys.executable, "-c", "from simlab.cli import main; main()", "play", "sentient", "--players",
         "nobody,greedy"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("error: unknown player 'nobody'")


# ---------------------------------------------------------------- human at the command line


def test_play_human_scripted_stdin():
    res = invoke("play", "sentient", "--players", "human,greedy", "--seed", "3", input="1\n" * 100)
    assert res.exit_code == 0, res.output
    assert res.exception is None
    assert "Traceback" not in res.output
    assert "seat 0 - choice" in res.output
    assert "=== Final ===" in res.output


def test_play_human_bad_answers_then_numbers():
    answers = "\nabc\n0\n999\n/slot 1\n?\n" + "1\n" * 100
    res = invoke("play", "sentient", "--players", "greedy,human", "--seed", "4", input=answers)
    assert res.exit_code == 0, res.output
    assert res.output.count("please type a number from 1 to") == 4
    assert "=== Final ===" in res.output


@pytest.mark.parametrize(("stdin", "fragment"), [("q\n", "stopped by the human player"), ("1\n1\n", "input closed")])
def test_play_human_quit_or_eof_exits_cleanly(monkeypatch, capsys, stdin, fragment):
    """Quitting or closing stdin ends the game with one line on stderr (exit status 0: stopping is not a
    failure), never a traceback and never the word error."""
    code, out, err = run_main(monkeypatch, capsys, "play", "sentient", "--players", "human,greedy", "--seed", "3",
                              stdin=stdin)
    assert code == 0
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert fragment in lines[0] and lines[0].startswith("game stopped") and "error" not in lines[0]
    assert "=== Final ===" not in out


# ---------------------------------------------------------------- batch


def test_batch_table():
    res = invoke("batch", "sentient", "-p", "greedy,random", "-n", "200", "--seed", "1")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "200 games, seed 1" in out
    assert "compiled loop" in out
    assert "games/s" in out
    for header in ("seat", "player", "win rate", "95% interval", "mean score"):
        assert header in out
    rows = [line for line in out.splitlines() if ("greedy" in line or "random" in line) and "│" in line]
    assert len(rows) == 2
    for row in rows:
        cells = [c.strip() for c in row.strip("│ ").split("│")]
        assert cells[2] == "200"
        rate = float(cells[3])
        lo, hi = (float(x) for x in cells[4].strip("[]").split(","))
        assert 0 <= lo <= rate <= hi <= 1
    assert "Wilson" in out


def test_batch_python_player_uses_driver(tmp_path):
    path = _player_file(tmp_path)
    res = invoke("batch", "sentient", "-p", f"{path}:Cls,greedy", "-n", "3", "--seed", "1")
    assert res.exit_code == 0, res.output
    assert "Python driver" in res.output


def test_batch_out_parquet(tmp_path):
    out = tmp_path / "results" / "b1"
    res = invoke("batch", "sentient", "-p", "greedy,random", "-n", "200", "--seed", "1", "--out", str(out))
    assert res.exit_code == 0, res.output
    games = pl.read_parquet(out / "games.parquet")
    seats = pl.read_parquet(out / "seats.parquet")
    assert games.height == 200
    assert seats.height == 400
    assert games["game"].to_list() == list(range(200))
    assert games["seed"].dtype == pl.UInt64
    assert games["seed"][0] == int(game_seed(1, 0))
    assert set(seats["player"].cast(pl.String).to_list()) == {"greedy", "random"}
    assert seats["winner"].dtype == pl.Boolean
    sums = seats.group_by("game").agg(pl.col("win_share").sum())["win_share"]
    assert ((sums - 1.0).abs() < 1e-9).all()
    assert "games.parquet" in res.output


# ---------------------------------------------------------------- bench, ladder


def test_bench_small(monkeypatch):
    """bench prints a games/s row per mix and the driver overhead line (the search kept cheap for the test)."""
    mixes = (("greedy",) * 4, ("random", "greedy"), ("ismcts(iterations=10)", "greedy"))
    monkeypatch.setattr(get_game("sentient"), "bench_mixes", mixes)
    res = invoke("bench", "sentient", "-n", "200", "--driver-games", "3", "--mc-games", "2")
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.startswith("machine: ")
    assert "compiled games/s per core" in out
    assert "driver games/s" in out
    for mix in mixes:
        assert ",".join(mix) in out
    overhead = [line for line in out.splitlines() if line.startswith("Python driver overhead")]
    assert len(overhead) == 1
    assert "µs per decision" in overhead[0]
    assert "decisions per 4-player game" in overhead[0]
    assert "shared ISMCTS at its default budget" in out and "time outside rollouts" in out


def test_bench_without_the_driver(monkeypatch):
    """--driver-games 0 skips the driver: dashes in its columns, no overhead line (it used to divide by zero)."""
    mixes = (("random", "greedy"),)
    monkeypatch.setattr(get_game("sentient"), "bench_mixes", mixes)
    res = invoke("bench", "sentient", "-n", "200", "--driver-games", "0", "--mc-games", "2",
                 "--search-decisions", "0")
    assert res.exit_code == 0, res.output
    row = next(line for line in res.output.splitlines() if "random,greedy" in line)
    assert row.count("-") >= 2
    assert "Python driver overhead" not in res.output


def test_bench_prints_a_slow_mix_rate_that_is_not_zero():
    """A search mix plays well under one game a second (Pendulum's ismcts alone: about 0.06): the bench table
    shows its rate to two significant digits, not as 0; from 10 games/s up, whole games with thousands commas."""
    from simlab.bench import games_per_s

    assert games_per_s(0.0612) == "0.061"
    assert games_per_s(4.26) == "4.3"
    assert games_per_s(49.4) == "49"
    assert games_per_s(1761.2) == "1,761"


def test_search_bench_counts_its_budget():
    """The search section times real decisions at every table size: every decision runs the default budget."""
    from rich.console import Console

    from simlab.bench import run_search_bench

    rows = run_search_bench("sentient", 3, Console(file=io.StringIO()))
    assert rows is not None and [row["n_players"] for row in rows] == [2, 3, 4]  # every table size
    for row in rows:
        assert row["decisions"] == 3 and row["budget"] == 330
        assert row["iterations_per_s"] > 0 and 0 < row["outside_rollouts"] < 1
        assert 1 < row["nodes_per_decision"] <= row["budget"] + 1
    assert run_search_bench("sentient", 0, Console(file=io.StringIO())) is None


def test_ladder_table():
    res = invoke("ladder", "sentient", "--players", "greedy,random", "--games", "20")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "head-to-head" in out
    for header in ("player", "opponent", "games", "win rate", "95% interval"):
        assert header in out
    rows = [line for line in out.splitlines() if line.startswith("random") and "greedy" in line]
    assert len(rows) == 1
    cells = rows[0].replace(", ", ",").split()
    assert cells[:3] == ["random", "greedy", "40"]
    rate = float(cells[3])
    lo, hi = (float(x) for x in cells[4].strip("[]").split(","))
    assert 0 <= lo <= rate <= hi <= 1
