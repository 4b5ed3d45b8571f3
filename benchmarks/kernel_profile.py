"""Where a compiled batch spends its time, kernel by kernel (Linux ``perf`` over numba's machine code).

``perf`` sees numba's JIT code as bare addresses. This script plays a warm-up batch, records a timed batch with
``perf record``, then writes ``/tmp/perf-<pid>.map`` (the map ``perf report`` reads for JIT code): every function
of every library numba loaded or compiled in this process, from the object code's symbol table (``nm``) placed
at the address the JIT engine gave the library. It prints the kernels with the largest shares of the samples.
Two finds of issue 24 came from it: numba's reference-count helpers renamed out of the pruning pass's sight, and
the references big kernels took to their arguments (35% of Steel Arena's brawler time each time).

Needs ``perf`` (Debian: ``apt-get install linux-perf``) and ``nm`` (binutils), and ``perf_event_paranoid`` at most
2. Run from the project root::

    .venv/bin/python benchmarks/kernel_profile.py steel_arena brawler,brawler --games 3000
    .venv/bin/python benchmarks/kernel_profile.py pendulum producer --games 1000 --top 30
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from numba.core.codegen import CPUCodeLibrary

OBJECTS: dict[int, tuple[Any, bytes]] = {}  # id(library) -> (library, its object code)
_numba_getbuffer = CPUCodeLibrary._object_getbuffer_hook.__func__
_numba_compiled = CPUCodeLibrary._object_compiled_hook.__func__


def _remember(ll_module: Any, buf: bytes | None) -> None:
    library = getattr(ll_module, "_CPUCodeLibrary__library", None)
    if library is not None and buf:
        OBJECTS[id(library)] = (library, buf)


def _getbuffer(cls: type, ll_module: Any) -> bytes | None:
    buf = _numba_getbuffer(cls, ll_module)  # an object loaded from numba's cache
    _remember(ll_module, buf)
    return buf


def _compiled(cls: type, ll_module: Any, buf: bytes) -> None:
    _numba_compiled(cls, ll_module, buf)  # an object compiled in this process
    _remember(ll_module, buf)


# numba hands these hooks to the JIT engine when its code generator starts: patch them before anything compiles
CPUCodeLibrary._object_getbuffer_hook = classmethod(_getbuffer)
CPUCodeLibrary._object_compiled_hook = classmethod(_compiled)


def _symbols(obj: bytes, folder: Path) -> list[tuple[int, int, str, str]]:
    path = folder / "lib.o"
    path.write_bytes(obj)
    out = subprocess.run(["nm", "-S", "--defined-only", str(path)], capture_output=True, text=True, check=True)
    rows = []
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]))
    return rows


def write_perf_map() -> int:
    """Write ``/tmp/perf-<pid>.map`` for every library seen; returns how many were placed."""
    lines = []
    placed = 0
    with tempfile.TemporaryDirectory() as folder:
        for library, obj in OBJECTS.values():
            rows = _symbols(obj, Path(folder))
            engine = library._codegen._engine
            base = None
            for offset, _, kind, name in rows:  # a global symbol of this object tells where its text was put
                address = engine.get_function_address(name) if kind == "T" else 0
                if address:
                    base = address - offset
                    break
            if base is None:
                continue
            placed += 1
            lines += [f"{base + offset:x} {size:x} {name}" for offset, size, _, name in rows]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return placed


def short_name(symbol: str) -> str:
    """``simlab.games.x.module.kernel`` from numba's mangled name (private copies marked as such)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while rest and rest[0].isdigit():
        n = int(re.match(r"\d+", rest).group(0))
        rest = rest[len(str(n)):]
        parts.append(rest[:n])
        rest = rest[n:]
    return ".".join(parts) + (" (private copy)" if ".private." in symbol else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", help="comma-separated line-up, e.g. brawler,brawler")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    for tool in ("perf", "nm"):
        if shutil.which(tool) is None:
            sys.exit(f"kernel_profile: `{tool}` is not installed (Debian: apt-get install linux-perf binutils)")

    from simlab.play import play_batch

    lineup = args.players.split(",")
    play_batch(args.game, lineup, 10, seed=args.seed)  # compile or load everything first
    data = Path(tempfile.mkdtemp()) / "perf.data"
    perf = subprocess.Popen(["perf", "record", "-q", "-F", "1999", "-o", str(data), "-p", str(os.getpid())])
    time.sleep(1.0)
    start = time.process_time()
    play_batch(args.game, lineup, args.games, seed=args.seed)
    seconds = time.process_time() - start
    perf.send_signal(signal.SIGINT)
    perf.wait()
    placed = write_perf_map()
    print(f"{args.game} {args.players}: {args.games / seconds:,.0f} games per CPU-second; "
          f"{placed} of {len(OBJECTS)} libraries mapped")
    report = subprocess.run(["perf", "report", "-i", str(data), "--sort", "sym", "--stdio"], capture_output=True,
                            text=True).stdout
    shown = 0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m and shown < args.top:
            print(f"{float(m.group(1)):6.2f}%  {short_name(m.group(2))}")
            shown += 1


if __name__ == "__main__":
    main()
