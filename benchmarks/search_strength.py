"""How strong is the shared search (``ismcts``)? Kept out of the test suite: it takes minutes per game.

For one game, at its default budget unless said otherwise:

1. **against every heuristic**, two players, duplicate format (every deal played from both seats,
   ``simlab ladder``'s paired interval over deals);
2. **against the game's former search player at equal time per decision**: both players' mean
   time per decision is measured on the same positions, and the shared search gets the budget
   that spends the old player's time (``iterations`` scaled);
3. **a budget ladder**: the search at 2x, 4x and 8x its budget against itself at 1x;
4. **more seats**: at 3 and 4 players (where the game allows), one search against the best
   heuristic in the other seats, every deal played once per rotation of the seats: its win share
   against the 1/n a seat of equal strength would have, interval clustered by deal;
5. for games with an Automa (Pendulum solo, ``--levels``), the search's win rate against each
   level, paired by deal with the game's former search player; ``--solo-budgets 1,4`` adds the search at
   4x its budget (a solo budget ladder), ``--workers 2`` splits each player's deals over two processes
   (and the budget ladder's deals, in ranges of ``--budget-chunk``).

Results go to ``benchmarks/records/search_strength_<game>.json`` (quoted by docs/players.md and
the README) and to the terminal. Run from the project root, e.g.::

    .venv/bin/python benchmarks/search_strength.py sentient --deals 200
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.rng import game_seeds
from simlab.ladder import MatchResult, head_to_head, match_result, paired_scores
from simlab.play import play_batch

RESULTS = Path(__file__).parent / "records"  # committed: docs/players.md and the README quote them
SEARCH = "ismcts"


def decision_ms(game_name: str, specs: list[str], positions: int, seed: int = 4242) -> dict[str, float]:
    """Mean milliseconds per decision of each player spec, on the same positions (taken from games
    the game's first ladder heuristic plays against itself; decisions with one legal action skipped)."""
    g = get_game(game_name)
    n = g.min_players
    rules = g.ruleset(n)
    heuristic = _heuristics(g)[0]
    walker = resolve_players(g, [heuristic] * n)[0]
    players = {spec: resolve_players(g, [spec] * n)[0] for spec in specs}
    spent = dict.fromkeys(specs, 0.0)
    log = g.new_log(0)
    done = 0
    game = 0
    for p in players.values():  # compile / load the cache outside the measurement
        state, legal = g.new_game(rules, int(game_seeds(seed + 1, 0, 1)[0]), log)
        g.compiled_action(rules, state.copy(), p.kind, p.params, legal.copy())
    while done < positions:
        state, legal = g.new_game(rules, int(game_seeds(seed, game, 1)[0]), log)
        game += 1
        while len(legal) and done < positions:
            if len(legal) > 1:
                for spec, p in players.items():
                    t = time.perf_counter()
                    g.compiled_action(rules, state.copy(), p.kind, p.params, legal.copy())
                    spent[spec] += time.perf_counter() - t
                done += 1
            a = g.compiled_action(rules, state, walker.kind, walker.params, legal.copy())
            legal = g.step(rules, state, a, log)
    return {spec: spent[spec] / positions * 1e3 for spec in specs}


def _heuristics(g: Any) -> list[str]:
    """The game's heuristics (built-in, not random, not slow), in the ladder's order."""
    builtin = g.builtin_players()
    names = [p for p in g.ladder_players if p in builtin and p != "random" and not builtin[p].slow]
    return names or [p for p, info in builtin.items() if p != "random" and not info.slow]


def _match(game: str, a: str, b: str, deals: int, seed: int) -> dict[str, Any]:
    t = time.perf_counter()
    return _match_row(head_to_head(game, a, b, deals, seed=seed), deals, time.perf_counter() - t)


def _match_row(r: MatchResult, deals: int, seconds: float) -> dict[str, Any]:
    """The record's row for a two-player match over ``deals`` deals, printed as it is made."""
    row = {"player": r.a, "opponent": r.b, "deals": deals, "games": r.games, "win_share": r.win_rate,
           "lo": r.lo, "hi": r.hi, "score_diff": r.score_diff, "seconds": seconds}
    print(f"  {r.a:>28s} vs {r.b:<28s} {r.win_rate:.3f} [{r.lo:.3f}, {r.hi:.3f}]  {r.games} games "
          f"({deals} deals x 2 seats), {seconds:.0f} s", flush=True)
    return row


def _budget_ladder(game: str, budget: int, deals: int, seed: int, workers: int, chunk: int) -> list[dict[str, Any]]:
    """The search at 2x, 4x and 8x ``budget`` against itself at 1x, ``deals`` deals each (seed ``seed + 2 + k``
    at k x, as before). With ``workers`` > 1 every step's deals are cut into ranges of ``chunk`` deals, played by
    that many processes (largest steps first); the ranges give the same games as one batch, and the interval is
    ``simlab ladder``'s over all the deals. Each finished range is printed with its per-deal scores; a step's
    seconds are the work summed over its ranges."""
    from joblib import Parallel, delayed

    steps = [(k, f"{SEARCH}(iterations={k * budget})") for k in (2, 4, 8)]
    chunk = chunk if workers > 1 else deals  # one process: each step in one range

    def part(k: int, a: str, first: int, n: int) -> tuple[int, int, np.ndarray, np.ndarray, float]:
        t = time.perf_counter()
        paired, diff = paired_scores(game, a, SEARCH, n, seed + 2 + k, first_game=first)
        return k, first, paired, diff, time.perf_counter() - t

    tasks = [(k, a, first, min(chunk, deals - first)) for k, a in reversed(steps) for first in range(0, deals, chunk)]
    parts: dict[int, dict[int, tuple[np.ndarray, np.ndarray]]] = {k: {} for k, _ in steps}
    seconds = dict.fromkeys(parts, 0.0)
    for k, first, paired, diff, took in Parallel(n_jobs=max(1, workers), return_as="generator_unordered")(
            delayed(part)(*task) for task in tasks):
        parts[k][first] = (paired, diff)
        seconds[k] += took
        print(f"  {k}x deals {first}-{first + len(paired) - 1}: paired {paired.tolist()} diff {diff.tolist()} "
              f"({took:.0f} s)", flush=True)
    rows = []
    for k, a in steps:
        paired, diff = (np.concatenate([parts[k][f][i] for f in sorted(parts[k])]) for i in (0, 1))
        rows.append(_match_row(match_result(a, SEARCH, paired, diff), deals, seconds[k]))
    return rows


def _table(game: str, lineup: list[str], deals: int, seed: int) -> dict[str, Any]:
    n = len(lineup)
    result = play_batch(game, lineup, n * deals, seed=seed, rotate=True)
    table = result.summary(by=("player",))
    row = table.filter(table["player"] == lineup[0]).row(0, named=True)
    out = {"lineup": lineup, "deals": deals, "games": row["games"], "win_share": row["win_rate"],
           "lo": row["win_lo"], "hi": row["win_hi"], "equal_share": 1 / n}
    print(f"  {','.join(lineup):>58s}: {lineup[0]} {row['win_rate']:.3f} [{row['win_lo']:.3f}, "
          f"{row['win_hi']:.3f}] against 1/{n} = {1 / n:.3f}  ({row['games']} games, {deals} deals)", flush=True)
    return out


def _solo_wins(game: str, spec: str, deals: int, seed: int, options: dict[str, Any], workers: int) -> np.ndarray:
    """``spec``'s win share in each of ``deals`` solo games, in game order; ``workers`` processes each play a
    contiguous range of the games (the same games as one batch: a game's seed depends on its number only)."""
    from joblib import Parallel, delayed

    def part(first: int, n: int) -> np.ndarray:
        r = play_batch(game, [spec], n, seed=seed, first_game=first, options=options)
        return r.seats.sort("game")["win_share"].to_numpy()

    cuts = np.linspace(0, deals, max(1, min(workers, deals)) + 1).astype(int)
    ranges = [(int(a), int(b - a)) for a, b in itertools.pairwise(cuts) if b > a]
    if len(ranges) == 1:
        return part(*ranges[0])
    return np.concatenate(Parallel(n_jobs=len(ranges))(delayed(part)(a, n) for a, n in ranges))


def _solo(game: str, levels: list[str], players: list[str], deals: int, seed: int,
          workers: int = 1) -> list[dict[str, Any]]:
    """Each player alone against the game's Automa at each level, on the same deals (same seeds): win
    rates with Wilson intervals, and each later player's win-rate difference from the first, paired by
    deal (normal interval over the per-deal differences)."""
    from simlab.analysis.intervals import Z95, wilson_interval

    g = get_game(game)
    rows = []
    for level in levels:
        wins = {}
        for spec in players:
            t = time.perf_counter()
            wins[spec] = _solo_wins(game, spec, deals, seed, {g.automa_option: level}, workers)
            lo, hi = wilson_interval(np.array([wins[spec].sum()]), np.array([deals]))
            row = {"level": level, "player": spec, "deals": deals, "win_rate": float(wins[spec].mean()),
                   "lo": float(lo[0]), "hi": float(hi[0]), "seconds": time.perf_counter() - t}
            if spec != players[0]:
                d = wins[spec] - wins[players[0]]
                half = Z95 * float(d.std(ddof=1)) / np.sqrt(deals) if deals > 1 else float("nan")
                row.update({"vs": players[0], "diff": float(d.mean()), "diff_lo": float(d.mean() - half),
                            "diff_hi": float(d.mean() + half)})
            rows.append(row)
            extra = (f"; {row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}] vs {players[0]}, "
                     "paired by deal") if "diff" in row else ""
            print(f"  level {level} {spec:>24s} {row['win_rate']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}] "
                  f"({deals} deals, {row['seconds']:.0f} s){extra}", flush=True)
    return rows


def _iterations(spec: str, budget: int) -> str:
    """The iterations a search spec plays: its own ``iterations=`` or the default ``budget``."""
    given = re.search(r"iterations=(\d+)", spec)
    return given.group(1) if given else str(budget)


def _as(spec: str) -> str:
    """``; played as SPEC`` for a search spec with parameters other than its iterations (a row measured with
    another setting, e.g. a former default), else nothing."""
    rest = re.sub(r"iterations=\d+,?", "", spec).replace("()", "").replace(",)", ")")
    return "" if rest == SEARCH else f"; played as {rest}"


def markdown() -> str:
    """The stored records (``benchmarks/records/search_strength_*.json``) as one markdown table."""
    lines = ["| game | budget | against | games | win share | 95% interval |", "|---|---|---|---|---|---|"]
    for path in sorted(RESULTS.glob("search_strength_*.json")):
        r = json.loads(path.read_text())
        game, budget = r["game"], r["budget"]
        for m in r.get("heuristics", []):
            lines.append(f"| {game} | {_iterations(m['player'], budget)} | {m['opponent']} (2 players"
                         f"{_as(m['player'])}) | {m['games']:,} | {m['win_share']:.3f} | "
                         f"[{m['lo']:.3f}, {m['hi']:.3f}] |")
        if "old" in r:
            o, m = r["old"], r["old"]["match"]
            lines.append(f"| {game} | {o['equal_time_iterations']} (equal time) | {o['player']} (2 players; "
                         f"{o['ms_per_decision'][o['player']]:.1f} ms per decision{_as(m['player'])}) | "
                         f"{m['games']:,} | {m['win_share']:.3f} | [{m['lo']:.3f}, {m['hi']:.3f}] |")
        for m in r.get("budget_ladder", []):
            lines.append(f"| {game} | {_iterations(m['player'], budget)} | itself at "
                         f"{_iterations(m['opponent'], budget)}{_as(m['opponent'])} | {m['games']:,} | "
                         f"{m['win_share']:.3f} | [{m['lo']:.3f}, {m['hi']:.3f}] |")
        for t in r.get("tables", []):
            n = len(t["lineup"])
            lines.append(f"| {game} | {_iterations(t['lineup'][0], budget)} | {n - 1} x {t['lineup'][1]} ({n} players, "
                         f"seats rotated; equal share {t['equal_share']:.3f}{_as(t['lineup'][0])}) | {t['games']:,} | "
                         f"{t['win_share']:.3f} | [{t['lo']:.3f}, {t['hi']:.3f}] |")
        for row in r.get("solo", []):
            diff = (f"; {row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}] against {row['vs']}, "
                    "paired by deal") if "diff" in row else ""
            for label, other in (("the default", row.get("vs_default")), (None, row.get("vs_previous"))):
                if other:  # a budget ladder step, paired with the default and with the step below it
                    diff += (f"; {other['diff']:+.3f} [{other['diff_lo']:+.3f}, {other['diff_hi']:+.3f}] against "
                             f"{label or other['player']}")
            iterations = _iterations(row["player"], budget) if row["player"].startswith(SEARCH) else "-"
            lines.append(f"| {game} | {iterations} | Automa level {row['level']} "
                         f"({row['player']}{diff}) | {row['deals']:,} | {row['win_rate']:.3f} | "
                         f"[{row['lo']:.3f}, {row['hi']:.3f}] |")
        equal = r.get("solo_equal_time")
        for row in (equal or {}).get("rows", []):
            if row["player"] == SEARCH or "diff" not in row:
                continue  # the former player's rows are shown above (same deals and seed)
            ms = equal["ms_per_decision"]
            lines.append(f"| {game} | {equal['equal_time_iterations']} (equal time) | Automa level {row['level']} "
                         f"({row['player']}, {ms[row['vs']]:.2f} ms per decision like {row['vs']}; "
                         f"{row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}] against {row['vs']}'s "
                         f"{row['win_rate'] - row['diff']:.3f}, paired by deal) | {row['deals']:,} | "
                         f"{row['win_rate']:.3f} | [{row['lo']:.3f}, {row['hi']:.3f}] |")
    return "\n".join(lines)


def main() -> None:
    """Run the checks the options ask for and write the JSON record."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="the game, or 'table' to print the stored records as markdown")
    parser.add_argument("--deals", type=int, default=200, help="deals per two-player match (each from both seats)")
    parser.add_argument("--budget-deals", type=int, default=100, help="deals per budget-ladder match")
    parser.add_argument("--table-deals", type=int, default=60, help="deals per 3-4 player line-up (all rotations)")
    parser.add_argument("--positions", type=int, default=40, help="positions timed for equal time per decision")
    parser.add_argument("--old", default=None, help="the former search player (default: the game's other slow "
                        "one; none once it is retired, and the record keeps its last 'old' entry)")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: heuristics,old,budget,tables")
    parser.add_argument("--table-opponent", default=None, help="the heuristic in the other seats at 3-4 players "
                        "(default: the one the search did worst against at two players)")
    parser.add_argument("--levels", default="", help="solo: Automa levels to play (e.g. A,B,C)")
    parser.add_argument("--solo-deals", type=int, default=40, help="solo deals per level and player")
    parser.add_argument("--solo-equal-time", action="store_true", help="solo: the search at the budget that spends "
                        "the former search player's time per decision, instead of its default budget (recorded as "
                        "solo_equal_time)")
    parser.add_argument("--solo-budgets", default="1", help="solo: the search's budgets as multiples of its default "
                        "(e.g. 1,4: 200 and 800 iterations), each paired by deal with the former search player")
    parser.add_argument("--workers", type=int, default=1, help="processes sharing each solo player's deals and the "
                        "budget ladder's deals")
    parser.add_argument("--budget-chunk", type=int, default=4, help="budget ladder with --workers: deals per task")
    parser.add_argument("--seed", type=int, default=9100)
    args = parser.parse_args()
    if args.game == "table":
        print(markdown())
        return
    g = get_game(args.game)
    skip = set(filter(None, args.skip.split(",")))
    builtin = g.builtin_players()
    budget = int(builtin[SEARCH].params["iterations"])
    record: dict[str, Any] = {"game": args.game, "search": SEARCH, "budget": budget,
                              "params": builtin[SEARCH].params, "seed": args.seed}
    heuristics = _heuristics(g)
    print(f"{args.game}: {SEARCH} at {budget} iterations per decision", flush=True)
    if "heuristics" not in skip and g.max_players >= 2 and g.min_players <= 2:
        print("against every heuristic, two players, duplicate format:")
        record["heuristics"] = [_match(args.game, SEARCH, h, args.deals, args.seed) for h in heuristics]
    old = args.old or next((p for p, info in builtin.items() if info.slow and p != SEARCH), None)
    if "old" not in skip and old is not None and g.min_players <= 2:
        ms = decision_ms(args.game, [SEARCH, old], args.positions)
        scaled = max(1, round(budget * ms[old] / ms[SEARCH]))
        equal = f"{SEARCH}(iterations={scaled})"
        print(f"time per decision: {SEARCH} {ms[SEARCH]:.2f} ms, {old} {ms[old]:.2f} ms -> {equal} spends {old}'s time")
        record["old"] = {"player": old, "ms_per_decision": ms, "equal_time_iterations": scaled,
                         "match": _match(args.game, equal, old, args.deals, args.seed + 1)}
    if "budget" not in skip and g.min_players <= 2:
        print("budget ladder (against the default budget):")
        record["budget_ladder"] = _budget_ladder(args.game, budget, args.budget_deals, args.seed, args.workers,
                                                 args.budget_chunk)
    if "tables" not in skip:
        # the best heuristic: the one the search did worst against at two players (else the ladder's last)
        best = args.table_opponent or (min(record["heuristics"], key=lambda m: m["win_share"])["opponent"]
                                       if record.get("heuristics") else heuristics[-1])
        record["tables"] = [_table(args.game, [SEARCH] + [best] * (n - 1), args.table_deals, args.seed + 20 + n)
                            for n in (3, 4) if g.min_players <= n <= g.max_players]
    if args.levels and g.automa_option:
        old_solo = args.old or next((p for p, info in builtin.items() if info.slow and p != SEARCH), None)
        print("alone against the Automa (same deals for every player):")
        if args.solo_equal_time and old_solo is not None:
            ms = decision_ms(args.game, [SEARCH, old_solo], args.positions)
            scaled = max(1, round(budget * ms[old_solo] / ms[SEARCH]))
            equal = f"{SEARCH}(iterations={scaled})"
            print(f"time per decision: {SEARCH} {ms[SEARCH]:.2f} ms, {old_solo} {ms[old_solo]:.2f} ms -> {equal}")
            record["solo_equal_time"] = {"ms_per_decision": ms, "equal_time_iterations": scaled,
                                         "rows": _solo(args.game, args.levels.split(","), [old_solo, equal],
                                                       args.solo_deals, args.seed + 40)}
        else:
            searches = [SEARCH if k == 1 else f"{SEARCH}(iterations={k * budget})"
                        for k in map(int, args.solo_budgets.split(","))]
            record["solo"] = _solo(args.game, args.levels.split(","), [p for p in (old_solo, *searches) if p],
                                   args.solo_deals, args.seed + 40, args.workers)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"search_strength_{args.game}.json"
    old_record = json.loads(path.read_text()) if path.exists() else {}
    old_record.update({k: v for k, v in record.items()})
    path.write_text(json.dumps(old_record, indent=1, default=lambda x: float(x) if np.isscalar(x) else str(x)) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
