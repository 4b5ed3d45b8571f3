"""Pendulum as text and as a trace (render.py): action descriptions, menus, the board, the JSON-lines trace
events and their documentation in docs/trace.md ("Pendulum events").

NOTES sections are those of ../shared/research/pendulum/NOTES.md ("What a trace must carry to be
checked", Part I for the vocabulary). Random games are played with the rules kernels (rules.py: py_setup /
py_step) choosing uniformly among the legal actions, but passing with probability 1/2 where a pass is legal (as the
built-in ``random`` player does: otherwise every seat would hardly ever pass in a row and a step would not end).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.core.options import resolve_options
from simlab.games.pendulum import codes as pc
from simlab.games.pendulum import render
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE
from simlab.games.pendulum.tables import CH_STRAT0

DOCS = Path(__file__).resolve().parents[3] / "docs" / "trace.md"
HAS_RULES = importlib.util.find_spec("simlab.games.pendulum.rules") is not None
HEADER = ("seq", "event", "type", "round", "phase", "schedule_step", "t", "actor", "cause_seq")
PHASES = {"setup", "real_time", "council_called", "council"}
ACTORS = {"human", "automa1", "automa2", "neutral", "system", "P1", "P2", "P3", "P4", "P5"}

_DATA = load_data()


def ruleset(n: int, options: dict | None = None):
    return build_ruleset(n, _DATA, resolve_options(_DATA.options, options or {}))


def leaves(menu) -> list[int]:
    out: list[int] = []
    for _label, choice in menu:
        out.extend(leaves(choice) if isinstance(choice, list) else [int(choice)])
    return out


def hand_made(rules, phase: int = pc.PH_REAL) -> np.ndarray:
    """A small position: every seat with a grande on space 0, a common on the mat, cards on the table."""
    n = rules.n_players
    s = np.zeros(1, STATE_DTYPE)
    r = s[0]
    r["n_players"], r["solo"], r["round"], r["phase"] = n, n == 1, 2, phase
    r["w_place"][:] = pc.W_RESERVE
    r["w_place"][:, 0] = 0
    r["w_place"][:, 1] = pc.W_MAT
    r["w_place"][:, 2] = 8
    r["w_part"][:, 2] = pc.PART_BOTTOM
    r["w_grande"][:, 0] = 1
    r["display"][:] = [0, 1, 2, -1]
    r["ach_card"] = 0
    r["legendary_on_card"] = 1
    r["offer"][:] = [0, 3, 5, 7, -1]
    r["grande_up"] = 1
    r["runs_out"][:] = [180.0, 0.0, 45.0]
    r["markers_left"] = 2
    r["purple_flips"] = 1
    r["a_work"][:] = [0, 1, 2, 3, 4, 5]
    agents = [*range(max(n, 1)), *([pc.AG_AUTOMA1, pc.AG_AUTOMA2] if n == 1 else [pc.AG_NEUTRAL] if n == 2 else [])]
    r["priv"][: len(agents)] = agents
    r["n_priv"] = len(agents)
    for p in range(n):
        first = int(rules.t["ch"][0, CH_STRAT0])
        r["strat"][p, first: first + 3] = 1
        r["strat"][p, first + 3] = 2
    r["prov"][0, 1, :3] = [5, 6, 7]
    r["prov_n"][0, 1] = 3
    return s


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_describe_every_action_code(n: int) -> None:
    """Every action code of codes.py that this ruleset can make legal is described in words (no
    ``action N`` fallback), in each phase and for each pending decision that gives it a meaning."""
    rules = ruleset(n)
    s = hand_made(rules)
    rec = s[0]
    codes = render.action_codes(rules)
    assert codes == sorted(set(codes))
    for phase in (pc.PH_START, pc.PH_REAL, pc.PH_REPLACE, pc.PH_COUNCIL, pc.PH_TRIM, pc.PH_STEP5):
        rec["phase"] = phase
        for a in codes:
            text = render.describe_action(rules, rec, a)
            assert text and not text.startswith("action "), (phase, a, text)
    rec["phase"] = pc.PH_PENDING
    rec["n_pend"] = 1
    for kind in range(1, len(pc.PENDING_NAMES)):
        rec["pend_kind"][0], rec["pend_n"][0], rec["pend_arg"][0] = kind, 2, 1
        for a in codes:
            text = render.describe_action(rules, rec, a)
            assert text and not text.startswith("action "), (kind, a, text)


def test_describe_names_spaces_cards_and_choices() -> None:
    """Descriptions name what they act on: the space with its rewards and cost, the council card id and
    effect, the province and the edge it adds, the stratagem by persona, the glory decision's track."""
    rules = ruleset(3)
    s = hand_made(rules)
    rec = s[0]
    t = rules.t
    d = next(d for d in range(int(t["n_spaces"])) if int(t["sp"][d, 3]) == 1)  # a double frame
    text = render.describe_action(rules, rec, pc.A_MOVE + 1 * pc.N_DEST + d)
    assert pc.AREA_NAMES[int(t["sp"][d, 0])] in text and " | " in text and "cost 2 gold" in text
    rec["w_place"][0, 0] = d
    alt1 = render.describe_action(rules, rec, pc.A_ACTION + 0 * 2 + 1)
    assert "choice 2 of 2" in alt1 and "pay 2 gold" in alt1
    assert "council card 4" in render.describe_action(rules, rec, pc.A_COUNCIL + 3)
    conquer = render.describe_action(rules, rec, pc.A_CONQUER + 1 * 4 + pc.M_RED)
    assert f"province {rules.province_id(1)}" in conquer and "red slot" in conquer and "adds" in conquer
    assert "top card of the province deck" in render.describe_action(rules, rec, pc.A_CONQUER + 4 * 4)
    first = int(t["ch"][int(rec["char"][0]), CH_STRAT0])
    assert rules.strat_name(first) in render.describe_action(rules, rec, pc.A_STRAT + first)
    rec["phase"], rec["n_pend"] = pc.PH_PENDING, 1
    rec["pend_kind"][0], rec["pend_arg"][0] = pc.PD_GLORY, pc.K_PRESTIGE
    assert "glory on prestige" in render.describe_action(rules, rec, pc.A_YES)
    assert "lose the prestige VP" in render.describe_action(rules, rec, pc.A_NO)
    rec["pend_kind"][0] = pc.PD_VP_ANY
    assert "+1 power VP" in render.describe_action(rules, rec, pc.A_TRACK + pc.K_POWER)


def test_describe_solo_flip_warns_of_trigger_2() -> None:
    """Solo (NOTES I.12.4): flipping green or black while purple has run out fires Automa trigger 2;
    the description says so, and a purple flip names its flip number."""
    rules = ruleset(1)
    s = hand_made(rules)
    rec = s[0]
    rec["now"] = 200.0
    assert "trigger 2" in render.describe_action(rules, rec, pc.A_FLIP + pc.T_GREEN)
    assert "purple flip 2" in render.describe_action(rules, rec, pc.A_FLIP + pc.T_PURPLE)
    rec["now"] = 100.0
    assert "trigger 2" not in render.describe_action(rules, rec, pc.A_FLIP + pc.T_GREEN)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_menu_reaches_every_action_once_hand_made(n: int) -> None:
    """A menu over many legal actions at once (moves, actions, stratagems, council cards, conquests,
    trims, flips, pass) has every action exactly once among its leaves, pass last."""
    rules = ruleset(n)
    s = hand_made(rules)
    legal = [a for a in render.action_codes(rules) if a < pc.A_WORKER or (a >= pc.A_TRIM and a < pc.A_RETURN)]
    menu = render.action_menu(rules, s[0], legal)
    got = leaves(menu)
    assert sorted(got) == sorted(legal) and len(got) == len(set(got))
    assert menu[-1][1] == pc.A_PASS
    assert len(menu) < len(legal)


# ---------------------------------------------------------------- the board


@pytest.mark.parametrize("n", [1, 2, 5])
def test_render_hand_made_board(n: int) -> None:
    """The board shows every space with its occupants (s0G1 grande, c common, AUT Automa, NEU neutral),
    the timed row, the display, the council board, each seat; a seat sees its own hand and others' counts."""
    rules = ruleset(n)
    s = hand_made(rules)
    text = render.render_state(rules, s[0], 0)
    assert "s0G1" in text and "⧗" in text and "Province display" in text and "Council board" in text
    assert rules.strat_name(int(rules.t["ch"][0, CH_STRAT0])) in text
    if n == 1:
        assert "AUT" in text and "automa1: score space" in text and "Automa board" in text
    if n == 2:
        assert "NEU" in text
    if n > 1:
        assert "hand: 3 stratagems; discarded 1" in text
    referee = render.render_state(rules, s[0], None)
    assert "referee view" in referee and "hand: 3 stratagems" not in referee


# ---------------------------------------------------------------- trace decoding


def test_decode_field_conventions() -> None:
    """The brief's field-name conventions: seats/agents, spaces (-1 mat, -2 reserve), council cards, timers,
    rows, tracks, slots, flippers, triggers, masks, tenths of seconds, booleans."""
    rules = ruleset(3)
    solo = ruleset(1)
    assert render.decode_field(rules, False, "seat", 2) == ("seat", "P3")
    assert render.decode_field(solo, True, "seat", 0) == ("seat", "human")
    assert render.decode_field(rules, False, "player", pc.AG_NEUTRAL) == ("player", "neutral")
    assert render.decode_field(solo, True, "player", pc.AG_AUTOMA2) == ("player", "automa2")
    assert render.decode_field(rules, False, "to_space", 0) == ("to_space", rules.space_id(0))
    assert render.decode_field(rules, False, "from_space", -1) == ("from_space", "mat")
    assert render.decode_field(rules, False, "from_space", -2) == ("from_space", "reserve")
    assert render.decode_field(rules, False, "card", 30) == ("card", "GRANDE")
    assert render.decode_field(rules, False, "card", 25) == ("card", "F1")
    assert render.decode_field(rules, False, "card", -1) == ("card", None)
    assert render.decode_field(rules, False, "timer", 1) == ("timer", "green")
    assert render.decode_field(rules, False, "before_row", 1) == ("before_row", "bottom")
    assert render.decode_field(rules, False, "track", 2) == ("track", "popularity")
    assert render.decode_field(rules, False, "mat_slot", 3) == ("mat_slot", "yellow")
    assert render.decode_field(rules, False, "flipper", 2) == ("flipper", "automa")
    assert render.decode_field(rules, False, "trigger", 1) == ("trigger", "human_flip")
    assert render.decode_field(rules, False, "due_mask", 5) == ("due_mask", ["purple", "black"])
    assert render.decode_field(rules, False, "runs_out_ds", 455) == ("runs_out_s", 45.5)
    assert render.decode_field(rules, False, "is_grande", 1) == ("is_grande", True)
    assert render.decode_field(rules, False, "reward_effect", 0) == ("reward_effect", rules.effect_text(0))
    assert render.decode_field(rules, False, "province", 3) == ("province", rules.province_id(3))
    assert render.decode_field(solo, True, "acard", 4) == ("acard", solo.acard_id(4))
    assert render.decode_field(rules, False, "strat", 0) == ("strat", rules.strat_name(0))
    assert render.decode_field(rules, False, "votes", 7) == ("votes", 7)


def _row(log, code: int, cause: int, fields: list[int], actor: int = -1, phase: int = pc.PH_REAL) -> int:
    n = int(log[0, 0]) + 1
    log[0, 0] = n
    log[n, 0], log[n, 1], log[n, 2], log[n, 3], log[n, 4], log[n, 5], log[n, 6] = code, cause, 1, phase, 3, 1205, actor
    log[n, FIELD0: FIELD0 + len(fields)] = fields
    return n


def test_log_to_events_header_deck_merge_and_causes() -> None:
    """Hand-made rows: the header becomes round/phase/schedule_step/t/actor; a list split over two
    EV_DECK_ORDER rows is one ``deck_order`` event; causes point at the cause's seq (also through a merged
    row); the phase follows the round-start flip and council_called."""
    rules = ruleset(1)
    log = new_log(32, pc.LOG_WIDTH)
    _row(log, pc.EV_GAME_START, -1, [5, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 3, -1, -1, -1, -1, 3], phase=pc.PH_START)
    flip_fields = [pc.T_PURPLE, pc.FL_ROUND_START, -1, 0, 1, 0, 1800, 1, 2, 0, 0, 0, 0, 7]
    r1 = _row(log, pc.EV_TIMER_FLIP, -1, flip_fields)
    r2 = _row(log, pc.EV_DECK_ORDER, r1, [pc.DECK_AUTOMA, 0, 14, *range(14)])  # n: values in the row
    _row(log, pc.EV_DECK_ORDER, r1, [pc.DECK_AUTOMA, 14, 6, 14, 15, 16, 17, 18, 19, *([-1] * 8)])
    _row(log, pc.EV_COUNCIL_CALLED, r2, [3, pc.FL_HUMAN, 0, 1], actor=0)
    events = render.log_to_events(rules, log)
    assert [e["event"] for e in events] == ["setup", "timer_flip", "deck_order", "council_called"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    setup, flip, deck, called = events
    assert setup["phase"] == "setup" and setup["seed"] == 5 and setup["level"] == "B"
    assert setup["seat0_character"] == rules.character_name(3) and setup["seat1_character"] is None
    assert flip["timer"] == "purple" and flip["flipper"] == "round_start" and flip["runs_out_s"] == 180.0
    assert flip["phase"] == "real_time" and flip["schedule_step"] == 3 and flip["t"] == 120.5
    assert flip["actor"] == "system" and flip["cause_seq"] is None
    assert deck["deck"] == "automa" and deck["cards"] == [rules.acard_id(i) for i in range(20)]
    assert deck["cause_seq"] == 2
    assert called["phase"] == "council_called" and called["actor"] == "human" and called["cause_seq"] == 3
    json.loads(json.dumps(events))
    part = log[2:].copy()  # a part as ``simlab play`` streams it: rows 2.. of the log, causes unknown
    part[0, :] = 0
    part[0, 0] = int(log[0, 0]) - 2
    streamed = render.log_to_events(rules, part)
    assert [e["event"] for e in streamed] == ["deck_order", "council_called"]
    assert [e["cause_seq"] for e in streamed] == [None, None] and streamed[0]["phase"] == "real_time"


def test_layouts_of_shared_events() -> None:
    """Events logged by several modules (council_reward by the council and the Automa module, game_end by
    endgame and the Automa module, track, pass) decode each row with the layout of the module that wrote it."""
    layouts = render.event_layouts()
    for code in (pc.EV_COUNCIL_REWARD, pc.EV_GAME_END):
        if len({m for m, _f in layouts.get(code, [])}) < 2:
            pytest.skip("both modules' layouts are not declared yet")
        mod, _f = render.choose_layout(layouts[code], code, pc.AG_AUTOMA1, pc.PH_COUNCIL, True)
        assert mod == "automa"
    mod, _f = render.choose_layout(layouts[pc.EV_COUNCIL_REWARD], pc.EV_COUNCIL_REWARD, 0, pc.PH_COUNCIL, True)
    assert mod == "council"
    mod, _f = render.choose_layout(layouts[pc.EV_GAME_END], pc.EV_GAME_END, -1, pc.PH_OVER, False)
    assert mod == "endgame"
    mod, _f = render.choose_layout(layouts[pc.EV_GAME_END], pc.EV_GAME_END, 0, pc.PH_OVER, True)
    assert mod == "automa"


@pytest.mark.parametrize("n", [1, 3])
def test_every_declared_event_decodes(n: int) -> None:
    """A row of every declared event (each layout; fields 0, then 1) decodes to every declared field (``*_ds``
    as ``*_s``), JSON-serialisable, and writes a log line; a row of an undeclared code keeps its raw ``row``."""
    rules = ruleset(n)
    layouts = render.event_layouts()
    assert layouts, "no rules module declares EVENT_FIELDS"
    for value in (0, 1):
        log = new_log(256, pc.LOG_WIDTH)
        expected = []
        for code, lays in layouts.items():
            if code == pc.EV_DECK_ORDER:
                continue
            for module, fields in lays:
                actor = pc.AG_AUTOMA1 if module == "automa" else 0
                _row(log, code, -1, [value] * len(fields), actor=actor)
                expected.append((code, fields))
        events = render.log_to_events(rules, log)
        assert len(events) == len(expected)
        for e, (code, fields) in zip(events, expected, strict=True):
            assert e["event"] == ("setup" if code == pc.EV_GAME_START else pc.EVENT_NAMES[code])
            for f in fields:
                assert _trace_key(f) in e, (e["event"], f)
        json.dumps(events)
        assert len(render.log_lines(events)) >= len(events)


# ---------------------------------------------------------------- docs/trace.md


def _pendulum_docs() -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## Pendulum events")
    nxt = text.find("\n## ", start + 5)
    return text[start:] if nxt < 0 else text[start:nxt]


def _doc_rows() -> dict[str, str]:
    rows = {}
    for line in _pendulum_docs().splitlines():
        m = re.match(r"\| `([a-z_0-9]+)`", line)
        if m:
            rows[m.group(1)] = line
    return rows


def _documented_names(row: str) -> set[str]:
    """The backticked names of a docs row, with ranges like `c0_acard`…`c2_acard` expanded."""
    names = set(re.findall(r"`([a-z_0-9]+)`", row))
    for a, b in re.findall(r"`([a-z_0-9]+)`\s*…\s*`([a-z_0-9]+)`", row):
        ma, mb = re.fullmatch(r"(\D*)(\d+)(\D*)", a), re.fullmatch(r"(\D*)(\d+)(\D*)", b)
        if ma and mb and (ma.group(1), ma.group(3)) == (mb.group(1), mb.group(3)):
            for k in range(int(ma.group(2)), int(mb.group(2)) + 1):
                names.add(f"{ma.group(1)}{k}{ma.group(3)}")
    return names


def _trace_key(name: str) -> str:
    return name[:-3] + "_s" if name.endswith("_ds") else name


def test_docs_name_every_declared_event_and_field() -> None:
    """docs/trace.md's Pendulum section has a row for every event a rules module declares, naming every
    field of every layout (as the trace spells it), and the header's keys."""
    rows = _doc_rows()
    for key in ("game_start", "final", "deck_order", "setup"):
        assert key in rows, key
    for code, layouts in render.event_layouts().items():
        if code == pc.EV_DECK_ORDER:
            continue
        name = "setup" if code == pc.EV_GAME_START else pc.EVENT_NAMES[code]
        assert name in rows, f"docs/trace.md: no row for `{name}`"
        documented = _documented_names(rows[name])
        for _module, fields in layouts:
            for f in fields:
                assert _trace_key(f) in documented, f"docs/trace.md: `{name}` lacks field `{_trace_key(f)}`"
    section = _pendulum_docs()
    for key in HEADER:
        assert f"`{key}`" in section


# ---------------------------------------------------------------- random games


def _random_game(n: int, seed: int, options: dict | None = None, check_every: int = 1):
    from simlab.games.pendulum import rules as prules

    rules = ruleset(n, options)
    state = np.zeros(1, STATE_DTYPE)
    log = new_log(1 << 16, pc.LOG_WIDTH)
    legal = np.empty(pc.MAX_ACTIONS, dtype=np.int64)
    k = prules.py_setup(state, np.uint64(seed), n, rules.tables, log, legal)
    rng = np.random.default_rng(seed)
    steps = 0
    cuts = [int(log[0, 0])]  # the log's length after setup and after every decision (simlab play's parts)
    while k > 0:
        acts = [int(a) for a in legal[:k]]
        rec = state[0]
        if steps % check_every == 0:
            for a in acts:
                text = render.describe_action(rules, rec, a)
                assert text and not text.startswith("action "), (a, text)
            got = leaves(render.action_menu(rules, rec, acts))
            assert sorted(got) == acts, "the menu must reach every legal action exactly once"
        # as the built-in ``random`` player: uniform play alone would hardly ever end a step
        a = pc.A_PASS if acts[0] == pc.A_PASS and rng.random() < 0.5 else acts[int(rng.integers(len(acts)))]
        k = prules.py_step(state, a, rules.tables, log, legal)
        steps += 1
        cuts.append(int(log[0, 0]))
        assert steps < 20000, "the game does not end"
    _random_game.cuts = cuts
    return rules, state, log


def _check_trace(rules, state, log, players: list[str]) -> list[dict]:
    events = [render.start_event(rules, state[0], players, 0), *render.log_to_events(rules, log),
              render.final_event(rules, state[0])]
    assert events[0]["event"] == "game_start" and events[-1]["event"] == "final"
    body = events[:-1]
    assert [e["seq"] for e in body] == list(range(len(body)))
    for e in events:
        for key in HEADER:
            assert key in e, (key, e["event"])
        assert e["phase"] in PHASES and e["actor"] in ACTORS, e
        assert isinstance(e["t"], float) and (e["round"] is None or 1 <= e["round"] <= 4)
        if e["cause_seq"] is not None:
            assert 0 < e["cause_seq"] < e["seq"]
        assert "row" not in e, f"{e['event']}: fields not declared in any EVENT_FIELDS"
    documented = set(_doc_rows())
    missing = {e["event"] for e in events} - documented
    assert not missing, f"events not documented in docs/trace.md: {sorted(missing)}"
    again = [json.loads(line) for line in (json.dumps(e) for e in events)]
    assert again == events
    lines = render.log_lines(events)
    assert "=== Final ===" in lines
    return events


@pytest.mark.skipif(not HAS_RULES, reason="rules.py is not written yet")
@pytest.mark.parametrize(("n", "seed", "options"), [
    (1, 11, None), (2, 12, None), (3, 13, None), (5, 15, None), (1, 21, {"time_model": "timed"}),
    (4, 14, {"time_model": "timed"}), (1, 31, {"automa_level": "E", "omen_variant": True}),
    (3, 33, {"character_side": "random", "advanced_variant": "all"}),
])
def test_random_games_trace_and_menus(n: int, seed: int, options: dict | None) -> None:
    """Random games (uniform legal choices, pass with probability 1/2): every legal action is described and
    reached exactly once by the menu; the trace has every header key on every line, seq consecutive from 0,
    cause_seq backwards, only documented events, and round-trips through JSON; the board renders for every
    seat."""
    rules, state, log = _random_game(n, seed, options)
    assert state[0]["over"]
    assert int(log[0, 1]) == 0, "the log overflowed"
    events = _check_trace(rules, state, log, [f"random{p}" for p in range(n)])
    kinds = {e["event"] for e in events}
    assert {"setup", "timer_flip", "council_votes", "game_end"} <= kinds
    if n == 1:
        assert {"automa_setup", "council_automa_vp"} <= kinds
        final = events[-1]
        assert len(final["automas"]) == 2 and final["end_branch"] is not None
    # the log as a person playing sees it: each decision's rows turned into events and lines on their own
    start = events[:1]
    streamed: list[str] = []
    cuts = _random_game.cuts
    for a, b in itertools.pairwise(cuts):
        if b > a:
            part = log[a: b + 1].copy()
            part[0, :] = 0
            part[0, 0] = b - a
            streamed += render.log_lines(start + render.log_to_events(rules, part))[len(render.log_lines(start)):]
    whole = render.log_lines(events[:-1])  # the set-up's rows come before the first decision: not streamed
    assert streamed and whole[len(whole) - len(streamed):] == streamed
    timed = (options or {}).get("time_model") == "timed"
    assert all((e["schedule_step"] is None) == timed for e in events[1:-1])
    phases = [e["phase"] for e in events[1:-1]]
    assert "real_time" in phases and "council" in phases
    for p in range(n):
        text = render.render_state(rules, state[0], p)
        assert f"seat {p} (you)" in text
    render.render_state(rules, state[0], None)
