"""Issue 12, the command line: the compile notice, progress bars, player labels, "did you mean"
hints, and ``batch --rotate`` with its per-position tables."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import simlab.play
from simlab.cli import app
from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.player import parse_player_spec, resolve_player, resolve_players
from simlab.play import compile_notice, kernel_cached, play_batch

runner = CliRunner()
GAME = get_game("sentient")


def invoke(*args: str):
    return runner.invoke(app, list(args))


def _bot(tmp_path: Path) -> Path:
    path = tmp_path / "my_player.py"
    path.write_text(textwrap.dedent("""\
        from simlab import Player


        class Networker(Player):
            def __init__(self, risk=1):
                self.risk = risk

            def choose(self, obs, legal):
                return legal[0]
        """), encoding="utf-8")
    return path


# ---------------------------------------------------------------- first use: compiling


def test_compile_notice_names_the_game_by_title():
    assert compile_notice("sentient") == "compiling the Sentient rules (first run, about a minute)"
    assert compile_notice("smartphone").startswith("compiling the Smartphone Inc. rules")


def test_kernel_cached_reads_numba_cache(tmp_path, monkeypatch):
    """A cache=True function is cold before its first call and warm after it (a fresh cache dir)."""
    (tmp_path / "tiny_kernel.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n"
                                             "    return x + 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("tiny_kernel")
    try:
        assert not kernel_cached(module.f)
        assert module.f(1) == 2
        assert kernel_cached(module.f)
        # a new process sees the index on disk: simulate with a fresh dispatcher of the same source
        del sys.modules["tiny_kernel"]
        fresh = importlib.import_module("tiny_kernel")
        assert kernel_cached(fresh.f)
    finally:
        sys.modules.pop("tiny_kernel", None)


def test_batch_says_it_compiles_on_a_cold_cache(monkeypatch):
    monkeypatch.setattr(simlab.play, "needs_compiling", lambda game, driver=False: True)
    res = invoke("batch", "sentient", "-p", "greedy,random", "-n", "50", "-q")
    assert res.exit_code == 0, res.output
    assert "compiling the Sentient rules (first run, about a minute)" in res.output
    assert res.output.index("compiling") < res.output.index("games/s")


def test_no_compile_line_on_a_warm_cache(monkeypatch):
    monkeypatch.setattr(simlab.play, "needs_compiling", lambda game, driver=False: False)
    for args in (("batch", "sentient", "-p", "greedy,random", "-n", "50", "-q"),
                 ("play", "sentient", "-p", "greedy,random", "-q"),
                 ("ladder", "sentient", "-p", "greedy,random", "-n", "10", "-q")):
        res = invoke(*args)
        assert res.exit_code == 0, res.output
        assert "compiling" not in res.output, args


def test_play_and_ladder_announce_compiling(monkeypatch):
    monkeypatch.setattr(simlab.play, "needs_compiling", lambda game, driver=False: True)
    for args in (("play", "sentient", "-p", "greedy,random", "-q"),
                 ("ladder", "sentient", "-p", "greedy,random", "-n", "10", "-q")):
        res = invoke(*args)
        assert res.exit_code == 0, res.output
        assert "compiling the Sentient rules" in res.output, args


def test_batch_rate_excludes_compile_time(monkeypatch):
    """The batch warms up before the clock starts: the timed play_batch call never compiles."""
    calls = []
    real = simlab.play.play_batch

    def spy(*args, **kwargs):
        from simlab.play import needs_compiling

        calls.append(needs_compiling(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(simlab.play, "play_batch", spy)
    res = invoke("batch", "sentient", "-p", "greedy,random", "-n", "50", "-q")
    assert res.exit_code == 0, res.output
    assert calls == [False]


# ---------------------------------------------------------------- progress bars


def test_batch_shows_progress_with_rate_and_eta():
    res = invoke("batch", "sentient", "-p", "greedy,random", "-n", "5000")
    assert res.exit_code == 0, res.output
    assert "5000/5000" in res.output and "games/s" in res.output and "ETA" in res.output


def test_quiet_hides_progress():
    res = invoke("batch", "sentient", "-p", "greedy,random", "-n", "5000", "-q")
    assert res.exit_code == 0, res.output
    assert "5000/5000" not in res.output and "ETA" not in res.output


def test_batch_progress_callback_moves_in_chunks():
    seen: list[int] = []
    play_batch("sentient", ["greedy", "random"], 5000, progress=seen.append)
    assert seen == [2000, 4000, 5000]


def test_python_player_batch_reports_progress(tmp_path):
    bot = _bot(tmp_path)
    res = invoke("batch", "sentient", "-p", f"{bot}:Networker,greedy", "-n", "120")
    assert res.exit_code == 0, res.output
    assert "120/120" in res.output and "Python driver" in res.output


def test_ladder_prints_rows_as_it_goes_with_progress():
    res = invoke("ladder", "sentient", "-p", "greedy,random,investor", "-n", "10")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    rows = [line for line in lines if line.split()[:1] and line.split()[0] in ("random", "investor")]
    assert len(rows) == 3
    assert "60/60" in res.output and "games/s" in res.output


def test_ladder_rows_are_printed_before_the_last_pair_is_played(monkeypatch):
    import simlab.ladder
    from simlab import cli

    events: list[str] = []
    real_h2h, real_print = simlab.ladder.head_to_head, cli.console.print

    def h2h(*args, **kwargs):
        events.append("play")
        return real_h2h(*args, **kwargs)

    def printed(*args, **kwargs):
        if args and "[" in str(args[0]):
            events.append("row")
        return real_print(*args, **kwargs)

    monkeypatch.setattr(simlab.ladder, "head_to_head", h2h)
    monkeypatch.setattr(cli.console, "print", printed)
    res = invoke("ladder", "sentient", "-p", "greedy,random,investor", "-n", "10", "-q")
    assert res.exit_code == 0, res.output
    assert events == ["play", "row"] * 3  # each pair's row is out before the next pair starts


def test_bench_shows_progress():
    res = invoke("bench", "sentient", "-n", "300", "--driver-games", "3", "--mc-games", "4")
    assert res.exit_code == 0, res.output
    steps = len(GAME.bench_mixes) + 1
    assert f"{steps}/{steps}" in res.output and "sentient bench" in res.output


# ---------------------------------------------------------------- labels


def test_label_prefix_parses_and_keeps_inner_equals():
    spec = parse_player_spec("nw=my_player.py:Networker(risk=2)")
    assert (spec.label, spec.path, spec.name, spec.params) == ("nw", "my_player.py", "Networker", {"risk": 2})
    assert parse_player_spec("greedy(pass_below=2)").label is None
    assert parse_player_spec("sentient:greedy").label is None
    assert parse_player_spec("g2=sentient:greedy(pass_below=2)").label == "g2"


def test_label_names_the_player(tmp_path):
    bot = _bot(tmp_path)
    p = resolve_player(GAME, f"nw={bot}:Networker(risk=2)")
    assert p.label == "nw" and p.spec == f"{bot}:Networker(risk=2)"
    q = resolve_player(GAME, "careful=greedy(pass_below=2)")
    assert q.label == "careful" and q.spec == "greedy(pass_below=2)" and q.compiled


def test_duplicate_label_for_different_specs_is_an_error():
    with pytest.raises(SimlabError, match="label 'a' names two different players"):
        resolve_players(GAME, ["a=greedy", "a=random"])
    with pytest.raises(SimlabError, match="label 'greedy'"):
        resolve_players(GAME, ["greedy=random", "greedy"])
    resolve_players(GAME, ["a=greedy", "a=greedy"])  # the same spec twice is fine


def test_labels_in_tables_and_stored_player_column(tmp_path):
    bot = _bot(tmp_path)
    out = tmp_path / "tables"
    long_spec = f"{bot}:Networker(risk=2)"
    res = invoke("batch", "sentient", "-p", f"nw={long_spec},careful=greedy(pass_below=2)", "-n", "20",
                 "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    assert "│ nw " in res.output and "careful" in res.output
    assert long_spec not in res.output
    assert set(pl.read_parquet(out / "seats.parquet")["player"].cast(str)) == {"nw", "careful"}


def test_long_player_names_are_never_cut_off():
    name = "a_rather_long_label_for_a_player_that_keeps_going_and_going_and_going"
    res = invoke("batch", "sentient", "-p", f"{name}=greedy,random", "-n", "20", "-q")
    assert res.exit_code == 0, res.output
    assert name in res.output
    res = invoke("ladder", "sentient", "-p", f"{name}=greedy,random", "-n", "5", "-q")
    assert res.exit_code == 0, res.output
    assert name in res.output


def test_labels_in_experiment_specs():
    from simlab.runner.spec import SpecError, parse_spec

    spec = parse_spec({"game": "sentient", "players": {"seats": ["g=greedy(pass_below=2)", "random"]}})
    assert spec.seats == ["g=greedy(pass_below=2)", "random"]
    with pytest.raises(SpecError, match="label 'g' names two different players"):
        parse_spec({"game": "sentient", "players": {"seats": ["g=greedy", "g=random"]}})


# ---------------------------------------------------------------- did you mean


@pytest.mark.parametrize(("call", "hint"), [
    (lambda: resolve_player(GAME, "gredy"), "did you mean 'greedy'?"),
    (lambda: resolve_player(GAME, "greedy(pass_belw=2)"), "did you mean 'pass_below'?"),
])
def test_player_hints(call, hint):
    with pytest.raises(SimlabError) as exc:
        call()
    assert hint in str(exc.value)


def test_python_player_parameter_and_class_hints(tmp_path):
    bot = _bot(tmp_path)
    with pytest.raises(SimlabError, match=r"parameters: risk\); did you mean 'risk'\?"):
        resolve_player(GAME, f"{bot}:Networker(rsk=2)")
    with pytest.raises(SimlabError, match="did you mean 'Networker'"):
        resolve_player(GAME, f"{bot}:Netwroker")


def test_option_hints():
    from simlab.core.options import resolve_options

    table = GAME.option_table()
    name = next(iter(table))
    with pytest.raises(SimlabError, match=f"did you mean '{name}'"):
        resolve_options(table, {name[:-1]: 1})
    text_options = [o for o in table.values() if any(isinstance(v, str) for v in o.allowed)]
    if text_options:
        opt = text_options[0]
        value = next(v for v in opt.allowed if isinstance(v, str))
        with pytest.raises(SimlabError, match=f"did you mean '{value}'"):
            resolve_options(table, {opt.name: value[:-1] + "x"})


def test_spec_key_hints():
    from simlab.runner.spec import SpecError, parse_spec

    base = {"game": "sentient", "players": {"seats": ["greedy", "random"]}}
    with pytest.raises(SpecError, match="did you mean 'games'"):
        parse_spec({**base, "gmaes": 10})
    with pytest.raises(SpecError, match="did you mean 'rotation'"):
        parse_spec({**base, "players": {"seats": ["greedy", "random"], "rotaton": "none"}})
    with pytest.raises(SpecError, match="did you mean 'options'"):
        parse_spec({**base, "variants": [{"name": "x", "optons": {}}]})
    with pytest.raises(SpecError, match="did you mean 'cards'"):
        parse_spec({**base, "data": {"crds": "x.csv"}})


def test_field_errors_list_the_fields_and_suggest():
    from simlab.runner.spec import SpecError, parse_spec

    base = {"game": "sentient", "players": {"seats": ["greedy", "random"]}}
    edit = {"file": "cards", "where": {"id": 1}, "set": {"vp": 2}}
    with pytest.raises(SpecError) as exc:
        parse_spec({**base, "data": {"edit": [edit]}})
    msg = str(exc.value)
    assert "no column 'vp' (columns: id, type," in msg and "did you mean 'vp_kind', 'printed_vp' or 'vp_source'?" in msg
    with pytest.raises(SpecError, match="did you mean 'cards'"):
        parse_spec({**base, "data": {"edit": [{**edit, "file": "card", "set": {"printed_vp": 2}}]}})
    with pytest.raises(SpecError, match="did you mean 'where'"):
        parse_spec({**base, "data": {"edit": [{**edit, "wher": {"id": 1}}]}})


def test_cli_errors_carry_hints(monkeypatch, capsys):
    from tests.test_cli import run_main

    code, _, err = run_main(monkeypatch, capsys, "batch", "sentient", "-p", "gredy,random", "-n", "5")
    assert code == 2 and "did you mean 'greedy'?" in err
    code, _, err = run_main(monkeypatch, capsys, "batch", "sentient", "-p", "greedy,random", "-n", "5", "-q",
                              "--by", "start_invstor")
    assert code == 2 and "did you mean 'start_investor'?" in err


# ---------------------------------------------------------------- batch --rotate and positions


def test_rotate_plays_every_rotation_on_the_same_deal():
    r = play_batch("sentient", ["greedy", "investor", "random"], 30, seed=4, rotate=True)
    games = r.games.sort("game")
    assert games.height == 30 and games["deal"].to_list() == [g // 3 for g in range(30)]
    assert games.group_by("deal").agg(pl.col("seed").n_unique())["seed"].to_list() == [1] * 10
    seats = r.seats.filter(pl.col("game") < 3).sort("game", "seat")["player"].cast(str).to_list()
    assert seats == ["greedy", "investor", "random", "investor", "random", "greedy",
                     "random", "greedy", "investor"]
    # deal 0 is game 0 of an unrotated batch with the same seed
    plain = play_batch("sentient", ["greedy", "investor", "random"], 1, seed=4)
    assert plain.games["seed"][0] == games["seed"][0]
    assert plain.seats.sort("seat")["score"].to_list() == r.seats.filter(pl.col("game") == 0).sort("seat")[
        "score"].to_list()


def test_rotate_matches_a_spec_run_with_cyclic_rotation(tmp_path):
    from simlab.runner.run import run_experiment
    from simlab.runner.spec import parse_spec

    spec = parse_spec({"game": "sentient", "seed": 4, "games": 12, "workers": 1,
                       "players": {"seats": ["greedy", "investor", "random"], "rotation": "cyclic"}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False)
    stored = pl.read_parquet(run.path / "seats" / "**" / "*.parquet").sort("game", "seat")
    batch = play_batch("sentient", ["greedy", "investor", "random"], 12, seed=4, rotate=True).seats.sort("game", "seat")
    assert stored["score"].to_list() == batch["score"].to_list()
    assert stored["player"].cast(str).to_list() == batch["player"].cast(str).to_list()


def test_batch_rotate_tables():
    res = invoke("batch", "smartphone", "-p", "greedy,random,expansionist", "-n", "300", "--rotate", "-q")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "300 games (100 deals x 3 rotations)" in out
    assert "per player, every seat" in out and "per seat" in out and "95% interval (by deal)" in out
    assert "per colour" in out and "per start_region" in out  # the game's positions, automatically
    seat_rows = [line for line in out.splitlines() if line.startswith("│") and line.split("│")[1].strip() in "012"
                 and line.split("│")[1].strip()]
    assert len(seat_rows) == 3
    for row in seat_rows:
        assert row.split("│")[2].strip() == "300"  # every seat played in every rotated game
    assert "clustered by deal" in out


def test_batch_by_column():
    res = invoke("batch", "smartphone", "-p", "greedy,random", "-n", "50", "--by", "colour", "-q")
    assert res.exit_code == 0, res.output
    assert "per colour" in res.output and "per start_region" not in res.output


def test_rotate_duplicates_dedupe_like_specs():
    r = play_batch("sentient", ["greedy", "greedy"], 10, seed=1, rotate=True)
    assert r.games.height == 10 and r.games["deal"].to_list() == list(range(10))
