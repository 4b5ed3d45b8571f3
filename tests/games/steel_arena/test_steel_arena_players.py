"""Steel Arena's built-in players: legal in every phase, deterministic, own stream only, and stronger
than random play (NOTES I.4-I.14 for the decisions; I.16 for what a seat may know).

The games are driven by a small Python loop over the kernels (setup, legal_actions, choose_action,
apply_action) on ``default_ruleset(n).args``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simlab.games.steel_arena.codes import MAX_ACTIONS
from simlab.games.steel_arena.players import (
    BUILTIN_PLAYERS,
    DEFAULT_PARAMS,
    N_PARAMS,
    choose_action,
    determinize,
    rekey,
)
from simlab.games.steel_arena.rules import apply_action, legal_actions, new_log, setup
from simlab.games.steel_arena.ruleset import default_ruleset
from simlab.games.steel_arena.state import (
    MAX_TILES,
    PH_ACTIVE,
    PH_DISCARD,
    PH_HEAT,
    PH_PLACE,
    STATE_DTYPE,
    STREAM_SEAT0,
)

# A quick search for the tests (the defaults are slower); its parameters in BUILTIN_PLAYERS order.
QUICK_SEARCH = np.array([3.0, 3.0, 2.0, 0.1, 3.0] + [0.0] * (N_PARAMS - 5))


def _params(name: str, quick: bool) -> np.ndarray:
    if name == "search" and quick:
        return QUICK_SEARCH
    return DEFAULT_PARAMS[BUILTIN_PLAYERS[name].kind]


def play(rules, seed: int, names: list[str], on_decision=None, max_steps: int = 20000, quick: bool = True):
    """Play one game, seat p played by ``names[p]``; ``on_decision(s_arr, legal, n, action)`` sees every choice."""
    args = rules.args
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(0)
    setup(s, np.uint64(seed), rules.n_players, *args, log)
    kinds = [BUILTIN_PLAYERS[n].kind for n in names]
    params = [_params(n, quick) for n in names]
    actions = []
    while not s["over"]:
        p = int(s["actor"])
        n = legal_actions(s, legal, *args)
        before = s_arr.copy() if on_decision is not None else None
        a = int(choose_action(kinds[p], params[p], s_arr, legal, n, *args))
        if on_decision is not None:
            on_decision(before, s_arr, legal[:n].copy(), a)
        actions.append(a)
        apply_action(s, a, *args, log)
        assert len(actions) < max_steps, "game does not end"
    return s_arr, actions


@pytest.fixture(scope="module")
def rules2():
    return default_ruleset(2)


def _check_decision(phases):
    def check(before, s_arr, legal, a):
        phases.add(int(before[0]["phase"]))
        assert a in legal, f"illegal action {a} in phase {int(before[0]['phase'])}"
        # the player changed nothing but its own seat's stream counter
        p = int(before[0]["actor"])
        after = s_arr[0]
        for name in STATE_DTYPE.names:
            if name == "rng_ctr":
                ctr_b = before[0]["rng_ctr"].copy()
                ctr_a = after["rng_ctr"].copy()
                assert ctr_a[STREAM_SEAT0 + p] >= ctr_b[STREAM_SEAT0 + p]
                ctr_b[STREAM_SEAT0 + p] = ctr_a[STREAM_SEAT0 + p] = 0
                assert np.array_equal(ctr_a, ctr_b), "a player drew from another stream"
            else:
                assert np.array_equal(before[0][name], after[name]), f"a player changed the state ({name})"
    return check


@pytest.mark.parametrize(
    ("n_players", "options", "names"),
    [
        (2, None, ["brawler", "random"]),
        (2, None, ["sniper", "collector"]),
        (2, None, ["search", "brawler"]),
        (3, None, ["random", "sniper", "brawler"]),
        (3, None, ["collector", "search", "random"]),
        (4, None, ["brawler", "sniper", "collector", "random"]),
        (4, {"team": True}, ["brawler", "collector", "sniper", "random"]),
        (2, {"mode": "expert"}, ["brawler", "sniper"]),
        (2, None, ["brawler_v1", "brawler"]),
    ],
)
def test_players_choose_legal_actions_in_every_phase(n_players, options, names):
    """Every player answers every decision with a legal action and leaves the state alone apart
    from its own stream (NOTES I.3.7 placement, I.4 turn, I.9.5 heat, I.11 discards)."""
    rules = default_ruleset(n_players, options)
    phases: set[int] = set()
    games = 3 if "search" in names else 6
    for seed in range(games):
        # rotate the line-up so every player sits in every seat
        line = names[seed % n_players:] + names[:seed % n_players]
        play(rules, 100 + seed, line, _check_decision(phases))
    assert {PH_PLACE, PH_ACTIVE, PH_DISCARD} <= phases


def test_owner_decisions_seen_in_games(rules2):
    """Over a few heuristic games the owner decisions come up (heat: I.9.5; discards: I.11.4 E0),
    and the players answer them legally (checked in play)."""
    phases: set[int] = set()
    for seed in range(20):
        play(rules2, 300 + seed, ["brawler", "sniper"], _check_decision(phases))
    assert PH_HEAT in phases and PH_DISCARD in phases


@pytest.mark.parametrize("names", [["brawler", "sniper"], ["collector", "random"], ["search", "brawler"]])
def test_players_are_deterministic(rules2, names):
    """The same seed and line-up give the same game, action for action."""
    _, a1 = play(rules2, 7, names)
    _, a2 = play(rules2, 7, names)
    assert a1 == a2


def test_seat_choices_use_only_its_own_stream(rules2):
    """Swapping the other seat's player leaves the setup and seat 0's placement identical (seat 0
    places first and reads only its own stream); every call's stream use is checked in play."""
    seed = next(sd for sd in range(100) if _first_player(rules2, sd) == 0)
    assert _setup_state(rules2, seed).tobytes() == _setup_state(rules2, seed).tobytes()
    for name in ("brawler", "sniper", "collector", "search"):
        _, acts1 = play(rules2, seed, [name, "random"])
        _, acts2 = play(rules2, seed, [name, "collector"])
        assert acts1[0] == acts2[0]


def _setup_state(rules, seed):
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    setup(s_arr[0], np.uint64(seed), rules.n_players, *rules.args, new_log(0))
    return s_arr


def _first_player(rules, seed) -> int:
    return int(_setup_state(rules, seed)[0]["first_player"])


def test_determinize_keeps_types_and_tiles(rules2):
    """Re-dealing unseen tiles (NOTES I.16) keeps every place's type, every tile exactly once, and
    what the seat knows: its own modules, face-up tiles, revealed modules."""
    # a mid-game position: replay a game and stop halfway
    _, actions = play(rules2, 12, ["brawler", "collector"])
    s_arr = _setup_state(rules2, 12)
    for a in actions[: len(actions) // 2]:
        apply_action(s_arr[0], a, *rules2.args, new_log(0))
    s = s_arr[0]
    g_arr = s_arr.copy()
    g = g_arr[0]
    rekey(g, np.uint64(99))
    determinize(g, 0, rules2.tiles, rules2.pool, rules2.setup_tab, np.empty((6, MAX_TILES), dtype=np.int64))
    tiles, pool = rules2.tiles, rules2.pool

    def multiset(x):
        insts = []
        insts += [i for i in x["cell_tile"][: x["n_cells"]] if i >= 0]
        insts += list(x["stack"][: x["stack_n"]]) + list(x["box"][: x["box_n"]])
        for q in range(x["n_players"]):
            insts += list(x["mods"][q][: x["n_mods"][q]])
        return sorted(int(i) for i in insts)

    assert multiset(g) == multiset(s)
    assert np.array_equal(g["mods"][0], s["mods"][0])  # its own modules
    for c in range(s["n_cells"]):
        if s["cell_tile"][c] >= 0:
            assert tiles[pool[g["cell_tile"][c]], 1] == s["cell_type"][c]
            if s["cell_up"][c]:
                assert g["cell_tile"][c] == s["cell_tile"][c]
    for m in range(s["n_mods"][1]):
        assert tiles[pool[g["mods"][1][m]], 1] == s["mod_type"][1][m]
        if s["revealed"][1][m]:
            assert g["mods"][1][m] == s["mods"][1][m]


def _match(rules, a: str, b: str, games: int, seed0: int, quick: bool = True) -> tuple[int, int]:
    """Wins of a and of b over ``games`` 2-player games, seats alternating."""
    wins_a = wins_b = 0
    for i in range(games):
        line = [a, b] if i % 2 == 0 else [b, a]
        s_arr, _ = play(rules, seed0 + i, line, quick=quick)
        w = s_arr[0]["winner"]
        seat_a = 0 if i % 2 == 0 else 1
        wins_a += int(w[seat_a])
        wins_b += int(w[1 - seat_a])
    return wins_a, wins_b


def _binom_tail(k: int, n: int) -> float:
    """P(X >= k) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, j) for j in range(k, n + 1)) / 2.0**n


@pytest.mark.parametrize("name", ["brawler", "sniper", "collector"])
def test_heuristics_beat_random(rules2, name):
    """Over 200 seeded games with seat rotation each heuristic beats random play by a wide margin:
    measured 981-998 wins of 1000 in a compiled loop; the test asks for 170 of 200 (85%), far beyond
    a one-sided binomial test against a coin at 1e-3 (122 of 200)."""
    wins, losses = _match(rules2, name, "random", 200, 5000)
    assert _binom_tail(wins, 200) < 1e-3
    assert wins >= 170, (wins, losses)


def test_owner_policy_on_f451_example():
    """examples.toml ``attack-heat-f451`` (NOTES I.9.5, II.9, II.10): the owner absorbs heat while it
    can (all 4 modules and the central one, as in the example), first on the passive ФРОНТ М1 (its token
    is shed at once), then the least valuable, the central module last; it then discards its least
    valuable module at E0 (I.11.4)."""
    import tomllib
    from pathlib import Path

    from simlab.games.steel_arena.codes import A_ACT, A_NONE, A_PICK, PARAM_SPAN, SLOT_CENTRAL
    from simlab.games.steel_arena.players import KIND_BRAWLER, module_value
    from simlab.games.steel_arena.positions import fixture_position

    examples = tomllib.loads((Path(__file__).parent / "examples.toml").read_text())["example"]
    fixture = next(e for e in examples if e["id"] == "attack-heat-f451")
    rules, s_arr = fixture_position(default_ruleset(3), fixture)
    args = rules.args
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    n = legal_actions(s, legal, *args)
    # the fixture's sequence: ЛАЗЕР М2 (slot 4, beam, speed) spends P2's central armour, then F451 (slot 5)
    apply_action(s, A_ACT + 4 * 2 * PARAM_SPAN, *args, new_log(0))
    n = legal_actions(s, legal, *args)
    f451 = next(int(a) for a in legal[:n] if a >= A_ACT and (a - A_ACT) // PARAM_SPAN == 5 * 2
                and ((a - A_ACT) % PARAM_SPAN // 16) % 2 == 0)
    apply_action(s, f451, *args, new_log(0))
    picks = []
    while int(s["phase"]) == PH_HEAT:
        assert int(s["actor"]) == 1
        n = legal_actions(s, legal, *args)
        a = int(choose_action(KIND_BRAWLER, DEFAULT_PARAMS[KIND_BRAWLER], s_arr, legal, n, *args))
        assert a != A_NONE or n == 1  # never refuses while a module can take a token
        picks.append(a - A_PICK)
        apply_action(s, a, *args, new_log(0))
    assert picks == [3, 1, 2, 0, SLOT_CENTRAL]  # ФРОНТ М1 (shed), СКОРОХОД, ОСЬ, ПУШКА, central
    # E0: the damage is paid with the least valuable module
    while int(s["phase"]) != PH_DISCARD and not s["over"]:
        n = legal_actions(s, legal, *args)
        apply_action(s, int(choose_action(KIND_BRAWLER, DEFAULT_PARAMS[KIND_BRAWLER], s_arr, legal, n, *args)),
                     *args, new_log(0))
    assert int(s["phase"]) == PH_DISCARD and int(s["discard_seat"]) == 1
    n = legal_actions(s, legal, *args)
    a = int(choose_action(KIND_BRAWLER, DEFAULT_PARAMS[KIND_BRAWLER], s_arr, legal, n, *args))
    values = [module_value(rules.tiles, int(rules.pool[s["mods"][1][m]])) for m in range(int(s["n_mods"][1]))]
    assert values[a - A_PICK] == min(values)


def test_brawler_scores_the_pickup_before_the_end_phase(rules2):
    """The brawler scores an activation where it ends, before the end phase (issue 24): the module
    tile its robot stands on then counts as the module it picks up at E1 (NOTES E1: the active robot
    takes the module tile it stands on), its module value times the module weight, not a plain
    module; once the game drags on (STALL_TURNS) the cell's refill from the generation-3 stack
    counts too. The end-phase view (``before_end`` false, brawler_v1 and the search) is unchanged."""
    from simlab.games.steel_arena.players import (
        KIND_BRAWLER,
        MV0,
        STALL_PULL,
        STALL_TURNS,
        TY_TERRAIN,
        W_MOD,
        evaluate,
        heuristic_weights,
        module_value,
        weights_size,
    )

    args = rules2.args
    tiles, pool, robots, _setup_tab, cells, nbr, opts = args
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    setup(s, np.uint64(5), 2, *args, new_log(0))
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    while int(s["phase"]) != PH_ACTIVE:
        legal_actions(s, legal, *args)
        apply_action(s, int(legal[0]), *args, new_log(0))
    p = int(s["active"])
    others = {int(s["cell"][q]) for q in range(2) if q != p}
    c = next(c for c in range(int(s["n_cells"])) if s["cell_tile"][c] >= 0
             and s["cell_type"][c] != TY_TERRAIN and c not in others)
    s["cell"][p] = c
    d = int(pool[s["cell_tile"][c]])
    w = np.empty(weights_size(tiles))
    heuristic_weights(KIND_BRAWLER, DEFAULT_PARAMS[KIND_BRAWLER], w)
    assert module_value(tiles, d) != 1.0  # the test tells a plain module from this one

    def gap() -> float:
        heuristic_weights(KIND_BRAWLER, DEFAULT_PARAMS[KIND_BRAWLER], w)
        before = evaluate(s, p, w, tiles, pool, robots, cells, nbr, opts, True)
        after = evaluate(s, p, w, tiles, pool, robots, cells, nbr, opts, False)
        assert w.shape[0] == MV0 + tiles.shape[0]
        return before - after

    assert gap() == pytest.approx(w[W_MOD] * (module_value(tiles, d) - 1.0))
    s["turn"] = STALL_TURNS * 2 + 1
    assert int(s["stack_n"]) > 0
    assert gap() == pytest.approx(w[W_MOD] * (module_value(tiles, d) - 1.0) + STALL_PULL)
