"""The shared search's Pendulum hooks: alone against the Automas the rollouts follow ``solo_rollout_depth``
(default: to the end of the game), at a table ``rollout_depth`` (docs/players.md: rollouts to the end were
measured stronger alone, and no stronger but five times as slow at two players).

Each check compares whole seeded games of two specs that must play identically; each would differ if the
override were missing or applied at the wrong table size (a search of 6 iterations with rollouts of 2
decisions does not play like one with rollouts of 40 or to the end).
"""

from __future__ import annotations

from simlab.core.game import get_game
from simlab.play import play_batch


def _same_games(lineup_a: list[str], lineup_b: list[str], n: int, **options) -> bool:
    game = get_game("pendulum")
    a = play_batch(game, lineup_a, n, seed=31, options=options)
    b = play_batch(game, lineup_b, n, seed=31, options=options)
    keep = [c for c in a.seats.columns if c != "player"]
    return a.games.equals(b.games) and a.seats.select(keep).equals(b.seats.select(keep))


def test_alone_the_rollouts_follow_solo_rollout_depth():
    assert _same_games(["ismcts(iterations=6,solo_rollout_depth=2)"],
                       ["ismcts(iterations=6,rollout_depth=-1,solo_rollout_depth=2)"], 2, automa_level="B")
    assert not _same_games(["ismcts(iterations=6,solo_rollout_depth=2)"],
                           ["ismcts(iterations=6)"], 2, automa_level="B")


def test_at_a_table_the_rollouts_follow_rollout_depth():
    assert _same_games(["ismcts(iterations=6,rollout_depth=2)", "voter"],
                       ["ismcts(iterations=6,rollout_depth=2,solo_rollout_depth=40)", "voter"], 1)
    assert not _same_games(["ismcts(iterations=6,rollout_depth=2)", "voter"],
                           ["ismcts(iterations=6)", "voter"], 1)
