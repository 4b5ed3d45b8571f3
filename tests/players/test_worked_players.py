"""The worked players of docs/players.md: real files under examples/ that play through ``simlab.play_batch`` with
the file spec and beat ``random`` (bounds wide enough never to flake: they win nearly every game)."""

from __future__ import annotations

from pathlib import Path

import pytest

import simlab

ROOT = Path(__file__).resolve().parents[2]
WORKED = [
    ("sentient", "examples/sentient_network.py", "NetworkBuilder"),
    ("smartphone", "examples/smartphone_planner.py", "Planner"),
]


@pytest.mark.parametrize(("game", "path", "cls"), WORKED, ids=[w[0] for w in WORKED])
def test_worked_player_beats_random(game, path, cls):
    spec = f"{ROOT / path}:{cls}"
    result = simlab.play_batch(game, [spec, "random", "random"], games=12, seed=5)
    seats = result.seats
    assert len(result.games) == 12 and not result.compiled
    wins = seats.filter(seats["seat"] == 0)["winner"].sum()
    assert wins >= 7, f"{cls} won {wins} of 12 games against two random players"


@pytest.mark.parametrize(("game", "path", "cls"), WORKED, ids=[w[0] for w in WORKED])
def test_worked_player_is_the_code_in_the_docs(game, path, cls):
    """docs/players.md shows each example file whole (from its first import on), so the docs cannot drift."""
    code = (ROOT / path).read_text()
    body = code[code.index("from simlab"):].strip()
    assert body in (ROOT / "docs/players.md").read_text(), f"docs/players.md does not show {path} as it is"
