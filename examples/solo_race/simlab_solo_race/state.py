"""The Solo Race state record: one numpy structured scalar holds a whole game.

Layout (P = seat 0..2, K = random stream, M = move 0 walk / 1 roll / 2 gamble):

    game      seed  n_players  round (1..)  over  actor (the seat to act)
    racers    pos[P]  moves[P, M] (how often each move was made)  busts[P] (gambles that moved 0)
              shift_sum[P] (spaces gained or lost on special spaces)
    automa    automa (1 in solo games)  automa_pos  automa_rank  automa_won
    results   score[P] rank[P] winner[P]
    chance    rng_key[K] rng_ctr[K]: the Automa's stream, one dice stream per seat, one player
              stream per seat (see STREAM_*)

Copying a game (for search players) is copying this one record.
"""

from __future__ import annotations

import numpy as np

MIN_PLAYERS = 1
MAX_PLAYERS = 3
MAX_TRACK = 64  # the longest track a data set or option may ask for
N_MOVES = 3

# Random streams. Each seat rolls from its own dice stream (two dice every turn, whatever it
# chooses), and the Automa from its own: changing one seat's strategy leaves every die of the
# other seats and of the Automa unchanged (common random numbers).
STREAM_AUTOMA = 0  # the Automa's die (solo games)
STREAM_DICE0 = 1  # seat p's dice: stream STREAM_DICE0 + p
STREAM_SEAT0 = STREAM_DICE0 + MAX_PLAYERS  # seat p's player draws: stream STREAM_SEAT0 + p
N_STREAMS = STREAM_SEAT0 + MAX_PLAYERS

STATE_DTYPE = np.dtype(
    [
        ("seed", np.uint64),
        ("n_players", np.int8),
        ("round", np.int16),
        ("over", np.int8),
        ("actor", np.int8),
        ("pos", np.int16, (MAX_PLAYERS,)),
        ("moves", np.int16, (MAX_PLAYERS, N_MOVES)),
        ("busts", np.int16, (MAX_PLAYERS,)),
        ("shift_sum", np.int16, (MAX_PLAYERS,)),
        ("automa", np.int8),
        ("automa_pos", np.int16),
        ("automa_rank", np.int8),
        ("automa_won", np.int8),
        ("score", np.int16, (MAX_PLAYERS,)),
        ("rank", np.int8, (MAX_PLAYERS,)),
        ("winner", np.int8, (MAX_PLAYERS,)),
        ("rng_key", np.uint64, (N_STREAMS,)),
        ("rng_ctr", np.uint64, (N_STREAMS,)),
    ]
)
