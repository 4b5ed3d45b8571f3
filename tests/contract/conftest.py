"""The contract suite also runs the worked example game of docs/adding_a_game.md.

``examples/solo_race`` is a game in a package of its own (``simlab_solo_race``), registered for
users only where it is installed (its entry point). Here it is put on ``sys.path`` and
registered while the contract tests are collected, so ``all_games()`` in ``test_contract.py``
includes it; once collection is over it leaves the registry again, so tests elsewhere see only
the games a user would. Tests that look the example up by name use the ``example_game``
fixture, which registers it for that test.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simlab.core import game as game_registry
from simlab.core.game import Game, discover_games, register

EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "examples" / "solo_race"
if str(EXAMPLE_DIR) not in sys.path:
    sys.path.insert(0, str(EXAMPLE_DIR))

from simlab_solo_race import GAME as EXAMPLE_GAME  # noqa: E402  (needs the path above)

discover_games()  # the user's games first, so leaving the registry restores exactly them
register(EXAMPLE_GAME)


def unregister(game: Game) -> None:
    """Take ``game`` out of the registry (tests only)."""
    if game_registry._REGISTRY.get(game.name) is game:
        del game_registry._REGISTRY[game.name]


def pytest_collection_finish(session: pytest.Session) -> None:
    unregister(EXAMPLE_GAME)


@pytest.fixture
def example_game() -> Iterator[Game]:
    """The example game, registered under its name for the duration of the test."""
    register(EXAMPLE_GAME)
    try:
        yield EXAMPLE_GAME
    finally:
        unregister(EXAMPLE_GAME)
