"""A game in a package of its own: registered through the ``simlab.games`` entry-point group, then
played by every path a built-in game is (``simlab.play_batch``, the runner, the CLI). The game is
the worked example of docs/adding_a_game.md (``examples/solo_race``), which also shows the solo
case: one seat against a rules-driven Automa whose results are game columns.
"""

from __future__ import annotations

import importlib.metadata
import warnings

import numpy as np
import polars as pl
import pytest
from simlab_solo_race import GAME as EXAMPLE_GAME  # on sys.path through conftest.py
from typer.testing import CliRunner

import simlab
from simlab import results
from simlab.cli import app
from simlab.core import game as game_registry
from simlab.core.dataedits import RowEdit
from simlab.core.datavariants import data_hash, variant_data
from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


@pytest.fixture
def fresh_registry(monkeypatch):
    """An empty registry that discovers again, as a new process would."""
    monkeypatch.setattr(game_registry, "_REGISTRY", {})
    monkeypatch.setattr(game_registry, "_DISCOVERED", False)


def _fake_entry_points(*eps: importlib.metadata.EntryPoint):
    def entry_points(group: str | None = None, **kw):
        return [ep for ep in eps if ep.group == group]
    return entry_points


def _ep(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name, value, game_registry.ENTRY_POINT_GROUP)


def test_an_entry_point_registers_a_game(fresh_registry, monkeypatch):
    """``discover_games`` loads the group's entry points: ``get_game`` and ``all_games`` find the game
    next to the built-in ones, and ``simlab games`` / ``simlab players`` list it."""
    monkeypatch.setattr(game_registry, "entry_points", _fake_entry_points(_ep("solo_race", "simlab_solo_race:GAME")))
    assert get_game("solo_race") is EXAMPLE_GAME
    names = [g.name for g in simlab.all_games()]
    assert {"solo_race", "sentient", "smartphone"} <= set(names) and names == sorted(names)
    out = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "solo_race" in out.output and "1-3" in out.output
    out = CliRunner().invoke(app, ["players", "solo_race"], env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "racer" in out.output and "gamble_behind" in out.output


@pytest.mark.parametrize("value", ["simlab_solo_race", "simlab_solo_race.game:SoloRaceGame"])
def test_an_entry_point_may_name_a_module_or_a_game_class(fresh_registry, monkeypatch, value):
    """The entry point may name the package (which holds ``GAME``) or the Game class (made without arguments)."""
    monkeypatch.setattr(game_registry, "entry_points", _fake_entry_points(_ep("solo_race", value)))
    found = get_game("solo_race")
    assert type(found).__name__ == "SoloRaceGame"


def test_a_broken_entry_point_is_skipped_with_a_warning(fresh_registry, monkeypatch):
    """One package failing to import does not take the other games down."""
    monkeypatch.setattr(game_registry, "entry_points", _fake_entry_points(
        _ep("broken", "no_such_package_for_simlab:GAME"), _ep("solo_race", "simlab_solo_race:GAME")))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert get_game("solo_race") is EXAMPLE_GAME
    assert any("broken" in str(w.message) and "failed to load" in str(w.message) for w in caught)
    assert get_game("sentient").name == "sentient"


def test_the_example_is_not_registered_for_users():
    """Outside the contract tests the example is unknown: it lives in examples/, not in simlab/games."""
    with pytest.raises(simlab.core.errors.SimlabError, match="unknown game 'solo_race'"):
        get_game("solo_race")


def test_play_batch_by_name(example_game):
    """``simlab.play_batch`` plays the example by name: solo (one seat row per game, the Automa's results
    in the games table) and with three seats (no Automa)."""
    solo = simlab.play_batch("solo_race", ["racer"], games=300, seed=5)
    assert solo.compiled and solo.seats.height == 300 and solo.games.height == 300
    g = solo.games.join(solo.seats, on="game")
    assert g["automa"].all()
    assert (g["winner"] == ~g["automa_won"]).all()  # one of the two wins: ties go to the Automa by default
    assert (g["win_share"] == g["winner"].cast(pl.Float64)).all()
    assert (g["rank"] == 2 - g["winner"].cast(pl.Int32)).all()
    assert (g["automa_rank"] == 2 - g["automa_won"].cast(pl.Int32)).all()
    assert (g.filter(pl.col("winner"))["score"] > g.filter(pl.col("winner"))["automa_score"]).all()
    assert 0.2 < solo.seats["win_share"].mean() < 0.8
    trio = simlab.play_batch("solo_race", ["racer", "random", "racer"], games=100, seed=5)
    assert not trio.games["automa"].any() and (trio.games["automa_score"] == 0).all()
    assert not trio.games["automa_won"].any()


def test_ties_with_the_automa_follow_the_option(example_game):
    """``automa_ties = "seat"`` hands every tie to the seat; nothing else changes (same dice)."""
    a = simlab.play_batch("solo_race", ["racer"], games=2000, seed=8)
    b = simlab.play_batch("solo_race", ["racer"], games=2000, seed=8, options={"automa_ties": "seat"})
    ja = a.games.join(a.seats, on="game")
    jb = b.games.join(b.seats, on="game")
    assert ja["score"].to_list() == jb["score"].to_list()
    assert ja["automa_score"].to_list() == jb["automa_score"].to_list()
    tie = (ja["score"] == ja["automa_score"]).to_numpy()
    assert tie.any()
    assert not ja["winner"].to_numpy()[tie].any() and jb["winner"].to_numpy()[tie].all()
    assert (ja["winner"].to_numpy()[~tie] == jb["winner"].to_numpy()[~tie]).all()


def test_the_automa_draws_from_its_own_stream(example_game):
    """Whatever the seat plays, the Automa rolls the same dice (common random numbers)."""
    game = get_game("solo_race")
    rules = game.ruleset(1)
    seed = game.game_seed(3, 0)
    rolls = []
    for lineup in (["racer"], ["random"], ["racer(gamble_behind=0)"]):
        rec = play_game(game, rules, resolve_players(game, lineup), seed, record_events=True)
        rolls.append([e["die"] for e in rec.events if e["event"] == "automa_move"])
    shortest = min(len(r) for r in rolls)
    assert shortest > 0 and all(r[:shortest] == rolls[0][:shortest] for r in rolls)


def test_data_variants_and_ablation(example_game, tmp_path):
    """The example's data files go through the core's data variants: row edits, replacement files and
    its ablation (one variant per special space) load, hash differently and change the board."""
    files = example_game.data_files()
    assert files is not None and files.stems == ("spaces", "options")
    base = variant_data(files)
    edited = variant_data(files, edits=[RowEdit("spaces", {"space": 9}, {"shift": -1})])
    assert example_game.ruleset(1, data=edited).board[9] == -1 != example_game.ruleset(1, data=base).board[9]
    assert data_hash(files, edits=[RowEdit("spaces", {"space": 9}, {"shift": -1})]) != data_hash(files)
    replaced = tmp_path / "flat.csv"
    replaced.write_text("space,shift,name,source\n", encoding="utf-8")
    flat = variant_data(files, {"spaces": replaced})
    assert not example_game.ruleset(1, data=flat).board.any()
    ablation = example_game.ablation()
    assert ablation is not None and ablation.component == "spaces"
    ids = ablation.ids(base)
    assert ids == [s.space for s in base.spaces]
    for change in ablation.changes:
        for space in ids:
            edits = change.edits(base, space, 1)
            if edits is None:
                continue
            data = variant_data(files, edits=edits)
            board = example_game.ruleset(1, data=data).board
            assert board[space] != example_game.ruleset(1, data=base).board[space]
            assert change.variant_name(base, space, 1)


def test_the_runner_runs_the_example(example_game, tmp_path):
    """An experiment over the example: solo and three-seat line-ups, stored, read back; the solo seat's
    win rate is its win rate against the Automa, and the stored rows equal ``play_batch``'s."""
    spec = parse_spec({"name": "solo_race_tiny", "game": "solo_race", "seed": 4, "games": 60, "shard_size": 30,
                       "workers": 1, "players": {"seats": ["racer"]}})
    run = run_experiment(spec, tmp_path / "run", show_progress=False)
    assert run.manifest["status"] == "complete"
    stored = results.load(run.path)
    games = stored["games"].collect().sort("game")
    seats = stored["seats"].collect().sort("game")
    assert games.height == 60 and seats.height == 60
    assert set(seats["seat"].to_list()) == {0}
    assert (seats["winner"] == ~games["automa_won"]).all()
    again = simlab.play_batch("solo_race", ["racer"], games=60, seed=4)
    assert seats["score"].to_list() == again.seats.sort("game")["score"].to_list()
    assert games["automa_score"].to_list() == again.games.sort("game")["automa_score"].to_list()
    three = parse_spec({"name": "race_three", "game": "solo_race", "seed": 1, "games": 30, "workers": 1,
                        "players": {"seats": ["racer", "random", "racer"]}})
    run3 = run_experiment(three, tmp_path / "run3", show_progress=False)
    seats3 = results.load(run3.path)["seats"].collect()
    assert seats3.height == 90
    assert np.allclose(seats3.group_by("game").agg(pl.col("win_share").sum())["win_share"].to_numpy(), 1.0)
