"""Spec validation: every error is one line naming the file and the field, before anything runs."""

from __future__ import annotations

import pytest
from runner_helpers import small_spec

from simlab.runner.plan import Plan, lineups, seatings
from simlab.runner.spec import SpecError, load_spec, parse_spec


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"colour": "red"}, "colour: unknown key"),
        ({"game": "chess"}, "game: unknown game 'chess'"),
        ({"games": "many"}, "games: expected an integer"),
        ({"games": 0}, "games: must be at least 1"),
        ({"seed": 1.5}, "seed: expected an integer"),
        ({"shard_size": 0}, "shard_size: must be at least 1"),
        ({"workers": -1}, "workers: must be 0"),
        ({"backend": "spark"}, "backend: 'spark' is not one of"),
        ({"record": ["moves"]}, "record[0]: 'moves' is not an event table"),
        ({"options": {"service_floor": "none"}}, "options: option 'service_floor'"),
        ({"options": {"colour": 1}}, "options: unknown option 'colour'"),
        ({"players": {"seats": ["greedy", "nobody"]}}, "players.seats[1]: unknown player 'nobody'"),
        ({"players": {"seats": ["greedy(depth=3)", "random"]}}, "players.seats[0]: player 'greedy(depth=3)'"),
        ({"players": {"seats": ["greedy"]}}, "players: sentient takes 2-4 players, not 1"),
        ({"players": {"seats": ["greedy"] * 5}}, "players: sentient takes 2-4 players, not 5"),
        ({"players": {"pool": ["greedy", "random"], "n_players": 3}}, "players.pool: 2 players cannot fill 3"),
        ({"players": {"seats": ["greedy", "random"], "pool": ["greedy"]}}, "players: give either"),
        ({"players": {"seats": ["greedy", "random"], "rotation": "spin"}}, "players.rotation: 'spin'"),
        ({"players": {"pool": ["greedy", "random", "investor"], "match": "focus"}}, "players.focus"),
        ({"players": {"pool": ["greedy"], "repeat": True}}, "players.pool: one player with repeat = true gives no "
                                                            "line-up (a player against copies of itself is left out "
                                                            "of a round robin): for self-play write match = \"self\""),
        ({"players": {"pool": ["greedy"], "match": "duel"}}, "players.match: 'duel' is not one of round_robin, focus, "
                                                             "self"),
        ({"companion": {"study": ""}}, "companion.study: the name of the heuristic study"),
        ({"players": {"seats": ["greedy", "random"], "teams": 2}}, "players.teams: unknown key"),
        ({"stop": {"rule": "maybe"}}, "stop.rule: expected one of ci, sprt"),
        ({"stop": {"rule": "ci"}}, "stop: rule 'ci' needs exactly one"),
        ({"stop": {"rule": "ci", "player": "ismcts"}}, "stop.player: 'ismcts' is not among the players"),
        ({"stop": {"rule": "ci", "seat": 0, "half_width": 2}}, "stop.half_width: must be between"),
        ({"stop": {"rule": "sprt", "player_a": "greedy", "player_b": "greedy"}}, "stop.player_b: must differ"),
        ({"stop": {"rule": "sprt", "player_a": "greedy", "player_b": "random", "elo0": 10, "elo1": 5}},
         "stop.elo1: must be greater"),
        ({"data": {"edit": [{"file": "cards", "where": {"id": 999}, "set": {"printed_vp": 5}}]}},
         "data.edit[0]: cards.csv: no row with id = 999"),
        ({"data": {"edit": [{"file": "cards", "where": {"id": 32}, "set": {"printed_vp": "lots"}}]}},
         "printed_vp: 'lots'"),
        ({"data": {"set": [{"card": 32, "field": "printed_vp", "value": 5}]}},
         "data.set: card overrides are row edits now: edit = [{ file = \"cards\""),
        ({"data": {"remove": [32]}}, "data.remove: card overrides are row edits now"),
        ({"variants": [{"name": "x", "set": [{"card": 32, "field": "printed_vp", "value": 5}]}]},
         "variants[0].set: card overrides are row edits now"),
        ({"ablation": {"cards": [999]}}, "ablation.cards[0]: no component with id 999"),
        ({"ablation": {"change": "melt"}}, "ablation.change: 'melt' is not one of remove, vp"),
        ({"ablation": {"robots": "all"}}, "ablation.robots: unknown key (allowed: cards, change, delta)"),
        ({"data": {"cards": "/nonexistent/cards.csv"}}, "file not found"),
        ({"variants": [{"name": "base"}]}, "variants[0].name: duplicate variant name"),
        ({"variants": [{"options": {"sweep_order": "never"}}]}, "variants[0].options"),
    ],
)
def test_spec_errors_name_the_field(change, field):
    raw = small_spec(**change)
    if "players" in change and "seats" not in change["players"] and "pool" in change["players"]:
        raw["players"] = change["players"]
    with pytest.raises(SpecError) as info:
        parse_spec(raw, "experiments/x.toml")
    message = str(info.value)
    assert message.startswith("experiments/x.toml: ")
    assert field in message
    assert "\n" not in message


def test_spec_file_errors(tmp_path):
    with pytest.raises(SpecError, match="file not found"):
        load_spec(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("game = \n")
    with pytest.raises(SpecError, match=r"bad\.toml: not valid TOML"):
        load_spec(bad)
    ok = tmp_path / "ok.toml"
    ok.write_text('game = "sentient"\n[players]\nseats = ["greedy", "random"]\n')
    spec = load_spec(ok, {"games": 42, "seed": None})
    assert (spec.name, spec.games, spec.seed) == ("ok", 42, 0)


def test_round_robin_focus_and_rotations():
    pool = ["a", "b", "c", "d"]
    spec = parse_spec(small_spec(players={"pool": ["greedy", "investor", "specialist", "random"], "n_players": [2, 3],
                                          "match": "focus", "focus": "random", "rotation": "cyclic"}))
    lus = lineups(spec)
    assert all("random" in lu for lu in lus)
    assert sorted(len(lu) for lu in lus) == [2, 2, 2, 3, 3, 3]
    assert seatings(("a", "b", "a", "b"), "cyclic") == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert len(seatings(tuple(pool), "all")) == 24
    assert seatings(tuple(pool), "none") == [tuple(pool)]
    plan = Plan(spec)
    assert plan.n_tables == 3 * 2 + 3 * 3
    assert plan.total_games % plan.n_tables == 0 and plan.total_games >= spec.games


def test_self_play_seats_each_pool_player_against_copies_of_itself():
    spec = parse_spec(small_spec(players={"pool": ["greedy", "ismcts(iterations=20)"], "n_players": [2, 4],
                                          "match": "self", "rotation": "none"}))
    assert lineups(spec) == [("greedy", "greedy"), ("ismcts(iterations=20)",) * 2, ("greedy",) * 4,
                             ("ismcts(iterations=20)",) * 4]
    assert Plan(spec).n_tables == 4


def test_shipped_experiments_validate():
    """Every spec under experiments/ is valid."""
    from pathlib import Path

    files = sorted((Path(__file__).parents[2] / "experiments").glob("*.toml"))
    assert files
    for f in files:
        spec = load_spec(f)
        assert spec.games >= 1 and Plan(spec).total_games >= spec.games
