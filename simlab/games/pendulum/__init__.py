"""Pendulum (with the Automa solo module): registration of the game (name, player counts, options, players)."""

from simlab.core.game import register
from simlab.games.pendulum.game import PendulumGame

GAME = register(PendulumGame())

__all__ = ["GAME"]
