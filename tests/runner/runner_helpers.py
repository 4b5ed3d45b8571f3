"""Helpers for the runner tests: small specs and table comparison."""

from __future__ import annotations

import polars as pl

from simlab.results import load


def small_spec(**over) -> dict:
    """A cheap 3-player experiment with every kind of column (rotations, two line-ups' worth of seats)."""
    spec = {
        "name": "small",
        "game": "sentient",
        "seed": 11,
        "games": 600,
        "shard_size": 100,
        "workers": 1,
        "record": ["takes"],
        "players": {"seats": ["greedy", "investor", "random"], "rotation": "cyclic"},
    }
    spec.update(over)
    return spec


def tables(run_dir) -> dict[str, pl.DataFrame]:
    """Every table of a run, collected and sorted canonically."""
    out = {}
    for name, frame in load(run_dir).items():
        keys = ["variant", "game"] + (["seat"] if "seat" in frame.collect_schema().names() else [])
        if name == "takes":
            keys = ["variant", "game", "seat", "turn"]
        out[name] = frame.collect().sort(keys)
    return out


def assert_same_tables(a: dict[str, pl.DataFrame], b: dict[str, pl.DataFrame]) -> None:
    """Identical tables: same names, schemas and values."""
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].schema == b[name].schema, name
        assert a[name].equals(b[name]), name
