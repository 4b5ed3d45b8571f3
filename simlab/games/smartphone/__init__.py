"""Smartphone Inc. (foundation only: data loading and planning arrangements).

The game is deliberately not registered yet: there is no ``GAME`` here and nothing imports
``simlab.core.game``. See ``data.py``, ``arrangements.py`` and ``upgrades.py``.
"""
