"""simlab: fast seeded Monte Carlo simulation and balance analysis for board games."""

from simlab import results
from simlab.core.game import all_games, get_game
from simlab.core.player import Player
from simlab.core.version import __version__
from simlab.play import BatchResult, play_batch

__all__ = ["BatchResult", "Player", "__version__", "all_games", "get_game", "play_batch", "results"]
