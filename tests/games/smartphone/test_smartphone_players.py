"""Smartphone Inc.'s built-in players: the line-up, kind numbers that stored results rely on, retired names."""

from __future__ import annotations

import pytest
from smartphone_helpers import GAME

from simlab.core.errors import PlayerError
from simlab.core.player import resolve_players


def test_kind_numbers_stay_fixed():
    """Retiring a player leaves every other player's kind (and so its games) as it was: ``mc`` was kind 5."""
    kinds = {name: p.kind for name, p in GAME.builtin_players().items()}
    assert kinds == {"random": 0, "greedy": 1, "price_cutter": 2, "tech_rusher": 3, "expansionist": 4, "ismcts": 6}


def test_retired_mc_player_names_its_replacement():
    """``mc`` was retired (issue 25): asking for it says what replaces it, in one line."""
    with pytest.raises(PlayerError) as err:
        resolve_players(GAME, ["mc(candidates=4)", "greedy"])
    assert str(err.value) == ("unknown player 'mc' for smartphone: 'mc' was retired (issue 25): use 'ismcts', "
                              "as strong at equal time per decision (docs/players.md)")
