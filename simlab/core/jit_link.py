"""How one kernel's machine code calls another's: by a call into the callee's own code, not into a copy of it.

numba links the LLVM code of every function a compiled function calls, and everything under that, into the
caller's module, then optimises and emits the whole again. A game's player kernels each sit on top of the
whole rules, so a cold compile built 20 and more copies of the rules: of 190 CPU-seconds for the first batch
of the largest built-in game, 105 were LLVM re-optimising and re-emitting those copies (issue 24).

A kernel made with :func:`simlab.core.jit.kernel` is *big* when its own module (what a caller would link) is at
least :data:`LINK_LIMIT` bytes of LLVM bitcode. A call from one kernel to a big kernel only declares the callee's
symbol; the JIT engine resolves it to the code compiled (or loaded from the cache) for the callee, which numba
compiles before the caller anyway. A small kernel is linked as before, so LLVM still inlines it where it is hot.
Code that is not a kernel (a plain ``njit`` function, a numba overload) links a big kernel and everything it
declares, as numba always did.

Because a kernel's machine code now needs its big callees in the engine first, the cache stores, with each
compiled kernel, every kernel its code calls, declared or linked (module, name, argument types, return type,
symbol, and a digest of the callee's code). Loading it loads them first, and treats the entry as missing
(compiles it anew) when a callee cannot be found or is no longer the same build. So a cached kernel never calls
a stale or missing callee, and no longer carries a stale copy of one: after editing a kernel, the kernels that
call it are compiled again without clearing the cache by hand (numba alone notices only edits to a kernel's
own file).

Results do not change: no fast-math is in use, so where LLVM inlines or calls makes no difference to any value.

One more cost goes: numba times the LLVM lock during each compile (for the dispatcher's metadata only), and
while compiles nest (a caller's typing compiles its callees) every call into LLVM notified every open compile's
timer: 12 of 105 CPU-seconds of that first batch (before the other cuts). :func:`drop_llvm_lock_timing` removes
numba's LLVM-lock callbacks; nothing in simlab reads those timers.
"""

from __future__ import annotations

import hashlib
import importlib
import uuid
from dataclasses import dataclass
from typing import Any

import llvmlite.binding as llvm_binding
import llvmlite.binding.ffi as llvm_ffi
from numba.core import base as numba_base  # registers numba's LLVM-lock callbacks on import, before we drop them
from numba.core import compiler
from numba.core.caching import CompileResultCacheImpl, FunctionCache
from numba.core.compiler_machinery import AnalysisPass, register_pass
from numba.core.typed_passes import NativeLowering

from simlab.core.jit_borrow import KernelLowering

LINK_LIMIT = 25_000  # bytes of LLVM bitcode (about 1,000 instructions): a kernel this big is called, not linked
CACHE_TAG = "k6"  # in the cache's file names; bump it when what this module generates changes (old entries unread)

# numba defines these in every module and its reference-count pruning pass finds their calls by name: a renamed
# copy would keep every increment and decrement it pairs away (35% of a Pendulum heuristic's play time)
RUNTIME_HELPERS = frozenset({"NRT_incref", "NRT_decref"})


def drop_llvm_lock_timing() -> None:
    """Unregister numba's LLVM-lock event callbacks (see the module); other callbacks stay."""
    for acquire, release in list(llvm_ffi.lib._lock._cblist):
        if getattr(acquire, "__module__", "") == numba_base.__name__:
            llvm_ffi.unregister_lock_callback(acquire, release)


drop_llvm_lock_timing()

_KERNELS: dict[tuple[str, str], Any] = {}  # (module, qualname) -> dispatcher; None when the name is not unique


def register(dispatcher: Any) -> None:
    """Remember ``dispatcher`` by module and qualified name, so that a cached caller can find it again."""
    func = dispatcher.py_func
    key = (func.__module__, func.__qualname__)
    _KERNELS[key] = None if key in _KERNELS or "<locals>" in func.__qualname__ else dispatcher


@dataclass(frozen=True)
class Callee:
    """A kernel that compiled code calls: by its symbol (``declared``), or through a copy linked into it."""

    module: str
    qualname: str
    args: tuple[Any, ...]
    restype: Any
    symbol: str
    digest: str  # of the callee's compiled code (its bitcode) when the caller was compiled
    declared: bool

    def compile_result(self) -> Any:
        """The callee compiled (or loaded from the cache) for its argument types, if it is still the same build."""
        try:
            importlib.import_module(self.module)
        except ImportError:
            return None
        dispatcher = _KERNELS.get((self.module, self.qualname))
        if dispatcher is None:
            return None
        dispatcher.compile(self.args)
        cres = dispatcher.overloads.get(self.args)
        if (cres is None or cres.signature.return_type != self.restype or cres.fndesc.mangled_name != self.symbol
                or getattr(cres.library, "_simlab_digest", None) != self.digest):
            return None
        return cres


def _callees(library: Any) -> list[Callee] | None:
    """The kernels ``library``'s code calls, or None when the library is not a kernel's."""
    return getattr(library, "_simlab_callees", None)


def all_callees(library: Any) -> list[Callee]:
    """Every kernel ``library``'s code calls: its own records and those of every library linked into it."""
    found: dict[tuple[Any, ...], Callee] = {}
    seen: set[int] = set()

    def walk(lib: Any) -> None:
        if id(lib) in seen:
            return
        seen.add(id(lib))
        for callee in _callees(lib) or ():
            found.setdefault((callee.module, callee.qualname, callee.args), callee)
        for linked in getattr(lib, "_linking_libraries", ()):
            walk(linked)

    walk(library)
    return list(found.values())


def _with_declared(library: Any, seen: set[int]) -> list[Any]:
    """``library`` and, recursively, the libraries of the big kernels it declares (for a caller that must link all)."""
    if id(library) in seen:
        return []
    seen.add(id(library))
    out = [library]
    for callee in all_callees(library):
        if callee.declared:
            cres = callee.compile_result()
            if cres is None:
                raise RuntimeError(f"kernel {callee.module}.{callee.qualname} changed while it was being linked")
            out += _with_declared(cres.library, seen)
    return out


def _call_lowering(original: Any, library: Any, callee: Callee | None) -> Any:
    """The lowering of a call to a kernel: from a kernel, declare ``callee`` when it is big, else link ``library``
    and record it; from other code, link ``library`` and every big kernel under it."""

    def lower_call(context, builder, sig, args):
        result = original(context, builder, sig, args)
        caller_calls = _callees(context.active_code_library)
        if caller_calls is None:
            context.add_linking_libs(_with_declared(library, set()))
        elif callee is None:  # a kernel that cannot be found by its name: linked (what it calls: all_callees)
            context.add_linking_libs([library])
        else:  # declared, or linked (then what the callee calls is found through the linked library)
            caller_calls.append(callee)
            if not callee.declared:
                context.add_linking_libs([library])
        return result

    lower_call.signature = original.signature
    lower_call.libs = ()
    return lower_call


def install_call_lowering(dispatcher: Any, cres: Any) -> None:
    """Make calls to ``cres`` (a kernel's compiled version) declare or link it by its size (see the module)."""
    library = cres.library
    if not hasattr(library, "_simlab_digest"):  # compiled now, not loaded from the cache
        bitcode = library._get_module_for_linking().as_bitcode()
        library._simlab_size = len(bitcode)
        library._simlab_digest = hashlib.sha1(bitcode).hexdigest()
    callee = None
    key = (dispatcher.py_func.__module__, dispatcher.py_func.__qualname__)
    if _KERNELS.get(key) is dispatcher:
        callee = Callee(key[0], key[1], tuple(cres.signature.args), cres.signature.return_type,
                        cres.fndesc.mangled_name, library._simlab_digest, library._simlab_size >= LINK_LIMIT)
    selector = cres.target_context._defns[cres.entry_point]
    selector.versions = [(sig, _call_lowering(impl, library, callee)) for sig, impl in selector.versions]
    selector._cache.clear()


def _keep_linked_copies_private(library: Any) -> None:
    """Give the copies linked into ``library`` internal linkage before LLVM optimises its module.

    numba marks a linked copy ``linkonce_odr``: a weak symbol, which the JIT engine resolves to the first
    definition it loaded. Once a kernel's callees are loaded before it (its cache entry lists them), its calls
    into its own copies went to the callees' libraries instead, elsewhere in memory: one game's random players
    ran 7% slower. Private copies are called where they are (and LLVM may inline or trim them freely).

    Each private copy is also renamed (a suffix unique to this library): LLVM may change an internal function's
    arguments, and a copy that kept its kernel's name could be found by that name instead of the kernel itself
    (a call from Python into such a copy crashed).
    """
    optimise = library._optimize_final_module

    def internalise_then_optimise() -> None:
        suffix = ".private." + uuid.uuid4().hex[:16]
        for function in library._final_module.functions:
            if (not function.is_declaration and function.linkage == llvm_binding.Linkage.linkonce_odr
                    and function.name not in RUNTIME_HELPERS):
                function.linkage = llvm_binding.Linkage.internal
                function.name = function.name + suffix
        optimise()

    library._optimize_final_module = internalise_then_optimise


@register_pass(mutates_CFG=False, analysis_only=True)
class MarkKernelLibrary(AnalysisPass):
    """Create the code library of a kernel before lowering and mark it as a kernel's (it records its callees)."""

    _name = "simlab_mark_kernel_library"

    def __init__(self) -> None:
        AnalysisPass.__init__(self)

    def run_pass(self, state: Any) -> bool:
        if state.library is None:
            state.library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
            state.library.enable_object_caching()
        state.library._simlab_callees = []
        _keep_linked_copies_private(state.library)
        return False


class KernelCompiler(compiler.CompilerBase):
    """numba's nopython pipeline with :class:`MarkKernelLibrary` just before lowering."""

    def define_pipelines(self) -> list[Any]:
        pipeline = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
        at = next(i for i, (pass_class, _) in enumerate(pipeline.passes) if pass_class is NativeLowering)
        pipeline.passes[at] = (KernelLowering, "native lowering, arguments borrowed")
        pipeline.passes.insert(at, (MarkKernelLibrary, "mark a kernel's library"))
        pipeline._finalized = False
        pipeline.finalize()
        return [pipeline]


class _KernelCacheImpl(CompileResultCacheImpl):
    """A compile result cached with the kernels its code calls, which are loaded (and checked) before it."""

    def get_filename_base(self, fullname: str, abiflags: str) -> str:
        return super().get_filename_base(fullname, abiflags) + "." + CACHE_TAG

    def reduce(self, cres: Any) -> tuple[Any, ...]:
        library = cres.library
        return (super().reduce(cres), tuple(all_callees(library)), library._simlab_size, library._simlab_digest)

    def rebuild(self, target_context: Any, payload: tuple[Any, ...]) -> Any:
        if not (isinstance(payload, tuple) and len(payload) == 4):
            return None  # written by another version of this module: compiled anew
        reduced, callees, size, digest = payload
        engine = target_context.codegen()._engine
        for callee in callees:
            if callee.compile_result() is None or (callee.declared and not engine.is_symbol_defined(callee.symbol)):
                return None  # a callee changed (or is gone): compiled anew
        cres = super().rebuild(target_context, reduced)
        cres.library._simlab_callees = list(callees)
        cres.library._simlab_size = size
        cres.library._simlab_digest = digest
        return cres


class KernelCache(FunctionCache):
    """numba's function cache, with :class:`_KernelCacheImpl`."""

    _impl_class = _KernelCacheImpl


