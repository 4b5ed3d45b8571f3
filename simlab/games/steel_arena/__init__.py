"""Steel Arena: registration of the game (name, player counts, options, players)."""

from simlab.core.game import register
from simlab.games.steel_arena.game import SteelArenaGame

GAME = register(SteelArenaGame())

__all__ = ["GAME"]
