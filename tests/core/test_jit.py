"""Every built-in game's kernels compile once each (issue 24: a cold compile took minutes, much of it versions of
the same kernels for literal, int32 and int64 arguments).

``simlab.core.jit.kernel`` types every integer argument of a call from compiled code as int64; every compiled
function of a built-in game (rules, players, search hooks) is made with it, is inlined where it is called, or is
compiled for an explicit signature only.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from types import ModuleType

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

import simlab.games as games_pkg
from simlab.core.jit import OneVersionDispatcher, kernel


@kernel
def _add(a, b):
    return a + b


@njit
def _calls(x, small):
    # a literal, an int32 read from an array, an int8 and an int64
    return _add(x, 1) + _add(small[0], x) + _add(np.int8(3), 2)


def test_a_kernel_is_compiled_once_for_literal_narrow_and_int64_arguments():
    assert _calls(5, np.array([7], dtype=np.int32)) == 6 + 12 + 5
    assert [tuple(str(a) for a in sig) for sig in _add.signatures] == [("int64", "int64")]


def test_a_kernel_keeps_unsigned_64_bit_and_float_arguments():
    @njit
    def calls(x, y):
        return _add(x, np.uint64(1)) + _add(y, 0.5)

    calls(np.uint64(2), 1.5)
    assert ("uint64", "uint64") in [tuple(str(a) for a in sig) for sig in _add.signatures]
    assert any(str(sig[0]) == "float64" for sig in _add.signatures)


def _game_modules() -> Iterator[ModuleType]:
    for info in pkgutil.walk_packages(games_pkg.__path__, prefix="simlab.games."):
        yield importlib.import_module(info.name)


def test_every_builtin_game_kernel_is_made_with_kernel_or_inlined():
    plain = []
    for module in _game_modules():
        for name, obj in vars(module).items():
            if (isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__
                    and not isinstance(obj, OneVersionDispatcher) and obj.targetoptions.get("inline") != "always"
                    and obj._can_compile):  # an explicit signature (``@njit("(int64,)")``) compiles nothing else
                plain.append(f"{module.__name__}.{name}")
    assert len(list(_game_modules())) > 40  # the walk found the games' modules
    assert not plain, "kernels compiled once per argument types (use @kernel): " + ", ".join(plain)
