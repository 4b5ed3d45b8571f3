"""Taking a card out of the deck keeps every other card's order: games with and without it stay paired."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import simlab
from simlab.core.errors import DataError
from simlab.core.game import get_game
from simlab.games.sentient.data import load_data
from simlab.runner.spec import SpecError, parse_spec, variant_data

GAME = get_game("sentient")


def test_removed_card_never_appears_and_the_rest_keep_their_order():
    data = load_data().without_cards([32, 7])
    assert data.deck_size == 58
    seed = GAME.game_seed(4, 0)
    full_state, _ = GAME.new_game(GAME.ruleset(3), seed, GAME.new_log(0))
    cut_state, _ = GAME.new_game(GAME.ruleset(3, data=data), seed, GAME.new_log(0))
    ids = GAME.ruleset(3).card_ids

    def order(state):
        s = state[0]
        return [int(ids[c]) for c in s["deck"][: s["deck_n"]]] + [int(ids[c]) for c in s["factory"]]

    full, cut = order(full_state), order(cut_state)
    assert [c for c in full if c not in (32, 7)] == cut
    assert cut_state[0]["removed_n"] == 2
    takes = simlab.play_batch("sentient", ["greedy", "investor", "random"], 300, seed=2, data=data,
                              record=["takes"]).events["takes"]
    assert not takes.filter(pl.col("card").is_in([32, 7])).height
    assert takes.group_by("game").len()["len"].to_list() == [36] * 300


def test_ablation_spec_generates_one_variant_per_card():
    spec = parse_spec({"game": "sentient", "players": {"seats": ["greedy", "investor"]}, "ablation": {}})
    assert len(spec.variants) == 61
    assert {v.ablation["id"] for v in spec.variants[1:]} == set(range(1, 61))
    v32 = spec.variants[32]
    assert v32.name == "card32_removed" and v32.ablation == {"component": "cards", "id": 32, "change": "remove",
                                                             "delta": 1}
    assert [e.as_dict() for e in v32.edits] == [{"file": "cards", "where": {"id": 32}, "set": {"in_deck": 0}}]
    # the edit takes the card out exactly as without_cards does: same deck, same games
    edited = variant_data(GAME, v32)
    assert edited.removed == {32}
    assert edited.card_array.tolist() == load_data().without_cards([32]).card_array.tolist()
    vp = parse_spec({"game": "sentient", "players": {"seats": ["greedy", "investor"]},
                     "ablation": {"change": "vp", "delta": 3}})
    names = [v.name for v in vp.variants[1:]]
    assert "card32_vp7" in names and len(names) == 36  # the 36 fixed-VP cards
    with pytest.raises(SpecError, match=r"ablation\.cards\[0\]: no component with id 99"):
        parse_spec({"game": "sentient", "players": {"seats": ["greedy", "investor"]}, "ablation": {"cards": [99]}})


def test_removing_unknown_or_too_many_cards_is_refused():
    with pytest.raises(DataError, match="no card with id 999"):
        load_data().without_cards([999])
    data = load_data().without_cards(list(range(1, 12)))
    with pytest.raises(DataError, match="49 cards; 4 players"):
        GAME.ruleset(4, data=data)
    assert np.all(GAME.ruleset(3, data=data).cards[:, 7][:11] == 0)
