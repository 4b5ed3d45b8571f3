"""``simlab bench``: games per second per core, compiled and through the Python driver."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import Player, parse_player_spec, resolve_players
from simlab.core.rng import game_seeds
from simlab.play import compile_notice, needs_compiling, play_batch

Step = Callable[[str, int], Callable[[], None]]  # (description, steps) -> advance one step


def bench_mixes(game_name: str) -> list[list[str]]:
    """The line-ups ``simlab bench`` times: the game's declared ``bench_mixes``, else each built-in
    player at a full table."""
    g = get_game(game_name)
    return [list(mix) for mix in g.bench_mixes] or [[p] * g.max_players for p in g.builtin_players()]


class _FirstLegal(Player):
    """A Python player that costs almost nothing: it returns the first legal action."""

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        return legal[0]


def machine_info() -> str:
    """CPU, core count and the versions that matter for speed."""
    import numba
    import numpy
    import polars

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{cpu}; {os.cpu_count()} cores; Python {platform.python_version()}, numpy {numpy.__version__}, "
        f"numba {numba.__version__}, polars {polars.__version__}"
    )


def _driver_overhead(game_name: str, n_games: int) -> tuple[float, float]:
    """Microseconds per decision the driver adds on top of a Python player's own time."""
    g = get_game(game_name)
    n = g.max_players
    player = _FirstLegal()
    resolved = resolve_players(g, [f"{__file__}:_FirstLegal"] * n)
    rules = g.ruleset(n)
    spent = 0.0
    inner = player.choose

    def timed(obs: Any, legal: Sequence[int]) -> int:
        nonlocal spent
        t = time.perf_counter()
        a = inner(obs, legal)
        spent += time.perf_counter() - t
        return a

    player.choose = timed  # type: ignore[method-assign]
    seeds = game_seeds(0, 0, n_games)
    play_game(g, rules, resolved, int(seeds[0]), instances=[player] * n)  # warm-up
    spent = 0.0
    decisions = 0
    start = time.perf_counter()
    for s in seeds:
        decisions += play_game(g, rules, resolved, int(s), instances=[player] * n).decisions
    total = time.perf_counter() - start
    return (total - spent) / decisions * 1e6, decisions / n_games


def games_per_s(rate: float) -> str:
    """A games/s figure for the bench table: whole games from 10 up, two significant digits below (a search
    player's few games a second, or a fraction of one, must not print as 0)."""
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"


def run_bench(game_name: str, games: int, driver_games: int, mc_games: int, console: Console,
              progress: Step | None = None, announce: Callable[[str], None] | None = None,
              search_decisions: int = 0) -> list[dict]:
    """Run every mix of the game and print the table; returns the rows.

    ``progress(description, steps)`` starts a progress bar and returns what advances it (one
    step per mix, and one for the driver overhead); ``announce`` gets the line saying the rules
    are being compiled, when numba's cache does not hold them yet (compile time is never timed).
    """
    g = get_game(game_name)
    console.print(f"machine: {machine_info()}")
    console.print("one process (one core) per measurement; compile time excluded (warm-up run first)")
    if announce is not None and (needs_compiling(g) or needs_compiling(g, driver=True)):
        announce(compile_notice(g))
    rows = []
    table = Table("players", "compiled games/s per core", "driver games/s", "driver µs/decision")
    table.columns[0].no_wrap = True
    mixes = bench_mixes(game_name)
    advance = progress(f"{game_name} bench", len(mixes) + 1) if progress else (lambda: None)
    for mix in mixes:
        builtin = g.builtin_players()
        heavy = any(getattr(builtin.get(parse_player_spec(p).name), "slow", False) for p in mix)
        n_compiled = mc_games if heavy else games
        n_driver = 0 if driver_games <= 0 else max(2, mc_games // 10) if heavy else driver_games
        play_batch(g, mix, 2 if heavy else 20, seed=12345)  # compile / load the cache (a search game can take seconds)
        result = play_batch(g, mix, n_compiled, seed=1)
        compiled_rate = n_compiled / result.seconds
        row = {"players": ",".join(mix), "compiled_games_per_s": compiled_rate,
               "driver_games_per_s": float("nan"), "driver_us_per_decision": float("nan")}
        if n_driver > 0:
            row["driver_games_per_s"], row["driver_us_per_decision"] = _driver_rate(g, mix, n_driver)
        rows.append(row)
        table.add_row(row["players"], games_per_s(compiled_rate),
                      f"{row['driver_games_per_s']:,.0f}" if n_driver > 0 else "-",
                      f"{row['driver_us_per_decision']:.1f}" if n_driver > 0 else "-")
        advance()
    if driver_games > 0:
        overhead, per_game = _driver_overhead(game_name, driver_games)
    advance()
    console.print(table)
    if driver_games > 0:
        console.print(
            f"Python driver overhead with a Python player: {overhead:.1f} µs per decision on top of the player's "
            f"own time ({per_game:.0f} decisions per {g.max_players}-player game)"
        )
    run_search_bench(game_name, search_decisions, console)
    return rows


def _driver_rate(g: Any, mix: tuple[str, ...], n_games: int) -> tuple[float, float]:
    """Games per second and µs per decision of ``mix`` played through the Python driver (after a warm-up)."""
    resolved = resolve_players(g, mix)
    rules = g.ruleset(len(mix))
    play_game(g, rules, resolved, int(game_seeds(12345, 0, 1)[0]))  # warm-up
    start = time.perf_counter()
    decisions = 0
    for s in game_seeds(1, 0, n_games):
        decisions += play_game(g, rules, resolved, int(s)).decisions
    seconds = time.perf_counter() - start
    return n_games / seconds, seconds / max(decisions, 1) * 1e6


def run_search_bench(game_name: str, decisions: int, console: Console) -> list[dict] | None:
    """Time the shared search (``Kernels.search_profile``) at its default budget on ``decisions``
    positions of games it plays against itself, at every table size the game allows; print and return one row
    per size: iterations/s, ms per decision, the share of decision time outside rollouts and evaluations,
    nodes per decision, the tree's memory bound and the process's peak memory. None (and nothing printed) for a
    game without the search."""
    import resource

    import numpy as np

    from simlab.core.compiled import CompiledGame
    from simlab.core.search import N_STATS, ST_ITERATIONS, ST_NODES, ST_ROLLOUT_S, ST_TREE_S, pool_bytes

    g = get_game(game_name)
    if not isinstance(g, CompiledGame) or g.kernels.search_profile is None or decisions <= 0:
        return None
    k = g.kernels
    name = k.search_player
    log = g.new_log(0)
    buf = np.empty(k.max_actions, dtype=np.int64)

    def measure(n_players: int) -> dict:
        rules = g.ruleset(n_players)
        params = resolve_players(g, [name] * n_players)[0].params
        args = g.kernel_args(rules)
        stats = np.zeros(N_STATS)

        def walk(n_decisions: int, seed0: int) -> float:
            spent = 0.0
            done = 0
            game = 0
            while done < n_decisions:
                state, legal = g.new_game(rules, int(game_seeds(seed0, game, 1)[0]), log)
                game += 1
                while len(legal) and done < n_decisions:
                    n = len(legal)
                    buf[:n] = legal
                    t = time.perf_counter()
                    a = k.search_profile(params, state, buf, n, *args, stats)
                    spent += time.perf_counter() - t
                    done += n > 1
                    legal = g.step(rules, state, int(a), log)
            return spent

        walk(2, 999)  # compile / load the cache, outside the measurement
        stats[:] = 0.0
        seconds = walk(decisions, 1)
        measured = stats[ST_TREE_S] + stats[ST_ROLLOUT_S]
        return {
            "player": name,
            "n_players": n_players,
            "budget": int(params[0]),
            "decisions": decisions,
            "ms_per_decision": seconds / decisions * 1e3,
            "iterations_per_s": stats[ST_ITERATIONS] / seconds,
            "outside_rollouts": stats[ST_TREE_S] / measured if measured > 0 else float("nan"),
            "nodes_per_decision": stats[ST_NODES] / decisions,
            "tree_bound_mib": pool_bytes(int(params[0])) / 2**20,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }

    rows = [measure(n) for n in range(g.min_players, g.max_players + 1)]
    table = Table("search", "players", "budget (iterations)", "decisions", "ms/decision", "iterations/s",
                  "time outside rollouts", "nodes/decision", "tree bound", "peak memory",
                  title="shared ISMCTS at its default budget, in games it plays against itself at each table size")
    for row in rows:
        table.add_row(name, str(row["n_players"]), f"{row['budget']:,}", f"{decisions:,}",
                      f"{row['ms_per_decision']:.2f}", f"{row['iterations_per_s']:,.0f}",
                      f"{row['outside_rollouts']:.0%}", f"{row['nodes_per_decision']:.0f}",
                      f"{row['tree_bound_mib']:.2f} MiB", f"{row['peak_rss_mib']:.0f} MiB")
    console.print(table)
    console.print("time outside rollouts: determinisation, selection, expansion and back-up, as a share of the "
                  "decision's CPU cycles (the rest is rollouts and evaluations; the shorter the game a rollout "
                  "plays out, the larger this share); tree bound: the node pool of iterations + 1 nodes, allocated "
                  "once per decision; peak memory: this process's peak RSS")
    return rows


def _tree_rss_mib(root_pid: int) -> float:
    """Resident memory (MiB) of a process and all its descendants, read from /proc (Linux)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    tree = {root_pid}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                changed = True
    return sum(rss.get(pid, 0) for pid in tree) / 2**20


class _PeakMemory:
    """Samples the memory of this process and its workers in a thread; ``peak`` in MiB."""

    def __init__(self, interval: float = 0.2) -> None:
        import threading

        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(interval,), daemon=True)

    def _run(self, interval: float) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _tree_rss_mib(os.getpid()))
            self._stop.wait(interval)

    def __enter__(self) -> _PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def run_runner_bench(game_name: str, games: int, memory_games: int, console: Console,
                     progress: Step | None = None, announce: Callable[[str], None] | None = None) -> list[dict]:
    """Runner figures for the game's headline mix (its first bench mix): wall time for ``games`` games
    with 1 and 2 local workers and a 2-worker Dask LocalCluster (parquet included), and peak memory
    for ``memory_games``."""
    import shutil
    import tempfile
    from pathlib import Path

    from simlab.runner.run import run_experiment
    from simlab.runner.spec import parse_spec

    console.print(f"machine: {machine_info()}")
    mix = bench_mixes(game_name)[0]
    console.print(f"players: {', '.join(mix)}")
    raw = {"name": f"bench_{game_name}", "game": game_name, "seed": 1, "shard_size": 50_000,
           "players": {"seats": mix, "rotation": "none"}}
    tmp = Path(tempfile.mkdtemp(prefix="simlab-bench-"))
    rows = []
    table = Table("backend", "workers", "games", "wall s", "games/s", "speed-up vs 1 worker")
    base = None
    advance = progress(f"{game_name} runner bench", 4 + bool(memory_games)) if progress else (lambda: None)
    if announce is not None and needs_compiling(game_name):
        announce(compile_notice(game_name))
    try:
        run_experiment(parse_spec({**raw, "games": 1000, "workers": 1}), tmp / "warm", show_progress=False)
        advance()
        for backend, workers in (("local", 1), ("local", 2), ("dask", 2)):
            start = time.perf_counter()
            run_experiment(parse_spec({**raw, "games": games, "workers": workers, "backend": backend}),
                           tmp / f"{backend}{workers}", show_progress=False)
            wall = time.perf_counter() - start
            base = base or wall
            rows.append({"backend": backend, "workers": workers, "games": games, "seconds": wall})
            table.add_row(backend, str(workers), f"{games:,}", f"{wall:.1f}", f"{games / wall:,.0f}",
                          f"{base / wall:.2f}x")
            shutil.rmtree(tmp / f"{backend}{workers}", ignore_errors=True)
            advance()
        console.print(table)
        if memory_games:
            start = time.perf_counter()
            with _PeakMemory() as memory:
                run_experiment(parse_spec({**raw, "games": memory_games, "workers": 2}), tmp / "memory",
                               show_progress=False)
            advance()
            console.print(f"{memory_games:,} games with 2 workers in {time.perf_counter() - start:.0f} s: peak memory "
                          f"{memory.peak:.0f} MiB (runner and workers together, sampled every 0.2 s)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows
