"""The solo Automa module (``simlab.games.pendulum.automa``): NOTES I.12, I.13.7-9, II.6-13, II.18-20.

Every fixture of ``examples.toml`` (the booklet's worked examples and rule cases) is checked here by its id,
mostly on hand-made states (``np.zeros(1, STATE_DTYPE)`` with the fields the rule reads) and the real solo
ruleset (``build_ruleset(1, ...)``); the triggers go through the workers and timers modules that fire them.
"""

from __future__ import annotations

import pathlib
import tomllib

import numpy as np
import pytest

from simlab.core.kernels import new_log
from simlab.games.pendulum import automa, clock, timers, workers
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AG_AUTOMA2,
    DECK_AUTOMA,
    DECK_AUTOMA_SETUP,
    DEST_MAT,
    EB_NO_LEGENDARY,
    EB_ONLY_ONE,
    EB_OUTSIDE,
    EB_PARCHMENT,
    EV_AUTOMA_DISCARD,
    EV_AUTOMA_DRAW,
    EV_AUTOMA_FLIP,
    EV_AUTOMA_MOVE,
    EV_AUTOMA_SETUP,
    EV_AUTOMA_SYMBOL,
    EV_COUNCIL_AUTOMA_VP,
    EV_COUNCIL_REWARD,
    EV_DECK_ORDER,
    EV_GAME_END,
    EV_TIMER_FLIP,
    EV_TRACK,
    EV_WORKER_LIFT,
    EV_WORKER_MOVE,
    EV_WORKER_PLACE,
    EVENT_NAMES,
    FL_AUTOMA,
    FL_HUMAN,
    FL_ROUND_START,
    LOG_WIDTH,
    PART_BOTTOM,
    PART_TOP,
    PH_REAL,
    PH_REPLACE,
    PH_STEP5,
    ROW_BOTTOM,
    ROW_TOP,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TIMER_NAMES,
    TR_BOTTOM_BOX,
    TR_COUNCIL_VP,
    TR_HUMAN_FLIP,
    TR_OMEN,
    TR_STEP5,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.data import load_data
from simlab.games.pendulum.eventlog import FIELD0
from simlab.games.pendulum.ruleset import build_ruleset
from simlab.games.pendulum.state import STATE_DTYPE
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
    C_F1,
    C_GRANDE,
    FLIP_NAMES,
    FLIP_NONE,
    N_AUTOMA_CARDS,
)

HERE = pathlib.Path(__file__).parent
EXAMPLES = tomllib.loads((HERE / "examples.toml").read_text(encoding="utf-8"))["example"]
FX = {e["id"]: e for e in EXAMPLES}
DATA = load_data()
ALL_FIELDS = {**workers.EVENT_FIELDS, **timers.EVENT_FIELDS, **automa.EVENT_FIELDS}
AREA = {"none": -1, "purple": T_PURPLE, "green": T_GREEN}
COMBO = {name: i for i, name in enumerate(FLIP_NAMES)}
ROW = {"top": ROW_TOP, "bottom": ROW_BOTTOM}
TRACKS = ("power", "prestige", "popularity")
_RULES: dict[str, object] = {}


def rules_for(**options):
    """The solo ruleset for ``options`` (cached)."""
    options = {k: ",".join(v) if isinstance(v, list) else v for k, v in options.items()}
    key = repr(sorted(options.items()))
    if key not in _RULES:
        _RULES[key] = build_ruleset(1, DATA, options)
    return _RULES[key]


def make_state(rules, round_: int = 2):
    """A solo state in the real-time phase: all timers on the top row with sand running, purple flipped once
    (the round start), 2 markers left, the Automa workers of the standard setup (purple top small, green top
    large), the 32 cards in the deck (index order, card 31 on top), privilege Automa 1, Automa 2, the seat."""
    st = np.zeros(1, dtype=STATE_DTYPE)
    s = st[0]
    t = rules.t
    s["solo"] = 1
    s["n_players"] = 1
    s["round"] = round_
    s["level"] = int(t["opts"][3])
    s["phase"] = PH_REAL
    s["cause"] = -1
    s["lifted_seat"] = -1
    s["lifted_worker"] = -1
    s["offer"][:] = -1
    s["display"][:] = -1
    s["ach_card"] = -1
    s["a_cards"][:] = -1
    s["priv"][:3] = (AG_AUTOMA1, AG_AUTOMA2, 0)
    s["n_priv"] = 3
    s["timer_row"][:] = ROW_TOP
    s["now"] = 50.0
    s["runs_out"][:] = 1000.0
    s["purple_flips"] = 1
    s["markers_left"] = 2
    s["w_place"][0] = (W_MAT, W_MAT, W_RESERVE, W_RESERVE)
    s["w_grande"][0] = (1, 0, 0, 0)
    sp = rules.space_index
    s["a_work"][:] = [sp(f"1-3p:{x}") for x in ("purple:bottom:0", "purple:bottom:1", "purple:top:1",
                                                   "green:bottom:0", "green:bottom:1", "green:top:0")]
    s["a_deck"][:N_AUTOMA_CARDS] = np.arange(N_AUTOMA_CARDS)
    s["a_deck_n"] = N_AUTOMA_CARDS
    return st


def stack_deck(s, cards):
    """Put ``cards`` on top of the deck, the first one drawn first."""
    rest = [c for c in range(N_AUTOMA_CARDS) if c not in cards]
    order = rest + list(reversed(cards))
    s["a_deck"][: len(order)] = order
    s["a_deck_n"] = len(order)
    s["a_disc_n"] = 0


def find_card(rules, **want) -> int:
    """The first Automa card index whose fields match ``want`` (move, flip, discard, vp, votes, symbol)."""
    cols = {"move": AC_MOVE, "flip": AC_FLIP, "discard": AC_DISCARD, "vp": AC_VP, "votes": AC_VOTES,
            "symbol": AC_SYMBOL}
    ac = rules.t["acard"]
    for c in range(N_AUTOMA_CARDS):
        if all(int(ac[c, cols[k]]) == v for k, v in want.items()):
            return c
    raise AssertionError(f"no Automa card with {want}")


def sym(name: str) -> int:
    return [s.symbol for s in DATA.symbols].index(name)


def cards_with_symbols(rules, names) -> list[int]:
    """Distinct Automa cards showing the reward symbols ``names``, in that order."""
    used: list[int] = []
    for name in names:
        used.append(next(c for c in range(N_AUTOMA_CARDS)
                         if c not in used and int(rules.t["acard"][c, AC_SYMBOL]) == sym(name)))
    return used


def events(log, kind=None):
    """The logged rows as dicts (event name, cause, actor and the named fields)."""
    out = []
    for r in range(1, int(log[0, 0]) + 1):
        code = int(log[r, 0])
        d = {"code": code, "event": EVENT_NAMES[code], "row": r, "cause": int(log[r, 1]), "actor": int(log[r, 6])}
        for i, name in enumerate(ALL_FIELDS.get(code, ())):
            d[name] = int(log[r, FIELD0 + i])
        if kind is None or code == kind:
            out.append(d)
    return out


def a_work_ids(rules, s) -> list[str]:
    return sorted(rules.space_id(int(d)) for d in s["a_work"])


def check_invariant(rules, s) -> None:
    """I.12.2.7: 3 Automa workers in each of purple and green, at most one per space, every row holding one."""
    t = rules.t
    work = [int(d) for d in s["a_work"]]
    assert len(set(work)) == 6
    for area in (T_PURPLE, T_GREEN):
        mine = [d for d in work if t["sp"][d, 0] == area]
        assert len(mine) == 3
        assert {int(t["sp"][d, 1]) for d in mine} == {ROW_TOP, ROW_BOTTOM}


# ---------------------------------------------------------------- council: VP and votes


@pytest.mark.parametrize("fx_id", ["council_vp_automa1_round2_level_D", "council_vp_automa2_round2_level_D",
                                   "council_vp_automa1_round3_level_D"])
def test_council_vp_booklet_example(fx_id):
    """The booklet's council VP example (level D, 2 time markers): 10 and 9 VP in round 2, 15 in round 3."""
    fx = FX[fx_id]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for(automa_level=inp["level"])
    t = rules.t
    a = inp["automa"] - 1
    assert automa.council_vp_value(sum(inp["cards_vp"]), exp["scoring_card_vp_bonus"],
                                   exp["time_marker_vp"]) == (exp["vp_gained"], exp["vp_gained"])
    # the same through the kernel: this Automa's cards on top of the deck, the other's any 3
    st = make_state(rules, inp["round"])
    s = st[0]
    s["markers_automa"] = inp["time_markers_on_automa_board"]
    if inp["cards_vp"] == [2, 0, 1]:  # the booklet's cards: (2 VP, -1 vote), (0, +2), (1, +3)
        mine = [find_card(rules, vp=2, votes=-1), find_card(rules, vp=0, votes=2), find_card(rules, vp=1, votes=3)]
    else:
        mine = []
        for v in inp["cards_vp"]:
            mine.append(next(c for c in range(N_AUTOMA_CARDS) if c not in mine and int(t["acard"][c, AC_VP]) == v))
    assert [int(t["acard"][c, AC_VP]) for c in mine] == inp["cards_vp"]
    other = [c for c in range(N_AUTOMA_CARDS) if c not in mine][:3]
    stack_deck(s, mine + other if a == 0 else other + mine)
    log = new_log(200, LOG_WIDTH)
    automa.automa_council_vp(s, t, log)
    assert int(s["a_score"][a]) == exp["vp_gained"]
    assert list(s["a_cards"][a]) == mine
    row = next(e for e in events(log, EV_COUNCIL_AUTOMA_VP) if e["player"] == AG_AUTOMA1 + a)
    assert row["vp0"] + row["vp1"] + row["vp2"] == exp["card_vp_sum"]
    assert row["vp_bonus"] == exp["scoring_card_vp_bonus"]
    assert row["markers"] == exp["time_marker_vp"]
    assert row["raw"] == row["gained"] == exp["vp_gained"]
    assert (row["score_before"], row["score_after"]) == (0, exp["vp_gained"])
    assert row["votes0"] + row["votes1"] + row["votes2"] + row["votes_bonus"] + row["markers"] == \
        automa.automa_votes_raw(s, t, a)
    assert [row["c0_acard"], row["c1_acard"], row["c2_acard"]] == mine
    draws = events(log, EV_AUTOMA_DRAW)
    assert len(draws) == 6 and all(d["trigger"] == TR_COUNCIL_VP for d in draws)
    assert [d["player"] for d in draws] == [AG_AUTOMA1] * 3 + [AG_AUTOMA2] * 3
    assert int(s["a_disc_n"]) == 0 and int(s["a_deck_n"]) == N_AUTOMA_CARDS - 6


@pytest.mark.parametrize("fx_id", ["council_votes_automa1_round2_level_D", "council_votes_automa1_round3_level_D"])
def test_council_votes_booklet_example(fx_id):
    """The booklet's votes example: -1 + 2 + 3 + 5 + 2 = 11 in round 2, 15 in round 3 (level D)."""
    fx = FX[fx_id]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for(automa_level=inp["level"])
    t = rules.t
    st = make_state(rules, inp["round"])
    s = st[0]
    s["markers_automa"] = inp["time_markers_on_automa_board"]
    cards = [find_card(rules, vp=2, votes=-1), find_card(rules, vp=0, votes=2), find_card(rules, vp=1, votes=3)]
    assert [int(t["acard"][c, AC_VOTES]) for c in cards] == inp["cards_votes"]
    s["a_cards"][0] = cards
    s["a_ncards"][0] = 3
    assert int(t["scoring"][3, inp["round"] - 1, 1]) == exp["scoring_card_votes_bonus"]  # level D
    assert automa.automa_votes_raw(s, t, 0) == exp["votes"]
    assert automa.automa_votes(s, t, 0) == exp["votes"]
    assert automa.votes_value(exp["card_votes_sum"], exp["scoring_card_votes_bonus"], exp["time_marker_votes"],
                              20) == (exp["votes"], exp["votes"])


def _patched(rules, vp_bonus=None, votes_bonus=None):
    """A copy of the tables whose scoring card gives the fixture's bonus in every level and round."""
    tab = rules.tables.copy()
    if vp_bonus is not None:
        tab[0]["scoring"][:, :, 0] = vp_bonus
    if votes_bonus is not None:
        tab[0]["scoring"][:, :, 1] = votes_bonus
    return tab


@pytest.mark.parametrize("fx_id", ["council_votes_floor_zero", "council_votes_cap_twenty"])
def test_council_votes_clamped(fx_id):
    """Votes below 0 become 0, above 20 become 20 (I.12.10 step I)."""
    inp, exp = FX[fx_id]["inputs"], FX[fx_id]["expected"]
    assert automa.votes_value(sum(inp["cards_votes"]), inp["scoring_card_votes_bonus"],
                              inp["time_markers_on_automa_board"], 20) == (exp["raw_sum"], exp["votes"])
    rules = rules_for()
    tab = _patched(rules, votes_bonus=inp["scoring_card_votes_bonus"])
    st = make_state(rules)
    s = st[0]
    s["markers_automa"] = inp["time_markers_on_automa_board"]
    used: list[int] = []
    for v in inp["cards_votes"]:
        used.append(next(c for c in range(N_AUTOMA_CARDS) if c not in used and int(tab[0]["acard"][c, AC_VOTES]) == v))
    s["a_cards"][1] = used
    s["a_ncards"][1] = 3
    assert automa.automa_votes_raw(s, tab[0], 1) == exp["raw_sum"]
    assert automa.automa_votes(s, tab[0], 1) == exp["votes"]


def test_council_vp_floor_zero():
    """council_vp_floor_zero: a negative VP sum gives 0 VP; the marker does not move back."""
    inp, exp = FX["council_vp_floor_zero"]["inputs"], FX["council_vp_floor_zero"]["expected"]
    assert automa.council_vp_value(sum(inp["cards_vp"]), inp["scoring_card_vp_bonus"],
                                   inp["time_markers_on_automa_board"]) == (exp["raw_sum"], exp["vp_gained"])
    rules = rules_for()
    tab = _patched(rules, vp_bonus=inp["scoring_card_vp_bonus"])
    st = make_state(rules)
    s = st[0]
    s["a_score"][:] = (5, 5)
    cards = [find_card(rules, vp=v) for v in (0, 1)]
    zero2 = next(c for c in range(N_AUTOMA_CARDS) if c != cards[0] and int(tab[0]["acard"][c, AC_VP]) == 0)
    stack_deck(s, [cards[0], cards[1], zero2])
    log = new_log(100, LOG_WIDTH)
    automa.automa_council_vp(s, tab[0], log)
    row = events(log, EV_COUNCIL_AUTOMA_VP)[0]
    assert (row["raw"], row["gained"]) == (exp["raw_sum"], exp["vp_gained"])
    assert int(s["a_score"][0]) == 5


def test_council_markers_count_for_each_automa():
    """Time markers on the shared Automa board add +1 VP and +1 vote to EACH Automa (VI.6)."""
    rules = rules_for(automa_level="D")
    t = rules.t
    for markers in (0, 2):
        st = make_state(rules, 2)
        s = st[0]
        s["markers_automa"] = markers
        automa.automa_council_vp(s, t, new_log(0, LOG_WIDTH))
        base = [sum(int(t["acard"][c, AC_VP]) for c in s["a_cards"][a]) + 5 for a in range(2)]
        assert list(s["a_score"]) == [max(0, b + markers) for b in base]
        for a in range(2):
            v = sum(int(t["acard"][c, AC_VOTES]) for c in s["a_cards"][a]) + 5 + markers
            assert automa.automa_votes(s, t, a) == min(20, max(0, v))


# ---------------------------------------------------------------- council: rewards


def _board(rules, s, board: dict) -> None:
    for i in range(5):
        s["offer"][i] = rules.council_index(board[f"R{i + 1}"])
    s["grande_up"] = 1 if board["GRANDE"] == "available" else 0


def test_reward_selection_skip_grande_take_first_province():
    """reward_selection_skip_grande_take_first_province: the grande symbols are skipped (the Automa owns a
    grande); the province symbol matches 25 and 17, and 25 (earlier in reading order) is discarded."""
    fx = FX["reward_selection_skip_grande_take_first_province"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for(council_reading_order=inp["council_reading_order"])
    t = rules.t
    st = make_state(rules, inp["round"])
    s = st[0]
    _board(rules, s, inp["council_board"])
    a = inp["automa"] - 1
    s["a_grande"][a] = 1
    used = cards_with_symbols(rules, inp["cards_reward_symbols"])
    s["a_cards"][a] = used
    s["a_ncards"][a] = 3
    s["a_score"][a] = 10
    log = new_log(100, LOG_WIDTH)
    card = automa.automa_reward(s, t, a, 2, log)  # third place: no rank bonus
    assert rules.council_id(card) == exp["card_discarded"]
    rows = events(log, EV_AUTOMA_SYMBOL)
    assert [rules.symbol_name(r["symbol"]) for r in rows] == exp["symbols_skipped"] + [exp["matching_symbol"]]
    assert [r["result"] for r in rows] == [automa.SY_GRANDE_OWNED, automa.SY_GRANDE_OWNED, automa.SY_MATCH]
    last = rows[-1]
    found = [rules.council_id(last[f"m{i}_card"]) for i in range(last["n_matches"])]
    assert found == exp["matching_cards_in_reading_order"]
    removed = [rules.council_id(rules.council_index(v)) for k, v in inp["council_board"].items()
               if k.startswith("R") and int(s["offer"][int(k[1]) - 1]) < 0]
    assert removed == exp["removed_from_board"]
    assert int(s["grande_up"]) == 1 and int(s["a_grande"][a]) == 1
    assert int(s["a_score"][a]) == 10 + exp["fallback_vp"]  # the Automa gains nothing from the card
    assert int(s["a_fallback"][a]) == 0
    rw = events(log, EV_COUNCIL_REWARD)[0]
    assert rw["seat"] == AG_AUTOMA1 and rules.council_id(rw["card"]) == "25" and rw["fallback_vp"] == 0
    assert [rules.council_id(rw[f"r{i}_card"]) for i in range(1, 6)] == [inp["council_board"][f"R{i}"]
                                                                       for i in range(1, 6)]


def test_reward_selection_no_match_gives_1vp():
    """reward_selection_no_match_gives_1vp: no symbol matches -> nothing is discarded, 1 VP instead."""
    fx = FX["reward_selection_no_match_gives_1vp"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    t = rules.t
    st = make_state(rules, inp["round"])
    s = st[0]
    _board(rules, s, inp["council_board"])
    a = inp["automa"] - 1
    s["a_grande"][a] = 1
    used = cards_with_symbols(rules, inp["cards_reward_symbols"])
    s["a_cards"][a] = used
    s["a_ncards"][a] = 3
    offer = s["offer"].copy()
    log = new_log(100, LOG_WIDTH)
    assert automa.automa_reward(s, t, a, 2, log) == -1
    assert exp["card_discarded"] == "none"
    assert list(s["offer"]) == list(offer) and int(s["grande_up"]) == 1
    assert int(s["a_score"][a]) == exp["fallback_vp"] and int(s["a_fallback"][a]) == 1
    assert [r["result"] for r in events(log, EV_AUTOMA_SYMBOL)] == [automa.SY_GRANDE_OWNED] * 2 + [automa.SY_NO_MATCH]
    assert events(log, EV_COUNCIL_REWARD)[0]["fallback_vp"] == 1


def test_reward_selection_automa_takes_grande():
    """reward_selection_automa_takes_grande: an empty grande slot and a first grande symbol take the grande
    card: the slot fills, the card turns down for this council, no other card leaves the board."""
    fx = FX["reward_selection_automa_takes_grande"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    t = rules.t
    st = make_state(rules, inp["round"])
    s = st[0]
    _board(rules, s, inp["council_board"])
    a = inp["automa"] - 1
    used = cards_with_symbols(rules, inp["cards_reward_symbols"])
    s["a_cards"][a] = used
    s["a_ncards"][a] = 3
    offer = s["offer"].copy()
    log = new_log(100, LOG_WIDTH)
    card = automa.automa_reward(s, t, a, 1, log)
    assert rules.council_id(card) == exp["card_taken"] == "GRANDE"
    assert int(s["a_grande"][a]) == 1 and exp["automa_grande_slot_filled"]
    assert int(s["grande_up"]) == 0  # face down until the end of this council
    assert list(s["offer"]) == list(offer) and exp["other_cards_removed"] == []
    assert int(s["a_score"][a]) == 1 + exp["fallback_vp"]  # second place: +1, no fallback
    # the other Automa, whose grande symbol now finds the card down, goes on to its next symbol
    s["a_cards"][1 - a] = used
    s["a_ncards"][1 - a] = 3
    log = new_log(100, LOG_WIDTH)
    card2 = automa.automa_reward(s, t, 1 - a, 0, log)
    rows = events(log, EV_AUTOMA_SYMBOL)
    assert rows[0]["result"] == automa.SY_GRANDE_DOWN
    assert rows[1]["result"] == automa.SY_MATCH and card2 == rules.council_index("25")


def test_final_council_deny_legendary_then_worst_track():
    """final_council_deny_legendary_then_worst_track: Automa 1 takes F5 (the human lacks the legendary);
    Automa 2 takes F4 (prestige, the worst track: 11 from the last space)."""
    fx = FX["final_council_deny_legendary_then_worst_track"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    t = rules.t
    st = make_state(rules, inp["round"])
    s = st[0]
    s["offer"][:] = [rules.council_index(c) for c in inp["final_cards_available"]]
    s["legendary"][0] = int(inp["human_has_legendary"])
    s["track"][0] = [inp["human_tracks"][k] for k in TRACKS]
    assert automa.human_track_distances(s, t) == tuple(exp["human_distance_to_last_space"][k] for k in TRACKS)
    log = new_log(100, LOG_WIDTH)
    c1 = automa.automa_reward(s, t, 0, 0, log)
    c2 = automa.automa_reward(s, t, 1, 1, log)
    assert rules.council_id(c1) == exp["automa1_takes"]
    assert rules.council_id(c2) == exp["automa2_takes"]
    assert sorted(rules.council_id(c) for c in s["offer"] if c >= 0) == exp["remaining_for_human"]
    assert list(s["a_score"]) == [2, 1]  # rank bonus only: no benefit from the cards, no fallback
    rows = events(log, EV_AUTOMA_SYMBOL)
    assert [r["result"] for r in rows] == [automa.SY_FINAL_F5, automa.SY_FINAL_PREF]
    assert rows[0]["is_human_legendary"] == 0 and rows[0]["is_f5_offered"] == 1 and rows[1]["is_f5_offered"] == 0
    assert (rows[1]["dist_power"], rows[1]["dist_prestige"], rows[1]["dist_popularity"]) == (9, 11, 6)
    assert rules.council_id(rows[1]["m0_card"]) == "F4"  # the worst track's card comes first in the preference
    assert all(r["symbol"] == -1 for r in rows)  # reward symbols are ignored


def test_final_council_worst_track_tie():
    """final_council_worst_track_tie: power and popularity tie as worst; power is higher on the mat -> F3."""
    fx = FX["final_council_worst_track_tie"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for(track_order_on_mat=inp["track_order_on_mat"])
    t = rules.t
    st = make_state(rules, inp["round"])
    s = st[0]
    s["offer"][:] = [rules.council_index(c) for c in inp["final_cards_available"]]
    s["legendary"][0] = 1
    s["track"][0] = [inp["human_tracks"][k] for k in TRACKS]
    d = automa.human_track_distances(s, t)
    worst = [TRACKS[k] for k in range(3) if d[k] == max(d)]
    assert worst == exp["worst_tracks"]
    assert automa.rank_tracks(*d, 0, 1, 2)[0] == 0
    assert automa.rank_tracks(*d, 2, 1, 0)[0] == 2  # popularity higher on the mat -> popularity
    card = automa.automa_reward(s, t, 0, 2, new_log(0, LOG_WIDTH))
    assert rules.council_id(card) == exp["automa_takes"]
    assert rules.council_index("F5") in list(s["offer"])  # the human has the legendary: F5 is left


def test_final_council_preference_when_cards_gone():
    """II.9: worst track's card, then F1, then the 2nd and 3rd worst; the glory of an advanced human counts."""
    rules = rules_for(automa_level="D")  # the advanced variant: glory counts
    t = rules.t
    st = make_state(rules, 4)
    s = st[0]
    s["advanced"][0] = 1
    s["legendary"][0] = 1
    s["track"][0] = (21, 18, 21)
    s["glory"][0] = (0, 0, 2)  # popularity is at the end with 2 glory: -2 from the last space
    f = {c: rules.council_index(c) for c in ("F1", "F2", "F3", "F4", "F5")}
    assert automa.human_track_distances(s, t) == (0, 3, -2)
    s["offer"][:] = [f["F1"], f["F2"], f["F3"], -1, f["F5"]]  # F4 (prestige, the worst) is gone
    assert automa.automa_reward(s, t, 0, 0, new_log(0, LOG_WIDTH)) == f["F1"]
    assert automa.automa_reward(s, t, 1, 1, new_log(0, LOG_WIDTH)) == f["F3"]  # power (0) before popularity (-2)
    s["offer"][:] = [-1, f["F2"], -1, -1, -1]
    log = new_log(50, LOG_WIDTH)
    assert automa.automa_reward(s, t, 0, 2, log) == f["F2"]
    s["offer"][:] = [-1, -1, -1, -1, f["F5"]]
    before = int(s["a_score"][1])
    assert automa.automa_reward(s, t, 1, 2, new_log(0, LOG_WIDTH)) == -1  # only F5 left: the default, 1 VP
    assert int(s["a_score"][1]) == before + 1 and int(s["a_fallback"][1]) == 1
    assert f["F1"] == C_F1


def test_privilege_vp_three_players():
    """privilege_vp_three_players: ranks 1, 2, 3 give an Automa 2, 1, 0 VP (3-player bonus), in any council."""
    fx = FX["privilege_vp_three_players"]
    rules = rules_for()
    t = rules.t
    for round_ in (2, 4):
        got = []
        for rank in fx["inputs"]["ranks"]:
            st = make_state(rules, round_)
            s = st[0]
            s["offer"][:] = [rules.council_index(c) for c in ("1", "2", "3", "4", "5")] if round_ < 4 else \
                [rules.council_index(c) for c in ("F1", "F2", "F3", "F4", "F5")]
            s["legendary"][0] = 1
            s["track"][0] = (10, 10, 10)
            s["a_cards"][0] = [find_card(rules, symbol=sym("production"))] * 3  # matches card 1
            s["a_ncards"][0] = 3
            log = new_log(50, LOG_WIDTH)
            automa.automa_reward(s, t, 0, rank - 1, log)  # council.py passes the 0-based place
            assert int(s["a_fallback"][0]) == 0
            got.append(int(s["a_score"][0]))
            assert events(log, EV_COUNCIL_REWARD)[0]["bonus_vp"] == got[-1]
        assert got == fx["expected"]["vp"]


# ---------------------------------------------------------------- real time: triggers


def _lift_setup(rules, from_id: str, black_row: int):
    st = make_state(rules)
    s = st[0]
    s["timer_row"][T_BLACK] = black_row
    d = rules.space_index(from_id)
    s["w_place"][0, 1] = d
    return st, d


def test_trigger_bottom_box_any_area():
    """trigger_bottom_box_any_area: a worker leaving a black bottom box draws one card BEFORE it is placed
    again (lift, Automa, place); a move out of a bottom box by A_MOVE behaves the same."""
    fx = FX["trigger_bottom_box_any_area"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    t = rules.t
    act = inp["human_action"]
    st, _ = _lift_setup(rules, act["from"], ROW[inp["black_timer_row"]])
    s = st[0]
    s["w_part"][0, 1] = PART_BOTTOM
    log = new_log(100, LOG_WIDTH)
    workers.lift_worker(s, t, 0, 1, log)
    s["phase"] = PH_REPLACE
    workers.move_worker(s, t, 0, 1, rules.space_index(act["to"]), log)
    evs = events(log)
    assert int(s["a_disc_n"]) == exp["automa_cards_drawn"] == 1
    assert int(s["st_triggers"][TR_BOTTOM_BOX]) == 1
    kinds = [e["code"] for e in evs]
    assert kinds[0] == EV_WORKER_LIFT and kinds[1] == EV_AUTOMA_DRAW and kinds[-1] == EV_WORKER_PLACE
    assert exp["order"] == ["worker_leaves_bottom_box", "automa_card_resolved", "worker_placed"]
    assert evs[1]["trigger"] == TR_BOTTOM_BOX and evs[1]["cause"] == evs[0]["row"]
    assert int(s["w_place"][0, 1]) == rules.space_index(act["to"])
    # the same leaving by a plain move
    st, _ = _lift_setup(rules, act["from"], ROW[inp["black_timer_row"]])
    s = st[0]
    s["w_part"][0, 1] = PART_BOTTOM
    log = new_log(100, LOG_WIDTH)
    workers.move_worker(s, t, 0, 1, DEST_MAT, log)
    kinds = [e["code"] for e in events(log)]
    assert kinds[:2] == [EV_WORKER_MOVE, EV_AUTOMA_DRAW] and int(s["a_disc_n"]) == 1


def test_no_trigger_top_frame():
    """no_trigger_top_frame: moving a worker out of a top frame draws nothing."""
    fx = FX["no_trigger_top_frame"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    act = inp["human_action"]
    st, _ = _lift_setup(rules, act["from"], ROW[inp["black_timer_row"]])
    s = st[0]
    s["w_part"][0, 1] = PART_TOP
    log = new_log(100, LOG_WIDTH)
    workers.move_worker(s, rules.t, 0, 1, rules.space_index(act["to"]), log)
    assert int(s["st_triggers"].sum()) == exp["automa_cards_drawn"] == 0
    assert not events(log, EV_AUTOMA_DRAW)
    assert int(s["a_deck_n"]) == N_AUTOMA_CARDS


def test_trigger_human_flips_green_while_purple_run_out():
    """trigger_human_flips_green_while_purple_run_out: only the seat's green/black flip while purple has run
    out draws a card; a purple flip, or a flip made by an Automa card, does not."""
    fx = FX["trigger_human_flips_green_while_purple_run_out"]
    rules = rules_for()
    t = rules.t
    blank = find_card(rules, move=-1, flip=FLIP_NONE, discard=0)
    got = []
    for case in fx["inputs"]["cases"]:
        st = make_state(rules)
        s = st[0]
        stack_deck(s, [blank])
        tm = TIMER_NAMES.index(case["timer"])
        s["runs_out"][tm] = 40.0
        if case["purple_run_out"]:
            s["runs_out"][T_PURPLE] = 40.0
        log = new_log(100, LOG_WIDTH)
        if case["flipper"] == "human":
            clock.human_flip(s, t, 0, tm, log)
        else:
            timers.flip_timer(s, t, tm, FL_AUTOMA, log, -1)
        got.append(len(events(log, EV_AUTOMA_DRAW)))
        assert int(s["st_triggers"][TR_HUMAN_FLIP]) == got[-1]
        if got[-1]:
            assert events(log, EV_AUTOMA_DRAW)[0]["trigger"] == TR_HUMAN_FLIP
    assert got == fx["expected"]["automa_cards_drawn"]


def test_deck_empty_reshuffle_before_draw():
    """deck_empty_reshuffle_before_draw: the discard becomes the deck, then one card goes onto the discard."""
    fx = FX["deck_empty_reshuffle_before_draw"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    st = make_state(rules)
    s = st[0]
    s["a_deck_n"] = inp["deck_size"]
    s["a_disc"][: inp["discard_size"]] = np.arange(inp["discard_size"])
    s["a_disc_n"] = inp["discard_size"]
    log = new_log(100, LOG_WIDTH)
    c = automa.automa_act(s, rules.t, TR_BOTTOM_BOX, log)
    assert 0 <= c < inp["discard_size"]
    assert (int(s["a_deck_n"]), int(s["a_disc_n"])) == (exp["deck_size_after"], exp["discard_size_after"])
    assert int(s["a_disc"][0]) == c
    assert sorted([*s["a_deck"][: exp["deck_size_after"]], c]) == list(range(inp["discard_size"]))
    draw = events(log, EV_AUTOMA_DRAW)[0]
    assert draw["is_reshuffled"] == int(exp["reshuffled"]) and draw["acard"] == c
    assert (draw["deck_n"], draw["disc_n"]) == (exp["deck_size_after"], exp["discard_size_after"])
    order = events(log, EV_DECK_ORDER)
    assert sum(o["n"] for o in order) == inp["discard_size"] and order[0]["row"] < draw["row"]


def test_card_resolution_order():
    """card_resolution_order: move first, then flip (I.12.5)."""
    fx = FX["card_resolution_order"]
    card = fx["inputs"]["card"]
    rules = rules_for()
    c = find_card(rules, move=AREA[card["move_area"]], flip=COMBO[card["flip_combo"]],
                  discard=card["province_discard_slot"])
    st = make_state(rules)
    s = st[0]
    s["runs_out"][T_PURPLE] = 40.0
    stack_deck(s, [c])
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_BOTTOM_BOX, log)
    steps = []
    for e in events(log):
        if e["code"] == EV_AUTOMA_MOVE:
            steps.append(f"worker_move:{TIMER_NAMES[e['area_timer']]}")
        elif e["code"] == EV_AUTOMA_FLIP:
            steps.append(f"timer_flip:{FLIP_NAMES[e['flip_combo']]}")
        elif e["code"] == EV_AUTOMA_DISCARD:
            steps.append("province_discard")
    assert steps == fx["expected"]["steps"]
    assert int(s["purple_flips"]) == 2  # the flip was made (purple had run out)


def test_worker_move_purple_four_cases():
    """worker_move_purple_four_cases: the leftmost Automa worker in the timed row goes to the empty space."""
    fx = FX["worker_move_purple_four_cases"]
    rules = rules_for()
    for case, move in zip(fx["inputs"]["cases"], fx["expected"]["moves"], strict=True):
        st = make_state(rules)
        s = st[0]
        s["a_work"][:3] = [rules.space_index(x) for x in case["automa_workers"]]
        s["timer_row"][T_PURPLE] = ROW[case["purple_timer_row"]]
        green = list(s["a_work"][3:])
        log = new_log(20, LOG_WIDTH)
        dest = automa.automa_move(s, rules.t, T_PURPLE, log)
        e = events(log, EV_AUTOMA_MOVE)[0]
        assert rules.space_id(e["from_space"]) == move["from"]
        assert rules.space_id(e["to_space"]) == move["to"] == rules.space_id(dest)
        assert e["timed_row"] == ROW[case["purple_timer_row"]]
        assert e["before_mask"] == sum(1 << int(d) for d in [*(rules.space_index(x) for x in case["automa_workers"]),
                                                              *green])
        assert sorted(rules.space_id(int(d)) for d in s["a_work"][:3]) == sorted(
            [x for x in case["automa_workers"] if x != move["from"]] + [move["to"]])
        assert list(s["a_work"][3:]) == green
        check_invariant(rules, s)


def test_worker_move_green_and_mirror_rows():
    """The same rule in green; with mirror_rows the other worker of a 2-worker timed row moves (II.6)."""
    for mirror, expect_from in ((False, "1-3p:green:top:0"), (True, "1-3p:green:top:1")):
        rules = rules_for(mirror_rows=mirror)
        st = make_state(rules)
        s = st[0]
        s["a_work"][3:] = [rules.space_index(x) for x in ("1-3p:green:top:0", "1-3p:green:top:1",
                                                           "1-3p:green:bottom:1")]
        s["timer_row"][T_GREEN] = ROW_TOP
        log = new_log(20, LOG_WIDTH)
        automa.automa_move(s, rules.t, T_GREEN, log)
        e = events(log, EV_AUTOMA_MOVE)[0]
        assert rules.space_id(e["from_space"]) == expect_from
        assert rules.space_id(e["to_space"]) == "1-3p:green:bottom:0"


def test_automa_flip_purple_first_second_flip():
    """automa_flip_purple_first_second_flip: purple (its 2nd flip) is flipped, green is not; the legendary
    token leaves the card (the legendary cut-off), the marker goes onto the Automa board."""
    fx = FX["automa_flip_purple_first_second_flip"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    c = find_card(rules, move=-1, flip=COMBO[inp["card"]["flip_combo"]])
    st = make_state(rules, inp["round"])
    s = st[0]
    s["runs_out"][T_PURPLE] = 40.0
    s["runs_out"][T_GREEN] = 40.0
    s["purple_flips"] = inp["purple_flips_this_round"]
    s["legendary_on_card"] = int(inp["legendary_token_on_achievement"])
    s["ach_card"] = 0
    s["markers_automa"] = inp["time_markers_on_automa_board"]
    stack_deck(s, [c])
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_HUMAN_FLIP, log)
    flips = events(log, EV_TIMER_FLIP)
    assert [TIMER_NAMES[f["timer"]] for f in flips] == exp["flipped"]
    assert flips[0]["flipper"] == FL_AUTOMA
    assert int(s["purple_flips"]) == exp["purple_flips_this_round"]
    assert bool(s["legendary_on_card"]) == exp["legendary_token_on_achievement"]
    assert int(s["markers_automa"]) == exp["time_markers_on_automa_board"]
    assert bool(s["council_called"]) == exp["council_called"]
    assert int(s["timer_row"][T_GREEN]) == ROW_TOP and int(s["timer_row"][T_PURPLE]) == ROW_BOTTOM
    fe = events(log, EV_AUTOMA_FLIP)[0]
    assert fe["flipped_timer"] == T_PURPLE and fe["reason"] == automa.FX_FLIPPED
    assert fe["is_purple_out"] == 1 and fe["is_other_out"] == 1
    assert flips[0]["cause"] == fe["row"]
    assert int(s["st_automa_flips"]) == 1 and int(s["st_automa_purple"]) == 1


def test_automa_flip_third_purple_calls_council():
    """automa_flip_third_purple_calls_council: the 3rd purple flip by a card calls council and puts the last
    marker on the Automa board; a later card's flip symbol is ignored (II.7)."""
    fx = FX["automa_flip_third_purple_calls_council"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    c = find_card(rules, move=-1, flip=COMBO[inp["card"]["flip_combo"]])
    st = make_state(rules)
    s = st[0]
    s["runs_out"][T_PURPLE] = 40.0
    s["purple_flips"] = inp["purple_flips_this_round"]
    s["markers_left"] = 1
    s["markers_automa"] = inp["time_markers_on_automa_board"]
    c2 = find_card(rules, move=-1, flip=COMBO["purple>green"])
    stack_deck(s, [c, c2])
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_BOTTOM_BOX, log)
    assert [TIMER_NAMES[f["timer"]] for f in events(log, EV_TIMER_FLIP)] == exp["flipped"]
    assert int(s["purple_flips"]) == exp["purple_flips_this_round"]
    assert int(s["markers_automa"]) == exp["time_markers_on_automa_board"]
    assert bool(s["council_called"]) == exp["council_called"]
    # after council is called: green has run out too, but the next card flips nothing
    s["now"] = 2000.0
    rows = s["timer_row"].copy()
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_BOTTOM_BOX, log)
    fe = events(log, EV_AUTOMA_FLIP)[0]
    assert fe["reason"] == automa.FX_COUNCIL_CALLED and fe["flipped_timer"] == -1
    assert list(s["timer_row"]) == list(rows) and not events(log, EV_TIMER_FLIP)


def test_automa_flip_other_timer_or_nothing():
    """automa_flip_other_timer_or_nothing: purple running -> the card's green/black timer if run out, else
    nothing; no marker goes to the Automa board."""
    fx = FX["automa_flip_other_timer_or_nothing"]
    rules = rules_for()
    for case, flipped, markers in zip(fx["inputs"]["cases"], fx["expected"]["flipped"],
                                      fx["expected"]["time_markers_to_automa_board"], strict=True):
        st = make_state(rules)
        s = st[0]
        for tm, key in ((T_PURPLE, "purple_run_out"), (T_GREEN, "green_run_out"), (T_BLACK, "black_run_out")):
            s["runs_out"][tm] = 40.0 if case[key] else 1000.0
        stack_deck(s, [find_card(rules, move=-1, flip=COMBO[case["card"]])])
        log = new_log(100, LOG_WIDTH)
        automa.automa_act(s, rules.t, TR_BOTTOM_BOX, log)
        assert [TIMER_NAMES[f["timer"]] for f in events(log, EV_TIMER_FLIP)] == flipped
        assert int(s["markers_automa"]) == markers
        fe = events(log, EV_AUTOMA_FLIP)[0]
        assert fe["reason"] == (automa.FX_FLIPPED if flipped else automa.FX_NOT_RUN_OUT)
        # the decision function alone
        assert automa.flip_decision(COMBO[case["card"]], case["purple_run_out"],
                                    case["green_run_out"] if case["card"] == "purple>green" else case["black_run_out"],
                                    False, False)[0] == (TIMER_NAMES.index(flipped[0]) if flipped else -1)


def test_flip_decision_table():
    """flip_decision: purple first, then the other timer, never in step 5 or after council is called."""
    pg = COMBO["purple>green"]
    pb = COMBO["purple>black"]
    assert automa.flip_decision(pg, True, True, False, False) == (T_PURPLE, automa.FX_FLIPPED)
    assert automa.flip_decision(pb, True, False, False, False) == (T_PURPLE, automa.FX_FLIPPED)
    assert automa.flip_decision(pb, False, True, False, False) == (T_BLACK, automa.FX_FLIPPED)
    assert automa.flip_decision(pg, False, False, False, False) == (-1, automa.FX_NOT_RUN_OUT)
    assert automa.flip_decision(pg, True, True, True, False) == (-1, automa.FX_COUNCIL_CALLED)
    assert automa.flip_decision(pg, True, True, False, True) == (-1, automa.FX_STEP5)


@pytest.mark.parametrize("fx_id", ["province_discard_second_from_top", "province_discard_empty_slot"])
def test_province_discard(fx_id):
    """province_discard_second_from_top / province_discard_empty_slot: the marked slot (from the top) is
    discarded; an empty slot does nothing; the gap is not refilled (the human's choice)."""
    fx = FX[fx_id]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    st = make_state(rules)
    s = st[0]
    names = {n: 10 + i for i, n in enumerate(["P_a", "P_b", "P_c", "P_d"])}
    s["display"][:] = [names.get(n, -1) for n in inp["display"]]
    c = find_card(rules, discard=inp["card"]["province_discard_slot"])
    stack_deck(s, [c])
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_BOTTOM_BOX, log)
    back = {v: k for k, v in names.items()}
    assert [back.get(int(x), "") for x in s["display"]] == exp["display"]
    e = events(log, EV_AUTOMA_DISCARD)[0]
    assert e["discard_pos"] == inp["card"]["province_discard_slot"]
    assert (back[e["province"]] if e["province"] >= 0 else "none") == exp["discarded"]
    assert int(s["removed_n"]) == (0 if exp["discarded"] == "none" else 1)


def test_council_step5_moves_only():
    """council_step5_moves_only: in council step 5 only the card's worker move resolves."""
    fx = FX["council_step5_moves_only"]
    card = fx["inputs"]["card"]
    rules = rules_for()
    c = find_card(rules, move=AREA[card["move_area"]], flip=COMBO[card["flip_combo"]])
    st = make_state(rules)
    s = st[0]
    s["phase"] = PH_STEP5
    s["runs_out"][:] = 40.0  # every timer has run out: a flip would happen outside step 5
    stack_deck(s, [c])
    rows = s["timer_row"].copy()
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_STEP5, log)
    steps = [f"worker_move:{TIMER_NAMES[e['area_timer']]}" for e in events(log, EV_AUTOMA_MOVE)]
    assert steps == fx["expected"]["steps"]
    assert not events(log, EV_TIMER_FLIP) and list(s["timer_row"]) == list(rows)
    assert events(log, EV_AUTOMA_FLIP)[0]["reason"] == automa.FX_STEP5
    assert int(s["st_triggers"][TR_STEP5]) == 1
    # a province discard is ignored too
    st = make_state(rules)
    s = st[0]
    s["display"][:] = (1, 2, 3, 4)
    stack_deck(s, [find_card(rules, discard=2)])
    log = new_log(100, LOG_WIDTH)
    automa.automa_act(s, rules.t, TR_STEP5, log)
    assert list(s["display"]) == [1, 2, 3, 4] and events(log, EV_AUTOMA_DISCARD)[0]["is_ignored"] == 1


def test_timed_model_card_time():
    """Timed model: each card drawn in real time costs the seat automa_card_resolution_s."""
    rules = rules_for(time_model="timed")
    st = make_state(rules)
    s = st[0]
    s["ready_at"][0] = 55.0
    automa.automa_act(s, rules.t, TR_BOTTOM_BOX, new_log(0, LOG_WIDTH))
    assert s["ready_at"][0] == pytest.approx(55.0 + rules.options["automa_card_resolution_s"])
    s["ready_at"][0] = 10.0  # stale: counted from now
    automa.automa_act(s, rules.t, TR_BOTTOM_BOX, new_log(0, LOG_WIDTH))
    assert s["ready_at"][0] == pytest.approx(50.0 + rules.options["automa_card_resolution_s"])
    st = make_state(rules_for())
    automa.automa_act(st[0], rules_for().t, TR_BOTTOM_BOX, new_log(0, LOG_WIDTH))
    assert st[0]["ready_at"][0] == 0.0


def test_many_draws_keep_the_invariant_and_the_deck():
    """Random cards from a real setup: the worker invariant holds, deck + discard stay the 32 cards."""
    rules = rules_for()
    t = rules.t
    st = make_state(rules)
    s = st[0]
    s["rng_key"][:] = np.arange(1, s["rng_key"].shape[0] + 1, dtype=np.uint64) * np.uint64(7919)
    automa.automa_setup(s, t, new_log(0, LOG_WIDTH))
    rng = np.random.default_rng(5)
    for i in range(200):
        s["timer_row"][:] = rng.integers(0, 2, 3)
        s["runs_out"][:] = 1000.0
        s["council_called"] = 1  # no flips: only the moves and discards matter here
        automa.automa_act(s, t, TR_BOTTOM_BOX if i % 2 else TR_HUMAN_FLIP, new_log(0, LOG_WIDTH))
        check_invariant(rules, s)
        n = int(s["a_deck_n"]) + int(s["a_disc_n"])
        assert n == N_AUTOMA_CARDS
        assert sorted([*s["a_deck"][: s["a_deck_n"]], *s["a_disc"][: s["a_disc_n"]]]) == list(range(N_AUTOMA_CARDS))


# ---------------------------------------------------------------- setup and round reset


def test_setup_automa_workers():
    """setup_automa_workers: bottom rows filled; a purple worker symbol puts purple's top worker in the small
    space, the green card without the green symbol puts green's in the large space; the deck is whole."""
    fx = FX["setup_automa_workers"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    t = rules.t
    st = make_state(rules)
    s = st[0]
    cp = find_card(rules, move=AREA[inp["purple_card"]["move_area"]])
    cg = next(c for c in range(N_AUTOMA_CARDS) if c != cp and int(t["acard"][c, AC_MOVE]) ==
              AREA[inp["green_card"]["move_area"]])
    automa.place_setup_workers(s, t, cp, cg)
    assert a_work_ids(rules, s) == sorted(exp["automa_workers"])
    check_invariant(rules, s)
    # and the other way round: green symbol on the green card, none on the purple card
    cg2 = find_card(rules, move=T_GREEN)
    cp2 = find_card(rules, move=-1)
    automa.place_setup_workers(s, t, cp2, cg2)
    assert a_work_ids(rules, s) == sorted(["1-3p:purple:bottom:0", "1-3p:purple:bottom:1", "1-3p:purple:top:0",
                                           "1-3p:green:bottom:0", "1-3p:green:bottom:1", "1-3p:green:top:1"])
    # the whole setup kernel: the logged cards decide the spaces, the deck is shuffled and complete
    for same in ("separate_cards", "same_card"):
        r2 = rules_for(setup_reveal=same)
        for seed in range(1, 6):
            st = make_state(r2)
            s = st[0]
            s["rng_key"][:] = np.uint64(seed * 1000003)
            log = new_log(50, LOG_WIDTH)
            automa.automa_setup(s, r2.t, log)
            e = events(log, EV_AUTOMA_SETUP)[0]
            assert (int(s["a_deck_n"]), int(s["a_disc_n"])) == (exp["deck_size_after"], exp["discard_size_after"])
            assert sorted(s["a_deck"][:32]) == list(range(32))
            assert [e[f"w{i}_space"] for i in range(6)] == list(s["a_work"])
            assert e["is_same_card"] == (same == "same_card")
            if same == "same_card":
                assert e["purple_acard"] == e["green_acard"]
            else:
                assert e["purple_acard"] != e["green_acard"]
            probe = make_state(r2)[0]
            automa.place_setup_workers(probe, r2.t, e["purple_acard"], e["green_acard"])
            assert list(probe["a_work"]) == list(s["a_work"])
            check_invariant(r2, s)
            decks = events(log, EV_DECK_ORDER)
            first = [v for o in decks if o["deck"] == DECK_AUTOMA_SETUP for v in [o[f"v{i}"] for i in range(o["n"])]]
            order = [v for o in decks if o["deck"] == DECK_AUTOMA for v in [o[f"v{i}"] for i in range(o["n"])]]
            assert order == list(s["a_deck"][:32])
            # the deck the set-up cards were revealed from (issue 21): purple from the top (last), green next
            assert sorted(first) == list(range(32)) and first[-1] == e["purple_acard"]
            assert first[-2 if same != "same_card" else -1] == e["green_acard"]
            assert list(s["a_score"]) == [0, 0] and list(s["a_grande"]) == [0, 0]


def test_round_reset_reshuffles_all_32():
    """Council step IV: deck, discard and the 6 council cards all go back into one shuffled deck."""
    rules = rules_for()
    t = rules.t
    st = make_state(rules)
    s = st[0]
    s["rng_key"][:] = np.uint64(99)
    automa.automa_council_vp(s, t, new_log(0, LOG_WIDTH))
    for _ in range(5):
        automa.automa_act(s, t, TR_BOTTOM_BOX, new_log(0, LOG_WIDTH))
    assert int(s["a_deck_n"]) == 21 and int(s["a_disc_n"]) == 5
    log = new_log(20, LOG_WIDTH)
    automa.automa_round_reset(s, t, log)
    assert int(s["a_deck_n"]) == 32 and int(s["a_disc_n"]) == 0 and list(s["a_ncards"]) == [0, 0]
    assert sorted(s["a_deck"][:32]) == list(range(32)) and list(s["a_deck"][:32]) != list(range(32))
    assert sum(o["n"] for o in events(log, EV_DECK_ORDER)) == 32


# ---------------------------------------------------------------- score track and levels


def test_levels_advanced_flag():
    """levels_advanced_flag: levels D-F impose the advanced variant and open the green (glory) spaces; at A-C
    the marker stops on the last non-green space."""
    fx = FX["levels_advanced_flag"]
    exp = fx["expected"]
    rules = rules_for()
    t = rules.t
    assert [bool(x) for x in t["lvl_adv"]] == exp["advanced_rules"]
    assert [lv.level for lv in DATA.levels if lv.recommended_first] == [exp["recommended_first"]]
    assert rules_for().options["automa_level"] == exp["recommended_first"]
    for letter, adv in zip(fx["inputs"]["levels"], exp["advanced_rules"], strict=True):
        r = rules_for(automa_level=letter)
        st = make_state(r)
        s = st[0]
        s["a_score"][0] = 50
        log = new_log(10, LOG_WIDTH)
        moved = automa.automa_add_score(s, r.t, 0, 30, log)
        assert int(s["a_score"][0]) == (74 if adv else 54)
        assert moved == int(s["a_score"][0]) - 50
        e = events(log)[0]
        assert (e["before"], e["after"], e["gain"], e["lost"]) == (50, int(s["a_score"][0]), moved, 30 - moved)
        assert e["track"] == automa.TRACK_AUTOMA and e["player"] == AG_AUTOMA1
        assert (e["glory_before"], e["glory_after"]) == (0, 20 if adv else 0)  # space 74 = the 20th green space
        assert automa.score_limit(r.t, adv) == (74 if adv else 54)


# ---------------------------------------------------------------- the end


def _end_state(rules, legendary, tracks, a1, a2, glory=(0, 0, 0)):
    st = make_state(rules, 4)
    s = st[0]
    s["legendary"][0] = int(legendary)
    s["track"][0] = [tracks[k] for k in TRACKS] if isinstance(tracks, dict) else tracks
    s["glory"][0] = glory
    s["a_score"][:] = (a1, a2)
    return st


def _winner(s) -> str:
    if int(s["winner"][0]):
        return "human"
    return {1: "automa1", 2: "automa2"}[int(s["automa_won"])]


def test_endgame_distance_labels():
    """endgame_distance_labels: the label on the marker's space, or on the space before it."""
    fx = FX["endgame_distance_labels"]
    inp, exp = fx["inputs"], fx["expected"]
    t = rules_for().t
    assert automa.distance_from_label(t, inp["automa1_space"]) == (exp["automa1_label_read"], inp["automa1_space"])
    assert automa.distance_from_label(t, inp["automa2_space"]) == (exp["automa2_label_read"], inp["automa2_space"] - 1)
    assert -automa.distance_from_label(t, inp["automa1_space"])[0] == exp["automa1_distance"]
    assert -automa.distance_from_label(t, inp["automa2_space"])[0] == exp["automa2_distance"]
    assert automa.distance_from_label(t, 0) == (-16, 0)  # the start space carries -16


def test_endgame_no_legendary_loses():
    """endgame_no_legendary_loses: without the legendary VP the human loses, whatever the tracks."""
    fx = FX["endgame_no_legendary_loses"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    tracks = (21, 21, 21) if inp["human_all_tracks_in_parchment"] else (10, 10, 10)
    st = _end_state(rules, inp["human_has_legendary"], tracks, inp["automa1_space"], inp["automa2_space"])
    s = st[0]
    log = new_log(10, LOG_WIDTH)
    automa.solo_end(s, rules.t, log)
    assert bool(s["winner"][0]) == exp["human_wins"]
    assert int(s["end_branch"]) == EB_NO_LEGENDARY and int(s["rank"][0]) == 3
    assert _winner(s) == "automa2"  # II.13: the higher score-track space (7 > 5)
    assert sorted([int(s["rank"][AG_AUTOMA1]), int(s["rank"][AG_AUTOMA2])]) == [1, 2]
    rows = events(log, EV_GAME_END)
    assert [r["seat"] for r in rows] == [0, AG_AUTOMA1, AG_AUTOMA2]
    assert rows[0]["has_legendary"] == 0 and rows[1]["has_legendary"] == 1 and rows[0]["is_parchment"] == 1


def test_endgame_only_one_reached():
    """endgame_only_one_reached: the only player in the parchment wins (the human needs all 3 tracks)."""
    fx = FX["endgame_only_one_reached"]
    rules = rules_for()
    for case, winner in zip(fx["inputs"]["cases"], fx["expected"]["winner"], strict=True):
        st = _end_state(rules, case["human_has_legendary"], case["human_tracks"], case["automa1_space"],
                        case["automa2_space"])
        s = st[0]
        automa.solo_end(s, rules.t, new_log(0, LOG_WIDTH))
        assert int(s["end_branch"]) == EB_ONLY_ONE
        assert _winner(s) == winner
        ranks = {"human": int(s["rank"][0]), "automa1": int(s["rank"][AG_AUTOMA1]),
                 "automa2": int(s["rank"][AG_AUTOMA2])}
        assert ranks[winner] == 1 and sorted(ranks.values()) == [1, 2, 3]


def test_endgame_parchment_comparison():
    """endgame_parchment_comparison: human 3 + 2 + 1 = 6 parchment spaces against Automa 1's 8: Automa 1."""
    fx = FX["endgame_parchment_comparison"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    st = _end_state(rules, inp["human_has_legendary"], inp["human_tracks"], inp["automa1_space"],
                    inp["automa2_space"])
    s = st[0]
    log = new_log(10, LOG_WIDTH)
    automa.solo_end(s, rules.t, log)
    rows = events(log, EV_GAME_END)
    assert int(s["end_branch"]) == EB_PARCHMENT
    assert rows[0]["parchment_vp"] == exp["human_parchment_spaces"]
    assert rows[1]["parchment_vp"] == exp["automa1_parchment_spaces"]
    assert bool(rows[2]["is_parchment"]) == exp["automa2_contends"]
    assert _winner(s) == exp["winner"]
    assert [int(s["rank"][0]), int(s["rank"][AG_AUTOMA1]), int(s["rank"][AG_AUTOMA2])] == [2, 1, 3]
    # beyond_entry counting: 3 tracks lose 1 each (3), the Automa 1 (7): still Automa 1
    r2 = rules_for(parchment_counting="beyond_entry")
    st = _end_state(r2, True, inp["human_tracks"], inp["automa1_space"], inp["automa2_space"])
    log = new_log(10, LOG_WIDTH)
    automa.solo_end(st[0], r2.t, log)
    assert [r["parchment_vp"] for r in events(log, EV_GAME_END)][:2] == [3, 7]
    # a tie goes to glory (advanced), then privilege
    st = _end_state(rules, True, (19, 19, 19), 48, 10)  # 6 + 6 + 6 = 18 vs parchment index 18
    automa.solo_end(st[0], rules.t, new_log(0, LOG_WIDTH))
    assert _winner(st[0]) == "automa1"  # privilege: Automa 1 is first
    st[0]["priv"][:3] = (0, AG_AUTOMA1, AG_AUTOMA2)
    automa.solo_end(st[0], rules.t, new_log(0, LOG_WIDTH))
    assert _winner(st[0]) == "human"
    rd = rules_for(automa_level="D")
    st = _end_state(rd, True, (21, 21, 21), 56, 10, glory=(1, 0, 0))  # 24 + glory 1 vs 24 + glory 2
    st[0]["advanced"][0] = 1
    automa.solo_end(st[0], rd.t, new_log(0, LOG_WIDTH))
    assert _winner(st[0]) == "automa1"


def test_endgame_outside_parchment():
    """endgame_outside_parchment: nobody reached; distances 3 (human's worst track), 2, 4: Automa 1 wins."""
    fx = FX["endgame_outside_parchment"]
    inp, exp = fx["inputs"], fx["expected"]
    rules = rules_for()
    st = _end_state(rules, inp["human_has_legendary"], inp["human_tracks"], inp["automa1_space"],
                    inp["automa2_space"])
    s = st[0]
    log = new_log(10, LOG_WIDTH)
    automa.solo_end(s, rules.t, log)
    rows = events(log, EV_GAME_END)
    assert int(s["end_branch"]) == EB_OUTSIDE
    assert rows[0]["worst_dist"] == exp["human_distance"]
    assert rows[1]["worst_dist"] == exp["automa1_distance"] and rows[2]["worst_dist"] == exp["automa2_distance"]
    assert rows[2]["label_space"] == inp["automa2_space"] - 1
    assert _winner(s) == exp["winner"]
    assert [int(s["rank"][0]), int(s["rank"][AG_AUTOMA1]), int(s["rank"][AG_AUTOMA2])] == [2, 1, 3]
    # II.12: a tie on the worst distance goes to the next tracks (the Automa's one distance stands for all)
    st = _end_state(rules, True, (12, 13, 14), 27, 10)  # human 2, 1, 0 vs Automa 1: 2, 2, 2 -> human
    automa.solo_end(st[0], rules.t, new_log(0, LOG_WIDTH))
    assert _winner(st[0]) == "human"
    rp = rules_for(outside_parchment_tiebreak="privilege_only")
    st = _end_state(rp, True, (12, 13, 14), 27, 10)  # privilege only: Automa 1 is first on the track
    automa.solo_end(st[0], rp.t, new_log(0, LOG_WIDTH))
    assert _winner(st[0]) == "automa1"


# ---------------------------------------------------------------- Omen


def test_omen_three_cards_per_automa():
    """omen_three_cards_per_automa: one card per Automa before each purple flip (round start included, any
    flipper); the council reveals none and scores those 3."""
    fx = FX["omen_three_cards_per_automa"]
    exp = fx["expected"]
    rules = rules_for(omen_variant=True, automa_level="D")
    t = rules.t
    st = make_state(rules, 2)
    s = st[0]
    s["purple_flips"] = 0
    s["markers_left"] = 3
    s["now"] = 0.0
    s["runs_out"][:] = 0.0
    got = []
    for flipper in (FL_ROUND_START, FL_HUMAN, FL_AUTOMA):
        log = new_log(50, LOG_WIDTH)
        timers.flip_timer(s, t, T_PURPLE, flipper, log, -1)
        draws = events(log, EV_AUTOMA_DRAW)
        assert [d["player"] for d in draws] == [AG_AUTOMA1, AG_AUTOMA2]
        assert all(d["trigger"] == TR_OMEN for d in draws)
        assert draws[-1]["row"] < events(log, EV_TIMER_FLIP)[0]["row"]
        got.append(int(s["a_ncards"][0]))
        assert int(s["a_ncards"][1]) == got[-1]
        s["runs_out"][T_PURPLE] = s["now"]
    assert got == exp["omen_cards_per_automa_after_flip"]
    assert int(s["purple_flips"]) == 3 and int(s["council_called"]) == 1
    assert int(s["a_disc_n"]) == 0 and int(s["a_deck_n"]) == 26
    cards = s["a_cards"].copy()
    log = new_log(50, LOG_WIDTH)
    automa.automa_council_vp(s, t, log)
    assert len(events(log, EV_AUTOMA_DRAW)) == exp["cards_revealed_at_council"] == 0
    assert (s["a_cards"] == cards).all()
    vp = [sum(int(t["acard"][c, AC_VP]) for c in cards[a]) + int(t["scoring"][3, 1, 0]) + 1 for a in range(2)]
    assert list(s["a_score"]) == [max(0, v) for v in vp]
    assert all(e["votes_bonus"] == int(t["scoring"][3, 1, 1]) for e in events(log, EV_COUNCIL_AUTOMA_VP))
    assert int(s["st_triggers"][TR_OMEN]) == 6 and int(s["st_triggers"][TR_COUNCIL_VP]) == 0


# ---------------------------------------------------------------- every fixture is named


def test_every_fixture_is_named_by_a_test():
    """Each id of examples.toml appears in a test of this folder (this file names them all)."""
    ids = [e["id"] for e in EXAMPLES]
    assert len(ids) == len(set(ids)) == 34
    text = "".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py")
                   if p.name != "test_automa.py") + pathlib.Path(__file__).read_text(encoding="utf-8").split(
        "# ---------------------------------------------------------------- every fixture is named")[0]
    assert [i for i in ids if i not in text] == []


def test_event_fields_fit_the_log():
    """Every event this module declares fits the 17 field columns; shared layouts match their owners'."""
    from simlab.games.pendulum import council, effects, endgame

    for code, names in automa.EVENT_FIELDS.items():
        assert len(names) <= LOG_WIDTH - FIELD0, EVENT_NAMES[code]
    ev = automa.EVENT_FIELDS
    assert ev[EV_COUNCIL_REWARD][: len(council.EVENT_FIELDS[EV_COUNCIL_REWARD])] == \
        council.EVENT_FIELDS[EV_COUNCIL_REWARD]
    assert ev[EV_GAME_END][: len(endgame.EVENT_FIELDS[EV_GAME_END])] == endgame.EVENT_FIELDS[EV_GAME_END]
    assert ev[EV_DECK_ORDER] == council.EVENT_FIELDS[EV_DECK_ORDER]
    assert ev[EV_TRACK] == effects.EVENT_FIELDS[EV_TRACK]
    assert C_GRANDE == 30 and W_MAT == -1
