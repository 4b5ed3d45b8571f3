"""Column layout of Sentient's result arrays (games, seats) and of its ``takes`` event table."""

from __future__ import annotations

from simlab.games.sentient.data import TYPES
from simlab.games.sentient.state import N_ROUNDS, N_TYPES

# ---- per game
GAME_COLUMNS = ["turns", "reshuffles", "sweeps", "n_winners", "winner_mask"]
G_TURNS, G_RESHUFFLES, G_SWEEPS, G_N_WINNERS, G_WINNER_MASK = range(5)
N_GAME_COLS = 5

# ---- per seat (game-major, one row per game and seat)
SEAT_COLUMNS = [
    "score",
    "card_vp",
    "second_place_vp",
    "investor_vp",
    "rank",
    "winner",
    "investors",
    "start_investor",  # categorical: investor types
    "first_in_round1",
    *[f"cards_{t}" for t in TYPES],
    *[f"round{r + 1}_card_vp" for r in range(N_ROUNDS)],
    *[f"investors_{t}" for t in TYPES],
]
(
    S_TOTAL,
    S_CARD_VP,
    S_SECOND_VP,
    S_INVESTOR_VP,
    S_RANK,
    S_WINNER,
    S_INVESTORS,
    S_START_INVESTOR,
    S_FIRST_IN_ROUND1,
) = range(9)
S_CARDS0 = 9  # cards owned per type (5 columns)
S_ROUND_VP0 = S_CARDS0 + N_TYPES  # card VP per round (3 columns)
S_INVESTORS0 = S_ROUND_VP0 + N_ROUNDS  # investor tokens held per type (5 columns)
N_SEAT_COLS = S_INVESTORS0 + N_TYPES

# ---- the takes event table (one row per card bought, 12 per seat)
TAKE_COLUMNS = ["seat", "round", "turn", "card", "type", "column", "slot", "block_left", "block_right",
                "influence", "points"]
(T_SEAT, T_ROUND, T_TURN, T_CARD, T_TYPE, T_COLUMN, T_SLOT, T_BLOCK_LEFT, T_BLOCK_RIGHT, T_INFLUENCE,
 T_POINTS) = range(11)
N_TAKE_COLS = 11
TAKES_PER_SEAT = 12

assert len(GAME_COLUMNS) == N_GAME_COLS and len(SEAT_COLUMNS) == N_SEAT_COLS and len(TAKE_COLUMNS) == N_TAKE_COLS
