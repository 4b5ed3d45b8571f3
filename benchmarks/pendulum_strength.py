"""Pendulum strength checks, kept out of the test suite (they take minutes, not seconds).

- each heuristic against its first version (``<name>_v1``: every action played out, about three times
  slower) at two players, every deal played from both seats (``rotate``): the new player's win share with
  its deal-clustered 95% interval (it should include or exceed 0.5: no loss of strength);
- solo against the Automa (level B by default) on the same deals, new and ``_v1``: both win rates and the
  paired per-deal difference with its 95% interval (normal approximation; one game per deal, so the deal
  is the unit);
- the search (default settings, the voter its base) against two voters at three players with seat
  rotation (what used to be ``test_search_beats_its_base_heuristic``);
- the worked Python player (``examples/pendulum_producer.py``, through the observation helpers) solo against
  the level-A Automas beside random on the same deals (what used to be
  ``test_worked_player_beats_random_in_solo``: measured 4 of 12 games won on seeds 700-711, random none).

Run from the project root::

    .venv/bin/python benchmarks/pendulum_strength.py --deals 500 --solo-deals 2000

The test suite keeps only fast checks (``tests/games/pendulum/test_pendulum_players.py``: legal in every
phase, deterministic, own stream only, the heuristics beat random and win some solo games, the worked player
plays a legal game with worker actions).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from simlab.play import play_batch

HEURISTICS = ("track_balancer", "producer", "voter")
WORKED = "examples/pendulum_producer.py:Producer"


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of k successes in n trials."""
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def worked_solo(games: int, seed: int) -> None:
    """The worked Python player and random, solo against the level-A Automas on the same deals: wins of each."""
    for name in (WORKED, "random"):
        result = play_batch("pendulum", [name], games, seed=seed, options={"automa_level": "A"})
        k = int(result.seats["winner"].sum())
        lo, hi = wilson(k, games)
        print(f"solo level A, {games} games: {name} won {k} ({k / games:.3f} [{lo:.3f}, {hi:.3f}])", flush=True)


def head_to_head(a: str, b: str, deals: int, seed: int) -> None:
    """Two-player games of ``a`` against ``b``, every deal from both seats; each one's win share."""
    result = play_batch("pendulum", [a, b], 2 * deals, seed=seed, rotate=True)
    print(f"{a} vs {b}: {deals} deals x 2 seats", flush=True)
    table = result.summary(by=("player",)).select("player", "games", "deals", "win_rate", "win_lo", "win_hi")
    for row in table.iter_rows(named=True):
        print(f"  {row['player']:18s} win share {row['win_rate']:.3f} [{row['win_lo']:.3f}, {row['win_hi']:.3f}]"
              f"  ({row['games']} games, {row['deals']} deals)", flush=True)


def solo_paired(a: str, b: str, deals: int, seed: int, level: str) -> None:
    """Solo games of ``a`` and of ``b`` on the same deals: win rates and the paired difference per deal."""
    wins = []
    for name in (a, b):
        result = play_batch("pendulum", [name], deals, seed=seed, options={"automa_level": level})
        wins.append(result.seats.sort("game")["winner"].cast(float).to_numpy())
    diff = wins[0] - wins[1]
    mean = float(np.mean(diff))
    half = 1.96 * float(np.std(diff, ddof=1)) / math.sqrt(deals)
    print(f"solo level {level}, {deals} deals: {a} {wins[0].mean():.3f}, {b} {wins[1].mean():.3f}; "
          f"paired difference {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]", flush=True)


def main() -> None:
    """Play every comparison and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="two-player deals per pair (each from both seats)")
    parser.add_argument("--solo-deals", type=int, default=2000, help="solo deals per heuristic")
    parser.add_argument("--level", default="B", help="the Automa's level in the solo comparison")
    parser.add_argument("--search-games", type=int, default=24, help="3-player games of search vs two voters")
    parser.add_argument("--worked-games", type=int, default=40, help="solo games of the worked Python player")
    parser.add_argument("--only", choices=("pairs", "solo", "search", "worked"), help="run one part only")
    parser.add_argument("--seed", type=int, default=8000)
    args = parser.parse_args()
    if args.only in (None, "pairs"):
        for name in HEURISTICS:
            head_to_head(name, f"{name}_v1", args.deals, args.seed)
    if args.only in (None, "solo"):
        for name in HEURISTICS:
            solo_paired(name, f"{name}_v1", args.solo_deals, args.seed, args.level)
    if args.only in (None, "search") and args.search_games > 0:
        result = play_batch("pendulum", ["search", "voter", "voter"], args.search_games, seed=args.seed, rotate=True)
        table = result.summary(by=("player",)).select("player", "games", "win_rate", "win_lo", "win_hi")
        print(f"search vs two voters, 3 players, {args.search_games} games with seat rotation", flush=True)
        for row in table.iter_rows(named=True):
            print(f"  {row['player']:18s} win share {row['win_rate']:.3f} [{row['win_lo']:.3f}, {row['win_hi']:.3f}]"
                  f"  ({row['games']} games)", flush=True)

    if args.only in (None, "worked") and args.worked_games > 0:
        worked_solo(args.worked_games, args.seed)


if __name__ == "__main__":
    main()
