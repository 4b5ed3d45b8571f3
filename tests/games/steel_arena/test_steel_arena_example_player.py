"""The worked Steel Arena player of docs/players.md (``examples/steel_arena_sniper.py``).

It plays whole games through the Python driver (which stops a game with ``IllegalActionError`` on
any action outside the legal list, so a finished batch is a batch of legal moves), beats ``random``,
answers the owner decisions as its docstring says on the rulebook's positions (examples.toml
``attack-heat-f451``, ``terrain-water``; NOTES I.9.5, I.12.2, II.9), and is shown whole in the docs.
"""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import numpy as np
import pytest

import simlab
from simlab.games.steel_arena import GAME
from simlab.games.steel_arena.codes import A_ACT, A_NONE, A_PICK, MAX_ACTIONS, PARAM_SPAN, SLOT_CENTRAL
from simlab.games.steel_arena.positions import fixture_position
from simlab.games.steel_arena.rules import legal_actions
from simlab.games.steel_arena.ruleset import default_ruleset
from simlab.games.steel_arena.state import PH_DISCARD, PH_HEAT, PH_WATER

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "steel_arena_sniper.py"
SPEC = f"{EXAMPLE}:Sniper"
FIXTURES = {fx["id"]: fx for fx in tomllib.loads((Path(__file__).parent / "examples.toml").read_text(encoding="utf-8"))
            ["example"]}


def _sniper_class():
    spec = importlib.util.spec_from_file_location("steel_arena_sniper_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Sniper


def _player(seat: int, n_players: int):
    player = _sniper_class()()
    player.start_game(seat, n_players, 7)
    return player


def _slot(s_arr, seat: int, tile_id: str, rules) -> int:
    rec = s_arr[0]
    for m in range(int(rec["n_mods"][seat])):
        if rules.design(int(rec["mods"][seat, m])).tile_id == tile_id:
            return m
    raise AssertionError(f"{tile_id} is not on robot {seat}")


@pytest.mark.parametrize("n_players", [2, 3])
def test_sniper_plays_complete_legal_games_and_beats_random(n_players):
    """Whole games against ``random`` in every seat order; every decision (placement, activations, heat,
    water, discards, module limit) goes through the driver's legality check. The sniper wins more than
    half of them (it won every one of these seeds when written; the bound leaves room)."""
    players = [SPEC] + ["random"] * (n_players - 1)
    result = simlab.play_batch("steel_arena", players, games=6 * n_players, seed=11, rotate=True)
    games, seats = result.games, result.seats
    assert len(games) == 6 * n_players and not result.compiled
    assert (games["end_reason"] != "none").all() and (games["turns"] > 0).all()
    mine = seats.filter(seats["player"] != "random")
    wins = int(mine["winner"].sum())
    assert wins > len(games) // 2 + len(games) // 4, f"the sniper won {wins} of {len(games)} games against random"


@pytest.mark.parametrize(("players", "options"), [
    (4, {"team": True}),
    (2, {"mode": "expert", "single_value": "up_to", "blocked_move": "stop_short"}),
], ids=["team", "expert-alternatives"])
def test_sniper_plays_legal_games_in_team_and_expert_modes(players, options):
    """Team mode (NOTES I.15.2: a team-mate is no enemy) and expert mode with the alternative movement
    readings (II.2, II.3): whole games end with only legal moves (the driver checks each one); no win
    rate is claimed here."""
    result = simlab.play_batch("steel_arena", [SPEC] + ["random"] * (players - 1), games=4, seed=3,
                               options=options)
    assert len(result.games) == 4 and (result.games["end_reason"] != "none").all()


def test_heat_goes_first_to_a_module_that_sheds_it_and_is_absorbed_while_possible():
    """examples.toml ``attack-heat-f451`` (NOTES I.9.5, II.9): P1's F451 forces 6 heat on P2 (the sniper).
    Its first pick is the passive ФРОНТ М1 (the token comes off at once); it never refuses while a module
    can still absorb, so exactly 1 unit (the rulebook's trophy) becomes damage; at E0 it discards one module
    and keeps its only attack. P2 is on side A here: robots.csv gives side B an all-round central armour 1,
    which the rulebook's example does not have."""
    fx = FIXTURES["attack-heat-f451"]
    p1, p2 = fx["robots"]
    rules, s_arr = fixture_position(default_ruleset(3), dict(fx, robots=[p1, dict(p2, side="A")]))
    f451 = _slot(s_arr, 0, "G3-A-F451", rules)
    param = ((1 * 2 + 0) * 8 + 0) * 2 + 0  # target cell 1 of the line of fire, the robot there
    legal = GAME.step(rules, s_arr, A_ACT + (f451 * 2) * PARAM_SPAN + param, GAME.new_log(0))
    sniper = _player(1, 3)
    front = _slot(s_arr, 1, "G1-D-FRONT-M1", rules)
    picks = []
    while int(s_arr[0]["phase"]) == PH_HEAT:
        assert int(s_arr[0]["actor"]) == 1
        options = legal.tolist()
        a = sniper.choose(GAME.observation(rules, s_arr, options), options)
        assert a in options
        if any(o != A_NONE for o in options):
            assert a != A_NONE, "refused heat while a module could still absorb it"
        picks.append(a)
        legal = GAME.step(rules, s_arr, a, GAME.new_log(0))
    assert picks[0] == A_PICK + front
    assert sorted(picks) == sorted([A_PICK + m for m in range(4)] + [A_PICK + SLOT_CENTRAL])
    assert int(s_arr[0]["pending_dmg"][1]) == 1
    assert int(s_arr[0]["phase"]) == PH_DISCARD and int(s_arr[0]["actor"]) == 1
    options = legal.tolist()
    a = sniper.choose(GAME.observation(rules, s_arr, options), options)
    kept = [rules.design(int(i)).tile_id for m, i in enumerate(s_arr[0]["mods"][1][:4]) if A_PICK + m != a]
    assert a in options and "G1-A-PUSHKA-M1" in kept


def test_water_cools_the_most_valuable_overheated_module():
    """examples.toml ``terrain-water`` (NOTES I.12.2, II.5): P1 (the sniper) stops on water with ПУШКА М1
    and МОРТИРА overheated; it cools МОРТИРА (arc shot 2), the stronger attack, as the fixture's owner does."""
    fx = FIXTURES["terrain-water"]
    rules, s_arr = fixture_position(default_ruleset(3), fx)
    move = _slot(s_arr, 0, "G1-M-SKOROKHOD-M1", rules)
    legal = GAME.step(rules, s_arr, A_ACT + (move * 2) * PARAM_SPAN + 0 * 8 + 1, GAME.new_log(0))
    assert int(s_arr[0]["phase"]) == PH_WATER
    options = legal.tolist()
    a = _player(0, 3).choose(GAME.observation(rules, s_arr, options), options)
    assert a == A_PICK + _slot(s_arr, 0, "G2-A-MORTIRA", rules)


def test_attacks_an_enemy_in_its_line_of_fire():
    """examples.toml ``attack-heat-f451`` position, P1 (the sniper) to act: P2 stands on its line of fire,
    so it attacks P2 (an action whose ``obs.targets`` holds P2's cell, aimed at the robot) rather than
    moving, turning or cooling (NOTES I.9.3-I.9.4)."""
    rules, s_arr = fixture_position(default_ruleset(3), FIXTURES["attack-heat-f451"])
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    legal = buf[: legal_actions(s_arr[0], buf, *rules.args)]
    options = legal.tolist()
    obs = GAME.observation(rules, s_arr, options)
    a = _player(0, 3).choose(obs, options)
    assert a >= A_ACT and (0, 0) in obs.targets(a) and ((a - A_ACT) % PARAM_SPAN // 16) % 2 == 0


def test_the_docs_show_the_example_whole():
    """docs/players.md shows examples/steel_arena_sniper.py from its first import on, so the docs cannot drift."""
    code = EXAMPLE.read_text()
    body = code[code.index("from simlab"):].strip()
    assert body in (ROOT / "docs" / "players.md").read_text(), "docs/players.md does not show the example as it is"
