"""Kernels borrow their arguments (``simlab.core.jit_borrow``): no reference count on entry or when an argument
dies, and every other reference still counted, so nothing leaks and nothing is freed early (issue 24).

The kernels below pass arrays through each other in the ways that need a count: a returned argument, a returned
view, an argument copied into another variable, a parameter assigned a new value, an argument stored in a list,
arrays made inside a kernel and handed down. numba's allocation counters (``NUMBA_NRT_STATS``) must balance once
the results are dropped, and every value must be right while they are alive. Runs in a fresh process with its
own cache.
"""

from __future__ import annotations

from pathlib import Path

from tests.core.fresh_process import run_script

KERNELS = '''
import numpy as np
from simlab.core.jit import kernel


@kernel
def pick(a, b, n):
    if n < 0:
        return a
    c = b
    for i in range(n):
        if a[i] > 100.0:
            return c[i:]
    return a[n:]


@kernel
def shrink(a, k):
    a = a[k:]
    return a.sum()


@kernel
def keep(a, b):
    out = [a, b]
    return out[1][0] + out[0][0]


@kernel
def owner(n, k):
    x = np.arange(float(n))
    y = x * 2.0
    total = 0.0
    for r in range(k):
        v = pick(x, y, r % 4 - 1)
        total += v[0] + shrink(y, r % 3) + keep(x, v)
    return pick(x, y, 2), total
'''

RUN = '''
import gc
import json
import re
import numpy as np
from numba.core.runtime import rtsys
import kernels_mod as m

m.owner(5, 3)  # compiles everything (and starts numba's runtime) before counting
gc.collect()
before = rtsys.get_allocation_stats()
a = np.arange(10.0)
b = a * 10.0
views = [m.pick(a, b, n) for n in (-1, 0, 3, 5)]
del a, b
gc.collect()
values = [float(v[0]) for v in views] + [float(v.sum()) for v in views]
tail, total = m.owner(20, 50)
alive = [float(tail[0]), float(tail.sum()), float(total), float(m.shrink(np.arange(6.0), 2)),
         float(m.keep(np.ones(3), np.zeros(3)))]
del views, tail
gc.collect()
after = rtsys.get_allocation_stats()
compiled = m.pick.overloads[next(iter(m.pick.overloads))]
code = compiled.library.get_llvm_str().splitlines()
start = next(i for i, line in enumerate(code) if line.startswith("define") and compiled.fndesc.mangled_name in line)
entry = []
for line in code[start + 2:]:  # after the definition and the entry block's label
    if re.match(r"^[\\w.]+:", line):
        break
    entry.append(line)
print(json.dumps({
    "values": values, "alive": alive,
    "alloc": after.alloc - before.alloc, "free": after.free - before.free,
    "mi_alloc": after.mi_alloc - before.mi_alloc, "mi_free": after.mi_free - before.mi_free,
    "entry_increments": sum("@NRT_incref" in line for line in entry), "entry_lines": len(entry),
}))
'''


def _expected_owner(n: int, k: int) -> tuple[list[float], float]:
    x = [float(i) for i in range(n)]
    y = [2.0 * v for v in x]

    def pick(a: list[float], b: list[float], m: int) -> list[float]:
        if m < 0:
            return a
        for i in range(m):
            if a[i] > 100.0:
                return b[i:]
        return a[m:]

    total = 0.0
    for r in range(k):
        v = pick(x, y, r % 4 - 1)
        total += v[0] + sum(y[r % 3:]) + (v[0] + x[0])
    return pick(x, y, 2), total


def test_borrowed_arguments_leak_nothing_and_free_nothing_early(tmp_path: Path) -> None:
    (tmp_path / "kernels_mod.py").write_text(KERNELS)
    (tmp_path / "run.py").write_text(RUN)
    got = run_script(tmp_path, tmp_path / "cache", NUMBA_NRT_STATS="1")

    firsts = [0.0, 0.0, 3.0, 5.0]  # pick(a, b, n) for n = -1, 0, 3, 5: a, a, a[3:], a[5:]
    sums = [45.0, 45.0, 42.0, 35.0]
    assert got["values"] == firsts + sums, "a view returned by a kernel lost its data after its base was dropped"
    tail, total = _expected_owner(20, 50)
    assert got["alive"] == [tail[0], sum(tail), total, 14.0, 1.0]
    assert got["mi_alloc"] > 0, "the counters saw no allocation: is NUMBA_NRT_STATS in effect?"
    assert got["mi_alloc"] == got["mi_free"] and got["alloc"] == got["free"], got
    assert got["entry_lines"] > 0 and got["entry_increments"] == 0, "pick should take no reference on entry"
