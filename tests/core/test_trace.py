"""Game traces (docs/trace.md): every Sentient event and field, their consistency, files and the log."""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import pytest

import simlab
from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.trace import game_trace, read_trace, write_trace

GAME = get_game("sentient")
TYPES = ("information", "service", "transport", "defense", "industrial")
SYMBOLS = ("+", "-", "=")
EVENT_TYPES = {
    "game_start", "round_start", "take", "pass", "reshuffle", "card_scored", "investor", "round_end", "final",
}


def _trace(lineup: list[str], seed: int, game_index: int = 0, options: dict[str, Any] | None = None) -> list[dict]:
    rules = GAME.ruleset(len(lineup), options)
    players = resolve_players(GAME, lineup)
    rec = play_game(GAME, rules, players, GAME.game_seed(seed, game_index), record_events=True)
    return game_trace(GAME, rules, rec, [p.label for p in players], game_index)


def _reshuffle_trace() -> list[dict]:
    """A 4-player trace with a reshuffle (found through the batch's reshuffles column)."""
    lineup = ["greedy"] * 4
    res = simlab.play_batch("sentient", lineup, games=200, seed=0)
    hits = res.games.filter(pl.col("reshuffles") > 0)["game"].to_list()
    assert hits, "no reshuffle in 200 four-player greedy games"
    return _trace(lineup, 0, hits[0])


@pytest.fixture(scope="module")
def traces() -> list[list[dict]]:
    """Traces over 2, 3 and 4 players, one of them with a reshuffle."""
    return [
        _trace(["greedy", "random"], 5, 0),
        _trace(["greedy", "investor(pass_below=1)", "random"], 7, 3),
        _trace(["specialist", "investor", "greedy", "random"], 2, 1),
        _reshuffle_trace(),
    ]


@pytest.fixture(scope="module")
def trace3(traces) -> list[dict]:
    return traces[1]


def _of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["event"] == kind]


def _n(events: list[dict]) -> int:
    return len(events[0]["players"])


def _is_seat(v: Any, n: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n


def _opt_seat(v: Any, n: int) -> bool:
    return v is None or _is_seat(v, n)


def _calibrate(die: int, symbol: str, blocked: bool) -> int:
    if blocked or symbol == "=":
        return die
    return die % 6 + 1 if symbol == "+" else (die - 2) % 6 + 1


# ---------------------------------------------------------------- shape of the trace


def test_every_event_type_appears(traces):
    seen = {e["event"] for t in traces for e in t}
    assert seen == EVENT_TYPES


def test_first_and_last(traces):
    for t in traces:
        assert t[0]["event"] == "game_start"
        assert t[-1]["event"] == "final"
        assert sum(e["event"] == "game_start" for e in t) == 1
        assert sum(e["event"] == "final" for e in t) == 1
        assert not _of(t, "log_truncated")


def test_event_key_sets(traces):
    keys = {
        "game_start": {"game", "seed", "players", "options", "starting_investors", "cards"},
        "round_start": {"round", "turn_order", "factory", "investors", "dice"},
        "take": {"round", "seat", "column", "card", "slot", "blocked", "influence_assistants", "dice_before",
                 "dice_after", "refill"},
        "pass": {"round", "seat", "swept", "factory"},
        "reshuffle": {"round", "deck_size"},
        "card_scored": {"round", "seat", "slot", "card", "dice", "points"},
        "investor": {"round", "position", "type", "influence", "agents", "winner", "second"},
        "round_end": {"round", "next_turn_order"},
        "final": {"seats", "winners"},
    }
    for t in traces:
        for e in t:
            assert set(e) - {"event"} >= keys[e["event"]], e


def test_game_start(trace3):
    e = trace3[0]
    rules = GAME.ruleset(3)
    assert e["game"] == 3
    assert e["seed"] == GAME.game_seed(7, 3)
    assert e["players"] == ["greedy", "investor(pass_below=1)", "random"]
    assert e["options"] == rules.options
    assert set(e["options"]) == set(GAME.option_table())
    assert len(e["starting_investors"]) == 3
    assert all(t in TYPES for t in e["starting_investors"])
    assert len(e["cards"]) == len(rules.data.cards)
    ids = [c["id"] for c in e["cards"]]
    assert len(set(ids)) == len(ids)
    for c in e["cards"]:
        assert set(c) == {"id", "type", "condition", "param", "vp", "left", "right"}
        assert isinstance(c["id"], int)
        assert c["type"] in TYPES
        assert isinstance(c["condition"], str) and c["condition"]
        assert c["param"] is None or isinstance(c["param"], int)
        assert c["vp"] is None or isinstance(c["vp"], int)
        assert c["left"] in SYMBOLS and c["right"] in SYMBOLS
    # information cards carry their target; the others do not
    info = [c for c in e["cards"] if c["type"] == "information"]
    assert info and all(1 <= c["param"] <= 6 for c in info)


def test_game_start_options_follow_the_ruleset():
    t = _trace(["greedy", "random"], 1, options={"sweep_order": "draw_then_discard"})
    assert t[0]["options"]["sweep_order"] == "draw_then_discard"


def test_round_start(traces):
    for t in traces:
        n = _n(t)
        starts = _of(t, "round_start")
        assert [e["round"] for e in starts] == [1, 2, 3]
        ids = {c["id"] for c in t[0]["cards"]}
        for e in starts:
            assert sorted(e["turn_order"]) == list(range(n))
            assert len(e["factory"]) == 4
            assert all(c in ids for c in e["factory"])
            assert len(e["investors"]) == 5
            assert all(x in TYPES for x in e["investors"])
            assert len(e["dice"]) == n
            for dice in e["dice"]:
                assert len(dice) == 5
                assert all(isinstance(d, int) and 1 <= d <= 6 for d in dice)


def test_take_fields(traces):
    for t in traces:
        n = _n(t)
        ids = {c["id"] for c in t[0]["cards"]}
        for e in _of(t, "take"):
            assert e["round"] in (1, 2, 3)
            assert _is_seat(e["seat"], n)
            assert e["column"] in range(4)
            assert e["card"] in ids
            assert e["slot"] in range(4)
            assert len(e["blocked"]) == 2 and all(isinstance(b, bool) for b in e["blocked"])
            assert isinstance(e["influence_assistants"], int) and e["influence_assistants"] >= 0
            assert len(e["dice_before"]) == 2 and len(e["dice_after"]) == 2
            assert all(1 <= d <= 6 for d in e["dice_before"] + e["dice_after"])
            assert e["refill"] is None or e["refill"] in ids


def test_pass_fields(traces):
    for t in traces:
        n = _n(t)
        ids = {c["id"] for c in t[0]["cards"]}
        for e in _of(t, "pass"):
            assert e["round"] in (1, 2, 3)
            assert _is_seat(e["seat"], n)
            assert isinstance(e["swept"], bool)
            assert len(e["factory"]) == 4
            assert all(c is None or c in ids for c in e["factory"])
        # every seat passes once a round
        for r in (1, 2, 3):
            assert sorted(e["seat"] for e in _of(t, "pass") if e["round"] == r) == list(range(n))


def test_reshuffle(traces):
    reshuffles = _of(traces[-1], "reshuffle")
    assert reshuffles
    for e in reshuffles:
        assert e["round"] in (1, 2, 3)
        assert isinstance(e["deck_size"], int) and e["deck_size"] > 0


def test_reshuffle_just_before_a_draw(traces):
    """A reshuffle sits right before the take or pass whose draw needed it."""
    t = traces[-1]
    for i, e in enumerate(t):
        if e["event"] == "reshuffle":
            nxt = t[i + 1]
            assert nxt["event"] in ("take", "pass")
            if nxt["event"] == "pass":
                assert nxt["swept"]


def test_card_scored(traces):
    for t in traces:
        n = _n(t)
        ids = {c["id"] for c in t[0]["cards"]}
        for r in (1, 2, 3):
            scored = [e for e in _of(t, "card_scored") if e["round"] == r]
            # seat by seat, slot by slot
            assert [(e["seat"], e["slot"]) for e in scored] == [(p, k) for p in range(n) for k in range(4)]
            for e in scored:
                assert e["card"] in ids
                assert len(e["dice"]) == 2 and all(1 <= d <= 6 for d in e["dice"])
                assert isinstance(e["points"], int) and e["points"] >= 0


def test_investor(traces):
    for t in traces:
        n = _n(t)
        starts = {e["round"]: e for e in _of(t, "round_start")}
        for r in (1, 2, 3):
            invs = [e for e in _of(t, "investor") if e["round"] == r]
            assert [e["position"] for e in invs] == [0, 1, 2, 3, 4]
            for e in invs:
                assert e["type"] == starts[r]["investors"][e["position"]]
                assert len(e["influence"]) == n and len(e["agents"]) == n
                assert all(isinstance(v, int) and v >= 0 for v in e["influence"] + e["agents"])
                assert _opt_seat(e["winner"], n)
                assert _opt_seat(e["second"], n)
                if e["winner"] is None:
                    assert e["second"] is None
                    assert max(e["influence"]) == 0
                else:
                    assert e["influence"][e["winner"]] == max(e["influence"]) > 0
                    assert e["second"] != e["winner"]


def test_round_end(traces):
    for t in traces:
        n = _n(t)
        ends = _of(t, "round_end")
        assert [e["round"] for e in ends] == [1, 2, 3]
        starts = _of(t, "round_start")
        for e in ends:
            assert sorted(e["next_turn_order"]) == list(range(n))
        for end, nxt in zip(ends, starts[1:], strict=False):
            assert end["next_turn_order"] == nxt["turn_order"]


def test_final_fields(traces):
    for t in traces:
        n = _n(t)
        fin = t[-1]
        assert [s["seat"] for s in fin["seats"]] == list(range(n))
        for s in fin["seats"]:
            for key in ("card_vp", "second_place_vp", "investor_vp", "total", "investors", "rank"):
                assert isinstance(s[key], int) and s[key] >= 0, key
            assert 1 <= s["rank"] <= n
            assert set(s["investors_by_type"]) == set(TYPES)
            assert set(s["cards_by_type"]) == set(TYPES)
            assert sum(s["investors_by_type"].values()) == s["investors"]
            assert sum(s["cards_by_type"].values()) == 12
        assert fin["winners"]
        assert fin["winners"] == [s["seat"] for s in fin["seats"] if s["rank"] == 1]
        top = max(s["total"] for s in fin["seats"])
        assert all(fin["seats"][w]["total"] == top for w in fin["winners"])


def test_round_order_of_events(traces):
    """round_start, then takes/passes/reshuffles, then card_scored, the 5 investors and round_end."""
    phase_of = {"round_start": 0, "take": 1, "pass": 1, "reshuffle": 1, "card_scored": 2, "investor": 3,
                "round_end": 4}
    for t in traces:
        body = t[1:-1]
        for r in (1, 2, 3):
            phases = [phase_of[e["event"]] for e in body if e["round"] == r]
            assert phases == sorted(phases)
            assert phases[0] == 0 and phases[-1] == 4
        assert [e["round"] for e in body] == sorted(e["round"] for e in body)


# ---------------------------------------------------------------- spelling


def test_types_and_symbols_spelled_out(traces):
    for t in traces:
        types = list(t[0]["starting_investors"])
        types += [c["type"] for c in t[0]["cards"]]
        for e in _of(t, "round_start"):
            types += e["investors"]
        types += [e["type"] for e in _of(t, "investor")]
        for s in t[-1]["seats"]:
            types += list(s["investors_by_type"]) + list(s["cards_by_type"])
        assert set(types) <= set(TYPES)
        symbols = {c[k] for c in t[0]["cards"] for k in ("left", "right")}
        assert symbols <= set(SYMBOLS)


# ---------------------------------------------------------------- consistency


def test_card_points_add_up_to_card_vp(traces):
    for t in traces:
        for s in t[-1]["seats"]:
            points = sum(e["points"] for e in _of(t, "card_scored") if e["seat"] == s["seat"])
            assert points == s["card_vp"]


def test_total_is_sum_of_parts(traces):
    for t in traces:
        for s in t[-1]["seats"]:
            assert s["total"] == s["card_vp"] + s["second_place_vp"] + s["investor_vp"]


def test_runner_up_vp_and_investor_tokens(traces):
    """Each runner-up place is 1 VP; tokens held are the starting investor plus every investor won."""
    for t in traces:
        start = t[0]["starting_investors"]
        for s in t[-1]["seats"]:
            p = s["seat"]
            invs = _of(t, "investor")
            assert s["second_place_vp"] == sum(e["second"] == p for e in invs)
            assert s["investors"] == 1 + sum(e["winner"] == p for e in invs)
            won = [start[p]] + [e["type"] for e in invs if e["winner"] == p]
            assert s["investors_by_type"] == {ty: won.count(ty) for ty in TYPES}


def test_take_calibration(traces):
    """dice_after is the card's symbols applied to dice_before (6+1 wraps to 1, 1-1 to 6) unless blocked."""
    for t in traces:
        cards = {c["id"]: c for c in t[0]["cards"]}
        for e in _of(t, "take"):
            c = cards[e["card"]]
            bl, br = e["blocked"]
            assert e["dice_after"] == [
                _calibrate(e["dice_before"][0], c["left"], bl),
                _calibrate(e["dice_before"][1], c["right"], br),
            ], (e, c)
            if bl:
                assert c["left"] != "="
            if br:
                assert c["right"] != "="


def test_calibration_wraps_seen():
    """Across a few games both wraps (6 -> 1 on '+', 1 -> 6 on '-') happen and match the symbols."""
    wraps = set()
    for seed in range(6):
        t = _trace(["random"] * 4, seed)
        cards = {c["id"]: c for c in t[0]["cards"]}
        for e in _of(t, "take"):
            c = cards[e["card"]]
            for side, sym in ((0, c["left"]), (1, c["right"])):
                before, after = e["dice_before"][side], e["dice_after"][side]
                if (before, after) in ((6, 1), (1, 6)):
                    wraps.add((before, after, sym))
    assert (6, 1, "+") in wraps
    assert (1, 6, "-") in wraps


def test_dice_and_factory_replay(traces):
    """Replaying takes and passes from round_start reproduces dice_before, the cards taken and card_scored dice."""
    for t in traces:
        n = _n(t)
        dice: list[list[int]] = []
        factory: list[int | None] = []
        network: dict[tuple[int, int], int] = {}
        takes_per_seat = {p: 0 for p in range(n)}
        for e in t[1:-1]:
            kind = e["event"]
            if kind == "round_start":
                dice = [list(d) for d in e["dice"]]
                factory = list(e["factory"])
                network = {}
            elif kind == "take":
                p, k = e["seat"], e["slot"]
                assert factory[e["column"]] == e["card"]
                assert [dice[p][k], dice[p][k + 1]] == e["dice_before"]
                assert (p, k) not in network
                dice[p][k], dice[p][k + 1] = e["dice_after"]
                network[(p, k)] = e["card"]
                factory[e["column"]] = e["refill"]
                takes_per_seat[p] += 1
            elif kind == "pass":
                if e["swept"]:
                    factory = list(e["factory"])
                else:
                    assert e["factory"] == factory
            elif kind == "card_scored":
                p, k = e["seat"], e["slot"]
                assert network[(p, k)] == e["card"]
                assert e["dice"] == [dice[p][k], dice[p][k + 1]]
        assert takes_per_seat == {p: 12 for p in range(n)}


def test_same_seed_same_trace():
    a = _trace(["greedy", "investor", "random"], 9, 2)
    b = _trace(["greedy", "investor", "random"], 9, 2)
    assert json.dumps(a) == json.dumps(b)
    c = _trace(["greedy", "investor", "random"], 9, 3)
    assert json.dumps(a) != json.dumps(c)


# ---------------------------------------------------------------- files and the log


def test_write_read_round_trip(traces, tmp_path):
    for i, t in enumerate(traces):
        path = tmp_path / f"trace{i}.jsonl"
        write_trace(path, t)
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(t)
        assert all(json.loads(line)["event"] == e["event"] for line, e in zip(lines, t, strict=True))
        back = read_trace(path)
        assert back == t
        assert json.dumps(back) == json.dumps(t)
        # writing what was read gives the same bytes
        again = tmp_path / f"again{i}.jsonl"
        write_trace(again, back)
        assert again.read_bytes() == path.read_bytes()


def test_trace_is_plain_json(trace3):
    """No numpy scalars or tuples leak into the events: JSON gives back the same objects."""
    assert json.loads(json.dumps(trace3)) == trace3


def test_log_lines(trace3):
    lines = GAME.log_lines(trace3)
    text = "\n".join(lines)
    for r in (1, 2, 3):
        assert any(line.startswith(f"=== Round {r} ===") for line in lines)
    assert "=== Final ===" in lines
    final_at = lines.index("=== Final ===")
    assert final_at > max(i for i, line in enumerate(lines) if line.startswith("=== Round 3 ==="))
    # one line per take and per pass, and a final table row per seat
    assert sum(" takes C" in line for line in lines) == len(_of(trace3, "take"))
    assert sum(" passes" in line for line in lines) == len(_of(trace3, "pass"))
    table = lines[final_at + 1 :]
    for s in trace3[-1]["seats"]:
        row = [line for line in table if line.split()[:1] == [str(s["seat"])]]
        assert len(row) == 1
        assert str(s["total"]) in row[0].split()
    winners = trace3[-1]["winners"]
    assert lines[-1].strip().startswith("winner")
    assert all(f"seat {w}" in lines[-1] for w in winners)
    assert f"game seed {trace3[0]['seed']}" in text


def test_log_lines_reshuffle(traces):
    lines = GAME.log_lines(traces[-1])
    assert sum("reshuffled" in line for line in lines) == len(_of(traces[-1], "reshuffle"))


def test_streamed_events_equal_the_recorded_ones():
    """on_events hands over every event once, in order, as the game goes (what `simlab play` shows a person)."""
    from simlab.core.driver import play_game as play
    from simlab.core.game import get_game
    from simlab.core.player import resolve_players

    game = get_game("sentient")
    rules = game.ruleset(3)
    batches: list[list[dict]] = []
    record = play(game, rules, resolve_players(game, ["greedy", "random", "investor"]), game.game_seed(9, 0),
                  record_events=True, on_events=batches.append)
    streamed = [e for batch in batches for e in batch]
    assert streamed == record.events
    assert batches[0][0]["event"] == "round_start" and len(batches) > 40
