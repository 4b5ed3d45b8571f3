"""Kernels borrow their arguments: no reference-count increment on entry, no decrement when an argument dies.

numba's lowering gives every argument that holds a reference-counted value (an array, for simlab's kernels) its own
reference: an atomic increment of the array's counter on entry (a call to ``NRT_incref``) and a decrement
(``NRT_decref``) wherever the argument dies. LLVM's reference-count pruning pass removes such a pair only when the
function is small and its paths simple. In a big kernel (an evaluation with a dozen returns, a rules step with loops
and early exits) they stay: in Steel Arena's brawler, 35% of play time was spent in those two calls, most of them
for the game's data tables passed to every kernel.

The reference is redundant. A caller keeps its own reference to every value it passes for the whole call: numba
deletes a caller's variable (or temporary) only after the statement that uses it, and the Python wrapper drops the
arrays it made only after the call returns. So a kernel compiled with :class:`KernelLowering` takes no reference of
its own to an argument that is never assigned anything else (one definition: the argument) and is used as the type
it was passed as, and drops none when it dies. Every other reference keeps its count: a copy into another variable,
a value returned (numba increments a returned value), a value stored in a container. Nothing else changes, so
results are bit-identical; a test checks that numba's allocation counters balance and that returned views stay
valid.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import ir, lowering
from numba.core.compiler_machinery import register_pass
from numba.core.typed_passes import NativeLowering


def borrowed_arguments(func_ir: Any) -> frozenset[str]:
    """The variables of ``func_ir`` whose one definition is an argument (none for a generator or a function
    that makes closures, whose arguments may outlive the call)."""
    if func_ir.generator_info is not None:
        return frozenset()
    if any(True for block in func_ir.blocks.values() for _ in block.find_exprs(op="make_function")):
        return frozenset()
    return frozenset(name for name, values in func_ir._definitions.items()
                     if len(values) == 1 and isinstance(values[0], ir.Arg))


class BorrowingLower(lowering.Lower):
    """numba's lowering, except that arguments are borrowed (see the module)."""

    def pre_lower(self) -> None:
        super().pre_lower()
        self._borrowed = borrowed_arguments(self.func_ir)
        self._skip_counts = False

    def incref(self, typ: Any, val: Any) -> None:
        if not self._skip_counts:
            super().incref(typ, val)

    def decref(self, typ: Any, val: Any) -> None:
        if not self._skip_counts:
            super().decref(typ, val)

    @contextmanager
    def _uncounted(self) -> Iterator[None]:
        """Emit no reference-count operation inside the block."""
        self._skip_counts = True
        try:
            yield
        finally:
            self._skip_counts = False

    def lower_assign(self, ty: Any, inst: Any) -> Any:
        if isinstance(inst.value, ir.Arg) and inst.target.name in self._borrowed:
            if self.typeof("arg." + inst.value.name) == ty:
                with self._uncounted():
                    return super().lower_assign(ty, inst)
            self._borrowed = self._borrowed - {inst.target.name}  # a cast may build a new value: owned, counted
        return super().lower_assign(ty, inst)

    def delvar(self, name: str) -> None:
        if name in self._borrowed:
            with self._uncounted():
                super().delvar(name)
            return
        super().delvar(name)


@register_pass(mutates_CFG=True, analysis_only=False)
class KernelLowering(NativeLowering):
    """numba's native lowering with :class:`BorrowingLower`."""

    _name = "simlab_kernel_lowering"

    @property
    def lowering_class(self) -> type:
        return BorrowingLower
