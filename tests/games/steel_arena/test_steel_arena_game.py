"""Steel Arena's Python face: the turn-limit safeguard, the tile ablation's pairing, hidden information
and the observation helpers (docs/steel_arena.md)."""

from __future__ import annotations

import numpy as np

import simlab
from simlab.core.datavariants import variant_data
from simlab.core.driver import play_game
from simlab.core.player import resolve_players
from simlab.games.steel_arena import GAME, variants
from simlab.games.steel_arena.state import END_REASONS, PH_ACTIVE


def _play_random(rules, seed, until_phase=None):
    state, legal = GAME.new_game(rules, seed, GAME.new_log(0))
    rng = np.random.default_rng(seed)
    while len(legal):
        if until_phase is not None and int(state[0]["phase"]) == until_phase and int(state[0]["turn"]) >= 3:
            return state, legal
        legal = GAME.step(rules, state, int(legal[rng.integers(len(legal))]), GAME.new_log(0))
    return state, legal


def test_turn_limit_ends_a_game_and_scores_it():
    """A game that reaches ``turn_limit`` turns ends there (reason turn_limit) with ranks by trophies, then
    modules; 0 switches the safeguard off."""
    rules = GAME.ruleset(2, options={"turn_limit": 100})
    ended = 0
    for seed in range(40):
        state, _ = _play_random(rules, seed)
        rec = state[0]
        assert rec["over"] and int(rec["turn"]) <= 100
        if END_REASONS[int(rec["end_reason"])] == "turn_limit":
            ended += 1
            assert int(rec["turn"]) == 100
            best = max(int(rec["n_trophies"][p]) for p in range(2))
            assert all(bool(rec["winner"][p]) <= (int(rec["n_trophies"][p]) == best) for p in range(2))
    assert ended > 0  # random play often outlasts 100 turns
    assert GAME.ruleset(2, options={"turn_limit": 0}).opts.max() >= 0


def test_tile_ablation_keeps_every_other_tile_in_place():
    """A design out of play (``in_play = false``) is still shuffled and then skipped: with the same seed the
    field and the generation-3 stack hold the same tiles in the same order, minus the removed design's."""
    full = GAME.ruleset(4)
    cut_data = variant_data(variants.DATA, None, variants._remove(None, "G3-A-RELSOTRON", 0))
    cut = GAME.ruleset(4, data=cut_data)
    removed = int(np.nonzero([t.tile_id == "G3-A-RELSOTRON" for t in cut_data.tiles])[0][0])
    for seed in range(20):
        a, _ = GAME.new_game(full, seed, GAME.new_log(0))
        b, _ = GAME.new_game(cut, seed, GAME.new_log(0))
        draws_a = [int(x) for x in a[0]["stack"][: a[0]["stack_n"]]][::-1]  # draw order: the top first
        draws_b = [int(x) for x in b[0]["stack"][: b[0]["stack_n"]]][::-1]
        assert len(draws_a) == len(draws_b) == 28
        assert all(int(full.pool[i]) != removed for i in draws_b)
        kept = [i for i in draws_a if int(full.pool[i]) != removed]
        assert draws_b[: len(kept)] == kept  # the same draws, the removed one skipped, one extra at the bottom
        assert a[0]["cell_tile"].tolist() == b[0]["cell_tile"].tolist()  # gen-2 field untouched by a gen-3 design


def test_ablation_variant_names_and_edits():
    ids = variants.ABLATION.ids(GAME.default_data())
    assert "G3-A-RELSOTRON" in ids and not any(i.startswith("G1-") for i in ids)


def test_basic_mode_hides_face_down_tiles_and_unrevealed_modules():
    """NOTES I.16: a seat sees a face-down tile's type only and another robot's unused modules by type;
    expert mode shows the field; the stack's order is never shown."""
    rules = GAME.ruleset(3)
    state, _ = _play_random(rules, 5, until_phase=PH_ACTIVE)
    seat = int(state[0]["actor"])
    seen = GAME.hide(state, seat)[0]
    rec = state[0]
    for c in range(int(rec["n_cells"])):
        if rec["cell_tile"][c] >= 0 and not rec["cell_up"][c]:
            assert seen["cell_tile"][c] == -2 and seen["cell_type"][c] == rec["cell_type"][c]
    for p in range(3):
        for k in range(int(rec["n_mods"][p])):
            hidden = p != seat and not rec["revealed"][p, k]
            assert (seen["mods"][p, k] == -2) == hidden
    assert (seen["stack"][: rec["stack_n"]] == -2).all()
    expert = GAME.ruleset(3, options={"mode": "expert"})
    state, _ = _play_random(expert, 5, until_phase=PH_ACTIVE)
    seen = GAME.hide(state, int(state[0]["actor"]))[0]
    assert (seen["cell_tile"] == state[0]["cell_tile"]).all()


def test_observation_helpers_describe_the_arena():
    rules = GAME.ruleset(2)
    state, legal = _play_random(rules, 11, until_phase=PH_ACTIVE)
    obs = GAME.observation(rules, state, legal.tolist())
    me = obs.robot()
    assert me["cell"] is not None and 0 <= me["facing"] < 6
    around = obs.arena_around(1)
    assert around[0].robot == obs.seat and len(around) <= 7
    line = obs.line_of_fire()
    q, r = me["cell"]
    for k, (lq, lr) in enumerate(line, start=1):
        dq, dr = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)][me["facing"]]
        assert (lq, lr) == (q + k * dq, r + k * dr)
    for a in legal.tolist():
        after = obs.preview(a)
        assert set(after) == {0, 1}
        for cell in obs.targets(a):
            assert tuple(cell) in {tuple(x) for x in line} or len(obs.targets(a)) <= 3


def test_a_recorded_game_fits_its_log():
    """The turn snapshots make long logs: a recorded game is never truncated (Game.trace_capacity)."""
    rules = GAME.ruleset(4)
    rec = play_game(GAME, rules, resolve_players(GAME, ["random"] * 4), GAME.game_seed(3, 0), record_events=True)
    assert not any(e["event"] == "log_truncated" for e in rec.events)


def test_batch_and_summary():
    res = simlab.play_batch("steel_arena", players=["brawler", "random"], games=40, seed=3)
    assert res.games.height == 40
    assert set(res.games["end_reason"].cast(str).unique().to_list()) <= set(END_REASONS)


def test_every_rulebook_fixture_has_a_test():
    """Each worked example and scenario of examples.toml (the rulebook's) is named by a test of this folder."""
    import pathlib
    import tomllib

    here = pathlib.Path(__file__).parent
    ids = [e["id"] for e in tomllib.loads((here / "examples.toml").read_text(encoding="utf-8"))["example"]]
    assert len(ids) == 50
    others = [p for p in here.glob("test_*.py") if p.name != pathlib.Path(__file__).name]
    text = "".join(p.read_text(encoding="utf-8") for p in others)
    assert [i for i in ids if i not in text] == []
