"""Pendulum's trace fields that issue 21 asked for (docs/trace.md, "Pendulum events"; NOTES "What a trace must
carry to be checked", items 8, 9, 13, 16, 17 and 1): the cause of a trigger-2 draw, `n_under_slot` as a number,
the contested object of a `conflict`, the Automa deck before the set-up reveal, the tie-break names of
`council_reward` and `game_end`, and one meaning of `track.gain` for seats and Automas.

Whole games are played with the rules kernels choosing uniformly among the legal actions (a pass with
probability 1/2, as the built-in ``random`` player); positions are hand-made where a rule needs one.
(The file is not named test_trace.py: the test tree has no packages and other games may use that name.)
"""

from __future__ import annotations

import numpy as np

from simlab.core.kernels import new_log
from simlab.core.options import resolve_options
from simlab.games.pendulum import automa, effects, endgame, render
from simlab.games.pendulum import codes as pc
from simlab.games.pendulum import rules as prules
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE

DATA = load_data()
_RULES: dict = {}


def ruleset(n: int, **opts):
    key = (n, tuple(sorted(opts.items())))
    if key not in _RULES:
        _RULES[key] = build_ruleset(n, DATA, resolve_options(DATA.options, opts))
    return _RULES[key]


def random_game_events(n: int, seed: int, **opts) -> list[dict]:
    """A whole random game's trace events (the log's, without the header and final lines)."""
    rules = ruleset(n, **opts)
    state = np.zeros(1, STATE_DTYPE)
    log = new_log(1 << 16, pc.LOG_WIDTH)
    legal = np.empty(pc.MAX_ACTIONS, dtype=np.int64)
    k = prules.py_setup(state, np.uint64(seed), n, rules.tables, log, legal)
    rng = np.random.default_rng(seed)
    steps = 0
    while k > 0:
        acts = [int(a) for a in legal[:k]]
        a = pc.A_PASS if acts[0] == pc.A_PASS and rng.random() < 0.5 else acts[int(rng.integers(len(acts)))]
        k = prules.py_step(state, a, rules.tables, log, legal)
        steps += 1
        assert steps < 20000
    assert int(log[0, 1]) == 0
    return render.log_to_events(rules, log)


def test_trigger_2_draw_names_the_flip_that_fired_it() -> None:
    """NOTES trace item 9 / I.12.4.2: an `automa_draw` with trigger `human_flip` has `cause_seq` = the seq of
    the seat's own green or black `timer_flip` (it was null on all 509 such draws)."""
    found = 0
    for seed in range(1, 6):
        events = random_game_events(1, seed)
        by_seq = {e["seq"]: e for e in events}
        for e in events:
            if e["event"] == "automa_draw" and e["trigger"] == "human_flip":
                found += 1
                flip = by_seq[e["cause_seq"]]
                assert flip["event"] == "timer_flip" and flip["flipper"] == "human"
                assert flip["timer"] in ("green", "black") and flip["seq"] < e["seq"]
    assert found > 0


def test_n_under_slot_is_a_number() -> None:
    """docs/trace.md's decoding rule: `n_*` is a count, whatever its suffix (`n_under_slot` was written as a
    mat-slot name, "red" for 1)."""
    assert render.decode_field(ruleset(3), False, "n_under_slot", 1) == ("n_under_slot", 1)
    assert render.decode_field(ruleset(3), False, "mat_slot", 1) == ("mat_slot", "red")


def test_conflict_names_the_contested_object() -> None:
    """NOTES trace item 8: a timed-model `conflict` names the object: the action the seat higher in privilege
    took first (`action`, `action_name`), which is the very next action of that seat in the trace."""
    found = 0
    for seed in range(3):
        events = random_game_events(4, 40 + seed, time_model="timed")
        for e in events:
            if e["event"] == "conflict":
                assert e["action"] is not None and isinstance(e["action_name"], str), e
                found += 1
    assert found > 0


def test_automa_deck_before_the_set_up_reveal() -> None:
    """NOTES trace items 1-2 / I.12.2: the Automa deck order from which the set-up cards are revealed is in the
    trace (`deck_order` `automa_setup`, before `automa_setup`): its top card (last) is the purple reveal, the
    next the green one (or the same card with `setup_reveal = same_card`)."""
    for opts, same in (({}, False), ({"setup_reveal": "same_card"}, True)):
        events = random_game_events(1, 3, **opts)
        i = next(k for k, e in enumerate(events) if e["event"] == "automa_setup")
        before = [e for e in events[:i] if e["event"] == "deck_order" and e["deck"] == "automa_setup"]
        assert len(before) == 1
        cards = before[0]["cards"]
        assert sorted(cards) == sorted(render.acard_id(ruleset(1), c) for c in range(32))
        setup_ev = events[i]
        assert setup_ev["purple_acard"] == cards[-1]
        assert setup_ev["green_acard"] == (cards[-1] if same else cards[-2])


def test_deciding_key_names_the_tie_break() -> None:
    """NOTES trace item 17: `game_end.decided_by` is the deepest key that separated a player from its nearest
    rival (a tie-break when it is not the branch's first key)."""
    keys = np.array([[1, 5, 0, 0, 0, 0, 0, -2],   # parchment, 5 VP, last in privilege
                     [1, 5, 0, 0, 0, 0, 0, 0],    # parchment, 5 VP, first in privilege: privilege decided
                     [0, 0, 0, 1, -3, -1, 0, -1]], dtype=np.int64)
    assert [endgame.deciding_key(keys, 3, i) for i in range(3)] == [endgame.K_PRIV] * 2 + [endgame.K_IN_PARCHMENT]
    keys[1, endgame.K_GLORY] = 1
    assert endgame.deciding_key(keys, 3, 1) == endgame.K_GLORY
    keys[1] = keys[0]
    assert endgame.deciding_key(keys, 3, 1) == -1  # a full tie


def test_game_end_and_council_reward_carry_tie_break_names() -> None:
    """Every `game_end` row names what decided it (`decided_by`) and every `council_reward` row its tie-break
    (`tiebreak`: `none` for a seat, which chooses; an Automa's `reading_order` only when its deciding symbol
    matched several cards)."""
    for n in (1, 3):
        events = random_game_events(n, 7)
        ends = [e for e in events if e["event"] == "game_end"]
        assert ends and all(e["decided_by"] in pc.DECIDED_BY_NAMES for e in ends)
        assert any(e["decided_by"] != "none" for e in ends)
        rewards = [e for e in events if e["event"] == "council_reward"]
        assert rewards and all(e["tiebreak"] in pc.COUNCIL_TIEBREAK_NAMES for e in rewards)
        for e in rewards:
            if not str(e["seat"]).startswith("automa"):
                assert e["tiebreak"] == "none"
    symbols = [e for e in random_game_events(1, 7) if e["event"] in ("automa_symbol", "council_reward")]
    for i, e in enumerate(symbols):
        if e["event"] == "council_reward" and e["tiebreak"] == "reading_order":
            matched = [x for x in symbols[i + 1:] if x["event"] == "automa_symbol" and x["result"] == "match"]
            assert matched and matched[0]["n_matches"] > 1


def test_track_gain_is_the_applied_change_for_seats_and_automas() -> None:
    """NOTES trace item 16: `track.gain` is one thing for everyone, the change applied (`after - before`);
    `requested` is what the effect asked for. A basic seat 1 VP short of a track's end gaining 3 VP: gain 1,
    requested 3, lost 2 (it was 3 on seats and the applied amount on Automas)."""
    rules = ruleset(1)
    t = rules.tables[0]
    arr = np.zeros(1, STATE_DTYPE)
    s = arr[0]
    s["n_players"], s["solo"], s["cause"] = 1, 1, -1
    last = int(t["opts"][pc.OPT_TRACK_LAST])
    s["track"][0, 0] = last - 1
    log = new_log(10, pc.LOG_WIDTH)
    effects.add_vp(s, t, 0, 0, 3, log)
    limit = 1000
    for sp in range(2000):  # the Automa's last usable space: advance one space at a time until it stops
        before = int(s["a_score"][0])
        automa.automa_add_score(s, t, 0, 1, new_log(0, pc.LOG_WIDTH))
        if int(s["a_score"][0]) == before:
            limit = before
            break
        assert sp < 1999
    s["a_score"][0] = limit - 1
    automa.automa_add_score(s, t, 0, 4, log)
    seat, auto = (e for e in render.log_to_events(rules, log) if e["event"] == "track")
    assert (seat["gain"], seat["requested"], seat["lost"]) == (1, 3, 2)
    assert seat["after"] - seat["before"] == seat["gain"]
    assert (auto["gain"], auto["requested"], auto["lost"]) == (1, 4, 3)
    assert auto["after"] - auto["before"] == auto["gain"]
