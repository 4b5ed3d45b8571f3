"""Column layout of Solo Race's result arrays (games, seats)."""

from __future__ import annotations

from simlab_solo_race.rules import MOVE_NAMES

# ---- per game
GAME_COLUMNS = [
    "rounds",
    "n_winners",  # winning seats (0 when the Automa beat the solo seat)
    "winner_mask",  # bit p set when seat p won
    "automa",  # bool: an Automa raced (solo games)
    "automa_score",  # the Automa's space (0 without an Automa)
    "automa_rank",  # the Automa's rank among seat and Automa (0 without an Automa)
    "automa_won",  # bool: the Automa won
]
G_ROUNDS, G_N_WINNERS, G_WINNER_MASK, G_AUTOMA, G_AUTOMA_SCORE, G_AUTOMA_RANK, G_AUTOMA_WON = range(7)

# ---- per seat (game-major, one row per game and seat)
SEAT_COLUMNS = [
    "score",  # the space reached
    "rank",  # 1 = best; the Automa counts in solo games; tied seats share a rank
    "winner",
    *[f"{m}s" for m in MOVE_NAMES],  # walks, rolls, gambles: how often each move was made
    "busts",  # gambles that moved nothing
    "shift_sum",  # spaces gained (or lost) on special spaces
    "favourite",  # categorical: the move made most often (the first of equals)
]
S_SCORE, S_RANK, S_WINNER, S_MOVES0 = range(4)
S_BUSTS = S_MOVES0 + len(MOVE_NAMES)
S_SHIFT_SUM = S_BUSTS + 1
S_FAVOURITE = S_SHIFT_SUM + 1

BOOL_COLUMNS = frozenset({"winner", "automa", "automa_won"})
assert len(SEAT_COLUMNS) == S_FAVOURITE + 1
