"""simlab results / results show / results.load / replay, and `simlab run` from the command line."""

from __future__ import annotations

import polars as pl
from runner_helpers import small_spec
from typer.testing import CliRunner

import simlab.results as results
from simlab.cli import app
from simlab.runner.replay import replay_game
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec

SPEC = """
description = "a tiny test experiment"
game = "sentient"
seed = 3
games = 90
shard_size = 40
workers = 1
record = ["takes"]

[players]
seats = ["greedy", "investor", "specialist"]
rotation = "cyclic"

[[variants]]
name = "card32_vp7"
edit = [{ file = "cards", where = { id = 32 }, set = { printed_vp = 7 } }]
"""


def test_load_returns_lazy_tables(tmp_path):
    run = run_experiment(parse_spec(small_spec(games=90, shard_size=40)), tmp_path / "r", show_progress=False).path
    tables = results.load(run)
    assert set(tables) == {"games", "seats", "takes"}
    assert all(isinstance(f, pl.LazyFrame) for f in tables.values())
    seats = tables["seats"].collect()
    assert seats.height == 270
    assert {"game", "seat", "player", "variant", "lineup", "rotation", "score", "rank", "winner", "win_share"} <= set(
        seats.columns)
    assert results.resolve_run(run) == run


def test_replay_reproduces_the_stored_game(tmp_path):
    run = run_experiment(parse_spec(small_spec(games=90, shard_size=40)), tmp_path / "r", show_progress=False).path
    seats = results.load(run)["seats"].collect()
    for game in (0, 4, 89):
        events, lines = replay_game(run, game)
        final = events[-1]
        stored = seats.filter(pl.col("game") == game).sort("seat")
        assert [s["total"] for s in final["seats"]] == stored["score"].to_list()
        assert [s["rank"] for s in final["seats"]] == stored["rank"].to_list()
        assert events[0]["players"] == stored["player"].cast(str).to_list()
        assert any("=== Final ===" in line for line in lines)


def test_cli_run_results_show_and_replay(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "experiments" / "tiny.toml"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    runner = CliRunner()
    out = runner.invoke(app, ["run", str(spec), "-q"])
    assert out.exit_code == 0, out.output
    assert "complete: 180 games stored" in out.output
    assert "win rate per player" in out.output and "win rate per seat" in out.output
    listing = runner.invoke(app, ["results"])
    assert listing.exit_code == 0 and "tiny" in listing.output
    run_dir = next((tmp_path / "results" / "tiny").iterdir())
    shown = runner.invoke(app, ["results", "show", "tiny"])
    assert shown.exit_code == 0, shown.output
    assert "a tiny test experiment" in shown.output and "numba" in shown.output and "card32_vp7" in shown.output
    replayed = runner.invoke(app, ["replay", str(run_dir), "--game", "5", "--variant", "card32_vp7",
                                   "--trace", str(tmp_path / "g5.jsonl")])
    assert replayed.exit_code == 0, replayed.output
    assert "=== Round 3 ===" in replayed.output
    assert (tmp_path / "g5.jsonl").read_text().count("\n") > 50
    resumed = runner.invoke(app, ["run", str(spec), "-q", "--resume"])
    assert resumed.exit_code == 0 and "played 0 in" in resumed.output


def test_variants_share_seeds_and_differ_by_data(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "v.toml"
    spec.write_text(SPEC)
    from simlab.runner.spec import load_spec

    run = run_experiment(load_spec(spec), tmp_path / "r", show_progress=False).path
    games = results.load(run)["games"].collect()
    base = games.filter(pl.col("variant") == "base").sort("game")
    variant = games.filter(pl.col("variant") == "card32_vp7").sort("game")
    assert base["seed"].to_list() == variant["seed"].to_list()
    takes = results.load(run)["takes"].collect().filter((pl.col("card") == 32) & (pl.col("points") > 0))
    assert set(takes.filter(pl.col("variant") == "card32_vp7")["points"].to_list()) <= {7}
    assert set(takes.filter(pl.col("variant") == "base")["points"].to_list()) <= {4}


def test_results_module_is_part_of_the_package_api():
    import simlab

    assert simlab.results.load is results.load
