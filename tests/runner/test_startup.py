"""What ``simlab run`` pays before its first game (issue 24: the runner's speed): reading a spec imports
the game it names and no other, and not ``scipy.stats`` (about 0.5 s, only a [tune] section or the
statistics modules need it). A fresh interpreter is the only honest place to look: the test process
has imported everything long ago."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from simlab.tune.spec import load_spec
from simlab.core.game import get_game
spec = load_spec(sys.argv[1], {"games": 100})
get_game(spec.game)
print(json.dumps({"games": sorted(m for m in sys.modules if m.startswith("simlab.games.") and m.count(".") == 2),
                  "scipy_stats": "scipy.stats" in sys.modules}))
"""


def _imports_after_reading(spec: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, spec], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_reading_a_spec_imports_only_its_game_and_no_scipy_stats():
    seen = _imports_after_reading("experiments/sentient_greedy_vs_investor.toml")
    assert seen == {"games": ["simlab.games.sentient"], "scipy_stats": False}


def test_a_game_is_found_without_importing_the_others(monkeypatch):
    """From an empty registry (a new process), ``get_game`` registers just the game asked for; a name that is
    no built-in package discovers every game, so a misspelt one still lists them all."""
    import simlab.core.game as registry
    from simlab.core.errors import SimlabError

    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_DISCOVERED", False)
    assert registry.get_game("smartphone").name == "smartphone"
    assert set(registry._REGISTRY) == {"smartphone"} and not registry._DISCOVERED
    try:
        registry.get_game("sentinent")
    except SimlabError as exc:
        message = str(exc)
    else:
        raise AssertionError("an unknown game was found")
    assert message.startswith("unknown game 'sentinent' (known: ")
    assert all(name in message for name in ("pendulum", "sentient", "smartphone", "steel_arena"))


def test_a_game_only_discovery_finds_is_returned(monkeypatch):
    """A game that is no built-in package (an entry point's) is found by discovering every game."""
    import copy

    import simlab.core.game as registry

    clone = copy.copy(registry.get_game("sentient"))
    object.__setattr__(clone, "name", "sentient_elsewhere")
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_DISCOVERED", False)
    monkeypatch.setattr(registry, "discover_games", lambda: registry.register(clone))
    assert registry.get_game("sentient_elsewhere") is clone
