"""Smartphone Inc. (Корпорация Смартфон): data, planning arrangements, rules kernels, players."""

from simlab.core.game import register
from simlab.games.smartphone.game import SmartphoneGame

GAME = register(SmartphoneGame())

__all__ = ["GAME"]
