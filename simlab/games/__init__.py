"""The built-in games, one subpackage each.

Every subpackage is found by :func:`simlab.core.game.discover_games` and holds its game in
``GAME`` (registered on import); :func:`simlab.core.game.get_game` imports just the subpackage
named like the game it is asked for (a game's package is named as the game), so a command that
plays one game never imports the others. Games from other packages register through the
``simlab.games`` entry-point group; see ``docs/adding_a_game.md``.
"""
