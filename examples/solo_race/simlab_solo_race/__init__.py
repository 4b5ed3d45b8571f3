"""Solo Race: the worked example game of docs/adding_a_game.md, in a package of its own.

It registers through the ``simlab.games`` entry-point group (see ``pyproject.toml`` next to
this package): ``GAME`` is the game object the entry point names. Importing the package
registers nothing, so simlab sees the game only where the package is installed (or where a
test registers it: tests/contract/conftest.py).
"""

from simlab_solo_race.game import SoloRaceGame

GAME = SoloRaceGame()

__all__ = ["GAME", "SoloRaceGame"]
