"""The stored results are bit-identical whatever the workers, backend or shard size (DESIGN principle 2)."""

from __future__ import annotations

import pytest
from runner_helpers import assert_same_tables, small_spec, tables

from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


def _run(tmp_path, name, **over):
    spec = parse_spec(small_spec(**over))
    return run_experiment(spec, tmp_path / name, show_progress=False).path


def test_workers_backends_and_shard_sizes_agree(tmp_path):
    """1 worker = 2 workers = Dask LocalCluster (2 workers, loopback) = other shard sizes."""
    reference = tables(_run(tmp_path, "one", workers=1, shard_size=100))
    assert reference["games"].height == 600
    assert reference["seats"].height == 1800
    assert reference["takes"].height == 1800 * 12
    assert_same_tables(reference, tables(_run(tmp_path, "two", workers=2, shard_size=100)))
    assert_same_tables(reference, tables(_run(tmp_path, "odd", workers=2, shard_size=77)))
    assert_same_tables(reference, tables(_run(tmp_path, "big", workers=1, shard_size=600)))
    pytest.importorskip("dask.distributed")
    assert_same_tables(reference, tables(_run(tmp_path, "dask", workers=2, shard_size=150, backend="dask")))


def test_search_players_give_the_same_tables_on_every_backend(tmp_path):
    """issue 25: a strong-play study (the shared search, in small shards as its specs use) stores the same tables
    with 1 worker and one shard as on a Dask cluster of 2 workers in shards of 5 games."""
    search = {"players": {"pool": ["ismcts(iterations=25)"], "n_players": [2, 3], "match": "self", "rotation": "none"},
              "games": 20, "record": []}
    reference = tables(_run(tmp_path, "one", workers=1, shard_size=20, **search))
    assert reference["games"].height == 20
    assert reference["seats"]["player"].unique().to_list() == ["ismcts(iterations=25)"]
    pytest.importorskip("dask.distributed")
    assert_same_tables(reference, tables(_run(tmp_path, "dask", workers=2, shard_size=5, backend="dask", **search)))


def test_dask_scheduler_address_sends_tables_back(tmp_path):
    """With a scheduler address (a cluster that may not share this disk) workers return their tables and the
    runner writes them: still the same tables."""
    distributed = pytest.importorskip("dask.distributed")
    reference = tables(_run(tmp_path, "one", workers=1, shard_size=100))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = _run(tmp_path, "remote", shard_size=120, backend="dask", scheduler=cluster.scheduler_address)
    assert_same_tables(reference, tables(remote))


def test_rotations_share_the_deal(tmp_path):
    """Every rotation of a line-up plays the same seed (duplicate format): same deal, same seed."""
    t = tables(_run(tmp_path, "rot", games=30, shard_size=30))
    games = t["games"]
    assert games["rotation"].to_list()[:3] == [0, 1, 2]
    for _deal, group in games.group_by("deal"):
        assert group["seed"].n_unique() == 1
        assert group.height == 3
    seats = t["seats"].filter(t["seats"]["game"] == 1)
    assert seats["player"].to_list() == ["investor", "random", "greedy"]


def test_same_spec_same_results_as_play_batch(tmp_path):
    """Without rotation, the runner's games are play_batch's games for the same seed."""
    import simlab

    run = _run(tmp_path, "plain", games=200, shard_size=64, record=[],
               players={"seats": ["greedy", "investor", "random"], "rotation": "none"})
    stored = tables(run)["seats"].select("game", "seat", "player", "score", "rank")
    direct = simlab.play_batch("sentient", ["greedy", "investor", "random"], 200, seed=11).seats
    assert stored.equals(direct.select("game", "seat", "player", "score", "rank"))


def test_labels_name_the_stored_players_and_the_stopping_rule(tmp_path):
    """``LABEL=SPEC`` in a spec: the stored ``player`` column holds the label, and a stopping rule naming the
    labelled spec reads it."""
    from simlab import results
    from simlab.runner.run import run_experiment
    from simlab.runner.spec import parse_spec

    raw = {"game": "sentient", "seed": 2, "games": 400, "shard_size": 200, "workers": 1,
           "players": {"seats": ["g=greedy(pass_below=2)", "random"], "rotation": "cyclic"},
           "stop": {"rule": "sprt", "player_a": "g=greedy(pass_below=2)", "player_b": "random", "check_every": 200}}
    spec = parse_spec(raw)
    assert spec.stop.player_a == "g"
    run = run_experiment(spec, tmp_path / "r", show_progress=False)
    seats = results.load(run.path)["seats"].collect()
    assert set(seats["player"].cast(str).to_list()) == {"g", "random"}
    assert run.manifest["stop"]["base"]["decision"] == "H1"
