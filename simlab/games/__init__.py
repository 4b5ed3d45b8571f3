"""The built-in games, one subpackage each.

Every subpackage is found by :func:`simlab.core.game.discover_games` and holds its game in
``GAME`` (registered on import). Games from other packages register through the
``simlab.games`` entry-point group; see ``docs/adding_a_game.md``.
"""
