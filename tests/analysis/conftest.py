"""Shared set-up for the analysis tests: small stored runs (built once per session) and ``analysis_helpers``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from analysis_helpers import run_tables  # noqa: E402


@pytest.fixture(scope="session")
def pool_run(tmp_path_factory):
    """Round robin of four built-in players, three per game, cyclic seat rotation (duplicate deals)."""
    return run_tables(tmp_path_factory.mktemp("pool"), {
        "name": "pool", "seed": 5, "games": 1200,
        "players": {"pool": ["greedy", "investor", "random", "specialist"], "n_players": [3], "rotation": "cyclic"},
    })


def _vp(card: int, vp: int) -> dict:
    return {"file": "cards", "where": {"id": card}, "set": {"printed_vp": vp}}


@pytest.fixture(scope="session")
def ablation_run(tmp_path_factory):
    """Four investor players; card 32's printed VP raised by 3 in one variant, smaller changes in others."""
    return run_tables(tmp_path_factory.mktemp("ablation"), {
        "name": "ablation", "seed": 3, "games": 2500, "record": ["takes"],
        "players": {"seats": ["investor"] * 4, "rotation": "none"},
        "variants": [
            {"name": "card32_vp7", "edit": [_vp(32, 7)]},
            {"name": "card28_vp4", "edit": [_vp(28, 4)]},
            {"name": "card50_vp4", "edit": [_vp(50, 4)]},
            {"name": "card40_removed", "edit": [{"file": "cards", "where": {"id": 40}, "set": {"in_deck": 0}}]},
        ],
    })


@pytest.fixture(scope="session")
def mirror_run(tmp_path_factory):
    """Two nearly identical players head to head, both seat orders on every deal."""
    return run_tables(tmp_path_factory.mktemp("mirror"), {
        "name": "mirror", "seed": 7, "games": 2000,
        "players": {"seats": ["investor", "investor(card_weight=1.2)"], "rotation": "cyclic"},
    })
