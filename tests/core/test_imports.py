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


def _imports(path) -> set[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    import ast

    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def test_core_depends_on_no_upper_layer():
    """The core imports no game, no player package, no statistics, runner or report module, not even lazily:
    games and Python players reach it through registration (entry points), never the other way round."""
    from pathlib import Path

    upper = ("simlab.games", "simlab.players", "simlab.analysis", "simlab.runner", "simlab.report", "simlab.cli",
             "simlab.results", "simlab.play", "simlab.ladder", "simlab.bench")
    core = Path(simlab.core.__file__).parent
    found = {f"{path.name}: {name}" for path in core.glob("*.py") for name in _imports(path)
             if name == "simlab" or name.startswith(upper)}
    assert not found, sorted(found)


def test_analysis_and_players_do_not_import_the_runner_or_games():
    """Statistics work on tables and players on observations: neither names a game module nor the runner."""
    from pathlib import Path

    root = Path(simlab.core.__file__).parents[1]
    for package in ("analysis", "players"):
        found = {f"{path.name}: {name}" for path in (root / package).glob("*.py") for name in _imports(path)
                 if name.startswith(("simlab.games", "simlab.runner", "simlab.report", "simlab.cli"))}
        assert not found, (package, sorted(found))
