"""A kernel calls a big kernel's own code instead of linking a copy of it, and the cache keeps that safe (issue 24).

``simlab.core.jit_link``: a call from one kernel to a big kernel declares the callee's symbol; a small kernel is
still linked (inlined where LLVM sees fit); code that is not a kernel links everything. The cache stores every
callee with each kernel and loads them first, so a cached kernel is loaded without compiling, and a kernel whose
callee changed in another file is compiled again instead of running stale code.

Each case runs in fresh processes sharing one numba cache folder, as a user's successive commands do.
"""

from __future__ import annotations

from pathlib import Path

from tests.core.fresh_process import run_script

LINES = 40  # statements in big: about 9 KB of bitcode, against 4 KB for small
LIMIT = 7000  # the link limit in these runs (bytes): big is called, small linked
CALLEE = '''
from simlab.core.jit import kernel

OFFSET = {offset}
STEP = {step}


@kernel
def big(x):
    total = 0
    for i in range(x):
{body}
    return total + OFFSET


@kernel
def small(x):
    return x + STEP
'''

CALLER = '''
from numba import njit

from callee_mod import big, small
from simlab.core.jit import kernel


@kernel
def caller(x):
    return big(x) + small(x)


@njit(cache=True)
def plain(x):
    return big(x) * 2
'''

RUN = '''
import json
from numba import types
import simlab.core.jit_link
simlab.core.jit_link.LINK_LIMIT = {limit}
from caller_mod import caller, plain
import callee_mod

value, doubled = caller(7), plain(7)
library = caller.overloads[(types.int64,)].library
calls = {{c.qualname: c.declared for c in library._simlab_callees}}
symbol = callee_mod.big.overloads[(types.int64,)].fndesc.mangled_name
try:
    lines = [line for line in library.get_llvm_str().splitlines() if symbol in line]
except Exception:  # loaded from the cache: machine code only
    lines = []
print(json.dumps({{
    "value": int(value), "plain": int(doubled), "calls": calls,
    "hits": sum(caller.stats.cache_hits.values()), "misses": sum(caller.stats.cache_misses.values()),
    "declared_only": any(line.startswith("declare") for line in lines)
                     and not any(line.startswith("define") for line in lines),
}}))
'''


def _body(lines: int) -> str:
    return "\n".join(f"        total += (i * {k + 3}) % {k + 7} if i % {k + 2} else {k}" for k in range(lines))


def _write(folder: Path, offset: int, step: int) -> None:
    (folder / "callee_mod.py").write_text(CALLEE.format(offset=offset, step=step, body=_body(LINES)))
    (folder / "caller_mod.py").write_text(CALLER)
    (folder / "run.py").write_text(RUN.format(limit=LIMIT))


def _expected(x: int, offset: int, step: int) -> int:
    total = 0
    for i in range(x):
        for k in range(LINES):
            total += (i * (k + 3)) % (k + 7) if i % (k + 2) else k
    return total + offset + x + step


def test_a_big_kernel_is_called_a_small_one_linked_and_the_cache_loads_both(tmp_path: Path) -> None:
    _write(tmp_path, offset=5, step=1)
    first = run_script(tmp_path, tmp_path / "cache")
    assert first["calls"] == {"big": True, "small": False}
    assert first["declared_only"], "the caller's module should declare big, not define a copy of it"
    assert first["value"] == _expected(7, 5, 1)
    assert first["plain"] == 2 * (_expected(7, 5, 1) - 7 - 1)
    assert first["misses"] == 1 and first["hits"] == 0

    again = run_script(tmp_path, tmp_path / "cache")
    assert again["hits"] == 1 and again["misses"] == 0, "the caller should load from the cache"
    assert again["value"] == first["value"] and again["plain"] == first["plain"]


def test_a_kernel_whose_callee_changed_in_another_file_is_compiled_again(tmp_path: Path) -> None:
    _write(tmp_path, offset=5, step=1)
    run_script(tmp_path, tmp_path / "cache")

    _write(tmp_path, offset=50, step=1)  # the big (declared) callee changed
    after_big = run_script(tmp_path, tmp_path / "cache")
    assert after_big["value"] == _expected(7, 50, 1)
    assert after_big["misses"] == 1

    _write(tmp_path, offset=50, step=4)  # the small (linked) callee changed
    after_small = run_script(tmp_path, tmp_path / "cache")
    assert after_small["value"] == _expected(7, 50, 4), "numba alone would have kept the old copy of small"
    assert after_small["misses"] == 1


ARRAYS = '''
from simlab.core.jit import kernel


@kernel
def first(a):
    return a[0]


@kernel
def head_sum(a, n):
    total = 0.0
    for i in range(n):
        total += first(a[i:])
    return total
'''

RUN_ARRAYS = '''
import json
import re
import numpy as np
from arrays_mod import head_sum

value = head_sum(np.arange(10.0), 5)
code = next(iter(head_sum.overloads.values())).library.get_llvm_str()
print(json.dumps({
    "value": float(value),
    "helpers": sorted(set(re.findall(r"call [^@]*@(NRT_(?:in|de)cref[\\w.]*)", code))),
    "increments": len(re.findall(r"call [^@]*@NRT_incref", code)),
}))
'''


def test_reference_count_pruning_still_finds_the_runtime_helpers(tmp_path: Path) -> None:
    """A private copy keeps numba's ``NRT_incref``/``NRT_decref`` under their names: the pruning pass finds their
    calls by name, and with the helpers renamed it paired away none (35% of a Pendulum heuristic's play time)."""
    (tmp_path / "arrays_mod.py").write_text(ARRAYS)
    (tmp_path / "run.py").write_text(RUN_ARRAYS)
    out = run_script(tmp_path, tmp_path / "cache")
    assert out["value"] == 10.0
    assert out["helpers"] and all(name in ("NRT_incref", "NRT_decref") for name in out["helpers"]), out["helpers"]
    assert out["increments"] == 0, "the slice's increment around the call to first should be pruned"
