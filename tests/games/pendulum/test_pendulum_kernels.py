"""Pendulum's kernels compile once each (issue 24: a cold compile took minutes, most of it versions of the same
kernels for literal, int32 and int64 arguments).

``kernel.kernel`` types every integer argument of a call from compiled code as int64; every compiled kernel of the
rules modules is made with it or is inlined where it is called.
"""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

import simlab.games.pendulum as pendulum_pkg
from simlab.games.pendulum.kernel import OneVersionDispatcher, kernel

# the built-in players (the players package), their choose kernel (dispatch.py) and the shared search's hooks
# (search_hooks.py): their kernels are the players' business, not the rules'
NOT_RULES = {"players", "dispatch", "search_hooks"}


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


def _rules_modules():
    for info in pkgutil.iter_modules(pendulum_pkg.__path__):
        if info.name not in NOT_RULES and not info.ispkg:
            yield importlib.import_module(f"simlab.games.pendulum.{info.name}")


def test_every_rules_kernel_is_made_with_kernel_or_inlined():
    plain = []
    for module in _rules_modules():
        for name, obj in vars(module).items():
            if (isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__
                    and not isinstance(obj, OneVersionDispatcher) and obj.targetoptions.get("inline") != "always"):
                plain.append(f"{module.__name__}.{name}")
    assert not plain, "kernels compiled once per argument types (use @kernel): " + ", ".join(plain)
