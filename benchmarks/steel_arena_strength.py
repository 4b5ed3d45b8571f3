"""Steel Arena strength checks, kept out of the test suite (they take minutes, not seconds).

The search player (default settings) against each heuristic, each heuristic against random play,
and the brawler against its former version ``brawler_v1`` (equal strength: its interval includes
or exceeds 0.5), at two players, every deal played from both seats (``rotate``): win shares with
intervals clustered by deal. Run from the project root::

    .venv/bin/python benchmarks/steel_arena_strength.py --deals 100

The test suite keeps only fast checks (``tests/games/steel_arena/test_steel_arena_players.py``:
legal, deterministic, own stream only, heuristics beat random over a few games); what used to be
``test_search_beats_the_heuristics`` (search wins most of 100 games against each heuristic) is here.
"""

from __future__ import annotations

import argparse

from simlab.play import play_batch

MATCHES = (
    ("search", "brawler"),
    ("search", "sniper"),
    ("search", "collector"),
    ("brawler", "random"),
    ("sniper", "random"),
    ("collector", "random"),
    ("brawler", "brawler_v1"),  # issue 24: the brawler scored before the end phase against the former brawler
)


def main() -> None:
    """Play every match and print each player's win share with its deal-clustered 95% interval."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per match (each played from both seats)")
    parser.add_argument("--seed", type=int, default=7000)
    args = parser.parse_args()
    for a, b in MATCHES:
        result = play_batch("steel_arena", [a, b], 2 * args.deals, seed=args.seed, rotate=True)
        print(f"{a} vs {b}: {args.deals} deals x 2 seats")
        table = result.summary(by=("player",)).select("player", "games", "deals", "win_rate", "win_lo", "win_hi")
        for row in table.iter_rows(named=True):
            print(f"  {row['player']:10s} win share {row['win_rate']:.3f} [{row['win_lo']:.3f}, {row['win_hi']:.3f}]"
                  f"  ({row['games']} games, {row['deals']} deals)")


if __name__ == "__main__":
    main()
