"""The decorator of the games' compiled kernels: ``@kernel`` is ``@njit(cache=True)`` with one compiled version each.

numba compiles a kernel once per distinct tuple of argument types at its call sites, and a constant argument is
typed by its value (``Literal[int](3)``): ``push_pending(s, p, PD_GLORY, 1, k)`` and ``push_pending(s, p, PD_ALT,
1, e)`` were two versions, and a seat index read from the state (int32) or counted in a loop (int64) two more.
One game's kernels had about 460 such versions for 280 functions, another's event writer alone 51, and a new
user's first batch waited minutes for them (issue 24).

A kernel made with ``@kernel`` types every integer argument of a call from compiled code as int64 (a literal, a
narrower or an unsigned integer alike; uint64 stays, booleans become plain bool): the call converts its
arguments, which changes no value (an int32 or a uint8 fits an int64, and numba computes integer arithmetic in
int64 anyway), and the kernel is compiled once and cached like any other. Every compiled function of a built-in
game is made with it, inlined, or compiled for one explicit signature (``tests/core/test_jit.py``).

How a kernel's machine code calls another kernel (a call into the callee's own code when it is big, a linked
copy when it is small) and what its cache stores with it: :mod:`simlab.core.jit_link`.

Calls from Python are typed as numba always does (a Python int is an int64 already). Small helpers that numba
inlines (``@njit(cache=True, inline="always")``) are never compiled on their own and keep that decorator.
"""

from __future__ import annotations

from typing import Any

from numba.core import config, types
from numba.core.registry import CPUDispatcher

from simlab.core.jit_link import KernelCache, KernelCompiler, install_call_lowering, register


def _one_type(ty: Any) -> Any:
    """The argument type a kernel is compiled for: int64 for every integer narrower than 64 bits, signed or not,
    and for every integer literal; plain bool for a boolean literal; any other type unchanged."""
    if isinstance(ty, types.IntegerLiteral):
        return types.int64
    if isinstance(ty, types.BooleanLiteral):
        return types.boolean
    if isinstance(ty, types.Integer) and ty.bitwidth < 64:
        return types.int64
    return ty


class OneVersionDispatcher(CPUDispatcher):
    """A CPU dispatcher whose calls from compiled code are typed with :func:`_one_type` arguments."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(_one_type(a) for a in args),
                                         {k: _one_type(v) for k, v in kws.items()})

    def add_overload(self, cres):
        """Add a compiled version; calls to it from other kernels call its code, or link it if small
        (:mod:`simlab.core.jit_link`)."""
        super().add_overload(cres)
        install_call_lowering(self, cres)


def kernel(func):
    """``@njit(cache=True)`` with one compiled version per kernel for the calls from compiled code."""
    if config.DISABLE_JIT:
        return func
    dispatcher = OneVersionDispatcher(py_func=func, locals={}, targetoptions={"nopython": True, "boundscheck": None},
                                      pipeline_class=KernelCompiler)
    dispatcher._cache = KernelCache(func)
    register(dispatcher)
    return dispatcher
