"""Pendulum's built-in players: legal in every phase and every pending decision, deterministic, drawing only
from their own seat's stream, determinizing only from what the seat may see, and stronger than random play
(NOTES I.9 for the multi-player winner, I.12.11 for the solo end).

Whole games are driven by a small Python loop over the kernels (setup, legal_actions, choose_action,
apply_action); the strength tests use the compiled batch loop (``PendulumGame.play_batch``).
(The file is not named test_players.py: tests/games/sentient has that name and the test tree has no packages.)
"""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import numpy as np
import pytest

from simlab.games.pendulum.codes import (
    A_ACTION,
    A_MOVE,
    A_PASS,
    A_STRAT,
    MAX_ACTIONS,
    PD_ADJACENT,
    PD_ALT,
    PD_CONQUER,
    PD_GLORY,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_RETURN_STRAT,
    PD_SWAP_VP,
    PD_TIMED_PLACE,
    PD_VP_ANY,
    PD_WILD_GAIN,
    PD_WILD_PAY,
    PH_COUNCIL,
    PH_PENDING,
    PH_REAL,
    PH_REPLACE,
    PH_START,
    PH_STEP5,
    PH_TRIM,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.game import PendulumGame
from simlab.games.pendulum.players import (
    BUILTIN_PLAYERS,
    DEFAULT_PARAMS,
    N_CTX,
    N_PARAMS,
    N_W,
    NEG,
    choose_action,
    determinize,
    determinize_top,
    heuristic_weights,
    prepare,
    prepare_after,
    score_actions,
    score_actions_fast,
)
from simlab.games.pendulum.players.redeal import DEAL_DEPTH
from simlab.games.pendulum.players.weights import C_BESTC, C_BESTG, C_CONQ
from simlab.games.pendulum.rules import apply_action, legal_actions, new_log, setup
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE, STREAM_SEAT0

DATA = load_data()
GAME = PendulumGame()
_RULES: dict = {}
HEURISTICS = ("track_balancer", "producer", "voter")
# A quick search for the legality tests (the defaults are slower); its parameters in BUILTIN_PLAYERS order.
QUICK_SEARCH = np.array([2.0, 2.0, 0.0, 20.0, 3.0, 0.3] + [0.0] * (N_PARAMS - 6))


def ruleset(n: int, **opts):
    """The ruleset for ``n`` players with these options (cached)."""
    key = (n, tuple(sorted(opts.items())))
    if key not in _RULES:
        _RULES[key] = build_ruleset(n, DATA, opts)
    return _RULES[key]


def _params(name: str, quick: bool = True) -> np.ndarray:
    if name == "search" and quick:
        return QUICK_SEARCH
    return DEFAULT_PARAMS[BUILTIN_PLAYERS[name].kind]


def play(rules, seed: int, names: list[str], on_decision=None, max_steps: int = 200_000):
    """Play one game, seat p played by ``names[p]``; ``on_decision(before, s_arr, legal, action)`` sees every
    choice (``before``: a copy of the state when the player was asked). Returns (state array, actions)."""
    tables = rules.tables
    t = tables[0]
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(0)
    setup(s, np.uint64(seed), rules.n_players, t, log)
    kinds = [BUILTIN_PLAYERS[n].kind for n in names]
    params = [_params(n) for n in names]
    actions = []
    while not s["over"]:
        p = int(s["actor"])
        n = legal_actions(s, t, legal)
        before = s_arr.copy() if on_decision is not None else None
        a = int(choose_action(kinds[p], params[p], s_arr, legal, n, tables))
        if on_decision is not None:
            on_decision(before, s_arr, legal[:n].copy(), a)
        actions.append(a)
        apply_action(s, t, a, log)
        assert len(actions) < max_steps, "game does not end"
    return s_arr, actions


def _checker(phases: set, pendings: set):
    """A decision hook: the action is legal, and the player changed nothing in the state but its own seat's
    stream counter (its randomness comes from that stream only)."""
    def check(before, s_arr, legal, a):
        b = before[0]
        ph = int(b["phase"])
        phases.add(ph)
        if ph == PH_PENDING:
            pendings.add(int(b["pend_kind"][int(b["n_pend"]) - 1]))
        assert a in legal, f"illegal action {a} in phase {ph}"
        p = int(b["actor"])
        after = s_arr[0]
        for name in STATE_DTYPE.names:
            if name == "rng_ctr":
                ctr_b = b["rng_ctr"].copy()
                ctr_a = after["rng_ctr"].copy()
                assert ctr_a[STREAM_SEAT0 + p] >= ctr_b[STREAM_SEAT0 + p]
                ctr_b[STREAM_SEAT0 + p] = ctr_a[STREAM_SEAT0 + p] = 0
                assert np.array_equal(ctr_a, ctr_b), "a player drew from another stream"
            else:
                assert np.array_equal(b[name], after[name]), f"a player changed the state ({name})"
    return check


@pytest.mark.parametrize(
    ("n_players", "options", "names"),
    [
        (1, {"automa_level": "A"}, ["track_balancer"]),
        (1, {"automa_level": "B"}, ["producer"]),
        (1, {"automa_level": "B"}, ["voter"]),
        (1, {"automa_level": "A"}, ["random"]),
        (1, {"automa_level": "D", "character_side": "advanced"}, ["search"]),
        (1, {"automa_level": "C"}, ["producer_v1"]),
        (3, {"character_side": "advanced"}, ["track_balancer_v1", "voter_v1", "producer"]),
        (2, {}, ["track_balancer", "producer"]),
        (2, {"character_side": "advanced", "advanced_variant": "all"}, ["voter", "random"]),
        (3, {}, ["producer", "voter", "random"]),
        (3, {"character_side": "advanced"}, ["search", "track_balancer", "voter"]),
        (5, {}, ["track_balancer", "producer", "voter", "random", "producer"]),
        (5, {"character_side": "random", "advanced_variant": "all"}, ["voter", "track_balancer", "random", "producer",
                                                                       "voter"]),
    ],
)
def test_players_choose_legal_actions_in_every_phase(n_players, options, names):
    """Every player answers every decision of whole games with a legal action and leaves the state alone apart
    from its own stream (NOTES I.3.7 start of play, I.13.4 atomic actions, I.8 council, trim and step 5, the
    pending decisions of I.7 and I.11; in solo the re-placement after a lift, I.12.4). Line-ups rotate so that
    every player sits in every seat."""
    rules = ruleset(n_players, **options)
    phases: set[int] = set()
    pendings: set[int] = set()
    games = 2 if "search" in names else 3
    for g in range(games):
        line = names[g % n_players:] + names[:g % n_players]
        s_arr, _ = play(rules, 100 + g, line, _checker(phases, pendings))
        assert s_arr[0]["over"]
    assert {PH_START, PH_REAL, PH_PENDING, PH_COUNCIL, PH_STEP5} <= phases
    if n_players == 1:
        assert PH_REPLACE in phases


def test_every_phase_and_pending_kind_is_met():
    """Over a few heuristic games with advanced personas (their specials push the rarer decisions) every phase
    and most pending kinds come up, answered legally (the rest are covered by the hand-made positions below)."""
    phases: set[int] = set()
    pendings: set[int] = set()
    for n, opts in ((3, {"character_side": "advanced", "advanced_variant": "all"}), (1, {"automa_level": "A"}),
                    (4, {"character_side": "random"}), (2, {"character_side": "advanced"})):
        rules = ruleset(n, **opts)
        for g in range(5):  # the trim first comes in the fifth solo game (the players of issue 24)
            names = ["producer", "voter", "track_balancer", "producer"][:n]
            play(rules, 300 + g, names[g % n:] + names[:g % n], _checker(phases, pendings))
    assert {PH_START, PH_REAL, PH_PENDING, PH_REPLACE, PH_COUNCIL, PH_TRIM, PH_STEP5} <= phases
    assert {PD_WILD_GAIN, PD_WILD_PAY, PD_VP_ANY, PD_CONQUER, PD_RETRIEVE, PD_TIMED_PLACE, PD_ADJACENT,
            PD_ALT} <= pendings


def _mid_game(rules, seed: int, names: list[str], stop):
    """Replay a game until ``stop(state)`` holds; returns the state array there (or None)."""
    tables = rules.tables
    t = tables[0]
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(0)
    setup(s, np.uint64(seed), rules.n_players, t, log)
    kinds = [BUILTIN_PLAYERS[n].kind for n in names]
    while not s["over"]:
        if stop(s):
            return s_arr
        p = int(s["actor"])
        n = legal_actions(s, t, legal)
        apply_action(s, t, int(choose_action(kinds[p], _params(names[p]), s_arr, legal, n, tables)), log)
    return None


@pytest.mark.parametrize("kind", [PD_WILD_GAIN, PD_WILD_PAY, PD_VP_ANY, PD_CONQUER, PD_RETRIEVE, PD_GLORY,
                                  PD_GRANDE_SWAP, PD_RETURN_STRAT, PD_SWAP_VP, PD_TIMED_PLACE, PD_ADJACENT, PD_ALT])
def test_players_answer_every_pending_kind(kind):
    """Each pending decision kind (codes.PD_*), pushed onto a real mid-game position: every player answers with
    one of the rules' legal actions (whatever they are, A_NO alone included) and changes nothing else."""
    rules = ruleset(3, character_side="advanced", advanced_variant="all")
    t = rules.tables[0]
    s_arr = _mid_game(rules, 41, ["producer", "voter", "track_balancer"],
                      lambda s: s["round"] == 2 and s["phase"] == PH_REAL and s["sched_step"] >= 2)
    assert s_arr is not None
    s = s_arr[0]
    p = int(s["actor"])
    arg = {PD_GLORY: 1, PD_RETURN_STRAT: -1, PD_TIMED_PLACE: -1, PD_WILD_PAY: 0,
           PD_ADJACENT: next((d for d in range(rules.n_spaces) if rules.space_id(d).split(":")[1] == "black"), 0),
           PD_ALT: next((e for e in range(int(t["n_eff"])) if int(t["eff_nalt"][e]) > 1), -1)}.get(kind, 0)
    s["strat"][p, : int(t["n_strats"])] = np.where(s["strat"][p, : int(t["n_strats"])] > 0, 2, 0)  # something discarded
    s["res"][p] = (5, 5, 5)
    s["pend_kind"][0] = kind
    s["pend_n"][0] = 2
    s["pend_arg"][0] = arg
    s["n_pend"] = 1
    s["pend_seat"] = p
    s["resume_phase"] = PH_REAL
    s["phase"] = PH_PENDING
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    n = legal_actions(s, t, legal)
    assert n >= 1
    for name in (*HEURISTICS, "random", "search"):
        before = s_arr.copy()
        a = int(choose_action(BUILTIN_PLAYERS[name].kind, _params(name), s_arr, legal, n, rules.tables))
        _checker(set(), set())(before, s_arr, legal[:n].copy(), a)


@pytest.mark.parametrize("names", [["track_balancer", "producer", "voter"], ["search", "random", "voter"]])
def test_players_are_deterministic(names):
    """The same seed and line-up give the same game, action for action."""
    rules = ruleset(3)
    _, a1 = play(rules, 7, names)
    _, a2 = play(rules, 7, names)
    assert a1 == a2


def test_seat_choices_use_only_their_own_stream():
    """Changing the other seats' players leaves the setup and seat 0's first decision alone (the first decision
    of each seat reads only its own stream; every call's stream use is checked in play)."""
    rules = ruleset(3)
    for name in ("random", *HEURISTICS, "search"):
        first = []
        for others in (["random", "random"], ["producer", "voter"]):
            seen: list[int] = []

            def hook(before, s_arr, legal, a, seen=seen):
                if int(before[0]["actor"]) == 0 and not seen:
                    seen.append(a)
            play(rules, 11, [name, *others], hook)
            first.append(seen[0])
        assert first[0] == first[1]


def test_determinize_reads_nothing_hidden():
    """``determinize`` re-deals what the seat cannot see (deck orders, the council cards still in the deck, the
    random streams): from the true state and from the seat's view (``PendulumGame.hide``) it gives the same
    position, which keeps every deck's contents and everything public."""
    for n, opts in ((3, {}), (1, {"automa_level": "B"})):
        rules = ruleset(n, **opts)
        t = rules.tables[0]
        for r in (1, 2, 3):
            s_arr = _mid_game(rules, 17 + r, ["voter", "producer", "track_balancer"][:n],
                              lambda s, r=r: s["round"] == r and s["phase"] == PH_REAL and s["sched_step"] == 4)
            assert s_arr is not None
            for seat in range(n):
                truth = s_arr.copy()
                view = GAME.hide(s_arr, seat)
                determinize(truth[0], t, seat, np.uint64(99))
                determinize(view[0], t, seat, np.uint64(99))
                assert truth.tobytes() == view.tobytes()
                s = s_arr[0]
                g = truth[0]
                for deck, k in (("pdeck", "pdeck_n"), ("adeck", "adeck_n"), ("a_deck", "a_deck_n")):
                    kk = int(s[k])
                    assert sorted(g[deck][:kk]) == sorted(s[deck][:kk])
                kk = int(s["cdeck_n"])
                assert len(set(g["cdeck"][:kk].tolist())) == kk  # distinct standard cards
                assert not set(g["cdeck"][:kk].tolist()) & {int(c) for c in s["offer"] if c >= 0}
                for name in ("track", "res", "votes", "w_place", "prov", "display", "offer", "a_work", "timer_row"):
                    assert np.array_equal(g[name], s[name]), name


def test_determinize_top_deals_the_top_cards_and_streams_as_determinize_does():
    """``determinize_top`` (the heuristics' re-deal): the top ``DEAL_DEPTH`` cards of every deck, every random
    stream (keys and counters) and everything else as ``determinize`` deals them from the same seed; only the
    cards below the top may lie otherwise, and each deck keeps its contents."""
    for n, opts in ((3, {}), (1, {"automa_level": "B"})):
        rules = ruleset(n, **opts)
        t = rules.tables[0]
        deeper = 0
        for r in (1, 2, 3):
            s_arr = _mid_game(rules, 27 + r, ["voter", "producer", "track_balancer"][:n],
                              lambda s, r=r: s["round"] == r and s["phase"] == PH_REAL)
            assert s_arr is not None
            for seat in range(n):
                full = s_arr.copy()
                top = s_arr.copy()
                determinize(full[0], t, seat, np.uint64(7 + r))
                determinize_top(top[0], t, seat, np.uint64(7 + r), DEAL_DEPTH)
                decks = (("pdeck", "pdeck_n"), ("adeck", "adeck_n"), ("a_deck", "a_deck_n"), ("cdeck", "cdeck_n"))
                for deck, k in decks:
                    kk = int(s_arr[0][k])
                    lo = max(kk - DEAL_DEPTH, 0)
                    assert np.array_equal(full[0][deck][lo:kk], top[0][deck][lo:kk]), deck
                    assert sorted(full[0][deck][:kk]) == sorted(top[0][deck][:kk]), deck
                    deeper += lo > 0
                for name in STATE_DTYPE.names:
                    if name not in {deck for deck, _ in decks}:
                        assert np.array_equal(full[0][name], top[0][name]), name
        assert deeper > 0  # some deck was deeper than the dealt top


# ---------------------------------------------------------------- strength


def _batch(n: int, names: list[str], games: int, seed0: int, **opts):
    """Wins and legendary VP of each line-up position over ``games`` games, the line-up rotated through the
    seats (compiled batch loop)."""
    rules = ruleset(n, **opts)
    kinds = np.zeros((n, n), np.int64)
    params = np.zeros((n, n, N_PARAMS))
    for r in range(n):
        for p in range(n):
            kinds[r, p] = BUILTIN_PLAYERS[names[(p + r) % n]].kind
            params[r, p] = _params(names[(p + r) % n], quick=False)
    lineup = np.arange(games, dtype=np.int64) % n
    out = GAME.play_batch(rules, np.arange(seed0, seed0 + games, dtype=np.uint64), kinds, params, lineup)
    cols = GAME.batch_columns(rules)["seats"]
    seats = out["seats"].reshape(games, n, -1)
    wins = np.zeros(n)
    legs = np.zeros(n)
    for i in range(games):
        for p in range(n):
            who = (p + lineup[i]) % n
            wins[who] += seats[i, p, cols.index("winner")]
            legs[who] += seats[i, p, cols.index("legendary")]
    return wins, legs


@pytest.mark.parametrize("name", HEURISTICS)
def test_v1_heuristics_keep_their_weights(name):
    """The heuristics' first versions (``<name>_v1``, kept to measure the new ones against) take the same
    parameters and build the same evaluation weights."""
    v1 = BUILTIN_PLAYERS[f"{name}_v1"]
    assert v1.params == BUILTIN_PLAYERS[name].params
    w_new = np.empty(N_W)
    w_v1 = np.empty(N_W)
    heuristic_weights(BUILTIN_PLAYERS[name].kind, DEFAULT_PARAMS[BUILTIN_PLAYERS[name].kind], w_new)
    heuristic_weights(v1.kind, DEFAULT_PARAMS[v1.kind], w_v1)
    assert np.array_equal(w_new, w_v1)


def _scored_positions(rules, names, seeds):
    """(state array, legal actions) of every decision with several legal actions in games of ``names``."""
    found = []

    def keep(before, s_arr, legal, a):
        if len(legal) > 1:
            found.append((before, legal))

    for seed in seeds:
        play(rules, seed, names, keep)
    return found


def test_fast_scoring_scores_moves_exactly_and_plays_every_other_action_out():
    """``score_actions_fast`` (the heuristics' real-time scoring): moves and the pass score exactly as in the
    full look-ahead (``score_actions``, the _v1 players': a move changes only the workers' potentials); every
    other action is played out (a score above NEG). Issue 24: a cut to the best two by the static scorer lost
    strength against the _v1 players (docs/pendulum.md)."""
    rules = ruleset(1, automa_level="B")
    tables = rules.tables
    t = tables[0]
    w = np.empty(N_W)
    kind = BUILTIN_PLAYERS["producer"].kind
    heuristic_weights(kind, DEFAULT_PARAMS[kind], w)
    base = np.empty(1, dtype=STATE_DTYPE)
    work = np.empty(1, dtype=STATE_DTYPE)
    work2 = np.empty(1, dtype=STATE_DTYPE)
    legal2 = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(0)
    ctx = np.empty(N_CTX)
    bctx = np.empty(N_CTX)
    checked = 0
    for before, legal in _scored_positions(rules, ["producer"], [11, 12]):
        if int(before[0]["phase"]) != PH_REAL:
            continue
        n = len(legal)
        fast = np.empty(n)
        full = np.empty(n)
        s_arr = before.copy()
        score_actions_fast(s_arr, t, legal, n, w, fast, base, work, legal2, ctx, bctx, log)
        s_arr = before.copy()
        score_actions(s_arr, t, legal, n, w, full, base, work, work2, legal2, ctx, bctx, log, True, False)
        others = [i for i in range(n) if legal[i] != A_PASS and not (A_MOVE <= legal[i] < A_ACTION)]
        for i in range(n):
            if i in others:
                assert fast[i] > NEG / 2, legal[i]
            else:
                assert fast[i] == pytest.approx(full[i], abs=1e-6), (legal[i], fast[i], full[i])
        checked += bool(others)
    assert checked > 50, checked


def test_a_played_out_copy_keeps_the_base_scans_and_recomputes_the_rest():
    """``prepare_after`` (the context of a copy the heuristics play out): every entry as ``prepare`` computes
    it for the copy, but the two scans' results (the best province a conquer brings, the best space a free
    common or grande could reach), which come from the base position's context; measured stronger than the
    full context (docs/pendulum.md, issue 24)."""
    rules = ruleset(1, automa_level="B")
    t = rules.tables[0]
    w = np.empty(N_W)
    kind = BUILTIN_PLAYERS["voter"].kind
    heuristic_weights(kind, DEFAULT_PARAMS[kind], w)
    kept = (C_CONQ, C_BESTC, C_BESTG)
    positions = _scored_positions(rules, ["voter"], [21])
    checked = 0
    for (before, _), (after_s, _) in itertools.pairwise(positions):
        s, later = before[0], after_s[0]
        p = int(s["actor"])
        bctx = np.empty(N_CTX)
        prepare(s, t, p, w, bctx)
        exact = np.empty(N_CTX)
        prepare(later, t, p, w, exact)
        ctx = np.full(N_CTX, np.nan)
        prepare_after(later, t, p, w, ctx, bctx)
        for k in range(N_CTX):
            assert ctx[k] == (bctx[k] if k in kept else exact[k]), k
        checked += any(exact[k] != bctx[k] for k in kept)
    assert checked > 20, checked


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristics_beat_random_in_three_player_games(name):
    """Against two random players, over 60 seeded games with seat rotation, each heuristic wins at least 60%
    (measured: track_balancer 56, producer 57, voter 56 of 60; the random seats 0-1 between them): it takes
    the legendary VP (NOTES I.7.3) and brings its worst track near the parchment (I.9.2)."""
    wins, legs = _batch(3, [name, "random", "random"], 60, 2000)
    assert wins[0] >= 36, (wins, legs)
    assert wins[0] > 5 * (wins[1] + wins[2]), (wins, legs)


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristics_beat_the_automa_more_often_than_random(name):
    """Solo against the level-A Automas (NOTES I.12.11): random play never takes the legendary VP and so never
    wins; each heuristic does, in a good share of 40 games (measured: track_balancer 22, producer 24, voter 27)."""
    rand, _ = _batch(1, ["random"], 40, 3000, automa_level="A")
    wins, legs = _batch(1, [name], 40, 3000, automa_level="A")
    assert rand[0] == 0
    assert wins[0] >= 6 and wins[0] > rand[0], (wins, legs)


def test_random_passes_often_enough():
    """random passes with probability pass_prob where it may (0.5, plus its share of the uniform draw), so that
    a step (which ends when every seat passed in a row) ends."""
    rules = ruleset(3)
    passes = []

    def hook(before, s_arr, legal, a):
        if legal[0] == A_PASS and len(legal) > 1:
            passes.append(a == A_PASS)
    play(rules, 5, ["random", "random", "random"], hook)
    share = np.mean(passes)
    assert 0.4 < share < 0.7, share


# ---------------------------------------------------------------- the worked Python player

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "pendulum_producer.py"


def _example_class():
    spec = importlib.util.spec_from_file_location("pendulum_producer_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Producer


def _play_python(rules, seed: int, player) -> np.void:
    """A solo game of a Python player through the observation (``PendulumGame.observation``)."""
    t = rules.tables[0]
    s_arr = np.zeros(1, dtype=STATE_DTYPE)
    s = s_arr[0]
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    log = new_log(0)
    setup(s, np.uint64(seed), rules.n_players, t, log)
    player.start_game(0, rules.n_players, seed)
    while not s["over"]:
        n = legal_actions(s, t, legal)
        lg = [int(a) for a in legal[:n]]
        a = player.choose(GAME.observation(rules, s_arr, lg), lg)
        assert a in lg, (a, lg)
        apply_action(s, t, a, log)
    return s


def test_worked_player_plays_a_legal_game_with_worker_actions():
    """examples/pendulum_producer.py, through the observation helpers only, plays one seeded solo game against
    the level-A Automas to its end (NOTES I.12.11): every action it takes is legal (``_play_python``), and it
    takes worker actions (I.13.4), plays stratagems and conquers rather than passing its way through (measured on
    seed 700: 23 worker actions, 4 stratagems, 1 province). How often it wins (random never does) is measured in
    benchmarks/pendulum_strength.py (``--only worked``), not here."""
    rules = ruleset(1, automa_level="A")
    s = _play_python(rules, 700, _example_class()())
    assert s["over"]
    assert s["st_actions"][0] >= 10, s["st_actions"][0]
    assert s["st_strats"][0] + s["st_provinces"][0] >= 2, (s["st_strats"][0], s["st_provinces"][0])


def test_worked_player_is_the_code_in_the_docs():
    """docs/players.md shows the example file whole (from its first import on), so the docs cannot drift."""
    code = EXAMPLE.read_text()
    body = code[code.index("from simlab"):].strip()
    assert body in (ROOT / "docs" / "players.md").read_text(), "docs/players.md does not show the example as it is"


def test_observation_helpers():
    """The observation's helpers answer from the seat's view (NOTES I.5 rows and timers, I.6 blocking, I.8 council,
    I.12.10 the Automas' cards): open spaces are on rows without their timer; the tracks' distances match the
    state; the preview of a worker action is what the rules do to a copy, and the real game is untouched."""
    rules = ruleset(1, automa_level="B", omen_variant=True)
    s_arr = _mid_game(rules, 55, ["track_balancer"], lambda s: s["round"] == 2 and s["phase"] == PH_REAL
                      and s["sched_step"] == 3)
    legal = np.empty(MAX_ACTIONS, dtype=np.int64)
    n = legal_actions(s_arr[0], rules.tables[0], legal)
    obs = GAME.observation(rules, s_arr, [int(a) for a in legal[:n]])
    before = s_arr.copy()
    timers = obs.timers()
    for v in obs.open_spaces():
        assert timers[v.area]["row"] != v.row and not v.timed
        assert v.for_common or v.for_grande
    assert all(v.area == "black" for v in obs.open_spaces("black"))
    tracks = obs.my_tracks()
    for k, name in enumerate(("power", "prestige", "popularity")):
        assert tracks[name]["position"] == int(s_arr[0]["track"][0, k])
        assert tracks[name]["to_parchment"] == max(0, 14 - tracks[name]["position"])
    outlook = obs.council_outlook()
    assert set(outlook["votes"]) == {"seat0", "automa1", "automa2"}
    assert len(outlook["automa_cards"]["automa1"]) == int(s_arr[0]["a_ncards"][0]) > 0  # Omen: revealed
    assert 1 <= outlook["my_rank"] <= 3 and len(outlook["offer"]) == 5
    for a in obs.legal:
        pv = obs.action_preview(a)
        if A_ACTION <= a < A_STRAT:
            copy = s_arr.copy()
            apply_action(copy[0], rules.tables[0], a, new_log(0))
            gold = int(copy[0]["res"][0, 2]) - int(s_arr[0]["res"][0, 2])
            assert pv["change"].get("gold", 0) == gold
    ach = obs.achievement()
    assert ach["card"] is not None and set(ach["short"]) <= {"military", "culture", "gold", "wild", "votes"}
    assert [w["worker"] for w in obs.my_workers()] == [w for w in range(4) if s_arr[0]["w_place"][0, w] >= -1]
    assert obs.production("brown")[0] == rules.data.characters[int(s_arr[0]["char"][0])].prod[0].text
    assert before.tobytes() == s_arr.tobytes()
