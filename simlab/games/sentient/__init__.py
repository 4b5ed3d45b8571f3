"""Sentient: registration of the game (name, player counts, options, players)."""

from simlab.core.game import register
from simlab.games.sentient.game import SentientGame

GAME = register(SentientGame())

__all__ = ["GAME"]
