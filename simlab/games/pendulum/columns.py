"""Column layout of Pendulum's result arrays: one row per game, one row per game and seat.

Solo games (one seat against the two Automas) have one seat row; the Automas' results are
game columns (``automa*``), never seat rows (docs/adding_a_game.md, "Pendulum's Automa").
"""

from __future__ import annotations

from simlab.games.pendulum.codes import END_BRANCHES, TIME_MODELS
from simlab.games.pendulum.tables import LEVELS

# ---- per game
GAME_COLUMNS = [
    "solo",  # bool: one seat against two Automas
    "level",  # categorical: the Automa level A..F ("none" in multi-player games)
    "time_model",  # categorical: schedule or timed
    "advanced",  # bool: the advanced variant was played (by at least one seat)
    "n_winners",
    "winner_mask",  # bit p set when seat p won
    "end_branch",  # categorical: which end-of-game rule decided (codes.END_BRANCHES)
    "automa_won",  # categorical: none, automa1, automa2 (solo)
    "automa1_space",  # the Automas' score-track spaces at the end (solo; 0 otherwise)
    "automa2_space",
    "automa1_reached",  # bool: the Automa's marker reached its parchment
    "automa2_reached",
    "automa1_grande",  # bool: the Automa took the grande card at some council
    "automa2_grande",
    "automa_draws",  # Automa cards drawn in real time (both triggers, step 5 and Omen)
    "automa_trigger1",  # draws fired by a worker leaving a bottom box (incl. council step 5)
    "automa_trigger2",  # draws fired by the seat flipping green/black while purple had run out
    "automa_flips",  # timers flipped by Automa cards
    "automa_purple_flips",  # purple flips by Automa cards (each sends a time marker to the Automa board)
    "decisions",  # decisions taken by all seats
    "clock_s",  # virtual seconds at the end of the 4th real-time phase (timed model; 360 per round scheduled)
    "provinces_removed",
]
(G_SOLO, G_LEVEL, G_TIME_MODEL, G_ADVANCED, G_N_WINNERS, G_WINNER_MASK, G_END_BRANCH, G_AUTOMA_WON, G_A1_SPACE,
 G_A2_SPACE, G_A1_REACHED, G_A2_REACHED, G_A1_GRANDE, G_A2_GRANDE, G_AUTOMA_DRAWS, G_TRIGGER1, G_TRIGGER2,
 G_AUTOMA_FLIPS, G_AUTOMA_PURPLE, G_DECISIONS, G_CLOCK, G_PROV_REMOVED) = range(22)

# ---- per seat (game-major)
SEAT_COLUMNS = [
    "score",  # VP inside the parchment when all three tracks reached it, else minus the worst track's distance
    "rank",
    "winner",
    "first_privilege",  # bool: the seat started first in privilege order (acts first in every step)
    "start_privilege",  # 1-based place on the privilege track at the start (solo: among the seat and 2 Automas)
    "final_privilege",  # place after the last council's vote
    "character",  # categorical: persona, e.g. "Bolk, The Champion"
    "advanced",  # bool: the seat played the advanced variant
    "power",  # track positions at the end (normalised 0..21, parchment from 14)
    "prestige",
    "popularity",
    "glory",  # glory cubes on all three tracks
    "legendary",  # bool: the seat has its legendary VP
    "legendary_round",  # the round it was taken (0: never)
    "parchment",  # bool: all three tracks in the parchment
    "parchment_vp",  # VP inside the parchment (parchment_counting option), 0 unless all three reached
    "worst_distance",  # distance of the worst track to the parchment (0 when in it)
    "military",  # resources held at the end
    "culture",
    "gold",
    "provinces",  # provinces conquered over the game
    "provinces_kept",  # provinces under the mat at the end
    "worker_actions",
    "stratagems_played",
    "achievements",  # achievements claimed
    "council_bonus_vp",  # privilege-rank VP taken at councils
    "workers",  # workers in play at the end
    "grandes",  # grande workers in play at the end
    "lost",  # resources and VP lost to caps and track ends
    "decisions",
]
(S_SCORE, S_RANK, S_WINNER, S_FIRST, S_START_PRIV, S_FINAL_PRIV, S_CHARACTER, S_ADVANCED, S_POWER, S_PRESTIGE,
 S_POPULARITY, S_GLORY, S_LEGENDARY, S_LEGENDARY_ROUND, S_PARCHMENT, S_PARCHMENT_VP, S_WORST, S_MILITARY,
 S_CULTURE, S_GOLD, S_PROVINCES, S_PROV_KEPT, S_ACTIONS, S_STRATS, S_CLAIMS, S_COUNCIL_VP, S_WORKERS, S_GRANDES,
 S_LOST, S_DECISIONS) = range(30)

BOOL_COLUMNS = frozenset({"solo", "advanced", "automa1_reached", "automa2_reached", "automa1_grande",
                          "automa2_grande", "first_privilege", "legendary", "parchment"})

LEVEL_NAMES = ("none", *LEVELS)  # level column: 0 = none (multi-player), 1..6 = A..F
AUTOMA_WON_NAMES = ("none", "automa1", "automa2")
TIME_MODEL_NAMES = TIME_MODELS
END_BRANCH_NAMES = END_BRANCHES

assert len(GAME_COLUMNS) == 22 and len(SEAT_COLUMNS) == 30
