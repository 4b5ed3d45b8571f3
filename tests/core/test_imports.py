"""No import cycle between the core and the games: the core never imports a game.

Each check runs in a fresh interpreter, so what an import pulls in is what that import
needs and nothing an earlier test loaded.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import simlab.core


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


CORE_MODULES = sorted(f"simlab.core.{m.name}" for m in pkgutil.iter_modules(simlab.core.__path__))


def test_core_modules_import_no_game():
    """Importing every core module leaves ``simlab.games`` out of ``sys.modules``."""
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "games = sorted(m for m in sys.modules if m == 'simlab.games' or m.startswith('simlab.games.'))\n"
        "assert not games, games\n"
    )
    res = _run(code)
    assert res.returncode == 0, res.stderr


def test_games_found_by_discovery():
    """The registry finds the built-in games without the core naming them."""
    res = _run("from simlab.core.game import all_games\nprint(' '.join(g.name for g in all_games()))")
    assert res.returncode == 0, res.stderr
    assert {"sentient", "smartphone"} <= set(res.stdout.split())


def test_each_game_imports_first():
    """A game's modules import on their own, before the core has been touched (no cycle)."""
    code = (
        "import importlib, pkgutil, simlab.games\n"
        "for m in pkgutil.iter_modules(simlab.games.__path__):\n"
        "    pkg = importlib.import_module('simlab.games.' + m.name)\n"
        "    for sub in pkgutil.iter_modules(pkg.__path__):\n"
        "        importlib.import_module(f'simlab.games.{m.name}.{sub.name}')\n"
    )
    for game in ("sentient", "smartphone"):
        for module in ("rules", "game"):
            res = _run(f"import simlab.games.{game}.{module}")
            assert res.returncode == 0, f"simlab.games.{game}.{module}: {res.stderr}"
    res = _run(code)
    assert res.returncode == 0, res.stderr
